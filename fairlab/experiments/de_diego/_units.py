"""De-Diego et al. (2025) §4, the work units of the ledger: the paper-scale grid, one unit's rows,
and the scores read back from the ledger.
"""

import pandas as pd

from ._data import (
    DATASETS,
    MODELS,
    _dataset_key,
    counting_early_stops,
    load_data,
    representation_scores,
)
from ._downstream import downstream_scores

#: The paper's key in :mod:`fairlab.published`.
PAPER = "dediego2025"
#: A unit is one η of one experiment on one data set: Experiment A (``table1``) on its three
#: splits, Experiment B (``table4``, or ``table5`` for the regression data set) on its seven folds
#: (the pooled disparate impact and its interval need every fold's predictions).
UNIT_KEYS = ("dataset", "table", "eta")
#: Paper-scale parameters: every row of every data set (Law School from ``$FAIRLAB_DATA``), 3
#: splits with 30 % test rows, 7 folds, the three models, seed 0; k from Table 3 (:func:`paper_k`).
PARAMETERS = {"n_splits": 3, "test_size": 0.3, "n_folds": 7, "models": list(MODELS),
              "random_state": 0}
#: η of Table 1 (and Figs. 2-3).
ETAS_A = (0.0, 1.0, 2.0, 10.0)
#: η of Experiment B: Tables 4-5 print 0, 1 and 2; the others draw Figs. 1 and 4.
ETAS_B = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)
#: Units whose values follow the BLAS kernel's rounding beyond the ledger's 8 significant digits,
#: with the cause; every unit was recomputed under a second OpenBLAS kernel (Sandybridge, the
#: ledger's being SkylakeX) and this is the only one that differs, so
#: :func:`fairlab.experiments.verify` reports it there instead of judging it.
KERNEL_DEPENDENT_UNITS = {
    "de_diego/dataset=german/table=table4/eta=0.25": (
        "k = 20 of 21 features: the last components of Fair PLS at η > 0 are the leading "
        "directions of a penalised objective with little to choose between them, so rounding "
        "moves them; 51 of 1206 values differ in the 8th digit (at most 7.7e-8 relative)"),
}
#: The columns of a score that name how it was computed (its Cov² or error reading).
_READING = ("features", "rows", "scores", "targets", "reduce", "error")


def experiment_b_table(dataset):
    """The printed table of Experiment B for a data set (key or printed name): Table 5 for the
    regression data set, Communities and Crimes, Table 4 for the others."""
    return "table5" if _dataset_key(dataset) == "communities" else "table4"


def units(datasets=None, tables=None):
    """The unit keys of Tables 1, 4 and 5: data set × table × η (narrowed by the arguments)."""
    keys = []
    for key in DATASETS if datasets is None else [_dataset_key(d) for d in datasets]:
        for table, etas in (("table1", ETAS_A), (experiment_b_table(key), ETAS_B)):
            if tables is None or table in tables:
                keys += [{"dataset": key, "table": table, "eta": float(eta)} for eta in etas]
    return keys


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {"dataset": fields["dataset"], "table": fields["table"], "eta": float(fields["eta"])}


def run_unit(key, parameters):
    """One η of Experiment A (:func:`representation_scores`, both ``features`` variants) or B
    (:func:`downstream_scores`) on a whole data set, as ledger rows.

    ``split`` is the split (A) or the fold (B; −1 for the pooled disparate impact and its
    interval); ``method`` names the reading of a score, its ``features, rows, scores, targets,
    reduce, error`` as ``name=value`` pairs joined by ``"; "`` (empty for the metrics that have
    none): :func:`scores_from_ledger` turns the rows back into the runner's table.
    """
    data = {key["dataset"]: load_data(key["dataset"])}
    with counting_early_stops():  # expected near k = d; the rows are the result
        if key["table"] == "table1":
            scores = representation_scores(
                data, [key["eta"]], n_splits=parameters["n_splits"],
                test_size=parameters["test_size"], random_state=parameters["random_state"])
        else:
            scores = downstream_scores(
                data, [key["eta"]], n_folds=parameters["n_folds"], models=parameters["models"],
                random_state=parameters["random_state"]).rename(columns={"fold": "split"})
    reading = [c for c in _READING if c in scores.columns]
    method = ["; ".join(f"{c}={v}" for c, v in zip(reading, values) if v != "")
              for values in scores[reading].itertuples(index=False)]
    return pd.DataFrame({
        "paper": PAPER, "table": key["table"], "dataset": scores["dataset"].to_numpy(),
        "method": method, "k": scores["k"].to_numpy(float), "eta": scores["eta"].to_numpy(float),
        "model": scores["model"].to_numpy() if "model" in scores.columns else "",
        "metric": scores["metric"].to_numpy(), "split": scores["split"].to_numpy(int),
        "value": scores["value"].to_numpy(float)})


def scores_from_ledger(ledger, table):
    """The ledger's rows of one experiment as its runner's table.

    ``table="table1"`` gives :func:`representation_scores`'s columns; ``"table4"`` or
    ``"table5"`` (both, for ``"table4+5"``) :func:`downstream_scores`'s, ready for
    :func:`table1`, :func:`downstream_summary` and :func:`normalisation_fit`.
    """
    tables = {"table1": ["table1"], "table4": ["table4"], "table5": ["table5"],
              "table4+5": ["table4", "table5"]}
    if table not in tables:
        raise ValueError(f"table must be one of {list(tables)}; got {table!r}.")
    rows = ledger[ledger["table"].isin(tables[table]) & (ledger["metric"] != "missing")]
    fields = [dict(part.split("=", 1) for part in text.split("; ")) if text else {}
              for text in rows["method"]]
    out = pd.DataFrame({"dataset": rows["dataset"].to_numpy(), "eta": rows["eta"].to_numpy(),
                        "k": rows["k"].to_numpy().astype(int)})
    if table == "table1":
        columns = ["dataset", "eta", "k", "features", "rows", "scores", "targets", "reduce",
                   "error", "metric", "split", "value"]
    else:
        out["model"] = rows["model"].to_numpy()
        columns = ["dataset", "eta", "k", "features", "model", "metric", "scores", "targets",
                   "reduce", "fold", "value"]
    for c in _READING:
        out[c] = [f.get(c, "") for f in fields]
    out["metric"] = rows["metric"].to_numpy()
    out["split" if table == "table1" else "fold"] = rows["split"].to_numpy().astype(int)
    out["value"] = rows["value"].to_numpy()
    return out[columns]
