"""The provenance appendix (book/appendix) is generated from the ledgers and the benchmark table,
and the committed pages are the ones their data give."""

import functools
import re
from pathlib import Path

import pandas as pd
import pytest

from fairlab import experiments
from fairlab.experiments import _appendix

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "book" / "appendix"
NAMES = ["provenance.md", *(f"{page}.md" for page, _, _ in _appendix.LEDGERS.values()),
         f"{_appendix.BENCHMARK_PAGE}.md"]


@functools.cache
def _pages():
    return _appendix.pages()


def test_the_pages_are_these():
    assert list(_pages()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_committed_page_is_current(name):
    committed = (FOLDER / name).read_text(encoding="utf-8")
    assert committed == _pages()[name], (
        f"book/appendix/{name} differs from what its ledger or goals.csv gives: "
        "run `make appendix`")


def test_every_page_is_in_the_table_of_contents():
    toc = (ROOT / "_toc.yml").read_text()
    for name in NAMES:
        assert f"book/appendix/{name.removesuffix('.md')}" in toc


def test_ledger_page_counts_what_the_ledger_holds():
    ledger = experiments.read_ledger("kleindessner")
    page = _appendix.ledger_page("kleindessner", ledger)
    units = ledger.drop_duplicates("unit")
    assert f"| work units | {len(units)} |" in page
    # the commit rows add up to every unit, and each commit is named once
    rows = re.findall(r"^\| ([0-9a-f]{12}) \| (\d+) \|", page, flags=re.M)
    assert sum(int(n) for _, n in rows) == len(units)
    assert {c for c, _ in rows} == {c[:12] for c in units["commit"].unique()}
    # a method's unit count is the ledger's
    assert f"| PCA | {int((units.method == 'PCA').sum())} |" in page
    assert "MbF-PCA (10⁻³)" in page and "10^-3" not in page


def test_ledger_page_of_a_small_made_up_ledger():
    ledger = experiments.read_ledger("kleindessner").drop_duplicates("unit").head(3).copy()
    ledger["machine"] = ["CPU A, 2 cores, BLAS: openblas 0.3 Haswell"] * 2 + [
        "CPU B, 4 cores, BLAS: openblas 0.3 SkylakeX"]
    ledger["seconds"] = [1.0, 2.0, 3600.0]
    page = _appendix.ledger_page("kleindessner", ledger)
    assert "| CPU A, 2 cores | Haswell | openblas 0.3 Haswell | 2 |" in page
    assert "| CPU B, 4 cores | SkylakeX | openblas 0.3 SkylakeX | 1 |" in page
    assert "| summed unit time | 1.00 h |" in page
    with pytest.raises(ValueError, match="unknown experiment"):
        _appendix.ledger_page("nope", ledger)


def test_benchmark_page_lists_every_goal(tmp_path):
    table = pd.read_csv(ROOT / "benchmarks" / "results" / "goals.csv").head(3)
    table.loc[1, "status"] = "missed"
    table.to_csv(tmp_path / "goals.csv", index=False)
    page = _appendix.benchmark_page(tmp_path / "goals.csv")
    assert "2 of the 3 goals are met" in page
    assert page.count("| met |") == 2 and page.count("| missed |") == 1
