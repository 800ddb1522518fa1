"""The work units of Pérez-Suay et al. and De-Diego et al.: their ledger rows read back into the
runners' tables equal the runners' own output, and verification sees a change or absent data."""

import numpy as np
import pandas as pd
import pytest

from fairlab import experiments
from fairlab.experiments import _ledger, de_diego, perez_suay

_ROW = [c for c in _ledger.ROW_KEYS if c != "unit"]


def _assert_same_table(direct, back, keys):
    """Same rows in the same order; values equal to the ledger's 8 significant digits."""
    assert list(back.columns) == list(direct.columns)
    assert len(back) == len(direct)
    pd.testing.assert_frame_equal(back[keys].astype(str), direct[keys].astype(str))
    for column in direct.columns.difference(keys):
        a, b = direct[column].to_numpy(float), back[column].to_numpy(float)
        assert (np.isnan(a) == np.isnan(b)).all(), column
        assert np.allclose(a, b, rtol=6e-8, atol=0, equal_nan=True), column


def test_a_perez_suay_regression_unit_reads_back_as_the_runner_output():
    key = {"dataset": "cmc", "table": "fig5", "split": 1}
    rows = experiments.recompute("perez_suay", [key])
    assert set(rows["table"]) == {"fig5"} and set(rows["split"]) == {1}
    assert set(rows["model"]) == set(perez_suay.SENSITIVE["cmc"])  # the panels
    back = perez_suay.results_from_ledger(rows, "fig5")
    split = perez_suay.load_splits("cmc", n_repetitions=2)[1:]
    direct = perez_suay.regression(split, list(perez_suay.SENSITIVE["cmc"]))
    keys = ["dataset", "sensitive", "variant", "method", "repetition", "mu"]
    _assert_same_table(direct.drop(columns="seconds"), back.drop(columns="seconds"), keys)
    pd.testing.assert_frame_equal(perez_suay.checks(back)[["panel", "holds"]],
                                  perez_suay.checks(direct)[["panel", "holds"]])


def test_a_perez_suay_reduction_unit_reads_back_as_the_runner_output(monkeypatch):
    monkeypatch.setitem(perez_suay.SIZES, "adult", (200, 200, 300))  # a small a9a repetition
    rows = experiments.recompute("perez_suay", [{"dataset": "adult", "table": "fig6", "split": 0}])
    back = perez_suay.results_from_ledger(rows, "fig6")
    split = perez_suay.load_splits("adult", n_repetitions=1)
    direct = perez_suay.dimensionality_reduction(
        split, list(perez_suay.SENSITIVE["adult"]),
        n_components=perez_suay.PARAMETERS["n_components"])
    keys = ["dataset", "sensitive", "variant", "method", "repetition", "n_components"]
    _assert_same_table(direct.drop(columns="seconds"), back.drop(columns="seconds"), keys)


@pytest.mark.parametrize("table", ["fig4", "fig6"])
def test_the_parts_of_a_perez_suay_unit_are_exactly_its_rows(table, monkeypatch):
    monkeypatch.setitem(perez_suay.SIZES, "adult", (200, 200, 300))  # a small a9a repetition
    key = {"dataset": "adult", "table": table, "split": 2}
    whole = perez_suay.run_unit(key, perez_suay.PARAMETERS)
    whole = whole[whole["metric"] != "fit_seconds"]
    labels = set()
    for part in perez_suay.verification_parts(key):
        rows = perez_suay.run_unit(key, perez_suay.PARAMETERS, part)
        rows = rows[rows["metric"] != "fit_seconds"]
        assert set(rows["model"]) == set(part["sensitive"])
        if table == "fig4":
            assert set(rows["eta"]) <= set(perez_suay.GRIDS["mu"][part["mu_index"]]) | {0.0}
        same = rows.merge(whole, on=_ROW, how="left", suffixes=("", "_whole"),
                          validate="one_to_one")
        # at the ledger's precision: a path's predictions for 3 values of μ are a product with
        # fewer columns than for 25, whose rounding may differ in the 14th digit
        np.testing.assert_array_equal(same["value"].map(_ledger._round),
                                      same["value_whole"].map(_ledger._round))
        labels |= set(rows["method"])
    assert labels == set(whole["method"])  # every method of the unit is in a part


def test_verify_reruns_the_parts_of_a_slow_unit_and_finds_a_change(tmp_path):
    key = {"dataset": "cmc", "table": "fig5", "split": 0}
    ledger = experiments.run("perez_suay", [key], scheduler="serial", path=tmp_path)
    sample = experiments.verification_sample(ledger, max_unit_seconds=0.0)
    assert [part for _, part in sample] == perez_suay.verification_parts(key)
    result = experiments.verify("perez_suay", path=tmp_path, max_unit_seconds=0.0)
    assert result["equal"].eq(True).all() and len(result) == 2  # no pair left out
    assert result["unit"].str.contains("[sensitive=wife_education; variants=with S;",
                                       regex=False).any()
    file = experiments.ledger_path("perez_suay", tmp_path)
    planted = ledger.copy()
    middle = perez_suay.GRIDS["mu"][len(perez_suay.GRIDS["mu"]) // 2]
    planted.loc[(planted["method"] == "FKR\\S") & (planted["model"] == "wife_education")
                & (planted["eta"] == middle) & (planted["metric"] == "hsic"), "value"] *= 1.001
    planted.to_csv(file, index=False)
    result = experiments.verify("perez_suay", path=tmp_path, max_unit_seconds=0.0)
    assert result["equal"].tolist() == [True, False]  # the part "without S" differs


def test_perez_suay_grid_and_bad_figure():
    grid = perez_suay.units()
    assert len(grid) == 3 * perez_suay.N_REPETITIONS
    assert perez_suay.units(tables=["fig5"], splits=[0]) == [
        {"dataset": "cmc", "table": "fig5", "split": 0}]
    with pytest.raises(ValueError, match="table must be one of"):
        perez_suay.results_from_ledger(experiments.read_ledger("perez_suay"), "fig7")


@pytest.mark.parametrize("table", ["table1", "table4"])
def test_a_de_diego_unit_reads_back_as_the_runner_output(table):
    rows = experiments.recompute("de_diego", [{"dataset": "german", "table": table, "eta": 2.0}])
    assert (rows["metric"] != experiments.MISSING).all()
    back = de_diego.scores_from_ledger(rows, table)
    data = {"german": de_diego.load_data("german")}
    if table == "table1":
        direct = de_diego.representation_scores(data, [2.0])
    else:
        direct = de_diego.downstream_scores(data, [2.0])
    _assert_same_table(direct, back, [c for c in direct.columns if c != "value"])


def test_de_diego_grid_covers_the_printed_tables():
    grid = de_diego.units()
    tables = {(k["dataset"], k["table"]) for k in grid}
    assert ("communities", "table5") in tables and ("communities", "table4") not in tables
    assert {k["eta"] for k in grid if k["table"] == "table1"} == set(de_diego.ETAS_A)
    assert {0.0, 1.0, 2.0} <= {k["eta"] for k in grid if k["table"] == "table4"}


def test_verify_fails_on_a_change_and_reports_absent_data(tmp_path, monkeypatch):
    key = {"dataset": "german", "table": "table1", "eta": 0.0}
    experiments.run("de_diego", [key], scheduler="serial", path=tmp_path)
    assert experiments.verify("de_diego", path=tmp_path)["equal"].eq(True).all()
    file = experiments.ledger_path("de_diego", tmp_path)
    planted = experiments.read_ledger("de_diego", tmp_path)
    planted.loc[planted["metric"] == "cov2_s", "value"] *= 1.001
    planted.to_csv(file, index=False)
    assert experiments.verify("de_diego", path=tmp_path)["equal"].eq(False).all()

    def absent(*args, **kwargs):
        raise FileNotFoundError("german.csv is not in FAIRLAB_DATA")

    monkeypatch.setattr(de_diego._units, "load_data", absent)
    result = experiments.verify("de_diego", path=tmp_path)
    assert result["equal"].isna().all()
    assert result["note"].str.startswith("its data are not on this machine").all()

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(de_diego._units, "load_data", broken)
    assert experiments.verify("de_diego", path=tmp_path)["equal"].eq(False).all()


@pytest.mark.parametrize("method", ["Fair PCA", "Reductions"])
def test_a_tradeoff_curve_unit_reads_back_as_the_runner_output(method):
    from fairlab.experiments import kleindessner_tradeoffs as tradeoffs

    small = {"n_train": 300, "n_test": 300, "lambdas": [0.0, 0.5, 1.0], "eps": [0.05, 0.2]}
    key = {"dataset": "adult", "method": method, "fairness": "DP",  # EO: too few y = 1 rows
           "classifier": "logistic regression", "split": 1}
    rows = experiments.recompute("kleindessner_tradeoffs", [key], parameters=small)
    assert set(rows["table"]) == {"fig4"} and set(rows["method"]) == {f"{method} (DP)"}
    back = tradeoffs.curves_from_ledger(rows)
    direct = tradeoffs.curves(["adult"], methods=[method], fairness=["DP"], n_runs=1, first_run=1,
                              n_train=300, n_test=300, lambdas=small["lambdas"], eps=small["eps"])
    keys = ["dataset", "method", "fairness", "classifier", "run", "param"]
    _assert_same_table(direct.drop(columns="seconds"), back.drop(columns="seconds"), keys)
    assert len(tradeoffs.units()) == 2 * 4 * 2 * 2 * tradeoffs.N_RUNS


def test_curve_seconds_sums_each_curve_and_divides_by_the_reductions():
    from fairlab.experiments import kleindessner_tradeoffs as tradeoffs

    small = {"n_train": 300, "n_test": 300, "lambdas": [0.0, 1.0], "eps": [0.05, 0.2]}
    keys = [{"dataset": "adult", "method": m, "fairness": "DP", "classifier": "logistic regression",
             "split": s} for m in ("Fair PCA", "Reductions") for s in (0, 1)]
    rows = experiments.recompute("kleindessner_tradeoffs", keys, parameters=small)
    table = tradeoffs.curve_seconds(rows)
    timed = rows[rows["metric"] == "fit_seconds"]
    whole = timed.groupby(["method", "split"])["value"].sum().groupby("method").mean()
    fair = table.loc[("adult", "logistic regression", "Fair PCA")]
    assert fair["curves"] == 2
    assert fair["seconds"] == pytest.approx(round(whole["Fair PCA (DP)"], 2), abs=0.006)
    assert fair["ratio"] == pytest.approx(whole["Fair PCA (DP)"] / whole["Reductions (DP)"],
                                          abs=6e-5)
    assert table.loc[("adult", "logistic regression", "Reductions"), "ratio"] == 1.0
    no_reference = tradeoffs.curve_seconds(rows[rows["method"] == "Fair PCA (DP)"])
    assert np.isnan(no_reference["ratio"]).all()
    with pytest.raises(ValueError, match="no curve"):
        tradeoffs.curve_seconds(rows.iloc[:0])
