r"""MbF-PCA: MMD-based fair PCA on the Stiefel manifold (Lee et al., AAAI 2022).

Lee, Kim, Olfat, Hasegawa-Johnson and Yoo maximise the explained variance of an orthonormal
V ∈ St(d, k) = {V ∈ ℝ^{d×k} : VᵀV = I} while the two groups' projected distributions are close
in maximum mean discrepancy, by an exact-penalty method:

.. math::

    \min_{V \in \mathrm{St}(d,k)} \; -\frac{\operatorname{tr}(V^\top A V)}{\operatorname{tr} A}
    \;+\; \rho\, \mathrm{MMD}^2(X_1 V, X_0 V),

A the covariance of the centred data, X_g the rows of group g, and MMD² the biased V-statistic
with the Gaussian kernel k(a, b) = exp(−‖a − b‖²/(2σ²)).  ρ is doubled until MMD² ≤ τ, each
penalised problem being solved, from the previous solution, to a gradient tolerance that shrinks
geometrically from 10⁻¹ to 10⁻⁶ in five steps.  τ is the number in the papers' "MbF-PCA (10⁻³)"
and "(10⁻⁶)" rows (Kleindessner et al. 2023, Tables 1–3; Lee et al.'s folders ``*_stfpca_3`` /
``*_stfpca_6``).

Algorithm (Lee et al.'s ``mbfpca.m`` and ``uci.m``; the inner solver is ours, see below)::

    Xc = X − mean;  A = cov(Xc);  V_pca = top-k eigenvectors of A
    σ  = sqrt(median_{i<j} ‖(x_i − x_j) V_pca‖² / 2)          # median heuristic in PCA-k space
    ρ  = 1 / MMD²(V_pca);  ε = 1e-1;  θ_ε = (1e-6 / 1e-1)^(1/5)
    V  = V_pca   (init="pca"; or Lee's: argmin MMD² from the best of 11 random orthonormal V)
    for j = 1, …, max_iter + 1:
        V_new = argmin_{St(d,k)} −tr(VᵀAV)/tr(A) + ρ·MMD²(V)  (≤ 300 iterations, ‖grad‖ < ε)
        violated = MMD²(V_new) > τ
        if ‖V_new − V‖_F ≤ 1e-6 and ε ≤ 1e-6 and not violated: stop (converged)
        if ρ > 1e10 or j = max_iter + 1: stop (not converged: ConvergenceWarning)
        ε = max(1e-6, θ_ε ε);  if violated: ρ = 2ρ;  V = V_new

Inner solver.  Lee et al. call ROPTLIB's Riemannian BFGS (C++).  fairlab uses a Riemannian BFGS
in numpy (Huang, Gallivan & Absil, 2015; ``fairlab.baselines._manifold``, where projection,
retraction, transport and line search are written once) with the Euclidean metric on St(d, k):
Riemannian gradient grad f = G − V sym(VᵀG) (G the Euclidean gradient), QR retraction
R_V(ξ) = qf(V + ξ), a dense dk×dk inverse-Hessian approximation carried to the new tangent
space by orthogonal projection (P H P, a rank-k(k+1) update applied through the structure of the
normal space, two products with V), Armijo backtracking; it stops, as ROPTLIB with
``Stop_Criterion = 1``, when the *absolute* norm of the Riemannian gradient is below ε, or after
300 iterations.  Above dk = 2000 entries, or where (dk)²k(k+1) exceeds 2·10⁸ (there the dense
version is slower than the limited-memory one, to the same solution), a
limited-memory version (10 pairs) replaces
the dense matrix (``_manifold.dense_is_cheap``).  The dense version matters: with the
limited-memory one the penalty path left Lee et al.'s on 2 of 3 German splits, with the dense
one it reproduced their stored loadings on all three.

Cost.  One cost-and-gradient evaluation needs the n×n kernel matrix of the projected rows:
O(n²k) time, built in cache-sized blocks with each off-diagonal block once (half the
exponentials), so O(n) memory beyond the data; the quasi-Newton step adds O((dk)²k), the
transport of H.  For n in the tens of thousands subsample the rows.  The times, beside
ROPTLIB's published ones (Kleindessner et al. 2023, §5.1), are those of
``benchmarks/bench_baselines.py``.
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.spatial.distance import pdist
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_random_state

from .._core.linalg import as_seed, flip_signs
from .._core.threads import limit_threads
from .._core.validation import (
    check_groups,
    check_n_components,
    reject_bool,
    validate_data,
    warn_unconstrained,
)
from ._common import LinearProjection
from ._manifold import rbfgs, retract

__all__ = ["MbFPCA"]

_MEDIAN_MAX_ROWS = 5000  # rows used for the bandwidth's median heuristic (subsampled above)
_BLOCK_ROWS = 256  # rows of one block of the kernel matrix (512 KB: stays in cache)


# ---------------------------------------------------------------------------------------------
# MMD² between two groups of projected rows, and its Euclidean gradient in V
# ---------------------------------------------------------------------------------------------
class _MMDPenalty:
    """MMD²(X₁V, X₀V) (biased V-statistic, Gaussian kernel of width σ) and its gradient.

    Stack the rows of both groups in X and let w_i = 1/m₁ (group 1) or −1/m₀ (group 0), so
    that MMD² = Σ_ij w_i w_j K_ij = wᵀKw with K_ij = exp(−γ‖(x_i − x_j)ᵀV‖²), γ = 1/(2σ²).
    With B = diag(w) K diag(w) and ∂K_ij/∂V = −2γ K_ij (x_i − x_j)(x_i − x_j)ᵀV,

        ∇_V MMD² = −4γ Xᵀ(diag(B1) − B) X V = −4γ Xᵀ[(w ∘ Kw) ∘ Y − w ∘ (K (w ∘ Y))],

    Y = XV: the matrix of Lee et al.'s ``mmd_penalty_egrad``, at O(n²k) instead of O(n²d).

    Identical rows are merged, their weights summed (exact: wᵀKw only depends on the
    weight of each distinct row), and rows of zero total weight dropped — categorical data
    repeat rows (COMPAS, 1727 rows: 994 distinct, a third of the kernel's cost).
    """

    def __init__(self, X1, X0, sigma):
        X = np.vstack([X1, X0])
        m1, m0 = X1.shape[0], X0.shape[0]
        w = np.concatenate([np.full(m1, 1.0 / m1), np.full(m0, -1.0 / m0)])
        rows, inverse = np.unique(X, axis=0, return_inverse=True)
        if rows.shape[0] < X.shape[0]:
            w = np.bincount(inverse.ravel(), weights=w, minlength=rows.shape[0])
            keep = w != 0.0
            X, w = rows[keep], w[keep]
        self.X, self.w = X, w
        self.gamma = 1.0 / (2.0 * sigma**2)

    def _kernel_times(self, Y, Z):
        """K·Z for the projected rows Y = XV, each off-diagonal block of the symmetric K once.

        K is built in square blocks of :data:`_BLOCK_ROWS` rows: block (I, J), J ≥ I, adds
        K_IJ Z_J to rows I and K_IJᵀ Z_I to rows J.  This halves the exponentials, and a block
        stays in cache through its six passes (product, scaling, two shifts, clipping,
        exponential), instead of streaming the whole n × n matrix through memory six times.
        """
        g = self.gamma
        sq = g * np.einsum("ij,ij->i", Y, Y)
        KZ = np.zeros_like(Z)
        n, b = Y.shape[0], _BLOCK_ROWS
        buffer = np.empty((min(n, b), min(n, b)))
        for i in range(0, n, b):
            I = slice(i, i + b)
            for j in range(i, n, b):
                J = slice(j, j + b)
                K = np.matmul(Y[I], Y[J].T, out=buffer[: min(b, n - i), : min(b, n - j)])
                K *= 2.0 * g
                K -= sq[I, None]
                K -= sq[None, J]
                np.minimum(K, 0.0, out=K)  # −γ‖y_i − y_j‖² ≤ 0 (rounding)
                np.exp(K, out=K)
                KZ[I] += K @ Z[J]
                if j != i:
                    KZ[J] += K.T @ Z[I]
        return KZ

    def value(self, V):
        Kw = self._kernel_times(self.X @ V, self.w[:, None])[:, 0]
        return max(float(self.w @ Kw), 0.0)

    def value_and_grad(self, V):
        w = self.w
        Y = self.X @ V
        KZ = self._kernel_times(Y, np.column_stack([w, w[:, None] * Y]))
        Kw, KwY = KZ[:, 0], KZ[:, 1:]
        G = -(4.0 * self.gamma) * (self.X.T @ ((w * Kw)[:, None] * Y - w[:, None] * KwY))
        return max(float(w @ Kw), 0.0), G


def _top_eigenvectors(A, k):
    d = A.shape[0]
    w, V = linalg.eigh(A, subset_by_index=[d - k, d - 1], check_finite=False)
    return w[::-1], V[:, ::-1]


# ---------------------------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------------------------
class MbFPCA(LinearProjection):
    r"""MMD-based fair PCA on the Stiefel manifold (Lee et al., AAAI 2022).

    Finds orthonormal V (d×k, ``components_`` = Vᵀ) maximising the explained variance
    tr(VᵀAV)/tr(A) of the centred data while the squared maximum mean discrepancy between the
    two groups' projections X₁V and X₀V is at most τ, by the exact-penalty schedule of Lee et
    al. (see the module docstring for the algorithm).  Unlike mean-matching fair PCA, the MMD
    with a Gaussian kernel compares whole distributions (means, covariances, higher moments).
    Two groups only.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k (Lee et al. and Kleindessner et al. use 2 and 10; 5 on synthetic data).
    tau : float > 0, default=1e-3
        Tolerance on MMD² — the number in the tables' "MbF-PCA (10⁻³)" / "(10⁻⁶)".  The
        biased MMD² of two finite samples is not 0 even for one distribution, so small τ need
        many rows (Lee et al.: hundreds per group) or the loop ends without convergence.
    fairness : {"demographic_parity", "equal_opportunity", "equalized_odds"}, \
            default="demographic_parity"
        Which rows are compared (Lee et al.'s ``DP``, ``EOP``, ``EOD``): all rows; the rows with
        ``y == pos_label``; or both the rows with ``y == pos_label`` and the others (two MMD²
        terms, each held below τ).  The last two need ``y`` in ``fit``.
    bandwidth : float > 0 or None, default=None
        Kernel width σ.  ``None``: Lee et al.'s median heuristic in the PCA-k space of the
        training data, σ = sqrt(median_{i<j} ‖(x_i − x_j)V_pca‖²/2) (over a random subset of
        5000 rows when n is larger), the same σ as :func:`fairlab.metrics.lee_bandwidth`.
    rho0 : float > 0 or None, default=None
        Initial penalty ρ₀.  ``None``: 1/MMD²(V_pca), as in Lee et al.'s experiments
        (``uci.m``, ``synthetic2.m``; their README uses 0.1/MMD²).
    init : {"pca", "auxiliary"}, default="pca"
        ``"pca"``: start from V_pca (deterministic).  ``"auxiliary"``: the start of Lee et
        al.'s code (``mbfpca_auxiliary``) — the best of 11 random orthonormal matrices by
        explained variance, then MMD² alone minimised (relative gradient tolerance 10⁻⁶, at
        most 500 iterations, ROPTLIB's defaults).  The problem is non-convex and the random
        draws are numpy's, not MATLAB's, so ``"auxiliary"`` lands in other local minima than
        Lee et al. on some splits, while ``"pca"`` reproduced their stored loadings on 9 of
        the 10 German splits (see Notes) at a fraction of the cost.
    max_iter : int, default=100
        Outer (penalty) iterations; the loop runs at most ``max_iter + 1`` subproblems.
    max_inner_iter : int, default=300
        Iterations per penalised subproblem (ROPTLIB ``Max_Iteration``).
    tol_init, tol_min : float, default=1e-1, 1e-6
        Gradient tolerance of the first and of the last subproblems; it shrinks by the factor
        (tol_min/tol_init)^(1/5) per outer iteration.  ‖V − V_prev‖_F ≤ 1e-6 at tolerance
        ``tol_min`` with MMD² ≤ τ stops the loop.
    rho_max : float, default=1e10
        The loop stops (without convergence) when ρ exceeds it.
    pos_label : int, float, bool or str, default=1
        The label y that counts as positive for ``"equal_opportunity"``/``"equalized_odds"``.
    random_state : int, RandomState instance or None, default=None
        Random orthonormal matrices of ``init="auxiliary"`` and the subsample of the bandwidth
        heuristic.  ``None`` is a fixed seed (0), so fits are reproducible.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows Vᵀ.  The objective only depends on span(V); the rows are rotated to
        the principal axes of VᵀAV (decreasing variance) with deterministic signs.
    mean_ : ndarray of shape (n_features,)
        Mean of the training rows; ``transform(X) = (X − mean_) @ components_.T``.
    explained_variance_ : ndarray of shape (n_components,)
        Variance (divisor n − 1) of the training rows along each component.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        ``explained_variance_ / tr(A)``; its sum is Lee et al.'s expvar (%Var / 100).
    bandwidth_ : float
        The kernel width σ used.
    rho_ : float
        The penalty of the last subproblem.
    mmd2_ : float
        MMD² of the training groups at the solution (sum of both terms for equalized odds).
    n_iter_ : int
        Outer iterations run.
    converged_ : bool
        Whether Lee et al.'s stopping rule was met (else a ``ConvergenceWarning`` was issued).
    n_components_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string column names.

    Notes
    -----
    Deviations from Lee et al.'s code: the Riemannian solver (numpy RBFGS with projection
    transport instead of ROPTLIB's RBFGS; same stopping criteria), the default start (V_pca
    instead of their random auxiliary start; ``init="auxiliary"`` is theirs, with numpy's
    random numbers), and the bandwidth subsample for n > 5000.  Their dead "restart with 5τ"
    block is not reproduced.  The problem is non-convex, so other starts can end in other
    local minima.  With the defaults, Lee et al.'s stored loadings are reproduced to < 0.02°
    (largest principal angle) for German credit at k = 2, τ = 10⁻³ on 9 of the 10 splits
    (split 5: 6°, another local minimum with lower variance and lower MMD²), at k = 2,
    τ = 10⁻⁶ and at k = 10, τ = 10⁻³ (splits 0, 1), and for COMPAS and Adult at k = 2,
    τ = 10⁻³ (split 0).  German at k = 10, τ = 10⁻⁶ does not meet the stopping rule (split 0:
    101 penalty iterations, ρ = 8·10⁹, training MMD² = 1.1·10⁻¹⁰ ≤ τ but V still moving by more
    than 10⁻⁶ between iterations) where Lee et al.'s run reached 6·10⁻⁷.

    At τ = 10⁻⁶ the penalty path is sensitive to rounding: ρ grows to 10⁹–10¹⁰, where the
    subproblems are ill-conditioned.  Changing only the summation order of the MMD² terms (the
    blocked kernel instead of the whole matrix, 10⁻¹⁵ relative) moved the result on every
    Adult and German split at k = 10 (explained variance by up to 8 % relative on Adult and
    170 % on German, whose runs stop without convergence) and on 2 of the 10 COMPAS splits at
    k = 2; at τ = 10⁻³ every representation stayed within 10⁻⁷ relative.  The τ = 10⁻⁶,
    k = 10 numbers are one local solution among several, not digits that every floating-point
    summation order (another BLAS kernel, another block size) reproduces.  The penalty loop runs
    on one BLAS thread (``fairlab._core.threads.limit_threads``): with two, German credit at k = 10,
    τ = 10⁻⁶ had ended at another local solution, and the fits were slower.

    ``sensitive_features=None`` fits standard PCA (with an ``UnconstrainedFallbackWarning``).

    References
    ----------
    * J. Lee, G. Kim, M. Olfat, M. Hasegawa-Johnson, C. D. Yoo. "Fast and efficient MMD-based
      fair PCA via optimization over Stiefel manifold." AAAI 2022.
    * W. Huang, K. A. Gallivan, P.-A. Absil. "A Broyden class of quasi-Newton methods for
      Riemannian optimization." SIAM J. Optim. 25(3), 2015 (RBFGS).
    * W. Huang, P.-A. Absil, K. A. Gallivan. "A Riemannian BFGS method without differentiated
      retraction for nonconvex optimization problems." SIAM J. Optim. 28(1), 2018 (the
      limited-memory version).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.mbfpca import MbFPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 60)
    >>> X = rng.normal(size=(120, 5)) + 2.0 * z[:, None] * np.eye(5)[0]
    >>> est = MbFPCA(n_components=2, tau=5e-3).fit(X, sensitive_features=z)
    >>> bool(est.converged_ and est.mmd2_ <= 5e-3), est.components_.shape
    (True, (2, 5))
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "tau": [Interval(Real, 0, None, closed="neither")],
        "fairness": [StrOptions({"demographic_parity", "equal_opportunity", "equalized_odds"})],
        "bandwidth": [Interval(Real, 0, None, closed="neither"), None],
        "rho0": [Interval(Real, 0, None, closed="neither"), None],
        "init": [StrOptions({"auxiliary", "pca"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "max_inner_iter": [Interval(Integral, 1, None, closed="left")],
        "tol_init": [Interval(Real, 0, None, closed="neither")],
        "tol_min": [Interval(Real, 0, None, closed="neither")],
        "rho_max": [Interval(Real, 0, None, closed="neither")],
        "pos_label": [Real, str, "boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components=2,
        *,
        tau=1e-3,
        fairness="demographic_parity",
        bandwidth=None,
        rho0=None,
        init="pca",
        max_iter=100,
        max_inner_iter=300,
        tol_init=1e-1,
        tol_min=1e-6,
        rho_max=1e10,
        pos_label=1,
        random_state=None,
    ):
        self.n_components = n_components
        self.tau = tau
        self.fairness = fairness
        self.bandwidth = bandwidth
        self.rho0 = rho0
        self.init = init
        self.max_iter = max_iter
        self.max_inner_iter = max_inner_iter
        self.tol_init = tol_init
        self.tol_min = tol_min
        self.rho_max = rho_max
        self.pos_label = pos_label
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit MbF-PCA.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (centred internally, not scaled, as Lee et al.).
        y : array-like of shape (n_samples,), default=None
            Labels; needed for ``fairness="equal_opportunity"`` / ``"equalized_odds"``.
        sensitive_features : array-like of shape (n_samples,)
            Exactly two groups (any hashable labels), at least two rows each.  ``None`` fits
            standard PCA and warns.

        Returns
        -------
        self : MbFPCA
        """
        reject_bool(self.n_components)
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        n, d = X.shape
        k = check_n_components(self.n_components, min(n, d),
                               bound_text=f"min(n_samples, n_features) = min({n}, {d})")
        rng = check_random_state(as_seed(self.random_state))
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        A = Xc.T @ Xc / (n - 1)
        total = float(np.trace(A))
        _, V_pca = _top_eigenvectors(A, k)
        self.n_components_ = k

        if sensitive_features is None:
            warn_unconstrained(self, "PCA")
            self.bandwidth_, self.rho_, self.mmd2_ = None, None, None
            self.n_iter_, self.converged_ = 0, True
            self._set_components(V_pca, Xc, A, total)
            return self

        pairs = self._group_pairs(Xc, y, sensitive_features)
        if self.bandwidth is None:
            Y = Xc @ V_pca
            if n > _MEDIAN_MAX_ROWS:
                Y = Y[rng.choice(n, _MEDIAN_MAX_ROWS, replace=False)]
            sigma = float(np.sqrt(np.median(pdist(Y, "sqeuclidean")) / 2.0))
            if not sigma > 0:
                raise ValueError(
                    "bandwidth=None: the median pairwise distance of the PCA projection is 0, "
                    "so the median heuristic gives no kernel width; pass bandwidth=..."
                )
        else:
            sigma = float(self.bandwidth)
        penalties = [_MMDPenalty(X1, X0, sigma) for X1, X0 in pairs]

        def mmd(V):
            return sum(p.value(V) for p in penalties)

        def penalty_and_grad(V):
            value, grad = 0.0, np.zeros_like(V)
            for p in penalties:
                v, g = p.value_and_grad(V)
                value, grad = value + v, grad + g
            return value, grad

        if self.rho0 is None:
            m0 = mmd(V_pca)
            rho = 1.0 / m0 if m0 > 0 else 1.0
        else:
            rho = float(self.rho0)

        # Thousands of small BLAS calls, whose rounding the penalty loop amplifies (_common).
        with limit_threads():
            if self.init == "pca":
                V = V_pca
            else:
                candidates = [retract(rng.standard_normal((d, k)), 0.0) for _ in range(11)]
                V = max(candidates, key=lambda W: np.einsum("ij,ij->", W, A @ W))
                V = rbfgs(penalty_and_grad, V, tol=1e-6, max_iter=500, relative=True)[0]

            tol = float(self.tol_init)
            tol_min = float(self.tol_min)
            shrink = (tol_min / tol) ** (1.0 / 5.0) if tol > tol_min else 1.0
            converged = False
            for it in range(1, self.max_iter + 2):

                def cost(W, rho=rho):
                    AW = A @ W
                    pen, gpen = penalty_and_grad(W)
                    return (-np.einsum("ij,ij->", W, AW) / total + rho * pen,
                            -2.0 * AW / total + rho * gpen)

                V_new = rbfgs(cost, V, tol=tol, max_iter=self.max_inner_iter)[0]
                dist = float(np.linalg.norm(V_new - V))
                violated = any(p.value(V_new) > self.tau for p in penalties)
                V = V_new
                if dist <= 1e-6 and tol <= tol_min and not violated:
                    converged = True
                    break
                if rho > self.rho_max or it == self.max_iter + 1:
                    break
                tol = max(tol_min, shrink * tol)
                if violated:
                    rho *= 2.0
        if not converged:
            warnings.warn(
                f"MbFPCA did not meet Lee et al.'s stopping rule after {it} outer iterations "
                f"(rho = {rho:.3g}, MMD² = {mmd(V):.3g}, tau = {self.tau:g}); increase max_iter "
                "or tau.",
                ConvergenceWarning,
                stacklevel=3,  # the caller of fit
            )
        self.bandwidth_, self.rho_, self.mmd2_ = sigma, rho, mmd(V)
        self.n_iter_, self.converged_ = it, converged
        self._set_components(V, Xc, A, total)
        return self

    def _group_pairs(self, Xc, y, sensitive_features):
        """(X₁, X₀) row blocks of the two groups, one pair per MMD² term."""
        n = Xc.shape[0]
        groups = check_groups(sensitive_features, n, min_group_size=2)
        if groups.codes.shape[1] != 1 or groups.n_groups[0] != 2:
            raise ValueError(
                "MbFPCA compares exactly two groups of one sensitive attribute (Lee et al.'s "
                f"MMD between z = 0 and z = 1); got {groups.n_groups} groups. Binarise the "
                "attribute (e.g. privileged vs the rest)."
            )
        codes = groups.codes[:, 0]
        if self.fairness == "demographic_parity":
            return [(Xc[codes == 1], Xc[codes == 0])]
        if y is None:
            raise ValueError(
                f"fairness={self.fairness!r} compares the groups among rows with the same label, "
                "so fit needs y; pass fit(X, y, sensitive_features=...)."
            )
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise ValueError(f"y must be 1-D with one label per row of X ({n}); got {y.shape}.")
        positive = y == self.pos_label
        masks = [positive] if self.fairness == "equal_opportunity" else [positive, ~positive]
        pairs = []
        for mask in masks:
            g1, g0 = mask & (codes == 1), mask & (codes == 0)
            if g1.sum() < 2 or g0.sum() < 2:
                raise ValueError(
                    f"fairness={self.fairness!r}: each group needs at least 2 rows with "
                    f"{'y == ' if mask is positive else 'y != '}pos_label={self.pos_label!r}; "
                    f"found {int(g1.sum())} and {int(g0.sum())}. Check pos_label."
                )
            pairs.append((Xc[g1], Xc[g0]))
        return pairs

    def _set_components(self, V, Xc, A, total):
        w, R = linalg.eigh(V.T @ A @ V, check_finite=False)
        V = flip_signs(V @ R[:, ::-1])
        self.components_ = np.ascontiguousarray(V.T)
        XV = Xc @ V
        self.explained_variance_ = np.einsum("ij,ij->j", XV, XV) / (Xc.shape[0] - 1)
        self.explained_variance_ratio_ = (
            self.explained_variance_ / total if total > 0 else np.zeros(V.shape[1])
        )
