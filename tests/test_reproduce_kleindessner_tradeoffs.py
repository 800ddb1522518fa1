"""Reproduction of Kleindessner et al. (2023) §5.2, Figs. 4, 8 and 9 (chapter 12).

Small sizes throughout (a few hundred rows, short grids): the structure of the runners, the
λ = 0 end of the knob, the reused-fit fast path against the naive refit per λ, the errors on
bad input, and the curve gap on curves built by hand.  Uses the Adult and Bank files shipped
with fairlab (``variant="agarwal"``).
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.utils import Bunch

from fairlab import FairPCA, metrics
from fairlab.experiments import kleindessner_tradeoffs

SMALL = {"n_runs": 1, "n_train": 600, "n_test": 400}  # EO: k = 98 needs > 98 rows with y = 1
CURVE_COLUMNS = ["dataset", "method", "fairness", "classifier", "run", "param", "error",
                 "violation", "seconds"]


@pytest.fixture(scope="module")
def split():
    return kleindessner_tradeoffs.load_splits("adult", n_runs=1, n_train=600, n_test=400)[0]


@pytest.fixture(scope="module")
def curves():
    return kleindessner_tradeoffs.curves(
        "adult", methods=["Fair PCA", "Fair PCA-S", "Reductions"], fairness=["DP", "EO"],
        lambdas=[0.0, 0.125, 1.0], eps=[0.01, 0.2], **SMALL)


# ------------------------------------------------------------------------------ splits
def test_splits_follow_the_protocol():
    sp = kleindessner_tradeoffs.load_splits("adult", n_runs=2, n_train=300, n_test=200)
    assert [s.run for s in sp] == [0, 1]
    assert sp[0].X_train.shape == (300, 99) and sp[0].X_test.shape == (200, 99)
    np.testing.assert_allclose(sp[0].X_train.mean(axis=0), 0, atol=1e-10)
    # run r: the first rows of default_rng(r·1111)'s permutation, so run 1 ≠ run 0
    assert not np.array_equal(sp[0].y_train, sp[1].y_train) or not np.allclose(
        sp[0].X_train, sp[1].X_train)
    raw = kleindessner_tradeoffs._load("adult", None)
    perm = np.random.default_rng(1111).permutation(len(raw[1]))
    np.testing.assert_array_equal(sp[1].y_train, raw[1][perm[:300]])
    np.testing.assert_array_equal(sp[1].s_test, raw[2][perm[300:500]])
    assert set(np.unique(sp[0].s_train)) == {0, 1} and set(np.unique(sp[0].y_train)) == {0, 1}
    later = kleindessner_tradeoffs.load_splits("adult", n_runs=1, n_train=300, n_test=200,
                                            first_run=1)[0]
    assert later.run == 1
    np.testing.assert_array_equal(later.X_train, sp[1].X_train)
    bank = kleindessner_tradeoffs.load_splits("bank", n_runs=1, n_train=100, n_test=0)[0]
    assert bank.X_train.shape == (100, 52) and bank.X_test.shape == (0, 52)


def test_lambda_grid_is_the_papers():
    assert kleindessner_tradeoffs.LAMBDAS == tuple(round((i / 10) ** 3, 6) for i in range(11))
    assert len(kleindessner_tradeoffs.EPS) == 11 and kleindessner_tradeoffs.EPS[-1] == 0.2


# ------------------------------------------------------------------------------ curves
def test_curves_are_tidy(curves):
    assert list(curves.columns) == CURVE_COLUMNS
    assert len(curves) == 2 * (3 + 3 + 2)  # two notions × (λ, λ, ε) grids
    fair = curves[curves.method == "Fair PCA"]
    assert sorted(fair.param.unique()) == [0.0, 0.125, 1.0]
    assert sorted(curves[curves.method == "Reductions"].param.unique()) == [0.01, 0.2]
    assert curves.error.between(0, 1).all() and curves.violation.between(0, 1).all()
    assert (curves.seconds > 0).all()


def test_lambda_zero_is_the_fair_representation(split):
    """λ = 0: the classifier of Fair PCA's representation alone, whose groups have equal means."""
    fair = FairPCA(98, center=False).fit(split.X_train, sensitive_features=split.s_train)
    A = fair.transform(split.X_train)
    gap = A[split.s_train == 1].mean(axis=0) - A[split.s_train == 0].mean(axis=0)
    assert np.abs(gap).max() < 1e-8  # the representation's own mean parity
    clf = LogisticRegression(C=1 / (2 * 600 * 0.01), max_iter=10_000, random_state=0)
    pred = clf.fit(A, split.y_train).predict(fair.transform(split.X_test))
    row = kleindessner_tradeoffs.curves("adult", methods=["Fair PCA"], fairness=["DP"],
                                          lambdas=[0.0], **SMALL).iloc[0]
    assert abs(row.error - np.mean(pred != split.y_test)) <= 1 / 400 + 1e-12
    dp = metrics.demographic_parity_difference(split.y_test, pred,
                                               sensitive_features=split.s_test)
    assert abs(row.violation - dp) <= 2 / 100 + 1e-12  # at most one flipped prediction
    # and the representation learned for EO has equal group means on the rows with y = 1
    _, points = kleindessner_tradeoffs._fair_curve("Fair PCA", split, "EO",
                                                   "logistic regression", [0.0])
    rows = split.y_train == 1
    eo = FairPCA(98, center=False).fit(split.X_train[rows], sensitive_features=split.s_train[rows])
    B = eo.transform(split.X_train[rows])
    s = split.s_train[rows]
    assert np.abs(B[s == 1].mean(axis=0) - B[s == 0].mean(axis=0)).max() < 1e-8
    assert points[0][1].shape == (400,)


@pytest.mark.parametrize("fairness", ["DP", "EO"])
def test_one_curve_of_any_representation_is_the_runners(curves, split, fairness):
    """``curve_scores`` with the registry's Fair PCA at d − 1 is :func:`curves`' "Fair PCA"
    curve: the scorecard's step is the experiment's."""
    from fairlab.experiments import methods

    d = split.X_train.shape[1]
    points = pd.DataFrame(kleindessner_tradeoffs.curve_scores(
        split, fairness, "logistic regression", methods.build("Fair PCA", d - 1), d - 1,
        lambdas=[0.0, 0.125, 1.0]))
    theirs = curves[(curves["method"] == "Fair PCA") & (curves["fairness"] == fairness)]
    assert list(points.columns) == ["param", "error", "violation", "seconds"]
    for column in ("param", "error", "violation"):
        assert points[column].tolist() == theirs[column].tolist()
    with pytest.raises(ValueError, match="classifier"):
        kleindessner_tradeoffs.curve_scores(split, fairness, "svm", FairPCA(2), 2)


def test_lambda_zero_is_fairer_than_lambda_one(curves):
    dp = curves[(curves.method == "Fair PCA") & (curves.fairness == "DP")].set_index("param")
    assert dp.loc[0.0, "violation"] < dp.loc[1.0, "violation"]


@pytest.mark.parametrize("method", ["Fair PCA", "Fair PCA-S"])
def test_reused_fit_equals_refit_per_lambda(split, method):
    lambdas = [0.0, 0.008, 0.216, 1.0]
    naive = kleindessner_tradeoffs._fair_curve(method, split, "DP", "logistic regression", lambdas,
                           reuse_fit=False, warm_start=False)[1]
    reused = kleindessner_tradeoffs._fair_curve(method, split, "DP", "logistic regression", lambdas,
                            reuse_fit=True, warm_start=False)[1]
    warm = kleindessner_tradeoffs._fair_curve(method, split, "DP", "logistic regression", lambdas,
                          reuse_fit=True, warm_start=True)[1]
    for (lam, p_naive, _), (_, p_reused, _), (_, p_warm, _) in zip(naive, reused, warm):
        np.testing.assert_array_equal(p_naive, p_reused)  # same representation, same fit
        assert np.mean(p_naive != p_warm) <= 0.01, lam  # the same optimum, up to the tolerance


def test_reused_fit_equals_refit_for_the_kernel_svm(split):
    small = kleindessner_tradeoffs.load_splits("adult", n_runs=1, n_train=150, n_test=100)[0]
    args = ("Fair PCA-S", small, "DP", "kernel SVM", [0.0, 1.0])
    naive = kleindessner_tradeoffs._fair_curve(*args, reuse_fit=False)[1]
    # the warm start is ignored
    reused = kleindessner_tradeoffs._fair_curve(*args, reuse_fit=True, warm_start=True)[1]
    for (_, a, _), (_, b, _) in zip(naive, reused):
        np.testing.assert_array_equal(a, b)


def test_reductions_follow_the_bound():
    """A tighter difference_bound gives a smaller training violation (fairlearn's guarantee)."""
    sp = kleindessner_tradeoffs.load_splits("adult", n_runs=1, n_train=600, n_test=600)[0]
    train = Bunch(**{**sp, "X_test": sp.X_train, "y_test": sp.y_train, "s_test": sp.s_train})
    _, points = kleindessner_tradeoffs._reductions_curve(train, "DP", "logistic regression",
                                                         [0.001, 0.2])
    dp = [metrics.demographic_parity_difference(sp.y_train, p, sensitive_features=sp.s_train)
          for _, p, _ in points]
    assert dp[0] < dp[1]


@pytest.mark.filterwarnings("ignore")  # fairlearn's own deprecation and convergence warnings
@pytest.mark.parametrize("fairness", ["DP", "EO"])
def test_reductions_kernel_svm_on_one_gram_is_the_rbf_svc(fairness):
    sp = kleindessner_tradeoffs.load_splits("bank", n_runs=1, n_train=300, n_test=300)[0]
    args = (sp, fairness, "kernel SVM", [0.005, 0.1])
    shared, gram = kleindessner_tradeoffs._reductions_curve(*args, kernel_gram=True)
    none, former = kleindessner_tradeoffs._reductions_curve(*args, kernel_gram=False)
    assert shared > 0 and none == 0.0  # the Gram matrix is the curve's shared fit
    for (eps, a, _), (eps_former, b, _) in zip(gram, former, strict=True):
        assert eps == eps_former
        np.testing.assert_array_equal(a, b)
    r = kleindessner_tradeoffs.runtimes([200], methods=["Reductions"], fairness=fairness,
                                        classifier="kernel SVM", n_runs=1, eps=[0.1])
    assert r["seconds"].iloc[0] > 0


# ------------------------------------------------------------------------------ runtimes
def test_runtimes_structure_and_summary():
    r = kleindessner_tradeoffs.runtimes([200, 300], methods=["Fair PCA", "Reductions"],
                                          n_runs=2, lambdas=[0.0, 1.0], eps=[0.2])
    assert set(r.columns) >= {"dataset", "method", "n_train", "run", "n_points", "seconds",
                              "seconds_per_point"}
    assert len(r) == 2 * 2 * 2
    assert r.loc[r.method == "Fair PCA", "n_points"].eq(2).all()
    np.testing.assert_allclose(r.seconds_per_point * r.n_points, r.seconds)
    s = kleindessner_tradeoffs.runtime_summary(r)
    assert len(s) == 4
    np.testing.assert_allclose(s.loc[s.method == "Reductions", "ratio"], 1.0)
    assert (s.seconds_std >= 0).all()
    with pytest.raises(ValueError, match="reference"):
        kleindessner_tradeoffs.runtime_summary(r, reference="Fair PCA-S")


def test_reported_runtimes_are_the_papers_text():
    rep = kleindessner_tradeoffs.reported_runtimes()
    at5000 = rep[rep.n_train == 5000].set_index("method")["seconds"]
    assert at5000["Fair PCA"] == 0.04 and at5000["Reductions"] == 4.6
    assert ((rep.n_train == 40000) & (rep.relation == ">") & (rep.seconds == 32.0)).any()


# ------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs, match", [
    ({"datasets": ["german"]}, "datasets"),
    ({"methods": ["PCA"]}, "methods"),
    ({"fairness": ["EOdds"]}, "fairness"),
    ({"classifiers": ["MLP"]}, "classifiers"),
    ({"lambdas": [0.0, 1.5]}, "lambdas"),
    ({"eps": [-0.1]}, "eps"),
    ({"eps": []}, "eps"),
    ({"n_runs": 0}, "n_runs"),
    ({"n_train": 10**6}, "n_train"),
    ({"n_test": 0}, "n_test"),
    ({"first_run": -1}, "first_run"),
    ({"blas_threads": 0}, "blas_threads"),
])
def test_bad_arguments_are_named(kwargs, match):
    args = {**SMALL, "methods": ["Fair PCA"], "lambdas": [0.0], **kwargs}
    with pytest.raises(ValueError, match=match):
        kleindessner_tradeoffs.curves(**args)


def test_bad_runtime_arguments_are_named():
    with pytest.raises(ValueError, match="n_train"):
        kleindessner_tradeoffs.runtimes([], methods=["Fair PCA"])
    with pytest.raises(ValueError, match="n_train"):
        kleindessner_tradeoffs.runtimes([1.5], methods=["Fair PCA"])
    with pytest.raises(ValueError, match="classifier"):
        kleindessner_tradeoffs.runtimes(100, classifier="tree")
    with pytest.raises(ValueError, match="dataset"):
        kleindessner_tradeoffs.load_splits("compas")


# ------------------------------------------------------------------------------ curve gap
def test_gap_of_a_curve_with_itself_is_zero():
    c = np.array([[0.0, 0.3], [0.05, 0.25], [0.1, 0.2]])
    g = kleindessner_tradeoffs.curve_gap(c, c[::-1])  # point order does not matter
    assert g["area"] == 0 and g["mean_gap"] == 0 and g["mean_abs_gap"] == 0
    assert (g["lo"], g["hi"]) == (0.0, 0.1)


def test_gap_of_a_shifted_curve():
    ref = np.array([[0.0, 0.3], [0.05, 0.25], [0.1, 0.2]])
    worse = ref + [0.0, 0.02]
    g = kleindessner_tradeoffs.curve_gap(worse, ref)
    assert g["mean_gap"] == pytest.approx(0.02) and g["mean_abs_gap"] == pytest.approx(0.02)
    assert g["area"] == pytest.approx(0.02 * 0.1)
    assert kleindessner_tradeoffs.curve_gap(ref, worse)["mean_gap"] == pytest.approx(-0.02)


def test_gap_uses_lower_envelopes_by_hand():
    # a: error 0.3 from v = 0, 0.1 from v = 0.5; b: 0.2 from v = 0.25 (a dominated point added)
    a = pd.DataFrame({"violation": [0.0, 0.5, 0.6], "error": [0.3, 0.1, 0.4]})
    b = pd.DataFrame({"violation": [0.25, 1.0], "error": [0.2, 0.25]})
    g = kleindessner_tradeoffs.curve_gap(a, b)
    # on [0.25, 1]: a − b = 0.1 on [0.25, 0.5), −0.1 on [0.5, 1]
    assert (g["lo"], g["hi"]) == (0.25, 1.0)
    assert g["area"] == pytest.approx(0.1 * 0.25 + 0.1 * 0.5)
    assert g["mean_gap"] == pytest.approx((0.1 * 0.25 - 0.1 * 0.5) / 0.75)
    assert g["mean_abs_gap"] == pytest.approx(0.075 / 0.75)


def test_gap_of_single_points():
    g = kleindessner_tradeoffs.curve_gap([[0.1, 0.2]], [[0.1, 0.15]])
    assert g["area"] == 0 and g["mean_gap"] == pytest.approx(0.05)


def test_gap_bad_input():
    with pytest.raises(ValueError, match="curve"):
        kleindessner_tradeoffs.curve_gap(np.zeros((3, 3)), [[0, 0]])
    with pytest.raises(ValueError, match="reference"):
        kleindessner_tradeoffs.curve_gap([[0, 0]], np.empty((0, 2)))
    with pytest.raises(ValueError, match="lacks"):
        kleindessner_tradeoffs.curve_gap(pd.DataFrame({"x": [1]}), [[0, 0]])
    with pytest.raises(ValueError, match="finite"):
        kleindessner_tradeoffs.curve_gap([[np.nan, 0]], [[0, 0]])


def test_gaps_table(curves):
    gaps = kleindessner_tradeoffs.gaps(curves)
    assert set(gaps.method) == {"Fair PCA", "Fair PCA-S"}
    assert len(gaps) == 4
    assert (gaps.area >= 0).all() and (gaps.mean_abs_gap >= gaps.mean_gap.abs() - 1e-12).all()
    assert (gaps.error_range > 0).all()
    with pytest.raises(ValueError, match="reference"):
        kleindessner_tradeoffs.gaps(curves[curves.method != "Reductions"])


def _collinear_instance(seed, n=60, d=12):
    """Uncentred, badly scaled columns with a null space of dimension 4 > d − (d − 1): a one-hot
    block summing to one with a category no row has, a constant column, a collinear column."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 100, d) + rng.uniform(-1e3, 1e3, d)
    X[:, 6:10] = np.eye(4)[rng.integers(0, 3, n)]  # column 9: a category absent from the rows
    X[:, 10] = 5.0
    X[:, 11] = X[:, 0] - 2 * X[:, 1]
    return X


def _span(components):
    return components.T @ components


@pytest.mark.parametrize("seed", range(6))
def test_standard_pca_keeps_the_same_null_directions_whatever_the_rounding(seed):
    # permuting the rows changes the rounding of XᵀX as another BLAS kernel does; the span of
    # the kept directions must not follow it
    X = _collinear_instance(seed)
    perm = np.random.default_rng(100 + seed).permutation(len(X))
    a = kleindessner_tradeoffs._StandardPCA(11, svd_solver="covariance_eigh").fit(X)
    b = kleindessner_tradeoffs._StandardPCA(11, svd_solver="covariance_eigh").fit(X[perm])
    assert np.abs(_span(a.components_) - _span(b.components_)).max() < 1e-10
    np.testing.assert_allclose(a.components_ @ a.components_.T, np.eye(11), atol=1e-10)
    # the 8 directions of positive variance are PCA's; the other 3 carry no variance
    rank = 8
    Xc = X - X.mean(axis=0)
    top = np.linalg.eigh(Xc.T @ Xc)[1][:, ::-1][:, :rank]
    np.testing.assert_allclose(_span(a.components_[:rank]), top @ top.T, atol=1e-10)
    assert np.abs(Xc @ a.components_[rank:].T).max() < 1e-9 * np.abs(Xc).max()


def test_canonical_basis_depends_on_the_span_only():
    rng = np.random.default_rng(0)
    V = np.linalg.qr(rng.normal(size=(9, 4)))[0]
    R = np.linalg.qr(rng.normal(size=(4, 4)))[0]
    B = kleindessner_tradeoffs._canonical_basis(V)
    np.testing.assert_allclose(kleindessner_tradeoffs._canonical_basis(V @ R), B, atol=1e-12)
    np.testing.assert_allclose(B.T @ B, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(B @ B.T, V @ V.T, atol=1e-12)
