"""An example of a researcher's own method, as :func:`~fairlab.experiments.scorecard` takes it.

:class:`GapPCA` is a scikit-learn transformer whose ``fit`` takes ``sensitive_features`` and
whose class is a factory ``GapPCA(n_components)``: the two things a scorecard needs.  Score it
from the shell::

    python -m fairlab.experiments scorecard fairlab.experiments.example_method:GapPCA --quick

A method of one's own is written the same way, in any importable module.
"""

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.extmath import svd_flip
from sklearn.utils.validation import check_is_fitted, validate_data


class GapPCA(TransformerMixin, BaseEstimator):
    """PCA after projecting out the groups' mean gap and the leading direction of their
    covariance gap.

    With the two groups' means μ₀, μ₁ and covariances Σ₀, Σ₁ (``np.cov``, ddof 1):

    1. u = (μ₁ − μ₀)/‖μ₁ − μ₀‖, the direction between the means (0 if they coincide), and
       P_u = I − uuᵀ;
    2. v, the unit eigenvector of P_u (Σ₁ − Σ₀) P_u of the largest absolute eigenvalue: of the
       directions orthogonal to u, the one along which the groups' variances differ most
       (vᵀΣ₁v − vᵀΣ₀v is ``variance_gap_``);
    3. with P = I − uuᵀ − vvᵀ and the centred data X̃ = X − μ, the components V are the top
       ``n_components`` right singular vectors of X̃P, and ``transform(X) = (X − μ) Vᵀ``.
       At k = d − 1 there is no room to leave v out as well: then P = I − uuᵀ (the
       representation spans the whole complement of u, Fair PCA's subspace).

    Every direction of the representation is orthogonal to u, so on the training data each
    linear function of it has the same mean in both groups (Fair PCA's constraint, Kleindessner
    et al. 2023), and orthogonal to v, so the largest difference of the groups' variances is
    gone too — one direction only: the groups' covariances elsewhere may still differ (Fair
    PCA-S equalises them in a whole subspace).  It is a simple, deliberately crude method, not
    one of the papers'.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k, at most d − 1 (v is left out only up to d − 2).

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
    mean_direction_ : ndarray of shape (n_features,)
        u.
    covariance_direction_ : ndarray of shape (n_features,)
        v, orthogonal to u.
    variance_gap_ : float
        vᵀ(Σ₁ − Σ₀)v, the variance gap along v.
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows, orthogonal to u and (for k ≤ d − 2) to v.
    """

    def __init__(self, n_components=2):
        self.n_components = n_components

    def fit(self, X, y=None, *, sensitive_features=None):
        """Learn the projection from X and the binary sensitive attribute.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sensitive_features : array-like of shape (n_samples,)
            Two groups, each of at least two rows.

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=float)
        d = X.shape[1]
        k = self.n_components
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= d - 1:
            raise ValueError(f"n_components must be an integer in [1, {d - 1}]; got {k!r}.")
        if sensitive_features is None:
            raise ValueError("sensitive_features is required: the groups' means and "
                             "covariances are its.")
        s = np.asarray(sensitive_features).ravel()
        groups, counts = np.unique(s, return_counts=True)
        if len(s) != len(X) or len(groups) != 2 or counts.min() < 2:
            raise ValueError(f"sensitive_features must hold two groups of at least two rows, "
                             f"one value per row; got {len(groups)} group(s) of sizes "
                             f"{counts.tolist()} for {len(s)} value(s) and {len(X)} rows.")
        X0, X1 = X[s == groups[0]], X[s == groups[1]]
        gap = X1.mean(axis=0) - X0.mean(axis=0)
        norm = linalg.norm(gap)
        u = gap / norm if norm > 0 else np.zeros(d)
        P_u = np.eye(d) - np.outer(u, u)
        D = P_u @ (np.cov(X1, rowvar=False) - np.cov(X0, rowvar=False)) @ P_u
        values, vectors = linalg.eigh((D + D.T) / 2)
        v = vectors[:, np.argmax(np.abs(values))]
        self.mean_ = X.mean(axis=0)
        self.mean_direction_ = u
        self.covariance_direction_ = v
        self.variance_gap_ = float(v @ D @ v)
        Xc = X - self.mean_
        projected = Xc @ (P_u - np.outer(v, v) if k <= d - 2 else P_u)
        U, _, Vt = linalg.svd(projected, full_matrices=False)
        _, Vt = svd_flip(U, Vt, u_based_decision=False)  # a sign of each component that is fixed
        self.components_ = Vt[:k]
        return self

    def transform(self, X):
        """The centred data times the transposed components, ``(X - mean_) @ components_.T``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        return (X - self.mean_) @ self.components_.T
