r"""Fair kernel projection: a sensitive attribute, continuous or not, removed from a kernel.

Störck, Hinder and Hammer (ICML 2026) carry null-space projection (Ravfogel et al.'s INLP) into
the feature space of a kernel, where it becomes a closed-form transformation of the kernel
itself.  fairlab implements the closed form of the projection's fixed point.  With φ the
feature map of the kernel k, Φ the n training rows in feature space and S̃ the centred sensitive
columns (a continuous attribute as it is, a categorical one by its centred group indicators),
the feature-space directions

.. math::

    A = \Phi^\top \tilde S

hold every linear function of φ(x) whose covariance with s on the training rows is nonzero:
cov(wᵀφ(x), s) = wᵀA/n.  Projecting them out, P = I − A(AᵀA)⁺Aᵀ, leaves the *fair kernel*

.. math::

    k_\perp(x, x') = \varphi(x)^\top P \varphi(x')
                   = k(x, x') - k(x, X)\,\tilde S\,(\tilde S^\top K \tilde S)^{+}\,
                     \tilde S^\top k(X, x'),

positive semi-definite, equal to K − KS̃(S̃ᵀKS̃)⁺S̃ᵀK on the training rows, and such that every
function f(x) = wᵀPφ(x) of the projected features has zero covariance with every sensitive
column on the training rows.  (As S̃ is centred, centring the features changes neither A nor
AᵀA = S̃ᵀKS̃.)  Any kernel method run on k_⊥ — SVR, kernel ridge, kernel PCA — is fair in this
sense, which is *linear guardedness in feature space*: with an RBF kernel it removes much
nonlinear dependence, but not all of it (audit the result with :func:`fairlab.metrics.leakage`).

On the training rows the centred K_⊥ is the matrix G of fair kernel PCA (Kleindessner et al.,
eq. 2), so kernel PCA on k_⊥ is :class:`~fairlab.FairKernelPCA` with the same attribute.

What the transformer returns
----------------------------
* ``transform(X)``: features Ψ(x) of k_⊥ in the empirical feature space of the training rows,
  Ψ(x) = k_⊥(x, X) U Λ^{-1/2} with K_⊥ = UΛUᵀ (positive eigenvalues), so that
  Ψ(X)Ψ(X)ᵀ = K_⊥ on the training rows and Ψ(x)ᵀΨ(x_j) = k_⊥(x, x_j).  A linear model on Ψ is
  the kernel model on k_⊥.
* ``fair_kernel(X, Y=None)``: the matrix k_⊥(X, Y) itself (Y = X by default), what
  ``kernel="precomputed"`` in scikit-learn's SVR or KernelRidge takes.
* ``kernel="linear"``: k_⊥(x, y) = xᵀQ⊥Q⊥ᵀy with Q⊥ an orthonormal basis of the directions
  orthogonal to XcᵀS̃, so Ψ(x) = xᵀQ⊥W from the SVD of XQ⊥ — computed on X itself, without
  the Gram matrix XXᵀ (whose rounding at an offset of 1e3 left one component of five), as
  :class:`~fairlab.FairKernelPCA` does (see its *Linear kernel* notes).
* ``approximation="nystroem"``: Ψ are the Nyström features F of ``n_landmarks`` training rows
  with the directions FᵀS̃ projected out: O(n·L²) instead of O(n³).  With L = n it is the exact
  transformer (to rounding).
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._core.constraints import (
    component_floor,
    constraint_columns,
    constraint_factor,
    linear_components,
    linear_constraint,
)
from ._core.kernels import (
    GAMMA_KERNELS,
    KERNELS,
    entry_rounding_unit,
    kernel_matrix,
    resolve_gamma,
    warn_if_indefinite,
)
from ._core.linalg import column_signs, complement_basis, constraint_basis, flip_signs
from ._core.nystroem import nystroem_map
from ._core.validation import (
    check_sensitive,
    check_transform_input,
    reject_bool_params,
    validate_data,
    warn_unconstrained,
)

__all__ = ["FairKernelProjection"]


class FairKernelProjection(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Project a sensitive attribute out of a kernel's feature space (Störck et al., 2026).

    The closed form of null-space projection in feature space (see the module docstring):
    the fair kernel k_⊥(x, x') = k(x, x') − k(x, X)S̃(S̃ᵀKS̃)⁺S̃ᵀk(X, x') (:meth:`fair_kernel`)
    and its features Ψ (:meth:`transform`),
    under which no linear function of the features has a covariance with the sensitive
    attribute on the training rows.  Works for a continuous attribute (age, income), a
    categorical one, or several of mixed kinds.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear", "sigmoid", "cosine"}, default="rbf"
    gamma : float, "scale", "auto" or None, default=None
        Coefficient of the rbf/poly/sigmoid kernel; ``None`` is 1/n_features.
    degree : float, default=3
    coef0 : float, default=1
    sensitive_type : {"continuous", "categorical", "auto"} or list of them, default="continuous"
        How each column of ``sensitive_features`` is read, as in :class:`~fairlab.FairPCA`:
        a number, group labels, or floats as numbers and the rest as labels (a
        ``pd.Categorical`` is labels whatever its categories); a list or tuple gives one type
        per column.  A two-valued column gives the same projection either way.
    approximation : {"nystroem"} or None, default=None
        ``"nystroem"``: the projection on Nyström features of ``n_landmarks`` training rows.
    n_landmarks : int, default=1000
        Number of landmarks (at most n_samples), drawn uniformly without replacement.
    random_state : int, RandomState instance or None, default=None
        Draw of the landmarks; ``None`` is the fixed seed 0.

    Attributes
    ----------
    n_components_ : int
        Dimension of the features Ψ: the rank of K_⊥ (exact) or of the projected Nyström
        features.
    n_constraints_ : int
        Number of independent sensitive directions projected out.
    eigenvalues_ : ndarray of shape (``n_components_``,)
        Exact solver: the positive eigenvalues of K_⊥ kept (descending).
    X_fit_ : ndarray of shape (n_samples, n_features)
        Training rows (exact solver), or the landmarks (Nyström).
    gamma_ : float or None
        The kernel coefficient used.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    References
    ----------
    * F. Störck, F. Hinder, B. Hammer. "Extending Fair Null-Space Projections for Continuous
      Attributes to Kernel Methods." ICML 2026 (arXiv:2511.03304).
    * S. Ravfogel, Y. Elazar, H. Gonen, M. Twiton, Y. Goldberg. "Null it out: guarding protected
      attributes by iterative nullspace projection." ACL 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairKernelProjection
    >>> rng = np.random.default_rng(0)
    >>> age = rng.uniform(20, 70, 200)
    >>> X = np.c_[rng.normal(size=200), age / 10 + rng.normal(size=200)]
    >>> proj = FairKernelProjection(gamma=0.5).fit(X, sensitive_features=age)
    >>> Psi = proj.transform(X)
    >>> bool(np.abs((Psi - Psi.mean(0)).T @ (age - age.mean())).max() < 1e-8)
    True
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions(set(KERNELS) - {"precomputed"})],
        "gamma": [Interval(Real, 0, None, closed="neither"), StrOptions({"scale", "auto"}), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "sensitive_type": [StrOptions({"continuous", "categorical", "auto"}), list, tuple],
        "approximation": [StrOptions({"nystroem"}), None],
        "n_landmarks": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, *, kernel="rbf", gamma=None, degree=3, coef0=1,
                 sensitive_type="continuous", approximation=None, n_landmarks=1000,
                 random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.sensitive_type = sensitive_type
        self.approximation = approximation
        self.n_landmarks = n_landmarks
        self.random_state = random_state

    def _kernel(self, X, Y=None):
        return kernel_matrix(X, Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree,
                             coef0=self.coef0)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the projection.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            The attribute(s) to project out, read as ``sensitive_type`` says.  ``None``
            projects nothing (the plain kernel's features) and emits an
            :class:`~fairlab.UnconstrainedFallbackWarning`.

        Returns
        -------
        self : FairKernelProjection
        """
        reject_bool_params(self, ("gamma", "degree", "coef0", "n_landmarks", "random_state"))
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        n = X.shape[0]
        warn_if_indefinite(self.kernel, "its features are not those of a fair kernel",
                           self.degree, self.coef0)
        if sensitive_features is None:
            warn_unconstrained(self, "the kernel's own features")
            Z = np.zeros((n, 0))
        else:
            # an orthonormal basis of span(S̃), as fair kernel PCA builds it (exact for groups)
            Z = constraint_columns(check_sensitive(sensitive_features, n, self.sensitive_type,
                                                    min_group_size=1))
        self.gamma_ = resolve_gamma(X, self.gamma) if self.kernel in GAMMA_KERNELS else None
        self._linear = None
        if self.approximation == "nystroem":
            self._fit_nystroem(X, Z)
        else:
            self._fit_exact(X, Z)
        return self

    def _fit_linear(self, X, Z):
        """The linear kernel on X itself: K_⊥ = (XQ⊥)(XQ⊥)ᵀ, no Gram matrix formed.

        With A = XᵀS̃ = XcᵀZ and Q⊥ a basis of range(A)^⊥ (:func:`~fairlab._core.constraints.
        linear_constraint`), k_⊥(x, y) = xᵀQ⊥Q⊥ᵀy.  The thin SVD XQ⊥ = U diag(s) Wᵀ gives
        K_⊥'s eigenpairs (λ = s², kept by the rule of :func:`~fairlab._core.constraints.
        linear_components`) and the features Ψ(x) = xᵀQ⊥W, which equal k_⊥(x, X)UΛ^{-1/2}.
        Ψ(x) is evaluated as (x − μ)ᵀQ⊥W + μᵀQ⊥W: the offset μ enters as one constant per
        column, never rounded into the entries, so no centred sensitive column sees it.
        """
        problem = linear_constraint(X, Z)
        mean = problem.mean
        scores, s, W, rank = linear_components(problem.project(problem.Xc), Z,
                                                problem.project(mean[None, :])[0])
        signs = column_signs(scores[:, :rank])
        self._linear = (problem, problem.directions(W[:, :rank] * signs))
        self._constraint_coef = self._sigma = self._constraint_images = None
        self._feature_map = None
        self.eigenvalues_ = s[:rank] ** 2
        self.X_fit_ = X
        self.n_constraints_ = problem.Q.shape[1]
        self.n_components_ = rank

    def _fit_exact(self, X, Z):
        n = X.shape[0]
        if self.kernel == "linear":
            return self._fit_linear(X, Z)
        K = self._kernel(X)
        unit = entry_rounding_unit(K, self.kernel)
        # (S̃ᵀKS̃)⁺ = Z T diag(σ) Tᵀ Zᵀ, and W = KZT the images of the constraint directions
        T, sigma, W = constraint_factor(K, Z, unit)
        self._constraint_coef, self._sigma, self._constraint_images = Z @ T, sigma, W
        K_fair = K - (W * sigma) @ W.T
        lam, U = linalg.eigh((K_fair + K_fair.T) / 2, check_finite=False)
        lam, U = lam[::-1], flip_signs(U[:, ::-1])
        keep = lam > component_floor(n, unit, float(np.trace(K)), T)
        self.eigenvalues_ = lam[keep]
        self._feature_map = U[:, keep] / np.sqrt(lam[keep])
        self.X_fit_ = X
        self.n_constraints_ = T.shape[1]
        self.n_components_ = int(keep.sum())

    def _fit_nystroem(self, X, Z):
        n = X.shape[0]
        L = min(self.n_landmarks, n)
        idx = np.sort(check_random_state(
            0 if self.random_state is None else self.random_state).choice(n, L, replace=False))
        self.X_fit_ = X[idx]
        K_nl = self._kernel(X, self.X_fit_)
        nmap = nystroem_map(K_nl[idx])
        F = K_nl @ nmap
        # the feature-space directions FᵀZ, their rank decided by the rounding bound
        Q = constraint_basis(F.T @ Z, np.linalg.norm(F, axis=0), np.ones(Z.shape[1]), n)
        self._feature_map = nmap @ complement_basis(Q)
        self._constraint_coef = None
        self.eigenvalues_ = None
        self.n_constraints_ = Q.shape[1]
        self.n_components_ = self._feature_map.shape[1]

    def fair_kernel(self, X, Y=None):
        """The fair kernel matrix k_⊥(X, Y) (``Y=None``: Y = X, as scikit-learn's kernels).

        Exact solver: k(X, Y) − k(X, X_fit)S̃(S̃ᵀKS̃)⁺S̃ᵀk(X_fit, Y); Nyström: Ψ(X)Ψ(Y)ᵀ.  For
        a kernel method with ``kernel="precomputed"``, fit on ``fair_kernel(X_train)`` and
        predict on ``fair_kernel(X_test, X_train)``.

        Returns
        -------
        ndarray of shape (n_X, n_Y)
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        Y = X if Y is None else check_transform_input(self, Y)
        if getattr(self, "_linear", None) is not None:  # k_⊥(x, y) = xᵀQ⊥Q⊥ᵀy
            problem = self._linear[0]
            shift = problem.project(problem.mean[None, :])
            return ((problem.project(X - problem.mean) + shift)
                    @ (problem.project(Y - problem.mean) + shift).T)
        if self._constraint_coef is None:  # Nyström: the features define the kernel
            return self.transform(X) @ self.transform(Y).T
        left = self._kernel(X, self.X_fit_) @ self._constraint_coef
        right = self._kernel(Y, self.X_fit_) @ self._constraint_coef
        return self._kernel(X, Y) - (left * self._sigma) @ right.T

    def _fair_rows(self, X):
        """k_⊥(X, X_fit) = k(X, X_fit) − k(X, X_fit)·ZT·diag(σ)·Wᵀ."""
        KX = self._kernel(X, self.X_fit_)
        return KX - ((KX @ self._constraint_coef) * self._sigma) @ self._constraint_images.T

    def transform(self, X):
        """Features Ψ(X) of the fair kernel, shape (n_samples, ``n_components_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        if getattr(self, "_linear", None) is not None:  # Ψ(x) = xᵀQ⊥W
            problem, D = self._linear
            return (X - problem.mean) @ D + problem.mean @ D
        if self._constraint_coef is None:
            return self._kernel(X, self.X_fit_) @ self._feature_map
        return self._fair_rows(X) @ self._feature_map

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
