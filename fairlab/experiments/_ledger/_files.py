"""The ledger's files: where they live, how they are read and checked, and how they are written
(atomically, under an inter-process lock).
"""

import json
import os
import tempfile
import zlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
from filelock import FileLock, Timeout

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
_NUMERIC = ("k", "eta", "split", "value", "seconds")
#: Seconds a process waits for another one's merge into the same ledger before it gives up.
LOCK_TIMEOUT = 600.0


class LedgerError(ValueError):
    """A ledger or cached unit that cannot be read, a ledger that holds a unit twice, or no
    folder of ledgers named (:func:`results_dir`).

    The message names the file and how to repair it, or how to name the folder.
    """


def results_dir(path=None):
    """The folder of the ledgers, a setting of the caller's, never derived from where fairlab is.

    The first of:

    1. ``path``, when given (every function of the ledger takes it; the command line's
       ``--results``);
    2. the environment variable ``FAIRLAB_RESULTS``, when set and not empty;
    3. the nearest folder ``notebooks/results`` on the way up from the current working directory,
       that folder included: in a checkout of the repository, the committed ledgers, whether
       ``make`` runs at its root or a chapter runs in ``notebooks/``.

    Raises
    ------
    LedgerError
        None of them names a folder; the message says how to name one.
    """
    if path is not None:
        return Path(path)
    if os.environ.get("FAIRLAB_RESULTS"):
        return Path(os.environ["FAIRLAB_RESULTS"])
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / "notebooks" / "results").is_dir():
            return folder / "notebooks" / "results"
    raise LedgerError(
        f"no results folder: none was passed (path=..., or --results on the command line), "
        f"FAIRLAB_RESULTS is not set, and no notebooks/results folder lies in {here} or above "
        f"it. Name the folder of the ledgers with FAIRLAB_RESULTS=<folder> or the path argument.")


def _default_results_dir():
    """:func:`results_dir` without a path, or None where there is none."""
    try:
        return results_dir()
    except LedgerError:
        return None


def ledger_path(experiment, path=None):
    """Where the ledger of ``experiment`` lives (:func:`results_dir`)."""
    return results_dir(path) / f"{experiment}.csv.gz"


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
            f"{'' if file.parent == _default_results_dir() else f' --results {file.parent}'}"
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
