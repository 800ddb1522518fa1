"""Evaluation protocols: splits, representation scorecards, trade-off sweeps and runtime sweeps.

The protocol core behind every table and figure of the book; the papers' experiments, which call
it, live in :mod:`fairlab.experiments`.

* :func:`runtime_sweep` / :func:`runtime_ratios` — wall-clock medians of several methods over a
  grid of problem sizes, and each method's time relative to a reference;
  :func:`benchmark_ratios` — the ratios ``make bench`` last measured, from its results file;
* :func:`repeated_splits` — seeded random train/test splits, optionally standardised with the
  training statistics, as :class:`~sklearn.utils.Bunch` objects with the keys of
  :func:`fairlab.datasets.load_lee2022_split`;
* :func:`scorecard` / :func:`evaluate_splits` — the representation scorecard of Lee et al. (2022)
  and Kleindessner et al. §5.1 (%Var, MMD², linear inseparability, accuracy and Δ_DP of a kernel
  SVM, a linear SVM and an MLP), under Lee's **train-on-test** protocol or a proper train/test
  protocol; :class:`FixedProjection` scores a loading matrix computed elsewhere the same way;
  :func:`audit_representations` — the leakage audit (:func:`fairlab.metrics.leakage`) of each
  method's test representation;
* :func:`summarize` / :func:`format_mean_std` / :func:`format_table` — mean ± std tables printed
  like the papers' (``7.78 ± 0.77``); :func:`format_audit` — a leakage audit as a table of
  scores, intervals and detections;
* :func:`sweep` with the score functions :func:`classifier_score`, :func:`predictor_score` and
  :func:`dependence_score` — trade-off curves over λ (``FairTradeoff``), η (``FairPLS``) or μ
  (``FairLinearRegression``/``FairKernelRegression``).  Estimators are passed in (an instance or a
  factory), so this package imports none of them.

Everything returns tidy :class:`pandas.DataFrame` objects: one row per observation (a split × a
method × a parameter value), one column per variable.  Progress bars (tqdm) are off by default so
that notebook outputs stay reproducible.
"""

from .runtime import benchmark_ratios, runtime_ratios, runtime_sweep
from .scorecards import (
    FixedProjection,
    audit_representations,
    downstream_scores,
    evaluate_splits,
    lee_classifiers,
    scorecard,
)
from .splits import repeated_splits
from .summaries import format_audit, format_mean_std, format_table, summarize
from .sweeps import classifier_score, dependence_score, predictor_score, sweep

__all__ = [
    "FixedProjection",
    "audit_representations",
    "benchmark_ratios",
    "classifier_score",
    "dependence_score",
    "downstream_scores",
    "evaluate_splits",
    "format_audit",
    "format_mean_std",
    "format_table",
    "lee_classifiers",
    "predictor_score",
    "repeated_splits",
    "runtime_ratios",
    "runtime_sweep",
    "scorecard",
    "summarize",
    "sweep",
]
