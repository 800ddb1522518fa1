"""The scorecard's protocol of Kleindessner et al. (2023) §5.1, Tables 1–3."""

import functools

import numpy as np
import pandas as pd

from ...datasets import load_lee2022_split
from ...evaluation.scorecards import _fit_with_sensitive
from ...pca import FairPCA
from ..kleindessner import (
    DATASETS,
    DECIMALS,
    METHODS,
    METRIC_LABELS,
    MODELS,
    PAPER,
    PARAMETERS,
    TABLES,
    TIMINGS,
    score_splits,
)
from ._protocol import _Protocol

#: Kleindessner et al. (2023) §5.1, Tables 1–3: Lee et al.'s ten splits of Adult, German credit
#: and COMPAS at k = 2 and 10, trained on the test embedding (the paper's protocol), scored by
#: %Var, MMD² and the kernel SVM's, linear SVM's and MLP's accuracy and ΔDP.
KLEINDESSNER = "kleindessner"
#: The factory of the ledger's "Fair PCA" rows: Kleindessner et al.'s experiments fitted the
#: uncentred XᵀX of the train-standardised data (``FairPCA(k, center=False)``).  On Lee et
#: al.'s splits, standardised with the training mean, centring subtracts zero up to rounding,
#: so plain :class:`~fairlab.FairPCA` gives the same stored values.
KLEINDESSNER_FAIR_PCA = functools.partial(FairPCA, center=False)


def run_unit(factory, key, parameters):
    """One split of Tables 1–3 for the method: the experiment's ``score_splits`` with the method
    where the experiment passes a published one; and the test representation, for the audit
    (of the method fitted again on the training rows, as ``score_splits`` fits it)."""
    split = load_lee2022_split(key["dataset"], key["split"])
    split.dataset = key["dataset"]
    scores = score_splits({key["method"]: factory(key["k"])}, [split],
                          protocols=(parameters["protocol"],))
    scores = scores[~scores["metric"].isin(TIMINGS)]
    fitted = _fit_with_sensitive(factory(key["k"]), split.X_train, split.y_train, split.s_train)
    rows = pd.DataFrame({
        "paper": PAPER, "table": TABLES[key["dataset"]], "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan,
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy()})
    return rows, fitted.transform(split.X_test), split.s_test


def published_rows(ledger):
    """The ledger's rows of the tables' published methods."""
    return ledger[ledger["method"].isin(METHODS) & ledger["table"].isin(TABLES.values())]


PROTOCOL = _Protocol(
    name=KLEINDESSNER, experiment="kleindessner", datasets=DATASETS,
    splits=tuple(range(10)), ks=lambda dataset: (2, 10),
    parameters={"protocol": PARAMETERS["protocol"]}, run=run_unit, published=published_rows,
    title="Kleindessner et al. (2023), Tables 1–3",
    columns=(("var_pct", ""), ("mmd2", ""), *((m, model) for model in MODELS.values()
                                               for m in ("accuracy_pct", "delta_dp"))),
    labels=METRIC_LABELS, decimals=DECIMALS,
    missing="no value: %Var and MMD² need orthonormal components, which a kernel method's "
            "embedding does not have (a method without a value is not ranked)",
    better="higher %Var and %Acc, lower MMD² and ΔDP", methods=METHODS)
