"""Pieces shared by the semidefinite-programming fair-PCA baselines (FPCA, SamadiFairPCA).

cvxpy is imported only when a fit needs it (:func:`import_cvxpy`), so importing the baselines
stays cheap and works without it.  :func:`solve` turns a solver's status into a warning (an
inaccurate solution) or an error (none); the remaining helpers are the dense linear algebra
both estimators need: the two-group mask, PCA, a square factor of a PSD matrix, the Householder
basis of f^⊥ and the reference code's group covariance.
"""

# SPDX-License-Identifier: BSD-3-Clause

import importlib
import warnings

import numpy as np
from scipy import linalg
from sklearn.exceptions import ConvergenceWarning

INSTALL_HINT = 'pip install "fairlab[baselines]"  (cvxpy with the SCS and Clarabel solvers)'
CVXPY_SOLVERS = {"scs": "SCS", "clarabel": "CLARABEL"}


def import_cvxpy(estimator, solver):
    """Import cvxpy (and check that ``solver`` is installed) only when a fit needs it."""
    name = type(estimator).__name__
    try:
        cp = importlib.import_module("cvxpy")
    except ImportError as exc:
        raise ImportError(
            f"{name}(solver={solver!r}) solves a semidefinite program with cvxpy, which is not "
            f"installed. Install it with: {INSTALL_HINT}"
        ) from exc
    if CVXPY_SOLVERS[solver] not in cp.installed_solvers():
        raise ImportError(
            f"{name}(solver={solver!r}) needs the {CVXPY_SOLVERS[solver]} solver, which cvxpy "
            f"does not find. Install it with: pip install {solver}  (or: {INSTALL_HINT})"
        )
    return cp


def solve(problem, solver, options, estimator, *, scs_eps=1e-6, scs_max_iters=20000,
          scs_scale=None):
    """Solve a cvxpy problem; warn on an inaccurate solution, raise on a failed one.

    ``options`` (the estimator's ``solver_options``) override the SCS defaults given here
    (``scs_scale``: SCS's initial ``scale``, its own default 0.1 if None).
    """
    cp = importlib.import_module("cvxpy")
    scs = {"eps_abs": scs_eps, "eps_rel": scs_eps, "max_iters": scs_max_iters}
    if scs_scale is not None:
        scs["scale"] = scs_scale
    defaults = {"scs": scs, "clarabel": {}}
    opts = {**defaults[solver], **(options or {})}
    name = type(estimator).__name__
    try:
        problem.solve(solver=CVXPY_SOLVERS[solver], **opts)
    except cp.error.SolverError as exc:
        other = "clarabel" if solver == "scs" else "scs"
        raise RuntimeError(
            f"{name}: the {CVXPY_SOLVERS[solver]} solver failed on the semidefinite program "
            f"({exc}). Try solver={other!r}, or rescale X."
        ) from exc
    status = problem.status
    if status == "optimal_inaccurate":
        warnings.warn(
            f"{name}: {CVXPY_SOLVERS[solver]} stopped with status {status!r}; the solution is "
            "only approximately optimal. Raise the iteration limit (solver_options) or try "
            "another solver.",
            ConvergenceWarning,
            stacklevel=3,
        )
    elif status != "optimal":
        raise RuntimeError(f"{name}: the semidefinite program ended with status {status!r}.")
    return status


def two_groups(estimator, groups):
    """Boolean mask of the second group (z = 1) of a single two-group attribute."""
    if groups.codes.shape[1] != 1 or groups.n_groups[0] != 2:
        raise ValueError(
            f"{type(estimator).__name__} is defined for exactly two groups of one sensitive "
            f"attribute; got {groups.n_groups} groups. Binarise the attribute (e.g. privileged "
            "vs the rest)."
        )
    return groups.codes[:, 0] == 1


def orthogonal_complement(f):
    """Orthonormal basis (d × (d−1)) of f^⊥ from the Householder reflector mapping f to ‖f‖e₁."""
    d = f.shape[0]
    norm = np.linalg.norm(f)
    if norm == 0:
        return np.eye(d)
    v = f / norm
    sign = 1.0 if v[0] >= 0 else -1.0
    v[0] += sign  # v = f/‖f‖ + sign·e₁ (no cancellation)
    H = np.eye(d) - (2.0 / (v @ v)) * np.outer(v, v)  # H f ∝ e₁, H orthogonal and symmetric
    return H[:, 1:]


def top_eigenvectors(M, k):
    """Top-k eigenvalues (decreasing) and eigenvectors of the symmetric M (LAPACK, subset)."""
    d = M.shape[0]
    w, V = linalg.eigh(M, subset_by_index=[d - k, d - 1], check_finite=False)
    return w[::-1], V[:, ::-1]


def psd_factor(G):
    """Square R with RᵀR = G for a symmetric PSD G (eigenvalues clipped at 0)."""
    w, E = linalg.eigh(G, check_finite=False)
    return np.sqrt(np.maximum(w, 0.0))[:, None] * E.T


def population_cov(A):
    """Σ = Aᵀ(I − 11ᵀ/m)A / m, the group covariance of the reference code (divisor m)."""
    Ac = A - A.mean(axis=0)
    return Ac.T @ Ac / A.shape[0]
