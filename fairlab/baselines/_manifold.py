r"""Riemannian quasi-Newton optimisation on the Stiefel manifold St(d, k) = {V : VᵀV = I_k}.

Every piece is written once here and used by :class:`~fairlab.baselines.MbFPCA`:

* metric: the Euclidean one, ⟨ξ, η⟩ = tr(ξᵀη); tangent space T_V = {ξ : Vᵀξ + ξᵀV = 0};
* projection onto T_V: P_V(Z) = Z − V sym(VᵀZ); Riemannian gradient grad f = P_V(∇f);
* retraction: R_V(ξ) = qf(V + ξ), the Q factor with positive diagonal of R;
* vector transport: by projection, T_{V→W}(ξ) = P_W(ξ);
* line search: Armijo backtracking along the retraction, f(R_V(tη)) ≤ f(V) + c₁ t ⟨grad f, η⟩,
  t = 1, ½, ¼, … (c₁ = 10⁻⁴), given up below t = 10⁻¹²;
* :func:`rbfgs`: Riemannian BFGS (Huang, Gallivan & Absil 2015) with the inverse-Hessian
  approximation H either dense (dk × dk, carried to the new tangent space as P H P) or limited
  memory (the last 10 pairs (s, y), transported by projection; Huang, Absil & Gallivan 2018),
  dense where that is cheap (:func:`dense_is_cheap`).

The iteration (one loop for both kinds of H)::

    g = grad f(V)
    repeat until ‖g‖_F < tol (× ‖g(V₀)‖_F if relative) or max_iter:
        η = −H g  (−g / max(1, ‖g‖) when H is empty or −Hg is not a descent direction)
        t = Armijo step along R_V(tη);  V⁺ = R_V(tη)        (stop if none: rounding level)
        s = P_{V⁺}(tη),  y = grad f(V⁺) − P_{V⁺}(g)
        H ← transport of H to V⁺;  BFGS update of H with (s, y) if ⟨s, y⟩ > 10⁻¹²‖s‖‖y‖
"""

# SPDX-License-Identifier: BSD-3-Clause

from collections import deque

import numpy as np
from scipy import linalg
from scipy.linalg.blas import dger as _ger

ARMIJO_C1 = 1e-4
MIN_STEP = 1e-12
MEMORY = 10  # L-RBFGS stored pairs
DENSE_MAX = 2000  # dense H up to this many entries of V (H is dk × dk)
# ... and while (dk)²·k(k+1), the multiply-adds of its transport with a dense normal basis, stays
# below this bound: above it the limited-memory version reaches the same solution in a fraction
# of the time.  Lee et al.'s data sets (k = 2, 10) stay dense.
DENSE_TRANSPORT_MAX = 2e8


def project(V, Z):
    """Orthogonal projection of Z onto the tangent space of St(d, k) at V: Z − V sym(VᵀZ)."""
    VtZ = V.T @ Z
    return Z - V @ (0.5 * (VtZ + VtZ.T))


def retract(V, xi):
    """QR retraction: the Q factor of V + ξ with a positive diagonal of R."""
    Q, R = linalg.qr(V + xi, mode="economic", check_finite=False)
    s = np.sign(np.diag(R))
    s[s == 0] = 1.0
    return Q * s


def transport(W, xi):
    """Vector transport by projection onto the tangent space at W."""
    return project(W, xi)


def armijo(fun, V, f, slope, direction):
    """Backtracking along the retraction; returns (t, V⁺, f(V⁺), ∇f(V⁺)) or None.

    ``slope`` = ⟨grad f(V), η⟩ < 0.  None means no step of length ≥ 10⁻¹² decreases f
    enough — the rounding level of f has been reached.
    """
    t = 1.0
    while t >= MIN_STEP:
        V_new = retract(V, t * direction)
        f_new, G_new = fun(V_new)
        if f_new <= f + ARMIJO_C1 * t * slope:
            return t, V_new, f_new, G_new
        t *= 0.5
    return None


def normal_basis(V):
    """Orthonormal basis N (dk × k(k+1)/2, row-major vec) of the normal space {VS : S = Sᵀ}.

    VS_ij with S_ii = e_ieᵢᵀ and S_ij = (e_ie_jᵀ + e_je_iᵀ)/√2 (i < j); P_V = I − NNᵀ.
    """
    d, k = V.shape
    pairs = [(i, j) for i in range(k) for j in range(i, k)]
    N = np.zeros((len(pairs), d, k))
    for m, (i, j) in enumerate(pairs):
        if i == j:
            N[m, :, i] = V[:, i]
        else:
            N[m, :, j] = V[:, i] / np.sqrt(2.0)
            N[m, :, i] = V[:, j] / np.sqrt(2.0)
    return N.reshape(len(pairs), d * k).T


def normal_coordinates(V, Z, *, out=None):
    """NᵀZ for N = :func:`normal_basis` (V) and Z of shape (dk, p), without forming N.

    With T[i, c] = Σ_a V_ai Z_(a,c) — one product Vᵀ Z.reshape(d, kp) of (dk)·k·p
    multiply-adds instead of (dk)·p·k(k+1)/2, written into ``out`` (k × kp) when given — row
    (i, j) of NᵀZ is T[i, i] (i = j) or (T[i, j] + T[j, i])/√2 (i < j).
    """
    d, k = V.shape
    p = Z.shape[1]
    T = np.matmul(V.T, Z.reshape(d, k * p), out=out).reshape(k, k, p)
    i, j = np.triu_indices(k)  # the column order of normal_basis
    return (T[i, j] + T[j, i]) * np.where(i == j, 0.5, np.sqrt(0.5))[:, None]


def from_normal_coordinates(V, Y, *, out=None):
    """N Y for N = :func:`normal_basis` (V) and Y of shape (k(k+1)/2, p), without forming N.

    Row (a, c) is Σ_i V_ai U[i, c] with U[i, c] = Y_(i,c) (i = c) or Y_(min, max)/√2 (i ≠ c):
    one product V U.reshape(k, kp) of (dk)·k·p multiply-adds, written into ``out`` (d × kp)
    when given.
    """
    d, k = V.shape
    p = Y.shape[1]
    i, j = np.triu_indices(k)
    U = np.empty((k, k, p))
    U[i, j] = Y * np.where(i == j, 1.0, np.sqrt(0.5))[:, None]
    U[j, i] = U[i, j]
    return np.matmul(V, U.reshape(k, k * p), out=out).reshape(d * k, p)


class _DenseInverseHessian:
    """H (dk × dk) acting on tangent vectors in ambient (row-major) coordinates.

    Transport: P H P with P = I − NNᵀ (N: :func:`normal_basis`, m = k(k+1)/2 columns) is the
    symmetric rank-2m update H − NWᵀ − WNᵀ, W = HN − ½N(NᵀHN).  N is never formed: its
    columns are V's columns placed in the column blocks of a d × k matrix, so NᵀH and NWᵀ are
    each one product with V of (dk)²k multiply-adds (:func:`normal_coordinates`,
    :func:`from_normal_coordinates`) where a dense N costs (dk)²k(k+1)/2 — and both products
    write into buffers kept between iterations (a fresh dk × dk array per iteration costs page
    faults).  BFGS update: the symmetric rank-2 update
    H + suᵀ + usᵀ, u = ½(r²yᵀHy + r)s − rHy, r = 1/⟨s, y⟩, in place (BLAS ger).
    """

    def __init__(self):
        self.H = None
        self._products = None  # buffers: VᵀH (k × k·dk) and NWᵀ (d × k·dk)

    def reset(self):
        self.H = None

    def direction(self, V, g):
        if self.H is None:
            return None
        return project(V, -(self.H @ g.ravel()).reshape(V.shape))

    def transport(self, W):
        if self.H is None:
            return
        d, k = W.shape
        n = d * k
        if self._products is None or self._products[1].shape != (d, k * n):
            self._products = np.empty((k, k * n)), np.empty((d, k * n))
        VtH, NWt = self._products
        HN = normal_coordinates(W, self.H, out=VtH)  # NᵀH = (HN)ᵀ, m × dk
        NtHN = normal_coordinates(W, np.ascontiguousarray(HN.T))
        HN -= 0.5 * from_normal_coordinates(W, NtHN).T  # now Wᵀ (NᵀHN is symmetric)
        NWt = from_normal_coordinates(W, HN, out=NWt)
        self.H -= NWt
        self.H -= NWt.T

    def update(self, W, s, y, sy):
        s, y = s.ravel(), y.ravel()
        if self.H is None:
            N = normal_basis(W)
            self.H = np.eye(W.size) - N @ N.T  # P_W
            self.H *= sy / float(y @ y)
        r = 1.0 / sy
        Hy = self.H @ y
        u = (0.5 * (r * r * float(y @ Hy) + r)) * s - r * Hy
        Ht = _ger(1.0, s, u, a=self.H.T, overwrite_a=True)  # in place on the Fortran view
        self.H = _ger(1.0, u, s, a=Ht, overwrite_a=True).T


class _LimitedMemoryInverseHessian:
    """The last ``MEMORY`` pairs (s, y, 1/⟨s, y⟩); H g by the two-loop recursion."""

    def __init__(self):
        self.pairs = deque(maxlen=MEMORY)

    def reset(self):
        self.pairs.clear()

    def direction(self, V, g):
        if not self.pairs:
            return None
        q = g.copy()
        alphas = []
        for s, y, r in reversed(self.pairs):
            a = r * np.vdot(s, q)
            q -= a * y
            alphas.append(a)
        s, y, _ = self.pairs[-1]
        q *= np.vdot(s, y) / np.vdot(y, y)
        for (s, y, r), a in zip(self.pairs, reversed(alphas)):
            q += (a - r * np.vdot(y, q)) * s
        return -q

    def transport(self, W):
        self.pairs = deque(((transport(W, s), transport(W, y), r) for s, y, r in self.pairs),
                           maxlen=MEMORY)

    def update(self, W, s, y, sy):
        self.pairs.append((s, y, 1.0 / sy))


def dense_is_cheap(d, k):
    """Whether :func:`rbfgs` keeps H dense on St(d, k): dk ≤ ``DENSE_MAX`` (H's memory) and
    (dk)²·k(k+1) ≤ ``DENSE_TRANSPORT_MAX`` (its transport per iteration)."""
    return d * k <= DENSE_MAX and (d * k) ** 2 * k * (k + 1) <= DENSE_TRANSPORT_MAX


def rbfgs(fun, V, *, tol, max_iter, relative=False, limited_memory=None):
    """Minimise ``fun`` (returns cost and Euclidean gradient) over St(d, k) from V.

    Riemannian BFGS (module docstring).  Stops when ‖grad f‖_F < tol (times ‖grad f(V₀)‖_F when
    ``relative``), after ``max_iter`` iterations, or when the line search cannot decrease f any
    more.  ``limited_memory=None`` keeps H dense where :func:`dense_is_cheap`.  Returns
    (V, f, n_iter).
    """
    if limited_memory is None:
        limited_memory = not dense_is_cheap(*V.shape)
    H = _LimitedMemoryInverseHessian() if limited_memory else _DenseInverseHessian()
    f, G = fun(V)
    g = project(V, G)
    gnorm = np.linalg.norm(g)
    threshold = tol * gnorm if relative else tol
    it = 0
    for it in range(1, max_iter + 1):
        if gnorm < threshold:
            return V, f, it - 1
        eta = H.direction(V, g)
        slope = None if eta is None else np.vdot(g, eta)
        if eta is None or slope >= 0:  # empty H, or not a descent direction: gradient step
            H.reset()
            eta = -g / max(1.0, gnorm)
            slope = np.vdot(g, eta)
        step = armijo(fun, V, f, slope, eta)
        if step is None:
            return V, f, it
        t, V_new, f_new, G_new = step
        g_new = project(V_new, G_new)
        s = transport(V_new, t * eta)
        y = g_new - transport(V_new, g)
        H.transport(V_new)
        sy = float(np.vdot(s, y))
        if sy > 1e-12 * np.linalg.norm(s) * np.linalg.norm(y):
            H.update(V_new, s, y, sy)
        V, f, g = V_new, f_new, g_new
        gnorm = np.linalg.norm(g)
    return V, f, it
