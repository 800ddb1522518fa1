"""The one thread rule: numerical work whose result is recorded runs its BLAS, LAPACK and OpenMP
calls on one thread.

How a BLAS splits a product between threads changes the last bits of the result, and iterative
solvers amplify those bits; small calls are also slower on two threads than on one (the waking
costs more than the work, the reason scikit-learn's KMeans limits its threads).  So the iterative
baselines, the leakage audit's adversaries and every work unit of an experiment run inside
:func:`limit_threads`, and their results do not depend on how many threads the caller's BLAS uses.
The benchmarks (``benchmarks/bench_baselines.py``) measure what the rule costs and saves.
"""

# SPDX-License-Identifier: BSD-3-Clause

import contextlib

from threadpoolctl import threadpool_limits

from .validation import check_int


def limit_threads(threads=1):
    """A context in which the BLAS, LAPACK and OpenMP pools use at most ``threads`` threads.

    Parameters
    ----------
    threads : int >= 1 or None, default=1
        The limit; ``None`` leaves the pools as they are (a context that does nothing).

    Returns
    -------
    context manager
        On exit the caller's limits are restored.
    """
    if threads is None:
        return contextlib.nullcontext()
    return threadpool_limits(limits=check_int(threads, "threads", minimum=1))
