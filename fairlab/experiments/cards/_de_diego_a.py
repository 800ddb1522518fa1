"""The scorecard's protocol of De-Diego et al. (2025) §4, Experiment A (Table 1)."""

import functools

import numpy as np
import pandas as pd

from .. import de_diego
from .._ledger import read_ledger
from ._protocol import _Protocol

#: De-Diego et al. (2025) §4, Experiment A (Table 1): the six data sets, each on the ledger's
#: three seeded 70/30 splits, the representation fitted on the training rows (S not in X;
#: X standardised with the training rows' mean and standard deviation, as Fair PLS does),
#: scored on the test rows by Cov²(r(X), Y), Cov²(r(X), S) (raw scores and targets, summed over
#: the components) and the projection's reconstruction error, at every k of Table 3 (the
#: ledger's k of some η), against Fair PLS at each η of the same k.
DE_DIEGO_A = "de_diego_a"
#: The metrics of Table 1 in the scorecard.
_METRICS = ("cov2_y", "cov2_s", "reconstruction_error")


def _fair_pls(eta):
    return f"Fair PLS (η = {eta:g})"


def run_unit(factory, key, parameters):
    """One split of Experiment A for the method: the experiment's ``split_scores`` with the
    method where the experiment passes Fair PLS, the rows Table 1 reads (``table1_rows``)."""
    d = de_diego.load_data(key["dataset"])
    with de_diego.counting_early_stops():  # Fair PLS near k = d, as in the experiment
        scores, split, fitted = de_diego.split_scores(
            d, factory(key["k"]), features=de_diego.DEFAULT_NORMALISATION["features"],
            split=key["split"], test_size=parameters["test_size"],
            random_state=parameters["random_state"], standardize=True)
    scores = de_diego.table1_rows(pd.DataFrame(scores))
    rows = pd.DataFrame({
        "paper": de_diego.PAPER, "table": "table1", "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan, "model": "",
        "metric": scores["metric"].to_numpy(), "split": key["split"],
        "value": scores["value"].to_numpy(float)})
    return rows, fitted.transform(split.X_test), split.s_test


def published_rows(ledger):
    """Table 1's reading of the ledger's Experiment A rows, one method per η."""
    scores = de_diego.table1_rows(de_diego.scores_from_ledger(ledger, "table1"))
    return pd.DataFrame({
        "paper": de_diego.PAPER, "table": "table1", "dataset": scores["dataset"],
        "method": [_fair_pls(eta) for eta in scores["eta"]], "k": scores["k"],
        "eta": scores["eta"], "model": "", "metric": scores["metric"],
        "split": scores["split"], "value": scores["value"]})


def ledger_ks(tables, etas=None):
    """Data set -> the k of the committed ledger's units of ``tables`` (at ``etas``, default
    every η): Table 3's, clipped to the features of our encodings."""
    ledger = read_ledger("de_diego")
    ledger = ledger[ledger["table"].isin(tables)]
    if etas is not None:
        ledger = ledger[ledger["eta"].isin(etas)]
    printed = {name: key for key, name in de_diego.DATASETS.items()}
    return {printed[name]: tuple(sorted({int(k) for k in part["k"]}))
            for name, part in ledger.groupby("dataset")}


@functools.cache
def ks_by_dataset():
    """Data set -> the k of Experiment A's units in the committed ledger."""
    return ledger_ks(["table1"])


PROTOCOL = _Protocol(
    name=DE_DIEGO_A, experiment="de_diego", datasets=de_diego.DATASETS,
    splits=tuple(range(de_diego.PARAMETERS["n_splits"])), ks=lambda d: ks_by_dataset()[d],
    parameters={c: de_diego.PARAMETERS[c] for c in ("test_size", "random_state")},
    run=run_unit, published=published_rows,
    title="De-Diego et al. (2025), Experiment A (Table 1)",
    columns=tuple((m, "") for m in _METRICS),
    labels={m: de_diego.METRIC_LABELS[m] for m in _METRICS},
    decimals=dict.fromkeys(_METRICS, de_diego.DECIMALS),
    missing="no value: the reconstruction error needs the components_ of a linear map, "
            "which the method does not have (a method without a value is not ranked)",
    better="higher Cov²(r(X), Y), lower Cov²(r(X), S) and Error",
    methods=tuple(_fair_pls(eta) for eta in de_diego.ETAS_A))
