"""De-Diego et al. (2025) §4, Experiment B (Tables 4-5, Figs. 1 and 4): the downstream models
trained on a representation in a seeded cross-validation, one fold at a time, and their scores.
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import Bunch

from ... import metrics
from ..._core.validation import check_int
from ...evaluation._util import _progress
from .. import methods as registry
from ._data import (
    _METHOD,
    MODELS,
    _folds,
    _standardizer,
    paper_k,
)
from ._readings import NORMALISATION_OPTIONS, check_normalisation, cov2_readings


def downstream_models(task="classification", models=MODELS, *, random_state=0):
    """The downstream models of De-Diego et al. Tables 4-5, with library defaults.

    ``"LR"``: ``LogisticRegression()`` (classification) or ``LinearRegression()``
    (regression); ``"DT"``: ``DecisionTree{Classifier,Regressor}(random_state=...)``;
    ``"XGB"``: ``xgboost.XGB{Classifier,Regressor}(random_state=..., n_jobs=1)`` — every other
    setting is the library default, as in the paper ("default specifications").  xgboost is an
    optional dependency (``pip install 'fairlab[book]'`` or ``pip install xgboost``): it is
    imported only when ``"XGB"`` is asked for, and its absence raises an ImportError saying so.
    """
    if task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression'; got {task!r}.")
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        raise ValueError(f"unknown model(s) {unknown}; choose among {list(MODELS)}.")
    out = {}
    for name in models:
        if name == "LR":
            out[name] = LogisticRegression() if task == "classification" else LinearRegression()
        elif name == "DT":
            out[name] = (DecisionTreeClassifier(random_state=random_state)
                         if task == "classification"
                         else DecisionTreeRegressor(random_state=random_state))
        else:
            try:
                import xgboost
            except ImportError as err:
                raise ImportError(
                    "the XGB model needs the optional dependency xgboost: pip install xgboost "
                    "(or pip install 'fairlab[book]'), or leave 'XGB' out of models."
                ) from err
            cls = xgboost.XGBClassifier if task == "classification" else xgboost.XGBRegressor
            out[name] = cls(random_state=random_state, n_jobs=1)
    return out


def fold_scores(d, estimator, *, fold=0, n_folds=7, models=MODELS, features="S not in X",
                random_state=0, eta=np.nan, standardize=False):
    """One fold of Experiment B for one unfitted representation: :func:`downstream_scores`'
    rows of that fold, and what the pooled scores need.

    The fold is the ``fold``-th block of the seeded partition of the rows into ``n_folds``;
    ``estimator`` is fitted on the other blocks with ``y`` (as floats) and
    ``sensitive_features``, every model of :func:`downstream_models` is trained on the
    training representation and scored on the fold (the metrics of :func:`downstream_scores`,
    the Cov² columns under every reading).  Its ``n_components`` (else the width of its
    representation) is the rows' ``k``.  ``standardize=True`` hands the estimator X
    standardised with the training rows' mean and standard deviation (ddof 1), which Fair PLS
    applies itself: the protocol of a method that does not.

    Returns
    -------
    (list of dict, Bunch)
        The rows (the columns of :func:`downstream_scores`), and the fold's ``test`` rows
        (indices), the test representation ``T_test``, ``s_test`` and the models'
        ``predictions`` (name -> the fold's predictions).
    """
    if features not in NORMALISATION_OPTIONS["features"]:
        raise ValueError(f"features must be one of {NORMALISATION_OPTIONS['features']}; "
                         f"got {features!r}.")
    n_folds = check_int(n_folds, "n_folds", minimum=2)
    fold = check_int(fold, "fold", minimum=0, maximum=n_folds - 1)
    ests = downstream_models(d.task, models, random_state=random_state)
    X = np.column_stack([d.X, d.s.astype(float)]) if features == "S in X" else d.X
    test = _folds(len(d.y), n_folds, random_state)[fold]
    train = np.setdiff1d(np.arange(len(d.y)), test)
    X_tr, X_te = X[train], X[test]
    if standardize:
        mean, std = _standardizer(X_tr)
        X_tr, X_te = (X_tr - mean) / std, (X_te - mean) / std
    rep = estimator.fit(X_tr, d.y[train].astype(float), sensitive_features=d.s[train])
    T_tr, T_te = rep.transform(X_tr), rep.transform(X_te)
    kk = getattr(rep, "n_components", None)
    base = {"dataset": d.dataset, "eta": eta, "k": np.shape(T_te)[1] if kk is None else kk,
            "features": features}
    blank = {"scores": "", "targets": "", "reduce": ""}
    s_te, y_te = d.s[test], d.y[test]
    c2s = cov2_readings(rep, T_te, s_te.astype(float))
    rows, predictions = [], {}
    for name, est in ests.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = clone(est).fit(T_tr, d.y[train])
        pred = predictions[name] = model.predict(T_te)
        if d.task == "classification":
            vals = {
                "disparate_impact": metrics.disparate_impact(
                    y_te, pred, sensitive_features=s_te, privileged_group=1,
                    pos_label=d.pos_label),
                "accuracy": float(np.mean(pred == y_te)),
                "eopp": metrics.equal_opportunity_ratio(
                    y_te, pred, sensitive_features=s_te, privileged_group=1,
                    pos_label=d.pos_label),
            }
        else:
            vals = {"ks": metrics.ks_distance(pred, sensitive_features=s_te),
                    "mse": float(np.mean((pred - y_te) ** 2))}
        for metric, value in vals.items():
            rows.append({**base, "model": name, "metric": metric, **blank, "fold": fold,
                         "value": float(value)})
        c2y = cov2_readings(rep, T_te, np.asarray(pred, float))
        for metric, values in (("cov2_yhat", c2y), ("cov2_s", c2s)):
            for (sc, tg, rd), value in values.items():
                rows.append({**base, "model": name, "metric": metric, "scores": sc,
                             "targets": tg, "reduce": rd, "fold": fold, "value": value})
    return rows, Bunch(test=test, T_test=T_te, s_test=s_te, predictions=predictions)


def downstream_scores(data, etas=(0.0, 1.0, 2.0), *, n_folds=7, models=MODELS,
                              k=None, normalisation=None, random_state=0, progress=False):
    """Per-fold scores of De-Diego et al.'s Experiment B (Tables 4-5, Figs. 1 and 4).

    For every data set and η, a seeded ``n_folds``-fold cross-validation, one fold at a time
    (:func:`fold_scores`): ``FairPLS(k, eta=η)`` is fitted on the training folds, every model of
    :func:`downstream_models` is trained on the training representation r(X) and predicts the
    held-out fold, where we measure

    * classification: ``accuracy``, ``disparate_impact`` (DI = P(Ŷ = pos | S = 0) /
      P(Ŷ = pos | S = 1), S = 1 privileged, ``pos_label`` of Table 2), ``eopp`` (the ratio
      TPR_0 / TPR_1 of Fig. 4);  regression: ``ks`` (Kolmogorov–Smirnov distance between the
      groups' predictions) and ``mse``;
    * ``cov2_yhat`` = Cov²(r(X), Ŷ) and ``cov2_s`` = Cov²(r(X), S) on the held-out fold, under
      every ``scores`` × ``targets`` × ``reduce`` combination of :func:`normalisations`
      (columns of the same names; ``""`` for the other metrics); ``features`` of
      ``normalisation`` chooses whether S is appended to X.

    Plus, per (data set, η, model), on the pooled out-of-fold predictions (``fold = -1``):
    ``disparate_impact`` with its 95 % confidence interval ``disparate_impact_ci_low`` /
    ``_high`` (:func:`fairlab.metrics.disparate_impact_ci`, Besse et al. 2022).

    Logistic regression runs with scikit-learn's defaults (``max_iter=100``); its
    ``ConvergenceWarning`` is silenced here, as the paper's default models would have shown it.

    Parameters
    ----------
    data : dict of key -> Bunch
        From :func:`load_datasets`.
    etas : sequence of float, default=(0, 1, 2)
    n_folds : int, default=7
    models : sequence of str, default=("LR", "DT", "XGB")
    k : int or None
        ``None``: :func:`paper_k` (Table 3; η between the printed values takes the nearest).
    normalisation : dict, optional
        Only its ``features`` is used here (default ``"S not in X"``); the Cov² scaling is
        chosen later, by :func:`downstream_summary`.
    random_state : int, default=0
        Seed of the folds and of the tree models.
    progress : bool, default=False

    Returns
    -------
    DataFrame
        Columns ``dataset, eta, k, features, model, metric, scores, targets, reduce, fold,
        value``.
    """
    norm = check_normalisation(normalisation)
    n_folds = check_int(n_folds, "n_folds", minimum=2)
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict key -> Bunch, e.g. load_datasets()[0].")
    etas = [float(e) for e in etas]
    jobs = [(key, eta) for key in data for eta in etas]
    rows = []
    for key, eta in _progress(jobs, progress, total=len(jobs), desc="folds"):
        d = data[key]
        width = d.X.shape[1] + (norm["features"] == "S in X")
        kk = paper_k(key, eta, width) if k is None else min(int(k), width)
        pooled = {}
        for f in range(n_folds):
            fold_rows, part = fold_scores(d, registry.build(_METHOD, kk, eta=eta), fold=f,
                                          n_folds=n_folds, models=models,
                                          features=norm["features"],
                                          random_state=random_state, eta=eta)
            rows += fold_rows
            for name, pred in part.predictions.items():
                pooled.setdefault(name, np.empty(len(d.y), dtype=float))[part.test] = pred
        if d.task == "classification":
            base = {"dataset": d.dataset, "eta": eta, "k": kk, "features": norm["features"],
                    "scores": "", "targets": "", "reduce": "", "fold": -1}
            for name, pred in pooled.items():
                di, lo, hi = metrics.disparate_impact_ci(
                    d.y, pred.astype(d.y.dtype), sensitive_features=d.s, privileged_group=1,
                    pos_label=d.pos_label)
                for metric, value in (("disparate_impact", di), ("disparate_impact_ci_low", lo),
                                      ("disparate_impact_ci_high", hi)):
                    rows.append({**base, "model": name, "metric": metric,
                                 "value": float(value)})
    columns = ["dataset", "eta", "k", "features", "model", "metric", "scores", "targets",
               "reduce", "fold", "value"]
    return pd.DataFrame(rows, columns=columns)


def downstream_rows(scores, normalisation=None):
    """The per-fold rows of :func:`downstream_scores` that Tables 4-5 read under one hypothesis:
    every metric of the folds (``fold >= 0``), the Cov² columns under the ``scores``,
    ``targets`` and ``reduce`` of ``normalisation`` (missing keys from
    :data:`DEFAULT_NORMALISATION`)."""
    norm = check_normalisation(normalisation)
    cov = scores["metric"].isin(("cov2_yhat", "cov2_s"))
    chosen = ((scores["scores"] == norm["scores"]) & (scores["targets"] == norm["targets"])
              & (scores["reduce"] == norm["reduce"]))
    return scores[(~cov | chosen) & (scores["fold"] >= 0)]


def downstream_summary(scores, normalisation=None, *, ddof=0):
    """Mean and std over the folds of :func:`downstream_scores` (Tables 4-5).

    Per-fold metrics are averaged over the folds (``fold >= 0``), the Cov² columns under the
    ``scores``, ``targets`` and ``reduce`` of ``normalisation`` (default
    :data:`DEFAULT_NORMALISATION`); the pooled disparate impact and its interval
    (``fold = -1``) are renamed ``disparate_impact_pooled``, ``disparate_impact_ci_low``,
    ``disparate_impact_ci_high`` and kept as they are (std NaN).

    Returns
    -------
    DataFrame with columns ``dataset, eta, k, model, metric, mean, std, n_folds``.
    """
    keys = ["dataset", "eta", "k", "model", "metric"]
    out = (downstream_rows(scores, normalisation).groupby(keys, sort=False)["value"]
           .agg(mean="mean", std=lambda v: float(np.std(v, ddof=ddof)), n_folds="size")
           .reset_index())
    pooled = scores[scores["fold"] < 0].copy()
    pooled["metric"] = pooled["metric"].replace({"disparate_impact": "disparate_impact_pooled"})
    pooled = pooled.assign(mean=pooled["value"], std=np.nan, n_folds=0)[[*keys, "mean", "std",
                                                                         "n_folds"]]
    return pd.concat([out, pooled], ignore_index=True)
