"""The fairness constraint of the kernel methods in feature space: its basis, its factor, its
rounding floor, and the linear kernel's constraint on X itself.

Fair kernel PCA (:mod:`fairlab.kernel_pca`) and the fair kernel projection
(:mod:`fairlab.kernel_projection`) build the same constraint: an orthonormal basis Z of the
centred sensitive columns, the factor (ZᵀKZ)⁺ = T diag(σ) Tᵀ with W = KZT, and the smallest
eigenvalue of the projected Gram matrix kept as a component.
"""

# SPDX-License-Identifier: BSD-3-Clause

from typing import NamedTuple

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from .linalg import (
    complement_basis,
    constraint_basis,
    gram_constraint_factor,
    gram_rounding_floor,
    thin_svd,
)

__all__ = [
    "CONSTRAINT_RTOL",
    "LinearProblem",
    "component_floor",
    "constraint_columns",
    "constraint_factor",
    "linear_components",
    "linear_constraint",
]

# A kept component's group means must agree to this fraction of its own norm (see
# component_floor): eigenvalues below the rounding level of G divided by it are dropped.
CONSTRAINT_RTOL = 1e-6


def constraint_factor(K, Z, unit):
    """T, σ with (ZᵀKZ)⁺ = T diag(σ) Tᵀ, and KZT: the constraint, with its rank decided once.

    ``Z`` has orthonormal columns; ``unit`` is the rounding level of an entry of K (see
    :func:`fairlab._core.linalg.gram_constraint_factor`).  W = KZT = Φ̃(AT) holds the images of an
    orthonormal basis AT of the feature-space constraint vectors A = Φ̃ᵀZ.
    """
    KZ = K @ Z
    T, sigma = gram_constraint_factor(Z.T @ KZ, K.shape[0], unit)
    return T, sigma, KZ @ T


def constraint_columns(sensitive):
    """Orthonormal basis Z of span(Z̃) for :class:`~fairlab._core.validation.SensitiveColumns`.

    The categorical part is the exact basis of the independent centred indicators (no rank
    decided); the continuous columns S̃ (centred) are projected off it and the rank of what is
    left is decided by :func:`~fairlab._core.linalg.constraint_basis` (collinear columns, or a
    continuous column that is a function of a categorical one, are a property of the data),
    each column's rounding scale being its norm as given (centring rounds at eps·|s|).
    """
    groups, S = sensitive.groups, sensitive.continuous
    n = (S if groups is None else groups.codes).shape[0]
    Zc = np.zeros((n, 0)) if groups is None else linalg.qr(groups.contrasts(),
                                                            mode="economic")[0]
    if S is None:
        return Zc
    St = S - S.mean(axis=0)
    St -= St.mean(axis=0)
    St -= Zc @ (Zc.T @ St)
    Zs = constraint_basis(St, np.ones(n), np.sqrt(np.einsum("ij,ij->j", S, S)), n_terms=n)
    Zs -= Zc @ (Zc.T @ Zs)  # re-orthogonalise against the exact part (twice is enough)
    return linalg.qr(np.hstack([Zc, Zs]), mode="economic")[0]


def component_floor(n, unit, trace, T):
    r"""Smallest eigenvalue of G kept as a component: the rounding level of G over a tolerance.

    The computed G = K̃ − WWᵀ (W = K̃ZT, Tᵀ ZᵀK̃Z T = I) differs from the exact one by ΔG with
    ‖ΔK̃‖₂ ≤ n·unit and ‖ΔW_j‖ ≤ n·unit/√μ_j (μ_j the eigenvalues of ZᵀK̃Z, ‖T_j‖ = μ_j^{-½})
    against ‖W‖₂² ≤ λ₁(K̃) ≤ tr(K̃), so ‖ΔG‖₂ ≤ δ_G = n·unit·(1 + 2√(tr(K̃)/μ_min)).
    An eigenvector v of G with eigenvalue λ lies in the exact null-space complement only up to
    ‖Zᵀv‖ ≲ δ_G/λ (Davis–Kahan against the zero eigenvalues that span(Z) carries), which is
    the gap of the group means of the component relative to its norm √λ.  Components with
    λ ≤ δ_G/τ (τ = ``CONSTRAINT_RTOL``) would not be fair at their own scale: they are
    dropped.  Without a constraint the floor is the rounding level 4·n·unit of K̃ itself.
    """
    base = gram_rounding_floor(n, unit)
    if T.shape[1] == 0:
        return base
    mu_min = 1.0 / float(np.max(np.einsum("ij,ij->j", T, T)))
    delta = n * unit * (1.0 + 2.0 * np.sqrt(max(trace, 0.0) / mu_min))
    return max(base, delta / CONSTRAINT_RTOL)


class LinearProblem(NamedTuple):
    """The linear kernel's centring and constraint on X itself (:func:`linear_constraint`).

    ``mean`` μ (two-pass), ``Xc`` = X − μ, ``A`` = XcᵀZ (the feature-space constraint vectors
    Φ̃ᵀZ of the linear kernel), ``Q`` an orthonormal basis of range(A) (its rank decided),
    and the fair directions range(A)^⊥ = span(Q⊥) held scale-free: with c the column norms
    of Xc and R an orthonormal basis of range(D_c⁻¹A)^⊥, Q⊥ = D_c⁻¹ R T⁻¹, T the triangular
    factor of D_c⁻¹R (so that Q⊥ has orthonormal columns).
    """

    mean: np.ndarray
    Xc: np.ndarray
    A: np.ndarray
    Q: np.ndarray
    scale: np.ndarray
    R: np.ndarray
    T: np.ndarray

    def project(self, rows):
        """rows·Q⊥ = ((rows/c)R)T⁻¹: no product of a large column with a small weight."""
        return linalg.solve_triangular(self.T, ((rows / self.scale) @ self.R).T, trans="T",
                                       lower=False).T

    def directions(self, V):
        """Q⊥V = R(T⁻¹V)/c, entry by entry as accurate as the scaled problem (d × k)."""
        return (self.R @ linalg.solve_triangular(self.T, V, lower=False)) / self.scale[:, None]


def linear_constraint(X, Z):
    """Centring and constraint of the linear kernel, on X itself (no Gram matrix is formed).

    Z is centred, so XᵀZ = XcᵀZ: A is computed from the two-pass centred Xc and loses nothing
    to an offset.  Its rank is decided by :func:`~fairlab._core.linalg.constraint_basis` (entries
    rounding at n·eps·‖x_col‖‖z‖, the columns of X as given), once, on the column-scaled
    D_c⁻¹A (the rule is invariant to that scaling).  The fair directions are then built in
    the scaled coordinates, where every column of X weighs alike: with column scales of 1e-6
    … 1e6, an orthonormal basis of range(A)^⊥ computed directly is accurate only to eps
    normwise, and its small entries on the large columns (weights ~1e-12) would carry errors
    as large as the signal of the small columns.  T is the triangular factor of D_c⁻¹R by
    Householder QR with the rows sorted by decreasing norm (row-wise stable for such graded
    matrices).  Returns a :class:`LinearProblem`.
    """
    n, d = X.shape
    mean = X.mean(axis=0)
    Xc = X - mean
    shift = Xc.mean(axis=0)  # the second pass removes the first pass's rounding
    Xc -= shift
    mean = mean + shift
    norms = np.sqrt(np.einsum("ij,ij->j", Xc, Xc))
    scale = np.where(norms > 0, norms, 1.0)
    if Z.shape[1]:
        A = Xc.T @ Z
        Qs = constraint_basis(A / scale[:, None],
                              np.sqrt(np.einsum("ij,ij->j", X, X)) / scale,
                              np.ones(Z.shape[1]), n_terms=n)
        # the same range in the original coordinates, for A⁺ and n_constraints_
        Q = _orthonormal_range(scale[:, None] * Qs)
    else:
        A, Qs, Q = np.zeros((d, 0)), np.zeros((d, 0)), np.zeros((d, 0))
    R = complement_basis(Qs)
    B = R / scale[:, None]
    order = np.argsort(-np.einsum("ij,ij->i", B, B), kind="stable")
    T = linalg.qr(B[order], mode="r", check_finite=False)[0][: R.shape[1]]
    return LinearProblem(mean, Xc, A, Q, scale, R, T)


def _orthonormal_range(B):
    """Orthonormal basis of range(B) for B of full column rank (thin QR)."""
    return linalg.qr(B, mode="economic", check_finite=False)[0] if B.shape[1] else B


def _graded_svd(B):
    """Singular values (descending) and right singular vectors of B, accurate per value.

    LAPACK's preconditioned Jacobi SVD (``dgejsv``, column-scaled mode) computes every
    singular value of B = CD (D diagonal) to a relative accuracy of eps·κ(C), whatever D:
    the columns of the projected data keep the spread of X's column scales, and the small
    singular values must not inherit the rounding eps·σ₁ of a bidiagonalisation.  Wide B
    (fewer rows than columns): the thin SVD (``gesdd``).
    """
    m, p = B.shape
    if m >= p:
        sva, _, V, work, _, info = lapack.dgejsv(np.asfortranarray(B), joba=0, jobu=3, jobv=0,
                                                 jobr=0, jobt=0, jobp=0)
        if info == 0:
            s = sva * (work[0] / work[1])
            order = np.argsort(-s, kind="stable")
            return s[order], V[:, order]
    _, s, Wt = thin_svd(np.ascontiguousarray(B))
    return s, Wt.T


def linear_components(Mc, Z, b=None):
    """Singular pairs of the projected data M = Mc + 1bᵀ, and how many components are kept.

    ``Mc`` (n × p) is the centred data with the constrained directions projected out (XcQ⊥),
    ``b`` = Q⊥ᵀμ the projected mean when the kernel is uncentred (M = XQ⊥), None otherwise.
    G = MMᵀ is the projected Gram matrix of the linear kernel: λ_j = s_j², v_j = MW_j/s_j,
    with no squaring, so components far below the largest one keep their accuracy.  As 1 ⟂
    Mc, MᵀM = McᵀMc + n·bbᵀ: the SVD is that of Mc with the row √n·bᵀ appended, so the offset
    is never added into (and rounded with) the entries of Mc; the training scores are
    MW_j = McW_j + bᵀW_j, a column plus a constant.

    A component is kept while (i) s_j > max(n, p)·eps·s_1 (above it, a direction of the data;
    below, rounding) and (ii) its group means agree to ``CONSTRAINT_RTOL`` of its own norm,
    measured: ‖ZᵀMcW_j‖ ≤ τ·s_j (Z orthonormal and centred, so ZᵀMW_j = ZᵀMcW_j) — the rule
    of the Gram route (:func:`component_floor`), measured instead of bounded.  The first
    component that fails either test ends the kept ones.  Returns (scores MW, s, W, rank).
    """
    n, p = Mc.shape
    if p == 0 or n == 0:
        return np.zeros((n, 0)), np.zeros(0), np.zeros((p, 0)), 0
    B = Mc if b is None else np.vstack([Mc, np.sqrt(n) * b[None, :]])
    s, W = _graded_svd(B)
    centred_scores = Mc @ W
    scores = centred_scores if b is None else centred_scores + b @ W
    if s[0] <= 0 or not np.isfinite(s[0]):
        return scores, s, W, 0
    ok = s > max(n, p) * np.finfo(float).eps * s[0]
    if Z.shape[1]:
        ok &= np.linalg.norm(Z.T @ centred_scores, axis=0) <= CONSTRAINT_RTOL * s
    rank = int(np.argmin(ok)) if not ok.all() else ok.size
    return scores, s, W, rank
