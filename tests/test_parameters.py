"""Every chapter's parameters are read by papermill, as ``make notebook`` runs it.

``make notebook NB=... PARAMS=...`` injects values with papermill, which reads the cell tagged
``parameters`` line by line: a line it cannot parse (a comment holding ``=``) or a name it does
not find (a tuple assignment) is left out of ``papermill --help-notebook`` and draws "Passed
unknown parameter" when set. Papermill only logs these; the tests here make them failures.
"""

import ast
import json
import logging
import logging.handlers
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _parameters_cell(path):
    nb = json.loads(path.read_text())
    return next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))


def _assigned_names(source):
    """Every name the cell assigns, tuple targets included."""
    return {
        target.id
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for top in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for target in ast.walk(top)
        if isinstance(target, ast.Name)
    }


def _inspect(path):
    """papermill's own inspection of the notebook: (its parameters, the warnings it logged)."""
    papermill = pytest.importorskip("papermill")
    logger = logging.getLogger("papermill")
    handler = logging.handlers.BufferingHandler(capacity=10_000)
    logger.addHandler(handler)
    try:
        found = papermill.inspect_notebook(str(path))
    finally:
        logger.removeHandler(handler)
    return found, [record.getMessage() for record in handler.buffer]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_names_its_kernel(path):
    """papermill (make notebook) needs the kernel's name; without it the chapter cannot be rerun."""
    kernelspec = json.loads(path.read_text())["metadata"].get("kernelspec", {})
    assert kernelspec.get("name") == "python3", (
        f"{path.name} has no kernelspec: papermill fails with 'No kernel name found'")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_papermill_reads_every_parameter(path):
    found, messages = _inspect(path)
    unparsed = [m for m in messages if "Unable to parse" in m]
    assert not unparsed, (
        "papermill cannot read these lines (a comment must not hold '=', and one name is "
        f"assigned per line): {unparsed}")
    declared = _assigned_names("".join(_parameters_cell(path)["source"]))
    missing = declared - set(found)
    assert not missing, f"papermill does not see the parameters {sorted(missing)} of {path.stem}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_parameter_is_described(path):
    """Each parameter's help is its comment, which papermill --help-notebook prints."""
    found, _ = _inspect(path)
    undocumented = [name for name, p in found.items() if not p["help"].strip()]
    assert not undocumented, f"give {undocumented} a comment on their line"


def test_the_inspection_catches_what_papermill_cannot_read(tmp_path):
    """The failure modes above, planted in a copy of a chapter."""
    nb = json.loads(NOTEBOOKS[0].read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    cell["source"] = ["a = 1   # the first (a = 1)\n", "b, c = 2, 3   # two at once\n"]
    planted = tmp_path / "planted.ipynb"
    planted.write_text(json.dumps(nb))
    found, messages = _inspect(planted)
    assert any("Unable to parse line 1" in m for m in messages)
    assert {"a", "b", "c"} - set(found) == {"a", "b", "c"}
    assert _assigned_names("".join(cell["source"])) == {"a", "b", "c"}


# check_parameters: the chapters' guard against what papermill injects unchecked.

from fairlab import check_parameters  # noqa: E402


def test_valid_values_pass_unchanged():
    etas = [0, 1, 10]
    namespace = {"dataset": "german", "etas": etas, "rows": None, "noise": 1, "k": 3,
                 "models": ["LR", "DT"], "flag": False}
    assert check_parameters(namespace, dataset=["adult", "german"], etas=list,
                            rows=(int, None), noise=float, k=int, flag=bool,
                            models=(list, ["LR", "DT", "XGB"])) is None
    assert namespace["etas"] is etas and namespace["dataset"] == "german"


def test_a_misspelled_choice_is_refused_with_the_valid_values_and_the_closest():
    with pytest.raises(ValueError, match=(r"^tradeoff_dataset='germen' is not one of 'adult', "
                                          r"'german'; did you mean 'german'\?$")):
        check_parameters({"tradeoff_dataset": "germen"}, tradeoff_dataset=["adult", "german"])


def test_no_suggestion_when_nothing_is_close():
    with pytest.raises(ValueError) as info:
        check_parameters({"dataset": "mnist"}, dataset=("adult", "german"))
    assert "did you mean" not in str(info.value) and "'adult', 'german'" in str(info.value)


def test_a_choice_matches_exactly():
    for value in ("German", "german ", 1):  # case, a space, a number where strings are listed
        with pytest.raises(ValueError):
            check_parameters({"d": value}, d={"adult", "german"} if value == 1 else ["german"])
    with pytest.raises(ValueError, match="not one of True, False"):
        check_parameters({"b": 1}, b=[True, False])  # 1 == True, but a bool is a bool
    check_parameters({"x": 2.0}, x=[1, 2])  # numbers compare as numbers


def test_a_string_where_a_list_is_expected_says_to_use_y():
    with pytest.raises(TypeError) as info:
        check_parameters({"etas": "[0, 1, 10]"}, etas=list)
    message = str(info.value)
    assert message.startswith("etas must be a list, got the string '[0, 1, 10]'")
    assert '-y "etas: [0, 1, 10]"' in message
    with pytest.raises(TypeError, match=r'-y "adversaries: \[\.\.\.\]"'):
        check_parameters({"adversaries": "logistic"}, adversaries=(list, ["logistic"]))


def test_every_item_of_a_list_of_choices_is_checked():
    with pytest.raises(ValueError, match=r"^models\[1\]='XBG' is not one of .*did you mean 'XGB'"):
        check_parameters({"models": ["LR", "XBG"]}, models=(list, ["LR", "DT", "XGB"]))
    check_parameters({"models": []}, models=(list, ["LR"]))


@pytest.mark.parametrize("value, spec, ok", [
    (3, int, True), (True, int, False), (3.0, int, False), ("3", int, False),
    (3, float, True), (0.5, float, True), (False, float, False), (None, float, False),
    (None, (int, None), True), (5, (int, None), True), ("None", (int, None), False),
    (True, bool, True), (0, bool, False), ([1], list, True), ((1,), list, False),
    ({"a": 1}, dict, True), ("{a: 1}", dict, False),
])
def test_types_at_their_edges(value, spec, ok):
    if ok:
        check_parameters({"p": value}, p=spec)
    else:
        with pytest.raises(TypeError, match=r"^p must be an? (int|float|bool|list|dict)"):
            check_parameters({"p": value}, p=spec)


def test_a_mistaken_call_is_refused():
    with pytest.raises(ValueError, match="no parameter named 'sed'"):
        check_parameters({"seed": 0}, sed=int)
    for spec in ("adult", [], 3):
        with pytest.raises(TypeError, match="the spec of d must be"):
            check_parameters({"d": "adult"}, d=spec)


def _check_call(path):
    """The keywords of the check_parameters call in the code cell after the parameters cell."""
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    following = ast.parse("".join(code[1]["source"]))
    calls = [node for node in ast.walk(following) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "check_parameters"]
    return {kw.arg for kw in calls[0].keywords} if calls else None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_checks_every_parameter(path):
    checked = _check_call(path)
    assert checked is not None, (
        "call check_parameters(globals(), name=spec, ...) in the cell after the parameters cell")
    declared = _assigned_names("".join(_parameters_cell(path)["source"]))
    assert checked == declared, (
        f"check_parameters names {sorted(checked - declared)} that are no parameters and leaves "
        f"out {sorted(declared - checked)}")


def test_papermill_run_with_a_misspelled_choice_is_refused(tmp_path):
    """make notebook NB=05_fair_pca_variants PARAMS="-p tradeoff_dataset germen" stops at once."""
    papermill = pytest.importorskip("papermill")
    path = ROOT / "notebooks" / "05_fair_pca_variants.ipynb"
    with pytest.raises(papermill.PapermillExecutionError, match="did you mean 'german'"):
        papermill.execute_notebook(str(path), str(tmp_path / path.name),
                                   parameters={"tradeoff_dataset": "germen"},
                                   cwd=str(path.parent), progress_bar=False)


def test_make_notebook_names_no_kernel():
    """make notebook runs papermill with the kernel the notebook names, as the tests do."""
    import shutil
    import subprocess

    if not shutil.which("make"):
        pytest.skip("make is not installed")
    out = subprocess.run(["make", "-n", "-o", ".venv/.fairlab-installed", "notebook",
                          "NB=13_concept_erasure_images", "PARAMS=-p seed 1"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    command = next(line for line in out.splitlines() if "bin/papermill" in line)
    assert "13_concept_erasure_images.ipynb" in command and "-p seed 1" in command
    assert " -k " not in command and "--kernel" not in command
