r"""Fair PCA of Samadi et al. (NeurIPS 2018): equal reconstruction losses for two groups.

Samadi, Tantipongpipat, Morgenstern, Singh and Vempala measure a projection P (d×d, rank k) by
each group's *loss*, its reconstruction error in excess of the best it could get alone,

.. math::

    L_g(P) = \frac{1}{m_g}\Big(\|A_g - A_g P\|_F^2 - \|A_g - \hat A_g\|_F^2\Big)
           = \frac{\alpha_g - \langle A_g^\top A_g, P\rangle}{m_g},

with A_g the m_g rows of group g centred at their own mean, Â_g their best rank-k approximation
and α_g = ‖Â_g‖²_F (the sum of the k largest eigenvalues of A_gᵀA_g), and solve
min_P max(L₀(P), L₁(P)).  They show that at an optimum the two losses are equal, relax the
problem to the SDP

.. math::

    \min_{z,\,P} z \quad\text{s.t.}\quad z \ge \frac{\alpha_g - \langle A_g^\top A_g, P\rangle}{m_g}
    \;(g = 0, 1),\quad \operatorname{tr} P \le k,\quad 0 \preceq P \preceq I,

and turn its solution P̂ = Σ_j λ̂_j u_j u_jᵀ into one of rank ≤ k + 1 with a linear program over
the eigenvalues (their Algorithm 1): min z s.t. z ≥ (α_g − Σ_j λ_j u_jᵀA_gᵀA_g u_j)/m_g,
Σ_j λ_j ≤ k, 0 ≤ λ ≤ 1; at a vertex at most two λ_j are fractional.

Default solver: eigenvalue optimisation (Shen, Davis, Lu & Bai 2025).  For two groups the
joint range {(⟨C₀, UUᵀ⟩, ⟨C₁, UUᵀ⟩) : UᵀU = I_k} is convex (the "hidden convexity"), so the
rank-k problem has no duality gap and equals its Lagrangian dual, a concave maximisation in one
weight w ∈ [0, 1]:

.. math::

    \min_{U^\top U = I_k} \max_g L_g(UU^\top)
    = \max_{w \in [0, 1]} \; g(w),\qquad
    g(w) = w\beta_0 + (1 - w)\beta_1 - \sum_{i \le k} \lambda_i\big(wC_0 + (1 - w)C_1\big),

(C_g = A_gᵀA_g/m_g, β_g = α_g/m_g).  With U(w) the top-k eigenvectors of M(w) = wC₀ + (1 − w)C₁,
h(w) = L₀(U(w)) − L₁(U(w)) is a supergradient of g, non-increasing, h(0) ≥ 0 ≥ h(1)::

    bracket the root of h on [0, 1]: regula falsi (Illinois) with bisection safeguards,
        each step one top-k eigendecomposition of M(w)
    stop when max_g L_g(U(w)) − max_w g(w) ≤ 1e-14 (a duality gap: both bounds are certified)
    if h jumps over 0 at w* (λ_k = λ_{k+1} of M(w*)): U on the Grassmann geodesic between the
        two bracketing subspaces where L₀ = L₁ (bisection; h is continuous along it)

Each evaluated U is feasible and each g(w) a lower bound, so ``duality_gap_`` certifies the
result; the tests hold it against the SDP on every instance.  Cost: about ten partial
eigendecompositions of a d × d matrix (the solver's count is bounded by ``_MAX_EVALS``).

SDP solvers (``solver="scs"`` or ``"clarabel"``, Samadi et al.'s algorithm)::

    A_g = X_g − mean(X_g);  C_g = A_gᵀA_g / m_g;  β_g = sum of the top-k eigenvalues of C_g
    SDP (cvxpy):  P̂ = argmin z  s.t. z ≥ β_g − ⟨C_g, P⟩, tr P ≤ k, 0 ⪯ P ⪯ I
    P̂ = Σ λ̂_j u_j u_jᵀ;  c_gj = u_jᵀC_g u_j
    LP (HiGHS dual simplex → a vertex):  λ* = argmin z  s.t. z ≥ β_g − Σ_j λ_j c_gj,
                                          Σ λ_j ≤ k, 0 ≤ λ ≤ 1
    O = {j : λ*_j = 1},  F = {j : 0 < λ*_j < 1}                 # |F| ≤ 2
    if |O| = k: U = u_O
    elif |O| = k − 1 and |F| = 2:                                # rank k + 1 → rank k
        U = [u_O, v],  v = argmin_{v ∈ span(u_F), ‖v‖=1} max_g (β_g − ⟨C_g, u_O u_Oᵀ + vvᵀ⟩)
    else (rank < k): U = u_{O ∪ F} + top eigenvectors of C₀ + C₁ orthogonal to them

The rank-k step is exact: with v = cos(φ/2)u_a + sin(φ/2)u_b each loss is a sinusoid
a_g + b_g cos φ + c_g sin φ, so the minimum of their maximum is at the minimum of one of them or
where they cross (closed form).  It attains the SDP value — for two groups the SDP has an
optimal solution that is a rank-k projection (Tantipongpipat et al. 2019, via Pataki's bound on
extreme points) — so the k-dimensional result has equal losses L₀ = L₁ = the SDP optimum, up to
the solver's tolerance, instead of Samadi et al.'s k + 1 dimensions.

Cost of the SDP route: one d×d SDP (PSD cones of size d), O(d³) per solver iteration; an LP
with d + 1 variables.  (Samadi et al.'s code uses multiplicative weights, and then the
non-projection I − sqrtm(I − P) as the linear map; fairlab returns a projection.)
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral

import numpy as np
from scipy import linalg
from scipy.optimize import linprog
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from .._core.linalg import flip_signs, top_principal_axes
from .._core.validation import check_n_components
from ._common import LinearProjection, validate_fit_input
from ._sdp import CVXPY_SOLVERS, import_cvxpy, solve, top_eigenvectors, two_groups

__all__ = ["SamadiFairPCA"]

_FRACTIONAL_TOL = 1e-7  # λ within this of 0 or 1 counts as integral (LP vertices are exact)
_GAP_TOL = 1e-14  # stop the eigenvalue optimisation at this duality gap (losses scaled to ≤ 1)
_GAP_WARN = 1e-9  # warn above this gap: the dual search certifies far below it
_MAX_EVALS = 200  # eigendecompositions of the dual search: far above what it needs
_RANK_TOL = 1e-12  # eigenvalues of C₀ + C₁ below this times the largest count as 0 (rank ≤ k)


def _group_losses(P, C, beta):
    """L_g(P) = β_g − ⟨C_g, P⟩ for each group (C_g = A_gᵀA_g/m_g, β_g = α_g/m_g)."""
    return np.array([b - np.einsum("ij,ij->", Cg, P) for Cg, b in zip(C, beta)])


def _best_in_plane(Ua, C, base):
    """Unit v ∈ span(Ua) (d × 2) minimising max_g (base_g − vᵀC_g v); returns v and the losses.

    With v(φ) = cos(φ/2)a + sin(φ/2)b, vᵀC_g v = p_g + r_g cos φ + s_g sin φ.  The minimum of the
    maximum of the two losses is attained at the minimiser of one loss or where they are equal.
    """
    coef = []
    for Cg in C:
        M = Ua.T @ Cg @ Ua
        coef.append(((M[0, 0] + M[1, 1]) / 2, (M[0, 0] - M[1, 1]) / 2, M[0, 1]))

    def losses(phi):
        return np.array([b - (p + r * np.cos(phi) + s * np.sin(phi))
                         for b, (p, r, s) in zip(base, coef)])

    candidates = [np.arctan2(s, r) for _, r, s in coef]  # each loss at its minimum
    # L₀ = L₁  ⇔  (r₀ − r₁) cos φ + (s₀ − s₁) sin φ = (b₀ − p₀) − (b₁ − p₁)
    dr, ds = coef[0][1] - coef[1][1], coef[0][2] - coef[1][2]
    rhs = (base[0] - coef[0][0]) - (base[1] - coef[1][0])
    amp = np.hypot(dr, ds)
    if amp > 0 and abs(rhs) <= amp:
        psi, half = np.arctan2(ds, dr), np.arccos(np.clip(rhs / amp, -1.0, 1.0))
        candidates += [psi + half, psi - half]
    phi = min(candidates, key=lambda c: losses(c).max())
    v = np.cos(phi / 2) * Ua[:, 0] + np.sin(phi / 2) * Ua[:, 1]
    return v, losses(phi)


class SamadiFairPCA(LinearProjection):
    r"""Fair PCA of Samadi et al. (2018): a rank-k projection with equal group losses.

    Minimises the larger of the two groups' average excess reconstruction errors
    L_g(P) = (‖A_g − A_gP‖²_F − ‖A_g − Â_g‖²_F)/m_g (each group measured against its own best
    rank-k approximation Â_g) over rank-k orthogonal projections P = UUᵀ, by the SDP relaxation
    by default with Shen et al.'s eigenvalue optimisation of the (gap-free) dual; optionally by
    the SDP relaxation and the linear program of Samadi et al., followed by an exact step from
    their rank-(k+1) solution to rank k (module docstring).  At the solution the two losses are
    equal.  Two groups only; the SDP solvers need cvxpy.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k (at most d).
    solver : {"eigen", "scs", "clarabel"}, default="eigen"
        ``"eigen"``: Shen et al.'s eigenvalue optimisation (exact, no cvxpy; module
        docstring).  ``"scs"``/``"clarabel"``: Samadi et al.'s SDP with cvxpy, then their LP
        and the exact rank-k step.  SCS (first order) with the tolerance below is accurate
        here; the interior-point Clarabel is as accurate but its cost grows steeply with d.
    solver_options : dict or None, default=None
        Extra keyword arguments of ``cvxpy.Problem.solve``, SDP solvers only (SCS defaults:
        ``eps_abs=eps_rel=1e-8, max_iters=100000``; at SCS's usual 1e-6 the two losses can
        differ by 1e-4 relative).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows U, sorted by decreasing variance of the training rows, deterministic
        signs.
    mean_ : ndarray of shape (n_features,)
        Mean of the training rows; ``transform(X) = (X − mean_) @ components_.T``.  (The losses
        centre each group at its own mean, as Samadi et al.; an offset does not change them.)
    losses_ : ndarray of shape (2,)
        L_g(UUᵀ) of the two groups (in the order of their sorted labels) at the solution.
    pca_losses_ : ndarray of shape (2,)
        The same losses for standard PCA on all rows (rank k), for comparison.
    sdp_losses_ : ndarray of shape (2,) or None
        The losses at the SDP solution P̂ (a lower bound on max ``losses_`` up to tolerance);
        None for ``solver="eigen"``.
    sdp_solution_ : ndarray of shape (n_features, n_features) or None
        P̂ (SDP solvers only).
    lp_weights_ : ndarray of shape (n_features,) or None
        λ* of the linear program (eigenvalues of Samadi et al.'s rank ≤ k + 1 solution; SDP
        solvers only).
    lp_rank_ : int or None
        Number of nonzero λ* (k or k + 1 for two groups; SDP solvers only).
    rounding_ : {"range", "eigenvector", "geodesic", "exact", "plane", "filled", "largest"}
        How the rank-k projection was obtained.  ``"range"``: C₀ + C₁ has rank r ≤ k, both
        losses are 0 on any U containing its range, and the k − r other directions are those of
        the most variance of all rows (see Notes; no solver runs).  ``"eigen"``: top-k
        eigenvectors of M(w*) ("eigenvector") or the geodesic step at a tie ("geodesic").
        SDP: λ* was already integral ("exact"); the exact plane step ("plane"); λ* had rank < k
        and was completed ("filled"); or the fallback, with a warning, of keeping the k largest
        λ* ("largest").
    dual_weight_ : float or None
        The maximiser w* of the dual g(w) (``solver="eigen"`` only).
    duality_gap_ : float or None
        max_g L_g − max_w g(w) at the end, in units of the larger total group variance
        (``solver="eigen"`` only; ≤ 1e-14 unless a ConvergenceWarning was issued).
    solver_status_ : str
        ``"optimal"`` for ``"eigen"`` (``"optimal_inaccurate"`` with a warning if the gap
        stayed above 1e-9); the cvxpy status of the SDP otherwise.
    explained_variance_ : ndarray of shape (n_components,)
        Variance (divisor n − 1) of the training rows along each component.
    n_components_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string column names.

    Notes
    -----
    The default solver is Shen et al.'s: the dual in one weight is maximised with partial
    eigendecompositions, certified by its duality gap, and needs no cvxpy.  Measured against
    Samadi et al.'s SDP (tests: offsets, scales 1e-6 to 1e5, 5 vs 200 rows, d > n, k = 1 and
    d, collinear columns, an exact eigenvalue tie) it reaches the same maximum loss to 1e-6
    relative, and never a larger one.

    Samadi et al. show that the LP vertex has rank at most k + 1 and that its loss is at most
    that of the best rank-k projection; Tantipongpipat et al. (2019) that for two groups an
    optimal rank-k projection exists.  fairlab extracts it from the LP vertex: when two λ* are
    fractional (they then sum to 1), the (k+1)-th direction is replaced by the best unit vector
    of their plane — the maximum of two sinusoids minimised in closed form — which keeps the
    SDP value.  The result is verified by the tests: equal losses to solver tolerance, and a
    maximum loss no larger than PCA's.

    When the group-centred covariances have a joint range of dimension r ≤ k (k at or above
    the rank of the data, e.g. collinear one-hot columns: Lee et al.'s COMPAS has r = 8 of
    d = 11 at k = 10), every U containing that range is optimal with L₀ = L₁ = 0, and the
    remaining k − r directions do not enter the objective.  They are chosen by one rule for both
    solvers — the top eigenvectors of the total scatter XcᵀXc orthogonal to the range (the
    variance between the group means first) — instead of by the rounding of a solver, which
    made the result depend on the BLAS kernel.  Directions of zero variance that remain tied
    are arbitrary and project every training row to 0.  The rank r is decided numerically:
    eigenvalues of C₀ + C₁ below 10⁻¹² times the largest count as 0.

    ``sensitive_features=None`` fits standard PCA (with an ``UnconstrainedFallbackWarning``).

    References
    ----------
    * S. Samadi, U. Tantipongpipat, J. Morgenstern, M. Singh, S. Vempala. "The price of fair
      PCA: one extra dimension." NeurIPS 2018.
    * U. Tantipongpipat, S. Samadi, M. Singh, J. Morgenstern, S. Vempala. "Multi-criteria
      dimensionality reduction with applications to fairness." NeurIPS 2019.
    * J. Shen, A. J. Davis, D. Lu, Z. Bai. "Hidden convexity of fair PCA and fast solver via
      eigenvalue optimization." arXiv:2503.00299, 2025.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.samadi import SamadiFairPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 60)
    >>> X = rng.normal(size=(120, 6)) * np.where(z[:, None] == 1, [3, 1, 1, 1, 1, 1], 1)
    >>> est = SamadiFairPCA(n_components=2).fit(X, sensitive_features=z)
    >>> bool(abs(est.losses_[0] - est.losses_[1]) < 1e-9 * est.losses_.max())
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "solver": [StrOptions({"eigen", *CVXPY_SOLVERS})],
        "solver_options": [dict, None],
    }

    def __init__(self, n_components=2, *, solver="eigen", solver_options=None):
        self.n_components = n_components
        self.solver = solver
        self.solver_options = solver_options

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit Samadi et al.'s fair PCA.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : None
            Ignored.
        sensitive_features : array-like of shape (n_samples,)
            Exactly two groups (any hashable labels), at least two rows each.  ``None`` fits
            standard PCA and warns.

        Returns
        -------
        self : SamadiFairPCA
        """
        X, groups = validate_fit_input(self, X, sensitive_features)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        if groups is None:
            k = check_n_components(self.n_components, min(n, d),
                                   bound_text=f"min(n_samples, n_features) = min({n}, {d})")
            self._set_components(top_principal_axes(Xc, k), Xc)
            for name in ("losses_", "pca_losses_", "sdp_losses_", "sdp_solution_",
                         "lp_weights_", "lp_rank_", "rounding_", "solver_status_",
                         "dual_weight_", "duality_gap_"):
                setattr(self, name, None)
            return self

        k = check_n_components(self.n_components, d, bound_text="n_features")
        z = two_groups(self, groups)
        C, beta = [], []
        for mask in (~z, z):
            A = X[mask] - X[mask].mean(axis=0)
            Cg = A.T @ A / A.shape[0]
            C.append(0.5 * (Cg + Cg.T))
            beta.append(float(np.sum(linalg.eigvalsh(Cg, check_finite=False)[::-1][:k])))
        beta = np.array(beta)
        # one common scale (the larger total group variance) keeps both solvers well conditioned
        unit = max(float(np.trace(Cg)) for Cg in C) or 1.0
        Cs, bs = [Cg / unit for Cg in C], beta / unit

        for name in ("sdp_losses_", "sdp_solution_", "lp_weights_", "lp_rank_",
                     "dual_weight_", "duality_gap_"):
            setattr(self, name, None)
        joint_range = _joint_range_within_k(Cs, k)
        if joint_range is not None:
            U = _fill(joint_range, Xc.T @ Xc, k)
            self.rounding_, self.solver_status_ = "range", "optimal"
            if self.solver == "eigen":  # L₀ = L₁ = 0 = g(w) for every w
                self.dual_weight_ = 0.0
                self.duality_gap_ = max(float(_losses(U, Cs, bs).max()), 0.0)
        elif self.solver == "eigen":
            U = self._fit_eigen(Cs, bs, k)
        else:
            U = self._fit_sdp(Cs, bs, C, beta, k)
        self.losses_ = _group_losses(U @ U.T, C, beta)
        V = top_principal_axes(Xc, k)
        self.pca_losses_ = _group_losses(V @ V.T, C, beta)
        self._set_components(U, Xc)
        return self

    def _fit_eigen(self, Cs, bs, k):
        """Shen et al.'s eigenvalue optimisation (module docstring); returns U (d × k)."""
        U, w, gap, self.rounding_ = _eigenvalue_optimisation(Cs, bs, k)
        self.dual_weight_, self.duality_gap_, self.solver_status_ = w, gap, "optimal"
        if gap > _GAP_WARN * max(1.0, float(np.max(bs))):
            self.solver_status_ = "optimal_inaccurate"
            warnings.warn(
                f"SamadiFairPCA: the eigenvalue optimisation stopped with a duality gap of "
                f"{gap:.2g} (relative to the data's scale); try solver='clarabel'.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return U

    def _fit_sdp(self, Cs, bs, C, beta, k):
        """Samadi et al.'s SDP relaxation, their LP, and the exact rank-k step (module docs)."""
        cp = import_cvxpy(self, self.solver)
        d = Cs[0].shape[0]
        # --- SDP relaxation -------------------------------------------------------------
        P = cp.Variable((d, d), symmetric=True)
        t = cp.Variable()
        constraints = [P >> 0, np.eye(d) - P >> 0, cp.trace(P) <= k]
        constraints += [t >= b - cp.trace(Cg @ P) for Cg, b in zip(Cs, bs)]
        problem = cp.Problem(cp.Minimize(t), constraints)
        self.solver_status_ = solve(problem, self.solver, self.solver_options, self,
                                     scs_eps=1e-8, scs_max_iters=100000)
        P_hat = 0.5 * (P.value + P.value.T)
        self.sdp_solution_ = P_hat
        self.sdp_losses_ = _group_losses(P_hat, C, beta)

        # --- Samadi et al.'s LP over the eigenvalues of P̂ (a vertex: rank ≤ k + 1) -------
        _, Ue = linalg.eigh(P_hat, check_finite=False)
        Ue = Ue[:, ::-1]
        c = np.array([np.einsum("ij,ij->j", Ue, Cg @ Ue) for Cg in Cs])  # c_gj = u_jᵀC_g u_j
        # variables (λ₁..λ_d, z): min z s.t. −c_g·λ − z ≤ −β_g, Σλ ≤ k, 0 ≤ λ ≤ 1
        A_ub = np.vstack([np.hstack([-c, -np.ones((2, 1))]),
                          np.hstack([np.ones((1, d)), np.zeros((1, 1))])])
        b_ub = np.concatenate([-bs, [k]])
        lp = linprog(np.r_[np.zeros(d), 1.0], A_ub=A_ub, b_ub=b_ub,
                     bounds=[(0.0, 1.0)] * d + [(None, None)], method="highs-ds")
        if lp.status != 0:
            raise RuntimeError(f"SamadiFairPCA: the linear program failed ({lp.message}).")
        lam = np.clip(lp.x[:d], 0.0, 1.0)
        self.lp_weights_ = lam
        self.lp_rank_ = int(np.sum(lam > _FRACTIONAL_TOL))

        # --- a rank-k projection ---------------------------------------------------------
        ones = np.flatnonzero(lam >= 1.0 - _FRACTIONAL_TOL)
        frac = np.flatnonzero((lam > _FRACTIONAL_TOL) & (lam < 1.0 - _FRACTIONAL_TOL))
        if ones.size == k and frac.size == 0:
            U, self.rounding_ = Ue[:, ones], "exact"
        elif ones.size == k - 1 and frac.size == 2:
            base = bs - np.array([np.sum(c[g, ones]) for g in range(2)])
            v, _ = _best_in_plane(Ue[:, frac], Cs, base)
            U, self.rounding_ = np.column_stack([Ue[:, ones], v]), "plane"
        elif ones.size + frac.size <= k:
            U = Ue[:, np.concatenate([ones, frac])]
            U, self.rounding_ = _fill(U, Cs[0] + Cs[1], k), "filled"
        else:
            warnings.warn(
                f"SamadiFairPCA: the LP solution has {ones.size} unit and {frac.size} "
                f"fractional weights (expected {k - 1} and 2); keeping the {k} largest.",
                RuntimeWarning,
                stacklevel=2,
            )
            U, self.rounding_ = Ue[:, np.argsort(-lam, kind="stable")[:k]], "largest"
        return U

    def _set_components(self, U, Xc):
        """Rotate U to the principal axes of the training rows inside span(U); store them."""
        U = linalg.qr(U, mode="economic", check_finite=False)[0]
        XU = Xc @ U
        _, R = linalg.eigh(XU.T @ XU, check_finite=False)
        U = flip_signs(U @ R[:, ::-1])
        self.components_ = np.ascontiguousarray(U.T)
        self.n_components_ = U.shape[1]
        XU = Xc @ U
        self.explained_variance_ = np.einsum("ij,ij->j", XU, XU) / (Xc.shape[0] - 1)


def _losses(U, C, b):
    """L_g(UUᵀ) = b_g − tr(UᵀC_gU) of both groups, without forming UUᵀ."""
    return np.array([bg - np.einsum("ij,ij->", U, Cg @ U) for Cg, bg in zip(C, b)])


def _eigenvalue_optimisation(C, b, k):
    r"""Solve min_U max_g L_g(UUᵀ) over d × k orthonormal U through its concave dual in one weight.

    With M(w) = wC₀ + (1 − w)C₁ and U(w) its top-k eigenvectors, the dual function
    g(w) = w b₀ + (1 − w) b₁ − Σ_{i≤k} λ_i(M(w)) = w L₀(U(w)) + (1 − w) L₁(U(w)) is concave
    and h(w) = L₀(U(w)) − L₁(U(w)) is a supergradient, non-increasing in w, with h(0) ≥ 0 ≥
    h(1).  Every evaluated U is primal feasible and every g(w) a lower bound (weak duality), so
    max_g L_g(U) − max_w g(w) certifies the result.  The root of h is bracketed and found by
    regula falsi (Illinois variant) with bisection steps; where h jumps over 0 (the k-th and
    (k+1)-th eigenvalues of M(w*) cross), the two bracketing subspaces are joined by the
    Grassmann geodesic, along which h is continuous and the Lagrangian stays at g(w*), and the
    point with h = 0 is found by bisection.

    Returns (U, w*, duality gap, how U was found: ``"eigenvector"`` or ``"geodesic"``).
    """
    D = C[0] - C[1]

    def at(w):
        U = top_eigenvectors(C[1] + w * D, k)[1]
        L = _losses(U, C, b)
        return U, L, L[0] - L[1], w * L[0] + (1.0 - w) * L[1]

    scale = max(1.0, float(np.max(np.abs(b))))
    lo, hi = at(0.0), at(1.0)
    w_lo, w_hi = 0.0, 1.0
    best_U, best_primal, best_w = None, np.inf, 0.0
    dual = max(lo[3], hi[3])
    for w, (U, L, _, _) in ((w_lo, lo), (w_hi, hi)):
        if L.max() < best_primal:
            best_U, best_primal, best_w = U, L.max(), w
    h_lo, h_hi = lo[2], hi[2]  # Illinois: the stored ends' h, halved when an end is kept
    side, width = 0, 1.0
    for n_eval in range(_MAX_EVALS):
        if best_primal - dual <= _GAP_TOL * scale or lo[2] <= 0.0 or hi[2] >= 0.0:
            break
        if w_hi - w_lo <= 4 * np.finfo(float).eps:
            break  # h jumps over 0 here: the geodesic below
        w = (w_lo * h_hi - w_hi * h_lo) / (h_hi - h_lo)
        if n_eval % 3 == 2 and w_hi - w_lo > 0.5 * width or not w_lo < w < w_hi:
            w = 0.5 * (w_lo + w_hi)  # bisection whenever false position stalls
        if n_eval % 3 == 2:
            width = w_hi - w_lo
        cur = at(w)
        dual = max(dual, cur[3])
        if cur[1].max() < best_primal:
            best_U, best_primal, best_w = cur[0], cur[1].max(), w
        if cur[2] > 0:
            lo, w_lo, h_lo = cur, w, cur[2]
            h_hi = h_hi * 0.5 if side == 1 else h_hi
            side = 1
        else:
            hi, w_hi, h_hi = cur, w, cur[2]
            h_lo = h_lo * 0.5 if side == -1 else h_lo
            side = -1
    if best_primal - dual <= _GAP_TOL * scale or lo[2] <= 0.0 or hi[2] >= 0.0:
        return best_U, best_w, max(best_primal - dual, 0.0), "eigenvector"
    U = _equalise_on_geodesic(lo[0], hi[0], C, b)
    primal = _losses(U, C, b).max()
    if primal < best_primal:
        best_U, best_primal, kind = U, primal, "geodesic"
    else:
        kind = "eigenvector"
    return best_U, 0.5 * (w_lo + w_hi), max(best_primal - dual, 0.0), kind


def _equalise_on_geodesic(U0, U1, C, b):
    r"""U on the Grassmann geodesic from span U0 (h > 0) to span U1 (h < 0) with h = L₀ − L₁ = 0.

    With the principal vectors A = U0 Y, B = U1 Z (U0ᵀU1 = Y cos Θ Zᵀ) and N the normalised
    part of B orthogonal to span U0, the geodesic is U(s) = A cos(sΘ) + N sin(sΘ); h(U(s)) is
    continuous with opposite signs at s = 0, 1, and bisection finds its zero.
    """
    Y, cos, Zt = linalg.svd(U0.T @ U1, check_finite=False)
    A, B = U0 @ Y, U1 @ Zt.T
    theta = np.arccos(np.clip(cos, -1.0, 1.0))
    N = B - A @ (A.T @ B)
    norms = np.linalg.norm(N, axis=0)
    N = np.divide(N, norms, out=np.zeros_like(N), where=norms > 1e-12)

    def point(s):
        return A * np.cos(s * theta) + N * np.sin(s * theta)

    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        L = _losses(point(mid), C, b)
        if L[0] == L[1]:
            return point(mid)
        lo, hi = (mid, hi) if L[0] > L[1] else (lo, mid)
    L_lo, L_hi = _losses(point(lo), C, b), _losses(point(hi), C, b)
    return point(lo) if L_lo.max() <= L_hi.max() else point(hi)


def _joint_range_within_k(C, k):
    """An orthonormal basis of range(C₀ + C₁) if its dimension r is at most k, else None.

    Then every U ⊇ range(C₀ + C₁) gives L₀ = L₁ = 0, the minimum (each group's variance lies
    in it, and has rank ≤ k), and the optimum is not one subspace: k − r directions are free.
    The solvers would pick them by rounding (on Lee et al.'s COMPAS splits at k = 10, r = 8:
    the explained variance of the result moved between 90 % and 99.99 % with the BLAS kernel),
    so they are chosen by a rule instead (:func:`_fill` with the total scatter: the most
    variance of all rows, e.g. the direction between the group means).
    """
    mu, W = linalg.eigh(C[0] + C[1], check_finite=False)
    keep = mu > _RANK_TOL * mu[-1]
    return W[:, keep] if np.count_nonzero(keep) <= k else None


def _fill(U, C, k):
    """Complete the orthonormal columns U to k with the top eigenvectors of C in U^⊥."""
    missing = k - U.shape[1]
    if missing <= 0:
        return U
    P = np.eye(C.shape[0]) - U @ U.T
    M = P @ C @ P
    d = C.shape[0]
    # the directions of U get eigenvalue −1 < 0 ≤ any admissible one (C is PSD)
    M -= U @ U.T
    _, W = linalg.eigh(0.5 * (M + M.T), subset_by_index=[d - missing, d - 1], check_finite=False)
    return np.column_stack([U, W - U @ (U.T @ W)])
