r"""SAL — Spectral Attribute removaL (Shao, Ziser and Cohen, EACL 2023).

SAL removes from the data the directions most covariant with the protected attribute: the top
left singular vectors of the cross-covariance matrix between the features and the one-hot
encoded attribute, and keeps the orthogonal projection onto the rest::

    Z  = one-hot(z)                          # n × m (all m columns; several attributes stacked)
    A  = X̃ᵀ Z̃ / n                            # d × m cross-covariance (centred; see `center`)
    U, s, Vᵀ = svd(A)
    P  = I − U[:, :r] U[:, :r]ᵀ              # drop the top-r left singular vectors
    X_clean = X P                            # d-dimensional output
    (optional) PCA to k dimensions of X_clean, inside range(P)

With centred data A has rank at most Σ(m_a − 1), and r = that rank removes all of range(X̃ᵀZ̃):
SAL followed by PCA is then exactly Fair PCA (Kleindessner et al. 2023), and SAL is the
orthogonal variant of LEACE.  The published code did not centre (``center=False``): then
range(XᵀZ) is spanned by the uncentred group means, of dimension Σ(m_a − 1) + 1, and r = 2
for a binary attribute as in the paper.

Implementation: the rank of A is decided once, on the full-rank encoding Z̃ = contrasts (or
[contrasts, 1] uncentred) by :func:`~fairlab._core.linalg.constraint_basis` (the m one-hot columns
are rank deficient by construction); the singular directions of SAL's one-hot A are then
computed inside that range, so no rank is decided with a default tolerance.
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral

import numpy as np
from scipy import linalg
from sklearn.utils._param_validation import Interval

from .._core.linalg import constraint_basis, cross
from ._common import BaseEraser, Eraser


def sal_directions(X, groups, *, center=True):
    """Left singular vectors (d × ρ) and singular values of SAL's cross-covariance A.

    ρ is the numerically certain rank of A; the columns come by decreasing singular value.
    """
    n = X.shape[0]
    if center:
        Xs = X - X.mean(axis=0)
        Z = groups.one_hot(center=True)
        F = groups.contrasts()  # span(F) = span(Z̃), full column rank by construction
    else:
        Xs = X
        Z = groups.one_hot(center=False)
        F = np.hstack([groups.contrasts(), np.ones((n, 1))])  # span(F) = span(Z)
    Q = constraint_basis(cross(Xs, F), np.linalg.norm(Xs, axis=0), np.linalg.norm(F, axis=0), n)
    # range(A) = range(Q): the singular directions of A with non-zero singular value lie in it.
    u, s, _ = linalg.svd(Q.T @ cross(Xs, Z) / n, full_matrices=False, check_finite=False)
    return Q @ u, s


class SAL(BaseEraser):
    r"""Spectral Attribute removaL (Shao et al. 2023), optionally followed by PCA.

    Removes the top-r left singular directions U_r of the cross-covariance
    A = X̃ᵀZ̃/n between the (centred) features and the one-hot attribute, with the orthogonal
    projection P = I − U_r U_rᵀ:

    .. math::

        \mathrm{SAL}(x) = P x, \qquad P = I - U_r U_r^\top,\quad
        U_r = \text{top-}r \text{ left singular vectors of } \tilde X^\top \tilde Z .

    Parameters
    ----------
    n_components : int, default=None
        ``None`` outputs the d-dimensional X P (the paper's output).  An int k adds a PCA to k
        dimensions of the erased data inside range(P) (at most min(n_samples, d − r)): the
        reduction the baselines of Kleindessner et al. need, and since range(P) excludes the
        removed directions, no PCA direction re-admits them (unlike the eigenvectors of P
        itself, which are undetermined inside its eigenvalue-1 space).
    n_removed : int, default=None
        r.  ``None`` removes the whole range of A: its rank, Σ(m_a − 1) for centred data
        (one direction per independent group contrast) or that plus one for
        ``center=False``.  Smaller values remove only the leading singular directions.
        Values above the rank are refused: those singular directions are not determined by
        the data.
    center : bool, default=True
        Centre X and the one-hot Z in A.  ``False`` is the published notebook (uncentred
        XᵀZ, which also contains the overall mean direction, r = 2 for a binary attribute).
        The PCA step is always centred.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        Mean of the training rows.
    singular_values_ : ndarray of shape (rank of A,)
        Non-zero singular values of A (decreasing).
    projection_ : ndarray of shape (n_features, n_features)
        P (symmetric, idempotent).
    removed_directions_ : ndarray of shape (``n_removed_``, n_features)
        U_rᵀ, orthonormal rows by decreasing singular value.
    n_removed_ : int
        r.
    components_ : ndarray of shape (n_components, n_features)
        Only with ``n_components``: orthonormal principal directions of the erased data.
    explained_variance_, explained_variance_ratio_ : ndarray of shape (n_components,)
        Only with ``n_components``: their variances (divisor n − 1) and the fraction of the
        total variance of X.
    n_components_ : int
        Output dimension.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    See Also
    --------
    fairlab.FairPCA : equal to ``SAL(k)`` with the default r.
    fairlab.baselines.leace.LEACE : ``method="orthogonal"`` is SAL's default projection.

    Notes
    -----
    ``sensitive_features=None`` removes nothing (PCA to ``n_components``, or the identity) and
    warns.  Cost: one pass for X̃ᵀZ̃ (O(ndm)), an SVD of an r×m matrix, and for the PCA step
    the cost of a PCA.

    References
    ----------
    * S. Shao, Y. Ziser, S. B. Cohen. "Gold doesn't always glitter: spectral removal of linear
      and nonlinear guarded attribute information." EACL 2023 (arXiv:2203.07893).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.sal import SAL
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 4)) + 3.0 * z[:, None]
    >>> Xt = SAL().fit_transform(X, sensitive_features=z)
    >>> bool(np.allclose(Xt[z == 0].mean(axis=0), Xt[z == 1].mean(axis=0)))
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "n_removed": [Interval(Integral, 1, None, closed="left"), None],
        "center": ["boolean"],
    }

    def __init__(self, n_components=None, *, n_removed=None, center=True):
        self.n_components = n_components
        self.n_removed = n_removed
        self.center = center

    def _fit_unconstrained(self, X):
        self.singular_values_ = np.zeros(0)
        return super()._fit_unconstrained(X)

    def _fit_eraser(self, X, groups):
        U, s = sal_directions(X, groups, center=self.center)
        self.singular_values_ = s
        what = "the rank of the " + ("centred " if self.center else "") + "cross-covariance"
        self._check_n_removed(self.n_removed, U.shape[1], what)
        r = U.shape[1] if self.n_removed is None else self.n_removed
        return Eraser.orthogonal(np.ascontiguousarray(U[:, :r]))
