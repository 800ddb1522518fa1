"""De-Diego et al. (2025) §4: Fair PLS on six real data sets (Tables 1–5, Figs. 5–7).

Every public name is importable from here; the modules behind them hold one purpose each:
``_encodings`` (the features of each data set beside Table 3), ``_readings`` (the readings
of Cov²), ``_data`` (the data sets, the choice of k, Experiment A's scores), ``_downstream``
(Experiment B's models and scores, one fold at a time), ``_units`` (the ledger's work units),
``_checks`` (our tables beside the printed ones, the normalisation and the spread),
``_render`` (the side-by-side table and the figures) and ``_bound`` (the extended reading
bound).
"""

from ...pls import FairPLS as FairPLS
from ._bound import (
    READING_COUNTS_FILE,
    encoding_and_k_variants,
    extended_bound,
    paper_reading_counts,
    read_reading_counts,
    reading_cells,
    reading_counts,
    write_reading_counts,
)
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
    MODELS,
    counting_early_stops,
    cv_k,
    load_data,
    load_datasets,
    paper_k,
    representation_scores,
    split_scores,
    table1,
    table1_rows,
    table2,
)
from ._data import _folds as _folds
from ._downstream import (
    downstream_models,
    downstream_rows,
    downstream_scores,
    downstream_summary,
    fold_scores,
)
from ._encodings import ENCODINGS, encode, feature_counts
from ._readings import (
    DEFAULT_NORMALISATION,
    NORMALISATION_OPTIONS,
    cov2_reading,
    cov2_readings,
    normalisations,
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
    KERNEL_DEPENDENT_UNITS,
    PAPER,
    PARAMETERS,
    UNIT_KEYS,
    experiment_b_table,
    parse_key,
    run_unit,
    scores_from_ledger,
    units,
)

__all__ = [
    "DATASETS",
    "DECIMALS",
    "DEFAULT_NORMALISATION",
    "ENCODINGS",
    "KERNEL_DEPENDENT_UNITS",
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
    "cov2_reading",
    "cov2_readings",
    "coverage",
    "cv_k",
    "downstream_models",
    "downstream_rows",
    "downstream_scores",
    "downstream_summary",
    "encode",
    "encoding_and_k_variants",
    "experiment_b_table",
    "extended_bound",
    "feature_counts",
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
    "reading_cells",
    "reading_counts",
    "read_reading_counts",
    "write_reading_counts",
    "paper_reading_counts",
    "READING_COUNTS_FILE",
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
