"""Paper-scale units on a Dask LocalCluster: two single-threaded workers against one.

A reproduction is a grid of independent work units (:mod:`fairlab.experiments`), so its wall time
should fall with the number of workers.  Here the same units — Kleindessner et al.'s Table 1–3
units of Adult at k = 2, on Lee et al.'s splits (shipped), each fitting a representation and
scoring it with a kernel SVM, a linear SVM and an MLP, about a second each — are recomputed
(:func:`fairlab.experiments.recompute`, which leaves the ledger alone) on a ``LocalCluster`` of one
single-threaded worker process and on one of two, and their wall times compared.

Goal: two workers / one worker ≤ 0.6 (a perfect split is 0.5; the rest is the scheduler's
overhead and the units' unequal lengths).  Each cluster is started, and fairlab imported on every
worker, before the clock starts: start-up is paid once per reproduction, not per unit.  Needs
two cores; on one, the script says so and states no goal.

Run ``python benchmarks/bench_cluster.py`` for the table alone.
"""

import argparse
import importlib
import os
import sys
import time

import pandas as pd

from fairlab import experiments

METHODS = ("PCA", "Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)")


def grid(quick):
    """The units timed: Adult at k = 2, every split, two methods (quick) or four."""
    methods = METHODS[:2] if quick else METHODS
    return [{"dataset": "adult", "method": m, "k": 2, "split": s}
            for m in methods for s in range(10)]


def wall_seconds(units, n_workers):
    """Wall time (s) of recomputing ``units`` on a fresh LocalCluster of ``n_workers`` processes."""
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(importlib.import_module, "fairlab.experiments.kleindessner")  # warm every worker
        start = time.perf_counter()
        experiments.recompute("kleindessner", units, scheduler=client)
        return time.perf_counter() - start


def goals(quick=False):
    """Two workers' wall time against one worker's on the same units (none on one core)."""
    from timing import Goal

    if len(os.sched_getaffinity(0)) < 2:
        print("bench_cluster: one core only, no goal stated")
        return []
    units = grid(quick)
    one = wall_seconds(units, 1)
    two = wall_seconds(units, 2)
    return [Goal("LocalCluster wall time, 2 workers / 1 worker (1 thread each)",
                 f"{len(units)} Kleindessner units (Adult, k = 2)", two, one, 0.6)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two methods instead of four")
    args = parser.parse_args(argv)
    units = grid(args.quick)
    rows = {n: wall_seconds(units, n) for n in (1, 2)}
    table = pd.DataFrame({"wall (s)": rows}).rename_axis("workers")
    table["ratio to 1 worker"] = table["wall (s)"] / rows[1]
    print(f"{len(units)} units")
    print(table.round(3).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
