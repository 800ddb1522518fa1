"""Student notebooks and the class bundle, made from the book's chapters (``make student``).

``python -m fairlab.exercises._student [ROOT] [OUT]`` reads every chapter
``ROOT/notebooks/NN_*.ipynb`` and writes into ``OUT`` (default ``ROOT/_build/student``):

* ``notebooks/NN_*.ipynb``: the chapter with every solution removed, nothing executed:

  - a ``{solution}`` block (backtick or colon fence) of a markdown cell is cut out; the cell is
    split there and a markdown cell "Your answer" takes the block's place;
  - a code cell tagged ``solution`` (the instructor's solution, calling
    :func:`fairlab.exercises.check`) becomes a scaffold: ``answer = ...`` and the same check
    call, with the form of the answer in a comment; ``answer = ...`` reads as "no answer yet",
    so the notebook runs from top to bottom as handed out;
  - outputs and execution counts are cleared; the book's MyST substitutions (``{{ run_it }}``)
    are replaced by their text from ``_config.yml``, and each chapter's ``{{ run_time_NN }}``
    by its measured execution time (:func:`run_time_substitutions`), so nothing shows as raw
    ``{{ ... }}``;

* ``fairlab-student.zip``: the student notebooks, the ledgers the reproduction chapters read
  (``notebooks/results/``), the benchmark table and scripts (``benchmarks/``), the ``fairlab``
  source with ``pyproject.toml`` and ``requirements.lock`` (so that the bundle installs on its
  own), ``environment.yml``, a ``Makefile`` (``make install``, ``make lab``, ``make test`` and
  the commands the chapters name) and a ``README.md``. The instructor's key
  (``fairlab/exercises/_key.py``) stays out: the checks find the salted digests of its values in
  ``fairlab/exercises/_hashes.json``, written here with a salt drawn for this bundle. Files are
  stored with mode 0644;
* ``timings.csv`` and ``sessions.csv``: how long each chapter took to execute, summed from the
  execution timestamps stored in the committed notebooks, and per session of the courses on the
  teaching page (the instructor notes show them); ``plans.csv``: the minutes of each session of
  those courses (:func:`plans`), which the teaching page shows.

Nothing is executed, so the whole run takes seconds.
"""

from __future__ import annotations

import copy
import csv
import json
import math
import re
import secrets
import sys
import textwrap
import time
import zipfile
from datetime import datetime
from pathlib import Path

from . import _hashing
from ._registry import expected, labels

BUNDLE = "fairlab-student"
SOLUTION_TAG = "solution"
# The courses of book/teaching.md: per session, the chapters it covers and its homework (each
# session has at least one checked compute exercise). In session 5 of the six, each group of
# students takes one of Chapters 11, 12, 14 and 15 (and the homework of its chapter).
PLANS = {
    "three sessions": [
        {"chapters": [1, 3], "homework": ["ex-insep-test", "ex-di-dp", "ex-linear-mmd"]},
        {"chapters": [4, 5], "homework": ["ex-fpca-numerical", "ex-variants-l", "ex-fpca-means",
                                          "ex-fpca-bound"]},
        {"chapters": [6, 11], "homework": ["ex-repro-ddof", "ex-repro-protocol",
                                           "ex-fkpca-linear"]},
    ],
    "six sessions": [
        {"chapters": [1, 2, 3], "homework": ["ex-datasets-age", "ex-insep-test", "ex-di-dp"]},
        {"chapters": [4, 5], "homework": ["ex-fpca-numerical", "ex-variants-l", "ex-fpca-bound"]},
        {"chapters": [6, 7, 13], "homework": ["ex-erasure-parity", "ex-fkpca-linear",
                                              "ex-fkl-monotone"]},
        {"chapters": [8, 9, 10, 16], "homework": ["ex-scaling-shift", "ex-fdr-2d",
                                                  "ex-fair-pls-monotone"]},
        {"chapters": [11, 12, 14, 15], "one_of": True,
         "homework": ["ex-repro-ddof", "ex-tradeoff-gap", "ex-ps-encoding", "ex-dediego-ci"]},
        {"chapters": [17, 18], "homework": ["ex-audit-train-test", "ex-theory-oblique-2d",
                                            "ex-theory-choose"]},
    ],
}
SESSIONS = {course: [plan["chapters"] for plan in plans] for course, plans in PLANS.items()}
ONE_OF = {(course, number) for course, plans in PLANS.items()
          for number, plan in enumerate(plans, start=1) if plan.get("one_of")}

# The minutes of a 90-minute session (book/teaching.md, "Course plans"): the chapters' prose
# presented at LECTURE_WPM words a minute (a lecturer's pace with formulas on the board, below the
# 130-150 of conversation), their notebooks run once in class (the stored execution times), a lab
# in which the students start the session's checked exercises, and a closing discussion.
SESSION_MINUTES = 90
LECTURE_WPM = 120
LAB_MINUTES = 15
DISCUSSION_MINUTES = 10

STUDENT_RUN_IT = (
    "**Run it yourself.** This notebook comes from the class bundle, which also holds `fairlab`: "
    "in the bundle's folder, `make install` sets up the environment once, `make lab` opens the "
    "chapters in JupyterLab, and `make notebook NB=<chapter> PARAMS=\"-p seed 3\"` reruns this "
    "one with other parameters (the bundle's README.md says more).")

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{solution\}\s*(?P<label>\S*)")
_CHECK_CALL = re.compile(r"check\(\s*[\"'](?P<label>[\w\-]+)[\"']")
_SUBSTITUTION = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def chapters(root):
    """The chapter notebooks ``notebooks/NN_*.ipynb`` of the book at ``root``, in order."""
    return sorted(Path(root, "notebooks").glob("[0-9][0-9]_*.ipynb"))


def run_time_phrase(seconds):
    """How long a chapter runs, in the words of its "Time" line: "about 40 s", "about 3 minutes".

    Seconds are rounded to 5 s below 55 s, minutes to the nearest whole one above.
    """
    if seconds < 55:
        return f"about {max(5, 5 * round(seconds / 5))} s"
    minutes = round(seconds / 60)
    return "about a minute" if minutes <= 1 else f"about {minutes} minutes"


def run_time_substitutions(root):
    """``{"run_time_NN": phrase}`` for every chapter: its execution time, as
    :func:`run_time_phrase` words it, from the timestamps stored in the committed notebook.

    A chapter's "Time" line says ``{{ run_time_NN }}`` instead of a typed duration, so the book
    states the time its own notebook took when it was last executed.
    """
    return {f"run_time_{path.name[:2]}":
            run_time_phrase(execution_seconds(json.loads(path.read_text())))
            for path in chapters(root)}


def _substitutions(root):
    import yaml

    config = yaml.safe_load(Path(root, "_config.yml").read_text())
    typed = {name: " ".join(str(text).split())
             for name, text in config.get("parse", {}).get("myst_substitutions", {}).items()}
    # The book's "Run it yourself" box points readers at the HTML book's download (which holds
    # the solutions); a student's copy says how to run it from the bundle instead.
    typed["run_it"] = STUDENT_RUN_IT
    return {**typed, **run_time_substitutions(root)}


def split_solutions(text):
    """``text`` cut at its ``{solution}`` blocks: a list of ("text", str, "") and
    ("solution", label, the block's text)."""
    parts, kept, lines = [], [], text.split("\n")
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            kept.append(lines[i])
            i += 1
            continue
        fence = match["fence"]
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        if j == len(lines):
            raise ValueError(f"unclosed {{solution}} block: {lines[i]!r}")
        parts.append(("text", "\n".join(kept), ""))
        parts.append(("solution", match["label"], "\n".join(lines[i:j + 1])))
        kept = []
        i = j + 1
    parts.append(("text", "\n".join(kept), ""))
    return [part for part in parts if part[0] == "solution" or part[1].strip()]


def solutions(notebook):
    """The text of every solution of a chapter: its ``{solution}`` blocks and solution cells."""
    found = []
    for cell in notebook["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and SOLUTION_TAG in tags:
            found.append(_source(cell))
        elif cell["cell_type"] == "markdown":
            parts = split_solutions(_source(cell))
            found += [body for kind, _, body in parts if kind == "solution"]
    return found


def _markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text.strip("\n")}


def _code(source, tags=()):
    metadata = {"tags": list(tags)} if tags else {}
    return {"cell_type": "code", "execution_count": None, "metadata": metadata, "outputs": [],
            "source": source}


def answer_cell(label):
    """The markdown cell a student writes in, in place of a ``{solution}`` block."""
    return _markdown(f"**Your answer** (exercise `{label}`): *double-click here and write it.*")


def scaffold_cell(source):
    """The code cell a student works in, in place of a solution-tagged code cell."""
    found = list(dict.fromkeys(m["label"] for m in _CHECK_CALL.finditer(source)))
    if not found:
        return _code("# Your code here.\n")
    known = set(labels())
    lines = ["from fairlab import exercises", ""]
    for label in found:
        lines.append(f"# Exercise {label}: your code here. The check says whether the answer is")
        lines.append("# right, and why not.")
        if label in known:
            lines += textwrap.wrap(f"Expected: {expected(label)}", 96,
                                   initial_indent="# ", subsequent_indent="#   ")
        lines += ["answer = ...", f'exercises.check("{label}", answer)', ""]
    return _code("\n".join(lines).rstrip("\n") + "\n")


def _source(cell):
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def student_notebook(notebook, substitutions=None, *, keep_outputs=False):
    """The student version of a chapter (a notebook as a dict, as ``json.load`` gives it).

    ``keep_outputs=True`` keeps the stored outputs of the cells that are not solutions (the
    printed handouts show the figures and tables).
    """
    substitutions = substitutions or {}
    out = copy.deepcopy(notebook)
    out["metadata"].pop("jupytext", None)
    cells = []
    for cell in notebook["cells"]:
        source = _source(cell)
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and SOLUTION_TAG in tags:
            cells.append(scaffold_cell(source))
        elif cell["cell_type"] == "code":
            kept = [t for t in tags if t != "hide-input"]
            new = _code(source, kept)
            if keep_outputs:
                new["outputs"] = copy.deepcopy(cell.get("outputs", []))
                new["execution_count"] = cell.get("execution_count")
            for key in ("mystnb",):
                if key in cell.get("metadata", {}):
                    new["metadata"][key] = cell["metadata"][key]
            cells.append(new)
        elif cell["cell_type"] == "markdown":
            source = _SUBSTITUTION.sub(lambda m: substitutions.get(m[1], m[0]), source)
            for kind, value, _ in split_solutions(source):
                cells.append(answer_cell(value) if kind == "solution" else _markdown(value))
        else:
            cells.append(copy.deepcopy(cell))
    for cell in cells:
        cell.pop("id", None)
    out["cells"] = cells
    out["nbformat"], out["nbformat_minor"] = 4, 4  # no cell ids needed
    return out


def execution_seconds(notebook):
    """Seconds the notebook's code cells took when it was last executed (stored timestamps)."""
    total = 0.0
    for cell in notebook["cells"]:
        stamps = cell.get("metadata", {}).get("execution", {})
        start, end = stamps.get("iopub.execute_input"), stamps.get("shell.execute_reply")
        if start and end:
            parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
            total += (parse(end) - parse(start)).total_seconds()
    return total


def _title(notebook):
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            match = re.search(r"^#\s+(.+)$", _source(cell), re.M)
            if match:
                return match[1].strip()
    return ""


_README = """\
# fairlab: the exercises

The chapters of the book *fairlab: fair representation learning, linear and kernel* as Jupyter
notebooks for students: every solution is taken out, and where one stood there is a cell to
work in. Compute exercises end with a check that says whether an answer is right (and why not):

```python
answer = ...                                  # your answer
exercises.check("ex-dediego-ci", answer)      # right / not yet, and why
```

## Two commands

You need Python 3.11 or newer, `make`, and access to a Python package index (PyPI or your
institution's mirror) for the first install. In this folder:

```bash
make install   # creates .venv with fairlab, JupyterLab and what the chapters import
make lab       # opens the notebooks in JupyterLab
```

With conda instead: `conda env create -f environment.yml`, `conda activate fairlab`,
`pip install --no-deps --editable .`, then `jupyter lab notebooks/`.

JupyterLab shows the chapters' MyST markdown (admonitions, math, cross-references) through the
`jupyterlab-myst` extension, which the install includes. Every notebook runs from top to bottom
as it is (`make test` runs them all and says which fail): a check that has no answer yet says so
and what form the answer takes. The chapters' first code cell holds their parameters; the checks
assume the defaults.

## The other commands the chapters name

- `make notebook NB=01_quickstart PARAMS="-p seed 3"`: rerun one chapter with other parameters
  (papermill) into `_build/papermill/`;
- `make bench`: the runtime table of `benchmarks/results/goals.csv`, measured on your machine;
- `make reproduce`: the paper-scale results the ledgers of `notebooks/results/` lack (hours);
- `make verify-results`: recompute a sample of the ledgers and compare (minutes).

The last three first install the optional solvers they need (`pip install '.[baselines]'`).
`make test` here runs the notebooks; the book's own test suite is not part of the bundle.

## What is in the bundle

- `notebooks/`: the chapters, without solutions and without outputs;
  `notebooks/results/`: the stored results that the reproduction chapters read;
- `benchmarks/`: the runtime benchmarks and their stored table;
- `fairlab/`, `pyproject.toml`, `requirements.lock`: the library the notebooks call, and the
  tested versions of its dependencies;
- `environment.yml`: the same environment for conda.
"""

_MAKEFILE = """\
# make install: .venv with fairlab, JupyterLab and what the chapters import; make lab: open them.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
NB     ?= 01_quickstart
PARAMS ?=
LEDGERS ?= kleindessner kleindessner_tradeoffs perez_suay de_diego
PIP    := $(BIN)/python -m pip install --quiet --no-compile --constraint requirements.lock
# Bytecode for the installed packages but not for their own test suites, which no chapter imports
# (pip would compile everything: 200 MB, a third of the environment).
COMPILE := $(BIN)/python -m compileall -q -j 0 -x '/tests?/'
SITE   = $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

.PHONY: install lab test notebook solvers bench reproduce verify-results

install:
\ttest -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
\t$(PIP) --editable '.[student]'
\t$(COMPILE) "$(SITE)" fairlab

lab:
\t$(BIN)/jupyter lab notebooks/

# Every notebook from top to bottom in a fresh kernel (executed copies in _build/executed).
test:
\t$(BIN)/python -m fairlab.exercises._run notebooks _build/executed

notebook:
\tmkdir -p _build/papermill
\t$(BIN)/papermill --cwd notebooks notebooks/$(NB).ipynb _build/papermill/$(NB).ipynb $(PARAMS)

# The SDP solvers of the compared methods, which bench, reproduce and verify-results need.
solvers:
\t$(PIP) --editable '.[student,baselines]'
\t$(COMPILE) "$(SITE)"

bench: solvers
\t$(BIN)/python benchmarks/goals.py

reproduce: solvers
\tfor ledger in $(LEDGERS); do $(BIN)/python -m fairlab.experiments run $$ledger || exit 1; done

verify-results: solvers
\tOPENBLAS_NUM_THREADS=1 $(BIN)/python -m fairlab.experiments verify
"""

# Library files the student bundle leaves out: the instructor's key and grading, and a digest
# table left by an earlier build (the bundle gets its own).
_INSTRUCTOR_ONLY = {"fairlab/exercises/_key.py", "fairlab/exercises/_hashes.json",
                    "fairlab/exercises/_instructor.py"}


def _results_files(root):
    """Every file of ``notebooks/results`` a chapter may read: the ledgers and the files beside
    them (Table 4's null-direction scores, the text chapter's embeddings in ``results/text/``),
    all but the ledgers' cache and locks (``.cache/``)."""
    folder = Path(root, "notebooks", "results")
    return sorted(path for path in folder.rglob("*") if path.is_file()
                  and not any(part.startswith(".") for part in path.relative_to(folder).parts))


def _library_files(root):
    for path in sorted(Path(root, "fairlab").rglob("*")):
        if (path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
                and path.relative_to(root).as_posix() not in _INSTRUCTOR_ONLY):
            yield path


def _benchmark_files(root):
    folder = Path(root, "benchmarks")
    yield from sorted(folder.glob("*.py"))
    yield from sorted(folder.glob("results/*.csv"))


def hash_table(salt=None):
    """The digests of the key's values under a fresh salt (what the student bundle ships)."""
    from . import _key
    from ._precision import STEPS

    return _hashing.make_table(_key.references(), STEPS, salt or secrets.token_hex(16))


def _info(name, mtime=None):
    """A zip member stored as a plain file with mode 0644 (rw-r--r--)."""
    info = zipfile.ZipInfo(f"{BUNDLE}/{name}",
                           date_time=time.localtime(mtime)[:6] if mtime else (2020, 1, 1, 0, 0, 0))
    info.external_attr = (0o100644 << 16)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def build(root=".", out=None):
    """Write the student notebooks, the bundle and the timings; returns the bundle's path."""
    root = Path(root).resolve()
    out = Path(out) if out is not None else root / "_build" / "student"
    notebooks_out = out / "notebooks"
    notebooks_out.mkdir(parents=True, exist_ok=True)
    for stale in notebooks_out.glob("*.ipynb"):
        stale.unlink()
    substitutions = _substitutions(root)
    timings = []
    for path in chapters(root):
        notebook = json.loads(path.read_text())
        student = student_notebook(notebook, substitutions)
        (notebooks_out / path.name).write_text(json.dumps(student, indent=1, ensure_ascii=False)
                                               + "\n")
        timings.append({"chapter": int(path.name[:2]), "notebook": path.stem,
                        "title": _title(notebook),
                        "seconds": round(execution_seconds(notebook), 1)})
    _write_csv(out / "timings.csv", timings)
    _write_csv(out / "sessions.csv", _sessions(timings))
    _write_csv(out / "plans.csv", plans(root))

    bundle = out / f"{BUNDLE}.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as zf:
        def add(path, name):
            zf.writestr(_info(name, path.stat().st_mtime), path.read_bytes())
        for path in sorted(notebooks_out.glob("*.ipynb")):
            add(path, f"notebooks/{path.name}")
        for path in _results_files(root):
            add(path, path.relative_to(root).as_posix())
        for path in [*_library_files(root), *_benchmark_files(root)]:
            add(path, path.relative_to(root).as_posix())
        zf.writestr(_info("fairlab/exercises/_hashes.json"), json.dumps(hash_table()) + "\n")
        for name in ("pyproject.toml", "requirements.lock", "environment.yml"):
            add(root / name, name)
        zf.writestr(_info("README.md"), _README)
        zf.writestr(_info("Makefile"), _MAKEFILE)
    return bundle


def _sessions(timings):
    seconds = {row["chapter"]: row["seconds"] for row in timings}
    rows = []
    for course, sessions in SESSIONS.items():
        for number, chapter_list in enumerate(sessions, start=1):
            present = [c for c in chapter_list if c in seconds]
            one_of = (course, number) in ONE_OF
            total = max(seconds[c] for c in present) if one_of else sum(seconds[c] for c in present)
            rows.append({"course": course, "session": number,
                         "chapters": (" or " if one_of else ", ").join(map(str, present)),
                         "seconds": round(total, 1)})
    return rows


def prose_words(notebook):
    """Words of a chapter's prose: its markdown cells without the solutions."""
    return sum(len(text.split()) for cell in notebook["cells"] if cell["cell_type"] == "markdown"
               for kind, text, _ in split_solutions(_source(cell)) if kind == "text")


def reading_minutes(notebook):
    r"""Minutes to present a chapter's prose: :math:`\lceil w / \mathrm{LECTURE\_WPM} \rceil`
    for its :math:`w` words (:func:`prose_words`, solutions left out).

    The lecture minutes of :func:`plans` and the teaching page's reading column
    (:func:`reading_substitutions`) are both this number.
    """
    return math.ceil(prose_words(notebook) / LECTURE_WPM)


def reading_substitutions(root):
    """``{"reading_NN": "M min"}`` for every chapter: its :func:`reading_minutes`, which the
    teaching page's table of chapters quotes instead of a typed reading time."""
    return {f"reading_{path.name[:2]}": f"{reading_minutes(json.loads(path.read_text()))} min"
            for path in chapters(root)}


def plans(root):
    """The minutes of every session of :data:`PLANS`: one dict per session with the chapters,
    their words, and the minutes of lecture (:func:`reading_minutes`), run (the stored execution
    times), lab, discussion and their total, rounded up to whole minutes, and the homework.

    In a session whose chapters are alternatives (one per group) the longest is counted.
    """
    per_chapter = {}
    for path in chapters(root):
        notebook = json.loads(path.read_text())
        per_chapter[int(path.name[:2])] = (reading_minutes(notebook),
                                           math.ceil(execution_seconds(notebook) / 60),
                                           prose_words(notebook))
    rows = []
    for course, sessions in PLANS.items():
        for number, plan in enumerate(sessions, start=1):
            present = [c for c in plan["chapters"] if c in per_chapter]
            parts = [per_chapter[c] for c in present]
            if plan.get("one_of"):
                lecture, run, words = max(parts, key=lambda p: p[0] + p[1])
            else:
                lecture, run, words = (sum(p[i] for p in parts) for i in range(3))
            total = lecture + run + LAB_MINUTES + DISCUSSION_MINUTES
            joint = " or " if plan.get("one_of") else ", "
            rows.append({"course": course, "session": number,
                         "chapters": joint.join(map(str, present)), "words": words,
                         "lecture": lecture, "run": run, "lab": LAB_MINUTES,
                         "discussion": DISCUSSION_MINUTES, "total": total,
                         "homework": ", ".join(plan["homework"])})
    return rows


def _write_csv(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    root = Path(argv[0]) if argv else Path.cwd()
    out = Path(argv[1]) if len(argv) > 1 else None
    bundle = build(root, out)
    print(f"student notebooks and bundle: {bundle}")


if __name__ == "__main__":
    main()
