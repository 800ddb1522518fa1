"""Where Lanczos (ARPACK) beats the dense LAPACK solver: the crossover behind ``"auto"``.

Every estimator of fairlab that chooses a top-k symmetric eigensolver asks
:func:`fairlab._core.linalg.choose_eigen_solver`; this script measures the two candidates on the
matrices the estimators decompose, so that the rule rests on numbers:

* ``scatter``: XᵀX of Gaussian rows whose two groups differ in mean — FairPCA's primal
  matrix, a flat spectrum (the slowest case for Lanczos);
* ``rbf``: the centred RBF Gram matrix of 10-dimensional Gaussian rows with γ = 1/(d·Var X) —
  the kernel estimators' matrix, a fast-decaying spectrum;
* ``rbf-97``: the same on 97 features (Adult's width), a slower decay.

For each size p and number k of eigenpairs it prints the fastest of ``repeats`` calls of the
dense solver (``syevr`` on k indices, or ``syevd`` when k ≥ p/5) and of ARPACK on ``symv``
products, their ratio, and what ``choose_eigen_solver`` picks.  Run
``python benchmarks/bench_eigensolvers.py`` (about a minute with ``--threads 1``).
"""

import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

from fairlab._core.kernels import kernel_matrix
from fairlab._core.linalg import (
    _lanczos_top_eigh,
    center_gram,
    choose_eigen_solver,
    dense_top_eigh,
    gram,
)


def scatter(p, seed=0):
    rng = np.random.default_rng(seed)
    n = 2 * p
    z = rng.random(n) < 0.4
    X = rng.standard_normal((n, p)) + np.outer(z, rng.normal(size=p))
    X -= X.mean(axis=0)
    return gram(X)


def rbf(p, d=10, seed=0):
    X = np.random.default_rng(seed).standard_normal((p, d))
    return center_gram(kernel_matrix(X, kernel="rbf", gamma=1.0 / (d * X.var())))


MATRICES = {"scatter": scatter, "rbf": rbf, "rbf-97": lambda p: rbf(p, d=97)}


def best(func, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 500, 700, 1000, 2000])
    parser.add_argument("--ks", type=int, nargs="+", default=[2, 5, 10, 20, 50, 100])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    with threadpool_limits(args.threads):
        print(f"{'matrix':>8} {'p':>5} {'k':>4} {'dense s':>9} {'arpack s':>9} "
              f"{'arpack/dense':>12} {'auto':>7}")
        for name, make in MATRICES.items():
            kind = "flat" if name == "scatter" else "decaying"
            for p in args.sizes:
                M = make(p)
                for k in args.ks:
                    if k >= p // 2:
                        continue
                    dense = best(lambda M=M, k=k: dense_top_eigh(M, k), args.repeats)
                    arpack = best(lambda M=M, k=k: _lanczos_top_eigh(M, k, 0), args.repeats)
                    print(f"{name:>8} {p:>5} {k:>4} {dense:9.4f} {arpack:9.4f} "
                          f"{arpack / dense:12.2f} {choose_eigen_solver(p, k, spectrum=kind):>7}",
                          flush=True)


if __name__ == "__main__":
    main()
