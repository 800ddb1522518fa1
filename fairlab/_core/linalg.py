"""Small dense linear-algebra kernels shared by the estimators.

Everything here works on symmetric matrices and orthonormal bases:

* :func:`constraint_basis` — the one place where a rank is decided: an orthonormal basis of
  the range of a constraint matrix A = FᵀG, with the rank set by the rounding bound of the
  product (scaled to the data and to n), and :func:`complement_basis`, its orthogonal
  complement (the paper's ``R = null_space(z̃ᵀX)``) with no further rank decision;
* :func:`gram_constraint_factor` — the same rule when the constraint is only known through
  its Gram matrix (kernel methods);
* :func:`centred_gram_factor` — the range of a centred Gram matrix, whose structural zeros
  (the mean, repeated points) are known and never decided numerically;
* :func:`range_basis` — orthonormal basis of a column space (numpy's tolerance), for
  comparing subspaces in :func:`subspace_sine`;
* :func:`top_eigh` — the k largest eigenpairs of a symmetric matrix, dense LAPACK
  (``subset_by_index``), ARPACK (``eigsh``) or randomized, sorted in descending order;
* :func:`flip_signs` / :func:`column_signs` — the one sign convention (largest-magnitude entry
  of each column positive);
* :func:`center_gram` — double centring HKH of a Gram matrix, and :func:`center_cross_gram`
  for k(X_new, X_fit) with the training statistics.
"""

from numbers import Integral

import numpy as np
from scipy import linalg
from scipy.linalg import blas, lapack
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh
from sklearn.utils import check_random_state
from sklearn.utils.extmath import randomized_svd


def gram(A):
    """AᵀA, exactly symmetric, by SciPy's BLAS ``syrk`` (no copy of a C- or F-ordered A).

    One BLAS library per hot path: the symmetric eigensolvers that read the result (LAPACK
    ``syevr``/``syevd``, and the ``symv`` products of ARPACK in :func:`top_eigh`) are SciPy's,
    so the Gram matrix is too.  NumPy and SciPy bundle separate OpenBLAS builds with separate
    thread pools, and on a machine with few cores every switch between them stalls while the
    idle pool's threads spin.  ``syrk`` computes one triangle; the other is copied
    from it, so the result is symmetric to the last bit.  Code that reads only the lower
    triangle uses :func:`lower_gram` and skips the copy.
    """
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2:
        raise ValueError(f"gram expects a 2-D array, got shape {A.shape}.")
    return symmetric_from_lower(lower_gram(A))


def _syrk(A, C=None):
    """Lower triangle of AᵀA (+ C, accumulated in place when C is an F-ordered d × d array)."""
    if A.flags.c_contiguous:  # Aᵀ is F-ordered: C = Aᵀ(Aᵀ)ᵀ, no transpose flag, no copy
        a, trans = A.T, 0
    else:
        a, trans = np.asfortranarray(A), 1
    if C is None:
        return blas.dsyrk(1.0, a, trans=trans, lower=1)
    return blas.dsyrk(1.0, a, beta=1.0, c=C, trans=trans, lower=1, overwrite_c=1)


class GramSum:
    """Σ BᵀB over the row blocks B of a d-column matrix, as its lower triangle.

    Every block is added into one d × d buffer by ``syrk`` (β = 1): no temporary per block.
    """

    def __init__(self, d):
        self.d, self.C = d, None

    def add(self, B):
        B = np.asarray(B, dtype=np.float64)
        if B.shape[0] == 0 or B.shape[1] == 0:
            return
        if self.C is None:
            self.C = np.asfortranarray(_syrk(B))
        else:
            self.C = _syrk(B, self.C)

    def lower(self):
        """The sum with only its lower triangle set (F-ordered; the upper one is zero)."""
        return np.zeros((self.d, self.d), order="F") if self.C is None else self.C


def _lower_view(M):
    """M's memory as an F-ordered array, and the BLAS ``lower`` flag addressing M's lower triangle.

    A C-ordered M is read through its transpose (an F-ordered view of the same memory), whose
    upper triangle holds M's lower one, so updates made through the view land in M.
    """
    if M.flags.f_contiguous:
        return M, 1
    if M.flags.c_contiguous:
        return M.T, 0
    raise ValueError("expected a C- or F-contiguous matrix")


def lower_gram(A):
    """The lower triangle of AᵀA (F-ordered, zero above the diagonal), by one ``syrk``."""
    sums = GramSum(np.shape(A)[1])
    sums.add(A)
    return sums.lower()


def symmetric_rank_k_update(M, alpha, A):
    """M + α·AAᵀ in place of M's lower triangle (BLAS ``syrk`` with β = 1); returns M."""
    c, lower = _lower_view(M)
    blas.dsyrk(float(alpha), np.asarray(A, dtype=np.float64), beta=1.0, c=c, trans=0,
               lower=lower, overwrite_c=1)
    return M


def symmetric_product(M, B):
    """M @ B for symmetric M, reading only M's lower triangle (BLAS ``symm``)."""
    a, lower = _lower_view(M)
    return blas.dsymm(1.0, a, np.asarray(B, dtype=np.float64), side=0, lower=lower)


def symmetric_matvec(M):
    """v ↦ Mv for symmetric M, reading only M's lower triangle (BLAS ``symv``: half the reads
    of a ``gemv``, which is what bounds a product with a large matrix)."""
    a, lower = _lower_view(M)
    return lambda v: blas.dsymv(1.0, a, np.ravel(v), lower=lower)


def symmetric_rank_one_update(M, alpha, x):
    """M + α·xxᵀ in place of M's lower triangle (BLAS ``syr``); returns M."""
    a, lower = _lower_view(M)
    blas.dsyr(float(alpha), np.asarray(x, dtype=np.float64), lower=lower, a=a, overwrite_a=1)
    return M


def symmetric_rank_2k_update(M, alpha, A, B):
    """M + α·(ABᵀ + BAᵀ) in place of M's lower triangle (BLAS ``syr2k``); returns M."""
    c, lower = _lower_view(M)
    blas.dsyr2k(float(alpha), np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64),
                beta=1.0, c=c, lower=lower, overwrite_c=1)
    return M


def symmetric_from_lower(M):
    """A new symmetric array from M's lower triangle (M itself is left as it is)."""
    L = np.tril(M)
    S = L + L.T
    S[np.diag_indices_from(S)] *= 0.5  # 2x / 2 = x exactly
    return S


def cross(A, B):
    """AᵀB by SciPy's BLAS ``gemm`` (see :func:`gram` for why not ``A.T @ B``)."""
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    a, trans_a = (A.T, 0) if A.flags.c_contiguous else (np.asfortranarray(A), 1)
    b, trans_b = (B.T, 1) if B.flags.c_contiguous else (np.asfortranarray(B), 0)
    return blas.dgemm(1.0, a, b, trans_a=trans_a, trans_b=trans_b)


def constraint_basis(A, left_norms, right_norms, n_terms):
    r"""Orthonormal basis of range(A) for a constraint matrix A = FᵀG computed in floating point.

    Every constraint of fairlab has this form: A = XᵀZ̃ (fair PCA), K̃Z̃ (fair kernel PCA),
    X_hᵀS̃ (Fair PLS), X̃ᵀS̃ (FDR), with F (n_terms × p) and G (n_terms × r), and the columns
    of G independent by construction (:meth:`~fairlab._core.validation.SensitiveGroups.contrasts`).
    A rank below r is then a genuine property of the data (collinear columns of X, d > n, a
    low-rank kernel, group means that coincide), and is decided here with a tolerance scaled to
    the data and to n:

    * each computed entry obeys |fl(A)_kj − A_kj| ≤ γ‖F_k‖‖G_j‖ with γ = n_terms·eps (the
      rounding bound of a dot product of length n_terms, with Cauchy–Schwarz);
    * so the scaled matrix Â = D_F⁻¹ A D_G⁻¹ (D = diagonal of those norms; |Â_kj| ≤ 1) is known
      to within ‖ΔÂ‖₂ ≤ γ√(p r), and its singular values at or below that bound cannot be told
      from zero.  Their directions are not constrained: the constraint then holds to the
      rounding level of A itself.

    Parameters
    ----------
    A : ndarray of shape (p, r)
    left_norms, right_norms : ndarray of shape (p,) and (r,)
        Column norms of F and G (upper bounds will do).
    n_terms : int
        Length of the sums that make up A (times the number of such sums chained).

    Returns
    -------
    Q : ndarray of shape (p, rank)
        Orthonormal columns spanning the numerically certain part of range(A).
    """
    A = np.asarray(A, dtype=np.float64)
    p, r = A.shape
    if r == 0 or p == 0:
        return np.zeros((p, 0))
    dl = np.where(left_norms > 0, left_norms, 1.0)
    dr = np.where(right_norms > 0, right_norms, 1.0)
    A_hat = A / dl[:, None] / dr[None, :]
    tolerance = n_terms * np.finfo(float).eps * np.sqrt(p * r)
    if r == 1:  # one constraint (two groups): its singular value is a norm, its basis A/‖A‖
        if not np.linalg.norm(A_hat) > tolerance:
            return np.zeros((p, 0))
        q = A / np.max(np.abs(A))  # scaled first: the norm of A itself may overflow
        return q / np.linalg.norm(q)
    U, s, _ = thin_svd(A_hat)
    rank = int(np.sum(s > tolerance))
    if rank == r:
        basis = A  # full rank: A's own columns are the best-conditioned description of range(A)
    else:
        basis = dl[:, None] * U[:, :rank]  # range(A) = D_F range(Â), truncated
    return _orthonormal_columns(basis)[:, :rank]


def thin_svd(A):
    """U, s, Vᵀ of the thin SVD of a small or narrow A by one direct LAPACK call (``gesdd``).

    NumPy's and SciPy's wrappers cost more than the SVD of a d × 2 or 20 × 4 matrix.
    """
    U, s, Vt, info = lapack.dgesdd(A, compute_uv=1, full_matrices=0)
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK SVD did not converge (info={info}).")
    return U, s, Vt


def _orthonormal_columns(B):
    """Q of the thin QR factorisation of B (p × r, p ≥ r) by two direct LAPACK calls."""
    factor, tau, _, info = lapack.dgeqrf(B)
    if info == 0:
        Q, _, info = lapack.dorgqr(factor, tau)
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK QR factorisation failed (info={info}).")
    return Q


def gram_rounding_floor(n_terms, unit):
    """Rounding level 4·N·``unit`` of a Gram matrix whose entries are sums of N rounded terms.

    ``unit`` is the rounding level of one entry of the kernel matrix
    (:func:`fairlab._core.kernels.entry_rounding_unit`); an eigenvalue at or below this level
    is zero to rounding.  The one floor of fair kernel PCA, the fair kernel projection and the
    factors of centred and constraint Gram matrices.
    """
    return 4.0 * n_terms * unit


def gram_constraint_factor(M, n_terms, unit):
    r"""The same rule for a constraint known only through its Gram matrix M = AᵀA (kernels).

    In a kernel method the constraint vectors A = Φ̃ᵀZ live in feature space; only
    M = ZᵀK̃Z (r × r, Z with orthonormal columns) is computed.  Its entries are sums of n_terms
    products of kernel entries, each known to ``unit`` (the rounding level of an entry of the
    kernel matrix, eps·max|K| before centring), so ‖ΔM‖₂ ≤ 4·n_terms·r·unit; eigenvalues at or
    below that bound are indistinguishable from zero and their directions are not
    constrained.  Returns T (r × rank) and σ (rank,) with M⁺ = T diag(σ) Tᵀ over the kept
    eigenvalues (σ = sign, +1 for a positive semi-definite kernel), largest magnitudes first.
    """
    r = M.shape[0]
    if r == 0:
        return np.zeros((0, 0)), np.zeros(0)
    s, V = linalg.eigh((M + M.T) / 2, check_finite=False)
    order = np.argsort(np.abs(s))[::-1]
    keep = order[np.abs(s[order]) > gram_rounding_floor(n_terms * r, unit)]
    return V[:, keep] / np.sqrt(np.abs(s[keep])), np.sign(s[keep])


def centred_gram_factor(Kc, n_distinct, unit=0.0):
    """Eigenpairs (descending) spanning the range of a centred PSD Gram matrix Kc = H K H.

    Kc of n_distinct distinct points has rank at most n_distinct − 1 by construction (1 and
    the differences of indicators of equal points lie in its null space), so at most that many
    eigenpairs are kept — the known zeros are never decided numerically.  Among them, the
    eigenvalues above n·eps·λ_max (the rounding level of an n×n Gram matrix) and above
    4·n·``unit`` are kept: below it the kernel is zero to rounding, a genuine property of the
    data (a low-rank kernel).  ``unit`` is the rounding level of an entry of the *uncentred*
    K (eps·max|K|), which centring does not remove: a linear kernel of data far from the
    origin has entries ≫ λ_max(Kc), and its centred rounding would otherwise pass for rank.
    Returns ``(w, V)`` with w > 0 descending and Kc ≈ V diag(w) Vᵀ.
    """
    n = Kc.shape[0]
    w, V = linalg.eigh((Kc + Kc.T) / 2.0, check_finite=False)
    w, V = w[::-1], V[:, ::-1]
    floor = (max(n * np.finfo(float).eps * max(w[0], 0.0), gram_rounding_floor(n, unit))
             if n else 0.0)
    keep = w > floor if n else np.zeros(0, dtype=bool)
    keep[max(n_distinct - 1, 0):] = False
    return w[keep], V[:, keep]


def n_distinct_rows(A):
    """Number of distinct rows of a 2-D array."""
    return int(np.unique(np.asarray(A), axis=0).shape[0])


def top_principal_axes(Xc, k):
    """Top-k principal axes (d × k, decreasing variance, deterministic signs) of centred rows.

    The top-k eigenvectors of XcᵀXc (LAPACK ``syevr`` on a subset) when d ≤ n, the leading
    right singular vectors of Xc otherwise; signs by :func:`flip_signs`.  The one top-k PCA of
    the metrics (:func:`fairlab.metrics.lee_bandwidth`) and the baselines.
    """
    d = Xc.shape[1]
    if d <= Xc.shape[0]:
        _, V = linalg.eigh(Xc.T @ Xc, subset_by_index=[d - k, d - 1], check_finite=False)
        V = V[:, ::-1]
    else:
        V = linalg.svd(Xc, full_matrices=False, check_finite=False)[2][:k].T
    return flip_signs(V)


def complement_basis(Q):
    """Orthonormal basis of range(Q)^⊥ for Q with orthonormal columns (full QR, no rank test)."""
    p, r = Q.shape
    if r == 0:
        return np.eye(p)
    return linalg.qr(Q, mode="full", check_finite=False)[0][:, r:]


def range_basis(A):
    """Orthonormal basis of the column space of ``A`` (economy SVD, numpy's rank tolerance).

    Only for comparing subspaces (:func:`subspace_sine`); constraints use
    :func:`constraint_basis`.
    """
    A = np.atleast_2d(A)
    if A.size == 0:
        return np.zeros((A.shape[0], 0))
    U, s, _ = linalg.svd(A, full_matrices=False, lapack_driver="gesdd")
    tol = (s[0] if s.size else 0.0) * max(A.shape) * np.finfo(float).eps
    return U[:, s > tol]


# The one "auto" rule of every top-k symmetric eigenproblem in fairlab (FairPCA's scatter and
# Gram matrices, FairKernelPCA's projected Gram matrix, FairDR, KernelFairDR, the baselines).
# Lanczos (ARPACK) converges fast on a decaying spectrum and slowly on a flat one, so the rule
# asks the caller which kind it decomposes: "flat" (the default: the scatter matrix of weakly
# correlated features, and KernelFairDR's operator, whose Lanczos step costs two products)
# takes ARPACK for k < p/20, "decaying" (FairKernelPCA's projected kernel matrix) for k < p/10;
# both only above p = 500, where the dense solver stops being a few milliseconds and has no
# convergence risk.  The break-even points are those of benchmarks/bench_eigensolvers.py (one
# BLAS thread), where the timings live.
_LANCZOS_MIN_SIZE = 500
_LANCZOS_MAX_FRACTION = {"flat": 20, "decaying": 10}


#: The one solver vocabulary.  fairlab's eigensolvers (:func:`top_eigh_route`) and the
#: ``eigen_solver`` of the kernel estimators call LAPACK's dense solver ``"dense"``;
#: :class:`~fairlab.FairPCA`'s ``svd_solver`` follows scikit-learn's ``PCA`` and calls it
#: ``"full"``.  Every other name (``"arpack"``, ``"randomized"``, ``"auto"``) is shared.
SVD_SOLVER_NAMES = {"dense": "full"}


def svd_solver_name(solver):
    """The name of an eigensolver in ``svd_solver`` terms (``"dense"`` → ``"full"``)."""
    return SVD_SOLVER_NAMES.get(solver, solver)


def eigen_solver_name(solver):
    """The name of an ``svd_solver`` in eigensolver terms (``"full"`` → ``"dense"``)."""
    return {v: k for k, v in SVD_SOLVER_NAMES.items()}.get(solver, solver)


def choose_eigen_solver(p, k, *, spectrum="flat"):
    """``"arpack"`` or ``"dense"`` for the k largest eigenpairs of a p × p symmetric matrix.

    What ``"auto"`` means in every estimator: Lanczos when p > 500 and k < p/20 for a
    ``spectrum="flat"`` matrix, k < p/10 for a ``"decaying"`` one (a kernel matrix), the dense
    LAPACK solver otherwise (the measurements are in the comment above this function).
    """
    if spectrum not in _LANCZOS_MAX_FRACTION:
        raise ValueError(f"spectrum must be one of {sorted(_LANCZOS_MAX_FRACTION)}; got "
                         f"{spectrum!r}.")
    fraction = _LANCZOS_MAX_FRACTION[spectrum]
    return "arpack" if p > _LANCZOS_MIN_SIZE and fraction * k < p else "dense"


def top_eigh(M, k, *, solver="auto", random_state=None):
    """The ``k`` largest eigenpairs of the symmetric matrix ``M``, in descending order.

    Parameters
    ----------
    M : ndarray of shape (p, p)
        Symmetric matrix; only its lower triangle is read, by every solver.
    k : int
        Number of eigenpairs, ``1 <= k <= p``.
    solver : {"auto", "dense", "arpack", "randomized"}
        ``"dense"``: LAPACK ``syevr`` restricted to the top-k indices (O(p³) but with a
        small constant); ``"arpack"``: Lanczos (``eigsh``), worthwhile when k ≪ p and p is
        large, with the dense solver as fallback if it does not converge; ``"randomized"``:
        Halko et al. on a PSD matrix.  ``"auto"``: :func:`choose_eigen_solver`.
    random_state : int, RandomState instance or None
        Start vector of ARPACK / the randomized solver; ``None`` is the fixed seed 0.

    Returns
    -------
    eigenvalues : ndarray of shape (k,)
    eigenvectors : ndarray of shape (p, k)
        Orthonormal columns with deterministic signs (see :func:`flip_signs`).
    """
    w, V, _ = top_eigh_route(M, k, solver=solver, random_state=random_state)
    return w, V


def top_eigh_route(M, k, *, solver="auto", random_state=None, dense_signs=True):
    """:func:`top_eigh`, and the solver that produced the result.

    The solver is ``"dense"`` when ARPACK was asked for but did not converge.  With
    ``dense_signs=False`` the dense solver picks its LAPACK driver by k/p (see
    :func:`dense_top_eigh`) and its eigenvectors keep LAPACK's signs, for callers that fix the
    signs of their final components themselves (FairPCA).
    """
    p = M.shape[0]
    if not 1 <= k <= p:
        raise ValueError(f"k must be in [1, {p}], got {k}.")
    if solver == "auto":
        solver = choose_eigen_solver(p, k)
    if solver == "arpack":
        found = _lanczos_top_eigh(M, k, random_state)
        if found is None:  # a clustered spectrum stalled Lanczos: the dense solver decides
            solver = "dense"
        else:
            w, V = found
    if solver == "dense":
        w, V = dense_top_eigh(M, k, full=None if not dense_signs else False)
        if not dense_signs:
            return w[::-1], V[:, ::-1], solver
    elif solver == "randomized":
        M = symmetric_from_lower(M)
        V, w, _ = randomized_svd(M, k, n_iter=7, random_state=_rng(random_state))
        w = np.einsum("ij,ij->j", V, M @ V)  # Rayleigh quotients keep the sign of each eigenvalue
    elif solver != "arpack":
        raise ValueError(f"unknown eigen solver {solver!r}")
    order = np.argsort(w)[::-1]
    return w[order], flip_signs(V[:, order]), solver


def _lanczos_top_eigh(M, k, random_state):
    """k largest eigenpairs by ARPACK with BLAS ``symv`` products (the lower triangle of M).

    ``symv`` reads half of M, so each product costs half of NumPy's ``gemv`` on a large M, and
    it runs in SciPy's BLAS, as the ``syrk`` that usually computed M (see :func:`gram`).
    None when Lanczos does not converge (a clustered spectrum can stall it).
    """
    p = M.shape[0]
    operator = LinearOperator((p, p), matvec=symmetric_matvec(M), dtype=np.float64)
    v0 = _rng(random_state).uniform(-1.0, 1.0, p)
    try:
        return eigsh(operator, k=k, which="LA", v0=v0)
    except ArpackNoConvergence:
        return None


def dense_top_eigh(M, k, *, full=None):
    """The k largest eigenpairs of symmetric M (ascending), by one direct LAPACK call.

    ``syevr`` restricted to the k wanted indices, or (``full=True``; ``None``: when k ≥ p/5,
    where it is faster) the whole divide-and-conquer ``syevd``.  Only the lower triangle is
    read, as :func:`scipy.linalg.eigh` does; calling LAPACK directly skips that function's
    argument handling, which costs more than the decomposition of a 20 × 20 matrix.
    """
    p = M.shape[0]
    if full is None:
        full = 5 * k >= p
    if full:
        w, V, info = lapack.dsyevd(M, compute_v=1, lower=1)
        w, V = w[p - k :], V[:, p - k :]
    else:
        w, V, _, _, info = lapack.dsyevr(M, compute_v=1, range="I", il=p - k + 1, iu=p, lower=1)
        w, V = w[:k], V[:, :k]
    if info != 0:
        raise np.linalg.LinAlgError(f"LAPACK symmetric eigensolver failed (info={info}).")
    return w, V


def as_seed(random_state):
    """An int seed from a ``random_state`` parameter; ``None`` is the fixed seed 0.

    fairlab's estimators are deterministic unless a seed says otherwise: ``None`` never draws
    from NumPy's global generator.  Ints pass through; a RandomState instance gives one draw.
    """
    if random_state is None:
        return 0
    if isinstance(random_state, Integral):
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _rng(random_state):
    """``check_random_state`` of :func:`as_seed`: results never vary from run to run."""
    return check_random_state(as_seed(random_state))


#: Two magnitudes closer than this (relative) are a near tie (see :func:`column_signs`).
SIGN_TIE = 1e-9


def column_signs(E, *, tie=0.0):
    """±1 per column of ``E``, the sign of its largest-magnitude entry (+1 for a zero column).

    fairlab's one sign convention: eigenvectors, components and embeddings are returned with
    the largest-magnitude entry of every column positive (:func:`flip_signs`), or, for
    representer coefficients, of every column of the training scores they produce.  The signs
    of an eigensolver's vectors follow the LAPACK driver, the BLAS kernel and the thread count;
    these do not, except at a near tie.

    Parameters
    ----------
    E : ndarray of shape (n, k)
    tie : float, default=0.0
        Entries whose magnitudes agree to this relative tolerance are a tie, broken by row order
        (the first of them decides).  With the default 0 the largest entry decides even when
        another is smaller by a few ulps only, and which one that is follows the BLAS kernel:
        the loadings of two collinear indicator columns are ±a, so on COMPAS Fair PCA-S's first
        component flips between OpenBLAS kernels.  The estimators still use 0, because the
        results stored in the ledger were computed with it and a tie-aware default changes some
        of them (4 of the 74 units ``make verify-results`` samples); :data:`SIGN_TIE` is the
        tolerance :func:`fairlab.metrics.leakage` uses.
    """
    E = np.asarray(E)
    if E.size == 0:
        return np.ones(E.shape[1] if E.ndim == 2 else 0)
    magnitude = np.abs(E)
    rows = np.argmax(magnitude >= magnitude.max(axis=0) * (1.0 - tie), axis=0)
    signs = np.sign(E[rows, np.arange(E.shape[1])])
    signs[signs == 0] = 1.0
    return signs


def signs_of_extremes(column_max, column_min):
    """:func:`column_signs` from the columns' maxima and minima (a blockwise pass over rows).

    A column whose largest entry and the magnitude of its smallest are equal gets +1.
    """
    return np.where(np.asarray(column_max) >= -np.asarray(column_min), 1.0, -1.0)


def flip_signs(V):
    """Make the largest-magnitude entry of every column of ``V`` positive (:func:`column_signs`)."""
    V = np.asarray(V)
    if V.size == 0:
        return V
    return V * column_signs(V)


def center_gram(K):
    """Double-centred Gram matrix HKH with H = I − 11ᵀ/n (no n×n H is formed)."""
    row_means = K.mean(axis=0)
    return K - row_means[None, :] - K.mean(axis=1)[:, None] + row_means.mean()


def center_symmetric_gram_inplace(K, column_means=None):
    """HKH in place of a symmetric K, in two passes and without a copy.

    K is symmetric, so its row means are its column means (``column_means``, computed when not
    given): K̃ = K − 1mᵀ − (m − m̄)1ᵀ.
    """
    means = K.mean(axis=0) if column_means is None else column_means
    K -= means[None, :]
    K -= (means - means.mean())[:, None]
    return K


def center_cross_gram(K_new, fit_column_means, fit_mean, *, overwrite=False):
    """Centre a cross Gram matrix k(X_new, X_fit) with the statistics of the training Gram K_fit.

    k̃(x, x_j) = k(x, x_j) − (1/n)Σ_l k(x, x_l) − (1/n)Σ_l k(x_l, x_j) + (1/n²)Σ_lm k(x_l, x_m),
    i.e. ⟨φ(x) − φ̄, φ(x_j) − φ̄⟩ with φ̄ the training mean in feature space (scikit-learn's
    ``KernelCenterer``).  ``fit_column_means = K_fit.mean(axis=0)``, ``fit_mean = K_fit.mean()``;
    on the training rows this returns :func:`center_gram` of K_fit.

    ``overwrite=True`` centres a float64 ``K_new`` in place — for a kernel matrix the caller
    has just computed (:func:`~fairlab._core.kernels.kernel_matrix_is_new`), never one a user
    passed: the same three operations in the same order on every entry, so the result is
    bitwise that of the copy, without its three temporaries.  Other dtypes are not overwritten
    (the copy's arithmetic is float64).
    """
    row_means = K_new.mean(axis=1)[:, None]
    if not (overwrite and K_new.dtype == np.float64):
        return K_new - row_means - fit_column_means[None, :] + fit_mean
    K_new -= row_means
    K_new -= fit_column_means[None, :]
    K_new += fit_mean
    return K_new


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
