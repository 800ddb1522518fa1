"""Pérez-Suay et al. (2017) §4: Fair Kernel Learning on real data (Figs. 4–6).

Every public name is importable from here; the modules behind them hold one purpose each:
``_data`` (the splits, the fair regressions and reductions with their tuning), ``_units`` (the
ledger's work units), ``_checks`` (the statements on the figures) and ``_render`` (the figures
and the verdict in words).
"""

from ._checks import (
    BAND,
    SENTENCES,
    THRESHOLDED,
    WORDS,
    band_counts,
    checks,
    matched_dependence,
    paired_interval,
)
from ._checks import _fmt as _fmt
from ._data import (
    DR_METHODS,
    GRIDS,
    REGRESSION_METHODS,
    SENSITIVE,
    SENSITIVE_LABELS,
    SIZES,
    VARIANTS,
    dimensionality_reduction,
    load_splits,
    reduction_scores,
    regression,
    summarize_results,
)
from ._data import _hsic_rbf as _hsic_rbf
from ._data import _inputs as _inputs
from ._data import _kernel_dr as _kernel_dr
from ._data import _knn_row as _knn_row
from ._data import _linear_hsic as _linear_hsic
from ._render import (
    FAILURE_READINGS,
    FIGURE_ITEMS,
    band_table,
    checks_report,
    plot,
    verdict,
)
from ._units import (
    FIGURES,
    N_REPETITIONS,
    PAPER,
    PARAMETERS,
    TIMINGS,
    UNIT_KEYS,
    parse_key,
    results_from_ledger,
    run_unit,
    units,
    verification_parts,
)

__all__ = [
    "BAND",
    "DR_METHODS",
    "FAILURE_READINGS",
    "FIGURES",
    "FIGURE_ITEMS",
    "GRIDS",
    "N_REPETITIONS",
    "PAPER",
    "PARAMETERS",
    "REGRESSION_METHODS",
    "SENSITIVE",
    "SENSITIVE_LABELS",
    "SENTENCES",
    "SIZES",
    "THRESHOLDED",
    "TIMINGS",
    "UNIT_KEYS",
    "VARIANTS",
    "WORDS",
    "band_counts",
    "band_table",
    "checks",
    "checks_report",
    "dimensionality_reduction",
    "load_splits",
    "matched_dependence",
    "paired_interval",
    "parse_key",
    "plot",
    "reduction_scores",
    "regression",
    "results_from_ledger",
    "run_unit",
    "summarize_results",
    "units",
    "verdict",
    "verification_parts",
]
