"""Wall-clock sweeps: several methods timed over a grid of problem sizes, and their ratios.
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd

from .._core.validation import check_int
from ._util import _progress


def runtime_sweep(methods, make_data, grid, *, repeats=3, warmup=False, progress=False):
    """Time several methods over a grid of problem sizes.

    For every parameter dict ``params`` of ``grid`` the data are built once, **outside the timer**,
    with ``data = make_data(**params)``; then each ``methods[name](data)`` is timed ``repeats``
    times with :func:`time.perf_counter`.

    Parameters
    ----------
    methods : dict of str -> callable
        ``name -> f(data)`` doing exactly the work to time (e.g. ``lambda d: FairPCA(5).fit(d.X,
        sensitive_features=d.z)``).
    make_data : callable
        ``make_data(**params) -> data`` (any object passed on to the methods).
    grid : list of dict
        Parameter points, e.g. ``[{"d": 20}, {"d": 60}]``; each key becomes a column.
    repeats : int, default=3
        Timed calls per method and grid point.
    warmup : bool, default=False
        Make one untimed call first (caches, lazy imports, BLAS thread start-up).
    progress : bool, default=False
        Show a tqdm bar over the grid.

    Returns
    -------
    DataFrame
        One row per (grid point, method): the grid keys, ``method``, ``seconds`` (median over the
        repeats) and ``seconds_min`` (fastest repeat, the least noisy estimate on a busy machine).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.evaluation import runtime_sweep
    >>> table = runtime_sweep({"eigh": np.linalg.eigh, "svd": np.linalg.svd},
    ...                       lambda d: np.eye(d), [{"d": 10}, {"d": 20}], repeats=2)
    >>> table.columns.tolist()
    ['d', 'method', 'seconds', 'seconds_min']
    >>> table[["d", "method"]].values.tolist()
    [[10, 'eigh'], [10, 'svd'], [20, 'eigh'], [20, 'svd']]
    """
    if not isinstance(methods, dict) or not methods:
        raise ValueError("methods must be a non-empty dict name -> callable(data).")
    for name, fn in methods.items():
        if not callable(fn):
            raise TypeError(f"methods[{name!r}] must be callable(data); got {type(fn).__name__}.")
    if not callable(make_data):
        raise TypeError("make_data must be callable(**params) returning the data.")
    grid = list(grid)
    if not grid or not all(isinstance(p, dict) for p in grid):
        raise ValueError("grid must be a non-empty list of dicts of make_data keyword arguments.")
    repeats = check_int(repeats, "repeats")
    rows = []
    for params in _progress(grid, progress, total=len(grid), desc="runtime"):
        data = make_data(**params)
        for name, fn in methods.items():
            if warmup:
                fn(data)
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                fn(data)
                times.append(time.perf_counter() - start)
            rows.append({**params, "method": name, "seconds": float(np.median(times)),
                         "seconds_min": float(np.min(times))})
    return pd.DataFrame(rows)


def runtime_ratios(runtimes, reference="Fair PCA", *, by=("d", "k"), column="seconds"):
    """Each method's time divided by ``reference``'s at the same grid point.

    Returns ``runtimes`` with an added column ``ratio`` (NaN where the reference is absent).
    """
    by = [by] if isinstance(by, str) else [b for b in by if b in runtimes.columns]
    ref = runtimes[runtimes["method"] == reference].set_index(by)[column]
    if ref.empty:
        raise ValueError(f"reference method {reference!r} is not in runtimes.")
    key = pd.MultiIndex.from_frame(runtimes[by]) if len(by) > 1 else runtimes[by[0]]
    out = runtimes.copy()
    out["ratio"] = runtimes[column].to_numpy() / ref.reindex(key).to_numpy()
    return out



BENCHMARK_TABLE = Path("benchmarks") / "results" / "goals.csv"


def _benchmark_file(path=None):
    """``path``, or the table ``make bench`` writes, never derived from where fairlab is.

    Without ``path``: the nearest ``benchmarks/results/goals.csv`` on the way up from the current
    working directory (in a checkout or the class bundle, whether ``make`` runs at its root or a
    chapter in ``notebooks/``); where there is none, that path under the working directory, so
    that the caller's error names it.
    """
    if path is not None:
        return Path(path)
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / BENCHMARK_TABLE).is_file():
            return folder / BENCHMARK_TABLE
    return here / BENCHMARK_TABLE


def benchmark_ratios(measure=None, *, path=None):
    """The runtime ratios ``make bench`` measured last, as written to its results file.

    ``benchmarks/goals.py`` times fairlab against scikit-learn's default solvers on the same data
    in one run and writes one row per ratio to ``benchmarks/results/goals.csv`` (committed with the
    repository).  The chapters print their benchmark figures from here instead of typing them.

    Parameters
    ----------
    measure : str, default=None
        Keep the rows whose ``measure`` starts with this text, e.g. ``"FairPCA.fit / PCA"``;
        ``None`` keeps every row.
    path : path-like, default=None
        Another table with the same columns (default: the nearest
        ``benchmarks/results/goals.csv`` on the way up from the working directory).

    Returns
    -------
    DataFrame
        ``measure, case, ours, reference, unit, ratio, goal, status`` (``ours``/``reference`` in
        seconds, or MiB for a memory goal; ``ratio`` = ours / reference), in the order measured.
        ``attrs["provenance"]`` says when, where and with how many BLAS threads they were measured.
    """
    file = _benchmark_file(path)
    if not file.exists():
        raise FileNotFoundError(
            f"no benchmark table at {file}; run `make bench` (python benchmarks/goals.py) in a "
            "checkout of the repository to write it, or pass path=.")
    table = pd.read_csv(file)
    if measure is not None:
        table = table[table["measure"].str.startswith(measure)]
        if table.empty:
            raise ValueError(f"no benchmark row has a measure starting with {measure!r}; the "
                             f"table has {sorted(set(pd.read_csv(file)['measure']))}.")
    first = table.iloc[0]
    table = table.reset_index(drop=True)
    table.attrs["provenance"] = (
        f"make bench, {first['date'][:10]}, commit {str(first['commit'])[:10]}, "
        f"{first['machine'].split(', Python')[0]}, {first['threads']} BLAS thread(s)")
    return table[["measure", "case", "ours", "reference", "unit", "ratio", "goal", "status"]]
