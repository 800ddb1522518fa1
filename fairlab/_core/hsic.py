r"""Shared pieces of Pérez-Suay et al.'s HSIC learners (:mod:`fairlab.hsic_regression`,
:mod:`fairlab.hsic_reduction`): the centred sensitive variables S̃ = HS, kernel matrices and
low-rank factors of the kernel on S, and the kernel parameter options.
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .kernels import (
    KERNELS,
    POLY_COEF0,
    POLY_DEGREE,
    kernel_diagonal,
    kernel_matrix,
    resolve_gamma,
)
from .linalg import (
    center_gram,
    centred_gram_factor,
    n_distinct_rows,
)
from .validation import (
    check_continuous_sensitive,
)

_KERNEL_OPTIONS = [StrOptions(set(KERNELS) - {"precomputed"}), callable]


_GAMMA_OPTIONS = [Interval(Real, 0, None, closed="neither"), StrOptions({"scale", "auto"}), None]


# --------------------------------------------------------------------------------------
# private helpers
# --------------------------------------------------------------------------------------
def _centred_sensitive(sensitive_features, n_samples, return_independent=False):
    """S̃ (n × q): continuous columns kept, categorical ones one-hot; column-centred.

    ``return_independent``: also the mask of the columns that span range(S̃) by construction
    (all but the last indicator of each categorical attribute).
    """
    S, independent = check_continuous_sensitive(sensitive_features, n_samples,
                                                return_independent=True)
    S = S - S.mean(axis=0)
    return (S, independent) if return_independent else S


def _gram(X, Y, kernel, gamma):
    return kernel_matrix(X, Y, kernel=kernel, gamma=gamma)


def _sensitive_factor(S_tilde, kernel, gamma, independent=None):
    """Ψ with ΨΨᵀ = K̃_S and the resolved gamma.

    Linear kernel: Ψ = S̃, restricted to the ``independent`` columns when given (same range,
    full column rank by construction: for constraints).  Other kernels: the eigen-factor of
    K̃_S, with its structural zeros removed exactly (:func:`centred_gram_factor`).
    """
    if kernel == "linear":
        return (S_tilde if independent is None else S_tilde[:, independent]), None
    gamma_ = resolve_gamma(S_tilde, gamma) if not callable(kernel) else gamma
    Ks = center_gram(_gram(S_tilde, None, kernel, gamma_))
    w, U = centred_gram_factor(Ks, n_distinct_rows(S_tilde))
    return U * np.sqrt(w), gamma_


def _pivoted_cholesky(column, diag, max_rank):
    """L (n × r) with K ≈ LLᵀ for a PSD K known by its diagonal and its columns, or None.

    Greedy (largest residual diagonal) pivoted Cholesky, stopped when the trace of the PSD
    residual E = K − LLᵀ is at most n·eps·λ̂, with λ̂ ≤ λ_max(K) the Rayleigh bound
    ‖K e_p‖²/K_pp of the first pivot: then ‖E‖₂ ≤ tr(E) ≤ n·eps·λ_max, the rounding level of
    an n×n Gram matrix (below it the kernel is zero to rounding, as in
    :func:`~fairlab._core.linalg.centred_gram_factor`).  Repeated rows give zero residuals at once,
    so r ≤ the number of distinct rows.  Returns None when more than ``max_rank`` columns
    would be needed (a kernel that is not low-rank to rounding).
    """
    n = diag.size
    d = np.array(diag, dtype=np.float64)
    rows = np.empty((max(max_rank, 0), n))
    tol = None
    for j in range(max_rank + 1):
        residual = float(np.sum(np.clip(d, 0.0, None)))
        if tol is not None and residual <= tol:
            return rows[:j].T
        if j == max_rank:
            return None
        p = int(np.argmax(d))
        if d[p] <= 0.0:
            return rows[:j].T
        col = np.asarray(column(p), dtype=np.float64).ravel()
        if tol is None:
            tol = n * np.finfo(float).eps * float(col @ col) / max(float(col[p]), 1e-300)
        if j:
            col = col - rows[:j, p] @ rows[:j]
        rows[j] = col / np.sqrt(d[p])
        d -= rows[j] ** 2
        d[p] = 0.0
    return rows[:max_rank].T


def _low_rank_sensitive_factor(S, kernel, gamma, max_rank):
    """Ψ (n × r) with ΨΨᵀ = K̃_S = H K_S H up to its rounding level, or None.

    Linear kernel: Ψ = S̃ exactly.  Otherwise the pivoted Cholesky factor L of K_S
    (:func:`_pivoted_cholesky`, columns k(S, s_p) computed on demand, never the n×n matrix),
    centred: Ψ = HL, so ΨΨᵀ = H(K_S − E)H with ‖HEH‖₂ ≤ ‖E‖₂ ≤ n·eps·λ_max(K_S).  None when
    the numerical rank exceeds ``max_rank`` (or for a callable kernel), and the caller solves
    densely.
    """
    if kernel == "linear":
        return S - S.mean(axis=0)
    diag = kernel_diagonal(S, kernel, gamma)
    if diag is None or max_rank < 1:  # sigmoid (not PSD) or a callable: no factor
        return None
    if kernel == "rbf":  # one column without pairwise_kernels' per-call validation
        def column(p):
            return np.exp(-gamma * np.einsum("ij,ij->i", S - S[p], S - S[p]))
    elif kernel == "poly":
        def column(p):
            return (gamma * (S @ S[p]) + POLY_COEF0) ** POLY_DEGREE
    else:
        def column(p):
            return _gram(S, S[p : p + 1], kernel, gamma)
    L = _pivoted_cholesky(column, diag, max_rank)
    if L is None:
        return None
    return L - L.mean(axis=0)
