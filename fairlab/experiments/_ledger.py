"""Paper scale as data: an experiment is a grid of work units whose rows are kept in a ledger.

A **work unit** is one cell of an experiment's grid (e.g. data set × method × k × split).  It is a
pure function of its key and of the experiment's parameters: it loads its own data, fits, scores,
and returns tidy rows, one per (model, metric) and **per split** — never only a mean.  An
experiment module of :mod:`fairlab.experiments` declares

* ``PAPER`` — the paper's key in :mod:`fairlab.published`;
* ``UNIT_KEYS`` — the names of a unit's key fields, in order;
* ``PARAMETERS`` — the paper-scale parameters, passed to every unit;
* ``units(**selection)`` — the paper-scale grid as a list of key dicts (narrowed by ``selection``);
* ``run_unit(key, parameters)`` — the unit's rows, with the columns :data:`RESULT_COLUMNS`;
* optionally ``verification_parts(key)`` — parts of a unit (dicts) that :func:`verify` reruns
  when the whole unit is too slow; ``run_unit(key, parameters, part)`` returns the unit's rows of
  that part, equal to the whole unit's at the stored precision.

:func:`run` computes the units that the **ledger** does not hold yet — one tidy CSV per experiment,
``notebooks/results/<experiment>.csv.gz``, with :data:`LEDGER_COLUMNS`: the result columns plus
the unit's provenance (commit, date, machine with its BLAS kernel, parameters, seconds).  A unit
counts as done when the ledger holds it with the same parameters.  A unit that raises is recorded
as missing — one row with metric ``"missing"`` and the error in ``note`` — and is never filled in.
Each finished unit is written at once to a cache file, so an interrupted run resumes where it
stopped; the ledger is rewritten from the cache as units finish.  Units run on
``dask.distributed``: a ``LocalCluster`` of single-threaded worker processes, one per core (the
default), an existing cluster named by ``scheduler=`` or ``$FAIRLAB_SCHEDULER``
(``tcp://host:port``), or ``scheduler="serial"`` in this process.  Every unit runs with
single-threaded BLAS wherever it runs, so its rows do not depend on the cluster or the thread count
(nor on the BLAS kernel, except for the methods an experiment lists as ``KERNEL_DEPENDENT``).

Several processes may work on one results folder at once (a command started twice, a cluster
job restarted): every merge into a ledger runs under an inter-process lock (:func:`_lock`), every
file is written under a unique temporary name and moved into place atomically, and a merge claims
each cached unit by an atomic rename before it reads it, so no row is lost, duplicated or torn.
A ledger that cannot be read, or that holds a unit twice, raises :class:`LedgerError`, which names
the file and the repair.

Values are stored to :data:`SIGNIFICANT_DIGITS` significant digits; :func:`equal_to_ledger` and
:func:`verify` call a recomputed value equal when it rounds to the stored one.
"""

import importlib
import json
import math
import os
import tempfile
import time
import zlib
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
from filelock import FileLock, Timeout
from threadpoolctl import threadpool_limits

from ._provenance import git_commit, machine, utc_now

#: The result columns of a unit's rows (``fairlab.published``'s keys, plus where and which split).
RESULT_COLUMNS = ["paper", "table", "dataset", "method", "k", "eta", "model", "metric", "split",
                  "value"]
#: Per-unit provenance, the same on every row of a unit (``note``: why a unit is missing).
PROVENANCE_COLUMNS = ["unit", "commit", "date", "machine", "parameters", "seconds", "note"]
#: The ``metric`` of the one row that records a unit which could not finish (value NaN).
MISSING = "missing"
#: The columns of a ledger file.
LEDGER_COLUMNS = RESULT_COLUMNS + PROVENANCE_COLUMNS
#: Significant digits of a stored value: far below any printed digit, far above the rounding
#: differences between BLAS kernels (about 1e-13 relative in these experiments).
SIGNIFICANT_DIGITS = 8
#: The columns that tell a unit's rows apart.
ROW_KEYS = ["unit", "table", "dataset", "method", "k", "eta", "model", "metric", "split"]
#: The experiments that are grids of units, in the order of the book's chapters.
EXPERIMENTS = ("kleindessner", "kleindessner_tradeoffs", "perez_suay", "de_diego",
               "text_representations")
_NUMERIC = ("k", "eta", "split", "value", "seconds")
#: :func:`verify` reruns a sampled unit whole when the ledger says it took at most this long (s),
#: and otherwise the parts its experiment names (``verification_parts``).
MAX_UNIT_SECONDS = 60.0
#: Seconds a process waits for another one's merge into the same ledger before it gives up.
LOCK_TIMEOUT = 600.0
#: A merge of the cache into the ledger every this many finished units (the ledger follows a
#: long run on disk).
MERGE_EVERY = 20


class LedgerError(ValueError):
    """A ledger or cached unit that cannot be read, or a ledger that holds a unit twice.

    The message names the file and how to repair it.
    """


def _module(experiment):
    if experiment not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {list(EXPERIMENTS)}; got {experiment!r}.")
    module = importlib.import_module(f".{experiment}", __package__)
    if not hasattr(module, "run_unit"):
        raise ValueError(f"experiment {experiment!r} does not define work units yet.")
    return module


def results_dir(path=None):
    """The folder of the ledgers: ``path``, ``$FAIRLAB_RESULTS``, or the checkout's results.

    In a checkout of the repository the default is its ``notebooks/results`` folder (where the
    committed ledgers live); elsewhere ``./results``.
    """
    if path is not None:
        return Path(path)
    if os.environ.get("FAIRLAB_RESULTS"):
        return Path(os.environ["FAIRLAB_RESULTS"])
    checkout = Path(__file__).resolve().parents[2] / "notebooks" / "results"
    return checkout if checkout.parent.is_dir() else Path.cwd() / "results"


def ledger_path(experiment, path=None):
    """Where the ledger of ``experiment`` lives (:func:`results_dir`)."""
    return results_dir(path) / f"{experiment}.csv.gz"


def unit_id(experiment, key):
    """A readable, unique name of a unit: ``experiment/field=value/...`` in ``UNIT_KEYS`` order."""
    module = _module(experiment)
    missing = [name for name in module.UNIT_KEYS if name not in key]
    if missing:
        raise ValueError(f"unit key {key!r} lacks {missing}; {experiment} units have "
                         f"{list(module.UNIT_KEYS)}.")
    return "/".join([experiment, *(f"{name}={key[name]}" for name in module.UNIT_KEYS)])


def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _matches(value, wanted, printed):
    """Whether a grid value equals a ``--where`` text: numbers as numbers (``1`` is ``1.0``),
    text case-insensitively, as the key or as its printed name (``printed``)."""
    if _is_number(value):
        try:
            return float(wanted) == float(value)
        except ValueError:
            return False
    wanted = str(wanted).strip().casefold()
    return wanted in (str(value).casefold(), str(printed.get(value, value)).casefold())


def select_units(experiment, where=None):
    """The units of the paper-scale grid whose fields take the given values.

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    where : dict of str to sequence, optional
        Field of ``UNIT_KEYS`` -> accepted values (alternatives); every field must match.  A
        value may be given as text, as the command line does: numbers compare as numbers
        (``"1"`` selects η = 1.0), data sets and other names case-insensitively, as keys or as
        the experiment prints them (``"German"``, ``"german credit"``).

    Raises
    ------
    ValueError
        A field the units lack, a value no unit takes (with the values the field takes), or a
        combination that selects no unit.
    """
    module = _module(experiment)
    grid = module.units()
    where = {field: [values] if isinstance(values, (str, int, float)) else list(values)
             for field, values in (where or {}).items()}
    unknown = sorted(set(where) - set(module.UNIT_KEYS))
    if unknown:
        raise ValueError(f"{experiment} units have the fields {list(module.UNIT_KEYS)}; "
                         f"got {unknown}.")
    printed = getattr(module, "DATASETS", {})
    printed = printed if isinstance(printed, dict) else {}

    def takes(field):
        values = list(dict.fromkeys(key[field] for key in grid))
        return ", ".join(f"{v!r}" + (f" ({printed[v]})" if field == "dataset" and v in printed
                                     else "") for v in values)

    for field, values in where.items():
        names = printed if field == "dataset" else {}
        for wanted in values:
            if not any(_matches(key[field], wanted, names) for key in grid):
                raise ValueError(f"no {experiment} unit has {field}={wanted!r}; {field} takes "
                                 f"{takes(field)}.")
    chosen = [key for key in grid
              if all(any(_matches(key[field], wanted, printed if field == "dataset" else {})
                         for wanted in values) for field, values in where.items())]
    if not chosen:
        asked = "; ".join(f"{field} in {values}" for field, values in where.items())
        raise ValueError(f"no {experiment} unit has all of {asked}: each value exists, but not "
                         f"together. The fields take: "
                         + "; ".join(f"{f}: {takes(f)}" for f in where) + ".")
    return chosen


def parameters_json(parameters):
    """The canonical text of a parameter dict (sorted keys), as stored in the ledger."""
    return json.dumps(parameters, sort_keys=True, separators=(",", ":"), default=str)


def _round(value):
    if value is None or not np.isfinite(value) or value == 0:
        return value
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}")


# What pandas, gzip and zlib raise on a truncated, random, empty or mis-encoded file.
_UNREADABLE = (OSError, EOFError, zlib.error, UnicodeDecodeError, pd.errors.ParserError,
               pd.errors.EmptyDataError)


def _read(path, repair):
    """The rows of a ledger or cached unit, its numeric columns as numbers.

    ``repair`` is the sentence that tells the reader how to mend the file when it is unreadable.
    """
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except _UNREADABLE as err:
        raise LedgerError(f"{path} cannot be read ({type(err).__name__}: {err}). "
                          f"{repair}") from err
    if "note" not in frame.columns:  # ledgers written before notes were kept
        frame["note"] = ""
    absent = [c for c in LEDGER_COLUMNS if c not in frame.columns]
    if absent:
        raise LedgerError(f"{path} is not a results ledger: it lacks the column(s) {absent} "
                          f"(a ledger has {LEDGER_COLUMNS}). {repair}")
    for column in _NUMERIC:
        try:
            frame[column] = pd.to_numeric(frame[column].replace("", np.nan))
        except ValueError as err:
            raise LedgerError(f"{path}: the column {column!r} holds a value that is not a "
                              f"number ({err}). {repair}") from err
    return frame[LEDGER_COLUMNS]


def _damaged(file, experiment):
    return (f"Restore it (in a checkout of the repository: git checkout -- {file}), or remove "
            f"it and compute its units again: python -m fairlab.experiments run {experiment}.")


def _twice(frame):
    """The units of ``frame`` that hold some row (:data:`ROW_KEYS`) more than once."""
    return sorted(set(frame.loc[frame.duplicated(ROW_KEYS, keep=False), "unit"]))


def _check_once(frame, file, experiment):
    twice = _twice(frame)
    if twice:
        shown = ", ".join(twice[:3]) + (f" and {len(twice) - 3} more" if len(twice) > 3 else "")
        raise LedgerError(
            f"{file} holds {len(twice)} unit(s) twice: {shown}. Keep the latest computation "
            f"of each: python -m fairlab.experiments"
            f"{'' if file.parent == results_dir() else f' --results {file.parent}'}"
            f" repair {experiment}.")
    return frame


def read_ledger(experiment, path=None):
    """The ledger of ``experiment`` as a DataFrame (empty, with :data:`LEDGER_COLUMNS`, if none).

    Raises
    ------
    LedgerError
        The file cannot be read, is not a ledger, or holds a unit twice; the message names the
        file and the repair.
    """
    file = ledger_path(experiment, path)
    if not file.exists():
        return pd.DataFrame({c: pd.Series(dtype=float if c in _NUMERIC else object)
                             for c in LEDGER_COLUMNS})
    return _check_once(_read(file, _damaged(file, experiment)), file, experiment)


def repair(experiment, path=None):
    """Keep the latest computation of each unit that the ledger holds twice; the rows dropped.

    Of a unit's rows, those of its latest ``date`` are kept (a unit's rows share the date of
    their computation); rows equal in every key and date are kept once.  A ledger that cannot
    be read at all is not repaired here: :class:`LedgerError` says how to restore it.
    """
    file = ledger_path(experiment, path)
    with _lock(experiment, path):
        if not file.exists():
            return 0
        ledger = _read(file, _damaged(file, experiment))
        latest = ledger.groupby("unit")["date"].transform("max")
        kept = ledger[ledger["date"] == latest].drop_duplicates(ROW_KEYS, keep="last")
        if len(kept) < len(ledger):
            _write_atomic(kept.reset_index(drop=True), file)
        return len(ledger) - len(kept)


def _cache_dir(experiment, path):
    return results_dir(path) / ".cache" / experiment


def _cache_file(experiment, uid, path):
    safe = "".join(c if c.isalnum() or c in "-_=." else "_" for c in uid.split("/", 1)[1])
    return _cache_dir(experiment, path) / f"{safe}.csv"


@contextmanager
def _lock(experiment, path):
    """Hold the inter-process lock of one experiment's ledger in one results folder.

    Every merge and rewrite of the ledger holds it.  The operating system releases it when its
    holder dies, so a killed run never leaves the ledger locked.
    """
    folder = results_dir(path) / ".cache"
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(folder / f"{experiment}.lock")
    try:
        lock.acquire(timeout=LOCK_TIMEOUT)
    except Timeout as err:
        raise LedgerError(
            f"another process has held the lock {lock.lock_file} for over {LOCK_TIMEOUT:g} s "
            f"while it writes the same ledger; let it finish, or stop it, and run again.") from err
    try:
        yield
    finally:
        lock.release()


def _run_unit(experiment, key, parameters, uid, commit, part=None):
    """Run one unit (or its ``part``) with single-threaded BLAS and stamp its rows with their
    provenance."""
    module = _module(experiment)
    start = time.perf_counter()
    note = ""
    try:
        with threadpool_limits(limits=1):
            rows = module.run_unit(dict(key), dict(parameters),
                                   *(() if part is None else (dict(part),)))
    except Exception as err:  # recorded, never filled in: the unit is missing, with its reason
        note = f"{type(err).__name__}: {err}"[:500]
        rows = pd.DataFrame([{"paper": module.PAPER, "table": "", "eta": np.nan, "model": "",
                              "metric": MISSING, "value": np.nan,
                              **{c: key.get(c, np.nan if c in ("k", "split") else "")
                                 for c in ("dataset", "method", "k", "split")}}])
    seconds = time.perf_counter() - start
    missing = [c for c in RESULT_COLUMNS if c not in rows.columns]
    if missing:
        raise RuntimeError(f"{uid}: run_unit returned no {missing} column(s).")
    rows = rows[RESULT_COLUMNS].copy()
    rows["value"] = [_round(float(v)) for v in rows["value"]]
    rows["unit"] = uid
    rows["commit"] = commit
    rows["date"] = utc_now()
    rows["machine"] = machine()
    rows["parameters"] = parameters_json(parameters)
    rows["seconds"] = round(seconds, 3)
    rows["note"] = note
    return rows


def _write_atomic(frame, file):
    """Write ``frame`` to ``file`` through a temporary file of a unique name in the same folder,
    moved into place in one step: a reader sees the old file or the new one, never a part."""
    file.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".tmp")
    os.close(handle)
    # gzip without a timestamp, so an unchanged ledger is an unchanged file for git
    compression = {"method": "gzip", "mtime": 0} if file.name.endswith(".gz") else None
    try:
        frame.to_csv(tmp, index=False, compression=compression)
        os.replace(tmp, file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _claim(files):
    """Rename each cached unit to a name of this merge's own, in one atomic step per file.

    A unit written again after its claim (another process finishing the same unit) lands in a
    new file, which the next merge takes: nothing is removed that was not read.
    """
    tag = f".claimed-{os.getpid()}-{time.time_ns()}"
    claimed = []
    for file in files:
        target = file.with_name(file.name + tag)
        try:
            os.rename(file, target)
        except FileNotFoundError:  # a writer's atomic replace in between: the next merge
            continue
        claimed.append(target)
    return claimed


def _merge(experiment, path):
    """Fold the cached units into the ledger, under the ledger's lock (a cached unit replaces its
    ledger rows; of a unit cached more than once, the latest file wins)."""
    cache = _cache_dir(experiment, path)
    with _lock(experiment, path):
        # claims a merge that died left behind first (under the lock no other merge is running)
        orphans = sorted(cache.glob("*.csv.claimed-*"), key=lambda f: f.stat().st_mtime_ns)
        fresh = sorted(cache.glob("*.csv"), key=lambda f: f.stat().st_mtime_ns)
        files = orphans + _claim(fresh)
        ledger = read_ledger(experiment, path)
        if not files:
            return ledger
        frames = [_read(f, "Remove it: its unit is computed again by the next run.")
                  .assign(_order=i) for i, f in enumerate(files)]
        cached = pd.concat(frames, ignore_index=True)
        cached = cached[cached["_order"] == cached.groupby("unit")["_order"].transform("max")]
        cached = cached.drop(columns="_order")
        ledger = ledger[~ledger["unit"].isin(set(cached["unit"]))]
        merged = pd.concat([ledger, cached], ignore_index=True) if len(ledger) else cached
        merged = merged.sort_values(["unit", "table", "model", "metric"], kind="stable",
                                    ignore_index=True)
        _check_once(merged, ledger_path(experiment, path), experiment)
        _write_atomic(merged, ledger_path(experiment, path))
        for f in files:
            f.unlink(missing_ok=True)
        return merged


def _client(scheduler):
    """A dask.distributed client for ``scheduler`` (None: $FAIRLAB_SCHEDULER or a LocalCluster)."""
    from dask.distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        return scheduler, False
    address = scheduler or os.environ.get("FAIRLAB_SCHEDULER")
    if address:
        return Client(address), True
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    return Client(cluster), True


def _progress_bar(total, enabled):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="units", unit="unit")


def run(experiment, units=None, *, parameters=None, scheduler=None, redo=False, path=None,
        progress=None):
    """Compute the units of ``experiment`` that the ledger lacks, and return their ledger rows.

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    units : list of dict, optional
        Unit keys; default the paper-scale grid ``module.units()``.
    parameters : dict, optional
        Overrides of the paper-scale ``module.PARAMETERS``.  A unit done with other parameters
        is not done for these: it is computed, and its ledger rows replaced.
    scheduler : {None, "serial"} or str or distributed.Client, default=None
        Where units run: ``None`` means ``$FAIRLAB_SCHEDULER`` if set, else a ``LocalCluster``
        of one single-threaded worker process per core; ``"serial"`` runs them one after the
        other in this process; an address (``"tcp://host:port"``) or a ``Client`` uses that
        cluster.
    redo : bool, default=False
        Recompute the chosen units even when the ledger holds them.
    path : path, optional
        The results folder (:func:`results_dir`).
    progress : bool, optional
        A progress bar with units done/total and the time left; default on in a terminal.

    Returns
    -------
    DataFrame
        The ledger rows of the chosen units (:data:`LEDGER_COLUMNS`).
    """
    module = _module(experiment)
    params = {**module.PARAMETERS, **(parameters or {})}
    unknown = sorted(set(parameters or {}) - set(module.PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {experiment}; it takes "
                         f"{sorted(module.PARAMETERS)}.")
    keys = module.units() if units is None else [dict(u) for u in units]
    ids = [unit_id(experiment, key) for key in keys]
    if len(set(ids)) != len(ids):
        raise ValueError("units holds the same unit twice.")
    ledger = _merge(experiment, path)  # a run that was interrupted left its units in the cache
    text = parameters_json(params)
    done = set() if redo else set(ledger.loc[ledger["parameters"] == text, "unit"])
    todo = [(uid, key) for uid, key in zip(ids, keys, strict=True) if uid not in done]
    progress = os.isatty(2) if progress is None else progress
    if todo:
        _compute(experiment, todo, params, scheduler, path, progress)
        ledger = _merge(experiment, path)
    return ledger[ledger["unit"].isin(set(ids))].reset_index(drop=True)


def _compute(experiment, todo, params, scheduler, path, progress):
    commit = git_commit()
    bar = _progress_bar(len(todo), progress)
    written = 0

    def record(rows, uid):
        nonlocal written
        _write_atomic(rows, _cache_file(experiment, uid, path))
        written += 1
        if bar is not None:
            bar.update()
        if written % MERGE_EVERY == 0:  # the ledger on disk follows a long run
            _merge(experiment, path)

    try:
        if scheduler == "serial":
            for uid, key in todo:
                record(_run_unit(experiment, key, params, uid, commit), uid)
            return
        from dask.distributed import as_completed

        client, owned = _client(scheduler)
        try:
            futures = {_submit(client, (experiment, key, params, uid, commit)): uid
                       for uid, key in todo}
            for future in as_completed(futures):
                record(future.result(), futures[future])
        finally:
            if owned:
                _close(client)
    finally:
        if bar is not None:
            bar.close()


def _submit(client, call, priority=0):
    """One :func:`_run_unit` call on the cluster (a fresh task key: never a cached result)."""
    uid = call[3]
    return client.submit(_run_unit, *call, key=f"unit-{uid}-{time.time_ns()}", pure=False,
                         priority=priority)


def _close(client):
    """Close a client that :func:`_client` opened, and its LocalCluster."""
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def _run_units(experiment, jobs, scheduler, priorities=None):
    """The rows of each ``(key, parameters)`` or ``(key, parameters, part)`` job, in order, run
    where ``scheduler`` says; on a cluster, jobs of higher ``priorities`` start first."""
    commit = git_commit()
    calls = [(experiment, dict(key), dict(params), unit_id(experiment, key), commit, *part)
             for key, params, *part in jobs]
    if scheduler == "serial" or not calls:
        return [_run_unit(*call) for call in calls]
    client, owned = _client(scheduler)
    priorities = [0] * len(calls) if priorities is None else priorities
    try:
        return client.gather([_submit(client, call, priority)
                              for call, priority in zip(calls, priorities, strict=True)])
    finally:
        if owned:
            _close(client)


def _is_timing(rows):
    """Whether each row's metric is a wall-clock time of its experiment (``TIMINGS``)."""
    experiment = rows["unit"].str.split("/", n=1).str[0]
    return pd.Series([metric in getattr(_module(name), "TIMINGS", ())
                      for name, metric in zip(experiment, rows["metric"], strict=True)],
                     index=rows.index, dtype=bool)


def equal_to_ledger(rows, ledger):
    """Per unit, whether freshly computed ``rows`` equal the ledger's values.

    A value is equal when it rounds to the stored one at :data:`SIGNIFICANT_DIGITS` (NaN equals
    NaN).  Wall-clock times (the experiment's ``TIMINGS`` metrics) are not compared: they belong
    to the machine.  A unit the ledger does not hold is not equal, and says so in ``in_ledger``.

    Returns
    -------
    DataFrame
        ``unit, values, in_ledger, equal, max_relative_difference`` (NaN for a unit not in the
        ledger).
    """
    keys = ROW_KEYS
    held = set(ledger["unit"])
    rows = rows[~_is_timing(rows)]
    both = rows.merge(ledger[keys + ["value"]], on=keys, how="left",
                      suffixes=("", "_ledger"), validate="one_to_one")
    out = []
    for uid, group in both.groupby("unit", sort=False):
        if uid not in held:
            out.append({"unit": uid, "values": len(group), "in_ledger": False, "equal": False,
                        "max_relative_difference": np.nan})
            continue
        new = np.array([_round(v) for v in group["value"]], float)
        old = group["value_ledger"].to_numpy(float)
        same = (new == old) | (np.isnan(new) & np.isnan(old))
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.abs(new - old) / np.maximum(np.abs(old), np.finfo(float).tiny)
        rel = np.where(same, 0.0, np.where(np.isnan(rel), np.inf, rel))
        out.append({"unit": uid, "values": len(group), "in_ledger": True,
                    "equal": bool(same.all()), "max_relative_difference": float(rel.max())})
    return pd.DataFrame(out, columns=["unit", "values", "in_ledger", "equal",
                                      "max_relative_difference"])


def recompute(experiment, units, *, parameters=None, scheduler="serial"):
    """Run ``units`` without touching the ledger; their rows as a DataFrame.

    ``scheduler`` as in :func:`run`, except that the default runs them here, one after the other.
    """
    module = _module(experiment)
    params = {**module.PARAMETERS, **(parameters or {})}
    frames = _run_units(experiment, [(key, params) for key in units], scheduler)
    return pd.concat(frames, ignore_index=True)


def recompute_against_ledger(experiment, units, ledger, *, leave_out_models=()):
    """Recompute ``units`` here and compare them with their ledger rows (a chapter's live check).

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    units : list of dict or list of sequence
        Unit keys, as dicts or as values in the order of the module's ``UNIT_KEYS`` (the form
        a notebook parameter takes).
    ledger : DataFrame
        :func:`read_ledger`'s rows.
    leave_out_models : sequence of str, default=()
        Downstream models whose rows are not compared (e.g. a module's
        ``KERNEL_DEPENDENT_MODELS``).

    Returns
    -------
    DataFrame
        :func:`equal_to_ledger`'s verdict, ``unit`` without the ``"<experiment>/"`` prefix.
    """
    keys = _module(experiment).UNIT_KEYS
    units = [dict(u) if isinstance(u, dict) else dict(zip(keys, u, strict=True)) for u in units]
    rows = recompute(experiment, units)
    verdict = equal_to_ledger(rows[~rows["model"].isin(list(leave_out_models))], ledger)
    verdict["unit"] = verdict["unit"].str.removeprefix(f"{experiment}/")
    return verdict


def verification_sample(ledger, *, max_unit_seconds=MAX_UNIT_SECONDS):
    """A deterministic sample of a ledger's units: the quickest unit of each (dataset, method).

    Units that hold values other than wall-clock times come first (a unit of times only, such as
    a runtime figure's, has nothing to compare).  Where the chosen unit took longer than
    ``max_unit_seconds``, the parts of it that its experiment names (``verification_parts``) are
    rerun instead; an experiment that names none leaves the pair out (:func:`verify` says
    which).  Missing units are left out.

    Returns
    -------
    list of (str, dict or None)
        ``(unit id, part)`` sorted by unit id, ``part`` None for the whole unit.
    """
    ledger = ledger[ledger["metric"] != MISSING]
    valued = set(ledger.loc[~_is_timing(ledger), "unit"])
    per_unit = ledger.drop_duplicates("unit")[["unit", "dataset", "method", "seconds"]]
    per_unit = per_unit.assign(times_only=~per_unit["unit"].isin(valued))
    chosen = (per_unit.sort_values(["times_only", "seconds", "unit"], kind="stable")
              .drop_duplicates(["dataset", "method"]))
    fast = chosen["seconds"] <= max_unit_seconds
    sample = [(uid, None) for uid in set(chosen.loc[fast, "unit"])]
    for uid in set(chosen.loc[~fast, "unit"]):
        experiment = uid.split("/", 1)[0]
        parts = getattr(_module(experiment), "verification_parts", None)
        if parts is not None:
            sample += [(uid, part) for part in parts(_key_from_id(experiment, uid))]
    return sorted(sample, key=lambda job: job[0])


def _part_text(part):
    """A part as text, e.g. ``"sensitive=sex; variants=with S"``."""
    return "; ".join(f"{name}={','.join(map(str, np.atleast_1d(value)))}"
                     for name, value in part.items())


def _key_from_id(experiment, uid):
    module = _module(experiment)
    fields = dict(part.split("=", 1) for part in uid.split("/")[1:])
    return module.parse_key(fields)


def _blas_kernels(machine_text):
    return machine_text.partition("BLAS:")[2].strip()


def verify(experiment, *, path=None, max_unit_seconds=MAX_UNIT_SECONDS, scheduler="serial"):
    """Recompute :func:`verification_sample` of the ledger and compare each unit with it.

    The units run where ``scheduler`` says (as in :func:`run`; default here, one after the
    other); the verdict does not depend on it.

    Returns
    -------
    DataFrame
        ``unit, values, in_ledger, equal, max_relative_difference, note`` per recomputed unit
        (or part of a unit, named after the unit id in brackets), plus one row with
        ``equal = NaN`` for each (dataset, method) pair left out (too slow), whose ``unit``
        names the pair.  Recomputed under another BLAS kernel than the ledger's,
        a unit of a method the experiment lists in ``KERNEL_DEPENDENT`` is not judged
        (``equal = NaN``, with a note that gives the largest relative difference) when it
        differs, and the rows of the downstream models in
        ``KERNEL_DEPENDENT_MODELS`` are not compared (a unit that has no other rows:
        ``equal = NaN``, with a note).  A unit that cannot run here is not
        equal, unless its external data are absent (``FileNotFoundError``: ``equal = NaN``,
        with a note).
    """
    ledger = read_ledger(experiment, path)
    if ledger.empty:
        raise ValueError(f"the ledger of {experiment} is empty: nothing to verify.")
    sample = verification_sample(ledger, max_unit_seconds=max_unit_seconds)
    parameters = json.loads(ledger["parameters"].iloc[0])
    mixed = ledger["parameters"].nunique() > 1
    module = _module(experiment)
    here = _blas_kernels(machine())
    seconds = ledger.drop_duplicates("unit").set_index("unit")["seconds"]
    n_parts = Counter(uid for uid, _ in sample)
    jobs, expected = [], []
    for uid, part in sample:
        params = json.loads(ledger.loc[ledger["unit"] == uid, "parameters"].iloc[0]) \
            if mixed else parameters
        extra = {k: v for k, v in params.items() if k in module.PARAMETERS}
        jobs.append((_key_from_id(experiment, uid), {**module.PARAMETERS, **extra},
                     *(() if part is None else (part,))))
        expected.append(int(seconds[uid] / n_parts[uid]))  # the slowest start first
    results, covered = [], set()
    for (uid, part), rows in zip(sample, _run_units(experiment, jobs, scheduler, expected),
                                 strict=True):
        label = uid if part is None else f"{uid} [{_part_text(part)}]"
        held = ledger[ledger["unit"] == uid]
        if (rows["metric"] == MISSING).any():  # the unit could not run here
            covered |= set(held["dataset"] + " / " + held["method"])
            note = rows["note"].iloc[0]
            absent = note.startswith("FileNotFoundError")  # external data not on this machine
            results.append(pd.DataFrame([{
                "unit": label, "values": 0, "in_ledger": True,
                "equal": math.nan if absent else False, "max_relative_difference": math.nan,
                "note": ("its data are not on this machine: " if absent else "failed here: ")
                + note.splitlines()[0][:200]}]))
            continue
        stored = held.iloc[0]
        other_kernel = _blas_kernels(stored["machine"]) != here
        dependent = rows["model"].isin(getattr(module, "KERNEL_DEPENDENT_MODELS", ()))
        verdict = equal_to_ledger(rows[~dependent] if other_kernel else rows, ledger)
        if verdict.empty:  # only times, or only kernel-dependent models: reported, not dropped
            verdict = pd.DataFrame([{"unit": uid, "values": 0, "in_ledger": True,
                                     "equal": math.nan, "max_relative_difference": math.nan,
                                     "note": "wall-clock times only: nothing to compare"}])
        if other_kernel and dependent.any():
            verdict["note"] = ("another BLAS kernel than the ledger's: kernel-dependent models "
                               "not compared")
        if (stored["method"] in getattr(module, "KERNEL_DEPENDENT", ())
                and other_kernel and not verdict["equal"].all()):
            # a method whose result follows the BLAS kernel's rounding, checked on another kernel
            verdict["equal"] = math.nan
            verdict["note"] = ("another BLAS kernel than the ledger's; this method depends on it "
                               "(largest relative difference "
                               f"{verdict['max_relative_difference'].max():.1e})")
        verdict["unit"] = label
        results.append(verdict)
        covered |= set(rows["dataset"] + " / " + rows["method"])
    out = pd.concat(results, ignore_index=True) if results else equal_to_ledger(
        ledger.iloc[:0], ledger)
    pairs = set(ledger["dataset"] + " / " + ledger["method"])
    skipped = pd.DataFrame({"unit": sorted(pairs - covered), "values": 0, "in_ledger": True,
                            "equal": math.nan, "max_relative_difference": math.nan,
                            "note": f"every unit slower than {max_unit_seconds:g} s"})
    out = pd.concat([out, skipped], ignore_index=True) if len(skipped) else out
    out["note"] = out["note"].fillna("") if "note" in out.columns else ""
    return out


def describe_ledger(ledger, experiment=None):
    """The provenance of a ledger as printable lines: its size, commits, dates, unit time, machines,
    and, given ``experiment``, how many units of the paper-scale grid it holds and lacks.

    Missing units (:data:`MISSING`) are counted apart and listed with the first line of their error.
    """
    units = ledger.drop_duplicates("unit")
    if units.empty:
        return "the ledger is empty"
    first, last = units["date"].min()[:10], units["date"].max()[:10]
    lines = [f"ledger: {len(units)} units, {len(ledger)} rows; computed at "
             f"{units['commit'].nunique()} commit(s) on {first}"
             + ("" if first == last else f" to {last}")
             + f"; {units['seconds'].sum() / 3600:.2f} unit-hours in all"]
    lines += [f"  commit {commit[:12]}: {count} units"
              for commit, count in units["commit"].value_counts(sort=False).sort_index().items()]
    lines += ["machine(s):"] + [f"  {name}" for name in sorted(units["machine"].unique())]
    missing = units[units["metric"] == MISSING]
    lines.append(f"{len(missing)} unit(s) recorded as missing")
    lines += [f"  {row.unit}: {str(row.note).splitlines()[0][:160]}"
              for row in missing.itertuples()]
    if experiment is not None:
        grid = {unit_id(experiment, key) for key in _module(experiment).units()}
        absent = len(grid - set(units["unit"]))
        lines.append(f"paper-scale grid: {len(grid)} units, {len(grid) - absent} held, "
                     f"{absent} not computed yet")
    return "\n".join(lines)


def summarize_ledger(ledger, *, ddof=0):
    """Mean and std over splits of each printed cell of a ledger (the papers' ``np.std``: ddof 0).

    Missing units (:data:`MISSING`) are left out: a cell rests on the splits that finished.

    Returns
    -------
    DataFrame
        ``paper, table, dataset, method, k, eta, model, metric, mean, std, n_splits``, in the
        ledger's order, ready for :func:`fairlab.published.compare`.
    """
    keys = ["paper", "table", "dataset", "method", "k", "eta", "model", "metric"]
    ledger = ledger[ledger["metric"] != MISSING]
    grouped = ledger.groupby(keys, sort=False, dropna=False)["value"]
    out = grouped.agg(mean="mean", n_splits="size").reset_index()
    out.insert(len(keys) + 1, "std", grouped.std(ddof=ddof).to_numpy())
    out["n_splits"] = out["n_splits"].astype(int)
    return out
