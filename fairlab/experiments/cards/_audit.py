"""The scorecard's leakage audit of a unit's test representation, and of the card's rows."""

import numpy as np
import pandas as pd

from ... import metrics

#: The metric of the leakage audit's rows: an adversary's balanced accuracy in recovering the
#: sensitive attribute from the method's test representation (:func:`fairlab.metrics.leakage`).
LEAKAGE = "leakage"
#: The leakage audit of every unit (:func:`fairlab.metrics.leakage`, balanced accuracy): its
#: three nonlinear adversaries, 5 folds, 500 bootstrap resamples, on at most 5,000 test rows (a
#: seeded subsample), no permutation tests.
AUDIT = {"adversaries": ["rbf_svm", "mlp", "gradient_boosting"], "cv": 5, "n_bootstrap": 500,
         "max_rows": 5000, "random_state": 0}
#: The audit of a quick card: the cheaper settings of :func:`fairlab.metrics.leakage`'s notes —
#: two adversaries (the SVM and the gradient boosting), 3 folds, 200 resamples ("a rough
#: interval") — on at most 1,000 test rows.
AUDIT_QUICK = {"adversaries": ["rbf_svm", "gradient_boosting"], "cv": 3, "n_bootstrap": 200,
               "max_rows": 1000, "random_state": 0}


def _audit_rows(Z, s, settings):
    """The leakage audit of one test representation as rows: per adversary (``model``), its
    balanced accuracy (:data:`LEAKAGE`), its interval and its chance level."""
    Z, s = np.asarray(Z, dtype=float), np.asarray(s).ravel()
    if len(s) > settings["max_rows"]:  # the SVM's fits grow like n²
        rng = np.random.default_rng(settings["random_state"])
        rows = np.sort(rng.choice(len(s), settings["max_rows"], replace=False))
        Z, s = Z[rows], s[rows]
    table = metrics.leakage(Z, s.astype(np.int64), adversaries=tuple(settings["adversaries"]),
                            tests=(), sensitive_type="categorical", cv=settings["cv"],
                            n_bootstrap=settings["n_bootstrap"],
                            random_state=settings["random_state"])
    table = table[table["measure"] == "balanced_accuracy"]
    parts = [pd.DataFrame({"model": table["method"].to_numpy(), "metric": metric,
                           "value": table[column].to_numpy(float)})
             for metric, column in ((LEAKAGE, "score"), (f"{LEAKAGE}_ci_low", "ci_low"),
                                    (f"{LEAKAGE}_ci_high", "ci_high"),
                                    (f"{LEAKAGE}_chance", "chance"))]
    return pd.concat(parts, ignore_index=True)


def _audit_card(rows, protocol):
    """The leakage audit's rows of the card (none if the units hold no audit): per data set, k
    and adversary (``model``), the balanced accuracy's mean and std over the splits, the lowest
    and highest end of the splits' intervals, the chance level and the number of splits whose
    interval lies above it (``detected``)."""
    audit = rows[rows["metric"].str.startswith(LEAKAGE)]
    if not len(audit):
        return pd.DataFrame()
    cell = ["dataset", "method", "k", "model"]
    wide = audit.pivot_table(index=[*cell, "split"], columns="metric", values="value",
                             aggfunc="first")
    by = wide.groupby(level=cell)
    detected = wide[f"{LEAKAGE}_ci_low"] > wide[f"{LEAKAGE}_chance"]
    out = pd.DataFrame({
        "mean": by[LEAKAGE].mean(), "std": by[LEAKAGE].agg(lambda v: float(np.std(v))),
        "n_splits": by[LEAKAGE].size(), "ci_low": by[f"{LEAKAGE}_ci_low"].min(),
        "ci_high": by[f"{LEAKAGE}_ci_high"].max(), "chance": by[f"{LEAKAGE}_chance"].first(),
        "detected": detected.groupby(level=cell).sum()}).reset_index()
    return out.assign(protocol=protocol, metric=LEAKAGE, yours=True, rank=np.nan,
                      ranked=np.nan, better=np.nan, k=out["k"].astype(int))
