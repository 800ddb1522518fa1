"""Tests of fairlab.evaluation: runtime sweeps, splits, the Lee scorecard, sweeps and tables."""


import numpy as np
import pandas as pd
import pytest
from sklearn.cross_decomposition import PLSRegression
from sklearn.decomposition import PCA, KernelPCA
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC

from fairlab import evaluation as ev
from fairlab import metrics


def _toy(n=200, d=5, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 1.5 * z[:, None] * np.eye(d)[0]
    y = (X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=n) > 0.7).astype(int)
    return X, y, z


def _one_split(seed=0):
    X, y, z = _toy(seed=seed)
    return next(ev.repeated_splits(X, y, z, n_splits=1, random_state=seed))


# ---------------------------------------------------------------- runtime_sweep
def test_runtime_sweep_counts_calls_and_builds_data_once():
    built, calls = [], {"a": 0, "b": 0}

    def make_data(n, d):
        built.append((n, d))
        return np.ones((n, d))

    def method(name):
        def f(data):
            calls[name] += 1
            return data.sum()
        return f

    grid = [{"n": 10, "d": 2}, {"n": 20, "d": 3}]
    df = ev.runtime_sweep({"a": method("a"), "b": method("b")}, make_data, grid, repeats=4,
                          warmup=True)
    assert built == [(10, 2), (20, 3)]
    assert calls == {"a": 2 * 5, "b": 2 * 5}  # 4 timed + 1 warm-up per grid point
    assert list(df.columns) == ["n", "d", "method", "seconds", "seconds_min"]
    assert len(df) == 4 and list(df["method"]) == ["a", "b", "a", "b"]
    assert (df["seconds"] >= df["seconds_min"]).all() and (df["seconds_min"] >= 0).all()


def test_runtime_sweep_progress_bar_runs(capsys):
    df = ev.runtime_sweep({"a": len}, lambda n: list(range(n)), [{"n": 3}], repeats=1,
                          progress=True)
    assert len(df) == 1


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"methods": {}}, ValueError, "non-empty dict"),
        ({"methods": {"a": 3}}, TypeError, r"methods\['a'\] must be callable"),
        ({"make_data": None}, TypeError, "make_data must be callable"),
        ({"grid": []}, ValueError, "non-empty list of dicts"),
        ({"grid": [3]}, ValueError, "non-empty list of dicts"),
        ({"repeats": 0}, ValueError, "repeats must be a positive integer"),
    ],
)
def test_runtime_sweep_bad_input(kwargs, exc, match):
    args = {"methods": {"a": len}, "make_data": lambda n: [0] * n, "grid": [{"n": 2}]}
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        ev.runtime_sweep(args.pop("methods"), args.pop("make_data"), args.pop("grid"), **args)


# ---------------------------------------------------------------- benchmark_ratios
def test_benchmark_ratios_reads_the_table_make_bench_writes(tmp_path):
    import sys
    from pathlib import Path

    from fairlab.experiments._provenance import write_results_csv

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        from goals import Goal, table
    finally:
        sys.path.pop(0)
    frame = table([Goal("FairPCA.fit / PCA.fit", "100×5, 2 groups", 0.5, 1.0, 1.0),
                   Goal("FairPLS.fit / PLSRegression.fit", "1000×10, k = 1", 3.0, 1.0, 1.0)])
    path = write_results_csv(frame.assign(threads=1), tmp_path / "goals.csv")
    every = ev.benchmark_ratios(path=path)
    assert every["measure"].tolist() == ["FairPCA.fit / PCA.fit", "FairPLS.fit / PLSRegression.fit"]
    pca = ev.benchmark_ratios("FairPCA", path=path)
    assert pca["ratio"].tolist() == [0.5] and pca["status"].tolist() == ["met"]
    assert ev.benchmark_ratios("FairPLS", path=path)["status"].tolist() == ["missed > 2×"]
    assert "make bench" in pca.attrs["provenance"] and "1 BLAS thread" in pca.attrs["provenance"]
    with pytest.raises(ValueError, match="no benchmark row"):
        ev.benchmark_ratios("KernelPCA", path=path)
    with pytest.raises(FileNotFoundError, match="make bench"):
        ev.benchmark_ratios(path=tmp_path / "none.csv")


def test_benchmark_table_found_from_the_working_directory_not_the_library(tmp_path, monkeypatch):
    """The default table is the nearest benchmarks/results/goals.csv above the working directory."""
    from fairlab.experiments import write_results_csv

    chapters = tmp_path / "checkout" / "notebooks"
    chapters.mkdir(parents=True)
    table = tmp_path / "checkout" / "benchmarks" / "results" / "goals.csv"
    table.parent.mkdir(parents=True)
    frame = pd.DataFrame({"measure": ["FairPCA.fit / PCA.fit"], "case": ["100×5"], "ours": [0.5],
                          "reference": [1.0], "unit": ["s"], "ratio": [0.5], "goal": ["≤ 1"],
                          "status": ["met"], "threads": [1]})
    write_results_csv(frame, table)
    for where in (chapters, chapters.parent):
        monkeypatch.chdir(where)
        assert ev.benchmark_ratios()["ratio"].tolist() == [0.5]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=str(tmp_path / "benchmarks" / "results")):
        ev.benchmark_ratios()


# ---------------------------------------------------------------- repeated_splits
def test_repeated_splits_protocol():
    X, y, z = _toy(n=100)
    splits = list(ev.repeated_splits(X, y, z, n_splits=3, train_size=0.7, random_state=4))
    assert len(splits) == 3 and [s.seed for s in splits] == [4, 5, 6]
    for sp in splits:
        assert sp.X_train.shape == (70, 5) and sp.X_test.shape == (30, 5)
        assert len(sp.y_train) == 70 and len(sp.s_test) == 30
    # the Agarwal-style rule: default_rng(seed).permutation, first n_train rows train
    sp = next(ev.repeated_splits(X, y, z, seeds=[1111], train_size=40, test_size=50))
    perm = np.random.default_rng(1111).permutation(100)
    np.testing.assert_array_equal(sp.X_train, X[perm[:40]])
    np.testing.assert_array_equal(sp.y_test, y[perm[40:90]])
    # deterministic
    again = next(ev.repeated_splits(X, y, z, seeds=[1111], train_size=40, test_size=50))
    np.testing.assert_array_equal(again.X_test, sp.X_test)


def test_repeated_splits_standardize_with_train_statistics():
    X, y, z = _toy(n=120)
    X[:, 2] = 7.0  # a constant column keeps std 1 (no division by zero)
    sp = next(ev.repeated_splits(X, y, z, n_splits=1, standardize=True))
    np.testing.assert_allclose(sp.X_train.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(np.delete(sp.X_train.std(0), 2), 1, rtol=1e-12)
    assert np.all(sp.X_test[:, 2] == 0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"train_size": 1.5}, "train_size must be a fraction"),
        ({"train_size": 80, "test_size": 30}, "exceeds the 100 available"),
        ({"n_splits": 0}, "n_splits must be a positive integer"),
    ],
)
def test_repeated_splits_bad_input(kwargs, match):
    X, y, z = _toy(n=100)
    with pytest.raises(ValueError, match=match):
        list(ev.repeated_splits(X, y, z, **kwargs))


def test_repeated_splits_length_mismatch():
    X, y, z = _toy(n=100)
    with pytest.raises(ValueError, match="sensitive_features has 99 rows but X has 100"):
        list(ev.repeated_splits(X, y, z[:-1]))


# ---------------------------------------------------------------- scorecard
def test_lee_classifiers_are_the_matlab_equivalents():
    clf = ev.lee_classifiers()
    assert isinstance(clf["kernel_svm"], SVC) and clf["kernel_svm"].gamma == 1.0
    assert clf["kernel_svm"].C == 1.0 and clf["linear_svm"].kernel == "linear"
    assert isinstance(clf["mlp"], MLPClassifier)
    assert clf["mlp"].hidden_layer_sizes == (10, 5) and clf["mlp"].random_state == 999


def test_scorecard_values_match_the_metrics():
    split = _one_split()
    card = ev.scorecard(PCA(2, svd_solver="full"), split)
    pca = PCA(2, svd_solver="full").fit(split.X_train)
    E = pca.transform(split.X_test)
    assert card["explained_variance"] == pytest.approx(
        100 * metrics.explained_variance(split.X_test, pca.components_), rel=1e-10)
    assert card["mmd2"] == pytest.approx(
        metrics.mmd2(E, split.s_test, sigma=metrics.lee_bandwidth(split.X_train, 2)), rel=1e-10)
    assert card["linear_inseparability"] == pytest.approx(
        metrics.linear_inseparability(E, split.s_test))
    # train-on-test: the kernel SVM is fitted on the test embedding itself
    pred = SVC(kernel="rbf", gamma=1.0).fit(E, split.y_test).predict(E)
    assert card["kernel_svm_accuracy"] == pytest.approx(np.mean(pred == split.y_test))
    assert card["kernel_svm_dp"] == pytest.approx(metrics.demographic_parity_difference(
        split.y_test, pred, sensitive_features=split.s_test))
    assert set(card) == {"explained_variance", "mmd2", "linear_inseparability",
                         "kernel_svm_accuracy", "kernel_svm_dp", "linear_svm_accuracy",
                         "linear_svm_dp", "mlp_accuracy", "mlp_dp"}


def test_scorecard_train_test_protocol_and_nonlinear_representation():
    split = _one_split(1)
    clf = {"logreg": LogisticRegression()}
    card = ev.scorecard(PCA(2), split, protocol="train_test", classifiers=clf)
    pca = PCA(2).fit(split.X_train)
    pred = LogisticRegression().fit(pca.transform(split.X_train), split.y_train).predict(
        pca.transform(split.X_test))
    assert card["logreg_accuracy"] == pytest.approx(np.mean(pred == split.y_test))
    # kernel PCA: no orthonormal components_ → %Var and MMD² are "n/a" as in the paper
    card = ev.scorecard(KernelPCA(2, kernel="rbf"), split, classifiers={})
    assert np.isnan(card["explained_variance"]) and np.isnan(card["mmd2"])
    assert 0 <= card["linear_inseparability"] <= 1


def test_train_on_test_inflates_flexible_classifiers():
    # labels independent of X: in-sample (train-on-test) accuracy of an RBF SVM is far above
    # chance, the proper train/test accuracy is not
    rng = np.random.default_rng(0)
    X, z, y = rng.normal(size=(300, 3)), rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    split = next(ev.repeated_splits(X, y, z, n_splits=1, train_size=0.5))
    clf = {"svm": SVC(kernel="rbf", gamma=10.0, C=100.0)}
    lee = ev.scorecard(PCA(3), split, classifiers=clf)["svm_accuracy"]
    proper = ev.scorecard(PCA(3), split, classifiers=clf, protocol="train_test")["svm_accuracy"]
    assert lee > 0.9 and proper < 0.65


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda s: ev.scorecard(PCA(2), s, protocol="lee"), "protocol='lee' is not supported"),
        (lambda s: ev.scorecard(PCA(2), {"X_train": s.X_train}), "split is missing"),
        (lambda s: ev.downstream_scores(s.X_test, s.y_test, s.s_test, protocol="train_test"),
         "needs E_train and y_train"),
    ],
)
def test_scorecard_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call(_one_split())


def _lee_splits():
    from fairlab.datasets import load_lee2022_split  # shipped: no FAIRLAB_DATA needed

    return [load_lee2022_split("adult", i) for i in range(10)]


def test_scorecard_reproduces_seed000_table1_pca_adult():
    """Kleindessner et al. Table 1, Adult, PCA k=2: every printed number (mean ± std, 10 splits)."""
    splits = _lee_splits()
    df = ev.evaluate_splits({"PCA": PCA(2, svd_solver="full")}, splits)
    acc = [c for c in df.columns if c.endswith("accuracy")]
    table = ev.format_table(df, decimals={"mmd2": 3}, scale=dict.fromkeys(acc, 100)).loc["PCA"]
    assert table["explained_variance"] == "7.78 ± 0.77"
    assert table["mmd2"] == "0.349 ± 0.026"
    assert table["kernel_svm_accuracy"] == "82.03 ± 1.09"
    assert table["kernel_svm_dp"] == "0.20 ± 0.05"
    assert table["linear_svm_accuracy"] == "79.87 ± 1.11"
    assert table["linear_svm_dp"] == "0.20 ± 0.04"
    assert table["mlp_accuracy"] == "81.21 ± 1.22"
    assert table["mlp_dp"] == "0.22 ± 0.03"


# ---------------------------------------------------------------- sweeps
def test_sweep_with_param_name_and_factory_agree():
    X, y, z = _toy(n=160)
    splits = list(ev.repeated_splits(X, y, z, n_splits=2))
    score = ev.predictor_score(task="classification", threshold=0.5)
    by_name = ev.sweep(Ridge(), "alpha", [0.1, 10.0], splits, score=score)
    by_factory = ev.sweep(lambda a: Ridge(alpha=a), "alpha", [0.1, 10.0], splits, score=score)
    pd.testing.assert_frame_equal(by_name, by_factory)
    assert list(by_name.columns[:2]) == ["alpha", "split"] and len(by_name) == 4
    sp = splits[0]
    f = Ridge(alpha=0.1).fit(sp.X_train, sp.y_train).predict(sp.X_test)
    row = by_name.iloc[0]
    assert row["mse"] == pytest.approx(np.mean((f - sp.y_test) ** 2))
    assert row["hsic"] == pytest.approx(metrics.hsic(f, sp.s_test))
    assert row["accuracy"] == pytest.approx(np.mean((f > 0.5).astype(int) == sp.y_test))


def test_classifier_and_dependence_scores():
    X, y, z = _toy(n=200)
    splits = list(ev.repeated_splits(X, y, z, n_splits=2))
    res = ev.sweep(PCA(), "n_components", [1, 3], splits,
                   score=ev.classifier_score(LogisticRegression()))
    sp = splits[1]
    pca = PCA(3).fit(sp.X_train)
    pred = LogisticRegression().fit(pca.transform(sp.X_train), sp.y_train).predict(
        pca.transform(sp.X_test))
    row = res[(res.n_components == 3) & (res.split == 1)].iloc[0]
    assert row["accuracy"] == pytest.approx(np.mean(pred == sp.y_test))
    assert row["dp_violation"] == pytest.approx(metrics.demographic_parity_difference(
        sp.y_test, pred, sensitive_features=sp.s_test))
    dep = ev.sweep(PLSRegression(), "n_components", [1, 2], splits, score=ev.dependence_score())
    T = PLSRegression(2).fit(sp.X_train, sp.y_train).transform(sp.X_test)
    row = dep[(dep.n_components == 2) & (dep.split == 1)].iloc[0]
    assert row["cov2_s"] == pytest.approx(metrics.cov2(T, sp.s_test))
    assert row["cov2_y"] == pytest.approx(metrics.cov2(T, sp.y_test))


def test_sweep_bad_input():
    with pytest.raises(TypeError, match="param must be the parameter name"):
        ev.sweep(Ridge(), 3, [1], [], score=ev.predictor_score())
    with pytest.raises(TypeError, match="score must be callable"):
        ev.sweep(Ridge(), "alpha", [1], [], score=None)
    with pytest.raises(ValueError, match="task='x'"):
        ev.predictor_score(task="x")


# ---------------------------------------------------------------- tables
def test_format_mean_std_and_tables():
    assert ev.format_mean_std(7.7799, 0.7731) == "7.78 ± 0.77"
    assert ev.format_mean_std(0.34860, 0.02569, 3) == "0.349 ± 0.026"
    assert ev.format_mean_std(float("nan"), float("nan")) == "n/a"
    df = pd.DataFrame({"method": ["b", "b", "a", "a"], "split": [0, 1, 0, 1],
                       "acc": [0.8, 0.9, 0.5, 0.7]})
    stats = ev.summarize(df)
    assert list(stats.index) == ["b", "a"]  # order of first appearance
    assert stats.loc["b", ("acc", "mean")] == pytest.approx(0.85)
    assert stats.loc["b", ("acc", "std")] == pytest.approx(0.05)  # ddof=0, like np.std
    assert ev.summarize(df, ddof=1).loc["b", ("acc", "std")] == pytest.approx(np.std([.8, .9],
                                                                                     ddof=1))
    table = ev.format_table(df, scale={"acc": 100}, decimals=1)
    assert table.loc["a", "acc"] == "60.0 ± 10.0"


def test_sweeps_drive_the_fair_estimators():
    """λ (FairTradeoff), η (FairPLS) and μ (FairLinearRegression) curves move the right way."""
    from fairlab import FairLinearRegression, FairPCA, FairPLS, FairTradeoff

    X, y, z = _toy(n=240, seed=3)
    splits = list(ev.repeated_splits(X, y, z, n_splits=2, standardize=True))
    lam = ev.summarize(ev.sweep(lambda v: FairTradeoff(FairPCA(2), PCA(2), lam=v), "lam",
                                [0.0, 1.0], splits,
                                score=ev.classifier_score(LogisticRegression())), "lam")
    assert lam.loc[0.0, ("dp_violation", "mean")] < lam.loc[1.0, ("dp_violation", "mean")]
    eta = ev.summarize(ev.sweep(FairPLS(2), "eta", [0.0, 10.0], splits,
                                score=ev.dependence_score(split_part="train")), "eta")
    assert eta.loc[10.0, ("cov2_s", "mean")] < 0.2 * eta.loc[0.0, ("cov2_s", "mean")]
    signed = [dict(sp, y_train=2.0 * sp.y_train - 1, y_test=2.0 * sp.y_test - 1) for sp in splits]
    mu = ev.summarize(ev.sweep(FairLinearRegression(), "mu", [0.0, 1e4], signed,
                               score=ev.predictor_score(task="classification")), "mu")
    assert mu.loc[1e4, ("hsic", "mean")] < mu.loc[0.0, ("hsic", "mean")]


# ---------------------------------------------------------------- audit_representations
def test_audit_representations_fits_on_train_and_audits_the_test_rows():
    from fairlab import FairPCA, FairPLS

    X, y, z = _toy(n=400)
    splits = list(ev.repeated_splits(X, y, z, n_splits=2, random_state=0))
    estimators = {"PCA": PCA(2), "Fair PCA": FairPCA(2), "Fair PLS": FairPLS(2, eta=np.inf)}
    table = ev.audit_representations(estimators, splits, adversaries=("logistic",),
                                     tests=("hsic",), n_bootstrap=50, n_permutations=20)
    assert list(table.columns[:2]) == ["split", "representation"]
    assert set(table["split"]) == {0, 1}
    assert table["n_samples"].eq(len(splits[0].s_test)).all()
    ba = table[table["measure"] == "balanced_accuracy"].set_index(["split", "representation"])
    assert ba.loc[(0, "PCA"), "detected"]  # PCA keeps the shifted coordinate
    # the same audit by hand: fit on the training rows, audit the test representation
    fitted = FairPCA(2).fit(splits[0].X_train, sensitive_features=splits[0].s_train)
    by_hand = metrics.leakage(fitted.transform(splits[0].X_test), splits[0].s_test,
                              adversaries=("logistic",), tests=("hsic",), n_bootstrap=50,
                              n_permutations=20)
    ours = table[(table["split"] == 0) & (table["representation"] == "Fair PCA")]
    np.testing.assert_array_equal(ours["score"].to_numpy(), by_hand["score"].to_numpy())


def test_format_audit_prints_scores_intervals_and_detections():
    table = pd.DataFrame({
        "representation": ["A", "A", "B", "B"],
        "kind": ["adversary", "permutation test"] * 2,
        "method": ["logistic", "hsic"] * 2,
        "measure": ["balanced_accuracy", "hsic"] * 2,
        "score": [0.5312, 0.01, 0.4987, 0.0],
        "ci_low": [0.5011, np.nan, 0.47, np.nan],
        "ci_high": [0.5543, np.nan, 0.52, np.nan],
        "p_value": [np.nan, 0.0099, np.nan, 0.73],
        "detected": [True, True, False, False],
    })
    out = ev.format_audit(table)
    assert list(out.columns) == ["logistic", "hsic"] and list(out.index) == ["A", "B"]
    assert out.loc["A", "logistic"] == "0.53 [0.50, 0.55] ✓"
    assert out.loc["B", "logistic"] == "0.50 [0.47, 0.52]"
    assert out.loc["A", "hsic"] == "p = 0.01 ✓" and out.loc["B", "hsic"] == "p = 0.73"


def test_format_audit_never_prints_minus_zero():
    # an R² of -0.004 [-0.012, 0.006] rounds to zero at two decimals: no sign on the zeros,
    # but -0.012 keeps its sign; at three decimals -0.004 is not zero and keeps it too
    table = pd.DataFrame({
        "representation": ["A"], "kind": ["adversary"], "method": ["ridge"], "measure": ["r2"],
        "score": [-0.004], "ci_low": [-0.012], "ci_high": [0.006], "p_value": [np.nan],
        "detected": [False],
    })
    assert ev.format_audit(table).loc["A", "ridge"] == "0.00 [-0.01, 0.01]"
    assert ev.format_audit(table, decimals=3).loc["A", "ridge"] == "-0.004 [-0.012, 0.006]"
