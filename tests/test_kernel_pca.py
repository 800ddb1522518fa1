"""Tests of fairlab.kernel_pca.FairKernelPCA (Kleindessner et al., §3.3 and Algorithm 3)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import linalg
from sklearn import config_context
from sklearn.decomposition import KernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairKernelPCA, KernelFairDR, KernelFairPLS, UnconstrainedFallbackWarning
from fairlab._core.linalg import subspace_sine

KERNELS = [
    dict(kernel="rbf", gamma=0.2),
    dict(kernel="poly", degree=2, gamma=0.3, coef0=1.0),
    dict(kernel="linear"),
    dict(kernel="sigmoid", gamma=0.05, coef0=0.5),
    dict(kernel="cosine"),
]


def _data(n=120, d=5, m=2, seed=0, shift=0.8):
    rng = np.random.default_rng(seed)
    z = np.arange(n) % m
    rng.shuffle(z)
    X = rng.normal(size=(n, d)) + shift * z[:, None] * np.linspace(1, -1, d)
    X[:, 0] += 0.5 * (z == 1) * X[:, 1] ** 2  # group difference that is not only in the mean
    return X, z


def _group_mean_gap(E, z):
    means = np.array([E[z == g].mean(axis=0) for g in np.unique(z)])
    return np.abs(means - means.mean(axis=0)).max()


def _same_up_to_sign(A, B):
    """max |A − B·diag(±1)|, with the signs chosen column-wise."""
    signs = np.sign(np.sum(A * B, axis=0))
    signs[signs == 0] = 1.0
    return np.abs(A - B * signs).max()


def _explicit_fair_kpca(K, z, k, center):
    """Independent dense computation: explicit features from a full eigendecomposition of K,
    then linear fair PCA (null space of ZᵀY, eigenvectors of the projected scatter)."""
    s, V = linalg.eigh(K)
    keep = s > 1e-10 * s.max()
    Y = V[:, keep] * np.sqrt(s[keep])  # rows are features with Y Yᵀ = K
    if center:
        Y = Y - Y.mean(axis=0)
    Z = (z[:, None] == np.unique(z)[None, :]).astype(float)
    Z -= Z.mean(axis=0)
    R = linalg.null_space((Y.T @ Z).T)
    w, Q = linalg.eigh(R.T @ Y.T @ Y @ R)
    U = R @ Q[:, ::-1][:, :k]
    return Y @ U, w[::-1][:k]


# ----------------------------------------------------------------------------------- exactness
@pytest.mark.parametrize("m", [2, 3, 5])
@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_exact_solver_matches_algorithm3(m, center, seed):
    X, z = _data(n=150, m=m, seed=seed)
    kw = dict(n_components=4, kernel="rbf", gamma=0.15, center=center, random_state=0)
    exact = FairKernelPCA(**kw).fit(X, sensitive_features=z)
    alg3 = FairKernelPCA(eigen_solver="generalized", **kw).fit(X, sensitive_features=z)
    # Algorithm 3 on the range of RᵀKR (no ridge): the same eigenpairs to rounding.
    assert subspace_sine(exact.transform(X), alg3.transform(X)) <= 1e-9
    np.testing.assert_allclose(exact.eigenvalues_, alg3.eigenvalues_, rtol=1e-10)
    X_new = np.random.default_rng(7).normal(size=(30, X.shape[1]))
    assert _same_up_to_sign(exact.transform(X_new), alg3.transform(X_new)) < 1e-8


@pytest.mark.parametrize("kernel", [dict(kernel="linear"), dict(kernel="poly", degree=2)])
@pytest.mark.parametrize("center", [True, False])
def test_algorithm3_on_rank_deficient_kernel(kernel, center):
    # A low-rank K makes RᵀKR singular; restricted to its range Algorithm 3 stays exact.
    X, z = _data(n=100, d=4)
    exact = FairKernelPCA(3, center=center, **kernel).fit(X, sensitive_features=z)
    alg3 = FairKernelPCA(3, eigen_solver="generalized", center=center, **kernel).fit(
        X, sensitive_features=z)
    assert subspace_sine(exact.transform(X), alg3.transform(X)) < 1e-9
    np.testing.assert_allclose(exact.eigenvalues_, alg3.eigenvalues_, rtol=1e-10)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("m", [2, 4])
def test_exact_solver_matches_independent_explicit_feature_computation(center, m):
    X, z = _data(n=80, m=m, seed=3)
    K = rbf_kernel(X, gamma=0.3)
    E_ref, lam_ref = _explicit_fair_kpca(K, z, 5, center)
    est = FairKernelPCA(5, kernel="rbf", gamma=0.3, center=center).fit(X, sensitive_features=z)
    np.testing.assert_allclose(est.eigenvalues_, lam_ref, rtol=1e-8)
    assert _same_up_to_sign(est.fit_transform(X, sensitive_features=z), E_ref) < 1e-8


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_partial_solvers_agree_with_dense(solver):
    X, z = _data(n=200, m=3, seed=4)
    kw = dict(n_components=3, gamma=0.1, random_state=0)
    ref = FairKernelPCA(eigen_solver="dense", **kw).fit(X, sensitive_features=z)
    est = FairKernelPCA(eigen_solver=solver, **kw).fit(X, sensitive_features=z)
    np.testing.assert_allclose(est.eigenvalues_, ref.eigenvalues_, rtol=1e-6)
    assert subspace_sine(est.transform(X), ref.transform(X)) < 1e-5


# --------------------------------------------------------------------------------- constraint
@pytest.mark.parametrize("params", KERNELS, ids=lambda p: p["kernel"])
@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("m", [2, 3])
def test_training_embedding_has_equal_group_means(params, center, m):
    X, z = _data(n=150, m=m, seed=5)
    est = FairKernelPCA(3, center=center, **params)
    E = est.fit_transform(X, sensitive_features=z)
    assert _group_mean_gap(E, z) <= 1e-10
    assert _group_mean_gap(est.transform(X), z) <= 1e-10
    if center:
        assert np.abs(E.mean(axis=0)).max() <= 1e-10
    assert np.abs(est.eigenvalues_).min() > 0


def test_equal_group_means_for_several_attributes():
    X, z = _data(n=180, m=3, seed=6)
    z2 = np.random.default_rng(0).integers(0, 2, X.shape[0])
    S = pd.DataFrame({"a": z, "b": np.where(z2 == 1, "x", "y")})
    E = FairKernelPCA(4, gamma=0.2).fit_transform(X, sensitive_features=S)
    assert _group_mean_gap(E, z) <= 1e-10
    assert _group_mean_gap(E, z2) <= 1e-10


def test_unconstrained_embedding_does_not_have_equal_group_means():
    # the constraint is doing the work: plain kernel PCA separates the groups
    X, z = _data(n=150, seed=5)
    with pytest.warns(UnconstrainedFallbackWarning):
        E = FairKernelPCA(3, gamma=0.2).fit_transform(X)
    assert _group_mean_gap(E, z) > 1e-2


def test_fair_variance_is_at_most_unconstrained_variance():
    X, z = _data(n=150, seed=8)
    fair = FairKernelPCA(5, gamma=0.2).fit(X, sensitive_features=z)
    with pytest.warns(UnconstrainedFallbackWarning):
        plain = FairKernelPCA(5, gamma=0.2).fit(X)
    # Cauchy interlacing: projecting out r directions cannot increase any eigenvalue
    assert np.all(fair.eigenvalues_ <= plain.eigenvalues_ * (1 + 1e-12))


# ------------------------------------------------------------------------------ equivalences
@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("m", [2, 3])
def test_linear_kernel_equals_fair_pca(center, m):
    pca = pytest.importorskip("fairlab.pca")
    X, z = _data(n=120, d=6, m=m, seed=9)
    X_new = np.random.default_rng(1).normal(size=(25, 6))
    k = 6 - (m - 1)
    lin = FairKernelPCA(k, kernel="linear", center=center).fit(X, sensitive_features=z)
    fpca = pca.FairPCA(k, center=center).fit(X, sensitive_features=z)
    assert _same_up_to_sign(lin.transform(X), fpca.transform(X)) < 1e-9
    assert _same_up_to_sign(lin.transform(X_new), fpca.transform(X_new)) < 1e-9


@pytest.mark.parametrize(
    "params",
    [dict(kernel="rbf", gamma=0.2), dict(kernel="poly", gamma=0.3), dict(kernel="cosine")],
    ids=lambda p: p["kernel"],
)
@pytest.mark.parametrize("solver", ["dense", "arpack"])
def test_without_sensitive_features_equals_sklearn_kernel_pca(params, solver):
    X, _ = _data(n=100, seed=10)
    X_new = np.random.default_rng(2).normal(size=(20, X.shape[1]))
    with pytest.warns(UnconstrainedFallbackWarning, match="kernel PCA"):
        ours = FairKernelPCA(4, eigen_solver=solver, random_state=0, **params)
        E = ours.fit_transform(X)
    ref = KernelPCA(4, eigen_solver=solver, random_state=0, **params)
    E_ref = ref.fit_transform(X)
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-10)
    assert _same_up_to_sign(E, E_ref) < 1e-10
    assert _same_up_to_sign(ours.transform(X_new), ref.transform(X_new)) < 1e-10


def test_gamma_none_is_one_over_d_times_variance():
    X, z = _data(n=60, seed=11)
    est = FairKernelPCA(2).fit(X, sensitive_features=z)
    assert est.gamma_ == pytest.approx(1.0 / (X.shape[1] * X.var()))
    explicit = FairKernelPCA(2, gamma=1.0 / (X.shape[1] * X.var())).fit(X, sensitive_features=z)
    np.testing.assert_allclose(est.transform(X), explicit.transform(X), atol=1e-12)


@pytest.mark.parametrize("center", [True, False])
def test_precomputed_kernel_equals_rbf(center):
    X, z = _data(n=90, m=3, seed=12)
    X_new = np.random.default_rng(3).normal(size=(15, X.shape[1]))
    rbf = FairKernelPCA(3, gamma=0.25, center=center).fit(X, sensitive_features=z)
    pre = FairKernelPCA(3, kernel="precomputed", center=center)
    pre.fit(rbf_kernel(X, gamma=0.25), sensitive_features=z)
    np.testing.assert_allclose(pre.transform(rbf_kernel(X_new, X, gamma=0.25)),
                               rbf.transform(X_new), atol=1e-10)
    assert pre.__sklearn_tags__().input_tags.pairwise


def test_n_components_none_keeps_the_positive_eigenvalues():
    # linear kernel in d = 5 with m = 3 groups: the fair subspace has dimension 5 − 2 = 3
    X, z = _data(n=60, d=5, m=3, seed=13)
    est = FairKernelPCA(kernel="linear").fit(X, sensitive_features=z)
    assert est.n_components_ == 3
    assert est.transform(X).shape == (60, 3)
    # rbf: full rank, n − (m − 1) − 1 components
    est = FairKernelPCA(gamma=0.5).fit(X, sensitive_features=z)
    assert est.n_components_ == 60 - 2 - 1


def test_rank_deficient_request_gives_zero_columns_like_sklearn():
    X, z = _data(n=60, d=3, seed=14)
    est = FairKernelPCA(5, kernel="linear").fit(X, sensitive_features=z)
    assert np.all(est.eigenvalues_[2:] == 0)
    np.testing.assert_array_equal(est.transform(X)[:, 2:], 0.0)


# ---------------------------------------------------------------------------------- Nyström
def test_nystroem_with_all_landmarks_equals_exact():
    X, z = _data(n=150, m=3, seed=15)
    X_new = np.random.default_rng(4).normal(size=(20, X.shape[1]))
    for center in (True, False):
        kw = dict(n_components=4, gamma=0.2, center=center, random_state=0)
        exact = FairKernelPCA(**kw).fit(X, sensitive_features=z)
        nys = FairKernelPCA(approximation="nystroem", n_landmarks=150, **kw)
        E = nys.fit_transform(X, sensitive_features=z)
        assert _same_up_to_sign(E, exact.transform(X)) < 1e-8
        assert _same_up_to_sign(nys.transform(X_new), exact.transform(X_new)) < 1e-8
        np.testing.assert_allclose(nys.eigenvalues_, exact.eigenvalues_, rtol=1e-8)


def test_nystroem_approaches_exact_as_landmarks_grow():
    X, z = _data(n=300, seed=16)
    exact = FairKernelPCA(3, gamma=0.1).fit(X, sensitive_features=z)
    errors = []
    for n_landmarks in (30, 100, 250, 300):
        nys = FairKernelPCA(3, gamma=0.1, approximation="nystroem", n_landmarks=n_landmarks,
                            random_state=0)
        E = nys.fit_transform(X, sensitive_features=z)
        assert _group_mean_gap(E, z) <= 1e-10  # the constraint holds exactly at every size
        errors.append(subspace_sine(E, exact.transform(X)))
    assert errors[0] > errors[1] > errors[2] > errors[3]
    assert errors[-1] < 1e-6


def test_nystroem_precomputed_and_seeded():
    X, z = _data(n=100, seed=17)
    K = rbf_kernel(X, gamma=0.2)
    a = FairKernelPCA(3, kernel="precomputed", approximation="nystroem", n_landmarks=40,
                      random_state=1).fit(K, sensitive_features=z)
    b = FairKernelPCA(3, gamma=0.2, approximation="nystroem", n_landmarks=40,
                      random_state=1).fit(X, sensitive_features=z)
    np.testing.assert_array_equal(a.landmark_indices_, b.landmark_indices_)
    np.testing.assert_allclose(a.transform(K), b.transform(X), atol=1e-10)


# ---------------------------------------------------------------------------- sklearn plumbing
def test_pandas_output_feature_names_and_pipeline_routing():
    X, z = _data(n=80, seed=18)
    Xdf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    est = FairKernelPCA(2, gamma=0.2).set_output(transform="pandas")
    out = est.fit_transform(Xdf, sensitive_features=z)
    assert list(out.columns) == ["fairkernelpca0", "fairkernelpca1"]
    assert list(est.feature_names_in_) == list(Xdf.columns)
    y = (X[:, 0] > 0).astype(int)
    with config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            FairKernelPCA(2, gamma=0.2).set_fit_request(sensitive_features=True),
            LogisticRegression(),
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnconstrainedFallbackWarning)
            pipe.fit(X, y, sensitive_features=z)
    E = pipe[0].transform(X)
    assert _group_mean_gap(E, z) <= 1e-10


def _expected_failed_checks(estimator):
    return {}


@pytest.mark.filterwarnings("ignore::fairlab.UnconstrainedFallbackWarning")
@parametrize_with_checks(
    [
        FairKernelPCA(),
        FairKernelPCA(n_components=2, kernel="linear", random_state=0),
        FairKernelPCA(n_components=2, eigen_solver="generalized", random_state=0),
        FairKernelPCA(n_components=2, approximation="nystroem", n_landmarks=10, random_state=0),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


# ----------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "params, X_kind, sensitive, error, match",
    [
        (dict(kernel="laplacian"), "X", "z", ValueError, "'kernel' parameter"),
        (dict(kernel="precomputed"), "X", "z", ValueError, "square"),
        (dict(kernel="precomputed"), "asym", "z", ValueError, "not symmetric"),
        (dict(n_components=50 - 2 + 1 + 1, center=False), "X", "z3", ValueError,
         "n_components=50 is too large"),
        (dict(n_components=50 - 3 + 2), "X", "z3", ValueError, "at most 48 components"),
        (dict(n_components=0), "X", "z", ValueError, "'n_components' parameter"),
        (dict(gamma=-1.0), "X", "z", ValueError, "'gamma' parameter"),
        (dict(eigen_solver="lobpcg"), "X", "z", ValueError, "'eigen_solver' parameter"),
        (dict(approximation="rff"), "X", "z", ValueError, "'approximation' parameter"),
        (dict(approximation="nystroem", n_landmarks=60), "X", "z", ValueError,
         "n_landmarks=60 exceeds"),
        (dict(n_components=9, approximation="nystroem", n_landmarks=8), "X", "z", ValueError,
         "Increase n_landmarks"),
        (dict(), "X", "one_group", ValueError, "single group"),
        (dict(), "X", "short", ValueError, "entries but X has 50 rows"),
        (dict(), "X", "nan_group", ValueError, "missing values"),
        (dict(), "nan", "z", ValueError, "NaN"),
        (dict(), "text", "z", ValueError, "could not convert"),
        (dict(), "X", "one_row_group", ValueError, "has 1 row"),
        (dict(kernel="precomputed"), "distances", "z", ValueError, "not positive semi-definite"),
        (dict(kernel="precomputed"), "indefinite", "z", ValueError,
         "not positive semi-definite"),
    ],
)
def test_bad_inputs_are_refused(params, X_kind, sensitive, error, match):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    data = {
        "X": X,
        "asym": rng.normal(size=(50, 50)),
        "nan": np.where(np.arange(200).reshape(50, 4) == 7, np.nan, X),
        "text": np.full((50, 4), "a", dtype=object),
        # squared Euclidean distances: zero diagonal, positive off-diagonal
        "distances": ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1),
        # passes the O(n²) tests (unit diagonal, |K_ij| <= 1) but has negative eigenvalues
        "indefinite": np.eye(50) + 0.9 * (np.eye(50, k=1) + np.eye(50, k=-1))
        - 0.9 * (np.eye(50, k=2) + np.eye(50, k=-2)),
    }[X_kind]
    z = np.arange(50) % 2
    s = {
        "z": z,
        "z3": np.arange(50) % 3,
        "one_group": np.zeros(50),
        "short": z[:-1],
        "nan_group": np.where(np.arange(50) == 3, np.nan, z.astype(float)),
        "one_row_group": np.r_[2, z[1:]],  # FairPCA refuses it too
    }[sensitive]
    with pytest.raises(error, match=match):
        FairKernelPCA(**params).fit(data, sensitive_features=s)


def test_n_components_bound_is_n_minus_m_plus_one():
    X, z = _data(n=30, m=3, seed=19)
    uncentred = FairKernelPCA(30 - 3 + 1, center=False, gamma=0.5).fit(X, sensitive_features=z)
    assert np.all(uncentred.eigenvalues_ > 0)  # K is full rank: all n − m + 1 carry variance
    centred = FairKernelPCA(30 - 3 + 1, gamma=0.5)
    E = centred.fit_transform(X, sensitive_features=z)
    # centring removes one more direction: the last component is a zero column
    assert np.all(centred.eigenvalues_[:-1] > 0) and centred.eigenvalues_[-1] == 0
    np.testing.assert_array_equal(E[:, -1], 0.0)
    for center in (True, False):
        with pytest.raises(ValueError, match="at most 28 components"):
            FairKernelPCA(29, center=center, gamma=0.5).fit(X, sensitive_features=z)


def test_transform_errors():
    X, z = _data(n=40, seed=20)
    with pytest.raises(NotFittedError):
        FairKernelPCA(2).transform(X)
    est = FairKernelPCA(2).fit(X, sensitive_features=z)
    with pytest.raises(ValueError, match="features"):
        est.transform(X[:, :3])
    pre = FairKernelPCA(2, kernel="precomputed").fit(rbf_kernel(X), sensitive_features=z)
    with pytest.raises(ValueError, match=r"shape \(n_new, 40\)"):
        pre.transform(rbf_kernel(X[:5], X[:30]))


@pytest.mark.parametrize(
    "params",
    [dict(eigen_solver="arpack", n_components=3), dict(eigen_solver="randomized", n_components=3),
     dict(approximation="nystroem", n_landmarks=40, n_components=3)],
)
def test_random_state_none_is_a_fixed_seed(params):
    X, z = _data(n=120, seed=21)
    runs = [FairKernelPCA(**params).fit(X, sensitive_features=z).transform(X) for _ in range(2)]
    np.random.seed(12345)  # noqa: NPY002 -- the global generator must play no part
    runs.append(FairKernelPCA(**params).fit(X, sensitive_features=z).transform(X))
    np.testing.assert_array_equal(runs[0], runs[1])
    np.testing.assert_array_equal(runs[0], runs[2])


def test_nystroem_with_repeated_landmarks_equals_exact():
    # every point twice: the landmark Gram matrix is singular by construction
    X, z = _data(n=40, seed=22)
    X, z = np.vstack([X, X]), np.r_[z, z]
    kw = dict(n_components=3, gamma=0.3)
    exact = FairKernelPCA(**kw).fit(X, sensitive_features=z)
    nys = FairKernelPCA(**kw, approximation="nystroem", n_landmarks=80).fit(
        X, sensitive_features=z)
    np.testing.assert_allclose(nys.eigenvalues_, exact.eigenvalues_, rtol=1e-9)
    assert subspace_sine(nys.transform(X), exact.transform(X)) < 1e-8


# ------------------------------------------------------------- partial solver, adversarially
@pytest.mark.parametrize("batch", range(4))
def test_arpack_operator_route_on_adversarial_instances(batch):
    """The ARPACK route (G applied as an operator, K centred in place, the rank-m update never
    formed) against the independent dense reference of tests/test_adversarial.py, on its
    adversarial fair-kernel-PCA instances (offsets, scales, tiny groups, collinear attributes,
    rank-deficient kernels, float32), with the same tolerances."""
    import dataclasses

    from test_adversarial import check_fair_kernel_pca, run_batch

    def check(inst, report):
        n = np.asarray(inst.X).shape[0]
        if inst.params["n_components"] >= n - 1:
            return  # the operator route needs k < n − 1 (the dense solver takes over)
        inst = dataclasses.replace(inst, params={**inst.params, "eigen_solver": "arpack"})
        check_fair_kernel_pca(inst, report, generalized=False)

    run_batch("fair_kernel_pca", batch, check).assert_ok()


def test_default_solver_at_large_n_matches_dense():
    """n > 500, k ≪ n: the default (operator) route equals the dense solver."""
    X, z = _data(n=700, m=3, seed=11)
    X = X * 10.0 + 100.0
    kw = dict(n_components=4, gamma=0.02)
    a = FairKernelPCA(**kw).fit(X, sensitive_features=z)
    b = FairKernelPCA(eigen_solver="dense", **kw).fit(X, sensitive_features=z)
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=1e-10)
    assert _same_up_to_sign(a.transform(X), b.transform(X)) < 1e-8
    assert _group_mean_gap(a.transform(X), z) <= 1e-10


# ------------------------------------------------------------ rounding floor of the components ---
def _floor_data(eps, seed=0, n=60):
    """Linear kernel: two unit-scale columns (one shifted by the group), one of scale ``eps``."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    X = np.column_stack([3 * rng.normal(size=n) + 2.0 * s, 3 * rng.normal(size=n),
                         eps * rng.normal(size=n)]) + 40.0
    return X, s


# The linear kernel's Gram matrix XXᵀ, precomputed: the Gram route and its floor
# (kernel="linear" itself is solved on X, without a Gram matrix: see the test after this one)
GRAM_LINEAR = dict(kernel="precomputed")


def documented_floor(X, s):
    """δ_G/1e-6 with δ_G = n·unit·(1 + 2√(tr K̃/μ_min)), unit = eps·max|K| (Gram route)."""
    n = len(X)
    K = X @ X.T
    H = np.eye(n) - 1.0 / n
    Kt = H @ K @ H
    z = (s == s[0]).astype(float)
    z -= z.mean()
    z /= np.linalg.norm(z)
    mu = float(z @ Kt @ z)
    unit = np.finfo(float).eps * np.abs(K).max()
    return n * unit * (1 + 2 * np.sqrt(np.trace(Kt) / mu)) / 1e-6


@pytest.mark.parametrize("seed", range(5))
def test_component_floor_both_sides(seed):
    # The small direction has eigenvalue ≈ n·eps²: 8× above the floor it is a component, fair
    # at its own scale; 12× below it is dropped — a zero column, not counted with
    # n_components=None (the previous floor, 1e-12·λ₁, kept it).  Offset 40: the uncentred
    # linear kernel's entries carry rounding eps·max|K| that centring does not remove.
    for eps, kept in ((1e-2, True), (1e-3, False)):
        X, s = _floor_data(eps, seed)
        floor = documented_floor(X, s)
        small = np.var(X[:, 2]) * len(X)  # ≈ the small direction's eigenvalue
        assert (small > 3 * floor) if kept else (small < floor / 3), (small, floor)
        est = FairKernelPCA(3, **GRAM_LINEAR).fit(X @ X.T, sensitive_features=s)
        E = est.transform(X @ X.T)
        norms = np.linalg.norm(E, axis=0)
        assert (norms[1] > 0) == kept, (eps, est.eigenvalues_)  # 3 − 1 constraint = 2 axes
        Z = np.column_stack([s == g for g in (0, 1)]).astype(float)
        Z -= Z.mean(0)
        for j in np.flatnonzero(norms > 0):
            rel = np.linalg.norm(Z.T @ E[:, j]) / (np.linalg.norm(Z) * norms[j])
            assert rel <= 1e-6, (eps, j, rel)
        auto = FairKernelPCA(None, **GRAM_LINEAR).fit(X @ X.T, sensitive_features=s)
        assert auto.n_components_ == (2 if kept else 1)


@pytest.mark.parametrize("seed", range(5))
def test_linear_kernel_keeps_what_the_gram_floor_drops(seed):
    # The same data with kernel="linear": solved on X (thin SVD of the projected, centred
    # data), the small direction (eigenvalue ≈ n·1e-6, 1e-7 of the largest) is resolved to
    # full accuracy and fair at its own scale, so it is a component on both sides.
    for eps in (1e-2, 1e-3):
        X, s = _floor_data(eps, seed)
        est = FairKernelPCA(3, kernel="linear").fit(X, sensitive_features=s)
        E = est.transform(X)
        Xc = X - X.mean(axis=0)
        z = (s == s[0]).astype(float) - np.mean(s == s[0])
        a = Xc.T @ z
        R = linalg.null_space(a[None, :])  # the fair directions, independently
        lam_ref = linalg.svd(Xc @ R, compute_uv=False) ** 2
        np.testing.assert_allclose(est.eigenvalues_[:2], lam_ref, rtol=1e-8)
        assert est.eigenvalues_[2] == 0.0
        for j in range(2):
            assert np.abs(z @ E[:, j]) <= 1e-9 * np.linalg.norm(z) * np.linalg.norm(E[:, j])
        assert FairKernelPCA(None, kernel="linear").fit(
            X, sensitive_features=s).n_components_ == 2


def test_rounding_level_components_are_dropped_on_adversarial_instances():
    # An eigenvalue of 8e-10 beside one of 76 used to be kept, its group means apart by up to
    # 1e-3 of its norm: every kept component is now fair at its own scale.
    from tests.adversarial import instances

    for inst in instances("fair_kernel_pca", 60, seed=3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            try:
                est = FairKernelPCA(**inst.params).fit(inst.X, sensitive_features=inst.sensitive)
            except ValueError as exc:  # nothing left above the floor (k=None): said so
                assert "no component carries variance" in str(exc)
                continue
        E = est.eigenvectors_ * np.sqrt(est.eigenvalues_)
        for codes in inst.info["codes"]:
            Z = (codes[:, None] == np.unique(codes)[None, :]).astype(float)
            Z -= Z.mean(0)
            norms = np.linalg.norm(E, axis=0)
            for j in np.flatnonzero(norms > 0):
                rel = np.linalg.norm(Z.T @ E[:, j]) / (np.linalg.norm(Z) * norms[j])
                assert rel <= 1e-5, f"{inst.id} component {j}: {rel:.1e}"


@pytest.mark.parametrize("kernel, extra", [("sigmoid", {}), ("poly", {"coef0": -1.0})])
def test_indefinite_kernel_warns(kernel, extra):
    rng = np.random.default_rng(0)
    X, s = rng.normal(size=(50, 3)), rng.integers(0, 2, 50)
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        FairKernelPCA(3, kernel=kernel, **extra).fit(X, sensitive_features=s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # PSD kernels stay quiet
        FairKernelPCA(3, kernel="poly", coef0=0.0).fit(X, sensitive_features=s)


@pytest.mark.parametrize("estimator, with_y", [
    (lambda kernel, extra: KernelFairDR(2, kernel=kernel), False),
    (lambda kernel, extra: KernelFairPLS(1, kernel=kernel, **extra), True),
], ids=["KernelFairDR", "KernelFairPLS"])
def test_other_kernel_estimators_warn_on_an_indefinite_kernel(estimator, with_y):
    rng = np.random.default_rng(1)
    X, s = rng.normal(size=(50, 3)), rng.integers(0, 2, 50)
    args = (X, X[:, 0]) if with_y else (X,)
    with pytest.warns(UserWarning, match="not positive semi-definite"):
        estimator("sigmoid", {}).fit(*args, sensitive_features=s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        estimator("rbf", {}).fit(*args, sensitive_features=s)


# --------------------------------------------- polynomial kernel far from the origin (centred)
def _decimal_fair_poly_eigenvalues(X, z, gamma, coef0, degree):
    """Eigenvalues of G = K̃ − K̃z̃(z̃ᵀK̃z̃)⁻¹z̃ᵀK̃ for (γxᵀy + c₀)^p, in 60-digit decimals.

    Independent of fairlab and of floating point: K from the exact inputs, double-centred,
    the constraint of the exact centred indicator z̃, Jacobi rotations to 1e-45·‖G‖.
    """
    from decimal import Decimal, localcontext

    from test_adversarial import _dec_jacobi

    with localcontext() as ctx:
        ctx.prec = 60
        n = len(X)
        L = [[Decimal(float(v)) for v in row] for row in X]
        g, c0 = Decimal(float(gamma)), Decimal(float(coef0))
        K = [[(g * sum((a * b for a, b in zip(L[i], L[j])), Decimal(0)) + c0) ** degree
              for j in range(n)] for i in range(n)]
        rows = [sum(row, Decimal(0)) / n for row in K]
        grand = sum(rows, Decimal(0)) / n
        Kc = [[K[i][j] - rows[i] - rows[j] + grand for j in range(n)] for i in range(n)]
        zs = [Decimal(int(v)) for v in z]
        zm = sum(zs, Decimal(0)) / n
        zc = [v - zm for v in zs]
        Kz = [sum((Kc[i][j] * zc[j] for j in range(n)), Decimal(0)) for i in range(n)]
        zKz = sum((zc[i] * Kz[i] for i in range(n)), Decimal(0))
        G = [[Kc[i][j] - Kz[i] * Kz[j] / zKz for j in range(n)] for i in range(n)]
        w, _ = _dec_jacobi(G, sum(v * v for row in G for v in row) * Decimal(10) ** -90)
        return np.array([float(v) for v in w])


@pytest.mark.parametrize("offset", [1e2, 1e4, 1e6])
@pytest.mark.parametrize("degree", [2, 3])
def test_poly_kernel_far_from_the_origin_is_centred_without_cancellation(offset, degree):
    # (γxᵀy + c₀)^p on X + offset: the terms that centring removes grow like offset^{2p}; they
    # are never formed (_poly_centred_terms).  Every kept component equals the 60-digit
    # reference to 1e-8 relative, and every component above 1e-6·λ₁ is kept (before: at an
    # offset of 1e6 every eigenvalue was 0, at 1e2 the third was off by 1.4e-8).
    rng = np.random.default_rng(0)
    n = 14
    z = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, 3)) + offset
    X[:, 0] += z
    est = FairKernelPCA(3, kernel="poly", degree=degree, coef0=1.0).fit(X, sensitive_features=z)
    ref = _decimal_fair_poly_eigenvalues(X, z, est.gamma_, 1.0, degree)[:3]
    kept = est.eigenvalues_ > 0
    assert np.all(kept[ref >= 1e-6 * ref[0]]), (est.eigenvalues_, ref)
    np.testing.assert_allclose(est.eigenvalues_[kept], ref[kept], rtol=1e-8)
    E = est.transform(X)
    np.testing.assert_allclose(np.sum(E**2, axis=0), est.eigenvalues_, rtol=1e-9,
                               atol=1e-12 * ref[0])
    assert _group_mean_gap(E[:, kept], z) <= 1e-6 * np.sqrt(ref[0])


@pytest.mark.parametrize("rank", [1, 2])
def test_nystroem_map_keeps_the_rank_of_a_low_rank_landmark_gram(rank):
    """W = BBᵀ of rank 1 or 2 on distinct landmarks: the eigenvalues beyond the rank are rounding
    (below L·eps·λ_max) and dropped, so M = W^{-1/2} has ``rank`` columns with MᵀWM = I; a zero
    W has none."""
    from fairlab._core.nystroem import nystroem_map

    rng = np.random.default_rng(rank)
    B = rng.normal(size=(12, rank))
    W = B @ B.T
    M = nystroem_map(W)
    assert M.shape == (12, rank)
    np.testing.assert_allclose(M.T @ W @ M, np.eye(rank), atol=1e-10)
    assert nystroem_map(np.zeros((4, 4))).shape == (4, 0)
