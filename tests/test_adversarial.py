r"""Adversarial property tests (DESIGN §7, issue 11, item 3).

Every estimator is run on instances from :mod:`adversarial` (offsets far from the origin,
uncentred fits, per-column scales 1e-3 … 1e3, tiny and unbalanced groups, collinear attributes,
k at the bound, d > n, near ties, collinear columns, float32, integer/string labels) and compared
with an **independent dense reference written in this file** from the papers' formulas
(``scipy.linalg.svd`` / ``eigh``; no fairlab helper is imported).

Rank decisions in the references
--------------------------------
No rank decision is made in double precision on a matrix that is rank-deficient by construction.
The span of the centred group indicators (all attributes stacked, plus integer-valued sensitive
columns) gets its rank and basis from an oracle independent of fairlab's rational elimination:
the integer matrix n·Z̃ᵀZ̃ of the paper diagonalised by Jacobi rotations in extended precision,
with a verified empty band around the threshold (:func:`adversarial.centred_design_basis`): m −
1 columns per attribute, fewer when attributes are collinear (duplicates, coarsenings).  The one
remaining decision is genuine — whether the data resolve a group contrast.  For a constraint
matrix ŨᵀXc (Ũ orthonormal, Xc the two-pass centred data) its singular values below ``RANK_RTOL
· ‖Xc‖_F`` count as zero.  RANK_RTOL = 1e-11 is ~50× the rounding floor of these products for
the generator's data (offsets ≤ 1e3 × spread give centred entries with absolute error ≈
1e3·eps·spread) and 10× below the constraint tolerance 1e-10 asserted on the estimators, so
every direction the reference calls free passes that check.  An instance with a singular value
in the ambiguous band (AMBIGUOUS, two decades either side) is a *reference* problem, not an
estimator failure: it is listed in the batch's summary, its objective is not asserted
(constraints still are), and at most 5 % of a batch may be ambiguous (the generator avoids them:
0 for FairPCA/PLS/FDR, ~2 % for the kernel families).

Tolerances (asserted; the failure message prints the instance id and the gap)
-----------------------------------------------------------------------------
* objectives: relative to the natural scale of the problem — tr(C) for fair PCA (C the scatter
  or second-moment matrix: the objective of any unit direction lies in [0, ‖C‖₂] ⊂ [0, tr C]),
  tr(K̃) for kernel PCA, the reference value (sum of the top-k generalized eigenvalues) for
  FDR/KFDR with a ridge, tr(A) for FDR/KFDR with ``ridge=0``, ‖A‖² + η‖B‖² for Fair PLS
  (the norm scale of AAᵀ − ηBBᵀ);
* constraints: ‖Z̃ᵀ X U‖_F ≤ 1e-10 ‖X_fit‖_F ‖Z̃‖_F, the relative residual of the paper's
  constraint Z̃ᵀXU = 0 for unit directions (X_fit = centred X for ``center=True``, X itself
  for ``center=False``; Z̃ᵀX = Z̃ᵀXc since Z̃ is centred);
* orthonormality: ``components_ @ components_.T`` = I to 1e-10 (entrywise);
* kernel methods (dual coefficients c, u = Φ̃ᵀc): the same targets plus a documented rounding
  allowance 10·δ‖c‖ (δ the spectral size of K̃'s rounding) and 10× the reference's measured
  sensitivity to rounding-sized perturbations of K̃ — see :func:`_fkpca_embedding_checks` and
  :func:`probe_uncertainty`.  Residuals without the allowance are reported as "(raw)".

Each pytest item runs a batch of 50 instances (10 batches per family); ``Report`` prints the
worst value of every checked quantity over the batch and the first failures with their ids.
Rebuild one with ``adversarial.instance(family, 0, index)``.
"""

import time
import warnings
from decimal import Decimal, localcontext

import numpy as np
import pandas as pd
import pytest
from adversarial import centred_design_basis, instance, instances
from scipy import linalg
from sklearn.cross_decomposition import PLSRegression
from threadpoolctl import threadpool_limits

from fairlab import FairDR, FairKernelPCA, FairKernelProjection, FairPCA, FairPLS, KernelFairDR

N_BATCHES = 10
BATCH = 50  # 10 batches × 50 = 500 instances per family
SEED = 0

RANK_RTOL = 1e-11
AMBIGUOUS = (1e-13, 1e-9)
EPS = np.finfo(float).eps


# =============================================================================================
# Reference building blocks
# =============================================================================================
def centred(X):
    """Two-pass centring in float64 (the second pass removes the first pass's rounding)."""
    Xc = np.asarray(X, dtype=np.float64) - np.asarray(X, dtype=np.float64).mean(axis=0)
    return Xc - Xc.mean(axis=0)


def stacked_centred_one_hot(codes_list):
    """Z̃ of the paper: centred one-hot columns of every attribute, side by side (all m)."""
    blocks = []
    for codes in codes_list:
        _, inv = np.unique(codes, return_inverse=True)
        Z = np.eye(inv.max() + 1)[inv.reshape(-1)]
        blocks.append(Z - Z.mean(axis=0))
    return np.hstack(blocks)


def contrast_basis(codes_list=(), integer_columns=(), float_columns=()):
    """Orthonormal basis of span(centred [Z, s]) with its rank from the independent oracle.

    Categorical attributes and integer-valued columns: the extended-precision oracle of
    :func:`adversarial.centred_design_basis` (no code shared with fairlab's exact elimination).
    Float-valued columns (continuous, generic) are appended; a collinear float column would be
    a generator bug, so it is asserted against.
    """
    n = len(codes_list[0]) if codes_list else len((list(integer_columns) + list(float_columns))[0])
    cols = []
    if codes_list or integer_columns:
        cols.append(centred_design_basis(list(codes_list), list(integer_columns)))
    for col in float_columns:
        cols.append(np.asarray(col, dtype=float).reshape(n, 1))
    if not cols:
        return np.zeros((n, 0))
    M = centred(np.hstack(cols))
    Q, R = np.linalg.qr(M)
    diag = np.abs(np.diag(R))
    assert diag.min(initial=np.inf) > 1e-8 * np.linalg.norm(M, axis=0).max(), (
        "reference: the sensitive columns are (nearly) collinear — generator bug")
    return Q


def null_space_of_constraint(Ut, Xc, scale=None):
    """Orthonormal basis of {u : ŨᵀXc u = 0} with the documented tolerance, and σ/scale.

    ``scale`` defaults to ‖Xc‖_F.  Returns (R, relative singular values of ŨᵀXc).
    """
    d = Xc.shape[1]
    if Ut.shape[1] == 0:
        return np.eye(d), np.zeros(0)
    M = Ut.T @ Xc
    scale = np.linalg.norm(Xc) if scale is None else scale
    _, s, Vt = linalg.svd(M, full_matrices=True)
    rel = s / scale if scale > 0 else np.zeros_like(s)
    rank = int(np.sum(rel > RANK_RTOL))
    return Vt[rank:].T, rel


def ambiguous(rel):
    """Singular values in the band where a rank decision could go either way."""
    return rel[(rel > AMBIGUOUS[0]) & (rel < AMBIGUOUS[1])]


def fit_quiet(est, *args, **kwargs):
    """Fit, silencing the documented UserWarnings (RuntimeWarnings stay errors, see pyproject)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return est.fit(*args, **kwargs)


class Report:
    """Collects per-instance failures and the worst gaps of a batch."""

    def __init__(self, family):
        self.family = family
        self.failures = []
        self.worst = {}
        self.ambiguous = []
        self.n = 0

    def gap(self, name, value):
        value = float(value)
        if not np.isfinite(value):
            value = np.inf
        self.worst[name] = max(self.worst.get(name, -np.inf), value)

    def fail(self, inst, what):
        self.failures.append(f"{inst.id}: {what}\n    {inst.describe()}")

    def check(self, inst, name, value, tol):
        """Record gap ``value`` (≤ tol passes) and a failure if it exceeds ``tol``."""
        self.gap(name, value)
        if not value <= tol:
            self.fail(inst, f"{name} = {value:.3e} > {tol:.1e}")

    def assert_ok(self):
        summary = ", ".join(f"{k}={v:.2e}" for k, v in sorted(self.worst.items()))
        if self.ambiguous:
            summary += f"; {len(self.ambiguous)} ambiguous reference instance(s): " + ", ".join(
                self.ambiguous[:5])
        if self.failures:
            head = "\n".join(self.failures[:15])
            more = len(self.failures) - 15
            raise AssertionError(
                f"{len(self.failures)} failure(s) in {self.n} {self.family} instances "
                f"(worst: {summary})\n{head}" + (f"\n... and {more} more" if more > 0 else ""))
        # instances whose reference rank decision is ambiguous are listed, not asserted on
        # (their objective is undetermined at the tolerance); they must stay rare
        assert len(self.ambiguous) <= 0.05 * self.n, (
            f"generator: too many ambiguous reference instances ({summary})")


def run_batch(family, batch, checker):
    """Run ``checker`` on one batch of instances; one BLAS thread (see below)."""
    report = Report(family)
    # One BLAS thread: the references alternate NumPy's and SciPy's OpenBLAS pools, and each
    # switch stalls both for ~15 ms on a 2-core machine (40 s instead of 3 s per batch).
    with threadpool_limits(limits=1):
        for inst in instances(family, BATCH, seed=SEED, start=batch * BATCH):
            report.n += 1
            try:
                checker(inst, report)
            except Exception as exc:  # a raise fails this instance, not the batch
                report.fail(inst, f"raised {type(exc).__name__}: {str(exc)[:300]}")
    return report


# =============================================================================================
# FairPCA (seed 000, Algorithms 1 and 2, §3.2, §3.5)
# =============================================================================================
def reference_fair_pca(X_fit, codes_fit, k, center):
    """Algorithm 1/2: R = null(Z̃ᵀX) (exact contrasts, documented tolerance), top-k of RᵀCR.

    Returns (eigenvalues of RᵀCR in descending order, C, Xc, relative constraint σ's).
    """
    Xc = centred(X_fit)
    C = Xc.T @ Xc if center else X_fit.T @ X_fit
    Ut = contrast_basis(codes_fit)
    R, rel = null_space_of_constraint(Ut, Xc)
    lam = linalg.eigh(R.T @ C @ R, eigvals_only=True)[::-1] if R.shape[1] else np.zeros(0)
    return lam, C, Xc, rel


def check_fair_pca(inst, report):
    X = np.asarray(inst.X, dtype=np.float64)
    rows = inst.info["fit_rows"]
    codes = [c[rows] for c in inst.info["codes"]]
    k = inst.params["n_components"]
    center = inst.params["center"]
    X_fit = X[rows]
    lam, C, Xc, rel = reference_fair_pca(X_fit, codes, k, center)
    unclear = ambiguous(rel).size > 0
    if unclear:  # reference rank decision could go either way: constraints only
        report.ambiguous.append(inst.id)
    est = fit_quiet(FairPCA(**inst.params), inst.X, inst.y, sensitive_features=inst.sensitive)
    U = est.components_.T
    trC = float(np.trace(C))
    if U.shape != (X.shape[1], k):
        report.fail(inst, f"components_ has shape {est.components_.shape}, "
                    f"expected {(k, X.shape[1])}")
        return
    ref = float(lam[:k].sum())
    obj = float(np.trace(U.T @ C @ U))
    per_comp = np.einsum("ij,ij->j", U, C @ U)
    if not unclear:
        # objective: fairlab must reach the optimum of Algorithm 1/2, up to 1e-9·tr(C)
        report.check(inst, "objective gap / tr(C)", (ref - obj) / trC, 1e-9)
        report.gap("objective excess / tr(C)", (obj - ref) / trC)
        # no zero component: every unit vector in the optimal subspace has uᵀCu ≥ λ_k (the
        # smallest Rayleigh quotient over the span of the top-k eigenvectors of RᵀCR)
        report.check(inst, "component below lambda_k / tr(C)",
                     (lam[k - 1] - per_comp.min()) / trC, 1e-9)
    report.check(inst, "|row norm - 1|", np.abs(np.linalg.norm(U, axis=0) - 1).max(), 1e-10)
    report.check(inst, "orthonormality", np.abs(U.T @ U - np.eye(k)).max(), 1e-10)
    Zt = stacked_centred_one_hot(codes)
    X_scale = np.linalg.norm(Xc if center else X_fit)
    residual = np.linalg.norm(Zt.T @ Xc @ U) / (X_scale * np.linalg.norm(Zt))
    report.check(inst, "constraint residual", residual, 1e-10)
    # explained_variance_: sample variance (ddof=1) of the fitted rows along each component
    var = np.einsum("ij,ij->j", Xc @ U, Xc @ U) / (len(rows) - 1)
    tot = np.trace(Xc.T @ Xc) / (len(rows) - 1)
    report.check(inst, "explained_variance_ error / tr(Cov)",
                 np.abs(est.explained_variance_ - var).max() / tot, 1e-9)


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_fair_pca_adversarial(batch):
    run_batch("fair_pca", batch, check_fair_pca).assert_ok()


# ---------------------------------------------------------------------------------------------
# FairPCA: explicit regressions and both sides of a genuine rank threshold
# ---------------------------------------------------------------------------------------------
def _fair_pca_against_reference(X, codes_list, est, center, *, label):
    lam, C, Xc, _ = reference_fair_pca(X, codes_list, est.n_components_, center)
    U = est.components_.T
    k = U.shape[1]
    trC = np.trace(C)
    obj = np.trace(U.T @ C @ U)
    Zt = stacked_centred_one_hot(codes_list)
    residual = np.linalg.norm(Zt.T @ Xc @ U) / (
        np.linalg.norm(Xc if center else X) * np.linalg.norm(Zt))
    norms = np.linalg.norm(U, axis=0)
    assert np.abs(norms - 1).max() <= 1e-10, f"{label}: zero/non-unit component, norms {norms}"
    assert (lam[:k].sum() - obj) / trC <= 1e-9, (
        f"{label}: objective {obj:.10g} < Algorithm 1/2's {lam[:k].sum():.10g}")
    assert residual <= 1e-10, f"{label}: constraint residual {residual:.2e}"
    return obj, lam


def test_issue_11_reproducer():
    """The offset-group instance of issue 11: Algorithm 1 gives [1.0153, 0.9901]."""
    rng = np.random.default_rng(3)
    n = int(rng.integers(100, 1000))
    d = int(rng.integers(3, 12))
    s = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + np.outer(s, rng.normal(size=d))
    est = FairPCA(2).fit(X, sensitive_features=s)
    _, lam = _fair_pca_against_reference(X, [s], est, True, label="issue 11 reproducer")
    np.testing.assert_allclose(est.explained_variance_, lam[:2] / (n - 1), rtol=1e-9)
    np.testing.assert_allclose(est.explained_variance_, [1.0153, 0.9901], atol=1e-4)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("offset", [0.0, 1e3])
def test_issue_11_reproducer_at_the_bound(center, offset):
    rng = np.random.default_rng(3)
    n = int(rng.integers(100, 1000))
    d = int(rng.integers(3, 12))
    s = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + np.outer(s, rng.normal(size=d)) + offset
    for k in range(1, d):
        est = FairPCA(k, center=center).fit(X, sensitive_features=s)
        _fair_pca_against_reference(X, [s], est, center, label=f"k={k}")


@pytest.mark.parametrize("center", [True, False])
def test_circle_counterexample(center):
    """Appendix A.1: both group means are 0, so FairPCA(1) is PCA(1) — never a zero component."""
    from fairlab.datasets import make_circle_counterexample

    X, z = make_circle_counterexample(400, noise=0.15, random_state=0)
    est = FairPCA(1, center=center).fit(X, sensitive_features=z)  # k = d − 1, the bound
    obj, lam = _fair_pca_against_reference(X, [z], est, center, label="circle")
    assert est.explained_variance_[0] > 0.1, "zero component on the circle counterexample"


def _pca_objective(X, k, center):
    Xc = centred(X)
    C = Xc.T @ Xc if center else X.T @ X
    return float(np.sort(linalg.eigh(C, eigvals_only=True))[::-1][:k].sum()), float(np.trace(C))


def _exactly_equal_means(kind, rng):
    """Data whose group means are equal to the last bit (integers) or to rounding (floats)."""
    d = 5
    if kind == "permutation-int":  # group 1 = the rows of group 0 in another order
        X0 = rng.integers(-50, 51, size=(60, d)).astype(float) + 1000.0
        X = np.vstack([X0, X0[rng.permutation(60)]])
        z = np.repeat([0, 1], 60)
    elif kind == "copies-int":  # unbalanced: group 1 = two copies of group 0
        X0 = rng.integers(-50, 51, size=(40, d)).astype(float) - 300.0
        X = np.vstack([X0, X0, X0[::-1]])
        z = np.repeat([0, 1], [40, 80])
    elif kind == "three-groups-int":
        X0 = rng.integers(-9, 10, size=(30, d)).astype(float) * 0.5 + 7.0
        X = np.vstack([X0, X0[rng.permutation(30)], X0[::-1]])
        z = np.repeat(["a", "b", "c"], 30)
    elif kind == "reflection-float":  # each group symmetric about the same centre c
        c = rng.normal(size=d) * 100.0
        H0 = rng.normal(size=(50, d))
        H1 = rng.normal(size=(35, d)) * 3.0
        X = np.vstack([c + H0, c - H0, c + H1, c - H1])
        z = np.repeat([0, 1], [100, 70])
    else:
        raise ValueError(kind)
    perm = rng.permutation(len(z))
    return X[perm], z[perm]


@pytest.mark.parametrize("kind", ["permutation-int", "copies-int", "three-groups-int",
                                  "reflection-float"])
@pytest.mark.parametrize("center", [True, False])
def test_equal_means_remove_nothing(kind, center):
    """Rank threshold, side (a): equal group means by construction → FairPCA = PCA (1e-10)."""
    rng = np.random.default_rng(11)
    X, z = _exactly_equal_means(kind, rng)
    d = X.shape[1]
    m = len(np.unique(z))
    for k in range(1, d - m + 2):
        est = FairPCA(k, center=center).fit(X, sensitive_features=z)
        Xc = centred(X)
        C = Xc.T @ Xc if center else X.T @ X
        U = est.components_.T
        obj = np.trace(U.T @ C @ U)
        pca, trC = _pca_objective(X, k, center)
        assert abs(obj - pca) <= 1e-10 * pca, (
            f"{kind}, center={center}, k={k}: FairPCA objective {obj:.15g} != PCA {pca:.15g} "
            f"(rel {abs(obj - pca) / pca:.2e}): a direction was removed although the group "
            "means are equal")


@pytest.mark.parametrize("offset", [0.0, 1e3])
@pytest.mark.parametrize("center", [True, False])
def test_resolvable_mean_difference_is_removed(offset, center):
    """Rank threshold, side (b): means differing by 1e-6 (data scale 1, n = 240) → removed."""
    rng = np.random.default_rng(12)
    d = 5
    X0 = rng.normal(size=(120, d))
    e = rng.normal(size=d)
    e /= np.linalg.norm(e)
    X = np.vstack([X0, X0[rng.permutation(120)] + 1e-6 * e]) + offset
    z = np.repeat([0, 1], 120)
    for k in (1, d - 1):
        est = FairPCA(k, center=center).fit(X, sensitive_features=z)
        Xc = centred(X)
        U = est.components_.T
        # the constraint of the resolvable contrast holds to 1e-10 relative
        zt = z - z.mean()
        residual = np.linalg.norm(zt @ Xc @ U) / (
            np.linalg.norm(Xc if center else X) * np.linalg.norm(zt))
        assert residual <= 1e-10, f"k={k}: mean difference 1e-6 not removed ({residual:.2e})"
        # the direction e was removed: at k = d - 1 the objective is below PCA's
        C = Xc.T @ Xc if center else X.T @ X
        obj = np.trace(U.T @ C @ U)
        pca, trC = _pca_objective(X, k, center)
        ref = _fair_pca_against_reference(X, [z], est, center, label=f"k={k}")[1][:k].sum()
        assert abs(obj - ref) <= 1e-9 * trC
        if k == d - 1:
            assert obj < pca - 1e-3 * (pca / k), "the 1e-6 mean difference was not removed"


@pytest.mark.parametrize("relation", ["coarsening", "duplicate", "relabelled-duplicate"])
@pytest.mark.parametrize("center", [True, False])
def test_collinear_attributes_bound(relation, center):
    """B = f(A): the constraint count is A's alone, so k = d − (m_A − 1) is admissible."""
    rng = np.random.default_rng(13)
    n, d, m_a = 150, 6, 4
    a = rng.permutation(np.repeat(np.arange(m_a), [60, 50, 38, 2]))
    if relation == "coarsening":
        b = np.array([0, 1, 1, 0])[a]
    elif relation == "duplicate":
        b = a.copy()
    else:
        b = np.array(["w", "x", "y", "v"])[a]
    X = rng.normal(size=(n, d)) + rng.normal(size=(m_a, d))[a] * 2.0 + 50.0
    S = pd.DataFrame({"a": a, "b": b})
    k = d - (m_a - 1)
    est = FairPCA(k, center=center).fit(X, sensitive_features=S)
    assert est.n_components_ == k
    _fair_pca_against_reference(X, [a, b], est, center, label=relation)
    # the kernel version has the same bound, n − (m_A − 1)
    kest = FairKernelPCA(n - (m_a - 1), kernel="linear", center=center).fit(
        X, sensitive_features=S)
    assert kest.n_components_ == n - (m_a - 1)


# The shape of issue 11: n = 5000, d = 2000, 5 groups, data offset from the origin.  The default
# solver (ARPACK) ran 80 s on 2 cores and raised ArpackNoConvergence on the committed code, while
# svd_solver="full" fits in 0.9 s; with the rewrite in progress the default fits in 0.9 s, so the
# whole test takes ~3 s.  Kept here because it stays under 10 s once fixed.
def test_large_offset_default_solver_converges_and_agrees_with_full():
    rng = np.random.default_rng(1)
    n, d = 5000, 2000
    s = rng.integers(0, 5, n)
    X = rng.normal(size=(n, d))
    X += 5.0 + rng.normal(size=(5, d))[s]
    t0 = time.perf_counter()
    auto = FairPCA(10).fit(X, sensitive_features=s)
    elapsed = time.perf_counter() - t0
    full = FairPCA(10, svd_solver="full").fit(X, sensitive_features=s)
    mu = X.mean(axis=0)
    obj = [float(np.sum((X @ e.components_.T - mu @ e.components_.T) ** 2)) for e in (auto, full)]
    assert abs(obj[0] - obj[1]) <= 1e-9 * obj[1], f"auto {obj[0]} != full {obj[1]}"
    assert elapsed < 30, f"default solver took {elapsed:.1f} s (svd_solver='full': ~1 s)"


# =============================================================================================
# FairKernelPCA (seed 000 §3.3, Algorithm 3)
# =============================================================================================
def kernel_reference_matrix(X, Y, kernel, gamma, degree, coef0):
    """k(X, Y) from the definitions (rbf through explicit differences: no ‖x‖² cancellation)."""
    if kernel == "linear":
        return X @ Y.T
    if kernel == "poly":
        return (gamma * (X @ Y.T) + coef0) ** degree
    if kernel == "rbf":
        D2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=-1)
        return np.exp(-gamma * D2)
    raise ValueError(kernel)


def default_gamma(X):
    """The paper's 1/(d · Var(training data)) (App. C.1), Var over all entries."""
    var = float(np.var(X))
    return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


def kernel_of(inst):
    X = np.asarray(inst.X, dtype=np.float64)
    p = inst.params
    gamma = p.get("gamma") or default_gamma(X)
    return X, kernel_reference_matrix(X, X, p["kernel"], gamma, p.get("degree", 3),
                                      p.get("coef0", 1)), gamma


def double_centre(K):
    n = K.shape[0]
    H = np.eye(n) - np.full((n, n), 1.0 / n)
    return H @ K @ H


def kernel_rounding_unit(K, X, kernel, gamma):
    """Entrywise rounding level of a kernel matrix as an implementation forms it.

    Centring (row/column means of n entries), the products with Z and the projection each
    leave errors of a few eps·max|K| per entry; an rbf kernel evaluated through
    ‖x‖² + ‖y‖² − 2xᵀy (scikit-learn) adds eps·γ·max‖x‖² relative to each entry.
    """
    unit = 4.0 * EPS * np.abs(K).max()
    if kernel == "rbf":
        unit *= 1.0 + gamma * float(np.max(np.sum(X**2, axis=1)))
    return unit


def projected_gram(Kt, Ut, mu_floor):
    """G = K̃ − K̃Ũ(ŨᵀK̃Ũ)⁺ŨᵀK̃ (pseudo-inverse over the eigenvalues > ``mu_floor``)."""
    if Ut.shape[1] == 0:
        return Kt, np.zeros(0)
    KU = Kt @ Ut
    M = Ut.T @ KU
    mu, V = linalg.eigh((M + M.T) / 2)
    keep = mu > mu_floor
    W = KU @ (V[:, keep] / np.sqrt(mu[keep]))
    G = Kt - W @ W.T
    return (G + G.T) / 2, mu


def reference_fair_kernel_pca(Kt, Ut, unit):
    r"""Eigenvalues (descending) of the projected Gram G = K̃ − K̃Ũ(ŨᵀK̃Ũ)⁺ŨᵀK̃.

    Equivalence with Algorithm 3.  With features Φ (rows φ(x_i), K̃ = ΦΦᵀ) and directions
    U = ΦᵀB, Algorithm 3 maximises tr(BᵀK̃K̃B) subject to BᵀK̃B = I and ZᵀK̃B = 0, i.e. PCA of
    Φ restricted to the feature-space subspace orthogonal to A = ΦᵀŨ (span(Ũ) = span(Z)).
    With P the orthogonal projector onto A^⊥, that is plain kernel PCA of the rows of ΦP,
    whose Gram matrix is ΦPΦᵀ = K̃ − ΦA(AᵀA)⁺AᵀΦᵀ = K̃ − K̃Ũ(ŨᵀK̃Ũ)⁺ŨᵀK̃ (AᵀA = ŨᵀK̃Ũ).  The
    nonzero eigenvalues of G are the generalized eigenvalues of RᵀK̃K̃R β = w RᵀK̃R β on the
    range of RᵀK̃R (R = null(ŨᵀK̃)); :func:`reference_alg3_dense` computes them that way too.

    Rank of ŨᵀK̃Ũ = AᵀA (the only rank decision; span(Ũ) itself is exact): its entries carry
    errors ≤ n·unit (``unit`` the entrywise rounding level of K̃), so eigenvalues ≤ 100·n·unit
    are zero; the two decades either side are the ambiguous band.  Returns (eigenvalues of G,
    eigenvalues μ of ŨᵀK̃Ũ, floor).
    """
    floor = 100.0 * Kt.shape[0] * unit
    G, mu = projected_gram(Kt, Ut, floor)
    lam, V = linalg.eigh(G)
    return lam[::-1], mu, floor, V[:, ::-1], G


def reference_alg3_dense(Kt, Ut, floor):
    """Algorithm 3 literally, densely: R = null(ŨᵀK̃); generalized eigenvalues of
    (RᵀK̃K̃R, RᵀK̃R) on the range of RᵀK̃R (no ridge).  Returns them in descending order."""
    M = Ut.T @ Kt
    _, s, Vt = linalg.svd(M, full_matrices=True)
    R = Vt[int(np.sum(s**2 > floor)):].T
    H1 = R.T @ Kt @ Kt @ R
    H2 = R.T @ Kt @ R
    w, V = linalg.eigh((H2 + H2.T) / 2)
    keep = w > floor
    T = V[:, keep] / np.sqrt(w[keep])
    M = T.T @ H1 @ T
    return linalg.eigh((M + M.T) / 2, eigvals_only=True)[::-1]


def probe_uncertainty(Kt, Ut, unit, k, ref, G, seed):
    """How much the reference moves under rounding-sized symmetric perturbations of K̃.

    Two random symmetric perturbations with N(0, unit²) entries (the rounding model of
    :func:`kernel_rounding_unit`); an ill-conditioned ŨᵀK̃Ũ or a cancelling centring shows up
    as a large change.  Returns (change of the objective, spectral size of the change of G);
    the objective tolerance adds 10× the first, the subspace check needs a gap ≫ the second.
    """
    rng = np.random.default_rng(seed)
    n = Kt.shape[0]
    worst, worst_g = 0.0, 0.0
    for _ in range(2):
        D = rng.normal(size=(n, n)) * unit
        lam, _, _, _, G2 = reference_fair_kernel_pca(Kt + (D + D.T) / np.sqrt(2), Ut, unit)
        worst = max(worst, abs(float(lam[:k].sum()) - ref))
        worst_g = max(worst_g, float(np.linalg.norm(G2 - G, 2)))
    return worst, worst_g


def subspace_sine(B1, B2):
    """Sine of the largest principal angle between the column spans of B1 and B2."""
    Q1 = np.linalg.qr(B1)[0]
    Q2 = np.linalg.qr(B2)[0]
    return float(np.linalg.norm(Q2 - Q1 @ (Q1.T @ Q2), 2))


def _fkpca_embedding_checks(inst, report, est, ctx, tag=""):
    """Objective, unit orthogonal axes and equal group means of the training embedding.

    Dual rounding floor.  The axes are u_j = Φ̃ᵀc_j (``dual_coef_``).  Any computation with
    K̃ is exact only up to a perturbation of spectral size δ = n·unit (the rounding level of
    the kernel matrix, :func:`kernel_rounding_unit`; fairlab and this file even evaluate K
    separately), so K̃c_j carries an error ≤ δ‖c_j‖ and c_iᵀK̃c_j one ≤ δ‖c_i‖‖c_j‖.  Large
    coefficients — components of small variance (‖c_j‖ ≈ λ_j^{-1/2}) or a nearly singular
    ZᵀK̃Z — amplify it, whatever the solver.  The asserted tolerances are therefore
    1e-10·‖Z̃‖_F·√tr K̃ + 10·δ‖c_j‖·‖Z̃‖_F (group means of column j) and 1e-8 + 10·δ‖c_i‖‖c_j‖
    (orthonormality); the residuals without the allowance are reported as "(raw)".
    """
    Kt, Zt, ref, trK, delta, u = (ctx[key] for key in ("Kt", "Zt", "ref", "trK", "delta", "u"))
    n = Kt.shape[0]
    E = est.transform(inst.X)
    k = inst.params["n_components"]
    if E.shape != (n, k):
        report.fail(inst, f"{tag}transform has shape {E.shape}, expected {(n, k)}")
        return None
    lam = np.sum(E**2, axis=0)  # variances along unit axes = squared norms of the scores
    obj = float(lam.sum())
    tol = 1e-9 * trK + 10.0 * u
    if not ctx["unclear"]:
        # components with eigenvalues below the documented floor are dropped (zero columns);
        # within a factor 10 of it either outcome is allowed
        gap = max(ctx["ref_kept"] - obj, obj - ref, 0.0)
        report.gap(f"{tag}objective gap / tr(K) (raw)", gap / trK)
        report.check(inst, f"{tag}objective gap / tolerance", gap / tol, 1.0)
    # both sides of the floor: every kept component is fair at its own scale
    norms = np.linalg.norm(E, axis=0)
    kept = norms > 0
    rel = (np.linalg.norm(Zt.T @ E[:, kept], axis=0) / np.linalg.norm(Zt)) / norms[kept]
    report.check(inst, f"{tag}group-mean residual / component norm", rel.max(initial=0.0),
                 1e-5)
    pos = lam > 0
    Cd = est.dual_coef_[:, pos]
    cn = np.linalg.norm(Cd, axis=0)
    dev = np.abs(Cd.T @ Kt @ Cd - np.eye(pos.sum()))
    report.gap(f"{tag}axes orthonormality (raw)", dev.max(initial=0.0))
    allowed = 1e-8 + 10.0 * delta * np.outer(cn, cn)
    report.check(inst, f"{tag}axes orthonormality / allowance", (dev / allowed).max(initial=0.0),
                 1.0)
    res = np.linalg.norm(Zt.T @ E, axis=0) / np.linalg.norm(Zt)
    report.gap(f"{tag}group-mean residual (raw)", res.max() / np.sqrt(trK))
    allowed = 1e-10 * np.sqrt(trK) + 10.0 * delta * np.linalg.norm(est.dual_coef_, axis=0)
    report.check(inst, f"{tag}group-mean residual / allowance", (res / allowed).max(), 1.0)
    return E


def check_fair_kernel_pca(inst, report, generalized=True):
    X, K, gamma = kernel_of(inst)
    p = inst.params
    Kt = double_centre(K) if p["center"] else K
    codes = inst.info["codes"]
    Ut = contrast_basis(codes)
    k = p["n_components"]
    unit = kernel_rounding_unit(K, X, p["kernel"], gamma)
    lam, mu, floor, Vg, G = reference_fair_kernel_pca(Kt, Ut, unit)
    unclear = bool(np.any((mu > floor / 100) & (mu < floor * 100)))
    if unclear:  # the reference's rank decision could go either way: no objective assertion
        report.ambiguous.append(inst.id)
    ref = float(lam[:k].sum())
    trK = float(np.trace(Kt))
    index = int(inst.id.rsplit("/", 1)[1])
    u, delta_g = probe_uncertainty(Kt, Ut, unit, k, ref, G, index)
    delta = K.shape[0] * unit
    report.gap("reference sensitivity / tr(K)", u / trK)
    if index % 10 == 0 and k <= 20:  # the reference agrees with Algorithm 3 solved densely
        # (1e-7: Algorithm 3 divides by the small eigenvalues of RᵀK̃R, the projected Gram
        # matrix does not — the cross-check only guards against a wrong formula)
        alg3 = reference_alg3_dense(Kt, Ut, floor)
        assert abs(alg3[:k].sum() - ref) <= 1e-7 * trK + 10 * u, (
            f"reference: projected Gram {ref} != dense Algorithm 3 {alg3[:k].sum()}")
    # the documented component floor (fairlab._core.constraints.component_floor), from this file's
    # own μ (eigenvalues of ŨᵀK̃Ũ) and fairlab's rounding unit of a kernel entry
    unit_est = EPS * (1.0 if p["kernel"] == "rbf" else float(np.abs(K).max()))
    n = K.shape[0]
    comp_floor = 4.0 * n * unit_est
    if np.any(mu > floor):
        mu_min = float(mu[mu > floor].min())
        comp_floor = max(comp_floor, n * unit_est * (1 + 2 * np.sqrt(max(trK, 0) / mu_min)) / 1e-6)
    floor_lo = comp_floor
    if p["kernel"] == "linear":
        # the linear kernel is solved on X itself (thin SVD of the projected data, no Gram
        # matrix): its floor is that of the factor, far below this reference's resolution u
        comp_floor = floor_lo = 0.0
    elif p["kernel"] == "poly" and p["center"] and float(p.get("degree", 3)) % 1 == 0:
        # the centred poly kernel is formed without the terms centring removes, so its
        # entries round at eps·max|S| (S the kept terms, |K̃| ≤ 4 max|S|), not eps·max|K|: the
        # components it may keep reach down to the floor with unit eps·max|K̃|/4
        unit_lo = EPS * float(np.abs(Kt).max()) / 4.0
        floor_lo = 4.0 * n * unit_lo
        if np.any(mu > floor):
            floor_lo = max(floor_lo, n * unit_lo * (1 + 2 * np.sqrt(max(trK, 0) / mu_min))
                           / 1e-6)
    top = lam[:k]
    ref_kept = float(top[top > 10.0 * comp_floor].sum())
    ref = float(top[top > floor_lo / 10.0].sum())
    ctx = {"Kt": Kt, "Zt": stacked_centred_one_hot(codes), "ref": ref, "trK": trK,
           "delta": delta, "u": u, "unclear": unclear, "ref_kept": ref_kept}
    # Leading subspace to compare: the first q components, q the last index with a gap
    # λ_q − λ_{q+1} ≥ 1e10·δ_G (δ_G = max(δ, the probe's change of G)): by Davis–Kahan any
    # backward-stable solver then resolves span(v_1..v_q) to sine ≤ δ_G/gap ≤ 1e-10.  The
    # training embedding's columns E_j = √λ_j v_j span it (Φ̃ is injective on span(Φ̃ᵀ)).
    lam_k = np.append(lam[: k + 1], 0.0)
    gaps = lam_k[:k] - lam_k[1 : k + 1]
    clear = np.flatnonzero(gaps >= 1e10 * max(delta, delta_g))
    q = int(clear.max()) + 1 if clear.size and not unclear else 0
    est = fit_quiet(FairKernelPCA(**p), inst.X, sensitive_features=inst.sensitive)
    if est.gamma_ is not None:
        report.check(inst, "gamma_ rel error", abs(est.gamma_ - gamma) / gamma, 1e-12)
    E = _fkpca_embedding_checks(inst, report, est, ctx)
    if E is None:
        return
    if q:
        report.check(inst, "exact solver subspace sine", subspace_sine(E[:, :q], Vg[:, :q]),
                     1e-10)
    if not generalized:
        return
    # Algorithm 3 path: same objective and same leading subspace as the exact solver
    gen = fit_quiet(FairKernelPCA(**p, eigen_solver="generalized"), inst.X,
                    sensitive_features=inst.sensitive)
    E2 = _fkpca_embedding_checks(inst, report, gen, ctx, tag="generalized ")
    if E2 is None:
        return
    if not unclear:  # both solve the same rounded problem: they differ by its sensitivity
        report.check(inst, "generalized vs exact objective / tolerance",
                     abs(np.sum(E2**2) - np.sum(E**2)) / (1e-10 * trK + 10.0 * u), 1.0)
    if q:
        report.check(inst, "generalized vs exact subspace sine",
                     subspace_sine(E2[:, :q], E[:, :q]), 1e-10)


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_fair_kernel_pca_adversarial(batch):
    run_batch("fair_kernel_pca", batch, check_fair_kernel_pca).assert_ok()


@pytest.mark.parametrize("params", [
    {"eigen_solver": "arpack"},
    {"eigen_solver": "randomized"},
    {"eigen_solver": "generalized"},
    {"approximation": "nystroem", "n_landmarks": 40},
], ids=["arpack", "randomized", "generalized", "nystroem"])
def test_fair_kernel_pca_random_state_none_is_deterministic(params):
    """DESIGN §7: ``random_state=None`` is a fixed seed — two fits, identical transforms."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(90, 4)) + 10.0
    s = rng.integers(0, 3, 90)
    outs = [FairKernelPCA(5, kernel="rbf", gamma=0.3, random_state=None, **params)
            .fit(X, sensitive_features=s).transform(X) for _ in range(2)]
    assert np.array_equal(outs[0], outs[1]), (
        f"{params}: max difference {np.abs(outs[0] - outs[1]).max():.2e}")


def test_fair_kernel_pca_default_solver_is_deterministic():
    """n > 500 and k ≪ n: the default solver is a partial one; still deterministic."""
    rng = np.random.default_rng(6)
    X = rng.normal(size=(600, 3))
    s = rng.integers(0, 2, 600)
    outs = [FairKernelPCA(3, gamma=0.5).fit(X, sensitive_features=s).transform(X[:50])
            for _ in range(2)]
    assert np.array_equal(outs[0], outs[1])


# =============================================================================================
# FairPLS (seed 002 §3.2, eq. (4); η = ∞ the hard constraint)
# =============================================================================================
def _columns(S, n):
    if isinstance(S, pd.DataFrame):
        return [S.iloc[:, j].to_numpy() for j in range(S.shape[1])]
    S = np.asarray(S)
    return [S] if S.ndim == 1 else [S[:, j] for j in range(S.shape[1])]


def _standardise(A, scale):
    A = A - A.mean(axis=0)
    if scale:
        std = A.std(axis=0, ddof=1)
        std[std == 0] = 1.0
        A = A / std
    return A


def pls_matrices(inst):
    """Xc, Yc, Sc of FairPLS's documented preprocessing (pls.py module/class docstrings).

    Centre (and with ``scale`` divide by the ddof=1 std) X, Y and the encoded S; S: float
    columns as they are, any other column (int, bool, str) by its m group indicators, weighted
    by 1/√2 after scaling.  ``equalized_odds`` residualises Sc on Yc.
    """
    X = np.asarray(inst.X, dtype=np.float64)
    n = X.shape[0]
    scale = inst.params["scale"]
    Y = np.asarray(inst.y, dtype=float).reshape(n, -1)
    blocks, weights = [], []
    for col in _columns(inst.sensitive, n):
        if col.dtype.kind == "f":
            blocks.append(col.astype(float)[:, None])
            weights.append([1.0])
        else:
            _, inv = np.unique(col, return_inverse=True)
            blocks.append(np.eye(inv.max() + 1)[inv.reshape(-1)])
            weights.append([np.sqrt(0.5)] * (inv.max() + 1))
    Sc = _standardise(np.hstack(blocks), scale) * np.concatenate(weights)
    Xc, Yc = _standardise(X, scale), _standardise(Y, scale)
    if inst.params.get("fairness") == "equalized_odds":
        Sc = Sc - Yc @ np.linalg.lstsq(Yc, Sc, rcond=None)[0]
    return Xc, Yc, Sc


def reference_pls_first(inst, Xc, Yc, Sc):
    """Maximum of the first component's objective over the unit sphere (∩ constraint if η=∞)."""
    eta = inst.params["eta"]
    A, B = Xc.T @ Yc, Xc.T @ Sc
    if np.isinf(eta):
        # constraint span: exact contrasts of the categorical attributes + continuous columns
        Sb = contrast_basis(inst.info["codes"], float_columns=inst.info["continuous"])
        if inst.params.get("fairness") == "equalized_odds":
            Sb = np.linalg.qr(Sb - Yc @ np.linalg.lstsq(Yc, Sb, rcond=None)[0])[0]
        N, rel = null_space_of_constraint(Sb, Xc)
        if N.shape[1] == 0:
            return 0.0, float(np.sum(A**2)), rel, N
        NA = N.T @ A
        return float(linalg.eigh(NA @ NA.T, eigvals_only=True)[-1]), float(np.sum(A**2)), rel, N
    M = A @ A.T - eta * (B @ B.T)
    return (float(linalg.eigh((M + M.T) / 2, eigvals_only=True)[-1]),
            float(np.sum(A**2) + eta * np.sum(B**2)), np.zeros(0), None)


def projected_gradient_max(M, rng, starts=5, iters=3000):
    """Crude multi-start projected gradient ascent of wᵀMw on the sphere (cross-check)."""
    norm = np.abs(linalg.eigh(M, eigvals_only=True)).max()
    if norm == 0:
        return 0.0
    step = 0.5 / norm  # the iteration map I + step·M is then positive definite
    best = -np.inf
    for _ in range(starts):
        w = rng.normal(size=M.shape[0])
        w /= np.linalg.norm(w)
        for _ in range(iters):
            w = w + step * (M @ w)
            w /= np.linalg.norm(w)
        best = max(best, float(w @ M @ w))
    return best


def check_fair_pls(inst, report):
    """Every component against a dense maximum on the explicitly deflated X_h.

    X_h is deflated with fairlab's own weights (X_{h+1} = X_h − t pᵀ, t = X_h w_h,
    p = X_hᵀt/tᵀt), so that a near-tie at one component does not move the reference of the
    next; at every h the maximum of the objective over the unit sphere (∩ the constraint for
    η = ∞) is a dense eigendecomposition.  A kept component must reach it; a zero component
    (the fit stopped) is only allowed where that maximum is not positive (≤ 1e-9·scale), and
    every later component must be zero too.
    """
    Xc, Yc, Sc = pls_matrices(inst)
    n = Xc.shape[0]
    eta = inst.params["eta"]
    ref, scale, rel, N = reference_pls_first(inst, Xc, Yc, Sc)
    if ambiguous(rel).size:
        report.ambiguous.append(inst.id)
    est = fit_quiet(FairPLS(**inst.params), inst.X, inst.y, sensitive_features=inst.sensitive)
    k = est.x_weights_.shape[1]
    Xh = Xc.copy()
    stopped = False
    for h in range(k):
        w = est.x_weights_[:, h]
        A, B = Xh.T @ Yc, Xh.T @ Sc
        if np.isinf(eta):
            NA = N.T @ A
            top = float(linalg.eigh(NA @ NA.T, eigvals_only=True)[-1]) if N.shape[1] else 0.0
        else:
            M = A @ A.T - eta * (B @ B.T)
            top = float(linalg.eigh((M + M.T) / 2, eigvals_only=True)[-1])
        if not np.any(w):
            stopped = True
            report.check(inst, "zero component with a positive maximum / scale",
                         max(top, 0.0) / scale, 1e-9)
            report.check(inst, "zero component with objective_ != 0", abs(est.objective_[h]), 0.0)
            continue
        if stopped:
            report.fail(inst, f"component {h} is nonzero after a zero component")
            return
        value = float(np.sum((A.T @ w) ** 2))
        if not np.isinf(eta):
            value -= eta * float(np.sum((B.T @ w) ** 2))
        report.check(inst, "objective gap / scale (every component)", (top - value) / scale,
                     1e-9)
        report.check(inst, "kept component with objective <= 0", -value / scale, 0.0)
        report.check(inst, "|‖w‖ - 1|", abs(np.linalg.norm(w) - 1), 1e-12)
        report.check(inst, "objective_ vs w error / scale",
                     abs(est.objective_[h] * n**2 - value) / scale, 1e-9)
        t = Xh @ w
        Xh = Xh - np.outer(t, Xh.T @ t / (t @ t))
    if np.isinf(eta):
        # every score t_h = X_h w_h (deflated X_h, ‖t_h‖ ≤ ‖Xc‖_F) is uncorrelated with S
        residual = np.linalg.norm(Sc.T @ est.x_scores_) / (
            np.linalg.norm(Sc) * np.linalg.norm(Xc))
        report.check(inst, "eta=inf constraint residual (scores)", residual, 1e-10)
    w = est.x_weights_[:, 0]
    A, B = Xc.T @ Yc, Xc.T @ Sc
    index = int(inst.id.rsplit("/", 1)[1])
    if not np.isinf(eta) and index % 25 == 1:  # the eigh reference is the maximum
        M = A @ A.T - eta * (B @ B.T)
        pga = projected_gradient_max((M + M.T) / 2, np.random.default_rng(index))
        assert pga <= ref + 1e-9 * scale, f"reference: gradient ascent {pga} > eigh {ref}"
    if eta == 0 and np.ndim(inst.y) == 1:
        # η = 0 is scikit-learn's PLSRegression (1-D y: NIPALS is exact after one step)
        k = inst.params["n_components"]
        X64 = np.asarray(inst.X, dtype=np.float64)  # sklearn predicts float32 in float32
        sk = PLSRegression(n_components=k, scale=inst.params["scale"]).fit(X64, inst.y)
        t_scale = np.linalg.norm(sk.x_scores_[:, 0])
        report.check(inst, "eta=0 vs sklearn first weight",
                     np.abs(est.x_weights_[:, 0] - sk.x_weights_[:, 0]).max(), 1e-10)
        report.check(inst, "eta=0 vs sklearn first score / ‖t‖",
                     np.abs(est.x_scores_[:, 0] - sk.x_scores_[:, 0]).max() / t_scale, 1e-10)
        if k == 1:
            pred_scale = np.abs(sk.predict(X64) - np.mean(inst.y)).max() + 1e-300
            report.check(inst, "eta=0 vs sklearn predict (k=1)",
                         np.abs(est.predict(X64) - sk.predict(X64)).max() / pred_scale, 1e-9)


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_fair_pls_adversarial(batch):
    run_batch("fair_pls", batch, check_fair_pls).assert_ok()


# =============================================================================================
# FDR / KFDR (seed 003 §3.1–3.2: ratio of HSICs, generalized eigenproblem)
# =============================================================================================
def dr_sensitive(inst, n):
    """S̃ of fairlab._core.hsic: numeric columns (int too) as they are, others one-hot; centred."""
    blocks = []
    for col in _columns(inst.sensitive, n):
        if col.dtype.kind in "iuf":
            blocks.append(col.astype(float)[:, None])
        else:
            _, inv = np.unique(col.astype(str), return_inverse=True)
            blocks.append(np.eye(inv.max() + 1)[inv.reshape(-1)])
    return centred(np.hstack(blocks))


def dr_basis(inst):
    info = inst.info
    return contrast_basis(info["cat_codes"], info["int_columns"], info["cont_columns"])


def generalized_top(Fx, G, ridge):
    r"""Generalized eigenpairs of (A, B) with A = (FxᵀFx)², B = GGᵀ + ridge·I, densely.

    Not through a Cholesky factor of B (whose condition number ‖G‖²/ridge can exceed 1/eps):
    B = W diag(σ² + ridge) Wᵀ exactly from the full SVD of G, and with Fx = P diag(s) Qᵀ,
    A = Q diag(s⁴) Qᵀ, so B^{-1/2} A B^{-1/2} = L Lᵀ with L = diag(σ² + ridge)^{-1/2} WᵀQ diag(s²)
    and the eigenvalues are the squared singular values of L.  Returns (λ descending, unit v).
    """
    p = Fx.shape[1]
    _, s, Qt = linalg.svd(Fx, full_matrices=True)
    s_full = np.zeros(p)
    s_full[: s.size] = s
    W, sg, _ = linalg.svd(G, full_matrices=True)
    delta = np.zeros(p)
    delta[: sg.size] = sg**2
    D = 1.0 / np.sqrt(delta + ridge)
    L = D[:, None] * (W.T @ Qt.T) * (s_full**2)[None, :]
    Ul, sl, _ = linalg.svd(L)
    V = W @ (D[:, None] * Ul)
    V /= np.linalg.norm(V, axis=0)
    return sl**2, V


def _dr_report(inst, report, Fx, G, V, ridge, Sb, dual=None):
    """Shared checks in coordinates where the data are Fx (n × p) and directions V (p × k).

    ``dual = (δ, ‖α_j‖)`` for KFDR: the dual rounding allowance of
    :func:`_fkpca_embedding_checks` (δ‖α_i‖‖α_j‖ on inner products, δ‖α_j‖ on products
    with K̃) is added to the orthonormality and constraint tolerances; None for FDR.
    """
    k = V.shape[1]
    CV = Fx.T @ (Fx @ V)
    if ridge > 0:
        lam, Vref = generalized_top(Fx, G, ridge)
        ref = float(lam[:k].sum())
        GV = G.T @ V
        den = GV.T @ GV + ridge * (V.T @ V)
        obj = float(np.trace(np.linalg.solve(den, CV.T @ CV)))
        # the reference's own vectors reach its eigenvalue sum when evaluated directly
        CR = Fx.T @ (Fx @ Vref[:, :k])
        GR = G.T @ Vref[:, :k]
        direct = float(np.trace(np.linalg.solve(GR.T @ GR + ridge * (Vref[:, :k].T @ Vref[:, :k]),
                                                CR.T @ CR)))
        # (1e-9: the direct evaluation solves with VᵀBV, whose condition is ‖G‖²/ridge)
        assert abs(direct - ref) <= 1e-9 * ref, f"reference: {direct} != {ref}"
        # max over k-dim subspaces of tr((VᵀBV)⁻¹VᵀAV) is the sum of the top-k eigenvalues
        report.check(inst, "ratio objective rel gap", abs(ref - obj) / ref, 1e-8)
        rho = np.sort(np.sum(CV**2, axis=0) / np.diag(den))[::-1]
        report.gap("per-direction gap / lambda_1", np.max(np.abs(rho - lam[:k])) / lam[0])
        # n²·HSIC(projection, S) summed over the unit directions, against the reference's;
        # scale k‖G‖₂², the largest value k unit directions can reach
        h = np.sum((G.T @ V) ** 2)
        h_ref = np.sum((G.T @ Vref[:, :k]) ** 2)
        report.check(inst, "HSIC(projection, S) excess / (k‖G‖²)",
                     (h - h_ref) / (k * np.linalg.norm(G, 2) ** 2 + 1e-300), 1e-8)
    else:
        N, rel = null_space_of_constraint(Sb, Fx)
        if ambiguous(rel).size:
            report.ambiguous.append(inst.id)
        FN = Fx @ N
        CN = Fx.T @ FN
        lam = linalg.eigh(CN.T @ CN, eigvals_only=True)[::-1]
        ref = float(lam[:k].sum())
        trA = float(np.sum((Fx.T @ Fx) ** 2))
        obj = float(np.sum(CV**2))
        report.check(inst, "ridge=0 objective gap / tr(A)", (ref - obj) / trA, 1e-9)
        delta, an = dual if dual is not None else (0.0, np.zeros(k))
        dev = np.abs(V.T @ V - np.eye(k))
        report.gap("ridge=0 orthonormality (raw)", dev.max())
        report.check(inst, "ridge=0 orthonormality / allowance",
                     (dev / (1e-10 + 10 * delta * np.outer(an, an))).max(), 1.0)
        res = np.linalg.norm(Sb.T @ (Fx @ V), axis=0)
        report.gap("ridge=0 constraint residual (raw)", res.max() / np.linalg.norm(Fx))
        allowed = 1e-10 * np.linalg.norm(Fx) + 10 * delta * an
        report.check(inst, "ridge=0 constraint residual / allowance", (res / allowed).max(), 1.0)


def check_fair_dr(inst, report):
    X = np.asarray(inst.X, dtype=np.float64)
    n = X.shape[0]
    Xc = centred(X)
    St = dr_sensitive(inst, n)
    est = fit_quiet(FairDR(**inst.params), inst.X, sensitive_features=inst.sensitive)
    V = est.components_.T
    k = inst.params["n_components"]
    if V.shape != (X.shape[1], k):
        report.fail(inst, f"components_ has shape {est.components_.shape}")
        return
    report.check(inst, "|‖v‖ - 1|", np.abs(np.linalg.norm(V, axis=0) - 1).max(), 1e-12)
    _dr_report(inst, report, Xc, Xc.T @ St, V, inst.params["ridge"], dr_basis(inst))


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_fair_dr_adversarial(batch):
    run_batch("fair_dr", batch, check_fair_dr).assert_ok()


def check_kernel_fair_dr(inst, report):
    X = np.asarray(inst.X, dtype=np.float64)
    n = X.shape[0]
    p = inst.params
    k, ridge = p["n_components"], p["ridge"]
    K = kernel_reference_matrix(X, X, p["kernel"], p.get("gamma"), 3, 1.0)
    Kt = double_centre(K)
    delta = n * kernel_rounding_unit(K, X, p["kernel"], p.get("gamma") or 0.0)
    w, U = linalg.eigh((Kt + Kt.T) / 2)
    w, U = w[::-1], U[:, ::-1]
    if "rank_x" in inst.info:  # linear kernel: rank of K̃ known by construction
        r = inst.info["rank_x"]
    else:  # documented truncation: eigenvalues ≤ 1e-12 λ_max carry ratios ≤ 1e-24 λ_max²/ridge,
        # and those ≤ 4n·unit (unit = eps·max|K|, eps for rbf: the rounding of K before
        # centring, fairlab._core.linalg.centred_gram_factor) are rounding
        unit_est = EPS * (1.0 if p["kernel"] == "rbf" else float(np.abs(K).max()))
        r = int(np.sum(w > max(1e-12 * w[0], 4.0 * n * unit_est)))
    w, U = w[:r], U[:, :r]
    F = U * np.sqrt(w)  # K̃ = FFᵀ, the feature map of the training points
    St = dr_sensitive(inst, n)
    if p["sensitive_kernel"] == "linear":
        Psi = St
    else:
        gs = 1.0 / (St.shape[1] * float(np.var(St)))
        Ks = double_centre(kernel_reference_matrix(St, St, "rbf", gs, 3, 1.0))
        ws, Us = linalg.eigh((Ks + Ks.T) / 2)
        Psi = Us * np.sqrt(np.clip(ws, 0.0, None))
    Sb = dr_basis(inst) if ridge == 0 else None
    k_max = r if ridge > 0 else null_space_of_constraint(Sb, F)[0].shape[1]
    try:
        est = fit_quiet(KernelFairDR(**p), inst.X, sensitive_features=inst.sensitive)
    except ValueError:
        if k > k_max:
            return  # k beyond the (numerical) rank: a clear error is the right answer
        raise
    if k > k_max:  # the estimator's numerical rank is larger than the reference's
        report.ambiguous.append(inst.id)
        return
    alpha = est.dual_coef_
    if alpha.shape != (n, k):
        report.fail(inst, f"dual_coef_ has shape {alpha.shape}")
        return
    an = np.linalg.norm(alpha, axis=0)
    T = est.transform(inst.X)
    dev = np.abs(T - Kt @ alpha).max(axis=0)
    report.check(inst, "transform vs K̃α / allowance",
                 (dev / (1e-8 * np.abs(T).max(axis=0) + 10 * delta * an + 1e-300)).max(), 1.0)
    dev = np.abs(np.einsum("ij,ij->j", alpha, Kt @ alpha) - 1)
    report.gap("|‖u‖ - 1| (raw)", dev.max())
    report.check(inst, "|‖u‖ - 1| / allowance", (dev / (1e-8 + 10 * delta * an**2)).max(), 1.0)
    B = F.T @ alpha  # coordinates of u_j = Φ̃ᵀα_j in the feature map F
    _dr_report(inst, report, F, F.T @ Psi, B, ridge, Sb, dual=(delta, an))


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_kernel_fair_dr_adversarial(batch):
    run_batch("kernel_fair_dr", batch, check_kernel_fair_dr).assert_ok()


def test_generator_is_deterministic():
    a = instance("fair_pca", SEED, 17)
    b = instance("fair_pca", SEED, 17)
    assert a.id == b.id and np.array_equal(np.asarray(a.X), np.asarray(b.X))
    assert a.params == b.params


# =============================================================================================
# Linear-kernel estimators far from the origin and across scales
# =============================================================================================
LINEAR_FAR_BATCHES = 4  # × BATCH = 200 instances


def _dec_matmul(A, B):
    """A·B for matrices as lists of rows of ``Decimal``."""
    Bt = list(zip(*B))
    return [[sum((a * b for a, b in zip(row, col)), Decimal(0)) for col in Bt] for row in A]


def _dec_jacobi(M, tol):
    """Cyclic Jacobi (Golub & Van Loan, Alg. 8.5.2) on a symmetric matrix of ``Decimal``."""
    A = [row[:] for row in M]
    p = len(A)
    V = [[Decimal(int(i == j)) for j in range(p)] for i in range(p)]
    for _ in range(100):
        off = sum(A[i][j] ** 2 for i in range(p) for j in range(i + 1, p))
        if off <= tol:
            break
        for i in range(p - 1):
            for j in range(i + 1, p):
                if A[i][j] == 0:
                    continue
                tau = (A[j][j] - A[i][i]) / (2 * A[i][j])
                t = (1 if tau >= 0 else -1) / (abs(tau) + (1 + tau * tau).sqrt())
                c = 1 / (1 + t * t).sqrt()
                sn = t * c
                for row in A:
                    row[i], row[j] = c * row[i] - sn * row[j], sn * row[i] + c * row[j]
                A[i], A[j] = ([c * a - sn * b for a, b in zip(A[i], A[j])],
                              [sn * a + c * b for a, b in zip(A[i], A[j])])
                for row in V:
                    row[i], row[j] = c * row[i] - sn * row[j], sn * row[i] + c * row[j]
    w = [A[i][i] for i in range(p)]
    order = sorted(range(p), key=lambda k: -w[k])
    return [w[k] for k in order], [[row[k] for k in order] for row in V]


def reference_linear_far(X, codes, float_columns, center):
    """Eigenvalues and axes' scores of the linear fair problem in 60-digit decimal arithmetic.

    Independent of fairlab and of floating point: X (exact as a ``Decimal``), its mean, the
    *exact* centred indicators of every group but the last of each attribute and the centred
    continuous columns (Z̃, whose span is the constraint), A = XcᵀZ̃, P = I − A(AᵀA)⁻¹Aᵀ,
    H = P FᵀF P (F = Xc, or X uncentred), diagonalised by Jacobi rotations to 1e-50·‖H‖.
    Float64 cannot hold the complement of range(A) accurately when the column scales differ
    by 1e12 (it is known only to eps normwise), nor can an extended-precision float; 60
    digits can.  Returns (λ descending, the training scores F·u_j as float64).
    """
    with localcontext() as ctx:
        ctx.prec = 60
        n, d = X.shape
        L = [[Decimal(float(v)) for v in row] for row in X]
        mu = [sum((L[i][j] for i in range(n)), Decimal(0)) / n for j in range(d)]
        Xc = [[L[i][j] - mu[j] for j in range(d)] for i in range(n)]
        cols = []
        for codes_r in codes:
            for g in np.unique(codes_r)[:-1]:
                ind = [Decimal(int(v == g)) for v in codes_r]
                mean = sum(ind, Decimal(0)) / n
                cols.append([v - mean for v in ind])
        for col in float_columns:
            vals = [Decimal(float(v)) for v in col]
            mean = sum(vals, Decimal(0)) / n
            cols.append([v - mean for v in vals])
        Zt = [list(r) for r in zip(*cols)]
        XcT = [list(r) for r in zip(*Xc)]
        A = _dec_matmul(XcT, Zt)  # d × r
        AtA = _dec_matmul([list(r) for r in zip(*A)], A)
        r = len(AtA)
        inv = [row[:] + [Decimal(int(i == j)) for j in range(r)] for i, row in enumerate(AtA)]
        for k in range(r):  # Gauss–Jordan with partial pivoting
            piv = max(range(k, r), key=lambda i: abs(inv[i][k]))
            inv[k], inv[piv] = inv[piv], inv[k]
            pk = inv[k][k]
            inv[k] = [v / pk for v in inv[k]]
            for i in range(r):
                if i != k and inv[i][k] != 0:
                    f = inv[i][k]
                    inv[i] = [a - f * b for a, b in zip(inv[i], inv[k])]
        inv = [row[r:] for row in inv]
        Proj = _dec_matmul(_dec_matmul(A, inv), [list(r_) for r_ in zip(*A)])
        P = [[Decimal(int(i == j)) - Proj[i][j] for j in range(d)] for i in range(d)]
        F = Xc if center else L
        C = _dec_matmul([list(r_) for r_ in zip(*F)], F)
        H = _dec_matmul(_dec_matmul(P, C), P)
        H = [[(H[i][j] + H[j][i]) / 2 for j in range(d)] for i in range(d)]
        norm2 = sum(v * v for row in H for v in row)
        w, V = _dec_jacobi(H, norm2 * Decimal(10) ** -100)
        scores = _dec_matmul(F, V)
        return (np.array([float(v) for v in w]),
                np.array([[float(v) for v in row] for row in scores]))


def check_linear_far(inst, report):
    """FairKernelPCA and FairKernelProjection (linear kernel) against the decimal reference.

    Asserted, per instance (the reference is exact to ~1e-40, see
    :func:`reference_linear_far`):

    * eigenvalues: |λ_j − λ_j^ref| ≤ 1e-8·λ_j for centred fits; uncentred ones (FairKernelPCA
      with ``center=False``, FairKernelProjection) add 10·eps·√(λ₁λ_j): the sample mean μ is
      itself stored to eps·|μ|, which moves σ_j by up to ~eps·σ₁ (Weyl) — relative
      2e-15·σ₁/σ_j, where σ₁/σ_j ≈ offset/spread (2e-7 at an offset of 1e8 spreads);
    * every kept component has group means equal to 1e-6 of its norm (the documented τ);
    * ``n_components=None`` keeps every component with λ_j ≥ 1e-14·λ₁ and none beyond
      d − rank (known by construction);
    * the first three axes, where their relative eigengap is ≥ 1e-2, are the reference's
      (sine of the training scores ≤ 1e-6); ``transform`` reproduces ``eigenvalues_``;
    * FairKernelProjection: the number of constraints, ΨΨᵀ = ``fair_kernel``.

    FairPCA (centred fits) equals the reference only to the rounding of the scatter matrix it
    forms, n·eps·‖X̃‖₂², which swamps the small eigenvalues relative to themselves when the
    column scales differ by up to 1e12: asserted at that level.
    """
    X, p = inst.X, inst.params
    n, d = X.shape
    codes = inst.info["codes"]
    Zt = np.hstack([stacked_centred_one_hot(codes)] + [
        centred(np.reshape(c, (n, 1))) for c in inst.info["float_columns"]])
    bound = inst.info["bound"]

    def compare(name, lam, lam_ref, lam1, uncentred):
        allowed = 1e-8 * lam_ref
        if uncentred:  # the mean μ is stored to eps·|μ|: Weyl, |Δσ_j| ≲ eps·σ₁
            allowed = allowed + 10 * EPS * np.sqrt(lam1 * lam_ref)
        report.gap(f"{name} eigenvalue gap / λ_j (raw)",
                   (np.abs(lam - lam_ref) / np.maximum(lam_ref, 1e-300)).max(initial=0.0))
        report.check(inst, f"{name} eigenvalue gap / tolerance",
                     (np.abs(lam - lam_ref) / allowed).max(initial=0.0), 1.0)

    def fair(name, E):
        # Z̃ᵀE = Z̃ᵀ(E − mean) (Z̃ centred), evaluated on the centred E: an uncentred column's
        # mean would otherwise enter through the rounding of Z̃'s centring (n·eps·|mean|)
        norms = np.linalg.norm(E, axis=0)
        kept = norms > 0
        Ec = E[:, kept] - E[:, kept].mean(axis=0)
        rel = np.linalg.norm(Zt.T @ Ec, axis=0) / (np.linalg.norm(Zt) * norms[kept])
        report.check(inst, f"{name} group-mean gap / component norm", rel.max(initial=0.0),
                     1e-6)

    # FairKernelPCA, every component the data have (n_components=None) and k = bound
    floats = inst.info["float_columns"]
    lam_ref, scores = reference_linear_far(X, codes, floats, p["center"])
    lam_ref = lam_ref[:bound]
    must = int(np.sum(lam_ref >= 1e-14 * lam_ref[0]))
    est = fit_quiet(FairKernelPCA(**p), X, sensitive_features=inst.sensitive)
    r = est.n_components_
    if not must <= r <= bound:
        report.fail(inst, f"FairKernelPCA keeps {r} components; {must} … {bound} expected")
        return
    compare("FairKernelPCA", est.eigenvalues_, lam_ref[:r], lam_ref[0], not p["center"])
    E = est.transform(X)
    fair("FairKernelPCA", E)
    report.check(inst, "FairKernelPCA transform vs eigenvalues",
                 (np.abs(np.sum(E**2, axis=0) - est.eigenvalues_)
                  / (1e-10 * est.eigenvalues_ + 1e-13 * lam_ref[0])).max(), 1.0)
    # leading axes with a clear gap: the same direction (sine ≤ 1e-6)
    for j in range(min(r, 3)):
        lo = lam_ref[j + 1] if j + 1 < bound else 0.0
        hi = lam_ref[j - 1] if j else np.inf
        if min(hi - lam_ref[j], lam_ref[j] - lo) < 1e-2 * lam_ref[j]:
            continue
        s_ref = scores[:, j]
        a, b = E[:, j] / np.linalg.norm(E[:, j]), s_ref / np.linalg.norm(s_ref)
        report.check(inst, "FairKernelPCA axis sine", min(np.linalg.norm(a - b),
                                                          np.linalg.norm(a + b)), 1e-6)
    if p["center"]:
        pca = fit_quiet(FairPCA(bound, sensitive_type=p["sensitive_type"]), X,
                        sensitive_features=inst.sensitive)
        lam_pca = np.sum(pca.transform(X) ** 2, axis=0)[:r]
        report.gap("FairPCA vs reference eigenvalue gap / λ₁ (raw)",
                   (np.abs(lam_pca - lam_ref[:r]) / lam_ref[0]).max())
        # FairPCA forms the scatter matrix X̃ᵀX̃, so its eigenvalues are exact only to the
        # rounding of that matrix, n·eps·‖X̃‖₂² (backward stable; measured at most 4.2·eps·‖X̃‖₂²
        # on this family): equal to the kernel route and the reference at that level
        Xc = X - X.mean(axis=0)
        report.check(inst, "FairPCA eigenvalue gap / (n·eps·‖X̃‖₂²)",
                     np.abs(lam_pca - lam_ref[:r]).max() / (n * EPS * np.linalg.norm(Xc, 2) ** 2),
                     1.0)
    # FairKernelProjection: the uncentred kernel, the same constraint
    lam_u, _ = reference_linear_far(X, codes, floats, center=False)
    lam_u = lam_u[:bound]
    must = int(np.sum(lam_u >= 1e-14 * lam_u[0]))
    proj = fit_quiet(FairKernelProjection(kernel="linear", sensitive_type=p["sensitive_type"]),
                     X, sensitive_features=inst.sensitive)
    r = proj.n_components_
    if proj.n_constraints_ != inst.info["n_constraints"] or not must <= r <= bound:
        report.fail(inst, f"FairKernelProjection keeps {r} components ({must} … {bound} "
                          f"expected), {proj.n_constraints_} constraints")
        return
    compare("FairKernelProjection", proj.eigenvalues_, lam_u[:r], lam_u[0], True)
    Psi = proj.transform(X)
    fair("FairKernelProjection", Psi)  # relative to √λ_j, as documented
    Kf = proj.fair_kernel(X)
    report.check(inst, "FairKernelProjection ΨΨᵀ vs fair_kernel",
                 np.abs(Psi @ Psi.T - Kf).max() / (1e-12 * np.abs(Kf).max()), 1.0)


@pytest.mark.parametrize("batch", range(LINEAR_FAR_BATCHES))
def test_linear_kernel_far_from_origin_adversarial(batch):
    run_batch("linear_kernel_far", batch, check_linear_far).assert_ok()
