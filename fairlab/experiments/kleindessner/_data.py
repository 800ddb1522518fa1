"""Kleindessner et al. (2023) §5.1, the data and the protocol: the splits, the methods' estimators
(their settings in :mod:`fairlab.experiments.methods`), the scoring of a representation and the
runtime sweeps.
"""

import time
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils import Bunch

from ... import datasets, metrics
from ...datasets import load_lee2022_split, make_lee_gaussians
from ...evaluation._util import _dataset_key as _util_dataset_key
from ...evaluation._util import _progress, _to_numpy
from ...evaluation.runtime import runtime_sweep
from ...evaluation.scorecards import (
    _PROTOCOLS,
    _fit_with_sensitive,
    _orthonormal_components,
    downstream_scores,
    lee_classifiers,
)
from ...evaluation.splits import repeated_splits
from .. import methods as registry

#: Data set keys of Kleindessner et al. §5.1 -> the names printed in their tables.
DATASETS = {"adult": "Adult Income", "german": "German Credit", "compas": "COMPAS"}


#: Data set key -> the table of ``fairlab.published.table("kleindessner2023", ...)``.
TABLES = {"adult": "table1", "german": "table2", "compas": "table3"}


#: Downstream classifier keys of :func:`lee_classifiers` -> the model names printed.
MODELS = {"kernel_svm": "Kernel SVM", "linear_svm": "Linear SVM", "mlp": "MLP"}


#: The rows of Tables 1-3, in the printed order.
METHODS = registry.names(registry.KLEINDESSNER_TABLES)

#: The only row of Table 4.
SAMADI_METHOD, = registry.names(registry.KLEINDESSNER_TABLE4)


#: Decimals the authors rounded each metric to (``write_results.py``); the printed cells drop
#: trailing zeros (``0.2`` is 0.20), so these, not the digits of a cell, are the rounding.
DECIMALS = {"var_pct": 2, "mmd2": 3, "accuracy_pct": 2, "delta_dp": 2}


_LEE_SUBSAMPLE = {"adult": 2261, "german": None, "compas": 2468}


def _dataset_key(dataset):
    return _util_dataset_key(dataset, DATASETS)


def estimators(k, methods=None, *, rlace_max_iter=10_000, random_state=0):
    """The representation learners of Kleindessner et al. Tables 1–4, with the paper's settings.

    Parameters
    ----------
    k : int
        Target dimension (the tables use 2 and 10).
    methods : list of str, optional
        Names as printed (:data:`METHODS`, or :data:`SAMADI_METHOD` for Table 4);
        default all of Tables 1–3.
    rlace_max_iter : int, default=10000
        Outer iterations of RLACE (the paper lowered the reference's 75 000 to 10 000).
    random_state : int, default=0
        Seed of the stochastic methods (RLACE, MbF-PCA's bandwidth subsample).

    Returns
    -------
    dict of str -> unfitted estimator
        In the order asked for, built by :func:`fairlab.experiments.methods.build`.  The
        settings (reference-implementations notes §3.3):

        * ``"PCA"``: ``sklearn.decomposition.PCA(k, svd_solver="full")`` (MATLAB ``pca``,
          centred; centring changes neither %Var nor MMD²);
        * ``"Fair PCA"``: ``FairPCA(k, center=False)`` (the experiments' ``standardize=False``:
          uncentred XᵀX of the train-standardised data);
        * ``"Fair PCA-S (f)"``: ``FairPCA(k, equalize_covariance=f, center=False)``,
          l = max(k, ⌊f·d⌋);
        * ``"Fair Kernel PCA"``: ``FairKernelPCA(k, kernel="rbf", center=False)`` (γ = 1/(d·Var X),
          uncentred kernel matrix); %Var and MMD² are n/a for it, as in the paper;
        * ``"INLP"``: ``INLP(n_components=k, center=False)`` (d − k rounds of
          ``LinearSVC(fit_intercept=False, dual=False, random_state=0)``);
        * ``"RLACE"``: ``RLACE(n_components=k, max_iter=rlace_max_iter)`` (rank d − k);
        * ``"FPCA (δ, μ)"``: ``FPCA(k, delta=δ, mu=μ)`` (Olfat & Aswani's SDP; cvxpy);
        * ``"MbF-PCA (10^-t)"``: ``MbFPCA(k, tau=10**-t)``;
        * :data:`SAMADI_METHOD`: ``SamadiFairPCA(k)`` (the exact optimum by Shen et al.'s
          eigenvalue optimisation; the paper ran Samadi et al.'s
          MATLAB multiplicative-weights code and used the d-dimensional X·P, see the chapter).
    """
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise ValueError(f"k must be a positive integer; got {k!r}.")
    k = int(k)
    names = list(METHODS) if methods is None else list(methods)
    known = (*METHODS, SAMADI_METHOD)
    unknown = [m for m in names if m not in known]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose among {list(known)}.")
    return {name: registry.build(name, k, **_settings(name, rlace_max_iter, random_state))
            for name in names}


def _settings(name, rlace_max_iter, random_state):
    """The arguments of :func:`estimators` that override method ``name``'s settings."""
    parameters = registry.get(name).parameters
    out = {"random_state": random_state} if "random_state" in parameters else {}
    if "max_iter" in parameters:  # RLACE's outer iterations
        out["max_iter"] = rlace_max_iter
    return out


#: The methods that :class:`AsInReferenceCode` runs the way the reference code ran them.
REFERENCE_CODE_METHODS = tuple(registry.get(name).base
                               for name in registry.names(registry.KLEINDESSNER_REFERENCE_CODE))


def load_splits(dataset, *, lee_splits=False, n_splits=10, random_state=0,
                        data_home=None):
    """The train/test splits of Kleindessner et al. §5.1, exact or re-drawn.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
        Or the printed names ("Adult Income", ...).
    lee_splits : bool, default=False
        ``True``: Lee et al.'s published split files, the exact data of the paper
        (:func:`fairlab.datasets.load_lee2022_split`: read from ``data_home`` or
        ``$FAIRLAB_DATA/fair-manifold-pca``; splits ``0 .. n_splits-1``).
        ``False``: our own preprocessing of the raw data shipped with fairlab —
        ``load_<dataset>(variant="lee2022")`` (AIF360-style features, the sensitive attribute
        kept among them), a seeded random subsample of Lee et al.'s size (Adult 2261 rows,
        COMPAS 2468, German all 1000), then :func:`repeated_splits` 70/30, standardised with
        the training mean and population std, as Lee's files.  Nothing is read from
        ``$FAIRLAB_DATA`` except a user's own copy of the raw UCI/ProPublica file, which must
        be byte-identical to the shipped one (its SHA-256 is checked), so the splits do not
        depend on it.
    n_splits : int, default=10
        The paper uses Lee et al.'s 10 splits.
    random_state : int, default=0
        Seed of the subsample (``random_state``) and of split i (``random_state + 1 + i``);
        unused with ``lee_splits=True``.
    data_home : path, optional
        Passed to the loaders.

    Returns
    -------
    list of Bunch
        ``X_train, y_train, s_train, X_test, y_test, s_test`` (numpy), ``split``, ``dataset``.
        ``y``: Adult 1 = income > 50K, German 1 = bad credit, COMPAS 1 = re-offended;
        ``s``: 1 = Male / age ≥ 25 / Caucasian (Lee's coding).
    """
    key = _dataset_key(dataset)
    if isinstance(n_splits, bool) or not isinstance(n_splits, Integral) or n_splits < 1:
        raise ValueError(f"n_splits must be a positive integer; got {n_splits!r}.")
    if lee_splits:

        if n_splits > 10:
            raise ValueError(f"Lee et al. published 10 splits; got n_splits={n_splits}.")
        return [load_lee2022_split(key, i, data_home=data_home) for i in range(n_splits)]

    data = getattr(datasets, f"load_{key}")(variant="lee2022", data_home=data_home)
    X, y, s = data.X.to_numpy(float), data.y.to_numpy(), data.sensitive.to_numpy()
    size = _LEE_SUBSAMPLE[key]
    if size is not None:
        rows = np.sort(np.random.default_rng(random_state).choice(len(y), size, replace=False))
        X, y, s = X[rows], y[rows], s[rows]
    out = []
    for split in repeated_splits(X, y, s, n_splits=n_splits, train_size=0.7,
                                 random_state=random_state + 1, standardize=True):
        split.y_train, split.y_test = split.y_train.astype(float), split.y_test.astype(float)
        split.s_train, split.s_test = split.s_train.astype(float), split.s_test.astype(float)
        split.dataset = key
        out.append(split)
    return out


def _representation_scores(model, X_tr, X_te, s_te, k):
    """%Var and MMD² of a fitted linear model on the test split (NaN for non-linear ones)."""
    U = _orthonormal_components(model, X_te.shape[1])
    if U is None:
        return {"var_pct": np.nan, "mmd2": np.nan}
    E_te = X_te @ U.T  # the subspace is what counts: MMD² is invariant to the offset
    sigma = metrics.lee_bandwidth(X_tr, min(k, *X_tr.shape))
    return {"var_pct": 100.0 * metrics.explained_variance(X_te, U),
            "mmd2": metrics.mmd2(E_te, s_te, sigma=sigma)}


def score_splits(methods, splits, *, protocols=("train_on_test",), classifiers=None,
                        linear_inseparability=False, progress=False):
    """Per-split scores of Kleindessner et al. §5.1 (Tables 1–4, Fig. 2), in long format.

    For every split and method: the estimator (cloned) is fitted on the training split with the
    sensitive attribute and timed; then, on the **test** split,

    * ``var_pct`` = 100·tr(UᵀΣ_test U)/tr(Σ_test) and ``mmd2`` (biased MMD², Gaussian kernel,
      σ = :func:`~fairlab.metrics.lee_bandwidth` of the training split with PCA-k) for linear
      methods (orthonormal ``components_``), NaN otherwise (the paper's n/a);
    * ``accuracy_pct`` (percent) and ``delta_dp`` (fraction) of each downstream classifier
      (:func:`lee_classifiers`) under each protocol: ``"train_on_test"`` (the paper's, after
      Lee et al.: trained on the test embedding, evaluated on the same rows) and/or
      ``"train_test"`` (trained on the training embedding);
    * optionally ``linear_inseparability`` (Fig. 2) and always ``fit_seconds`` (wall time of
      ``fit``, machine-dependent; not a published metric).

    Parameters
    ----------
    methods : dict of str -> estimator
        E.g. :func:`estimators`.  Every method must produce the same width k.
    splits : list of Bunch
        E.g. :func:`load_splits`; a ``dataset`` key (or attribute) names the data set.
    protocols : str or tuple of str, default=("train_on_test",)
    classifiers : dict, optional
        Default :func:`lee_classifiers`; keys of :data:`MODELS` are printed with
        the paper's names, others as given.  ``{}`` skips the downstream models.
    linear_inseparability : bool, default=False
    progress : bool, default=False
        tqdm bar over (split, method) pairs: useful interactively; keep it off in committed
        notebooks (its output does not reproduce).

    Returns
    -------
    DataFrame
        Columns ``dataset, method, k, protocol, model, metric, split, value``; ``dataset`` uses
        the printed names, ``model`` is ``""`` for representation metrics (which are repeated
        for each protocol, so that each protocol's rows form a complete table).
    """
    protocols = (protocols,) if isinstance(protocols, str) else tuple(protocols)
    bad = [p for p in protocols if p not in _PROTOCOLS]
    if bad or not protocols:
        raise ValueError(f"protocols must be among {_PROTOCOLS}; got {protocols!r}.")
    if not isinstance(methods, dict) or not methods:
        raise ValueError("methods must be a non-empty dict name -> estimator.")
    classifiers = lee_classifiers() if classifiers is None else classifiers
    splits = list(splits)
    pairs = [(i, split, name) for i, split in enumerate(splits) for name in methods]
    rows = []
    for i, split, name in _progress(pairs, progress, total=len(pairs), desc="fits"):
        key = split.get("dataset", "")
        dataset = DATASETS.get(key, key)
        X_tr = np.asarray(split["X_train"], float)
        X_te = np.asarray(split["X_test"], float)
        y_tr, y_te = _to_numpy(split["y_train"]), _to_numpy(split["y_test"])
        s_te = split["s_test"]
        start = time.perf_counter()
        model = _fit_with_sensitive(clone(methods[name]), X_tr, y_tr, split["s_train"])
        seconds = time.perf_counter() - start
        E_te = np.asarray(model.transform(X_te), dtype=float)
        k = E_te.shape[1]
        base = {"dataset": dataset, "method": name, "k": k, "split": split.get("split", i)}
        rep = _representation_scores(model, X_tr, X_te, s_te, k)
        if linear_inseparability:
            rep["linear_inseparability"] = metrics.linear_inseparability(E_te, s_te)
        E_tr = (np.asarray(model.transform(X_tr), dtype=float)
                if "train_test" in protocols and classifiers else None)
        for protocol in protocols:
            for metric, value in {**rep, "fit_seconds": seconds}.items():
                rows.append({**base, "protocol": protocol, "model": "", "metric": metric,
                             "value": float(value)})
            scores = downstream_scores(E_te, y_te, s_te, E_train=E_tr, y_train=y_tr,
                                       protocol=protocol, classifiers=classifiers) \
                if classifiers else {}
            for clf in classifiers:
                model_name = MODELS.get(clf, clf)
                rows.append({**base, "protocol": protocol, "model": model_name,
                             "metric": "accuracy_pct",
                             "value": 100.0 * scores[f"{clf}_accuracy"]})
                rows.append({**base, "protocol": protocol, "model": model_name,
                             "metric": "delta_dp", "value": float(scores[f"{clf}_dp"])})
    columns = ["dataset", "method", "k", "protocol", "model", "metric", "split", "value"]
    return pd.DataFrame(rows, columns=columns)


def summarize_scores(scores, *, ddof=0, runtime=False):
    """Mean and std over splits of :func:`score_splits`, one row per printed cell.

    ``ddof=0`` (population std, numpy's default) because Kleindessner et al.'s
    ``write_results.py`` computed the tables' std with ``np.std``: Adult PCA k = 2 gives
    %Var 7.78 ± 0.77 as printed, ddof = 1 would give ± 0.82.  ``fit_seconds`` rows are dropped
    unless ``runtime=True``.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, k, protocol, model, metric, mean, std, n_splits``, in
        the order of first appearance, ready for :func:`fairlab.published.compare`.
    """
    keys = ["dataset", "method", "k", "protocol", "model", "metric"]
    df = scores if runtime else scores[scores["metric"] != "fit_seconds"]
    grouped = df.groupby(keys, sort=False, dropna=False)["value"]
    out = grouped.agg(mean="mean", n_splits="size").reset_index()
    out.insert(len(keys) + 1, "std", grouped.std(ddof=ddof).to_numpy())
    out["n_splits"] = out["n_splits"].astype(int)
    return out


def table(dataset, k, methods=None, splits=None, *, lee_splits=False, n_splits=10,
                       protocols=("train_on_test",), classifiers=None, ddof=0,
                       rlace_max_iter=10_000, random_state=0, data_home=None, progress=False,
                       return_scores=False):
    """Kleindessner et al. Table 1 (Adult), 2 (German) or 3 (COMPAS) as a tidy long table.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
    k : int or list of int
        Target dimension(s); the tables print k = 2 and k = 10.
    methods : list of str or dict of str -> estimator, optional
        Names for :func:`estimators` (default: all eleven rows), or estimators
        (then ``k`` must be one int, matching them).
    splits : list of Bunch, optional
        Default :func:`load_splits` ``(dataset, lee_splits=lee_splits,
        n_splits=n_splits, random_state=random_state)``.
    protocols, classifiers :
        See :func:`score_splits`.
    ddof : int, default=0
        See :func:`summarize_scores`.
    rlace_max_iter, random_state :
        See :func:`estimators`.
    progress : bool, default=False
    return_scores : bool, default=False
        Also return the per-split scores of :func:`score_splits` (with
        ``fit_seconds``).

    Returns
    -------
    DataFrame
        ``dataset, method, k, protocol, model, metric, mean, std, n_splits``, with the
        identifiers and metric names of ``fairlab.published.table("kleindessner2023",
        "table1")`` (``var_pct``, ``mmd2``, ``accuracy_pct``, ``delta_dp``); with
        ``return_scores=True`` the pair ``(table, scores)``.

    Examples
    --------
    >>> from fairlab.evaluation import table
    >>> t = table("german", 2, ["Fair PCA"], n_splits=2, classifiers={})
    >>> t[["dataset", "method", "k", "metric"]].values.tolist()
    [['German Credit', 'Fair PCA', 2, 'var_pct'], ['German Credit', 'Fair PCA', 2, 'mmd2']]
    """
    key = _dataset_key(dataset)
    ks = [k] if isinstance(k, Integral) else list(k)
    if isinstance(methods, dict) and len(ks) != 1:
        raise ValueError("with estimators in methods, pass one k (the estimators' width).")
    if splits is None:
        splits = load_splits(key, lee_splits=lee_splits, n_splits=n_splits,
                                     random_state=random_state, data_home=data_home)
    splits = [s if "dataset" in s else Bunch(**s, dataset=key) for s in splits]
    frames = []
    for kk in ks:
        ests = methods if isinstance(methods, dict) else estimators(
            kk, methods, rlace_max_iter=rlace_max_iter, random_state=random_state)
        frames.append(score_splits(ests, splits, protocols=protocols,
                                          classifiers=classifiers, progress=progress))
    scores = pd.concat(frames, ignore_index=True)
    out = summarize_scores(scores, ddof=ddof)
    return (out, scores) if return_scores else out


def gaussian_splits(n_features=20, *, n_splits=10, n_per_group=240, train_per_group=168,
                        random_state=0):
    """Lee et al.'s synthetic experiment (Kleindessner et al. Figs. 2–4): data and splits.

    The data are drawn once, ``make_lee_gaussians(n_per_group, n_features,
    random_state=random_state)``; split i is a hold-out of ``train_per_group`` rows per group
    (168 of 240, MATLAB ``cvpartition(240, 'HoldOut', 0.3)``) with **the same indices in both
    groups**, as Lee et al.'s files; seed of split i: ``random_state + 1 + i``.  The data are
    neither centred nor scaled (as in the paper), ``y`` is a copy of ``z``.  Lee et al.'s own
    CSV files were drawn by MATLAB's generator: same distribution, other numbers.

    Returns
    -------
    list of Bunch with the keys of :func:`load_splits` (``dataset="synthetic"``) and
    ``d``.
    """
    if not 1 <= train_per_group < n_per_group:
        raise ValueError(f"train_per_group must be in 1 .. n_per_group - 1 = {n_per_group - 1}; "
                         f"got {train_per_group!r}.")
    X, y, z = make_lee_gaussians(n_per_group, n_features, random_state=random_state)
    out = []
    for i in range(n_splits):
        perm = np.random.default_rng(random_state + 1 + i).permutation(n_per_group)
        tr = np.concatenate([perm[:train_per_group], n_per_group + perm[:train_per_group]])
        te = np.concatenate([perm[train_per_group:], n_per_group + perm[train_per_group:]])
        out.append(Bunch(X_train=X[tr], X_test=X[te], y_train=y[tr].astype(float),
                         y_test=y[te].astype(float), s_train=z[tr].astype(float),
                         s_test=z[te].astype(float), split=i, dataset="synthetic",
                         d=int(n_features)))
    return out


def runtimes(grid, methods=None, *, repeats=1, n_per_group=240,
                          train_per_group=168, rlace_max_iter=10_000, random_state=0,
                          progress=False):
    """Fit times on Lee et al.'s synthetic data (Kleindessner et al. Fig. 3: vs d; Fig. 7: vs k).

    For each point ``{"d": d, "k": k}`` of ``grid`` the training part of split 0 of
    :func:`gaussian_splits` (336 rows) is built outside the timer and every method of
    :func:`estimators` ``(k, methods)`` is fitted ``repeats`` times
    (:func:`runtime_sweep`).  Wall times depend on the machine: compare **ratios**
    (:func:`runtime_ratios`), not seconds.

    Returns
    -------
    DataFrame with columns ``d, k, method, seconds, seconds_min``.
    """
    grid = [dict(p) for p in grid]
    if not grid or any(set(p) != {"d", "k"} for p in grid):
        raise ValueError("grid must be a non-empty list of {'d': ..., 'k': ...} dicts.")
    frames = []
    for point in _progress(grid, progress, total=len(grid), desc="runtime"):
        ests = estimators(point["k"], methods, rlace_max_iter=rlace_max_iter,
                                    random_state=random_state)
        fns = {name: (lambda data, est=est: _fit_with_sensitive(
            clone(est), data.X_train, data.y_train, data.s_train)) for name, est in ests.items()}

        def make_data(d, k):
            return gaussian_splits(d, n_splits=1, n_per_group=n_per_group,
                                       train_per_group=train_per_group,
                                       random_state=random_state)[0]

        frames.append(runtime_sweep(fns, make_data, [point], repeats=repeats))
    return pd.concat(frames, ignore_index=True)
