"""Fit time of every baseline against Fair PCA, as ratios, in one run.

Two tables:

1. **Kleindessner et al. Fig. 3 setting**: Lee et al.'s synthetic data (168 rows per group),
   k = 5, d ∈ {20, 60, 100, 200, 400, 600, 800}.
2. **Lee et al.'s real splits** (split 0 of Adult, German credit, COMPAS; the data of
   Kleindessner et al. Tables 1–3), k ∈ {2, 10}.  Needs ``FAIRLAB_DATA`` (or the user cache)
   to hold ``fair-manifold-pca/``; skipped with a message otherwise.

Methods, at the settings of Kleindessner et al. §5.1: Fair PCA, SAL, LEACE (both followed by
rank-k PCA), INLP and RLACE (their defaults, then PCA), FPCA (δ, μ) = (0.1, 0.01) and
(0, 0.01) with SCS, MbF-PCA (τ = 10⁻³), and Samadi et al.'s fair PCA with SCS.

Each cell is the fastest of ``--repeats`` fits after an untimed one, but a fit slower than one
second is timed once.  A method whose fit took longer than ``--budget`` seconds (default 30)
is not run at the larger sizes of the same table (NaN): the SDPs cost O(d³) per solver
iteration and stop being practical around d = 100.  The real splits run in order of d
(COMPAS 11, German 57, Adult 97).  Ratios are ``method / Fair PCA``.  ``--quick`` runs d ≤ 100
and the German split only (about ten minutes, most of it FPCA).
"""

import argparse
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_info, threadpool_limits

from fairlab import FairPCA
from fairlab.baselines import FPCA, INLP, LEACE, RLACE, SAL, MbFPCA, SamadiFairPCA
from fairlab.datasets import load_lee2022_split, make_lee_gaussians


def methods(k):
    return {
        "Fair PCA": lambda: FairPCA(k),
        "SAL": lambda: SAL(k),
        "LEACE": lambda: LEACE(k),
        "INLP": lambda: INLP(k),
        "RLACE": lambda: RLACE(k, random_state=0),
        "FPCA (0.1, 0.01)": lambda: FPCA(k, delta=0.1, mu=0.01),
        "FPCA (0, 0.01)": lambda: FPCA(k, delta=0.0, mu=0.01),
        "MbF-PCA (1e-3)": lambda: MbFPCA(k, tau=1e-3, random_state=0),
        "Samadi": lambda: SamadiFairPCA(k),
    }


def fit_seconds(make, X, s, repeats):
    """Fastest of ``repeats`` fits after an untimed one; a fit slower than a second, once."""
    def one_fit():
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence/accuracy notes are not timings
            make().fit(X, sensitive_features=s)
        return time.perf_counter() - t0

    first = one_fit()  # also the warm-up: imports, caches, BLAS threads
    if first > 1.0:
        return first
    return min(one_fit() for _ in range(repeats))


def time_table(cases, k_of, repeats, budget):
    """Seconds per (case, method); a method over ``budget`` is dropped for the later cases."""
    over_budget, rows = set(), []
    for label, X, s in cases:
        row = {"case": label}
        for name, make in methods(k_of(label)).items():
            if name in over_budget:
                row[name] = np.nan
                continue
            row[name] = fit_seconds(make, X, s, repeats)
            if row[name] > budget:
                over_budget.add(name)
        rows.append(row)
        print(f"  {label}: done", flush=True)
    return pd.DataFrame(rows).set_index("case")


def with_ratios(seconds):
    out = seconds[["Fair PCA"]].rename(columns={"Fair PCA": "Fair PCA [ms]"}) * 1e3
    for name in seconds.columns.drop("Fair PCA"):
        out[f"{name} ×"] = seconds[name] / seconds["Fair PCA"]
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="d ≤ 100 and German only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=30.0,
                        help="seconds; a slower method is not run at larger sizes")
    parser.add_argument("--threads", type=int, default=None, help="limit BLAS threads")
    args = parser.parse_args(argv)
    if args.threads is not None:
        threadpool_limits(limits=args.threads)
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 20)
    blas = [p for p in threadpool_info() if p["user_api"] == "blas"]
    print(f"numpy {np.__version__}; BLAS threads per library: "
          f"{sorted({p.get('num_threads', 0) for p in blas})}")
    t0 = time.perf_counter()

    ds = [20, 60, 100] if args.quick else [20, 60, 100, 200, 400, 600, 800]
    synthetic = []
    for d in ds:
        X, _, z = make_lee_gaussians(n_per_group=168, n_features=d, random_state=0)
        synthetic.append((f"d={d}", X, z))
    print("\n== Lee et al.'s synthetic data (336 rows), k = 5: seconds / Fair PCA ==")
    table = with_ratios(time_table(synthetic, lambda _: 5, args.repeats, args.budget))
    print(table.round(1).to_string())

    real = []
    for dataset in ["german"] if args.quick else ["compas", "german", "adult"]:
        try:
            split = load_lee2022_split(dataset, 0)
        except (FileNotFoundError, OSError) as exc:
            print(f"\n(skipping Lee et al.'s {dataset} split: {exc})")
            continue
        for k in (2, 10):
            real.append((f"{dataset} k={k}", split.X_train, split.s_train))
    if real:
        print("\n== Lee et al.'s split 0 (train part): seconds / Fair PCA ==")
        seconds = time_table(real, lambda label: int(label.split("k=")[1]), args.repeats,
                             args.budget)
        print(with_ratios(seconds).round(1).to_string())
    print(f"\ntotal {time.perf_counter() - t0:.0f} s "
          f"(FAIRLAB_DATA={'set' if os.environ.get('FAIRLAB_DATA') else 'unset'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
