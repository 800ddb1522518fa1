"""Kernel functions shared by the kernel estimators.

Conventions: the RBF kernel is k(x, y) = exp(−γ‖x − y‖²); Pérez-Suay et al. writes it with a width
σ,
exp(−‖x − y‖²/(2σ²)), i.e. γ = 1/(2σ²).
"""

from numbers import Real

import numpy as np
from sklearn.metrics.pairwise import pairwise_kernels

KERNELS = ("rbf", "poly", "linear", "sigmoid", "cosine", "precomputed")


def check_kernel(kernel, name="kernel"):
    """Refuse unknown kernel names, listing the valid ones."""
    if callable(kernel):
        return kernel
    if kernel not in KERNELS:
        raise ValueError(f"{name}={kernel!r} is not supported; choose one of {list(KERNELS)}.")
    return kernel


def resolve_gamma(X, gamma):
    """Kernel coefficient γ: ``None``/"scale" → 1/(d·Var(X)) (all entries, as sklearn's SVC and
    Kleindessner et al.'s experiments), "auto" → 1/d, a positive number → itself."""
    d = X.shape[1]
    if gamma is None or (isinstance(gamma, str) and gamma == "scale"):
        var = float(np.var(X))
        return 1.0 / (d * var) if var > 0 else 1.0
    if isinstance(gamma, str) and gamma == "auto":
        return 1.0 / d
    if isinstance(gamma, Real) and gamma > 0:
        return float(gamma)
    raise ValueError(f"gamma must be None, 'scale', 'auto' or a positive number; got {gamma!r}.")


def kernel_matrix(X, Y=None, *, kernel="rbf", gamma=None, degree=3, coef0=1.0):
    """Gram matrix k(X, Y) with an already resolved numeric ``gamma`` (ignored by linear/cosine).

    RBF: the squared distances are computed (by scikit-learn) as ‖x‖² + ‖y‖² − 2xᵀy, which
    cancels when the points are far from the origin relative to their spread (at an offset of
    1e6 the kernel is only right to ~1e-3).  Distances are invariant to a common shift, so both
    arguments are first centred on one reference point: the mean of ``Y`` (the training rows,
    in ``k(X_new, X_train)``), or of ``X`` when ``Y`` is None (``k(X_train, X_train)``) — the
    fit-time and transform-time kernels thus use the same shift, and the result no longer
    depends on where the data sit.
    """
    if kernel == "precomputed":
        return np.asarray(X, dtype=float)
    if kernel == "rbf":
        X = np.asarray(X, dtype=np.float64)
        Y = None if Y is None else np.asarray(Y, dtype=np.float64)
        reference = (X if Y is None else Y).mean(axis=0)
        X = X - reference
        Y = None if Y is None else Y - reference
    params = {}
    if kernel in ("rbf", "poly", "sigmoid"):
        params["gamma"] = gamma
    if kernel in ("poly", "sigmoid"):
        params["coef0"] = coef0
    if kernel == "poly":
        params["degree"] = degree
    return pairwise_kernels(X, Y, metric=kernel, filter_params=True, **params)
