"""make student: the student notebooks hold no solution, are valid, and run; the class bundle holds
them, the library and the two commands, and nothing of the instructor's."""

import gzip
import json
import re
import zipfile
from pathlib import Path

import nbformat
import numpy as np
import pytest

from fairlab.exercises import _student

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = _student.chapters(ROOT)
# Chapters that run in seconds at their defaults and hold a checked exercise.
CHEAP = ["04_fair_pca_derivation", "13_concept_erasure_images"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    bundle = _student.build(ROOT, out)
    return out, bundle


def _student_notebook(built, path):
    return json.loads((built[0] / "notebooks" / path.name).read_text())


def _lines(text):
    """The lines of ``text`` worth looking for: long enough to be specific."""
    return {line.strip() for line in text.split("\n") if len(line.strip()) >= 20}


def test_every_chapter_has_a_student_notebook(built):
    assert CHAPTERS
    assert sorted(p.name for p in (built[0] / "notebooks").glob("*.ipynb")) == \
        [p.name for p in CHAPTERS]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_solution_text_survives(built, path):
    chapter = json.loads(path.read_text())
    student = _student_notebook(built, path)
    text = "\n".join(_student._source(cell) for cell in student["cells"])
    assert "{solution}" not in text
    assert not [c for c in student["cells"]
                if _student.SOLUTION_TAG in c.get("metadata", {}).get("tags", [])]
    assert not re.search(r"\{\{\s*\w+\s*\}\}", text), "a MyST substitution is left raw"
    # Lines of a solution that also occur outside the solutions (a repeated formula) may stay.
    outside = "\n".join(_student._source(c) for c in chapter["cells"]
                        if _student.SOLUTION_TAG not in c.get("metadata", {}).get("tags", []))
    for block in _student.solutions(chapter):
        outside = outside.replace(block, "")
    # The scaffold keeps the import and the check call of a solution cell, by design.
    scaffolds = "\n".join(_student._source(_student.scaffold_cell(_student._source(c)))
                          for c in chapter["cells"]
                          if _student.SOLUTION_TAG in c.get("metadata", {}).get("tags", []))
    allowed = _lines(outside) | _lines(scaffolds)
    survived = [line for block in _student.solutions(chapter) for line in _lines(block)
                if line in text and line not in allowed]
    assert not survived, survived


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_student_notebook_is_valid_and_keeps_a_place_for_each_solution(built, path):
    student = nbformat.reads(json.dumps(_student_notebook(built, path)), as_version=4)
    nbformat.validate(student)
    assert all(cell.get("outputs", []) == [] for cell in student.cells)
    chapter = json.loads(path.read_text())
    text = "\n".join(cell.source for cell in student.cells)
    for kind, label, _ in (part for cell in chapter["cells"] if cell["cell_type"] == "markdown"
                           for part in _student.split_solutions(_student._source(cell))):
        if kind == "solution":
            assert f"**Your answer** (exercise `{label}`)" in text
    for cell in chapter["cells"]:
        if _student.SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            for label in re.findall(r"check\(\s*\"([\w-]+)\"", _student._source(cell)):
                assert f'answer = ...\nexercises.check("{label}", answer)' in text


def test_split_solutions_handles_both_fences_and_nesting():
    text = ("intro\n```{solution} ex-a\n:class: dropdown\n\nsecret\n```\nmiddle\n"
            "::::{solution} ex-b\n```python\nx = 1\n```\n::::\nend")
    parts = _student.split_solutions(text)
    assert [(k, v) for k, v, _ in parts] == [("text", "intro"), ("solution", "ex-a"),
                                             ("text", "middle"), ("solution", "ex-b"),
                                             ("text", "end")]
    assert "secret" in parts[1][2] and "x = 1" in parts[3][2]
    with pytest.raises(ValueError, match="unclosed"):
        _student.split_solutions("```{solution} ex-c\nnever closed")


def test_bundle_holds_notebooks_library_environment_and_readme_only(built):
    out, bundle = built
    with zipfile.ZipFile(bundle) as zf:
        names = zf.namelist()
        top = {name.split("/")[1] for name in names}
        readme = zf.read(f"{_student.BUNDLE}/README.md").decode()
        packed = {name: zf.read(name) for name in names if name.endswith(".ipynb")}
    assert top == {"notebooks", "fairlab", "benchmarks", "pyproject.toml", "requirements.lock",
                   "environment.yml", "README.md", "Makefile"}
    assert f"{_student.BUNDLE}/fairlab/exercises/_checks.py" in names
    assert f"{_student.BUNDLE}/fairlab/exercises/_key.py" not in names
    assert f"{_student.BUNDLE}/fairlab/exercises/_hashes.json" in names
    # the table that chapters 4, 6, 10 and 12 read (fairlab.evaluation.benchmark_ratios)
    assert f"{_student.BUNDLE}/benchmarks/results/goals.csv" in names
    # every stored result a chapter reads: the ledgers and the files beside them, no cache
    results = ROOT / "notebooks" / "results"
    for path in results.rglob("*"):
        name = f"{_student.BUNDLE}/{path.relative_to(ROOT).as_posix()}"
        if path.is_file() and ".cache" not in path.relative_to(results).parts:
            assert name in names, f"{name} is not in the bundle"
    assert f"{_student.BUNDLE}/notebooks/results/kleindessner_null_directions.csv" in names
    assert not any("/.cache/" in name for name in names)
    assert not any("/book/" in name or name.endswith(".md") and "README" not in name
                   for name in names)
    for path in CHAPTERS:
        name = f"{_student.BUNDLE}/notebooks/{path.name}"
        assert packed[name] == (out / "notebooks" / path.name).read_bytes()
    assert "make install" in readme and "make lab" in readme


def test_timings_come_from_the_stored_executions(built):
    out, _ = built
    rows = (out / "timings.csv").read_text().splitlines()
    assert len(rows) == len(CHAPTERS) + 1
    assert (out / "sessions.csv").read_text().startswith("course,session,chapters,seconds")


@pytest.mark.parametrize("name", CHEAP)
def test_cheap_student_notebooks_run_from_top_to_bottom(built, name):
    from nbclient import NotebookClient

    path = built[0] / "notebooks" / f"{name}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    outputs = [out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
               for cell in notebook.cells if "exercises.check(" in cell.source
               for out in cell.outputs]
    assert outputs and all("no answer yet" in text for text in outputs)


def test_jupyterlab_loads_jupyterlab_myst():
    """The book's environment renders the chapters' MyST in JupyterLab: the extension is installed
    and not flagged incompatible (JupyterLab 4.6's @jupyter/ydoc 4 would switch it off)."""
    import shutil
    import subprocess
    import sys

    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists() and not shutil.which("jupyter"):
        pytest.skip("Jupyter is not installed (install the 'book' extra)")
    pytest.importorskip("jupyterlab_myst")
    command = str(jupyter) if jupyter.exists() else "jupyter"
    result = subprocess.run([command, "labextension", "list"], capture_output=True, text=True,
                            timeout=120)
    listing = result.stdout + result.stderr
    assert "jupyterlab-myst" in listing
    assert '"jupyterlab-myst@' not in listing, listing  # "... is not compatible with ..."


@pytest.mark.parametrize("seconds, phrase", [(0.4, "about 5 s"), (12.0, "about 10 s"),
                                             (52.0, "about 50 s"), (56.0, "about a minute"),
                                             (89.0, "about a minute"), (157.0, "about 3 minutes")])
def test_run_time_phrase(seconds, phrase):
    assert _student.run_time_phrase(seconds) == phrase


def test_every_chapter_states_its_measured_run_time():
    root = Path(__file__).resolve().parents[1]
    times = _student.run_time_substitutions(root)
    assert sorted(times) == [f"run_time_{p.name[:2]}" for p in _student.chapters(root)]
    for path in _student.chapters(root):
        text = "\n".join(_student._source(c) for c in json.loads(path.read_text())["cells"]
                         if c["cell_type"] == "markdown")
        assert f"{{{{ run_time_{path.name[:2]} }}}}" in text, path.name


def test_zip_members_are_plain_files_readable_by_all(built):
    with zipfile.ZipFile(built[1]) as zf:
        modes = {info.filename: info.external_attr >> 16 for info in zf.infolist()}
    assert modes and all(mode == 0o100644 for mode in modes.values()), \
        {name: oct(mode) for name, mode in modes.items() if mode != 0o100644}


def test_every_command_a_student_notebook_names_is_in_the_bundle_makefile(built):
    with zipfile.ZipFile(built[1]) as zf:
        makefile = zf.read(f"{_student.BUNDLE}/Makefile").decode()
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    named = set()
    for path in (built[0] / "notebooks").glob("*.ipynb"):
        text = "\n".join(_student._source(cell) for cell in json.loads(path.read_text())["cells"])
        named |= set(re.findall(r"`make ([a-z][a-z-]*)", text))
    assert named and named <= targets, named - targets


def _constants(code):
    """Every constant of a code object and of the code objects nested in it."""
    for const in code.co_consts:
        if hasattr(const, "co_consts"):
            yield from _constants(const)
        else:
            yield const


# A reference value that the chapter itself prints as a published number: the DI of German
# credit's good-credit label for age > 25 is Table 2 of the paper that chapter 2 reproduces.
PUBLISHED = {("ex-datasets-age", "0.7948")}


def test_no_reference_answer_can_be_read_from_the_bundle(built):
    """No file of the bundle (sources, notebooks, data, the digest table) holds a reference answer
    of the instructor's key (of three significant digits or more at its check's precision; the
    names of a choice are the exercise's own options), nor does a number among the compiled
    constants of the exercises' modules (elsewhere constants are the library's parameters: 0.85
    is the fraction of Fair PCA-S (0.85), not an answer)."""
    from fairlab.exercises import _key, _precision

    def digits(value, step):  # the value at its check's precision, e.g. "0.182"
        return f"{value:.{max(0, -int(np.floor(np.log10(step))))}f}"

    def significant(text):
        return len(text.replace(".", "").strip("0"))

    # A value of one or two significant digits at its precision (0.50, chance level; 5.8) is
    # common in any text; three or more say something.
    references = [(label, value, step) for label, roles in _key.references().items()
                  for value, step in zip(roles["answer"], _precision.STEPS[label]["answer"])
                  if step is not None and significant(digits(value, step)) >= 3]
    # Everywhere: the value as the key writes it (six significant digits). In the exercises'
    # modules and the student notebooks also at the check's precision: elsewhere (ledgers,
    # published tables) three digits recur by chance among thousands of numbers.
    exact = {f"{value:.6g}": label for label, value, _ in references
             if significant(f"{value:.6g}") >= 4}  # 0.464 (of 1 000 points) is 3 digits
    near = {digits(value, step): label for label, value, step in references
            if (label, digits(value, step)) not in PUBLISHED}
    found = []
    with zipfile.ZipFile(built[1]) as zf:
        for name in zf.namelist():
            data = zf.read(name)
            if name.endswith(".gz"):
                data = gzip.decompress(data)
            text = data.decode("utf-8", "replace")
            own = "/fairlab/exercises/" in name or "/notebooks/" in name and name.endswith(".ipynb")
            wanted = {**exact, **near} if own else exact
            found += [(wanted[token], name, token)
                      for token in {t.strip(".") for t in re.findall(r"\d[\d.]*", text)}
                      if token in wanted]
            if name.endswith(".py") and "/fairlab/exercises/" in name:
                # a constant such as 0.5 (the bin's rounding) is no reference of 3 digits or more
                found += [(label, name, const) for const in _constants(compile(text, name, "exec"))
                          if isinstance(const, float) and significant(repr(const)) >= 3
                          for label, value, step in references if abs(const - value) <= 1.5 * step]
    assert not found, found


def test_the_bundle_checks_need_no_key(built, tmp_path):
    """The bundle's library checks answers from its digest table alone: the key is absent."""
    import subprocess
    import sys

    with zipfile.ZipFile(built[1]) as zf:
        for name in zf.namelist():
            if name.startswith(f"{_student.BUNDLE}/fairlab/"):
                zf.extract(name, tmp_path)
    code = ("import importlib.util, math, os, fairlab; from fairlab import exercises; "
            "assert fairlab.__file__.startswith(os.getcwd()), fairlab.__file__; "
            "assert importlib.util.find_spec('fairlab.exercises._key') is None; "
            "print(exercises.check('ex-repro-ddof', math.sqrt(10 / 9)).correct, "
            "exercises.check('ex-repro-ddof', 10 / 9).correct, "
            "exercises.check('ex-dediego-ci', (0.552, 1.048)).correct)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / _student.BUNDLE,
                         capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False", "True"]


def test_every_session_fits_90_minutes_and_has_checked_homework():
    from fairlab import exercises

    rows = _student.plans(ROOT)
    assert len(rows) == sum(len(p) for p in _student.PLANS.values()) == 9
    index = (ROOT / "book" / "exercises.md").read_text()
    teaching = (ROOT / "book" / "teaching.md").read_text()
    for row, plan in zip(rows, [p for plans in _student.PLANS.values() for p in plans]):
        assert row["total"] == row["lecture"] + row["run"] + row["lab"] + row["discussion"]
        assert row["total"] <= _student.SESSION_MINUTES, row
        assert set(plan["homework"]) & set(exercises.labels()), row  # a checked exercise
        for label in plan["homework"]:
            assert f"{{ref}}`{label}`" in index, label
        # the teaching page's list for this course names the session's homework
        course = teaching.split(f"## A course in {row['course']}")[1].split("\n## ")[0]
        item = re.search(rf"^{row['session']}\. (.*?)(?=^\d\. |\Z)", course, re.M | re.S)[1]
        assert all(f"{{ref}}`{label}`" in item for label in plan["homework"]), (row, item)


def test_teaching_page_reading_column_is_the_plans_computation():
    """The teaching page's reading column quotes reading_substitutions, the lecture minutes of the
    course plans, at the words per minute the page states; no reading time is typed."""
    teaching = (ROOT / "book" / "teaching.md").read_text()
    rows = re.findall(r"^\| (\d+)\. \{doc\}`\.\./notebooks/(\d\d)_\w+` \|[^|]*\| ([^|]*?) \|",
                      teaching, re.M)
    assert [int(number) for number, _, _ in rows] == [int(p.name[:2]) for p in CHAPTERS]
    reading = _student.reading_substitutions(ROOT)
    for number, stem, cell in rows:
        assert cell == f"{{{{ reading_{stem} }}}}", (number, cell)
        notebook = json.loads(next(p for p in CHAPTERS if p.name[:2] == stem).read_text())
        minutes = -(-_student.prose_words(notebook) // _student.LECTURE_WPM)
        assert reading[f"reading_{stem}"] == f"{minutes} min"
    assert set(re.findall(r"(\d+) words a minute", teaching)) == {str(_student.LECTURE_WPM)}
    # a session's lecture is the reading of its chapters (the longest of alternatives)
    for row, plan in zip(_student.plans(ROOT),
                         [p for plans in _student.PLANS.values() for p in plans]):
        each = [int(reading[f"reading_{c:02d}"].split()[0]) for c in plan["chapters"]]
        if not plan.get("one_of"):
            assert row["lecture"] == sum(each), row
        else:
            assert row["lecture"] in each, row


def test_lecture_minutes_follow_the_word_count():
    """A chapter's lecture minutes are its prose words (solutions left out) at LECTURE_WPM."""
    path = ROOT / "notebooks" / "04_fair_pca_derivation.ipynb"
    chapter = json.loads(path.read_text())
    student = _student.student_notebook(chapter)
    # the student notebook's prose is the chapter's without solutions, plus one line per answer
    words = sum(len(_student._source(c).split()) for c in student["cells"]
                if c["cell_type"] == "markdown"
                and not _student._source(c).startswith("**Your answer**"))
    assert abs(_student.prose_words(chapter) - words) <= 5  # substitutions differ slightly


def test_handout_sources_keep_outputs_and_drop_solutions(tmp_path):
    """make handouts: per session of the three-session course a cover and its chapters, with
    their stored outputs and without solutions (the LaTeX build itself runs where TeX is)."""
    from fairlab.exercises import _handouts

    folders = _handouts.build(ROOT, tmp_path, latex=False)
    plan = _student.PLANS["three sessions"]
    assert len(folders) == len(plan) == 3
    for folder, session in zip(folders, plan):
        cover = (folder / "index.md").read_text()
        assert all(label in cover for label in session["homework"])
        names = sorted(p.name for p in (folder / "notebooks").glob("*.ipynb"))
        assert [int(name[:2]) for name in names] == session["chapters"]
        for name in names:
            handout = json.loads((folder / "notebooks" / name).read_text())
            chapter = json.loads((ROOT / "notebooks" / name).read_text())
            text = "\n".join(_student._source(cell) for cell in handout["cells"])
            assert "{solution}" not in text
            stored = sum(bool(c.get("outputs")) for c in chapter["cells"]
                         if _student.SOLUTION_TAG not in c.get("metadata", {}).get("tags", []))
            assert sum(bool(c.get("outputs")) for c in handout["cells"]) == stored
