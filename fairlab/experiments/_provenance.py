"""Provenance of a result: the commit, the date and the machine that computed it."""

import datetime
import functools
import os
import platform
import subprocess
from pathlib import Path

from threadpoolctl import threadpool_info

from .. import __version__


@functools.cache
def git_commit():
    """``git rev-parse HEAD`` of the checkout fairlab runs from (``+dirty``: uncommitted changes).

    ``"unknown"`` outside a git checkout (an installed wheel): the version is then the provenance.
    Cached: a long run keeps the commit it started with.
    """
    def git(*args):
        try:
            return subprocess.run(["git", *args], capture_output=True, text=True, timeout=10,
                                  cwd=Path(__file__).resolve().parent, check=True).stdout
        except (OSError, subprocess.SubprocessError):
            return None

    head = git("rev-parse", "HEAD")
    if head is None:
        return f"unknown (fairlab {__version__})"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "fairlab")
    return head.strip() + ("+dirty" if dirty else "")


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@functools.cache
def machine():
    """The CPU model, its core count, and the BLAS libraries (with their OpenBLAS kernel).

    The kernel is part of a result's provenance: two kernels round sums differently, so a number
    that changed between two ledger rows can be traced to the machine or to the code.
    """
    blas = sorted({f"{lib['internal_api']} {lib.get('version') or ''} "
                   f"{lib.get('architecture') or ''}".strip()
                   for lib in threadpool_info() if lib["user_api"] == "blas"})
    return (f"{_cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
            f"Python {platform.python_version()}, BLAS: {'; '.join(blas) or 'unknown'}")


def utc_now():
    """The current UTC time, ISO 8601, to the second."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def write_results_csv(frame, path, *, chapter=None):
    """Write tidy results as CSV with provenance columns: commit, date and machine.

    Adds ``chapter`` (when given), ``commit`` (:func:`git_commit`), ``date`` (UTC, ISO 8601),
    ``machine`` (:func:`machine`) and ``fairlab`` (version), then writes ``path`` (folders
    created).

    Returns
    -------
    pathlib.Path
    """
    out = frame.copy()
    out.attrs = {}
    if chapter is not None:
        out.insert(0, "chapter", chapter)
    out["commit"] = git_commit()
    out["date"] = utc_now()
    out["machine"] = machine()
    out["fairlab"] = __version__
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, index=False)
    return path
