r"""Fair partial least squares (De-Diego, Pérez-Suay, Gordaliza and Loubes, 2025).

PLS builds components :math:`t_h = X_h w_h` one at a time: :math:`w_h` maximises the squared
covariance of the scores with the (centred, optionally scaled) targets :math:`Y`, and
:math:`X_h` is deflated, :math:`X_{h+1} = X_h - t_h p_h^\top` with
:math:`p_h = X_h^\top t_h / t_h^\top t_h`.  Fair PLS (De-Diego et al., eq. (4), Algorithm 1)
subtracts a penalty on the squared covariance with the sensitive attribute :math:`S`:

.. math::

    w_h = \arg\max_{\|w\| = 1}\; \tfrac{1}{n^2} \bigl(\|Y^\top X_h w\|^2
          - \eta\, \|S^\top X_h w\|^2\bigr)
        = \arg\max_{\|w\| = 1}\; w^\top X_h^\top (YY^\top - \eta SS^\top) X_h w .

The paper solves this by gradient descent and states that no closed form exists, but the
objective is a quadratic form on the unit sphere: its maximiser is the **leading eigenvector**
of :math:`M_h = A A^\top - \eta B B^\top` with :math:`A = X_h^\top Y` (d×m) and
:math:`B = X_h^\top S` (d×q).  :math:`M_h` has rank ≤ m + q, so with the thin SVD
:math:`[A, B] = U \Sigma V^\top = U R` the eigenproblem shrinks to the (m+q)×(m+q) matrix
:math:`R_A R_A^\top - \eta R_B R_B^\top` and :math:`w_h = U v`.  Nothing d×d is ever formed.

* ``eta = 0`` is PLS regression (scikit-learn's ``PLSRegression``, whose NIPALS power
  iteration converges to the same leading singular vector of :math:`X_h^\top Y`).
* ``eta = np.inf`` is the hard constraint :math:`S^\top X_h w = 0` (every score has zero
  covariance with every column of S): :math:`w_h` is the leading left singular vector of
  :math:`A` projected onto :math:`\operatorname{range}(B)^\perp` — the limit of the penalised
  solution as :math:`\eta\to\infty`.
* ``fairness="equalized_odds"`` (§4.2, eq. (8)) replaces S by the residual of its linear
  regression on Y, :math:`S - Y(Y^\top Y)^+ Y^\top S`, since
  :math:`C_{Xw,S|Y} = C_{Xw,S} - C_{Xw,Y} C_{YY}^{-1} C_{YS} = \tfrac1n (Xw)^\top
  (S - Y C_{YY}^{-1}C_{YS})`.

Deflating X explicitly costs a full pass over an n×d matrix per component; here it is never
done.  Since :math:`X_h = X - T_{<h} P_{<h}^\top` exactly, :math:`X_h w`, :math:`X_h^\top t`
and :math:`X_h^\top [Y, S]` are obtained from products with the centred X and small
corrections, which makes Fair PLS cheaper than scikit-learn's PLS at every η.

Kernel Fair PLS (§4.1, Algorithm 4; :mod:`fairlab.kernel_pls`) replaces X by a feature map with
Gram matrix K and the covariance penalty by HSIC with a kernel on S.  With a factor
:math:`\tilde K_S = L L^\top` of the centred sensitive Gram matrix, the per-component problem is
the same low-rank eigenproblem with :math:`[A, B] = \tilde\Phi_h^\top [Y, L]`, whose Gram
matrix :math:`[Y, L]^\top \tilde K_h [Y, L]` is all that is needed.
"""

# SPDX-License-Identifier: BSD-3-Clause

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    MultiOutputMixin,
    RegressorMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions

from ._core.linalg import (
    constraint_basis,
    flip_signs,
    thin_svd,
)
from ._core.moments import (
    Spec,
    StreamingMixin,
    any_dask,
    check_fitted,
    chunk_variables,
    dask_inputs,
    dask_moments,
    dask_transform_input,
    is_dask,
    map_rows,
    reject_dask,
    sensitive_kinds,
)
from ._core.pls_steps import (
    EPS,
    ETA_CONSTRAINT,
    TOL,
    check_y,
    encode_penalty_sensitive,
    is_zero_score,
    leading_direction,
    objective_rounding,
    stops_at,
)
from ._core.validation import (
    TRANSFORM_DTYPE,
    check_array,
    check_n_components,
    check_transform_input,
    validate_data,
    warn_unconstrained,
)

__all__ = ["FairPLS", "NaiveFairPLS", "nipals"]



# --------------------------------------------------------------------------------------------
# Private helpers
# --------------------------------------------------------------------------------------------
def _center_scale(A, scale):
    """Column-centre ``A`` (a new array) and, if ``scale``, divide by the ddof=1 std (0 → 1).

    Also returns the squared column norms of the result (the scale of its rounding errors).
    """
    mean = A.mean(axis=0)
    A = A - mean
    squares = np.einsum("ij,ij->j", A, A)  # one pass, no temporary
    if scale:
        std = np.sqrt(squares / (A.shape[0] - 1))
        std[std == 0.0] = 1.0
        A /= std
        squares = squares / std**2
    else:
        std = np.ones(A.shape[1])
    return A, mean, std, squares


def _exact_weight(A, B, eta, n_terms):
    """Exact maximiser w (unit, in ℝᵈ) of wᵀ(AAᵀ − ηBBᵀ)w over range([A, B]), and its value.

    Directions orthogonal to range([A, B]) have objective exactly 0, so the maximum over ℝᵈ is
    ``max(value, 0)``; the caller stops when ``value`` is not above its rounding level (see
    :func:`_components`).  The thin SVD only compresses [A, B] to its numerical range
    (directions below its rounding level change the objective by less than rounding); it
    decides no constraint.
    """
    m = A.shape[1]
    C = A if (eta == 0 or B.shape[1] == 0) else np.hstack([A, B])
    U, s, Vt = thin_svd(C)  # O(d (m+q)²)
    keep = s > (s[0] if s.size else 0.0) * max(C.shape) * EPS
    U, R = U[:, keep], s[keep, None] * Vt[keep]  # C = U R, U orthonormal (d × r)
    if R.shape[0] == 0:
        return None, 0.0
    v, value = leading_direction(R[:, :m], R[:, m:], eta, n_terms)
    return U @ v, value


def _gradient_weight(A, B, eta, n, *, learning_rate, max_iter, tol, constraint=None):
    """De-Diego et al.'s gradient solver: projected gradient ascent of g(w) on the unit sphere.

    g(w) = (‖Aᵀw‖² − η‖Bᵀw‖²)/n², ∇g = 2(AAᵀw − ηBBᵀw)/n²; every step is followed by the
    normalisation of Algorithm 1 ("scale them to be of length one").  Start: the PLS direction
    A[:, 0] (first target).  ``learning_rate=None`` uses n² / (2(‖A‖_F² + η‖B‖_F²)), which keeps
    every factor 1 + 2·lr·λ/n² of the iteration in [0, 2] so the ascent cannot overshoot.  For
    η = ∞ the step is projected on range(B)^⊥ (projected gradient for the hard constraint),
    with ``constraint`` the orthonormal basis of range(B).
    """
    hard = np.isinf(eta)
    Q = constraint if (hard and B.shape[1]) else None

    def project(v):
        return v - Q @ (Q.T @ v) if Q is not None else v

    def grad(v):
        g = A @ (A.T @ v)
        if not hard and eta > 0 and B.shape[1]:
            g -= eta * (B @ (B.T @ v))
        return 2.0 * g / n**2

    if learning_rate is None:
        lip = np.sum(A**2) + (0.0 if hard else eta * np.sum(B**2))
        learning_rate = n**2 / (2.0 * lip) if lip > 0 else 1.0
    w = project(A[:, 0].copy())
    if not np.linalg.norm(w) > 0:
        w = project(np.ones(A.shape[0]))
    w /= np.linalg.norm(w)
    for it in range(1, max_iter + 1):
        w_new = project(w + learning_rate * grad(w))
        w_new /= np.linalg.norm(w_new)
        done = np.linalg.norm(w_new - w) < tol
        w = w_new
        if done:
            return w, it
    warnings.warn(
        f"The gradient solver did not converge in max_iter={max_iter} iterations "
        f"(tol={tol}); increase max_iter or use solver='exact'.",
        ConvergenceWarning,
        stacklevel=4,
    )
    return w, max_iter


def _fit_components(Xc, Yc, Sc, n_components, eta, *, solver="exact", learning_rate=None,
                    max_iter=1000, tol=TOL, independent=None, x_squares=None):
    """Algorithm 1 of De-Diego et al. on centred (scaled) X, Y, S; returns the fitted matrices.

    ``independent`` selects the columns of S that span its range by construction (see
    :func:`encode_penalty_sensitive`); the hard constraint (η = ∞) is built from them only.
    ``x_squares``: the squared column norms of Xc when known (from :func:`_center_scale`).

    X is never deflated in memory: with X_h = X − T_{<h} P_{<h}ᵀ (exact, by induction),
    X_h w = Xw − T(Pᵀw), X_hᵀt = Xᵀt − P(Tᵀt), and X_{h+1}ᵀZ = X_hᵀZ − p(tᵀZ) for Z = [Y, S].
    """
    hard = np.isinf(eta)
    if hard and independent is not None:
        Sc = Sc[:, independent]
    Z = np.hstack([Yc, Sc]) if Sc.shape[1] else Yc
    XtZ = Xc.T @ Z  # X_hᵀ[Y, S], updated by rank-one corrections
    return _components(XtZ, Yc.shape[1], Xc.shape[0], n_components, eta,
                       _ScoreDeflation(Xc, Yc, Sc, Z, n_components, x_squares), solver=solver,
                       learning_rate=learning_rate, max_iter=max_iter, tol=tol)


def _fit_components_from_moments(XtX, XtY, XtS, n, n_components, eta, *, y_squares, s_squares,
                                 solver="exact", learning_rate=None, max_iter=1000, tol=TOL,
                                 independent=None):
    """:func:`_fit_components` from the cross-product matrices alone (dask, ``partial_fit``).

    XᵀX (d×d), XᵀY (d×m) and XᵀS̃ (d×q) of the centred, scaled variables are all the loop needs:
    with t = X_h w, the deflation X_{h+1} = X_h − t pᵀ gives
    X_{h+1}ᵀX_{h+1} = X_hᵀX_h − (tᵀt) p pᵀ, X_hᵀt = X_hᵀX_h w, tᵀt = wᵀX_hᵀX_h w,
    tᵀ[Y, S] = wᵀX_hᵀ[Y, S] and Y_hᵀt = Yᵀt (the scores are orthogonal), so no score vector
    (n-vector) is ever formed.  ``y_squares`` and ``s_squares`` are the squared column norms
    of Y and S̃ (rounding bounds of the objective and of the hard constraint).
    """
    hard = np.isinf(eta)
    if hard and independent is not None:
        XtS, s_squares = XtS[:, independent], s_squares[independent]
    XtZ = np.hstack([XtY, XtS]) if XtS.shape[1] else XtY.copy()
    backend = _GramDeflation(XtX, y_squares, s_squares, n_components)
    return _components(XtZ, XtY.shape[1], n, n_components, eta, backend, solver=solver,
                       learning_rate=learning_rate, max_iter=max_iter, tol=tol)


class _ScoreDeflation:
    """Deflation with the score vectors t = X_h w (in-memory fit)."""

    def __init__(self, Xc, Yc, Sc, Z, n_components, x_squares=None):
        self.Xc, self.Yc, self.Sc, self.Z = Xc, Yc, Sc, Z
        self.x_squares = x_squares
        self.T = np.zeros((Xc.shape[0], n_components))
        self.x_norm = None  # ‖Xc‖_F, set by column_norms

    def column_norms(self):
        def norms(A):
            return np.sqrt(np.einsum("ij,ij->j", A, A))  # one pass, no temporary

        x_norms = norms(self.Xc) if self.x_squares is None else np.sqrt(self.x_squares)
        self.x_norm = float(np.linalg.norm(x_norms))
        return x_norms, norms(self.Yc), norms(self.Sc)

    def deflate(self, w, h, P, Q, XtZ):
        """Scores and loadings of component h; False when the score is zero."""
        Xc, T = self.Xc, self.T
        t = Xc @ w - T[:, :h] @ (P[:, :h].T @ w)  # t = X_h w
        tt = float(t @ t)
        # zero residual, on an absolute scale (the first score too is tested)
        if is_zero_score(tt, self.x_norm):
            return False
        Tt = T[:, :h].T @ t  # ≈ 0 (scores are orthogonal); kept for exactness
        P[:, h] = (Xc.T @ t - P[:, :h] @ Tt) / tt  # p = X_hᵀt / tᵀt
        Q[:, h] = (self.Yc.T @ t - Q[:, :h] @ Tt) / tt  # q = Y_hᵀt / tᵀt (regression of Y_h on t)
        XtZ -= np.outer(P[:, h], t @ self.Z)  # deflation of X_hᵀZ
        T[:, h] = t
        return True


class _GramDeflation:
    """Deflation through XᵀX only (see :func:`_fit_components_from_moments`).

    A score counts as zero when tᵀt ≤ 10·(h+1)·d·eps·tr(XᵀX): the rounding level of
    wᵀX_hᵀX_h w, coarser than the in-memory test on ‖t‖ since the Gram matrix squares the
    condition number of X.
    """

    def __init__(self, XtX, y_squares, s_squares, n_components):
        self.XtX, self.y_squares, self.s_squares = XtX, y_squares, s_squares
        self.T = None
        self.tts = np.zeros(n_components)
        self.trace = float(np.trace(XtX))

    def column_norms(self):
        def root(a):
            return np.sqrt(np.maximum(a, 0.0))
        return root(np.diag(self.XtX)), root(self.y_squares), root(self.s_squares)

    def deflate(self, w, h, P, Q, XtZ):
        Cw = self.XtX @ w - P[:, :h] @ (self.tts[:h] * (P[:, :h].T @ w))  # X_hᵀX_h w = X_hᵀt
        tt = float(w @ Cw)
        if not tt > 10.0 * (h + 1) * len(w) * EPS * self.trace:
            return False
        m = Q.shape[0]
        tZ = w @ XtZ  # tᵀ[Y, S]
        P[:, h] = Cw / tt
        Q[:, h] = tZ[:m] / tt
        XtZ -= np.outer(P[:, h], tZ)
        self.tts[h] = tt
        return True


def _components(XtZ, m, n, n_components, eta, backend, *, solver="exact", learning_rate=None,
                max_iter=1000, tol=TOL):
    """The per-component loop of Algorithm 1, shared by the in-memory and the moments fits."""
    d = XtZ.shape[0]
    hard = np.isinf(eta)
    W = np.zeros((d, n_components))
    P = np.zeros((d, n_components))
    Q = np.zeros((m, n_components))
    objective = np.zeros(n_components)
    n_iter = []
    x_norms, y_norms, s_norms = backend.column_norms()
    norms = (np.linalg.norm(x_norms), np.linalg.norm(y_norms), np.linalg.norm(s_norms))
    for h in range(n_components):
        A, B = XtZ[:, :m], XtZ[:, m:]
        # X_hᵀS̃ is a sum of n products, corrected once per deflation: h + 1 chained sums
        n_terms = n * (h + 1)
        if solver == "exact":
            w, value = _exact_weight(A, B, eta, n_terms)
        else:
            constraint = None
            if hard and B.shape[1]:
                constraint = constraint_basis(B, x_norms, s_norms, n_terms)
            w, it = _gradient_weight(A, B, eta, n, learning_rate=learning_rate,
                                     max_iter=max_iter, tol=tol, constraint=constraint)
            n_iter.append(it)
            value = float(np.sum((A.T @ w) ** 2))
            if not np.isinf(eta) and eta > 0 and B.shape[1]:
                value -= eta * float(np.sum((B.T @ w) ** 2))
        level = objective_rounding(None if w is None else A.T @ w,
                                   None if w is None else B.T @ w, eta, h, n, norms)
        # for h ≥ 1 the previous weights are directions of objective exactly 0
        if stops_at(None if w is None else value, level, h, n, n_components, "η‖Sᵀt‖²",
                    stacklevel=4):
            break
        # w ⟂ w_1..w_h by construction (w ∈ range(X_hᵀ) and X_h w_l = 0); rounding erodes
        # this from one component to the next, and what it leaves along the earlier weights is
        # amplified at every deflation until late weights follow the BLAS kernel's rounding
        w = w - W[:, :h] @ (W[:, :h].T @ w)
        w /= np.linalg.norm(w)
        w = flip_signs(w[:, None])[:, 0]  # largest |entry| positive, as sklearn's _svd_flip_1d
        if not backend.deflate(w, h, P, Q, XtZ):
            warnings.warn(
                f"component {h} has zero scores: the X residual is exhausted (rank {h}); the "
                "remaining components are zero.", UserWarning, stacklevel=4)
            break
        W[:, h] = w
        objective[h] = value / n**2
    return {"W": W, "P": P, "Q": Q, "T": backend.T, "objective": objective, "n_iter": n_iter}


def nipals(X, Y, n_components, *, scale=True, max_iter=500, tol=1e-12):
    r"""Plain NIPALS, Algorithm 2 of De-Diego et al. (Wold 1966), kept as an independent reference.

    Literal transcription: E, F are the column-centred (and, if ``scale``, ddof=1-standardised)
    X and Y; u starts at the first column of F; the inner loop alternates
    w = Eᵀu/uᵀu (normalised), t = Ew, c = Fᵀt/tᵀt (normalised), u = Fc until t stops moving;
    then p = Eᵀt/tᵀt, q = Fᵀu/uᵀu, b = uᵀt/tᵀt and E ← E − tpᵀ, F ← F − b t cᵀ.  (The paper
    prints u = Fᵀc, a typo: F is n×m, c ∈ ℝᵐ.)  Signs are not normalised.

    Returns
    -------
    dict with ``W`` (d×k), ``T`` (n×k), ``C`` (m×k), ``U`` (n×k), ``P`` (d×k).
    """
    E = _center_scale(np.asarray(X, dtype=float), scale)[0]
    Y = np.asarray(Y, dtype=float)
    F = _center_scale(Y.reshape(len(Y), -1), scale)[0]
    n, d = E.shape
    out = {key: np.zeros((dim, n_components)) for key, dim in
           (("W", d), ("T", n), ("C", F.shape[1]), ("U", n), ("P", d))}
    for h in range(n_components):
        u = F[:, 0].copy()
        t_old = np.zeros(n)
        for _ in range(max_iter):
            w = E.T @ u / (u @ u)
            w /= np.linalg.norm(w)
            t = E @ w
            c = F.T @ t / (t @ t)
            c /= np.linalg.norm(c)
            u = F @ c
            if np.linalg.norm(t - t_old) <= tol * np.linalg.norm(t):
                break
            t_old = t
        p = E.T @ t / (t @ t)
        b = (u @ t) / (t @ t)
        E = E - np.outer(t, p)
        F = F - b * np.outer(t, c)
        for key, val in zip("WTCUP", (w, t, c, u, p)):
            out[key][:, h] = val
    return out


def _columns(parts, rows):
    """Side-by-side blocks, or an empty (rows × 0) matrix."""
    return np.hstack(parts) if parts else np.zeros((rows, 0))


def _scores_block(B, mean, std, R):
    """``transform`` of one row block."""
    return ((B - mean) / std) @ R


def _predict_block(B, mean, coef, intercept, ravel):
    """``predict`` of one row block."""
    y_pred = (B - mean) @ coef.T + intercept
    return y_pred.ravel() if ravel else y_pred


# --------------------------------------------------------------------------------------------
# Linear Fair PLS
# --------------------------------------------------------------------------------------------
class _BasePLS(ClassNamePrefixFeaturesOutMixin, TransformerMixin, RegressorMixin,
               MultiOutputMixin, BaseEstimator):
    """Shared fit preparation, transform, predict and inverse_transform of the linear models."""

    def _prepare(self, X, y, sensitive_features, fallback):
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        n, d = X.shape
        y = check_y(y, n, type(self).__name__)
        self._predict_1d = y.ndim == 1
        Y = y.reshape(n, -1)
        Xc, self.x_mean_, self.x_std_, x_squares = _center_scale(X, self.scale)
        Yc, self.y_mean_, self.y_std_, _ = _center_scale(Y, self.scale)
        if sensitive_features is None:
            warn_unconstrained(self, fallback)
            S, independent = np.zeros((n, 0)), np.zeros(0, dtype=bool)
        else:
            S, s_weights, independent = encode_penalty_sensitive(sensitive_features, n)
        Sc, self.s_mean_, self.s_std_, _ = _center_scale(S, self.scale)
        if sensitive_features is not None:
            Sc *= s_weights
        k = check_n_components(self.n_components, min(n, d),
                               bound_text="min(n_samples, n_features)")
        return Xc, Yc, Sc, k, independent, x_squares

    def _set_fitted(self, fitted, support=None):
        W, P, Q, T = fitted["W"], fitted["P"], fitted["Q"], fitted["T"]
        self.x_weights_, self.x_loadings_, self.y_loadings_, self.x_scores_ = W, P, Q, T
        # rotations R with X R = T on the training data: T = X W (PᵀW)⁻¹ (PᵀW is unit
        # upper triangular); pinv as scikit-learn, so that zero components stay harmless.
        # numpy's LAPACK throughout the linear fit: mixing numpy's and scipy's OpenBLAS thread
        # pools in one fit makes each pool stall on the other's spinning threads.
        self.x_rotations_ = W @ np.linalg.pinv(P.T @ W)
        R, Qs = self.x_rotations_, Q
        if support is not None:
            R, Qs = R[:, support], Q[:, support]
        coef = (R @ Qs.T) * self.y_std_  # (d, m) in standardised-X units
        self.coef_ = coef.T / self.x_std_  # (n_targets, n_features), as PLSRegression
        self.intercept_ = self.y_mean_
        self._n_features_out = R.shape[1]

    def transform(self, X):
        """Scores of X: ((X − ``x_mean_``) / ``x_std_``) @ ``x_rotations_``, (n_samples, k).

        A dask array (or DataFrame) gives a lazy dask array, computed block by block.
        """
        check_fitted(self)
        R = self.x_rotations_
        if getattr(self, "support_", None) is not None:
            R = R[:, self.support_]
        if is_dask(X):
            A = dask_transform_input(self, X)
            return map_rows(A, _scores_block, R.shape[1], self.x_mean_, self.x_std_, R)
        X = check_transform_input(self, X)
        return ((X - self.x_mean_) / self.x_std_) @ R

    def predict(self, X):
        """Targets predicted by the regression of Y on the scores (as ``PLSRegression``).

        A dask array gives a lazy dask array.
        """
        check_fitted(self)
        if is_dask(X):
            A = dask_transform_input(self, X)
            return map_rows(A, _predict_block, self.coef_.shape[0], self.x_mean_, self.coef_,
                            self.intercept_, self._predict_1d, drop_columns=self._predict_1d)
        X = check_transform_input(self, X)
        y_pred = (X - self.x_mean_) @ self.coef_.T + self.intercept_
        return y_pred.ravel() if self._predict_1d else y_pred

    def inverse_transform(self, X):
        """Back to feature space: X ≈ T Pᵀ · ``x_std_`` + ``x_mean_`` (exact when k = rank)."""
        check_fitted(self)
        T = check_array(X, input_name="X", owner=type(self).__name__, dtype=TRANSFORM_DTYPE)
        P = self.x_loadings_
        if getattr(self, "support_", None) is not None:
            P = P[:, self.support_]
        if T.shape[1] != P.shape[1]:
            raise ValueError(
                f"X has {T.shape[1]} columns but the model has {P.shape[1]} components; pass "
                "the output of transform.")
        return T @ P.T * self.x_std_ + self.x_mean_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.regressor_tags.poor_score = True
        return tags


class FairPLS(StreamingMixin, _BasePLS):
    r"""Fair partial least squares: PLS components penalised for covariance with S.

    Component h maximises :math:`\|Y^\top X_h w\|^2 - \eta\,\|S^\top X_h w\|^2` over unit
    vectors w (De-Diego et al., eq. (4)), where :math:`X_h` is the deflated centred input.  The
    maximiser is computed exactly, as the leading eigenvector of the rank ≤ m + q matrix
    :math:`X_h^\top(YY^\top - \eta SS^\top)X_h` reduced to an (m+q)×(m+q) eigenproblem; the
    paper's gradient solver is available as ``solver="gradient"`` and converges to it.

    Parameters
    ----------
    n_components : int, default=2
        Number of components, at most min(n_samples, n_features).
    eta : float or np.inf, default=1.0
        Penalty η ≥ 0 on the squared covariance with S.  ``0`` is PLS regression (identical to
        ``sklearn.cross_decomposition.PLSRegression``); ``np.inf`` imposes the hard constraint
        that every component has zero covariance with every column of S.
    fairness : {"demographic_parity", "equalized_odds"}, default="demographic_parity"
        ``"equalized_odds"`` penalises the conditional cross-covariance given Y (§4.2, eq. (8)):
        S is replaced by its residual after a linear regression on Y.
    scale : bool, default=True
        Standardise X, Y **and S** (ddof=1, like ``PLSRegression``).  The paper normalises its
        inputs (App. 8.2) but leaves the scale of S unsaid; standardising S makes η a unit-free
        weight between squared covariances with standardised variables.  ``False`` only centres.
    solver : {"exact", "gradient"}, default="exact"
        ``"exact"``: closed form per component.  ``"gradient"``: De-Diego et al.'s gradient ascent
        on
        the sphere (for comparison; see ``learning_rate``, ``max_iter``, ``tol``).
    learning_rate : float or None, default=None
        Step of the gradient solver; None → n²/(2(‖XᵀY‖_F² + η‖XᵀS‖_F²)).
    max_iter : int, default=1000
        Maximum iterations of the gradient solver per component.
    tol : float, default=1e-10
        The gradient solver stops when ‖w_{t+1} − w_t‖ < tol.

    Attributes
    ----------
    x_weights_ : ndarray of shape (n_features, n_components)
        Unit weight vectors :math:`w_h` (sign: largest-magnitude entry positive), orthogonal
        by construction and re-orthogonalised against the earlier ones as they are computed,
        so that rounding does not accumulate through the deflations (near k = d it would
        otherwise decide the last weights, differently on each BLAS kernel).
    x_loadings_ : ndarray of shape (n_features, n_components)
        Loadings :math:`p_h = X_h^\top t_h / t_h^\top t_h`.
    x_rotations_ : ndarray of shape (n_features, n_components)
        :math:`W (P^\top W)^{-1}`, so that ``transform(X) = ((X − x_mean_)/x_std_) @ x_rotations_``.
    x_scores_ : ndarray of shape (n_samples, n_components) or None
        Training scores :math:`t_h`; None after a fit on a dask array or a stream (the rows are
        not kept: ``transform(X)`` gives them).
    y_loadings_ : ndarray of shape (n_targets, n_components)
        Regression coefficients of the deflated Y on each score.
    coef_ : ndarray of shape (n_targets, n_features)
        Coefficients of ``predict`` on the original X scale; ``intercept_`` of shape (n_targets,).
    objective_ : ndarray of shape (n_components,)
        Value of the per-component objective :math:`(\|Y^\top t\|^2 - \eta\|S^\top t\|^2)/n^2`
        at the solution (for η = ∞ only the first term); positive, or 0 for the zero
        components after the fit stopped (see Notes).
    x_mean_, x_std_, y_mean_, y_std_, s_mean_, s_std_ : ndarray
        Centring and scaling of X, Y and the encoded S.
    n_iter_ : int
        Largest number of gradient iterations over the components (1 for the exact solver).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)

    Notes
    -----
    Sensitive attribute encoding: float columns are a continuous attribute, used as they are.
    Integer, boolean, string and categorical columns are group labels: m ≥ 3 groups by their m
    indicators weighted by 1/√2 (after centring and scaling), two groups by the indicator of the
    second, so the penalty is ½ Σ_g Cov²(t, 1[S = g]) — invariant to relabelling the groups, and
    for two groups identical to coding the attribute as a 0/1 float.  The encoding is that of
    :func:`fairlab.metrics.cov2` (``fairlab._core.validation.encode_sensitive``).
    *When the maximum is zero.*  Every w orthogonal to :math:`\operatorname{range}(X_h^\top
    [Y, S])` has objective exactly 0 (for h ≥ 1 the previous weights are such directions, since
    :math:`X_h w_l = 0`), so the per-component maximum is ≥ 0.  When no direction earns more than
    the rounding level of the objective (the covariance with Y is exhausted, or outweighed by
    the covariance with S for every direction that still has it), the maximiser 0 is not unique
    and any direction chosen among them would be decided by rounding (and by the BLAS kernel).
    The fit then stops: that component and all later ones are exactly zero (weights, loadings,
    scores, ``objective_``), with a ``UserWarning`` naming the component.  So ``objective_`` is
    never negative and no component is kept that does not improve the objective.  The rounding
    level of component h is :math:`2\|A^\top w\|\delta_A + \delta_A^2 + \eta(2\|B^\top w\|
    \delta_B + \delta_B^2)` with :math:`\delta_A = n(h+1)\,\varepsilon\,\|X\|_F\|Y\|_F`,
    :math:`\delta_B = n(h+1)\,\varepsilon\,\|X\|_F\|S\|_F`, the bound on the error of the
    computed :math:`A = X_h^\top Y`, :math:`B = X_h^\top S` (ε the machine epsilon).
    ``sensitive_features=None`` fits plain PLS and warns.  The scores of the training data are
    exactly (to rounding) uncorrelated with S when ``eta=np.inf``; ``transform`` applies the
    learned linear map to new data.

    *Beyond memory: dask arrays and* ``partial_fit``.  The deflation needs no pass over the
    rows: with t = X_h w and X_{h+1} = X_h − t pᵀ, X_{h+1}ᵀX_{h+1} = X_hᵀX_h − (tᵀt)ppᵀ,
    tᵀt = wᵀX_hᵀX_h w, X_hᵀt = X_hᵀX_h w and tᵀ[Y, S] = wᵀX_hᵀ[Y, S], so every component
    (finite η and η = ∞, both fairness modes, both solvers) follows from XᵀX, XᵀY and XᵀS̃
    (and YᵀY, YᵀS̃ for equalized odds) of the centred, scaled variables.  ``fit`` on a dask
    array/DataFrame computes them blockwise in one ``dask.compute`` (the group labels of a
    categorical attribute are found in the same pass); ``partial_fit`` adds them up chunk by
    chunk.  Both then run the per-component loop of the in-memory fit on these matrices
    instead of on the score vectors; the results agree with ``fit`` on the concatenated rows
    to rounding (forming XᵀX squares the condition number of X, so a component whose score
    variance is below ~d·eps·tr(XᵀX) counts as zero there).  ``transform``/``predict`` of a
    dask array are lazy (``map_blocks``); ``x_scores_`` is None.

    References
    ----------
    De-Diego, Pérez-Suay, Gordaliza, Loubes (2025). PLS-based approach for fair representation
    learning. §3.2, Algorithm 1, §4.2.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import FairPLS
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 200)
    >>> X = rng.normal(size=(200, 5)) + s[:, None]
    >>> y = X @ np.arange(5.0) + rng.normal(size=200)
    >>> T = FairPLS(2, eta=np.inf).fit(X, y, sensitive_features=s).transform(X)
    >>> bool(np.abs((T - T.mean(0)).T @ (s - s.mean())).max() < 1e-9)
    True
    """

    _stream_attributes = (
        "x_weights_", "x_loadings_", "y_loadings_", "x_scores_", "x_rotations_", "coef_",
        "intercept_", "x_mean_", "x_std_", "y_mean_", "y_std_", "s_mean_", "s_std_",
        "objective_", "n_iter_", "_n_features_out",
    )

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "eta": ETA_CONSTRAINT,
        "fairness": [StrOptions({"demographic_parity", "equalized_odds"})],
        "scale": ["boolean"],
        "solver": [StrOptions({"exact", "gradient"})],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, n_components=2, *, eta=1.0, fairness="demographic_parity", scale=True,
                 solver="exact", learning_rate=None, max_iter=1000, tol=TOL):
        self.n_components = n_components
        self.eta = eta
        self.fairness = fairness
        self.scale = scale
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit the Fair PLS components.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or a dask Array / DataFrame
            A dask collection is read blockwise in one pass (see Notes).
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Target(s); required.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Sensitive attribute(s), numeric (continuous allowed) or categorical; None → plain
            PLS with an ``UnconstrainedFallbackWarning``.

        Returns
        -------
        self : FairPLS
        """
        self._reset_stream()
        if any_dask(X, y, sensitive_features):
            return self._fit_dask(X, y, sensitive_features)
        Xc, Yc, Sc, k, independent, x_squares = self._prepare(X, y, sensitive_features,
                                                               "PLS regression")
        if self.fairness == "equalized_odds" and Sc.shape[1]:
            # conditional cross-covariance C_{t,S|Y} = tᵀ(S − Y(YᵀY)⁺YᵀS)/n  (eq. (8))
            Sc = Sc - Yc @ np.linalg.lstsq(Yc, Sc, rcond=None)[0]
        eta = self.eta if Sc.shape[1] else 0.0
        fitted = _fit_components(Xc, Yc, Sc, k, eta, solver=self.solver,
                                 learning_rate=self.learning_rate, max_iter=self.max_iter,
                                 tol=self.tol, independent=independent, x_squares=x_squares)
        self._finish(fitted)
        return self

    def _finish(self, fitted):
        self.objective_ = fitted["objective"]
        # largest iteration count over the components; 1 for the exact solver (one
        # eigendecomposition per component, nothing iterated)
        self.n_iter_ = int(max(fitted["n_iter"], default=1))
        self._set_fitted(fitted)

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y=None, *, sensitive_features=None):
        """Accumulate the cross products of one chunk of rows (a stream, a memory-mapped file).

        The fit after any sequence of calls equals one :meth:`fit` on the concatenated chunks,
        to rounding (see Notes), whatever the chunking; categorical attributes may gain groups
        in later chunks.  Every call then computes the components of the sums so far, so the
        fitted attributes are current after each call (while the sums have no solution yet,
        ``transform`` and ``predict`` say why); ``x_scores_`` is None (the rows are not kept).
        A ``partial_fit`` after :meth:`fit` starts a new stream.
        ``n_samples_seen_`` counts the rows passed so far.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_features)
        y : array-like of shape (n_rows,) or (n_rows, n_targets)
            Required in every call.
        sensitive_features : array-like of shape (n_rows,) or (n_rows, n_attributes)
            The same attributes in every call (each keeps the encoding, continuous or
            categorical, that its dtype had in the first chunk), or ``None`` in every call.

        Returns
        -------
        self : FairPLS
        """
        return self._partial_fit(X, y, sensitive_features)

    # -- dask arrays and streams: the same loop from the cross products ---------------------
    _fallback = "PLS regression"

    def _moment_spec(self, d, m, columns):
        kinds = () if columns is None else sensitive_kinds(columns, "f")
        return Spec(n_features=d, n_targets=m, kinds=kinds)

    def _fit_dask(self, X, y, sensitive_features):
        if y is None:
            check_y(None, 0, type(self).__name__)
        y_1d = np.ndim(y) == 1
        X, Y, columns = dask_inputs(self, X, y, sensitive_features)
        if sensitive_features is None:
            warn_unconstrained(self, self._fallback)
        self._predict_1d = y_1d
        spec = self._moment_spec(X.shape[1], Y.shape[1], columns)
        self._fit_moments(dask_moments(spec, X, Y, columns))
        return self

    def _stream_spec(self, X, y, columns):
        y = check_y(y, X.shape[0], type(self).__name__)
        self._predict_1d = y.ndim == 1
        return self._moment_spec(X.shape[1], 1 if y.ndim == 1 else y.shape[1], columns)

    def _stream_chunk(self, spec, X, y, columns):
        y = check_y(y, X.shape[0], type(self).__name__)
        return chunk_variables(spec, X, y, columns or [])

    def _fit_moments(self, moments):
        """The fit from accumulated sums (dask, ``partial_fit``): the same per-component loop."""
        moments.check_finite("X, y or sensitive_features")
        spec = moments.spec
        n, d, m = moments.n, spec.n_features, spec.n_targets
        if n < 2:
            raise ValueError(f"Found array with {n} sample(s) while a minimum of 2 is required.")
        mean, Cc = moments.mean(), moments.centred_scatter()
        xs, ys = slice(0, d), slice(d, d + m)

        def spread(squares):  # ddof=1 standard deviations (0 → 1), as _center_scale
            if not self.scale:
                return np.ones(len(squares))
            std = np.sqrt(np.maximum(squares, 0.0) / (n - 1))
            std[std == 0.0] = 1.0
            return std

        diag = np.diag(Cc)
        self.x_mean_, self.x_std_ = mean[xs], spread(diag[xs])
        self.y_mean_, self.y_std_ = mean[ys], spread(diag[ys])
        s_mean, squares, XS, YS, weights, independent = [], [], [], [], [], []
        column, cat = d + m, 0
        for a, kind in enumerate(spec.kinds):
            if kind == "continuous":
                j = column
                column += 1
                s_mean.append(mean[j : j + 1])
                squares.append(diag[j : j + 1])
                XS.append(Cc[xs, j : j + 1])
                YS.append(Cc[ys, j : j + 1])
                weights.append([1.0])
                independent.append([True])
            else:
                labels, counts, centred, _ = moments.groups(cat)
                cat += 1
                if len(labels) < 2:
                    raise ValueError(
                        f"sensitive_features attribute {a} has a single group ({labels[0]!r}); "
                        "a fairness penalty needs at least two groups. Pass "
                        "sensitive_features=None for the unconstrained method.")
                counts = counts.astype(np.float64)
                s_mean.append(counts / n)
                squares.append(counts - counts**2 / n)
                XS.append(centred[:, xs].T)
                YS.append(centred[:, ys].T)
                weights.append(np.full(len(labels), np.sqrt(0.5)))
                independent.append(np.arange(len(labels)) < len(labels) - 1)
        q = sum(len(w) for w in weights)
        squares = np.concatenate(squares) if q else np.zeros(0)
        weights = np.concatenate(weights) if q else np.zeros(0)
        independent = np.concatenate(independent).astype(bool) if q else np.zeros(0, bool)
        self.s_mean_ = np.concatenate(s_mean) if q else np.zeros(0)
        self.s_std_ = spread(squares)
        x_std, y_std, s_std = self.x_std_, self.y_std_, self.s_std_
        XtX = Cc[xs, xs] / np.outer(x_std, x_std)
        XtY = Cc[xs, ys] / np.outer(x_std, y_std)
        XtS = _columns(XS, d) / np.outer(x_std, s_std) * weights
        s_squares = squares / s_std**2 * weights**2
        if self.fairness == "equalized_odds" and q:
            # S − Y(YᵀY)⁺YᵀS from the cross products (eq. (8))
            YtY = Cc[ys, ys] / np.outer(y_std, y_std)
            YtS = _columns(YS, m) / np.outer(y_std, s_std) * weights
            coef = np.linalg.pinv(YtY, hermitian=True) @ YtS
            XtS = XtS - XtY @ coef
            s_squares = s_squares - np.einsum("ij,ij->j", YtS, coef)
        k = check_n_components(self.n_components, min(n, d),
                               bound_text="min(n_samples, n_features)")
        eta = self.eta if q else 0.0
        fitted = _fit_components_from_moments(
            XtX, XtY, XtS, n, k, eta, y_squares=diag[ys] / y_std**2, s_squares=s_squares,
            solver=self.solver,
            learning_rate=self.learning_rate, max_iter=self.max_iter, tol=self.tol,
            independent=independent)
        self._finish(fitted)
        return self


class NaiveFairPLS(_BasePLS):
    r"""Naive ("vanilla") Fair PLS: plain PLS components whose link with S is below a threshold.

    De-Diego et al., Appendix Algorithm 3 (after Champion et al. 2023): fit ``n_components`` PLS
    components and keep those whose correlation ratio :math:`\eta^2(t_h, S) < \tau`.

    Parameters
    ----------
    n_components : int, default=2
        Number of PLS components computed before selection.
    threshold : float in [0, 1], default=0.2
        τ; a component is kept when η²(t, S) < τ.
    scale : bool, default=True
        Standardise X and Y (ddof=1) as ``PLSRegression``.

    Attributes
    ----------
    correlation_ratios_ : ndarray of shape (n_components,)
        :math:`\eta^2(t_h, S)` = between-group sum of squares / total sum of squares of the
        score; for several or continuous attributes, the R² of the score's least-squares
        regression on the encoded S (identical to η² for one categorical attribute).
    support_ : ndarray of bool, shape (n_components,)
        Kept components.
    n_components_ : int
        Number of kept components (at least 1: ``fit`` raises a ``ValueError`` naming the
        smallest correlation ratio when no component passes the threshold).
    x_weights_, x_loadings_, x_rotations_, x_scores_, y_loadings_ : ndarray
        Of all ``n_components`` PLS components (see :class:`FairPLS`).
    coef_, intercept_ : ndarray
        ``predict`` regresses Y on the kept scores only.

    References
    ----------
    De-Diego et al. (2025), Appendix, Algorithm 3 and §8.4.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab import NaiveFairPLS
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 200)
    >>> X = rng.normal(size=(200, 5)) + 3 * s[:, None] * np.eye(5)[0]
    >>> y = X.sum(1) + rng.normal(size=200)
    >>> m = NaiveFairPLS(3, threshold=0.2).fit(X, y, sensitive_features=s)
    >>> m.transform(X).shape[1] == m.n_components_
    True
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "threshold": [Interval(Real, 0, 1, closed="both")],
        "scale": ["boolean"],
    }

    def __init__(self, n_components=2, *, threshold=0.2, scale=True):
        self.n_components = n_components
        self.threshold = threshold
        self.scale = scale

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, *, sensitive_features=None):
        """Fit plain PLS, then keep the components with η²(t, S) < threshold."""
        reject_dask(self, X, y, sensitive_features,
                    alternative="FairPLS accepts dask arrays (eta=0 is plain PLS).")
        Xc, Yc, Sc, k, independent, x_squares = self._prepare(X, y, sensitive_features,
                                                   "PLS regression, no selection")
        fitted = _fit_components(Xc, Yc, np.zeros((Xc.shape[0], 0)), k, 0.0,
                                 x_squares=x_squares)
        T = fitted["T"]
        if Sc.shape[1]:
            # centred S: R² = ‖proj_S t‖² / ‖t‖² (t is centred); S's range from its independent
            # columns, with the rounding bound of centring (a sum of n terms per entry)
            S_ind = Sc[:, independent]
            basis = constraint_basis(S_ind, np.ones(S_ind.shape[0]),
                                     np.linalg.norm(S_ind, axis=0), n_terms=S_ind.shape[0])
            tt = np.einsum("ij,ij->j", T, T)
            ratios = np.sum((basis.T @ T) ** 2, axis=0) / np.where(tt > 0, tt, 1.0)
            support = ratios < self.threshold
        else:
            ratios = np.zeros(k)
            support = np.ones(k, dtype=bool)
        self.correlation_ratios_ = ratios
        self.support_ = support
        self.n_components_ = int(support.sum())
        if self.n_components_ == 0:
            raise ValueError(
                f"NaiveFairPLS kept no component: every correlation ratio η²(t, S) is >= "
                f"threshold={self.threshold} (smallest {ratios.min():.3g}). Raise threshold "
                f"above {ratios.min():.3g} or compute more components (n_components > {k})."
            )
        self._set_fitted(fitted, support=support)
        return self
