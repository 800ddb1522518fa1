"""De-Diego et al. (2025) §4, the data and the protocol: the six data sets, the choice of k and
the representation scores of Experiment A.
"""

import contextlib
import warnings
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from ... import datasets, metrics, published
from ..._core.validation import check_int
from ...evaluation._util import _dataset_key as _util_dataset_key
from ...evaluation._util import _progress
from ...evaluation.splits import repeated_splits
from .. import methods as registry
from ._encodings import DATASETS, encode
from ._readings import (
    NORMALISATION_OPTIONS,
    check_normalisation,
    cov2_readings,
)

#: The downstream models of Tables 4-5 (classification / regression), in the printed order.
MODELS = ("LR", "DT", "XGB")


_COV2_METRICS = ("cov2_y", "cov2_s")

# the representation of both experiments (at k of Table 3, η of the unit)
_METHOD, = registry.names(registry.DE_DIEGO_A)


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


def load_data(dataset, *, max_rows=None, random_state=0, data_home=None, encoding="paper"):
    """One data set of De-Diego et al. as numpy arrays, optionally subsampled.

    ``load_<dataset>(variant="pls")`` (the rows, labels, sensitive attribute and privileged
    group of Table 2) with the features of :func:`encode`: German Credit as 21 ordinal columns
    and COMPAS as the six features the paper names, as Table 3's d; the other data sets as
    loaded (:func:`feature_counts` sets them beside Table 3).  Law School is external: it is
    read from ``data_home`` or ``$FAIRLAB_DATA`` and never downloaded here, so without a copy a
    :class:`FileNotFoundError` says where to put it.

    Parameters
    ----------
    dataset : str
        A key of :data:`DATASETS` or its printed name.
    max_rows : int or None, default=None
        Keep a seeded random subsample of at most this many rows (``None``: all rows).
    random_state : int, default=0
        Seed of the subsample.
    data_home : path, optional
    encoding : {"paper", "loader"}, default="paper"
        The features of :func:`encode` (Table 3's d where the text supports it) or the
        loader's ``"pls"`` features as they are.

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
    if encoding not in ("paper", "loader"):
        raise ValueError(f"encoding must be 'paper' or 'loader'; got {encoding!r}.")
    features = encode(key, data, data_home) if encoding == "paper" else data.X
    X, y, s = features.to_numpy(float), data.y.to_numpy(), data.sensitive.to_numpy().astype(int)
    n = len(y)
    if max_rows is not None and n > max_rows:
        rows = np.sort(np.random.default_rng(random_state).choice(n, max_rows, replace=False))
        X, y, s = X[rows], y[rows], s[rows]
    task = "regression" if data.pos_label is None else "classification"
    return Bunch(X=X, y=y, s=s, feature_names=list(features.columns), task=task,
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


def _folds(n, n_folds, random_state):
    """The seeded partition of ``n`` rows into ``n_folds`` blocks (of :func:`cv_k` and of
    Experiment B)."""
    perm = np.random.default_rng(random_state).permutation(n)
    return np.array_split(perm, n_folds)


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
                    model = registry.build(_METHOD, d.X.shape[1], eta=eta).fit(
                        d.X[train], y[train], sensitive_features=d.s[train])
                T = model.transform(d.X[test])
                gain = [metrics.cov2(T[:, a], y[test], sensitive_type="continuous")
                        - eta * metrics.cov2(T[:, a], s[test], sensitive_type="continuous")
                        for a in range(T.shape[1])]
                objective += np.cumsum(gain) / n_folds
            rows.append({"dataset": d.dataset, "eta": eta, "d": d.X.shape[1],
                         "k_cv": int(np.argmax(objective)) + 1, "k_table3": paper_k(key, eta)})
    return pd.DataFrame(rows)


#: The columns of :func:`representation_scores` (and of :func:`split_scores`' rows).
_SCORE_COLUMNS = ["dataset", "eta", "k", "features", "rows", "scores", "targets", "reduce",
                  "error", "metric", "split", "value"]


def _experiment_a_split(d, features, split, test_size, random_state):
    X = np.column_stack([d.X, d.s.astype(float)]) if features == "S in X" else d.X
    return next(repeated_splits(X, d.y, d.s, n_splits=1, train_size=1 - test_size,
                                random_state=random_state + split))


def _standardizer(X):
    """The training rows' mean and standard deviation (ddof 1, zero read as 1), as
    ``FairPLS(scale=True)`` standardises."""
    std = X.std(axis=0, ddof=1)
    return X.mean(axis=0), np.where(std > 0, std, 1.0)


def _errors(model, Xp, T, mean, std):
    """The reconstruction errors of one fitted representation on the rows ``Xp``.

    A PLS model (``x_weights_``, ``x_loadings_``, ``x_mean_``, ``x_std_``): the three readings
    of :func:`representation_scores`.  Another linear map, T = (X − m) Cᵀ with its
    ``components_`` C: with X̃ = (X − μ)/σ, μ and σ the training rows' ``mean`` and ``std``,
    T = X̃ diag(σ) Cᵀ up to a constant, so ``"projection"`` projects X̃ onto the rows of
    C diag(σ) — the reading of PLS's weight vectors, whose span is that of its map.  A map
    without components (a kernel method's) has no reconstruction error here.

    When a PLS model keeps d components (its stops leave exactly zero columns), its weights
    span ℝᵈ and T Pᵀ = X̃ W (PᵀW)⁻¹ Pᵀ = X̃: the ``"projection"`` and ``"loadings"`` errors are
    0 by construction, and are returned as 0 rather than as rounding (about 1e-31, which
    follows the BLAS kernel).
    """
    if all(hasattr(model, a) for a in ("x_weights_", "x_loadings_", "x_mean_", "x_std_")):
        Xs = (Xp - model.x_mean_) / model.x_std_
        total = float(np.sum(Xs**2))
        weights = float(np.sum((Xs - T @ model.x_weights_.T) ** 2)) / total
        if np.count_nonzero(np.any(model.x_weights_ != 0, axis=0)) == Xs.shape[1]:
            return {"projection": 0.0, "loadings": 0.0, "weights": weights}
        return {"projection": metrics.reconstruction_error(Xs, model.x_weights_.T,
                                                           normalize=True),
                "loadings": float(np.sum((Xs - T @ model.x_loadings_.T) ** 2)) / total,
                "weights": weights}
    C = getattr(model, "components_", None)
    if C is None or np.ndim(C) != 2 or np.shape(C)[1] != Xp.shape[1]:
        return {}
    return {"projection": metrics.reconstruction_error((Xp - mean) / std, C * std,
                                                       normalize=True)}


def split_scores(d, estimator, *, features="S not in X", split=0, test_size=0.3,
                 random_state=0, eta=np.nan, standardize=False):
    """One split of Experiment A for one unfitted representation: :func:`representation_scores`'
    rows of that split, and the split and fitted model that gave them.

    ``estimator`` is fitted on the split's training rows with ``y`` (as floats) and
    ``sensitive_features``; its ``n_components`` (else the width of its representation) is the
    rows' ``k``.  The reconstruction errors read a PLS model's weights and loadings, or a linear
    map's ``components_`` (``"projection"`` only; none for a map without them).
    ``standardize=True`` hands the estimator X standardised with the training rows' mean and
    standard deviation (ddof 1), the paper's "zero mean and unit variance", which Fair PLS
    applies itself: the protocol of a method that does not.

    Returns
    -------
    (list of dict, Bunch, estimator)
        The rows (:data:`_SCORE_COLUMNS`), the split (:func:`~fairlab.evaluation.repeated_splits`)
        and the fitted estimator.
    """
    part = _experiment_a_split(d, features, split, test_size, random_state)
    mean, std = _standardizer(part.X_train)
    if standardize:
        part.X_train, part.X_test = (part.X_train - mean) / std, (part.X_test - mean) / std
        mean, std = np.zeros_like(mean), np.ones_like(std)
    y_tr, y_te = part.y_train.astype(float), part.y_test.astype(float)
    model = estimator.fit(part.X_train, y_tr, sensitive_features=part.s_train)
    rows = []
    for name, Xp, yp, sp in (("test", part.X_test, y_te, part.s_test),
                             ("train", part.X_train, y_tr, part.s_train)):
        T = np.asarray(model.transform(Xp), dtype=float)
        kk = getattr(model, "n_components", None)
        base = {"dataset": d.dataset, "eta": eta, "k": T.shape[1] if kk is None else kk,
                "features": features, "split": split}
        by_y, by_s = cov2_readings(model, T, yp), cov2_readings(model, T, sp.astype(float))
        for (sc, tg, rd), value_y in by_y.items():
            for metric, value in (("cov2_y", value_y), ("cov2_s", by_s[sc, tg, rd])):
                rows.append({**base, "rows": name, "scores": sc, "targets": tg, "reduce": rd,
                             "error": "", "metric": metric, "value": value})
        for error, value in _errors(model, Xp, T, mean, std).items():
            rows.append({**base, "rows": name, "scores": "", "targets": "", "reduce": "",
                         "error": error, "metric": "reconstruction_error", "value": value})
    return rows, part, model


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
    k : int, dict or None
        ``None``: :func:`paper_k` of each data set and η (Table 3); a dict: ``(key, η) -> k``
        (e.g. from :func:`cv_k`), :func:`paper_k` where it has none; clipped to d.
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
    rows = []
    for key, feat, i in _progress(jobs, progress, total=len(jobs), desc="splits"):
        d = data[key]
        for eta in etas:
            width = d.X.shape[1] + (feat == "S in X")
            chosen = k.get((key, eta)) if isinstance(k, dict) else k
            kk = paper_k(key, eta, width) if chosen is None else min(int(chosen), width)
            rows += split_scores(d, registry.build(_METHOD, kk, eta=eta), features=feat,
                                 split=i, test_size=test_size, random_state=random_state,
                                 eta=eta)[0]
    return pd.DataFrame(rows, columns=_SCORE_COLUMNS)


def table1_rows(scores, normalisation=None, *, error="projection"):
    """The rows of :func:`representation_scores` that Table 1 reads under one hypothesis:
    Cov²(r(X), Y) and Cov²(r(X), S) under ``normalisation`` (missing keys from
    :data:`DEFAULT_NORMALISATION`) and the reconstruction error ``error``, on its ``features``
    and ``rows``."""
    norm = check_normalisation(normalisation)
    if error not in ("projection", "loadings", "weights"):
        raise ValueError(f"error must be 'projection', 'loadings' or 'weights'; got {error!r}.")
    base = (scores["features"] == norm["features"]) & (scores["rows"] == norm["rows"])
    cov = base & (scores["scores"] == norm["scores"]) & (scores["targets"] == norm["targets"]) \
        & (scores["reduce"] == norm["reduce"]) & scores["metric"].isin(_COV2_METRICS)
    err = base & (scores["metric"] == "reconstruction_error") & (scores["error"] == error)
    return scores[cov | err]


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
    df = table1_rows(scores, normalisation, error=error)
    out = (df.groupby(["dataset", "eta", "k", "metric"], sort=False)["value"]
           .agg(mean="mean", std=lambda v: float(np.std(v, ddof=ddof)) if len(v) > ddof
                else np.nan, n_splits="size").reset_index())
    return out
