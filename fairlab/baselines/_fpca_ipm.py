r"""A primal–dual interior-point method for FPCA's semidefinite program.

In the eigenbasis of the covariance difference (the ``fpca`` module docstring) the program is

.. math::

    \min_{Q,\,t}\; -\langle C, Q\rangle + \mu\,(t_+ + t_-)\quad\text{s.t.}\quad
    Q \succeq 0,\; I - Q \succeq 0,\; \operatorname{tr} Q = k,\;
    \delta^2 - g^\top Q g \ge 0,\;
    \begin{bmatrix} t_\pm I & Q D_\pm \\ D_\pm Q & I \end{bmatrix} \succeq 0,

with D± diagonal (the last constraint is t± ≥ λ_max(Q D±² Q)).  In the variables
y = (svec Q, t₊, t₋) it reads min cᵀy s.t. S(y) = F₀ + Σᵢ yᵢFᵢ ⪰ 0 (block diagonal: q, q,
2q, 2q and, for δ > 0, 1 × 1) and aᵀy = k.  Algorithm (``solve``)::

    y = a strictly feasible point (Q = αĝĝᵀ + β(I − ĝĝᵀ), t± above λ_max);  Z = μ₀ S(y)⁻¹
    repeat:
        M_ij = ⟨Fᵢ, S⁻¹ Fⱼ Z⟩                           # HKM Schur complement, m × m
        predictor: Newton step on S Z = 0;  σ = (gap after the step / gap)³
        corrector: Newton step on S Z = σ μ I − ΔS ΔZ, ΔS ΔZ from the predictor (Mehrotra);
            repeated, ΔS ΔZ from the last corrector, up to twice while it lengthens the step
        step γ = 0.9 + 0.09 min(α_p, α_d) of the way to the boundary of S ⪰ 0, Z ⪰ 0
    until ⟨S, Z⟩ and the dual residual are below ``tol`` (relative)

Every iterate is primal feasible (S is computed from y), so the optimum is approached from
inside and the returned Q satisfies the constraints exactly.  The iterate returned is the one
with the smallest max(gap, dual residual): the last, unless the method stalled after it.

Why it is fast.  SCS needs thousands of iterations on this program, whose solution is highly
degenerate (the top eigenvalue of QD±²Q is multiple, of multiplicity 8 or more on German
credit); this method needs 9–15 on Lee et al.'s German and Adult splits, each dominated by the
Cholesky factorisation of M (m = q(q+1)/2).  Each factorisation serves up to four solves: the
predictor, Mehrotra's corrector and its repetitions (Carpenter et al.'s higher-order
corrections, 1993), each a pair of triangular solves; with the step rule of SDPT3 they cut the
number of iterations.  A general conic solver (Clarabel) instead factors a KKT matrix that
carries the dense scaling of every 2q-sized cone; here M is assembled directly: for Fᵢ = Eᵢ,
the symmetric basis matrices, each cone contributes terms tr(Eᵢ P Eⱼ R) (block 1: P = S₁⁻¹, R =
Z₁; each 2q cone four terms from its q × q blocks), and

    tr(Eᵢ P Eⱼ R) = cᵢcⱼ (P_bc R_da + P_bd R_ca + P_ac R_db + P_ad R_cb),  i = (a, b), j = (c, d),

which ``_SymmetricBasis.congruence`` sums over all terms at once with batched matrix
products (O(m q² r) for r terms), forming only the lower triangle that the factorisation
reads.  Memory: 8m² bytes (180 MB at d = 97).
"""

# SPDX-License-Identifier: BSD-3-Clause

from dataclasses import dataclass

import numpy as np
from scipy import linalg

__all__ = ["FpcaSdpSolution", "solve"]

_REPEATED_CORRECTIONS = 2  # at most; each one solve with the factored Schur complement
_INITIAL_MU = 0.1  # Z₀ = μ₀ S₀⁻¹: a start on the central path (measured: fewest iterations)
_ROWS_PER_CHUNK = 128  # rows of M assembled at once (bounds the temporaries)


@dataclass
class FpcaSdpSolution:
    """Result of :func:`solve`: the solution Q, t±, iterations, and how it ended."""

    Q: np.ndarray
    t: np.ndarray
    n_iter: int
    status: str  # "optimal", "optimal_inaccurate" or "failed"
    relative_gap: float
    relative_residual: float


class _SymmetricBasis:
    """The orthonormal basis Eᵢ of symmetric q × q matrices, i = (a ≤ b), and svec/smat."""

    def __init__(self, q):
        self.q = q
        self.rows, self.cols = np.triu_indices(q)
        self.dim = self.rows.size
        diagonal = self.rows == self.cols
        self.weight = np.where(diagonal, 1.0, np.sqrt(2.0))  # svec(X)ᵢ = ⟨Eᵢ, X⟩
        self.half = np.where(diagonal, 0.5, np.sqrt(0.5))  # Eᵢ = cᵢ(e_a e_bᵀ + e_b e_aᵀ)
        self.starts = np.concatenate([[0], np.cumsum(np.arange(q, 0, -1))])  # i of (c, c)
        self._buffers = (None,)

    def svec(self, X):
        """⟨Eᵢ, X⟩ for all i (X need not be symmetric: its symmetric part counts)."""
        return 0.5 * (X[self.rows, self.cols] + X[self.cols, self.rows]) * self.weight

    def smat(self, v):
        X = np.zeros((self.q, self.q))
        X[self.rows, self.cols] = v / self.weight
        return X + np.triu(X, 1).T

    def _workspace(self, n, width):
        """The congruence's temporaries, allocated once per basis: allocated anew at every
        call, they were mapped and page-faulted anew by the allocator, which doubled its time
        (q = 57)."""
        if self._buffers[0] != (n, width):
            q = self.q
            self._buffers = ((n, width), np.empty((n, q, width)), np.empty((n, width, q)),
                             np.empty(n * q * q), np.empty(n * q * q))
        return self._buffers[1:]

    def congruence(self, terms, out, rank_one=None):
        """The lower triangle (j ≤ i) of out[i, j] = Σ_r tr(Eᵢ P_r Eⱼ R_r) + ρ vᵢvⱼ, where
        v = svec(ggᵀ) for ``rank_one`` = (ρ, g); the rest of ``out`` is left as it was.

        For the rows i = (a, b) of a chunk, Gᵢ = Σ_r (P_r[a] ⊗ R_r[:, b] + P_r[b] ⊗ R_r[:, a])
        (+ 2ρ g_a g_b ggᵀ) is one batched product of inner dimension 2r (+1), and
        out[i, (c, d)] = cᵢcⱼ (Gᵢ[c, d] + Gᵢ[d, c]), d ≥ c, is row c of Gᵢ plus its column c:
        a contiguous run of svec indices.  Columns j ≤ i have c ≤ a, so only the rows and
        columns c ≤ a of Gᵢ are formed (for the chunks where that is less than all of Gᵢ).
        """
        q, r = self.q, len(terms)
        # P_rows[a] = (P_r[a, c])_{c, r}, R_columns[b] = (R_r[d, b])_{r, d}
        P_rows = np.ascontiguousarray(np.stack([p for p, _ in terms]).transpose(1, 2, 0))
        R_columns = np.ascontiguousarray(np.stack([r_.T for _, r_ in terms]).transpose(1, 0, 2))
        width = 2 * r + (rank_one is not None)
        n = min(_ROWS_PER_CHUNK, self.dim)
        left, right, G_rows, G_columns = self._workspace(n, width)
        for start in range(0, self.dim, n):
            rows = slice(start, start + n)
            a, b = self.rows[rows], self.cols[rows]
            lhs, rhs = left[:a.size], right[:a.size]
            np.take(P_rows, a, axis=0, out=lhs[:, :, :r], mode="clip")
            np.take(P_rows, b, axis=0, out=lhs[:, :, r:2 * r], mode="clip")
            np.take(R_columns, b, axis=0, out=rhs[:, :r, :], mode="clip")
            np.take(R_columns, a, axis=0, out=rhs[:, r:2 * r, :], mode="clip")
            if rank_one is not None:
                rho, g = rank_one
                lhs[:, :, -1] = (2.0 * rho * g[a] * g[b])[:, None] * g[None, :]
                rhs[:, -1, :] = g
            # cᵢcⱼ with cⱼ = √½ off the diagonal; the diagonal's extra √½ below
            lhs *= (self.half[rows] * np.sqrt(0.5))[:, None, None]
            columns = a[-1] + 1  # c ≤ max a of the chunk
            if 2 * columns < q:
                top = np.matmul(lhs[:, :columns], rhs,
                                out=G_rows[:a.size * columns * q].reshape(a.size, columns, q))
                side = np.matmul(lhs, rhs[:, :, :columns],
                                 out=G_columns[:a.size * q * columns].reshape(a.size, q, columns))
            else:
                top = side = np.matmul(lhs, rhs, out=G_rows[:a.size * q * q].reshape(a.size, q, q))
            chunk = out[rows]
            for c in range(columns):
                np.add(top[:, c, c:], side[:, c:, c],
                       out=chunk[:, self.starts[c]:self.starts[c + 1]])
            chunk[:, self.starts[:columns]] *= np.sqrt(0.5)
        return out


def _symmetric(X):
    return 0.5 * (X + X.T)


def _step_to_boundary(L, dX):
    """The largest α with X + α dX ⪰ 0 (inf if dX ⪰ 0), X = LLᵀ ≻ 0."""
    W = linalg.solve_triangular(L, dX, lower=True, check_finite=False)
    W = linalg.solve_triangular(L, W.T, lower=True, check_finite=False)
    lowest = linalg.eigvalsh(_symmetric(W), subset_by_index=[0, 0], check_finite=False)[0]
    return np.inf if lowest >= 0 else -1.0 / lowest


class _Program:
    """The blocks S(y), the linear map 𝒜, its adjoint and the Schur complement."""

    def __init__(self, C, d_plus, d_minus, k, mu, g, delta):
        q = C.shape[0]
        self.q, self.k, self.basis = q, k, _SymmetricBasis(q)
        self.d = (np.asarray(d_plus, float), np.asarray(d_minus, float))
        self.g = None if g is None or not np.any(g) else np.asarray(g, float)
        self.delta2 = float(delta) ** 2
        m = self.basis.dim
        self.c = np.concatenate([-self.basis.svec(C), [mu, mu]])
        self.trace = np.concatenate([self.basis.svec(np.eye(q)), [0.0, 0.0]])
        if self.g is not None:
            self.g_svec = self.basis.svec(np.outer(self.g, self.g))
        self.m = m

    def blocks(self, y, *, linear_only=False):
        """S(y) = F₀ + 𝒜(y), or 𝒜(y) alone."""
        q, eye = self.q, np.eye(self.q)
        Q = self.basis.smat(y[:self.m])
        out = [Q, -Q] if linear_only else [Q, eye - Q]
        corner = np.zeros((q, q)) if linear_only else eye
        for d, t in zip(self.d, y[self.m:]):
            B = d[:, None] * Q
            out.append(np.block([[t * eye, B.T], [B, corner]]))
        if self.g is not None:
            value = -(self.g @ Q @ self.g)
            out.append(np.array([[value if linear_only else self.delta2 + value]]))
        return out

    def adjoint(self, Z):
        """𝒜*(Z)ᵢ = Σ_blocks ⟨Fᵢ, Z⟩."""
        q = self.q
        X = Z[0] - Z[1]
        t = []
        for d, Zb in zip(self.d, Z[2:4]):
            Z12 = Zb[:q, q:]
            X = X + Z12 * d[None, :] + d[:, None] * Z12.T
            t.append(np.trace(Zb[:q, :q]))
        out = np.concatenate([self.basis.svec(X), t])
        if self.g is not None:
            out[:self.m] -= Z[4][0, 0] * self.g_svec
        return out

    def schur(self, S_inv, Z, out):
        """M_ij = ⟨Fᵢ, S⁻¹ Fⱼ Z⟩ (HKM) for j ≤ i, the lower triangle that the Cholesky
        factorisation reads; the Q part by :meth:`_SymmetricBasis.congruence`."""
        q, m = self.q, self.m
        terms = [(S_inv[0], Z[0]), (S_inv[1], Z[1])]
        for d, P, R in zip(self.d, S_inv[2:4], Z[2:4]):
            # Fᵢ = [[0, EᵢD], [DEᵢ, 0]]: tr(FᵢPFⱼR) in the q × q blocks of P and R
            terms += [(d[:, None] * P[q:, :q], d[:, None] * R[q:, :q]),
                      (d[:, None] * P[q:, q:] * d[None, :], R[:q, :q]),
                      (P[:q, :q], d[:, None] * R[q:, q:] * d[None, :]),
                      (P[:q, q:] * d[None, :], R[:q, q:] * d[None, :])]
        rank_one = None
        if self.g is not None:
            rank_one = (S_inv[4][0, 0] * Z[4][0, 0], self.g)
        self.basis.congruence(terms, out[:m, :m], rank_one)
        for j in (m, m + 1):  # the columns of t±, from the operator itself
            e = np.zeros(m + 2)
            e[j] = 1.0
            column = self.adjoint([_symmetric(P @ F @ R)
                                   for P, F, R in zip(S_inv, self.blocks(e, linear_only=True), Z)])
            out[:, j] = column
            out[j, :] = column
        return out

    def start(self):
        """A strictly feasible y: tr Q = k, 0 ≺ Q ≺ I, gᵀQg ≤ δ²/2, and
        t± = 2λ_max(QD±²Q) + (k / 2q) max(λ_max(D±²), 1).

        The slack of t± is on the scale of its optimum, which lies in [0, λ_max(D±²)] and, for Q
        spread over k of q directions, near its lower end (German credit, k = 2: t* = 0.15 and 0.2,
        with λ_max(D±²) = 5.8): a unit slack, far above, costs more iterations.  It is never below
        k/2q, half the eigenvalues of Q: where the groups' covariances are equal, D± vanish up to
        rounding, and a slack that vanished with them left the cone blocks singular (the fit
        failed).  (λ_max(D±²) is 2.6 or more on every data set of the Kleindessner ledger.)
        """
        q, k = self.q, self.k
        if self.g is None:
            Q = np.eye(q) * (k / q)
        else:
            u = self.g / np.linalg.norm(self.g)
            alpha = min(0.5 * self.delta2 / (self.g @ self.g), 0.5 * k / q)
            beta = (k - alpha) / (q - 1)
            Q = alpha * np.outer(u, u) + beta * (np.eye(q) - np.outer(u, u))
        t = []
        for d in self.d:
            top = linalg.eigvalsh(Q @ (d[:, None] ** 2 * Q), subset_by_index=[q - 1, q - 1])[0]
            t.append(2.0 * top + 0.5 * k / q * max(np.max(d ** 2), 1.0))
        return np.concatenate([self.basis.svec(Q), t])


class _NewtonSystem:
    """The HKM Newton system at one iterate, factored once for the predictor and the corrector.

    M Δy − aΔν = 𝒜*(ΔZ target) − R_d,  aᵀΔy = k − aᵀy,  with M = ⟨Fᵢ, S⁻¹FⱼZ⟩ (Cholesky) and
    ΔZ = σμS⁻¹ − Z − sym(S⁻¹ΔS Z) [− sym(S⁻¹ΔS_aff ΔZ_aff), Mehrotra's second-order term].
    """

    def __init__(self, program, S_inv, Z, M, dual_residual, trace_residual, mu):
        self.program, self.S_inv, self.Z, self.mu = program, S_inv, Z, mu
        self.dual_residual, self.trace_residual = dual_residual, trace_residual
        program.schur(S_inv, Z, M)
        # Mᵀ is in Fortran order, its upper triangle M's lower: factored in place, uncopied
        self.factor = linalg.cho_factor(M.T, lower=False, overwrite_a=True, check_finite=False)
        self.M_inv_a = linalg.cho_solve(self.factor, program.trace, check_finite=False)

    def direction(self, sigma, second_order=None):
        """(Δy, Δν, ΔS, ΔZ) towards S Z = σμI (``second_order`` = (ΔS_aff, ΔZ_aff))."""
        program, S_inv, Z, a = self.program, self.S_inv, self.Z, self.program.trace
        target = [sigma * self.mu * p - z for p, z in zip(S_inv, Z)]
        if second_order is not None:
            target = [t - _symmetric(p @ ds @ dz)
                      for t, p, ds, dz in zip(target, S_inv, *second_order)]
        rhs = program.adjoint(target) - self.dual_residual
        M_inv_rhs = linalg.cho_solve(self.factor, rhs, check_finite=False)
        d_nu = (self.trace_residual - a @ M_inv_rhs) / (a @ self.M_inv_a)
        dy = M_inv_rhs + d_nu * self.M_inv_a
        dS = program.blocks(dy, linear_only=True)
        dZ = [t - _symmetric(p @ ds @ z) for t, p, ds, z in zip(target, S_inv, dS, Z)]
        return dy, d_nu, dS, dZ


def _steps(S_factors, Z_factors, dS, dZ):
    """The largest primal and dual steps that keep S and Z positive semidefinite (from the
    Cholesky factors of their blocks)."""
    primal = min(_step_to_boundary(L, ds) for L, ds in zip(S_factors, dS))
    dual = min(_step_to_boundary(L, dz) for L, dz in zip(Z_factors, dZ))
    return primal, dual


def _cholesky(X):
    return linalg.cholesky(X, lower=True, check_finite=False)


def solve(C, d_plus, d_minus, k, mu, *, g=None, delta=0.0, tol, max_iter):
    """Solve FPCA's SDP (module docstring) by the HKM primal–dual path-following method.

    Parameters
    ----------
    C : ndarray of shape (q, q)
        Symmetric objective matrix (best of order one: scale it by its largest eigenvalue).
    d_plus, d_minus : ndarray of shape (q,)
        The diagonal square-root factors D± of the covariance terms.
    k : int, 1 <= k < q
    mu : float >= 0
    g, delta : ndarray of shape (q,) or None, float
        The mean constraint gᵀQg ≤ δ² (omitted if g is None or zero).
    tol : float
        Relative duality gap ⟨S, Z⟩ / (1 + |cᵀy|) and relative dual residual at which to stop.
    max_iter : int
        (FPCA's defaults for both are its ``_IPM_OPTIONS``.)

    Returns
    -------
    FpcaSdpSolution
        The best iterate (module docstring); ``status`` is "optimal" at ``tol``,
        "optimal_inaccurate" if the method stalled or ran out of iterations within 1e-6,
        "failed" otherwise.
    """
    program = _Program(C, d_plus, d_minus, k, mu, g, delta)
    m = program.m
    y = program.start()
    S = program.blocks(y)
    Z = [_INITIAL_MU * linalg.inv(s) for s in S]
    nu = 0.0
    order = sum(s.shape[0] for s in S)
    c, a = program.c, program.trace
    c_norm = 1.0 + np.linalg.norm(c)
    M = np.empty((m + 2, m + 2))
    best = (np.inf,)
    for n_iter in range(max_iter + 1):
        complementarity = sum(np.sum(s * z) for s, z in zip(S, Z))
        dual_residual = c - program.adjoint(Z) - nu * a
        gap = complementarity / (1.0 + abs(c @ y))
        residual = np.linalg.norm(dual_residual) / c_norm
        if max(gap, residual) < best[0]:
            best = (max(gap, residual), y, gap, residual)
        if gap <= tol and residual <= tol:
            break
        if n_iter == max_iter:
            break
        try:
            S_factors = [_cholesky(s) for s in S]
            Z_factors = [_cholesky(z) for z in Z]
            S_inv = [_symmetric(linalg.cho_solve((L, True), np.eye(len(L)), check_finite=False))
                     for L in S_factors]
            newton = _NewtonSystem(program, S_inv, Z, M, dual_residual, program.k - a @ y,
                                   complementarity / order)
            dy, d_nu, dS, dZ = newton.direction(0.0)
            primal, dual = (min(1.0, s) for s in _steps(S_factors, Z_factors, dS, dZ))
            predicted = sum(np.sum((s + primal * ds) * (z + dual * dz))
                            for s, ds, z, dz in zip(S, dS, Z, dZ))
            sigma = (predicted / complementarity) ** 3
            dy, d_nu, dS, dZ = newton.direction(sigma, (dS, dZ))
            primal, dual = _steps(S_factors, Z_factors, dS, dZ)
            for _ in range(_REPEATED_CORRECTIONS):
                repeated = newton.direction(sigma, (dS, dZ))
                steps = _steps(S_factors, Z_factors, *repeated[2:])
                if not min(steps) > 1.01 * min(primal, dual):
                    break
                (dy, d_nu, dS, dZ), (primal, dual) = repeated, steps
            fraction = 0.9 + 0.09 * min(1.0, primal, dual)  # of the way to the boundary
            primal, dual = min(1.0, fraction * primal), min(1.0, fraction * dual)
        except linalg.LinAlgError:
            # M, S or Z is no longer positive definite in floating point: the iterates have
            # reached the limit of double precision
            break
        if max(primal, dual) < 1e-10:
            break  # stalled at the limit of double precision
        y = y + primal * dy
        S = program.blocks(y)
        Z = [z + dual * dz for z, dz in zip(Z, dZ)]
        nu += dual * d_nu
    # The best iterate, which is feasible: near the limit of double precision the solves of
    # the Newton system lose accuracy and the dual residual can grow again (on badly scaled
    # data: from 1·10⁻¹⁰ to 3·10⁻⁶ relative while the gap fell below 10⁻¹¹)
    _, y, gap, residual = best
    if gap <= tol and residual <= tol:
        status = "optimal"
    elif gap <= 1e-6 and residual <= 1e-6:
        status = "optimal_inaccurate"
    else:
        status = "failed"
    return FpcaSdpSolution(Q=program.basis.smat(y[:m]), t=y[m:], n_iter=n_iter,
                           status=status, relative_gap=gap, relative_residual=residual)
