"""The scorecard's protocol of Kleindessner et al. (2023) §5.2, the trade-off curves (Figs. 4
and 8)."""

import functools

import numpy as np
import pandas as pd

from .. import kleindessner_tradeoffs as tradeoffs
from .._ledger import summarize_ledger
from ._protocol import _Protocol

#: Kleindessner et al. (2023) §5.2, Figs. 4 and 8: the ledger's ten draws of Adult and Bank
#: (5,000 training and 5,000 test rows), for each fairness notion (DP, EO) a panel; the method
#: at d − 1 components takes Fair PCA's place in the knob x ↦ (U_fairᵀx; λ·U_stᵀx) with
#: standard PCA, learned from the fit rows (all, or y = 1 for EO), and each of the logistic
#: regression and the kernel SVM trained on it at each λ, scored on the test rows by the error
#: and the violation (ΔDP or ΔEO): its curve beside Fair PCA's, Fair PCA-S's, fair kernel PCA's
#: and the reductions', and its distance from the reductions' curve (``curve_gap``).
KLEINDESSNER_TRADEOFFS = "kleindessner_tradeoffs"
#: The panels (a data set and a fairness notion) as the scorecard's data sets.
_PANELS = {f"{d} {f}": f"{d.title()}, {f}" for d in tradeoffs.DATASETS
           for f in tradeoffs.FAIRNESS}
#: The curves' metrics in the scorecard: the points' own, unranked (a point's λ or ε is no
#: setting shared across methods), and the mean curve's gap to the reductions', ranked.
_POINTS = {"curve_violation": "violation", "curve_error": "error"}
_GAP = "curve_gap"
_YOURS = " \N{EM DASH} yours"


def run_unit(factory, key, parameters):
    """One draw of one panel for the method: :func:`~fairlab.experiments.kleindessner_tradeoffs.
    curve_scores` (the experiment's own step) with the method where the experiment passes Fair
    PCA, one curve per classifier; and the test representation of the method's fit (the knob's
    fair block), for the audit."""
    dataset, fairness = key["dataset"].split()
    split = tradeoffs.load_splits(dataset, n_runs=1, first_run=key["split"],
                                  n_train=parameters["n_train"], n_test=parameters["n_test"])[0]
    parts, fitted = [], None
    for classifier in tradeoffs.CLASSIFIERS:
        fair = factory(key["k"])
        points = pd.DataFrame(tradeoffs.curve_scores(split, fairness, classifier, fair,
                                                     key["k"], lambdas=parameters["lambdas"]))
        fitted = fair if fitted is None else fitted
        parts.append(points.melt(id_vars=["param"], value_vars=list(_POINTS.values()),
                                 var_name="metric").assign(model=classifier))
    scores = pd.concat(parts, ignore_index=True)
    rows = pd.DataFrame({
        "paper": tradeoffs.PAPER, "table": "fig4", "dataset": _PANELS[key["dataset"]],
        "method": key["method"], "k": key["k"], "eta": scores["param"].to_numpy(float),
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy(float)})
    return rows, fitted.transform(split.X_test), split.s_test


@functools.cache
def ks_by_dataset():
    """Panel -> (d − 1,): Fair PCA's dimension in the experiment, d the data set's features."""
    dims = {d: tradeoffs.load_splits(d, n_runs=1, n_test=0)[0].X_train.shape[1]
            for d in tradeoffs.DATASETS}
    return {panel: (dims[panel.split()[0]] - 1,) for panel in _PANELS}


def published_rows(ledger):
    """The ledger's curves in the scorecard's cells: the panel as the data set, the method
    without its fairness notion, k the panel's (the method's d − 1)."""
    rows = ledger[ledger["metric"].isin(_POINTS.values())]
    named = rows["method"].str.extract(r"^(?P<method>.*) \((?P<fairness>DP|EO)\)$")
    panels = (rows["dataset"] + " " + named["fairness"]).to_numpy()
    return rows.assign(dataset=[_PANELS[p] for p in panels], method=named["method"],
                       k=[ks_by_dataset()[p][0] for p in panels])


def summarize(mine, theirs):
    """The card's rows of the curves: each method's mean point over the draws per λ (or ε)
    (``curve_violation``, ``curve_error``), and its mean curve's gap to the reductions' in
    each panel and classifier (``curve_gap``: the experiment's
    :func:`~fairlab.experiments.kleindessner_tradeoffs.gaps`, ``mean_gap``, the error above
    the reductions' at matched violation averaged over the violation range)."""
    both = pd.concat([mine.assign(yours=True), theirs.assign(yours=False)], ignore_index=True)
    wide = both.pivot_table(index=["dataset", "method", "yours", "k", "model", "split", "eta"],
                            columns="metric", values="value", aggfunc="first").reset_index()
    # the method may bear a published method's name: its curve is told apart by a suffix
    wide["curve"] = wide["method"].where(~wide["yours"], wide["method"] + _YOURS)
    curves = pd.DataFrame({"dataset": wide["dataset"], "method": wide["curve"],
                           "fairness": "", "classifier": wide["model"], "run": wide["split"],
                           "param": wide["eta"], "error": wide["error"],
                           "violation": wide["violation"]})
    found = tradeoffs.gaps(curves)
    cells = wide.groupby(["dataset", "curve", "model"])
    index = pd.MultiIndex.from_frame(found[["dataset", "method", "classifier"]])
    yours = found["method"].str.endswith(_YOURS)
    gap = pd.DataFrame({
        "dataset": found["dataset"], "method": found["method"].str.removesuffix(_YOURS),
        "k": cells["k"].first().reindex(index).to_numpy(), "eta": np.nan,
        "model": found["classifier"], "metric": _GAP, "mean": found["mean_gap"], "std": np.nan,
        "n_splits": cells["split"].nunique().reindex(index).to_numpy(), "yours": yours})
    points = pd.concat([summarize_ledger(mine).assign(yours=True),
                        summarize_ledger(theirs).assign(yours=False)], ignore_index=True)
    points["metric"] = points["metric"].map({v: m for m, v in _POINTS.items()})
    return pd.concat([gap, points.drop(columns=["paper", "table"])], ignore_index=True)


PROTOCOL = _Protocol(
    name=KLEINDESSNER_TRADEOFFS, experiment="kleindessner_tradeoffs", datasets=_PANELS,
    splits=tuple(range(tradeoffs.N_RUNS)), ks=lambda d: ks_by_dataset()[d],
    parameters={c: tradeoffs.PARAMETERS[c] for c in ("n_train", "n_test", "lambdas")},
    run=run_unit, published=published_rows,
    title="Kleindessner et al. (2023), trade-off curves (Figs. 4 and 8)",
    columns=tuple((_GAP, c) for c in tradeoffs.CLASSIFIERS),
    labels={_GAP: "gap to the reductions", **_POINTS},
    decimals={_GAP: 4, **dict.fromkeys(_POINTS, 4)},
    missing="no value: the reductions are the reference of the gap",
    better="a lower gap: less error than the reductions at the same violation",
    methods=tradeoffs.METHODS, quick=tuple(p for p in _PANELS if p.startswith("adult ")),
    summarize=summarize, points=tuple(_POINTS))
