r"""Kernel Fair PLS (De-Diego et al. 2025, §4.1, Algorithm 4): HSIC-penalised kernel PLS.

The kernel counterpart of :class:`fairlab.FairPLS` (:mod:`fairlab.pls`): components in the
feature space of a kernel on X, whose HSIC with a kernel on S is penalised with weight η.  Each
component is the exact maximiser of the penalised objective on the deflated Gram matrix, with
the rounding rule and the leading-direction solver it shares with it
(:mod:`fairlab._core.pls_steps`).
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    MultiOutputMixin,
    RegressorMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._core.kernels import (
    GAMMA_KERNELS,
    KERNELS,
    check_kernel,
    kernel_matrix,
    kernel_matrix_is_new,
    resolve_gamma,
    warn_if_indefinite,
)
from ._core.linalg import (
    center_cross_gram,
    center_gram,
    column_signs,
)
from ._core.moments import (
    reject_dask,
)
from ._core.pls_steps import (
    EPS,
    ETA_CONSTRAINT,
    check_y,
    encode_penalty_sensitive,
    is_zero_score,
    leading_direction,
    objective_rounding,
    stops_at,
)
from ._core.validation import (
    check_n_components,
    check_transform_input,
    validate_data,
    warn_unconstrained,
)

__all__ = ["KernelFairPLS"]


# --------------------------------------------------------------------------------------------
# Kernel Fair PLS
# --------------------------------------------------------------------------------------------
class KernelFairPLS(ClassNamePrefixFeaturesOutMixin, TransformerMixin, RegressorMixin,
                    MultiOutputMixin, BaseEstimator):
    r"""Kernel Fair PLS (De-Diego et al., §4.1, Algorithm 4): HSIC-penalised kernel PLS.

    With the centred Gram matrix :math:`\tilde K = \tilde\Phi\tilde\Phi^\top` of X, the
    centred Gram matrix :math:`\tilde K_S` of a kernel on S, and the centred targets Y,
    component h maximises (eq. (7))

    .. math::  \|Y^\top \tilde\Phi_h w\|^2 - \eta\, w^\top\tilde\Phi_h^\top \tilde K_S
               \tilde\Phi_h w, \qquad \|w\| = 1,

    the second term being the (biased, ×n²) HSIC between the score and S.  The Gram matrix is
    deflated, :math:`\tilde K_{h+1} = (I - \hat t\hat t^\top)\tilde K_h(I - \hat t\hat t^\top)`
    with the unit score :math:`\hat t`.  Solved exactly: with :math:`\tilde K_S = LL^\top`
    (L = centred S for the linear sensitive kernel, an eigen-factor otherwise) and
    :math:`Z = [Y, L]`, the maximiser is :math:`w = \tilde\Phi_h^\top Z u` where u comes from the
    eigenproblem of the small Gram matrix :math:`Z^\top\tilde K_h Z`; the deflation is applied
    implicitly, :math:`\tilde K_h Z = P\tilde K P Z` with :math:`P = I - \hat T\hat T^\top`.
    With linear kernels on X and S this is :class:`FairPLS` with ``scale=False``.

    Cost per component: O(n²(m + r)) with r the numerical rank of :math:`\tilde K_S` (q for the
    linear sensitive kernel, at most the number of groups for categorical S).  An rbf kernel on
    a *continuous* S has r close to n; the per-component problem is then n×n, and ``eta=np.inf``
    admits only zero scores (no nonzero score is HSIC-independent of S), which the fit reports.
    Y is centred, not scaled; X and S enter only through their kernels.

    Parameters
    ----------
    n_components : int, default=2
    eta : float or np.inf, default=1.0
        HSIC penalty; ``np.inf``: scores with zero HSIC with S (:math:`L^\top t = 0`).
    kernel : {"rbf", "poly", "linear", "sigmoid", "cosine", "precomputed"}, default="rbf"
        Kernel on X.  ``"precomputed"``: X is the training Gram matrix at fit and
        K(X_new, X_train) at transform/predict.
    gamma : float or None, default=None
        Coefficient of rbf/poly/sigmoid; None → 1/(n_features · Var(X)).
    degree, coef0 : kernel parameters of poly/sigmoid.
    sensitive_kernel : {"linear", "rbf", "poly", "sigmoid", "cosine"}, default="linear"
        Kernel on the encoded S (see :class:`FairPLS`: group labels become indicators weighted by
        1/√2, so two groups are at distance 1, as with a 0/1 code).
    sensitive_gamma : float or None, default=None
        Coefficient of the sensitive kernel; None → 1/(q · Var(S)).

    Attributes
    ----------
    x_scores_ : ndarray of shape (n_samples, n_components)
        Training scores t_h (sign: largest-magnitude entry positive; for ``kernel="linear"``
        the sign of the weight vector's largest entry, as :class:`FairPLS`).
    dual_coef_ : ndarray of shape (n_samples, n_components)
        A with :math:`w_h = \tilde\Phi^\top a_h` (weights in the centred feature space).
    dual_rotations_ : ndarray of shape (n_samples, n_components)
        :math:`A (D^{-1} T^\top \tilde K A)^{-1}`, D = diag(tᵀt): ``transform`` is the centred
        test kernel times this matrix (the kernel analogue of ``x_rotations_``).
    y_loadings_ : ndarray of shape (n_targets, n_components)
    objective_ : ndarray of shape (n_components,)
        Per-component objective divided by n²; positive, or 0 for the zero components left
        when no direction has a positive objective above its rounding level (the fit then
        stops with a warning, as :class:`FairPLS`, whose Notes give the rule; √tr(K̃) plays
        the part of ‖X‖_F).
    X_fit_ : ndarray of shape (n_samples, n_features)
    gamma_, sensitive_gamma_ : float
    y_mean_ : ndarray of shape (n_targets,)

    References
    ----------
    De-Diego et al. (2025), §4.1, eq. (7), Algorithm 4; Rosipal & Trejo (2001), kernel PLS.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import KernelFairPLS
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 100)
    >>> X = rng.normal(size=(100, 3)) + s[:, None]
    >>> y = np.sin(X[:, 0]) + X[:, 1]
    >>> KernelFairPLS(2, eta=10.0).fit(X, y, sensitive_features=s).transform(X).shape
    (100, 2)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "eta": ETA_CONSTRAINT,
        "kernel": [StrOptions(set(KERNELS)), callable],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "coef0": [Real],
        "sensitive_kernel": [StrOptions(set(KERNELS) - {"precomputed"})],
        "sensitive_gamma": [Interval(Real, 0, None, closed="neither"), None],
    }

    def __init__(self, n_components=2, *, eta=1.0, kernel="rbf", gamma=None, degree=3, coef0=1,
                 sensitive_kernel="linear", sensitive_gamma=None):
        self.n_components = n_components
        self.eta = eta
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.sensitive_kernel = sensitive_kernel
        self.sensitive_gamma = sensitive_gamma

    def _kernel(self, X, Y=None):
        return kernel_matrix(X, Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree,
                             coef0=self.coef0)

    def _sensitive_factor(self, S):
        """L with LLᵀ = H K_S H (centred sensitive Gram matrix)."""
        Sc = S - S.mean(axis=0)
        if self.sensitive_kernel == "linear":
            self.sensitive_gamma_ = None
            return Sc
        self.sensitive_gamma_ = resolve_gamma(S, self.sensitive_gamma)
        Ks = center_gram(kernel_matrix(S, kernel=self.sensitive_kernel,
                                       gamma=self.sensitive_gamma_, degree=self.degree,
                                       coef0=self.coef0))
        lam, V = linalg.eigh((Ks + Ks.T) / 2.0)
        keep = lam > max(lam[-1], 0.0) * Ks.shape[0] * EPS * 10
        # u distinct rows of S give rank(H K_S H) <= u - 1 by construction (its null space
        # holds 1 and the differences of indicators of equal rows): never keep more
        n_distinct = np.unique(S, axis=0).shape[0]
        keep[: max(lam.shape[0] - (n_distinct - 1), 0)] = False
        return V[:, keep] * np.sqrt(lam[keep])

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit Kernel Fair PLS (y required; sensitive_features=None: kernel PLS, and a warning)."""
        reject_dask(self, X, y, sensitive_features,
                    alternative="A kernel method needs the n×n Gram matrix of all rows; FairPLS "
                    "(linear) accepts dask arrays.")
        check_kernel(self.kernel)
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        warn_if_indefinite(self.kernel, "the scores are not projections in a feature space and "
                           "the covariances maximised can be negative.", self.degree,
                           self.coef0, stacklevel=4)
        n = X.shape[0]
        if self.kernel == "precomputed" and X.shape[1] != n:
            raise ValueError(f"kernel='precomputed' needs the square Gram matrix; got {X.shape}.")
        y = check_y(y, n, type(self).__name__)
        self._predict_1d = y.ndim == 1
        Y = y.reshape(n, -1)
        self.y_mean_ = Y.mean(axis=0)
        Yc = Y - self.y_mean_
        if sensitive_features is None:
            warn_unconstrained(self, "kernel PLS")
            L = np.zeros((n, 0))
            self.sensitive_gamma_ = None
        else:
            S, s_weights, independent = encode_penalty_sensitive(sensitive_features, n)
            if np.isinf(self.eta) and self.sensitive_kernel == "linear":
                # the constraint Lᵀt = 0 needs only the columns that span range(S̃)
                S, s_weights = S[:, independent], s_weights[independent]
            L = self._sensitive_factor(S * s_weights)
        k = check_n_components(self.n_components, n, bound_text="n_samples")
        self.gamma_ = (resolve_gamma(X, self.gamma)
                       if self.kernel in GAMMA_KERNELS else None)
        K = self._kernel(X)
        self._K_col_means = K.mean(axis=0)
        self._K_mean = float(self._K_col_means.mean())
        Kc = center_gram(K)
        self.X_fit_ = X

        m = Yc.shape[1]
        eta = self.eta if L.shape[1] else 0.0
        Z = np.hstack([Yc, L]) if (L.shape[1] and eta != 0) else Yc
        T = np.zeros((n, k))
        That = np.zeros((n, k))  # unit scores, the deflation directions
        A = np.zeros((n, k))
        objective = np.zeros(k)
        k_norm = np.sqrt(max(np.trace(Kc), 0.0))
        norms = (k_norm, float(np.linalg.norm(Yc)), float(np.linalg.norm(L)))
        for h in range(k):
            Th = That[:, :h]
            PZ = Z - Th @ (Th.T @ Z)  # P Z
            KPZ = Kc @ PZ
            G = PZ.T @ KPZ  # Zᵀ K̃_h Z = (PZ)ᵀ K̃ (PZ)
            lam, V = linalg.eigh((G + G.T) / 2.0)
            keep = lam > max(lam[-1], 0.0) * G.shape[0] * EPS * 10
            if not keep.any():
                warnings.warn(f"Gram residual has no covariance left with y or S at component "
                              f"{h}; the remaining components are zero.", UserWarning,
                              stacklevel=2)
                break
            V, lam = V[:, keep], lam[keep]
            R = np.sqrt(lam)[:, None] * V.T  # C = Q R with C = Φ̃_hᵀZ, Q orthonormal
            v, value = leading_direction(R[:, :m], R[:, m:], eta, n_terms=n * (h + 1))
            level = objective_rounding(R[:, :m].T @ v, R[:, m:].T @ v, eta, h, n, norms)
            if stops_at(value, level, h, n, k, "η·HSIC-penalty", stacklevel=2):
                break
            u = V @ (v / np.sqrt(lam))  # w = C u, ‖w‖ = 1
            t = KPZ @ u
            t -= Th @ (Th.T @ t)  # t = K̃_h Z u = P K̃ P Z u
            a = PZ @ u  # w = Φ̃ᵀ P Z u
            tt = float(t @ t)
            if is_zero_score(tt, k_norm):
                warnings.warn(f"Gram residual is (numerically) zero at component {h}; the "
                              "remaining components are zero.", UserWarning, stacklevel=2)
                break
            # sign: largest-magnitude entry of the score positive; with the linear kernel, of
            # the explicit weight w = X̃ᵀa instead, so that the model equals FairPLS exactly
            ref = (X - X.mean(axis=0)).T @ a if self.kernel == "linear" else t
            sign = float(column_signs(ref[:, None])[0])
            T[:, h], A[:, h], That[:, h] = sign * t, sign * a, sign * t / np.sqrt(tt)
            objective[h] = value / n**2
        tt = np.einsum("ij,ij->j", T, T)
        tt_safe = np.where(tt > 0, tt, 1.0)
        self.x_scores_, self.dual_coef_, self.objective_ = T, A, objective
        # P = Φ̃ᵀ T D⁻¹ and W = Φ̃ᵀ A ⇒ PᵀW = D⁻¹ Tᵀ K̃ A; rotations R = W (PᵀW)⁻¹ = Φ̃ᵀ A(·)⁻¹
        self.dual_rotations_ = A @ linalg.pinv((T.T @ (Kc @ A)) / tt_safe[:, None])
        self.y_loadings_ = (Yc.T @ T) / tt_safe  # regression of Y on each (orthogonal) score
        self._n_features_out = k
        return self

    def transform(self, X):
        """Scores of new data: centred K(X, ``X_fit_``) @ ``dual_rotations_``."""
        check_is_fitted(self)
        X = check_transform_input(self, X)
        Kt = self._kernel(X, self.X_fit_) if self.kernel != "precomputed" else X
        if Kt.shape[1] != self.X_fit_.shape[0]:
            raise ValueError(
                f"kernel='precomputed' needs K(X_new, X_train) with {self.X_fit_.shape[0]} "
                f"columns; got {Kt.shape[1]}.")
        return center_cross_gram(Kt, self._K_col_means, self._K_mean,
                                 overwrite=kernel_matrix_is_new(self.kernel)) @ self.dual_rotations_

    def predict(self, X):
        """Targets predicted by the regression of Y on the scores."""
        y_pred = self.transform(X) @ self.y_loadings_.T + self.y_mean_
        return y_pred.ravel() if self._predict_1d else y_pred

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.regressor_tags.poor_score = True
        tags.input_tags.pairwise = self.kernel == "precomputed"
        return tags
