"""De-Diego et al. (2025) §4: Fair PLS on six real data sets (Tables 1–5, Figs. 5–7).
"""

import contextlib
import itertools
import warnings
from numbers import Real

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import Bunch

from .. import datasets, metrics, published
from .._core.validation import check_int
from ..evaluation._util import _dataset_key as _util_dataset_key
from ..evaluation._util import _progress
from ..evaluation.splits import repeated_splits
from ..pca import FairPCA
from ..plotting import COLUMN_WIDTH, PAPER_LABEL, figure_legend, panel_grid
from ..pls import FairPLS

#: Data set keys of De-Diego et al. -> the names printed in its tables.
DATASETS = {
    "adult": "Adult Income", "german": "German Credit", "lawschool": "Law School",
    "diabetes": "Diabetes", "compas": "COMPAS", "communities": "Communities and Crimes",
}


#: The downstream models of Tables 4-5 (classification / regression), in the printed order.
MODELS = ("LR", "DT", "XGB")


#: The options of each part of a Cov² normalisation hypothesis (:func:`normalisations`).
NORMALISATION_OPTIONS = {
    "features": ("S not in X", "S in X"),
    "rows": ("test", "train"),
    "scores": ("raw", "unit"),
    "targets": ("raw", "standardized", "one-hot"),
    "reduce": ("sum", "mean"),
}


#: The hypothesis used for the Cov² columns of Tables 4-5 unless another is passed.
DEFAULT_NORMALISATION = {"features": "S not in X", "rows": "test", "scores": "raw",
                                 "targets": "raw", "reduce": "sum"}


_COV2_METRICS = ("cov2_y", "cov2_s")


@contextlib.contextmanager
def counting_early_stops():
    """Collect Fair PLS's early stops (only rounding-level directions left) instead of warnings.

    Yields a list that holds, after the block, one warning per fit that stopped early (see
    :class:`fairlab.FairPLS`); every other warning is issued as usual.  At De-Diego et al.'s k,
    close to d, such stops are expected, and a chapter prints their number.
    """
    stops = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        yield stops
    for w in caught:
        if "no direction has a positive objective" in str(w.message):
            stops.append(w)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _dataset_key(dataset):
    return _util_dataset_key(dataset, DATASETS)


def load_data(dataset, *, max_rows=None, random_state=0, data_home=None):
    """One data set of De-Diego et al. as numpy arrays, optionally subsampled.

    ``load_<dataset>(variant="pls")`` (the sensitive attribute and privileged group of Table 2;
    see each loader's ``DESCR`` for how its features differ from the paper's unpublished
    encoding).  Law School is external: it is read from ``data_home`` or ``$FAIRLAB_DATA`` and
    never downloaded here, so without a copy a :class:`FileNotFoundError` says where to put it.

    Parameters
    ----------
    dataset : str
        A key of :data:`DATASETS` or its printed name.
    max_rows : int or None, default=None
        Keep a seeded random subsample of at most this many rows (``None``: all rows).
    random_state : int, default=0
        Seed of the subsample.
    data_home : path, optional

    Returns
    -------
    Bunch
        ``X`` (float, n × d), ``y`` (0/1 ints or floats), ``s`` (0/1, 1 = privileged),
        ``feature_names``, ``task`` (``"classification"`` or ``"regression"``), ``pos_label``,
        ``key``, ``dataset`` (printed name), ``n_rows`` (before subsampling).
    """
    key = _dataset_key(dataset)
    max_rows = check_int(max_rows, "max_rows", minimum=10, allow_none=True)
    loader = getattr(datasets, f"load_{key}")
    data = loader(variant="pls", data_home=data_home, download_if_missing=False)
    X, y, s = data.X.to_numpy(float), data.y.to_numpy(), data.sensitive.to_numpy().astype(int)
    n = len(y)
    if max_rows is not None and n > max_rows:
        rows = np.sort(np.random.default_rng(random_state).choice(n, max_rows, replace=False))
        X, y, s = X[rows], y[rows], s[rows]
    task = "regression" if data.pos_label is None else "classification"
    return Bunch(X=X, y=y, s=s, feature_names=list(data.feature_names), task=task,
                 pos_label=data.pos_label, key=key, dataset=DATASETS[key], n_rows=n)


def load_datasets(datasets=None, *, max_rows=None, random_state=0, data_home=None):
    """:func:`load_data` for several data sets, with the reason for each one that is absent.

    Returns
    -------
    (dict, dict)
        ``key -> Bunch`` of the data sets found and ``key -> reason`` of those that are not (Law
        School without a local copy): the first line of the loader's error, without the
        machine-specific list of folders searched, and where to put the file.
    """
    keys = list(DATASETS) if datasets is None else [_dataset_key(d) for d in datasets]
    found, skipped = {}, {}
    for key in keys:
        try:
            found[key] = load_data(key, max_rows=max_rows, random_state=random_state,
                                      data_home=data_home)
        except FileNotFoundError as err:
            first = str(err).splitlines()[0].removesuffix(":").removesuffix("; searched")
            skipped[key] = f"{first} (put it under $FAIRLAB_DATA or pass data_home)"
    return found, skipped


def table2(data):
    """Table 2 of De-Diego et al.: the bias of each data set's labels, with its interval.

    Classification: the disparate impact of the labels between the groups (S = 1 privileged,
    ``pos_label`` favourable) with its 95 % interval (:func:`fairlab.metrics.disparate_impact_ci`);
    regression (Communities): the Kolmogorov–Smirnov distance of the target between the groups
    (:func:`fairlab.metrics.ks_distance`; the paper prints no interval for it).  The loaders'
    ``"pls"`` variants were built so that these values match the paper (the label and group
    definitions it does not state were chosen that way), so agreement here is calibration, not
    independent evidence.

    Parameters
    ----------
    data : dict of key -> Bunch
        From :func:`load_datasets`, with every row (``max_rows=None``).

    Returns
    -------
    DataFrame
        ``dataset, metric, mean`` (``disparate_impact``, ``disparate_impact_ci_low``,
        ``disparate_impact_ci_high``, or ``ks``), ready for :func:`compare` with ``"table2"``.
    """
    rows = []
    for d in data.values():
        if d.task == "regression":
            rows.append({"dataset": d.dataset, "metric": "ks",
                         "mean": metrics.ks_distance(d.y, sensitive_features=d.s)})
            continue
        values = metrics.disparate_impact_ci(None, d.y, sensitive_features=d.s,
                                             privileged_group=1, pos_label=d.pos_label)
        rows += [{"dataset": d.dataset, "metric": f"disparate_impact{suffix}", "mean": value}
                 for suffix, value in zip(("", "_ci_low", "_ci_high"), values)]
    return pd.DataFrame(rows, columns=["dataset", "metric", "mean"])


def paper_k(dataset, eta, n_features=None):
    """The number of components of De-Diego et al. Table 3 for a data set and η.

    Table 3 prints k for η = 0, 1 and 2 only; any other η takes the k of the nearest printed
    η (ties to the larger), so η = 10 uses k(η = 2).  With ``n_features`` the value is clipped
    to it (our encodings can have fewer features than the paper's d, e.g. Diabetes: 18 < 20).
    """
    key = _dataset_key(dataset)
    if not isinstance(eta, Real) or not eta >= 0:
        raise ValueError(f"eta must be a number >= 0; got {eta!r}.")
    t3 = published.table("dediego2025", "table3")
    t3 = t3[(t3["dataset"] == DATASETS[key]) & (t3["metric"] == "best_k")]
    printed = t3["eta"].to_numpy(float)
    best = printed[np.argmin(np.abs(printed - eta) - 1e-9 * printed)]
    k = int(t3.loc[t3["eta"] == best, "mean"].iloc[0])
    return min(k, int(n_features)) if n_features is not None else k


def cv_k(data, etas=(0.0, 1.0, 2.0), *, n_folds=5, random_state=0):
    """k chosen as the paper says (§4): by cross-validation of the Fair PLS objective.

    "As target dimension we chose k ∈ [d] with the classical cross validation procedure, where
    the objective is to find the best trade off of Cov²(r(X), Y) − η Cov²(r(X), S)."  For each
    data set and η: ``n_folds`` seeded folds; on each, ``FairPLS(d, eta=η)`` is fitted on the
    other folds (its components are sequential, so its first k are ``FairPLS(k)``'s) and the
    held-out objective of the first k components, Σ_{a ≤ k} [Cov²(t_a, Y) − η Cov²(t_a, S)]
    (the literal 0/1 reading; the one-hot reading doubles both terms and picks the same k), is
    averaged over the folds; k is its first maximiser.  The paper does not say how many folds;
    5 is the number of its Fig. 5.

    Returns
    -------
    DataFrame
        ``dataset, eta, d, k_cv, k_table3`` (Table 3's k, :func:`paper_k`, unclipped).
    """
    n_folds = check_int(n_folds, "n_folds", minimum=2)
    rows = []
    for key, d in data.items():
        y, s = d.y.astype(float), d.s.astype(float)
        folds = _folds(len(y), n_folds, random_state)
        for eta in (float(e) for e in etas):
            objective = np.zeros(d.X.shape[1])
            for test in folds:
                train = np.setdiff1d(np.arange(len(y)), test)
                with counting_early_stops():  # components past the rounding level are zero
                    model = FairPLS(d.X.shape[1], eta=eta).fit(
                        d.X[train], y[train], sensitive_features=d.s[train])
                T = model.transform(d.X[test])
                gain = [metrics.cov2(T[:, a], y[test], sensitive_type="continuous")
                        - eta * metrics.cov2(T[:, a], s[test], sensitive_type="continuous")
                        for a in range(T.shape[1])]
                objective += np.cumsum(gain) / n_folds
            rows.append({"dataset": d.dataset, "eta": eta, "d": d.X.shape[1],
                         "k_cv": int(np.argmax(objective)) + 1, "k_table3": paper_k(key, eta)})
    return pd.DataFrame(rows)


def normalisations():
    """Every Cov² normalisation hypothesis of the chapter, one row each.

    The product of :data:`NORMALISATION_OPTIONS`: ``features`` (the sensitive attribute
    left out of X, as our loaders do, or appended to X as one more standardised column),
    ``rows`` (Cov² on the test or the training rows), ``scores`` (the scores ``r(X)`` as
    ``FairPLS.transform`` returns them — standardised X times unit weight vectors — or each
    component scaled to unit variance), ``targets`` (Y and S as loaded, 0/1 or the [0, 1]
    regression target; standardised; or a binary one as its two indicator columns, as PLS
    for classification takes a one-hot Y, which doubles Cov² — a continuous one stays as
    loaded) and ``reduce`` (sum or mean over components), i.e.
    ``fairlab.metrics.cov2(r, v, standardize=..., reduce=...)`` (:func:`_cov2`).
    """
    opts = NORMALISATION_OPTIONS
    return pd.DataFrame(list(itertools.product(*opts.values())), columns=list(opts))


def _cov2(T, v, scores, targets, reduce):
    """Cov²(T, v) under one reading of :func:`normalisations`.

    ``targets="one-hot"``: a binary v becomes its two indicator columns 1[v = a], 1[v = b] and
    the value is the sum of their Cov² — 2·Cov²(T, v), since the centred indicators are ±ṽ.
    """
    v = np.asarray(v, float)
    unit = scores == "unit"
    values = np.unique(v)
    if targets == "one-hot" and len(values) == 2:
        return sum(metrics.cov2(T, (v == value).astype(float), sensitive_type="continuous",
                                standardize="scores" if unit else False, reduce=reduce)
                   for value in values)
    std = targets == "standardized"
    flag = True if unit and std else ("scores" if unit else ("sensitive" if std else False))
    return metrics.cov2(T, v, sensitive_type="continuous", standardize=flag, reduce=reduce)


def representation_scores(data, etas=(0.0, 1.0, 2.0, 10.0), *, n_splits=3,
                                  test_size=0.3, k=None, features=("S not in X", "S in X"),
                                  random_state=0, progress=False):
    """Per-split scores of De-Diego et al.'s Experiment A (Table 1, Figs. 2-3), in long format.

    For every data set, η and split: a seeded random split (``test_size`` of the rows for
    testing; the paper says "3 random splits" and nothing more), ``FairPLS(k, eta=η)`` fitted
    on the training rows (X, Y and S standardised with the training statistics, as
    ``FairPLS(scale=True)`` does; the paper: "zero mean and unit variance"), then on the
    training and on the test rows

    * ``cov2_y`` = Cov²(r(X), Y) and ``cov2_s`` = Cov²(r(X), S) under every combination of
      ``scores`` × ``targets`` × ``reduce`` of :func:`normalisations`;
    * ``reconstruction_error`` = ‖X̃ − X̃P‖²_F / ‖X̃‖²_F with P the orthogonal projector onto
      the span of the weight vectors (``error="projection"``) and ‖X̃ − TPᵀ‖²_F / ‖X̃‖²_F with
      the PLS loadings (``error="loadings"``), X̃ the standardised X, and ‖X̃ − TWᵀ‖²_F /
      ‖X̃‖²_F with the weight vectors W (``error="weights"``; not a projection: TWᵀ = X̃RWᵀ with
      the rotations R).  The paper's Error = tr((X − r(X))ᵀ(X − r(X))) is below 1 and so must
      be normalised; it does not say how, nor how r(X), n × k, is compared with X, n × d.  The
      first two are 0 when k = d, where the paper prints COMPAS 0.0953 (k = d = 6).

    Parameters
    ----------
    data : dict of key -> Bunch
        From :func:`load_datasets`.
    etas : sequence of float, default=(0, 1, 2, 10)
    n_splits : int, default=3
    test_size : float in (0, 1), default=0.3
    k : int or None
        ``None``: :func:`paper_k` of each data set and η (Table 3), clipped to d.
    features : sequence of {"S not in X", "S in X"}
        Preprocessing variants to fit.
    random_state : int, default=0
        Split i of every data set uses seed ``random_state + i``.
    progress : bool, default=False

    Returns
    -------
    DataFrame
        Columns ``dataset, eta, k, features, rows, scores, targets, reduce, error, metric,
        split, value`` (``""`` where a column does not apply).
    """
    bad = [f for f in features if f not in NORMALISATION_OPTIONS["features"]]
    if bad or not features:
        raise ValueError(f"features must be among {NORMALISATION_OPTIONS['features']}; "
                         f"got {features!r}.")
    n_splits = check_int(n_splits, "n_splits")
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict key -> Bunch, e.g. load_datasets()[0].")
    etas = [float(e) for e in etas]
    jobs = [(key, f, i) for key in data for f in features for i in range(n_splits)]
    combos = [(sc, tg, rd) for sc in NORMALISATION_OPTIONS["scores"]
              for tg in NORMALISATION_OPTIONS["targets"]
              for rd in NORMALISATION_OPTIONS["reduce"]]
    rows = []
    for key, feat, i in _progress(jobs, progress, total=len(jobs), desc="splits"):
        d = data[key]
        X = np.column_stack([d.X, d.s.astype(float)]) if feat == "S in X" else d.X
        split = next(repeated_splits(X, d.y, d.s, n_splits=1, train_size=1 - test_size,
                                     random_state=random_state + i))
        y_tr, y_te = split.y_train.astype(float), split.y_test.astype(float)
        for eta in etas:
            kk = paper_k(key, eta, X.shape[1]) if k is None else min(int(k), X.shape[1])
            model = FairPLS(kk, eta=eta).fit(split.X_train, y_tr, sensitive_features=split.s_train)
            base = {"dataset": d.dataset, "eta": eta, "k": kk, "features": feat, "split": i}
            for part, Xp, yp, sp in (("test", split.X_test, y_te, split.s_test),
                                     ("train", split.X_train, y_tr, split.s_train)):
                T = model.transform(Xp)
                sv = sp.astype(float)
                for sc, tg, rd in combos:
                    for metric, v in (("cov2_y", yp), ("cov2_s", sv)):
                        val = _cov2(T, v, sc, tg, rd)
                        rows.append({**base, "rows": part, "scores": sc, "targets": tg,
                                     "reduce": rd, "error": "", "metric": metric, "value": val})
                Xs = (Xp - model.x_mean_) / model.x_std_
                total = float(np.sum(Xs**2))
                errs = {"projection": metrics.reconstruction_error(Xs, model.x_weights_.T,
                                                                   normalize=True),
                        "loadings": float(np.sum((Xs - T @ model.x_loadings_.T) ** 2)) / total,
                        "weights": float(np.sum((Xs - T @ model.x_weights_.T) ** 2)) / total}
                for name, val in errs.items():
                    rows.append({**base, "rows": part, "scores": "", "targets": "", "reduce": "",
                                 "error": name, "metric": "reconstruction_error", "value": val})
    columns = ["dataset", "eta", "k", "features", "rows", "scores", "targets", "reduce", "error",
               "metric", "split", "value"]
    return pd.DataFrame(rows, columns=columns)


def table1(scores, normalisation=None, *, error="projection", ddof=0):
    """Table 1 of De-Diego et al. from :func:`representation_scores`, for one hypothesis.

    Parameters
    ----------
    scores : DataFrame
    normalisation : dict, optional
        Values for ``features, rows, scores, targets, reduce`` (missing keys from
        :data:`DEFAULT_NORMALISATION`).
    error : {"projection", "loadings", "weights"}, default="projection"
        The reconstruction error to report (its ``features`` and ``rows`` follow
        ``normalisation``).
    ddof : int, default=0
        Of the std over splits (the paper does not say; 0 is ``np.std``'s default).

    Returns
    -------
    DataFrame
        ``dataset, eta, k, metric, mean, std, n_splits``, ready for :func:`compare`.
    """
    norm = _normalisation(normalisation)
    if error not in ("projection", "loadings", "weights"):
        raise ValueError(f"error must be 'projection', 'loadings' or 'weights'; got {error!r}.")
    base = (scores["features"] == norm["features"]) & (scores["rows"] == norm["rows"])
    cov = base & (scores["scores"] == norm["scores"]) & (scores["targets"] == norm["targets"]) \
        & (scores["reduce"] == norm["reduce"]) & scores["metric"].isin(_COV2_METRICS)
    err = base & (scores["metric"] == "reconstruction_error") & (scores["error"] == error)
    df = scores[cov | err]
    out = (df.groupby(["dataset", "eta", "k", "metric"], sort=False)["value"]
           .agg(mean="mean", std=lambda v: float(np.std(v, ddof=ddof)) if len(v) > ddof
                else np.nan, n_splits="size").reset_index())
    return out


def _normalisation(normalisation):
    norm = dict(DEFAULT_NORMALISATION)
    if normalisation is not None:
        if not isinstance(normalisation, dict):
            raise TypeError(f"normalisation must be a dict; got {type(normalisation).__name__}.")
        unknown = set(normalisation) - set(NORMALISATION_OPTIONS)
        if unknown:
            raise ValueError(f"normalisation has unknown key(s) {sorted(unknown)}; use "
                             f"{list(NORMALISATION_OPTIONS)}.")
        norm.update(normalisation)
    for key, value in norm.items():
        if value not in NORMALISATION_OPTIONS[key]:
            raise ValueError(f"normalisation[{key!r}] must be one of "
                             f"{NORMALISATION_OPTIONS[key]}; got {value!r}.")
    return norm


#: Decimals the paper rounds every cell to (it drops trailing zeros: ``0.29`` is 0.2900).
DECIMALS = 4


#: The printed column names of each metric of Tables 1, 4 and 5.
METRIC_LABELS = {"cov2_y": "Cov²(r(X), Y)", "cov2_s": "Cov²(r(X), S)",
                 "reconstruction_error": "Error", "disparate_impact": "DI",
                 "accuracy": "Accuracy", "cov2_yhat": "Cov²(r(X), Ŷ)", "ks": "KS", "mse": "MSE"}


def compare(ours, table="table1"):
    """Our numbers beside a printed table of De-Diego et al. (``fairlab.published.compare``).

    Only the printed cells of the data sets present in ``ours`` are kept; ``within`` is True
    when our mean is within the paper's std of the printed mean (or rounds to it), and
    ``status`` is :func:`fairlab.published.with_status`'s verdict at :data:`DECIMALS`;
    ``n_splits`` is the number of splits (Table 1) or folds (Tables 4-5) behind our mean.
    """
    pub = published.table("dediego2025", table)
    pub = pub[pub["dataset"].isin(set(ours["dataset"]))]
    cols = [c for c in ("dataset", "eta", "model", "metric", "mean", "std") if c in ours.columns]
    keep = set(zip(pub["dataset"], pub["metric"]))
    ours = ours[[(d, m) in keep for d, m in zip(ours["dataset"], ours["metric"])]]
    out = published.compare(ours[cols], pub, unmatched="report").reset_index(drop=True)
    out = published.with_status(out, decimals=lambda row: DECIMALS)
    count = "n_splits" if "n_splits" in ours.columns else "n_folds"
    if count in ours.columns:
        keys = [c for c in ("dataset", "eta", "model", "metric") if c in ours.columns]
        counts = ours[keys + [count]].rename(columns={count: "n_splits"})
        out = out.merge(counts.assign(eta=counts["eta"].astype(float)), how="left",
                        on=keys, validate="many_to_one")
    return out


def coverage(compared):
    """How many printed cells of each table we show, and how many are within the paper's std.

    Parameters
    ----------
    compared : dict of str -> DataFrame
        Table label -> its :func:`compare` result (every printed cell of the table, ours or not).

    Returns
    -------
    DataFrame
        One row per table and ``"all"``: ``printed`` cells, ``shown`` (with our number),
        ``within`` (the paper's std), ``equal`` (mean, or mean and std, at the printed decimals)
        and ``share within`` (of ``printed``).
    """
    rows = []
    for label, table in compared.items():
        rows.append({"table": label, "printed": len(table),
                     "shown": int(table["ours_mean"].notna().sum()),
                     "within": int(table["within"].fillna(False).astype(bool).sum()),
                     "equal": int(table["status"].isin(["equal", "mean equal"]).sum())})
    out = pd.DataFrame(rows).set_index("table")
    out.loc["all"] = out.sum()
    out["share within"] = (out["within"] / out["printed"]).round(2)
    return out


def side_by_side(compared, title=""):
    """:func:`compare` as a table: one row per η (and model), four columns per printed metric.

    Each metric shows the paper's cell, ours (mean ± std over the splits or folds), the
    difference and the mark of :data:`fairlab.published.STATUS_MARKS`.
    """
    rows = ["eta", "model"] if "model" in compared.columns and compared["model"].ne("").any() \
        else ["eta"]
    return published.side_by_side(compared, rows=rows, group=lambda r: METRIC_LABELS[r.metric],
                                  decimals=lambda r: DECIMALS, title=title)


def normalisation_fit(scores, *, ddof=0):
    """How well each Cov² normalisation hypothesis reproduces the printed Cov² cells.

    ``scores`` from :func:`representation_scores` is compared with Table 1 (columns
    Cov²(r(X), Y) and Cov²(r(X), S)); ``scores`` from :func:`downstream_scores` with
    Tables 4 and 5 (Cov²(r(X), Ŷ) and Cov²(r(X), S), on the held-out folds).  For every
    hypothesis of :func:`normalisations` present in ``scores``: how many printed Cov²
    cells (over the data sets, η and models in ``scores``) we reproduce within the paper's
    std (``within`` of :func:`compare`), their share, and the median ratio ours /
    paper per column.  The same hypothesis is applied to every data set — nothing is chosen
    per data set.

    Returns
    -------
    DataFrame
        One row per hypothesis, sorted by ``share_within`` (descending): the five hypothesis
        columns, ``cells``, ``within_<y metric>``, ``within_cov2_s``, ``share_within``,
        ``median_ratio_<y metric>``, ``median_ratio_cov2_s``, where the y metric is
        ``cov2_y`` (Table 1) or ``cov2_yhat`` (Tables 4-5).
    """
    downstream = "model" in scores.columns
    ymetric = "cov2_yhat" if downstream else "cov2_y"
    mets = (ymetric, "cov2_s")
    rows = []
    for hyp in normalisations().to_dict("records"):
        if downstream:
            if hyp["rows"] != "test" or not (scores["features"] == hyp["features"]).any():
                continue
            summ = downstream_summary(scores, hyp, ddof=ddof)
            present = set(summ["dataset"])
            tables = [t for t in ("table4", "table5")
                      if published.table("dediego2025", t)["dataset"].isin(present).any()]
            cmp = pd.concat([compare(summ, t) for t in tables], ignore_index=True)
        else:
            present = ((scores["features"] == hyp["features"])
                       & (scores["rows"] == hyp["rows"])).any()
            if not present:
                continue
            cmp = compare(table1(scores, hyp, ddof=ddof))
        cmp = cmp[cmp["metric"].isin(mets) & cmp["ours_mean"].notna()]
        ratio = cmp["ours_mean"] / cmp["paper_mean"].where(cmp["paper_mean"] > 0)
        row = {**hyp, "cells": len(cmp)}
        for m in mets:
            row[f"within_{m}"] = int(cmp.loc[cmp["metric"] == m, "within"].sum())
        row["share_within"] = float(cmp["within"].mean()) if len(cmp) else np.nan
        for m in mets:
            row[f"median_ratio_{m}"] = float(ratio[cmp["metric"] == m].median())
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.sort_values("share_within", ascending=False, kind="stable").reset_index(drop=True)


def reading_bound(scores_a, scores_b, *, ddof=0):
    """How many printed cells of Tables 1, 4 and 5 some reading of the paper puts within its std.

    A *reading* is one interpretation of Cov² (a row of :func:`normalisations` less its
    ``rows``: features, scores, targets, reduce).  Table 1 (Experiment A) may further be read
    on the test or the training rows and with any of the three reconstruction errors; Tables
    4 and 5 (Experiment B, one protocol) on the test rows.  For every printed cell: is it
    within the paper's std under the literal reading (:data:`DEFAULT_NORMALISATION`,
    ``error="projection"``), under the best reading, and under **at least one** reading?
    Only the ``features`` and ``rows`` that ``scores_a`` / ``scores_b`` hold are tried.
    Accuracy, DI, KS and MSE have one reading.

    Returns
    -------
    DataFrame
        One row per table, then three totals that differ in how many readings they allow:
        ``"all: one reading"`` (the same reading for the three tables),
        ``"all: one per experiment"`` (Table 1 its own; Tables 4 and 5 one together) and
        ``"all: one per table"``.  Columns: ``printed`` cells, ``literal`` (within under the
        literal reading), ``best single`` (the most cells the allowed readings put within; per
        table, the best reading of that table), ``some reading`` (within under at least one
        reading, chosen cell by cell) and the shares of ``printed`` of the last two.
    """
    def reading(hyp):
        return str(sorted((k, v) for k, v in hyp.items() if k != "rows"))

    def cells(compared, hyp, variant, table):
        c = compared[compared["ours_mean"].notna()]
        keys = [k for k in ("dataset", "eta", "model", "metric") if k in c.columns]
        return c.assign(cell=c[keys].astype(str).agg(" | ".join, axis=1),
                        within=c["within"].fillna(False).astype(bool), reading=reading(hyp),
                        variant=variant, table=table)

    frames = []
    present_a = set(zip(scores_a["features"], scores_a["rows"]))
    for hyp in normalisations().to_dict("records"):
        if (hyp["features"], hyp["rows"]) not in present_a:
            continue
        for error in ("projection", "loadings", "weights"):
            frames.append(cells(compare(table1(scores_a, hyp, error=error, ddof=ddof)), hyp,
                                f"{hyp['rows']} rows, {error} error", "table1"))
    for hyp in normalisations().to_dict("records"):
        if hyp["rows"] != "test" or not (scores_b["features"] == hyp["features"]).any():
            continue
        summary = downstream_summary(scores_b, hyp, ddof=ddof)
        summary = summary[summary["eta"].isin([0.0, 1.0, 2.0])]
        for table in ("table4", "table5"):
            if published.table(PAPER, table)["dataset"].isin(set(summary["dataset"])).any():
                frames.append(cells(compare(summary, table), hyp, "test rows", table))
    everything = pd.concat(frames, ignore_index=True)
    is_literal = (everything["reading"] == reading(DEFAULT_NORMALISATION)) & everything[
        "variant"].isin(["test rows, projection error", "test rows"])
    # cells within per (table, reading), the best variant of each reading
    per_reading = (everything.groupby(["table", "reading", "variant"], sort=False)["within"].sum()
                   .groupby(level=["table", "reading"], sort=False).max().unstack("table"))
    out = []
    for table, part in everything.groupby("table", sort=False):
        out.append({"table": table, "printed": len(published.table(PAPER, table)),
                    "literal": int(part.loc[is_literal[part.index], "within"].sum()),
                    "best single": int(per_reading[table].max()),
                    "some reading": int(part.groupby("cell")["within"].any().sum())})
    out = pd.DataFrame(out).set_index("table")
    tables = list(out.index)
    experiment_b = [t for t in tables if t != "table1"]
    totals = out.sum()
    best = {"all: one reading": per_reading[tables].dropna().sum(axis=1).max(),
            "all: one per experiment": (per_reading["table1"].max() if "table1" in tables else 0)
            + (per_reading[experiment_b].dropna().sum(axis=1).max() if experiment_b else 0),
            "all: one per table": totals["best single"]}
    for label, value in best.items():
        out.loc[label] = {**totals, "best single": int(value)}
    for column in ("best single", "some reading"):
        out[f"share ({column})"] = (out[column] / out["printed"]).round(2)
    return out


def spread_hypotheses(scores_a, scores_b, *, floor=0.005):
    """What the ± of Table 1's Cov² columns could be: each hypothesis's relative spread.

    Table 1 prints every Cov² with a std of about half its mean.  For each hypothesis of what
    the ± measures, computed on our scores under the literal reading
    (:data:`DEFAULT_NORMALISATION`), the std / mean of every cell whose mean exceeds ``floor``:

    * ``splits (ddof=0)`` / ``splits (ddof=1)``: the std over Experiment A's splits (test rows);
    * ``splits × train/test rows``: over the splits' training and test rows together;
    * ``folds (Cov²(r(X), S))``: over Experiment B's folds, the held-out Cov²(r(X), S) of the
      same data set and η (Table 4's column, whose printed spread looks like fold noise).

    The first row is the paper's own: Table 1's printed std / mean.  ``contains`` says whether
    the paper's range of std / mean contains the hypothesis's median.

    Returns
    -------
    DataFrame
        ``spread, cells, median, min, max, contains`` (std / mean), one row per hypothesis.
    """
    literal = DEFAULT_NORMALISATION
    a = scores_a[(scores_a["features"] == literal["features"])
                 & (scores_a["scores"] == literal["scores"])
                 & (scores_a["targets"] == literal["targets"])
                 & (scores_a["reduce"] == literal["reduce"])
                 & scores_a["metric"].isin(_COV2_METRICS)]
    b = scores_b[(scores_b["features"] == literal["features"]) & (scores_b["fold"] >= 0)
                 & (scores_b["scores"] == literal["scores"])
                 & (scores_b["targets"] == literal["targets"])
                 & (scores_b["reduce"] == literal["reduce"]) & (scores_b["metric"] == "cov2_s")]
    b = b.drop_duplicates(["dataset", "eta", "fold"])  # Cov²(r(X), S) is the same for every model
    printed = published.table(PAPER, "table1")
    printed = printed[printed["metric"].isin(_COV2_METRICS)]
    keys = ["dataset", "eta", "metric"]

    def ratios(frame, ddof):
        g = frame.groupby(keys, sort=False)["value"]
        mean = g.mean()
        return (g.std(ddof=ddof) / mean)[mean > floor]

    candidates = {
        "printed (Table 1)": (printed["std"] / printed["mean"])[printed["mean"] > floor],
        "splits (ddof=0)": ratios(a[a["rows"] == "test"], 0),
        "splits (ddof=1)": ratios(a[a["rows"] == "test"], 1),
        "splits × train/test rows": ratios(a, 0),
        "folds (Cov²(r(X), S))": ratios(b, 0),
    }
    low, high = candidates["printed (Table 1)"].min(), candidates["printed (Table 1)"].max()
    rows = [{"spread": name, "cells": len(r), "median": float(r.median()), "min": float(r.min()),
             "max": float(r.max()), "contains": bool(low <= r.median() <= high)}
            for name, r in candidates.items()]
    return pd.DataFrame(rows)


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


def _folds(n, n_folds, random_state):
    perm = np.random.default_rng(random_state).permutation(n)
    return np.array_split(perm, n_folds)


def downstream_scores(data, etas=(0.0, 1.0, 2.0), *, n_folds=7, models=MODELS,
                              k=None, normalisation=None, random_state=0, progress=False):
    """Per-fold scores of De-Diego et al.'s Experiment B (Tables 4-5, Figs. 1 and 4).

    For every data set and η, a seeded ``n_folds``-fold cross-validation: ``FairPLS(k, eta=η)``
    is fitted on the training folds, every model of :func:`downstream_models` is trained on the
    training representation r(X) and predicts the held-out fold, where we measure

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
    norm = _normalisation(normalisation)
    combos = [(sc, tg, rd) for sc in NORMALISATION_OPTIONS["scores"]
              for tg in NORMALISATION_OPTIONS["targets"]
              for rd in NORMALISATION_OPTIONS["reduce"]]

    def cov2_all(T, v):
        return {c: _cov2(T, v, *c) for c in combos}

    n_folds = check_int(n_folds, "n_folds", minimum=2)
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict key -> Bunch, e.g. load_datasets()[0].")
    etas = [float(e) for e in etas]
    jobs = [(key, eta) for key in data for eta in etas]
    rows = []
    for key, eta in _progress(jobs, progress, total=len(jobs), desc="folds"):
        d = data[key]
        X = np.column_stack([d.X, d.s.astype(float)]) if norm["features"] == "S in X" else d.X
        ests = downstream_models(d.task, models, random_state=random_state)
        kk = paper_k(key, eta, X.shape[1]) if k is None else min(int(k), X.shape[1])
        pooled = {name: np.empty(len(d.y), dtype=float) for name in ests}
        base = {"dataset": d.dataset, "eta": eta, "k": kk, "features": norm["features"]}
        blank = {"scores": "", "targets": "", "reduce": ""}
        for f, test in enumerate(_folds(len(d.y), n_folds, random_state)):
            train = np.setdiff1d(np.arange(len(d.y)), test)
            rep = FairPLS(kk, eta=eta).fit(X[train], d.y[train].astype(float),
                                           sensitive_features=d.s[train])
            T_tr, T_te = rep.transform(X[train]), rep.transform(X[test])
            s_te = d.s[test]
            c2s = cov2_all(T_te, s_te.astype(float))
            for name, est in ests.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model = clone(est).fit(T_tr, d.y[train])
                pred = model.predict(T_te)
                pooled[name][test] = pred
                if d.task == "classification":
                    y_te = d.y[test]
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
                            "mse": float(np.mean((pred - d.y[test]) ** 2))}
                for metric, value in vals.items():
                    rows.append({**base, "model": name, "metric": metric, **blank, "fold": f,
                                 "value": float(value)})
                for metric, values in (("cov2_yhat", cov2_all(T_te, np.asarray(pred, float))),
                                       ("cov2_s", c2s)):
                    for (sc, tg, rd), value in values.items():
                        rows.append({**base, "model": name, "metric": metric, "scores": sc,
                                     "targets": tg, "reduce": rd, "fold": f, "value": value})
        if d.task == "classification":
            for name, pred in pooled.items():
                di, lo, hi = metrics.disparate_impact_ci(
                    d.y, pred.astype(d.y.dtype), sensitive_features=d.s, privileged_group=1,
                    pos_label=d.pos_label)
                for metric, value in (("disparate_impact", di), ("disparate_impact_ci_low", lo),
                                      ("disparate_impact_ci_high", hi)):
                    rows.append({**base, "model": name, "metric": metric, **blank, "fold": -1,
                                 "value": float(value)})
    columns = ["dataset", "eta", "k", "features", "model", "metric", "scores", "targets",
               "reduce", "fold", "value"]
    return pd.DataFrame(rows, columns=columns)


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
    norm = _normalisation(normalisation)
    keys = ["dataset", "eta", "k", "model", "metric"]
    cov = scores["metric"].isin(("cov2_yhat", "cov2_s"))
    chosen = ((scores["scores"] == norm["scores"]) & (scores["targets"] == norm["targets"])
              & (scores["reduce"] == norm["reduce"]))
    scores = scores[~cov | chosen]
    per_fold = scores[scores["fold"] >= 0]
    out = (per_fold.groupby(keys, sort=False)["value"]
           .agg(mean="mean", std=lambda v: float(np.std(v, ddof=ddof)), n_folds="size")
           .reset_index())
    pooled = scores[scores["fold"] < 0].copy()
    pooled["metric"] = pooled["metric"].replace({"disparate_impact": "disparate_impact_pooled"})
    pooled = pooled.assign(mean=pooled["value"], std=np.nan, n_folds=0)[[*keys, "mean", "std",
                                                                         "n_folds"]]
    return pd.concat([out, pooled], ignore_index=True)


def _paper_rows(published, dataset, metrics):
    """The printed rows of ``dataset`` and ``metrics`` in a :mod:`fairlab.published` table."""
    if published is None:
        return None
    missing = [c for c in ("dataset", "eta", "metric", "mean") if c not in published.columns]
    if missing:
        raise ValueError(f"published must be a table of fairlab.published (columns dataset, "
                         f"eta, metric, mean); it lacks {missing}.")
    return published[(published["dataset"] == dataset) & published["metric"].isin(metrics)]


def plot_representation(table1, metric="cov2", *, published=None, axes=None):
    """Figs. 2-3 of De-Diego et al.: Cov² (or the reconstruction error) against η, per data set.

    Parameters
    ----------
    table1 : DataFrame
        :func:`table1` output (``dataset, eta, metric, mean, std``).
    metric : {"cov2", "reconstruction_error"}, default="cov2"
        ``"cov2"``: Fig. 2, Cov²(r(X), Y) (blue) and Cov²(r(X), S) (orange), mean ± std over
        the splits; ``"reconstruction_error"``: Fig. 3.
    published : DataFrame, optional
        The paper's Table 1 (``fairlab.published.table("dediego2025", "table1")``), the
        numbers behind its Figs. 2-3: drawn hollow beside ours, in the same colour
        (:data:`fairlab.plotting.PAPER_LABEL`).
    axes : sequence of matplotlib Axes, optional
        One per data set; default a new :func:`fairlab.plotting.panel_grid` of two panels
        per row (legible on a phone), with one legend below them.

    Returns
    -------
    matplotlib Figure
    """
    if metric not in ("cov2", "reconstruction_error"):
        raise ValueError(f"metric must be 'cov2' or 'reconstruction_error'; got {metric!r}.")
    names = list(dict.fromkeys(table1["dataset"]))
    if not names:
        raise ValueError("table1 is empty; run de_diego.table1 on some scores first.")
    if axes is None:
        _, axes = panel_grid(len(names), ncols=2, panel_height=2.3)
    axes = np.ravel(axes)
    fig = axes[0].figure
    lines = ({"cov2_y": ("Cov²(r(X), Y)", "C0", "o"), "cov2_s": ("Cov²(r(X), S)", "C1", "s")}
             if metric == "cov2" else {"reconstruction_error": ("Error(X, r(X))", "C2", "o")})
    for ax, name in zip(axes, names):
        sub = table1[table1["dataset"] == name]
        paper = _paper_rows(published, name, list(lines))
        for m, (label, colour, marker) in lines.items():
            part = sub[sub["metric"] == m].sort_values("eta")
            ax.errorbar(part["eta"], part["mean"], yerr=part["std"], marker=marker, capsize=3,
                        color=colour, label=label, markersize=5)
            if paper is not None and len(paper):
                printed = paper[paper["metric"] == m].sort_values("eta")
                ax.plot(printed["eta"], printed["mean"], linestyle="none", marker=marker,
                        markersize=8, markerfacecolor="white", markeredgecolor=colour,
                        markeredgewidth=1.5, zorder=4)
        if paper is not None and len(paper):
            ax.plot([], [], linestyle="none", marker="o", markerfacecolor="white",
                    markeredgecolor="0.35", label=PAPER_LABEL)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("η")
        ax.yaxis.set_major_locator(MaxNLocator(4))
    axes[0].set_ylabel("Cov²" if metric == "cov2" else "reconstruction error")
    figure_legend(fig, axes)
    return fig


def plot_tradeoff(summary, dataset, fairness="disparate_impact", *, published=None, ax=None):
    """Figs. 1 and 4 of De-Diego et al.: accuracy against DI (or EOpp), one point per η.

    Parameters
    ----------
    summary : DataFrame
        :func:`downstream_summary` output.
    dataset : str
        A printed data set name present in ``summary``.
    fairness : {"disparate_impact", "eopp"}, default="disparate_impact"
    published : DataFrame, optional
        The paper's Table 4 (``fairlab.published.table("dediego2025", "table4")``), which
        prints accuracy and DI at η = 0, 1, 2: drawn hollow beside ours, each model's marker
        edged in its η's colour (:data:`fairlab.plotting.PAPER_LABEL`).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    if fairness not in ("disparate_impact", "eopp"):
        raise ValueError(f"fairness must be 'disparate_impact' or 'eopp'; got {fairness!r}.")
    sub = summary[summary["dataset"] == dataset]
    if sub.empty:
        raise ValueError(f"dataset {dataset!r} is not in summary; it has "
                         f"{sorted(set(summary['dataset']))}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH / 2, 3.0), layout="constrained")
    wide = sub[sub["metric"].isin([fairness, "accuracy"])].pivot_table(
        index=["model", "eta"], columns="metric", values="mean").reset_index()
    paper = _paper_rows(published, dataset, [fairness, "accuracy"])
    if paper is not None and len(paper):
        paper = paper.pivot_table(index=["model", "eta"], columns="metric",
                                  values="mean").reset_index().dropna()
    norm = plt.Normalize(wide["eta"].min(), wide["eta"].max())
    markers = dict(zip(dict.fromkeys(wide["model"]), "osD^v"))
    for model, part in wide.groupby("model", sort=False):
        points = ax.scatter(part[fairness], part["accuracy"], c=part["eta"], cmap="viridis",
                            marker=markers[model], s=40, norm=norm, label=model)
    if paper is not None and len(paper) and fairness in paper.columns:
        for model, part in paper.groupby("model", sort=False):
            ax.scatter(part[fairness], part["accuracy"], marker=markers.get(model, "o"), s=70,
                       facecolors="white", edgecolors=plt.get_cmap("viridis")(norm(part["eta"])),
                       linewidths=1.5, zorder=4)
        ax.scatter([], [], marker="o", facecolors="white", edgecolors="0.35", label=PAPER_LABEL)
    ax.figure.colorbar(points, ax=ax, label="η")
    ax.set_xlabel("disparate impact (1 = parity)" if fairness == "disparate_impact"
                  else "EOpp = TPR₀ / TPR₁ (1 = parity)")
    ax.set_ylabel("accuracy (held-out folds)")
    ax.xaxis.set_major_locator(MaxNLocator(4))
    ax.yaxis.set_major_locator(MaxNLocator(4))
    ax.set_title(dataset, fontsize=10)
    ax.legend(title="model")
    return ax


def fig7(data, *, k=2, eta=1.0, n_folds=7, models=("LR", "DT"), random_state=0):
    """Fair PLS against Fair PCA as pre-processing (De-Diego et al. Fig. 7), per fold.

    Same folds as :func:`downstream_scores`; on each, ``FairPCA(k)`` (Kleindessner et
    al., fitted on the standardised training X with S) and ``FairPLS(k, eta=eta)`` give the
    representation, each model of :func:`downstream_models` is trained on it and scored on the
    held-out fold: ``accuracy`` and ``disparate_impact``.  The paper: "We have fixed k = 2 for
    both", and does not give η (its Table 4 has η ∈ {0, 1, 2}); ``eta=np.inf`` is Fair PLS with
    the hard constraint, as fair in the mean as Fair PCA.

    Returns
    -------
    DataFrame with columns ``method, eta, model, metric, fold, value``.
    """
    if data.task != "classification":
        raise ValueError("fig7 needs a classification data set (the paper: Adult).")
    ests = downstream_models("classification", models, random_state=random_state)
    rows = []
    for f, test in enumerate(_folds(len(data.y), n_folds, random_state)):
        train = np.setdiff1d(np.arange(len(data.y)), test)
        scaler = StandardScaler().fit(data.X[train])
        X_tr, X_te = scaler.transform(data.X[train]), scaler.transform(data.X[test])
        reps = {
            "Fair PCA": FairPCA(k).fit(X_tr, sensitive_features=data.s[train]),
            "Fair PLS": FairPLS(k, eta=eta).fit(X_tr, data.y[train].astype(float),
                                                sensitive_features=data.s[train]),
        }
        for method, rep in reps.items():
            T_tr, T_te = rep.transform(X_tr), rep.transform(X_te)
            for name, est in ests.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    pred = clone(est).fit(T_tr, data.y[train]).predict(T_te)
                vals = {"accuracy": float(np.mean(pred == data.y[test])),
                        "disparate_impact": metrics.disparate_impact(
                            data.y[test], pred, sensitive_features=data.s[test],
                            privileged_group=1, pos_label=data.pos_label)}
                for metric, value in vals.items():
                    rows.append({"method": method, "eta": eta if method == "Fair PLS" else np.nan,
                                 "model": name, "metric": metric, "fold": f, "value": value})
    return pd.DataFrame(rows, columns=["method", "eta", "model", "metric", "fold", "value"])



# --- work units (fairlab.experiments._ledger): Tables 1, 4 and 5 at paper scale ---
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
#: The columns of a score that name how it was computed (its Cov² or error reading).
_READING = ("features", "rows", "scores", "targets", "reduce", "error")


def _experiment_b_table(key):
    return "table5" if key == "communities" else "table4"


def units(datasets=None, tables=None):
    """The unit keys of Tables 1, 4 and 5: data set × table × η (narrowed by the arguments)."""
    keys = []
    for key in DATASETS if datasets is None else [_dataset_key(d) for d in datasets]:
        for table, etas in (("table1", ETAS_A), (_experiment_b_table(key), ETAS_B)):
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
