"""Benchmark: Fair Kernel Learning — μ paths from one factorisation, and fit costs.

Two tables, one run:

1. **μ path.**  A whole trade-off curve of 25 values of μ (the reference grid
   n²·logspace(−7, 3, 25)), fitted two ways:

   * ``path``   ``fit_path``: one factorisation for the grid (Woodbury on the rank-q penalty for
                FLR; a simultaneous diagonalisation of K̃ and K̃_S for FKR);
   * ``refit``  one ``fit`` per μ — what the reference MATLAB code does (a fresh solve per μ).

   The table gives both times, the speed-up refit/path and the largest difference between the
   two sets of test predictions relative to their scale (they must agree to rounding).
2. **Fit cost against scikit-learn.**  ``FairKernelRegression`` (μ > 0: one Cholesky
   factorisation and a Woodbury correction on the low-rank-to-rounding K̃_S) against
   ``KernelRidge`` (one Cholesky factorisation); ``KernelFairDR`` (k = 5: Lanczos on K̃G)
   against ``KernelPCA`` with its default solver (ARPACK for k < 10); and ``FairDR`` against
   ``PCA``.  Ratios > 1 mean fairlab is slower.  The kernel matrices are computed inside
   every timed fit, on both sides.

``goals(quick)`` returns the rows of ``benchmarks/goals.py``'s table: KernelFairDR.fit /
KernelPCA.fit at n = 2 000 (goal ≤ 2), FairKernelRegression.fit / KernelRidge.fit at
n = 5 000 (≤ 1.5) and FairKernelRegression.fit_path over 25 μ / one KernelRidge fit at
n = 5 000 (≤ 3); ``quick`` uses n = 1 000 and 1 500.

Timings are the fastest of ``repeats`` calls (the least noisy statistic on a shared machine).
Run ``python benchmarks/bench_hsic.py`` (a few minutes on 2 cores) or ``--quick``
for a < 60 s smoke run; ``--threads 1`` pins BLAS to one thread.
"""

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA, KernelPCA
from sklearn.kernel_ridge import KernelRidge
from threadpoolctl import threadpool_info, threadpool_limits

from fairlab import FairDR, FairKernelRegression, FairLinearRegression, KernelFairDR
from fairlab.evaluation import runtime_sweep
from fairlab.metrics import hsic, hsic_rbf_widths


def make_data(n, d=10, q=2, random_state=0):
    """Regression data whose first q features are correlated with a continuous S (n × q)."""
    rng = np.random.default_rng(random_state)
    S = rng.normal(size=(n, q))
    X = rng.normal(size=(n, d))
    X[:, :q] += S
    y = np.sin(X[:, 0]) + X[:, 1:] @ rng.normal(size=d - 1) / d + 0.1 * rng.normal(size=n)
    return {"X": X, "y": y, "S": S, "X_test": rng.normal(size=(200, d)),
            "mus": n**2 * np.logspace(-7, 3, 25)}


def _refit(make):
    def run(data):
        return [make().set_params(mu=mu).fit(data["X"], data["y"], sensitive_features=data["S"])
                for mu in data["mus"]]
    return run


def _path(make):
    def run(data):
        return make().fit_path(data["X"], data["y"], data["mus"], sensitive_features=data["S"])
    return run


def path_table(ns_linear, ns_kernel, d_linear, repeats):
    estimators = {
        "FLR": (lambda: FairLinearRegression(alpha=1.0), ns_linear, d_linear),
        "FKR": (lambda: FairKernelRegression(alpha=0.1, gamma=0.1), ns_kernel, 10),
    }
    rows = []
    for name, (make, ns, d) in estimators.items():
        res = runtime_sweep({"path": _path(make), "refit": _refit(make)},
                            lambda n, d=d: make_data(n, d=d), [{"n": n} for n in ns],
                            repeats=repeats, warmup=True)
        wide = res.pivot(index="n", columns="method", values="seconds_min")
        for n in ns:
            data = make_data(n, d=d)
            a = [m.predict(data["X_test"]) for m in _path(make)(data)]
            b = [m.predict(data["X_test"]) for m in _refit(make)(data)]
            scale = max(np.abs(v).max() for v in b)
            rows.append({"model": name, "n": n, "d": d, "path (s)": wide.loc[n, "path"],
                         "refit ×25 (s)": wide.loc[n, "refit"],
                         "refit / path": wide.loc[n, "refit"] / wide.loc[n, "path"],
                         "max rel. diff": max(np.abs(u - v).max() for u, v in zip(a, b)) / scale})
    return pd.DataFrame(rows)


def fit_table(ns, repeats):
    methods = {
        "FKR (mu>0)": lambda D: FairKernelRegression(alpha=0.1, mu=D["mus"][12], gamma=0.1).fit(
            D["X"], D["y"], sensitive_features=D["S"]),
        "KernelRidge": lambda D: KernelRidge(alpha=0.1, kernel="rbf", gamma=0.1).fit(
            D["X"], D["y"]),
        "KFDR (k=5)": lambda D: KernelFairDR(5, gamma=0.1, ridge=0).fit(
            D["X"], sensitive_features=D["S"]),
        "KernelPCA (k=5)": lambda D: KernelPCA(5, kernel="rbf", gamma=0.1).fit(D["X"]),
        "FDR (k=5)": lambda D: FairDR(5, ridge=0).fit(D["X"], sensitive_features=D["S"]),
        "PCA (k=5)": lambda D: PCA(5, svd_solver="full").fit(D["X"]),
    }
    res = runtime_sweep(methods, lambda n: make_data(n), [{"n": n} for n in ns],
                        repeats=repeats, warmup=True)
    wide = res.pivot(index="n", columns="method", values="seconds_min")
    out = pd.DataFrame({
        "FKR (s)": wide["FKR (mu>0)"], "KernelRidge (s)": wide["KernelRidge"],
        "FKR / KRR": wide["FKR (mu>0)"] / wide["KernelRidge"],
        "KFDR (s)": wide["KFDR (k=5)"], "KernelPCA (s)": wide["KernelPCA (k=5)"],
        "KFDR / KPCA": wide["KFDR (k=5)"] / wide["KernelPCA (k=5)"],
        "FDR / PCA": wide["FDR (k=5)"] / wide["PCA (k=5)"],
    })
    return out


def goals(quick=False):
    """Rows of ``benchmarks/goals.py``: each ratio measured in one run on the same data."""
    from timing import Goal, best_time

    n_dr, n_reg = (1000, 1500) if quick else (2000, 5000)
    budget = 1.0 if quick else 4.0
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        D = make_data(n_dr)
        ours = best_time(lambda: KernelFairDR(5, gamma=0.1).fit(D["X"], sensitive_features=D["S"]),
                         repeats=5, budget=budget)
        ref = best_time(lambda: KernelPCA(5, kernel="rbf", gamma=0.1).fit(D["X"]), repeats=5,
                        budget=budget)
        rows.append(Goal("KernelFairDR(5).fit / KernelPCA(5).fit", f"n={n_dr}, d=10, q=2",
                         ours, ref, 2.0))
        D = make_data(n_reg)
        mu = D["mus"][12]
        krr = best_time(lambda: KernelRidge(alpha=0.1, kernel="rbf", gamma=0.1).fit(
            D["X"], D["y"]), repeats=3, budget=budget)
        fkr = best_time(lambda: FairKernelRegression(alpha=0.1, mu=mu, gamma=0.1).fit(
            D["X"], D["y"], sensitive_features=D["S"]), repeats=3, budget=budget)
        path = best_time(lambda: FairKernelRegression(alpha=0.1, gamma=0.1).fit_path(
            D["X"], D["y"], D["mus"], sensitive_features=D["S"]), repeats=3, budget=budget)
        case = f"n={n_reg}, d=10, continuous S (q=2), rbf/rbf"
        rows.append(Goal("FairKernelRegression.fit / KernelRidge.fit", case, fkr, krr, 1.5))
        rows.append(Goal("FairKernelRegression.fit_path (25 μ) / KernelRidge.fit", case, path,
                         krr, 3.0))
        # Pérez-Suay et al.'s KPCA/KFDR width search: 15 widths, one distance matrix (a9a has
        # 123 features; the distances are the part shared across widths)
        D = make_data(n_dr, d=100)
        gammas = np.logspace(-5, 3, 15)
        widths = best_time(lambda: hsic_rbf_widths(D["X"], D["S"], gammas), repeats=3,
                           budget=budget)
        one_each = best_time(lambda: [hsic(D["X"], D["S"], kernel="rbf", gamma=g)
                                      for g in gammas], repeats=3, budget=budget)
        rows.append(Goal("hsic_rbf_widths (15 γ) / one hsic per γ", f"n={n_dr}, d=100, q=2",
                         widths, one_each, 0.5))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run, < 60 s")
    parser.add_argument("--threads", type=int, default=None,
                        help="limit BLAS threads (e.g. 1 on a shared machine); default: all")
    args = parser.parse_args(argv)
    if args.threads is not None:
        threadpool_limits(limits=args.threads)
    warnings.simplefilter("ignore")
    t0 = time.perf_counter()
    threads = sum(p.get("num_threads", 0) for p in threadpool_info() if p["user_api"] == "blas")
    print(f"numpy {np.__version__}; BLAS threads: {threads}")
    if args.quick:
        ns_lin, ns_ker, d_lin, ns_fit, repeats = [2000], [300], 50, [300], 1
    else:
        ns_lin, ns_ker, d_lin, repeats = [5000, 20000], [500, 1000], 200, 2
        ns_fit = [500, 1000, 2000]
    print("\n== 25-point μ path: fit_path vs one fit per μ (q = 2 continuous sensitive columns) ==")
    print(path_table(ns_lin, ns_ker, d_lin, repeats).round(
        {"path (s)": 4, "refit ×25 (s)": 4, "refit / path": 1}).to_string(index=False))
    print("\n== Fit cost against scikit-learn (d = 10, RBF γ = 0.1) ==")
    print(fit_table(ns_fit, repeats).round(3).to_string())
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
