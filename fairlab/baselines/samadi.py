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

Algorithm (``fit``)::

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

Cost: one d×d SDP (PSD cones of size d), O(d³) per solver iteration; an LP with d + 1
variables.  (Samadi et al.'s code uses multiplicative weights, and then the non-projection
I − sqrtm(I − P) as the linear map; fairlab solves the SDP directly and returns a projection.)
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral

import numpy as np
from scipy import linalg
from scipy.optimize import linprog
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from .._linalg import flip_signs
from .._validation import check_n_components
from ._common import LinearProjection, validate_fit_input
from .fpca import _SOLVERS, _import_cvxpy, _solve, _top_pca, _two_groups

__all__ = ["SamadiFairPCA"]

_FRACTIONAL_TOL = 1e-7  # λ within this of 0 or 1 counts as integral (LP vertices are exact)


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
    and the linear program of Samadi et al., followed by an exact step from their rank-(k+1)
    solution to rank k (module docstring).  At the solution the two losses are equal.  Two
    groups only; needs cvxpy.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension k (at most d).
    solver : {"scs", "clarabel"}, default="scs"
        cvxpy back end for the SDP.  SCS (first order) with the tolerance below is fast and
        accurate here; the interior-point Clarabel is as accurate but its cost grows steeply
        with d (measured on Lee et al.'s synthetic data, k = 5: d = 60 in 11 s, d = 100 in
        204 s, against 0.2 s and 0.5 s for SCS).
    solver_options : dict or None, default=None
        Extra keyword arguments of ``cvxpy.Problem.solve`` (SCS defaults:
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
    sdp_losses_ : ndarray of shape (2,)
        The losses at the SDP solution P̂ (a lower bound on max ``losses_`` up to tolerance).
    sdp_solution_ : ndarray of shape (n_features, n_features)
        P̂.
    lp_weights_ : ndarray of shape (n_features,)
        λ* of the linear program (eigenvalues of Samadi et al.'s rank ≤ k + 1 solution).
    lp_rank_ : int
        Number of nonzero λ* (k or k + 1 for two groups).
    rounding_ : {"exact", "plane", "filled", "largest"}
        How the rank-k projection was obtained: λ* was already integral ("exact"); the exact
        plane step ("plane"); λ* had rank < k and was completed ("filled"); or the fallback,
        with a warning, of keeping the k largest λ* ("largest").
    solver_status_ : str
        cvxpy status of the SDP.
    explained_variance_ : ndarray of shape (n_components,)
        Variance (divisor n − 1) of the training rows along each component.
    n_components_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string column names.

    Notes
    -----
    Samadi et al. show that the LP vertex has rank at most k + 1 and that its loss is at most
    that of the best rank-k projection; Tantipongpipat et al. (2019) that for two groups an
    optimal rank-k projection exists.  fairlab extracts it from the LP vertex: when two λ* are
    fractional (they then sum to 1), the (k+1)-th direction is replaced by the best unit vector
    of their plane — the maximum of two sinusoids minimised in closed form — which keeps the
    SDP value.  The result is verified by the tests: equal losses to solver tolerance, and a
    maximum loss no larger than PCA's.

    ``sensitive_features=None`` fits standard PCA (with an ``UnconstrainedFallbackWarning``).

    References
    ----------
    * S. Samadi, U. Tantipongpipat, J. Morgenstern, M. Singh, S. Vempala. "The price of fair
      PCA: one extra dimension." NeurIPS 2018.
    * U. Tantipongpipat, S. Samadi, M. Singh, J. Morgenstern, S. Vempala. "Multi-criteria
      dimensionality reduction with applications to fairness." NeurIPS 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.samadi import SamadiFairPCA
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 60)
    >>> X = rng.normal(size=(120, 6)) * np.where(z[:, None] == 1, [3, 1, 1, 1, 1, 1], 1)
    >>> est = SamadiFairPCA(n_components=2).fit(X, sensitive_features=z)  # doctest: +SKIP
    >>> bool(abs(est.losses_[0] - est.losses_[1]) < 1e-6)  # doctest: +SKIP
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "solver": [StrOptions(set(_SOLVERS))],
        "solver_options": [dict, None],
    }

    def __init__(self, n_components=2, *, solver="scs", solver_options=None):
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
            self._set_components(_top_pca(Xc, k), Xc)
            for name in ("losses_", "pca_losses_", "sdp_losses_", "sdp_solution_",
                         "lp_weights_", "lp_rank_", "rounding_", "solver_status_"):
                setattr(self, name, None)
            return self

        k = check_n_components(self.n_components, d, bound_text="n_features")
        z = _two_groups(self, groups)
        cp = _import_cvxpy(self, self.solver)
        C, beta = [], []
        for mask in (~z, z):
            A = X[mask] - X[mask].mean(axis=0)
            Cg = A.T @ A / A.shape[0]
            C.append(0.5 * (Cg + Cg.T))
            beta.append(float(np.sum(linalg.eigvalsh(Cg, check_finite=False)[::-1][:k])))
        beta = np.array(beta)
        # one common scale (the larger total group variance) keeps the SDP well conditioned
        unit = max(float(np.trace(Cg)) for Cg in C) or 1.0
        Cs, bs = [Cg / unit for Cg in C], beta / unit

        # --- SDP relaxation -------------------------------------------------------------
        P = cp.Variable((d, d), symmetric=True)
        t = cp.Variable()
        constraints = [P >> 0, np.eye(d) - P >> 0, cp.trace(P) <= k]
        constraints += [t >= b - cp.trace(Cg @ P) for Cg, b in zip(Cs, bs)]
        problem = cp.Problem(cp.Minimize(t), constraints)
        self.solver_status_ = _solve(problem, self.solver, self.solver_options, self,
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
        self.losses_ = _group_losses(U @ U.T, C, beta)
        V = _top_pca(Xc, k)
        self.pca_losses_ = _group_losses(V @ V.T, C, beta)
        self._set_components(U, Xc)
        return self

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
