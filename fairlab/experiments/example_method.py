"""An example of a researcher's own method, as :func:`~fairlab.experiments.scorecard` takes it.

:class:`MeanGapPCA` is a scikit-learn transformer whose ``fit`` takes ``sensitive_features`` and
whose class is a factory ``MeanGapPCA(n_components)``: the two things a scorecard needs.  Score
it from the shell::

    python -m fairlab.experiments scorecard fairlab.experiments.example_method:MeanGapPCA --quick

A method of one's own is written the same way, in any importable module.
"""

import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.extmath import svd_flip
from sklearn.utils.validation import check_is_fitted, validate_data


class MeanGapPCA(TransformerMixin, BaseEstimator):
    """Project out the difference of the groups' means, then keep the leading principal components.

    With the centred data X̃ and the unit vector u = (μ₁ − μ₀)/‖μ₁ − μ₀‖ between the two groups'
    means, the data are projected onto the complement of u, X̃(I − uuᵀ), and the components are
    the top ``n_components`` right singular vectors V of that matrix.  They are orthogonal to u,
    so ``transform(X) = (X − μ) Vᵀ`` and every linear function of the representation has the
    same mean in both groups on the training data — the fairness constraint of fair PCA
    (Kleindessner et al. 2023) without its eigenvalue problem in the null space: the same
    subspace for a binary attribute, reached by plain PCA.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k, at most d − 1.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
    direction_ : ndarray of shape (n_features,)
        u, the unit vector between the groups' means (zero if they coincide).
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows, orthogonal to ``direction_``.
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
            Two groups.

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=float)
        k = self.n_components
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) \
                or not 1 <= k <= X.shape[1] - 1:
            raise ValueError(f"n_components must be an integer in [1, {X.shape[1] - 1}]; "
                             f"got {k!r}.")
        if sensitive_features is None:
            raise ValueError("sensitive_features is required: the groups' means are its.")
        s = np.asarray(sensitive_features).ravel()
        groups = np.unique(s)
        if len(s) != len(X) or len(groups) != 2:
            raise ValueError(f"sensitive_features must hold two groups, one value per row; got "
                             f"{len(groups)} group(s) for {len(s)} value(s) and {len(X)} rows.")
        self.mean_ = X.mean(axis=0)
        gap = X[s == groups[1]].mean(axis=0) - X[s == groups[0]].mean(axis=0)
        norm = linalg.norm(gap)
        self.direction_ = gap / norm if norm > 0 else np.zeros_like(gap)
        Xc = X - self.mean_
        projected = Xc - np.outer(Xc @ self.direction_, self.direction_)
        U, _, Vt = linalg.svd(projected, full_matrices=False)
        _, Vt = svd_flip(U, Vt, u_based_decision=False)  # a sign of each component that is fixed
        self.components_ = Vt[:k]
        return self

    def transform(self, X):
        """The centred data times the transposed components, ``(X - mean_) @ components_.T``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        return (X - self.mean_) @ self.components_.T
