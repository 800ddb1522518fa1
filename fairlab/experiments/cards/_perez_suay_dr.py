"""The scorecard's protocol of Pérez-Suay et al. (2017) §4.4, the dimensionality reductions
(Fig. 6)."""

import functools

import numpy as np
import pandas as pd

from .. import perez_suay
from .._ledger import read_ledger
from ._protocol import _Protocol

#: Pérez-Suay et al. (2017) §4.4, Fig. 6: the ledger's 25 repetitions of a9a (5,000 training
#: rows, the 16,281 test rows), the representation fitted on the training rows with S (the
#: "with S" variant: the sensitive columns stay in X) for each panel (S the sex columns, or
#: the race and sex columns), scored on the test rows by a 1-NN classifier's error and the
#: linear HSIC of the test representation with S, at each number of components of the ledger,
#: the fair methods' q (the columns of S) first, against PCA, KPCA, FDR and KFDR with and
#: without S.
PEREZ_SUAY_DR = "perez_suay_dr"
#: Fig. 6's panels (the sensitive choices of a9a) as the scorecard's data sets.
_PANELS = {p: f"a9a, S = {perez_suay.SENSITIVE_LABELS[p]}" for p in perez_suay.SENSITIVE["adult"]}
#: The share of the test rows under which a group of S joins the audit's merged group (a9a's
#: rarest races by sex hold 0.3–0.6% of the test rows, a few rows of the audit's subsample).
_RARE_GROUP = 0.01
#: The metrics of Fig. 6 in the scorecard, with their printed names.
_METRICS = {"error": "1-NN error", "hsic": "HSIC"}
#: Their decimals: the error as a fraction, the HSIC's small values.
_DECIMALS = {"error": 4, "hsic": 6}


def run_unit(factory, key, parameters):
    """One repetition of one Fig. 6 panel for the method: the experiment's
    ``reduction_scores`` with the method where the experiment fits a published reduction."""
    split = perez_suay.load_splits(
        "adult", n_repetitions=key["split"] + 1,
        random_state=parameters["random_state"])[key["split"]]
    found, fitted, X_test, S_test = perez_suay.reduction_scores(
        split, key["dataset"], factory(key["k"]), method=key["method"],
        variant=parameters["variant"], sensitive_encoding=parameters["sensitive_encoding"])
    scores = pd.DataFrame(found).melt(value_vars=list(_METRICS), var_name="metric")
    rows = pd.DataFrame({
        "paper": perez_suay.PAPER, "table": "fig6", "dataset": _PANELS[key["dataset"]],
        "method": key["method"], "k": key["k"], "eta": np.nan, "model": "",
        "metric": scores["metric"].to_numpy(), "split": key["split"],
        "value": scores["value"].to_numpy(float)})
    return rows, fitted.transform(X_test), _sensitive_groups(S_test)


def _sensitive_groups(S):
    """The audit's categorical sensitive attribute: one group per distinct row of S (sex; or
    race and sex), the groups under :data:`_RARE_GROUP` of the rows merged into one, so that
    every fold of the audit's subsample holds a row of every group."""
    _, groups, counts = np.unique(np.asarray(S), axis=0, return_inverse=True,
                                  return_counts=True)
    groups = groups.ravel()
    rare = counts < _RARE_GROUP * len(groups)
    return np.where(rare[groups], len(counts), groups)


def published_rows(ledger):
    """Fig. 6's rows of the ledger in the scorecard's cells: the panel as the data set."""
    rows = ledger[(ledger["table"] == "fig6") & ledger["metric"].isin(_METRICS)]
    return rows.assign(dataset=rows["model"].map(_PANELS), model="")


@functools.cache
def ks_by_panel():
    """Panel -> the k of Fig. 6 in the committed ledger: q (the columns of S, FDR's and KFDR's
    k, where every published method has a value) first, then the others in order."""
    ledger = read_ledger("perez_suay")
    ledger = ledger[ledger["table"] == "fig6"]
    ks = {}
    for panel, part in ledger.groupby("model"):
        q = len(perez_suay.SENSITIVE["adult"][panel])
        ks[panel] = (q, *sorted({int(k) for k in part["k"]} - {q}))
    return ks


PROTOCOL = _Protocol(
    name=PEREZ_SUAY_DR, experiment="perez_suay", datasets=_PANELS,
    splits=tuple(range(perez_suay.N_REPETITIONS)), ks=lambda d: ks_by_panel()[d],
    parameters={"random_state": perez_suay.PARAMETERS["random_state"],
                "sensitive_encoding": perez_suay.PARAMETERS["sensitive_encoding"],
                "variant": "with S"},
    run=run_unit, published=published_rows,
    title="Pérez-Suay et al. (2017), dimensionality reduction (Fig. 6)",
    columns=tuple((m, "") for m in _METRICS), labels=_METRICS, decimals=_DECIMALS,
    missing="no value: FDR and KFDR have q components only (a method without a value is "
            "not ranked)",
    better="lower 1-NN error and lower HSIC",
    methods=tuple(f"{m}{s}" for m in perez_suay.DR_METHODS for s in ("", "\\S")))
