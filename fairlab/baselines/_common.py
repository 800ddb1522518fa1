r"""Shared plumbing of the baselines (private).

Small and stable on purpose; seven pieces:

* :func:`validate_fit_input` — ``validate_data`` (float64, finite, at least two rows) and the
  categorical sensitive attribute (:func:`~fairlab._core.validation.check_groups`, two rows per
  group),
  or the :class:`~fairlab.UnconstrainedFallbackWarning` when it is ``None``;
* :func:`pca_in_complement` — the top-k principal directions of centred rows inside the
  orthogonal complement of an orthonormal basis Q (primal d×d or dual n×n route by shape, the
  directions of Q shifted below every admissible one so a top-k solver never returns them);
* :func:`validate_eraser_input` and :func:`fit_erased_pca` — the same two steps for every
  eraser (:class:`BaseEraser` and :class:`~fairlab.baselines.leace.OracleLEACE`): the input
  with the eraser's fallback, and the optional PCA of the erased training rows;
* :class:`BaseEraser` — the estimator shell of the linear concept erasers (SAL, LEACE, INLP,
  RLACE).  Each of them learns an affine map

  .. math::

      e(x) = x - L R\,(x - b) = P x + (I - P) b, \qquad P = I - LR,

  with L (d×q), R (q×d) and b = 0 (SAL, INLP, RLACE: ``X @ P.T`` as in their papers) or the
  training mean (LEACE).  ``n_components=None`` outputs e(x) (d columns); ``n_components=k``
  outputs the k principal coordinates of the erased training data, taken inside range(P)
  (``components_``), so that a later k-dimensional embedding never re-admits a removed
  direction.  Subclasses implement ``_fit_eraser(X, groups)`` and return an :class:`Eraser`;
* :class:`LinearProjection` — the estimator shell of the fair-PCA baselines (FPCA, MbF-PCA,
  Samadi et al.): ``transform(x) = (x − mean_) components_ᵀ`` (after a column scaling for FPCA);
* :class:`Eraser` — that map as a frozen dataclass (L, R, b and orthonormal bases of
  range(I − P) and range(P)^⊥), with the constructors ``orthogonal(Q)`` and ``identity(d)``;
"""

# SPDX-License-Identifier: BSD-3-Clause

from dataclasses import dataclass

import numpy as np
from scipy import linalg
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils.validation import check_is_fitted

from .._core.linalg import as_seed, flip_signs, gram, top_eigh
from .._core.validation import (
    check_groups,
    check_n_components,
    check_transform_input,
    reject_bool,
    validate_data,
    warn_unconstrained,
)

__all__ = [
    "BaseEraser",
    "Eraser",
    "LinearProjection",
    "fit_erased_pca",
    "pca_in_complement",
    "validate_eraser_input",
    "validate_fit_input",
]

_EPS = np.finfo(np.float64).eps


def validate_fit_input(estimator, X, sensitive_features, *, fallback="PCA"):
    """Validate ``X`` (``reset=True``) and the categorical ``sensitive_features``.

    Returns ``(X, groups)`` with X a finite float64 array of at least two rows and ``groups`` a
    :class:`~fairlab._core.validation.SensitiveGroups` (every group with two rows or more), or
    ``None`` — after warning that ``fallback`` is fitted — when ``sensitive_features`` is None.
    """
    reject_bool(estimator.n_components)
    X = validate_data(estimator, X, dtype=np.float64, ensure_min_samples=2)
    if sensitive_features is None:
        warn_unconstrained(estimator, fallback)
        return X, None
    return X, check_groups(sensitive_features, X.shape[0], min_group_size=2)


def pca_in_complement(Xe, Q, k, *, random_state=None):
    """Top-k principal directions of the centred rows ``Xe`` orthogonal to range(Q).

    Parameters
    ----------
    Xe : ndarray of shape (n, d)
        Centred data, whose rows lie in range(Q)^⊥ up to rounding (an erased data matrix).
    Q : ndarray of shape (d, q)
        Orthonormal columns (q may be 0).
    k : int
        Number of directions, ``1 <= k <= d - q``.
    random_state : int or None
        Start vector of ARPACK when it is used (``None``: a fixed seed).

    Returns
    -------
    V : ndarray of shape (d, k)
        Orthonormal columns in range(Q)^⊥, by decreasing variance, deterministic signs.
    variances : ndarray of shape (k,)
        ‖Xe v‖² / (n − 1) for each column v.

    Notes
    -----
    Dual route when d > n (n×n Gram matrix, V = XeᵀU/√λ), unless k exceeds the rank of Xe, where
    the zero-variance directions are only defined in the primal problem.  Primal route: the
    top-k eigenvectors of C − c·QQᵀ, C = XeᵀXe and c = tr(C)/d, which pushes the q excluded
    directions below every admissible one (they are zero-variance directions of C, tied with
    genuine ones, so without the shift a top-k solver could return them).
    """
    n, d = Xe.shape
    seed = as_seed(random_state)
    if Q.shape[1]:
        Xe = Xe - (Xe @ Q) @ Q.T  # rounding-level components along the excluded directions
    V = None
    if d > n:
        w, U = top_eigh(gram(Xe.T), k, random_state=seed)
        if w[-1] > max(n, d) * _EPS * max(w[0], 0.0):
            V = Xe.T @ U
    if V is None:
        C = gram(Xe)
        if Q.shape[1]:
            C -= (float(np.trace(C)) / d or 1.0) * (Q @ Q.T)
        V = top_eigh(C, k, random_state=seed)[1]
    if Q.shape[1]:
        V = V - Q @ (Q.T @ V)
    # Orthonormalise and restore the order by a k×k Rayleigh–Ritz step (the dual route's
    # XeᵀU/√λ loses orthogonality in the columns of small λ).
    V = linalg.qr(V, mode="economic", check_finite=False)[0]
    _, L = linalg.eigh(gram(Xe @ V), check_finite=False)
    V = flip_signs(V @ L[:, ::-1])
    XV = Xe @ V
    return V, np.einsum("ij,ij->j", XV, XV) / (n - 1)


@dataclass(frozen=True)
class Eraser:
    """The affine eraser e(x) = x − L R (x − b) learned by a subclass of :class:`BaseEraser`.

    Attributes
    ----------
    left, right : ndarray of shape (d, q) and (q, d)
        P = I − ``left @ right``.
    bias : ndarray of shape (d,)
        b (zeros for the linear erasers).
    removed : ndarray of shape (d, q)
        Orthonormal basis of range(I − P) = range(``left``): the directions that e changes.
    fixed : ndarray of shape (d, q)
        Orthonormal basis of range(P)^⊥ = range(``right.T``): the erased data lie in its
        complement.  For an orthogonal projection ``removed`` and ``fixed`` coincide.
    """

    left: np.ndarray
    right: np.ndarray
    bias: np.ndarray
    removed: np.ndarray
    fixed: np.ndarray

    @classmethod
    def orthogonal(cls, Q, bias=None):
        """The orthogonal eraser P = I − QQᵀ (Q with orthonormal columns)."""
        bias = np.zeros(Q.shape[0]) if bias is None else bias
        return cls(left=Q, right=Q.T, bias=bias, removed=Q, fixed=Q)

    @classmethod
    def identity(cls, d):
        return cls.orthogonal(np.zeros((d, 0)))


def validate_eraser_input(estimator, X, sensitive_features):
    """``validate_fit_input`` for an eraser whose ``n_components=None`` means "keep d"."""
    fallback = "PCA" if estimator.n_components is not None else "the identity map (no erasure)"
    return validate_fit_input(estimator, X, sensitive_features, fallback=fallback)


def fit_erased_pca(estimator, Xc, Xe, fixed, k):
    """PCA to k dimensions of the erased, centred training rows Xe, inside range(fixed)^⊥.

    Sets ``components_``, ``explained_variance_`` (divisor n − 1), ``explained_variance_ratio_``
    (of the total variance of the centred input Xc) and ``n_components_``; returns V (d × k).
    """
    V, variances = pca_in_complement(Xe, fixed, k)
    estimator.components_ = np.ascontiguousarray(V.T)
    estimator.explained_variance_ = variances
    total = float(np.einsum("ij,ij->", Xc, Xc)) / (Xc.shape[0] - 1)
    estimator.explained_variance_ratio_ = variances / total if total > 0 else np.zeros(k)
    estimator.n_components_ = k
    return V


class LinearProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Shell of the baselines that end in k orthonormal directions: fit sets ``mean_``,
    ``components_`` and ``n_components_``; subclasses may override ``_centred(X)``."""

    def _centred(self, X):
        return X - self.mean_

    def transform(self, X):
        """Project X: ``(X − mean_) @ components_.T``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        return self._centred(X) @ self.components_.T

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags


class BaseEraser(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Estimator shell shared by the concept erasers (see the module docstring).

    Subclasses define ``__init__`` (with ``n_components`` among the parameters),
    ``_parameter_constraints`` and ``_fit_eraser(X, groups) -> Eraser``; they may set their own
    fitted attributes there and in ``_fit_unconstrained(X) -> Eraser`` (the identity).  This
    class sets ``mean_``, ``projection_``, ``removed_directions_``, ``n_removed_``,
    ``n_components_`` and, with ``n_components``, ``components_``, ``explained_variance_`` and
    ``explained_variance_ratio_``.
    """

    def _removal_budget(self, d):
        """Most directions an iterative eraser may remove: d − 1, or d − k with ``n_components``.

        INLP and RLACE remove at least one direction, so they need d ≥ 2 and k ≤ d − 1.
        """
        name = type(self).__name__
        if d < 2:
            raise ValueError(f"{name} needs at least 2 features (it removes at least one).")
        k = self.n_components
        if k is None:
            return d - 1
        check_n_components(
            k, d - 1,
            bound_text=f"n_features - 1 = {d} - 1: {name} removes at least one direction",
        )
        return d - k

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the eraser (and the optional PCA inside the space it keeps).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : None
            Ignored.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Group labels (any hashable values; a Series or a DataFrame), at least two rows per
            group.  ``None`` fits the unconstrained method (PCA to ``n_components``, or the
            identity when ``n_components=None``) and warns.

        Returns
        -------
        self
        """
        return self._fit(X, sensitive_features)

    def _fit(self, X, sensitive_features):
        k = self.n_components
        X, groups = validate_eraser_input(self, X, sensitive_features)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        eraser = self._fit_unconstrained(X) if groups is None else self._fit_eraser(X, groups)
        q = eraser.fixed.shape[1]
        self._eraser = eraser
        self.projection_ = np.eye(d) - eraser.left @ eraser.right
        self.removed_directions_ = np.ascontiguousarray(eraser.removed.T)
        self.n_removed_ = int(eraser.removed.shape[1])
        if k is None:
            self.n_components_ = d
            self._rotation = None
            return self
        k = check_n_components(
            k,
            min(n, d - q),
            bound_text=f"min(n_samples={n}, n_features - directions removed = {d} - {q})",
        )
        # PCA of the erased, centred training rows e(x) − e(μ) = (x − μ) Pᵀ inside range(P).
        Xc = X - self.mean_
        Xe = Xc - (Xc @ eraser.right.T) @ eraser.left.T
        V = fit_erased_pca(self, Xc, Xe, eraser.fixed, k)
        # transform(x) = (x − μ) Pᵀ V = (x − μ)(V − Rᵀ(LᵀV))
        self._rotation = V - eraser.right.T @ (eraser.left.T @ V)
        return self

    def _fit_unconstrained(self, X):
        """The eraser when ``sensitive_features`` is None: the identity (subclasses may set
        their own attributes here)."""
        return Eraser.identity(X.shape[1])

    @staticmethod
    def _check_n_removed(value, upper, what):
        """An explicit ``n_removed`` (int or None) must be at most ``upper``."""
        if value is not None and value > upper:
            raise ValueError(
                f"n_removed={value} is too large: at most {upper} directions can be removed "
                f"here ({what}). Choose n_removed <= {upper}."
            )

    def transform(self, X):
        """Erase (and project on ``components_`` when ``n_components`` was given).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
            e(x) = x − LR(x − b) for ``n_components=None``; otherwise
            (x − ``mean_``) Pᵀ (``components_``)ᵀ, the principal coordinates of e(x).
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        if self._rotation is not None:
            return (X - self.mean_) @ self._rotation
        e = self._eraser
        if e.left.shape[1] == 0:
            return X.copy()
        # X − ((X − b)Rᵀ)Lᵀ in one n × d buffer (X may be the caller's array: never written).
        out = np.subtract(X, e.bias)
        coef = out @ e.right.T
        if coef.shape[1] == 1:  # an outer product: one rounding per entry, as the matmul
            np.multiply(coef, e.left.T, out=out)
        else:
            np.matmul(coef, e.left.T, out=out)
        return np.subtract(X, out, out=out)

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
