"""Tests of Fair Kernel Learning (Pérez-Suay et al.): FLR and FKR (fairlab.hsic_regression), FDR
and KFDR (fairlab.hsic_reduction)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import linalg
from sklearn import config_context
from sklearn.decomposition import PCA, KernelPCA
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairDR, FairKernelRegression, FairLinearRegression, KernelFairDR
from fairlab._core.linalg import subspace_sine
from fairlab._core.validation import UnconstrainedFallbackWarning
from fairlab.metrics import hsic

ignore_fallback = pytest.mark.filterwarnings(
    "ignore::fairlab._core.validation.UnconstrainedFallbackWarning"
)


def _H(n):
    return np.eye(n) - 1.0 / n


def _problem(seed, n=50, d=4, q=1, targets=None):
    """X correlated with a continuous S (n × q), y depending on both."""
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(n, q))
    X = rng.normal(size=(n, d))
    X[:, :q] += 1.5 * S
    w = rng.normal(size=d)
    y = X @ w + S.sum(axis=1) ** 2 + 0.1 * rng.normal(size=n)
    if targets:
        y = np.column_stack([y] + [X @ rng.normal(size=d) for _ in range(targets - 1)])
    return X, y, (S[:, 0] if q == 1 else S)


# --------------------------------------------------------------------------------------
# FLR
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [1e-3, 1.0, 30.0])
@pytest.mark.parametrize("targets", [None, 3])
def test_flr_mu0_equals_ridge(alpha, targets):
    X, y, s = _problem(0, targets=targets)
    ours = FairLinearRegression(alpha=alpha, mu=0.0).fit(X, y, sensitive_features=s)
    ref = Ridge(alpha=alpha).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-10, atol=1e-12)
    assert np.shape(ours.coef_) == np.shape(ref.coef_)


def test_flr_alpha0_rank_deficient_is_min_norm_least_squares():
    X, y, s = _problem(1)
    X = np.column_stack([X, X[:, 0]])  # duplicated column: X̃ᵀX̃ singular
    ours = FairLinearRegression(alpha=0.0).fit(X, y, sensitive_features=s)
    ref = LinearRegression().fit(X, y)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-8)


def test_flr_none_is_ridge_with_warning():
    X, y, _ = _problem(2)
    with pytest.warns(UnconstrainedFallbackWarning, match="ridge regression"):
        ours = FairLinearRegression(alpha=2.0, mu=1e6).fit(X, y)
    np.testing.assert_allclose(ours.coef_, Ridge(alpha=2.0).fit(X, y).coef_, rtol=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_flr_is_the_minimiser_of_its_loss(seed):
    """Gradient of ‖Ỹ − X̃W‖² + λ‖W‖² + μ/n²‖S̃ᵀX̃W‖² vanishes at the fitted W (eq. (2))."""
    X, y, S = _problem(seed, q=2)
    n, lam, mu = len(y), 0.7, 3.0 * len(y) ** 2
    W = FairLinearRegression(alpha=lam, mu=mu).fit(X, y, sensitive_features=S).coef_
    Xc, yc, Sc = X - X.mean(0), y - y.mean(), S - S.mean(0)
    grad = -Xc.T @ (yc - Xc @ W) + lam * W + mu / n**2 * Xc.T @ Sc @ (Sc.T @ (Xc @ W))
    assert np.linalg.norm(grad) < 1e-9 * np.linalg.norm(Xc.T @ yc)


def test_flr_large_mu_removes_linear_correlation():
    X, y, S = _problem(3, q=2)
    m = FairLinearRegression(alpha=1.0, mu=1e12).fit(X, y, sensitive_features=S)
    pred = m.predict(X)
    Sc = S - S.mean(0)
    scale = np.linalg.norm(pred) * np.linalg.norm(Sc)
    assert np.abs(Sc.T @ (pred - pred.mean())).max() < 1e-6 * scale


def test_categorical_sensitive_equals_its_one_hot():
    X, y, _ = _problem(4, n=60)
    rng = np.random.default_rng(4)
    groups = rng.choice(np.array(["a", "b", "c"]), size=60)
    onehot = (groups[:, None] == np.array(["a", "b", "c"])).astype(float)
    for est in (FairLinearRegression(mu=500.0), FairKernelRegression(mu=500.0, gamma=0.3)):
        a = est.fit(X, y, sensitive_features=groups).predict(X)
        b = est.fit(X, y, sensitive_features=onehot).predict(X)
        c = est.fit(X, y, sensitive_features=pd.DataFrame({"g": groups})).predict(X)
        np.testing.assert_allclose(a, b, atol=1e-10)
        np.testing.assert_allclose(a, c, atol=1e-10)


# --------------------------------------------------------------------------------------
# FKR
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("targets", [None, 2])
def test_fkr_mu0_equals_kernel_ridge_on_centred_kernel(targets):
    """μ = 0: KernelRidge fitted on K̃ = HKH and ỹ, predicting with the train-centred k̃(x) + ȳ."""
    X, y, s = _problem(5, targets=targets)
    Xt = np.random.default_rng(5).normal(size=(9, X.shape[1]))
    gamma, lam = 0.2, 0.3
    ours = FairKernelRegression(alpha=lam, gamma=gamma).fit(X, y, sensitive_features=s)
    K, Kt = rbf_kernel(X, gamma=gamma), rbf_kernel(Xt, X, gamma=gamma)
    n = len(X)
    H = _H(n)
    Kt_c = Kt - Kt.mean(1, keepdims=True) - K.mean(0)[None, :] + K.mean()
    ref = KernelRidge(alpha=lam, kernel="precomputed").fit(H @ K @ H, y - y.mean(0))
    np.testing.assert_allclose(ours.predict(Xt), ref.predict(Kt_c) + y.mean(0),
                               rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, rtol=1e-9, atol=1e-10)


def test_fkr_none_is_kernel_ridge_with_warning():
    X, y, _ = _problem(6)
    with pytest.warns(UnconstrainedFallbackWarning, match="kernel ridge"):
        a = FairKernelRegression(mu=1e5, gamma=0.5).fit(X, y)
    b = FairKernelRegression(mu=0.0, gamma=0.5).fit(X, y, sensitive_features=X[:, 0])
    np.testing.assert_allclose(a.predict(X), b.predict(X), atol=1e-12)


@pytest.mark.parametrize("mu", [0.0, 10.0, 1e3, 1e7])
def test_fkr_linear_kernels_equal_flr(mu):
    X, y, S = _problem(7, q=2, targets=2)
    Xt = np.random.default_rng(7).normal(size=(11, X.shape[1]))
    fkr = FairKernelRegression(alpha=0.5, mu=mu, kernel="linear", sensitive_kernel="linear")
    flr = FairLinearRegression(alpha=0.5, mu=mu)
    a = fkr.fit(X, y, sensitive_features=S).predict(Xt)
    b = flr.fit(X, y, sensitive_features=S).predict(Xt)
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


def test_fkr_solves_the_normal_equations_and_eq3_order_does_not():
    """The loss's stationarity K̃[(K̃ + λI + tK̃_SK̃)Λ − Ỹ] = 0 holds; eq. (3)'s K̃K̃_S fails it."""
    X, y, s = _problem(8)
    n, lam, mu = len(y), 0.2, 1e3
    m = FairKernelRegression(alpha=lam, mu=mu, gamma=0.3, sensitive_gamma=0.5)
    Lam = m.fit(X, y, sensitive_features=s).dual_coef_
    H = _H(n)
    K = H @ rbf_kernel(X, gamma=0.3) @ H
    Ks = H @ rbf_kernel(s[:, None], gamma=0.5) @ H
    yc = y - y.mean()
    t = mu / n**2

    def grad(L):
        return -K @ (yc - K @ L) + lam * K @ L + t * K @ Ks @ K @ L

    assert np.linalg.norm(grad(Lam)) < 1e-9 * np.linalg.norm(K @ yc)
    printed = np.linalg.solve(K + lam * np.eye(n) + t * K @ Ks, yc)
    assert np.linalg.norm(grad(printed)) > 1e-3 * np.linalg.norm(K @ yc)


def test_fkr_out_of_sample_centring_matches_training():
    """predict(X_train) = K̃Λ + ȳ, i.e. the test-kernel centring uses the training statistics."""
    X, y, s = _problem(9)
    m = FairKernelRegression(alpha=0.1, mu=50.0, gamma=0.4).fit(X, y, sensitive_features=s)
    H = _H(len(X))
    K = H @ rbf_kernel(X, gamma=0.4) @ H
    np.testing.assert_allclose(m.predict(X), K @ m.dual_coef_ + y.mean(), atol=1e-10)
    assert abs(m.dual_coef_.sum()) < 1e-10 * np.abs(m.dual_coef_).sum()


# --------------------------------------------------------------------------------------
# paths and monotonicity
# --------------------------------------------------------------------------------------
def _mus(n):
    return n**2 * np.logspace(-7, 3, 11)  # the reference code's grid


@pytest.mark.parametrize("make", [
    lambda: FairLinearRegression(alpha=0.3),
    lambda: FairKernelRegression(alpha=0.3, gamma=0.25),
    lambda: FairKernelRegression(alpha=0.05, kernel="poly", sensitive_kernel="linear"),
])
@pytest.mark.parametrize("targets", [None, 2])
def test_fit_path_equals_refitting(make, targets):
    X, y, S = _problem(10, q=2, targets=targets)
    Xt = np.random.default_rng(10).normal(size=(8, X.shape[1]))
    mus = np.r_[0.0, _mus(len(X))]
    path = make().fit_path(X, y, mus, sensitive_features=S)
    assert len(path) == len(mus)
    for est, mu in zip(path, mus):
        assert est.get_params()["mu"] == mu
        ref = make().set_params(mu=mu).fit(X, y, sensitive_features=S)
        scale = np.abs(ref.predict(Xt)).max()
        np.testing.assert_allclose(est.predict(Xt), ref.predict(Xt), atol=1e-9 * scale)


@pytest.mark.parametrize("seed", range(4))
def test_hsic_decreases_monotonically_along_mu(seed):
    """On random instances the (penalised) HSIC of the training predictions never increases in μ,
    and the data-fit + ridge part never decreases."""
    X, y, s = _problem(100 + seed, n=40)
    n = len(y)
    mus = _mus(n)
    flr = FairLinearRegression(alpha=0.5).fit_path(X, y, mus, sensitive_features=s)
    h_lin = [hsic(m.predict(X), s) for m in flr]
    fkr = FairKernelRegression(alpha=0.5, gamma=0.2).fit_path(X, y, mus, sensitive_features=s)
    g = fkr[0].sensitive_gamma_
    h_rbf = [hsic(m.predict(X), s, kernel_y="rbf", gamma_y=g) for m in fkr]
    for h in (h_lin, h_rbf):
        assert np.all(np.diff(h) <= 1e-12 * h[0]), h
        assert h[-1] < 1e-3 * h[0]
    Xc, yc = X - X.mean(0), y - y.mean()
    fit = [np.sum((yc - Xc @ m.coef_) ** 2) + 0.5 * m.coef_ @ m.coef_ for m in flr]
    assert np.all(np.diff(fit) >= -1e-10 * fit[0])


def test_fit_path_bad_mus():
    X, y, s = _problem(11)
    for bad in ([], [[1.0, 2.0]], [-1.0], [np.nan]):
        with pytest.raises(ValueError, match="mus"):
            FairLinearRegression().fit_path(X, y, bad, sensitive_features=s)


# --------------------------------------------------------------------------------------
# Lemma 1
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_lemma1_holds_for_flr(seed):
    """‖(A + tX̃ᵀS̃S̃ᵀX̃)⁻¹‖ ≤ ‖A⁻¹‖ (PSD penalty) and so ‖W_μ‖ ≤ ‖A⁻¹‖‖X̃ᵀY‖."""
    X, y, s = _problem(200 + seed, n=30)
    n, lam = len(y), 0.1
    Xc, Sc = X - X.mean(0), (s - s.mean())[:, None]
    A = Xc.T @ Xc + lam * np.eye(X.shape[1])
    bound = np.linalg.norm(np.linalg.inv(A), 2) * np.linalg.norm(Xc.T @ (y - y.mean()))
    for mu in _mus(n):
        M = A + mu / n**2 * Xc.T @ Sc @ Sc.T @ Xc
        inv_norm = np.linalg.norm(np.linalg.inv(A), 2)
        assert np.linalg.norm(np.linalg.inv(M), 2) <= inv_norm * (1 + 1e-12)
        W = FairLinearRegression(alpha=lam, mu=mu).fit(X, y, sensitive_features=s).coef_
        assert np.linalg.norm(W) <= bound * (1 + 1e-10)


@pytest.mark.parametrize("seed", range(5))
def test_lemma1_rkhs_bound_holds_for_fkr(seed):
    """λ‖f‖²_H = λ tr(ΛᵀK̃Λ) ≤ ‖Ỹ‖² for KRR and every FKR (the loss at Λ is ≤ the loss at 0)."""
    X, y, s = _problem(300 + seed, n=30)
    n, lam = len(y), 0.05
    H = _H(n)
    K = H @ rbf_kernel(X, gamma=0.3) @ H
    for mu in np.r_[0.0, _mus(n)]:
        Lam = FairKernelRegression(alpha=lam, mu=mu, gamma=0.3).fit(
            X, y, sensitive_features=s).dual_coef_
        assert lam * Lam @ K @ Lam <= np.sum((y - y.mean()) ** 2) * (1 + 1e-10)


def test_lemma1_operator_norm_claim_fails_for_fkr():
    """Documented in FairKernelRegression Notes: K̃_SK̃ is not symmetric, so the Loewner argument
    does not apply; a random instance has ‖(K̃ + λI + tK̃_SK̃)⁻¹‖ > ‖(K̃ + λI)⁻¹‖ = 1/λ."""
    rng = np.random.default_rng(0)
    worst = 0.0
    for _ in range(40):
        n = 20
        X, S = rng.normal(size=(n, 2)), rng.normal(size=(n, 1))
        H = _H(n)
        K = H @ rbf_kernel(X, gamma=2.0) @ H
        Ks = H @ rbf_kernel(S, gamma=2.0) @ H
        lam, t = 0.01, 100.0
        M = K + lam * np.eye(n) + t * Ks @ K
        worst = max(worst, lam * np.linalg.norm(np.linalg.inv(M), 2))
    assert worst > 1.0


# --------------------------------------------------------------------------------------
# FDR
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_fdr_exact_components_are_uncorrelated_and_optimal(seed):
    X, _, S = _problem(400 + seed, n=80, d=6, q=2)
    fdr = FairDR(ridge=0).fit(X, sensitive_features=S)
    V = fdr.components_.T
    assert fdr.n_components_ == 4  # d − q
    np.testing.assert_allclose(V.T @ V, np.eye(4), atol=1e-12)
    Xc, Sc = X - X.mean(0), S - S.mean(0)
    assert np.abs(Sc.T @ Xc @ V).max() < 1e-10 * np.linalg.norm(Sc) * np.linalg.norm(Xc)
    assert np.all(fdr.hsic_sensitive_ < 1e-20 * fdr.hsic_input_)
    # optimal: no unit direction uncorrelated with S has a larger numerator ‖X̃ᵀX̃v‖²
    C = Xc.T @ Xc
    N = linalg.null_space(Sc.T @ Xc)
    rng = np.random.default_rng(seed)
    best = np.sum((C @ V[:, 0]) ** 2)
    for _ in range(200):
        v = N @ rng.normal(size=N.shape[1])
        v /= np.linalg.norm(v)
        assert np.sum((C @ v) ** 2) <= best * (1 + 1e-12)
    np.testing.assert_allclose(fdr.hsic_input_[0], best / len(X) ** 2)
    assert np.all(np.diff(fdr.hsic_input_) <= 0)


def test_fdr_ridge_converges_to_exact_limit():
    """As ridge → 0 the reference code's solution tends to ridge=0, and its HSIC with S to 0."""
    X, _, S = _problem(410, n=100, d=5, q=2)
    exact = FairDR(n_components=2, ridge=0).fit(X, sensitive_features=S)
    sines, hs = [], []
    for eps in (1e1, 1e-1, 1e-3, 1e-5):
        soft = FairDR(n_components=2, ridge=eps).fit(X, sensitive_features=S)
        sines.append(subspace_sine(soft.components_.T, exact.components_.T))
        hs.append(soft.hsic_sensitive_.sum())
    assert np.all(np.diff(sines) <= 0) and sines[0] > 1e-5 and sines[-1] < 1e-6
    assert np.all(np.diff(hs) < 0)


def test_fdr_sinusoid_component_is_invariant_to_the_sensitive_axis():
    """Fig. 2: with S = a the FDR direction is v ∝ (−Cov(a, b), Var(a)) — the one direction of
    the plane uncorrelated with a, mostly along b — while PCA's mixes a and b."""
    from fairlab.datasets import make_sinusoid

    X = make_sinusoid(500, random_state=0)
    C = np.cov(X.T)
    expected = np.array([-C[0, 1], C[0, 0]]) / np.hypot(C[0, 1], C[0, 0])
    for ridge in (0.0, 1e-7):
        v = FairDR(n_components=1, ridge=ridge).fit(X, sensitive_features=X[:, 0]).components_[0]
        np.testing.assert_allclose(np.abs(v), np.abs(expected), atol=1e-12 if ridge == 0 else 1e-6)
    assert abs(expected[1]) > 0.9
    v = FairDR(n_components=1, ridge=0).fit(X, sensitive_features=X[:, 1]).components_[0]
    np.testing.assert_allclose(np.abs(v), np.abs([C[1, 1], -C[0, 1]]) / np.hypot(C[1, 1], C[0, 1]),
                               atol=1e-12)


@ignore_fallback
def test_fdr_and_kfdr_without_sensitive_are_pca_and_kpca():
    X, _, _ = _problem(420, n=60, d=5)
    Xt = np.random.default_rng(420).normal(size=(7, 5))
    ours = FairDR(n_components=3).fit(X).transform(Xt)
    np.testing.assert_allclose(np.abs(ours), np.abs(PCA(3).fit(X).transform(Xt)), atol=1e-10)
    ours = KernelFairDR(n_components=4, gamma=0.2).fit(X).transform(Xt)
    ref = KernelPCA(4, kernel="rbf", gamma=0.2).fit(X).transform(Xt)
    np.testing.assert_allclose(np.abs(ours), np.abs(ref), atol=1e-10)


@pytest.mark.parametrize("ridge", [0.0, 1e-3, 1e-7])
def test_kfdr_linear_kernel_equals_fdr(ridge):
    X, _, S = _problem(430, n=40, d=5, q=2)
    Xt = np.random.default_rng(430).normal(size=(6, 5))
    a = KernelFairDR(n_components=3, kernel="linear", ridge=ridge).fit(X, sensitive_features=S)
    b = FairDR(n_components=3, ridge=ridge).fit(X, sensitive_features=S)
    tol = 1e-9 if ridge in (0.0, 1e-3) else 1e-4  # 1e-7: the pencil is ill-conditioned
    np.testing.assert_allclose(np.abs(a.transform(Xt)), np.abs(b.transform(Xt)), atol=tol)
    np.testing.assert_allclose(a.hsic_input_, b.hsic_input_, rtol=1e-8)


def test_kfdr_exact_training_scores_are_uncorrelated_with_s():
    from fairlab.datasets import make_banana

    X, s = make_banana(200, random_state=0)
    kfdr = KernelFairDR(n_components=3, gamma=1.0, ridge=0).fit(X, sensitive_features=s)
    T = kfdr.transform(X)
    assert np.abs((s - s.mean()) @ T).max() < 1e-9 * np.linalg.norm(s) * np.linalg.norm(T)
    # training scores = K̃α and the RKHS directions have unit norm (αᵀK̃α = 1)
    H = _H(len(X))
    K = H @ rbf_kernel(X, gamma=1.0) @ H
    np.testing.assert_allclose(T, K @ kfdr.dual_coef_, atol=1e-10)
    np.testing.assert_allclose(kfdr.dual_coef_.T @ K @ kfdr.dual_coef_, np.eye(3), atol=1e-8)
    # KPCA's leading scores carry the nuisance, KFDR's do not
    with pytest.warns(UnconstrainedFallbackWarning):
        kpca = KernelFairDR(n_components=3, gamma=1.0).fit(X).transform(X)
    assert hsic(kpca, s) > 1e3 * hsic(T, s)


def test_kfdr_rbf_sensitive_kernel_lowers_hsic():
    from fairlab.datasets import make_banana

    X, s = make_banana(150, random_state=1)
    kfdr = KernelFairDR(n_components=2, gamma=1.0, sensitive_kernel="rbf", sensitive_gamma=1.0,
                        ridge=1e-3).fit(X, sensitive_features=s)
    with pytest.warns(UnconstrainedFallbackWarning):
        kpca = KernelFairDR(n_components=2, gamma=1.0).fit(X)
    h = lambda T: hsic(T, s, kernel_y="rbf", gamma_y=1.0)  # noqa: E731
    assert h(kfdr.transform(X)) < 0.01 * h(kpca.transform(X))


def test_kfdr_equals_paper_deflation():
    """Extracting one leading generalized eigenpair at a time with the paper's deflation
    A ← A − λ_i Bα_iα_iᵀB (α_iᵀBα_i = 1) gives our simultaneous top-k solution."""
    X, _, S = _problem(440, n=30, d=3, q=1)
    ridge, k, n = 1e-2, 3, len(X)
    ours = KernelFairDR(n_components=k, gamma=0.5, ridge=ridge).fit(X, sensitive_features=S)
    H = _H(n)
    K = H @ rbf_kernel(X, gamma=0.5) @ H
    w, U = np.linalg.eigh(K)
    keep = w > w.max() * n * np.finfo(float).eps
    F = U[:, keep] * np.sqrt(w[keep])  # K̃ = FFᵀ: our ridge is ε‖u‖² in these coordinates
    Sc = S - S.mean()
    A = (F.T @ F) @ (F.T @ F)
    B = F.T @ np.outer(Sc, Sc) @ F + ridge * np.eye(F.shape[1])
    scores = []
    for _ in range(k):
        lam, V = linalg.eigh(A, B)
        v = V[:, -1]  # B-normalised leading vector
        scores.append(F @ v / np.linalg.norm(v))
        A = A - lam[-1] * np.outer(B @ v, B @ v)
    np.testing.assert_allclose(np.abs(np.column_stack(scores)), np.abs(ours.transform(X)),
                               atol=1e-7)


# --------------------------------------------------------------------------------------
# sklearn integration
# --------------------------------------------------------------------------------------
@ignore_fallback
@parametrize_with_checks([
    FairLinearRegression(),
    FairKernelRegression(),
    FairDR(),
    KernelFairDR(),
])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_pipeline_routing_and_pandas_output():
    X, y, s = _problem(12)
    Xdf = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    with config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            FairDR(n_components=2, ridge=0).set_fit_request(sensitive_features=True),
            FairLinearRegression(mu=1e6).set_fit_request(sensitive_features=True),
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnconstrainedFallbackWarning)
            pipe.fit(Xdf, y, sensitive_features=s)
    assert pipe.predict(Xdf).shape == (len(y),)
    out = FairDR(n_components=2).set_output(transform="pandas").fit(
        Xdf, sensitive_features=s).transform(Xdf)
    assert list(out.columns) == ["fairdr0", "fairdr1"]
    out = KernelFairDR(n_components=2).fit(Xdf, sensitive_features=s)
    assert list(out.get_feature_names_out()) == ["kernelfairdr0", "kernelfairdr1"]


# --------------------------------------------------------------------------------------
# bad inputs
# --------------------------------------------------------------------------------------
X0, Y0, S0 = _problem(13, n=30)


@pytest.mark.parametrize("est, kwargs, exc, match", [
    (FairLinearRegression(alpha=-1.0), {}, ValueError, "alpha"),
    (FairLinearRegression(mu=-1.0), {}, ValueError, "mu"),
    (FairKernelRegression(alpha=0.0), {}, ValueError, "alpha"),
    (FairKernelRegression(kernel="gauss"), {}, ValueError, "kernel"),
    (FairKernelRegression(sensitive_kernel="precomputed"), {}, ValueError, "sensitive_kernel"),
    (FairKernelRegression(gamma=-2.0), {}, ValueError, "gamma"),
    (FairLinearRegression(), {"sensitive_features": S0[:-1]}, ValueError, "29 entries"),
    (FairLinearRegression(), {"sensitive_features": np.ones(30)}, ValueError, "constant"),
    (FairKernelRegression(), {"sensitive_features": np.r_[np.nan, S0[1:]]}, ValueError, "NaN"),
    (FairLinearRegression(), {"sensitive_features": np.zeros((30, 2, 2))}, ValueError,
     "dimensions"),
    (FairLinearRegression(), {"sensitive_features": "sex"}, TypeError, "array-like"),
])
def test_bad_regression_inputs(est, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        est.fit(X0, Y0, **kwargs)


@pytest.mark.parametrize("est, match", [
    (FairDR(n_components=4, ridge=0), "n_components=4 is too large"),
    (FairDR(n_components=5, ridge=1e-3), "n_components=5 is too large"),
    (FairDR(n_components=0), "n_components"),
    (FairDR(ridge=-1.0), "ridge"),
    (KernelFairDR(n_components=31, ridge=1e-3), "n_components=31 is too large"),
    (KernelFairDR(sensitive_kernel="bogus"), "sensitive_kernel"),
])
def test_bad_dr_inputs(est, match):
    with pytest.raises(ValueError, match=match):
        est.fit(X0, sensitive_features=S0)


def test_bad_data():
    Xnan = X0.copy()
    Xnan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        FairLinearRegression().fit(Xnan, Y0, sensitive_features=S0)
    with pytest.raises(ValueError, match="NaN"):
        FairDR().fit(Xnan, sensitive_features=S0)
    m = FairKernelRegression().fit(X0, Y0, sensitive_features=S0)
    with pytest.raises(ValueError, match="features"):
        m.predict(X0[:, :2])
    with pytest.raises(ValueError, match="features"):
        KernelFairDR(n_components=2).fit(X0, sensitive_features=S0).transform(X0[:, :2])
    with pytest.raises(ValueError, match="uncorrelated"):  # d = 1 and S = X: no fair direction
        FairDR(ridge=0).fit(X0[:, :1], sensitive_features=X0[:, 0])


def test_fit_path_without_sensitive_warns_once_and_is_unconstrained():
    X, y, _ = _problem(14)
    with pytest.warns(UnconstrainedFallbackWarning) as record:
        path = FairKernelRegression(alpha=0.2, gamma=0.3).fit_path(X, y, [0.0, 1e6])
    assert len(record) == 1
    np.testing.assert_allclose(path[0].predict(X), path[1].predict(X), atol=1e-12)


def test_fdr_categorical_sensitive_removes_m_minus_1_directions():
    """m groups give a centred one-hot S̃ of rank m − 1: d − (m − 1) fair directions, along which
    every group has the same mean projection (the fair-PCA constraint of Kleindessner et al.)."""
    rng = np.random.default_rng(15)
    groups = rng.choice(np.array(["a", "b", "c"]), size=90)
    X = rng.normal(size=(90, 6)) + (groups[:, None] == "a") * rng.normal(size=6)
    fdr = FairDR(ridge=0).fit(X, sensitive_features=groups)
    assert fdr.n_components_ == 4
    T = fdr.transform(X)
    means = np.array([T[groups == g].mean(axis=0) for g in "abc"])
    assert np.abs(means).max() < 1e-12 * np.abs(T).max()


# --------------------------------------------------------------------------------------
# fast routes against independent dense computations, on adversarial instances
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("batch", range(4))
def test_kfdr_partial_solver_on_adversarial_instances(batch):
    """eigen_solver="arpack" (Lanczos on K̃G in the G semi-inner product, no eigendecomposition
    of K̃) against the independent dense reference of tests/test_adversarial.py on its
    adversarial KFDR instances, with the same tolerances; where the partial solver cannot
    certify its result the dense one answers, so every instance is checked either way."""
    import dataclasses

    from test_adversarial import check_kernel_fair_dr, run_batch

    def check(inst, report):
        inst = dataclasses.replace(inst, params={**inst.params, "eigen_solver": "arpack"})
        check_kernel_fair_dr(inst, report)

    run_batch("kernel_fair_dr", batch, check).assert_ok()


@pytest.mark.parametrize("ridge", [0.0, 1e-7, 1e-3])
@pytest.mark.parametrize("case", ["continuous", "categorical", "none", "offset"])
def test_kfdr_partial_solver_is_used_and_matches_dense(ridge, case):
    """The partial route really runs (``eigenvalues_kernel_`` is None) and equals the dense
    eigendecomposition route: scores, HSIC values, unit RKHS norms."""
    rng = np.random.default_rng(7)
    n = 260
    X = rng.normal(size=(n, 4))
    S = {"continuous": rng.normal(size=(n, 2)), "categorical": rng.integers(0, 3, n).astype(str),
         "none": None, "offset": rng.integers(0, 2, n)}[case]
    if case == "continuous":
        X[:, :2] += 2 * S
    if case == "offset":
        X = X * np.array([1e-2, 1.0, 1e2, 1.0]) + 1e3
    g = 0.3 / (4 * X.var(axis=0).mean()) if case == "offset" else 0.2
    kw = dict(n_components=4, gamma=g, ridge=ridge)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        a = KernelFairDR(eigen_solver="arpack", **kw).fit(X, sensitive_features=S)
        b = KernelFairDR(eigen_solver="dense", **kw).fit(X, sensitive_features=S)
    if case != "offset":  # (offset data: the partial solver may defer to the dense one)
        assert a.eigenvalues_kernel_ is None
    assert b.eigenvalues_kernel_ is not None
    ta, tb = a.transform(X), b.transform(X)
    np.testing.assert_allclose(np.abs(ta), np.abs(tb), atol=1e-9 * np.abs(tb).max())
    np.testing.assert_allclose(a.hsic_input_, b.hsic_input_, rtol=1e-9)
    np.testing.assert_allclose(a.hsic_sensitive_, b.hsic_sensitive_,
                               atol=1e-9 * b.hsic_input_.max())
    K = _H(n) @ rbf_kernel(X, gamma=g) @ _H(n)
    np.testing.assert_allclose(np.einsum("ij,ij->j", a.dual_coef_, K @ a.dual_coef_), 1.0,
                               atol=1e-8)


def _fkr_dense_reference(X, y, S, alpha, mu, gamma, sensitive_kernel):
    """Eq. (3) written out densely: Λ = (K̃ + λI + μ/n² K̃_S K̃)⁻¹ Ỹ (no fairlab helper)."""
    from fairlab._core.validation import check_continuous_sensitive

    n = X.shape[0]
    H = _H(n)
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    K = H @ np.exp(-gamma * D2) @ H
    Sn = check_continuous_sensitive(S, n)
    if sensitive_kernel == "linear":
        Ks = H @ Sn @ Sn.T @ H
    else:
        gs = 1.0 / (Sn.shape[1] * Sn.var())
        Ks = H @ np.exp(-gs * ((Sn[:, None, :] - Sn[None, :, :]) ** 2).sum(-1)) @ H
    M = K + alpha * np.eye(n) + (mu / n**2) * Ks @ K
    Y = y.reshape(n, -1) - y.reshape(n, -1).mean(axis=0)
    return M, Y


@pytest.mark.parametrize("seed", range(8))
def test_fkr_low_rank_route_matches_dense_formula_adversarially(seed):
    """The Cholesky + Woodbury route (K̃_S of low rank to rounding: linear kernel, categorical or
    repeated S, smooth kernels on few columns) against eq. (3) solved densely, on offsets,
    per-column scales, tiny/unbalanced groups, repeated points, d > n, and the paper's μ range:
    the backward error ‖MΛ − Ỹ‖/(‖M‖‖Λ‖) is at the rounding level and Λ agrees to cond(M)·eps."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(12, 90))
    d = int(rng.integers(1, 6)) if seed % 4 else n + 5  # d > n on every 4th instance
    X = rng.normal(size=(n, d)) * 10.0 ** rng.uniform(-2, 2, d) + rng.normal() * 1e2
    if seed % 3 == 0:  # repeated points (rank-deficient K)
        X[n // 2:] = X[: n - n // 2]
    kind = ["categorical", "continuous", "integer", "tiny"][seed % 4]
    if kind == "categorical":
        S = rng.choice(["a", "b", "c"], n)
    elif kind == "continuous":
        S = rng.normal(size=(n, 2)) * 1e3 + 5.0
    elif kind == "integer":
        S = rng.integers(0, 4, n)
    else:  # one tiny group
        S = np.zeros(n, dtype=int)
        S[:2] = 1
    y = rng.normal(size=n) * 1e2 + 1e3
    gamma = float(10.0 ** rng.uniform(-1, 1) / (d * X.var()))
    for sensitive_kernel in ("rbf", "linear"):
        for mu in (0.0, 1.0, n**2 * 1e-3, n**2 * 1e3):
            m = FairKernelRegression(alpha=0.1, mu=mu, gamma=gamma,
                                     sensitive_kernel=sensitive_kernel)
            Lam = m.fit(X, y, sensitive_features=S).dual_coef_.reshape(n, -1)
            M, Y = _fkr_dense_reference(X, y, S, 0.1, mu, gamma, sensitive_kernel)
            backward = np.linalg.norm(M @ Lam - Y) / (np.linalg.norm(M, 2) * np.linalg.norm(Lam))
            assert backward < 1e-13, (seed, sensitive_kernel, mu, backward)
            ref = np.linalg.solve(M, Y)
            forward = np.abs(Lam - ref).max() / np.abs(ref).max()
            assert forward < 1e3 * np.linalg.cond(M) * np.finfo(float).eps, (seed, mu, forward)
            path = m.fit_path(X, y, [mu, 2 * mu + 1], sensitive_features=S)
            np.testing.assert_allclose(path[0].dual_coef_, m.dual_coef_, rtol=1e-9,
                                       atol=1e-12 * np.abs(m.dual_coef_).max())


def test_fkr_low_rank_factor_is_used_and_dense_fallback_agrees():
    """A continuous S with a smooth kernel is low-rank to rounding (the pivoted Cholesky factor
    stops at its rounding level, r ≪ n); a kernel without a factor (sigmoid) takes the dense
    LU route; both solve eq. (3)."""
    from fairlab._core.hsic import _low_rank_sensitive_factor

    rng = np.random.default_rng(3)
    n = 400
    S = rng.normal(size=(n, 1))
    Psi = _low_rank_sensitive_factor(S, "rbf", 0.5, n // 4)
    assert Psi is not None and Psi.shape[1] < n // 8
    D2 = (S - S.T) ** 2
    Ks = _H(n) @ np.exp(-0.5 * D2) @ _H(n)
    assert np.linalg.norm(Psi @ Psi.T - Ks, 2) <= n * np.finfo(float).eps * np.linalg.norm(Ks, 2)
    X = rng.normal(size=(n, 3))
    X[:, 0] += S[:, 0]
    y = X[:, 0] + rng.normal(size=n)
    for sk in ("rbf", "sigmoid"):
        m = FairKernelRegression(alpha=0.2, mu=n**2, gamma=0.3, sensitive_kernel=sk).fit(
            X, y, sensitive_features=S[:, 0])
        K = _H(n) @ rbf_kernel(X, gamma=0.3) @ _H(n)
        gs = 1.0 / S.var()  # γ_S = 1/(q·Var(S)), on S as given (sigmoid is not shift-invariant)
        Kraw = np.exp(-gs * D2) if sk == "rbf" else np.tanh(gs * S @ S.T + 1.0)
        M = K + 0.2 * np.eye(n) + _H(n) @ Kraw @ _H(n) @ K
        res = np.linalg.norm(M @ m.dual_coef_ - (y - y.mean()))
        assert res < 1e-12 * np.linalg.norm(M, 2) * np.linalg.norm(m.dual_coef_), sk


def test_pivoted_cholesky_stops_at_the_rank_of_an_exactly_low_rank_kernel():
    """K = AAᵀ of rank 3: three pivots leave a residual at rounding level, so the factor has
    exactly three columns and reproduces K; a zero kernel has an empty factor; a rank above
    max_rank gives None."""
    from fairlab._core.hsic import _pivoted_cholesky

    rng = np.random.default_rng(4)
    n = 60
    A = rng.normal(size=(n, 3))
    for scale in (1e-6, 1.0, 1e6):  # the stopping rule is relative to the kernel's size
        K = scale * (A @ A.T)
        L = _pivoted_cholesky(lambda p, K=K: K[:, p], np.diag(K).copy(), 10)
        assert L.shape == (n, 3), scale
        np.testing.assert_allclose(L @ L.T, K, atol=1e-12 * np.abs(K).max())
    assert _pivoted_cholesky(lambda p: K[:, p], np.diag(K).copy(), 2) is None
    empty = _pivoted_cholesky(lambda p: np.zeros(n), np.zeros(n), 10)
    assert empty.shape == (n, 0)


# ----------------------------------------------------------------- rbf far from the origin -----
def _rbf_outputs(est_name, X, Xn, y, s):
    from fairlab import FairKernelPCA
    from fairlab.kernel_pls import KernelFairPLS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if est_name == "FairKernelPCA":
            return FairKernelPCA(3, gamma=0.3).fit(X, sensitive_features=s).transform(Xn)
        if est_name == "FairKernelRegression":
            return FairKernelRegression(mu=1.0, gamma=0.3).fit(
                X, y, sensitive_features=s).predict(Xn)[:, None]
        if est_name == "KernelFairDR":
            return KernelFairDR(2, gamma=0.3).fit(X, sensitive_features=s).transform(Xn)
        return KernelFairPLS(2, gamma=0.3).fit(X, y, sensitive_features=s).transform(Xn)


@pytest.mark.parametrize("est_name", ["FairKernelPCA", "FairKernelRegression", "KernelFairDR",
                                      "KernelFairPLS"])
def test_rbf_estimators_are_translation_invariant(est_name):
    # ‖x‖² + ‖y‖² − 2xᵀy cancels far from the origin: at an offset of 1e6 the outputs moved by
    # 2e-4 … 8e-4 (relative); a common shift of fit and transform data must change nothing
    # beyond the rounding of the shifted inputs themselves (offset·eps).
    for seed in range(4):
        rng = np.random.default_rng(seed)
        n, d = int(rng.integers(40, 90)), int(rng.integers(1, 5))
        s = rng.integers(0, 2, n)
        X = rng.normal(size=(n, d)) + 0.7 * s[:, None]
        y = X[:, 0] + s + 0.1 * rng.normal(size=n)
        Xn = rng.normal(size=(15, d))
        base = _rbf_outputs(est_name, X, Xn, y, s)
        for offset in (1e3, 1e6, 1e8):
            shift = offset * rng.normal(size=d) / np.sqrt(d)
            out = _rbf_outputs(est_name, X + shift, Xn + shift, y, s)
            signs = np.sign(np.sum(out * base, axis=0))
            gap = np.abs(out * signs - base).max() / np.abs(base).max()
            # inputs rounded at offset·eps, amplified by the conditioning of the fit (≤ 1e3)
            assert gap <= 1e3 * offset * np.finfo(float).eps, (
                f"seed {seed}, offset {offset:g}: relative gap {gap:.2e}")


def test_kfdr_signs_do_not_depend_on_the_blas_thread_count():
    # The sign convention was applied in K̃'s eigenbasis, whose signs are LAPACK's: a column
    # flipped between 1 and 2 threads on 2 of 20 instances.  Now: largest |training score| > 0.
    from threadpoolctl import threadpool_limits

    from tests.adversarial import instances

    checked = 0
    for inst in instances("kernel_fair_dr", 24, seed=7):
        params = dict(inst.params, eigen_solver="dense")
        outs = []
        try:
            for threads in (1, 2):
                with threadpool_limits(limits=threads), warnings.catch_warnings():
                    warnings.simplefilter("ignore", UserWarning)
                    est = KernelFairDR(**params).fit(inst.X, sensitive_features=inst.sensitive)
                outs.append(est.transform(inst.X))
        except ValueError as exc:  # k above this instance's numerical rank: refused, fine
            assert "too large" in str(exc) or "admits no component" in str(exc), exc
            continue
        checked += 1
        T = outs[0]
        rows = np.argmax(np.abs(T), axis=0)
        assert np.all(T[rows, np.arange(T.shape[1])] > 0), inst.id
        scale = np.abs(T).max(axis=0)
        agree = np.abs(outs[1] - T).max(axis=0) <= 1e-6 * scale
        flipped = np.abs(outs[1] + T).max(axis=0) <= 1e-6 * scale
        assert not np.any(flipped & ~agree), f"{inst.id}: a column flipped sign"
    assert checked >= 16


# ------------------------------------------------------ HSIC attributes against the definition ---
def direct_hsic(t, L):
    """HSIC of the scores t (linear kernel ttᵀ) with a kernel matrix L: (1/n²)tr(ttᵀHLH)."""
    n = len(t)
    H = np.eye(n) - np.full((n, n), 1.0 / n)
    return float(np.trace(np.outer(t, t) @ H @ L @ H)) / n**2


@pytest.mark.parametrize("ridge", [0.0, 1e-3])
@pytest.mark.parametrize("kind", ["continuous", "categorical"])
def test_fdr_hsic_attributes_equal_the_hsic_definition(ridge, kind):
    # Pérez-Suay et al. eq. (1): HSIC = (1/n²)tr(KHLH), biased, 1/n² — a 1/n slip would
    # scale every value by n.  L = SSᵀ for continuous S, ΨΨᵀ with Ψ the m indicators of a
    # categorical S (the one-hot encoding of check_continuous_sensitive).
    for seed in range(3):
        rng = np.random.default_rng(seed)
        n, d = int(rng.integers(30, 80)), 5
        if kind == "continuous":
            S = rng.normal(size=(n, 2))
            Psi = S
        else:
            codes = rng.integers(0, 3, n)
            S = np.array(["a", "b", "c"])[codes]
            Psi = np.eye(3)[codes]
        X = rng.normal(size=(n, d)) + 0.8 * Psi[:, :1] + 5.0
        est = FairDR(n_components=2, ridge=ridge).fit(X, sensitive_features=S)
        T = est.transform(X)
        for j in range(2):
            np.testing.assert_allclose(est.hsic_sensitive_[j], direct_hsic(T[:, j], Psi @ Psi.T),
                                       rtol=1e-8, atol=1e-12 * est.hsic_input_[j])
            np.testing.assert_allclose(est.hsic_input_[j], direct_hsic(T[:, j], X @ X.T),
                                       rtol=1e-8)
        kfdr = KernelFairDR(n_components=2, kernel="rbf", gamma=0.1, ridge=ridge).fit(
            X, sensitive_features=S)
        T = kfdr.transform(X)
        K = rbf_kernel(X, gamma=0.1)
        for j in range(2):
            np.testing.assert_allclose(kfdr.hsic_sensitive_[j],
                                       direct_hsic(T[:, j], Psi @ Psi.T),
                                       rtol=1e-6, atol=1e-10 * kfdr.hsic_input_[j])
            np.testing.assert_allclose(kfdr.hsic_input_[j], direct_hsic(T[:, j], K), rtol=1e-8)


# ---------------------------------------------------------------- Kernel FDR at the bound -----
@pytest.mark.parametrize("q", [1, 2])
def test_kfdr_at_k_at_the_bound(q):
    # ridge = 0 keeps the directions with K̃_S t = 0: rank(K̃) − rank(K̃S̃) of them.  Linear
    # kernel: rank K̃ = d, so the bound is d − q; k at the bound equals FairDR, every
    # component uncorrelated with S; k = bound + 1 is refused.
    for seed in range(3):
        rng = np.random.default_rng(seed)
        n, d = 60, 5
        S = rng.normal(size=(n, q))
        X = rng.normal(size=(n, d)) + S @ rng.normal(size=(q, d)) + 100.0
        k = d - q
        kfdr = KernelFairDR(n_components=k, kernel="linear", ridge=0.0).fit(
            X, sensitive_features=S)
        fdr = FairDR(n_components=k, ridge=0.0).fit(X, sensitive_features=S)
        T, R = kfdr.transform(X), fdr.transform(X)
        assert T.shape == (n, k)
        np.testing.assert_allclose(np.abs(T), np.abs(R), atol=1e-8 * np.abs(R).max())
        Tc, Sc = T - T.mean(0), S - S.mean(0)
        assert np.abs(Tc.T @ Sc).max() <= 1e-9 * np.linalg.norm(Tc) * np.linalg.norm(Sc)
        assert np.all(kfdr.hsic_input_ > 1e-6 * kfdr.hsic_input_[0])  # no zero component
        with pytest.raises(ValueError, match="too large"):
            KernelFairDR(n_components=k + 1, kernel="linear", ridge=0.0).fit(
                X, sensitive_features=S)


def test_kfdr_poly_kernel_at_the_bound():
    # KernelFairDR's poly kernel, (γxᵀy + 1)³, on d = 2: feature map of dimension C(5, 2) = 10
    # (the monomials of degree ≤ 3), centred rank 9; one continuous attribute removes one
    # direction: bound 8.
    rng = np.random.default_rng(4)
    n = 80
    s = rng.normal(size=n)
    X = rng.normal(size=(n, 2)) + np.outer(s, [1.0, -0.5])
    est = KernelFairDR(n_components=8, kernel="poly", gamma=0.5, ridge=0.0).fit(
        X, sensitive_features=s)
    assert est.eigenvalues_kernel_.size == 9
    T = est.transform(X)
    sc = s - s.mean()
    Tc = T - T.mean(0)
    assert np.abs(Tc.T @ sc).max() <= 1e-8 * np.linalg.norm(Tc) * np.linalg.norm(sc)
    assert np.all(est.hsic_input_ > 1e-8 * est.hsic_input_[0])
    with pytest.raises(ValueError, match="too large"):
        KernelFairDR(n_components=9, kernel="poly", gamma=0.5, ridge=0.0).fit(
            X, sensitive_features=s)


@pytest.mark.parametrize("offset", [0.0, 1e3])
def test_ridge_grid_equals_one_fit_per_alpha(offset):
    """The λ grid from one kernel matrix gives each fit's coefficients to the last bit, also
    for data far from the origin and with tied rows."""
    rng = np.random.default_rng(3)
    X = np.round(rng.normal(size=(60, 4)), 1) + offset
    X[::3] = X[1::3]
    y = rng.normal(size=60)
    alphas = np.logspace(-4, 3, 7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        grid = FairKernelRegression(gamma=0.3)._ridge_grid(X, y, alphas)
        for lam, model in zip(alphas, grid):
            one = FairKernelRegression(alpha=lam, gamma=0.3).fit(X, y)
            assert model.alpha == lam
            np.testing.assert_array_equal(model.dual_coef_, one.dual_coef_)
            np.testing.assert_array_equal(model.predict(X[:7] + 0.05), one.predict(X[:7] + 0.05))


@pytest.mark.parametrize("tail", [1e-2, 1e-9])
def test_fdr_top_singular_vectors_squared_only_where_accurate(tail):
    """The ridge > 0 directions come from MᵀM only when σ_k ≥ σ₁/8 (at most 3 bits lost),
    otherwise from M's SVD, bit for bit.  Reference: the SVD of M, known singular values."""
    from fairlab import hsic_reduction as hr

    rng = np.random.default_rng(11)
    p, k = 60, 4
    U = linalg.qr(rng.normal(size=(p, p)))[0]
    Vt = linalg.qr(rng.normal(size=(p, p)))[0].T

    def matrix(top):
        s = np.r_[top, np.geomspace(tail, tail * 1e-3, p - len(top))] * 1e5
        return (U * s) @ Vt

    def svd_route(M):
        return linalg.svd(M, full_matrices=False, check_finite=False)[2][:k].T

    wide = matrix([1.0, 0.8, 0.5, 0.3])  # σ₄/σ₁ = 0.3: the squared route
    assert subspace_sine(hr._top_right_singular_vectors(wide, k), svd_route(wide)) < 1e-12
    narrow = matrix([1.0, 0.5, 0.2, 0.1])  # σ₄/σ₁ = 0.1 < 1/8: the SVD
    np.testing.assert_array_equal(hr._top_right_singular_vectors(narrow, k), svd_route(narrow))
