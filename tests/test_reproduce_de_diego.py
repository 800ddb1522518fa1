"""Reproduction of De-Diego et al. (2025), real-data experiments (chapter 15).

Fast unit tests of the ``dediego_*`` runners of :mod:`fairlab.evaluation` and of the two metrics
they added (:func:`fairlab.metrics.disparate_impact_ci`, the ``standardize``/``reduce`` options
of :func:`fairlab.metrics.cov2`), on small subsamples of the shipped data.  Law School is
external: its test runs only with ``FAIRLAB_DATA``.
"""

import os
import sys
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from fairlab import FairPLS, experiments, metrics, published
from fairlab.experiments import de_diego


# ------------------------------------------------------------------ disparate impact with a CI
def _di_ci_by_numeric_delta_method(y_pred, s, confidence=0.95):
    """Independent computation: delta method on the 4-cell multinomial, numeric gradient.

    DI = φ(q) with q = (P(Ŷ=0,S=0), P(Ŷ=1,S=0), P(Ŷ=0,S=1), P(Ŷ=1,S=1)) and
    φ(q) = [q₁ / (q₀ + q₁)] / [q₃ / (q₂ + q₃)];  Var ≈ ∇φᵀ (diag(q) − qqᵀ) ∇φ / n.
    """
    from scipy.stats import norm

    n = len(y_pred)
    q = np.array([np.mean((y_pred == a) & (s == b)) for b in (0, 1) for a in (0, 1)])

    def phi(v):
        return (v[1] / (v[0] + v[1])) / (v[3] / (v[2] + v[3]))

    eps = 1e-7
    grad = np.array([(phi(q + eps * e) - phi(q - eps * e)) / (2 * eps) for e in np.eye(4)])
    var = grad @ (np.diag(q) - np.outer(q, q)) @ grad / n
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(var)
    return phi(q), phi(q) - half, phi(q) + half


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_disparate_impact_ci_equals_an_independent_delta_method(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 2000))
    s = rng.integers(0, 2, n)
    y_pred = (rng.random(n) < np.where(s == 1, 0.6, 0.35)).astype(int)
    ours = metrics.disparate_impact_ci(None, y_pred, sensitive_features=s, privileged_group=1)
    ref = _di_ci_by_numeric_delta_method(y_pred, s)
    np.testing.assert_allclose(ours, ref, rtol=1e-6)
    assert ours[0] == metrics.disparate_impact(None, y_pred, sensitive_features=s,
                                               privileged_group=1)


@pytest.mark.parametrize("key", ["adult", "german", "compas", "diabetes"])
def test_disparate_impact_ci_reproduces_table2(key):
    """The labels of our "pls" variants give Table 2's DI and its interval to the printed digits."""
    data = de_diego.load_data(key)
    di, low, high = metrics.disparate_impact_ci(None, data.y, sensitive_features=data.s,
                                                privileged_group=1, pos_label=data.pos_label)
    t2 = published.table("dediego2025", "table2").set_index(["dataset", "metric"])["mean"]
    name = de_diego.DATASETS[key]
    for value, metric in ((di, "disparate_impact"), (low, "disparate_impact_ci_low"),
                          (high, "disparate_impact_ci_high")):
        assert round(value, 4) == pytest.approx(t2[(name, metric)], abs=1e-9), metric


def test_disparate_impact_ci_checks_its_input():
    y, s = np.array([1, 0, 1, 1, 0, 0]), np.array([0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="exactly two groups"):
        metrics.disparate_impact_ci(None, y, sensitive_features=s)
    with pytest.raises(ValueError, match="confidence"):
        metrics.disparate_impact_ci(None, y, sensitive_features=s % 2, confidence=1.5)
    with pytest.raises(ValueError, match="privileged_group"):
        metrics.disparate_impact_ci(None, y, sensitive_features=s % 2, privileged_group=7)
    di, low, high = metrics.disparate_impact_ci(None, [0, 0, 1, 1], sensitive_features=[1, 1, 0, 0],
                                                privileged_group=1)
    assert np.isnan(low) and np.isnan(high)  # privileged rate 0: variance undefined


# ------------------------------------------------------------------ cov2 normalisations
def test_cov2_normalisations():
    rng = np.random.default_rng(0)
    T = rng.normal(size=(300, 3)) * [1.0, 4.0, 0.2]
    s = (rng.random(300) < 0.3).astype(float)
    plain = metrics.cov2(T, s)
    assert plain == metrics.cov2(T, s, standardize=False, reduce="sum")  # default unchanged
    corr2 = sum(np.corrcoef(T[:, a], s)[0, 1] ** 2 for a in range(3))
    assert metrics.cov2(T, s, standardize=True) == pytest.approx(corr2, rel=1e-10)
    assert metrics.cov2(T, s, reduce="mean") == pytest.approx(plain / 3, rel=1e-12)
    assert metrics.cov2(T, s, standardize="sensitive") == pytest.approx(plain / s.var(), rel=1e-10)
    by_col = sum(np.cov(T[:, a], s, bias=True)[0, 1] ** 2 / T[:, a].var() for a in range(3))
    assert metrics.cov2(T, s, standardize="scores") == pytest.approx(by_col, rel=1e-10)
    with pytest.raises(ValueError, match="standardize"):
        metrics.cov2(T, s, standardize="both")
    with pytest.raises(ValueError, match="reduce"):
        metrics.cov2(T, s, reduce="max")


# ------------------------------------------------------------------ runners
def test_k_follows_table3():
    assert de_diego.paper_k("adult", 0) == 5 and de_diego.paper_k("Adult Income", 2.0) == 3
    assert de_diego.paper_k("german", 10) == 1  # η = 10 takes k(η = 2)
    # ties: the larger η
    assert de_diego.paper_k("compas", 0.4) == 6 and de_diego.paper_k("compas", 0.5) == 5
    assert de_diego.paper_k("diabetes", 0, n_features=18) == 18  # clipped to our d
    with pytest.raises(ValueError, match="dataset"):
        de_diego.paper_k("iris", 0)
    with pytest.raises(ValueError, match="eta"):
        de_diego.paper_k("adult", -1)


# ------------------------------------------------------------------ encodings against Table 3
def test_german_and_compas_encodings_have_table3s_feature_counts_by_hand():
    """German: the 20 attributes of german.data, each one column, + 1[age > 25]; COMPAS: the
    six non-sensitive features the paper's §3.3 names.  Counted from the raw files by hand."""
    import lzma
    from pathlib import Path

    import fairlab.datasets as fd

    t3 = published.table("dediego2025", "table3")
    d = t3[t3["metric"] == "n_features"].set_index("dataset")["mean"]
    enc = de_diego.load_data("german")
    raw = lzma.decompress((Path(fd.__file__).parent / "data" / "german.data.xz").read_bytes())
    rows = [line.split() for line in raw.decode().splitlines() if line.strip()]
    assert {len(r) for r in rows} == {21}  # 20 attributes + the class
    for j in range(20):
        column = [r[j] for r in rows]
        if column[0].startswith("A"):  # categorical: the rank of the code's number
            levels = sorted({int(v[1:]) for v in column})
            by_hand = [levels.index(int(v[1:])) for v in column]
        else:
            by_hand = [float(v) for v in column]
        np.testing.assert_array_equal(enc.X[:, j], by_hand)
    age = np.array([float(r[12]) for r in rows])
    np.testing.assert_array_equal(enc.X[:, 20], age > 25)
    assert enc.X.shape == (1000, int(d["German Credit"]))
    assert enc.feature_names[-1] == "age>25" and np.array_equal(enc.X[:, -1], enc.s)
    assert len(set(enc.feature_names)) == 21
    compas = de_diego.load_data("compas")
    named = {"event", "decile_score", "juv_misd_count", "age", "juv_other_count",
             "priors_count"}
    assert set(compas.feature_names) == named and compas.X.shape == (6150, int(d["COMPAS"]))
    # event is in the features, as the paper keeps it; it equals the label on most rows
    event = compas.X[:, compas.feature_names.index("event")]
    assert 0.85 < np.mean(event == compas.y) < 0.95


def test_feature_counts_sets_table3_beside_ours():
    counts = de_diego.feature_counts().set_index("dataset")
    assert counts.loc["German Credit", ["d (paper)", "d (before)", "d (ours)"]].tolist() == [
        21, 47, 21]
    assert counts.loc["COMPAS", ["d (paper)", "d (before)", "d (ours)"]].tolist() == [6, 8, 6]
    for name, paper, ours in (("Adult Income", 36, 99), ("Diabetes", 27, 18),
                              ("Communities and Crimes", 33, 98)):
        assert counts.loc[name, ["d (paper)", "d (ours)"]].tolist() == [paper, ours]
        assert "no " in counts.loc[name, "text"]  # no encoding reaching d is in the text
    assert counts.loc["COMPAS", "n (paper)"] == 7214 and counts.loc["COMPAS", "n (ours)"] == 6150
    assert set(counts["S (paper)"]) >= {"Gender (Male)", "Age (> 25)"}


def test_data_subsample_and_errors():
    d = de_diego.load_data("german", max_rows=100, random_state=3)
    assert d.X.shape == (100, len(d.feature_names)) and d.n_rows == 1000
    assert d.task == "classification" and set(np.unique(d.s)) == {0, 1}
    assert de_diego.load_data("communities", max_rows=50).task == "regression"
    with pytest.raises(ValueError, match="max_rows"):
        de_diego.load_data("german", max_rows=3)


def test_law_school_is_skipped_with_a_reason_when_absent(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    monkeypatch.setenv("FAIRLAB_CACHE", str(tmp_path / "cache"))
    found, skipped = de_diego.load_datasets(["german", "lawschool"], max_rows=50,
                                            data_home=tmp_path)
    assert list(found) == ["german"] and list(skipped) == ["lawschool"]
    assert "law_data.csv" in skipped["lawschool"]
    # says where to put the file, without the (machine-specific) folders searched
    assert "FAIRLAB_DATA" in skipped["lawschool"] and str(tmp_path) not in skipped["lawschool"]


@pytest.mark.skipif(not os.environ.get("FAIRLAB_DATA"), reason="Law School needs FAIRLAB_DATA")
def test_law_school_with_fairlab_data():
    d = de_diego.load_data("lawschool")
    assert d.X.shape == (19567, 3)
    di, low, high = metrics.disparate_impact_ci(None, d.y, sensitive_features=d.s,
                                                privileged_group=1, pos_label=d.pos_label)
    assert (round(di, 4), round(low, 4), round(high, 4)) == (0.6713, 0.6423, 0.7004)


@pytest.fixture(scope="module")
def small():
    data, _ = de_diego.load_datasets(["german", "communities"], max_rows=300)
    return data


def test_representation_scores_and_the_normalisation_table(small):
    sc = de_diego.representation_scores(small, [0.0, 10.0], n_splits=2)
    assert set(sc["features"]) == {"S not in X", "S in X"} and set(sc["rows"]) == {"test", "train"}
    assert set(sc.loc[sc.metric == "reconstruction_error", "error"]) == {
        "projection", "loadings", "weights"}
    t1 = de_diego.table1(sc)
    wide = t1.pivot_table(index=["dataset", "eta"], columns="metric", values="mean")
    for name in wide.index.get_level_values(0).unique():
        # the penalty does what it is for, on the training rows and on the test rows
        assert wide.loc[(name, 10.0), "cov2_s"] < wide.loc[(name, 0.0), "cov2_s"]
    assert set(t1["n_splits"]) == {2}
    k10 = t1[t1.eta == 10.0].groupby("dataset", sort=False)["k"].first()
    assert k10.to_dict() == {"German Credit": 1, "Communities and Crimes": 3}  # k(η = 2)
    cmp = de_diego.compare(t1)
    assert len(cmp) == 2 * 4 * 3  # every printed cell of the two data sets, ours or not
    ran = cmp["ours_mean"].notna()
    assert ran.sum() == 2 * 2 * 3 and cmp.loc[ran, "within"].notna().all()
    fit = de_diego.normalisation_fit(sc)
    assert len(fit) == len(de_diego.normalisations()) == 2 * 2 * 3 * 3 * 3
    assert (fit["cells"] == 8).all()
    assert fit["share_within"].is_monotonic_decreasing
    one = fit.iloc[0]
    hyp = {k: one[k] for k in de_diego.NORMALISATION_OPTIONS}
    again = de_diego.compare(de_diego.table1(sc, hyp))
    again = again[again.metric.str.startswith("cov2")]
    assert again["within"].mean() == pytest.approx(one["share_within"])
    with pytest.raises(ValueError, match="normalisation"):
        de_diego.table1(sc, {"scores": "cubed"})
    with pytest.raises(ValueError, match="features"):
        de_diego.representation_scores(small, [0.0], features=("S maybe",))


def test_downstream_scores_tables_4_and_5(small):
    sc = de_diego.downstream_scores(small, [0.0, 2.0], n_folds=2, models=("LR", "DT"))
    summ = de_diego.downstream_summary(sc)
    german = summ[summ.dataset == "German Credit"]
    assert {"accuracy", "disparate_impact", "eopp", "cov2_yhat", "cov2_s",
            "disparate_impact_pooled", "disparate_impact_ci_low",
            "disparate_impact_ci_high"} == set(german["metric"])
    piv = german.pivot_table(index=["eta", "model"], columns="metric", values="mean")
    assert (piv["disparate_impact_ci_low"] <= piv["disparate_impact_pooled"]).all()
    assert (piv["disparate_impact_pooled"] <= piv["disparate_impact_ci_high"]).all()
    assert ((piv["accuracy"] > 0.4) & (piv["accuracy"] <= 1)).all()
    comm = summ[summ.dataset == "Communities and Crimes"]
    assert {"ks", "mse", "cov2_yhat", "cov2_s"} == set(comm["metric"])
    t4, t5 = de_diego.compare(summ, "table4"), de_diego.compare(summ, "table5")
    assert t4.loc[t4.ours_mean.notna(), "dataset"].unique().tolist() == ["German Credit"]
    assert t5["ours_mean"].notna().sum() == 2 * 2 * 4  # η ∈ {0, 2}, LR and DT, 4 columns
    # the Cov² scaling is chosen at summary time, from the same folds
    unit = de_diego.downstream_summary(sc, {"scores": "unit", "targets": "standardized"})
    a = summ[summ.metric == "cov2_s"]["mean"].to_numpy()
    b = unit[unit.metric == "cov2_s"]["mean"].to_numpy()
    assert a.shape == b.shape and not np.allclose(a, b)
    fit = de_diego.normalisation_fit(sc)
    assert len(fit) == 27 and set(fit["rows"]) == {"test"}  # 3 × 3 × 3 readings of Tables 4-5


def test_models_defaults_and_missing_xgboost(monkeypatch):
    models = de_diego.downstream_models("regression", ("LR", "DT"))
    assert type(models["LR"]).__name__ == "LinearRegression"
    assert type(de_diego.downstream_models("classification", ("LR",))["LR"]).__name__ == \
        "LogisticRegression"
    monkeypatch.setitem(sys.modules, "xgboost", None)
    with pytest.raises(ImportError, match="pip install xgboost"):
        de_diego.downstream_models("classification", ("XGB",))
    with pytest.raises(ValueError, match="unknown model"):
        de_diego.downstream_models("classification", ("SVM",))
    with pytest.raises(ValueError, match="task"):
        de_diego.downstream_models("ranking")


def test_xgboost_runs_when_installed():
    pytest.importorskip("xgboost")
    data, _ = de_diego.load_datasets(["compas"], max_rows=300)
    sc = de_diego.downstream_scores(data, [1.0], n_folds=2, models=("XGB",))
    acc = sc[(sc.metric == "accuracy")]["value"]
    assert len(acc) == 2 and (acc > 0.5).all()


def test_fig7_and_plots(small):
    f7 = de_diego.fig7(small["german"], n_folds=2)
    assert set(f7["method"]) == {"Fair PCA", "Fair PLS"} and set(f7["model"]) == {"LR", "DT"}
    assert len(f7) == 2 * 2 * 2 * 2
    with pytest.raises(ValueError, match="classification"):
        de_diego.fig7(small["communities"])
    t1 = pd.DataFrame({"dataset": ["D"] * 4, "eta": [0.0, 1.0] * 2, "metric": ["cov2_y"] * 2
                       + ["cov2_s"] * 2, "mean": [0.3, 0.2, 0.1, 0.0], "std": [0.01] * 4})
    fig = de_diego.plot_representation(t1)
    assert len(fig.axes) == 1 and len(fig.axes[0].lines) >= 2
    with pytest.raises(ValueError, match="metric"):
        de_diego.plot_representation(t1, "mse")
    summ = pd.DataFrame({"dataset": "D", "eta": [0.0, 1.0, 0.0, 1.0], "k": 2, "model": "LR",
                         "metric": ["accuracy", "accuracy", "disparate_impact",
                                    "disparate_impact"], "mean": [0.8, 0.7, 0.5, 0.9]})
    ax = de_diego.plot_tradeoff(summ, "D")
    assert ax.get_ylabel().startswith("accuracy")
    with pytest.raises(ValueError, match="not in summary"):
        de_diego.plot_tradeoff(summ, "E")
    plt.close("all")


def test_counting_early_stops_collects_fair_pls_stops_and_passes_other_warnings_on():
    from fairlab import FairPLS

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = X[:, 0] + 0.1 * rng.normal(size=60)
    s = rng.integers(0, 2, 60)
    with pytest.warns(RuntimeWarning, match="something else"):
        with de_diego.counting_early_stops() as stops:
            FairPLS(3, eta=1e6).fit(X, y, sensitive_features=X[:, 0] > 0)  # S explains y: stop
            FairPLS(1).fit(X, y, sensitive_features=s)
            warnings.warn("something else", RuntimeWarning, stacklevel=1)
    assert len(stops) >= 1
    assert all("no direction has a positive objective" in str(w.message) for w in stops)


def test_table2_is_the_label_bias_with_its_interval():
    data, _ = de_diego.load_datasets(["german", "communities"])
    compared = de_diego.compare(de_diego.table2(data), "table2")
    shown = compared[compared.ours_mean.notna()].set_index("metric")
    german = compared[(compared.dataset == "German Credit") & compared.ours_mean.notna()]
    assert (german.status == "equal").all() and len(german) == 3
    communities = shown.loc["ks"]
    expected = metrics.ks_distance(data["communities"].y, sensitive_features=data["communities"].s)
    assert communities.ours_mean == pytest.approx(expected) and communities.status == "differs"


def test_compare_gives_statuses_and_counts_and_renders(small):
    sc = de_diego.representation_scores(small, [0.0, 1.0], n_splits=2)
    cmp = de_diego.compare(de_diego.table1(sc))
    ran = cmp[cmp.ours_mean.notna()]
    assert set(ran.n_splits) == {2}
    assert set(cmp.status) <= set(published.STATUS_MARKS)
    assert (cmp.loc[cmp.ours_mean.isna(), "status"] == "n/a").all()
    # "within std" and "differs" follow the paper's std; "equal" needs the rounded mean
    for row in ran.itertuples():
        rounded = round(row.ours_mean, de_diego.DECIMALS) == pytest.approx(row.paper_mean,
                                                                          abs=1e-12)
        assert (row.status in ("equal", "mean equal")) == rounded
        if not rounded:
            within = abs(row.difference) <= row.paper_std * (1 + 1e-9)
            assert (row.status == "within std") == within
    table = de_diego.side_by_side(ran[ran.dataset == "German Credit"], title="Table 1 (German)")
    assert list(table.frame.index) == [(0,), (1,)]  # one row per η
    groups = {group for group, _ in table.frame.columns}
    assert groups == {"Cov²(r(X), Y)", "Cov²(r(X), S)", "Error"}


def test_the_reading_bound_and_the_spread_hypotheses(small):
    sc_a = de_diego.representation_scores(small, [0.0, 1.0], n_splits=2)
    sc_b = de_diego.downstream_scores(small, [0.0, 1.0], n_folds=3, models=("LR",))
    bound = de_diego.reading_bound(sc_a, sc_b)
    literal = de_diego.compare(de_diego.table1(sc_a))
    assert bound.loc["table1", "literal"] == int(literal.within.fillna(False).sum())
    assert (bound["literal"] <= bound["best single"]).all()
    assert (bound["best single"] <= bound["some reading"]).all()
    tables = ["table1", "table4", "table5"]
    totals = ["all: one reading", "all: one per experiment", "all: one per table"]
    assert list(bound.index) == tables + totals
    assert (bound.loc[totals, "printed"] == sum(
        len(published.table("dediego2025", t)) for t in tables)).all()
    assert bound.loc["all: one per table", "best single"] == bound.loc[tables, "best single"].sum()
    # fewer readings allowed, fewer cells reached; and no total beats choosing per cell
    assert (bound.loc[totals, "best single"].diff().dropna() >= 0).all()
    assert (bound.loc[totals, "best single"] <= bound.loc[totals, "some reading"]).all()
    # one reading for everything, by hand: the literal one is a reading, so it is a lower bound
    literal_b = de_diego.downstream_summary(sc_b, de_diego.DEFAULT_NORMALISATION)
    literal_b = literal_b[literal_b.eta.isin([0.0, 1.0, 2.0])]
    literal_all = int(literal.within.fillna(False).sum()) + sum(
        int(de_diego.compare(literal_b, t).within.fillna(False).sum())
        for t in ("table4", "table5"))
    assert bound.loc["all: one reading", "literal"] == literal_all
    assert bound.loc["all: one reading", "best single"] >= literal_all
    spreads = de_diego.spread_hypotheses(sc_a, sc_b).set_index("spread")
    pub = published.table("dediego2025", "table1")
    pub = pub[pub.metric.str.startswith("cov2") & (pub["mean"] > 0.005)]
    assert spreads.loc["printed (Table 1)", "median"] == pytest.approx(
        float((pub["std"] / pub["mean"]).median()))
    test_rows = sc_a[(sc_a.rows == "test") & (sc_a.features == "S not in X")
                     & (sc_a.scores == "raw") & (sc_a.targets == "raw") & (sc_a.reduce == "sum")
                     & sc_a.metric.str.startswith("cov2")]
    g = test_rows.groupby(["dataset", "eta", "metric"])["value"]
    ratio = (g.std(ddof=0) / g.mean())[g.mean() > 0.005]
    assert spreads.loc["splits (ddof=0)", "median"] == pytest.approx(float(ratio.median()))


def test_the_one_hot_reading_sums_both_indicator_columns():
    rng = np.random.default_rng(0)
    T = rng.normal(size=(200, 3)) + 5.0
    v = (rng.random(200) < 0.3).astype(float)
    both = np.column_stack([1 - v, v])
    n = len(v)
    by_hand = float(np.sum(((T - T.mean(0)).T @ (both - both.mean(0)) / n) ** 2))
    assert de_diego.cov2_reading(T, v, "raw", "one-hot", "sum") == pytest.approx(by_hand, rel=1e-12)
    assert de_diego.cov2_reading(T, v, "raw", "one-hot", "sum") == pytest.approx(
        2 * de_diego.cov2_reading(T, v, "raw", "raw", "sum"), rel=1e-12)
    y = rng.random(200)  # a continuous target has no indicator columns: as loaded
    assert de_diego.cov2_reading(T, y, "unit", "one-hot", "mean") == de_diego.cov2_reading(
        T, y, "unit", "raw", "mean")


def test_cv_k_maximises_the_held_out_objective_of_separate_fits():
    data, _ = de_diego.load_datasets(["compas"], max_rows=400)
    d = data["compas"]
    got = de_diego.cv_k(data, [0.0, 2.0], n_folds=3, random_state=1)
    y, s = d.y.astype(float), d.s.astype(float)
    folds = de_diego._folds(len(y), 3, 1)
    for eta, k_cv in zip(got["eta"], got["k_cv"]):
        objective = []
        for k in range(1, d.X.shape[1] + 1):  # FairPLS(k) fitted on its own, per fold
            total = 0.0
            for test in folds:
                train = np.setdiff1d(np.arange(len(y)), test)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    T = de_diego.FairPLS(k, eta=eta).fit(
                        d.X[train], y[train], sensitive_features=d.s[train]).transform(d.X[test])
                Tc, yc, sc = T - T.mean(0), y[test] - y[test].mean(), s[test] - s[test].mean()
                n = len(test)
                total += float(np.sum((Tc.T @ yc / n) ** 2) - eta * np.sum((Tc.T @ sc / n) ** 2))
            objective.append(total / 3)
        assert k_cv == int(np.argmax(np.round(objective, 12))) + 1
    assert list(got["k_table3"]) == [de_diego.paper_k("compas", eta) for eta in (0.0, 2.0)]


def test_coverage_counts_each_table_and_all(small):
    t1 = de_diego.compare(de_diego.table1(de_diego.representation_scores(small, [0.0], n_splits=2)))
    cov = de_diego.coverage({"Table 1": t1})
    assert cov.loc["Table 1", "printed"] == len(t1) == 2 * 4 * 3  # German and Communities
    assert cov.loc["Table 1", "shown"] == 2 * 3  # η = 0 only
    assert cov.loc["Table 1", "within"] == int(t1.within.fillna(False).sum())
    assert cov.loc["all"].drop("share within").equals(cov.loc["Table 1"].drop("share within"))


def test_extended_bound_by_hand_on_a_tiny_frame():
    """Two data sets, two experiments, two readings r; A also varies ``error``, B does not.

    d1, A: r = x puts both cells within, y one -> 2; d2, A: x none, y one -> 1;
    d1, B: x one, y none -> 1; d2, B: x none of two, y one -> 1.  Per data set 3 and 2 of 3;
    the bound 5 of 6.  One reading for all data sets: A, x gives 2 + 0, y 1 + 1 -> 2; B, x gives
    1 + 0, y 0 + 1 -> 1; together 3 of 6, below 60 %.
    """
    T, F = True, False
    rows = [("A", "d1", "c1", T, "x", "e"), ("A", "d1", "c2", T, "x", "e"),
            ("A", "d1", "c1", F, "y", "e"), ("A", "d1", "c2", T, "y", "e"),
            ("A", "d2", "c1", F, "x", "e"), ("A", "d2", "c1", T, "y", "e"),
            ("B", "d1", "c1", T, "x", ""), ("B", "d1", "c1", F, "y", ""),
            ("B", "d2", "c1", F, "x", ""), ("B", "d2", "c2", F, "x", ""),
            ("B", "d2", "c1", T, "y", ""), ("B", "d2", "c2", F, "y", "")]
    cells = pd.DataFrame(rows, columns=["experiment", "dataset", "cell", "within", "r", "error"])
    out = de_diego.extended_bound(cells, target=0.6)
    assert out.loc["d1", ["printed", "within, A", "within, B", "within"]].tolist() == [3, 2, 1, 3]
    assert out.loc["d2", ["printed", "within, A", "within, B", "within"]].tolist() == [3, 1, 1, 2]
    bound, one = out.loc["all: bound (a reading per data set)"], out.loc[
        "all: one reading per experiment"]
    assert bound[["printed", "within"]].tolist() == [6, 5] and bool(bound["reaches target"])
    assert one[["within, A", "within, B", "within"]].tolist() == [2, 1, 3]
    assert not bool(one["reaches target"]) and one["share"] == 0.5
    with pytest.raises(ValueError, match="columns"):
        de_diego.extended_bound(cells.drop(columns="within"))
    with pytest.raises(ValueError, match="target"):
        de_diego.extended_bound(cells, target=0)


def test_the_extended_bound_contains_the_reading_bound(small):
    """The extended family holds every reading of :func:`reading_bound` (ddof 0, our encoding,
    Table 3's k), so its one reading per experiment reaches at least the old count; every
    encoding × k variant covers every data set."""
    sc_a = de_diego.representation_scores(small, [0.0, 1.0], n_splits=2,
                                          features=("S not in X",))
    sc_b = de_diego.downstream_scores(small, [0.0, 1.0], n_folds=3, models=("LR",))
    cv = de_diego.cv_k(small, [0.0, 1.0], n_folds=3)
    variants = de_diego.encoding_and_k_variants(sc_a, small, cv, [0.0, 1.0], n_splits=2,
                                                max_rows=300)
    assert variants.groupby("variant")["dataset"].nunique().eq(2).all()
    assert variants["variant"].nunique() == 4
    # German's loader variant has the loader's 47 features: another k is possible at η = 0
    loader = variants[variants.variant.str.startswith("encoding: the loader's; k: Table 3")]
    assert set(loader.k) >= set(sc_a.k)
    cells = de_diego.reading_cells(variants, sc_b, ddofs=(0,))
    assert set(cells.experiment) == {"A", "B"} and cells.within.dtype == bool
    extended = de_diego.extended_bound(cells)
    old = de_diego.reading_bound(sc_a, sc_b)
    assert extended.loc["all: one reading per experiment", "within"] >= old.loc[
        "all: one per experiment", "best single"]
    assert extended.loc["all: bound (a reading per data set)", "within"] >= extended.loc[
        "all: one reading per experiment", "within"]


def test_the_reconstruction_and_trace_readings_by_hand():
    """r(X) read as T Pᵀ (n × d, the PLS loadings) and the sum over columns divided by the
    total variance of r(X), against sums written out column by column."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 5)) * [1.0, 3.0, 0.5, 2.0, 1.0] + 1e3
    s = (rng.random(120) < 0.25).astype(float)
    y = X[:, 0] - X[:, 1] + rng.normal(size=120)
    model = FairPLS(n_components=2, eta=1.0).fit(X, y, sensitive_features=s)
    T = model.transform(X)
    R = T @ model.x_loadings_.T
    n = len(s)

    def cov(a, b):
        return float(np.sum((a - a.mean()) * (b - b.mean())) / n)

    by_hand = sum(cov(R[:, j], s) ** 2 for j in range(R.shape[1]))
    total = sum(cov(R[:, j], R[:, j]) for j in range(R.shape[1]))
    readings = de_diego.cov2_readings(model, T, s)
    assert len(readings) == 27  # 3 r(X) × 3 targets × 3 sums
    assert readings["reconstruction", "raw", "sum"] == pytest.approx(by_hand, rel=1e-10)
    assert readings["reconstruction", "raw", "mean"] == pytest.approx(by_hand / 5, rel=1e-10)
    assert readings["reconstruction", "raw", "trace"] == pytest.approx(by_hand / total,
                                                                      rel=1e-10)
    t_total = sum(cov(T[:, a], T[:, a]) for a in range(2))
    assert readings["raw", "raw", "trace"] == pytest.approx(
        readings["raw", "raw", "sum"] / t_total, rel=1e-12)
    assert readings["unit", "raw", "trace"] == pytest.approx(readings["unit", "raw", "mean"],
                                                             rel=1e-12)
    assert np.isnan(de_diego.cov2_reading(np.ones((10, 2)), s[:10], "raw", "raw", "trace"))
    # a map without PLS loadings has no reconstruction reading, and is not refused for it
    no_loadings = de_diego.cov2_readings(object(), T, s)
    assert len(no_loadings) == 18 and ("reconstruction", "raw", "sum") not in no_loadings


def test_the_stored_reading_counts_recompute_for_german_credit():
    """The committed counts of the extended bound are what the ledger gives: German Credit's
    counts under the ledger's own encoding and k (every Cov² reading, error and std, both
    experiments) recomputed from the ledger equal the file's.  (The other variants are
    computed as in ``test_the_extended_bound_contains_the_reading_bound``.)"""
    stored = de_diego.read_reading_counts()
    assert set(stored.columns) >= {"experiment", "dataset", "printed", "within", "variant"}
    assert set(stored["dataset"]) >= {"Adult Income", "German Credit", "Diabetes", "COMPAS",
                                      "Communities and Crimes"} and stored["printed"].gt(0).all()
    ledger = experiments.read_ledger("de_diego")
    ledger = ledger[ledger["dataset"] == "German Credit"]
    own = "encoding: Table 3's where the text gives it; k: Table 3"
    fresh = de_diego.reading_counts(de_diego.reading_cells(
        de_diego.scores_from_ledger(ledger, "table1").assign(variant=own),
        de_diego.scores_from_ledger(ledger, "table4+5")))
    stored = stored[(stored["dataset"] == "German Credit")
                    & ((stored["variant"] == own) | (stored["experiment"] == "B"))]
    columns = list(stored.columns)
    assert list(fresh.columns) == columns and len(fresh) == len(stored) == 702
    pd.testing.assert_frame_equal(fresh.sort_values(columns).reset_index(drop=True),
                                  stored.sort_values(columns).reset_index(drop=True),
                                  check_dtype=False)


def test_errors_at_k_equal_d_are_zero_by_construction():
    """COMPAS has d = 6: with six kept components the projection and loadings errors are 0
    (returned exactly, not as rounding), the weights' is not; at k = 5 the projection error is
    ‖X̃ − X̃WWᵀ‖² / ‖X̃‖² written out."""
    d = de_diego.load_data("compas", max_rows=400, random_state=1)
    assert d.X.shape[1] == 6
    errors = {}
    for k in (5, 6):
        rows, part, model = de_diego.split_scores(d, FairPLS(k, eta=0.0))
        errors[k] = {r["error"]: r["value"] for r in rows
                     if r["metric"] == "reconstruction_error" and r["rows"] == "test"}
        Xs = (part.X_test - model.x_mean_) / model.x_std_
        W = model.x_weights_
        by_hand = np.sum((Xs - Xs @ W @ W.T) ** 2) / np.sum(Xs**2)
        if k == 5:
            assert errors[k]["projection"] == pytest.approx(by_hand, rel=1e-10) and by_hand > 0
    assert errors[6]["projection"] == 0.0 and errors[6]["loadings"] == 0.0
    assert errors[6]["weights"] > 0 and errors[5]["loadings"] > 0
