"""The row every benchmark's ``goals(quick)`` returns, and the timer they share.

Its own module, below both ``goals.py`` (which collects the rows) and the ``bench_*.py`` scripts
(which time and return them), so that no benchmark imports the collector that imports it.
"""

import time
from dataclasses import dataclass

import numpy as np


@dataclass
class Goal:
    """One measured ratio: fairlab's time against the reference method's, and the goal."""

    measure: str
    case: str
    ours: float
    reference: float
    goal: float
    unit: str = "s"  # "s", or "MiB" for a memory goal

    @property
    def ratio(self):
        return self.ours / self.reference if self.reference > 0 else float("nan")


def best_time(func, *, repeats=3, budget=2.0):
    """Fastest wall time (s) of ``func()`` over at least ``repeats`` calls after one warm-up.

    More calls are made while the total stays under ``budget`` seconds (at most 4·repeats), so
    fast cases are timed many times and slow ones only ``repeats`` times.
    """
    func()
    best, calls, start = np.inf, 0, time.perf_counter()
    while calls < repeats or (time.perf_counter() - start < budget and calls < 4 * repeats):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
        calls += 1
    return best
