"""Conventions every notebook of the book follows (see CONTRIBUTING.md)."""

import ast
import io
import json
import logging
import logging.handlers
import os
import re
import tokenize
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _toc_files(node):
    if isinstance(node, dict):
        if "file" in node:
            yield node["file"]
        if "root" in node:
            yield node["root"]
        for value in node.values():
            yield from _toc_files(value)
    elif isinstance(node, list):
        for item in node:
            yield from _toc_files(item)


TOC = set(_toc_files(yaml.safe_load((ROOT / "_toc.yml").read_text())))


def _load(path):
    return json.loads(path.read_text())


def _code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _source(cell):
    return "".join(cell["source"])


# What a reader meets as console text: a stream, or a result with no richer form than plain text
# (a DataFrame always has its HTML; a Series, a dict or a number has plain text only).
MAX_CONSOLE_LINES = 10
_SERIES_FOOTER = re.compile(r"^(Name: .+, )?(Length: \d+, )?dtype: \w+$", re.M)
_COLUMNS = re.compile(r"\S {2,}\S")


def _console_texts(cell):
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            yield "".join(output["text"])
        elif set(output.get("data", {})) == {"text/plain"}:
            yield "".join(output["data"]["text/plain"])


def _console_lines(text):
    return len(text.rstrip("\n").split("\n"))


def looks_like_a_printed_table(text):
    """Whether console text is a table printed as text: a pandas Series (its ``dtype:`` footer),
    or a DataFrame's ``to_string`` -- two lines of equal width in a row, the first indented (the
    blank corner over the index) and columns apart by two spaces or more."""
    if _SERIES_FOOTER.search(text):
        return True
    lines = text.rstrip("\n").split("\n")
    return any(len(a) == len(b) >= 8 and a[:1] == " " and (_COLUMNS.search(a) or _COLUMNS.search(b))
               for a, b in zip(lines, lines[1:]))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


def test_toc_and_notebook_folder_agree():
    listed = {f for f in TOC if f.startswith("notebooks/")}
    present = {f"notebooks/{p.stem}" for p in NOTEBOOKS}
    assert present - listed == set(), "notebooks missing from _toc.yml"
    assert listed - present == set(), "_toc.yml lists notebooks that do not exist"


def test_notebooks_are_numbered_in_reading_order():
    in_toc_order = [f for f in _toc_files(yaml.safe_load((ROOT / "_toc.yml").read_text()))
                    if f.startswith("notebooks/")]
    numbers = [f.split("/")[1].split("_")[0] for f in in_toc_order]
    assert numbers == [f"{i:02d}" for i in range(1, len(numbers) + 1)], (
        "name the notebooks NN_topic, numbered 01, 02, ... in the order _toc.yml lists them")


def test_every_exercise_is_in_the_exercise_index():
    index = (ROOT / "book" / "exercises.md").read_text()
    for path in NOTEBOOKS:
        for cell in _load(path)["cells"]:
            for label in re.findall(r"\{exercise\}[^\n]*\n:label: *(\S+)", _source(cell)):
                assert f"`{label}`" in index, f"list {label} ({path.stem}) in book/exercises.md"


def test_toc_pages_exist():
    for entry in TOC:
        candidates = [ROOT / f"{entry}{ext}" for ext in (".md", ".ipynb")]
        assert any(c.exists() for c in candidates), f"{entry} in _toc.yml has no file"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
class TestNotebook:
    def test_starts_with_a_title(self, path):
        first = _load(path)["cells"][0]
        assert first["cell_type"] == "markdown"
        assert _source(first).lstrip().startswith("# "), "first cell must be a '# Title'"

    def test_first_code_cell_is_parameters_with_a_seed(self, path):
        first = _code_cells(_load(path))[0]
        assert "parameters" in first["metadata"].get("tags", [])
        names = {
            target.id
            for node in ast.parse(_source(first)).body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        assert "seed" in names or any(n.endswith("seed") for n in names), (
            "the parameters cell must define the random seed"
        )

    def test_committed_executed_in_order_without_errors(self, path):
        cells = [c for c in _code_cells(_load(path)) if _source(c).strip()]
        counts = [c["execution_count"] for c in cells]
        assert None not in counts, "commit notebooks executed, with outputs"
        assert counts == list(range(1, len(cells) + 1)), "execute top to bottom in a fresh kernel"
        for cell in cells:
            for output in cell["outputs"]:
                assert output["output_type"] != "error", _source(cell)[:80]

    def test_opens_with_goals_prerequisites_time_and_how_to_run_it(self, path):
        opening = _source(_load(path)["cells"][0])
        for part in ("**Learning goals.**", "**Prerequisites.**", "**Time.**", "{{ run_it }}"):
            assert part in opening, f"the first cell must state {part} (see book/teaching.md)"

    def test_nbval_markers_are_cell_tags_not_comments(self, path):
        for cell in _code_cells(_load(path)):
            assert "NBVAL_" not in _source(cell), (
                "tag the cell (nbval-ignore-output, nbval-skip) instead of a # NBVAL_ comment")

    def test_every_figure_has_a_caption_and_alt_text(self, path):
        for cell in _code_cells(_load(path)):
            if any("image/png" in o.get("data", {}) for o in cell["outputs"]):
                options = cell["metadata"].get("mystnb", {})
                caption = options.get("figure", {}).get("caption", "")
                alt = options.get("image", {}).get("alt", "")
                assert caption.strip() and alt.strip(), (
                    "give the figure metadata mystnb.figure.caption and mystnb.image.alt: "
                    + _source(cell)[:80])

    def test_paired_with_an_up_to_date_percent_script(self, path):
        notebook = jupytext.read(path)
        assert notebook.metadata.get("jupytext", {}).get("formats") == "ipynb,py:percent", (
            "pair the notebook with its text copy: make sync")
        script = path.with_suffix(".py")
        assert script.exists(), f"{script.name} is missing: make sync"
        # compared as the text format sees them (sources, cell types, the metadata it keeps)
        expected = jupytext.reads(jupytext.writes(notebook, fmt="py:percent"), fmt="py:percent")
        actual = jupytext.reads(script.read_text(), fmt="py:percent")
        def cells(nb):
            return [(c.cell_type, c.source, c.metadata) for c in nb.cells]

        assert cells(expected) == cells(actual), f"{path.name} and {script.name} differ: make sync"

    def test_no_console_output_over_ten_lines(self, path):
        for cell in _code_cells(_load(path)):
            for text in _console_texts(cell):
                assert _console_lines(text) <= MAX_CONSOLE_LINES, (
                    f"{_console_lines(text)} lines of console text (at most {MAX_CONSOLE_LINES}): "
                    "show it as a table (published.reader_table, published.Details) or a sentence "
                    f"(published.Prose): {text[:70]!r}")

    def test_no_table_printed_as_console_text(self, path):
        for cell in _code_cells(_load(path)):
            for text in _console_texts(cell):
                assert not looks_like_a_printed_table(text), (
                    "a table printed as text: show it with published.reader_table: "
                    f"{_source(cell)[:80]!r}\n{text[:200]}")

    def test_code_cells_call_fairlab_instead_of_defining_algorithms(self, path):
        for cell in _code_cells(_load(path)):
            assert not re.search(r"^\s*(def|class)\s", _source(cell), re.M), _source(cell)[:80]


def _execute(papermill, path, out, parameters):
    """Run ``path`` as ``make notebook`` does: with the kernel its metadata names (no override).

    Fails where papermill does not know a parameter it is given (a line of the parameters cell
    it cannot read): papermill itself only logs this, and injects the value all the same.
    tests/test_parameters.py checks every line of every parameters cell.
    """
    logger = logging.getLogger("papermill")
    handler = logging.handlers.BufferingHandler(capacity=10_000)
    logger.addHandler(handler)
    try:
        papermill.execute_notebook(str(path), str(out), parameters=parameters,
                                   cwd=str(path.parent), progress_bar=False)
    finally:
        logger.removeHandler(handler)
    unread = [record.getMessage() for record in handler.buffer
              if "unknown parameter" in record.getMessage()]
    assert not unread, f"papermill did not read every parameter of {path.stem}: {unread}"


def _run_with_a_new_seed(path, tmp_path):
    """The notebook runs under papermill with its seed overridden, which papermill injects."""
    papermill = pytest.importorskip("papermill")
    first = _source(_code_cells(_load(path))[0])
    seed_name = next(
        t.id
        for node in ast.parse(first).body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id.endswith("seed")
    )
    out = tmp_path / path.name
    # at the reduced sizes: nbval runs every notebook at its defaults already
    _execute(papermill, path, out, {**_sizes(path), seed_name: 12345})
    executed = _load(out)
    injected = [
        c for c in executed["cells"] if "injected-parameters" in c["metadata"].get("tags", [])
    ]
    assert injected and f"{seed_name} = 12345" in _source(injected[0])


def _documented_parameters(path):
    """(name, default, comment) of each literal assigned in the notebook's parameters cell."""
    source = _source(_code_cells(_load(path))[0])
    comments = {
        tok.start[0]: tok.string.lstrip("#").strip()
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    }
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                default = ast.literal_eval(node.value)
            except ValueError:
                continue
            yield node.targets[0].id, default, comments.get(node.lineno, "")


def _other_options(default, comment):
    """The non-default values of a categorical parameter, as its comment documents them.

    A string parameter lists its options quoted in its comment (``"adult" (...) or "german"``); a
    boolean one has the other truth value.
    """
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, str):
        options = re.findall(r"\"([^\"]+)\"|'([^']+)'", comment)
        options = [a or b for a, b in options]
        if default in options:
            return [o for o in options if o != default]
    return []


# Smaller sizes for the papermill runs (each must be a parameter of its notebook), to keep them
# fast; the live units are the cheapest of each ledger.
RUN_SIZES = {
    "05_fair_pca_variants": {"n_samples": 300, "fig1_per_group": 150, "n_splits": 1},
    "03_measuring_fairness": {"n_per_group": 100, "n_splits": 1, "lambdas": [0.0, 1.0]},
    "07_fair_regression_toy": {"n_train": 100, "n_test": 100, "n_mus": 3, "cv_folds": 2},
    "02_datasets": {"n_synthetic": 100},
    "11_reproducing_kleindessner": {"datasets": ["compas"],
                                    "live_units": [["compas", "Fair PCA", 10, 0]]},
    "12_reproducing_kleindessner_tradeoffs": {"live_units": [["adult", "Fair PCA", "EO",
                                                              "logistic regression", 0]],
                                              "methods": ["Fair PCA", "Reductions"], "n_train": 600,
                                              "n_test": 500, "eps": [0.2], "runtime_n_train": [300],
                                              "runtime_lambdas": [0.0, 1.0], "runtime_eps": [0.2]},
    "13_concept_erasure_images": {"n_images": 500, "n_per_group": 2},
    "14_reproducing_perez_suay": {"n_repetitions": 1, "adult_train": 60, "adult_val": 60,
                                  "adult_test": 300, "cmc_train": 100, "cmc_val": 100,
                                  "cmc_test": 100, "n_mus": 5, "n_alphas": 3, "n_sigmas": 3,
                                  "n_sigmas_s": 3, "n_sigmas_dr": 3, "dr_components": [1, 2]},
    "15_reproducing_de_diego": {"live_units": [["german", "table1", 1.0]],
                                "datasets": ["german", "compas", "communities"], "max_rows_a": 300,
                                "max_rows_b": 300, "n_splits": 2, "n_folds": 2,
                                "etas_a": [0.0, 10.0], "etas_b": [0.0, 1.0]},
    "16_scaling_up": {"n_rows": 60_000, "n_landmarks": 100},
    "18_auditing_a_representation": {"n_train": 400, "n_test": 400, "cv": 3, "n_bootstrap": 20,
                                     "n_permutations": 20, "n_circle": 200},
    # computed live at these sizes (the defaults are read from the text ledger): the
    # sentences are embedded by the model of the 'text' extra
    "19_fair_representations_of_text": {"n_samples": 120, "n_bootstrap": 20,
                                         "methods": ["Fair PLS", "LEACE"]},
}


def _sizes(path):
    """The reduced sizes of ``path``'s papermill runs, each checked to be one of its parameters."""
    sizes = RUN_SIZES.get(path.stem, {})
    declared = {n for n, _, _ in _documented_parameters(path)}
    assert set(sizes) <= declared, f"RUN_SIZES names unknown parameters of {path.stem}"
    return sizes


# A display option changes what a run shows while it computes, never what it computes: it rides
# along with each of the notebook's other option runs (where "use_ledger=False" computes), and has
# a run of its own only in a notebook with no other option.
DISPLAY_OPTIONS = {"progress": True}


def _display_options(path):
    """The display options ``path`` documents, at their non-default values."""
    return {name: value for name, value in DISPLAY_OPTIONS.items()
            if name in {n for n, _, _ in _documented_parameters(path)}}


def _option_runs(path):
    runs = [(name, value, comment) for name, default, comment in _documented_parameters(path)
            for value in _other_options(default, comment)]
    other = [run for run in runs if run[0] not in DISPLAY_OPTIONS]
    return other or runs


OPTION_RUNS = [
    pytest.param(path, name, value, comment, id=f"{path.stem}-{name}={value}")
    for path in NOTEBOOKS
    for name, value, comment in _option_runs(path)
]


def test_the_documented_options_are_found():
    found = {(p.stem, name, value) for p, name, value, _ in (r.values for r in OPTION_RUNS)}
    assert ("05_fair_pca_variants", "tradeoff_dataset", "german") in found
    assert ("15_reproducing_de_diego", "use_ledger", False) in found


def test_a_display_option_rides_along_with_the_other_options():
    by_notebook = {}
    for run in OPTION_RUNS:
        by_notebook.setdefault(run.values[0].stem, set()).add(run.values[1])
    chapter = "15_reproducing_de_diego"
    assert "progress" not in by_notebook[chapter]
    assert _display_options(ROOT / "notebooks" / f"{chapter}.ipynb") == {"progress": True}


def _run_with_option(path, name, value, comment, tmp_path):
    """The notebook runs to the end with ``name = value`` (not compared)."""
    papermill = pytest.importorskip("papermill")
    if "internet" in comment:
        pytest.skip(f"{name}={value!r} needs the internet, which the tests do not use")
    if "FAIRLAB_DATA" in comment and not os.environ.get("FAIRLAB_DATA"):
        pytest.skip(f"{name}={value!r} needs FAIRLAB_DATA")
    parameters = {**_sizes(path), **_display_options(path), name: value}
    _execute(papermill, path, tmp_path / path.name, parameters)


def _papermill_runs(path):
    """The papermill runs of one notebook, as a test class.

    One class per notebook because pytest-xdist's ``--dist loadscope`` (``make test``) schedules
    each class as a unit of its own: the runs, minutes of work together, spread over the workers
    instead of all falling to the worker that gets this module.
    """
    options = [run.values[1:] for run in OPTION_RUNS if run.values[0] == path]

    class PapermillRuns:
        def test_runs_under_papermill_with_overridden_parameters(self, tmp_path):
            _run_with_a_new_seed(path, tmp_path)

    if options:
        @pytest.mark.parametrize("name, value, comment", options,
                                 ids=[f"{name}={value}" for name, value, _ in options])
        def test_runs_under_papermill_with_each_documented_option(self, name, value, comment,
                                                                  tmp_path):
            """Every non-default value a parameters cell documents runs to the end."""
            _run_with_option(path, name, value, comment, tmp_path)

        PapermillRuns.test_runs_under_papermill_with_each_documented_option = (
            test_runs_under_papermill_with_each_documented_option)
    PapermillRuns.__name__ = PapermillRuns.__qualname__ = f"TestPapermill_{path.stem}"
    return PapermillRuns


for _path in NOTEBOOKS:
    globals()[f"TestPapermill_{_path.stem}"] = _papermill_runs(_path)
