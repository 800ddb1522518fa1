"""The shape of a chapter that compares with a paper: its verdict first, a summary last.

A chapter compares with a paper when it renders a verdict (``published.verdict``, or an
experiment's own built on it) of the paper's printed cells or stated claims. Its first section after
the title and the "About" box is "The verdict"; its last section before the exercises (or the end)
is "Summary"; in between, one section per printed table or figure.
"""

import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SECTION = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
# published.verdict(...) or an experiment's own verdict built on it (perez_suay.verdict(...))
VERDICT = re.compile(r"\b(published|perez_suay|kleindessner|de_diego)\.verdict\(")


def _sections(path):
    """The ``##`` headings of a chapter's Markdown cells, in reading order."""
    notebook = jupytext.read(path)
    text = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    return SECTION.findall(text)


def _renders_a_verdict(path):
    notebook = jupytext.read(path)
    return any(VERDICT.search(cell.source) for cell in notebook.cells if cell.cell_type == "code")


COMPARING = [path for path in CHAPTERS if _renders_a_verdict(path)]


def _shape_error(sections):
    """Why ``sections`` is not the comparing chapter's shape, or ``None``."""
    if not sections or sections[0] != "The verdict":
        return f"the first section is {sections[:1]}, not 'The verdict'"
    body = sections[:-1] if sections[-1] == "Exercises" else sections
    if body[-1] != "Summary":
        return f"the last section before the exercises is {body[-1]!r}, not 'Summary'"
    if len(body) < 3:
        return "no section between the verdict and the summary"
    if body.count("The verdict") != 1 or body.count("Summary") != 1:
        return "the verdict or the summary appears twice"
    return None


def test_every_reproduction_chapter_renders_a_verdict():
    names = {path.name[:2] for path in COMPARING}
    assert {"11", "12", "13", "14", "15"} <= names, sorted(names)


@pytest.mark.parametrize("path", COMPARING, ids=lambda p: p.stem)
def test_a_comparing_chapter_opens_with_its_verdict_and_ends_with_a_summary(path):
    assert _shape_error(_sections(path)) is None, f"{path.name}: {_shape_error(_sections(path))}"


@pytest.mark.parametrize("sections, fails", [
    (["The verdict", "Table 1", "Summary", "Exercises"], False),
    (["The verdict", "Table 1", "Summary"], False),
    (["The data", "The verdict", "Table 1", "Summary"], True),
    (["The verdict", "Table 1", "Exercises"], True),
    (["The verdict", "Summary", "Table 1"], True),
    (["The verdict", "Summary"], True),
    (["The verdict", "Table 1", "The verdict", "Summary"], True),
    ([], True),
])
def test_the_shape_rule_at_its_edges(sections, fails):
    assert (_shape_error(sections) is not None) == fails
