"""Tests of fairlab.metrics: hand-computed values, fairlearn/scipy/sklearn agreement, identities."""

import fairlearn.metrics as flm
import numpy as np
import pandas as pd
import pytest
from scipy.stats import ks_2samp
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression

from fairlab import metrics as m


def _random_predictions(seed, n=240, groups=("a", "b", "c")):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, n)
    y_pred = np.where(rng.random(n) < 0.8, y_true, 1 - y_true)
    s = rng.choice(groups, n)
    return y_true, y_pred, s


# ---------------------------------------------------------------- group fairness: hand values
# 8 rows, group a: predictions 1,1,1,0 (rate 3/4), group b: 1,0,0,0 (rate 1/4)
Y_TRUE = np.array([1, 1, 0, 0, 1, 1, 0, 0])
Y_PRED = np.array([1, 1, 1, 0, 1, 0, 0, 0])
S = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])


def test_hand_values_group_metrics():
    assert m.demographic_parity_difference(None, Y_PRED, sensitive_features=S) == 0.5
    # TPR: a = 2/2, b = 1/2; FPR: a = 1/2, b = 0/2
    assert m.equal_opportunity_difference(Y_TRUE, Y_PRED, sensitive_features=S) == 0.5
    assert m.equalized_odds_difference(Y_TRUE, Y_PRED, sensitive_features=S) == 0.5
    assert m.disparate_impact(None, Y_PRED, sensitive_features=S) == pytest.approx(1 / 3)
    assert m.disparate_impact(None, Y_PRED, sensitive_features=S,
                              privileged_group="a") == pytest.approx(1 / 3)
    assert m.disparate_impact(None, Y_PRED, sensitive_features=S,
                              privileged_group="b") == pytest.approx(3.0)
    assert m.equal_opportunity_ratio(Y_TRUE, Y_PRED, sensitive_features=S,
                                     privileged_group="a") == pytest.approx(0.5)


def test_disparate_impact_is_seed002_count_formula():
    rng = np.random.default_rng(3)
    yhat, s = rng.integers(0, 2, 500), rng.integers(0, 2, 500)
    n = {(i, j): np.sum((yhat == i) & (s == j)) for i in (0, 1) for j in (0, 1)}
    paper = (n[1, 0] / (n[0, 0] + n[1, 0])) / (n[1, 1] / (n[0, 1] + n[1, 1]))
    assert m.disparate_impact(None, yhat, sensitive_features=s, privileged_group=1) == \
        pytest.approx(paper, rel=1e-14)


def test_ratio_conventions_for_empty_selection():
    s = np.array([0, 0, 1, 1])
    assert m.disparate_impact(None, np.zeros(4), sensitive_features=s) == 1.0
    assert m.disparate_impact(None, np.array([1, 0, 0, 0]), sensitive_features=s,
                              privileged_group=1) == np.inf


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("groups", [("a", "b"), ("a", "b", "c"), (0, 1, 2, 3)])
def test_agrees_with_fairlearn(seed, groups):
    yt, yp, s = _random_predictions(seed, groups=groups)
    kw = {"sensitive_features": s}
    for name in ("demographic_parity_difference", "equal_opportunity_difference",
                 "equalized_odds_difference", "equal_opportunity_ratio"):
        assert getattr(m, name)(yt, yp, **kw) == pytest.approx(getattr(flm, name)(yt, yp, **kw),
                                                               abs=1e-14), name
    assert m.disparate_impact(yt, yp, **kw) == pytest.approx(
        flm.demographic_parity_ratio(yt, yp, **kw), abs=1e-14)


def test_intersectional_groups_agree_with_fairlearn():
    rng = np.random.default_rng(55)
    yt, yp, _ = _random_predictions(5, n=400)
    sf = pd.DataFrame({"sex": rng.choice(["F", "M"], 400), "race": rng.choice(["x", "y"], 400)})
    for name in ("demographic_parity_difference", "equalized_odds_difference"):
        assert getattr(m, name)(yt, yp, sensitive_features=sf) == pytest.approx(
            getattr(flm, name)(yt, yp, sensitive_features=sf), abs=1e-14)


def test_returns_python_float():
    yt, yp, s = _random_predictions(0)
    assert type(m.demographic_parity_difference(yt, yp, sensitive_features=s)) is float
    assert type(m.hsic(yt, s)) is float


# ---------------------------------------------------------------- KS
def test_ks_distance_hand_and_scipy():
    assert m.ks_distance([0, 1, 2, 3], sensitive_features=[0, 0, 1, 1]) == 1.0
    assert m.ks_distance([0, 1, 0, 1], sensitive_features=[0, 0, 1, 1]) == 0.0
    # F_a = 1/2 at t=1 where F_b = 0 → 0.5
    assert m.ks_distance([1, 3, 2, 3], sensitive_features=[0, 0, 1, 1]) == 0.5
    rng = np.random.default_rng(0)
    f, g = rng.normal(size=300), rng.integers(0, 2, 300)
    f[g == 1] += 0.3
    assert m.ks_distance(f, sensitive_features=g) == pytest.approx(
        ks_2samp(f[g == 0], f[g == 1]).statistic, abs=1e-14)


# ---------------------------------------------------------------- HSIC and Cov²
def _brute_hsic(K, L):
    n = K.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    return np.trace(K @ H @ L @ H) / n**2


def test_cov2_hand_value():
    # centred t = (-1.5, -.5, .5, 1.5), s = (-.5, -.5, .5, .5): Σ t s / n = 2/4 → Cov² = 0.25
    assert m.cov2([1, 2, 3, 4], [0, 0, 1, 1]) == pytest.approx(0.25, abs=1e-15)


def test_hsic_linear_equals_cov2_and_brute_force():
    rng = np.random.default_rng(1)
    X, S = rng.normal(size=(60, 3)), rng.normal(size=(60, 2)) + 5
    brute = _brute_hsic(X @ X.T, S @ S.T)
    assert m.hsic(X, S) == pytest.approx(brute, rel=1e-12)
    assert m.cov2(X, S) == pytest.approx(brute, rel=1e-12)
    C = np.cov(X.T, S.T, bias=True)[:3, 3:]  # k × q cross-covariance, divisor n
    assert m.cov2(X, S) == pytest.approx(np.sum(C**2), rel=1e-12)


def test_hsic_rbf_against_brute_force():
    rng = np.random.default_rng(2)
    X, Y = rng.normal(size=(50, 2)), rng.normal(size=(50, 1))
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    sqy = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    K, L = np.exp(-0.7 * sq), np.exp(-1.3 * sqy)
    assert m.hsic(X, Y, kernel="rbf", gamma=0.7, kernel_y="rbf", gamma_y=1.3) == pytest.approx(
        _brute_hsic(K, L), rel=1e-12)
    assert m.hsic(X, Y, kernel="rbf", gamma=0.7) == pytest.approx(_brute_hsic(K, Y @ Y.T),
                                                                  rel=1e-12)
    # median heuristic: γ = 1 / median of the distinct-pair squared distances
    gamma = 1 / np.median(sq[np.triu_indices(50, 1)])
    assert m.hsic(X, Y, kernel="rbf") == pytest.approx(m.hsic(X, Y, kernel="rbf", gamma=gamma))


@pytest.mark.parametrize("case", ["offset", "ties", "groups", "wide"])
def test_hsic_rbf_widths_equals_hsic_width_by_width(case):
    """One distance matrix for every width: the same numbers as hsic, bit for bit, on data far
    from the origin, with tied rows, group labels and one feature column per row."""
    rng = np.random.default_rng(7)
    X, S = rng.normal(size=(40, 3)) * [1e-3, 1.0, 1e3], rng.normal(size=(40, 2))
    if case == "offset":
        X = X + 1e4
    elif case == "ties":
        X, S = np.round(X[:, :1]), (rng.random((40, 1)) < 0.1).astype(float)
        X[::2] = X[1::2]
    elif case == "groups":
        S = np.repeat(["a", "b", "c", "c"], 10)
    else:
        X = rng.integers(0, 2, size=(40, 60)).astype(float)
    gammas = np.logspace(-9, 3, 9)
    widths = m.hsic_rbf_widths(X, S, gammas)
    assert widths.shape == (9,)
    assert list(widths) == [m.hsic(X, S, kernel="rbf", gamma=g) for g in gammas]
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    Y = S if S.dtype.kind == "f" else pd.get_dummies(S).to_numpy(float) / np.sqrt(2)
    brute = [_brute_hsic(np.exp(-g * sq), Y @ Y.T) for g in gammas]
    assert widths == pytest.approx(brute, rel=1e-9, abs=1e-15)


def test_hsic_median_heuristic_on_binary_attribute():
    # balanced binary s: more than half of the pairs coincide → median over distinct pairs (= 1)
    s = np.repeat([0, 1, 1], 20)
    t = np.arange(60.0)
    assert m.hsic(t, s, kernel_y="rbf") == pytest.approx(m.hsic(t, s, kernel_y="rbf", gamma_y=1.0))
    assert m.hsic(t, np.ones(60), kernel_y="rbf") == pytest.approx(0.0, abs=1e-15)


def test_hsic_symmetry_and_independence():
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(400, 2)), rng.normal(size=(400, 2))
    assert m.hsic(X, Y, kernel="rbf", kernel_y="rbf") == pytest.approx(
        m.hsic(Y, X, kernel="rbf", kernel_y="rbf"), rel=1e-12)
    dependent = m.hsic(X, X**2, kernel="rbf", kernel_y="rbf")
    independent = m.hsic(X, Y, kernel="rbf", kernel_y="rbf")
    assert dependent > 10 * independent
    # X and X² are uncorrelated: the linear HSIC misses the dependence, the RBF one does not
    assert m.hsic(X[:, :1], X[:, :1] ** 2) < 0.05 * m.hsic(X[:, :1], X[:, :1])


def test_zero_cross_covariance_iff_equal_group_means():
    rng = np.random.default_rng(6)
    T, z = rng.normal(size=(100, 3)), np.repeat([0, 1], 50)
    assert m.cov2(T, z) > 1e-4
    T[z == 1] += T[z == 0].mean(0) - T[z == 1].mean(0)  # equalise the group means
    assert m.cov2(T, z) < 1e-28
    assert m.cov2(T, np.where(z == 1, "f", "m")) < 1e-28  # categorical labels are one-hot coded


# ---------------------------------------------------------------- MMD², bandwidth
def test_mmd2_hand_value():
    # A = {0}, B = {1}, σ = 1: 1 + 1 − 2 exp(−1/2)
    assert m.mmd2([[0.0], [1.0]], [0, 1], sigma=1.0) == pytest.approx(2 - 2 * np.exp(-0.5),
                                                                        rel=1e-14)


def test_mmd2_brute_force_symmetric_and_zero():
    rng = np.random.default_rng(7)
    E, z = rng.normal(size=(70, 2)), rng.integers(0, 2, 70)
    A, B = E[z == 0], E[z == 1]

    def kmean(P, Q):
        return np.exp(-((P[:, None] - Q[None]) ** 2).sum(-1) / (2 * 0.8**2)).mean()

    brute = kmean(A, A) + kmean(B, B) - 2 * kmean(A, B)
    assert m.mmd2(E, z, sigma=0.8) == pytest.approx(brute, rel=1e-12)
    assert m.mmd2(E, 1 - z, sigma=0.8) == pytest.approx(brute, rel=1e-12)
    same = np.vstack([A, A])
    assert m.mmd2(same, np.repeat([0, 1], len(A)), sigma=0.8) == pytest.approx(0, abs=1e-14)
    sq = ((E[:, None] - E[None]) ** 2).sum(-1)[np.triu_indices(70, 1)]
    assert m.mmd2(E, z) == pytest.approx(m.mmd2(E, z, sigma=np.sqrt(np.median(sq) / 2)))


def test_lee_bandwidth_matches_pca_projection():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(80, 6)) @ rng.normal(size=(6, 6)) + 3.0
    P = PCA(2, svd_solver="full").fit_transform(X)
    sq = ((P[:, None] - P[None]) ** 2).sum(-1)[np.triu_indices(80, 1)]
    assert m.lee_bandwidth(X, 2) == pytest.approx(np.sqrt(np.median(sq) / 2), rel=1e-12)
    assert m.lee_bandwidth(X + 100.0, 2) == pytest.approx(m.lee_bandwidth(X, 2), rel=1e-9)


# ---------------------------------------------------------------- linear inseparability
def test_linear_inseparability():
    rng = np.random.default_rng(9)
    z = np.repeat([0, 1], 100)
    separable = np.column_stack([z * 10.0 + rng.normal(size=200), rng.normal(size=200)])
    assert m.linear_inseparability(separable, z) == 0.0
    E = rng.normal(size=(200, 2))
    expected = 1 - LogisticRegression(C=1.0).fit(E, z).score(E, z)
    assert m.linear_inseparability(E, z) == pytest.approx(expected)
    z_unbalanced = (rng.random(200) < 0.25).astype(int)
    assert m.linear_inseparability(E, z_unbalanced) == pytest.approx(z_unbalanced.mean(),
                                                                     abs=0.02)


# ---------------------------------------------------------------- utility
def test_explained_variance_matches_sklearn_pca():
    rng = np.random.default_rng(10)
    X = rng.normal(size=(120, 5)) @ rng.normal(size=(5, 5))
    pca = PCA(2, svd_solver="full").fit(X)
    assert m.explained_variance(X, pca.components_) == pytest.approx(
        pca.explained_variance_ratio_.sum(), rel=1e-12)
    assert m.explained_variance(X, np.eye(5)) == pytest.approx(1.0, rel=1e-12)
    # Σ is the covariance of the evaluated data itself (test covariance in the Lee protocol)
    U = pca.components_
    Sigma = np.cov(X + 4.0, rowvar=False)
    assert m.explained_variance(X + 4.0, U) == pytest.approx(
        np.trace(U @ Sigma @ U.T) / np.trace(Sigma), rel=1e-12)


def test_reconstruction_error():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(50, 4)) + 2.0
    U = np.linalg.qr(rng.normal(size=(4, 2)))[0].T
    direct = np.sum((X - X @ U.T @ U) ** 2) / 50
    assert m.reconstruction_error(X, U) == pytest.approx(direct, rel=1e-12)
    mu = X.mean(0)
    Xc = X - mu
    assert m.reconstruction_error(X, U, mean=mu) == pytest.approx(
        np.sum((Xc - Xc @ U.T @ U) ** 2) / 50, rel=1e-12)
    # a non-orthonormal basis of the same span gives the same projector
    W = np.array([[2.0, 1.0], [0.0, 3.0]]) @ U
    assert m.reconstruction_error(X, W) == pytest.approx(direct, rel=1e-10)
    assert m.reconstruction_error(X, np.eye(4)) == pytest.approx(0.0, abs=1e-20)
    # the zero components of a fit that stopped early span nothing (a QR would make them
    # basis vectors, and the error of two directions out of four would read 0)
    stopped = np.vstack([W, np.zeros((2, 4))])
    assert m.reconstruction_error(X, stopped) == pytest.approx(direct, rel=1e-10)
    assert m.reconstruction_error(X, np.zeros((2, 4))) == pytest.approx(np.sum(X**2) / 50,
                                                                       rel=1e-12)
    assert m.reconstruction_error(X, U, normalize=True) == pytest.approx(
        direct * 50 / np.sum(X**2), rel=1e-12)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: m.demographic_parity_difference(None, [1, 0], sensitive_features=[0, 1, 1]),
         ValueError, "2 entries but X has 3 rows|one sensitive value per row"),
        (lambda: m.demographic_parity_difference(None, [1, 0, 1], sensitive_features=[0, 0, 0]),
         ValueError, "single group"),
        (lambda: m.equal_opportunity_difference(None, [1, 0], sensitive_features=[0, 1]),
         ValueError, "y_true is required"),
        (lambda: m.equal_opportunity_difference([0, 0, 1, 0], [1, 0, 1, 0],
                                                sensitive_features=[0, 0, 1, 1]),
         ValueError, "group 0 has no rows with y_true == 1"),
        (lambda: m.disparate_impact(None, [1, 0], sensitive_features=[0, 1],
                                    privileged_group="x"),
         ValueError, "privileged_group='x' is not one of the groups"),
        (lambda: m.demographic_parity_difference(None, [[1, 0], [0, 1]],
                                                 sensitive_features=[0, 1]),
         ValueError, "y_pred must be 1-D"),
        (lambda: m.ks_distance(["a", "b"], sensitive_features=[0, 1]), TypeError, "numeric"),
        (lambda: m.hsic([1.0, np.nan], [0, 1]), ValueError, "NaN or infinite"),
        (lambda: m.hsic([1.0, 2.0], [0, 1], kernel="poly"), ValueError, "kernel='poly'"),
        (lambda: m.hsic([1.0, 2.0, 3.0], [0, 1], kernel="linear"), ValueError, "pass one value"),
        (lambda: m.hsic([1.0, 2.0], [0, 1], kernel="rbf", gamma=-1), ValueError, "positive"),
        (lambda: m.mmd2(np.ones((3, 2)), [0, 1, 2]), ValueError, "exactly two groups"),
        (lambda: m.mmd2(np.ones((4, 2)), [0, 0, 1, 1]), ValueError, "median pairwise distance"),
        (lambda: m.mmd2(np.eye(2), [0, 1], sigma=0), ValueError, "sigma must be"),
        (lambda: m.lee_bandwidth(np.eye(3), 5), ValueError, "n_components must be"),
        (lambda: m.explained_variance(np.eye(3), np.ones((1, 3))), ValueError, "orthonormal"),
        (lambda: m.explained_variance(np.eye(3), np.eye(2)), ValueError, "2 columns but X has 3"),
        (lambda: m.reconstruction_error(np.eye(3), np.eye(3), mean=[0, 0]), ValueError,
         "mean has 2 entries"),
        (lambda: m.cov2("abc", [1, 2]), TypeError, "array-like"),
        (lambda: m.demographic_parity_difference(None, [], sensitive_features=[]),
         ValueError, "empty"),
    ],
)
def test_bad_input_is_refused(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---------------------------------------------------------------- label checks (issue 11, item 6)
_LABEL_METRICS = ["demographic_parity_difference", "equal_opportunity_difference",
                  "equalized_odds_difference", "disparate_impact", "equal_opportunity_ratio"]
_S8 = np.repeat(["a", "b"], 4)
_YT8 = np.array([1, 1, 0, 0, 1, 1, 0, 0])


@pytest.mark.parametrize("name", _LABEL_METRICS)
@pytest.mark.parametrize(
    "y_true, y_pred, pos_label, match",
    [
        (_YT8, [1, 0, np.nan, 0, 1, 1, 0, 0], 1, "y_pred contains NaN"),
        (_YT8, np.array([0.9, 0.8, 0.3, 0.1, 0.7, 0.4, 0.2, 0.6]), 1,
         r"probabilities.*y_pred = proba >= 0\.5"),
        (_YT8, np.array([2.5, 1.5, -0.3, -1.0, 0.7, 0.4, -2.0, 0.6]), 1,
         r"continuous scores.*y_pred = scores > 0"),
        (_YT8, np.array([1, 0, None, 0, 1, 1, 0, 0], dtype=object), 1, "y_pred contains missing"),
        ([1.0, 0.9, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0], _YT8, 1, "y_true holds non-integer"),
        ([1, 1, 0, 0, 1, np.nan, 0, 0], _YT8, 1, "y_true contains NaN"),
        (_YT8, [1, -1, -1, -1, 1, 1, -1, -1], 1, r"y_pred contains label\(s\) \[-1\]"),
        (np.where(_YT8 == 1, "yes", "no"), _YT8, "yes", "never occur in y_true"),
        (_YT8, _YT8, 2, "pos_label=2"),
        (_YT8, _YT8, "1", "pos_label='1'"),
    ],
)
def test_bad_labels_are_refused(name, y_true, y_pred, pos_label, match):
    with pytest.raises(ValueError, match=match):
        getattr(m, name)(y_true, y_pred, sensitive_features=_S8, pos_label=pos_label)


@pytest.mark.parametrize("name", ["demographic_parity_difference", "disparate_impact"])
def test_pos_label_checks_without_y_true(name):
    f = getattr(m, name)
    # string predictions with the default pos_label=1 would silently select nobody
    with pytest.raises(ValueError, match="pos_label=1 cannot match any label of y_pred"):
        f(None, np.where(_YT8 == 1, "yes", "no"), sensitive_features=_S8)
    assert f(None, np.where(_YT8 == 1, "yes", "no"), sensitive_features=_S8, pos_label="yes") == \
        f(None, _YT8, sensitive_features=_S8)
    with pytest.raises(ValueError, match="probabilities"):
        f(None, np.linspace(0.1, 0.9, 8), sensitive_features=_S8)
    with pytest.raises(TypeError, match="pos_label must be a single label"):
        f(None, _YT8, sensitive_features=_S8, pos_label=[1])
    # nobody selected is a valid outcome, not an error
    assert f(None, np.zeros(8, dtype=int), sensitive_features=_S8) in (0.0, 1.0)


def test_pos_label_must_occur_in_y_true_for_conditional_rates():
    # pos_label only in y_pred: the TPR conditions on y_true == pos_label, which is never true
    with pytest.raises(ValueError, match="does not occur in y_true"):
        m.equal_opportunity_difference([0, 0, 0, 0], [1, 0, 1, 0], sensitive_features=[0, 0, 1, 1])
    # for Δ_DP the same input is fine (it does not condition on y_true)
    assert m.demographic_parity_difference([0, 0, 0, 0], [1, 0, 1, 0],
                                           sensitive_features=[0, 0, 1, 1]) == 0.0


def test_valid_label_encodings_are_accepted():
    kw = {"sensitive_features": _S8}
    ref = {n: getattr(m, n)(_YT8, Y_PRED, **kw) for n in _LABEL_METRICS}
    for y_true, y_pred, pos in [
        (_YT8.astype(float), Y_PRED.astype(float), 1),            # integer-valued floats
        (_YT8.astype(bool), Y_PRED.astype(bool), 1),              # booleans (True == 1)
        (_YT8.astype(bool), Y_PRED.astype(bool), True),
        (np.where(_YT8 == 1, "yes", "no"), np.where(Y_PRED == 1, "yes", "no"), "yes"),
        (pd.Series(_YT8), pd.Series(Y_PRED), 1),
        (2 * _YT8 - 1, 2 * Y_PRED - 1, 1),                        # -1/+1 on both sides
    ]:
        for n in _LABEL_METRICS:
            assert getattr(m, n)(y_true, y_pred, sensitive_features=_S8, pos_label=pos) == \
                ref[n], (n, y_true.dtype, pos)
    # a test set whose y_true holds only the positive class: 0 is still a valid prediction
    assert m.equal_opportunity_difference([1, 1, 1, 1], [1, 0, 1, 1],
                                          sensitive_features=[0, 0, 1, 1]) == 0.5
    # multiclass labels are fine where the metric is one-vs-rest on pos_label
    yt, yp = np.array([0, 1, 2, 2, 0, 1, 2, 1]), np.array([0, 1, 2, 1, 0, 2, 2, 1])
    assert m.demographic_parity_difference(yt, yp, sensitive_features=_S8, pos_label=2) == \
        pytest.approx(0.25)
    assert m.equal_opportunity_difference(yt, yp, sensitive_features=_S8, pos_label=2) == \
        pytest.approx(0.5)


def test_equalized_odds_refuses_multiclass_and_binarised_agrees_with_fairlearn():
    rng = np.random.default_rng(12)
    yt, yp, s = rng.integers(0, 3, 300), rng.integers(0, 3, 300), rng.choice(["a", "b"], 300)
    with pytest.raises(ValueError, match=r"binary labels.*y_true == c, y_pred == c"):
        m.equalized_odds_difference(yt, yp, sensitive_features=s)
    for c in range(3):
        assert m.equalized_odds_difference(yt == c, yp == c, sensitive_features=s) == \
            pytest.approx(flm.equalized_odds_difference(yt == c, yp == c, sensitive_features=s),
                          abs=1e-14)


# ---------------------------------------------------------------- sensitive_type of cov2 / hsic
def _group_formula(T, s):
    """½ Σ_a Σ_g p_g² (μ_{a,g} − μ_a)², the categorical Cov² of the cov2 docstring."""
    T = np.asarray(T, float).reshape(len(s), -1)
    total = 0.0
    for g in np.unique(s):
        p = np.mean(s == g)
        total += 0.5 * np.sum((p * (T[s == g].mean(0) - T.mean(0))) ** 2)
    return total


def test_integer_and_string_group_labels_give_the_same_value():
    rng = np.random.default_rng(13)
    z = rng.integers(0, 3, 200)
    T = rng.normal(size=(200, 2)) + z[:, None] * [0.5, -0.2]
    names = np.array(["x", "y", "w"])[z]                   # a different order of the labels
    variants = [z, names, names.astype(object), pd.Series(pd.Categorical(names)),
                pd.DataFrame({"g": names}), z.astype(np.uint8), z.reshape(-1, 1)]
    ref_cov, ref_lin, ref_rbf = m.cov2(T, z), m.hsic(T, z), m.hsic(T, z, kernel_y="rbf")
    assert ref_cov == pytest.approx(_group_formula(T, z), rel=1e-12)
    for v in variants:
        assert m.cov2(T, v) == pytest.approx(ref_cov, rel=1e-12)
        assert m.hsic(T, v) == pytest.approx(ref_lin, rel=1e-12)
        assert m.hsic(T, v, kernel_y="rbf") == pytest.approx(ref_rbf, rel=1e-12)
        assert m.cov2(T, v, sensitive_type="categorical") == pytest.approx(ref_cov, rel=1e-12)
    # floats are continuous; "categorical" forces group labels, "continuous" numbers
    zf = z.astype(float)
    assert m.cov2(T, zf) == pytest.approx(np.sum(np.cov(T.T, zf, bias=True)[:2, 2] ** 2),
                                          rel=1e-12)
    assert m.cov2(T, zf) != pytest.approx(ref_cov, rel=1e-3)
    assert m.cov2(T, zf, sensitive_type="categorical") == pytest.approx(ref_cov, rel=1e-12)
    assert m.cov2(T, z, sensitive_type="continuous") == m.cov2(T, zf)
    assert m.hsic(T, z, sensitive_type="continuous") == m.hsic(T, zf)
    # with one-hot indicators a categorical attribute is 0 iff the group means coincide
    T_eq = T - np.array([T[z == g].mean(0) for g in range(3)])[z]
    assert m.cov2(T_eq, names) < 1e-28
    assert m.cov2(T_eq, zf) < 1e-28  # (also uncorrelated with the numeric code, here)


def test_binary_attribute_keeps_the_0_1_value():
    rng = np.random.default_rng(14)
    s = rng.integers(0, 2, 150)
    T = rng.normal(size=(150, 3)) + 0.4 * s[:, None]
    numeric = np.sum(np.cov(T.T, s, bias=True)[:3, 3] ** 2)   # De-Diego et al.: S a 0/1 column
    # group labels of any type: bit for bit the 0/1 value for 0/1 integers
    assert m.cov2(T, s) == m.cov2(T, s.astype(float)) == m.cov2(T, s, sensitive_type="continuous")
    assert m.cov2(T, s) == pytest.approx(numeric, rel=1e-12)
    for labels in (s.astype(bool), np.where(s == 1, "m", "f"), s + 1, 5 * s - 7):
        assert m.cov2(T, labels) == pytest.approx(numeric, rel=1e-12)
        assert m.hsic(T, labels) == pytest.approx(numeric, rel=1e-12)
        for g in (None, 0.3, 2.0):   # RBF on the attribute: distance 1 between the two groups
            assert m.hsic(T, labels, kernel="rbf", kernel_y="rbf", gamma_y=g) == pytest.approx(
                m.hsic(T, s.astype(float), kernel="rbf", kernel_y="rbf", gamma_y=g), rel=1e-12)
    # the relations stated in the docstring: the full (unscaled) centred one-hot doubles the
    # value; a/b-coded numbers give (b − a)² times it
    Z = np.eye(2)[s]
    assert np.sum(np.cov(T.T, Z.T, bias=True)[:3, 3:] ** 2) == pytest.approx(2 * numeric)
    pm = 2 * s - 1
    assert m.cov2(T, pm, sensitive_type="continuous") == pytest.approx(4 * m.cov2(T, pm))
    # the median heuristic makes the RBF value independent of the numeric coding
    assert m.hsic(T, pm, kernel_y="rbf", sensitive_type="continuous") == pytest.approx(
        m.hsic(T, pm, kernel_y="rbf"), rel=1e-12)


def test_categorical_rbf_kernel_and_mixed_frames():
    rng = np.random.default_rng(15)
    z = rng.integers(0, 4, 80)
    x = rng.normal(size=80)
    T = rng.normal(size=(80, 2)) + z[:, None] * 0.3
    # RBF on one categorical attribute: l = 1 within a group, exp(−γ) across; γ = 1 by default
    same = z[:, None] == z[None, :]
    for g in (1.0, 0.4):
        L = np.where(same, 1.0, np.exp(-g))
        assert m.hsic(T, z, kernel_y="rbf", gamma_y=g) == pytest.approx(
            _brute_hsic(T @ T.T, L), rel=1e-10)
    assert m.hsic(T, z, kernel_y="rbf") == pytest.approx(m.hsic(T, z, kernel_y="rbf", gamma_y=1.0))
    # a DataFrame is encoded column by column: float continuous, string categorical
    frame = pd.DataFrame({"x": x, "g": np.array(list("pqrs"))[z]})
    enc = np.column_stack([x, np.eye(4)[z] / np.sqrt(2)])
    assert m.cov2(T, frame) == pytest.approx(np.sum(np.cov(T.T, enc.T, bias=True)[:2, 2:] ** 2),
                                             rel=1e-12)
    assert m.cov2(T, frame) == pytest.approx(m.cov2(T, x) + m.cov2(T, z), rel=1e-12)
    assert m.cov2(T, pd.DataFrame({"g": pd.array(z, dtype="Int64")})) == pytest.approx(
        m.cov2(T, z), rel=1e-12)


def test_fair_pls_hard_constraint_is_zero_cov2_for_group_labels():
    # FairPLS encodes integer labels as groups: η = ∞ equalises the group means, which is what
    # cov2 measures for them (with the numeric code 0/1/2 the two readings coincide only here)
    from fairlab import FairPLS

    rng = np.random.default_rng(16)
    z = rng.integers(0, 3, 300)
    X = rng.normal(size=(300, 6)) + z[:, None] * np.arange(6) / 3
    y = X @ np.ones(6) + rng.normal(size=300)
    T = FairPLS(2, eta=np.inf).fit(X, y, sensitive_features=z).transform(X)
    assert m.cov2(T, z) < 1e-20 * m.cov2(T, y)
    assert m.cov2(T, np.array(["a", "b", "c"])[z]) < 1e-20 * m.cov2(T, y)


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: m.cov2([1.0, 2.0], [0, 1], sensitive_type="binary"), ValueError,
         "sensitive_type='binary' is not supported"),
        (lambda: m.hsic([1.0, 2.0], ["a", "b"], sensitive_type="continuous"), TypeError,
         "sensitive_type='categorical'"),
        (lambda: m.cov2([1.0, 2.0, 3.0], np.array(["a", None, "b"], dtype=object)), ValueError,
         "missing group labels"),
        (lambda: m.cov2([1.0, 2.0, 3.0], [0.0, np.nan, 1.0], sensitive_type="categorical"),
         ValueError, "missing group labels"),
        (lambda: m.cov2([1.0, 2.0, 3.0], [0.0, np.nan, 1.0]), ValueError, "NaN or infinite"),
        (lambda: m.cov2(["a", "b"], [0, 1]), TypeError, "scores must be numeric"),
        (lambda: m.hsic(["a", "b"], [0, 1]), TypeError, "X must be numeric"),
        (lambda: m.cov2([1.0, 2.0], pd.DataFrame({"a": [0, 1], "b": ["u", "v"]}),
                        sensitive_type="continuous"), TypeError, "column 'b'"),
        (lambda: m.hsic([1.0, 2.0], np.zeros((2, 1, 1))), ValueError, "1-D or 2-D"),
        (lambda: m.cov2([], []), ValueError, "empty"),
    ],
)
def test_bad_sensitive_input_is_refused(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_centred_rbf_in_place_is_bitwise_the_expression():
    from fairlab.metrics._measures import _centred_rbf

    # the widths search centres every K in place; the numbers must be those of HKH's formula
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4)) + 1e3
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    before = sq.copy()
    for gamma in (1e-6, 0.3, 50.0):
        K = np.exp(-gamma * sq)
        rows = K.mean(axis=0)
        expected = K - rows[None, :] - rows[:, None] + rows.mean()
        np.testing.assert_array_equal(_centred_rbf(sq, gamma), expected)
    np.testing.assert_array_equal(sq, before)  # the shared distances are left untouched


def test_mean_and_covariance_gaps_by_hand():
    rng = np.random.default_rng(5)
    E = rng.normal(size=(40, 3)) * [1.0, 5.0, 0.1] + 1e6  # far from the origin
    s = np.array(["b"] * 13 + ["a"] * 27)  # unbalanced, string labels
    a, b = E[s == "a"], E[s == "b"]
    assert m.mean_gap(E, s) == pytest.approx(
        np.sqrt(sum((a[:, j].mean() - b[:, j].mean()) ** 2 for j in range(3))), rel=1e-6)

    def cov(rows):  # written out: 1/(n − 1) Σ (x − x̄)(x − x̄)ᵀ
        c = rows - rows.mean(0)
        return sum(np.outer(r, r) for r in c) / (len(rows) - 1)

    assert m.covariance_gap(E, s) == pytest.approx(
        np.sqrt(np.sum((cov(a) - cov(b)) ** 2)), rel=1e-9)
    g = np.arange(40) % 3
    assert m.covariance_gap(E, g, reference="all") == pytest.approx(
        sum(np.sqrt(np.sum((cov(E[g == k]) - cov(E)) ** 2)) for k in range(3)), rel=1e-9)
    # one column: a 1 × 1 covariance; the gap of equal groups is 0
    assert m.covariance_gap(E[:, :1], s) == pytest.approx(abs(a[:, 0].var(ddof=1)
                                                             - b[:, 0].var(ddof=1)), rel=1e-9)
    assert m.mean_gap(np.vstack([E, E]), np.r_[np.zeros(40), np.ones(40)]) == 0.0
    with pytest.raises(ValueError, match="exactly two groups for covariance_gap.*reference='all'"):
        m.covariance_gap(E, g)
    with pytest.raises(ValueError, match="exactly two groups for mean_gap"):
        m.mean_gap(E, g)
    with pytest.raises(ValueError, match="at least 2 row"):
        m.covariance_gap(E[:14], s[:14])  # group "a" has one row
    assert m.mean_gap(E[:14], s[:14]) >= 0  # one row is a mean
    with pytest.raises(ValueError, match="reference"):
        m.covariance_gap(E, s, reference="pooled")
