"""The scorecard's protocol of De-Diego et al. (2025) §4, Experiment B (Tables 4-5)."""

import functools

import numpy as np
import pandas as pd

from .. import de_diego
from ._de_diego_a import ledger_ks
from ._protocol import _Protocol

#: De-Diego et al. (2025) §4, Experiment B (Tables 4-5): the six data sets, each in the ledger's
#: seeded 7-fold cross-validation, one unit per fold; the representation fitted on the other
#: six folds (S not in X; X standardised with their mean and standard deviation, as Fair PLS
#: does), the logistic (linear) regression, the decision tree and XGBoost trained on its
#: training representation and scored on the fold: the disparate impact (DI), the accuracy,
#: Cov²(r(X), Ŷ) and Cov²(r(X), S) (raw scores and targets, summed over the components) of
#: Table 4, the KS distance and the MSE in place of DI and accuracy for the regression data set
#: of Table 5 — at every k of Table 3 of the η that Tables 4-5 print (the ledger's k), against
#: Fair PLS at each of those η of the same k.
DE_DIEGO_B = "de_diego_b"
#: η of Tables 4-5.
_ETAS = (0.0, 1.0, 2.0)
#: The metrics of Tables 4-5 in the scorecard, in the printed order (Table 5's KS and MSE take
#: the place of DI and accuracy).
_METRICS = ("disparate_impact", "accuracy", "ks", "mse", "cov2_yhat", "cov2_s")


def _fair_pls(eta):
    return f"Fair PLS (η = {eta:g})"


def _printed(scores):
    """The rows of :func:`~fairlab.experiments.de_diego.downstream_scores`' columns that Tables
    4-5 print: their metrics on the folds, Cov² under the experiment's reading."""
    scores = de_diego.downstream_rows(scores)
    return scores[scores["metric"].isin(_METRICS)
                  & (scores["features"] == de_diego.DEFAULT_NORMALISATION["features"])]


def run_unit(factory, key, parameters):
    """One fold of Experiment B for the method: the experiment's ``fold_scores`` with the method
    where the experiment passes Fair PLS, the rows Tables 4-5 read (``downstream_rows``)."""
    d = de_diego.load_data(key["dataset"])
    with de_diego.counting_early_stops():  # Fair PLS near k = d, as in the experiment
        scores, fold = de_diego.fold_scores(
            d, factory(key["k"]), fold=key["split"], n_folds=parameters["n_folds"],
            models=parameters["models"], features=de_diego.DEFAULT_NORMALISATION["features"],
            random_state=parameters["random_state"], standardize=True)
    scores = _printed(pd.DataFrame(scores))
    rows = pd.DataFrame({
        "paper": de_diego.PAPER, "table": de_diego.experiment_b_table(key["dataset"]),
        "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan,
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy(float)})
    return rows, fold.T_test, fold.s_test


def published_rows(ledger):
    """Tables 4-5's reading of the ledger's Experiment B rows, one method per η they print."""
    scores = _printed(de_diego.scores_from_ledger(ledger, "table4+5"))
    scores = scores[scores["eta"].isin(_ETAS)]
    return pd.DataFrame({
        "paper": de_diego.PAPER, "table": scores["dataset"].map(de_diego.experiment_b_table),
        "dataset": scores["dataset"], "method": [_fair_pls(eta) for eta in scores["eta"]],
        "k": scores["k"], "eta": scores["eta"], "model": scores["model"],
        "metric": scores["metric"], "split": scores["fold"], "value": scores["value"]})


@functools.cache
def ks_by_dataset():
    """Data set -> the k of Experiment B's units in the committed ledger at the η of Tables 4-5
    (Table 3's, clipped to the features of our encodings)."""
    return ledger_ks(["table4", "table5"], _ETAS)


PROTOCOL = _Protocol(
    name=DE_DIEGO_B, experiment="de_diego", datasets=de_diego.DATASETS,
    splits=tuple(range(de_diego.PARAMETERS["n_folds"])), ks=lambda d: ks_by_dataset()[d],
    parameters={c: de_diego.PARAMETERS[c] for c in ("n_folds", "models", "random_state")},
    run=run_unit, published=published_rows,
    title="De-Diego et al. (2025), Experiment B (Tables 4-5)",
    columns=tuple((m, model) for model in de_diego.MODELS for m in _METRICS),
    labels={m: de_diego.METRIC_LABELS[m] for m in _METRICS},
    decimals=dict.fromkeys(_METRICS, de_diego.DECIMALS),
    missing="no value: DI and accuracy are the classification data sets' (Table 4), KS and MSE "
            "the regression data set's (Table 5); a DI whose privileged group has no positive "
            "prediction is undefined (a method without a value is not ranked)",
    better="DI closest to 1 (from either side), higher accuracy and Cov²(r(X), Ŷ), lower "
           "Cov²(r(X), S), KS and MSE",
    methods=tuple(_fair_pls(eta) for eta in _ETAS), quick=("german",))
