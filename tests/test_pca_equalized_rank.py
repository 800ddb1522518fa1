"""Fair PCA-S when k exceeds the rank of the data in its l covariance-equalising directions.

Columns that are constant on the fitted rows (one-hot categories without positives, in the
equal-opportunity fits of Kleindessner et al. §5.2) leave EᵀCE with fewer than k non-zero
eigenvalues.  The components beyond its rank have zero variance on the fitted rows; they must
not be an eigensolver's arbitrary basis of the zero eigenvalue, which changes with the BLAS
kernel and with the order of the rows.  The references here are computed independently:
scipy ``null_space`` and ``eigh`` of the problem as the paper states it.
"""

import numpy as np
from scipy import linalg

from fairlab import FairPCA
from fairlab.pca import _axes_basis


def deficient_instance(seed=0, n=200, d=12, informative=4):
    """Two groups; the rows span ``informative`` directions plus a constant offset.

    The other columns are constant (different constants), and the whole is rotated so that
    the zero-variance directions are no coordinate axes: the zero eigenvalues of EᵀXᵀXE are
    then rounding noise, as in real data, not exact zeros.
    """
    rng = np.random.default_rng(seed)
    z = rng.integers(0, 2, n)
    X = np.empty((n, d))
    X[:, :informative] = rng.normal(size=(n, informative)) + 0.7 * z[:, None]
    X[:, informative:] = rng.normal(size=d - informative)
    rotation = linalg.qr(rng.normal(size=(d, d)))[0]
    return X @ rotation, z


def reference_directions(X, z, l_dirs):
    """E: the l directions of null(z̃ᵀX) with the smallest |eigenvalue| of Rᵀ(Σ₀ − Σ₁)R."""
    zt = (z - z.mean())[:, None]
    R = linalg.null_space(zt.T @ X)
    T = R.T @ (np.cov(X[z == 0], rowvar=False) - np.cov(X[z == 1], rowvar=False)) @ R
    w, V = linalg.eigh(T)
    return R @ V[:, np.argsort(np.abs(w), kind="stable")[:l_dirs]]


def test_components_beyond_the_rank_do_not_depend_on_the_row_order():
    X, z = deficient_instance()
    k, l_dirs = 8, 10  # 4 informative columns, 3 fair directions among them: rank <= 4 < k
    est = FairPCA(k, equalize_covariance=l_dirs, center=False).fit(X, sensitive_features=z)
    perm = np.random.default_rng(1).permutation(len(z))
    other = FairPCA(k, equalize_covariance=l_dirs, center=False).fit(
        X[perm], sensitive_features=z[perm])
    np.testing.assert_allclose(est.components_, other.components_, atol=1e-10)
    U = est.components_.T
    np.testing.assert_allclose(U.T @ U, np.eye(k), atol=1e-12)
    Xt = est.transform(X)
    np.testing.assert_allclose(Xt[z == 0].mean(0), Xt[z == 1].mean(0), atol=1e-12)


def test_rank_part_is_the_top_of_the_projected_problem_and_the_rest_has_zero_variance():
    X, z = deficient_instance(seed=2)
    k, l_dirs = 8, 10
    est = FairPCA(k, equalize_covariance=l_dirs, center=False).fit(X, sensitive_features=z)
    E = reference_directions(X, z, l_dirs)
    w, V = linalg.eigh(E.T @ X.T @ X @ E)
    rank = int(np.sum(w > 1e-9 * w.max()))
    assert rank < k
    U = est.components_.T
    # the first `rank` components span the top eigenvectors of EᵀXᵀXE
    top = E @ V[:, ::-1][:, :rank]
    assert np.max(linalg.subspace_angles(U[:, :rank], top)) < 1e-8
    # the others lie in span(E) and have zero variance on the rows
    np.testing.assert_allclose(U[:, rank:] - E @ (E.T @ U[:, rank:]), 0.0, atol=1e-10)
    np.testing.assert_allclose(X @ U[:, rank:], 0.0, atol=1e-10)


def test_full_rank_fit_is_the_top_k_of_the_projected_problem():
    # the other side of the rank tolerance: every column varies, k <= rank
    rng = np.random.default_rng(3)
    z = rng.integers(0, 2, 300)
    X = rng.normal(size=(300, 9)) + 0.5 * z[:, None]
    k, l_dirs = 3, 6
    est = FairPCA(k, equalize_covariance=l_dirs, center=False).fit(X, sensitive_features=z)
    E = reference_directions(X, z, l_dirs)
    H = E.T @ X.T @ X @ E
    w, V = linalg.eigh(H)
    assert w[-k] > 1e-6 * w[-1]
    top = E @ V[:, ::-1][:, :k]
    assert np.max(linalg.subspace_angles(est.components_.T, top)) < 1e-8


def test_axes_basis_depends_on_the_subspace_only():
    rng = np.random.default_rng(4)
    d, m = 15, 6
    N = linalg.qr(rng.normal(size=(d, m)), mode="economic")[0]
    rotated = N @ linalg.qr(rng.normal(size=(m, m)))[0]
    B = _axes_basis(N, m)
    np.testing.assert_allclose(B, _axes_basis(rotated, m), atol=1e-12)
    np.testing.assert_allclose(B.T @ B, np.eye(m), atol=1e-12)
    np.testing.assert_allclose(B - N @ (N.T @ B), 0.0, atol=1e-12)  # inside range(N)
    # Gram–Schmidt of the projected axes e_0, e_1, ... in order: the first is P e_0 / ‖P e_0‖
    P = N @ N.T
    np.testing.assert_allclose(B[:, 0], P[:, 0] / np.linalg.norm(P[:, 0]), atol=1e-12)
    assert _axes_basis(N, 2).shape == (d, 2)
