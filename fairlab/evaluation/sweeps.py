"""Trade-off sweeps: an estimator refitted along a parameter grid, scored on every split.
"""


import numpy as np
import pandas as pd
from sklearn.base import clone

from .. import metrics
from ._util import _progress, _to_numpy
from .scorecards import _PROTOCOLS, _fit_with_sensitive


def sweep(estimator, param, values, splits, *, score, progress=False):
    """Trade-off curve: score an estimator for each value of one hyper-parameter on each split.

    Parameters
    ----------
    estimator : estimator or callable
        An estimator whose ``param`` is set with ``clone(estimator).set_params(**{param: v})``,
        or a factory ``v -> estimator`` (for compositions such as
        ``FairTradeoff(fair, standard, lam=v)``).
    param : str
        Name of the swept parameter (the column name in the result): ``"lam"`` (FairTradeoff,
        Kleindessner et al. §3.1), ``"eta"`` (FairPLS, De-Diego et al.), ``"mu"`` (FLR/FKR,
        Pérez-Suay et al.).
    values : iterable of float
    splits : iterable of Bunch
    score : callable(estimator, split) -> dict
        :func:`classifier_score`, :func:`predictor_score`, :func:`dependence_score` or your own.

    Returns
    -------
    DataFrame with columns ``param``, ``split`` and one per score.  Average over splits with
    :func:`summarize` (``by=param``).
    """
    if not isinstance(param, str):
        raise TypeError(f"param must be the parameter name (a str); got {type(param).__name__}.")
    if not callable(score):
        raise TypeError("score must be callable(estimator, split) -> dict.")
    factory = estimator if (callable(estimator) and not hasattr(estimator, "get_params")) else (
        lambda v: clone(estimator).set_params(**{param: v}))
    values, splits = list(values), list(splits)
    rows = []
    for v in _progress(values, progress, total=len(values), desc=param):
        for i, split in enumerate(splits):
            rows.append({param: v, "split": split.get("split", i), **score(factory(v), split)})
    return pd.DataFrame(rows)


def classifier_score(classifier, *, protocol="train_test", pos_label=1):
    """Score function for :func:`sweep`: a classifier on top of a fair representation.

    Fits the representation on the training split (with the sensitive attribute), then the
    ``classifier`` on the training embedding (``protocol="train_test"``, Kleindessner et al. §5.2
    and De-Diego et al.
    experiment B) or on the test embedding (``"train_on_test"``), and reports on the test split:
    ``accuracy``, ``dp_violation`` (Δ_DP), ``eo_violation`` (Δ_EO, TPR difference) and
    ``disparate_impact`` (min/max selection-rate ratio).
    """
    if protocol not in _PROTOCOLS:
        raise ValueError(f"protocol={protocol!r} is not supported; choose one of {_PROTOCOLS}.")

    def score(estimator, split):
        model = _fit_with_sensitive(estimator, split["X_train"], split["y_train"],
                                    split["s_train"])
        E_te = model.transform(split["X_test"])
        y_te, s_te = _to_numpy(split["y_test"]), split["s_test"]
        if protocol == "train_test":
            clf = clone(classifier).fit(model.transform(split["X_train"]), split["y_train"])
        else:
            clf = clone(classifier).fit(E_te, y_te)
        pred = clf.predict(E_te)
        kw = {"sensitive_features": s_te, "pos_label": pos_label}
        return {
            "accuracy": float(np.mean(pred == y_te)),
            "dp_violation": metrics.demographic_parity_difference(y_te, pred, **kw),
            "eo_violation": metrics.equal_opportunity_difference(y_te, pred, **kw),
            "disparate_impact": metrics.disparate_impact(y_te, pred, **kw),
        }

    return score


def predictor_score(*, task="regression", threshold=0.0):
    """Score function for :func:`sweep` on a fair predictor (FLR/FKR of Pérez-Suay et al. §2).

    Fits ``estimator.fit(X_train, y_train, sensitive_features=s_train)`` and predicts the test
    split.  Reports ``mse``, ``hsic`` = :func:`~fairlab.metrics.hsic` (linear kernels) between the
    test predictions and the test sensitive attribute (Pérez-Suay et al.'s unfairness
    (1/n²) tr(H S Sᵀ H f fᵀ)), ``ks`` (:func:`~fairlab.metrics.ks_distance`, when the attribute
    is categorical); with ``task="classification"`` also ``accuracy`` of sign(f − threshold)
    against labels in {−1, +1} (or {0, 1}).
    """
    if task not in ("regression", "classification"):
        raise ValueError(f"task={task!r}; choose 'regression' or 'classification'.")

    def score(estimator, split):
        model = _fit_with_sensitive(estimator, split["X_train"], split["y_train"],
                                    split["s_train"])
        f = np.asarray(model.predict(split["X_test"]), dtype=float).reshape(len(split["X_test"]),
                                                                            -1)
        y = np.asarray(split["y_test"], dtype=float).reshape(f.shape[0], -1)
        # the FKL estimators use S as numbers (integer codes included), and so does its HSIC
        out = {"mse": float(np.mean((f - y) ** 2)),
               "hsic": metrics.hsic(f, split["s_test"], sensitive_type="continuous")}
        s = np.asarray(split["s_test"])
        if s.ndim == 1 and f.shape[1] == 1 and len(np.unique(s)) <= 10:
            out["ks"] = metrics.ks_distance(f[:, 0], sensitive_features=s)
        if task == "classification":
            neg = -1.0 if np.any(y < 0) else 0.0
            pred = np.where(f[:, 0] > threshold, 1.0, neg)
            out["accuracy"] = float(np.mean(pred == y[:, 0]))
        return out

    return score


def dependence_score(*, split_part="test"):
    """Score function for :func:`sweep`: De-Diego et al. experiment A (Table 1, Fig. 2).

    The representation T = ``transform(X)`` of the test (or train) split, reported as
    ``cov2_y`` = Cov²(T, Y), ``cov2_s`` = Cov²(T, S) (:func:`~fairlab.metrics.cov2`) and
    ``hsic_s`` (RBF kernel on T, linear on S).
    """
    if split_part not in ("test", "train"):
        raise ValueError(f"split_part={split_part!r}; choose 'test' or 'train'.")

    def score(estimator, split):
        model = _fit_with_sensitive(estimator, split["X_train"], split["y_train"],
                                    split["s_train"])
        X, y, s = (split[f"{key}_{split_part}"] for key in ("X", "y", "s"))
        T = model.transform(X)
        return {"cov2_y": metrics.cov2(T, y, sensitive_type="continuous"),
                "cov2_s": metrics.cov2(T, s),
                "hsic_s": metrics.hsic(T, s, kernel="rbf")}

    return score

