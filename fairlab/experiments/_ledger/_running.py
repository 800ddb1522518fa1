"""Running work units (here or on a Dask cluster) and merging their rows into the ledger, under the
ledger's lock.
"""

import os
import time

import numpy as np
import pandas as pd

from ..._core.threads import limit_threads
from .._provenance import git_commit, machine, utc_now
from ._files import (
    MISSING,
    RESULT_COLUMNS,
    _cache_dir,
    _cache_file,
    _check_once,
    _lock,
    _read,
    _round,
    _write_atomic,
    ledger_path,
    parameters_json,
    read_ledger,
)
from ._grid import _module, unit_id

#: A merge of the cache into the ledger every this many finished units (the ledger follows a
#: long run on disk).
MERGE_EVERY = 20


def _run_unit(experiment, key, parameters, uid, commit, part=None, module=None):
    """Run one unit (or its ``part``) with single-threaded BLAS and stamp its rows with their
    provenance.

    ``module`` runs the unit instead of the experiment's module: any object with ``PAPER`` and
    ``run_unit`` (a ledger of units that no experiment module declares, such as a scorecard's).
    """
    module = _module(experiment) if module is None else module
    start = time.perf_counter()
    note = ""
    try:
        with limit_threads():
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


def _compute(experiment, todo, params, scheduler, path, progress, module=None):
    """Run the ``(uid, key)`` pairs of ``todo`` where ``scheduler`` says, each written to the
    cache as it finishes and merged into the ledger every :data:`MERGE_EVERY` units
    (``module``: as for :func:`_run_unit`)."""
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
                record(_run_unit(experiment, key, params, uid, commit, module=module), uid)
            return
        from dask.distributed import as_completed

        client, owned = _client(scheduler)
        try:
            futures = {_submit(client, (experiment, key, params, uid, commit, None, module)): uid
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


def recompute(experiment, units, *, parameters=None, scheduler="serial"):
    """Run ``units`` without touching the ledger; their rows as a DataFrame.

    ``scheduler`` as in :func:`run`, except that the default runs them here, one after the other.
    """
    module = _module(experiment)
    params = {**module.PARAMETERS, **(parameters or {})}
    frames = _run_units(experiment, [(key, params) for key in units], scheduler)
    return pd.concat(frames, ignore_index=True)
