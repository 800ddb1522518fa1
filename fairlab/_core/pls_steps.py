"""The per-component steps that Fair PLS and kernel Fair PLS share (De-Diego et al. 2025).

Both fit one component at a time as the exact maximiser of ‖Aᵀw‖² − η‖Bᵀw‖² on a compressed
basis (:func:`leading_direction`), stop when that maximum is not above its rounding level
(:func:`objective_rounding`, :func:`stops_at`), and read the sensitive attribute and the target
alike (:func:`encode_penalty_sensitive`, :func:`check_y`).
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, Options

from .linalg import complement_basis, constraint_basis, dense_top_eigh
from .validation import check_array, encode_sensitive

__all__ = [
    "EPS",
    "ETA_CONSTRAINT",
    "check_y",
    "encode_penalty_sensitive",
    "leading_direction",
    "objective_rounding",
    "stops_at",
    "TOL",
    "ZERO_SCORE_RTOL",
    "is_zero_score",
]

EPS = np.finfo(float).eps
ETA_CONSTRAINT = [Interval(Real, 0, None, closed="left"), Options(Real, {np.inf})]
#: Default tolerance of the gradient solver of Fair PLS: it stops when a step moves the unit
#: weight by less than this (‖w_new − w‖ < tol).
TOL = 1e-10
#: A score t counts as zero when ‖t‖ ≤ ZERO_SCORE_RTOL·‖X̃‖_F (‖Φ̃‖_F = √tr(K̃) for a kernel):
#: the residual is exhausted.
ZERO_SCORE_RTOL = 1e-12


def encode_penalty_sensitive(sensitive_features, n_samples):
    """S as a float matrix (n, q), per-column weights (q,) and the independent columns.

    :func:`fairlab._core.validation.encode_sensitive`, the encoding of the metrics too: float
    columns are a continuous attribute (weight 1); integer, boolean, string and categorical
    columns are group labels, whose indicators carry weights making the penalty
    ½ Σ_g Cov²(t, 1[S = g]) — invariant to relabelling the groups, and for two groups exactly
    Cov²(t, 1[S = g₂]), the model of a 0/1-coded attribute.  The weights are applied after
    centring/scaling.  ``independent`` marks the columns the hard constraint (η = ∞) is built
    from, so that it never decides numerically a rank known by construction.  A penalty needs
    every attribute to vary: a single group or a constant column is refused.
    """
    encoded = encode_sensitive(sensitive_features, n_samples)
    for r, m in enumerate(encoded.n_groups):
        if m is not None and m < 2:
            raise ValueError(
                f"sensitive_features attribute {r} has a single group; a fairness penalty needs "
                "at least two groups. Pass sensitive_features=None for the unconstrained method."
            )
        if m is None and np.ptp(encoded.matrix[:, encoded.attribute == r]) == 0:
            raise ValueError(
                f"sensitive_features attribute {r} is constant; a fairness penalty needs a "
                "varying sensitive attribute. Pass sensitive_features=None for the "
                "unconstrained method."
            )
    return encoded.matrix, encoded.weights, encoded.independent


def check_y(y, n_samples, name):
    if y is None:
        raise ValueError(
            f"{name} requires y to be passed, but the target y is None: call fit(X, y, "
            "sensitive_features=...) with y of shape (n_samples,) or (n_samples, n_targets)."
        )
    y = check_array(y, input_name="y", owner=name, dtype=np.float64, ensure_2d=False)
    if y.ndim > 2:
        raise ValueError(f"y must be 1-D or 2-D; got an array with {y.ndim} dimensions.")
    if y.shape[0] != n_samples:
        raise ValueError(f"y has {y.shape[0]} rows but X has {n_samples}; pass one target per row.")
    return y


def leading_direction(R_y, R_s, eta, n_terms):
    """Maximise vᵀ(R_y R_yᵀ − η R_s R_sᵀ)v over unit v ∈ ℝʳ (η = ∞: subject to R_sᵀv = 0).

    R_y, R_s are coordinates of X_hᵀY and X_hᵀS̃ in an orthonormal basis (r × m, r × q).  For
    η = ∞ the columns of R_s are independent by construction; whether the data make them
    dependent is decided by :func:`~fairlab._core.linalg.constraint_basis`, with every column's
    rounding error bounded by n·eps times the largest singular value of [R_y, R_s].
    Returns ``(v, value)``; ``value`` is the maximum of the quadratic form.
    """
    r = R_y.shape[0]
    if np.isinf(eta):
        if R_s.shape[1]:
            scale = np.linalg.norm(np.hstack([R_y, R_s]), 2)
            Q = constraint_basis(R_s, np.ones(r), np.full(R_s.shape[1], scale), n_terms)
            N = complement_basis(Q)  # range(R_s)^⊥ in ℝʳ
        else:
            N = np.eye(r)
        if N.shape[1] == 0:
            return np.zeros(r), 0.0
        u, s, _ = np.linalg.svd(N.T @ R_y, full_matrices=False)
        return N @ u[:, 0], float(s[0] ** 2) if s.size else 0.0
    M = R_y @ R_y.T
    if eta > 0 and R_s.shape[1]:
        M -= eta * (R_s @ R_s.T)
    values, vectors = dense_top_eigh(M, 1)  # r ≤ m + q: one direct LAPACK call
    return vectors[:, 0], float(values[0])


def objective_rounding(Aw, Bw, eta, h, n, norms):
    """Rounding level of the objective ‖Aᵀw‖² − η‖Bᵀw‖² of component h, given Aᵀw and Bᵀw.

    A = X_hᵀY and B = X_hᵀS̃ are sums of n products, corrected once per deflation, so the error
    E of A has ‖E‖_F ≤ γ‖X‖_F‖Y‖_F (resp. ‖S̃‖_F for B) with γ = n(h+1)·eps, and it moves
    ‖Aᵀw‖² by at most 2‖Aᵀw‖‖E‖ + ‖E‖².  ``norms`` = (‖X‖_F, ‖Y‖_F, ‖S̃‖_F); for a kernel,
    ‖Φ̃‖_F = √tr(K̃).  ``Aw`` is None when there is no candidate direction.
    """
    x_norm, y_norm, s_norm = norms
    gamma = n * (h + 1) * EPS
    err_a = gamma * x_norm * y_norm
    if Aw is None:
        return err_a**2
    level = 2.0 * np.linalg.norm(Aw) * err_a + err_a**2
    if not np.isinf(eta) and eta > 0 and np.size(Bw):
        err_b = gamma * x_norm * s_norm
        level += eta * (2.0 * np.linalg.norm(Bw) * err_b + err_b**2)
    return level


def stops_at(value, level, h, n, n_components, penalty, *, stacklevel):
    """The stopping rule of Fair PLS and kernel Fair PLS: whether component h ends the fit.

    Every weight orthogonal to the range of the current cross-covariances has objective exactly
    0, so the maximum is max(``value``, 0).  At or below its rounding ``level``
    (:func:`objective_rounding`) the maximiser is 0 and not unique: whichever direction rounding
    picks carries no covariance with Y worth having, and its scores may be rounding noise.  The
    fit then stops (this and the remaining components are zero) and a warning says so.
    ``value`` None means there was no candidate direction.  ``penalty`` names the penalty term in
    the message.
    """
    if value is not None and value > level:
        return False
    value = 0.0 if value is None else value
    warnings.warn(
        f"component {h}: no direction has a positive objective ‖Yᵀt‖² − {penalty} "
        f"(largest {value / n**2:.3g}, rounding level {level / n**2:.3g}): the residual has no "
        "covariance with y left that is not outweighed by its penalty. The fit stops: this and "
        f"the remaining components are zero (components {h}..{n_components - 1}; lower "
        "n_components or eta).", UserWarning, stacklevel=stacklevel + 1)
    return True


def is_zero_score(tt, norm):
    """Whether a score with squared norm ``tt`` is zero: ‖t‖ ≤ ZERO_SCORE_RTOL·``norm``."""
    return not np.sqrt(tt) > ZERO_SCORE_RTOL * norm
