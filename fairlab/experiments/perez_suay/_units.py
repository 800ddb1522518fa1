"""Pérez-Suay et al. (2017) §4, the work units of the ledger: the paper-scale grid, one unit's rows
(or part of them), and the results read back from the ledger.
"""

import numpy as np
import pandas as pd

from ._data import (
    DR_METHODS,
    GRIDS,
    REGRESSION_METHODS,
    SENSITIVE,
    VARIANTS,
    _label,
    dimensionality_reduction,
    load_splits,
    regression,
)

#: The paper's key in :mod:`fairlab.published` (it prints curves, not cells: the ledger holds the
#: points of the curves, per repetition, and :func:`checks` reads their means).
PAPER = "perezsuay2017"
#: A unit is one figure's protocol on one repetition, every panel (sensitive choice) at once, so
#: that the "with S" validation search is shared by the panels as in :func:`regression`.
UNIT_KEYS = ("dataset", "table", "split")
#: The figure of each data set's experiments: (data set, figure) -> the runner.
FIGURES = {("adult", "fig4"): "regression", ("cmc", "fig5"): "regression",
           ("adult", "fig6"): "dimensionality_reduction"}
#: Paper-scale parameters (§4.1–4.2): 25 repetitions of the paper's sizes (:data:`SIZES`), the
#: grids of :data:`GRIDS`, S as the sensitive columns of X, and Fig. 6's numbers of components.
PARAMETERS = {"random_state": 0, "sensitive_encoding": "columns",
              "n_components": [1, 2, 3, 5, 10, 20, 50, 100]}
#: The number of repetitions of the paper.
N_REPETITIONS = 25
#: Metrics that are wall-clock times: machine-dependent, so never compared.
TIMINGS = ("fit_seconds",)
#: The columns of :func:`regression` / :func:`dimensionality_reduction` stored as metrics.
_METRICS = {"regression": ("error", "hsic", "hsic_model", "alpha", "sigma", "sigma_s"),
            "dimensionality_reduction": ("error", "hsic", "sigma")}


def units(datasets=None, tables=None, splits=range(N_REPETITIONS)):
    """The unit keys of Figs. 4–6: (data set, figure) × repetition, narrowed by the arguments."""
    return [{"dataset": dataset, "table": table, "split": int(i)}
            for dataset, table in FIGURES
            if (datasets is None or dataset in datasets) and (tables is None or table in tables)
            for i in splits]


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {"dataset": fields["dataset"], "table": fields["table"], "split": int(fields["split"])}


def verification_parts(key):
    """The parts of unit ``key`` that :func:`fairlab.experiments.verify` reruns when the whole
    unit is too slow: the first sensitive choice, each variant with every method, and three of
    the 25 values of μ (the ends and the middle of the path).

    Each part's rows are the unit's rows of that part (:func:`run_unit`'s ``part``) at the
    ledger's precision: the validation searches are those of the whole unit, and a path's
    solution at one μ does not depend on the other values of μ (its predictions, one product
    for all μ, may round differently in the 14th digit).
    """
    first = next(iter(SENSITIVE[key["dataset"]]))
    mus = {"mu_index": [0, len(GRIDS["mu"]) // 2, len(GRIDS["mu"]) - 1]}
    return [{"sensitive": [first], "variants": [variant],
             **(mus if FIGURES[(key["dataset"], key["table"])] == "regression" else {})}
            for variant in VARIANTS]


def run_unit(key, parameters, part=None):
    """One repetition of one figure at paper scale, as ledger rows.

    Repetition ``key["split"]`` of :func:`load_splits` (the paper's sizes), every sensitive
    choice of the data set, both variants; ``part`` (a dict of :func:`verification_parts`)
    narrows it to the ``sensitive`` choices, ``variants`` and (Figs. 4–5) the positions
    ``mu_index`` in ``GRIDS["mu"]`` it names.  The ledger's columns hold a figure's point as:
    ``method`` the legend label (``"FKR"``, ``"FKR\\S"``, …), ``model`` the sensitive choice
    (the panel), ``eta`` the paper's μ (0 for LR and KRR; NaN in Fig. 6), ``k`` the number of
    components n_p (Fig. 6; NaN in Figs. 4–5), ``metric`` one of the runner's columns (error,
    HSIC, and the chosen hyper-parameters) or ``fit_seconds``.  :func:`results_from_ledger`
    turns them back into the runner's table.
    """
    runner = FIGURES[(key["dataset"], key["table"])]
    split = load_splits(key["dataset"], n_repetitions=key["split"] + 1,
                        random_state=parameters["random_state"])[key["split"]]
    part = part or {}
    sensitive = part.get("sensitive", list(SENSITIVE[key["dataset"]]))
    variants = part.get("variants", VARIANTS)
    encoding = parameters["sensitive_encoding"]
    if runner == "regression":
        grids = {"mu": GRIDS["mu"][part["mu_index"]]} if "mu_index" in part else None
        results = regression([split], sensitive, variants=variants, grids=grids,
                             sensitive_encoding=encoding)
        coord = "mu"
    else:
        results = dimensionality_reduction([split], sensitive, variants=variants,
                                           sensitive_encoding=encoding,
                                           n_components=parameters["n_components"])
        coord = "n_components"
    results = results.rename(columns={"seconds": "fit_seconds"})
    long = results.melt(id_vars=["sensitive", "variant", "method", coord],
                        value_vars=[*_METRICS[runner], "fit_seconds"], var_name="metric")
    long = long[long["value"].notna()]
    return pd.DataFrame({
        "paper": PAPER, "table": key["table"], "dataset": key["dataset"],
        "method": [_label(m, v) for m, v in zip(long["method"], long["variant"])],
        "k": long[coord].to_numpy(float) if coord == "n_components" else np.nan,
        "eta": long[coord].to_numpy(float) if coord == "mu" else np.nan,
        "model": long["sensitive"].to_numpy(), "metric": long["metric"].to_numpy(),
        "split": key["split"], "value": long["value"].to_numpy(float)})


def results_from_ledger(ledger, table):
    """The ledger's rows of one figure as the runner's per-repetition table.

    ``table`` ``"fig4"`` or ``"fig5"`` gives :func:`regression`'s columns, ``"fig6"``
    :func:`dimensionality_reduction`'s (``seconds`` from ``fit_seconds``), ready for
    :func:`summarize_results`, :func:`plot` and :func:`checks`.
    """
    if table not in {t for _, t in FIGURES}:
        raise ValueError(f"table must be one of {sorted({t for _, t in FIGURES})}; got {table!r}.")
    rows = ledger[(ledger["table"] == table) & (ledger["metric"] != "missing")]
    dr = table == "fig6"
    coord = "n_components" if dr else "mu"
    rows = rows.assign(**{coord: rows["k"] if dr else rows["eta"]})
    wide = rows.pivot_table(index=["dataset", "model", "method", "split", coord],
                            columns="metric", values="value", aggfunc="first", sort=False)
    wide = wide.rename_axis(columns=None).reset_index().rename(
        columns={"model": "sensitive", "split": "repetition", "fit_seconds": "seconds"})
    wide["variant"] = np.where(wide["method"].str.endswith("\\S"), "without S", "with S")
    wide["method"] = wide["method"].str.removesuffix("\\S")
    wide["repetition"] = wide["repetition"].astype(int)
    if dr:
        wide["n_components"] = wide["n_components"].astype(int)
        columns = ["dataset", "sensitive", "variant", "method", "repetition", "n_components",
                   "error", "hsic", "sigma", "seconds"]
    else:
        columns = ["dataset", "sensitive", "variant", "method", "repetition", "mu", "error",
                   "hsic", "hsic_model", "alpha", "sigma", "sigma_s", "seconds"]
    for column in columns:
        if column not in wide.columns:
            wide[column] = np.nan
    order = {"sensitive": {name: i for i, name in enumerate(dict.fromkeys(ledger["model"]))},
             "variant": {name: i for i, name in enumerate(VARIANTS)},
             "method": {name: i for i, name in enumerate(DR_METHODS if dr else
                                                         REGRESSION_METHODS)}}
    wide = wide.sort_values(["repetition", "sensitive", "variant", "method", coord],
                            key=lambda c: c.map(order[c.name]) if c.name in order else c,
                            kind="stable", ignore_index=True)
    return wide[columns]
