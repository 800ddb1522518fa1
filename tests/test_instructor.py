"""make instructor: the answer key, the solutions and the grading of submitted notebooks."""

import csv
import json
import re
import zipfile
from pathlib import Path

import nbformat
import pytest

from fairlab.exercises import _instructor, _student

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "04_fair_pca_derivation.ipynb"  # runs in seconds


def test_bundle_holds_solutions_key_and_notes(tmp_path):
    bundle = _instructor.build(ROOT, tmp_path)
    with zipfile.ZipFile(bundle) as zf:
        names = set(zf.namelist())
    assert {f"fairlab-instructor/solutions/{p.name}" for p in _student.chapters(ROOT)} <= names
    for name in ("answer_key.csv", "answer_key.md", "instructor_notes.md", "teaching.md"):
        assert f"fairlab-instructor/{name}" in names
    # nbgrader's course layout, source/<assignment>/<notebook>.ipynb, for every chapter with
    # exercises (Chapter 1 has none)
    assert f"fairlab-instructor/nbgrader/source/{CHAPTER.stem}/{CHAPTER.name}" in names
    assert not any(name.startswith("fairlab-instructor/nbgrader/source/01_") for name in names)
    rows = list(csv.DictReader(open(tmp_path / "answer_key.csv")))
    from fairlab import exercises

    assert [r["label"] for r in rows] == exercises.labels()
    audit = next(r for r in rows if r["label"] == "ex-audit-train-test")
    assert audit["chapter"] == "18_auditing_a_representation"
    assert "test gap: 0.182" in audit["solution_output"]  # read from the executed chapter


def _submission(folder, answer_source=None):
    """Chapter 4's student notebook with the scaffold's ``answer = ...`` replaced."""
    notebook = _student.student_notebook(json.loads(CHAPTER.read_text()))
    if answer_source is not None:
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code" and "answer = ..." in cell["source"]:
                cell["source"] = cell["source"].replace("answer = ...", answer_source)
    folder.mkdir(parents=True)
    (folder / CHAPTER.name).write_text(json.dumps(notebook))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    submitted = tmp_path_factory.mktemp("submitted")
    right = ("U = FairPCA(n_features - 1, center=False).fit(X, sensitive_features=z)"
             ".components_.T\nanswer = U.T @ R")
    _submission(submitted / "ada", right)
    _submission(submitted / "bob", "answer = np.eye(n_features - 1)")
    _submission(submitted / "cy")  # handed in as handed out
    out = submitted / "grades.csv"
    assert _instructor.main(["grade", str(submitted), "--root", str(ROOT),
                             "--csv", str(out)]) == 0
    return {row["submission"]: row for row in csv.DictReader(open(out))}


def test_grading_scores_right_wrong_and_missing(graded):
    assert set(graded) == {"ada", "bob", "cy"}
    assert {name: row["status"] for name, row in graded.items()} == \
        {"ada": "right", "bob": "wrong", "cy": "missing"}
    assert all(row["label"] == "ex-fpca-numerical" for row in graded.values())
    assert "orthogonal" in graded["bob"]["message"]


def test_grading_from_stored_outputs(tmp_path):
    notebook = json.loads(CHAPTER.read_text())  # the executed chapter: its check says right
    (tmp_path / "dee").mkdir()
    (tmp_path / "dee" / CHAPTER.name).write_text(json.dumps(notebook))
    rows = _instructor.grade(tmp_path, ROOT, execute=False, report=lambda line: None)
    assert [(r["label"], r["status"]) for r in rows] == [("ex-fpca-numerical", "right")]


def test_notes_quote_the_computed_solution_not_a_typed_value():
    notes = (ROOT / "book" / "instructor_notes.md").read_text()
    assert "{{ solution_ex_audit_train_test }}" in notes
    assert "a few hundredths" not in notes
    quoted = _instructor.solution_substitutions(ROOT)["solution_ex_audit_train_test"]
    assert "test gap: 0.182" in quoted


# nbgrader's cell metadata schema, version 3 (nbgrader/nbgraderformat/v3.json and the checks of
# its MetadataValidatorV3), written out so that the test does not need nbgrader installed.
NBGRADER_REQUIRED = {"schema_version", "grade", "locked", "solution"}
NBGRADER_ALLOWED = NBGRADER_REQUIRED | {"task", "grade_id", "points", "checksum", "cell_type"}


def _check_nbgrader_cell(cell):
    meta = cell["metadata"]["nbgrader"]
    assert NBGRADER_REQUIRED <= set(meta) <= NBGRADER_ALLOWED, meta
    assert meta["schema_version"] == 3
    assert all(isinstance(meta[key], bool) for key in ("grade", "locked", "solution"))
    if meta["grade"] or meta["solution"] or meta["locked"]:
        assert re.fullmatch(r"[a-zA-Z0-9_\-]+", meta.get("grade_id", "")), meta
    if meta["grade"]:
        assert isinstance(meta["points"], (int, float)) and meta["points"] >= 0, meta
    else:
        assert "points" not in meta, meta
    if cell["cell_type"] == "markdown":  # a markdown answer is graded by hand
        assert meta["grade"] and meta["solution"], meta
    return meta


@pytest.mark.parametrize("path", _student.chapters(ROOT), ids=lambda path: path.stem[:2])
def test_nbgrader_export_follows_the_metadata_schema(path):
    chapter = json.loads(path.read_text())
    notebook = _instructor.nbgrader_notebook(chapter, _student._substitutions(ROOT))
    nbformat.validate(nbformat.from_dict(notebook))
    graded = [(cell, _check_nbgrader_cell(cell)) for cell in notebook["cells"]
              if "nbgrader" in cell["metadata"]]
    ids = [meta["grade_id"] for _, meta in graded]
    assert len(ids) == len(set(ids))
    # each checked exercise: an autograded answer and a locked test of it
    for label in _instructor.chapter_labels(chapter):
        answer = next(c for c, m in graded if m["grade_id"] == f"{label}-answer")
        assert answer["source"].count(_instructor.BEGIN_SOLUTION) == 1
        assert answer["source"].rstrip().endswith(_instructor.END_SOLUTION)
        test = next(m for _, m in graded if m["grade_id"] == f"{label}-check")
        assert test["grade"] and test["locked"] and not test["solution"]
    # every solution is in a cell nbgrader clears when it releases the assignment
    written = [m["grade_id"] for c, m in graded if c["cell_type"] == "markdown"]
    assert written == [label for kind, label, _ in _written_solutions(chapter)]
    for cell in notebook["cells"]:
        if "nbgrader" not in cell["metadata"]:
            assert "{solution}" not in cell["source"] and not cell.get("outputs")


def _written_solutions(chapter):
    return [part for cell in chapter["cells"] if cell["cell_type"] == "markdown"
            for part in _student.split_solutions(_student._source(cell)) if part[0] == "solution"]


def test_nbgrader_source_passes_its_own_tests(tmp_path):
    """The exported chapter runs with its solutions in place, and its autograder tests pass."""
    from nbclient import NotebookClient

    notebook = nbformat.from_dict(_instructor.nbgrader_notebook(json.loads(CHAPTER.read_text())))
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    tests = [cell for cell in notebook.cells
             if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-check")]
    assert tests
    for cell in tests:
        assert all(out.output_type != "error" for out in cell.outputs)
        assert ": right." in "".join(out.get("text", "") for out in cell.outputs)
