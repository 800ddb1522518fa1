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
    """PCA after projecting out the groups' mean gaps and the leading direction of their
    covariance gaps.

    With the g groups' means μ_j and covariances Σ_j (``np.cov``, ddof 1), μ̄ and Σ̄ their
    unweighted averages:

    1. U, an orthonormal basis (r × d) of the span of the mean gaps μ_j − μ̄ (r ≤ g − 1; for two
       groups the one direction (μ₁ − μ₀)/‖μ₁ − μ₀‖), and P_U = I − UᵀU;
    2. v, the unit vector orthogonal to U that maximises max_j abs(vᵀ(Σ_j − Σ̄)v): the
       eigenvector of the largest absolute eigenvalue of P_U (Σ_j − Σ̄) P_U over the groups j
       (for two groups, of P_U (Σ₁ − Σ₀) P_U), the direction along which one group's variance
       departs most from the average; ``variance_gap_`` = max_j vᵀΣ_jv − min_j vᵀΣ_jv;
    3. with P = P_U − vvᵀ and the centred data X̃ = X − μ, the components V are the top
       ``n_components`` right singular vectors of X̃P, and ``transform(X) = (X − μ) Vᵀ``.
       At k = d − r there is no room to leave v out as well: then P = P_U.

    Every direction of the representation is orthogonal to U, so on the training data each
    linear function of it has the same mean in every group (Fair PCA's constraint, Kleindessner
    et al. 2023), and orthogonal to v, so the largest difference of the groups' variances is
    gone too — one direction only: the groups' covariances elsewhere may still differ (Fair
    PCA-S equalises them in a whole subspace).  It is a simple, deliberately crude method, not
    one of the papers'.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k, at most d − r (v is left out only up to d − r − 1).

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
    mean_directions_ : ndarray of shape (r, n_features)
        U: orthonormal rows spanning the mean gaps (r is the rank of the gaps, numpy's
        ``matrix_rank`` tolerance; 0 where all group means coincide).
    covariance_direction_ : ndarray of shape (n_features,)
        v, orthogonal to U.
    variance_gap_ : float
        The largest minus the smallest of the groups' variances along v.
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows, orthogonal to U and (for k ≤ d − r − 1) to v.
    """

    def __init__(self, n_components=2):
        self.n_components = n_components

    def fit(self, X, y=None, *, sensitive_features=None):
        """Learn the projection from X and the groups of the sensitive attribute.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_columns)
            Group labels, or one row per sample (e.g. one-hot columns) whose distinct rows are
            the groups; at least two groups, each of at least two rows.

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=float)
        d = X.shape[1]
        k = self.n_components
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"n_components must be a positive integer; got {k!r}.")
        if sensitive_features is None:
            raise ValueError("sensitive_features is required: the groups' means and "
                             "covariances are its.")
        labels, counts = _groups(sensitive_features, len(X))
        Xs = [X[labels == j] for j in range(len(counts))]
        means = np.array([Xj.mean(axis=0) for Xj in Xs])
        gaps = means - means.mean(axis=0)
        _, singular, Vt = linalg.svd(gaps, full_matrices=False)
        rank = int(np.sum(singular > max(gaps.shape) * np.finfo(float).eps * singular[0])) \
            if singular[0] > 0 else 0
        U = Vt[:rank]
        if k > d - rank:
            raise ValueError(f"n_components must be an integer in [1, {d - rank}] (d = {d} "
                             f"less the {rank} direction(s) of the mean gaps); got {k!r}.")
        P_U = np.eye(d) - U.T @ U
        covariances = [np.cov(Xj, rowvar=False) for Xj in Xs]
        average = sum(covariances) / len(covariances)
        v, largest = None, -1.0
        for C in covariances:  # the largest |vᵀ(Σ_j − Σ̄)v| of any group, v ⊥ U
            D = P_U @ (C - average) @ P_U
            values, vectors = linalg.eigh((D + D.T) / 2)
            j = int(np.argmax(np.abs(values)))
            if abs(values[j]) > largest:
                v, largest = vectors[:, j], abs(values[j])
        variances = [v @ C @ v for C in covariances]
        self.mean_ = X.mean(axis=0)
        self.mean_directions_ = U
        self.covariance_direction_ = v
        self.variance_gap_ = float(max(variances) - min(variances))
        Xc = X - self.mean_
        projected = Xc @ (P_U - np.outer(v, v) if k <= d - rank - 1 else P_U)
        U_svd, _, Vt = linalg.svd(projected, full_matrices=False)
        _, Vt = svd_flip(U_svd, Vt, u_based_decision=False)  # fixed signs
        self.components_ = Vt[:k]
        return self

    def transform(self, X):
        """The centred data times the transposed components, ``(X - mean_) @ components_.T``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        return (X - self.mean_) @ self.components_.T


def _groups(sensitive_features, n_samples):
    """Group numbers 0..g−1 of each row (a 2-D attribute: its distinct rows) and group sizes."""
    s = np.asarray(sensitive_features)
    if s.ndim not in (1, 2) or len(s) != n_samples:
        raise ValueError(f"sensitive_features must hold one value or one row per sample "
                         f"({n_samples}); got shape {s.shape}.")
    _, labels, counts = np.unique(s if s.ndim == 2 else s.ravel(), axis=0 if s.ndim == 2 else None,
                                  return_inverse=True, return_counts=True)
    labels = labels.ravel()
    if len(counts) < 2 or counts.min() < 2:
        raise ValueError(f"sensitive_features must hold at least two groups of at least two "
                         f"rows; got {len(counts)} group(s) of sizes {counts.tolist()}.")
    return labels, counts
