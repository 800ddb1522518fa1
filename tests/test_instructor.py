"""make instructor: the answer key, the solutions and the grading of submitted notebooks."""

import csv
import json
import zipfile
from pathlib import Path

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
