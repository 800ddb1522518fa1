"""Tests of the concept-erasure baselines: SAL, LEACE, OracleLEACE, INLP and RLACE
(fairlab.baselines).

Every property is checked against an independent computation written here (scipy ``orth``,
an SVD, the formula of the ``concept-erasure`` package as described in the notes, NumPy's
``lstsq``, fairlearn's ``CorrelationRemover``, a literal INLP loop, finite differences), not
against the code under test.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn
from adversarial import instance
from fairlearn.preprocessing import CorrelationRemover
from scipy import linalg
from sklearn.base import clone
from sklearn.decomposition import PCA
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairPCA, UnconstrainedFallbackWarning
from fairlab._core.linalg import subspace_sine
from fairlab._core.validation import check_groups
from fairlab.baselines.inlp import INLP
from fairlab.baselines.leace import LEACE, OracleLEACE
from fairlab.baselines.rlace import RLACE, fantope_projection, loss_and_gradients
from fairlab.baselines.sal import SAL

EPS = np.finfo(float).eps
FAST_RLACE = dict(max_iter=600, eval_every=200)


# ---------------------------------------------------------------------------------------------
# Helpers (independent of the code under test)
# ---------------------------------------------------------------------------------------------
def centred_one_hot(s):
    """All m centred indicator columns of each attribute, stacked (n × Σ m)."""
    s = pd.DataFrame(np.asarray(s).reshape(len(s), -1) if not hasattr(s, "iloc") else s)
    blocks = []
    for j in range(s.shape[1]):
        Z = pd.get_dummies(s.iloc[:, j].astype(str)).to_numpy(float)
        blocks.append(Z - Z.mean(axis=0))
    return np.hstack(blocks)


def cross_cov_residual(out, s, X):
    """‖Z̃ᵀ(out − mean)‖_F / (‖Z̃‖_F ‖X̃‖_F): zero iff no linear function of out is correlated
    with any group indicator."""
    Z = centred_one_hot(s)
    E = out - out.mean(axis=0)
    Xc = X - X.mean(axis=0)
    return np.linalg.norm(Z.T @ E) / (np.linalg.norm(Z) * np.linalg.norm(Xc))


def orth_ref(A):
    return linalg.orth(A)


def random_instance(rng, *, n=None, d=None, m=None, offset=None, attributes=1):
    """Anisotropic data (clear spectral gaps), group offsets, unbalanced groups, a far offset."""
    n = n or int(rng.integers(60, 200))
    d = d or int(rng.integers(6, 14))
    codes = []
    for _ in range(attributes):
        mm = m or int(rng.integers(2, 4))
        c = np.concatenate([np.repeat(np.arange(mm), 2), rng.choice(mm, n - 2 * mm,
                                                                      p=rng.dirichlet([1] * mm))])
        codes.append(rng.permutation(c))
    scales = np.geomspace(5.0, 0.2, d) * rng.uniform(0.9, 1.1, d)
    Qr = np.linalg.qr(rng.normal(size=(d, d)))[0]
    X = (rng.normal(size=(n, d)) * scales) @ Qr.T
    for c in codes:
        X += rng.normal(size=(c.max() + 1, d))[c]
    off = 10.0 ** rng.uniform(-1, 3) if offset is None else offset
    X += off * rng.normal(size=d)
    s = codes[0] if attributes == 1 else np.column_stack(codes)
    return X, s


def fit_quiet(est, X, s):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # e.g. LinearSVC convergence
        return est.fit(X, sensitive_features=s)


# ---------------------------------------------------------------------------------------------
# SAL
# ---------------------------------------------------------------------------------------------
def test_sal_removes_the_range_of_the_centred_cross_covariance():
    rng = np.random.default_rng(0)
    for trial in range(20):
        X, s = random_instance(rng, attributes=1 + trial % 2)
        sal = SAL().fit(X, sensitive_features=s)
        Z = centred_one_hot(s)
        ref = orth_ref((X - X.mean(axis=0)).T @ Z)  # range(X̃ᵀZ̃)
        groups = check_groups(s, X.shape[0])
        assert sal.n_removed_ == ref.shape[1] == groups.n_constraints
        assert subspace_sine(sal.removed_directions_.T, ref) < 1e-10
        P = sal.projection_
        assert np.allclose(P, P.T, atol=1e-14) and np.allclose(P @ P, P, atol=1e-12)
        np.testing.assert_allclose(sal.transform(X), X @ P, atol=1e-10 * np.abs(X).max())
        assert cross_cov_residual(sal.transform(X), s, X) < 1e-12


def test_sal_followed_by_pca_equals_fair_pca_and_orthogonal_leace():
    rng = np.random.default_rng(1)
    worst = 0.0
    for trial in range(20):
        X, s = random_instance(rng, attributes=1 + trial % 2)
        d = X.shape[1]
        r = check_groups(s, X.shape[0]).n_constraints
        k = int(rng.integers(1, d - r + 1))
        fair = FairPCA(k).fit(X, sensitive_features=s)
        sal = SAL(k).fit(X, sensitive_features=s)
        orth = LEACE(k, method="orthogonal").fit(X, sensitive_features=s)
        for est in (sal, orth):
            worst = max(worst, subspace_sine(est.components_.T, fair.components_.T))
            np.testing.assert_allclose(est.explained_variance_, fair.explained_variance_,
                                       rtol=1e-9)
            # the embeddings agree up to the signs of the components
            signs = np.sign(np.sum(est.components_ * fair.components_, axis=1))
            np.testing.assert_allclose(est.transform(X), fair.transform(X) * signs,
                                       atol=1e-8 * np.abs(X - X.mean(0)).max())
    assert worst < 1e-8


def test_sal_fewer_directions_are_the_leading_singular_vectors():
    rng = np.random.default_rng(2)
    X, s = random_instance(rng, n=150, d=8, m=4, offset=50.0)
    sal = SAL(n_removed=2).fit(X, sensitive_features=s)
    U, sv, _ = np.linalg.svd((X - X.mean(0)).T @ centred_one_hot(s) / X.shape[0])
    assert sal.n_removed_ == 2
    assert subspace_sine(sal.removed_directions_.T, U[:, :2]) < 1e-10
    np.testing.assert_allclose(sal.singular_values_, sv[:3], rtol=1e-10)


def test_sal_uncentred_is_the_published_notebook():
    """center=False: XᵀZ with the raw one-hot, spanned by the uncentred group means (r = 2)."""
    rng = np.random.default_rng(3)
    X, s = random_instance(rng, n=120, d=7, m=2, offset=5.0)
    sal = SAL(center=False).fit(X, sensitive_features=s)
    means = np.vstack([X[s == g].mean(axis=0) for g in (0, 1)]).T
    assert sal.n_removed_ == 2
    assert subspace_sine(sal.removed_directions_.T, means) < 1e-10
    np.testing.assert_allclose(sal.transform(X), X @ sal.projection_, atol=1e-10 * 50)


def test_rank_decision_on_both_sides():
    """Group means equal exactly: nothing to remove; differing by 1e-8: one direction."""
    rng = np.random.default_rng(4)
    A = rng.integers(-3, 4, size=(40, 5)).astype(float)
    X = np.vstack([A, A[rng.permutation(40)]]) + 1000.0  # same rows in both groups
    z = np.repeat([0, 1], 40)
    for est in (SAL(), LEACE(), LEACE(method="orthogonal")):
        assert est.fit(X, sensitive_features=z).n_removed_ == 0
        X2 = X.copy()
        X2[z == 1, 0] += 1e-8
        assert est.fit(X2, sensitive_features=z).n_removed_ == 1


# ---------------------------------------------------------------------------------------------
# LEACE
# ---------------------------------------------------------------------------------------------
def _adversarial_leace_residuals(method, n_components, seeds):
    out = []
    for index in seeds:
        inst = instance("fair_pca", 0, index)
        X = np.asarray(inst.X, dtype=float)
        est = LEACE(n_components, method=method).fit(X, sensitive_features=inst.sensitive)
        res = cross_cov_residual(est.transform(X), inst.sensitive, X)
        norm = np.linalg.norm(np.eye(X.shape[1]) - est.projection_, 2)
        out.append((res, norm, inst.describe()))
    return out


@pytest.mark.parametrize("method", ["leace", "orthogonal"])
@pytest.mark.parametrize("n_components", [None, 1])
def test_leace_zero_cross_covariance_on_adversarial_instances(method, n_components):
    """Offsets up to 1e3, scales 1e-3…1e3, tiny groups, collinear columns, d > n, float32."""
    results = _adversarial_leace_residuals(method, n_components, range(150))
    for res, norm, desc in results:
        # rounding of an oblique projector: eps·‖I − P‖₂ (= 1 for the orthogonal one)
        assert res <= 1e3 * EPS * max(1.0, norm), desc
        if norm <= 1e3:
            assert res <= 1e-10, desc
    if method == "orthogonal":
        assert max(n for _, n, _ in results) <= 1.0 + 1e-8


def test_leace_extreme_instance():
    """A hand-made worst case: offset 1e4, a group of 2 rows, duplicated columns, d > n."""
    rng = np.random.default_rng(5)
    n, d = 30, 45
    z = np.array([0] * 2 + [1] * 10 + [2] * 18)
    X = rng.normal(size=(n, d)) + 3.0 * np.eye(3, d)[z] + 1e4
    X[:, 5] = X[:, 7]
    X[:, 6] = 2 * X[:, 1] - X[:, 2]
    for method in ("leace", "orthogonal"):
        est = LEACE(method=method).fit(X, sensitive_features=z)
        assert est.n_removed_ == 2
        assert cross_cov_residual(est.transform(X), z, X) < 1e-10
        Xt = LEACE(5, method=method).fit_transform(X, sensitive_features=z)
        assert cross_cov_residual(Xt, z, X) < 1e-10


def concept_erasure_reference(X, Z, *, method="leace", svd_tol=0.01):
    """The ``LeaceFitter``/``LeaceEraser`` formula of concept-erasure 0.2.4, as described in the
    notes (shrinkage=False, affine=True, constrain_cov_trace not triggered): r(x)."""
    n, p = X.shape
    mu = X.mean(axis=0)
    Xc, Zc = X - mu, Z - Z.mean(axis=0)
    sigma_xx = Xc.T @ Xc / (n - 1)
    sigma_xz = Xc.T @ Zc / (n - 1)
    if method == "leace":
        L, V = np.linalg.eigh(sigma_xx)
        keep = L > L.max() * p * EPS
        W = (V[:, keep] * L[keep] ** -0.5) @ V[:, keep].T
        W_inv = (V[:, keep] * L[keep] ** 0.5) @ V[:, keep].T
    else:
        W = W_inv = np.eye(p)
    u, sv, _ = np.linalg.svd(W @ sigma_xz, full_matrices=False)
    u = u[:, sv > svd_tol]
    proj_left, proj_right = W_inv @ u, u.T @ W
    return lambda x: x - ((x - mu) @ proj_right.T) @ proj_left.T


@pytest.mark.parametrize("method", ["leace", "orthogonal"])
@pytest.mark.parametrize("m", [2, 4])
def test_leace_agrees_with_the_concept_erasure_formula(method, m):
    rng = np.random.default_rng(6 + m)
    n, d = 400, 12
    z = rng.integers(0, m, n)
    X = (rng.normal(size=(n, d)) * np.geomspace(3, 0.3, d)) @ linalg.qr(
        rng.normal(size=(d, d)))[0] + 2.0 * rng.normal(size=(m, d))[z] + 7.0
    Z = np.eye(m)[z]
    ref = concept_erasure_reference(X, Z, method=method)
    est = LEACE(method=method).fit(X, sensitive_features=z)
    X_new = rng.normal(size=(50, d)) * 3 + 7.0
    for A in (X, X_new):
        np.testing.assert_allclose(est.transform(A), ref(A), atol=1e-10 * np.abs(A).max())
    assert est.n_removed_ == m - 1


def test_leace_is_the_least_squares_eraser():
    """LEACE moves the data less than the orthogonal eraser, in the Euclidean and in the
    Mahalanobis norm (the optimum is the same for every norm), and both are projections."""
    rng = np.random.default_rng(7)
    for _ in range(10):
        X, s = random_instance(rng, m=3)
        leace = LEACE().fit(X, sensitive_features=s)
        orth = LEACE(method="orthogonal").fit(X, sensitive_features=s)
        Xc = X - X.mean(axis=0)
        S_inv = np.linalg.inv(Xc.T @ Xc / (X.shape[0] - 1))
        for metric in (np.eye(X.shape[1]), S_inv):
            cost = [np.einsum("ij,jk,ik->", D, metric, D)
                    for D in (leace.transform(X) - X, orth.transform(X) - X)]
            assert cost[0] <= cost[1] * (1 + 1e-10)
        P = leace.projection_
        np.testing.assert_allclose(P @ P, P, atol=1e-10 * np.abs(P).max())
        np.testing.assert_allclose(leace.transform(X).mean(axis=0), X.mean(axis=0),
                                   atol=1e-10 * np.abs(X).max())
        np.testing.assert_allclose(leace.transform(X), X.mean(0) + Xc @ P.T,
                                   atol=1e-9 * np.abs(X).max())
        # the removed directions span range(I − P)
        assert subspace_sine(leace.removed_directions_.T, np.eye(X.shape[1]) - P) < 1e-8


def test_leace_whitening_rank_on_both_sides():
    """An exactly duplicated column is a zero-variance direction (LEACE is equivariant under
    the duplication); a nearly duplicated one carrying the group signal is erased too."""
    rng = np.random.default_rng(8)
    n, d = 200, 6
    z = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 1.5 * np.outer(z, rng.normal(size=d)) + 20.0
    base = LEACE().fit_transform(X, sensitive_features=z)
    X_dup = np.hstack([X, X[:, :1]])
    dup = LEACE().fit_transform(X_dup, sensitive_features=z)
    np.testing.assert_allclose(dup[:, :d], base, atol=1e-10 * np.abs(X).max())
    np.testing.assert_allclose(dup[:, d], dup[:, 0], atol=1e-10 * np.abs(X).max())
    X_near = np.hstack([X, X[:, :1] + 1e-6 * z[:, None]])
    near = LEACE().fit(X_near, sensitive_features=z)
    assert cross_cov_residual(near.transform(X_near), z, X_near) < 1e-8


def test_leace_method_oracle_points_to_oracle_leace():
    with pytest.raises(ValueError, match="'method'.*OracleLEACE"):
        LEACE(method="oracle").fit(np.eye(4), sensitive_features=[0, 0, 1, 1])


# ---------------------------------------------------------------------------------------------
# OracleLEACE
# ---------------------------------------------------------------------------------------------
def one_hot_columns(s, categories=None):
    """Raw one-hot of every attribute (n × Σ m), each with the given or the sorted labels of s;
    returns the matrix and the labels (as strings) of each attribute."""
    s = pd.DataFrame(np.asarray(s).reshape(len(s), -1) if not hasattr(s, "iloc") else s)
    blocks, labels = [], []
    for j in range(s.shape[1]):
        col = s.iloc[:, j].astype(str)
        cats = sorted(col.unique()) if categories is None else categories[j]
        blocks.append(pd.get_dummies(pd.Categorical(col, categories=cats)).to_numpy(float))
        labels.append(cats)
    return np.hstack(blocks), labels


def lstsq_residual(X, s, X_new=None, s_new=None):
    """X − Ẑ(Z̃ᵀZ̃)⁺Z̃ᵀX̃ by NumPy's minimum-norm ``lstsq``, Ẑ = one-hot − training z̄; on
    (X_new, s_new) when given, with the training coefficients."""
    Z, labels = one_hot_columns(s)
    z_mean = Z.mean(axis=0)
    B = np.linalg.lstsq(Z - z_mean, X - X.mean(axis=0), rcond=None)[0]
    if X_new is None:
        return X - (Z - z_mean) @ B
    return X_new - (one_hot_columns(s_new, labels)[0] - z_mean) @ B


@pytest.mark.parametrize("n_components", [None, 1])
def test_oracle_zero_cross_covariance_on_adversarial_instances(n_components):
    """The output's cross-covariance with the one-hot attribute vanishes on the training data,
    to the rounding of the output itself: eps·‖X‖ per entry, large when the offset is."""
    worst = 0.0
    for index in range(150):
        inst = instance("fair_pca", 0, index)
        X = np.asarray(inst.X, dtype=float)
        est = OracleLEACE(n_components).fit(X, sensitive_features=inst.sensitive)
        res = cross_cov_residual(est.transform(X, sensitive_features=inst.sensitive),
                                 inst.sensitive, X)
        offset = np.linalg.norm(X) / np.linalg.norm(X - X.mean(axis=0))
        assert res <= 1e-10, inst.describe()
        assert res <= 100 * EPS * offset, inst.describe()  # measured: at most 9·eps·offset
        worst = max(worst, res)
    assert worst > 0.0  # the measure is not vacuous


@pytest.mark.parametrize("m", [2, 3])
def test_oracle_equals_fairlearn_correlation_remover(m):
    """CorrelationRemover with the one-hot columns appended and removed is the same eraser,
    in and out of sample, with the same coefficients (its ``beta_`` is NumPy's minimum-norm
    solution on all m indicators, i.e. Σ_ZZ⁺Σ_ZX)."""
    rng = np.random.default_rng(20 + m)
    n, d = 300, 6
    z = rng.integers(0, m, n)
    X = (rng.normal(size=(n, d)) * np.geomspace(3, 0.3, d) + 2.0 * rng.normal(size=(m, d))[z]
         + 50.0)
    X_new, z_new = rng.normal(size=(40, d)) * 3 + 50.0, rng.integers(0, m, 40)
    est = OracleLEACE().fit(X, sensitive_features=z)
    ids = list(range(d, d + m))
    Z, Z_new = np.eye(m)[z], np.eye(m)[z_new]
    z_mean = Z.mean(axis=0)
    # fairlearn <= 0.14 centres the sensitive columns by their overall (scalar) mean: then
    # only the column-centred indicators (all means 0) give the same regression.
    appended = [(Z - z_mean, Z_new - z_mean)]
    if np.shape(CorrelationRemover(sensitive_feature_ids=ids).fit(
            np.hstack([X, Z])).sensitive_mean_) == (m,):
        appended.append((Z, Z_new))  # column means: the raw one-hot, as the paper's Z
    scale = np.abs(X).max()
    for A, A_new in appended:
        cr = CorrelationRemover(sensitive_feature_ids=ids).fit(np.hstack([X, A]))
        np.testing.assert_allclose(est.transform(X, sensitive_features=z),
                                   cr.transform(np.hstack([X, A])), rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(est.transform(X_new, sensitive_features=z_new),
                                   cr.transform(np.hstack([X_new, A_new])), rtol=0,
                                   atol=1e-12 * scale)
        np.testing.assert_allclose(est.coef_, cr.beta_, rtol=0, atol=1e-12 * scale)


def test_oracle_equals_correlation_remover_for_collinear_attributes():
    """Attribute 2 a coarsening of attribute 1: Σ_ZZ is singular beyond the known one-per-
    attribute deficiency, and combinations never seen together in fit are extrapolated by the
    minimum-norm B, as fairlearn's ``lstsq`` does."""
    rng = np.random.default_rng(24)
    n, d = 300, 5
    z1 = rng.integers(0, 4, n)
    S = np.column_stack([z1, z1 // 2])
    X = rng.normal(size=(n, d)) + rng.normal(size=(4, d))[z1] + 10.0
    S_new = np.column_stack([rng.integers(0, 4, 30), rng.integers(0, 2, 30)])  # unseen pairs
    X_new = rng.normal(size=(30, d)) + 10.0
    est = OracleLEACE().fit(X, sensitive_features=S)
    Z, Z_new = one_hot_columns(S)[0], one_hot_columns(S_new)[0]
    z_mean = Z.mean(axis=0)
    cr = CorrelationRemover(sensitive_feature_ids=list(range(d, d + 6))).fit(
        np.hstack([X, Z - z_mean]))
    np.testing.assert_allclose(est.coef_, cr.beta_, rtol=0, atol=1e-12 * 10)
    np.testing.assert_allclose(est.transform(X_new, sensitive_features=S_new),
                               cr.transform(np.hstack([X_new, Z_new - z_mean])), rtol=0,
                               atol=1e-12 * 10)
    assert cross_cov_residual(est.transform(X, sensitive_features=S), S, X) < 1e-13


def test_oracle_is_the_least_squares_residual():
    """r(X, Z) = X − Ẑ(Z̃ᵀZ̃)⁺Z̃ᵀX̃ (NumPy's lstsq), in and out of sample; with n_components=k
    the output is the PCA of that residual; the group means of r are x̄."""
    rng = np.random.default_rng(25)
    for trial in range(12):
        X, s = random_instance(rng, attributes=1 + trial % 2)
        n, d = X.shape
        est = OracleLEACE().fit(X, sensitive_features=s)
        scale = np.abs(X).max()
        ref = lstsq_residual(X, s)
        out = est.transform(X, sensitive_features=s)
        np.testing.assert_allclose(out, ref, rtol=0, atol=1e-11 * scale)
        idx = rng.choice(n, 25)  # new rows: old groups, other features
        X_new = X[idx] + rng.normal(size=(25, d))
        s_new = s[idx]
        np.testing.assert_allclose(est.transform(X_new, sensitive_features=s_new),
                                   lstsq_residual(X, s, X_new, s_new), rtol=0,
                                   atol=1e-11 * scale)
        if s.ndim == 1:
            for g in np.unique(s):
                np.testing.assert_allclose(out[s == g].mean(axis=0), X.mean(axis=0), rtol=0,
                                           atol=1e-11 * scale)
        k = int(rng.integers(1, d + 1))
        pca = PCA(k, svd_solver="full").fit(ref)  # "covariance_eigh" loses 1e-9 here
        reduced = OracleLEACE(k).fit(X, sensitive_features=s)
        assert subspace_sine(reduced.components_.T, pca.components_.T) < 1e-10
        np.testing.assert_allclose(reduced.explained_variance_, pca.explained_variance_,
                                   rtol=1e-11)
        np.testing.assert_allclose(reduced.transform(X, sensitive_features=s),
                                   (ref - X.mean(axis=0)) @ reduced.components_.T, rtol=0,
                                   atol=1e-10 * scale)
        assert cross_cov_residual(reduced.transform(X, sensitive_features=s), s, X) < 1e-12


def test_oracle_moves_the_data_least():
    """Among erasers with zero cross-covariance the oracle's displacement is the smallest, in
    the Euclidean and the Mahalanobis norm: never more than LEACE (nor its orthogonal variant,
    nor SAL), on random and on adversarial instances."""
    rng = np.random.default_rng(26)
    for trial in range(10):
        X, s = random_instance(rng, attributes=1 + trial % 2)
        oracle = OracleLEACE().fit(X, sensitive_features=s).transform(X, sensitive_features=s)
        Xc = X - X.mean(axis=0)
        S_inv = np.linalg.inv(Xc.T @ Xc / (X.shape[0] - 1))
        for other in (LEACE(), LEACE(method="orthogonal"), SAL()):
            erased = other.fit_transform(X, sensitive_features=s)
            for metric in (np.eye(X.shape[1]), S_inv):
                cost = [np.einsum("ij,jk,ik->", D, metric, D) for D in (oracle - X, erased - X)]
                assert cost[0] <= cost[1] * (1 + 1e-10)
            if isinstance(other, LEACE) and other.method == "leace":
                assert cost[0] < cost[1] * (1 - 1e-3)  # strictly better here
    for index in range(0, 150, 3):
        inst = instance("fair_pca", 0, index)
        X = np.asarray(inst.X, dtype=float)
        oracle = OracleLEACE().fit_transform(X, sensitive_features=inst.sensitive)
        leace = LEACE().fit_transform(X, sensitive_features=inst.sensitive)
        scale = np.linalg.norm(X - X.mean(axis=0)) ** 2
        assert np.sum((oracle - X) ** 2) <= np.sum((leace - X) ** 2) + 1e-12 * scale, (
            inst.describe())


def test_oracle_metadata_routing_at_fit_and_transform():
    rng = np.random.default_rng(27)
    X, s = random_instance(rng, n=150, d=6, m=3)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(6)])
    groups = pd.Series(np.array(["a", "b", "c"])[s])
    y = (X[:, 0] > np.median(X[:, 0])).astype(int)
    expected = OracleLEACE(3).fit_transform(StandardScaler().fit_transform(X),
                                           sensitive_features=groups)
    with sklearn.config_context(enable_metadata_routing=True):
        erase = OracleLEACE(3).set_fit_request(sensitive_features=True).set_transform_request(
            sensitive_features=True)
        pipe = Pipeline([("scale", StandardScaler()), ("erase", erase)])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no fallback warning, no fit_transform warning
            via_fit_transform = pipe.fit_transform(frame, sensitive_features=groups)
            via_transform = pipe.fit(frame, sensitive_features=groups).transform(
                frame, sensitive_features=groups)
        with pytest.raises(ValueError, match="set_transform_request"):
            pipe.transform(frame)
        clf = Pipeline([("erase", clone(erase)), ("clf", LogisticRegression())])
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnconstrainedFallbackWarning)
            clf.fit(frame, y, sensitive_features=groups)
        assert clf.predict(frame, sensitive_features=groups).shape == (150,)
    for out in (via_fit_transform, via_transform):
        np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)
    est = pipe.named_steps["erase"]
    assert [list(c) for c in est.categories_] == [["a", "b", "c"]]
    assert list(est.get_feature_names_out()) == [f"oracleleace{j}" for j in range(3)]
    out = clone(est).set_output(transform="pandas").fit(frame, sensitive_features=groups)
    out = out.transform(frame, sensitive_features=groups)
    assert isinstance(out, pd.DataFrame) and list(out.columns) == [f"oracleleace{j}" for j in
                                                                     range(3)]


def test_oracle_fallback_ignores_sensitive_features_at_transform():
    rng = np.random.default_rng(28)
    X = rng.normal(size=(40, 5)) * np.arange(1, 6) + 3.0
    with pytest.warns(UnconstrainedFallbackWarning, match="identity"):
        est = OracleLEACE().fit(X)
    np.testing.assert_array_equal(est.transform(X, sensitive_features=np.repeat([7, 8], 20)), X)
    np.testing.assert_array_equal(est.transform(X), X)
    with pytest.warns(UnconstrainedFallbackWarning, match="PCA"):
        est = OracleLEACE(2).fit(X)
    pca = PCA(2).fit(X)
    assert subspace_sine(est.components_.T, pca.components_.T) < 1e-10
    signs = np.sign(np.sum(est.components_ * pca.components_, axis=1))
    np.testing.assert_allclose(est.transform(X, sensitive_features=np.repeat(["u", "v"], 20)),
                               pca.transform(X) * signs, atol=1e-10)
    # a refit without n_components outputs the erased data again, not the old PCA
    z = np.repeat([0, 1], 20)
    est.set_params(n_components=None).fit(X, sensitive_features=z)
    np.testing.assert_allclose(est.transform(X, sensitive_features=z), lstsq_residual(X, z),
                               atol=1e-12 * np.abs(X).max())


@pytest.mark.parametrize(
    "make_call, error, match",
    [
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(_X), ValueError,
         "needs sensitive_features"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(
            _X, sensitive_features=np.r_[_z[:-1], 2]), ValueError, "group 2, not seen in fit"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(
            _X, sensitive_features=_z[:-1]), ValueError, "29 entries but X has 30 rows"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(
            _X, sensitive_features=np.column_stack([_z, _z])), ValueError,
         "2 attribute.*fitted with 1"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(
            _X, sensitive_features=np.r_[np.nan, _z[1:]]), ValueError, "missing values"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z).transform(
            _X[:, :4], sensitive_features=_z), ValueError, "5 features"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=_z[:-1]), ValueError, "29 entries"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=np.zeros(30)), ValueError,
         "single group"),
        (lambda: OracleLEACE().fit(_X, sensitive_features=np.r_[1, np.zeros(29)]), ValueError,
         "has 1 row"),
        (lambda: OracleLEACE(6).fit(_X, sensitive_features=_z), ValueError, "at most 5"),
        (lambda: OracleLEACE(0).fit(_X, sensitive_features=_z), ValueError, "n_components"),
        (lambda: OracleLEACE(True).fit(_X, sensitive_features=_z), TypeError, "bool"),
        (lambda: OracleLEACE().fit(np.where(_X > 1.5, np.nan, _X), sensitive_features=_z),
         ValueError, "NaN"),
    ],
    ids=["transform-without-groups", "unseen-group", "transform-length",
         "transform-attributes", "transform-missing-label", "transform-features",
         "fit-length", "single-group", "tiny-group", "too-many-components",
         "zero-components", "bool", "nan"],
)
def test_oracle_bad_input(make_call, error, match):
    with pytest.raises(error, match=match):
        make_call()


# ---------------------------------------------------------------------------------------------
# INLP
# ---------------------------------------------------------------------------------------------
def inlp_reference(X, z, T):
    """Ravfogel et al.'s loop, literally: re-project the original data by P = I − P_R(ΣP_R(w))."""
    d = X.shape[1]
    P = np.eye(d)
    weights = []
    for _ in range(T):
        clf = LinearSVC(fit_intercept=False, class_weight=None, dual=False, random_state=0)
        clf.fit(X @ P.T, z)
        weights.append(clf.coef_)
        B = linalg.orth(np.vstack(weights).T)
        P = np.eye(d) - B @ B.T
    return P, np.vstack(weights)


def test_inlp_removed_span_is_the_classifiers_weights():
    rng = np.random.default_rng(9)
    X, s = random_instance(rng, n=150, d=9, m=2, offset=0.0)
    inlp = fit_quiet(INLP(n_iterations=4), X, s)
    assert inlp.n_iter_ == 4 and inlp.n_removed_ == 4
    W = inlp.classifier_weights_
    assert W.shape == (4, 9)
    Qr = inlp.removed_directions_.T
    for w in W:  # each weight vector lies in the removed span
        assert np.linalg.norm(w - Qr @ (Qr.T @ w)) <= 1e-10 * np.linalg.norm(w)
    P = inlp.projection_
    np.testing.assert_allclose(P, P.T, atol=1e-14)
    np.testing.assert_allclose(P @ P, P, atol=1e-12)
    assert np.linalg.matrix_rank(P) == 9 - 4
    np.testing.assert_allclose(inlp.transform(X), X @ P, atol=1e-12 * np.abs(X).max())


def test_inlp_matches_the_reference_loop_with_kleindessner_defaults():
    rng = np.random.default_rng(10)
    X, s = random_instance(rng, n=200, d=8, m=2, offset=0.0)
    X = X - X.mean(axis=0)
    k = 3
    inlp = fit_quiet(INLP(k), X, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        P_ref, W_ref = inlp_reference(X, s, 8 - k)
    assert inlp.n_iter_ == 8 - k and inlp.n_removed_ == 8 - k
    np.testing.assert_allclose(inlp.classifier_weights_, W_ref, atol=1e-6)
    np.testing.assert_allclose(inlp.projection_, P_ref, atol=1e-6)
    # the k-dim embedding is PCA inside range(P)
    assert np.abs(inlp.components_ @ inlp.removed_directions_.T).max() < 1e-12
    pca = PCA(k).fit(X @ P_ref)
    assert subspace_sine(inlp.components_.T, pca.components_.T) < 1e-5
    assert inlp.transform(X).shape == (200, k)


def test_inlp_multiclass_and_several_attributes_stop_at_the_budget():
    rng = np.random.default_rng(11)
    X, s = random_instance(rng, n=200, d=10, m=3, attributes=2, offset=3.0)
    inlp = fit_quiet(INLP(4), X, s)
    assert inlp.n_removed_ == 10 - 4  # one-vs-rest removes up to 3 per fit; capped at d − k
    assert inlp.components_.shape == (4, 10)
    assert np.abs(inlp.components_ @ inlp.removed_directions_.T).max() < 1e-12


def test_inlp_accepts_any_linear_classifier_and_refuses_others():
    rng = np.random.default_rng(12)
    X, s = random_instance(rng, n=80, d=5, m=2)
    inlp = INLP(n_iterations=2, classifier=LogisticRegression()).fit(X, sensitive_features=s)
    assert inlp.n_removed_ == 2
    with pytest.raises(TypeError, match="coef_"):
        INLP(n_iterations=1, classifier=DummyClassifier()).fit(X, sensitive_features=s)


# ---------------------------------------------------------------------------------------------
# RLACE
# ---------------------------------------------------------------------------------------------
def two_gaussians(seed, n=400, d=5, gap=4.0):
    rng = np.random.default_rng(seed)
    z = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, d))
    X[:, 0] += gap * z
    return X, z


def test_rlace_erases_an_easy_instance():
    """Two Gaussians 4σ apart along e₁: before, a logistic regression is ~98% right; after
    rank-1 R-LACE it is within 5 points of the majority rate (0.5), in and out of sample."""
    X, z = two_gaussians(0)
    X_test, z_test = two_gaussians(1)
    assert LogisticRegression().fit(X, z).score(X, z) > 0.95
    rlace = RLACE(n_removed=1, max_iter=2000, eval_every=200).fit(X, sensitive_features=z)
    assert abs(rlace.removed_directions_[0, 0]) > 0.99
    clf = LogisticRegression().fit(rlace.transform(X), z)
    assert clf.score(rlace.transform(X), z) <= 0.5 + 0.05
    assert clf.score(rlace.transform(X_test), z_test) <= 0.5 + 0.05
    assert np.isclose(rlace.majority_rate_[0], 0.5)


def test_rlace_is_deterministic_and_its_relaxation_lies_in_the_fantope():
    X, z = two_gaussians(2, n=200, d=6)
    a = RLACE(n_removed=2, **FAST_RLACE).fit(X, sensitive_features=z)
    b = RLACE(n_removed=2, **FAST_RLACE).fit(X, sensitive_features=z)
    np.testing.assert_array_equal(a.projection_, b.projection_)
    np.testing.assert_array_equal(a.transform(X), b.transform(X))
    w, V = np.linalg.eigh(a.relaxed_projection_)
    assert w.min() >= -1e-12 and w.max() <= 1 + 1e-12
    assert abs(w.sum() - 2) < 1e-10
    # the paper's rounding: the removed directions are the top-2 eigenvectors of the relaxed P
    assert subspace_sine(a.removed_directions_.T, V[:, -2:]) < 1e-8
    P = a.projection_
    np.testing.assert_allclose(P @ P, P, atol=1e-12)
    assert np.linalg.matrix_rank(P) == 6 - 2
    c = RLACE(n_removed=2, random_state=1, **FAST_RLACE).fit(X, sensitive_features=z)
    assert not np.array_equal(a.relaxed_projection_, c.relaxed_projection_)


def test_rlace_gradients_match_finite_differences():
    rng = np.random.default_rng(13)
    b, d = 20, 4
    codes = np.column_stack([rng.integers(0, 2, b), rng.integers(0, 3, b)])
    Y = np.hstack([np.eye(2)[codes[:, 0]], np.eye(3)[codes[:, 1]]])
    blocks = [slice(0, 2), slice(2, 5)]
    Xb = rng.normal(size=(b, d))
    P = rng.normal(size=(d, d))
    P = (P + P.T) / 4
    theta = rng.normal(size=(d, 5))
    beta = rng.normal(size=5)
    loss, gP, gT, gB = loss_and_gradients(Xb, Y, P, theta, beta, blocks)

    def f(P_=P, theta_=theta, beta_=beta):
        return loss_and_gradients(Xb, Y, P_, theta_, beta_, blocks)[0]

    h = 1e-6
    E = rng.normal(size=(d, d))
    E = (E + E.T) / 2
    assert np.isclose((f(P_=P + h * E) - f(P_=P - h * E)) / (2 * h), np.sum(gP * E), rtol=1e-6)
    D = rng.normal(size=theta.shape)
    assert np.isclose((f(theta_=theta + h * D) - f(theta_=theta - h * D)) / (2 * h),
                      np.sum(gT * D), rtol=1e-6)
    e = rng.normal(size=5)
    assert np.isclose((f(beta_=beta + h * e) - f(beta_=beta - h * e)) / (2 * h), gB @ e,
                      rtol=1e-6)
    np.testing.assert_allclose(gP, gP.T)


def test_fantope_projection():
    rng = np.random.default_rng(14)
    for d, r in [(5, 1), (8, 3), (12, 11)]:
        A = rng.normal(size=(d, d)) * 2
        F, lam, V = fantope_projection(A + A.T, r)
        w = np.linalg.eigvalsh(F)
        assert w.min() >= -1e-12 and w.max() <= 1 + 1e-12 and abs(w.sum() - r) < 1e-10
        # a point of the Fantope is its own projection, and projecting is idempotent
        np.testing.assert_allclose(fantope_projection(F, r)[0], F, atol=1e-12)
        # the projection is the nearest point: no other point of F_r is closer (random ones)
        dist = np.linalg.norm(F - (A + A.T))
        for _ in range(20):
            Qr = np.linalg.qr(rng.normal(size=(d, d)))[0]
            lam2 = rng.dirichlet(np.ones(d)) * r
            if lam2.max() > 1:
                continue
            assert np.linalg.norm((Qr * lam2) @ Qr.T - (A + A.T)) >= dist - 1e-12


def test_rlace_stopping_rules():
    X, z = two_gaussians(3, n=200, d=4)
    first = RLACE(n_removed=1, max_iter=1000, eval_every=100, tol=1.0).fit(
        X, sensitive_features=z)
    assert first.n_iter_ == 100  # within tol of the majority rate at the first evaluation
    full = RLACE(n_removed=1, max_iter=300, eval_every=100, tol=0.0,
                 n_iter_no_change=None).fit(X, sensitive_features=z)
    assert full.n_iter_ == 300
    reduced = RLACE(2, **FAST_RLACE).fit(X, sensitive_features=z)
    assert reduced.n_removed_ == 4 - 2 and reduced.transform(X).shape == (200, 2)


# ---------------------------------------------------------------------------------------------
# All four: fallback, routing, pandas, bad input, scikit-learn's checks
# ---------------------------------------------------------------------------------------------
ALL = [
    pytest.param(SAL, {}, id="SAL"),
    pytest.param(LEACE, {}, id="LEACE"),
    pytest.param(INLP, {}, id="INLP"),
    pytest.param(RLACE, FAST_RLACE, id="RLACE"),
]


@pytest.mark.parametrize("cls, extra", ALL)
def test_unconstrained_fallback_is_identity_or_pca_and_warns(cls, extra):
    rng = np.random.default_rng(15)
    X = rng.normal(size=(40, 5)) * np.arange(1, 6) + 3.0
    with pytest.warns(UnconstrainedFallbackWarning, match="identity"):
        est = cls(**extra).fit(X)
    np.testing.assert_array_equal(est.transform(X), X)
    with pytest.warns(UnconstrainedFallbackWarning, match="PCA"):
        est = cls(2, **extra).fit(X)
    assert subspace_sine(est.components_.T, PCA(2).fit(X).components_.T) < 1e-10


@pytest.mark.parametrize("cls, extra", ALL)
def test_metadata_routing_pandas_and_feature_names(cls, extra):
    rng = np.random.default_rng(16)
    X, s = random_instance(rng, n=120, d=6, m=2)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(6)])
    y = (X[:, 0] > np.median(X[:, 0])).astype(int)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = Pipeline([("erase", cls(3, **extra).set_fit_request(sensitive_features=True)),
                         ("clf", LogisticRegression())])
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnconstrainedFallbackWarning)  # really routed
            warnings.simplefilter("ignore", sklearn.exceptions.ConvergenceWarning)
            pipe.fit(frame, y, sensitive_features=pd.Series(s))
    est = pipe.named_steps["erase"]
    assert est.n_removed_ >= 1
    prefix = cls.__name__.lower()
    assert list(est.get_feature_names_out()) == [f"{prefix}{j}" for j in range(3)]
    out = clone(est).set_output(transform="pandas")
    out = fit_quiet(out, frame, s).transform(frame)
    assert isinstance(out, pd.DataFrame) and list(out.columns) == [f"{prefix}{j}" for j in
                                                                     range(3)]


_rng = np.random.default_rng(17)
_X = _rng.normal(size=(30, 5))
_z = np.repeat([0, 1], 15)


@pytest.mark.parametrize("cls, extra", ALL)
@pytest.mark.parametrize(
    "make_call, error, match",
    [
        (lambda e: e().fit(np.where(_X > 1.5, np.nan, _X), sensitive_features=_z),
         ValueError, "NaN"),
        (lambda e: e().fit(_X, sensitive_features=np.zeros(30)), ValueError, "single group"),
        (lambda e: e().fit(_X, sensitive_features=np.r_[1, np.zeros(29)]), ValueError,
         "has 1 row"),
        (lambda e: e().fit(_X, sensitive_features=_z[:-1]), ValueError, "29 entries"),
        (lambda e: e(5).fit(_X, sensitive_features=_z), ValueError, "at most 4"),
        (lambda e: e(2).fit(_X, sensitive_features=_z).transform(_X[:, :4]), ValueError,
         "5 features"),
        (lambda e: e(0).fit(_X, sensitive_features=_z), ValueError, "n_components"),
        (lambda e: e(True).fit(_X, sensitive_features=_z), TypeError, "bool"),
        (lambda e: e().fit(np.full((30, 5), "a"), sensitive_features=_z), ValueError,
         "convert"),
    ],
    ids=["nan", "single-group", "tiny-group", "length", "too-many-components",
         "transform-features", "zero-components", "bool", "strings"],
)
def test_bad_input(cls, extra, make_call, error, match):
    def make(*args):
        return cls(*args, **extra)

    with pytest.raises(error, match=match):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            make_call(make)


def test_bad_input_specific():
    with pytest.raises(ValueError, match="at most 1 directions"):
        SAL(n_removed=2).fit(_X, sensitive_features=_z)  # rank of X̃ᵀZ̃ is 1
    with pytest.raises(ValueError, match="at most 3 directions"):
        RLACE(2, n_removed=4).fit(_X, sensitive_features=_z)
    with pytest.raises(ValueError, match="at least 2 features"):
        RLACE().fit(_X[:, :1], sensitive_features=_z)
    with pytest.raises(ValueError, match="at least 2 features"):
        INLP().fit(_X[:, :1], sensitive_features=_z)
    with pytest.raises(ValueError, match="classifier"):
        INLP(classifier="svm").fit(_X, sensitive_features=_z)
    with pytest.raises(ValueError, match="learning_rate"):
        RLACE(learning_rate=0.0).fit(_X, sensitive_features=_z)


def _expected_failed_checks(estimator):
    if isinstance(estimator, RLACE):
        return {
            "check_transformer_n_iter": (
                "the checks fit without sensitive_features: RLACE then fits the unconstrained "
                "closed form (identity or PCA), runs no game step, and reports n_iter_ = 0"
            )
        }
    return {}


@pytest.mark.filterwarnings("ignore::fairlab.UnconstrainedFallbackWarning")
@parametrize_with_checks(
    [
        SAL(), SAL(n_components=1), SAL(center=False),
        LEACE(), LEACE(n_components=1, method="orthogonal"),
        OracleLEACE(), OracleLEACE(n_components=1),
        INLP(), INLP(n_components=1),
        RLACE(), RLACE(n_components=1),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("shape", [(60, 5, 1), (40, 40, 2), (12, 30, 2), (500, 20, 3), (7, 1, 1),
                                   (9, 4, 0), (30, 6, 2)])
def test_leace_whitening_factors_equal_the_svd_of_the_centred_data(shape):
    """The QR route (tall data) gives the singular values, right vectors and AᵀZ̃ of the thin
    SVD X̃ = A S Bᵀ, without touching its inputs: checked against SciPy's SVD, with column
    scales over eight decades, an offset, and (last shape) two collinear columns."""
    from fairlab.baselines.leace import _svd_and_cross

    n, d, r = shape
    rng = np.random.default_rng(d * 100 + n)
    X = rng.normal(size=(n, d)) * np.logspace(-4, 4, d) + 1e3
    if shape == (30, 6, 2):
        X[:, 1] = 3 * X[:, 0]
    X -= X.mean(axis=0)
    Z = rng.normal(size=(n, r))
    Z -= Z.mean(axis=0)
    before = X.copy(), Z.copy()
    s, Bt, AtZ = _svd_and_cross(X, Z)
    np.testing.assert_array_equal(X, before[0])
    np.testing.assert_array_equal(Z, before[1])
    A, s_svd, Bt_svd = linalg.svd(X, full_matrices=False)
    np.testing.assert_allclose(s, s_svd, rtol=1e-12, atol=1e-13 * s_svd[0])
    assert AtZ.shape == (min(n, d), r)
    # the signs of singular vector pairs are free: compare what they determine, B S AᵀZ̃ = X̃ᵀZ̃
    np.testing.assert_allclose(Bt.T @ (s[:, None] * AtZ), X.T @ Z,
                               atol=1e-12 * np.abs(X).max() * np.abs(Z).max(initial=1.0) * n)
    clear = s_svd > 1e-6 * s_svd[0]  # directions that the data determine well
    np.testing.assert_allclose(np.abs(np.sum(Bt[clear] * Bt_svd[clear], axis=1)), 1, atol=1e-8)
