r"""LEACE — LEAst-squares Concept Erasure (Belrose et al., NeurIPS 2023).

LEACE is the affine map r(x) = x − K(x − μ) that makes the cross-covariance between r(X) and
the one-hot attribute Z exactly zero (so no linear classifier does better than a constant, the
"linear guardedness" of the paper) while moving the data as little as possible, in every norm
E‖r(X) − X‖²_M at once.  Closed form, with W = (Σ_XX^{1/2})⁺ the whitening map::

    Σ_XX = Cov(X),  Σ_XZ = Cov(X, Z)
    U    = orthonormal basis of range(W Σ_XZ)
    r(x) = x − W⁺ U Uᵀ W (x − μ)           # method="leace" (an oblique projection)
    r(x) = x − Q Qᵀ (x − μ),  Q = basis of range(Σ_XZ)   # method="orthogonal" (W = I)

Implementation (no rank decided with a default tolerance where it is known).  With the thin
SVD of the centred data X̃ = A S Bᵀ (at most n − 1 non-zero singular values, by centring),
Σ_XX = B S² Bᵀ/(n − 1), W = √(n−1)·B S⁻¹ Bᵀ and W Σ_XZ = B (AᵀZ̃)/√(n − 1), so::

    Ũ = basis of range(AᵀZ̃)                # = range of the canonical correlations
    K = W⁺ U Uᵀ W = (B S Ũ)(Ũᵀ S⁻¹ Bᵀ)      # stored as two thin factors, O(d·q) per row

Z̃ is replaced by its m − 1 independent centred indicator columns per attribute (same span,
full rank by construction) and the rank of AᵀZ̃ is decided by
:func:`~fairlab._linalg.constraint_basis`.  Singular values of X̃ at or below
max(n, d)·eps·(‖X̃‖₂ + √n‖μ‖) (the rounding level of the centred data) are treated as zero:
collinear features, d > n.

Differences from the ``concept-erasure`` package (0.2.4, read, not used): no shrinkage of
Σ_XX (its default ``shrinkage=True`` is an estimator for small samples; the exact eraser is
``shrinkage=False``), and no absolute threshold ``svd_tol=0.01`` on the singular values of
WΣ_XZ — that threshold leaves weak but real correlations un-erased, which would break the
zero cross-covariance guarantee.  The package's ``constrain_cov_trace`` step is not applied:
the map here is exactly LEACE.  The paper's "oracle" eraser x − Σ_XZ Σ_ZZ⁺(z − z̄) needs z at
transform time, so it is not a transform of x: it is the least-squares residual on z, which
is what fairlearn's ``CorrelationRemover`` computes (use that).
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral

import numpy as np
from scipy import linalg
from sklearn.utils._param_validation import Interval, StrOptions

from .._linalg import constraint_basis, cross
from ._common import BaseEraser, Eraser

_EPS = np.finfo(np.float64).eps


def leace_eraser(X, groups, *, method="leace"):
    """The LEACE eraser of ``X`` for ``groups``: factors L (d×q), R (q×d) and bias μ."""
    n, d = X.shape
    mu = X.mean(axis=0)
    Xc = X - mu
    Zc = groups.contrasts()  # n × r, centred, independent columns
    z_norms = np.linalg.norm(Zc, axis=0)
    if method == "orthogonal":
        Q = constraint_basis(cross(Xc, Zc), np.linalg.norm(Xc, axis=0), z_norms, n)
        return Eraser.orthogonal(Q, bias=mu)
    # Whitening through the SVD of the centred data: X̃ = A S Bᵀ.
    A, s, Bt = linalg.svd(Xc, full_matrices=False, lapack_driver="gesdd", check_finite=False)
    scale = (s[0] if s.size else 0.0) + np.sqrt(n) * np.linalg.norm(mu)
    rank = min(n - 1, int(np.sum(s > max(n, d) * _EPS * scale)))
    A, s, B = A[:, :rank], s[:rank], Bt[:rank].T
    # W Σ_XZ ∝ B AᵀZ̃: its range is B·range(AᵀZ̃) (A has unit columns).
    U = constraint_basis(cross(A, Zc), np.ones(rank), z_norms, n)
    left = B @ (s[:, None] * U)  # W⁺U
    right = (U.T / s[None, :]) @ B.T  # UᵀW
    removed = B @ linalg.qr(s[:, None] * U, mode="economic", check_finite=False)[0]
    fixed = B @ linalg.qr(U / s[:, None], mode="economic", check_finite=False)[0]
    return Eraser(left=left, right=right, bias=mu, removed=removed, fixed=fixed)


class LEACE(BaseEraser):
    r"""LEAst-squares Concept Erasure (Belrose et al. 2023), optionally followed by PCA.

    The affine eraser with zero cross-covariance between its output and the one-hot attribute
    that moves the data least:

    .. math::

        r(x) = x - W^{+} P_{W\Sigma_{XZ}}\, W (x - \mu), \qquad
        W = (\Sigma_{XX}^{1/2})^{+},

    where :math:`P_{W\Sigma_{XZ}}` is the orthogonal projection onto the column space of
    :math:`W\Sigma_{XZ}`.  It minimises :math:`E\|r(X) - X\|_M^2` subject to
    :math:`\mathrm{Cov}(r(X), Z) = 0` for every positive semi-definite M simultaneously.

    Parameters
    ----------
    n_components : int, default=None
        ``None`` outputs the d-dimensional r(x).  An int k adds a PCA to k dimensions of the
        erased data, inside range(P) (at most min(n_samples, d − rank)); the output is a
        linear function of r(x), so it keeps the zero cross-covariance.
    method : {"leace", "orthogonal"}, default="leace"
        ``"leace"``: the oblique whitened projection above.  ``"orthogonal"``: W = I, the
        orthogonal projection x − QQᵀ(x − μ) removing range(Σ_XZ) (SAL's projection around
        the mean; equal cross-covariance guarantee, larger displacement).

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        μ, the training mean (the eraser is affine around it).
    projection_ : ndarray of shape (n_features, n_features)
        P = I − W⁺UUᵀW; r(x) = μ + P(x − μ).  Idempotent; symmetric for
        ``method="orthogonal"``.
    removed_directions_ : ndarray of shape (``n_removed_``, n_features)
        Orthonormal basis (rows) of range(I − P) = range(W⁺U), the directions r moves along.
    n_removed_ : int
        Rank of I − P: the rank of Σ_XZ, m − 1 for one attribute with m groups (generically).
    components_ : ndarray of shape (n_components, n_features)
        Only with ``n_components``: orthonormal principal directions of the erased data
        (they lie in range(P)); ``transform(x) = (x − μ) Pᵀ components_ᵀ``.
    explained_variance_, explained_variance_ratio_ : ndarray of shape (n_components,)
        Only with ``n_components``: their variances (divisor n − 1) and the fraction of the
        total variance of X.
    n_components_ : int
        Output dimension.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Only when X has string feature names.

    See Also
    --------
    fairlab.baselines.sal.SAL : the orthogonal projection, without the affine centring.
    fairlab.FairPCA : equal to ``LEACE(k, method="orthogonal")``.

    Notes
    -----
    See the module docstring for the SVD form used and for the differences from the
    ``concept-erasure`` package.  The "oracle" variant of the paper needs z at transform time
    and is not offered (fairlearn's ``CorrelationRemover`` computes it).
    ``sensitive_features=None`` erases nothing (PCA, or the identity) and warns.
    Rounding: the output's cross-covariance with Z is zero up to a small multiple of
    eps·‖I − P‖₂ relative to ‖X̃‖·‖Z̃‖ (measured: at most 140·eps·‖I − P‖₂ on 1 000
    adversarial instances).  ‖I − P‖₂ = 1 for ``method="orthogonal"``; for LEACE it is large
    only when the group signal couples directions of very different variance (the oblique
    projector amplifies the rounding of the data along low-variance directions), e.g.
    nearly collinear features stored in float32.

    References
    ----------
    * N. Belrose, D. Schneider-Joseph, S. Ravfogel, R. Cotterell, E. Raff, S. Biderman.
      "LEACE: Perfect linear concept erasure in closed form." NeurIPS 2023.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.leace import LEACE
    >>> rng = np.random.default_rng(0)
    >>> z = rng.integers(0, 3, 200)
    >>> X = rng.normal(size=(200, 5)) + np.eye(3, 5)[z] * 2.0
    >>> Xt = LEACE().fit_transform(X, sensitive_features=z)
    >>> Zc = np.eye(3)[z] - np.eye(3)[z].mean(axis=0)
    >>> bool(np.abs(Zc.T @ (Xt - Xt.mean(axis=0))).max() < 1e-10)
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "method": [StrOptions({"leace", "orthogonal"})],
    }

    def __init__(self, n_components=None, *, method="leace"):
        self.n_components = n_components
        self.method = method

    def _fit_eraser(self, X, groups):
        return leace_eraser(X, groups, method=self.method)
