"""fairlab.published: the papers' printed tables as data, and compare().

The cells are re-parsed here with a parser of this file's own (not the package's), every
``raw`` cell is checked against the papers' plain-text sources when ``FAIRLAB_PAPERS`` names
a folder holding them (CI sets it), and a few cells per paper are spot-checked against the
source lines quoted in comments.
"""

import doctest
import json
import math
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import fairlab.published as published
from fairlab.published import compare, parse_cell, rounded_equal, table, tables

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "fairlab" / "published" / "data"
TITLES = {  # how each paper's plain-text source is recognised in FAIRLAB_PAPERS
    "kleindessner2023": "Efficient fair PCA for fair representation learning",
    "dediego2025": "PLS-based approach for fair representation learning",
    "perezsuay2017": "Fair Kernel Learning",
}


def _paper_sources():
    folder = os.environ.get("FAIRLAB_PAPERS")
    if not folder or not Path(folder).is_dir():
        return {}
    found = {}
    for path in sorted(Path(folder).glob("*.txt")):
        head = path.read_text(encoding="utf-8", errors="replace")[:3000].lower()
        for paper, title in TITLES.items():
            if title.lower() in head and paper not in found:
                found[paper] = path
    return found


SOURCES = _paper_sources()
needs_sources = pytest.mark.skipif(
    len(SOURCES) < len(TITLES),
    reason="FAIRLAB_PAPERS does not name a folder holding the three papers' plain-text sources",
)
COLUMNS = ["dataset", "method", "k", "eta", "model", "metric", "mean", "std", "raw"]
IDS = ["dataset", "method", "k", "eta", "model", "metric"]
ALL = tables()
EXPECTED_ROWS = {
    ("kleindessner2023", "table1"): 176,  # 11 methods x 2 k x 8 columns
    ("kleindessner2023", "table2"): 176,
    ("kleindessner2023", "table3"): 176,
    ("kleindessner2023", "table4"): 36,  # 3 data sets x 2 k x 6 columns
    ("dediego2025", "table1"): 72,  # 6 data sets x 4 eta x 3 columns
    ("dediego2025", "table2"): 18,  # 6 data sets x (DI, CI low, CI high)
    ("dediego2025", "table3"): 24,  # 6 data sets x (d, 3 best k)
    ("dediego2025", "table4"): 180,  # 3 eta x 5 data sets x 3 models x 4 columns
    ("dediego2025", "table5"): 36,  # 3 eta x 3 models x 4 columns
}


# ---------------------------------------------------------------- an independent parser


def my_parse(raw):
    """(mean, std, decimals of the mean) of a printed cell, by token splitting."""
    text = raw
    for junk in ("$", "\\mathbf{", "^{\\star}"):
        text = text.replace(junk, " ")
    text = text.replace("\\pm", " ").replace("_{", " ").replace("}", " ")
    tokens = text.split()
    if tokens in (["n/a"], ["-"]):
        return math.nan, math.nan, None
    assert 1 <= len(tokens) <= 2, raw
    mean = float(tokens[0])
    std = float(tokens[1]) if len(tokens) == 2 else math.nan
    decimals = len(tokens[0].partition(".")[2])
    return mean, std, decimals


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


# ---------------------------------------------------------------- every table loads


def test_expected_tables_listed():
    assert set(ALL) == set(EXPECTED_ROWS)
    assert tables("perezsuay2017") == []
    assert tables("kleindessner2023") == [("kleindessner2023", f"table{i}") for i in (1, 2, 3, 4)]
    assert tables("dediego2025") == [("dediego2025", f"table{i}") for i in (1, 2, 3, 4, 5)]


@pytest.mark.parametrize("paper,name", ALL)
def test_table_loads_with_columns_dtypes_and_attrs(paper, name):
    df = table(paper, name)
    assert list(df.columns) == COLUMNS
    assert len(df) == EXPECTED_ROWS[(paper, name)]
    for col in ("dataset", "method", "model", "metric", "raw"):
        assert all(isinstance(v, str) for v in df[col]), col
        assert not df[col].isna().any(), col
    for col in ("k", "eta", "mean", "std"):
        assert df[col].dtype == np.float64, col
    assert (df["dataset"] != "").all() and (df["metric"] != "").all()
    # one row per printed cell: the identifiers are unique
    assert not df[IDS].astype(str).duplicated().any()
    cit = df.attrs["citation"]
    assert {"kleindessner2023": "Kleindessner", "dediego2025": "De-Diego"}[paper] in cit
    assert {"kleindessner2023": "2023", "dediego2025": "2025"}[paper] in cit
    assert df.attrs["caption"] and df.attrs["descr"]
    assert cit in df.attrs["descr"] and df.attrs["caption"] in df.attrs["descr"]
    assert df.attrs["paper"] == paper and df.attrs["name"] == name
    # every metric has its unit documented
    assert set(df["metric"]) <= set(df.attrs["units"])


@pytest.mark.parametrize("paper,name", ALL)
def test_mean_std_reparsed_independently(paper, name):
    df = table(paper, name)
    for row in df.itertuples():
        mean, std, decimals = my_parse(row.raw)
        assert same(row.mean, mean), (row.raw, row.mean)
        assert same(row.std, std), (row.raw, row.std)
        assert parse_cell(row.raw).decimals == decimals, row.raw
        if decimals is not None:
            assert rounded_equal(row.mean, row.raw)
            step = 10.0**-decimals
            assert not rounded_equal(row.mean + 0.6 * step, row.raw)
            assert not rounded_equal(row.mean - 0.6 * step, row.raw)


@pytest.mark.parametrize("paper,name", ALL)
def test_bold_cells_match_raw(paper, name):
    df = table(paper, name)
    bold = df[df["raw"].str.contains("mathbf", regex=False)]
    expected = [{c: r[c] for c in IDS if not (r[c] == "" or pd.isna(r[c]))} for _, r in
                bold.iterrows()]
    got = df.attrs["bold"]
    assert len(got) == len(expected)
    assert got == expected
    assert all(parse_cell(r).bold for r in bold["raw"])


def test_identifier_values():
    t1 = table("kleindessner2023", "table1")
    assert sorted(set(t1["method"])) == sorted([
        "PCA", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "MbF-PCA (10^-6)",
        "INLP", "RLACE", "Fair PCA", "Fair Kernel PCA", "Fair PCA-S (0.5)",
        "Fair PCA-S (0.85)",
    ])
    assert set(t1["k"]) == {2.0, 10.0} and t1["eta"].isna().all()
    assert set(t1["model"]) == {"", "Kernel SVM", "Linear SVM", "MLP"}
    assert set(t1.loc[t1.model == "", "metric"]) == {"var_pct", "mmd2"}
    d4 = table("dediego2025", "table4")
    assert set(d4["eta"]) == {0.0, 1.0, 2.0} and d4["k"].isna().all()
    assert set(d4["model"]) == {"LR", "DT", "XGB"} and set(d4["method"]) == {""}
    d1 = table("dediego2025", "table1")
    assert set(d1["eta"]) == {0.0, 1.0, 2.0, 10.0}
    assert set(d1["dataset"]) == {
        "Adult Income", "German Credit", "Law School", "Diabetes", "COMPAS",
        "Communities and Crimes",
    }


def test_table_returns_a_fresh_copy_and_accepts_name_variants():
    a = table("dediego2025", "table3")
    a.loc[0, "mean"] = -1.0
    a.attrs["bold"].append("x")
    b = table("dediego2025", "Table 3")
    assert b.loc[0, "mean"] == 36.0 and b.attrs["bold"] == []
    pd.testing.assert_frame_equal(b, table("dediego2025", 3))


# ------------------------------------------------------- against the papers' plain-text sources

# Per table: the lines of the source that hold it, the number of tab-separated fields of its
# data lines, and the first field that is a number.
SOURCE_CELLS = {
    ("kleindessner2023", "table1"): (242, 276, 10, 2),
    ("kleindessner2023", "table2"): (610, 636, 10, 2),
    ("kleindessner2023", "table3"): (638, 664, 10, 2),
    ("kleindessner2023", "table4"): (666, 682, 8, 2),
    ("dediego2025", "table1"): (191, 217, 5, 2),
    ("dediego2025", "table2"): (367, 375, 5, 3),
    ("dediego2025", "table3"): (391, 399, 5, 1),
    ("dediego2025", "table4"): (415, 462, 7, 3),
    ("dediego2025", "table5"): (464, 475, 6, 2),
}
HEADERS = {"Algorithm", "Dataset", "$\\eta$", "Model", "$d$", "Sensitive"}


def source_cells(paper, name):
    lines = SOURCES[paper].read_text(encoding="utf-8").splitlines()
    a, b, nfields, first = SOURCE_CELLS[(paper, name)]
    cells = []
    for line in lines[a - 1 : b]:
        fields = line.split("\t")
        if len(fields) != nfields or HEADERS & {f.strip() for f in fields}:
            continue
        for f in fields[first:]:
            f = f.strip()
            interval = re.fullmatch(r"\[(\S+) , (\S+)\]", f)
            if interval:
                cells += list(interval.groups())
            elif f == "-" and (paper, name) == ("dediego2025", "table2"):
                cells += ["-", "-"]  # the interval printed '-' gives two rows
            else:
                cells.append(f)
    return cells


@needs_sources
@pytest.mark.parametrize("paper,name", ALL)
def test_every_raw_cell_is_the_printed_cell_in_order(paper, name):
    assert table(paper, name)["raw"].tolist() == source_cells(paper, name)


@needs_sources
def test_perezsuay2017_prints_no_numeric_table():
    text = SOURCES["perezsuay2017"].read_text(encoding="utf-8")
    assert "\t" not in text  # no tabular data line anywhere in the source
    assert "Table 1. Original and processed features for the adult dataset" in text


def cell(paper, name, **ids):
    df = table(paper, name)
    mask = np.ones(len(df), dtype=bool)
    for c, v in ids.items():
        mask &= (df[c] == v).to_numpy()
    for c in IDS:
        if c not in ids:
            mask &= ((df[c] == "") if c not in ("k", "eta") else df[c].isna()).to_numpy()
    rows = df[mask]
    assert len(rows) == 1, ids
    return rows.iloc[0]


def test_spot_checks_kleindessner2023():
    # Table 1, source: "2\tPCA\t$\mathbf{7.78_{0.77}}$\t$\mathbf{0.349_{0.026}}$\t..."
    r = cell("kleindessner2023", "table1", dataset="Adult Income", method="PCA", k=2.0,
             metric="var_pct")
    assert (r["mean"], r["std"], r["raw"]) == (7.78, 0.77, "$\\mathbf{7.78_{0.77}}$")
    # Table 1, k = 10, source: "\tFair PCA\t$\mathbf{19.62_{1.73}}$\t$0.014_{0.003}$\t
    #   $\mathbf{93.42_{0.8}}$\t$0.16_{0.01}$\t$\mathbf{81.31_{1.23}}$\t$0.04_{0.02}$\t
    #   $\mathbf{88.16_{1.45}}$\t$0.16_{0.03}$"
    r = cell("kleindessner2023", "table1", dataset="Adult Income", method="Fair PCA", k=10.0,
             model="MLP", metric="accuracy_pct")
    assert (r["mean"], r["std"]) == (88.16, 1.45)
    r = cell("kleindessner2023", "table1", dataset="Adult Income", method="Fair PCA", k=10.0,
             model="Linear SVM", metric="delta_dp")
    assert (r["mean"], r["std"], r["raw"]) == (0.04, 0.02, "$0.04_{0.02}$")
    # Table 1, k = 2, source: "\tFair Kernel PCA\t$n/a$\t$n/a$\t$75.11_{1.66}$\t
    #   $\mathbf{0.0_{0.0}}$\t..."
    r = cell("kleindessner2023", "table1", dataset="Adult Income", method="Fair Kernel PCA",
             k=2.0, metric="mmd2")
    assert r["raw"] == "$n/a$" and math.isnan(r["mean"]) and math.isnan(r["std"])
    # Table 2, k = 10, source: "\tMbF-PCA ( $10^{-6}$ )\t$16.82_{1.11}$\t
    #   $\mathbf{0.011_{0.007}}$\t$94.37_{2.63}$\t..."
    r = cell("kleindessner2023", "table2", dataset="German Credit", method="MbF-PCA (10^-6)",
             k=10.0, metric="mmd2")
    assert (r["mean"], r["std"]) == (0.011, 0.007)
    r = cell("kleindessner2023", "table2", dataset="German Credit", method="MbF-PCA (10^-6)",
             k=10.0, model="Kernel SVM", metric="accuracy_pct")
    assert (r["mean"], r["std"]) == (94.37, 2.63)
    # Table 3, k = 2, source: "\tFair PCA-S (0.5)\t$25.11_{5.14}$\t$\mathbf{0.006_{0.004}}$\t
    #   $\mathbf{64.1_{1.49}}$\t$0.15_{0.06}$\t..."
    r = cell("kleindessner2023", "table3", dataset="COMPAS", method="Fair PCA-S (0.5)", k=2.0,
             model="Kernel SVM", metric="accuracy_pct")
    assert (r["mean"], r["std"], r["raw"]) == (64.1, 1.49, "$\\mathbf{64.1_{1.49}}$")
    # Table 4 (COMPAS block), source: "10\tFair PCA of Samadi et al. 2018\t$73.12_{1.17}$\t
    #   $0.21_{0.06}$\t$64.79_{0.96}$\t$0.18_{0.05}$\t$69.46_{1.04}$\t$0.27_{0.09}$"
    r = cell("kleindessner2023", "table4", dataset="COMPAS",
             method="Fair PCA of Samadi et al. 2018", k=10.0, model="MLP", metric="delta_dp")
    assert (r["mean"], r["std"]) == (0.27, 0.09)


def test_spot_checks_dediego2025():
    # Table 1, source: "1-5 Law School\t$0.0$\t$0.0385\pm 0.0189$\t$0.032\pm 0.0157$\t
    #   $0.2398\pm 0.0051$"
    r = cell("dediego2025", "table1", dataset="Law School", eta=0.0, metric="cov2_s")
    assert (r["mean"], r["std"], r["raw"]) == (0.032, 0.0157, "$0.032\\pm 0.0157$")
    # Table 1 (Law School), source: "\t$10.0$\t$0.0018\pm 0.001$\t$0.0\pm 0.0$\t$0.4735\pm 0.0031$"
    r = cell("dediego2025", "table1", dataset="Law School", eta=10.0,
             metric="reconstruction_error")
    assert (r["mean"], r["std"]) == (0.4735, 0.0031)
    # Table 2, source: "German Credit\tAge\t$>25$\t0.7948\t[0.6928 , 0.8968]"
    r = cell("dediego2025", "table2", dataset="German Credit", metric="disparate_impact")
    assert r["mean"] == 0.7948 and math.isnan(r["std"])
    assert cell("dediego2025", "table2", dataset="German Credit",
                metric="disparate_impact_ci_low")["mean"] == 0.6928
    assert cell("dediego2025", "table2", dataset="German Credit",
                metric="disparate_impact_ci_high")["mean"] == 0.8968
    # Table 2, source: "Communities and Crimes\tRace\tNot black\t$0.129^{\star}$\t-"
    r = cell("dediego2025", "table2", dataset="Communities and Crimes", metric="ks")
    assert (r["mean"], r["raw"]) == (0.129, "$0.129^{\\star}$")
    assert math.isnan(cell("dediego2025", "table2", dataset="Communities and Crimes",
                           metric="ks_ci_low")["mean"])
    # Table 3, source: "German Credit\t21\t20\t7\t1"
    assert cell("dediego2025", "table3", dataset="German Credit",
                metric="n_features")["mean"] == 21
    assert [cell("dediego2025", "table3", dataset="German Credit", eta=e,
                 metric="best_k")["mean"] for e in (0.0, 1.0, 2.0)] == [20, 7, 1]
    # Table 4, source: "3-7 2-7 $2.0$\tAdult Income\tLR\t$1.0\pm 0.0$\t$0.7607\pm 0.0001$\t
    #   $0.0\pm 0.0$\t$0.0046\pm 0.0016$"
    r = cell("dediego2025", "table4", dataset="Adult Income", eta=2.0, model="LR",
             metric="accuracy")
    assert (r["mean"], r["std"]) == (0.7607, 0.0001)
    r = cell("dediego2025", "table4", dataset="Adult Income", eta=2.0, model="LR",
             metric="disparate_impact")
    assert (r["mean"], r["std"]) == (1.0, 0.0)
    # Table 4 (COMPAS, eta 0), source: "\t\tXGB\t$0.7847\pm 0.0338$\t$0.8842\pm 0.0081$\t
    #   $0.3092\pm 0.0118$\t$0.0342\pm 0.0066$"
    r = cell("dediego2025", "table4", dataset="COMPAS", eta=0.0, model="XGB",
             metric="cov2_yhat")
    assert (r["mean"], r["std"]) == (0.3092, 0.0118)
    # Table 5, source: "2-6 $1.0$\tLR\t$0.7047\pm 0.0594$\t$0.0278\pm 0.0032$\t
    #   $0.2645\pm 0.0711$\t$0.2342\pm 0.1327$"
    r = cell("dediego2025", "table5", dataset="Communities and Crimes", eta=1.0, model="LR",
             metric="mse")
    assert (r["mean"], r["std"]) == (0.0278, 0.0032)


def test_perezsuay2017_has_no_table():
    # Pérez-Suay et al.: "Table 1. Original and processed features for the adult dataset from
    # the UCI repository." -- only the caption is in the text; the results are Figs. 4-6.
    with pytest.raises(ValueError, match="perezsuay2017 has no published table"):
        table("perezsuay2017", "table1")


# ---------------------------------------------------------------- metadata and packaging


def test_metadata_file_and_csvs_agree():
    meta = json.loads((DATA / "metadata.json").read_text(encoding="utf-8"))
    files = {t["file"] for p in meta["papers"].values() for t in p["tables"].values()}
    assert files == {f.name for f in DATA.glob("*.csv")}
    assert set(meta["papers"]) == set(published.PAPERS)
    for paper in meta["papers"].values():
        assert paper["citation"]
        for t in paper["tables"].values():
            assert t["caption"] and t["notes"] and t["source"].startswith("Table ")
            assert t["citation"] == paper["citation"]
            assert isinstance(t["bold"]["rule"], str)


def test_package_data_declared_in_pyproject():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = conf["tool"]["setuptools"]["package-data"]
    assert "data/*" in package_data["fairlab.published"]


def test_import_is_light():
    code = (
        "import sys, fairlab.published\n"
        "heavy = ['sklearn', 'scipy', 'matplotlib', 'seaborn', 'cvxpy', 'dask', 'torch',\n"
        "         'fairlab.pca', 'fairlab.metrics', 'fairlab.datasets', 'fairlab.evaluation']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout


def test_doctests():
    for module in (published, published._cells):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# ---------------------------------------------------------------- parse_cell, rounded_equal


@pytest.mark.parametrize("raw,mean,std,decimals,bold", [
    ("$\\mathbf{7.78_{0.77}}$", 7.78, 0.77, 2, True),
    ("$0.29\\pm 0.1488$", 0.29, 0.1488, 2, False),
    ("12.34 (0.56)", 12.34, 0.56, 2, False),
    ("0.87 ± 0.02", 0.87, 0.02, 2, False),
    ("1.2e-3", 0.0012, math.nan, 4, False),
    ("$0.129^{\\star}$", 0.129, math.nan, 3, False),
    ("36", 36.0, math.nan, 0, False),
    ("−0.5", -0.5, math.nan, 1, False),
    ("$n/a$", math.nan, math.nan, None, False),
    ("-", math.nan, math.nan, None, False),
])
def test_parse_cell_forms(raw, mean, std, decimals, bold):
    c = parse_cell(raw)
    assert same(c.mean, mean) and same(c.std, std)
    assert c.decimals == decimals and c.bold == bold


def test_parse_cell_bad_input():
    with pytest.raises(ValueError, match="Cannot read the published cell"):
        parse_cell("about 3")
    with pytest.raises(TypeError, match="raw must be"):
        parse_cell(3.0)


def test_rounded_equal_rule():
    assert rounded_equal(69.84, "$69.8_{1.21}$")  # printed decimals: 1
    assert not rounded_equal(69.84, "$69.8_{1.21}$", decimals=2)  # the authors' 2 decimals
    assert rounded_equal(0.36, "0.3597") is False
    assert rounded_equal(0.35974, "0.3597") and rounded_equal(0.35965, "0.3597")  # a tie
    assert rounded_equal(5.4, "5") and not rounded_equal(5.6, "5")
    assert not rounded_equal(float("nan"), "0.3597") and not rounded_equal(None, "1.0")
    with pytest.raises(ValueError, match="prints no number"):
        rounded_equal(1.0, "$n/a$")


# ---------------------------------------------------------------- compare


@pytest.fixture
def t1():
    return table("kleindessner2023", "table1")


def test_compare_within_std_and_not(t1):
    ours = pd.DataFrame({
        "dataset": ["Adult Income"] * 3,
        "method": ["PCA", "PCA", "Fair PCA"],
        "k": [2, 2, 10],  # int matches the float k of the table
        "model": [None, None, "MLP"],
        "metric": ["var_pct", "mmd2", "accuracy_pct"],
        "mean": [7.78 + 0.77, 0.349 + 0.03, 88.16 - 1.0],  # paper: 7.78(0.77), .349(.026)
        "std": [0.5, 0.01, 1.0],
    })
    res = compare(ours, t1)
    assert list(res.columns) == [*IDS, "paper", "paper_mean", "paper_std", "ours_mean",
                                 "ours_std", "difference", "within"]
    assert len(res) == len(t1)
    assert res["within"].dtype == "boolean"
    got = res[res.ours_mean.notna()].set_index("metric")
    assert got.loc["var_pct", "within"]  # |diff| = std exactly
    assert not got.loc["mmd2", "within"]  # 0.03 > 0.026
    assert got.loc["accuracy_pct", "within"]
    assert got.loc["var_pct", "paper"] == "$\\mathbf{7.78_{0.77}}$"
    assert got.loc["mmd2", "difference"] == pytest.approx(0.03)
    assert got.loc["var_pct", "ours_std"] == 0.5
    # unmatched published rows: NaN for ours, within <NA>
    rest = res[res.ours_mean.isna()]
    assert len(rest) == len(t1) - 3
    assert rest["within"].isna().all() and rest["difference"].isna().all()
    assert res.attrs["citation"] == t1.attrs["citation"]


def test_compare_zero_std_uses_rounding(t1):
    # Table 1, source: "\tINLP\t...\t$75.11_{1.66}$\t$\mathbf{0.0_{0.0}}$\t..." (Linear SVM)
    base = {"dataset": "Adult Income", "method": "INLP", "k": 2.0, "model": "Linear SVM",
            "metric": "delta_dp"}
    close = compare(pd.DataFrame([{**base, "mean": 0.004}]), t1)
    far = compare(pd.DataFrame([{**base, "mean": 0.06}]), t1)
    row = (t1.method == "INLP") & (t1.k == 2) & (t1.model == "Linear SVM") & (
        t1.metric == "delta_dp")
    assert close.loc[row, "within"].tolist() == [True]  # rounds to the printed 0.0
    assert far.loc[row, "within"].tolist() == [False]


def test_compare_rounding_rule_without_std():
    pub = table("dediego2025", "table2")
    ours = pd.DataFrame({"dataset": ["Adult Income", "German Credit", "Law School"],
                         "metric": ["disparate_impact"] * 3,
                         "mean": [0.35974, 0.7953, 0.6713]})
    res = compare(ours, pub).set_index(["dataset", "metric"])
    assert res.loc[("Adult Income", "disparate_impact"), "within"]  # 0.3597
    assert not res.loc[("German Credit", "disparate_impact"), "within"]  # 0.7948
    assert res.loc[("Law School", "disparate_impact"), "within"]
    assert math.isnan(res.loc[("Adult Income", "disparate_impact"), "paper_std"])
    # the '-' interval of Communities and Crimes: no number, within <NA>
    ours2 = pd.DataFrame({"dataset": ["Communities and Crimes"], "metric": ["ks_ci_low"],
                          "mean": [0.1]})
    res2 = compare(ours2, pub).set_index(["dataset", "metric"])
    assert pd.isna(res2.loc[("Communities and Crimes", "ks_ci_low"), "within"])


def test_compare_na_paper_cell(t1):
    ours = pd.DataFrame({"dataset": ["Adult Income"], "method": ["Fair Kernel PCA"],
                         "k": [2], "metric": ["var_pct"], "mean": [12.0]})
    res = compare(ours, t1)
    row = res[res.ours_mean.notna()].iloc[0]
    assert row["paper"] == "$n/a$" and pd.isna(row["within"]) and math.isnan(row["difference"])


def test_compare_unmatched_ours_raise_and_report(t1):
    ours = pd.DataFrame({"dataset": ["Adult Income", "Adult Income"],
                         "method": ["PCA", "Fair PCA-S(0.85)"], "k": [2, 2],
                         "metric": ["var_pct", "var_pct"], "mean": [7.7, 4.3]})
    with pytest.raises(ValueError, match=r"1 row\(s\) of ours match no published row.*"
                                         r"Fair PCA-S\(0.85\)"):
        compare(ours, t1)
    res = compare(ours, t1, unmatched="report")
    assert res.attrs["unmatched_ours"] == [
        {"dataset": "Adult Income", "method": "Fair PCA-S(0.85)", "k": 2, "metric": "var_pct",
         "mean": 4.3}
    ]
    assert res["ours_mean"].notna().sum() == 1
    # a missing identifier column is named in the error
    with pytest.raises(ValueError, match=r"lacks column\(s\) \['k'"):
        compare(ours.drop(columns="k").iloc[:1], t1)


def test_compare_duplicates_and_on(t1):
    ours = pd.DataFrame({"dataset": ["Adult Income"] * 2, "method": ["PCA"] * 2, "k": [2, 2],
                         "metric": ["var_pct"] * 2, "mean": [7.7, 7.9], "split": [0, 1]})
    with pytest.raises(ValueError, match="ours has 2 rows"):
        compare(ours, t1)
    # on=: match every row on the given columns only
    pub = table("dediego2025", "table3")
    ours = pd.DataFrame({"dataset": ["Adult Income"], "metric": ["n_features"], "mean": [36]})
    res = compare(ours, pub[pub.metric == "n_features"], on=["dataset", "metric"])
    assert res["within"].sum() == 1 and res["ours_mean"].notna().sum() == 1
    with pytest.raises(ValueError, match="on must name identifier columns"):
        compare(ours, pub, on=["mean"])
    with pytest.raises(ValueError, match="ours does not have"):
        compare(ours, pub, on=["dataset", "model"])


def test_compare_accepts_pair_and_filtered_table():
    ours = pd.DataFrame({"dataset": ["Communities and Crimes"], "eta": [0.0], "model": ["LR"],
                         "metric": ["mse"], "mean": [0.0345]})
    res = compare(ours, ("dediego2025", "table5"))
    assert res.attrs["name"] == "table5" and res["within"].sum() == 1
    pub = table("dediego2025", "table5")
    sub = pub[pub.metric == "mse"]
    res = compare(ours, sub)
    assert len(res) == len(sub) == 9 and res["within"].sum() == 1


def test_compare_bad_arguments(t1):
    good = pd.DataFrame({"dataset": ["Adult Income"], "method": ["PCA"], "k": [2],
                         "metric": ["var_pct"], "mean": [7.7]})
    with pytest.raises(TypeError, match="ours must be a pandas DataFrame"):
        compare(good.to_dict(), t1)
    with pytest.raises(TypeError, match="published must be a DataFrame"):
        compare(good, "kleindessner2023")
    with pytest.raises(ValueError, match="'mean' column"):
        compare(good.rename(columns={"mean": "value"}), t1)
    with pytest.raises(ValueError, match="published lacks the column"):
        compare(good, t1.drop(columns="raw"))
    with pytest.raises(ValueError, match="unmatched must be"):
        compare(good, t1, unmatched="ignore")
    with pytest.raises(ValueError, match="Column 'k' of ours must be numeric"):
        compare(good.assign(k=["two"]), t1)
    with pytest.raises(ValueError, match="'mean' and 'std' columns must be numeric"):
        compare(good.assign(mean=["high"]), t1)
    # k given as text, eta as blank text: read as numbers / unused
    res = compare(good.assign(k=["2"], eta=[""]), t1)
    assert res["ours_mean"].notna().sum() == 1


# ---------------------------------------------------------------- bad arguments of table()


@pytest.mark.parametrize("paper", ["kleindessner", "", None, 2023])
def test_table_unknown_paper(paper):
    with pytest.raises(ValueError, match=r"Unknown paper .*valid papers: \['kleindessner2023'"):
        table(paper, "table1")
    with pytest.raises(ValueError, match="valid papers"):
        tables(paper if paper is not None else "x")


@pytest.mark.parametrize("name", ["table6", "Table 9", 0, "figure1", None])
def test_table_unknown_table(name):
    with pytest.raises(ValueError, match=r"Unknown table .* for dediego2025; valid tables: "
                                         r"\['table1', 'table2', 'table3', 'table4', 'table5'\]"):
        table("dediego2025", name)


@needs_sources
def test_perez_suay_checks_quote_the_paper():
    """Every sentence a check of chapter 14 reads is the paper's own (μ for $\\mu$)."""
    from fairlab.experiments import perez_suay

    text = " ".join(SOURCES["perezsuay2017"].read_text(encoding="utf-8").replace(
        "$\\mu$", "μ").split())
    for key, sentence in perez_suay.SENTENCES.items():
        assert " ".join(sentence.split()) in text, key


def test_with_status_names_each_verdict():
    import pandas as pd

    from fairlab.published import compare, with_status

    pub = table("dediego2025", "table1")
    pub = pub[(pub.dataset == "Adult Income") & (pub.eta == 0.0)]  # 0.3227 ± 0.1593, …
    ours = pd.DataFrame({"dataset": "Adult Income", "eta": 0.0,
                         "metric": ["cov2_y", "cov2_s", "reconstruction_error"],
                         "mean": [0.32274, 0.0700, 0.10], "std": [0.15926, 0.01, 0.0]})
    res = with_status(compare(ours, pub), decimals=lambda row: 4).set_index("metric")
    assert res.loc["cov2_y", "status"] == "equal"  # mean and std round to the printed ones
    assert res.loc["cov2_s", "status"] == "within std"  # 0.1351 ± 0.0654 holds 0.07
    assert res.loc["reconstruction_error", "status"] == "differs"
    assert bool(res.loc["cov2_y", "mean_equal"]) and not bool(res.loc["cov2_s", "mean_equal"])
    missing = with_status(compare(ours.iloc[:1], pub))
    assert set(missing.loc[missing.ours_mean.isna(), "status"]) == {"n/a"}
