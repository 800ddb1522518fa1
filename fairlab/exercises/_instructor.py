"""The instructor bundle and the grading of submitted notebooks (``make instructor``).

Not in the student bundle. ``python -m fairlab.exercises._instructor build [ROOT] [OUT]`` writes
into ``OUT`` (default ``ROOT/_build/instructor``):

* ``solutions/NN_*.ipynb``: every chapter as committed, executed, with its solutions;
* ``answer_key.csv`` and ``answer_key.md``: per checked exercise, its chapter, the form of the
  answer, the precision the check applies, the reference value(s) and the typical mistakes it
  recognises (from the instructor's key ``_key``), and what the chapter's solution cell printed
  when it was last executed (:func:`solution_outputs`);
* ``instructor_notes.md`` and ``teaching.md`` (the book's pages);
* ``nbgrader/source/NN_*/NN_*.ipynb``: every chapter with exercises as an nbgrader source
  notebook (:func:`nbgrader_notebook`, cell metadata schema 3), laid out as an nbgrader course's
  ``source`` folder, for teachers who hand out and grade through nbgrader; nbgrader itself is
  not needed to write them;
* ``fairlab-instructor.zip``: all of it.

``python -m fairlab.exercises._instructor grade FOLDER [--csv OUT.csv] [--no-execute]`` scores
the submitted student notebooks under ``FOLDER`` (any depth; a chapter is recognised by its file
name ``NN_*.ipynb``, a submission by the folder that holds it): each notebook is executed in a
fresh kernel (errors do not stop it) with every call of :func:`fairlab.exercises.check` recorded,
and each checked exercise of its chapter is scored by the last verdict its check gave:
``right``, ``wrong`` or ``missing`` (never checked, or "no answer yet"). ``--no-execute`` reads the
verdicts from the stored outputs instead (quick, but a student could have edited them). One CSV
row per submission, notebook and exercise: ``submission, notebook, label, status, message``.
"""

from __future__ import annotations

import argparse
import ast
import copy
import csv
import json
import math
import re
import shutil
import sys
import textwrap
import zipfile
from pathlib import Path

from . import _student
from ._registry import expected, labels

_RECORD = """\
# grading: record every verdict of exercises.check
import fairlab.exercises as _grading_exercises
from fairlab.exercises import _registry as _grading_registry
_grading_verdicts = []
def _grading_check(label, answer=...):
    result = _grading_registry.check(label, answer)
    _grading_verdicts.append([result.label, result.correct, result.message])
    return result
_grading_exercises.check = _grading_check
"""
_REPORT = ("import json as _grading_json\n"
           'print("GRADING " + _grading_json.dumps(_grading_verdicts))\n')
_VERDICT = re.compile(r"^(?P<mark>[✓✗…]) (?P<label>[\w-]+): (?:right|not yet|no answer yet)\. ?"
                      r"(?P<message>.*)$", re.M)


def chapter_labels(notebook):
    """The labels of the checked exercises a chapter's solution cells check, in order."""
    found = []
    for cell in notebook["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and _student.SOLUTION_TAG in tags:
            found += [m["label"] for m in _student._CHECK_CALL.finditer(_student._source(cell))]
    known = set(labels())
    return [label for label in dict.fromkeys(found) if label in known]


def _cell_text(cell):
    texts = []
    for out in cell.get("outputs", []):
        text = out.get("text", "") or out.get("data", {}).get("text/plain", "")
        texts.append("".join(text) if isinstance(text, list) else text)
    return "".join(texts)


def solution_outputs(root):
    """``{label: text}``: what the solution cell of each checked exercise printed (besides the
    check's own verdict) when its chapter was last executed."""
    out = {}
    for path in _student.chapters(root):
        notebook = json.loads(path.read_text())
        for cell in notebook["cells"]:
            tags = cell.get("metadata", {}).get("tags", [])
            if cell["cell_type"] != "code" or _student.SOLUTION_TAG not in tags:
                continue
            text = _VERDICT.sub("", _cell_text(cell)).strip()
            for match in _student._CHECK_CALL.finditer(_student._source(cell)):
                out.setdefault(match["label"], " ".join(text.split()))
    return out


def solution_substitutions(root):
    """``{"solution_<label>": text}`` (the label's ``-`` as ``_``) for the book's pages: what
    :func:`solution_outputs` read, so that a page quotes a computed value instead of typing it."""
    return {f"solution_{label.replace('-', '_')}": text
            for label, text in solution_outputs(root).items() if text}


def answer_key(root):
    """One row per checked exercise: chapter, form, precision, reference, mistakes, output."""
    from . import _key
    from ._precision import STEPS

    references = _key.references()
    chapter_of = {}
    for path in _student.chapters(root):
        for label in chapter_labels(json.loads(path.read_text())):
            chapter_of.setdefault(label, path.stem)
    printed = solution_outputs(root)

    def show(values, steps):  # one decimal beyond the check's precision
        return ", ".join(str(v) if s is None else f"{v:.{max(0, 1 - math.floor(math.log10(s)))}f}"
                         for v, s in zip(values, steps))

    rows = []
    for label in labels():
        roles = references.get(label, {})
        steps = STEPS.get(label, {})
        rows.append({
            "label": label,
            "chapter": chapter_of.get(label, ""),
            "expected": expected(label),
            "precision": "; ".join(f"{role}: " + ", ".join("exact" if s is None else f"{s:g}"
                                                          for s in steps[role])
                                   for role in roles),
            "answer": show(roles["answer"], steps["answer"]) if "answer" in roles
            else "checked from its form (no single value)",
            "mistakes": "; ".join(f"{role}: {show(values, steps[role])}"
                                  for role, values in roles.items() if role != "answer"),
            "solution_output": printed.get(label, ""),
        })
    return rows


# nbgrader's cell metadata, schema version 3: every cell it grades or clears carries these keys
# ("points" only where "grade" is true); nbgrader's generate_assignment replaces the text between
# the solution delimiters of a code cell, and the whole of a markdown solution cell, with a stub.
NBGRADER_SCHEMA_VERSION = 3
BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
POINTS = 1


def _nbgrader_metadata(grade_id, *, grade=False, solution=False, locked=False):
    meta = {"schema_version": NBGRADER_SCHEMA_VERSION, "grade": grade, "solution": solution,
            "locked": locked, "grade_id": grade_id}
    if grade:
        meta["points"] = POINTS
    return meta


def _split_check(source, label):
    """``(code before the check, the answer's source)`` of a solution cell whose last top-level
    statement is ``exercises.check(label, answer)``; None for any other shape."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return None
    last = body[-1] if body else None
    call = last.value if isinstance(last, ast.Expr) else None
    if not (isinstance(call, ast.Call) and getattr(call.func, "attr",
                                                   getattr(call.func, "id", None)) == "check"
            and call.args and isinstance(call.args[0], ast.Constant)
            and call.args[0].value == label and len(call.args) <= 2 and not call.keywords):
        return None
    answer = ast.get_source_segment(source, call.args[1]) if len(call.args) == 2 else "..."
    before = "\n".join(source.split("\n")[:last.lineno - 1]).rstrip()
    return before, answer


def nbgrader_notebook(notebook, substitutions=None):
    """A chapter (a notebook as a dict) as an nbgrader source notebook, outputs cleared.

    * A solution cell whose last statement checks one exercise becomes two cells: the
      autograded answer (``solution``; its code between nbgrader's solution delimiters, ending
      in ``answer = ...`` as the student notebook's scaffold does) and the locked autograder
      test (``grade``, ``POINTS`` points), which asserts that
      :func:`fairlab.exercises.check` finds the answer right.
    * Any other solution cell becomes a manually graded code answer (``grade`` and
      ``solution``), and each ``{solution}`` block of a markdown cell a manually graded markdown
      answer, its cell split there as in :func:`fairlab.exercises._student.student_notebook`.
    * The other cells are kept without metadata of nbgrader's.
    """
    substitutions = substitutions or {}
    known = set(labels())
    out = copy.deepcopy(notebook)
    out["metadata"].pop("jupytext", None)
    cells, manual = [], 0

    def add(cell, meta=None):
        if meta is not None:
            cell["metadata"] = {"nbgrader": meta}
        cells.append(cell)

    for cell in notebook["cells"]:
        source = _student._source(cell)
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code" and _student.SOLUTION_TAG in tags:
            checked = list(dict.fromkeys(m["label"] for m in _student._CHECK_CALL.finditer(source)
                                         if m["label"] in known))
            split = _split_check(source, checked[0]) if len(checked) == 1 else None
            if split is None:
                manual += 1
                add(_student._code(f"{BEGIN_SOLUTION}\n{source.rstrip()}\n{END_SOLUTION}\n"),
                    _nbgrader_metadata(f"code-answer-{manual}", grade=True, solution=True))
                continue
            label, (before, answer) = checked[0], split
            lines = [f"# Exercise {label}: your code here, ending in `answer = ...`.",
                     *(f"# {line}" for line in textwrap.wrap(f"Expected: {expected(label)}", 94)),
                     BEGIN_SOLUTION, *([before] if before else []),
                     *([] if answer == "answer" else [f"answer = {answer}"]), END_SOLUTION]
            add(_student._code("\n".join(lines) + "\n"),
                _nbgrader_metadata(f"{label}-answer", solution=True))
            add(_student._code(f'from fairlab import exercises\n\n'
                               f'result = exercises.check("{label}", answer)\n'
                               f'print(result)\nassert result.correct, result.message\n'),
                _nbgrader_metadata(f"{label}-check", grade=True, locked=True))
        elif cell["cell_type"] == "code":
            add(_student._code(source, [t for t in tags if t != "hide-input"]))
        elif cell["cell_type"] == "markdown":
            source = _student._SUBSTITUTION.sub(lambda m: substitutions.get(m[1], m[0]), source)
            for kind, value, block in _student.split_solutions(source):
                if kind == "solution":
                    manual += not value
                    add(_student._markdown(block), _nbgrader_metadata(
                        value or f"written-answer-{manual}", grade=True, solution=True))
                else:
                    add(_student._markdown(value))
        else:
            add(copy.deepcopy(cell))
    for cell in cells:
        cell.pop("id", None)
    out["cells"] = cells
    out["nbformat"], out["nbformat_minor"] = 4, 4
    return out


def _write_nbgrader(root, folder):
    """The chapters with exercises as nbgrader's ``source/<assignment>/<notebook>.ipynb``."""
    substitutions = _student._substitutions(root)
    for path in _student.chapters(root):
        notebook = nbgrader_notebook(json.loads(path.read_text()), substitutions)
        if any("nbgrader" in cell["metadata"] for cell in notebook["cells"]):
            target = folder / "source" / path.stem / path.name
            target.parent.mkdir(parents=True)
            target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


def build(root=".", out=None):
    """Write the instructor bundle; returns the path of its zip."""
    root = Path(root).resolve()
    out = Path(out) if out is not None else root / "_build" / "instructor"
    solutions = out / "solutions"
    for folder in (solutions, out / "nbgrader"):
        if folder.exists():
            shutil.rmtree(folder)
    solutions.mkdir(parents=True)
    _write_nbgrader(root, out / "nbgrader")
    for path in _student.chapters(root):
        shutil.copyfile(path, solutions / path.name)
    rows = answer_key(root)
    with open(out / "answer_key.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = ["# Answer key of the checked exercises", ""]
    for row in rows:
        lines += [f"## {row['label']} ({row['chapter']})", "", f"- Expected: {row['expected']}",
                  f"- Reference: {row['answer']} (precision {row['precision'] or 'n/a'})"]
        if row["mistakes"]:
            lines.append(f"- Typical mistakes recognised: {row['mistakes']}")
        if row["solution_output"]:
            lines.append(f"- The solution cell printed: {row['solution_output']}")
        lines.append("")
    (out / "answer_key.md").write_text("\n".join(lines))
    for name in ("instructor_notes.md", "teaching.md"):
        shutil.copyfile(root / "book" / name, out / name)
    bundle = out / "fairlab-instructor.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in out.rglob("*") if p.is_file() and p != bundle):
            info = zipfile.ZipInfo(f"fairlab-instructor/{path.relative_to(out).as_posix()}",
                                   date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    return bundle


def _verdicts_executed(path, cwd, timeout):
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(_RECORD))
    notebook.cells.append(nbformat.v4.new_code_cell(_REPORT))
    NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    text = _cell_text(notebook.cells[-1])
    match = re.search(r"^GRADING (.*)$", text, re.M)
    return [] if match is None else [tuple(v) for v in json.loads(match[1])]


def _verdicts_stored(path):
    notebook = json.loads(Path(path).read_text())
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            for match in _VERDICT.finditer(_cell_text(cell)):
                correct = {"✓": True, "✗": False, "…": None}[match["mark"]]
                found.append((match["label"], correct, match["message"]))
    return found


def grade(folder, root=".", *, execute=True, timeout=1800, report=print):
    """Score every submitted notebook under ``folder``: one dict per submission, notebook and
    checked exercise of its chapter, with ``status`` right, wrong or missing."""
    root, folder = Path(root).resolve(), Path(folder)
    expected_labels = {path.name[:2]: chapter_labels(json.loads(path.read_text()))
                       for path in _student.chapters(root)}
    rows = []
    for path in sorted(folder.rglob("[0-9][0-9]_*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        chapter = expected_labels.get(path.name[:2])
        if not chapter:
            continue
        submission = path.parent.relative_to(folder).as_posix()
        verdicts = (_verdicts_executed(path, root / "notebooks", timeout) if execute
                    else _verdicts_stored(path))
        last = {label: (correct, message) for label, correct, message in verdicts}
        for label in chapter:
            correct, message = last.get(label, (None, "never checked"))
            status = {True: "right", False: "wrong", None: "missing"}[correct]
            rows.append({"submission": submission, "notebook": path.name, "label": label,
                         "status": status, "message": message})
        report(f"{submission}/{path.name}: " + ", ".join(
            f"{r['label']} {r['status']}" for r in rows if r["notebook"] == path.name
            and r["submission"] == submission))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="write the instructor bundle")
    make.add_argument("root", nargs="?", default=".")
    make.add_argument("out", nargs="?")
    score = commands.add_parser("grade", help="score a folder of submitted notebooks")
    score.add_argument("folder")
    score.add_argument("--root", default=".", help="the book's checkout (its chapters)")
    score.add_argument("--csv", default="grades.csv", help="where to write the scores")
    score.add_argument("--no-execute", action="store_true",
                       help="read the verdicts stored in the notebooks instead of running them")
    args = parser.parse_args(argv)
    if args.command == "build":
        print(f"instructor bundle: {build(args.root, args.out)}")
        return 0
    rows = grade(args.folder, args.root, execute=not args.no_execute)
    if not rows:
        print(f"no submitted chapter notebook (NN_*.ipynb) under {args.folder}")
        return 1
    with open(args.csv, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    counts = {s: sum(r["status"] == s for r in rows) for s in ("right", "wrong", "missing")}
    print(f"{args.csv}: {len(rows)} rows; " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
