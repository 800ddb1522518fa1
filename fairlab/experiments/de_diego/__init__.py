"""De-Diego et al. (2025) §4: Fair PLS on six real data sets (Tables 1–5, Figs. 5–7).

Every public name is importable from here; the modules behind them hold one purpose each:
``_data`` (the data sets, the choice of k, Experiment A's scores), ``_downstream``
(Experiment B's models and scores, one fold at a time), ``_units`` (the ledger's work units),
``_checks`` (our tables beside the printed ones, the normalisation and the spread) and
``_render`` (the side-by-side table and the figures).
"""

from ...pls import FairPLS as FairPLS
from ._checks import (
    DECIMALS,
    METRIC_LABELS,
    compare,
    coverage,
    normalisation_fit,
    reading_bound,
    spread_hypotheses,
)
from ._data import (
    DATASETS,
    DEFAULT_NORMALISATION,
    MODELS,
    NORMALISATION_OPTIONS,
    counting_early_stops,
    cv_k,
    load_data,
    load_datasets,
    normalisations,
    paper_k,
    representation_scores,
    split_scores,
    table1,
    table1_rows,
    table2,
)
from ._data import _cov2 as _cov2
from ._data import _folds as _folds
from ._downstream import (
    downstream_models,
    downstream_rows,
    downstream_scores,
    downstream_summary,
    fold_scores,
)
from ._render import (
    fig7,
    plot_representation,
    plot_tradeoff,
    side_by_side,
)
from ._units import (
    ETAS_A,
    ETAS_B,
    PAPER,
    PARAMETERS,
    UNIT_KEYS,
    parse_key,
    run_unit,
    scores_from_ledger,
    units,
)

__all__ = [
    "DATASETS",
    "DECIMALS",
    "DEFAULT_NORMALISATION",
    "ETAS_A",
    "ETAS_B",
    "METRIC_LABELS",
    "MODELS",
    "NORMALISATION_OPTIONS",
    "PAPER",
    "PARAMETERS",
    "UNIT_KEYS",
    "compare",
    "counting_early_stops",
    "coverage",
    "cv_k",
    "downstream_models",
    "downstream_rows",
    "downstream_scores",
    "downstream_summary",
    "fig7",
    "fold_scores",
    "load_data",
    "load_datasets",
    "normalisation_fit",
    "normalisations",
    "paper_k",
    "parse_key",
    "plot_representation",
    "plot_tradeoff",
    "reading_bound",
    "representation_scores",
    "run_unit",
    "scores_from_ledger",
    "side_by_side",
    "split_scores",
    "spread_hypotheses",
    "table1",
    "table1_rows",
    "table2",
    "units",
]
