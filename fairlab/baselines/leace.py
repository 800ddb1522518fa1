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
SVD of the centred data X̃ = A S Bᵀ (for n ≥ d through its QR, X̃ = QR, and the SVD of R, so
that the n × d factor A is never formed) (at most n − 1 non-zero singular values, by centring),
Σ_XX = B S² Bᵀ/(n − 1), W = √(n−1)·B S⁻¹ Bᵀ and W Σ_XZ = B (AᵀZ̃)/√(n − 1), so::

    Ũ = basis of range(AᵀZ̃)                # = range of the canonical correlations
    K = W⁺ U Uᵀ W = (B S Ũ)(Ũᵀ S⁻¹ Bᵀ)      # stored as two thin factors, O(d·q) per row

Z̃ is replaced by its m − 1 independent centred indicator columns per attribute (same span,
full rank by construction) and the rank of AᵀZ̃ is decided by
:func:`~fairlab._core.linalg.constraint_basis`.  Singular values of X̃ at or below
max(n, d)·eps·(‖X̃‖₂ + √n‖μ‖) (the rounding level of the centred data) are treated as zero:
collinear features, d > n.

Differences from the ``concept-erasure`` package (0.2.4, read, not used): no shrinkage of
Σ_XX (its default ``shrinkage=True`` is an estimator for small samples; the exact eraser is
``shrinkage=False``), and no absolute threshold ``svd_tol=0.01`` on the singular values of
WΣ_XZ — that threshold leaves weak but real correlations un-erased, which would break the
zero cross-covariance guarantee.  The package's ``constrain_cov_trace`` step is not applied:
the map here is exactly LEACE.

The paper's "oracle" eraser (§"oracle concept erasure") also sees z at transform time, so it
is not a map of x alone and is the separate estimator :class:`OracleLEACE`
(``transform(X, sensitive_features=z)``)::

    B       = Σ_ZZ⁺ Σ_ZX                   # (Σ m_r) × d, fitted with x̄ and z̄
    r(x, z) = x − Bᵀ(z − z̄)                 # the least-squares residual of X on the one-hot Z

On the training data it moves X least, in every norm E‖r − X‖²_M, among all erasers with zero
cross-covariance, with or without z (so never more than LEACE), and it equals fairlearn's
``CorrelationRemover`` applied to X with the one-hot columns of z appended.

Implementation (no rank decided numerically): with the contrasts C (the m − 1 independent
centred indicators per attribute, full column rank) and the exact relation Z̃ = C G (G has
full row rank: it holds an identity block), Z̃⁺ = G⁺C⁺, so::

    C  = Q R                                # thin QR, R invertible by construction
    B  = G⁺ R⁻¹ QᵀX̃,   G = R⁻¹ QᵀZ̃,   G⁺ = Gᵀ(GGᵀ)⁻¹  (GGᵀ ⪰ I)

For one attribute, or several that are not collinear, z − z̄ lies in range(Σ_ZZ) for every
combination of labels seen in fit, where all solutions of Σ_ZZ B = Σ_ZX give the same r; with
collinear attributes (one a function of another) Σ_ZZ⁺ fixes the extrapolation to
combinations never seen together in fit: the minimum-norm B, as fairlearn's ``lstsq``.
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral

import numpy as np
import pandas as pd
from scipy import linalg
from scipy.linalg import lapack
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._core.linalg import constraint_basis, cross, gram
from .._core.validation import (
    _as_2d_columns,
    _is_missing,
    check_n_components,
    check_transform_input,
)
from ._common import BaseEraser, Eraser, fit_erased_pca, validate_eraser_input

_EPS = np.finfo(np.float64).eps


# Rows of [X̃ Z̃] per update of the triangular factor: about 2¹⁵ entries (256 KiB; at least
# d + r rows), so that a block stays in a core's cache while its reflectors are applied.
_QR_BLOCK_ENTRIES = 1 << 15


def _stacked_qr_factor(X, Zc, mean=None):
    """R (p × p upper triangular, p = d + r) with [X̃ Z̃] = QR, X̃ = X − 1μᵀ (X itself if no mean).

    The Householder QR taken a block of rows at a time (a flat-tree TSQR): R starts at zero and
    each block B is absorbed by the triangular-pentagonal QR of [R; B] (LAPACK ``tpqrt``, with
    compact-WY blocks of ``nb`` columns).  The same reflector algebra, with the same backward
    stability, as one QR of the n × p matrix; but each block is centred and laid out in column
    order in a buffer that stays in cache, so no n × p copy is formed, and its reflectors are
    applied by level-3 BLAS, where LAPACK's ``geqrf`` leaves a matrix of fewer than 128 columns
    unblocked (one pass over all n rows per column).  Rows of R beyond n (when n < p) stay zero.
    """
    n, d = X.shape
    p = d + Zc.shape[1]
    rows = min(n, max(p, _QR_BLOCK_ENTRIES // p))
    nb = min(p, max(8, p // 16))
    R = np.zeros((p, p), order="F")
    buffer = np.empty((rows, p), order="F")
    for start in range(0, n, rows):
        stop = min(start + rows, n)
        block = buffer if stop - start == rows else np.empty((stop - start, p), order="F")
        if mean is None:
            block[:, :d] = X[start:stop]
        else:
            np.subtract(X[start:stop], mean, out=block[:, :d])
        block[:, d:] = Zc[start:stop]
        R, _, _, info = lapack.dtpqrt(0, nb, R, block, overwrite_a=True, overwrite_b=True)
        if info != 0:  # only an invalid argument sets it
            raise RuntimeError(f"LAPACK dtpqrt failed (info={info}).")
    return R


def _svd_and_cross(Xc, Zc, mean=None):
    """Singular values s and right vectors Bᵀ of X̃ = A S Bᵀ (thin SVD), and AᵀZ̃.

    X̃ is ``Xc``, or ``Xc − mean`` when ``mean`` is given (centred here, block by block).  For
    tall X̃ (n ≥ d) A is never formed: the Householder QR of [X̃ Z̃] holds X̃ = Q₁R in its
    first d columns and Q₁ᵀZ̃ in the first d rows of the others (the reflectors of X̃'s columns
    act on Z̃'s as well), and the SVD of the d × d factor, R = P S Bᵀ, gives A = Q₁P, so
    AᵀZ̃ = Pᵀ(Q₁ᵀZ̃).  That costs about 2n(d + r)² flops against about 6nd² for the SVD of X̃
    with its left vectors, with the same backward stability.  Wide X̃ goes through its SVD.
    """
    n, d = Xc.shape
    if n < d or d == 0:
        Xc = Xc if mean is None else Xc - mean
        A, s, Bt = linalg.svd(Xc, full_matrices=False, lapack_driver="gesdd", check_finite=False)
        return s, Bt, cross(A, Zc)
    R = _stacked_qr_factor(Xc, Zc, mean)
    P, s, Bt = linalg.svd(np.triu(R[:d, :d]), full_matrices=False, lapack_driver="gesdd",
                          check_finite=False)
    return s, Bt, cross(P, R[:d, d:])


def leace_eraser(X, groups, *, method="leace", mean=None):
    """The LEACE eraser of ``X`` for ``groups``: factors L (d×q), R (q×d) and bias μ.

    ``mean``: μ = ``X.mean(axis=0)`` when the caller already has it.
    """
    n, d = X.shape
    mu = X.mean(axis=0) if mean is None else mean
    Zc = groups.contrasts()  # n × r, centred, independent columns
    z_norms = np.linalg.norm(Zc, axis=0)
    if method == "orthogonal":
        Xc = X - mu
        Q = constraint_basis(cross(Xc, Zc), np.linalg.norm(Xc, axis=0), z_norms, n)
        return Eraser.orthogonal(Q, bias=mu)
    # Whitening through the SVD of the centred data: X̃ = A S Bᵀ.
    s, Bt, AtZ = _svd_and_cross(X, Zc, mean=mu)
    scale = (s[0] if s.size else 0.0) + np.sqrt(n) * np.linalg.norm(mu)
    rank = min(n - 1, int(np.sum(s > max(n, d) * _EPS * scale)))
    s, B, AtZ = s[:rank], Bt[:rank].T, AtZ[:rank]
    # W Σ_XZ ∝ B AᵀZ̃: its range is B·range(AᵀZ̃) (A has unit columns).
    U = constraint_basis(AtZ, np.ones(rank), z_norms, n)
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
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    See Also
    --------
    OracleLEACE : the oracle eraser r(x, z), which needs z at transform time too.
    fairlab.baselines.sal.SAL : the orthogonal projection, without the affine centring.
    fairlab.FairPCA : equal to ``LEACE(k, method="orthogonal")``.

    Notes
    -----
    See the module docstring for the SVD form used and for the differences from the
    ``concept-erasure`` package.  The "oracle" variant of the paper, which also sees z at
    transform time, is :class:`OracleLEACE` (``method="oracle"`` is refused with a pointer to
    it).
    ``sensitive_features=None`` erases nothing (PCA, or the identity) and warns.
    Rounding: the output's cross-covariance with Z is zero up to a small multiple of eps·‖I − P‖₂
    relative to ‖X̃‖·‖Z̃‖ (the adversarial tests hold it to such a bound).  ‖I − P‖₂ = 1 for
    ``method="orthogonal"``; for LEACE it is large only when the group signal couples directions of
    very different variance (the oblique projector amplifies the rounding of the data along
    low-variance directions), e.g. nearly collinear features stored in float32.

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

    def _validate_params(self):
        if isinstance(self.method, str) and self.method == "oracle":
            raise InvalidParameterError(
                "The 'method' parameter of LEACE must be 'leace' or 'orthogonal', got 'oracle'. "
                "The oracle eraser x - Cov(X, Z) Cov(Z)^+ (z - mean(z)) needs the groups at "
                "transform time, so it is a separate estimator: use "
                "fairlab.baselines.OracleLEACE and pass transform(X, sensitive_features=...)."
            )
        super()._validate_params()

    def _fit_eraser(self, X, groups):
        return leace_eraser(X, groups, method=self.method, mean=self.mean_)


def oracle_coefficients(X, groups):
    """B = Σ_ZZ⁺ Σ_ZX ((Σ m_r) × d) and z̄ of the oracle eraser, through the contrasts.

    C = ``groups.contrasts()`` has full column rank and Z̃ = C G exactly, with G = C⁺Z̃ of full
    row rank (its columns at ``groups.independent_columns`` form an identity), so
    Z̃⁺ = G⁺C⁺ with C⁺ = R⁻¹Qᵀ (thin QR) and G⁺ = Gᵀ(GGᵀ)⁻¹, GGᵀ ⪰ I: no rank is decided.
    """
    Z = groups.one_hot(center=False)
    z_mean = Z.mean(axis=0)
    Zc = Z - z_mean
    Xc = X - X.mean(axis=0)
    Q, R = linalg.qr(Zc[:, groups.independent_columns], mode="economic", check_finite=False)
    coef = linalg.solve_triangular(R, cross(Q, Xc), check_finite=False)  # C⁺X̃
    G = linalg.solve_triangular(R, cross(Q, Zc), check_finite=False)
    coef = G.T @ linalg.solve(gram(G.T), coef, assume_a="pos", check_finite=False)
    return coef, z_mean


class OracleLEACE(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Oracle LEACE (Belrose et al. 2023): erase the part of x predicted by the groups z.

    The eraser of the paper's "oracle" setting, which sees the attribute at transform time:

    .. math::

        r(x, z) = x - \Sigma_{XZ}\Sigma_{ZZ}^{+}(z - \bar z),

    with Z the one-hot attribute (all groups of every attribute, stacked) and the moments of
    the training data.  On the training rows r(X, Z) is the least-squares residual of X on the
    centred one-hot Z̃, so Cov(r(X, Z), Z) = 0, and it minimises E‖r(X, Z) − X‖²_M among all
    erasers with that property, whether or not they see z (for every positive semi-definite
    M): it never moves the data more than :class:`LEACE`.  It is fairlearn's
    ``CorrelationRemover`` with the one-hot columns of z appended to X.

    Parameters
    ----------
    n_components : int, default=None
        ``None`` outputs the d-dimensional r(x, z).  An int k adds a PCA to k dimensions of the
        erased training data (at most min(n_samples, n_features)); the output is a linear
        function of r(x, z), so it keeps the zero cross-covariance.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        x̄, the training mean (also the mean of the erased training data).
    categories_ : list of ndarray
        The group labels of each attribute seen in fit, sorted; their indicators are the
        columns of Z.  Empty after a fit with ``sensitive_features=None``.
    sensitive_mean_ : ndarray of shape (n_indicators,)
        z̄: the share of the training rows in each group (n_indicators = Σ m_r).
    coef_ : ndarray of shape (n_indicators, n_features)
        B = Σ_ZZ⁺Σ_ZX; r(x, z) = x − (z − z̄)B, with z and z̄ as rows.  For one attribute,
        row g minus z̄B is the mean of group g minus x̄ (the rows sum to zero: Σ_ZZ⁺ picks
        the minimum-norm B).
    components_ : ndarray of shape (n_components, n_features)
        Only with ``n_components``: orthonormal principal directions of the erased training
        data; ``transform(x, z) = (r(x, z) − x̄) components_ᵀ``.
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
    LEACE : the eraser of x alone (no z at transform time), with the same guarantee.
    fairlearn.preprocessing.CorrelationRemover : the same residual, z given as columns of X.

    Notes
    -----
    See the module docstring for how B is computed without a numerical rank decision.
    ``transform`` needs ``sensitive_features`` (labels seen in fit) after a constrained fit;
    in a :class:`~sklearn.pipeline.Pipeline` enable metadata routing and call both
    ``set_fit_request(sensitive_features=True)`` and
    ``set_transform_request(sensitive_features=True)``.  ``fit_transform`` passes them to
    both steps.  ``sensitive_features=None`` at fit erases nothing (PCA, or the identity),
    warns, and ``transform`` then ignores ``sensitive_features``.
    Out of sample the cross-covariance is not zero: r(x, z) removes the training
    group means, not those of new data.  Rounding: on the training data the cross-covariance
    with Z is that of the rounding of the output entries, eps·abs(x), so relative to ‖X̃‖·‖Z̃‖
    it is a small multiple of eps·‖X‖/‖X̃‖ (large only with a large offset; the adversarial
    tests hold it to such a bound).

    References
    ----------
    * N. Belrose, D. Schneider-Joseph, S. Ravfogel, R. Cotterell, E. Raff, S. Biderman.
      "LEACE: Perfect linear concept erasure in closed form." NeurIPS 2023.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.leace import OracleLEACE
    >>> rng = np.random.default_rng(0)
    >>> z = rng.integers(0, 3, 200)
    >>> X = rng.normal(size=(200, 5)) + np.eye(3, 5)[z] * 2.0
    >>> oracle = OracleLEACE().fit(X, sensitive_features=z)
    >>> Xt = oracle.transform(X, sensitive_features=z)
    >>> Zc = np.eye(3)[z] - np.eye(3)[z].mean(axis=0)
    >>> bool(np.abs(Zc.T @ (Xt - Xt.mean(axis=0))).max() < 1e-10)
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(self, n_components=None):
        self.n_components = n_components

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit B = Σ_ZZ⁺Σ_ZX (and the optional PCA of the erased training data).

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
        k = self.n_components
        X, groups = validate_eraser_input(self, X, sensitive_features)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        self._rotation = None
        if groups is None:
            self.categories_ = []
            self.sensitive_mean_ = np.zeros(0)
            self.coef_ = np.zeros((0, d))
        else:
            self.categories_ = list(groups.categories)
            self.coef_, self.sensitive_mean_ = oracle_coefficients(X, groups)
        if k is None:
            self.n_components_ = d
            return self
        k = check_n_components(k, min(n, d), bound_text=f"min(n_samples={n}, n_features={d})")
        # PCA of the erased, centred training rows r(x, z) − x̄ = x − x̄ − (z − z̄)B.
        Xc = X - self.mean_
        Xe = Xc if groups is None else Xc - (
            groups.one_hot(center=False) - self.sensitive_mean_) @ self.coef_
        self._rotation = fit_erased_pca(self, Xc, Xe, np.zeros((d, 0)), k)
        return self

    def transform(self, X, *, sensitive_features=None):
        """Erase with the groups of the rows (and project on ``components_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            The group labels of the rows of X, among those seen in fit; required after a fit
            with ``sensitive_features``, ignored after a fit without.

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
            r(x, z) = x − (z − z̄)B for ``n_components=None``; otherwise
            (r(x, z) − ``mean_``) (``components_``)ᵀ, the principal coordinates of r(x, z).
        """
        return self._transform(X, sensitive_features)

    def fit_transform(self, X, y=None, *, sensitive_features=None):
        """Fit, then transform the training data with the same ``sensitive_features``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            As in :meth:`fit`; passed to :meth:`transform` too.

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
        """
        return self.fit(X, y, sensitive_features=sensitive_features)._transform(
            X, sensitive_features)

    def _transform(self, X, sensitive_features):
        check_is_fitted(self)
        X = check_transform_input(self, X)
        if self.categories_:
            X = X - self._centred_one_hot(sensitive_features, X.shape[0]) @ self.coef_
        elif self._rotation is None:
            return X.copy()  # the identity (fitted without sensitive_features)
        if self._rotation is not None:
            return (X - self.mean_) @ self._rotation
        return X

    def _centred_one_hot(self, sensitive_features, n):
        """z − z̄ for the rows of a transform (labels mapped to the groups seen in fit)."""
        name = type(self).__name__
        if sensitive_features is None:
            raise ValueError(
                f"{name}.transform needs sensitive_features: the oracle eraser subtracts the "
                "part of x predicted by the groups, so it needs the group labels of every row. "
                f"Pass {name}.transform(X, sensitive_features=...) (in a Pipeline: enable "
                "metadata routing and call .set_transform_request(sensitive_features=True)), "
                "or use LEACE, which erases without the groups at transform time."
            )
        columns = _as_2d_columns(sensitive_features, n, "sensitive_features")
        if len(columns) != len(self.categories_):
            raise ValueError(
                f"sensitive_features has {len(columns)} attribute(s) but {name} was fitted with "
                f"{len(self.categories_)}; pass the same attributes as in fit."
            )
        blocks = []
        for r, (col, labels) in enumerate(zip(columns, self.categories_)):
            if _is_missing(col).any():
                raise ValueError(
                    f"sensitive_features contains missing values (NaN/None) in attribute {r}; "
                    "give every row one of the groups seen in fit."
                )
            codes = pd.Index(labels).get_indexer(col)
            if (codes < 0).any():
                unseen = col[codes < 0][:1].tolist()[0]  # a Python scalar: plain repr
                raise ValueError(
                    f"sensitive_features attribute {r} holds the group {unseen!r}, not seen in "
                    f"fit (groups: {labels.tolist()}); the oracle eraser has no coefficient "
                    "for it. Map it to one of those groups, or refit with it."
                )
            block = np.zeros((n, len(labels)))
            block[np.arange(n), codes] = 1.0
            blocks.append(block)
        return np.hstack(blocks) - self.sensitive_mean_

    @property
    def _n_features_out(self):
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
