"""Plain Fair PCA when n_components exceeds the rank of the data in the fair subspace.

The components beyond the rank have zero variance on the fitted rows, and any orthonormal basis
of the zero-variance subspace is optimal.  An eigensolver's basis of that repeated zero
eigenvalue follows the BLAS kernel and the order of the rows (measured before the rule: a
permutation of the rows moved them by up to 1.27, SkylakeX against Sandybridge by 1.24).  They
are the coordinate axes projected onto that subspace, orthonormalised in feature order — the
rule of Fair PCA-S (tests/test_pca_equalized_rank.py), through the same helper.  The references
here are computed independently: the zero-variance subspace as scipy's ``null_space`` of the
rows, the top part by ``eigh`` of the problem as the paper states it.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from scipy import linalg

from fairlab import FairPCA


def deficient(seed):
    """An adversarial rank-deficient instance: (X, sensitive, k, rank of the centred rows).

    Rows spanning ``r`` directions plus constant columns, rotated so that no zero-variance
    direction is a coordinate axis; offsets far from the origin, d > n, several groups or two
    attributes, tiny groups; k between the rank and its bound.
    """
    rng = np.random.default_rng(seed)
    n = int(rng.choice([16, 40, 150]))
    d = int(rng.integers(10, 60))
    m = int(rng.integers(2, 5))
    # more informative directions than constraints: the constraint rank is not decided by the
    # rounding of the stored rows (an offset of 1e3 leaves components of 1e-12 in them)
    r = int(rng.integers(m + 1, min(n - 4, d - 3)))
    z = rng.integers(0, m, n)
    z[: 2 * m] = np.tile(np.arange(m), 2)  # every group has two rows at least
    X = np.empty((n, d))
    X[:, :r] = rng.normal(size=(n, r)) * 10.0 ** rng.uniform(-1, 1, r) + rng.normal() * z[:, None]
    X[:, r:] = rng.normal(size=d - r)
    X = X @ linalg.qr(rng.normal(size=(d, d)))[0] + rng.choice([0.0, 1e3]) * rng.normal(size=d)
    if rng.random() < 0.3:  # a second attribute
        sensitive = np.column_stack([z, rng.integers(0, 2, n)])
    else:
        sensitive = z
    Xc = X - X.mean(axis=0)
    rank = int(np.linalg.matrix_rank(Xc))
    bound = min(n, d - (m - 1) - (sensitive.ndim == 2))
    k = int(rng.integers(rank + 1, bound + 1)) if bound > rank else None
    return X, sensitive, k, rank


def null_space_and_tolerance(Xc):
    """null(Xc) from an SVD with a clear gap, its dimension's complement, and the accuracy.

    A computed top subspace, and so its complement, is accurate to eps·cond² (small-scale
    directions beside an offset of 1e3): the tolerance of the comparisons, far below the O(1)
    of a basis chosen by another rule.
    """
    _, sv, Vt = linalg.svd(Xc)
    rank = int(np.sum(sv > 1e-9 * sv[0]))
    assert rank == len(sv) or sv[rank] < 1e-12 * sv[0]
    atol = max(1e-9, 1e3 * np.finfo(float).eps * (sv[0] / sv[rank - 1]) ** 2)
    assert atol < 0.05
    return Vt[rank:].T, rank, atol, sv[0]


def projected_axes(N, count):
    """Gram–Schmidt of the columns of NNᵀ (the axes projected onto range(N)), in order."""
    d = N.shape[0]
    P = N @ N.T
    basis = []
    for j in range(d):
        if len(basis) == count:
            break
        v = P[:, j].copy()
        for b in basis:
            v -= (b @ v) * b
        for b in basis:
            v -= (b @ v) * b
        if v @ v > 0.5 / d:
            basis.append(v / np.linalg.norm(v))
    return np.array(basis).T


def same_up_to_sign(A, B, atol):
    signs = np.sign(np.sum(A * B, axis=0))
    np.testing.assert_allclose(A * signs, B, atol=atol)


@pytest.mark.parametrize("batch", range(4))
def test_components_beyond_the_rank_are_the_projected_axes(batch):
    checked = 0
    for seed in range(batch * 15, batch * 15 + 15):
        X, s, k, rank = deficient(seed)
        if k is None:
            continue
        for center in (True, False):
            est = FairPCA(k, center=center).fit(X, sensitive_features=s)
            U = est.components_.T
            Xc = X - X.mean(axis=0) if center else X
            # the zero-variance subspace, independently: null(Xc); it lies in the fair subspace
            # (range(Q) ⊂ range(Xcᵀ)), where the fair problem has variance in rank(Xc) − r
            # directions
            N, data_rank, atol, top_sv = null_space_and_tolerance(Xc)
            own = data_rank - est.n_constraints_
            assert own < k
            same_up_to_sign(U[:, own:], projected_axes(N, k - own), atol=atol)
            np.testing.assert_allclose(U.T @ U, np.eye(k), atol=1e-10)
            # exactly 0 when centred; measured on the centred rows when uncentred
            leak = (atol * top_sv) ** 2 / (len(X) - 1)
            np.testing.assert_allclose(est.explained_variance_[own:], 0.0,
                                       atol=0.0 if center else leak)
            np.testing.assert_allclose(Xc @ U[:, own:], 0.0, atol=atol * top_sv)
            # the part with variance is the top of the fair problem, as before
            T = est.transform(X)
            for col in np.atleast_2d(s.T):
                means = np.array([T[col == g].mean(axis=0) for g in np.unique(col)])
                assert np.abs(means - means[0]).max() <= 1e-8 * max(np.abs(T).max(), 1.0)
            checked += 1
    assert checked >= 10


def test_row_order_does_not_change_the_components():
    for seed in range(8):
        X, s, k, _ = deficient(seed)
        if k is None:
            continue
        perm = np.random.default_rng(seed + 100).permutation(len(X))
        for center in (True, False):
            a = FairPCA(k, center=center).fit(X, sensitive_features=s).components_
            b = FairPCA(k, center=center).fit(X[perm], sensitive_features=s[perm]).components_
            atol = null_space_and_tolerance(X - X.mean(axis=0) if center else X)[2]
            np.testing.assert_allclose(a, b, atol=atol, err_msg=f"seed {seed}")


_KERNEL_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    sys.path.insert(0, sys.argv[2])
    from tests.test_pca_rank import blas_instances
    from fairlab import FairPCA
    out = [FairPCA(k, center=c).fit(X, sensitive_features=s).components_.ravel()
           for X, s, k in blas_instances() for c in (True, False)]
    np.save(sys.argv[1], np.concatenate(out))
""")


def blas_instances():
    """Shapes where the eigensolver's zero-eigenvalue basis differed between kernels."""
    rng = np.random.default_rng(5)
    for n, d, r, k in [(200, 80, 10, 40), (50, 120, 5, 45), (300, 150, 20, 100)]:
        z = rng.integers(0, 3, n)
        X = np.zeros((n, d))
        X[:, :r] = rng.normal(size=(n, r)) + 0.7 * z[:, None]
        X[:, r:] = rng.normal(size=d - r)
        yield X @ linalg.qr(rng.normal(size=(d, d)))[0], z, k


def test_blas_kernel_does_not_change_the_components(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = []
    for kernel in ("", "Sandybridge"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        env.pop("OPENBLAS_CORETYPE", None)
        if kernel:
            env["OPENBLAS_CORETYPE"] = kernel
        path = tmp_path / f"components{kernel}.npy"
        subprocess.run([sys.executable, "-c", _KERNEL_SCRIPT, str(path), root], env=env,
                       check=True, cwd=root)
        results.append(np.load(path))
    np.testing.assert_allclose(results[0], results[1], atol=1e-10)


def test_full_rank_and_extreme_scales_keep_the_eigenvectors():
    # the other side of the tolerance: components with variance, however small against λ₁,
    # are the eigenvectors of the fair problem, not axes
    for seed in range(10):
        rng = np.random.default_rng(seed)
        n, d = int(rng.integers(30, 80)), int(rng.integers(3, 8))
        X = rng.normal(size=(n, d)) * np.logspace(-8, 8, d)[rng.permutation(d)]
        s = rng.integers(0, 2, n)
        X[:, 0] += s
        est = FairPCA(d - 1).fit(X, sensitive_features=s)
        scores = X @ est.components_.T
        variances = np.var(scores, axis=0, ddof=1)
        assert np.all(variances > 0) and np.all(est.explained_variance_ > 0)
        big = variances > 1e-12 * variances[0]  # the scores of the others are rounded in X @ u
        np.testing.assert_allclose(est.explained_variance_[big], variances[big], rtol=1e-6)
    rng = np.random.default_rng(3)
    z = rng.integers(0, 2, 200)
    X = rng.normal(size=(200, 9)) + 0.5 * z[:, None]
    est = FairPCA(6).fit(X, sensitive_features=z)
    Xc = X - X.mean(axis=0)
    zt = (z - z.mean())[:, None]
    R = linalg.null_space(zt.T @ Xc)
    w, V = linalg.eigh(R.T @ Xc.T @ Xc @ R)
    top = R @ V[:, ::-1][:, :6]
    same_up_to_sign(est.components_.T, top, atol=1e-10)
