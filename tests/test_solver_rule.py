"""One ``"auto"`` eigensolver rule for every estimator, and the route recorded in ``solver_``.

The rule (:func:`fairlab._core.linalg.choose_eigen_solver`): ARPACK when the matrix has size
p > 500 and k < p/20 (k < p/10 for a kernel matrix, whose spectrum decays fast), the dense
LAPACK solver otherwise.  Each estimator reports the solver
that answered; both routes must give the same subspace.
"""

import numpy as np
import pytest

from fairlab import FairDR, FairKernelPCA, FairPCA, FairPLS, KernelFairDR
from fairlab._core.linalg import choose_eigen_solver, subspace_sine, top_eigh, top_eigh_route


def _data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    z = (rng.random(n) < 0.4).astype(int)
    X = rng.standard_normal((n, d)) @ rng.standard_normal((d, d)) / np.sqrt(d)
    X += np.outer(z, rng.normal(size=d))
    return X, z


@pytest.mark.parametrize(
    "p, k, expected",
    [(500, 1, "dense"), (501, 1, "arpack"), (501, 26, "dense"), (1000, 49, "arpack"),
     (1000, 50, "dense"), (3000, 149, "arpack"), (300, 2, "dense")],
)
def test_rule_boundaries(p, k, expected):
    assert choose_eigen_solver(p, k) == expected
    assert choose_eigen_solver(p, k, spectrum="flat") == expected


@pytest.mark.parametrize(
    "p, k, expected",
    [(500, 1, "dense"), (501, 50, "arpack"), (501, 51, "dense"), (1000, 99, "arpack"),
     (1000, 100, "dense"), (3000, 200, "arpack")],
)
def test_rule_boundaries_of_a_decaying_spectrum(p, k, expected):
    assert choose_eigen_solver(p, k, spectrum="decaying") == expected


def test_rule_refuses_an_unknown_spectrum():
    with pytest.raises(ValueError, match="spectrum must be one of"):
        choose_eigen_solver(1000, 10, spectrum="steep")


def test_top_eigh_auto_follows_the_rule_and_reports_it():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((700, 40))
    M = A @ A.T
    for k, expected in [(5, "arpack"), (40, "dense")]:
        w, V, used = top_eigh_route(M, k)
        assert used == expected
        w_dense, V_dense = top_eigh(M, k, solver="dense")
        np.testing.assert_allclose(w, w_dense, rtol=1e-10)
        assert subspace_sine(V, V_dense) < 1e-8


def test_fair_pca_solver_and_same_subspace():
    X, z = _data(2000, 600)
    auto = FairPCA(10).fit(X, sensitive_features=z)
    full = FairPCA(10, svd_solver="full").fit(X, sensitive_features=z)
    assert auto.solver_ == "arpack"  # p = 600 > 500, k = 10 < 30
    assert full.solver_ == "full"
    assert FairPCA(40).fit(X, sensitive_features=z).solver_ == "full"  # k = 40 >= 30
    assert subspace_sine(auto.components_.T, full.components_.T) < 1e-8
    np.testing.assert_allclose(auto.explained_variance_, full.explained_variance_, rtol=1e-9)
    rand = FairPCA(10, svd_solver="randomized").fit(X, sensitive_features=z)
    assert rand.solver_ == "randomized"


def test_fair_pca_dual_route_solver():
    X, z = _data(600, 900)  # d > n: the n × n Gram matrix (p = 600) is decomposed
    auto = FairPCA(5).fit(X, sensitive_features=z)
    full = FairPCA(5, svd_solver="full").fit(X, sensitive_features=z)
    assert (auto.solver_, full.solver_) == ("arpack", "full")
    assert subspace_sine(auto.components_.T, full.components_.T) < 1e-8


def test_fair_pca_small_and_equalized_solver():
    X, z = _data(200, 20)
    assert FairPCA(3).fit(X, sensitive_features=z).solver_ == "full"
    assert FairPCA(3, equalize_covariance=0.5).fit(X, sensitive_features=z).solver_ == "full"


def test_fair_pca_stream_solver():
    X, z = _data(1200, 600)
    est = FairPCA(10)
    for rows in np.array_split(np.arange(len(X)), 3):
        est.partial_fit(X[rows], sensitive_features=z[rows])
    ref = FairPCA(10).fit(X, sensitive_features=z)
    assert est.solver_ == ref.solver_ == "arpack"
    assert subspace_sine(est.components_.T, ref.components_.T) < 1e-8


def test_fair_kernel_pca_solver_and_same_subspace():
    X, z = _data(700, 5)
    auto = FairKernelPCA(5).fit(X, sensitive_features=z)
    dense = FairKernelPCA(5, eigen_solver="dense").fit(X, sensitive_features=z)
    assert (auto.solver_, dense.solver_) == ("arpack", "dense")
    assert subspace_sine(auto.eigenvectors_, dense.eigenvectors_) < 1e-8
    np.testing.assert_allclose(auto.eigenvalues_, dense.eigenvalues_, rtol=1e-9)
    np.testing.assert_allclose(auto.transform(X[:50]), dense.transform(X[:50]), atol=1e-8)
    # a kernel matrix decays fast: ARPACK up to k < n/10 = 70
    band = FairKernelPCA(40).fit(X, sensitive_features=z)
    assert band.solver_ == "arpack"
    band_dense = FairKernelPCA(40, eigen_solver="dense").fit(X, sensitive_features=z)
    np.testing.assert_allclose(band.eigenvalues_, band_dense.eigenvalues_, rtol=1e-9)
    assert FairKernelPCA(70).fit(X, sensitive_features=z).solver_ == "dense"  # 70 >= n/10
    assert FairKernelPCA().fit(X, sensitive_features=z).solver_ == "dense"  # every component
    gen = FairKernelPCA(5, eigen_solver="generalized").fit(X[:200], sensitive_features=z[:200])
    assert gen.solver_ == "generalized"
    nys = FairKernelPCA(5, approximation="nystroem", n_landmarks=100)
    assert nys.fit(X, sensitive_features=z).solver_ == "dense"


def test_fair_dr_solver():
    X, z = _data(300, 8)
    assert FairDR(3).fit(X, sensitive_features=z).solver_ == "svd"  # ridge > 0
    assert FairDR(3, ridge=0).fit(X, sensitive_features=z).solver_ == "dense"
    X, z = _data(1500, 700)
    auto = FairDR(5, ridge=0).fit(X, sensitive_features=z)
    assert auto.solver_ == "arpack"  # p = 699 > 500, k = 5 < p/20
    # the same subspace as the dense solver of the same problem
    Xc = X - X.mean(axis=0)
    assert subspace_sine(auto.components_.T, _dense_fdr(Xc, z, 5)) < 1e-7


def _dense_fdr(Xc, z, k):
    """FairDR's ridge=0 limit by dense LAPACK: top eigenvectors of (XᵀX)² inside null(z̃ᵀX)."""
    from scipy import linalg

    C = Xc.T @ Xc
    g = Xc.T @ (z - z.mean())
    N = linalg.null_space(g[None, :])
    CN = C @ N
    _, W = linalg.eigh(CN.T @ CN)
    return N @ W[:, ::-1][:, :k]


def test_kernel_fair_dr_solver_and_same_subspace():
    X, z = _data(700, 5)
    auto = KernelFairDR(4, ridge=0).fit(X, sensitive_features=z)
    dense = KernelFairDR(4, ridge=0, eigen_solver="dense").fit(X, sensitive_features=z)
    assert (auto.solver_, dense.solver_) == ("arpack", "dense")
    ta, td = auto.transform(X), dense.transform(X)
    assert subspace_sine(ta, td) < 1e-6
    assert KernelFairDR(ridge=0).fit(X, sensitive_features=z).solver_ == "dense"


def test_fair_pls_has_no_solver_choice():
    """FairPLS's eigenproblems have size ≤ m + q (one LAPACK call each): nothing to record."""
    X, z = _data(200, 6)
    y = X[:, 0] + 0.1 * np.random.default_rng(1).standard_normal(200)
    assert not hasattr(FairPLS(2).fit(X, y, sensitive_features=z), "solver_")
