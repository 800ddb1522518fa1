"""The renderer of result tables (fairlab.published._render): readers' labels, never -0.00, a
missing value as — with its reason, collapsed detail, and a verdict whose sentence states the
numbers of its table."""

import re

import numpy as np
import pandas as pd
import pytest

from fairlab import published
from fairlab.experiments import kleindessner

SNAKE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")


def _headers(html_text):
    """The text of every header cell (th) and caption of an HTML table."""
    cells = re.findall(r"<(?:th|caption)[^>]*>(.*?)</(?:th|caption)>", html_text, flags=re.S)
    return [re.sub(r"<[^>]+>", "", c) for c in cells]


def _compared(means_ours, stds_ours=None):
    """A compare() + with_status() result for Table 1's PCA row at k = 2, with our means."""
    pub = published.table("kleindessner2023", "table1")
    pub = pub[(pub.method.isin(["PCA", "Fair Kernel PCA", "MbF-PCA (10^-3)"])) & (pub.k == 2)]
    ours = pub.assign(mean=means_ours(pub), std=pub["std"] if stds_ours is None else stds_ours)
    ours = ours[ours["mean"].notna()]
    return kleindessner.compare(ours.assign(protocol="train_on_test"))


def test_format_value_never_prints_minus_zero_and_marks_missing():
    assert published.format_value(-0.0001, 2) == "0.00"
    assert published.format_value(-0.0049, 2) == "0.00"       # rounds to zero: no sign
    assert published.format_value(-0.0051, 2) == "-0.01"      # does not: the sign stays
    assert published.format_value(-0.0, 3) == "0.000"
    assert published.format_value(np.float64(1.005), 1) == "1.0"
    assert published.format_value(np.nan) == published.MISSING == "—"
    assert published.format_value(None) == "—" and published.format_value(pd.NA) == "—"
    assert published.format_value(np.int64(12)) == "12"
    assert published.format_value(True) == "yes" and published.format_value(np.bool_(False)) == "no"


def test_format_value_refuses_dicts_and_latex():
    with pytest.raises(TypeError, match="format it into words"):
        published.format_value({"a": 1})
    with pytest.raises(TypeError):
        published.format_value([1, 2])
    with pytest.raises(ValueError, match="LaTeX"):
        published.format_value(r"$0.1351\pm 0.0654$")
    with pytest.raises(ValueError, match="LaTeX"):
        published.format_value(r"0.1 \pm 0.2")


def test_labels_are_words_and_methods_as_printed():
    for name in ["mean_gap", "ci_low", "train_on_test", "error_range", "some_new_column",
                 ("Kernel SVM", "accuracy_pct")]:
        assert not SNAKE.search(published.header_label(name)), name
    assert published.header_label("ci_low") == "CI low"
    assert published.header_label("some_new_column") == "some new column"
    assert published.method_label("MbF-PCA (10^-3)") == "MbF-PCA (10⁻³)"
    assert published.method_label("MbF-PCA (10^{-6})") == "MbF-PCA (10⁻⁶)"
    assert published.method_label("Fair PCA-S (0.5)") == "Fair PCA-S (0.5)"


def test_concept_erasure_and_citation_columns_in_words():
    # group_mean_gaps' columns, and a citation list's
    frame = pd.DataFrame({"largest_mean_gap": [0.7, 1e-15], "bar_with_concept": [0.75, 0.51],
                          "bar_without_concept": [0.28, 0.51], "citation": ["A (1996)", "B"]},
                         index=pd.Index(["original", "Fair PCA, k = 63"], name="version"))
    html_text = published.reader_table(frame, decimals=3)._repr_html_()
    headers = _headers(html_text)
    assert not any(SNAKE.search(h) for h in headers)
    for words in ("largest gap between group means", "bar row, with the concept",
                  "bar row, without", "how to cite"):
        assert words in headers
    assert ">0.000<" in html_text and "e-15" not in html_text


def test_reader_table_wraps_the_long_text_columns_it_is_told_to():
    frame = pd.DataFrame({"licence": ["CC BY 4.0"], "citation": ["Becker, B. & Kohavi, R. " * 8]},
                         index=pd.Index(["UCI Adult"], name="data set"))
    html_text = published.reader_table(frame, wrap=["citation"])._repr_html_()
    cells = re.findall(r'<td style="([^"]*)"', html_text)
    assert "white-space:nowrap" in cells[0] and "white-space:normal" in cells[1]
    plain = published.reader_table(frame)._repr_html_()
    assert "white-space:normal" not in plain.split("<tbody>")[1]
    with pytest.raises(ValueError, match="wrap"):
        published.reader_table(frame, wrap=["cite"])


def test_reader_table_headers_missing_reason_and_sticky_label():
    frame = pd.DataFrame({"method": ["Fair PCA", "MbF-PCA (10^-6)"],
                          "mean_gap": [-0.00004, np.nan], "ci_low": [0.12345, 0.5],
                          "train_on_test": [True, False]})
    table = published.reader_table(frame, title="Gaps", decimals={"ci_low": 3},
                                   missing={"mean_gap": "the curve has no point there"})
    html_text = table._repr_html_()
    for text in (repr(table), html_text):
        assert "-0.00" not in text and "mean_gap" not in text and "ci_low" not in text
        assert "—" in text and "the curve has no point there" in text
        assert "MbF-PCA (10⁻⁶)" in text and "0.123" in text
    assert not any(SNAKE.search(h) for h in _headers(html_text))
    assert "position:sticky" in re.search(r'<th scope="row"[^>]*>', html_text).group(0)
    assert "overflow-x:auto" in html_text
    # a missing value without its reason is refused, naming the column
    with pytest.raises(ValueError, match="mean_gap"):
        published.reader_table(frame)
    # a dict in a cell is refused
    with pytest.raises(TypeError):
        published.reader_table(pd.DataFrame({"a": ["x"], "b": [{"c": 1}]}))


def test_reader_table_outer_levels_become_group_rows():
    frame = pd.DataFrame({"k": [2, 2, 10], "method": ["PCA", "Fair PCA", "PCA"],
                          "value": [1.0, 2.0, 3.0]}).set_index(["k", "method"])
    html_text = published.reader_table(frame)._repr_html_()
    assert html_text.count('class="fairlab-group"') == 2
    assert ">k = 2<" in html_text and ">k = 10<" in html_text


def test_side_by_side_compact_full_and_missing():
    # ours: the printed means, except two cells moved; Fair Kernel PCA's %Var is n/a on both sides
    def means(pub):
        m = pub["mean"].copy()
        m[(pub.method == "PCA") & (pub.metric == "var_pct")] = 7.7749   # 7.77: within the std
        m[(pub.method == "PCA") & (pub.metric == "delta_dp") & (pub.model == "MLP")] = (
            pub.loc[(pub.method == "PCA") & (pub.metric == "delta_dp") & (pub.model == "MLP"),
                    "mean"] - 0.0001)                                   # Δ rounds to zero
        return m

    res = _compared(means)
    table = kleindessner.side_by_side(res, title="Table 1 (Adult Income)")
    full = table.collapsed()._repr_html_()
    compact = table.compact(["%Var", "MMD²"])
    small = compact._repr_html_()
    for text in (full, small, repr(table), repr(compact)):
        assert "-0.00" not in text and "n/a" not in text and "—" in text
        assert not any(SNAKE.search(h) for h in _headers(text if "<" in text else ""))
    assert full.startswith("<details") and "±" in full and "Δ" in full
    assert "±" not in small and "Kernel SVM" not in small
    assert "MbF-PCA (10⁻³)" in small
    row = table.frame.loc[(2, "PCA")]
    assert row[("MLP ΔDP", "Δ")] == "0.00"           # -0.0001 at 2 decimals: no sign
    assert row[("%Var", "Δ")] == "-0.01" and row[("%Var", "")] == "~"
    # the reason of — is under the table
    assert "the paper prints none either" in small  # kleindessner: Fair Kernel PCA
    default = published.side_by_side(res, rows=["k", "method"], group=lambda r: r.metric,
                                     decimals=lambda r: 2)
    assert default.notes == ["—: the paper prints no number here, and the measure is not computed"]
    custom = published.side_by_side(res, rows=["k", "method"], group=lambda r: r.metric,
                                    decimals=lambda r: 2, missing="not defined for a kernel map")
    assert "—: not defined for a kernel map" in custom.compact()._repr_html_()
    with pytest.raises(ValueError, match="unknown metric group"):
        table.compact(["Error"])
    views = table.split(4)
    assert [v.groups for v in views] == [table.groups[:4], table.groups[4:]]


def test_verdict_sentence_states_the_numbers_of_its_table():
    def means(pub):
        m = pub["mean"].copy()
        m[(pub.method == "PCA") & (pub.metric == "var_pct")] = 9.0      # beyond the std
        m[(pub.method == "PCA") & (pub.metric == "mmd2")] = 0.36        # within the std 0.026
        return m

    res = _compared(means)
    # the counts by hand
    shown = int(res.ours_mean.notna().sum())
    within = int(sum(bool(w) for w in res.within if w is not pd.NA))
    equal = int(sum(s in ("equal", "mean equal") for s in res.status))
    assert shown == len(res) - 2 and within == shown - 1 and equal == shown - 2
    checks = {"PCA is unfair (MMD² above 0.1)": True, "Fair PCA keeps more than 30 %": False}
    v = published.verdict([published.verdict_row("Table 1 (Adult Income)", res),
                           published.verdict_row("Fig. 11.2 (the paper's Figure 2)",
                                                 checks=checks)], title="Verdict")
    row = v.table.text.iloc[0]
    assert [int(row[c]) for c in ["printed cells", "with our number", "within the paper's std",
                                  "equal at the printed decimals"]] == [len(res), shown, within,
                                                                       equal]
    numbers = [int(n) for n in re.findall(r"\b\d+\b", v.sentence.split("Table 1")[0]
                                          + v.sentence.split("(Adult Income),")[1])]
    assert numbers[:4] == [len(res), shown, within, equal]
    assert "1 of the 2 checks" in v.sentence and "Fair PCA keeps more than 30 %" in v.sentence
    assert "fails" in v.sentence
    assert v.table.text.iloc[1]["checks held"] == "1 of 2"
    assert v.table.text.iloc[1]["printed cells"] == "—"
    assert any("figure" in n for n in v.table.notes)
    assert not any(SNAKE.search(h) for h in _headers(v._repr_html_()))
    assert v.sentence._repr_markdown_() == str(v.sentence)
    # every check held: the sentence says so and names no failure
    ok = published.verdict([published.verdict_row("Fig. 2", checks={"a": True, "b": True})])
    assert ok.sentence == "2 of the 2 checks of the paper's stated conclusions hold."


def test_verdict_row_from_a_frame_of_checks_and_bad_input():
    checks = pd.DataFrame({"Fair PCA-S (0.5) ΔDP ≤ Fair PCA": [True, False]},
                          index=["Adult, k = 2", "COMPAS, k = 10"])
    row = published.verdict_row("Tables 1–3: the paper's conclusions", checks=checks)
    assert (row["held"], row["checks"]) == (1, 2)
    assert row["failed"] == ["COMPAS, k = 10 · Fair PCA-S (0.5) ΔDP ≤ Fair PCA"]
    named = pd.Series([True, False], name="Fair Kernel PCA smallest",
                      index=pd.MultiIndex.from_tuples([("COMPAS", 2.0), ("COMPAS", 10.0)],
                                                      names=["dataset", "k"]))
    both = published.verdict_row("both", checks=[checks, named])
    assert (both["held"], both["checks"]) == (2, 4)
    assert both["failed"][1] == "Fair Kernel PCA smallest: COMPAS, k = 10"
    with pytest.raises(ValueError, match="with_status"):
        published.verdict_row("x", pd.DataFrame({"ours_mean": [1.0]}))
    with pytest.raises(TypeError, match="checks"):
        published.verdict_row("x", checks=[True])
    with pytest.raises(ValueError, match="at least one row"):
        published.verdict([])


def test_details_holds_html_tables_only():
    table = published.reader_table(pd.DataFrame({"a": ["x"], "b": [1.0]}))
    d = published.Details(table, summary="The table in full")
    assert d._repr_html_().startswith("<details") and "<summary" in d._repr_html_()
    assert "collapsed" in repr(d) and len(repr(d).splitlines()) == 1
    with pytest.raises(TypeError):
        published.Details("text", summary="s")
    with pytest.raises(ValueError, match="summary"):
        published.Details(table, summary="")


def test_checks_prose_lists_each_claim_with_its_outcome():
    text = published.checks_prose({"PCA is unfair": True, "Fair PCA keeps 30 %": False})
    assert text.splitlines() == ["- holds: PCA is unfair", "- **fails**: Fair PCA keeps 30 %"]
    assert text._repr_markdown_() == str(text)
    with pytest.raises(ValueError, match="no claim"):
        published.checks_prose({})


def test_format_range_collapses_equal_ends():
    assert published.format_range([27.79, 40.26], 1, " %") == "27.8 % to 40.3 %"
    assert published.format_range([99.96, 100.04], 1, " %") == "100.0 %"
    assert published.format_range([-0.001, 0.001], 2) == "0.00"
    with pytest.raises(ValueError):
        published.format_range([])


def test_a_verdict_of_figures_only_shows_the_checks():
    v = published.verdict([published.verdict_row("Figure 4", checks={"similar": True}),
                           published.verdict_row("Figure 9", checks={"faster": False})])
    assert list(v.table.text.columns) == ["checks held"] and not v.table.notes
    assert v.sentence == ("1 of the 2 checks of the paper's stated conclusions holds; 1 fails: "
                          "faster.")
