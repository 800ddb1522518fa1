"""Fair PCA-S (Kleindessner et al. 2023, §3.6): the directions in which the groups' covariances
differ least.

Fair PCA-S first restricts the data to the span R of fair PCA's constraint (orthonormal columns),
then keeps the ``l`` directions of that span along which the group covariance matrices differ
least, and runs fair PCA inside them.  This module computes those directions, from the rows in
memory (:class:`_RowGroups`) or from streamed group moments (:class:`_MomentGroups`).
"""

import numpy as np
from scipy import linalg

from .linalg import cross, gram


def _covariance_gap_directions(X, groups, R, n_directions):
    """Orthonormal l-column basis E (in R-coordinates) of small group-covariance gap.

    Two groups (the paper): eigenvectors of T = Rᵀ(Σ₀ − Σ₁)R with the smallest ``|eigenvalue|``,
    by a dense symmetric solver.  More groups or attributes: smallest eigenvectors of

        S = Σ_attributes Σ_g (n_g / n) · T_g²,   T_g = Rᵀ(Σ_g − Σ̄)R,   Σ̄ = Σ_g (n_g / n) Σ_g,

    the minimiser over l-dim subspaces E of Σ_g w_g‖T_g E‖²_F, an upper bound of the projected
    covariance gaps Σ_g w_g‖EᵀT_g E‖²_F.  For two groups S = w·T², so the rule reduces to the
    paper's.  Σ_g is ``np.cov`` of the group (own mean, divisor n_g − 1), as in the reference.
    """
    return _gap_directions(_RowGroups(X, groups), R, n_directions)


def _covariance_gap_matrix(X, groups, R):
    """S = Σ_r Σ_g (n_g/n) (Rᵀ(Σ_g − Σ̄_r)R)² of :func:`_covariance_gap_directions`."""
    return _gap_matrix(_RowGroups(X, groups), R)


def _gap_directions(source, R, n_directions):
    """:func:`_covariance_gap_directions` for group covariances read from ``source``.

    ``source`` gives ``n_groups``, ``weights(r)`` (n_g / n) and ``projected(r, g, R)`` = RᵀΣ_gR:
    :class:`_RowGroups` (the rows) or :class:`_MomentGroups` (accumulated sums).
    """
    if n_directions >= R.shape[1]:
        return np.eye(R.shape[1])
    two_groups = len(source.n_groups) == 1 and source.n_groups[0] == 2
    if two_groups:
        T = source.projected(0, 0, R) - source.projected(0, 1, R)
        w, V = linalg.eigh(T, check_finite=False)
        order = np.argsort(np.abs(w), kind="stable")
    else:
        S = _gap_matrix(source, R)
        w, V = linalg.eigh(S, check_finite=False)
        order = np.argsort(w, kind="stable")
    return V[:, order[:n_directions]]


def _gap_matrix(source, R):
    S = np.zeros((R.shape[1], R.shape[1]))
    for r in range(len(source.n_groups)):
        weights = source.weights(r)
        covs = [source.projected(r, g, R) for g in range(source.n_groups[r])]
        pooled = sum(w * c for w, c in zip(weights, covs))
        for w, c in zip(weights, covs):
            T = c - pooled
            S += w * (T @ T)
    return S


def _group_cov_gap(X, codes, R, g):
    """RᵀΣ_gR for the rows of group g."""
    Xg = X[codes == g]
    XR = cross((Xg - Xg.mean(axis=0)).T, R)
    return gram(XR) / (Xg.shape[0] - 1)


class _RowGroups:
    """Group covariances of the rows of X (in-memory fit)."""

    def __init__(self, X, groups):
        self.X, self.groups = X, groups
        self.n_groups = groups.n_groups

    def weights(self, r):
        return np.bincount(self.groups.codes[:, r], minlength=self.n_groups[r]) / self.X.shape[0]

    def projected(self, r, g, R):
        return _group_cov_gap(self.X, self.groups.codes[:, r], R, g)


class _MomentGroups:
    """Group covariances from accumulated group sums and scatter matrices (dask, partial_fit)."""

    def __init__(self, moments):
        self.moments = moments
        self.n_groups = tuple(len(moments.labels[r]) for r in range(moments.spec.n_categorical))

    def weights(self, r):
        return self.moments.groups(r)[1] / self.moments.n

    def projected(self, r, g, R):
        P = cross(R, self.moments.group_covariance(r, g) @ R)
        return (P + P.T) / 2
