r"""Fair PCA: the best rank-k projection whose group-conditional means coincide.

Kleindessner, Donini, Russell and Zafar (AISTATS 2023) relax "no classifier can recover the
group z from the projection Uᵀx" to "no *linear* function of Uᵀx is *correlated* with z".
With z̃ the centred group indicator this reads z̃ᵀXU = 0, i.e. U must be orthogonal to the
d-vector Xᵀz̃ (points as rows of X here), and the problem becomes PCA inside that subspace:

.. math::

    \max_{U^\top U = I_k} \operatorname{tr}(U^\top X^\top X U)
    \quad\text{s.t.}\quad \tilde Z^\top X U = 0 .                              \tag{4/10}

Algorithm 1 (two groups) / Algorithm 2 (m groups, one-hot columns of Z̃) solve it in closed
form: R = orthonormal basis of null(Z̃ᵀX), Λ = top-k eigenvectors of RᵀXᵀXR, U = RΛ.  The
constraint is equivalent to *equal projected group means*; several attributes stack their Z̃
side by side (§3.5), equal opportunity fits on the rows with y = 1 (§3.2), and "Fair PCA-S"
(§3.6) additionally restricts Λ to the l directions of R in which the two group covariances
differ least (smallest ``|eigenvalue|`` of Rᵀ(Σ₀ − Σ₁)R).

Implementation notes (why it is exact, and costs what PCA costs)
-----------------------------------------------------------------
* No rank is decided where it is known by construction.  The m centred indicators of one
  attribute sum to zero, so Z̃ is replaced by m − 1 of them (an exact basis of its span, also
  across collinear attributes: :meth:`~fairlab._core.validation.SensitiveGroups.contrasts`).  The
  only rank decision left is a genuine one — whether the data make XᵀZ̃ rank deficient — and
  it uses the rounding bound of the product (:func:`~fairlab._core.linalg.constraint_basis`).
* range(XᵀZ̃) has dimension r ≤ Σ_r(m_r − 1), tiny.  Instead of forming the d×(d−r) basis R
  and the product RᵀCR (two extra d³ products), we take an orthonormal basis Q of range(XᵀZ̃)
  and eigendecompose ``C − QDᵀ − DQᵀ`` (a rank-2r update costing O(d²r)), which equals
  PCP − c·QQᵀ with P = I − QQᵀ: its eigenvectors with eigenvalue ≥ 0 are exactly RΛ, and the
  shift c = tr(C)/d pushes the r constrained directions below every admissible one, so that a
  top-k solver never returns them even when C is rank deficient.
* One pass over X gives its mean, XᵀZ̃ and C: one BLAS ``syrk`` for XᵀX − nμμᵀ, while a
  second thread adds up the group sums (a sparse product), or, when the mean dominates the
  spread, row blocks shifted by an approximate mean (exact centring without an n×d copy, and
  no cancellation in XᵀZ̃, centred or not).  When d > n the dual n×n Gram matrix of the
  projected data is decomposed instead.
* Only the lower triangle of C is computed, deflated (``symm``, ``syr2k``) and read, all in
  SciPy's BLAS (one thread pool on the hot path, see :func:`~fairlab._core.linalg.gram`).
* Top-k eigenpairs come from LAPACK ``syevr`` restricted to k indices (``syevd`` when k is a
  sizeable fraction of d), or ARPACK on ``symv`` products when k ≪ d (falling back to LAPACK
  if it stalls), chosen by the rule of every estimator,
  :func:`~fairlab._core.linalg.choose_eigen_solver`, and recorded in ``solver_``.
* Continuous attributes (``sensitive_type``): a numeric column s contributes its centred
  column s̃ to Z̃ (zero covariance of every component with s).  Its rank is not known by
  construction, so it joins the one genuine decision on XᵀZ̃; a two-valued column gives the
  categorical constraint exactly (s̃ spans the line of the centred indicator).
* Beyond one machine's memory: the moments are sums over rows, so a dask array is reduced
  blockwise and a stream of chunks is added up by ``partial_fit``
  (:mod:`fairlab._core.moments`); both hand the sums to the solver of the in-memory fit.
"""

# SPDX-License-Identifier: BSD-3-Clause

import os
import threading
import warnings
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import linalg, sparse
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.extmath import randomized_svd
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import assert_all_finite

from ._core.covariance_gap import _gap_directions, _MomentGroups, _RowGroups
from ._core.linalg import (
    GramSum,
    as_seed,
    complement_basis,
    constraint_basis,
    cross,
    eigen_solver_name,
    flip_signs,
    gram,
    lower_gram,
    svd_solver_name,
    symmetric_product,
    symmetric_rank_2k_update,
    symmetric_rank_k_update,
    symmetric_rank_one_update,
    top_eigh_route,
)
from ._core.moments import (
    Spec,
    StreamingMixin,
    any_dask,
    check_fitted,
    check_groups_of,
    chunk_variables,
    dask_inputs,
    dask_moments,
    dask_transform_input,
    import_dask,
    is_dask,
    map_rows,
    positive_rows,
)
from ._core.validation import (
    check_continuous_dtype,
    check_n_components,
    check_sensitive_columns,
    check_transform_input,
    read_sensitive,
    sensitive_kinds_of,
    validate_data,
    warn_unconstrained,
)

_BLOCK_ROWS = 8192  # rows per block when accumulating XcᵀXc (keeps the centred block in cache)


# ---------------------------------------------------------------------------------------------
# Small numerical kernels
# ---------------------------------------------------------------------------------------------
class _Statistics(NamedTuple):
    """What the solver needs from X: from one pass over the rows, or from accumulated sums.

    ``XtZ`` and ``z_norms`` are None without groups, ``scatter`` when the route needs no
    scatter matrix (dual, Fair PCA-S, randomized).
    """

    mean: np.ndarray  # (d,)
    XtZ: np.ndarray | None  # (d, r): the constraint matrix XᵀZ̃
    col_norms: np.ndarray  # (d,): column norms of the rows as read, the scale of XᵀZ̃'s rounding
    z_norms: np.ndarray | None  # (r,): column norms of Z̃ (of S as given, continuous columns)
    scatter: np.ndarray | None  # (d, d): C, its lower triangle at least
    n_continuous: int = 0  # continuous columns among those of XᵀZ̃ (the last ones)


def _continuous_constraint(S):
    """S̃ (two-pass centred, so that its columns sum to zero to rounding) and ‖sⱼ‖ as given.

    The rounding of S̃'s entries is eps·|sᵢⱼ| (centring), so the norms of the columns as given,
    not centred, are the scale of the rounding of XᵀS̃
    (:func:`~fairlab._core.linalg.constraint_basis`):
    an attribute far from the origin relative to its spread resolves fewer digits.
    """
    St = S - S.mean(axis=0)
    St -= St.mean(axis=0)
    return St, np.sqrt(np.einsum("ij,ij->j", S, S))


def _one_pass_statistics(X, groups, *, center, scatter, S=None):
    """One pass over X: its mean, the constraint matrix XᵀZ̃, and, if ``scatter``, C.

    Z̃ holds the ``groups.independent_columns`` of the centred one-hot matrix (n × r, full rank
    by construction; ``groups=None``: no constraint).  The scatter matrix is
    C = Σᵢ(xᵢ − μ)(xᵢ − μ)ᵀ (``center=True``) or XᵀX (``center=False``); only its lower
    triangle is computed and returned (F-ordered), which is all that the symmetric solvers
    downstream read.  XᵀZ̃ is never formed as a product with an n × r matrix: the group column
    sums G = ZᵀX come from the sparse one-hot Z (one pass, one addition per row and feature),
    and column g of XᵀZ̃ is G_g − (n_g/n)·Σᵢxᵢ, since z̃_g = z_g − n_g/n.

    Rows are read as they are when ‖μ‖² ≤ tr Cov(X) (checked on the first 1 024 rows): one
    ``syrk``, no copy.  Then, for many rows and more than one core, the group sums are computed
    in a second thread while this one runs ``syrk``: both release the GIL, ``syrk`` at small d
    barely gains from a second BLAS thread, and so the sums come at no extra wall time on two
    cores (the results do not depend on it: each is computed in full by one thread).  Data
    farther from the origin are read in row blocks shifted by c, the mean of the first rows, so
    that no difference cancels catastrophically: with δ = μ − c small, Σ(x − c)(x − c)ᵀ − nδδᵀ
    is the centred C, XᵀX = centred C + nμμᵀ, and Z̃ᵀ(X − c) = Z̃ᵀX since the columns of Z̃ sum
    to zero.

    ``S`` (n × q) holds the continuous sensitive columns: their centred versions S̃ are
    appended to Z̃ (as the last q columns of XᵀZ̃, (X − c)ᵀS̃ = XᵀS̃ read with the same shift).

    Returns :class:`_Statistics`: the mean, XᵀZ̃ (d × r or None), the column norms of the rows
    as read and of Z̃ (the scales of the rounding error of XᵀZ̃, for
    :func:`~fairlab._core.linalg.constraint_basis`; None without groups) and the lower triangle of
    C or None.
    """
    n, d = X.shape
    St, s_norms = (None, None) if S is None else _continuous_constraint(S)
    head = X[:1024]  # enough rows to compare the mean with the spread, cheaply
    c = head.mean(axis=0)
    spread = head - c
    first = 1 if groups is None else groups.n_groups[0]  # its group sums add up to Σᵢxᵢ
    Z = _indicator(groups, n)
    # ‖c‖² ≤ tr Cov of the first rows (einsum, not BLAS: see _linalg.gram on thread pools)
    if np.einsum("j,j->", c, c) * head.shape[0] <= np.einsum("ij,ij->", spread, spread):
        c = np.zeros(d)
        own_pass = lower_gram if scatter else _column_squares
        if n > _BLOCK_ROWS and _available_cores() > 1:
            G, second = _concurrently(lambda: Z.T @ X, lambda: own_pass(X))
        else:  # a dense Z: ZᵀX by SciPy's BLAS, as the rest of the fit
            G, second = cross(Z, X), own_pass(X)
        C, squares = (second, None) if scatter else (None, second)
        XtS = None if S is None else cross(X, St)
    else:
        G = np.zeros((Z.shape[1], d))
        scatter_sum = GramSum(d) if scatter else None
        squares = np.zeros(d)
        XtS = None if S is None else np.zeros((d, S.shape[1]))
        for start in range(0, n, _BLOCK_ROWS):
            B = X[start : start + _BLOCK_ROWS] - c
            if scatter:
                scatter_sum.add(B)
            else:
                squares += _column_squares(B)
            G += Z[start : start + B.shape[0]].T @ B
            if S is not None:
                XtS += cross(B, St[start : start + B.shape[0]])
        C = scatter_sum.lower() if scatter else None
    if scatter:
        squares = np.diag(C).copy()
    total = G[:first].sum(axis=0)
    delta = total / n
    mean = c + delta
    if scatter:
        C = symmetric_rank_one_update(C, -n, delta)  # centred scatter matrix
        if not center:
            C = symmetric_rank_one_update(C, n, mean)  # XᵀX; exact no-op when nothing was shifted
    if groups is None and S is None:
        return _Statistics(mean, None, np.sqrt(squares), None, C)
    XtZ, z_norms = np.zeros((d, 0)), np.zeros(0)
    if groups is not None:
        keep = groups.independent_columns
        counts = groups.counts[keep].astype(np.float64)
        XtZ = (G[keep] - np.outer(counts / n, total)).T
        z_norms = np.sqrt(np.maximum(counts - counts**2 / n, 0.0))
    if S is None:
        return _Statistics(mean, XtZ, np.sqrt(squares), z_norms, C)
    return _Statistics(mean, np.hstack([XtZ, XtS]), np.sqrt(squares),
                       np.concatenate([z_norms, s_norms]), C, S.shape[1])


def _column_squares(B):
    return np.einsum("ij,ij->j", B, B)


def _available_cores():
    """Cores this process may run on (its CPU affinity where the platform tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _concurrently(background, foreground):
    """``(background(), foreground())``, the first run in a second thread during the second.

    Both must release the GIL for this to save time (BLAS calls, SciPy's sparse products do).
    An exception in either is raised here, after both have finished.
    """
    result = {}

    def run():
        try:
            result["value"] = background()
        except BaseException as error:  # re-raised in the calling thread
            result["error"] = error

    thread = threading.Thread(target=run, name="fairlab-moments")
    thread.start()
    try:
        here = foreground()
    finally:
        thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"], here


def _indicator(groups, n):
    """The one-hot matrix Z of every attribute (an all-ones column without groups).

    ZᵀB gives the group sums of B, and those of the first attribute add up to its column sums.
    Sparse for many rows (a pass over X, single-threaded); dense below one block, where sparse
    bookkeeping costs more than the product.
    """
    if groups is not None:
        return groups.one_hot(center=False) if n <= _BLOCK_ROWS else groups.indicator()
    if n <= _BLOCK_ROWS:
        return np.ones((n, 1))
    return sparse.csr_array((np.ones(n), np.zeros(n, dtype=np.intp), np.arange(n + 1)),
                            shape=(n, 1))


def _deflate(C, Q, shift=True):
    """Return C − QDᵀ − DQᵀ = PCP − c·QQᵀ in place (P = I − QQᵀ, c = tr(C)/d or 1).

    Eigenvectors of the result with eigenvalue ≥ 0 span range(P) and are those of PCP there;
    the r directions of Q get eigenvalue −c < 0, below every admissible direction.  c is the
    mean eigenvalue of C: far above the rounding level of the zero eigenvalues of PCP (≥ λ₁/d
    against ≈ d·eps·λ₁), yet no larger than λ₁, so the spread of the spectrum — which sets
    Lanczos' convergence — at most doubles.  With ``shift=False`` (c = 0, for the randomized
    solver, which ranks by ``|eigenvalue|``) they get 0.  Only the lower triangle of C is read
    and updated (BLAS ``symm`` and ``syr2k``), as the symmetric solvers read it.
    """
    if Q.shape[1] == 0:
        return C
    c = (float(np.trace(C)) / C.shape[0] or 1.0) if shift else 0.0
    B = symmetric_product(C, Q)  # d × r
    H = Q.T @ B - c * np.eye(Q.shape[1])  # r × r, symmetric
    D = B - 0.5 * (Q @ H)
    return symmetric_rank_2k_update(C, -1.0, Q, D)


def _rayleigh_ritz(Xc, U):
    """Orthonormal basis of span(U), rotated to the eigenvectors of the k×k matrix UᵀXcᵀXcU.

    The dual route's U = PXcᵀVΛ^{-1/2} loses orthogonality in the columns with small λ (their
    rounding is amplified by λ^{-1/2}); a QR factorisation restores it without changing the
    subspace, and the small Rayleigh–Ritz problem restores the order of the directions.
    Also returns ‖Xc u_j‖², each from its own column of scores (see :func:`_rayleigh`).
    """
    U = linalg.qr(U, mode="economic", check_finite=False)[0]
    XU = cross(Xc.T, U)
    _, L = linalg.eigh(gram(XU), check_finite=False)
    return U @ L[:, ::-1], _column_squares(XU @ L[:, ::-1])


def _rayleigh(C, U):
    """uⱼᵀCuⱼ for the columns of U, reading C's lower triangle (BLAS ``symm``).

    The objective of each returned component, and with a centred C its variance × (n − 1).
    An eigenvalue from LAPACK is only accurate to eps·‖C‖₂: with column scales spanning
    1e16, those of the small-scale components are rounding (0 or negative, out of order).
    The Rayleigh quotient of the computed vector u is accurate to ~n·eps·(Σᵢ|uᵢ|‖xᵢ‖)², the
    scale of u's own scores, so it is what ``explained_variance_`` reports and what orders the
    components (C may be the deflated matrix: it equals C on vectors orthogonal to Q).
    """
    return np.einsum("ij,ij->j", U, symmetric_product(C, U))


def _project_out(U, Q):
    """Remove from the columns of U their (round-off sized) component in range(Q)."""
    if Q.shape[1]:
        U = U - Q @ (Q.T @ U)
    return U


def _top_eigh(M, k, solver, random_state):
    """Top-k eigenpairs (descending) and the solver used
    (:func:`~fairlab._core.linalg.top_eigh_route`).

    Dense LAPACK: ``syevr`` restricted to the k wanted indices when k < p/5, otherwise the full
    divide-and-conquer ``syevd`` (faster than ``syevr`` for many vectors); LAPACK's signs are
    kept, since signs are fixed once, on the final components (:meth:`FairPCA._solve`).
    """
    return top_eigh_route(M, k, solver=solver, random_state=random_state, dense_signs=False)


# ---------------------------------------------------------------------------------------------
# The components beyond the rank of the data
# ---------------------------------------------------------------------------------------------
def _axes_basis(N, count, *, complement=False):
    """``count`` orthonormal vectors of range(N) (N with orthonormal columns), machine-independent.

    The coordinate axes projected onto range(N) — or, with ``complement=True``, onto its
    orthogonal complement range(N)^⊥ — orthonormalised in feature order (Gram–Schmidt, twice);
    an axis is kept when more than 1/(2d) of its squared norm is left.  Some axis always keeps
    at least 1/d while the vectors do not span the subspace yet (the squared norms of the
    projected axes sum to the dimension left), so the pass finds up to its dimension vectors.
    Unlike an eigensolver's basis of a repeated eigenvalue, it depends on the subspace only, to
    rounding; entry j of the vector taken from axis j is positive.  The one rule for components
    beyond the rank of the data, in plain Fair PCA (:func:`_complete_beyond_rank`) and in Fair
    PCA-S (:meth:`FairPCA._fit_equalized`).
    """
    d = N.shape[0]
    B = np.zeros((d, 0))
    for j in range(d):
        if B.shape[1] >= count:
            break
        v = N @ N[j]
        if complement:
            v = -v
            v[j] += 1.0
        for _ in range(2):
            v = v - B @ (B.T @ v)
        norm2 = float(v @ v)
        if norm2 > 0.5 / d:
            B = np.column_stack([B, v / np.sqrt(norm2)])
    return B


def _complete_beyond_rank(U, values, Q, scales, n):
    """Replace the components of zero variance by :func:`_axes_basis` of their subspace.

    ``U`` holds the top-k eigenvectors of the deflated C (descending), ``values`` their
    objectives uᵀCu (:func:`_rayleigh`) and ``scales`` the column norms that set C's rounding.
    When k exceeds the rank of the data in range(Q)^⊥, the last components span part of the
    zero-variance subspace range([Q, U_top])^⊥ (U_top the components with variance) and any
    orthonormal basis of it is optimal: an eigensolver returns one that follows the BLAS kernel
    and the row order.  They become the coordinate axes projected onto that subspace, in
    feature order, as in Fair PCA-S.

    A component counts as zero-variance when uᵀCu ≤ max(n, d)·eps·(Σᵢ|uᵢ|·scaleᵢ)²: the
    rounding of the computed C on u at u's own scale (entry (i, j) of C is a sum of n products
    of columns i and j, off by at most n·eps·scaleᵢ·scaleⱼ).  A scale-relative test and not
    one relative to λ₁: with column scales spanning 1e16 the small-scale components have
    eigenvalues far below eps·λ₁ and yet variance (their Rayleigh quotients are accurate).
    Only a trailing run of such components (in the solver's descending order) is replaced;
    with none, U and ``values`` are returned as they are.
    """
    d, k = U.shape
    level = max(n, d) * np.finfo(float).eps * (np.abs(U).T @ scales) ** 2
    rank = k
    while rank > 0 and values[rank - 1] <= level[rank - 1]:
        rank -= 1
    if rank == k:
        return U, values
    top = _project_out(U[:, :rank], Q)
    null = _axes_basis(np.hstack([Q, top]), k - rank, complement=True)
    return np.hstack([top, null]), np.r_[values[:rank], np.zeros(k - rank)]


# ---------------------------------------------------------------------------------------------
# What the solver reads besides the moments: the rows (in memory) or the sums (dask, streams)
# ---------------------------------------------------------------------------------------------
class _Rows:
    """The in-memory rows of X: every route is open (dual, randomized)."""

    in_memory = True

    def __init__(self, X, groups):
        self.X, self.groups = X, groups
        self.n, self.d = X.shape

    def scatter(self, center):
        return _one_pass_statistics(self.X, None, center=center, scatter=True).scatter

    def gap_source(self):
        return _RowGroups(self.X, self.groups)

    def projected_scatter(self, E, mean):
        """EᵀCE, C the scatter matrix about ``mean`` (zeros when uncentred)."""
        return gram(cross((self.X - mean).T, E))

    def centred_variances(self, components, mu, squares):
        """tr(Cc) and, if ``squares``, ‖(X − μ)uⱼ‖² (one blocked pass, no n×d copy)."""
        X, n = self.X, self.n
        total, sq = 0.0, np.zeros(components.shape[0])
        for i in range(0, n, _BLOCK_ROWS):
            B = X[i : i + _BLOCK_ROWS] - mu
            total += float(np.einsum("ij,ij->", B, B))
            if squares:
                projected = B @ components.T
                sq += np.einsum("ij,ij->j", projected, projected)
        return total, sq


class _Sums:
    """Accumulated sums (:class:`~fairlab._core.moments.Moments`): no rows are kept, so the routes
    that read rows (the dual, the randomized SVD of the rows) are closed."""

    in_memory = False

    def __init__(self, moments, C, Cc):
        self.moments, self.C, self.Cc = moments, C, Cc
        self.n, self.d = moments.n, moments.spec.n_features

    def scatter(self, center):
        return self.C.copy()

    def gap_source(self):
        return _MomentGroups(self.moments)

    def projected_scatter(self, E, mean):
        H = cross(E, self.C @ E)
        return (H + H.T) / 2

    def centred_variances(self, components, mu, squares):
        sq = np.einsum("ij,jk,ik->i", components, self.Cc, components) if squares else None
        return float(np.trace(self.Cc)), sq


def _project(B, mean, components):
    """(B − mean) @ componentsᵀ: ``transform`` of one row block."""
    return (B - mean) @ components.T


def _reconstruct(B, components, mean):
    """B @ components + mean: ``inverse_transform`` of one row block."""
    return B @ components + mean


# ---------------------------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------------------------
class FairPCA(StreamingMixin, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Fair PCA of Kleindessner et al. (2023): PCA with equal projected group means.

    Finds orthonormal directions U (d×k, ``components_`` = Uᵀ) maximising the (centred)
    variance tr(UᵀCU) subject to Z̃ᵀXU = 0, where Z̃ holds the centred one-hot columns of
    every group of every sensitive attribute.  Equivalently: the projections
    ``transform(X)`` of the training rows have the same mean in every group, so no
    *linear* function of the representation is
    correlated with group membership.  For two Gaussians with a shared covariance this removes
    all information about the group (Proposition 1).

    Parameters
    ----------
    n_components : int, default=None
        Target dimension k.  ``None`` keeps min(n_samples, d − r) components, where
        r = Σ_r(m_r − 1) is the rank of the centred group indicators (smaller only when
        attributes are collinear, e.g. one is a coarsening of another); with continuous
        columns (``sensitive_type``) r is the rank of the constraint decided from the data
        (Notes), at least that of the categorical ones.  At most d − r is
        allowed (§3.4–3.5: d − m + 1 for one attribute with m groups, d − 1 for two groups),
        and at most n_samples.  When k exceeds the rank of the data in the fair subspace, the
        last components have zero variance on the fitted rows and any orthonormal completion
        is optimal: they are the coordinate axes projected onto the zero-variance subspace,
        orthonormalised in feature order (the rule of ``equalize_covariance``), so that they
        depend neither on the BLAS nor on the order of the rows.
    fairness : {"demographic_parity", "equal_opportunity"}, default="demographic_parity"
        ``"equal_opportunity"`` fits on the rows with ``y == pos_label`` only (§3.2), so the
        group means are equalised among the positives; ``y`` must then be passed to ``fit``,
        and ``mean_`` is the mean of those rows.
    equalize_covariance : float in (0, 1] or int >= 1, default=None
        "Fair PCA-S" (§3.6).  A float f uses l = max(k, ⌊f·d⌋) directions, an int is l itself
        (l >= k).  Within the fair subspace R, only the l directions in which the group
        covariances differ least are kept (smallest ``|eigenvalue|`` of Rᵀ(Σ₀ − Σ₁)R, by a dense
        symmetric solver); PCA is then solved inside them.  l >= dim R gives plain Fair PCA.
        When the data have rank below k in those l directions (e.g. columns that are constant
        on the fitted rows), the last components have zero variance on the fitted rows and any
        orthonormal completion is optimal: they are the coordinate axes projected onto that
        zero-variance subspace, orthonormalised in feature order, so that they do not depend
        on the BLAS.  For more than two groups see Notes.
    center : bool, default=True
        Centre X before the scatter matrix (PCA of the covariance).  ``center=False`` maximises
        the uncentred second moment tr(UᵀXᵀXU), as the paper's Algorithm 1 and all of its
        experiments do.  The fairness constraint is the same either way.
    svd_solver : {"auto", "full", "arpack", "randomized"}, default="auto"
        Top-k symmetric eigensolver: ``"full"`` = LAPACK ``syevr`` on k indices, ``"arpack"`` =
        Lanczos, ``"randomized"`` = Halko et al. (approximate; it cannot tell zero-variance
        directions apart, so use another solver when k exceeds the rank of X).  In memory,
        ``"randomized"`` runs scikit-learn's randomized SVD on the centred rows with the
        constrained directions projected out, as ``PCA(svd_solver="randomized")`` does on the
        centred rows, without forming the d×d scatter matrix.  ``"auto"``
        uses ARPACK when the matrix has size p > 500 and k < p/20, else ``"full"``
        (which switches to a full divide-and-conquer decomposition when k >= p/5): the rule
        every fairlab estimator shares (:func:`fairlab._core.linalg.choose_eigen_solver`).
        Whether the d×d scatter matrix or the n×n Gram matrix (d > n) is decomposed is
        chosen from the shape.  ``solver_`` records the choice.
    random_state : int, RandomState instance or None, default=None
        Start vector of ARPACK / randomized solver.  ``None`` is a fixed seed (deterministic).
    pos_label : int, float, bool or str, default=1
        The favourable label for ``fairness="equal_opportunity"``.
    sensitive_type : {"categorical", "continuous", "auto"} or list of them, default="categorical"
        How each column of ``sensitive_features`` is read (as in :mod:`fairlab.metrics`).
        ``"categorical"``: group labels, the constraint of the paper (centred one-hot columns
        in Z̃).  ``"continuous"``: numbers; the column s contributes one centred column
        s̃ = s − mean(s) to Z̃, so the constraint s̃ᵀXU = 0, i.e. U ⟂ Xcᵀs̃ (Xc the centred
        X), says that every component has zero covariance with s on the fitted rows.  A
        two-valued column declared continuous gives exactly the categorical fit (its centred
        column spans the same line as the centred indicator).  ``"auto"``: float columns
        continuous, all others (integer, boolean, string, object, and a ``pd.Categorical``
        whatever its categories) categorical — one rule in every fairlab function
        (:func:`fairlab._core.validation.auto_sensitive_kind`).  A list or tuple
        gives one of these per column (mixed attributes).  Continuous columns must be numeric
        and finite and not constant.
        With ``fairness="equal_opportunity"`` the covariance is that of the rows with
        ``y == pos_label``.  ``equalize_covariance`` needs a categorical column (it compares
        the covariances of its groups; continuous columns only enter the constraint).

    Attributes
    ----------
    components_ : ndarray of shape (``n_components_``, n_features)
        Orthonormal rows U, sorted by decreasing objective value; the largest-magnitude entry of
        every row is positive (deterministic signs, as scikit-learn's PCA).
    mean_ : ndarray of shape (n_features,)
        Mean of the fitted rows (zeros when ``center=False``); ``transform`` subtracts it.
    explained_variance_ : ndarray of shape (``n_components_``,)
        Sample variance (divisor n − 1) of the fitted rows along each component.
    explained_variance_ratio_ : ndarray of shape (``n_components_``,)
        ``explained_variance_`` divided by the total variance of the fitted rows (trace of
        their covariance), so their sum is the fraction of variance explained (the paper's
        %Var / 100, which evaluates the same ratio on test data).
    n_components_ : int
        The number of components k.
    n_covariance_directions_ : int or None
        The number l of covariance-equalising directions actually used (Fair PCA-S), else None.
    n_constraints_ : int
        Number of independent directions removed from the feature space: the rank of XᵀZ̃ as
        decided in Notes (≤ Σ_r(m_r − 1) + q for q continuous columns; 0 without
        ``sensitive_features``).
    solver_ : {"full", "arpack", "randomized"}
        The eigensolver that computed ``components_``: what ``svd_solver="auto"`` resolved to,
        ``"full"`` when ARPACK did not converge (the dense solver then answers) and for Fair
        PCA-S (a dense l × l problem).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names seen during fit (only when X has string column names).

    See Also
    --------
    sklearn.decomposition.PCA : the unconstrained method (``sensitive_features=None``).
    fairlab.FairKernelPCA : the kernelised version (§3.3).
    fairlab.FairTradeoff : the accuracy/fairness knob λ of §3.1.

    Notes
    -----
    Algorithm 1/2 of the paper, with C the (centred) scatter matrix::

        Z̃ = centred one-hot group indicators (n × Σ m_r)
        R = orthonormal basis of null(Z̃ᵀX)          (d × s, s ≥ d − Σ(m_r − 1))
        Λ = top-k eigenvectors of RᵀCR
        U = RΛ

    The code computes the same U without forming R (see the module docstring).

    Continuous attributes (``sensitive_type``).  With S the q continuous columns, the
    constraint matrix is XᵀZ̃ with Z̃ = [independent centred indicators, S̃], S̃ = S − 1s̄ᵀ:

    .. math::

        \tilde S^\top X U = \tilde S^\top (X - 1\bar x^\top) U = 0
        \iff \operatorname{Cov}(XU, s_j) = 0 \text{ for every column } s_j .

    The rank of S̃ is not known by construction (collinear columns, a continuous column that
    is a function of a categorical one), so it is decided with that of XᵀZ̃ below, the
    rounding scale of a continuous column being its norm as given (centring it rounds at
    eps·‖s‖∞); ``n_components`` may then go up to d minus the decided rank (at least the
    categorical rank).  Dask arrays and ``partial_fit`` accumulate the continuous columns as
    numeric variables next to X, so XᵀS̃ is a block of the centred scatter matrix.

    Rank decisions.  Z̃ is reduced to the r independent centred indicators, chosen exactly from
    the integer group codes, so no rank is decided for it.  XᵀZ̃ is rank deficient only when the
    data make it so (collinear or too few features, group means that coincide); a direction
    of range(XᵀZ̃) is kept as a constraint when its singular value, after scaling the rows by
    the column norms of X (as read, see the module docstring) and the columns by those of Z̃,
    exceeds n·eps·√(d·r) — the rounding bound of the product.  Below it the direction is
    indistinguishable from zero, the group means along it agree to rounding, and it is not
    removed; in particular exactly equal group means never cost a direction.

    Fair PCA-S with more than two groups or several attributes (not covered by the paper):
    with T_g = Rᵀ(Σ_g − Σ̄)R, Σ̄ the size-weighted average of the group covariances, the l
    directions are the smallest eigenvectors of S = Σ_g (n_g/n) T_g²; they minimise
    Σ_g (n_g/n)‖T_g E‖²_F, an upper bound on the projected covariance gaps.  For two groups
    S ∝ T², which is exactly the paper's rule.

    ``sensitive_features=None`` fits standard PCA (with an ``UnconstrainedFallbackWarning``):
    a pipeline that forgot to route the attribute is loud, not silently unfair.

    Beyond memory.  Everything the fit needs is a sum over rows: n, the column sums, the
    scatter matrix and, per group, the size and the column sums (which give XᵀZ̃ exactly), plus
    the per-group scatter matrices for Fair PCA-S.  ``fit`` on a dask Array or DataFrame (X, y
    and ``sensitive_features`` alike) computes them blockwise in one ``dask.compute``: every
    row block is shifted by the mean of the first block (as the in-memory fit shifts its
    blocks, so data far from the origin lose no accuracy), summed on the workers, and the
    block sums are merged by a tree reduction; the group labels are collected in the same pass
    (each block reports its own, the merge aligns them), so no separate ``unique`` pass is
    made.  ``partial_fit`` adds the same sums chunk by chunk.  The d×d eigenproblem is then
    solved locally by the code of the in-memory fit, including the rank decision of the
    constraint (from the column norms of the shifted rows, accumulated too); the results equal
    the in-memory fit to rounding.  The dual (n×n) route is not used for accumulated sums.
    ``transform``/``inverse_transform`` of a dask array are lazy (``map_blocks``).  A dask
    array with unknown chunk sizes is refused (call ``X.compute_chunk_sizes()``); dask is
    imported only when a dask collection is passed.

    References
    ----------
    * M. Kleindessner, M. Donini, C. Russell, M. B. Zafar. "Efficient fair PCA for fair
      representation learning." AISTATS 2023.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 5)) + 2.0 * z[:, None]
    >>> Xt = FairPCA(n_components=2).fit_transform(X, sensitive_features=z)
    >>> bool(np.allclose(Xt[z == 0].mean(axis=0), Xt[z == 1].mean(axis=0)))
    True
    """

    _stream_attributes = (
        "components_", "mean_", "explained_variance_", "explained_variance_ratio_",
        "n_components_", "n_covariance_directions_", "n_constraints_", "solver_",
    )
    _fallback = "PCA"

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "fairness": [StrOptions({"demographic_parity", "equal_opportunity"})],
        "equalize_covariance": [
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
            None,
        ],
        "center": ["boolean"],
        "svd_solver": [StrOptions({"auto", "full", "arpack", "randomized"})],
        "random_state": ["random_state"],
        "pos_label": [Real, str, "boolean"],
        "sensitive_type": [StrOptions({"categorical", "continuous", "auto"}), list, tuple],
    }

    def __init__(
        self,
        n_components=None,
        *,
        fairness="demographic_parity",
        equalize_covariance=None,
        center=True,
        svd_solver="auto",
        random_state=None,
        pos_label=1,
        sensitive_type="categorical",
    ):
        self.n_components = n_components
        self.fairness = fairness
        self.equalize_covariance = equalize_covariance
        self.center = center
        self.svd_solver = svd_solver
        self.random_state = random_state
        self.pos_label = pos_label
        self.sensitive_type = sensitive_type

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit fair PCA.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or a dask Array / DataFrame
            Training data.  A dask collection is read blockwise in one pass (see Notes).
        y : array-like of shape (n_samples,), default=None
            Labels; only used (and then required) with ``fairness="equal_opportunity"``.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Group labels (any hashable values) or, as ``sensitive_type`` says, numbers, a
            Series or a DataFrame (dask ones too); every group needs at least two rows.
            ``None`` fits standard PCA on all rows (whatever ``fairness`` and
            ``equalize_covariance`` say) and warns.

        Returns
        -------
        self : FairPCA
        """
        self._check_number_params()
        self._reset_stream()
        if any_dask(X, y, sensitive_features):
            return self._fit_dask(X, y, sensitive_features)
        # NaN/inf are detected from the column sums computed anyway in _fit (saves a pass).
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2, ensure_all_finite=False)
        groups = S = None
        if sensitive_features is None:
            warn_unconstrained(self, "PCA")
        else:
            columns, kinds = read_sensitive(sensitive_features, X.shape[0], self.sensitive_type)
            if self.fairness == "equal_opportunity":
                assert_all_finite(X, input_name="X")  # before dropping the other rows
                X, columns = self._positive_rows(X, y, columns, kinds)
            sensitive = check_sensitive_columns(columns, kinds, min_group_size=2)
            self._check_equalize_with(sensitive.kinds)
            groups, S = sensitive.groups, sensitive.continuous
        self._fit(X, groups, S)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y=None, *, sensitive_features=None):
        """Accumulate the statistics of one chunk of rows (a stream, a memory-mapped file).

        The fit after any sequence of ``partial_fit`` calls equals one :meth:`fit` on the
        concatenated chunks, to rounding, whatever the chunking: the count, the column sums,
        the scatter matrix and the per-group sums are added up (rows shifted by the mean of
        the first chunk, for accuracy far from the origin).  A group may be missing from
        some chunks, and new groups may appear in later ones; every group needs two rows in
        total.  Every call then solves the d×d eigenproblem of the sums so far (O(d³), as
        scikit-learn's ``IncrementalPCA``), so ``components_`` is current after each call; while
        the sums have no solution yet (a group with one row so far), ``transform`` says why.
        A ``partial_fit`` after :meth:`fit` starts a new stream.
        ``n_samples_seen_`` counts the rows passed so far.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
            One chunk (at least one row).  Dask collections go to :meth:`fit` instead.
        y : array-like of shape (n_rows,), default=None
            Labels of the chunk, with ``fairness="equal_opportunity"`` only.
        sensitive_features : array-like of shape (n_rows,) or (n_rows, n_attributes)
            Group labels of the chunk: the same attributes in every call, or ``None`` in every
            call (standard PCA, with a warning at the first call).

        Returns
        -------
        self : FairPCA
        """
        self._check_number_params()
        return self._partial_fit(X, y, sensitive_features)

    def _check_number_params(self):
        for name in ("n_components", "equalize_covariance"):
            if isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a number, got the bool {getattr(self, name)!r}.")

    def _positive_rows(self, X, y, columns=None, kinds=None):
        """Rows with y == pos_label, for the equal-opportunity mode (§3.2).

        ``columns`` and ``kinds`` are the sensitive columns as parsed once by
        :func:`~fairlab._core.validation.read_sensitive`; the kept rows of X and of every column
        are returned.
        """
        if y is None:
            raise ValueError(
                "fairness='equal_opportunity' fits on the rows with y == pos_label, so fit needs "
                "y; pass fit(X, y, sensitive_features=...)."
            )
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(
                f"y must be 1-D with one label per row of X ({X.shape[0]}); got shape {y.shape}."
            )
        if type_of_target(y) == "continuous":
            raise ValueError(
                "fairness='equal_opportunity' needs class labels in y (it fits on the rows with "
                "y == pos_label); got continuous values. Binarise y first, e.g. "
                "y = (y >= threshold).astype(int), or use fairness='demographic_parity'."
            )
        mask = y == self.pos_label
        if mask.sum() < 2:
            raise ValueError(
                f"fairness='equal_opportunity' needs at least 2 rows with y == pos_label="
                f"{self.pos_label!r}; found {int(mask.sum())}. Check pos_label."
            )
        self._warn_groups_without_positives(columns, kinds, mask)
        return X[mask], [col[mask] for col in columns]

    def _warn_groups_without_positives(self, columns, kinds, mask):
        """Warn, naming them, about groups with no row with y == pos_label.

        Equal opportunity compares the groups on their positive rows; a group without any is
        absent from the fitted rows, so the constraint cannot include it.
        """
        for r, col in enumerate(columns):
            if kinds[r] == "continuous":  # no groups: its covariance is taken on the kept rows
                continue
            labels = pd.unique(pd.Series(col, dtype=object))
            kept = set(pd.unique(pd.Series(col[mask], dtype=object)))
            missing = [g for g in labels if g not in kept and not pd.isna(g)]
            if missing:
                warnings.warn(
                    f"fairness='equal_opportunity': group(s) {missing} of sensitive_features "
                    f"attribute {r} have no row with y == pos_label={self.pos_label!r}, so the "
                    "constraint (equal means over the positive rows) leaves them out. Check "
                    "pos_label, merge those groups, or use fairness='demographic_parity'.",
                    UserWarning, stacklevel=4)

    def _check_k(self, n, d, n_constraints, what="the centred group indicators"):
        bound = d - n_constraints
        if bound < 1:
            raise ValueError(
                f"no direction can satisfy the constraint: n_features - rank of {what} "
                f"= {d} - {n_constraints} < 1. Use fewer groups or more features."
            )
        return check_n_components(
            self.n_components,
            min(n, bound),
            bound_text=f"min(n_samples={n}, n_features - rank of {what} "
            f"= {d} - {n_constraints})",
        )

    def _check_equalize_with(self, kinds):
        """Fair PCA-S compares group covariances: it needs a categorical attribute."""
        if self.equalize_covariance is not None and kinds and "categorical" not in kinds:
            raise ValueError(
                f"equalize_covariance={self.equalize_covariance!r} (Fair PCA-S) equalises the "
                "covariances of groups, but every sensitive_features column is continuous "
                f"(sensitive_type={self.sensitive_type!r}); pass equalize_covariance=None, or "
                "add a categorical attribute (it then equalises the covariances of its groups)."
            )

    def _fit(self, X, groups, S=None):
        n, d = X.shape
        n_constraints = 0 if groups is None else groups.n_constraints
        k = self._check_k(n, d, n_constraints)

        # Algorithm 1/2 (§3.5 for several attributes):
        #   Z̃ = centred one-hot indicators of every group of every attribute     (n × Σ m_r)
        #   R = orthonormal basis of null(Z̃ᵀX);  Λ = top-k eigvecs of RᵀCR;  U = RΛ
        # Z̃ is replaced by its n_constraints independent columns (same constraint, full rank by
        # construction; never formed, see _one_pass_statistics), and we keep the complement of R,
        # Q = basis of range(XᵀZ̃), taking the top-k eigenvectors of C deflated by Q: the same
        # U, without the d×d R.
        maybe_equalized = groups is not None and self.equalize_covariance is not None
        # the scatter matrix is not needed by the dual, Fair PCA-S or the randomized solver
        primal = d <= n and not maybe_equalized and self.svd_solver != "randomized"
        with np.errstate(invalid="ignore", over="ignore"):  # NaN/inf in X: checked just below
            stats = _one_pass_statistics(X, groups, center=self.center, scatter=primal, S=S)
        if not np.all(np.isfinite(stats.mean)):  # X holds NaN/inf, or its column sums overflow
            assert_all_finite(X, input_name="X")
            raise ValueError("X is too large: its column sums overflow float64; rescale X.")
        return self._solve(_Rows(X, groups), k, stats, n_constraints)

    # -- dask arrays and streams: the same solution from accumulated sums -------------------
    def _moment_spec(self, d, columns):
        kinds = () if columns is None else sensitive_kinds_of(self.sensitive_type, columns)
        for r, kind in enumerate(kinds):
            if kind == "continuous":
                check_continuous_dtype(columns[r].dtype, f"sensitive_features attribute {r}")
        self._check_equalize_with(kinds)
        categorical = kinds.count("categorical")
        positive = columns is not None and self.fairness == "equal_opportunity"
        return Spec(
            n_features=d,
            kinds=kinds,
            group_scatter=categorical > 0 and self.equalize_covariance is not None,
            combinations=categorical > 1,
            row_filter=(self.pos_label,) if positive else None,
        )

    def _fit_dask(self, X, y, sensitive_features):
        positive = sensitive_features is not None and self.fairness == "equal_opportunity"
        X, Y, columns = dask_inputs(self, X, y if positive else None, sensitive_features)
        if positive and Y is None:
            self._positive_rows(np.zeros((0, 1)), None)  # raises: y is needed
        if positive and Y.shape[1] != 1:
            raise ValueError(f"y must be 1-D with one label per row of X; got shape {Y.shape}.")
        if sensitive_features is None:
            warn_unconstrained(self, "PCA")
        spec = self._moment_spec(X.shape[1], columns)
        self._fit_moments(dask_moments(spec, X, Y, columns))
        return self

    def _stream_spec(self, X, y, columns):
        return self._moment_spec(X.shape[1], columns)

    def _stream_chunk(self, spec, X, y, columns):
        if spec.row_filter is not None:
            if y is None:
                self._positive_rows(X, None)  # raises: y is needed
            y = np.asarray(y)
            if y.ndim != 1 or y.shape[0] != X.shape[0]:
                raise ValueError(
                    f"y must be 1-D with one label per row of X ({X.shape[0]}); got shape "
                    f"{y.shape}."
                )
            keep = positive_rows(y, spec.row_filter[0])
            X, columns = X[keep], [c[keep] for c in columns]
        return chunk_variables(spec, X, None, columns or [])

    def _fit_moments(self, moments):
        """The fit from accumulated sums (dask, ``partial_fit``): same solver as :meth:`fit`."""
        moments.check_finite("X")
        spec = moments.spec
        n, d = moments.n, spec.n_features
        if spec.row_filter is not None and n < 2:
            raise ValueError(
                f"fairness='equal_opportunity' needs at least 2 rows with y == pos_label="
                f"{spec.row_filter[0]!r}; found {n}. Check pos_label."
            )
        if n < 2:
            raise ValueError(f"Found array with {n} sample(s) while a minimum of 2 is required.")
        XtZ = z_norms = None
        n_constraints = 0
        Cv = moments.centred_scatter()  # of [X, continuous sensitive columns]
        v_mean = moments.mean()
        if spec.n_categorical:
            check_groups_of(moments, min_group_size=2)
            groups = moments.sensitive_groups()
            n_constraints = groups.n_constraints
            sums = [moments.groups(r) for r in range(spec.n_categorical)]
            stacked = np.vstack([centred[:, :d] for _, _, centred, _ in sums])  # Z̃ᵀX, all groups
            counts = np.concatenate([c for _, c, _, _ in sums]).astype(np.float64)
            keep = groups.independent_columns
            XtZ = stacked[keep].T
            z_norms = np.sqrt(np.maximum(counts[keep] - counts[keep] ** 2 / n, 0.0))
        q = Cv.shape[0] - d  # continuous sensitive columns: XᵀS̃ is a block of the scatter
        if q:
            self._check_varying(Cv[d:, d:].diagonal(), v_mean[d:], n, spec.kinds)
            XtS = Cv[:d, d:]
            s_norms = np.sqrt(np.maximum(Cv[d:, d:].diagonal() + n * v_mean[d:] ** 2, 0.0))
            XtZ = XtS if XtZ is None else np.hstack([XtZ, XtS])
            z_norms = s_norms if z_norms is None else np.concatenate([z_norms, s_norms])
        k = self._check_k(n, d, n_constraints)
        mean = v_mean[:d]
        Cc = Cv[:d, :d].copy()
        C = Cc.copy() if self.center else Cc + n * np.outer(mean, mean)
        stats = _Statistics(mean, XtZ, moments.row_norms()[:d], z_norms, C.copy(), q)
        return self._solve(_Sums(moments, C, Cc), k, stats, n_constraints)

    @staticmethod
    def _check_varying(variances, means, n, kinds):
        """A constant continuous column (accumulated sums) gives no constraint: refuse it.

        Σ(s − s̄)² of a constant column is rounding: at most n·(4·eps·|s̄|)², from the shift.
        """
        attributes = [r for r, kind in enumerate(kinds) if kind == "continuous"]
        level = n * (4.0 * np.finfo(float).eps * np.abs(means)) ** 2
        for r, var, lim in zip(attributes, variances, level):
            if not var > lim:
                raise ValueError(
                    f"sensitive_features attribute {r} (continuous) is constant in the streamed "
                    "sums: constant, or so small (max|s| below about 1e-150) that its squares "
                    "underflow float64. A fairness constraint needs a varying attribute: drop "
                    "that column or pass sensitive_features=None; a tiny one, rescale it (e.g. "
                    "divide it by its standard deviation) or fit it in memory, where it is "
                    "rescaled exactly."
                )

    # -- statistics → solution (shared by the in-memory, dask and streaming fits) ---------
    def _solve(self, data, k, stats, n_exact=0):
        n, d = data.n, data.d
        mean = stats.mean
        self.mean_ = mean if self.center else np.zeros(d)
        if stats.XtZ is None:
            Q = np.zeros((d, 0))
        else:
            Q = constraint_basis(stats.XtZ, stats.col_norms, stats.z_norms, n_terms=n)
        if stats.n_continuous:
            # the rank of the continuous columns is the data's: decided just now, with XᵀZ̃'s
            k = self._check_k(n, d, max(n_exact, Q.shape[1]),
                              what="the sensitive columns (decided on XᵀZ̃)")

        self.n_constraints_ = Q.shape[1]
        dim_R = d - Q.shape[1]
        l_dirs = None
        if stats.XtZ is not None and self.equalize_covariance is not None:
            # Fair PCA-S (§3.6); l >= dim R keeps all of R, i.e. plain Fair PCA.
            l_dirs = min(self._n_covariance_directions(k, d), dim_R)
        self.n_covariance_directions_ = l_dirs
        if l_dirs is not None and l_dirs < dim_R:
            U, eigvals, total, used = self._fit_equalized(data, Q, k, l_dirs)
        else:
            U, eigvals, total, used = self._fit_primal_or_dual(data, Q, k, stats.scatter,
                                                               stats.col_norms)
        self.solver_ = svd_solver_name(used)

        # order by the objective of the returned vectors (see _rayleigh), not by eigenvalues
        order = np.argsort(-eigvals, kind="stable")
        U, eigvals = U[:, order], eigvals[order]
        U = flip_signs(_project_out(U, Q))
        self.components_ = np.ascontiguousarray(U.T)
        self.n_components_ = k
        self._set_variances(data, mean, eigvals, total)
        return self

    # -- Algorithm 1/2: top-k eigenvectors of C restricted to range(Q)^⊥ ---------------------
    def _fit_primal_or_dual(self, data, Q, k, C=None, col_norms=None):
        """Top-k (U, eigenvalues, centred total scatter or None, solver used) of C on Q^⊥.

        ``C`` is the scatter matrix when already computed (primal route); when d > n the n×n
        Gram matrix of the projected rows is decomposed instead (dual route, in memory only).
        ``col_norms`` are the norms of the columns as they were summed into C (the scale of its
        rounding).  When k exceeds the rank of the data in range(Q)^⊥, the components beyond
        it follow the rule of :func:`_complete_beyond_rank` (not the eigensolver's basis).
        """
        n, d = data.n, data.d
        solver = eigen_solver_name(self.svd_solver)
        seed = as_seed(self.random_state)
        if solver == "randomized" and data.in_memory:
            return (*self._fit_randomized(data.X, Q, k, seed), "randomized")
        if C is None and d > n and data.in_memory:
            # Dual route: Gram matrix of the projected rows, G = Xc P Xcᵀ (n × n).
            # Its lower triangle only, and every product in SciPy's BLAS (see _linalg.gram).
            Xc = data.X - self.mean_
            XQ = cross(Xc.T, Q)
            G = lower_gram(Xc.T)
            total = float(np.trace(G)) if self.center else None
            G = symmetric_rank_k_update(G, -1.0, XQ)
            w, V, used = _top_eigh(G, k, solver, seed)
            if w[-1] > max(n, d) * np.finfo(float).eps * max(w[0], 0.0):
                U = cross(Xc, V) - Q @ cross(XQ, V)  # U = PXcᵀV (Λ^{-1/2} is restored below)
                U, values = _rayleigh_ritz(Xc, _project_out(U, Q))
                return U, values, total, used
            # k exceeds the rank of the projected data: the zero-variance directions are only
            # defined in the primal problem, so fall through to it.
        if C is None:
            C = data.scatter(self.center)
        total = float(np.trace(C)) if self.center else None
        # the rounding scale of C's entries: the rows as read, or C's own diagonal if larger
        scales = np.sqrt(np.maximum(np.diag(C), 0.0 if col_norms is None else col_norms**2))
        C = _deflate(C, Q, shift=solver != "randomized")
        _, U, used = _top_eigh(C, k, solver, seed)
        values = _rayleigh(C, U)
        if solver == "randomized":  # ranks by |eigenvalue|: cannot tell zero variance apart
            return U, values, total, used
        U, values = _complete_beyond_rank(U, values, Q, scales, n)
        return U, values, total, used

    def _fit_randomized(self, X, Q, k, seed):
        """Halko et al.'s randomized SVD of the projected rows A = (X − μ)P, P = I − QQᵀ.

        The algorithm and the settings of ``PCA(svd_solver="randomized")`` (10 oversamples,
        ``n_iter="auto"``), applied to the rows with the constrained directions removed: the top
        right singular vectors of A are the top eigenvectors of PCP.  Approximate, like
        scikit-learn's; it never forms the d × d scatter matrix, so it costs O(n·d·k).
        """
        A = X - self.mean_
        total = float(np.vdot(A, A)) if self.center else None
        if Q.shape[1]:
            A -= (A @ Q) @ Q.T
        _, s, Vt = randomized_svd(A, k, n_oversamples=10, n_iter="auto", flip_sign=False,
                                  random_state=seed)
        # s² as scikit-learn's randomized PCA reports (approximate, like the directions)
        return Vt.T, s**2, total

    # -- Fair PCA-S (§3.6) ----------------------------------------------------------------
    def _n_covariance_directions(self, k, d):
        f = self.equalize_covariance
        if f is None:
            return None
        if isinstance(f, Integral):
            if f < k:
                raise ValueError(
                    f"equalize_covariance={f} (the number l of covariance-equalising directions) "
                    f"must be >= n_components={k}; the paper uses l in {{k, ..., d - 1}}."
                )
            return int(f)
        return max(k, int(np.floor(f * d)))

    def _fit_equalized(self, data, Q, k, l_dirs):
        """Fair PCA-S: (U, eigenvalues, None, solver), an l × l problem solved by LAPACK."""
        R = complement_basis(Q)  # d × s explicit basis: Σ₀ − Σ₁ must be expressed in it
        E = cross(R.T, _gap_directions(data.gap_source(), R, l_dirs))  # d × l, orthonormal
        H = data.projected_scatter(E, self.mean_)  # EᵀCE, C = (centred) scatter matrix
        w, Lam = linalg.eigh(H, subset_by_index=[l_dirs - k, l_dirs - 1], check_finite=False)
        w, Lam = w[::-1], Lam[:, ::-1]
        tol = max(data.n, data.d) * np.finfo(float).eps * max(w[0], 0.0)
        if w[-1] > tol:
            return E @ Lam, np.einsum("ij,ij->j", Lam, H @ Lam), None, "dense"
        # k exceeds the rank of the data in the l directions: the last components have zero
        # variance, and an eigensolver's basis of that repeated eigenvalue follows the BLAS.
        w, V = linalg.eigh(H, check_finite=False)
        rank = int(np.sum(w > tol))
        V = V[:, ::-1]
        top = V[:, :rank]
        null = _axes_basis(E @ V[:, rank:], k - rank)
        values = np.r_[np.einsum("ij,ij->j", top, H @ top), np.zeros(k - rank)]
        return np.hstack([E @ top, null]), values, None, "dense"

    def _set_variances(self, data, mu, eigvals, total):
        """``explained_variance_`` and its ratio, from the eigenvalues uᵀCu and tr(Cc).

        With ``center=False`` the eigenvalues are uncentred moments uᵀXᵀXu; the variances are
        then measured on the centred rows (one blocked pass, no n×d copy; from the centred
        scatter matrix for accumulated sums), since subtracting n(uᵀμ)² would cancel
        catastrophically for data far from the origin.
        """
        n = data.n
        if total is None or not self.center:
            total, squares = data.centred_variances(self.components_, mu, not self.center)
            if not self.center:
                eigvals = squares
        self.explained_variance_ = np.maximum(eigvals, 0.0) / (n - 1)
        self.explained_variance_ratio_ = (
            self.explained_variance_ * (n - 1) / total if total > 0 else np.zeros_like(eigvals)
        )

    # -- transformer API ------------------------------------------------------------------
    def transform(self, X):
        """Project X on the fair components: (X − ``mean_``) @ ``components_``.T.

        A dask array (or DataFrame) gives a lazy dask array, computed block by block.
        """
        check_fitted(self)
        if is_dask(X):
            A = dask_transform_input(self, X)
            return map_rows(A, _project, self.n_components_, self.mean_, self.components_)
        X = check_transform_input(self, X)
        return (X - self.mean_) @ self.components_.T

    def inverse_transform(self, X):
        """Map projections back to feature space: X @ ``components_`` + ``mean_``.

        A dask array gives a lazy dask array.
        """
        check_fitted(self)
        if is_dask(X):
            import_dask()
            if X.ndim != 2 or X.shape[1] != self.n_components_:
                raise ValueError(
                    f"inverse_transform expects an array of shape (n_samples, "
                    f"{self.n_components_}); got shape {X.shape}."
                )
            return map_rows(X.astype(np.float64), _reconstruct, self.n_features_in_,
                            self.components_, self.mean_)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_components_:
            raise ValueError(
                f"inverse_transform expects an array of shape (n_samples, {self.n_components_}); "
                f"got shape {X.shape}."
            )
        return X @ self.components_ + self.mean_

    @property
    def _n_features_out(self):
        return self.components_.shape[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
