r"""Fair Kernel Learning: HSIC-penalised regression and dimensionality reduction.

Pérez-Suay et al. (2017) add the Hilbert–Schmidt independence criterion between the
model's output and the sensitive variables S to two classical closed-form learners.
With H = I − 11ᵀ/n, X̃ = HX, S̃ = HS, K̃ = HKH and K̃_S = HK_SH, and t = μ/n²:

* **FLR**, fair linear regression (§2.2, eq. (2))::

      W = (X̃ᵀX̃ + λI + t X̃ᵀS̃S̃ᵀX̃)⁻¹ X̃ᵀY,      intercept = ȳ − x̄ᵀW

  minimises ‖Ỹ − X̃W‖² + λ‖W‖² + μ·HSIC(X̃W, S) with HSIC = (1/n²)‖S̃ᵀX̃W‖²_F.

* **FKR**, fair kernel regression (§2.3, eq. (3))::

      Λ = (K̃ + λI + t K̃_S K̃)⁻¹ Ỹ,      f(x) = k̃(x)ᵀΛ + ȳ

  minimises ‖Ỹ − K̃Λ‖² + λ ΛᵀK̃Λ + μ·(1/n²) ΛᵀK̃K̃_SK̃Λ.  Setting the gradient to zero gives
  K̃[(K̃ + λI + tK̃_SK̃)Λ − Ỹ] = 0; the order of the product is K̃_S K̃ (as in the paper's Lemma 1
  and the reference MATLAB code), eq. (3) prints it transposed.  With a linear kernel on X and
  on S, FKR equals FLR exactly (push-through identity X̃ᵀ(X̃X̃ᵀ + λI + tS̃S̃ᵀX̃X̃ᵀ)⁻¹ =
  (X̃ᵀX̃ + λI + tX̃ᵀS̃S̃ᵀX̃)⁻¹X̃ᵀ).

* **FDR**, fair dimensionality reduction (§3.1): maximise the ratio
  HSIC(X̃v, X̃) / HSIC(X̃v, S̃) = vᵀ(X̃ᵀX̃)²v / vᵀX̃ᵀS̃S̃ᵀX̃v, the generalized eigenproblem
  C_xxC_xxᵀv = λ C_xsC_xsᵀv;
* **KFDR**, its kernel version (§3.2): K̃³α = λ K̃K̃_SK̃α.

The denominators are singular (rank ≤ q for a linear kernel on S): every direction v with
S̃ᵀX̃v = 0 has an infinite ratio.  The reference code adds 1e-7·I to the denominator; as that
ridge ε → 0 the top eigenvectors converge to the maximisers of the numerator *inside* the
subspace {v : S̃ᵀX̃v = 0} of directions uncorrelated with S (the generalized eigenvalues of
those directions grow like vᵀAv/(ε‖v‖²)).  ``ridge=0`` solves that limit exactly, as a
symmetric eigenproblem on an orthonormal basis of the subspace.

KFDR is FDR applied to the empirical kernel feature map F = UΣ^{1/2} (K̃ = UΣUᵀ, K̃ = FFᵀ):
its dual coefficients are α = UΣ^{-1/2}β for the FDR directions β of F.  The paper's
per-component deflation K̃³ ← K̃³ − λ_i K̃K̃_SK̃α_iα_iᵀK̃K̃_SK̃ is the Hotelling deflation of a
generalized symmetric eigenproblem; it leaves the other eigenpairs unchanged, so it yields
exactly the top-k generalized eigenvectors computed at once here (the tests run it).

**Path.**  The closed forms make whole trade-off curves cheap: :meth:`fit_path` factorises
once and returns the solution for every μ of a grid (Woodbury on the rank-q term for FLR,
a simultaneous diagonalisation for FKR), each equal to refitting with that μ.

References
----------
A. Pérez-Suay, V. Laparra, G. Mateo-García, J. Muñoz-Marí, L. Gómez-Chova, G. Camps-Valls.
"Fair Kernel Learning", ECML-PKDD 2017 (Pérez-Suay et al.).  Reference code: IPL-UV/FKL (MATLAB).
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.linalg import lapack
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    RegressorMixin,
    TransformerMixin,
    _fit_context,
    clone,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._kernels import KERNELS, kernel_matrix, resolve_gamma
from ._linalg import (
    center_cross_gram,
    center_gram,
    center_symmetric_gram_inplace,
    centred_gram_factor,
    complement_basis,
    constraint_basis,
    flip_signs,
    gram_constraint_factor,
    n_distinct_rows,
    top_eigh,
)
from ._moments import (
    Spec,
    StreamingMixin,
    any_dask,
    chunk_variables,
    dask_inputs,
    dask_moments,
    dask_transform_input,
    is_dask,
    map_rows,
    reject_dask,
    sensitive_kinds,
)
from ._validation import (
    check_array,
    check_continuous_sensitive,
    check_n_components,
    reject_bool,
    validate_data,
    warn_unconstrained,
)

__all__ = ["FairLinearRegression", "FairKernelRegression", "FairDR", "KernelFairDR"]

_KERNEL_OPTIONS = [StrOptions(set(KERNELS) - {"precomputed"}), callable]
_GAMMA_OPTIONS = [Interval(Real, 0, None, closed="neither"), StrOptions({"scale", "auto"}), None]


# --------------------------------------------------------------------------------------
# private helpers
# --------------------------------------------------------------------------------------
def _centred_sensitive(sensitive_features, n_samples, return_independent=False):
    """S̃ (n × q): continuous columns kept, categorical ones one-hot; column-centred.

    ``return_independent``: also the mask of the columns that span range(S̃) by construction
    (all but the last indicator of each categorical attribute).
    """
    S, independent = check_continuous_sensitive(sensitive_features, n_samples,
                                                return_independent=True)
    S = S - S.mean(axis=0)
    return (S, independent) if return_independent else S


def _check_mus(mus):
    mus = np.asarray(mus, dtype=float)
    if mus.ndim != 1 or mus.size == 0:
        raise ValueError(
            f"mus must be a non-empty 1-D array of fairness weights; got shape {mus.shape}."
        )
    if not np.all(np.isfinite(mus)) or np.any(mus < 0):
        raise ValueError("mus must contain finite, non-negative values (mu >= 0).")
    return mus


def _gram(X, Y, kernel, gamma):
    return kernel_matrix(X, Y, kernel=kernel, gamma=gamma)


def _sensitive_factor(S_tilde, kernel, gamma, independent=None):
    """Ψ with ΨΨᵀ = K̃_S and the resolved gamma.

    Linear kernel: Ψ = S̃, restricted to the ``independent`` columns when given (same range,
    full column rank by construction: for constraints).  Other kernels: the eigen-factor of
    K̃_S, with its structural zeros removed exactly (:func:`centred_gram_factor`).
    """
    if kernel == "linear":
        return (S_tilde if independent is None else S_tilde[:, independent]), None
    gamma_ = resolve_gamma(S_tilde, gamma) if not callable(kernel) else gamma
    Ks = center_gram(_gram(S_tilde, None, kernel, gamma_))
    w, U = centred_gram_factor(Ks, n_distinct_rows(S_tilde))
    return U * np.sqrt(w), gamma_


def _pivoted_cholesky(column, diag, max_rank):
    """L (n × r) with K ≈ LLᵀ for a PSD K known by its diagonal and its columns, or None.

    Greedy (largest residual diagonal) pivoted Cholesky, stopped when the trace of the PSD
    residual E = K − LLᵀ is at most n·eps·λ̂, with λ̂ ≤ λ_max(K) the Rayleigh bound
    ‖K e_p‖²/K_pp of the first pivot: then ‖E‖₂ ≤ tr(E) ≤ n·eps·λ_max, the rounding level of
    an n×n Gram matrix (below it the kernel is zero to rounding, as in
    :func:`~fairlab._linalg.centred_gram_factor`).  Repeated rows give zero residuals at once,
    so r ≤ the number of distinct rows.  Returns None when more than ``max_rank`` columns
    would be needed (a kernel that is not low-rank to rounding).
    """
    n = diag.size
    d = np.array(diag, dtype=np.float64)
    rows = np.empty((max(max_rank, 0), n))
    tol = None
    for j in range(max_rank + 1):
        residual = float(np.sum(np.clip(d, 0.0, None)))
        if tol is not None and residual <= tol:
            return rows[:j].T
        if j == max_rank:
            return None
        p = int(np.argmax(d))
        if d[p] <= 0.0:
            return rows[:j].T
        col = np.asarray(column(p), dtype=np.float64).ravel()
        if tol is None:
            tol = n * np.finfo(float).eps * float(col @ col) / max(float(col[p]), 1e-300)
        if j:
            col = col - rows[:j, p] @ rows[:j]
        rows[j] = col / np.sqrt(d[p])
        d -= rows[j] ** 2
        d[p] = 0.0
    return rows[:max_rank].T


def _kernel_diagonal(S, kernel, gamma):
    """k(s_i, s_i) for every row, without the n×n matrix (None for a callable kernel)."""
    if kernel in ("rbf",):
        return np.ones(S.shape[0])
    if kernel == "cosine":
        return (np.linalg.norm(S, axis=1) > 0).astype(float)
    if kernel in ("linear", "poly"):
        sq = np.einsum("ij,ij->i", S, S)
        return sq if kernel == "linear" else (gamma * sq + 1.0) ** 3
    return None  # sigmoid (not PSD) or a callable: no factor


def _low_rank_sensitive_factor(S, kernel, gamma, max_rank):
    """Ψ (n × r) with ΨΨᵀ = K̃_S = H K_S H up to its rounding level, or None.

    Linear kernel: Ψ = S̃ exactly.  Otherwise the pivoted Cholesky factor L of K_S
    (:func:`_pivoted_cholesky`, columns k(S, s_p) computed on demand, never the n×n matrix),
    centred: Ψ = HL, so ΨΨᵀ = H(K_S − E)H with ‖HEH‖₂ ≤ ‖E‖₂ ≤ n·eps·λ_max(K_S).  None when
    the numerical rank exceeds ``max_rank`` (or for a callable kernel), and the caller solves
    densely.
    """
    if kernel == "linear":
        return S - S.mean(axis=0)
    diag = _kernel_diagonal(S, kernel, gamma)
    if diag is None or max_rank < 1:
        return None
    if kernel == "rbf":  # one column without pairwise_kernels' per-call validation
        def column(p):
            return np.exp(-gamma * np.einsum("ij,ij->i", S - S[p], S - S[p]))
    elif kernel == "poly":
        def column(p):
            return (gamma * (S @ S[p]) + 1.0) ** 3
    else:
        def column(p):
            return _gram(S, S[p : p + 1], kernel, gamma)
    L = _pivoted_cholesky(column, diag, max_rank)
    if L is None:
        return None
    return L - L.mean(axis=0)


def _g_lanczos(kt, g, n, k, v0, max_basis, k_max=0.0, check_every=5):
    """Top-k eigenpairs of T = K̃G (K̃, G symmetric PSD) by Lanczos in the G semi-inner product.

    T is self-adjoint for ⟨x, y⟩ = xᵀGy.  The basis Q (QᵀGQ = I) is extended by T applied to
    its newest vector, fully re-orthogonalised twice against all of Q in that inner product;
    keeping GQ, TQ and GTQ makes the re-orthogonalisation, the Rayleigh–Ritz step
    H = (GQ)ᵀ(TQ) and the residuals free of further products: two products (one with K̃, one
    with G) per step.  Ritz pairs are accepted when every G-norm residual
    ‖Tw − νw‖_G ≤ tol·ν₁·c (w = Qy, ‖w‖_G = 1) with tol = 20·n·eps, the rounding level of a
    product with an n×n matrix (a residual cannot be computed more accurately), and
    c = max(1, ``k_max``/√ν₁) ≥ max|K|/‖K̃‖ the cancellation of the centring (products with K̃
    carry errors of the size of K's entries, ``k_max``).  Returns (ν descending, W (n × k))
    or None (no convergence within ``max_basis`` vectors, or fewer than k of them).
    """
    Q = np.empty((max_basis, n))
    GQ = np.empty((max_basis, n))
    TQ = np.empty((max_basis, n))
    GTQ = np.empty((max_basis, n))
    r = kt(g(v0))  # start in range(T)
    gr = g(r)
    m, scale = 0, None
    tol = 20.0 * n * np.finfo(float).eps

    def ritz():
        H = GQ[:m] @ TQ[:m].T
        nu, Y = linalg.eigh((H + H.T) / 2, check_finite=False)
        nu, Y = nu[::-1][:k], Y[:, ::-1][:, :k]
        R = Y.T @ TQ[:m] - nu[:, None] * (Y.T @ Q[:m])
        GR = Y.T @ GTQ[:m] - nu[:, None] * (Y.T @ GQ[:m])
        res = np.sqrt(np.abs(np.einsum("ij,ij->i", R, GR)))
        if nu[0] > 0 and np.all(res <= tol * nu[0] * max(1.0, k_max / np.sqrt(nu[0]))):
            return nu, (Y.T @ Q[:m]).T
        return None

    while m < max_basis:
        for _ in range(2):  # classical Gram–Schmidt, twice
            if m:
                c = GQ[:m] @ r
                r = r - c @ Q[:m]
                gr = gr - c @ GQ[:m]
        beta2 = float(r @ gr)
        if scale is None:
            scale = beta2
        if not beta2 > 1e-28 * scale:  # an invariant subspace: its Ritz pairs are final
            break
        b = np.sqrt(beta2)
        Q[m], GQ[m] = r / b, gr / b
        TQ[m] = kt(GQ[m])
        GTQ[m] = g(TQ[m])
        r, gr = TQ[m], GTQ[m]
        m += 1
        if m >= k + 2 and m % check_every == 0:
            found = ritz()
            if found is not None:
                return found
    return ritz() if m >= k else None


def _fdr_constraint(G, independent, left_norms, psi_norms, n):
    """Orthonormal basis of range(G) = range(FᵀΨ) from the columns that span it by construction.

    ``independent`` selects those columns of Ψ (None: all); ``left_norms``/``psi_norms`` are
    the column norms of F and of the selected Ψ, for the rounding bound of
    :func:`~fairlab._linalg.constraint_basis`.
    """
    if G is None:
        return None
    Gc = G if independent is None else G[:, independent]
    return constraint_basis(Gc, left_norms, psi_norms, n_terms=n)


def _fdr_directions(C, G, n_components, ridge, Q=None):
    """Top FDR directions for the Gram C = FᵀF and the factor G = FᵀΨ (p × q).

    Numerator A = C² (HSIC of Fv with F), denominator B = GGᵀ (HSIC of Fv with S).  ``C`` is a
    (p × p) matrix, or a 1-D array for a diagonal Gram (KFDR's kernel-PCA coordinates).
    ``ridge > 0``: top-k generalized eigenvectors of (A, B + ridge·I), as the reference code,
    computed without a Cholesky factor of the (possibly very ill-conditioned) B + ridge·I.
    ``ridge == 0``: the ε → 0 limit — top eigenvectors of A compressed to null(Gᵀ), with
    ``Q`` the orthonormal basis of range(G) from :func:`_fdr_constraint`.
    Returns unit-norm columns V (p × k) with deterministic signs.
    """
    diagonal = C.ndim == 1
    p = C.shape[0]
    if G is None or G.shape[1] == 0:
        # unconstrained: eigenvectors of C² are those of C (PSD), same order → PCA
        k = check_n_components(n_components, p)
        if diagonal:
            return np.eye(p)[:, np.argsort(C, kind="stable")[::-1][:k]]
        return top_eigh(C, k, solver="dense")[1]
    if ridge == 0:  # admissible v ⊥ Q: top eigenvectors of A in an explicit basis N of Q^⊥
        k = check_n_components(
            n_components, p - Q.shape[1],
            bound_text="with ridge=0 only directions uncorrelated with S are returned: "
            "dim null(X̃ᵀS̃) = d − rank(X̃ᵀS̃); use ridge > 0 for more",
        )
        # (NᵀAN = (CN)ᵀ(CN) has orthonormal eigenvectors even where A vanishes on Q^⊥, which
        # a deflated A does not: there its zero eigenvalues mix range(Q) into the solution)
        N = complement_basis(Q)
        CN = (C[:, None] * N) if diagonal else C @ N
        V = N @ top_eigh(CN.T @ CN, k, solver="dense")[1]
        return flip_signs(V)
    # ridge > 0: B = GGᵀ + ridge·I = W diag(δ + ridge) Wᵀ exactly from the full SVD of G (a
    # Cholesky factor of B fails once ‖G‖²/ridge approaches 1/eps).  With D = diag(δ + ridge)^½,
    # B^{-½}AB^{-½} = W MᵀM Wᵀ for M = C W D⁻¹, so the generalized eigenvectors are W D⁻¹ z
    # for the top right singular vectors z of M.
    k = check_n_components(n_components, p)
    W, sg, _ = linalg.svd(G, full_matrices=True, check_finite=False)
    delta = np.zeros(p)
    delta[: sg.size] = sg**2
    d_inv = 1.0 / np.sqrt(delta + ridge)
    M = ((C[:, None] * W) if diagonal else C @ W) * d_inv
    Zt = linalg.svd(M, full_matrices=False, check_finite=False)[2][:k]
    V = W @ (d_inv[:, None] * Zt.T)
    return flip_signs(V / np.linalg.norm(V, axis=0))


# --------------------------------------------------------------------------------------
# regression
# --------------------------------------------------------------------------------------
class _PathMixin:
    """``fit_path``: solutions for a grid of μ from one factorisation; multi-output tags."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def fit_path(self, X, y, mus, *, sensitive_features=None):
        """Fit the estimator for every fairness weight in ``mus`` at once.

        One factorisation serves the whole grid (see the class Notes); element ``i`` of the
        result equals ``clone(self).set_params(mu=mus[i]).fit(X, y, sensitive_features=...)``
        to rounding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        mus : array-like of shape (n_mus,)
            Non-negative values of μ (the paper's grid is n²·logspace(−7, 3, 25) for FLR).
        sensitive_features : array-like of shape (n_samples,) or (n_samples, q)

        Returns
        -------
        estimators : list of fitted estimators, one per μ, in the order of ``mus``.
        """
        mus = _check_mus(mus)
        self._validate_params()
        base = clone(self)
        state = base._prepare(X, y, sensitive_features)
        coefs = base._path_coefs(state, mus)
        models = []
        for mu, coef in zip(mus, coefs):
            est = clone(self).set_params(mu=float(mu))
            est._set_state(state, coef)
            models.append(est)
        return models


def _linear_block(B, coef, intercept, ravel):
    """``predict`` of one row block."""
    out = B @ coef.T + intercept
    return out.ravel() if ravel else out


class FairLinearRegression(StreamingMixin, _PathMixin, RegressorMixin, BaseEstimator):
    r"""Fair linear regression (FLR) with an HSIC penalty (Pérez-Suay et al. 2017, eq. (2)).

    Ridge regression whose loss adds μ times the (linear-kernel) HSIC between the predictions
    and the sensitive variables S:

    .. math::
        \min_W \|\tilde Y - \tilde X W\|_F^2 + \lambda \|W\|_F^2
        + \frac{\mu}{n^2} \|\tilde S^\top \tilde X W\|_F^2 ,

    solved in closed form, :math:`W = (\tilde X^\top\tilde X + \lambda I +
    \frac{\mu}{n^2}\tilde X^\top\tilde S\tilde S^\top\tilde X)^{-1}\tilde X^\top Y`.

    Parameters
    ----------
    alpha : float >= 0, default=1.0
        Ridge parameter λ (scikit-learn's name).  ``alpha=0`` with a rank-deficient X uses
        the minimum-norm least-squares solution.
    mu : float >= 0, default=0.0
        Fairness weight μ; ``mu=0`` is ridge regression.  The 1/n² of the HSIC estimator is
        applied inside, so the reference code's grid is ``mu = n**2 * np.logspace(-7, 3, 25)``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
        ȳ − x̄ᵀW (the intercept is fitted by centring, as scikit-learn's Ridge).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Defined when X has string feature names.

    See Also
    --------
    FairKernelRegression : the kernel version (FKR).
    sklearn.linear_model.Ridge : ``mu=0`` or ``sensitive_features=None``.

    Notes
    -----
    ``sensitive_features`` may be continuous, multi-column, or categorical (categorical
    columns are one-hot encoded; all columns are centred).  ``sensitive_features=None`` fits
    ridge regression and warns.

    The HSIC term is a rank-q quadratic form, so :meth:`fit_path` computes the path by
    Woodbury's identity: with A = X̃ᵀX̃ + λI, G = X̃ᵀS̃ and GᵀA⁻¹G = EΔEᵀ,
    W(μ) = W₀ − A⁻¹GE·diag(t/(1 + tδ))·EᵀGᵀW₀ with t = μ/n² — one Cholesky factorisation
    for the whole grid.

    Lemma 1's argument (Loewner order) is valid here: the penalty matrix is PSD, so
    ‖(A + tX̃ᵀS̃S̃ᵀX̃)⁻¹‖ ≤ ‖A⁻¹‖ and ‖W_μ‖ ≤ ‖A⁻¹‖‖X̃ᵀY‖ for every μ.

    Beyond memory: X̃ᵀX̃, X̃ᵀỸ, X̃ᵀS̃ and the means are sums over rows.  ``fit`` (and
    ``fit_path``) on a dask Array/DataFrame computes them blockwise in one ``dask.compute``
    (rows shifted by the mean of the first block; the groups of a categorical attribute are
    found in the same pass), ``partial_fit`` adds them up chunk by chunk, and both solve the
    same d×d system as the in-memory fit.  ``predict`` of a dask array is lazy.

    References
    ----------
    * A. Pérez-Suay et al., "Fair Kernel Learning", ECML-PKDD 2017, §2.2.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairLinearRegression
    >>> rng = np.random.default_rng(0)
    >>> s = rng.normal(size=200)
    >>> X = np.column_stack([s + rng.normal(size=200), rng.normal(size=200)])
    >>> y = X @ [1.0, 1.0] + 0.1 * rng.normal(size=200)
    >>> unfair = FairLinearRegression(mu=0).fit(X, y, sensitive_features=s)
    >>> fair = FairLinearRegression(mu=1e6).fit(X, y, sensitive_features=s)
    >>> bool(abs(np.corrcoef(fair.predict(X), s)[0, 1]) < 0.01)
    True
    """

    _parameter_constraints: dict = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "mu": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, alpha=1.0, mu=0.0):
        self.alpha = alpha
        self.mu = mu

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, *, sensitive_features=None):
        """Fit the closed form of eq. (2).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or a dask Array / DataFrame
            A dask collection is read blockwise in one pass (see Notes).
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sensitive_features : array-like of shape (n_samples,) or (n_samples, q), default=None
            Continuous or categorical; None fits ridge regression (with a warning).

        Returns
        -------
        self : FairLinearRegression
        """
        self._reset_stream()
        state = self._prepare(X, y, sensitive_features)
        return self._set_state(state, self._solve(state))

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, *, sensitive_features=None):
        """Accumulate the cross products of one chunk of rows (a stream, a memory-mapped file).

        After any sequence of calls the model equals one :meth:`fit` on the concatenated
        chunks, to rounding, whatever the chunking (categorical attributes may gain groups in
        later chunks).  ``coef_`` is solved on first use after the last call (``predict``,
        ``coef_``), and cached until the next.  A ``partial_fit`` after :meth:`fit` starts a
        new stream.
        ``n_samples_seen_`` counts the rows passed so far.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        y : array-like of shape (n_rows,) or (n_rows, n_targets)
        sensitive_features : array-like of shape (n_rows,) or (n_rows, q), default=None
            The same attributes in every call (each keeps the encoding, continuous or
            categorical, of the first chunk), or None in every call.

        Returns
        -------
        self : FairLinearRegression
        """
        return self._partial_fit(X, y, sensitive_features)

    def _solve(self, state):
        """Statistics → solution, shared by the in-memory, dask and streaming fits."""
        XtX, G, n = state["XtX"], state["G"], state["n"]
        # eq. (2) literally: one symmetric positive (semi-)definite solve
        M = XtX + self.alpha * np.eye(XtX.shape[0])
        if G is not None and self.mu > 0:
            M += (self.mu / n**2) * (G @ G.T)
        if self.alpha == 0:  # M may be singular (X̃ rank-deficient): minimum-norm solution
            return np.linalg.lstsq(M, state["XtY"], rcond=None)[0]
        return linalg.solve(M, state["XtY"], assume_a="pos", check_finite=False)

    def _prepare(self, X, y, sensitive_features):
        if any_dask(X, y, sensitive_features):
            return self._prepare_dask(X, y, sensitive_features)
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        n = X.shape[0]
        Y = check_array(y.reshape(n, -1), input_name="y", owner=type(self).__name__,
                        dtype=np.float64)
        x_mean, y_mean = X.mean(axis=0), Y.mean(axis=0)
        Xc = X - x_mean
        if sensitive_features is None:
            warn_unconstrained(self, "ridge regression")
            G = None
        else:
            G = Xc.T @ _centred_sensitive(sensitive_features, n)  # X̃ᵀS̃ (d × q)
        return {
            "XtX": Xc.T @ Xc, "XtY": Xc.T @ (Y - y_mean), "G": G, "n": n,
            "x_mean": x_mean, "y_mean": y_mean, "y_1d": y.ndim == 1,
            "n_features_in_": self.n_features_in_,
            "feature_names_in_": getattr(self, "feature_names_in_", None),
        }

    # -- dask arrays and streams: the same statistics, as sums over row blocks -------------
    _fallback = "ridge regression"
    _stream_attributes = ("coef_", "intercept_")

    def _moment_spec(self, d, m, columns):
        kinds = () if columns is None else sensitive_kinds(columns, "iuf")
        return Spec(n_features=d, n_targets=m, kinds=kinds)

    def _prepare_dask(self, X, y, sensitive_features):
        if y is None:
            raise ValueError("FairLinearRegression requires y to be passed, but y is None.")
        y_1d = np.ndim(y) == 1
        X, Y, columns = dask_inputs(self, X, y, sensitive_features)
        if Y.dtype.kind not in "biuf":
            raise ValueError(f"y must hold numbers; got a dask array of dtype {Y.dtype}.")
        if sensitive_features is None:
            warn_unconstrained(self, self._fallback)
        spec = self._moment_spec(X.shape[1], Y.shape[1], columns)
        return self._state_from_moments(dask_moments(spec, X, Y.astype(np.float64), columns),
                                        y_1d)

    def _stream_spec(self, X, y, columns):
        y = self._stream_y(X, y)
        self._stream_1d = y.ndim == 1
        return self._moment_spec(X.shape[1], 1 if y.ndim == 1 else y.shape[1], columns)

    def _stream_chunk(self, spec, X, y, columns):
        return chunk_variables(spec, X, self._stream_y(X, y), columns or [])

    @staticmethod
    def _stream_y(X, y):
        if y is None:
            raise ValueError("FairLinearRegression requires y to be passed, but y is None.")
        y = check_array(y, input_name="y", owner="FairLinearRegression", dtype=np.float64,
                        ensure_2d=False)
        if y.ndim > 2 or y.shape[0] != X.shape[0]:
            raise ValueError(
                f"y must be 1-D or 2-D with one row per row of X ({X.shape[0]}); got shape "
                f"{y.shape}."
            )
        return y

    def _fit_moments(self, moments):
        state = self._state_from_moments(moments, self._stream_1d)
        return self._set_state(state, self._solve(state))

    def _state_from_moments(self, moments, y_1d):
        """The state of :meth:`_prepare` (X̃ᵀX̃, X̃ᵀỸ, X̃ᵀS̃, means) from accumulated sums."""
        moments.check_finite("X, y or sensitive_features")
        spec = moments.spec
        n, d, m = moments.n, spec.n_features, spec.n_targets
        if n < 2:
            raise ValueError(f"Found array with {n} sample(s) while a minimum of 2 is required.")
        mean, Cc = moments.mean(), moments.centred_scatter()
        xs, ys = slice(0, d), slice(d, d + m)
        G = None
        if spec.kinds:
            blocks, column, cat, varies = [], d + m, 0, False
            for kind in spec.kinds:
                if kind == "continuous":  # X̃ᵀs̃ of a numeric column
                    blocks.append(Cc[xs, column : column + 1])
                    varies |= Cc[column, column] > 0
                    column += 1
                else:  # one-hot columns: X̃ᵀz_g = centred sums of X over group g
                    labels, _, centred, _ = moments.groups(cat)
                    blocks.append(centred[:, xs].T)
                    varies |= len(labels) > 1
                    cat += 1
            if not varies:
                raise ValueError(
                    "sensitive_features is constant; a fairness term needs a varying sensitive "
                    "attribute. Pass sensitive_features=None for the unconstrained method."
                )
            G = np.hstack(blocks)
        return {
            "XtX": Cc[xs, xs].copy(), "XtY": Cc[xs, ys].copy(), "G": G, "n": n,
            "x_mean": mean[xs], "y_mean": mean[ys], "y_1d": y_1d,
            "n_features_in_": self.n_features_in_,
            "feature_names_in_": getattr(self, "feature_names_in_", None),
        }

    def _path_coefs(self, state, mus):
        XtX, XtY, G, n = state["XtX"], state["XtY"], state["G"], state["n"]
        d = XtX.shape[1]
        A = XtX + self.alpha * np.eye(d)
        if self.alpha == 0:  # A may be singular: no factorisation to share
            return [self._dense_solve(A, G, XtY, mu / n**2) for mu in mus]
        cho = linalg.cho_factor(A, check_finite=False)
        W0 = linalg.cho_solve(cho, XtY)
        if G is None:
            return [W0 for _ in mus]
        AiG = linalg.cho_solve(cho, G)
        delta, E = linalg.eigh(G.T @ AiG)  # GᵀA⁻¹G = EΔEᵀ (q × q, PSD)
        # directions with δ ≈ 0 have GE ≈ 0: they do not move the solution
        keep = delta > max(delta.max(), 0.0) * len(delta) * np.finfo(float).eps
        P, h = AiG @ E[:, keep], E[:, keep].T @ (G.T @ W0)
        out = []
        for mu in mus:
            t = mu / n**2
            out.append(W0 - P @ ((t / (1.0 + t * delta[keep]))[:, None] * h))
        return out

    @staticmethod
    def _dense_solve(A, G, XtY, t):
        M = A if G is None or t == 0 else A + t * (G @ G.T)
        return np.linalg.lstsq(M, XtY, rcond=None)[0]

    def _set_state(self, state, W):
        self.n_features_in_ = state["n_features_in_"]
        if state["feature_names_in_"] is not None:
            self.feature_names_in_ = state["feature_names_in_"]
        intercept = state["y_mean"] - state["x_mean"] @ W
        if state["y_1d"]:
            self.coef_, self.intercept_ = W[:, 0].copy(), float(intercept[0])
        else:
            self.coef_, self.intercept_ = W.T.copy(), intercept
        return self

    def predict(self, X):
        """Predict ``X @ coef_.T + intercept_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or a dask Array / DataFrame

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_targets)
            A lazy dask array for dask input.
        """
        check_is_fitted(self)
        if is_dask(X):
            A = dask_transform_input(self, X)
            coef = np.atleast_2d(self.coef_)
            one = np.ndim(self.coef_) == 1
            return map_rows(A, _linear_block, coef.shape[0], coef, self.intercept_, one,
                            drop_columns=one)
        X = validate_data(self, X, reset=False)
        return X @ self.coef_.T + self.intercept_


class FairKernelRegression(_PathMixin, RegressorMixin, BaseEstimator):
    r"""Fair kernel regression (FKR) with an HSIC penalty (Pérez-Suay et al. 2017, eq. (3)).

    Kernel ridge regression on the centred Gram matrix K̃ = HKH, whose loss adds μ times the
    HSIC between the predictions and S measured with a kernel K_S on S:

    .. math::
        \min_\Lambda \|\tilde Y - \tilde K\Lambda\|_F^2 + \lambda\,\mathrm{tr}(\Lambda^\top
        \tilde K\Lambda) + \frac{\mu}{n^2}\mathrm{tr}(\Lambda^\top\tilde K\tilde K_S\tilde
        K\Lambda), \qquad
        \Lambda = (\tilde K + \lambda I + \tfrac{\mu}{n^2}\tilde K_S\tilde K)^{-1}\tilde Y .

    Parameters
    ----------
    alpha : float > 0, default=1.0
        Ridge parameter λ.
    mu : float >= 0, default=0.0
        Fairness weight μ (the 1/n² of the HSIC estimator is applied inside).
    kernel : {"rbf", "linear", "poly", "sigmoid", "cosine"} or callable, default="rbf"
        Kernel on X; RBF is k(x, x') = exp(−γ‖x − x'‖²) (Pérez-Suay et al.'s width σ: γ = 1/(2σ²)).
    gamma : float > 0, "scale", "auto" or None, default=None
        None/"scale": 1/(d·Var(X)); "auto": 1/d.
    sensitive_kernel : same options as ``kernel``, default="rbf"
        Kernel on S inside the HSIC penalty.  With ``"linear"`` (and ``kernel="linear"``)
        FKR equals :class:`FairLinearRegression`.
    sensitive_gamma : float > 0, "scale", "auto" or None, default=None
        Same rule as ``gamma``, applied to the (one-hot encoded) S.  The paper tunes σ_S to
        *maximise* the HSIC of the unfair model; pass the chosen value here.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        Λ (its columns sum to zero).
    intercept_ : float or ndarray of shape (n_targets,)
        ȳ: the centred kernel model has zero mean on the training set.
    X_fit_ : ndarray of shape (n_samples, n_features)
    gamma_, sensitive_gamma_ : float or None
        The resolved kernel coefficients (None for kernels without one).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)

    See Also
    --------
    FairLinearRegression : the linear version (FLR).
    sklearn.kernel_ridge.KernelRidge : ``mu=0`` equals KernelRidge on the centred kernel
        K̃ fitted to ỹ, plus ȳ (KernelRidge itself has no intercept and no centring).

    Notes
    -----
    *Order of the product.*  The stationarity condition of the loss is
    K̃[(K̃ + λI + tK̃_SK̃)Λ − Ỹ] = 0 (t = μ/n²), so Λ solves a system with K̃_S K̃, as in
    Lemma 1 and in the reference MATLAB code; eq. (3) prints the transposed product K̃K̃_S,
    which does not minimise the loss.  The test suite checks the gradient and the exact
    equality with FLR for linear kernels.

    *Prediction.*  f(x) = k̃(x)ᵀΛ + ȳ with the test kernel centred with the *training*
    statistics (see ``fairlab._linalg.center_cross_gram``).

    *Lemma 1.*  Its operator-norm claim ‖(K̃ + λI + tK̃_SK̃)⁻¹‖ ≤ ‖(K̃ + λI)⁻¹‖ relies on a
    Loewner-order argument that needs a symmetric penalty; K̃_SK̃ is not symmetric and the
    inequality fails on random instances (the tests exhibit one).  What does hold for KRR and
    FKR alike is the RKHS bound λ‖f‖²_H = λ·tr(ΛᵀK̃Λ) ≤ ‖Ỹ‖²_F (compare the loss with Λ = 0).

    *Solver.*  K̃_S is low-rank to rounding whenever S has few distinct rows (categorical S),
    few columns (a linear sensitive kernel: K̃_S = S̃S̃ᵀ) or a smooth kernel on few columns:
    a pivoted Cholesky factor K̃_S ≈ ΨΨᵀ (r ≪ n columns, computed from r kernel columns) is
    stopped at the rounding level of an n×n Gram matrix, ‖K̃_S − ΨΨᵀ‖₂ ≤ n·eps·‖K_S‖₂.  Then
    one Cholesky factorisation A = K̃ + λI = LLᵀ (as scikit-learn's KernelRidge) and Woodbury's
    formula on the rank-r term, with K̃A⁻¹ = I − λA⁻¹, give

        Λ(t) = Λ₀ − A⁻¹Ψ·E diag(t/(1 + tδ)) Eᵀ·Ψᵀ(Ỹ − λΛ₀),  Λ₀ = A⁻¹Ỹ,  t = μ/n²,

    with ΨᵀK̃A⁻¹Ψ = ΨᵀΨ − λ(L⁻¹Ψ)ᵀ(L⁻¹Ψ) = EΔEᵀ (r × r): O(n³/3 + n²r) instead of the dense
    product and LU solve of eq. (3), with a backward error at the rounding level.  ``fit``
    and :meth:`fit_path` share this formula, so a whole μ grid costs one fit.  Otherwise (K̃_S
    not low-rank, or an indefinite kernel) eq. (3) is solved densely by LU, once per μ.

    *Reference code.*  IPL-UV/FKL uses uncentred K and the penalty μ·HK_QH·K without the
    1/n²; its μ grid logspace(−7, 3, 25) corresponds to ``mu = n**2 * logspace(−7, 3, 25)``.

    References
    ----------
    * A. Pérez-Suay et al., "Fair Kernel Learning", ECML-PKDD 2017, §2.3.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairKernelRegression
    >>> rng = np.random.default_rng(0)
    >>> s = rng.normal(size=200)
    >>> X = np.column_stack([s + rng.normal(size=200), rng.normal(size=200)])
    >>> y = np.sin(X[:, 0]) + X[:, 1]
    >>> fkr = FairKernelRegression(alpha=0.1, mu=1e4).fit(X, y, sensitive_features=s)
    >>> fkr.predict(X[:3]).shape
    (3,)
    """

    _parameter_constraints: dict = {
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "mu": [Interval(Real, 0, None, closed="left")],
        "kernel": _KERNEL_OPTIONS,
        "gamma": _GAMMA_OPTIONS,
        "sensitive_kernel": _KERNEL_OPTIONS,
        "sensitive_gamma": _GAMMA_OPTIONS,
    }

    def __init__(self, alpha=1.0, mu=0.0, *, kernel="rbf", gamma=None, sensitive_kernel="rbf",
                 sensitive_gamma=None):
        self.alpha = alpha
        self.mu = mu
        self.kernel = kernel
        self.gamma = gamma
        self.sensitive_kernel = sensitive_kernel
        self.sensitive_gamma = sensitive_gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, *, sensitive_features=None):
        """Fit the closed form Λ = (K̃ + λI + μ/n² K̃_SK̃)⁻¹Ỹ.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sensitive_features : array-like of shape (n_samples,) or (n_samples, q), default=None
            Continuous or categorical; None fits kernel ridge regression (with a warning).

        Returns
        -------
        self : FairKernelRegression
        """
        state = self._prepare(X, y, sensitive_features)
        return self._set_state(state, self._path_coefs(state, np.array([float(self.mu)]))[0])

    def _prepare(self, X, y, sensitive_features):
        reject_dask(self, X, y, sensitive_features,
                    alternative="A kernel method needs the n×n Gram matrix of all rows; "
                    "FairLinearRegression accepts dask arrays.")
        X, y = validate_data(self, X, y, multi_output=True, y_numeric=True)
        n = X.shape[0]
        Y = check_array(y.reshape(n, -1), input_name="y", owner=type(self).__name__,
                        dtype=np.float64)
        y_mean = Y.mean(axis=0)
        gamma_ = None if callable(self.kernel) else resolve_gamma(X, self.gamma)
        K = _gram(X, None, self.kernel, gamma_)
        col_means = K.mean(axis=0)
        all_mean = float(col_means.mean())
        S, sgamma_ = None, None
        if sensitive_features is None:
            warn_unconstrained(self, "kernel ridge regression")
        else:
            S = check_continuous_sensitive(sensitive_features, n)
            if not callable(self.sensitive_kernel):
                sgamma_ = resolve_gamma(S, self.sensitive_gamma)
        return {
            "X": X, "n": n, "K": K, "S": S, "Yc": Y - y_mean, "y_mean": y_mean,
            "y_1d": y.ndim == 1, "col_means": col_means, "all_mean": all_mean,
            "gamma_": gamma_, "sensitive_gamma_": sgamma_,
            "n_features_in_": self.n_features_in_,
            "feature_names_in_": getattr(self, "feature_names_in_", None),
        }

    def _centred_kernel(self, state):
        """K̃ = HKH, in place of the state's K (its column means for both sides: K is symmetric)."""
        return center_symmetric_gram_inplace(state.pop("K"), state["col_means"])

    def _path_coefs(self, state, mus):
        """Λ(μ) for every μ: one Cholesky factorisation of K̃ + λI (see the class Notes).

        With K̃_S = ΨΨᵀ of rank r ≪ n (:func:`_low_rank_sensitive_factor`), A = K̃ + λI = LLᵀ and
        the identity K̃A⁻¹ = I − λA⁻¹, Woodbury's formula on the rank-r term tΨ(K̃Ψ)ᵀ gives

            Λ(t) = Λ₀ − A⁻¹Ψ·E diag(t/(1 + tδ)) Eᵀ·Ψᵀ(Ỹ − λΛ₀),   Λ₀ = A⁻¹Ỹ,

        with ΨᵀK̃A⁻¹Ψ = ΨᵀΨ − λ(L⁻¹Ψ)ᵀ(L⁻¹Ψ) = EΔEᵀ (r × r, symmetric PSD).  Otherwise the
        dense route: an LU solve of eq. (3) per μ (:meth:`_dense_path`).
        """
        n, Yc, S = state["n"], state["Yc"], state["S"]
        lam = float(self.alpha)
        if S is None or not np.any(mus > 0):
            Psi = None
        else:
            Psi = _low_rank_sensitive_factor(S, self.sensitive_kernel,
                                             state["sensitive_gamma_"], n // 4)
            if Psi is None:
                return self._dense_path(state, mus)
        A = self._centred_kernel(state)
        A.flat[:: n + 1] += lam
        # A is C-ordered and symmetric: its transpose is the same matrix in Fortran order,
        # which LAPACK factorises in place.  A kernel not known to be PSD keeps a copy for LU.
        psd = self.kernel in ("rbf", "linear", "poly", "cosine")
        L, info = lapack.dpotrf(A.T, lower=1, overwrite_a=int(psd), clean=0)
        if info != 0:
            if psd:
                raise linalg.LinAlgError(
                    f"K̃ + alpha·I is not positive definite to working precision (LAPACK info "
                    f"{info}): alpha={lam} is below the rounding level of the kernel matrix; "
                    "increase alpha."
                )
            state["Kc"] = A  # an indefinite kernel: eq. (3) by LU
            return self._dense_path(state, mus)
        Lam0 = lapack.dpotrs(L, Yc, lower=1)[0]
        if Psi is None:
            return [Lam0 for _ in mus]
        X = linalg.solve_triangular(L, Psi, lower=True, check_finite=False)  # L⁻¹Ψ
        AiPsi = linalg.solve_triangular(L, X, lower=True, trans="T", check_finite=False)
        P = Psi.T @ Psi - lam * (X.T @ X)
        delta, E = linalg.eigh((P + P.T) / 2, check_finite=False)
        delta = np.clip(delta, 0.0, None)  # ΨᵀK̃A⁻¹Ψ is PSD; remove rounding noise
        Q = AiPsi @ E
        h = E.T @ (Psi.T @ (Yc - lam * Lam0))
        return [Lam0 - Q @ (((mu / n**2) / (1.0 + (mu / n**2) * delta))[:, None] * h)
                for mu in mus]

    def _dense_path(self, state, mus):
        """Dense fallback (K̃_S not low-rank to rounding): eq. (3) by LU, once per μ."""
        n, Yc, S = state["n"], state["Yc"], state["S"]
        if "Kc" in state:  # K̃ + λI already (indefinite kernel)
            Kc = state.pop("Kc")
            Kc.flat[:: n + 1] -= self.alpha
        else:
            Kc = self._centred_kernel(state)
        KsKc = None
        if S is not None and np.any(mus > 0):
            KsKc = center_gram(_gram(S, None, self.sensitive_kernel,
                                     state["sensitive_gamma_"])) @ Kc
        out = []
        for mu in mus:
            M = Kc + (mu / n**2) * KsKc if KsKc is not None and mu > 0 else Kc.copy()
            M.flat[:: n + 1] += self.alpha
            out.append(linalg.solve(M, Yc, overwrite_a=True, check_finite=False))
        return out

    def _set_state(self, state, Lam):
        self.n_features_in_ = state["n_features_in_"]
        if state["feature_names_in_"] is not None:
            self.feature_names_in_ = state["feature_names_in_"]
        self.X_fit_ = state["X"]
        self.gamma_, self.sensitive_gamma_ = state["gamma_"], state["sensitive_gamma_"]
        self._col_means, self._all_mean = state["col_means"], state["all_mean"]
        if state["y_1d"]:
            self.dual_coef_, self.intercept_ = Lam[:, 0].copy(), float(state["y_mean"][0])
        else:
            self.dual_coef_, self.intercept_ = Lam.copy(), state["y_mean"].copy()
        return self

    def _centred_test_kernel(self, X):
        K = _gram(X, self.X_fit_, self.kernel, self.gamma_)
        return center_cross_gram(K, self._col_means, self._all_mean)

    def predict(self, X):
        """Predict f(x) = k̃(x)ᵀΛ + ȳ with the test kernel centred by the training statistics.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self._centred_test_kernel(X) @ self.dual_coef_ + self.intercept_


# --------------------------------------------------------------------------------------
# dimensionality reduction
# --------------------------------------------------------------------------------------
class _FDRBase(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    def _store_hsic(self, C, G, V, n):
        # HSIC(Fv, F) = ‖Cv‖²/n² and HSIC(Fv, S) = ‖Gᵀv‖²/n² with linear kernels in F-space
        CV = C[:, None] * V if C.ndim == 1 else C @ V
        self.hsic_input_ = np.sum(CV**2, axis=0) / n**2
        self.hsic_sensitive_ = (np.zeros(V.shape[1]) if G is None
                                else np.sum((G.T @ V) ** 2, axis=0) / n**2)

    def _default_n_components(self, Q, rank):
        """``n_components``, or for None every direction uncorrelated with S: rank − rank(G).

        ``Q`` is the orthonormal basis of range(G) (:func:`_fdr_constraint`), None without S.

        When no such direction exists, ``ridge > 0`` keeps all ``rank`` directions (the soft
        solution ranks them); ``ridge == 0`` has nothing to return and says so.
        """
        reject_bool(self.n_components)
        if self.n_components is not None:
            return self.n_components
        k = rank if Q is None else rank - Q.shape[1]
        if k > 0:
            return k
        if self.ridge == 0:
            raise ValueError(
                "no direction is uncorrelated with sensitive_features; use ridge > 0 (soft "
                "solution) and pass n_components."
            )
        return rank

    @property
    def _n_features_out(self):
        return self.n_components_


class FairDR(_FDRBase):
    r"""Fair dimensionality reduction (FDR; Pérez-Suay et al. 2017, §3.1).

    Finds directions V that maximise HSIC(X̃V, X̃) / HSIC(X̃V, S̃), the generalized
    eigenproblem C_xxC_xxᵀv = λ C_xsC_xsᵀv (C_xx = X̃ᵀX̃/n, C_xs = X̃ᵀS̃/n).

    Parameters
    ----------
    n_components : int or None, default=None
        Number of directions.  None: all directions uncorrelated with S,
        d − rank(X̃ᵀS̃) (with ``ridge=0`` this is also the maximum; with ``ridge > 0`` and no such
        direction, all d); with ``ridge > 0`` up to d may be requested (the extra ones are
        correlated with S).
    ridge : float >= 0, default=1e-7
        ε added to the denominator, B = X̃ᵀS̃S̃ᵀX̃ + εI with the unnormalised matrices, as in
        the reference MATLAB code (``eigs(XᵀXXᵀX, XᵀHQQᵀHX + 1e-7·I)``).  ``ridge=0`` solves the
        ε → 0 limit exactly (see Notes).

    Attributes
    ----------
    components_ : ndarray of shape (``n_components_``, n_features)
        Unit-norm directions v (rows), in decreasing order of the ratio.
    mean_ : ndarray of shape (n_features,)
    n_components_ : int
    hsic_input_ : ndarray of shape (``n_components_``,)
        HSIC(X̃v, X̃) = ‖X̃ᵀX̃v‖²/n², the numerator of each direction.
    hsic_sensitive_ : ndarray of shape (``n_components_``,)
        HSIC(X̃v, S̃) = ‖S̃ᵀX̃v‖²/n², the denominator (0 to rounding with ``ridge=0``).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)

    Notes
    -----
    *The singular denominator.*  rank(X̃ᵀS̃S̃ᵀX̃) ≤ q < d, so every v with S̃ᵀX̃v = 0 has an
    infinite ratio.  With the ridge, their generalized eigenvalues are ≈ vᵀAv/(ε‖v‖²),
    A = (X̃ᵀX̃)²: as ε → 0 the top eigenvectors converge to the maximisers of ‖X̃ᵀX̃v‖² over
    unit v in null(S̃ᵀX̃) — projections *uncorrelated with every column of S*, ordered by the
    numerator.  ``ridge=0`` computes exactly that: the top eigenvectors of PAP, with
    P = I − QQᵀ the projector onto null(S̃ᵀX̃) applied by rank-q updates (Q an orthonormal basis
    of range(X̃ᵀS̃)); an explicit basis of the null space is used when A has a zero eigenvalue
    there.  Compared with fair PCA (which maximises the
    variance vᵀX̃ᵀX̃v in the same subspace), FDR ranks by the squared variance operator.

    *Transform.*  x ↦ Vᵀ(x − x̄) (the paper writes Vᵀx; centring only shifts the scores).
    ``sensitive_features=None`` gives PCA (the eigenvectors of C_xx² are those of C_xx), with
    a warning.  The reference code does not centre X in the numerator (XᵀX); we do.

    References
    ----------
    * A. Pérez-Suay et al., "Fair Kernel Learning", ECML-PKDD 2017, §3.1.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairDR
    >>> from fairlab.datasets import make_sinusoid
    >>> X = make_sinusoid(500, random_state=0)                # columns (a, b)
    >>> fdr = FairDR(n_components=1, ridge=0).fit(X, sensitive_features=X[:, 0])
    >>> t = fdr.transform(X)[:, 0]
    >>> bool(abs(np.corrcoef(t, X[:, 0])[0, 1]) < 1e-12)     # uncorrelated with a
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "ridge": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, n_components=None, *, ridge=1e-7):
        self.n_components = n_components
        self.ridge = ridge

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the FDR directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sensitive_features : array-like of shape (n_samples,) or (n_samples, q), default=None
            Continuous or categorical; None fits PCA (with a warning).

        Returns
        -------
        self : FairDR
        """
        reject_dask(self, X, y, sensitive_features,
                    alternative="FairPCA, FairPLS and FairLinearRegression accept dask arrays.")
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2)
        X = X.astype(np.float64, copy=False)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        C = Xc.T @ Xc
        if sensitive_features is None:
            warn_unconstrained(self, "PCA")
            G = None
            Q = None
        else:
            S_tilde, independent = _centred_sensitive(sensitive_features, n,
                                                      return_independent=True)
            G = Xc.T @ S_tilde
            Q = _fdr_constraint(G, independent, np.sqrt(np.diag(C)),
                                np.linalg.norm(S_tilde[:, independent], axis=0), n)
        V = _fdr_directions(C, G, self._default_n_components(Q, d), self.ridge, Q)
        self.components_ = V.T
        self.n_components_ = V.shape[1]
        self._store_hsic(C, G, V, n)
        return self

    def transform(self, X):
        """Project ``X`` on the FDR directions: (X − ``mean_``) @ ``components_``.T.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return (X - self.mean_) @ self.components_.T


class KernelFairDR(_FDRBase):
    r"""Kernel fair dimensionality reduction (KFDR; Pérez-Suay et al. 2017, §3.2).

    Maximises HSIC(t, X) / HSIC(t, S) over projections t = Φ̃u in the RKHS of ``kernel``,
    u = Φ̃ᵀα: the generalized eigenproblem K̃³α = λK̃K̃_SK̃α.

    Parameters
    ----------
    n_components : int or None, default=None
        None: all directions whose scores are HSIC-uncorrelated with S (with ``ridge > 0``
        and a full-rank sensitive kernel, where none exists, all r = rank(K̃) directions).
    kernel : {"rbf", "linear", "poly", "sigmoid", "cosine"} or callable, default="rbf"
    gamma : float > 0, "scale", "auto" or None, default=None
        None/"scale": 1/(d·Var(X)); "auto": 1/d.
    sensitive_kernel : same options, default="linear"
        Kernel on S in the denominator (the reference code uses the linear kernel on the
        one-hot S).  A linear kernel on q columns gives a rank-q denominator and an exact
        "uncorrelated" subspace; an RBF kernel penalises every dependence (use ``ridge > 0``).
    sensitive_gamma : float > 0, "scale", "auto" or None, default=None
    ridge : float >= 0, default=1e-7
        ε in the denominator B + ε‖u‖² (see Notes); 0 solves the ε → 0 limit exactly.
    eigen_solver : {"auto", "dense", "arpack"}, default="auto"
        ``"dense"``: the eigendecomposition of K̃ and a dense solve in its feature map (see
        Notes).  ``"arpack"``: a Lanczos solver on K̃G (see Notes; ARPACK on K̃ without S),
        O(n²) per step, with certified residuals; where it cannot certify its result (ν_k at
        the rounding level, a K̃_S that is not low-rank) the dense solver answers.
        ``"auto"``: ``"arpack"`` when n > 500 and ``n_components`` < n/10, dense otherwise.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples, ``n_components_``)
        α (columns), normalised so that the RKHS directions u = Φ̃ᵀα have unit norm.
    eigenvalues_kernel_ : ndarray of shape (r,) or None
        The positive eigenvalues of K̃ kept in the feature map (dense solver); None when the
        Lanczos solver answered (it never forms the eigendecomposition of K̃).
    X_fit_ : ndarray of shape (n_samples, n_features)
    gamma_, sensitive_gamma_ : float or None
    n_components_ : int
    hsic_input_, hsic_sensitive_ : ndarray of shape (``n_components_``,)
        (1/n²)tᵀK̃t and (1/n²)tᵀK̃_St of the training scores t = K̃α.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)

    Notes
    -----
    *Implementation.*  With K̃ = UΣUᵀ (eigenvalues above rounding, r of them), F = UΣ^{1/2}
    is an exact feature map of the training points (K̃ = FFᵀ, u ↔ β with ‖u‖ = ‖β‖).  In these
    coordinates the problem is :class:`FairDR`'s: numerator (FᵀF)² = Σ², denominator
    FᵀK̃_SF; then α = UΣ^{-1/2}β.  Hence a linear kernel gives exactly FairDR (all ridges)
    and ``sensitive_features=None`` gives kernel PCA (scores equal scikit-learn's
    KernelPCA up to sign).

    *Ridge.*  The reference code regularises the dual denominator, K̃K̃_SK̃ + 10⁻⁷·I (a
    penalty ε‖α‖²); we add ε‖u‖² = εαᵀK̃α, the same ridge as FDR's in feature space.  Either
    way the ε → 0 limit selects the directions with K̃_S t = 0 (scores HSIC-independent of S
    for the chosen sensitive kernel) ordered by the numerator — for the dual ridge per unit
    ‖α‖, for ours per unit ‖u‖, which is the one that agrees with FDR.

    *Deflation.*  The paper extracts one pair (λ_i, α_i) at a time and deflates
    K̃³ ← K̃³ − λ_iK̃K̃_SK̃α_iα_iᵀK̃K̃_SK̃ (α_iᵀK̃K̃_SK̃α_i = 1).  This Hotelling deflation of a
    symmetric-definite pencil removes one eigenpair and keeps the others, so the result is the
    top-k generalized eigenvectors computed here in one call.

    *Transform.*  t(x) = αᵀk̃(x) with k̃ centred by the training statistics.

    *Lanczos solver.*  With B = AAᵀ + εI in feature space (A = Φ̃ᵀΨ, K̃_S = ΨΨᵀ) and
    G = εΦ̃B⁻¹Φ̃ᵀ = K̃ − K̃ΨE diag(1/(ε + δ))EᵀΨᵀK̃ (ΨᵀK̃Ψ = EΔEᵀ; for ε = 0 the projected Gram
    matrix K̃ − K̃Z(ZᵀK̃Z)⁺ZᵀK̃, Z an orthonormal basis of range(S̃)), the generalized
    eigenvectors are u = B⁻¹Φ̃ᵀw for the top eigenvectors w of K̃G, eigenvalues ν = ελ.  K̃G
    is self-adjoint in the semi-inner product of the PSD matrix G, so Lanczos in that inner
    product needs only products with K̃ and G (two per step; no eigendecomposition of K̃ and
    no Cholesky factor of B).  Each Ritz pair is accepted at a residual at the rounding level,
    purified (w ← K̃Gw/ν) and checked again.

    *Signs.*  Both solvers: the largest-magnitude training score of each component is
    positive — a convention on the final components, so it does not inherit the signs of
    LAPACK's eigenvectors (which change with the BLAS kernel and thread count).

    References
    ----------
    * A. Pérez-Suay et al., "Fair Kernel Learning", ECML-PKDD 2017, §3.2.

    Examples
    --------
    >>> from fairlab import KernelFairDR
    >>> from fairlab.datasets import make_banana
    >>> X, s = make_banana(300, random_state=0)
    >>> kfdr = KernelFairDR(n_components=3, gamma=1.0, ridge=0).fit(X, sensitive_features=s)
    >>> kfdr.transform(X).shape
    (300, 3)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "kernel": _KERNEL_OPTIONS,
        "gamma": _GAMMA_OPTIONS,
        "sensitive_kernel": _KERNEL_OPTIONS,
        "sensitive_gamma": _GAMMA_OPTIONS,
        "ridge": [Interval(Real, 0, None, closed="left")],
        "eigen_solver": [StrOptions({"auto", "dense", "arpack"})],
    }

    def __init__(self, n_components=None, *, kernel="rbf", gamma=None, sensitive_kernel="linear",
                 sensitive_gamma=None, ridge=1e-7, eigen_solver="auto"):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.sensitive_kernel = sensitive_kernel
        self.sensitive_gamma = sensitive_gamma
        self.ridge = ridge
        self.eigen_solver = eigen_solver

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the KFDR dual coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sensitive_features : array-like of shape (n_samples,) or (n_samples, q), default=None
            Continuous or categorical; None fits kernel PCA (with a warning).

        Returns
        -------
        self : KernelFairDR
        """
        reject_dask(self, X, y, sensitive_features,
                    alternative="A kernel method needs the n×n Gram matrix of all rows; "
                    "FairKernelPCA(approximation='nystroem') accepts dask arrays.")
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2)
        X = X.astype(np.float64, copy=False)
        n = X.shape[0]
        self.X_fit_ = X
        self.gamma_ = None if callable(self.kernel) else resolve_gamma(X, self.gamma)
        K = _gram(X, None, self.kernel, self.gamma_)
        self._col_means = K.mean(axis=0)
        self._all_mean = float(self._col_means.mean())
        reject_bool(self.n_components)
        solver, k = self.eigen_solver, self.n_components
        if solver == "auto":  # as fairlab._linalg.top_eigh
            solver = "arpack" if (k is not None and n > 500 and k < n // 10) else "dense"
        if solver == "arpack" and k is not None and k < n - 1:
            if self._fit_partial(K, sensitive_features, k):
                return self
            # not certified (or a case the partial solver does not cover): K now holds K̃,
            # and the dense solver below decides
        # rounding of an entry of K before centring: eps·max|K| (an rbf kernel has max 1)
        unit = np.finfo(float).eps * (1.0 if self.kernel == "rbf" else np.abs(K).max())
        sigma, U = centred_gram_factor(center_gram(K), n_distinct_rows(X), unit)
        if sigma.size == 0:
            raise ValueError(
                "the centred kernel matrix of X is zero (all rows identical in feature space); "
                "KernelFairDR needs varying X."
            )
        self.eigenvalues_kernel_ = sigma
        F = U * np.sqrt(sigma)  # K̃ = FFᵀ; FᵀF = Σ
        C = sigma  # FᵀF = Σ, passed as its diagonal
        self.sensitive_gamma_ = None
        if sensitive_features is None:
            warn_unconstrained(self, "kernel PCA")
            G = Q = None
        else:
            S_tilde, independent = _centred_sensitive(sensitive_features, n,
                                                      return_independent=True)
            Psi, self.sensitive_gamma_ = _sensitive_factor(
                S_tilde, self.sensitive_kernel, self.sensitive_gamma)
            G = F.T @ Psi
            if self.sensitive_kernel != "linear":
                independent = None  # the eigen-factor has full column rank already
            Psi_c = Psi if independent is None else Psi[:, independent]
            Q = _fdr_constraint(G, independent, np.sqrt(sigma),
                                np.linalg.norm(Psi_c, axis=0), n)
        k = self._default_n_components(Q, len(sigma))
        B = _fdr_directions(C, G, k, self.ridge, Q)  # β, unit ‖u‖
        # Sign convention on the final components, as the partial solver: the largest-|·|
        # training score of each component is positive.  (The flip inside _fdr_directions acts
        # in the eigenbasis U of K̃, whose own signs are LAPACK's and change with the BLAS
        # kernel or thread count.)
        scores = F @ B
        rows = np.argmax(np.abs(scores), axis=0)
        B = B * np.where(scores[rows, np.arange(B.shape[1])] < 0, -1.0, 1.0)
        self.dual_coef_ = U @ (B / np.sqrt(sigma)[:, None])
        self.n_components_ = B.shape[1]
        self._store_hsic(C, G, B, n)
        return self

    def _fit_partial(self, K, sensitive_features, k):
        r"""Top-k KFDR directions without the eigendecomposition of K̃ (see Notes).

        With G = εΦ̃B⁻¹Φ̃ᵀ (B = AAᵀ + εI, A = Φ̃ᵀΨ) — for ε > 0,
        G = K̃ − K̃ΨE diag(1/(ε + δ)) EᵀΨᵀK̃ with ΨᵀK̃Ψ = EΔEᵀ; for ε = 0 the projected Gram
        matrix K̃ − K̃Z(ZᵀK̃Z)⁺ZᵀK̃ of Z = orthonormal basis of range(S̃) — the generalized
        eigenvectors are u = B⁻¹Φ̃ᵀw for the top eigenvectors w of K̃G, with the same
        eigenvalues times ε.  K̃G is self-adjoint in the semi-inner product of the PSD matrix G:
        :func:`_g_lanczos` finds them from products with K̃ and G only (without S: ARPACK on K̃).
        Every eigenpair is purified (w ← K̃Gw/ν) and its residual checked; False — the dense
        solver then decides — when Lanczos does not converge, a residual is not at the rounding
        level, ν_k is at the rounding level of products with G (a rank too low for k), a
        representer is dominated by rounding, or K̃_S is not low-rank to rounding.  ``K`` is
        centred in place.
        """
        n = K.shape[0]
        eps = np.finfo(float).eps
        unit = eps * (1.0 if self.kernel == "rbf" else np.abs(K).max(initial=0.0))
        Kt = center_symmetric_gram_inplace(K, self._col_means)
        self.sensitive_gamma_ = None
        Psi = None
        if sensitive_features is not None:
            S_tilde, independent = _centred_sensitive(sensitive_features, n,
                                                      return_independent=True)
            if self.sensitive_kernel == "linear":
                Psi = S_tilde
            elif self.ridge > 0 and not callable(self.sensitive_kernel):
                self.sensitive_gamma_ = resolve_gamma(S_tilde, self.sensitive_gamma)
                Psi = _low_rank_sensitive_factor(S_tilde, self.sensitive_kernel,
                                                 self.sensitive_gamma_, n // 10)
            if Psi is None or Psi.shape[1] >= n // 10:
                return False
        ncv = int(min(n - 1, max(2 * k + 1, 64)))
        v0 = np.random.RandomState(0).uniform(-1.0, 1.0, n)
        if Psi is None:  # kernel PCA: top-k eigenpairs of K̃ (G = I)
            def gmat(V):
                return V
            try:
                nu, Wv = eigsh(Kt, k=k, which="LA", v0=v0, ncv=ncv)
            except ArpackNoConvergence:
                return False
        else:
            if self.ridge == 0:
                Z = linalg.qr(Psi[:, independent], mode="economic", check_finite=False)[0]
                KZ = Kt @ Z
                T, sig = gram_constraint_factor(Z.T @ KZ, n, unit)
                V, coef = KZ @ T, sig
            else:
                KPsi = Kt @ Psi
                delta, E = linalg.eigh(Psi.T @ KPsi, check_finite=False)
                V, coef = KPsi @ E, 1.0 / (self.ridge + np.clip(delta, 0.0, None))
            Vc = V * coef

            def gmat(X):
                return Kt @ X - Vc @ (V.T @ X)

            def gvec(x):
                return gmat(np.ravel(x))

            found = _g_lanczos(lambda x: Kt @ x, gvec, n, k, v0, min(n - 1, max(4 * k, 300)),
                               k_max=unit / eps)
            if found is None:
                return False
            nu, Wv = found
        order = np.argsort(nu)[::-1]
        nu, Wv = nu[order], Wv[:, order]
        # ν_k must stand far above the rounding of products with G, which cancels where the
        # constraint (or a large ridge term) removes almost all of K̃: |Δν| ≲ eps·tr(K̃)·
        # max(tr(K̃), n·max|K|) (tr K̃ ≥ ‖K̃‖₂, from the diagonal alone); 1e8 of it leaves
        # ν_k eight digits (the dense solver takes the directions below)
        tr = float(np.trace(Kt))
        floor = 1e8 * eps * max(nu[0], tr * max(tr, n * unit / eps))
        if not (np.all(np.isfinite(nu)) and nu[-1] > floor):
            return False
        GW = gmat(Wv)
        Wp = (Kt @ GW) / nu  # purified: no component in null(G)
        GWp = gmat(Wp)
        resid = np.linalg.norm(Kt @ GWp - Wp * nu, axis=0)
        slack = max(1.0, unit / eps / np.sqrt(nu[0]))
        if np.any(resid > 1e-8 * nu[0] * slack * np.linalg.norm(Wp, axis=0)):
            return False
        if Psi is None:
            alpha = Wp
        elif self.ridge == 0:  # representer of PΦ̃ᵀw (eq. (3) of fairlab.kernel_pca)
            alpha = Wp - Z @ (T @ (sig[:, None] * ((KZ @ T).T @ Wp)))
        else:  # representer of B⁻¹Φ̃ᵀw (up to the factor 1/ε)
            alpha = Wp - Psi @ (E @ (coef[:, None] * (V.T @ Wp)))
        scores = Kt @ alpha
        norms = np.sqrt(np.einsum("ij,ij->j", alpha, scores))  # ‖u_j‖ = (αᵀK̃α)^½
        alpha, scores = alpha / norms, scores / norms
        # a representer with large components where K̃ is only rounding (the Ψ correction
        # cancelling, e.g. a direction the constraint almost removes) makes ‖u‖ and the HSIC
        # values uncertain by n·unit·‖α‖² (the rounding level of αᵀK̃α): leave it to the dense
        # solver, whose α lies in the computed range of K̃
        if np.max(np.sum(alpha**2, axis=0)) * n * unit > 1e-10:
            return False
        rows = np.argmax(np.abs(scores), axis=0)
        signs = np.where(scores[rows, np.arange(k)] < 0, -1.0, 1.0)
        alpha, scores = alpha * signs, scores * signs
        self.dual_coef_ = alpha
        self.n_components_ = k
        self.eigenvalues_kernel_ = None
        self.hsic_input_ = np.einsum("ij,ij->j", scores, Kt @ scores) / n**2
        self.hsic_sensitive_ = (np.zeros(k) if Psi is None
                                else np.sum((Psi.T @ scores) ** 2, axis=0) / n**2)
        if sensitive_features is None:
            warn_unconstrained(self, "kernel PCA")
        return True

    def transform(self, X):
        """Scores t(x) = αᵀk̃(x), the test kernel centred with the training statistics.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, ``n_components_``)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        K = _gram(X.astype(np.float64, copy=False), self.X_fit_, self.kernel, self.gamma_)
        return center_cross_gram(K, self._col_means, self._all_mean) @ self.dual_coef_
