"""Kleindessner et al. (2023) §5.2, the work units of the ledger: the paper-scale grid, one unit's
rows, and the curves and times read back from the ledger.
"""

import numpy as np
import pandas as pd

from ._data import _REDUCTION, CLASSIFIERS, DATASETS, EPS, FAIRNESS, LAMBDAS, METHODS, curves


def curve_seconds(ledger, *, reference=_REDUCTION):
    """Whole-curve training seconds at paper scale, read from the ledger's ``fit_seconds`` rows.

    A curve's time is the sum of its points' ``fit_seconds`` (the shared representation is spread
    over the points, so the sum is the curve's wall time, :func:`curves`).  The mean is over the
    runs and both fairness notions the ledger holds, per data set, classifier and method;
    ``ratio`` divides it by ``reference``'s on the same data set and classifier (NaN where the
    ledger holds no curve of the reference there).

    Returns
    -------
    DataFrame
        Indexed by ``dataset, classifier, method``; columns ``curves`` (how many),
        ``seconds`` (mean whole-curve seconds) and ``ratio``.
    """
    if not (ledger["metric"] == "fit_seconds").any():
        raise ValueError("the ledger holds no curve: nothing to time.")
    curves = curves_from_ledger(ledger)
    whole = curves.groupby(["dataset", "classifier", "method", "fairness", "run"],
                           sort=False)["seconds"].sum().reset_index()
    out = whole.groupby(["dataset", "classifier", "method"], sort=False).agg(
        curves=("seconds", "size"), seconds=("seconds", "mean")).reset_index()
    ref = out[out["method"] == reference].set_index(["dataset", "classifier"])["seconds"]
    key = pd.MultiIndex.from_frame(out[["dataset", "classifier"]])
    out["ratio"] = out["seconds"].to_numpy() / ref.reindex(key).to_numpy()
    out = out.set_index(["dataset", "classifier", "method"]).sort_index()
    return out.round({"seconds": 2, "ratio": 4})


#: The paper's key in :mod:`fairlab.published` (it prints curves: the ledger holds their points).
PAPER = "kleindessner2023"
#: A unit is one trade-off curve: one method, fairness notion and classifier on one run.
UNIT_KEYS = ("dataset", "method", "fairness", "classifier", "split")
#: Paper-scale parameters (App. C.2): 5000 + 5000 rows per run, the 11-point grids.
PARAMETERS = {"n_train": 5000, "n_test": 5000, "lambdas": list(LAMBDAS), "eps": list(EPS)}
#: The runs of the paper.
N_RUNS = 10
#: The figure of each method's curves: Fig. 4 compares Fair PCA with the reductions, Fig. 8 adds
#: Fair PCA-S and fair kernel PCA.
FIGURE = {"Fair PCA": "fig4", _REDUCTION: "fig4", "Fair PCA-S": "fig8", "Fair Kernel PCA": "fig8"}
#: Metrics that are wall-clock times: machine-dependent, so never compared.
TIMINGS = ("fit_seconds",)
#: Downstream models whose predictions follow the BLAS kernel's rounding: the representation a
#: classifier sees moves in its last digits from one kernel to another (eigenvectors and
#: products), and libsvm, stopping at its tolerance, can then put a test row near the boundary on
#: the other side.  The logistic regression's optimum does not move with those digits.
KERNEL_DEPENDENT_MODELS = ("kernel SVM",)


def units(datasets=DATASETS, methods=METHODS, fairness=FAIRNESS, classifiers=CLASSIFIERS,
          splits=range(N_RUNS)):
    """The unit keys of Figs. 4 and 8: data set × method × fairness × classifier × run."""
    return [{"dataset": d, "method": m, "fairness": f, "classifier": c, "split": int(i)}
            for d in datasets for m in methods for f in fairness for c in classifiers
            for i in splits]


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {**fields, "split": int(fields["split"])}


def run_unit(key, parameters):
    """One curve of :func:`curves` (run ``key["split"]``), as ledger rows.

    ``method`` is the method with its fairness notion, ``"Fair PCA (DP)"``; ``model`` the
    classifier; ``eta`` the curve's parameter (λ for the fair methods, ε for the reductions);
    ``metric`` ``error``, ``violation`` (test rows) or ``fit_seconds``.
    :func:`curves_from_ledger` turns the rows back into :func:`curves`' table.
    """
    curve = curves([key["dataset"]], methods=[key["method"]], fairness=[key["fairness"]],
                   classifiers=[key["classifier"]], n_runs=1, first_run=key["split"],
                   n_train=parameters["n_train"], n_test=parameters["n_test"],
                   lambdas=parameters["lambdas"], eps=parameters["eps"])
    long = curve.rename(columns={"seconds": "fit_seconds"}).melt(
        id_vars=["param"], value_vars=["error", "violation", "fit_seconds"], var_name="metric")
    return pd.DataFrame({
        "paper": PAPER, "table": FIGURE[key["method"]], "dataset": key["dataset"],
        "method": f"{key['method']} ({key['fairness']})", "k": np.nan,
        "eta": long["param"].to_numpy(float), "model": key["classifier"],
        "metric": long["metric"].to_numpy(), "split": key["split"],
        "value": long["value"].to_numpy(float)})


def curves_from_ledger(ledger):
    """The ledger's curves as :func:`curves`' table (``seconds`` from ``fit_seconds``)."""
    rows = ledger[ledger["metric"] != "missing"]
    wide = rows.pivot_table(index=["dataset", "method", "model", "split", "eta"],
                            columns="metric", values="value", aggfunc="first", sort=False)
    wide = wide.rename_axis(columns=None).reset_index()
    method = wide["method"].str.extract(r"^(?P<method>.*) \((?P<fairness>DP|EO)\)$")
    out = pd.DataFrame({"dataset": wide["dataset"], "method": method["method"],
                        "fairness": method["fairness"], "classifier": wide["model"],
                        "run": wide["split"].astype(int), "param": wide["eta"],
                        "error": wide["error"], "violation": wide["violation"],
                        "seconds": wide.get("fit_seconds", np.nan)})
    return out.sort_values(["dataset", "method", "fairness", "classifier", "run", "param"],
                           kind="stable", ignore_index=True)
