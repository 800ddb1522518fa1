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
``<experiment>.csv.gz`` in the results folder (:func:`results_dir`), with :data:`LEDGER_COLUMNS`:
the result columns plus the unit's provenance (commit, date, machine with its BLAS kernel,
parameters, seconds).  A unit
counts as done when the ledger holds it with the same parameters.  A unit that raises is recorded
as missing — one row with metric ``"missing"`` and the error in ``note`` — and is never filled in.
Each finished unit is written at once to a cache file, so an interrupted run resumes where it
stopped; the ledger is rewritten from the cache as units finish.  Units run on
``dask.distributed``: a ``LocalCluster`` of single-threaded worker processes, one per core (the
default), an existing cluster named by ``scheduler=`` or ``$FAIRLAB_SCHEDULER``
(``tcp://host:port``), or ``scheduler="serial"`` in this process.  Every unit runs with
single-threaded BLAS wherever it runs, so its rows do not depend on the cluster or the thread count
(nor on the BLAS kernel, except for the methods an experiment lists as ``KERNEL_DEPENDENT`` and
the units it lists as ``KERNEL_DEPENDENT_UNITS``).

Several processes may work on one results folder at once (a command started twice, a cluster
job restarted): every merge into a ledger runs under an inter-process lock (:func:`_lock`), every
file is written under a unique temporary name and moved into place atomically, and a merge claims
each cached unit by an atomic rename before it reads it, so no row is lost, duplicated or torn.
A ledger that cannot be read, or that holds a unit twice, raises :class:`LedgerError`, which names
the file and the repair.

Values are stored to :data:`SIGNIFICANT_DIGITS` significant digits; :func:`equal_to_ledger` and
:func:`verify` call a recomputed value equal when it rounds to the stored one.

The package's modules, one purpose each: ``_files`` (where the ledgers live, reading, checking
and atomic writing under the lock), ``_grid`` (the experiments, unit ids and selections),
``_running`` (running units and merging them into the ledger) and ``_verify`` (recomputed units
against the ledger, the verification sample, the ledger's provenance and summary).
"""

from ._files import (
    LEDGER_COLUMNS,
    MISSING,
    PROVENANCE_COLUMNS,
    RESULT_COLUMNS,
    ROW_KEYS,
    SIGNIFICANT_DIGITS,
    LedgerError,
    ledger_path,
    parameters_json,
    read_ledger,
    repair,
    results_dir,
)
from ._files import _cache_file as _cache_file
from ._files import _lock as _lock
from ._files import _round as _round
from ._files import _write_atomic as _write_atomic
from ._grid import (
    EXPERIMENTS,
    select_units,
    unit_id,
)
from ._grid import _module as _module
from ._running import _claim as _claim
from ._running import _client as _client
from ._running import _close as _close
from ._running import _merge as _merge
from ._running import (
    recompute,
    run,
)
from ._verify import (
    MAX_UNIT_SECONDS,
    describe_ledger,
    equal_to_ledger,
    recompute_against_ledger,
    summarize_ledger,
    verification_sample,
    verify,
)

__all__ = [
    "EXPERIMENTS",
    "LEDGER_COLUMNS",
    "LedgerError",
    "MAX_UNIT_SECONDS",
    "MISSING",
    "PROVENANCE_COLUMNS",
    "RESULT_COLUMNS",
    "ROW_KEYS",
    "SIGNIFICANT_DIGITS",
    "describe_ledger",
    "equal_to_ledger",
    "ledger_path",
    "parameters_json",
    "read_ledger",
    "recompute",
    "recompute_against_ledger",
    "repair",
    "results_dir",
    "run",
    "select_units",
    "summarize_ledger",
    "unit_id",
    "verification_sample",
    "verify",
]
