"""A method of one's own through the papers' protocols: the scorecard and its command line."""

import dataclasses
import functools
import importlib
import os
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import linalg
from sklearn.base import clone

import fairlab.experiments
from fairlab import FairPCA
from fairlab.experiments import LEDGER_COLUMNS, cards, methods, read_ledger, results_dir
from fairlab.experiments.__main__ import _factory, main
from fairlab.experiments._provenance import machine
from fairlab.experiments.cards._perez_suay_dr import _PANELS
from fairlab.experiments.cards._registry import _REGISTRY
from fairlab.experiments.de_diego import downstream_rows, scores_from_ledger, table1_rows
from fairlab.experiments.example_method import GapPCA
from fairlab.experiments.kleindessner import KERNEL_DEPENDENT_MODELS, METHODS
from fairlab.experiments.kleindessner_tradeoffs import (
    KERNEL_DEPENDENT_MODELS as TRADEOFF_KERNEL_DEPENDENT_MODELS,
)

# where the scorecard computes its units (patched to count them)
machinery = importlib.import_module("fairlab.experiments.cards._card")
KEYS = ["dataset", "model", "metric"]
KLEINDESSNER = ["kleindessner"]


def _scores(rows):
    """The rows of the protocol's scores, without the leakage audit's."""
    return rows[~rows["metric"].str.startswith(cards.LEAKAGE)]


def _committed_fair_pca(splits=(0,), k=2):
    ledger = read_ledger("kleindessner")
    return ledger[(ledger["method"] == "Fair PCA") & (ledger["k"] == k)
                  & ledger["split"].isin(splits) & ledger["table"].isin(["table1", "table2",
                                                                         "table3"])]


def _assert_rows_equal_the_ledger(rows, committed):
    """Every value to the stored digit (the MLP's only on the ledger's BLAS kernel: its Adam
    steps follow the kernel's rounding)."""
    kernel = machine().partition("BLAS:")[2]
    rows = _scores(rows)
    if set(committed["machine"].str.partition("BLAS:")[2]) != {kernel}:
        rows = rows[~rows["model"].isin(KERNEL_DEPENDENT_MODELS)]
        committed = committed[~committed["model"].isin(KERNEL_DEPENDENT_MODELS)]
    both = rows.merge(committed, on=[*KEYS, "k", "split"], suffixes=("", "_ledger"),
                      validate="one_to_one")
    assert len(both) == len(committed) == len(rows) > 0
    assert both["value"].tolist() == both["value_ledger"].tolist()


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick card of the ledger's Fair PCA setting, and its folder."""
    folder = tmp_path_factory.mktemp("card")
    card = cards.scorecard(cards.KLEINDESSNER_FAIR_PCA, name="Fair PCA", quick=True,
                                 results=folder, scheduler="serial", protocols=KLEINDESSNER)
    return card, folder


def test_the_quick_card_of_fair_pca_is_the_ledgers(quick):
    card, folder = quick
    rows = read_ledger("scorecard", folder)
    assert list(rows.columns) == LEDGER_COLUMNS
    assert set(rows["split"]) == {0} and set(rows["k"]) == {2}
    assert (rows["seconds"] > 0).all() and rows["commit"].str.len().gt(0).all()
    assert rows["machine"].str.contains("BLAS").all()
    _assert_rows_equal_the_ledger(rows, _committed_fair_pca())
    # on the card, the method's cells are the published Fair PCA's, and rank alike
    mine = _scores(card[card["yours"]]).set_index(KEYS)
    theirs = card[~card["yours"] & (card["method"] == "Fair PCA")].set_index(KEYS)
    assert len(mine) == 3 * 8 and (mine["n_splits"] == 1).all()
    assert mine["mean"].equals(theirs.loc[mine.index, "mean"])
    assert mine["rank"].equals(theirs.loc[mine.index, "rank"])
    assert set(card["method"]) == {"Fair PCA", *METHODS}


def test_the_quick_card_audits_the_representation(quick):
    """The leakage audit, computed in the units: per data set, each quick adversary's balanced
    accuracy inside its interval, chance 1/2, and not ranked (no published method has one)."""
    card, folder = quick
    audit = card[card["metric"] == cards.LEAKAGE]
    adversaries = cards.AUDIT_QUICK["adversaries"]
    assert len(audit) == 3 * len(adversaries) and audit["yours"].all()
    assert set(audit["model"]) == set(adversaries)
    assert (audit["ci_low"] <= audit["mean"]).all() and (audit["mean"] <= audit["ci_high"]).all()
    assert (audit["chance"] == 0.5).all() and audit["rank"].isna().all()
    assert audit["detected"].isin([0, 1]).all()
    assert (audit["detected"] == (audit["ci_low"] > audit["chance"])).all()
    assert card.loc[card["metric"] != cards.LEAKAGE, "ci_low"].isna().all()
    rows = read_ledger("scorecard", folder)
    assert '"audit":{"adversaries":["rbf_svm","gradient_boosting"]' in rows["parameters"].iloc[0]
    tables = cards.render(card)
    assert len(tables) == 2 and "Leakage audit of Fair PCA" in repr(tables[1])


def test_plain_fair_pca_through_the_command_line_gives_the_ledgers_values(tmp_path, capsys):
    """``fairlab:FairPCA`` centres where the ledger's setting does not; Lee et al.'s splits are
    standardised with the training mean, so the stored values are the same."""
    assert main(["scorecard", "fairlab:FairPCA", "--name", "Fair PCA", "--quick",
                 "--protocol", "kleindessner", "--results", str(tmp_path),
                 "--scheduler", "serial"]) == 0
    out = capsys.readouterr().out
    assert "Scorecard: Kleindessner et al. (2023), Tables 1–3" in out
    assert "Fair PCA (yours)" in out and "rank of yours" in out and "_" not in out
    rows = read_ledger("scorecard", tmp_path)
    assert '"method":"fairlab.pca:FairPCA"' in rows["parameters"].iloc[0]
    _assert_rows_equal_the_ledger(rows, _committed_fair_pca())


def test_a_second_call_computes_nothing(quick, monkeypatch):
    card, folder = quick

    def computes(*args, **kwargs):
        raise AssertionError("a unit was computed again")

    monkeypatch.setattr(machinery, "_compute", computes)
    again = cards.scorecard(cards.KLEINDESSNER_FAIR_PCA, name="Fair PCA",
                                  quick=True, results=folder, scheduler="serial",
                                  protocols=KLEINDESSNER)
    pd.testing.assert_frame_equal(again, card)


def test_another_factory_under_the_same_name_is_computed_anew(quick, monkeypatch):
    _, folder = quick
    computed = []
    monkeypatch.setattr(machinery, "_compute", lambda experiment, todo, *a, **k:
                        computed.extend(todo))
    cards.scorecard(FairPCA, name="Fair PCA", quick=True, results=folder,
                          scheduler="serial", protocols=KLEINDESSNER)
    assert len(computed) == 3


def test_rows_land_in_the_results_folder_only(tmp_path):
    committed = results_dir()
    before = {p: p.stat().st_mtime_ns for p in committed.rglob("*")}
    cards.scorecard(GapPCA, quick=True, results=tmp_path / "mine", scheduler="serial",
                          protocols=KLEINDESSNER)
    assert {p: p.stat().st_mtime_ns for p in committed.rglob("*")} == before
    assert (tmp_path / "mine" / "scorecard.csv.gz").is_file()
    with pytest.raises(ValueError, match="committed ledgers"):
        cards.scorecard(GapPCA, quick=True, results=committed, scheduler="serial")


def test_ranks_by_hand():
    frame = pd.DataFrame({
        "protocol": "p", "dataset": "d", "k": 2, "model": "",
        "metric": ["var_pct"] * 4 + ["mmd2"] * 4,
        "method": list("abcd") * 2,
        "mean": [10.0, 30.0, 10.0, np.nan, 0.5, 0.1, 0.1, 0.9]})
    ranked = cards.rank_methods(frame)
    # %Var: higher is better, the tie shares rank 2, the method without a value has none
    assert ranked["rank"].iloc[:4].tolist()[:3] == [2.0, 1.0, 2.0]
    assert np.isnan(ranked["rank"].iloc[3])
    assert ranked["ranked"].tolist() == [3] * 4 + [4] * 4
    # MMD²: lower is better
    assert ranked["rank"].iloc[4:].tolist() == [3.0, 1.0, 1.0, 4.0]
    assert ranked["better"].tolist() == ["higher"] * 4 + ["lower"] * 4
    assert cards.RANK_DIRECTION == {
        "var_pct": "higher", "accuracy_pct": "higher", "mmd2": "lower", "delta_dp": "lower",
        "cov2_y": "higher", "cov2_s": "lower", "reconstruction_error": "lower",
        "error": "lower", "hsic": "lower", "curve_gap": "lower", "accuracy": "higher",
        "cov2_yhat": "higher", "ks": "lower", "mse": "lower",
        "disparate_impact": "closest to 1"}
    assert cards.RANK_TARGET == {"disparate_impact": 1.0}


def test_the_disparate_impact_ranks_closest_to_one_by_hand():
    """|DI − 1| from either side: 0.75 and 1.25 tie, as do 0.5 and 1.5; 1 is the best; a
    method without a value has no rank; another metric of the same frame keeps its direction."""
    frame = pd.DataFrame({
        "protocol": "de_diego_b", "dataset": "d", "k": 2, "model": "LR",
        "metric": ["disparate_impact"] * 7 + ["accuracy"] * 2,
        "method": list("abcdefg") + list("ab"),
        "mean": [0.75, 1.25, 1.0, np.nan, 0.5, 2.0, 1.5, 0.8, 0.9]})
    ranked = cards.rank_methods(frame)
    assert ranked["rank"].iloc[:7].fillna(-1).tolist() == [2.0, 2.0, 1.0, -1, 4.0, 6.0, 4.0]
    assert ranked["ranked"].iloc[:7].tolist() == [6] * 7
    assert ranked["better"].iloc[:7].tolist() == ["closest to 1"] * 7
    assert ranked["rank"].iloc[7:].tolist() == [2.0, 1.0]


def test_ranks_of_a_hand_made_experiment_a_card():
    """Cov²(r(X), Y) higher is better, Cov²(r(X), S) and the error lower; cells are per data set
    and k; the audit's rows are not ranked."""
    frame = pd.DataFrame({
        "protocol": "de_diego_a", "dataset": ["A"] * 9 + ["B"] * 2 + ["A"], "model": "",
        "k": [2] * 9 + [2, 2, 3],
        "metric": ["cov2_y"] * 3 + ["cov2_s"] * 3 + ["reconstruction_error"] * 3
                  + ["cov2_y"] * 2 + ["leakage"],
        "method": ["yours", "Fair PLS (η = 1)", "Fair PLS (η = 2)"] * 3 + ["yours", "x", "yours"],
        "mean": [0.2, 0.3, 0.2, 0.01, 0.02, 0.001, 0.5, 0.4, 0.6, 0.1, 0.05, 0.7]})
    ranked = cards.rank_methods(frame)
    assert ranked["rank"].iloc[:3].tolist() == [2.0, 1.0, 2.0]  # a tie shares rank 2
    assert ranked["rank"].iloc[3:6].tolist() == [2.0, 3.0, 1.0]
    assert ranked["rank"].iloc[6:9].tolist() == [2.0, 1.0, 3.0]
    assert ranked["rank"].iloc[9:11].tolist() == [1.0, 2.0]  # another data set, another cell
    assert ranked["ranked"].iloc[:11].tolist() == [3] * 9 + [2] * 2
    assert np.isnan(ranked["rank"].iloc[11]) and np.isnan(ranked["ranked"].iloc[11])


@pytest.mark.parametrize("spec, words", [
    ("fairlab.FairPCA", "MODULE:FACTORY"),
    ("no_such_module_of_fairlab:Method", "cannot import the module 'no_such_module_of_fairlab'"),
    ("fairlab:NoSuchMethod", "has no 'NoSuchMethod'"),
    ("fairlab:__version__", "is not callable"),
    ("math:sqrt", "has no fit or transform"),
    ("sklearn.decomposition:PCA", "takes no sensitive_features"),
])
def test_a_bad_factory_is_a_clear_error(spec, words, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["scorecard", spec, "--quick", "--results", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "scorecard: error:" in err and words in err
    assert not (tmp_path / "scorecard.csv.gz").exists()


def test_a_results_folder_that_cannot_be_made_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "a file").write_text("")
    with pytest.raises(SystemExit) as info:
        main(["scorecard", "fairlab:FairPCA", "--quick",
              "--results", str(tmp_path / "a file" / "inside")])
    assert info.value.code == 2
    assert "cannot be created" in capsys.readouterr().err


def _committed_fair_pls(eta, split=0):
    """Table 1's reading of the committed Experiment A rows of Fair PLS at ``eta``."""
    scores = table1_rows(scores_from_ledger(read_ledger("de_diego"), "table1"))
    return scores[(scores["eta"] == eta) & (scores["split"] == split)]


def test_fair_pls_through_experiment_a_gives_the_ledgers_values(tmp_path):
    """The registry's Fair PLS at η = 10 (at every data set's smallest k of Table 3) through the
    quick protocol: every stored value of the committed ledger's units, to the stored digit,
    and on the card the same mean and rank as the published "Fair PLS (η = 10)"."""
    factory = functools.partial(methods.build, "Fair PLS", eta=10.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        card = cards.scorecard(factory, name="My PLS", protocols="de_diego_a", quick=True,
                                     results=tmp_path, scheduler="serial")
    rows = read_ledger("scorecard", tmp_path)
    lawschool = bool(os.environ.get("FAIRLAB_DATA"))  # external: without it, its unit fails
    assert any("lawschool" in str(w.message) for w in caught) is not lawschool
    assert rows["unit"].nunique() == 6 and set(rows["split"]) == {0}
    assert rows.loc[rows["metric"] != "missing", "dataset"].nunique() == 5 + lawschool
    assert '"method":"fairlab.experiments.methods:build(\'Fair PLS\', eta=10.0)"' in \
        rows["parameters"].iloc[0]
    mine = _scores(rows[rows["metric"] != "missing"])
    both = mine.merge(_committed_fair_pls(10.0), on=["dataset", "k", "metric", "split"],
                      suffixes=("", "_ledger"), validate="one_to_one")
    assert len(both) == len(mine) == 3 * (5 + lawschool)
    assert both["value"].tolist() == both["value_ledger"].tolist()
    scored = card[card["metric"] != cards.LEAKAGE].set_index(["dataset", "k", "metric"])
    yours = scored[scored["yours"]]
    theirs = scored[scored["method"] == "Fair PLS (η = 10)"].loc[yours.index]
    assert yours["mean"].equals(theirs["mean"]) and yours["rank"].equals(theirs["rank"])
    assert set(scored["method"]) <= {"My PLS", *(f"Fair PLS (η = {e:g})" for e in
                                                  (0, 1, 2, 10))}
    tables = cards.render(card)
    assert [t.title for t in tables] == [
        "Scorecard: De-Diego et al. (2025), Experiment A (Table 1)",
        "Leakage audit of My PLS: De-Diego et al. (2025), Experiment A (Table 1)"]


def test_fair_pls_through_experiment_b_gives_the_ledgers_values(tmp_path, monkeypatch):
    """The registry's Fair PLS at η = 1 through one unit of Experiment B (Adult's first fold at
    k = 5, where Tables 4-5's η = 0 and 1 share the k): every stored value of the committed
    ledger's fold, to the stored digit, and on the card the same mean and rank as the published
    "Fair PLS (η = 1)" in every column, DI ranked closest to 1."""
    spec = _REGISTRY[cards.DE_DIEGO_B]
    monkeypatch.setitem(_REGISTRY, cards.DE_DIEGO_B, dataclasses.replace(
        spec, quick=("adult",), ks=lambda dataset: (5,)))
    factory = functools.partial(methods.build, "Fair PLS", eta=1.0)
    card = cards.scorecard(factory, name="My PLS", protocols=cards.DE_DIEGO_B, quick=True,
                           results=tmp_path, scheduler="serial")
    rows = _scores(read_ledger("scorecard", tmp_path))
    assert rows["unit"].nunique() == 1 and set(rows["split"]) == {0}
    assert set(rows["table"]) == {"table4"} and "missing" not in set(rows["metric"])
    committed = downstream_rows(scores_from_ledger(read_ledger("de_diego"), "table4"))
    committed = committed[(committed["dataset"] == "Adult Income") & (committed["eta"] == 1.0)
                          & (committed["fold"] == 0) & (committed["metric"] != "eopp")]
    both = rows.merge(committed.rename(columns={"fold": "split"}),
                      on=["dataset", "k", "model", "metric", "split"],
                      suffixes=("", "_ledger"), validate="one_to_one")
    assert len(both) == len(rows) == len(committed) == 3 * 4
    assert both["value"].tolist() == both["value_ledger"].tolist()
    scored = card[card["metric"] != cards.LEAKAGE].set_index(["dataset", "k", "model",
                                                              "metric"])
    yours = scored[scored["yours"]]
    theirs = scored[scored["method"] == "Fair PLS (η = 1)"].loc[yours.index]
    assert yours["mean"].equals(theirs["mean"]) and yours["rank"].equals(theirs["rank"])
    assert set(scored["method"]) == {"My PLS", "Fair PLS (η = 0)", "Fair PLS (η = 1)"}
    assert (scored["ranked"] == 3).all()
    assert set(scored.loc[scored.index.get_level_values("metric") == "disparate_impact",
                          "better"]) == {"closest to 1"}
    tables = cards.render(card)
    assert [t.title for t in tables] == [
        "Scorecard: De-Diego et al. (2025), Experiment B (Tables 4-5)",
        "Leakage audit of My PLS: De-Diego et al. (2025), Experiment B (Tables 4-5)"]


def test_experiment_b_is_a_protocol_of_the_command_line(tmp_path, capsys):
    """``--protocol de_diego_b``: the quick card (German Credit's first fold at k = 1)."""
    assert main(["scorecard", "fairlab:FairPCA", "--quick", "--protocol", "de_diego_b",
                 "--results", str(tmp_path), "--scheduler", "serial"]) == 0
    out = capsys.readouterr().out
    assert "Scorecard: De-Diego et al. (2025), Experiment B (Tables 4-5)" in out
    assert "FairPCA (yours)" in out and "Fair PLS (η = 2)" in out
    rows = read_ledger("scorecard", tmp_path)
    assert set(rows["dataset"]) == {"German Credit"} and set(rows["k"]) == {1}
    assert set(rows["split"]) == {0}
    with pytest.raises(SystemExit):
        main(["scorecard", "fairlab:FairPCA", "--protocol", "de_diego_c"])
    assert "de_diego_b" in capsys.readouterr().err


def test_unknown_protocols_and_names_are_refused(tmp_path):
    with pytest.raises(ValueError, match="protocols must be among"):
        cards.scorecard(FairPCA, protocols=["lee"], results=tmp_path)
    with pytest.raises(ValueError, match="without '/'"):
        cards.scorecard(FairPCA, name="a/b", results=tmp_path)


# the example method shipped as a module


def test_the_example_method_removes_the_mean_and_the_covariance_gap():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 400)
    X = rng.normal(size=(400, 6)) @ rng.normal(size=(6, 6)) + 2.0 * s[:, None]
    X[:, 2] *= 1 + 2 * s  # the second group's variance is larger along one feature
    model = clone(GapPCA(3)).fit(X, sensitive_features=s)
    assert model.mean_directions_.shape == (1, 6)
    V, u, v = model.components_, model.mean_directions_[0], model.covariance_direction_
    np.testing.assert_allclose(V @ V.T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose([u @ u, v @ v, u @ v], [1.0, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(V @ np.c_[u, v], 0.0, atol=1e-12)
    Z = model.transform(X)
    np.testing.assert_allclose(Z[s == 1].mean(0), Z[s == 0].mean(0), atol=1e-10)
    # v carries the largest variance gap of the directions orthogonal to u
    gap = np.cov(X[s == 1], rowvar=False) - np.cov(X[s == 0], rowvar=False)
    P = np.eye(6) - np.outer(u, u)
    assert model.variance_gap_ == pytest.approx(np.abs(linalg.eigvalsh(P @ gap @ P)).max())
    assert model.variance_gap_ == pytest.approx(abs(v @ gap @ v))
    # not Fair PCA: its subspace is another one
    fair = FairPCA(3).fit(X, sensitive_features=s).components_
    assert np.abs(V.T @ V - fair.T @ fair).max() > 0.1
    # the same fit from one-hot columns: their distinct rows are the groups
    onehot = GapPCA(3).fit(X, sensitive_features=np.c_[1 - s, s]).components_
    np.testing.assert_allclose(onehot, V, atol=1e-12)
    with pytest.raises(ValueError, match="two groups"):
        GapPCA(2).fit(X, sensitive_features=np.zeros(400))
    with pytest.raises(ValueError, match="n_components"):
        GapPCA(6).fit(X, sensitive_features=s)
    # at k = d - 1 only the mean gap is left out: Fair PCA's subspace
    V = GapPCA(5).fit(X, sensitive_features=s).components_
    fair = FairPCA(5).fit(X, sensitive_features=s).components_
    np.testing.assert_allclose(V.T @ V, fair.T @ fair, atol=1e-8)


def test_the_example_method_with_three_groups():
    """g groups: the representation is orthogonal to the g − 1 mean gaps (equal group means of
    every component) and to v, which maximises the largest |vᵀ(Σ_j − Σ̄)v| (checked against
    every unit vector of a random sample orthogonal to the gaps)."""
    rng = np.random.default_rng(5)
    s = rng.integers(0, 3, 600)
    offsets = np.zeros((3, 7))
    offsets[1, 0], offsets[2, 2] = 3.0, 2.0
    X = rng.normal(size=(600, 7)) + offsets[s]
    X[:, 4] *= 1 + s  # the groups' variances differ along one feature
    model = GapPCA(3).fit(X, sensitive_features=s)
    U, v, V = model.mean_directions_, model.covariance_direction_, model.components_
    assert U.shape == (2, 7)
    Z = model.transform(X)
    for j in (1, 2):
        np.testing.assert_allclose(Z[s == j].mean(0), Z[s == 0].mean(0), atol=1e-10)
    np.testing.assert_allclose(V @ np.c_[U.T, v], 0.0, atol=1e-12)
    covariances = [np.cov(X[s == j], rowvar=False) for j in range(3)]
    average = sum(covariances) / 3
    def departure(w):
        return max(abs(w @ (C - average) @ w) for C in covariances)
    P = np.eye(7) - U.T @ U
    sample = rng.normal(size=(2000, 7)) @ P
    sample /= np.linalg.norm(sample, axis=1, keepdims=True)
    assert departure(v) >= max(departure(w) for w in sample) - 1e-12
    variances = [v @ C @ v for C in covariances]
    assert model.variance_gap_ == pytest.approx(max(variances) - min(variances))
    with pytest.raises(ValueError, match="n_components"):
        GapPCA(6).fit(X, sensitive_features=s)  # d − 2 = 5 at most


def test_the_example_method_gets_a_card(tmp_path):
    card = cards.scorecard(GapPCA, quick=True, results=tmp_path, scheduler="serial",
                                 protocols=KLEINDESSNER)
    mine = _scores(card[card["yours"]])
    assert set(mine["method"]) == {"GapPCA"}
    assert mine["rank"].notna().all() and (mine["ranked"] == mine["ranked"].max()).sum() > 0
    tables = cards.render(card)
    assert len(tables) == 2 and "GapPCA (yours)" in repr(tables[0])


class _Failing(GapPCA):
    def fit(self, X, y=None, *, sensitive_features=None):
        raise RuntimeError("not yet")


def test_a_unit_that_raises_is_left_out_with_a_warning_and_run_again(tmp_path, monkeypatch):
    with pytest.warns(UserWarning, match="3 unit\\(s\\) of 'Failing' raised.*not yet"):
        card = cards.scorecard(_Failing, name="Failing", quick=True, results=tmp_path,
                                     scheduler="serial", protocols=KLEINDESSNER)
    assert not card["yours"].any()
    assert (read_ledger("scorecard", tmp_path)["metric"] == "missing").sum() == 3
    computed = []
    monkeypatch.setattr(machinery, "_compute", lambda experiment, todo, *a, **k:
                        computed.extend(todo))
    with pytest.warns(UserWarning):
        cards.scorecard(_Failing, name="Failing", quick=True, results=tmp_path,
                              scheduler="serial", protocols=KLEINDESSNER)
    assert len(computed) == 3


def test_fdr_through_the_dimensionality_reductions_gives_the_ledgers_values(tmp_path):
    """The registry's FDR through Fig. 6's quick protocol (the first repetition, each panel at
    its q): every stored 1-NN error and HSIC of the committed ledger's units, to the stored
    digit, and on the card the same mean and rank as the published "FDR"."""
    factory = functools.partial(methods.build, "FDR")
    card = cards.scorecard(factory, name="My FDR", protocols="perez_suay_dr", quick=True,
                                 results=tmp_path, scheduler="serial")
    rows = read_ledger("scorecard", tmp_path)
    assert rows["unit"].nunique() == 2 and set(rows["split"]) == {0}
    assert "missing" not in set(rows["metric"])
    assert '"method":"fairlab.experiments.methods:build(\'FDR\')"' in rows["parameters"].iloc[0]
    mine = _scores(rows)
    ledger = read_ledger("perez_suay")
    committed = ledger[(ledger["table"] == "fig6") & (ledger["method"] == "FDR")
                       & (ledger["split"] == 0) & ledger["metric"].isin(["error", "hsic"])]
    committed = committed.assign(dataset=committed["model"].map(_PANELS))
    both = mine.merge(committed, on=["dataset", "k", "metric", "split"],
                      suffixes=("", "_ledger"), validate="one_to_one")
    assert len(both) == len(mine) == len(committed) == 2 * 2
    assert sorted(both["k"]) == [2, 2, 7, 7]  # q: the columns of S of each panel
    assert both["value"].tolist() == both["value_ledger"].tolist()
    scored = card[card["metric"] != cards.LEAKAGE].set_index(["dataset", "k", "metric"])
    yours = scored[scored["yours"]]
    theirs = scored[scored["method"] == "FDR"].loc[yours.index]
    assert yours["mean"].equals(theirs["mean"]) and yours["rank"].equals(theirs["rank"])
    assert set(scored["method"]) == {"My FDR", *(f"{m}{s}" for m in ("PCA", "KPCA", "FDR",
                                                                      "KFDR")
                                                 for s in ("", "\\S"))}
    # the audit's groups: sex, and race and sex with the rarest merged (chance 1/2 and 1/7)
    audit = card[card["metric"] == cards.LEAKAGE]
    assert sorted(set(audit["chance"].round(6))) == [round(1 / 7, 6), 0.5]
    tables = cards.render(card)
    assert [t.title for t in tables] == [
        "Scorecard: Pérez-Suay et al. (2017), dimensionality reduction (Fig. 6)",
        "Leakage audit of My FDR: Pérez-Suay et al. (2017), dimensionality reduction (Fig. 6)"]


def test_the_dimensionality_reductions_take_q_first():
    """A quick card of Fig. 6 runs each panel at q, where every published method has a value;
    a full one at every number of components of the ledger."""
    ks = _REGISTRY[cards.PEREZ_SUAY_DR].ks
    assert ks("sex") == (2, 1, 3, 5, 10, 20, 50, 100)
    assert ks("sex+race") == (7, 1, 2, 3, 5, 10, 20, 50, 100)
    assert cards.PEREZ_SUAY_DR == "perez_suay_dr" in cards.PROTOCOLS


def test_the_scorecard_is_one_function_under_one_name():
    """``fairlab.experiments.scorecard`` is the function, whatever is imported; its protocols,
    settings and renderer are names of ``fairlab.experiments.cards``, which the command line's
    MODULE:FACTORY reaches."""
    importlib.import_module("fairlab.experiments.cards")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("fairlab.experiments.scorecard")
    assert fairlab.experiments.scorecard is cards.scorecard
    assert callable(fairlab.experiments.scorecard)
    assert cards.PROTOCOLS == tuple(_REGISTRY) == (
        cards.KLEINDESSNER, cards.DE_DIEGO_A, cards.DE_DIEGO_B, cards.PEREZ_SUAY_DR,
        cards.KLEINDESSNER_TRADEOFFS)
    assert _factory("fairlab.experiments.cards:KLEINDESSNER_FAIR_PCA") is \
        cards.KLEINDESSNER_FAIR_PCA
    described = cards.describe_factory(cards.KLEINDESSNER_FAIR_PCA)
    assert described == "fairlab.pca:FairPCA(center=False)"


def test_fair_pca_through_the_tradeoff_curves_gives_the_ledgers_values(tmp_path):
    """The registry's Fair PCA through §5.2's quick protocol (Adult's first draw, DP and EO, at
    d − 1 = 98 components): every stored error and violation of the committed ledger's curves,
    to the stored digit (the kernel SVM's only on the ledger's BLAS kernel), and on the card
    the same gap to the reductions and rank as the published "Fair PCA", and the same points."""
    factory = functools.partial(methods.build, "Fair PCA")
    card = cards.scorecard(factory, name="My PCA", protocols="kleindessner_tradeoffs",
                           quick=True, results=tmp_path, scheduler="serial")
    rows = _scores(read_ledger("scorecard", tmp_path))
    assert rows["unit"].nunique() == 2 and set(rows["split"]) == {0} and set(rows["k"]) == {98}
    assert "missing" not in set(rows["metric"])
    ledger = read_ledger("kleindessner_tradeoffs")
    committed = ledger[(ledger["dataset"] == "adult") & (ledger["split"] == 0)
                       & ledger["method"].isin(["Fair PCA (DP)", "Fair PCA (EO)"])
                       & ledger["metric"].isin(["error", "violation"])]
    committed = committed.assign(dataset=committed["method"].str.replace(
        r"^Fair PCA \((DP|EO)\)$", r"Adult, \1", regex=True))
    if set(committed["machine"].str.partition("BLAS:")[2]) != {machine().partition("BLAS:")[2]}:
        rows = rows[~rows["model"].isin(TRADEOFF_KERNEL_DEPENDENT_MODELS)]
        committed = committed[~committed["model"].isin(TRADEOFF_KERNEL_DEPENDENT_MODELS)]
    both = rows.merge(committed, on=["dataset", "model", "metric", "eta", "split"],
                      suffixes=("", "_ledger"), validate="one_to_one")
    assert len(both) == len(rows) == len(committed) >= 2 * 11 * 2
    assert both["value"].tolist() == both["value_ledger"].tolist()
    cell = ["dataset", "k", "eta", "model", "metric"]
    scored = card[card["metric"] != cards.LEAKAGE]
    yours = scored[scored["yours"]].set_index(cell)
    theirs = scored[scored["method"] == "Fair PCA"].set_index(cell).loc[yours.index]
    assert len(yours) == 2 * 2 * (1 + 2 * 11)  # panels × classifiers × (gap + points)
    assert yours["mean"].equals(theirs["mean"])
    gaps = yours.xs("curve_gap", level="metric")
    assert gaps["rank"].equals(theirs.xs("curve_gap", level="metric")["rank"])
    assert set(scored.loc[scored["metric"] == "curve_gap", "method"]) == {
        "My PCA", "Fair PCA", "Fair PCA-S", "Fair Kernel PCA"}  # the reductions: the reference
    tables = cards.render(card)
    assert [t.title for t in tables] == [
        "Scorecard: Kleindessner et al. (2023), trade-off curves (Figs. 4 and 8)",
        "Curve points: Kleindessner et al. (2023), trade-off curves (Figs. 4 and 8)",
        "Leakage audit of My PCA: Kleindessner et al. (2023), trade-off curves (Figs. 4 and 8)"]
