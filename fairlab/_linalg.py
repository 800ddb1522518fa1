"""Small dense linear-algebra kernels shared by the estimators.

Everything here works on symmetric matrices and orthonormal bases:

* :func:`range_basis` / :func:`null_space_basis` — orthonormal bases of the column space of A
  and of the null space of Aᵀ (the paper's ``R = null_space(z̃ᵀX)``), both from one SVD;
* :func:`top_eigh` — the k largest eigenpairs of a symmetric matrix, dense LAPACK
  (``subset_by_index``), ARPACK (``eigsh``) or randomized, sorted in descending order;
* :func:`flip_signs` — deterministic signs of eigenvectors (largest-magnitude entry positive);
* :func:`center_gram` — double centring HKH of a Gram matrix, and :func:`center_cross_gram`
  for k(X_new, X_fit) with the training statistics.
"""

import numpy as np
from scipy import linalg
from scipy.linalg import blas
from scipy.sparse.linalg import eigsh
from sklearn.utils import check_random_state
from sklearn.utils.extmath import randomized_svd


def gram(A):
    """AᵀA by SciPy's BLAS ``syrk`` (full symmetric result, no copy of a C- or F-ordered A).

    The products that feed an eigensolver go through SciPy's BLAS, the library its LAPACK
    uses: pip wheels of NumPy and SciPy each bundle their own OpenBLAS, and alternating between
    the two thread pools stalls both (about 15 ms per switch on a 2-core machine, 30× the cost
    of a 100×100 problem).
    """
    A = np.asarray(A, dtype=np.float64)
    if A.flags.c_contiguous:  # A is row-major: Aᵀ is a column-major (Fortran) view
        upper = blas.dsyrk(1.0, A.T, trans=0, lower=0)
    else:
        upper = blas.dsyrk(1.0, np.asfortranarray(A), trans=1, lower=0)
    return np.triu(upper) + np.triu(upper, 1).T


def cross(A, B):
    """AᵀB by SciPy's BLAS ``gemm`` (see :func:`gram` for why not ``A.T @ B``)."""
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    a, trans_a = (A.T, 0) if A.flags.c_contiguous else (np.asfortranarray(A), 1)
    b, trans_b = (B.T, 1) if B.flags.c_contiguous else (np.asfortranarray(B), 0)
    return blas.dgemm(1.0, a, b, trans_a=trans_a, trans_b=trans_b)


def _rank_tol(s, shape):
    """numpy's default rank tolerance: σ_max · max(shape) · eps."""
    return (s[0] if s.size else 0.0) * max(shape) * np.finfo(float).eps


def range_basis(A, rtol=None):
    """Orthonormal basis (columns) of the column space of ``A``, by an economy SVD."""
    A = np.atleast_2d(A)
    if A.size == 0:
        return np.zeros((A.shape[0], 0))
    U, s, _ = linalg.svd(A, full_matrices=False, lapack_driver="gesdd")
    tol = _rank_tol(s, A.shape) if rtol is None else rtol * (s[0] if s.size else 0.0)
    return U[:, s > tol]


def null_space_basis(A, rtol=None):
    """Orthonormal basis (columns) of the null space of ``Aᵀ``, i.e. of range(A)^⊥.

    For A = XᵀZ̃ (d×m) this is the matrix R of Algorithm 1/2 of Kleindessner et al..
    """
    A = np.atleast_2d(A)
    U, s, _ = linalg.svd(A, full_matrices=True, lapack_driver="gesdd")
    tol = _rank_tol(s, A.shape) if rtol is None else rtol * (s[0] if s.size else 0.0)
    rank = int(np.sum(s > tol))
    return U[:, rank:]


def top_eigh(M, k, *, solver="auto", random_state=None):
    """The ``k`` largest eigenpairs of the symmetric matrix ``M``, in descending order.

    Parameters
    ----------
    M : ndarray of shape (p, p)
        Symmetric matrix (only the lower triangle is read by LAPACK).
    k : int
        Number of eigenpairs, ``1 <= k <= p``.
    solver : {"auto", "dense", "arpack", "randomized"}
        ``"dense"``: LAPACK ``syevr`` restricted to the top-k indices (O(p³) but with a
        small constant); ``"arpack"``: Lanczos (``eigsh``), worthwhile when k ≪ p and p is
        large; ``"randomized"``: Halko et al. on a PSD matrix.  ``"auto"`` uses ARPACK when
        p > 500 and k < p / 10, dense otherwise.

    Returns
    -------
    eigenvalues : ndarray of shape (k,)
    eigenvectors : ndarray of shape (p, k)
        Orthonormal columns with deterministic signs (see :func:`flip_signs`).
    """
    p = M.shape[0]
    if not 1 <= k <= p:
        raise ValueError(f"k must be in [1, {p}], got {k}.")
    if solver == "auto":
        solver = "arpack" if (p > 500 and k < p // 10) else "dense"
    if solver == "dense":
        w, V = linalg.eigh(M, subset_by_index=[p - k, p - 1], driver="evr", check_finite=False)
    elif solver == "arpack":
        v0 = check_random_state(random_state).uniform(-1.0, 1.0, p)
        w, V = eigsh(M, k=k, which="LA", v0=v0)
    elif solver == "randomized":
        V, w, _ = randomized_svd(M, k, n_iter=7, random_state=check_random_state(random_state))
        w = np.einsum("ij,ij->j", V, M @ V)  # Rayleigh quotients keep the sign of each eigenvalue
    else:
        raise ValueError(f"unknown eigen solver {solver!r}")
    order = np.argsort(w)[::-1]
    return w[order], flip_signs(V[:, order])


def flip_signs(V):
    """Make the largest-magnitude entry of every column of ``V`` positive (deterministic output)."""
    V = np.asarray(V)
    if V.size == 0:
        return V
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def center_gram(K):
    """Double-centred Gram matrix HKH with H = I − 11ᵀ/n (no n×n H is formed)."""
    row_means = K.mean(axis=0)
    return K - row_means[None, :] - K.mean(axis=1)[:, None] + row_means.mean()


def center_cross_gram(K_new, fit_column_means, fit_mean):
    """Centre a cross Gram matrix k(X_new, X_fit) with the statistics of the training Gram K_fit.

    k̃(x, x_j) = k(x, x_j) − (1/n)Σ_l k(x, x_l) − (1/n)Σ_l k(x_l, x_j) + (1/n²)Σ_lm k(x_l, x_m),
    i.e. ⟨φ(x) − φ̄, φ(x_j) − φ̄⟩ with φ̄ the training mean in feature space (scikit-learn's
    ``KernelCenterer``).  ``fit_column_means = K_fit.mean(axis=0)``, ``fit_mean = K_fit.mean()``;
    on the training rows this returns :func:`center_gram` of K_fit.
    """
    return K_new - K_new.mean(axis=1)[:, None] - fit_column_means[None, :] + fit_mean


def subspace_sine(U, V):
    """Sine of the largest principal angle between span(U) and span(V) (0 = same subspace).

    Computed as ‖(I − Q_U Q_Uᵀ) Q_V‖₂, accurate down to machine precision (the cosine route,
    sqrt(1 − σ_min²), loses everything below ~1e-8).
    """
    QU = range_basis(U)
    QV = range_basis(V)
    if QU.shape[1] != QV.shape[1]:
        return 1.0
    residual = QV - QU @ (QU.T @ QV)
    return float(min(1.0, linalg.norm(residual, 2)))
