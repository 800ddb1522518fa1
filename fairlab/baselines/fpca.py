r"""FPCA: fair PCA as a semidefinite program (Olfat & Aswani, AAAI 2019).

Olfat and Aswani relax PCA to the Fantope {P : 0 ⪯ P ⪯ I, tr P = k} and add two fairness
constraints for two groups: the projected group means must (nearly) coincide, and the group
covariances must be (nearly) equal along the projection.  The formulation that Lee et al. (2022)
ran — and whose loading matrices Kleindessner et al. (2023) report as "FPCA (0.1, 0.01)" and
"FPCA (0, 0.01)", the numbers being (δ, μ) — is, with X centred (and, in their code, each column
scaled to unit variance), N = ‖X‖_F, f = x̄₁ − x̄₀, Σ_g = X_gᵀ(I − 11ᵀ/n_g)X_g/n_g, S = Σ₁ − Σ₀,

.. math::

    \begin{aligned}
    \min_{P,\,t_\pm \ge 0}\;& -\frac{\langle X^\top X, P\rangle}{nN} + \mu\,(t_+ + t_-)
    \quad\text{s.t.}\quad \operatorname{tr}P = k,\; 0 \preceq P \preceq I,\\
    & f^\top P f \le \delta^2 \;(= 0 \text{ if } \delta = 0),\;
    t_\pm \ge \lambda_{\max}\big(P(\pm S + c_\pm I)P\big),
    \end{aligned}

c₊ = max(0, −λ_min(S)), c₋ = max(0, λ_max(S)) (so that ±S + c±I ⪰ 0): the covariance
constraint is *penalised* with weight μ (their ``dualize=True``).  The λ_max terms are Schur
complements, t±·I ⪰ (R±P)ᵀ(R±P) ⇔ [[t±I, (R±P)ᵀ], [R±P, I]] ⪰ 0 with R±ᵀR± = ±S + c±I.

Algorithm (``fit``, default ``formulation="eigenbasis"``)::

    Xs = (X − mean) / scale                       # scale = column std if scale=True, else 1
    C = XsᵀXs / (n‖Xs‖_F);  f = mean(Xs[z=1]) − mean(Xs[z=0]);  S = Σ₁ − Σ₀
    if δ = 0:  U = orthonormal basis of f^⊥ (Householder, d × (d−1))   # P ⪰ 0, fᵀPf = 0 ⇔ Pf = 0
    else:      U = I
    UᵀSU = E diag(s) Eᵀ;  W = U E                 # both ±S + c±I are diagonal in this basis
    solve over Q = WᵀPW (q×q):  min (−⟨WᵀCW, Q⟩ + μ(t₊ + t₋)) / λ_max(WᵀCW)
        s.t. 0 ⪯ Q ⪯ I, tr Q = k, (Wᵀf)ᵀQ(Wᵀf) ≤ δ² (δ > 0 only),
             [[t±I, (D±Q)ᵀ], [D±Q, I]] ⪰ 0,  D± = diag(sqrt(±s + c±))
        by a primal–dual interior-point method (``_fpca_ipm``; or SCS / Clarabel via cvxpy)
    P = WQWᵀ;  components = top-k eigenvectors of Q, mapped by W     # "rounding"

Three exact reformulations, each leaving the optimum unchanged:

* eliminating the equality fᵀPf = 0 (rather than imposing it) is what makes the δ = 0 problem
  solvable by a first-order conic solver: imposed as an equality, SCS ends with
  ``optimal_inaccurate`` on German credit; reduced, it reproduces Lee et al.'s MOSEK loadings
  (see the tests);
* the orthogonal change of basis Q ↦ EᵀQE (the Fantope and the trace are invariant) makes the
  square roots R± of Uᵀ(±S + c±I)U diagonal, so that each entry of R±Q involves one entry of Q
  instead of q: the constraint matrix handed to SCS has O(q²) instead of O(q³) nonzeros, and
  SCS's linear systems stop dominating its time;
* dividing the objective by λ_max(WᵀCW) (⟨C, P⟩ ≤ k λ_max) gives it order one, for which
  SCS's initial scale 10⁻² suits; with these, SCS at ε = 10⁻⁹ takes fewer iterations than the
  original formulation at ε = 10⁻⁶, and reaches the optimum of a tighter solve to its own
  tolerance, where the original stopped orders of magnitude farther away.

Solver.  The optimum is highly degenerate: the top eigenvalue of QD±²Q is multiple (eight times
or more on German credit, k = 10) and the eigenvalues of Q spread over (0, 1).  SCS, a
first-order method, needs thousands of iterations on it, and how many varies from split to
split by an order of magnitude.  An interior-point method needs 9–15 on Lee et al.'s German
and Adult splits; its cost per iteration is the Cholesky factorisation of the m × m Schur
complement, m = q(q+1)/2, which ``_fpca_ipm`` assembles directly from the q × q blocks of the
cones (the diagonal D± make each cone a sum of Kronecker terms), and whose factor serves up to
four solves (a predictor and up to three correctors).  It reaches SCS's optimum, far faster
and with a time that hardly varies with the split; ``benchmarks/bench_baselines.py`` times it
against SCS and against Lee et al.'s MOSEK runs of the reference code.  Clarabel, a general
interior-point solver, factors a KKT matrix carrying the dense scaling of every 2q-sized cone
and does not finish.  Not adopted: sharing one Schur block Y ⪰ Q² between both λ_max terms
(t±I ⪰ D±YD±, exact, smaller cones) — Y is not unique, and SCS then needs many more
iterations.

``formulation="original"`` keeps the dense factors, the unscaled objective and SCS's earlier
defaults (ε = 10⁻⁶, 20 000 iterations): the former solver, for comparison.

Rounding: P is generally *not* a projection (its eigenvalues are spread in (0, 1), often with
near ties); like Olfat & Aswani's code, fairlab returns the top-k eigenvectors of P without
deflation or rescaling.  ``sdp_eigenvalues_`` shows the spectrum; where the k-th and
(k+1)-th eigenvalues tie, the rounded subspace is arbitrary (German credit, k = 2: the top
eigenvalue is triple), and which one LAPACK returns follows the BLAS kernel's rounding, as do
the last digits of the solver's solution (measured in ``fairlab.experiments.kleindessner``).

Cost: the interior-point method O(d⁶) time and O(d⁴) memory per iteration (the Schur
complement of order d(d+1)/2), so ``solver="ipm"`` accepts n_features ≤ 150; SCS O(d³) per
iteration (the eigendecompositions of its cone projections) times thousands of iterations,
a number that varies with the split by an order of magnitude.

Limits.  Where the Schur complement or a cone block stops being positive definite in floating
point, or the dual residual grows again as the Newton solves lose accuracy, the method returns
its best iterate, which is feasible: approximately optimal, with a ConvergenceWarning.  With
``scale=False`` and column scales spanning 10³ the covariance penalty, in the data's squared
units, dwarfs the unit-scaled objective and the steps can shrink to nothing: a RuntimeError
then names ``solver="scs"`` and rescaling (the failures of the adversarial tests are all
unscaled; ``scale=True`` solves the test's instance).  The whole fit runs on one BLAS thread
(``fairlab._core.threads.limit_threads``), so that its result does not depend on the caller's
thread count.
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from .._core.linalg import flip_signs, top_principal_axes
from .._core.threads import limit_threads
from .._core.validation import check_n_components
from . import _fpca_ipm
from ._common import LinearProjection, validate_fit_input
from ._sdp import (
    CVXPY_SOLVERS,
    import_cvxpy,
    orthogonal_complement,
    population_cov,
    psd_factor,
    solve,
    two_groups,
)

__all__ = ["FPCA"]

_IPM_OPTIONS = {"tol": 1e-9, "max_iter": 100}  # relative gap and dual residual
_IPM_MAX_FEATURES = 150  # the Schur complement of order d(d+1)/2 takes 1 GiB at d = 150
_SCS_EPS = 1e-9  # SCS's linear convergence makes 1e-9 cheap; 1e-6 left 2e-6 relative error
_SCS_MAX_ITERS = 100000
_SCS_SCALE = 1e-2  # SCS's initial primal-dual scale for the unit-scaled objective

def _unit(Cq):
    """λ_max(Cq), the scale that gives the objective order one (⟨C, Q⟩ ≤ k λ_max(C)), for the
    relative tolerances of the interior-point method and SCS's scaling heuristics."""
    q = Cq.shape[0]
    return float(linalg.eigvalsh(Cq, subset_by_index=[q - 1, q - 1], check_finite=False)[0]) or 1.0


# ---------------------------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------------------------
class FPCA(LinearProjection):
    r"""Fair PCA of Olfat & Aswani (2019): a semidefinite relaxation with mean and covariance terms.

    Solves the SDP of the module docstring over the Fantope 0 ⪯ P ⪯ I, tr P = k: maximise the
    normalised variance ⟨XᵀX, P⟩/(n‖X‖_F), keep the projected group-mean difference small
    (fᵀPf ≤ δ², exactly Pf = 0 for δ = 0), and penalise with weight μ the largest eigenvalue of
    P(±(Σ₁ − Σ₀) + c±I)P (the covariance mismatch along P).  The k output directions are the top
    eigenvectors of the solution P.  Two groups only.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k (at most d − 1 for δ = 0, d otherwise).
    delta : float >= 0, default=0.0
        Bound δ on the mean constraint fᵀPf ≤ δ² (f = difference of the group means of the
        — scaled, if ``scale`` — training data).  For a projection P = UUᵀ this is
        ‖Uᵀf‖ ≤ δ, the norm of the projected group-mean difference.  Lee et al. ran δ ∈ {0, 0.1}.
    mu : float >= 0, default=0.01
        Weight μ of the covariance penalty t₊ + t₋ (Lee et al.: 0.01).  μ is relative to the
        normalised variance term ⟨XᵀX, P⟩/(n‖X‖_F), so it is meant for standardised columns.
    scale : bool, default=False
        Divide each centred column by its (population) standard deviation before the SDP, as
        Olfat & Aswani's code does (constant columns are left unscaled); ``transform`` then
        applies the same scaling.  Lee et al.'s real-data splits are already standardised, so
        there it only matters through rounding; their synthetic data are not.
    solver : {"ipm", "scs", "clarabel"}, default="ipm"
        ``"ipm"``: fairlab's primal–dual interior-point method for this program
        (``fairlab.baselines._fpca_ipm``; no cvxpy needed; n_features ≤ 150, its Schur
        complement of order d(d+1)/2 being dense).  ``"scs"`` (first order) and
        ``"clarabel"`` (interior point, general conic) through cvxpy, for comparison and for
        larger d (see Notes).
    solver_options : dict or None, default=None
        ``"ipm"``: ``tol`` (relative duality gap and dual residual, default 1e-9) and
        ``max_iter`` (default 100).  Otherwise extra keyword arguments of
        ``cvxpy.Problem.solve``; SCS defaults:
        ``eps_abs=eps_rel=1e-9, max_iters=100000, scale=1e-2`` (``formulation="original"``:
        ``eps_abs=eps_rel=1e-6, max_iters=20000``).
    formulation : {"eigenbasis", "original"}, default="eigenbasis"
        ``"eigenbasis"``: the SDP in the eigenbasis of the covariance difference with a
        unit-scaled objective (module docstring) — the same optimum, fewer nonzeros and fewer
        SCS iterations.  ``"original"``: the SDP as before, with dense square-root factors,
        for comparison (cvxpy solvers only).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        Orthonormal rows: the top-k eigenvectors of P, by decreasing eigenvalue, deterministic
        signs.
    mean_ : ndarray of shape (n_features,)
        Column means of the training data.
    scale_ : ndarray of shape (n_features,) or None
        Column scales used (``scale=True``), else None.
    sdp_solution_ : ndarray of shape (n_features, n_features)
        The SDP solution P (in the scaled coordinates when ``scale``).
    sdp_eigenvalues_ : ndarray of shape (n_features,)
        Eigenvalues of P, decreasing (rounding diagnostics: ties at position k make the
        rounded subspace arbitrary).
    sdp_objective_ : float
        Optimal value of the SDP.
    solver_status_ : str
        ``"optimal"``, or ``"optimal_inaccurate"`` with a ConvergenceWarning.
    n_iter_ : int or None
        Interior-point iterations (``solver="ipm"``); None for the cvxpy solvers and where no
        solver ran (k = d − 1 with δ = 0, k = d, no sensitive features).
    explained_variance_ : ndarray of shape (n_components,)
        Variance (divisor n − 1) of the transformed training rows along each component.
    n_components_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string column names.

    Notes
    -----
    Deviations from the reference code (``FPCA/`` of Lee et al.'s repository, MOSEK): fairlab's
    interior-point method instead of MOSEK's; the δ = 0 equality eliminated by the substitution
    P = UQUᵀ and the eigenbasis of UᵀSU (same optimum); the reference reader drops the first data
    row of each CSV (it takes it for a header) — fairlab does not, so to reproduce Lee et al.'s
    matrices pass ``X[1:]``.

    Solver choice: the default interior-point method is compared with SCS in the module
    docstring.  Clarabel stops with a numerical error, or does not finish, on German credit
    (d = 57): its KKT systems carry dense blocks of the 2q-sized PSD cones; it solves small
    problems (COMPAS, d = 11) reliably.  Only ``solver="scs"`` and ``"clarabel"`` need cvxpy.

    ``sensitive_features=None`` fits standard PCA (with an ``UnconstrainedFallbackWarning``).

    References
    ----------
    * M. Olfat, A. Aswani. "Convex formulations for fair principal component analysis."
      AAAI 2019.
    * J. Lee et al. "Fast and efficient MMD-based fair PCA via optimization over Stiefel
      manifold." AAAI 2022 (the settings δ ∈ {0, 0.1}, μ = 0.01).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.fpca import FPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 4)) + 2.0 * z[:, None]
    >>> Xt = FPCA(n_components=2).fit_transform(X, sensitive_features=z)  # doctest: +SKIP
    >>> bool(np.allclose(Xt[z == 0].mean(0), Xt[z == 1].mean(0)))  # doctest: +SKIP
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "delta": [Interval(Real, 0, None, closed="left")],
        "mu": [Interval(Real, 0, None, closed="left")],
        "scale": ["boolean"],
        "solver": [StrOptions({"ipm", *CVXPY_SOLVERS})],
        "solver_options": [dict, None],
        "formulation": [StrOptions({"eigenbasis", "original"})],
    }

    def __init__(self, n_components=2, *, delta=0.0, mu=0.01, scale=False, solver="ipm",
                 solver_options=None, formulation="eigenbasis"):
        self.n_components = n_components
        self.delta = delta
        self.mu = mu
        self.scale = scale
        self.solver = solver
        self.solver_options = solver_options
        self.formulation = formulation

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit FPCA.

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
        self : FPCA
        """
        X, groups = validate_fit_input(self, X, sensitive_features)
        n, d = X.shape
        self.mean_ = X.mean(axis=0)
        Xs = X - self.mean_
        if self.scale:
            std = Xs.std(axis=0)
            self.scale_ = np.where(std > 0, std, 1.0)
            Xs = Xs / self.scale_
        else:
            self.scale_ = None

        if groups is None:
            k = check_n_components(self.n_components, min(n, d),
                                   bound_text=f"min(n_samples, n_features) = min({n}, {d})")
            self._set_result(top_principal_axes(Xs, k), Xs, P=None, objective=None, status=None)
            return self

        upper = d - 1 if self.delta == 0 else d
        k = check_n_components(
            self.n_components, upper,
            bound_text=("n_features − 1: δ = 0 removes the direction of the group-mean "
                        "difference" if self.delta == 0 else "n_features"),
        )
        z = two_groups(self, groups)
        if self.solver == "ipm":
            self._check_ipm_options(d)
            cp = None
        else:
            cp = import_cvxpy(self, self.solver)
        # Small factorisations whose rounding the solver amplifies: one BLAS thread (_common).
        with limit_threads():
            return self._fit_two_groups(Xs, z, k, cp)

    def _fit_two_groups(self, Xs, z, k, cp):
        """The program in the eigenbasis (module docstring), its solve and the rounding."""
        n, d = Xs.shape
        X1, X0 = Xs[z], Xs[~z]
        f = X1.mean(axis=0) - X0.mean(axis=0)
        S = population_cov(X1) - population_cov(X0)
        norm = np.linalg.norm(Xs)
        C = Xs.T @ Xs / (n * norm) if norm > 0 else np.zeros((d, d))

        U = orthogonal_complement(f) if self.delta == 0 else np.eye(d)
        lam = linalg.eigvalsh(S, check_finite=False)
        shifts = (max(0.0, -lam[0]), max(0.0, lam[-1]))  # c₊, c₋: ±S + c±I ⪰ 0
        if k == U.shape[1] and self.formulation == "eigenbasis":
            return self._fit_whole_space(U, Xs, C, S, f, shifts)
        if self.formulation == "eigenbasis":
            # W = U E with E the eigenvectors of UᵀSU: both G± = Wᵀ(±S + c±I)W are diagonal
            s_U, E = linalg.eigh(U.T @ S @ U, check_finite=False)
            U = U @ E
            factors = [np.sqrt(np.maximum(sign * s_U + c, 0.0))
                       for sign, c in zip((1.0, -1.0), shifts)]
        else:
            factors = [psd_factor(U.T @ (sign * S + c * np.eye(d)) @ U)
                       for sign, c in zip((1.0, -1.0), shifts)]
        Cq = U.T @ C @ U
        Cq = 0.5 * (Cq + Cq.T)
        fq = U.T @ f if self.delta > 0 else None
        if self.solver == "ipm":
            Qv, status, n_iter = self._solve_ipm(Cq, factors, fq, k)
            objective = -np.sum(Cq * Qv) + float(self.mu) * sum(
                linalg.eigvalsh(Qv @ (R[:, None] ** 2 * Qv), subset_by_index=[len(R) - 1] * 2,
                                check_finite=False)[0] for R in factors)
        else:
            Qv, objective, status = self._solve_cvxpy(cp, Cq, factors, fq, k)
            n_iter = None
        # Rounding: top-k eigenvectors of P = UQUᵀ, computed in Q's coordinates so that for
        # δ = 0 the components are exactly orthogonal to f.
        w, E = linalg.eigh(Qv, check_finite=False)
        V = flip_signs(U @ E[:, ::-1][:, :k])
        self._set_result(V, Xs, P=U @ Qv @ U.T, objective=float(objective), status=status,
                         n_iter=n_iter)
        return self

    def _check_ipm_options(self, d):
        if self.formulation != "eigenbasis":
            raise ValueError(
                f"formulation={self.formulation!r} is the cvxpy formulation kept for comparison; "
                "use it with solver='scs' or 'clarabel' (solver='ipm' solves the eigenbasis one)."
            )
        unknown = set(self.solver_options or {}) - set(_IPM_OPTIONS)
        if unknown:
            raise ValueError(f"solver_options of solver='ipm' are {sorted(_IPM_OPTIONS)}; got "
                             f"{sorted(unknown)}.")
        if d > _IPM_MAX_FEATURES:
            gib = 8 * (d * (d + 1) // 2) ** 2 / 2**30
            raise ValueError(
                f"solver='ipm' factors a dense Schur complement of order d(d+1)/2 ({gib:.1f} GiB "
                f"for n_features = {d}); for n_features > {_IPM_MAX_FEATURES} use solver='scs'."
            )

    def _solve_ipm(self, Cq, factors, fq, k):
        """The interior-point method of ``_fpca_ipm`` on the unit-scaled objective."""
        unit = _unit(Cq)
        options = {**_IPM_OPTIONS, **(self.solver_options or {})}
        result = _fpca_ipm.solve(Cq / unit, *factors, k, float(self.mu) / unit, g=fq,
                                 delta=float(self.delta), **options)
        if result.status == "failed":
            raise RuntimeError(
                f"FPCA: the interior-point method stopped after {result.n_iter} iterations at a "
                f"relative duality gap of {result.relative_gap:.2g} and dual residual "
                f"{result.relative_residual:.2g}; try solver='scs', or rescale X."
            )
        if result.status == "optimal_inaccurate":
            warnings.warn(
                f"FPCA: the interior-point method stopped at a relative duality gap of "
                f"{result.relative_gap:.2g} (dual residual {result.relative_residual:.2g}), "
                f"above tol = {options['tol']:g}; the solution is only approximately optimal.",
                ConvergenceWarning, stacklevel=5,  # the caller of fit
            )
        return 0.5 * (result.Q + result.Q.T), result.status, result.n_iter

    def _solve_cvxpy(self, cp, Cq, factors, fq, k):
        """The same program handed to SCS or Clarabel through cvxpy."""
        q = Cq.shape[0]
        Iq = np.eye(q)
        Q = cp.Variable((q, q), symmetric=True)
        t = cp.Variable(2, nonneg=True)
        constraints = [Q >> 0, Iq - Q >> 0, cp.trace(Q) == k]
        if fq is not None:
            constraints.append(fq @ Q @ fq <= float(self.delta) ** 2)
        for i, R in enumerate(factors):  # RᵀR = Uᵀ(±S + c±I)U: R diagonal in the eigenbasis
            B = cp.multiply(R[:, None], Q) if R.ndim == 1 else R @ Q
            constraints.append(cp.bmat([[t[i] * Iq, B.T], [B, Iq]]) >> 0)
        objective = -cp.trace(Cq @ Q) + float(self.mu) * cp.sum(t)
        if self.formulation == "eigenbasis":
            unit = _unit(Cq)
            scs = {"scs_eps": _SCS_EPS, "scs_max_iters": _SCS_MAX_ITERS,
                   "scs_scale": _SCS_SCALE}
        else:
            unit, scs = 1.0, {}
        problem = cp.Problem(cp.Minimize(objective / unit), constraints)
        status = solve(problem, self.solver, self.solver_options, self, **scs)
        return 0.5 * (Q.value + Q.value.T), float(problem.value) * unit, status

    def _fit_whole_space(self, U, Xs, C, S, f, shifts):
        """k = q: the Fantope {0 ⪯ Q ⪯ I, tr Q = q} is the single point Q = I (closed form).

        P = UUᵀ, t± = λ_max(Uᵀ(±S + c±I)U); the components are U rotated to the principal
        axes of UᵀCU (deterministic).  A first-order solver converges slowly towards an
        isolated feasible point (SCS exhausts its iterations on COMPAS, k = 10, δ = 0).
        """
        if self.delta > 0 and f @ f > float(self.delta) ** 2:
            raise RuntimeError(
                f"FPCA: the semidefinite program is infeasible: n_components = n_features "
                f"forces P = I, whose mean gap fᵀPf = {f @ f:.3g} exceeds delta² = "
                f"{float(self.delta) ** 2:.3g}; lower n_components or raise delta."
            )
        q = U.shape[1]
        t = [linalg.eigvalsh(U.T @ (sign * S + c * np.eye(S.shape[0])) @ U,
                             subset_by_index=[q - 1, q - 1], check_finite=False)[0]
             for sign, c in zip((1.0, -1.0), shifts)]
        Cq = U.T @ C @ U
        Cq = 0.5 * (Cq + Cq.T)
        objective = -float(np.trace(Cq)) + float(self.mu) * float(sum(t))
        V = flip_signs(U @ linalg.eigh(Cq, check_finite=False)[1][:, ::-1])
        self._set_result(V, Xs, P=U @ U.T, objective=objective, status="optimal")
        return self

    def _set_result(self, V, Xs, *, P, objective, status, n_iter=None):
        self.n_iter_ = n_iter
        self.components_ = np.ascontiguousarray(V.T)
        self.n_components_ = V.shape[1]
        self.sdp_solution_ = P
        self.sdp_eigenvalues_ = None if P is None else linalg.eigvalsh(P)[::-1]
        self.sdp_objective_ = objective
        self.solver_status_ = status
        XV = Xs @ V
        self.explained_variance_ = np.einsum("ij,ij->j", XV, XV) / (Xs.shape[0] - 1)

    def _centred(self, X):
        """(X − mean_) / scale_ (no division if not ``scale``): transform projects this."""
        Xs = X - self.mean_
        return Xs if self.scale_ is None else Xs / self.scale_

