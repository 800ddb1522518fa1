"""Kleindessner et al. (2023) §5.2: trade-off curves against the reductions (Figs. 4, 8, 9).

Every public name is importable from here; the modules behind them hold one purpose each:
``_data`` (the splits, the trade-off curves and the runtimes), ``_units`` (the ledger's work
units, and the curves read back) and ``_checks`` (the curves' distance from the reductions
approach's, the printed runtimes).
"""

from ._checks import (
    curve_gap,
    gaps,
    reported_runtimes,
    verdicts,
)
from ._data import (
    CLASSIFIERS,
    DATASETS,
    EPS,
    FAIRNESS,
    LAMBDAS,
    METHODS,
    N_TRAIN,
    curve_scores,
    curves,
    load_splits,
    runtime_summary,
    runtimes,
)
from ._data import _canonical_basis as _canonical_basis
from ._data import _fair_curve as _fair_curve
from ._data import _load as _load
from ._data import _reductions_curve as _reductions_curve
from ._data import _StandardPCA as _StandardPCA
from ._units import (
    FIGURE,
    KERNEL_DEPENDENT_MODELS,
    N_RUNS,
    PAPER,
    PARAMETERS,
    TIMINGS,
    UNIT_KEYS,
    curve_seconds,
    curves_from_ledger,
    parse_key,
    run_unit,
    units,
)

__all__ = [
    "CLASSIFIERS",
    "DATASETS",
    "EPS",
    "FAIRNESS",
    "FIGURE",
    "KERNEL_DEPENDENT_MODELS",
    "LAMBDAS",
    "METHODS",
    "N_RUNS",
    "N_TRAIN",
    "PAPER",
    "PARAMETERS",
    "TIMINGS",
    "UNIT_KEYS",
    "curve_gap",
    "curve_scores",
    "curve_seconds",
    "curves",
    "curves_from_ledger",
    "gaps",
    "load_splits",
    "parse_key",
    "reported_runtimes",
    "run_unit",
    "runtime_summary",
    "runtimes",
    "units",
    "verdicts",
]
