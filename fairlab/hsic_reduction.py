r"""Fair Kernel Learning, dimensionality reduction: FDR and kernel FDR as ratios of HSICs.

Pérez-Suay et al. (2017) add the Hilbert–Schmidt independence criterion between the
model's output and the sensitive variables S to two classical closed-form learners.
With H = I − 11ᵀ/n, X̃ = HX, S̃ = HS, K̃ = HKH and K̃_S = HK_SH, and t = μ/n²:

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

References
----------
A. Pérez-Suay, V. Laparra, G. Mateo-García, J. Muñoz-Marí, L. Gómez-Chova, G. Camps-Valls.
"Fair Kernel Learning", ECML-PKDD 2017 (Pérez-Suay et al.).  Reference code: IPL-UV/FKL (MATLAB).

"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackNoConvergence, eigsh
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._core.hsic import (
    _GAMMA_OPTIONS,
    _KERNEL_OPTIONS,
    _centred_sensitive,
    _gram,
    _low_rank_sensitive_factor,
    _sensitive_factor,
)
from ._core.kernels import (
    entry_rounding_unit,
    kernel_matrix_is_new,
    resolve_gamma,
    warn_if_indefinite,
)
from ._core.linalg import (
    center_cross_gram,
    center_gram,
    center_symmetric_gram_inplace,
    centred_gram_factor,
    choose_eigen_solver,
    column_signs,
    complement_basis,
    constraint_basis,
    flip_signs,
    gram_constraint_factor,
    lower_gram,
    n_distinct_rows,
    top_eigh_route,
)
from ._core.moments import (
    reject_dask,
)
from ._core.validation import (
    check_n_components,
    check_transform_input,
    reject_bool,
    validate_data,
    warn_unconstrained,
)

__all__ = ["FairDR", "KernelFairDR"]


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
        # β ≤ 1e-14·β₀ (β² ≤ 1e-28·β₀²): what is left of T's newest vector after the
        # re-orthogonalisation is ~50·eps of the start, rounding: Q spans an invariant
        # subspace, and its Ritz pairs are final
        if not beta2 > 1e-28 * scale:
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
    :func:`~fairlab._core.linalg.constraint_basis`.
    """
    if G is None:
        return None
    Gc = G if independent is None else G[:, independent]
    return constraint_basis(Gc, left_norms, psi_norms, n_terms=n)


def _fdr_directions(C, G, n_components, ridge, Q=None, solver="dense"):
    """Top FDR directions for the Gram C = FᵀF and the factor G = FᵀΨ (p × q).

    Numerator A = C² (HSIC of Fv with F), denominator B = GGᵀ (HSIC of Fv with S).  ``C`` is a
    (p × p) matrix, or a 1-D array for a diagonal Gram (KFDR's kernel-PCA coordinates).
    ``ridge > 0``: top-k generalized eigenvectors of (A, B + ridge·I), as the reference code,
    computed without a Cholesky factor of the (possibly very ill-conditioned) B + ridge·I.
    ``ridge == 0``: the ε → 0 limit — top eigenvectors of A compressed to null(Gᵀ), with
    ``Q`` the orthonormal basis of range(G) from :func:`_fdr_constraint`.  ``solver`` is
    that of the symmetric eigenproblems (:func:`~fairlab._core.linalg.top_eigh`); the generalized
    one of ``ridge > 0`` by singular vectors (``"svd"``; :func:`_top_right_singular_vectors`).
    Returns unit-norm columns V (p × k) with deterministic signs, and the solver used.
    """
    diagonal = C.ndim == 1
    p = C.shape[0]
    if G is None or G.shape[1] == 0:
        # unconstrained: eigenvectors of C² are those of C (PSD), same order → PCA
        k = check_n_components(n_components, p)
        if diagonal:  # already eigenvalues: nothing left to solve
            return np.eye(p)[:, np.argsort(C, kind="stable")[::-1][:k]], "dense"
        _, V, used = top_eigh_route(C, k, solver=solver)
        return V, used
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
        _, W, used = top_eigh_route(CN.T @ CN, k, solver=solver)
        return flip_signs(N @ W), used
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
    V = W @ (d_inv[:, None] * _top_right_singular_vectors(M, k))
    return flip_signs(V / np.linalg.norm(V, axis=0)), "svd"


#: The top-k right singular vectors of M come from the eigenvectors of MᵀM (k of them, by
#: LAPACK ``syevr``) when σ_k ≥ σ₁/_SQUARED_RATIO, else from M's whole SVD.  Forming MᵀM turns
#: the SVD's angle error eps·σ₁/gap into eps·σ₁²/gap(σ²), larger by σ₁/(σ_i + σ_j) ≤ σ₁/σ_k:
#: at most this factor, three bits, for a k-vector eigensolve of a p × p matrix instead of the
#: whole SVD of M, much cheaper when k ≪ p (Pérez-Suay et al.'s Fig. 6 has k = 7, p ≈ 4 600).
_SQUARED_RATIO = 8.0


def _top_right_singular_vectors(M, k):
    """The right singular vectors of the k largest singular values of M, as columns."""
    p = M.shape[1]
    w, Z = linalg.eigh(lower_gram(M), lower=True, subset_by_index=[p - k, p - 1],
                       check_finite=False)
    if w[0] * _SQUARED_RATIO**2 >= w[-1] > 0:
        return Z[:, ::-1]
    return linalg.svd(M, full_matrices=False, check_finite=False)[2][:k].T


# --------------------------------------------------------------------------------------
# KernelFairDR's partial eigendecomposition (eigen_solver="arpack"): steps and tolerances
# --------------------------------------------------------------------------------------
# K̃_S = ΨΨᵀ must have a factor with fewer than n/10 columns: the route forms K̃Ψ (n²r
# operations) and an r × r eigendecomposition, which at r = n/10 already cost a tenth of the
# dense route's eigendecomposition of K̃ (≈ n³): beyond it there is little left to save.
_PARTIAL_MAX_RANK_FRACTION = 10
# Lanczos bases: ARPACK's (kernel PCA, no S) holds max(2k + 1, 64) vectors, SciPy's 2k + 1 with
# a floor that keeps a small k from restarting on a clustered spectrum; the G-Lanczos of
# _g_lanczos, which never restarts, max(4k, 300) vectors before it gives up (O(n·basis) memory).
_ARPACK_MIN_BASIS = 64
_G_LANCZOS_MIN_BASIS = 300
# ν_k must exceed the rounding of a product with G by this factor: the computed ν carry errors
# |Δν| ≲ eps·tr(K̃)·max(tr(K̃), n·max|K|) (tr K̃ ≥ ‖K̃‖₂, from the diagonal alone; G cancels
# where the constraint or a large ridge term removes almost all of K̃), so 1e8 of it leaves
# ν_k eight significant digits; below, the dense solver takes the directions.
_EIGENVALUE_MARGIN = 1e8
# A purified Ritz pair is accepted when ‖K̃Gw − νw‖ ≤ 1e-8·ν₁·c·‖w‖ (c ≥ 1 the cancellation
# of the centring, max|K|/√ν₁): a backward error of 1e-8 relative to the spectrum, i.e. the
# eigenvector is right to 1e-8/relative gap, as the certified dense directions it replaces.
_RESIDUAL_RTOL = 1e-8
# A unit direction u = Φ̃ᵀα has ‖u‖² = αᵀK̃α, known to n·unit·‖α‖² (the rounding level of that
# quadratic form); above 1e-10 the norm and the HSIC values of the component would keep fewer
# than ten digits, and the dense solver, whose α lies in the computed range of K̃, answers.
_REPRESENTER_RTOL = 1e-10


def _top_eigenpairs_of_kg(Kt, Psi, independent, ridge, k, unit):
    """Step 2: the top-k eigenpairs (ν, W) of K̃G by Lanczos, with the products that define G.

    Returns ``(ν, W, gmat, representer)`` — ``gmat(X)`` = GX and ``representer(W)`` the α of
    B⁻¹Φ̃ᵀw (up to the factor 1/ε; for ``ridge=0`` of PΦ̃ᵀw, eq. (3) of
    :mod:`fairlab.kernel_pca`) — or None when Lanczos does not converge.  Without S (``Psi``
    None) G = I and this is ARPACK on K̃.
    """
    n = Kt.shape[0]
    eps = np.finfo(float).eps
    v0 = np.random.RandomState(0).uniform(-1.0, 1.0, n)
    if Psi is None:  # kernel PCA: top-k eigenpairs of K̃ (G = I)
        ncv = int(min(n - 1, max(2 * k + 1, _ARPACK_MIN_BASIS)))
        try:
            nu, Wv = eigsh(Kt, k=k, which="LA", v0=v0, ncv=ncv)
        except ArpackNoConvergence:
            return None
        return (*_descending(nu, Wv), lambda V: V, lambda W: W)
    if ridge == 0:  # G = K̃ − K̃Z(ZᵀK̃Z)⁺ZᵀK̃ = K̃ − V diag(σ) Vᵀ, V = K̃ZT
        Z = linalg.qr(Psi[:, independent], mode="economic", check_finite=False)[0]
        KZ = Kt @ Z
        T, sig = gram_constraint_factor(Z.T @ KZ, n, unit)
        V, coef = KZ @ T, sig

        def representer(W):
            return W - Z @ (T @ (sig[:, None] * ((KZ @ T).T @ W)))
    else:  # G = K̃ − V diag(1/(ε + δ)) Vᵀ, V = K̃ΨE, ΨᵀK̃Ψ = EΔEᵀ
        KPsi = Kt @ Psi
        delta, E = linalg.eigh(Psi.T @ KPsi, check_finite=False)
        V, coef = KPsi @ E, 1.0 / (ridge + np.clip(delta, 0.0, None))

        def representer(W):
            return W - Psi @ (E @ (coef[:, None] * (V.T @ W)))
    Vc = V * coef

    def gmat(X):
        return Kt @ X - Vc @ (V.T @ X)

    found = _g_lanczos(lambda x: Kt @ x, lambda x: gmat(np.ravel(x)), n, k, v0,
                       min(n - 1, max(4 * k, _G_LANCZOS_MIN_BASIS)), k_max=unit / eps)
    if found is None:
        return None
    return (*_descending(*found), gmat, representer)


def _descending(nu, W):
    order = np.argsort(nu)[::-1]
    return nu[order], W[:, order]


def _certified_eigenvectors(Kt, gmat, nu, Wv, unit):
    """Step 3: the eigenvectors purified (w ← K̃Gw/ν: no component in null(G)), or None.

    None when ν_k is within ``_EIGENVALUE_MARGIN`` of the rounding of products with G, or a
    purified pair's residual exceeds ``_RESIDUAL_RTOL`` (see their derivations).
    """
    n = Kt.shape[0]
    eps = np.finfo(float).eps
    tr = float(np.trace(Kt))
    floor = _EIGENVALUE_MARGIN * eps * max(nu[0], tr * max(tr, n * unit / eps))
    if not (np.all(np.isfinite(nu)) and nu[-1] > floor):
        return None
    Wp = (Kt @ gmat(Wv)) / nu
    resid = np.linalg.norm(Kt @ gmat(Wp) - Wp * nu, axis=0)
    slack = max(1.0, unit / eps / np.sqrt(nu[0]))
    if np.any(resid > _RESIDUAL_RTOL * nu[0] * slack * np.linalg.norm(Wp, axis=0)):
        return None
    return Wp


def _unit_representers(Kt, alpha, unit):
    """Step 4: α scaled to unit directions (‖u‖ = (αᵀK̃α)^½) and the training scores K̃α, or
    (None, None) when ‖u‖ is dominated by rounding (``_REPRESENTER_RTOL``): a large α where
    K̃ is only rounding, e.g. a direction the constraint almost removes."""
    n = Kt.shape[0]
    scores = Kt @ alpha
    norms = np.sqrt(np.einsum("ij,ij->j", alpha, scores))
    alpha, scores = alpha / norms, scores / norms
    if np.max(np.sum(alpha**2, axis=0)) * n * unit > _REPRESENTER_RTOL:
        return None, None
    return alpha, scores


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
    solver_ : {"dense", "arpack", "svd"}
        How the directions were computed: ``"svd"`` for ``ridge > 0`` (the generalized
        eigenproblem by singular vectors, no choice); otherwise the symmetric eigenproblem on d or
        fewer dimensions, by the rule of every fairlab estimator
        (:func:`fairlab._core.linalg.choose_eigen_solver`: ARPACK when the size p > 500 and
        k < p/20, the dense LAPACK solver otherwise).
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
        V, self.solver_ = _fdr_directions(C, G, self._default_n_components(Q, d), self.ridge, Q,
                                          solver="auto")
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
        X = check_transform_input(self, X)
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
        ``"auto"``: ``"arpack"`` when n > 500 and ``n_components`` < n/20, dense otherwise
        (the rule of every fairlab estimator, :func:`fairlab._core.linalg.choose_eigen_solver`).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples, ``n_components_``)
        α (columns), normalised so that the RKHS directions u = Φ̃ᵀα have unit norm.
    eigenvalues_kernel_ : ndarray of shape (r,) or None
        The positive eigenvalues of K̃ kept in the feature map (dense solver); None when the
        Lanczos solver answered (it never forms the eigendecomposition of K̃).
    solver_ : {"dense", "arpack"}
        The solver that answered: what ``eigen_solver="auto"`` resolved to, or ``"dense"``
        when the Lanczos solver could not certify its result.
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
        warn_if_indefinite(self.kernel, "the directions found are not directions of a feature "
                           "space and the HSIC objective can be negative.", stacklevel=4)
        n = X.shape[0]
        self.X_fit_ = X
        self.gamma_ = None if callable(self.kernel) else resolve_gamma(X, self.gamma)
        K = _gram(X, None, self.kernel, self.gamma_)
        self._col_means = K.mean(axis=0)
        self._all_mean = float(self._col_means.mean())
        reject_bool(self.n_components)
        solver, k = self.eigen_solver, self.n_components
        if solver == "auto":  # n_components=None needs every eigenvalue of K̃: dense
            solver = "dense" if k is None else choose_eigen_solver(n, k)
        if solver == "arpack" and k is not None and k < n - 1:
            if self._fit_by_partial_eigendecomposition(K, sensitive_features, k):
                self.solver_ = "arpack"
                return self
            # not certified (or a case the partial solver does not cover): K now holds K̃,
            # and the dense solver below decides
        unit = entry_rounding_unit(K, self.kernel)
        sigma, U = centred_gram_factor(center_gram(K), n_distinct_rows(X), unit)
        if sigma.size == 0:
            raise ValueError(
                "the centred kernel matrix of X is zero (all rows identical in feature space); "
                "KernelFairDR needs varying X."
            )
        self.solver_ = "dense"
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
        B, _ = _fdr_directions(C, G, k, self.ridge, Q)  # β, unit ‖u‖
        # Sign convention on the final components, as the partial solver: the largest-|·|
        # training score of each component is positive.  (The flip inside _fdr_directions acts
        # in the eigenbasis U of K̃, whose own signs are LAPACK's and change with the BLAS
        # kernel or thread count.)
        B = B * column_signs(F @ B)
        self.dual_coef_ = U @ (B / np.sqrt(sigma)[:, None])
        self.n_components_ = B.shape[1]
        self._store_hsic(C, G, B, n)
        return self

    def _fit_by_partial_eigendecomposition(self, K, sensitive_features, k):
        r"""Top-k KFDR directions without the eigendecomposition of K̃ (see Notes).

        With G = εΦ̃B⁻¹Φ̃ᵀ (B = AAᵀ + εI, A = Φ̃ᵀΨ) — for ε > 0,
        G = K̃ − K̃ΨE diag(1/(ε + δ)) EᵀΨᵀK̃ with ΨᵀK̃Ψ = EΔEᵀ; for ε = 0 the projected Gram
        matrix K̃ − K̃Z(ZᵀK̃Z)⁺ZᵀK̃ of Z = orthonormal basis of range(S̃) — the generalized
        eigenvectors are u = B⁻¹Φ̃ᵀw for the top eigenvectors w of K̃G, with the same
        eigenvalues times ε.  Steps:

        1. a factor Ψ of K̃_S with few columns (:meth:`_low_rank_sensitive`);
        2. the top-k eigenpairs of K̃G from products with K̃ and G only
           (:func:`_top_eigenpairs_of_kg`);
        3. each pair purified and its residual checked (:func:`_certified_eigenvectors`);
        4. the representers α of the unit directions, checked against the rounding of K̃
           (:func:`_unit_representers`).

        Returns False — the dense solver then decides — where a step cannot certify its
        result: K̃_S not low-rank to rounding, Lanczos not converging, ν_k at the rounding
        level of products with G (a rank too low for k), a residual above the rounding level,
        or a representer dominated by rounding.  ``K`` is centred in place.
        """
        n = K.shape[0]
        unit = entry_rounding_unit(K, self.kernel)
        Kt = center_symmetric_gram_inplace(K, self._col_means)
        self.sensitive_gamma_ = None
        Psi = independent = None
        if sensitive_features is not None:
            Psi, independent = self._low_rank_sensitive(sensitive_features, n)
            if Psi is None:
                return False
        found = _top_eigenpairs_of_kg(Kt, Psi, independent, self.ridge, k, unit)
        if found is None:
            return False
        nu, Wv, gmat, representer = found
        Wp = _certified_eigenvectors(Kt, gmat, nu, Wv, unit)
        if Wp is None:
            return False
        alpha, scores = _unit_representers(Kt, representer(Wp), unit)
        if alpha is None:
            return False
        signs = column_signs(scores)
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

    def _low_rank_sensitive(self, sensitive_features, n):
        """Ψ with ΨΨᵀ = K̃_S and fewer than n/``_PARTIAL_MAX_RANK_FRACTION`` columns, and the
        independent columns of S̃; Ψ is None when K̃_S has no such factor (or none is sought:
        a callable kernel, or ``ridge=0`` with a non-linear one)."""
        S_tilde, independent = _centred_sensitive(sensitive_features, n, return_independent=True)
        max_rank = n // _PARTIAL_MAX_RANK_FRACTION
        Psi = None
        if self.sensitive_kernel == "linear":
            Psi = S_tilde
        elif self.ridge > 0 and not callable(self.sensitive_kernel):
            self.sensitive_gamma_ = resolve_gamma(S_tilde, self.sensitive_gamma)
            Psi = _low_rank_sensitive_factor(S_tilde, self.sensitive_kernel,
                                             self.sensitive_gamma_, max_rank)
        if Psi is None or Psi.shape[1] >= max_rank:
            return None, independent
        return Psi, independent

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
        X = check_transform_input(self, X)
        K = _gram(X, self.X_fit_, self.kernel, self.gamma_)
        return center_cross_gram(K, self._col_means, self._all_mean,
                                 overwrite=kernel_matrix_is_new(self.kernel)) @ self.dual_coef_
