"""Seeded generator of adversarial instances for the property tests (DESIGN §7, issue 11).

Friendly Gaussians centred at the origin hide rank mistakes: the random instances of earlier
rounds were centred, balanced, with k well below the bound, and 1 525 green tests missed that
FairPCA dropped a valid direction on about half of the uncentred, offset instances.  This module
draws small instances from the corners instead:

* offsets 1e-1 … 1e3 (relative to the spread) from the origin, global and group-dependent;
* ``center=True`` and ``center=False`` fits;
* per-column feature scales 1e-3 … 1e3;
* 2–5 groups with unbalanced sizes, down to 2 rows per group;
* several attributes (2-D ``sensitive_features``), including one that duplicates another and
  one that is a coarsening (a function) of another — collinear attributes;
* k from 1 to the bound, the bound itself on every third instance;
* d > n; near-tied spectra (isotropic noise), exactly low-rank data, heavy tails, small
  integers (exact sums, exact ties);
* duplicated and collinear feature columns;
* float32 input; integer, string and mixed (DataFrame) group labels;
* (``fair_pca_edges``) offsets up to 1e8, near-duplicate feature and continuous sensitive
  columns, a boolean column read as a continuous attribute, integer-coded attributes read as
  groups and as numbers.

Plain numpy, no test framework.  ``instance(family, seed, index)`` rebuilds one instance from its
id alone (``<family>/<seed>/<index>``), so a failure printed by a test is reproducible with::

    from tests.adversarial import instance
    inst = instance("fair_pca", 0, 137)

Every instance is small (n ≤ 300, d ≤ 40; n ≤ 120 for kernels), so that hundreds run in
seconds.  The rank of the group constraints is computed here independently of fairlab, by
an extended-precision eigendecomposition with a verified gap — see :func:`group_constraint_rank`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

FAMILIES = ("fair_pca", "fair_kernel_pca", "fair_pls", "fair_dr", "kernel_fair_dr",
            "fair_pca_continuous", "linear_kernel_far", "fair_pca_edges")
_FAMILY_CODES = {name: i for i, name in enumerate(FAMILIES)}


@dataclass(frozen=True)
class Instance:
    """One adversarial problem.

    ``params`` are keyword arguments of the estimator's constructor; ``info`` records the
    generator's choices (printed in failure messages) and exact facts known by construction,
    such as ``n_constraints`` (rank of the group constraint) and ``bound`` (largest admissible
    ``n_components``).
    """

    id: str
    family: str
    X: np.ndarray
    sensitive: object
    y: np.ndarray | None
    params: dict
    info: dict = field(default_factory=dict)

    def describe(self):
        """One line: id, shape, parameters and the generator's scalar choices (no arrays)."""
        def small(v):
            if isinstance(v, np.ndarray):
                return False
            if isinstance(v, (list, tuple)):
                return all(not isinstance(e, np.ndarray) for e in v)
            return True

        shown = {k: v for k, v in self.info.items() if small(v)}
        return f"{self.id} n={self.X.shape[0]} d={self.X.shape[1]} params={self.params} {shown}"


# ---------------------------------------------------------------------------------------------
# Ranks of group structures: an oracle independent of fairlab's exact elimination
# ---------------------------------------------------------------------------------------------
# fairlab decides the rank of the group constraints by rational Gaussian elimination on the
# co-occurrence matrix (fairlab._core.validation.SensitiveGroups.independent_columns).  The oracle
# here shares none of that code: it takes the paper's matrix Z̃ (centred one-hot indicators,
# §3.4–3.5) and diagonalises the integer matrix n·Z̃ᵀZ̃ by cyclic Jacobi rotations in extended
# precision (np.longdouble), counting the eigenvalues above 1e-12 of the largest, and asserting
# that none falls in the band [1e-16, 1e-8] of it where that count could be in doubt.
_LD_EPS = float(np.finfo(np.longdouble).eps)
RANK_RTOL_ORACLE = 1e-12
ORACLE_BAND = (1e-16, 1e-8)


def jacobi_eigh(M, max_sweeps=60):
    """Eigenvalues and eigenvectors of a small symmetric matrix, cyclic Jacobi in np.longdouble.

    Each rotation J (c, s at rows/columns i, j) zeroes the (i, j) entry of JᵀMJ (Golub & Van
    Loan, Algorithm 8.5.2); sweeps repeat until the off-diagonal part is below the extended
    precision's rounding of ‖M‖_F.  Returns (w, V) in descending order of w.
    """
    A = np.array(M, dtype=np.longdouble)
    p = A.shape[0]
    V = np.eye(p, dtype=np.longdouble)
    scale = np.sqrt(np.sum(A * A))
    for _ in range(max_sweeps):
        off = np.sqrt(np.sum(np.triu(A, 1) ** 2))
        if not off > _LD_EPS * scale:
            break
        for i in range(p - 1):
            for j in range(i + 1, p):
                if A[i, j] == 0:
                    continue
                tau = (A[j, j] - A[i, i]) / (2 * A[i, j])
                t = (1 if tau >= 0 else -1) / (abs(tau) + np.sqrt(1 + tau * tau))
                c = 1 / np.sqrt(1 + t * t)
                s = t * c
                ai, aj = A[:, i].copy(), A[:, j].copy()
                A[:, i], A[:, j] = c * ai - s * aj, s * ai + c * aj
                ai, aj = A[i, :].copy(), A[j, :].copy()
                A[i, :], A[j, :] = c * ai - s * aj, s * ai + c * aj
                vi, vj = V[:, i].copy(), V[:, j].copy()
                V[:, i], V[:, j] = c * vi - s * vj, s * vi + c * vj
    w = np.diag(A)
    order = np.argsort(w)[::-1]
    return w[order], V[:, order]


def centred_design(codes_list, integer_columns=()):
    """[Z₁, …, Z_p, s…] (one-hot of each attribute, integer-valued columns) as int64, and n."""
    n = len(codes_list[0]) if codes_list else len(integer_columns[0])
    blocks = []
    for codes in codes_list:
        _, inv = np.unique(codes, return_inverse=True)
        block = np.zeros((n, inv.max() + 1), dtype=np.int64)
        block[np.arange(n), inv.reshape(-1)] = 1
        blocks.append(block)
    for col in integer_columns:
        blocks.append(np.asarray(col, dtype=np.int64).reshape(n, 1))
    return np.hstack(blocks), n


def design_spectrum(codes_list, integer_columns=()):
    """Eigenpairs of n·D̃ᵀD̃ = n·DᵀD − (Dᵀ1)(1ᵀD) (D̃ the column-centred design), and its rank.

    The matrix is formed exactly in integers; its eigenvalues are those of n·Z̃ᵀZ̃ of the
    paper (with integer columns appended).  Raises when an eigenvalue lies in the doubtful band.
    """
    D, n = centred_design(codes_list, integer_columns)
    Di = D.astype(object)  # Python integers: no overflow
    c = Di.sum(axis=0)
    M = n * (Di.T @ Di) - np.outer(c, c)
    w, V = jacobi_eigh(np.array(M.tolist(), dtype=np.longdouble))
    top = max(float(w[0]), 0.0) if w.size else 0.0
    rel = np.asarray(w, dtype=np.float64) / top if top > 0 else np.zeros(w.size)
    doubtful = rel[(rel > ORACLE_BAND[0]) & (rel < ORACLE_BAND[1])]
    assert doubtful.size == 0, f"rank oracle: eigenvalues {doubtful} in the doubtful band"
    rank = int(np.sum(rel > RANK_RTOL_ORACLE))
    return w, V, rank


def group_constraint_rank(codes_list):
    """Rank of the stacked centred one-hot matrix Z̃ of several attributes (oracle above).

    Σ_r (m_r − 1) for independent attributes; less when attributes are collinear (one a
    function of another, duplicates, or disconnected co-occurrence patterns).
    """
    return design_spectrum(codes_list)[2]


def design_rank(codes_list, integer_columns=()):
    """Rank of the centred [Z, s] (categorical attributes and integer-valued columns)."""
    return design_spectrum(codes_list, integer_columns)[2]


def centred_design_basis(codes_list, integer_columns=()):
    """Orthonormal basis (n × rank) of span(centred [Z, s]), the rank from the oracle.

    With n·D̃ᵀD̃ = VΛVᵀ, the columns D̃V_r (r = rank) are orthogonal with norms √(λ/n) and span
    range(D̃); a QR factorisation normalises them.
    """
    D, n = centred_design(codes_list, integer_columns)
    _, V, rank = design_spectrum(codes_list, integer_columns)
    Dc = D.astype(np.float64)
    Dc -= Dc.mean(axis=0)
    return np.linalg.qr(Dc @ np.asarray(V[:, :rank], dtype=np.float64))[0]


# ---------------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------------
def _log_uniform(rng, lo, hi, size=None):
    return 10.0 ** rng.uniform(np.log10(lo), np.log10(hi), size)


def _group_codes(rng, n, m, *, tiny):
    """Codes 0..m-1 for n rows, every group ≥ 2 rows; unbalanced, with ``tiny`` groups of 2."""
    sizes = np.full(m, 2)
    n_tiny = min(tiny, m - 1)
    free = n - 2 * m
    if free > 0:
        weights = rng.dirichlet(np.full(m, 0.7))
        weights[:n_tiny] = 0.0
        weights /= weights.sum()
        sizes += rng.multinomial(free, weights)
    codes = np.repeat(np.arange(m), sizes)
    return rng.permutation(codes)


def _coarsen(rng, codes, m_coarse):
    """A surjective function of the codes onto m_coarse < m values (collinear attribute)."""
    m = codes.max() + 1
    f = np.concatenate([np.arange(m_coarse), rng.integers(0, m_coarse, m - m_coarse)])
    f = rng.permutation(f)
    return f[codes]


def _labels(rng, codes, kind):
    """Turn codes into integer (shuffled, possibly negative) or string labels."""
    m = codes.max() + 1
    if kind == "int":
        values = rng.choice(np.arange(-5, 20), size=m, replace=False)
        return values[codes]
    if kind == "str":
        names = np.array([f"g{v}" for v in rng.permutation(m) * 3 + 1])
        return names[codes]
    if kind == "bool" and m == 2:
        return codes.astype(bool)
    raise ValueError(kind)


def _pack_attributes(rng, columns, kinds):
    """1-D array, 2-D array, or a DataFrame with mixed label types."""
    labelled = [_labels(rng, c, k) for c, k in zip(columns, kinds)]
    if len(labelled) == 1:
        return labelled[0]
    if len(set(kinds)) == 1 and rng.random() < 0.6:
        return np.column_stack(labelled)
    return pd.DataFrame({f"a{j}": col for j, col in enumerate(labelled)})


def _base_features(rng, n, d, spectrum):
    """Latent n × d data with roughly unit spread and a chosen spectrum shape."""
    if spectrum == "iso":  # isotropic noise: near-tied sample spectrum
        return rng.normal(size=(n, d))
    if spectrum == "aniso":
        Q = np.linalg.qr(rng.normal(size=(d, d)))[0]
        return (rng.normal(size=(n, d)) * _log_uniform(rng, 0.05, 5.0, d)) @ Q.T
    if spectrum == "lowrank":  # exactly rank r0 < d (zero eigenvalues, ties at zero)
        r0 = int(rng.integers(1, max(2, d)))
        return rng.normal(size=(n, r0)) @ rng.normal(size=(r0, d)) / np.sqrt(r0)
    if spectrum == "heavy":
        return rng.standard_t(2.5, size=(n, d))
    if spectrum == "integer":  # small integers: exact sums, many exact ties
        return rng.integers(-3, 4, size=(n, d)).astype(float)
    raise ValueError(spectrum)


def _features(rng, n, d, group_codes, *, info, allow_scales=True, allow_collinear=True,
              max_offset=1e3):
    """Features with offsets, group effects, collinear columns and per-column scales."""
    spectrum = str(rng.choice(["iso", "aniso", "lowrank", "heavy", "integer"],
                              p=[0.3, 0.3, 0.12, 0.13, 0.15]))
    X = _base_features(rng, n, d, spectrum)
    info["spectrum"] = spectrum
    # group effects: none, small, unit, large (a group-dependent offset up to max_offset)
    effect = str(rng.choice(["none", "small", "unit", "offset"], p=[0.2, 0.2, 0.35, 0.25]))
    info["group_effect"] = effect
    for codes in group_codes[:1]:
        m = codes.max() + 1
        if effect == "none":
            continue
        size = {"small": 0.1, "unit": 1.0}.get(effect) or float(_log_uniform(rng, 0.1, max_offset))
        shifts = rng.normal(size=(m, d)) * size
        if effect == "offset":  # one group far away, the others at the common offset
            shifts[1:] = 0.0
        if spectrum == "integer":
            shifts = np.round(shifts)
        X = X + shifts[codes]
    # global offset, 1e-1 … max_offset times the spread, in a random direction
    if rng.random() < 0.75:
        o = float(_log_uniform(rng, 0.1, max_offset))
        direction = rng.normal(size=d)
        offset = o * direction / np.linalg.norm(direction) * np.sqrt(d)
        if spectrum == "integer":
            offset = np.round(offset)
        X = X + offset
        info["offset"] = round(o, 3)
    # duplicated / collinear columns (exact copies, and exact combinations of two columns)
    if allow_collinear and d >= 3 and rng.random() < 0.25:
        j, i = rng.choice(d, size=2, replace=False)
        X[:, j] = X[:, i]
        info["duplicate_column"] = (int(j), int(i))
        if d >= 4 and rng.random() < 0.5:
            a, b, c = rng.choice([t for t in range(d) if t != j], size=3, replace=False)
            X[:, a] = 2.0 * X[:, b] - X[:, c]  # exact in floating point for small integers
            info["collinear_column"] = (int(a), int(b), int(c))
    # per-column scales 1e-3 … 1e3 (powers of two: exact, so integer data stay exact)
    if allow_scales and rng.random() < 0.35:
        scales = 2.0 ** np.round(np.log2(_log_uniform(rng, 1e-3, 1e3, d)))
        X = X * scales
        info["column_scales"] = (float(scales.min()), float(scales.max()))
    return X


def _maybe_float32(rng, X, info, p=0.15):
    if rng.random() < p:
        info["dtype"] = "float32"
        return X.astype(np.float32)
    return X


def _k_choice(rng, index, bound):
    """Every third instance uses k at the bound, every third k = 1, else uniform."""
    mode = index % 3
    if mode == 0 or bound == 1:
        return bound
    if mode == 1:
        return 1
    return int(rng.integers(1, bound + 1))


# ---------------------------------------------------------------------------------------------
# Families
# ---------------------------------------------------------------------------------------------
def _attributes(rng, n, *, max_groups, allow_multi=True):
    """Group codes of 1–3 attributes (independent, duplicate, coarsening) and label kinds."""
    m_a = int(rng.integers(2, max_groups + 1))
    tiny = int(rng.integers(0, 3)) if rng.random() < 0.4 else 0
    codes = [_group_codes(rng, n, m_a, tiny=tiny)]
    relation = "single"
    if allow_multi and rng.random() < 0.35:
        relation = str(rng.choice(["independent", "duplicate", "coarsening", "three"]))
        if relation == "independent":
            codes.append(_group_codes(rng, n, int(rng.integers(2, 4)), tiny=0))
        elif relation == "duplicate":
            codes.append(codes[0].copy())
        elif relation == "coarsening":
            if m_a >= 3:
                codes.append(_coarsen(rng, codes[0], int(rng.integers(2, m_a))))
            else:
                codes.append(codes[0].copy())
        else:  # independent second attribute plus a coarsening of the first
            codes.append(_group_codes(rng, n, 2, tiny=0))
            codes.append(_coarsen(rng, codes[0], 2) if m_a >= 3 else codes[0].copy())
    kinds = [str(rng.choice(["int", "str"])) for _ in codes]
    return codes, kinds, relation


def _feature_count(rng, n, rank, mode):
    """d for an instance: more features than rows ("wide"), else between rank + 1 and 40."""
    if mode == "wide":
        d = int(rng.integers(n + 1, 41)) if n < 40 else 40
    else:
        d = int(rng.integers(rank + 1, max(rank + 2, min(40, n)) + 1))
    return max(d, rank + 1)


def _fair_pca(rng, index):
    info = {}
    mode = str(rng.choice(["dp", "dp", "eo", "wide"]))
    n = int(rng.integers(8, 41)) if mode == "wide" else int(_log_uniform(rng, 12, 300))
    codes, kinds, relation = _attributes(rng, n, max_groups=5 if n >= 20 else 3)
    info.update(mode=mode, relation=relation, n_groups=[int(c.max() + 1) for c in codes])
    y = None
    fit_rows = np.arange(n)
    if mode == "eo":
        y = (rng.random(n) < 0.6).astype(int)
        for c in codes:  # at least two positives in every group of every attribute
            for g in range(c.max() + 1):
                y[np.flatnonzero(c == g)[:2]] = 1
        if rng.random() < 0.3:
            y = np.where(y == 1, "yes", "no")
        fit_rows = np.flatnonzero((y == 1) | (y == "yes"))
    rank = group_constraint_rank([c[fit_rows] for c in codes])
    d = _feature_count(rng, n, rank, mode)
    X = _features(rng, n, d, codes, info=info)
    X = _maybe_float32(rng, X, info)
    bound = min(len(fit_rows), d - rank)
    k = _k_choice(rng, index, bound)
    params = {
        "n_components": k,
        "center": bool(rng.random() < 0.5),
        "svd_solver": str(rng.choice(["auto", "full"])),
    }
    if mode == "eo":
        params["fairness"] = "equal_opportunity"
        if y.dtype.kind == "U":
            params["pos_label"] = "yes"
    info.update(n_constraints=rank, bound=bound, fit_rows=fit_rows, codes=codes)
    return X, _pack_attributes(rng, codes, kinds), y, params, info


def _fair_kernel_pca(rng, index):
    info = {}
    n = int(rng.integers(10, 121))
    codes, kinds, relation = _attributes(rng, n, max_groups=4)
    d = int(rng.integers(1, 11))
    kernel = str(rng.choice(["rbf", "rbf", "linear", "poly"]))
    # per-column scales only with the rbf kernel: with linear/poly kernels they put genuine
    # constraint eigenvalues of ZᵀKZ at the 1e-12 level, below what a Gram matrix resolves
    X = _features(rng, n, d, codes, info=info, allow_scales=kernel == "rbf",
                  allow_collinear=d >= 3)
    X = _maybe_float32(rng, X, info, p=0.1)
    params = {"kernel": kernel, "center": bool(rng.random() < 0.5)}
    if kernel in ("rbf", "poly") and rng.random() < 0.6:
        # explicit gamma relative to the data's own scale (None = the paper's default)
        params["gamma"] = float(_log_uniform(rng, 0.1, 10.0) / (d * np.var(X.astype(float))))
    if kernel == "poly":
        params["degree"] = int(rng.integers(2, 4))
        params["coef0"] = float(rng.choice([0.0, 1.0]))
    rank = group_constraint_rank(codes)
    bound = n - rank
    k = _k_choice(rng, index, bound)
    if index % 3 == 2:
        k = min(k, 20)
    params["n_components"] = k
    info.update(relation=relation, n_groups=[int(c.max() + 1) for c in codes],
                n_constraints=rank, bound=bound, codes=codes)
    return X, _pack_attributes(rng, codes, kinds), None, params, info


def _fair_pls(rng, index):
    info = {}
    n = int(_log_uniform(rng, 8, 300))
    eta = [0.0, 0.5, 10.0, np.inf][index % 4]
    kind = str(rng.choice(["categorical", "categorical", "continuous", "mixed"]))
    codes, labels, cont = [], [], []
    if kind in ("categorical", "mixed"):
        m = int(rng.integers(2, 5 if n >= 12 else 3))
        codes.append(_group_codes(rng, n, m, tiny=int(rng.integers(0, 2))))
        lab_kind = str(rng.choice(["int", "str", "bool"])) if m == 2 else str(
            rng.choice(["int", "str"]))
        labels.append(_labels(rng, codes[0], lab_kind))
    if kind in ("continuous", "mixed") or rng.random() < 0.15:
        cont.append(rng.normal(size=n) * float(_log_uniform(rng, 1e-2, 1e2)) + float(
            rng.normal() * 10))
    if kind == "categorical" and rng.random() < 0.2:  # a duplicate of the attribute
        codes.append(codes[0].copy())
        labels.append(_labels(rng, codes[0], "str"))
    # constraint rank (categorical spans exactly, continuous columns generic)
    rank = (group_constraint_rank(codes) if codes else 0) + len(cont)
    d = int(rng.integers(1, 7))
    if np.isinf(eta):  # the hard constraint needs a feasible direction
        d = max(d, rank + 1)
    X = _features(rng, n, d, codes or [rng.integers(0, 2, n)], info=info,
                  allow_collinear=d >= 3)
    if cont:  # make X depend on the continuous attribute too
        X = X + np.outer(cont[0] - cont[0].mean(), rng.normal(size=d)) / (np.std(cont[0]) + 1e-300)
    X = _maybe_float32(rng, X, info, p=0.1)
    beta = rng.normal(size=(d, 2))
    Xs = (X - X.mean(0)) / (X.std(0) + 1e-300)
    q = 1 if rng.random() < 0.7 else 2
    y = Xs @ beta[:, :q] + rng.normal(size=(n, q)) * float(rng.choice([0.1, 1.0]))
    if codes:
        y = y + (codes[0][:, None] == 1) * float(rng.normal())
    y = y * float(_log_uniform(rng, 1e-2, 1e2)) + float(rng.normal() * 100)
    y = y[:, 0] if q == 1 else y
    columns = labels + cont
    if len(columns) == 1:
        S = columns[0]
    else:
        S = pd.DataFrame({f"s{j}": c for j, c in enumerate(columns)})
    params = {"eta": eta, "scale": bool(rng.random() < 0.6),
              "n_components": int(rng.integers(1, min(d, n) + 1))}
    if rng.random() < 0.15:
        params["fairness"] = "equalized_odds"
    info.update(s_kind=kind, n_constraints=rank, codes=codes, continuous=cont)
    return X, S, y, params, info


def _dr_sensitive(rng, n, *, allow_int=True):
    """Sensitive variables for FDR/KFDR: continuous, string one-hot, or integer (continuous)."""
    kind = str(rng.choice(["continuous", "string", "integer", "mixed", "duplicate"] if allow_int
                          else ["continuous", "string", "mixed"]))
    codes, cat_columns, cont_columns, int_columns, columns = [], [], [], [], []
    if kind in ("string", "mixed", "duplicate", "integer"):
        m = int(rng.integers(2, 5))
        c = _group_codes(rng, n, m, tiny=int(rng.integers(0, 2)))
        codes.append(c)
        if kind == "integer":  # integer labels are a *continuous* variable for FDR/FLR/FKR
            v = _labels(rng, c, "int")
            int_columns.append(v)
            columns.append(v)
        else:
            cat_columns.append(c)
            columns.append(_labels(rng, c, "str"))
        if kind == "duplicate":  # the same attribute again, as integers (continuous): collinear
            v = _labels(rng, c, "int")
            int_columns.append(v)
            columns.append(v)
    if kind in ("continuous", "mixed"):
        for _ in range(int(rng.integers(1, 3))):
            v = rng.normal(size=n) * float(_log_uniform(rng, 1e-2, 1e2))
            cont_columns.append(v)
            columns.append(v)
    if len(columns) == 1:
        S = columns[0]
    else:
        S = pd.DataFrame({f"s{j}": c for j, c in enumerate(columns)})
    info = {"s_kind": kind, "cat_codes": cat_columns, "int_columns": int_columns,
            "cont_columns": cont_columns}
    return S, codes, info


def _dr_rank(info):
    """Exact rank of the centred S̃ (categorical + integer columns exact, floats generic)."""
    exact = design_rank(info["cat_codes"], info["int_columns"]) if (
        info["cat_codes"] or info["int_columns"]) else 0
    return exact + len(info["cont_columns"])


def _fair_dr(rng, index):
    n = int(_log_uniform(rng, 10, 300))
    S, codes, info = _dr_sensitive(rng, n)
    d = int(rng.integers(2, 13))
    X = _features(rng, n, d, codes or [rng.integers(0, 2, n)], info=info,
                  allow_collinear=d >= 3)
    if info["cont_columns"]:
        s0 = info["cont_columns"][0]
        X = X + np.outer(s0 / (np.std(s0) + 1e-300), rng.normal(size=d)) * np.std(X, axis=0)
    X = _maybe_float32(rng, X, info, p=0.1)
    ridge = [1e-7, 1e-3, 0.0][(index // 3) % 3]  # decoupled from the k schedule (index % 3)
    rank_s = _dr_rank(info)
    rank_x = min(n - 1, d)  # generic; collinear columns lower it (recorded in info)
    if "duplicate_column" in info:
        rank_x -= 1 + ("collinear_column" in info)
    if info["spectrum"] == "lowrank":
        rank_x = None  # unknown without a numerical decision
    bound = d if ridge > 0 else d - min(rank_s, d)
    info.update(n_constraints=rank_s, rank_x=rank_x, bound=bound)
    if bound < 1:
        ridge, bound = 1e-7, d
        info["bound"] = bound
    k = _k_choice(rng, index, bound)
    return X, S, None, {"n_components": k, "ridge": ridge}, info


def _kernel_fair_dr(rng, index):
    n = int(rng.integers(10, 121))
    S, codes, info = _dr_sensitive(rng, n)
    d = int(rng.integers(1, 8))
    kernel = str(rng.choice(["rbf", "rbf", "linear", "poly"]))
    X = _features(rng, n, d, codes or [rng.integers(0, 2, n)], info=info,
                  allow_scales=kernel != "linear", allow_collinear=d >= 3, max_offset=1e2)
    X = _maybe_float32(rng, X, info, p=0.1)
    params = {"kernel": kernel}
    if kernel in ("rbf", "poly"):
        params["gamma"] = float(_log_uniform(rng, 0.1, 3.0) / (d * np.var(X.astype(float))))
    sensitive_kernel = "rbf" if rng.random() < 0.2 else "linear"
    params["sensitive_kernel"] = sensitive_kernel
    ridge = [1e-7, 1e-3, 0.0][(index // 3) % 3]
    if sensitive_kernel == "rbf" and ridge == 0.0:
        ridge = 1e-3
    params["ridge"] = ridge
    rank_s = _dr_rank(info)
    info.update(n_constraints=rank_s)
    if kernel == "linear" and info["spectrum"] != "lowrank":
        rank_x = min(n - 1, d) - ("duplicate_column" in info) - ("collinear_column" in info)
        bound = rank_x if ridge > 0 else rank_x - min(rank_s, rank_x)
        info["rank_x"] = rank_x
    else:
        bound = 8  # rbf/poly: numerical rank of K̃ is fuzzy; stay well inside it
        if ridge == 0:
            bound = 6
    if bound < 1:
        params["ridge"], bound = 1e-3, max(1, info.get("rank_x", 1))
    info["bound"] = bound
    params["n_components"] = _k_choice(rng, index, bound) if index % 3 == 0 else int(
        rng.integers(1, min(bound, 8) + 1))
    return X, S, None, params, info


def _continuous_columns(rng, n, codes):
    """1–3 continuous sensitive columns, with their exact description for the rank oracle.

    Each base column is small integers plus an integer offset up to 1e3 (exact, and given to
    the oracle as an integer column) or a generic float column with an offset up to 1e3
    (appended to the oracle's basis); columns are scaled by powers of two 2^-10 … 2^10 (exact,
    the span is unchanged).  Collinear ones: a duplicate (possibly rescaled), an exact
    combination 2a − b + offset of two integer columns, or a two-valued function of the first
    categorical attribute (collinear with its indicators).  Returns (S, integer columns for
    the oracle, float columns, choices).
    """
    q = int(rng.integers(1, 4))
    S, ints, floats, kinds = [], [], [], []
    for _ in range(q):
        offset = float(np.round(_log_uniform(rng, 0.1, 1e3))) * rng.choice([-1, 1])
        if rng.random() < 0.6:
            base = rng.integers(-3, 4, size=n) + int(offset)
            if np.all(base == base[0]):
                base[0] += 1
            ints.append(base.astype(np.int64))
            kinds.append("int")
            col = base.astype(float)
        else:
            col = rng.normal(size=n) * float(_log_uniform(rng, 0.1, 10.0)) + offset
            floats.append(col)
            kinds.append("float")
        S.append(col * 2.0 ** int(rng.integers(-10, 11)))
    relation = str(rng.choice(["none", "duplicate", "combination", "indicator"],
                              p=[0.4, 0.25, 0.2, 0.15]))
    if relation == "duplicate":
        j = int(rng.integers(0, q))
        S.append(S[j] * 2.0 ** int(rng.integers(-3, 4)))
        if kinds[j] == "int":
            ints.append(ints[kinds[:j].count("int")])
    elif relation == "combination" and kinds.count("int") >= 2:
        a, b = ints[0], ints[1]
        combo = 2 * a - b + int(rng.integers(-500, 500))
        ints.append(combo)
        S.append(combo.astype(float))
    elif relation == "indicator" and codes:
        ind = 1000 + 3 * (codes[0] == 0).astype(np.int64)
        ints.append(ind)
        S.append(ind.astype(float))
    else:
        relation = "none"
    return np.column_stack(S), ints, floats, relation


def _fair_pca_continuous(rng, index):
    """FairPCA with ``sensitive_type``: continuous and mixed categorical + continuous columns."""
    info = {}
    mode = str(rng.choice(["dp", "dp", "eo", "wide", "tiny"]))
    n = {"wide": int(rng.integers(8, 41)), "tiny": int(rng.integers(6, 12))}.get(
        mode, int(_log_uniform(rng, 12, 300)))
    codes, label_kinds = [], []
    if rng.random() < 0.5:
        codes, label_kinds, _ = _attributes(rng, n, max_groups=3 if n >= 12 else 2,
                                            allow_multi=n >= 20)
    S, ints, floats, relation = _continuous_columns(rng, n, codes)
    y = None
    fit_rows = np.arange(n)
    if mode == "eo":
        y = (rng.random(n) < 0.6).astype(int)
        for c in codes:
            for g in range(c.max() + 1):
                y[np.flatnonzero(c == g)[:2]] = 1
        fit_rows = np.flatnonzero(y == 1)
    exact = design_rank([c[fit_rows] for c in codes], [c[fit_rows] for c in ints]) if (
        codes or ints) else 0
    rank = exact + len(floats)
    d = _feature_count(rng, n, rank, mode)
    X = _features(rng, n, d, codes, info=info)
    # the attributes move the data: a direction per continuous column (unit effect)
    Ss = (S - S.mean(axis=0)) / np.maximum(S.std(axis=0), 1e-300)
    X = X + Ss @ rng.normal(size=(S.shape[1], d)) * X.std(axis=0).clip(1e-3)
    bound = min(len(fit_rows), d - rank)
    k = _k_choice(rng, index, bound)
    q = S.shape[1]
    order = rng.permutation(len(codes) + q)  # interleave categorical and continuous columns
    cols = [_labels(rng, c, t) for c, t in zip(codes, label_kinds)] + list(S.T)
    types = ["categorical"] * len(codes) + ["continuous"] * q
    cols, types = [cols[i] for i in order], [types[i] for i in order]
    if not codes and rng.random() < 0.5:
        sensitive, sensitive_type = (S[:, 0] if q == 1 else S), "continuous"
        cols, types = list(S.T), ["continuous"] * q
    else:
        sensitive = pd.DataFrame({f"s{j}": c for j, c in enumerate(cols)})
        sensitive_type = types
    params = {
        "n_components": k,
        "center": bool(rng.random() < 0.5),
        # ARPACK only below the size of the eigenproblem (k >= p is refused by ARPACK itself)
        "svd_solver": str(rng.choice(["auto", "full", "arpack"]
                                     if k < min(len(fit_rows), d) - 1 else ["auto", "full"])),
        "sensitive_type": sensitive_type,
    }
    if mode == "eo":
        params["fairness"] = "equal_opportunity"
    info.update(mode=mode, relation=relation, n_constraints=rank, bound=bound,
                fit_rows=fit_rows, codes=codes, integer_columns=ints, float_columns=floats,
                continuous=S)
    return X, sensitive, y, params, info


def _linear_kernel_far(rng, index):
    """A linear-kernel problem far from the origin and across scales (kernel estimators).

    Offsets o·scale_j with o log-uniform in 1 … 1e8 (common to all columns, or per column with
    random signs), per-column scales log-uniform in 1e-3 … 1e3 on two instances of three (unit
    otherwise), one categorical attribute of 2–4 groups moving every column by ~its scale
    (the constraint has full rank m − 1 by construction), and on one instance of four a
    generic continuous column beside it (rank m).  The data have full column rank d ≤ 8 < n,
    so the fair subspace has dimension d − rank ≥ 1 by construction.  ``center`` alternates.
    """
    info = {}
    n = int(rng.integers(20, 121))
    m = int(rng.integers(2, 5))
    d = int(rng.integers(m + (index % 4 == 3), 9))  # at least one fair direction
    codes = _group_codes(rng, n, m, tiny=int(rng.integers(0, 2)))
    scales = _log_uniform(rng, 1e-6, 1e6, d) if index % 3 else np.ones(d)
    X = rng.normal(size=(n, d)) + rng.normal(size=(m, d))[codes]
    continuous = None
    if index % 4 == 3:
        continuous = rng.normal(size=n) * float(_log_uniform(rng, 1e-3, 1e3)) + float(
            _log_uniform(rng, 1.0, 1e6))
        X[:, 0] += (continuous - continuous.mean()) / continuous.std()
    offset = float(_log_uniform(rng, 1.0, 1e8))
    signs = rng.choice([-1.0, 1.0], d) if rng.random() < 0.5 else np.ones(d)
    X = (X + offset * signs) * scales
    rank = m - 1 + (continuous is not None)
    labels = _labels(rng, codes, str(rng.choice(["int", "str"])))
    if continuous is None:
        sensitive, sensitive_type = labels, "categorical"
    else:
        sensitive = pd.DataFrame({"group": labels, "level": continuous})
        sensitive_type = ["categorical", "continuous"]
    params = {"kernel": "linear", "center": bool(index % 2 == 0),
              "sensitive_type": sensitive_type}
    info.update(offset=offset, scale_range=float(scales.max() / scales.min()),
                n_constraints=rank, bound=d - rank, codes=[codes],
                float_columns=[] if continuous is None else [continuous])
    return X, sensitive, None, params, info


def _fair_pca_edges(rng, index):
    """FairPCA at the corners of its input types, with the sensitive matrix written out.

    Four kinds of attribute in turn (``index % 4``): a boolean column passed with
    ``sensitive_type="continuous"`` (read as 0/1); integer codes (shuffled, possibly negative
    labels) read as groups; the same read as numbers (``"continuous"``); two near-duplicate
    continuous columns (the second the first plus 1e-6 of its spread in noise: a genuine,
    well-conditioned second constraint).  The features are offset from the origin by up to
    1e8 (times a random sign per column) and hold a near-duplicate column (a copy plus 1e-9
    of its spread); ``center`` alternates.  ``info["S"]`` is the sensitive matrix as the
    constraint reads it (the 0/1 column, the numbers, or the group indicators), uncentred;
    ``info["n_constraints"]`` the rank of its centred columns, known by construction.
    """
    kind = ("bool_continuous", "int_categorical", "int_continuous", "near_duplicate")[index % 4]
    n = int(rng.integers(20, 81))
    m = 2 if kind == "bool_continuous" else int(rng.integers(2, 5))
    codes = _group_codes(rng, n, m, tiny=int(rng.integers(0, 2)))
    if kind == "bool_continuous":
        sensitive = codes.astype(bool)
        S = codes[:, None].astype(float)
        sensitive_type, rank = "continuous", 1
    elif kind == "int_categorical":
        sensitive = _labels(rng, codes, "int")
        S = np.eye(m)[codes]
        sensitive_type, rank = "categorical", m - 1
    elif kind == "int_continuous":
        sensitive = _labels(rng, codes, "int").astype(np.int64)
        S = sensitive[:, None].astype(float)
        sensitive_type, rank = "continuous", 1
    else:
        s = rng.normal(size=n) * float(_log_uniform(rng, 1e-2, 1e2))
        near = s + 1e-6 * np.std(s) * rng.normal(size=n)
        sensitive = pd.DataFrame({"s": s, "s_near": near})
        S = np.c_[s, near]
        sensitive_type, rank = "continuous", 2
    d = int(rng.integers(rank + 2, rank + 7))
    X = rng.normal(size=(n, d))
    Sc = S - S.mean(axis=0)
    X += (Sc / np.maximum(Sc.std(axis=0), 1e-300)) @ rng.normal(size=(S.shape[1], d))
    X[:, -1] = X[:, 0] + 1e-9 * rng.normal(size=n)  # near-duplicate feature columns
    offset = float(_log_uniform(rng, 1.0, 1e8))
    X = X + offset * rng.choice([-1.0, 1.0], d)
    bound = d - rank
    k = bound if index % 3 == 0 else int(rng.integers(1, bound + 1))
    params = {"n_components": k, "center": bool(index % 2 == 0),
              "sensitive_type": sensitive_type}
    info = {"kind": kind, "offset": round(offset, 3), "n_constraints": rank, "bound": bound,
            "S": S}
    return X, sensitive, None, params, info


_BUILDERS = {
    "fair_pca": _fair_pca,
    "fair_kernel_pca": _fair_kernel_pca,
    "fair_pls": _fair_pls,
    "fair_dr": _fair_dr,
    "kernel_fair_dr": _kernel_fair_dr,
    "fair_pca_continuous": _fair_pca_continuous,
    "linear_kernel_far": _linear_kernel_far,
    "fair_pca_edges": _fair_pca_edges,
}


def instance(family, seed, index):
    """The instance ``<family>/<seed>/<index>`` (deterministic: its own seed sequence)."""
    if family not in _BUILDERS:
        raise ValueError(f"unknown family {family!r}; choose one of {FAMILIES}")
    rng = np.random.default_rng([_FAMILY_CODES[family], seed, index])
    X, S, y, params, info = _BUILDERS[family](rng, index)
    return Instance(id=f"{family}/{seed}/{index}", family=family, X=X, sensitive=S, y=y,
                    params=params, info=info)


def instances(family, n_instances, seed=0, start=0):
    """Yield ``n_instances`` instances of ``family``: indices ``start … start + n − 1``."""
    for index in range(start, start + n_instances):
        yield instance(family, seed, index)
