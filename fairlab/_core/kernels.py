"""Kernel functions shared by the kernel estimators.

Conventions: the RBF kernel is k(x, y) = exp(−γ‖x − y‖²); Pérez-Suay et al. writes it with a width
σ,
exp(−‖x − y‖²/(2σ²)), i.e. γ = 1/(2σ²).
"""

import warnings
from numbers import Real

import numpy as np
from sklearn.metrics.pairwise import pairwise_kernels

KERNELS = ("rbf", "poly", "linear", "sigmoid", "cosine", "precomputed")
GAMMA_KERNELS = ("rbf", "poly", "sigmoid")  # the kernels with a coefficient γ
# the polynomial kernel (γxᵀy + c₀)^degree where an estimator has no degree/coef0 parameters
# (Pérez-Suay et al.'s learners): scikit-learn's defaults
POLY_DEGREE = 3
POLY_COEF0 = 1.0


def indefinite_reason(kernel, degree=POLY_DEGREE, coef0=POLY_COEF0):
    """Why a named kernel is not positive semi-definite by construction, or None if it is.

    rbf, linear and cosine kernels are PSD, and so is (γxᵀy + c₀)^degree for c₀ ≥ 0 and an
    integer degree (a sum of products of PSD kernels); tanh(γxᵀy + c₀) is not, nor a poly
    kernel with c₀ < 0 or a fractional degree: their Gram matrices have negative eigenvalues
    in general.
    """
    if kernel == "sigmoid":
        return "kernel='sigmoid' (tanh(gamma·xᵀy + coef0)) is not positive semi-definite"
    if kernel == "poly" and (coef0 < 0 or float(degree) % 1 != 0):
        return (f"kernel='poly' with coef0={coef0} and degree={degree} is not positive "
                "semi-definite (it is for coef0 >= 0 and an integer degree)")
    return None


def warn_if_indefinite(kernel, consequence, degree=POLY_DEGREE, coef0=POLY_COEF0, *,
                       stacklevel=3):
    """Warn (UserWarning) when ``kernel`` is not PSD by construction, saying ``consequence``."""
    reason = indefinite_reason(kernel, degree, coef0)
    if reason is not None:
        warnings.warn(f"{reason}: its Gram matrix has negative eigenvalues in general, so "
                      f"{consequence} Use a positive semi-definite kernel ('rbf', 'linear', "
                      "'poly' with coef0 >= 0, 'cosine').", UserWarning, stacklevel=stacklevel)


def is_psd_kernel(kernel, degree=POLY_DEGREE, coef0=POLY_COEF0):
    """Whether ``kernel`` is known to be positive semi-definite (a callable or a precomputed
    matrix is not known to be)."""
    return (not callable(kernel) and kernel in KERNELS and kernel != "precomputed"
            and indefinite_reason(kernel, degree, coef0) is None)


def entry_rounding_unit(K, kernel):
    """The rounding level of one entry of the kernel matrix ``K``: eps·max|K|.

    Taken before centring, which cancels: the directions of the n × n matrices built from K
    below a few n·unit are zero to rounding.  An rbf matrix has max|K| = K_ii = 1 exactly, so
    no pass over K is needed for it.
    """
    eps = np.finfo(float).eps
    if kernel == "rbf" and K.size:
        return eps
    return eps * np.abs(K).max(initial=0.0)


def kernel_diagonal(X, kernel, gamma):
    """k(x_i, x_i) for every row of X without the n × n matrix, or None (sigmoid, a callable).

    The poly kernel is that of :data:`POLY_DEGREE` and :data:`POLY_COEF0`.
    """
    if kernel == "rbf":
        return np.ones(X.shape[0])
    if kernel == "cosine":
        return (np.linalg.norm(X, axis=1) > 0).astype(float)
    if kernel in ("linear", "poly"):
        sq = np.einsum("ij,ij->i", X, X)
        return sq if kernel == "linear" else (gamma * sq + POLY_COEF0) ** POLY_DEGREE
    return None


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


def kernel_matrix_is_new(kernel):
    """Whether :func:`kernel_matrix` returns an array no one else holds, which its caller may
    overwrite: every kernel but ``"precomputed"``, whose matrix is the user's own."""
    return not (isinstance(kernel, str) and kernel == "precomputed")


def kernel_matrix(X, Y=None, *, kernel="rbf", gamma=None, degree=POLY_DEGREE, coef0=POLY_COEF0):
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
    if kernel in GAMMA_KERNELS:
        params["gamma"] = gamma
    if kernel in ("poly", "sigmoid"):
        params["coef0"] = coef0
    if kernel == "poly":
        params["degree"] = degree
    return pairwise_kernels(X, Y, metric=kernel, filter_params=True, **params)
