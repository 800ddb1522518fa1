"""Evaluation protocols: splits, representation scorecards, trade-off sweeps and runtime sweeps.

One protocol behind every table and figure of the book:

* :func:`runtime_sweep` — wall-clock medians of several methods over a grid of problem sizes
  (Kleindessner et al. Fig. 3/7/9, the Fair PCA benchmark);
* :func:`repeated_splits` — seeded random train/test splits, optionally standardised with the
  training statistics, as :class:`~sklearn.utils.Bunch` objects with the keys of
  :func:`fairlab.datasets.load_lee2022_split`;
* :func:`scorecard` / :func:`evaluate_splits` — the representation scorecard of Lee et al. (2022)
  and Kleindessner et al. §5.1 (%Var, MMD², linear inseparability, accuracy and Δ_DP of a kernel
  SVM, a
  linear SVM and an MLP), under Lee's **train-on-test** protocol or a proper train/test protocol;
* :func:`summarize` / :func:`format_mean_std` / :func:`format_table` — mean ± std tables printed
  like the papers' (``7.78 ± 0.77``);
* :func:`sweep` with the score functions :func:`classifier_score`, :func:`predictor_score` and
  :func:`dependence_score` — trade-off curves over λ (``FairTradeoff``), η (``FairPLS``) or μ
  (``FairLinearRegression``/``FairKernelRegression``).  Estimators are passed in (an instance or a
  factory), so this module imports none of them.

Everything returns tidy :class:`pandas.DataFrame` objects: one row per observation (a split × a
method × a parameter value), one column per variable.  Progress bars (tqdm) are off by default so
that notebook outputs stay reproducible.
"""

import functools
import inspect
import math
import time
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC
from sklearn.utils import Bunch

from . import metrics

__all__ = [
    "DEDIEGO_DATASETS",
    "DEDIEGO_DEFAULT_NORMALISATION",
    "DEDIEGO_MODELS",
    "DEDIEGO_NORMALISATION_OPTIONS",
    "KLEINDESSNER_DATASETS",
    "KLEINDESSNER_DECIMALS",
    "KLEINDESSNER_METHODS",
    "KLEINDESSNER_MODELS",
    "KLEINDESSNER_TABLES",
    "KLEINDESSNER_TRADEOFF_CLASSIFIERS",
    "KLEINDESSNER_TRADEOFF_DATASETS",
    "KLEINDESSNER_TRADEOFF_EPS",
    "KLEINDESSNER_TRADEOFF_FAIRNESS",
    "KLEINDESSNER_TRADEOFF_LAMBDAS",
    "KLEINDESSNER_TRADEOFF_METHODS",
    "KLEINDESSNER_TRADEOFF_N_TRAIN",
    "PEREZ_SUAY_DR_METHODS",
    "PEREZ_SUAY_GRIDS",
    "PEREZ_SUAY_REGRESSION_METHODS",
    "PEREZ_SUAY_SENSITIVE",
    "PEREZ_SUAY_SIZES",
    "PEREZ_SUAY_VARIANTS",
    "SAMADI_METHOD",
    "CONCEPT_ERASURE_METHODS",
    "classifier_score",
    "concept_erasure_examples",
    "concept_erasure_reconstructions",
    "concept_erasure_scores",
    "dediego_compare",
    "dediego_data",
    "dediego_downstream_scores",
    "dediego_downstream_summary",
    "dediego_fig7",
    "dediego_k",
    "dediego_load",
    "dediego_models",
    "dediego_normalisation_fit",
    "dediego_normalisations",
    "dediego_plot_representation",
    "dediego_plot_tradeoff",
    "dediego_representation_scores",
    "dediego_table1",
    "dependence_score",
    "downstream_scores",
    "evaluate_splits",
    "format_mean_std",
    "format_table",
    "kleindessner_compare",
    "kleindessner_match_counts",
    "kleindessner_methods",
    "kleindessner_scores",
    "kleindessner_side_by_side",
    "kleindessner_splits",
    "kleindessner_summary",
    "kleindessner_table",
    "kleindessner_reported_runtimes",
    "kleindessner_runtimes",
    "kleindessner_reported_tradeoff_runtimes",
    "kleindessner_tradeoff_curves",
    "kleindessner_tradeoff_gaps",
    "kleindessner_tradeoff_runtime_summary",
    "kleindessner_tradeoff_runtimes",
    "kleindessner_tradeoff_splits",
    "lee_classifiers",
    "lee_gaussian_splits",
    "perez_suay_checks",
    "perez_suay_dimensionality_reduction",
    "perez_suay_plot",
    "perez_suay_regression",
    "perez_suay_splits",
    "perez_suay_summary",
    "predictor_score",
    "repeated_splits",
    "runtime_ratios",
    "runtime_sweep",
    "scorecard",
    "summarize",
    "sweep",
    "tradeoff_curve_gap",
    "write_results_csv",
]


def _progress(iterable, enabled, total=None, desc=None):
    """tqdm around ``iterable`` when enabled (quiet by default, so nbval outputs reproduce)."""
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


# --------------------------------------------------------------------------------------------
# runtime
# --------------------------------------------------------------------------------------------
def runtime_sweep(methods, make_data, grid, *, repeats=3, warmup=False, progress=False):
    """Time several methods over a grid of problem sizes.

    For every parameter dict ``params`` of ``grid`` the data are built once, **outside the timer**,
    with ``data = make_data(**params)``; then each ``methods[name](data)`` is timed ``repeats``
    times with :func:`time.perf_counter`.

    Parameters
    ----------
    methods : dict of str -> callable
        ``name -> f(data)`` doing exactly the work to time (e.g. ``lambda d: FairPCA(5).fit(d.X,
        sensitive_features=d.z)``).
    make_data : callable
        ``make_data(**params) -> data`` (any object passed on to the methods).
    grid : list of dict
        Parameter points, e.g. ``[{"d": 20}, {"d": 60}]``; each key becomes a column.
    repeats : int, default=3
        Timed calls per method and grid point.
    warmup : bool, default=False
        Make one untimed call first (caches, lazy imports, BLAS thread start-up).
    progress : bool, default=False
        Show a tqdm bar over the grid.

    Returns
    -------
    DataFrame
        One row per (grid point, method): the grid keys, ``method``, ``seconds`` (median over the
        repeats) and ``seconds_min`` (fastest repeat, the least noisy estimate on a busy machine).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.evaluation import runtime_sweep
    >>> table = runtime_sweep({"eigh": np.linalg.eigh, "svd": np.linalg.svd},
    ...                       lambda d: np.eye(d), [{"d": 10}, {"d": 20}], repeats=2)
    >>> table.columns.tolist()
    ['d', 'method', 'seconds', 'seconds_min']
    >>> table[["d", "method"]].values.tolist()
    [[10, 'eigh'], [10, 'svd'], [20, 'eigh'], [20, 'svd']]
    """
    if not isinstance(methods, dict) or not methods:
        raise ValueError("methods must be a non-empty dict name -> callable(data).")
    for name, fn in methods.items():
        if not callable(fn):
            raise TypeError(f"methods[{name!r}] must be callable(data); got {type(fn).__name__}.")
    if not callable(make_data):
        raise TypeError("make_data must be callable(**params) returning the data.")
    grid = list(grid)
    if not grid or not all(isinstance(p, dict) for p in grid):
        raise ValueError("grid must be a non-empty list of dicts of make_data keyword arguments.")
    if isinstance(repeats, bool) or not isinstance(repeats, Integral) or repeats < 1:
        raise ValueError(f"repeats must be a positive integer; got {repeats!r}.")
    rows = []
    for params in _progress(grid, progress, total=len(grid), desc="runtime"):
        data = make_data(**params)
        for name, fn in methods.items():
            if warmup:
                fn(data)
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                fn(data)
                times.append(time.perf_counter() - start)
            rows.append({**params, "method": name, "seconds": float(np.median(times)),
                         "seconds_min": float(np.min(times))})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# splits
# --------------------------------------------------------------------------------------------
def _to_numpy(a):
    return a.to_numpy() if isinstance(a, (pd.Series, pd.DataFrame)) else np.asarray(a)


def _n_from(size, n, name):
    if size is None:
        return None
    if isinstance(size, Integral) and not isinstance(size, bool):
        if not 1 <= size < n:
            raise ValueError(f"{name}={size} must be between 1 and n_samples - 1 = {n - 1}.")
        return int(size)
    if isinstance(size, Real) and 0 < size < 1:
        return int(np.floor(size * n))
    raise ValueError(f"{name} must be a fraction in (0, 1), an int count or None; got {size!r}.")


def repeated_splits(X, y, sensitive_features, *, n_splits=10, train_size=0.7, test_size=None,
                    random_state=0, seeds=None, standardize=False):
    """Seeded random train/test splits, as Bunches with the keys of ``load_lee2022_split``.

    Split ``i`` draws ``perm = np.random.default_rng(seed_i).permutation(n)``; the first
    ``n_train`` rows of ``perm`` are the training set and the next ``n_test`` rows (all the rest
    when ``test_size=None``) the test set.  ``seed_i = random_state + i`` unless ``seeds`` is given.
    With ``seeds=[1111 * r for r in range(10)]``, ``train_size=5000``, ``test_size=5000`` and
    ``standardize=True`` this is exactly the protocol of Kleindessner et al. §5.2 (comparison with
    Agarwal et
    al.; the released code seeds ``default_rng(run * 1111)``).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
    n_splits : int, default=10
    train_size : float in (0, 1) or int, default=0.7
    test_size : float, int or None, default=None
    random_state : int, default=0
    seeds : list of int, optional
        One seed per split (overrides ``n_splits``/``random_state``).
    standardize : bool, default=False
        Standardise the columns with the training mean and the **population** std (ddof 0, a zero
        std replaced by 1), as Lee et al.'s split files and ``StandardScaler``.

    Yields
    ------
    Bunch with ``X_train, y_train, s_train, X_test, y_test, s_test`` (numpy arrays), ``split``
    (index) and ``seed``.
    """
    X = _to_numpy(X)
    n = X.shape[0]
    y = None if y is None else _to_numpy(y)
    s = _to_numpy(sensitive_features)
    for arr, name in ((y, "y"), (s, "sensitive_features")):
        if arr is not None and arr.shape[0] != n:
            raise ValueError(f"{name} has {arr.shape[0]} rows but X has {n}; pass one per row.")
    n_train = _n_from(train_size, n, "train_size")
    n_test = _n_from(test_size, n, "test_size")
    if n_train is None:
        raise ValueError("train_size cannot be None.")
    if n_test is None:
        n_test = n - n_train
    if n_train + n_test > n or n_test < 1:
        raise ValueError(
            f"train_size + test_size = {n_train} + {n_test} rows exceeds the {n} available."
        )
    if seeds is None:
        if isinstance(n_splits, bool) or not isinstance(n_splits, Integral) or n_splits < 1:
            raise ValueError(f"n_splits must be a positive integer; got {n_splits!r}.")
        seeds = [random_state + i for i in range(n_splits)]
    for i, seed in enumerate(seeds):
        perm = np.random.default_rng(seed).permutation(n)
        tr, te = perm[:n_train], perm[n_train:n_train + n_test]
        X_tr, X_te = X[tr].astype(float), X[te].astype(float)
        if standardize:
            mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
            sd[sd == 0] = 1.0
            X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
        yield Bunch(X_train=X_tr, X_test=X_te,
                    y_train=None if y is None else y[tr], y_test=None if y is None else y[te],
                    s_train=s[tr], s_test=s[te], split=i, seed=seed)


# --------------------------------------------------------------------------------------------
# the representation scorecard (Lee et al. 2022; Kleindessner et al. §5.1)
# --------------------------------------------------------------------------------------------
def lee_classifiers(random_state=999):
    """The three downstream classifiers of Kleindessner et al. Tables 1–3, in scikit-learn.

    * ``"kernel_svm"``: MATLAB ``fitcsvm(E, y, 'KernelFunction', 'RBF')`` — defaults KernelScale 1
      (k = exp(−‖x − y‖²)), BoxConstraint 1, no standardisation ⇒ ``SVC(kernel="rbf", gamma=1.0,
      C=1.0)``;
    * ``"linear_svm"``: ``fitcsvm(..., 'linear')`` (hinge loss, unpenalised bias, C = 1) ⇒
      ``SVC(kernel="linear", C=1.0)`` (not ``LinearSVC``, whose squared hinge and penalised
      intercept are a different model);
    * ``"mlp"``: ``MLPClassifier(hidden_layer_sizes=(10, 5), random_state=999, max_iter=10000)``,
      as in the released ``MLP_analysis.py``.
    """
    return {
        "kernel_svm": SVC(kernel="rbf", gamma=1.0, C=1.0),
        "linear_svm": SVC(kernel="linear", C=1.0),
        "mlp": MLPClassifier(hidden_layer_sizes=(10, 5), random_state=random_state,
                             max_iter=10_000),
    }


_PROTOCOLS = ("train_on_test", "train_test")


def downstream_scores(E_test, y_test, s_test, *, E_train=None, y_train=None,
                      protocol="train_on_test", classifiers=None, pos_label=1):
    """Accuracy and Δ_DP of downstream classifiers trained on a representation.

    ``protocol="train_on_test"`` (Lee et al. 2022, reused by Kleindessner et al. §5.1): each
    classifier is
    **trained on the test embedding and evaluated on the same rows**.  The accuracies then measure
    how much label information the representation keeps (in-sample fit), not generalisation, and
    are inflated for flexible models.  ``protocol="train_test"``: trained on ``E_train, y_train``,
    evaluated on the test split.

    Returns
    -------
    dict ``{name}_accuracy`` (fraction) and ``{name}_dp`` (Δ_DP on ``s_test``) per classifier.
    """
    if protocol not in _PROTOCOLS:
        raise ValueError(f"protocol={protocol!r} is not supported; choose one of {_PROTOCOLS}.")
    classifiers = lee_classifiers() if classifiers is None else classifiers
    if protocol == "train_test" and (E_train is None or y_train is None):
        raise ValueError("protocol='train_test' needs E_train and y_train.")
    y_test = _to_numpy(y_test)
    fit_E, fit_y = (E_test, y_test) if protocol == "train_on_test" else (E_train, y_train)
    out = {}
    for name, clf in classifiers.items():
        model = clone(clf).fit(fit_E, fit_y)
        pred = model.predict(E_test)
        out[f"{name}_accuracy"] = float(np.mean(pred == y_test))
        out[f"{name}_dp"] = metrics.demographic_parity_difference(
            y_test, pred, sensitive_features=s_test, pos_label=pos_label)
    return out


def _fit_with_sensitive(estimator, X, y, s):
    """fit(X, y, sensitive_features=s) when the estimator accepts it (PCA does not)."""
    try:
        accepts = "sensitive_features" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        accepts = False
    if accepts:
        return estimator.fit(X, y, sensitive_features=s)
    return estimator.fit(X, y)


def _orthonormal_components(estimator, n_features):
    U = getattr(estimator, "components_", None)
    if U is None:
        return None
    U = np.asarray(U, dtype=float)
    if U.ndim != 2 or U.shape[1] != n_features:
        return None
    if not np.allclose(U @ U.T, np.eye(U.shape[0]), atol=1e-6):
        return None
    return U


def scorecard(estimator, split, *, protocol="train_on_test", classifiers=None, pos_label=1,
              linear="auto", fit=True):
    """Representation scorecard of Lee et al. (2022) and Kleindessner et al. §5.1 for one split.

    1. ``estimator`` (cloned) is fitted on the training split:
       ``fit(X_train, y_train, sensitive_features=s_train)`` (or without the attribute when its
       ``fit`` does not take one, e.g. scikit-learn's ``PCA``); E = ``transform(X_test)``.
    2. Representation metrics on the **test** split, for linear representations (the estimator has
       ``components_`` with orthonormal rows; otherwise NaN, as the paper's "n/a" for kernel
       methods):

       * ``explained_variance`` = 100·tr(UᵀΣ_test U)/tr(Σ_test) (%Var);
       * ``mmd2`` between the groups of ``s_test`` with σ = :func:`~fairlab.metrics.lee_bandwidth`
         of the training split (PCA-k of X_train, k = embedding width).
    3. ``linear_inseparability`` of E (logistic model on E, evaluated on E).
    4. Accuracy and Δ_DP of :func:`lee_classifiers` (kernel SVM, linear SVM, MLP) under
       ``protocol``: ``"train_on_test"`` (default, **the papers' protocol: classifiers trained and
       evaluated on the test embedding**) or ``"train_test"`` (trained on the training embedding).

    With ``PCA(2, svd_solver="full")`` on Lee's Adult splits, :func:`format_table` over the 10
    splits prints Kleindessner et al. Table 1's PCA row digit for digit: %Var 7.78 ± 0.77, MMD²
    0.349 ± 0.026,
    kernel SVM 82.03 ± 1.09 % / Δ_DP 0.20 ± 0.05, linear SVM 79.87 ± 1.11 % / 0.20 ± 0.04, MLP
    81.21 ± 1.22 % / 0.22 ± 0.03 (MATLAB ``pca`` = centred PCA on the train split, applied to the
    test split; centring changes neither %Var nor MMD²).  The MLP (random initialisation) is not
    invariant to the order or signs of the embedding's columns, so its numbers match a paper only
    when the columns come in the same order and signs as in the reference code.

    Parameters
    ----------
    estimator : transformer
        Unfitted (or fitted, with ``fit=False``) representation learner.
    split : Bunch or dict
        ``X_train, y_train, s_train, X_test, y_test, s_test`` (e.g. ``load_lee2022_split``).
    protocol : {"train_on_test", "train_test"}
    classifiers : dict name -> classifier, optional
        Default :func:`lee_classifiers`; ``{}`` skips the downstream models.
    pos_label : scalar, default=1
    linear : {"auto", True, False}
        Compute %Var and MMD² ("auto": when orthonormal ``components_`` exist; ``True``: MMD² even
        for a non-linear embedding).
    fit : bool, default=True

    Returns
    -------
    dict of str -> float
    """
    if protocol not in _PROTOCOLS:
        raise ValueError(f"protocol={protocol!r} is not supported; choose one of {_PROTOCOLS}.")
    keys = ("X_train", "y_train", "s_train", "X_test", "y_test", "s_test")
    missing = [k for k in keys if k not in split]
    if missing:
        raise ValueError(f"split is missing {missing}; pass a Bunch like load_lee2022_split's.")
    X_tr, X_te = np.asarray(split["X_train"], float), np.asarray(split["X_test"], float)
    model = _fit_with_sensitive(clone(estimator), X_tr, split["y_train"], split["s_train"]) \
        if fit else estimator
    E_te = np.asarray(model.transform(X_te), dtype=float)
    k = E_te.shape[1]
    U = _orthonormal_components(model, X_te.shape[1])
    out = {}
    if (linear == "auto" and U is not None) or linear is True:
        out["explained_variance"] = (100.0 * metrics.explained_variance(X_te, U)
                                     if U is not None else np.nan)
        out["mmd2"] = metrics.mmd2(E_te, split["s_test"],
                                   sigma=metrics.lee_bandwidth(X_tr, min(k, *X_tr.shape)))
    else:
        out["explained_variance"] = np.nan
        out["mmd2"] = np.nan
    out["linear_inseparability"] = metrics.linear_inseparability(E_te, split["s_test"])
    E_tr = np.asarray(model.transform(X_tr), dtype=float) if protocol == "train_test" else None
    out.update(downstream_scores(E_te, split["y_test"], split["s_test"], E_train=E_tr,
                                 y_train=split["y_train"], protocol=protocol,
                                 classifiers=classifiers, pos_label=pos_label))
    return out


def evaluate_splits(estimators, splits, *, score=None, progress=False):
    """Score several estimators on several splits; one tidy row per (split, method).

    Parameters
    ----------
    estimators : dict of str -> estimator
    splits : iterable of Bunch
        E.g. ``[load_lee2022_split("adult", i) for i in range(10)]`` or :func:`repeated_splits`.
    score : callable(estimator, split) -> dict, default=:func:`scorecard`
    progress : bool, default=False

    Returns
    -------
    DataFrame with columns ``split``, ``method`` and one per score.
    """
    score = scorecard if score is None else score
    rows = []
    splits = list(splits)
    for i, split in enumerate(_progress(splits, progress, total=len(splits), desc="splits")):
        for name, est in estimators.items():
            rows.append({"split": split.get("split", i), "method": name, **score(est, split)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# trade-off sweeps
# --------------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------------
# tables
# --------------------------------------------------------------------------------------------
def summarize(results, by="method", *, ddof=0, columns=None):
    """Mean and standard deviation of every numeric column, grouped by ``by``.

    ``ddof=0`` (population std, ``np.std``) by default: Kleindessner et al.'s tables were written by
    ``write_results.py`` with numpy's default and reproduce only with it (Adult PCA k=2: %Var
    7.78 ± 0.77, whereas ddof=1 gives ± 0.82).

    Returns
    -------
    DataFrame indexed by ``by`` with two-level columns (metric, "mean"/"std"); group order is
    the order of first appearance.
    """
    by = [by] if isinstance(by, str) else list(by)
    num = results.drop(columns=[c for c in ("split",) if c not in by], errors="ignore")
    cols = [c for c in (columns or num.columns) if c not in by
            and pd.api.types.is_numeric_dtype(num[c])]
    grouped = num.groupby(by, sort=False)[cols]
    mean, std = grouped.mean(), grouped.std(ddof=ddof)
    return pd.concat({"mean": mean, "std": std}, axis=1).swaplevel(axis=1)[cols]


def format_mean_std(mean, std, decimals=2):
    """``"7.78 ± 0.77"``: mean and std rounded to ``decimals`` (NaN → ``"n/a"``).

    Examples
    --------
    >>> format_mean_std(7.7799, 0.7731)
    '7.78 ± 0.77'
    >>> format_mean_std(0.3486, 0.0257, decimals=3)
    '0.349 ± 0.026'
    """
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "n/a"
    return f"{mean:.{decimals}f} ± {std:.{decimals}f}"


def format_table(results, by="method", *, decimals=2, scale=None, columns=None, ddof=0):
    """Paper-style table of ``mean ± std`` strings (one row per ``by`` group).

    Parameters
    ----------
    results : DataFrame
        Tidy results (:func:`evaluate_splits`, :func:`sweep`).
    decimals : int or dict of column -> int
    scale : dict of column -> float, optional
        Multiply before formatting (e.g. ``{"kernel_svm_accuracy": 100}`` for %Acc).
    """
    stats = summarize(results, by, ddof=ddof, columns=columns)
    scale = scale or {}
    out = {}
    for col in dict.fromkeys(stats.columns.get_level_values(0)):
        dec = decimals.get(col, 2) if isinstance(decimals, dict) else decimals
        f = scale.get(col, 1.0)
        out[col] = [format_mean_std(m * f, s * f, dec)
                    for m, s in zip(stats[(col, "mean")], stats[(col, "std")])]
    return pd.DataFrame(out, index=stats.index)


# --------------------------------------------------------------------------------------------
# reproducing Kleindessner et al. (2023) §5.1 ("as in Lee et al. 2022")
# --------------------------------------------------------------------------------------------
#: Data set keys of Kleindessner et al. §5.1 -> the names printed in their tables.
KLEINDESSNER_DATASETS = {"adult": "Adult Income", "german": "German Credit", "compas": "COMPAS"}
#: Data set key -> the table of ``fairlab.published.table("kleindessner2023", ...)``.
KLEINDESSNER_TABLES = {"adult": "table1", "german": "table2", "compas": "table3"}
#: Downstream classifier keys of :func:`lee_classifiers` -> the model names printed.
KLEINDESSNER_MODELS = {"kernel_svm": "Kernel SVM", "linear_svm": "Linear SVM", "mlp": "MLP"}
#: The rows of Tables 1-3, in the printed order.
KLEINDESSNER_METHODS = (
    "PCA", "FPCA (0.1, 0.01)", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "MbF-PCA (10^-6)", "INLP",
    "RLACE", "Fair PCA", "Fair Kernel PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)",
)
#: The only row of Table 4.
SAMADI_METHOD = "Fair PCA of Samadi et al. 2018"
#: Decimals the authors rounded each metric to (``write_results.py``); the printed cells drop
#: trailing zeros (``0.2`` is 0.20), so these, not the digits of a cell, are the rounding.
KLEINDESSNER_DECIMALS = {"var_pct": 2, "mmd2": 3, "accuracy_pct": 2, "delta_dp": 2}
# Lee et al.'s subsamples of the AIF360 data sets (rows before the 70/30 split).
_LEE_SUBSAMPLE = {"adult": 2261, "german": None, "compas": 2468}


def _kleindessner_key(dataset):
    if isinstance(dataset, str):
        key = dataset.strip().lower()
        for k, name in KLEINDESSNER_DATASETS.items():
            if key in (k, name.lower()):
                return k
    raise ValueError(
        f"dataset must be one of {list(KLEINDESSNER_DATASETS)} (or the printed names "
        f"{list(KLEINDESSNER_DATASETS.values())}); got {dataset!r}."
    )


def kleindessner_methods(k, methods=None, *, rlace_max_iter=10_000, random_state=0):
    """The representation learners of Kleindessner et al. Tables 1–4, with the paper's settings.

    Parameters
    ----------
    k : int
        Target dimension (the tables use 2 and 10).
    methods : list of str, optional
        Names as printed (:data:`KLEINDESSNER_METHODS`, or :data:`SAMADI_METHOD` for Table 4);
        default all of Tables 1–3.
    rlace_max_iter : int, default=10000
        Outer iterations of RLACE (the paper lowered the reference's 75 000 to 10 000).
    random_state : int, default=0
        Seed of the stochastic methods (RLACE, MbF-PCA's bandwidth subsample).

    Returns
    -------
    dict of str -> unfitted estimator
        In the order asked for.  The settings (reference-implementations notes §3.3):

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
        * :data:`SAMADI_METHOD`: ``SamadiFairPCA(k)`` (SDP + LP; the paper ran Samadi et al.'s
          MATLAB multiplicative-weights code and used the d-dimensional X·P, see the chapter).
    """
    from sklearn.decomposition import PCA

    from . import baselines
    from .kernel_pca import FairKernelPCA
    from .pca import FairPCA

    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise ValueError(f"k must be a positive integer; got {k!r}.")
    k = int(k)
    factories = {
        "PCA": lambda: PCA(k, svd_solver="full"),
        "FPCA (0.1, 0.01)": lambda: baselines.FPCA(k, delta=0.1, mu=0.01),
        "FPCA (0, 0.01)": lambda: baselines.FPCA(k, delta=0.0, mu=0.01),
        "MbF-PCA (10^-3)": lambda: baselines.MbFPCA(k, tau=1e-3, random_state=random_state),
        "MbF-PCA (10^-6)": lambda: baselines.MbFPCA(k, tau=1e-6, random_state=random_state),
        "INLP": lambda: baselines.INLP(n_components=k, center=False),
        "RLACE": lambda: baselines.RLACE(n_components=k, max_iter=rlace_max_iter,
                                         random_state=random_state),
        "Fair PCA": lambda: FairPCA(k, center=False),
        "Fair Kernel PCA": lambda: FairKernelPCA(k, kernel="rbf", center=False),
        "Fair PCA-S (0.5)": lambda: FairPCA(k, equalize_covariance=0.5, center=False),
        "Fair PCA-S (0.85)": lambda: FairPCA(k, equalize_covariance=0.85, center=False),
        SAMADI_METHOD: lambda: baselines.SamadiFairPCA(k),
    }
    names = list(KLEINDESSNER_METHODS) if methods is None else list(methods)
    unknown = [m for m in names if m not in factories]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose among {list(factories)}.")
    return {name: factories[name]() for name in names}


def kleindessner_splits(dataset, *, lee_splits=False, n_splits=10, random_state=0,
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
    key = _kleindessner_key(dataset)
    if isinstance(n_splits, bool) or not isinstance(n_splits, Integral) or n_splits < 1:
        raise ValueError(f"n_splits must be a positive integer; got {n_splits!r}.")
    if lee_splits:
        from .datasets import load_lee2022_split

        if n_splits > 10:
            raise ValueError(f"Lee et al. published 10 splits; got n_splits={n_splits}.")
        return [load_lee2022_split(key, i, data_home=data_home) for i in range(n_splits)]
    from . import datasets

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


def kleindessner_scores(methods, splits, *, protocols=("train_on_test",), classifiers=None,
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
        E.g. :func:`kleindessner_methods`.  Every method must produce the same width k.
    splits : list of Bunch
        E.g. :func:`kleindessner_splits`; a ``dataset`` key (or attribute) names the data set.
    protocols : str or tuple of str, default=("train_on_test",)
    classifiers : dict, optional
        Default :func:`lee_classifiers`; keys of :data:`KLEINDESSNER_MODELS` are printed with
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
        dataset = KLEINDESSNER_DATASETS.get(key, key)
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
                model_name = KLEINDESSNER_MODELS.get(clf, clf)
                rows.append({**base, "protocol": protocol, "model": model_name,
                             "metric": "accuracy_pct",
                             "value": 100.0 * scores[f"{clf}_accuracy"]})
                rows.append({**base, "protocol": protocol, "model": model_name,
                             "metric": "delta_dp", "value": float(scores[f"{clf}_dp"])})
    columns = ["dataset", "method", "k", "protocol", "model", "metric", "split", "value"]
    return pd.DataFrame(rows, columns=columns)


def kleindessner_summary(scores, *, ddof=0, runtime=False):
    """Mean and std over splits of :func:`kleindessner_scores`, one row per printed cell.

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


def kleindessner_table(dataset, k, methods=None, splits=None, *, lee_splits=False, n_splits=10,
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
        Names for :func:`kleindessner_methods` (default: all eleven rows), or estimators
        (then ``k`` must be one int, matching them).
    splits : list of Bunch, optional
        Default :func:`kleindessner_splits` ``(dataset, lee_splits=lee_splits,
        n_splits=n_splits, random_state=random_state)``.
    protocols, classifiers :
        See :func:`kleindessner_scores`.
    ddof : int, default=0
        See :func:`kleindessner_summary`.
    rlace_max_iter, random_state :
        See :func:`kleindessner_methods`.
    progress : bool, default=False
    return_scores : bool, default=False
        Also return the per-split scores of :func:`kleindessner_scores` (with
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
    >>> from fairlab.evaluation import kleindessner_table
    >>> t = kleindessner_table("german", 2, ["Fair PCA"], n_splits=2, classifiers={})
    >>> t[["dataset", "method", "k", "metric"]].values.tolist()
    [['German Credit', 'Fair PCA', 2, 'var_pct'], ['German Credit', 'Fair PCA', 2, 'mmd2']]
    """
    key = _kleindessner_key(dataset)
    ks = [k] if isinstance(k, Integral) else list(k)
    if isinstance(methods, dict) and len(ks) != 1:
        raise ValueError("with estimators in methods, pass one k (the estimators' width).")
    if splits is None:
        splits = kleindessner_splits(key, lee_splits=lee_splits, n_splits=n_splits,
                                     random_state=random_state, data_home=data_home)
    splits = [s if "dataset" in s else Bunch(**s, dataset=key) for s in splits]
    frames = []
    for kk in ks:
        ests = methods if isinstance(methods, dict) else kleindessner_methods(
            kk, methods, rlace_max_iter=rlace_max_iter, random_state=random_state)
        frames.append(kleindessner_scores(ests, splits, protocols=protocols,
                                          classifiers=classifiers, progress=progress))
    scores = pd.concat(frames, ignore_index=True)
    out = kleindessner_summary(scores, ddof=ddof)
    return (out, scores) if return_scores else out


def kleindessner_compare(ours, table=None, *, protocol="train_on_test"):
    """Our :func:`kleindessner_table` beside the printed cells, with exact-match columns.

    Parameters
    ----------
    ours : DataFrame
        :func:`kleindessner_table` output (one or several data sets; rows of other protocols
        than ``protocol`` are ignored).
    table : str, optional
        ``"table1"`` … ``"table4"``; default: the table of each data set in ``ours``
        (Table 4 when the only method is :data:`SAMADI_METHOD`).
    protocol : str, default="train_on_test"

    Returns
    -------
    DataFrame
        :func:`fairlab.published.compare` restricted to the published cells of the
        (dataset, method, k) present in ``ours``, plus ``mean_equal`` / ``std_equal``:
        ours rounded to the authors' decimals (:data:`KLEINDESSNER_DECIMALS`) equals the
        printed mean / std (:func:`fairlab.published.rounded_equal`), and ``status``:
        ``"equal"`` (mean and std), ``"mean equal"``, ``"within std"`` (abs(difference) ≤
        the paper's std) or ``"differs"``; ``"n/a"`` where either side has no number.
    """
    from . import published

    ours = ours[ours["protocol"] == protocol] if "protocol" in ours.columns else ours
    if table is not None:
        pubs = [published.table("kleindessner2023", table)]
    else:
        names = []
        for name in dict.fromkeys(ours["dataset"]):
            key = _kleindessner_key(name)
            only_samadi = set(ours.loc[ours["dataset"] == name, "method"]) == {SAMADI_METHOD}
            names.append("table4" if only_samadi else KLEINDESSNER_TABLES[key])
        pubs = [published.table("kleindessner2023", n) for n in dict.fromkeys(names)]
    pub = pd.concat(pubs, ignore_index=True)
    pub.attrs = pubs[0].attrs
    present = set(zip(ours["dataset"], ours["method"], ours["k"].astype(float)))
    pub = pub[[(d, m, float(k)) in present
               for d, m, k in zip(pub["dataset"], pub["method"], pub["k"])]]
    cells = set(zip(pub["dataset"], pub["method"], pub["k"], pub["metric"], pub["model"]))
    ours = ours[[(d, m, float(k), mt, md) in cells for d, m, k, mt, md in
                 zip(ours["dataset"], ours["method"], ours["k"], ours["metric"], ours["model"])]]
    cols = ["dataset", "method", "k", "model", "metric", "mean", "std"]
    res = published.compare(ours[cols], pub, on=["dataset", "method", "k", "model", "metric"])

    def equal(value, raw, metric):
        if pd.isna(value) or published.parse_cell(raw).decimals is None:
            return pd.NA
        return published.rounded_equal(value, raw, decimals=KLEINDESSNER_DECIMALS[metric])

    mean_eq, std_eq, status = [], [], []
    for row in res.itertuples():
        cell = published.parse_cell(row.paper)
        m_eq = equal(row.ours_mean, row.paper, row.metric)
        s_eq = (pd.NA if pd.isna(row.ours_std) or cell.std is None or math.isnan(cell.std)
                else published.rounded_equal(row.ours_std, f"{cell.std}",
                                             decimals=KLEINDESSNER_DECIMALS[row.metric]))
        mean_eq.append(m_eq)
        std_eq.append(s_eq)
        if m_eq is pd.NA:
            status.append("n/a")
        elif m_eq and s_eq is not False:
            status.append("equal")
        elif m_eq:
            status.append("mean equal")
        elif bool(row.within):
            status.append("within std")
        else:
            status.append("differs")
    res["mean_equal"] = pd.array(mean_eq, dtype="boolean")
    res["std_equal"] = pd.array(std_eq, dtype="boolean")
    res["status"] = status
    return res.reset_index(drop=True)


_STATUS_MARK = {"equal": "=", "mean equal": "≈", "within std": "~", "differs": "✗", "n/a": ""}
_METRIC_LABEL = {"var_pct": "%Var", "mmd2": "MMD²", "accuracy_pct": "%Acc", "delta_dp": "ΔDP"}


def kleindessner_side_by_side(compared):
    """Wide, printable view of :func:`kleindessner_compare`: one row per (k, method).

    Each cell reads ``ours | paper mark`` with means rounded to the authors' decimals and the
    mark ``=`` (mean and std equal the printed ones), ``≈`` (mean equal, std not), ``~``
    (within the paper's std), ``✗`` (differs by more than the paper's std); empty where
    either side has no number (``n/a``).  Columns: ``%Var``, ``MMD²`` and ``<model> %Acc`` /
    ``<model> ΔDP``, in the paper's order.
    """
    rows = {}
    for r in compared.itertuples():
        label = _METRIC_LABEL[r.metric] if not r.model else f"{r.model} {_METRIC_LABEL[r.metric]}"
        dec = KLEINDESSNER_DECIMALS[r.metric]
        ours = "n/a" if pd.isna(r.ours_mean) else f"{r.ours_mean:.{dec}f}"
        paper = "n/a" if pd.isna(r.paper_mean) else f"{r.paper_mean:.{dec}f}"
        rows.setdefault((int(r.k), r.method), {})[label] = \
            f"{ours} | {paper} {_STATUS_MARK[r.status]}".rstrip()
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index = pd.MultiIndex.from_tuples(out.index, names=["k", "method"])
    return out.fillna("")


def kleindessner_match_counts(compared, by=("method",)):
    """How many printed cells each method reproduces: counts of each ``status``."""
    by = [by] if isinstance(by, str) else list(by)
    counts = compared.groupby([*by, "status"], sort=False).size().unstack(fill_value=0)
    order = [s for s in ("equal", "mean equal", "within std", "differs", "n/a")
             if s in counts.columns]
    return counts[order]


def lee_gaussian_splits(n_features=20, *, n_splits=10, n_per_group=240, train_per_group=168,
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
    list of Bunch with the keys of :func:`kleindessner_splits` (``dataset="synthetic"``) and
    ``d``.
    """
    from .datasets import make_lee_gaussians

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


def kleindessner_runtimes(grid, methods=None, *, repeats=1, n_per_group=240,
                          train_per_group=168, rlace_max_iter=10_000, random_state=0,
                          progress=False):
    """Fit times on Lee et al.'s synthetic data (Kleindessner et al. Fig. 3: vs d; Fig. 7: vs k).

    For each point ``{"d": d, "k": k}`` of ``grid`` the training part of split 0 of
    :func:`lee_gaussian_splits` (336 rows) is built outside the timer and every method of
    :func:`kleindessner_methods` ``(k, methods)`` is fitted ``repeats`` times
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
        ests = kleindessner_methods(point["k"], methods, rlace_max_iter=rlace_max_iter,
                                    random_state=random_state)
        fns = {name: (lambda data, est=est: _fit_with_sensitive(
            clone(est), data.X_train, data.y_train, data.s_train)) for name, est in ests.items()}

        def make_data(d, k):
            return lee_gaussian_splits(d, n_splits=1, n_per_group=n_per_group,
                                       train_per_group=train_per_group,
                                       random_state=random_state)[0]

        frames.append(runtime_sweep(fns, make_data, [point], repeats=repeats))
    return pd.concat(frames, ignore_index=True)


def runtime_ratios(runtimes, reference="Fair PCA", *, by=("d", "k"), column="seconds"):
    """Each method's time divided by ``reference``'s at the same grid point.

    Returns ``runtimes`` with an added column ``ratio`` (NaN where the reference is absent).
    """
    by = [by] if isinstance(by, str) else [b for b in by if b in runtimes.columns]
    ref = runtimes[runtimes["method"] == reference].set_index(by)[column]
    if ref.empty:
        raise ValueError(f"reference method {reference!r} is not in runtimes.")
    key = pd.MultiIndex.from_frame(runtimes[by]) if len(by) > 1 else runtimes[by[0]]
    out = runtimes.copy()
    out["ratio"] = runtimes[column].to_numpy() / ref.reindex(key).to_numpy()
    return out


def kleindessner_reported_runtimes():
    """The running times Kleindessner et al. state in the text of §5.1 and App. C.3.

    Their machine: MacBook Pro, 2.6 GHz 6-core Intel Core i7, 16 GB (MbF-PCA in MATLAB, the
    rest in Python; wall time).  ``relation`` is ``"<"`` / ``">"`` / ``"≈"`` as written
    ("none of our algorithms runs for more than 0.5 seconds", "more than 2000 seconds",
    "about 260 seconds").

    Returns
    -------
    DataFrame with columns ``figure, method, d, k, relation, seconds``.
    """
    rows = [
        ("Fig. 3", "FPCA (0, 0.01)", 100, 5, ">", 2000.0),
        ("Fig. 3", "RLACE", 100, 5, "≈", 20.0),
        ("Fig. 3", "MbF-PCA (10^-3)", 100, 5, "≈", 1.3),
        ("Fig. 3", "INLP", 100, 5, "≈", 0.8),
        ("Fig. 3", "Fair PCA", 800, 5, "<", 0.5),
        ("Fig. 3", "Fair PCA-S (0.85)", 800, 5, "<", 0.5),
        ("Fig. 3", "Fair Kernel PCA", 800, 5, "<", 0.5),
        ("Fig. 3", "RLACE", 800, 5, "≈", 260.0),
        ("Fig. 3", "MbF-PCA (10^-3)", 800, 5, "≈", 43.0),
        ("Fig. 3", "INLP", 800, 5, "≈", 1270.0),
        ("Fig. 7", "MbF-PCA (10^-3)", 100, 50, "≈", 290.0),
    ]
    return pd.DataFrame(rows, columns=["figure", "method", "d", "k", "relation", "seconds"])


# --------------------------------------------------------------------------------------------
# reproducing Pérez-Suay et al. (2017) §4 (Fair Kernel Learning: Figs. 4-6)
# --------------------------------------------------------------------------------------------
#: The hyper-parameter grids of Pérez-Suay et al. §4.2 (and the reference code, IPL-UV/FKL):
#: ridge λ, KRR width σ, width σ_S of the kernel on S, fairness weight μ (the paper's μ = the
#: ``t = mu / n²`` of :class:`~fairlab.FairLinearRegression` and
#: :class:`~fairlab.FairKernelRegression`), and the KPCA/KFDR width σ of §4.4.
PEREZ_SUAY_GRIDS = {
    "alpha": np.logspace(-4, 3, 7),
    "sigma": np.logspace(-4, 4, 10),
    "sigma_s": np.logspace(-1, 2, 10),
    "mu": np.logspace(-7, 3, 25),
    "sigma_dr": np.logspace(-5, 3, 15),
}
#: Data set -> sensitive choice -> the 0-based columns of ``X`` that hold it (the matrix S of the
#: paper): a9a's one-hot blocks f72-f73 (sex) and f67-f73 (race and sex, q = 7), CMC's
#: features 2, 3, 4 and 9 (one column each, protected one at a time).
PEREZ_SUAY_SENSITIVE = {
    "adult": {"sex": [71, 72], "sex+race": [66, 67, 68, 69, 70, 71, 72]},
    "cmc": {"wife_education": [1], "husband_education": [2], "n_children": [3],
            "media_exposure": [8]},
}
#: Paper-scale sizes (§4.1): train / validation rows per repetition and test rows.
PEREZ_SUAY_SIZES = {"adult": (5000, 5000, 16281), "cmc": (500, 500, 473)}
PEREZ_SUAY_VARIANTS = ("with S", "without S")
PEREZ_SUAY_REGRESSION_METHODS = ("LR", "FLR", "KRR", "FKR")
PEREZ_SUAY_DR_METHODS = ("PCA", "KPCA", "FDR", "KFDR")
_PS_ENCODINGS = ("columns", "one-hot")


def _ps_key(dataset):
    key = dataset.strip().lower() if isinstance(dataset, str) else None
    key = {"a9a": "adult"}.get(key, key)
    if key not in PEREZ_SUAY_SENSITIVE:
        raise ValueError(f"dataset must be 'adult' (a9a) or 'cmc'; got {dataset!r}.")
    return key


def _ps_names(values, allowed, name):
    values = (values,) if isinstance(values, str) else tuple(values)
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"{name} must be among {list(allowed)}; got {list(values)!r}.")
    return values


def _ps_positive_int(value, name, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}.")
    return int(value)


def perez_suay_splits(dataset, *, n_repetitions=25, n_train=None, n_val=None, n_test=None,
                      random_state=0, data_home=None):
    """The repetitions of Pérez-Suay et al. §4.1: train / validation / test rows.

    * ``"adult"``: LIBSVM a9a (:func:`fairlab.datasets.load_a9a`; 123 binary features).  Each
      repetition draws ``n_train`` + ``n_val`` rows (paper: 5000 + 5000) from the 32 561
      training rows without replacement; the test rows are the test file a9a.t — all 16 281
      (the paper), or a seeded random subset of ``n_test`` rows, the same in every repetition.
    * ``"cmc"``: the 1473 rows of CMC (:func:`fairlab.datasets.load_cmc`) permuted per
      repetition: ``n_train`` / ``n_val`` / ``n_test`` rows (paper: 500 / 500 / the other 473).

    Parameters
    ----------
    dataset : {"adult", "cmc"}
        ``"a9a"`` is accepted for ``"adult"``.
    n_repetitions : int, default=25
        The paper averages 25 repetitions.
    n_train, n_val, n_test : int, optional
        Default: the paper's sizes (:data:`PEREZ_SUAY_SIZES`).
    random_state : int, default=0
        Repetition i permutes the rows with ``numpy.random.default_rng(random_state + 1 + i)``;
        the a9a test subset uses ``default_rng(random_state)``.  (The reference MATLAB code's
        ``rand('seed', 123)`` stream cannot be replayed: same protocol, other draws.)
    data_home : path, optional
        Passed to the loaders.

    Returns
    -------
    list of Bunch
        ``X_train, y_train, X_val, y_val, X_test, y_test`` (numpy; all features, the sensitive
        columns included; ``y`` in {−1, +1}: +1 = income > 50K / uses contraception),
        ``repetition``, ``dataset``, ``feature_names``.
    """
    from . import datasets

    key = _ps_key(dataset)
    n_repetitions = _ps_positive_int(n_repetitions, "n_repetitions")
    sizes = dict(zip(("n_train", "n_val", "n_test"), PEREZ_SUAY_SIZES[key]))
    for name, value in (("n_train", n_train), ("n_val", n_val), ("n_test", n_test)):
        if value is not None:
            sizes[name] = _ps_positive_int(value, name)
    if key == "adult":
        train = datasets.load_a9a(subset="train", data_home=data_home)
        test = datasets.load_a9a(subset="test", data_home=data_home)
        X_pool, y_pool = train.X.to_numpy(float), 2.0 * train.y.to_numpy() - 1.0
        X_test, y_test = test.X.to_numpy(float), 2.0 * test.y.to_numpy() - 1.0
        if sizes["n_train"] + sizes["n_val"] > len(y_pool) or sizes["n_test"] > len(y_test):
            raise ValueError(
                f"a9a has {len(y_pool)} training rows (n_train + n_val) and {len(y_test)} test "
                f"rows (n_test); got {sizes}."
            )
        if sizes["n_test"] < len(y_test):
            rows = np.sort(np.random.default_rng(random_state).choice(
                len(y_test), sizes["n_test"], replace=False))
            X_test, y_test = X_test[rows], y_test[rows]
        names = list(train.feature_names)
    else:
        data = datasets.load_cmc(data_home=data_home)
        X_pool, y_pool = data.X.to_numpy(float), 2.0 * data.y.to_numpy() - 1.0
        names = list(data.feature_names)
        if sum(sizes.values()) > len(y_pool):
            raise ValueError(f"CMC has {len(y_pool)} rows; n_train + n_val + n_test = "
                             f"{sum(sizes.values())} is more.")
    out = []
    n_tr, n_va = sizes["n_train"], sizes["n_val"]
    for i in range(n_repetitions):
        perm = np.random.default_rng(random_state + 1 + i).permutation(len(y_pool))
        tr, va = perm[:n_tr], perm[n_tr:n_tr + n_va]
        split = Bunch(X_train=X_pool[tr], y_train=y_pool[tr], X_val=X_pool[va],
                      y_val=y_pool[va], repetition=i, dataset=key, feature_names=names)
        if key == "adult":
            split.X_test, split.y_test = X_test, y_test
        else:
            te = perm[n_tr + n_va:n_tr + n_va + sizes["n_test"]]
            split.X_test, split.y_test = X_pool[te], y_pool[te]
        out.append(split)
    return out


def _ps_sensitive_columns(dataset, sensitive):
    key = _ps_key(dataset)
    names = _ps_names(sensitive, tuple(PEREZ_SUAY_SENSITIVE[key]), "sensitive")
    return key, names


def _ps_inputs(split, columns, variant, encoding):
    """Inputs (with or without the sensitive columns) and the matrices S of one split."""
    parts = ("train", "val", "test")
    Xs = {p: np.asarray(split[f"X_{p}"], float) for p in parts}
    S = {p: Xs[p][:, columns] for p in parts}
    if encoding == "one-hot":  # a column with more than two values: one indicator per value
        blocks = {p: [] for p in parts}
        for j in range(len(columns)):
            values = np.unique(np.concatenate([S[p][:, j] for p in parts]))
            for p in parts:
                col = S[p][:, j]
                blocks[p].append(col[:, None] if len(values) <= 2 else
                                 (col[:, None] == values[None, :]).astype(float))
        S = {p: np.hstack(blocks[p]) for p in parts}
    if variant == "without S":
        Xs = {p: np.delete(X, columns, axis=1) for p, X in Xs.items()}
    return Xs, S


def _ps_error(f, y):
    """Classification error of the sign of the regression output (ties go to +1)."""
    return float(np.mean(np.where(np.asarray(f) >= 0, 1.0, -1.0) != y))


def _ps_hsic_rbf(f, S, gamma):
    """(1/n²) f̃ᵀ K_S f̃ for an RBF kernel on S with few distinct rows, without the n×n matrix.

    f̃ is the centred f; rows of S that coincide share one group: with F_a = Σ_{i∈a} f̃_i,
    the quadratic form is Σ_ab k(s_a, s_b) F_a F_b.
    """
    f = np.asarray(f, float)
    f = f - f.mean(axis=0)
    values, inverse = np.unique(S, axis=0, return_inverse=True)
    F = np.zeros((len(values),) + f.shape[1:])
    np.add.at(F, inverse.reshape(-1), f)
    d2 = ((values[:, None, :] - values[None, :, :]) ** 2).sum(-1)
    K = np.exp(-gamma * d2)
    quad = np.einsum("a...,ab,b...->...", F, K, F)
    return quad / len(f) ** 2


def _ps_linear_hsic(f, S):
    """HSIC with linear kernels, per column of f: (1/n²)‖S̃ᵀf̃_j‖² (Pérez-Suay et al.'s test)."""
    f = np.atleast_2d(np.asarray(f, float).T).T
    return np.array([metrics.hsic(f[:, j], S, sensitive_type="continuous")
                     for j in range(f.shape[1])])


def _ps_stack(models, coef):
    """One model whose ``coef``/``intercept_`` hold a whole μ path (predict is linear in them)."""
    import copy

    stacked = copy.copy(models[0])
    if coef == "coef_":
        stacked.coef_ = np.vstack([m.coef_ for m in models])
    else:
        stacked.dual_coef_ = np.column_stack([m.dual_coef_ for m in models])
    stacked.intercept_ = np.array([m.intercept_ for m in models])
    return stacked


def _ps_path_rows(rows, base, y_test, S_test, method, mu, f, hsic_model, seconds, **params):
    """Append one row per column (μ) of the test predictions ``f``."""
    for j in range(f.shape[1]):
        rows.append({**base, "method": method, "mu": float(mu[j]),
                     "error": _ps_error(f[:, j], y_test),
                     "hsic": float(_ps_linear_hsic(f[:, j], S_test)[0]),
                     "hsic_model": float(hsic_model[j]), "seconds": seconds,
                     "alpha": np.nan, "sigma": np.nan, "sigma_s": np.nan, **params})


def _ps_knn_row(base, method, k, E_tr, y, E_te, y_test, S_test, sigma, seconds):
    """1-NN test error and linear HSIC of one embedding.

    The neighbour search reads the embeddings rounded to 8 significant digits of their largest
    entry.  a9a's binary features put many test points at (nearly) equal distances from two
    training points; unrounded, which of them is nearest is decided by the last bits of the
    embedding, which change with the BLAS kernel and thread count.  Rounded, such near-ties
    become exact ties, which scikit-learn breaks by training-row order on every machine.
    """
    from sklearn.neighbors import KNeighborsClassifier

    scale = max(float(np.abs(E_tr).max(initial=0.0)), np.finfo(float).tiny)
    unit = 10.0 ** (np.floor(np.log10(scale)) - 7)
    pred = KNeighborsClassifier(n_neighbors=1).fit(np.round(E_tr / unit), y).predict(
        np.round(E_te / unit))
    return {**base, "method": method, "n_components": int(k),
            "error": float(np.mean(pred != y_test)),
            "hsic": metrics.hsic(E_te, S_test, sensitive_type="continuous"),
            "sigma": sigma if method in ("KPCA", "KFDR") else np.nan, "seconds": seconds}


def _ps_tune_linear(X, y, X_val, y_val, S, alphas):
    from .kernel_learning import FairLinearRegression

    best, best_acc = None, -1.0
    for alpha in alphas:  # first maximum, as MATLAB's max
        model = FairLinearRegression(alpha=float(alpha)).fit(X, y, sensitive_features=S)
        acc = 1.0 - _ps_error(model.predict(X_val), y_val)
        if acc > best_acc:
            best, best_acc = (float(alpha), model), acc
    return best


def _ps_tune_kernel(X, y, X_val, y_val, alphas, sigmas):
    from ._validation import UnconstrainedFallbackWarning
    from .kernel_learning import FairKernelRegression

    acc = np.empty((len(sigmas), len(alphas)))
    models = {}
    for i, sigma in enumerate(sigmas):
        with warnings.catch_warnings():  # μ = 0: kernel ridge on purpose (no K_S to build)
            warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
            fits = [FairKernelRegression(alpha=float(a), gamma=1.0 / (2.0 * sigma**2)).fit(X, y)
                    for a in alphas]
        f_val = _ps_stack(fits, "dual_coef_").predict(X_val)  # one validation kernel per σ
        acc[i] = [1.0 - _ps_error(f_val[:, j], y_val) for j in range(len(alphas))]
        models[i] = fits
    # ties: the first maximum in MATLAB's column-major order (smallest λ, then smallest σ)
    i, j = np.argwhere(acc.T == acc.max())[0][::-1]
    return float(alphas[j]), float(sigmas[i]), models[i][j]


def perez_suay_regression(splits, sensitive, *, variants=PEREZ_SUAY_VARIANTS,
                          methods=PEREZ_SUAY_REGRESSION_METHODS, grids=None,
                          sensitive_encoding="columns", progress=False):
    """Error and HSIC of LR, FLR, KRR and FKR on every repetition (Pérez-Suay et al. Figs. 4–5).

    The protocol of §4.2 and the reference code (IPL-UV/FKL, ``FL.m`` / ``FKL.m``), per
    repetition and per variant ("with S": all features; "without S": the sensitive columns
    removed from the inputs, kept in S):

    * the binary label y ∈ {−1, +1} is regressed and classified by its sign (with one
      output per class the max vote is the same decision, by linearity);
    * **LR**: ridge λ from ``grids["alpha"]`` (7 values in [1e-4, 1e3]) by validation
      accuracy; **FLR**: :class:`~fairlab.FairLinearRegression` at that λ, the whole μ path
      from one ``fit_path`` (linear kernel on S, as the paper);
    * **KRR**: (σ, λ) from ``grids["sigma"]`` × ``grids["alpha"]`` (RBF
      exp(−‖x − x'‖²/(2σ²))) by validation accuracy; σ_S from ``grids["sigma_s"]``
      **maximising** the training HSIC between the KRR predictions and S with the RBF kernel on
      S; **FKR**: :class:`~fairlab.FairKernelRegression` at (λ, σ, σ_S), the μ path by
      ``fit_path``;
    * μ: the paper's μ ∈ ``grids["mu"]`` (25 values in [1e-7, 1e3]) is the weight of the
      biased HSIC (1/n²)·tr(…), i.e. ``mu = n² · μ`` for the fairlab estimators (the
      reference code's ``n² · logspace(-7, 3, 25)``).

    The test error is the fraction of wrong signs; ``hsic`` is the linear-kernel HSIC between
    the real-valued test predictions and S, (1/n²)‖S̃ᵀf̃‖² (``FL.m``'s measure), for **every**
    method so that the curves share one axis; ``hsic_model`` measures it with the model's own
    kernel on S (RBF with σ_S for KRR/FKR, as ``FKL.m`` plots them; linear for LR/FLR).

    Parameters
    ----------
    splits : list of Bunch
        :func:`perez_suay_splits`.
    sensitive : str or list of str
        Keys of :data:`PEREZ_SUAY_SENSITIVE` for the splits' data set (``"sex"``,
        ``"sex+race"``; ``"wife_education"``, ``"husband_education"``, ``"n_children"``,
        ``"media_exposure"``).  Several are run on the same fits where they coincide (the
        "with S" hyper-parameters do not depend on S).
    variants : tuple of {"with S", "without S"}
    methods : tuple of {"LR", "FLR", "KRR", "FKR"}
    grids : dict, optional
        Replaces entries of :data:`PEREZ_SUAY_GRIDS` (``alpha``, ``sigma``, ``sigma_s``, ``mu``).
    sensitive_encoding : {"columns", "one-hot"}, default="columns"
        ``"columns"``: S is the matrix of the sensitive columns of X as they are (a9a: its
        one-hot blocks, as the reference code's ``Q = X(:, 72:73)``; CMC: the attribute's
        numeric column, e.g. the number of children 0–16, penalised as a number).
        ``"one-hot"``: a column with more than two values becomes one indicator per value
        (CMC's education levels, media exposure is already binary; a9a unchanged).  The
        integer codes are never read as group labels by accident: S is always passed as a
        float matrix, to the estimators and to the HSIC.
    progress : bool, default=False

    Returns
    -------
    DataFrame
        One row per (sensitive, variant, method, repetition, μ): ``dataset, sensitive,
        variant, method, repetition, mu`` (the paper's μ; 0 for LR and KRR), ``error``
        (fraction), ``hsic``, ``hsic_model``, ``alpha, sigma, sigma_s`` (chosen values; NaN
        where unused) and ``seconds``: the fit time of the whole μ path (FLR, FKR) or of the
        whole validation search (LR, KRR; 0 where a "with S" search was shared with an earlier
        sensitive choice, so that a sum over rows counts each fit once).
    """
    from .kernel_learning import FairKernelRegression, FairLinearRegression

    splits = list(splits)
    if not splits:
        raise ValueError("splits must be a non-empty list of perez_suay_splits() Bunch objects.")
    key, names = _ps_sensitive_columns(splits[0].get("dataset", ""), sensitive)
    variants = _ps_names(variants, PEREZ_SUAY_VARIANTS, "variants")
    methods = _ps_names(methods, PEREZ_SUAY_REGRESSION_METHODS, "methods")
    sensitive_encoding = _ps_names(sensitive_encoding, _PS_ENCODINGS, "sensitive_encoding")[0]
    unknown = set(grids or {}) - set(PEREZ_SUAY_GRIDS)
    if unknown:
        raise ValueError(f"grids has unknown keys {sorted(unknown)}; use {list(PEREZ_SUAY_GRIDS)}.")
    g = {**PEREZ_SUAY_GRIDS, **{k: np.asarray(v, float) for k, v in (grids or {}).items()}}
    jobs = [(split, name, variant) for split in splits for name in names for variant in variants]
    rows, cache = [], {}
    for split, name, variant in _progress(jobs, progress, total=len(jobs), desc="fits"):
        columns = PEREZ_SUAY_SENSITIVE[key][name]
        Xs, S = _ps_inputs(split, columns, variant, sensitive_encoding)
        X, y = Xs["train"], np.asarray(split.y_train, float)
        n = len(y)
        y_val, y_te = np.asarray(split.y_val, float), np.asarray(split.y_test, float)
        base = {"dataset": key, "sensitive": name, "variant": variant,
                "repetition": split.get("repetition", 0)}
        removed = tuple(columns) if variant == "without S" else ()
        mus = n**2 * g["mu"]

        add = functools.partial(_ps_path_rows, rows, base, y_te, S["test"])
        if {"LR", "FLR"} & set(methods):
            ck = ("linear", id(split), removed)
            if ck not in cache:
                start = time.perf_counter()
                cache[ck] = [*_ps_tune_linear(X, y, Xs["val"], y_val, S["train"], g["alpha"]),
                             time.perf_counter() - start]
            alpha, lr, lr_seconds = cache[ck]
            cache[ck][-1] = 0.0  # shared with a later panel: its cost is counted once
            if "LR" in methods:
                f = lr.predict(Xs["test"])[:, None]
                add("LR", [0.0], f, _ps_linear_hsic(f, S["test"]), lr_seconds, alpha=alpha)
            if "FLR" in methods:
                start = time.perf_counter()
                path = FairLinearRegression(alpha=alpha).fit_path(X, y, mus,
                                                                  sensitive_features=S["train"])
                seconds = time.perf_counter() - start
                f = _ps_stack(path, "coef_").predict(Xs["test"])
                add("FLR", g["mu"], f, _ps_linear_hsic(f, S["test"]), seconds, alpha=alpha)
        if {"KRR", "FKR"} & set(methods):
            ck = ("kernel", id(split), removed)
            if ck not in cache:
                start = time.perf_counter()
                cache[ck] = [*_ps_tune_kernel(X, y, Xs["val"], y_val, g["alpha"], g["sigma"]),
                             time.perf_counter() - start]
            alpha, sigma, krr, krr_seconds = cache[ck]
            cache[ck][-1] = 0.0
            f_tr = krr.predict(X)
            # σ_S maximises the dependence of the unfair model on S (§4.2), first maximum
            dep = [_ps_hsic_rbf(f_tr, S["train"], 1.0 / (2.0 * s**2)) for s in g["sigma_s"]]
            sigma_s = float(g["sigma_s"][int(np.argmax(dep))])
            gamma_s = 1.0 / (2.0 * sigma_s**2)
            params = {"alpha": alpha, "sigma": sigma, "sigma_s": sigma_s}
            if "KRR" in methods:
                f = krr.predict(Xs["test"])[:, None]
                add("KRR", [0.0], f, _ps_hsic_rbf(f, S["test"], gamma_s), krr_seconds,
                    **params)
            if "FKR" in methods:
                start = time.perf_counter()
                path = FairKernelRegression(
                    alpha=alpha, gamma=1.0 / (2.0 * sigma**2), sensitive_kernel="rbf",
                    sensitive_gamma=gamma_s).fit_path(X, y, mus, sensitive_features=S["train"])
                seconds = time.perf_counter() - start
                f = _ps_stack(path, "dual_coef_").predict(Xs["test"])
                add("FKR", g["mu"], f, _ps_hsic_rbf(f, S["test"], gamma_s), seconds, **params)
    columns = ["dataset", "sensitive", "variant", "method", "repetition", "mu", "error", "hsic",
               "hsic_model", "alpha", "sigma", "sigma_s", "seconds"]
    return pd.DataFrame(rows, columns=columns)


def perez_suay_dimensionality_reduction(splits, sensitive, *, variants=PEREZ_SUAY_VARIANTS,
                                        methods=PEREZ_SUAY_DR_METHODS,
                                        n_components=(1, 2, 3, 5, 10, 20, 50),
                                        fair_components=None, sigmas=None, ridge=1e-7,
                                        sensitive_encoding="columns", progress=False):
    """1-NN error and HSIC of PCA, KPCA, FDR and KFDR embeddings (Pérez-Suay et al. Fig. 6).

    Protocol of §4.4 and ``FDR.m``, per repetition and variant (validation rows unused):

    * **PCA** (``sklearn.decomposition.PCA``) and **KPCA** (RBF kernel PCA:
      :class:`~fairlab.KernelFairDR` without S, whose scores equal scikit-learn's
      ``KernelPCA``'s and which also handles the degenerate kernels of the extreme widths)
      with each number of components n_p in ``n_components`` (capped at the data's rank
      limits);
    * **FDR**: :class:`~fairlab.FairDR` and **KFDR**: :class:`~fairlab.KernelFairDR` (linear
      kernel on S), both with ``ridge`` = 1e-7 on the denominator as the reference code and
      ``fair_components`` directions (default q, the number of columns of S: 2 for sex, 7 for
      race and sex, as ``FDR.m``'s ``nf = size(Q, 2)``);
    * the RBF width σ of KPCA and KFDR: the value of ``sigmas`` (default 15 values in
      [1e-5, 1e3]) that **maximises** the training HSIC between the kernel of X and S,
      (1/n²)tr(K_σ H S Sᵀ H) (the paper's "σ_S ... optimized to maximize the dependence");
    * a 1-nearest-neighbour classifier is trained on the training embedding and scored on the
      test embedding (``error``, fraction); ``hsic`` = (1/n²)‖S̃ᵀẼ‖²_F, the linear HSIC of the
      test embedding E with S (the sum over components; it grows with n_p and with the scale
      of the scores, which differs between methods: PCA/FDR unit-norm directions, KPCA/KFDR
      unit-norm RKHS directions).

    Parameters
    ----------
    splits : list of Bunch
        :func:`perez_suay_splits` (``"adult"`` in the paper; CMC works too).
    sensitive : str or list of str
        See :func:`perez_suay_regression`.
    variants, sensitive_encoding, progress :
        See :func:`perez_suay_regression`.
    methods : tuple of {"PCA", "KPCA", "FDR", "KFDR"}
    n_components : sequence of int, default=(1, 2, 3, 5, 10, 20, 50)
        n_p of PCA and KPCA.
    fair_components : int, optional
        Directions of FDR and KFDR; default q.
    sigmas : array-like, optional
        Default ``PEREZ_SUAY_GRIDS["sigma_dr"]``.
    ridge : float >= 0, default=1e-7

    Returns
    -------
    DataFrame
        ``dataset, sensitive, variant, method, repetition, n_components, error, hsic, sigma,
        seconds`` (fit time of the estimator, repeated on each n_p row it serves).
    """
    from sklearn.decomposition import PCA

    from .kernel_learning import FairDR

    splits = list(splits)
    if not splits:
        raise ValueError("splits must be a non-empty list of perez_suay_splits() Bunch objects.")
    key, names = _ps_sensitive_columns(splits[0].get("dataset", ""), sensitive)
    variants = _ps_names(variants, PEREZ_SUAY_VARIANTS, "variants")
    methods = _ps_names(methods, PEREZ_SUAY_DR_METHODS, "methods")
    sensitive_encoding = _ps_names(sensitive_encoding, _PS_ENCODINGS, "sensitive_encoding")[0]
    ks = sorted({_ps_positive_int(k, "n_components") for k in np.atleast_1d(n_components)})
    fair_components = _ps_positive_int(fair_components, "fair_components", allow_none=True)
    sigmas = PEREZ_SUAY_GRIDS["sigma_dr"] if sigmas is None else np.asarray(sigmas, float)
    if not isinstance(ridge, Real) or ridge < 0:
        raise ValueError(f"ridge must be a non-negative number; got {ridge!r}.")
    jobs = [(split, name, variant) for split in splits for name in names for variant in variants]
    rows = []
    for split, name, variant in _progress(jobs, progress, total=len(jobs), desc="fits"):
        columns = PEREZ_SUAY_SENSITIVE[key][name]
        Xs, S = _ps_inputs(split, columns, variant, sensitive_encoding)
        X, X_te = Xs["train"], Xs["test"]
        y, y_te = np.asarray(split.y_train, float), np.asarray(split.y_test, float)
        n, d = X.shape
        base = {"dataset": key, "sensitive": name, "variant": variant,
                "repetition": split.get("repetition", 0)}
        sigma = np.nan
        if {"KPCA", "KFDR"} & set(methods):
            dep = [metrics.hsic(X, S["train"], kernel="rbf", gamma=1.0 / (2.0 * s**2),
                                sensitive_type="continuous") for s in sigmas]
            sigma = float(sigmas[int(np.argmax(dep))])
        gamma = 1.0 / (2.0 * sigma**2)
        q = fair_components or S["train"].shape[1]

        for method in methods:
            start = time.perf_counter()
            if method == "PCA":
                top = [k for k in ks if k <= min(n, d)]
                model = PCA(max(top), svd_solver="full").fit(X)
            elif method == "KPCA":  # KernelFairDR without S is kernel PCA (sklearn's scores)
                model = _ps_kernel_dr(X, max(k for k in ks if k < n), gamma, None, ridge)
            elif method == "FDR":
                top = [min(q, d)]
                model = FairDR(top[0], ridge=ridge).fit(X, sensitive_features=S["train"])
            else:
                model = _ps_kernel_dr(X, min(q, n - 1), gamma, S["train"], ridge)
            if method in ("KPCA", "KFDR"):  # fewer directions where the kernel's rank is lower
                top = [k for k in ks if k <= model.n_components_] if method == "KPCA" else [
                    model.n_components_]
            seconds = time.perf_counter() - start
            E_tr, E_te = model.transform(X), model.transform(X_te)
            for k in top:
                rows.append(_ps_knn_row(base, method, k, E_tr[:, :k], y, E_te[:, :k], y_te,
                                        S["test"], sigma, seconds))
    columns = ["dataset", "sensitive", "variant", "method", "repetition", "n_components",
               "error", "hsic", "sigma", "seconds"]
    return pd.DataFrame(rows, columns=columns)


def _ps_kernel_dr(X, k, gamma, S, ridge):
    """RBF KernelFairDR with k directions (kernel PCA for S=None), fewer if the rank is lower."""
    from ._validation import UnconstrainedFallbackWarning
    from .kernel_learning import KernelFairDR

    est = KernelFairDR(k, kernel="rbf", gamma=gamma, sensitive_kernel="linear", ridge=ridge)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        try:
            return est.fit(X, sensitive_features=S)
        except ValueError:  # e.g. a very wide kernel: rank(K̃) < k
            rank = clone(est).set_params(n_components=1, eigen_solver="dense").fit(
                X, sensitive_features=S).eigenvalues_kernel_.size
            if rank >= k:
                raise
            return est.set_params(n_components=rank).fit(X, sensitive_features=S)


def _ps_label(method, variant):
    return method if variant == "with S" else f"{method}\\S"


def perez_suay_summary(results, *, ddof=0):
    """Mean and std over repetitions of :func:`perez_suay_regression` or
    :func:`perez_suay_dimensionality_reduction`, one row per point of a figure.

    Returns
    -------
    DataFrame
        ``dataset, sensitive, variant, method, label`` (the legend: ``"FKR"``, ``"FKR\\S"``,
        …), the path coordinate (``mu`` or ``n_components``), ``error_mean, error_std,
        hsic_mean, hsic_std`` (and ``hsic_model_*`` for regression) and ``n_repetitions``.
    """
    coord = "mu" if "mu" in results.columns else "n_components"
    if coord not in results.columns or "error" not in results.columns:
        raise ValueError("results must come from perez_suay_regression or "
                         "perez_suay_dimensionality_reduction.")
    keys = ["dataset", "sensitive", "variant", "method", coord]
    values = [c for c in ("error", "hsic", "hsic_model") if c in results.columns]
    grouped = results.groupby(keys, sort=False)[values]
    mean, std = grouped.mean(), grouped.std(ddof=ddof)
    out = pd.concat([mean.add_suffix("_mean"), std.add_suffix("_std")], axis=1)
    out["n_repetitions"] = results.groupby(keys, sort=False)["repetition"].nunique()
    out = out.reset_index()
    out.insert(4, "label", [_ps_label(m, v) for m, v in zip(out["method"], out["variant"])])
    return out


_PS_STYLE = {"FKR": ("C1", "-", "o"), "FKR\\S": ("C2", "--", "o"), "FLR": ("C0", "-", "o"),
             "FLR\\S": ("C5", "--", "o"), "PCA": ("C0", "-", "o"), "PCA\\S": ("C5", "--", "o"),
             "KPCA": ("C1", "-", "s"), "KPCA\\S": ("C2", "--", "s"), "FDR": ("C3", "", "*"),
             "FDR\\S": ("C4", "", "*"), "KFDR": ("C7", "", "D"), "KFDR\\S": ("C8", "", "D")}
_PS_UNFAIR = {"LR": "FLR", "KRR": "FKR"}


def perez_suay_plot(results, *, sensitive=None, hsic="hsic", std=True, axes=None,
                    titles=None):
    """Error vs HSIC, one panel per sensitive choice, as Pérez-Suay et al. Figs. 4–6.

    x: test classification error (percent), y: test HSIC on a log axis; each curve is the mean
    over repetitions, the bars ± one std (the lower HSIC bar is cut at a tenth of the mean,
    where mean − std would leave the log axis).  Regression results (Figs. 4–5): the μ paths
    of FKR, FKR\\S (dashed), FLR, FLR\\S as lines and the unfair LR/KRR as single markers
    in the colour of their fair version (× with S, + without), as in the paper.
    Dimensionality reduction (Fig. 6): PCA and KPCA as lines over n_p (each point labelled
    with its n_p), FDR and KFDR as single markers.

    Parameters
    ----------
    results : DataFrame
        :func:`perez_suay_regression` or :func:`perez_suay_dimensionality_reduction` output
        (per repetition), or its :func:`perez_suay_summary`.
    sensitive : list of str, optional
        Panels, in order; default every sensitive choice in ``results``.
    hsic : {"hsic", "hsic_model"}, default="hsic"
        The dependence measure on the y axis (see :func:`perez_suay_regression`).
    std : bool, default=True
        Draw the ± std bars.
    axes : array of Axes, optional
        One per panel; default a new figure with one row of panels.
    titles : list of str, optional

    Returns
    -------
    numpy array of Axes
    """
    import matplotlib.pyplot as plt

    summary = results if "error_mean" in results.columns else perez_suay_summary(results)
    if f"{hsic}_mean" not in summary.columns:
        raise ValueError(f"hsic must be 'hsic' or 'hsic_model' (present in results); got "
                         f"{hsic!r}.")
    panels = list(dict.fromkeys(summary["sensitive"])) if sensitive is None else (
        [sensitive] if isinstance(sensitive, str) else list(sensitive))
    missing = [p for p in panels if p not in set(summary["sensitive"])]
    if missing:
        raise ValueError(f"sensitive {missing} not in results; present: "
                         f"{list(dict.fromkeys(summary['sensitive']))}.")
    if axes is None:
        _, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    axes = np.atleast_1d(np.asarray(axes)).ravel()
    if len(axes) < len(panels):
        raise ValueError(f"axes has {len(axes)} Axes for {len(panels)} panels.")
    coord = "mu" if "mu" in summary.columns else "n_components"
    for ax, panel in zip(axes, panels):
        part = summary[summary["sensitive"] == panel]
        for label, curve in part.groupby("label", sort=False):
            method = curve["method"].iloc[0]
            fair_label = label.replace(method, _PS_UNFAIR.get(method, method))
            colour, line, marker = _PS_STYLE.get(fair_label, ("k", "-", "o"))
            single = method in _PS_UNFAIR or method in ("FDR", "KFDR")
            if method in _PS_UNFAIR:  # LR/KRR: one point, the μ → 0 end of its fair path
                marker = "X" if label == method else "P"
                line = ""
            curve = curve.sort_values(coord)
            x = 100.0 * curve["error_mean"].to_numpy()
            yv = curve[f"{hsic}_mean"].to_numpy()
            ax.plot(x, yv, linestyle=line or "none", marker=marker, color=colour, label=label,
                    markersize=11 if single else 4, lw=1.6, zorder=3 if single else 2)
            if std:
                xs = 100.0 * curve["error_std"].to_numpy()
                ys = curve[f"{hsic}_std"].to_numpy()
                low = np.minimum(ys, 0.9 * yv)
                ax.errorbar(x, yv, xerr=xs, yerr=[low, ys], fmt="none", ecolor=colour,
                            alpha=0.35, lw=1)
            if coord == "n_components" and method in ("PCA", "KPCA"):
                for xi, yi, k in zip(x, yv, curve[coord]):
                    ax.annotate(str(int(k)), (xi, yi), fontsize=7, color=colour,
                                xytext=(3, 3), textcoords="offset points")
        ax.set_yscale("log")
        ax.set_xlabel("test classification error (%)")
        ax.set_ylabel("HSIC(prediction, S)" if coord == "mu" else "HSIC(embedding, S)")
        ax.set_title(panel if titles is None else titles[panels.index(panel)], fontsize=10)
        ax.grid(True, which="major", alpha=0.4)
        ax.legend(fontsize=7, loc="best")
    return axes[:len(panels)]


_PS_HSIC_FLOOR = 1e-10


def _ps_fmt(x):
    """An HSIC (or a ratio of two) for printing: 2 significant digits, rounding noise floored."""
    return f"<{_PS_HSIC_FLOOR:.0e}" if x < _PS_HSIC_FLOOR else f"{x:.1e}"


def _ps_points(summary, panel, label):
    part = summary[(summary["sensitive"] == panel) & (summary["label"] == label)]
    coord = "mu" if "mu" in part.columns else "n_components"
    part = part.sort_values(coord)
    return part["error_mean"].to_numpy(), part["hsic_mean"].to_numpy()


def _ps_dominated_share(points, by):
    """Share of ``points`` (error, hsic) weakly dominated by some point of ``by``."""
    (e1, h1), (e2, h2) = points, by
    if not len(e1) or not len(e2):
        return np.nan
    dom = [bool(np.any((e2 <= e + 1e-12) & (h2 <= h))) for e, h in zip(e1, h1)]
    return float(np.mean(dom))


def _ps_regression_checks(reg, hsic):
    if hsic == "hsic_model":  # the reference code's measure: each model's own kernel on S
        reg = reg.drop(columns="hsic").rename(columns={"hsic_model": "hsic"})
    s = perez_suay_summary(reg)
    rows = []

    def add(figure, panel, conclusion, measured, holds):
        rows.append({"figure": figure, "panel": panel, "conclusion": conclusion,
                     "measured": measured, "holds": bool(holds)})

    labels = set(s["label"])
    for (dataset, panel), _ in s.groupby(["dataset", "sensitive"], sort=False):
        fig = "Fig. 4" if dataset == "adult" else "Fig. 5"
        pts = {lab: _ps_points(s, panel, lab) for lab in labels}
        if not {"LR", "FLR", "KRR", "FKR"} <= labels:
            continue
        (e_lr, h_lr), (e_krr, h_krr) = pts["LR"], pts["KRR"]
        e_flr, h_flr = pts["FLR"]
        e_fkr, h_fkr = pts["FKR"]
        if dataset == "adult":
            ratios = []
            for (e, h), (e0, h0) in (((e_flr, h_flr), (e_lr, h_lr)),
                                     ((e_fkr, h_fkr), (e_krr, h_krr))):
                ok = e <= e0[0] + 0.01
                ratios.append(float(h[ok].min() / h0[0]) if ok.any() else np.inf)
            add(fig, panel, "fair versions lower the dependence at similar error (HSIC ≤ 0.1× "
                "the unfair model's within +1 point of its error)",
                f"lowest HSIC within +1 pt: FLR {_ps_fmt(ratios[0])}× LR's "
                f"({_ps_fmt(h_lr[0])}), FKR {_ps_fmt(ratios[1])}× KRR's ({_ps_fmt(h_krr[0])})",
                max(ratios) <= 0.1)
            ok = e_fkr <= e_krr[0] + 0.02
            best = int(np.argmin(np.where(ok, h_fkr, np.inf)))
            ratio = h_fkr[best] / h_krr[0]
            add(fig, panel, "FKR: low error and virtually independent of S (HSIC ≤ 1e-3× KRR's "
                "within +2 points of its error)",
                f"KRR {100 * e_krr[0]:.1f} %, HSIC {_ps_fmt(h_krr[0])}; FKR "
                f"{100 * e_fkr[best]:.1f} %, HSIC {_ps_fmt(h_fkr[best])} ({_ps_fmt(ratio)}×)",
                ratio <= 1e-3)
            share = _ps_dominated_share((e_flr, h_flr), (e_fkr, h_fkr))
            add(fig, panel, "the kernel version is better: FKR dominates FLR (≥ 75 % of the FLR "
                "path has an FKR point with lower error and lower HSIC)",
                f"{100 * share:.0f} % of the FLR path dominated; fair end (μ = 1e3): FLR "
                f"{100 * e_flr[-1]:.1f} % / {_ps_fmt(h_flr[-1])}, FKR {100 * e_fkr[-1]:.1f} % / "
                f"{_ps_fmt(h_fkr[-1])}", share >= 0.75)
            if {"FKR\\S", "FLR\\S"} <= labels:
                e_fkrs, h_fkrs = pts["FKR\\S"]
                share = _ps_dominated_share((e_fkrs, h_fkrs), (e_fkr, h_fkr))
                add(fig, panel, "kernel case: including S is better (≥ 75 % of the FKR\\S path "
                    "dominated by FKR)", f"{100 * share:.0f} % of FKR\\S dominated; mean error "
                    f"FKR {100 * e_fkr.mean():.1f} %, FKR\\S {100 * e_fkrs.mean():.1f} %",
                    share >= 0.75)
                e_flrs, h_flrs = pts["FLR\\S"]
                diff = float(np.abs(e_flr - e_flrs).max())
                gratio = float(np.exp(np.mean(np.log(np.maximum(h_flrs, 1e-300)
                                                     / np.maximum(h_flr, 1e-300)))))
                add(fig, panel, "linear case: removing S has almost no impact (error within 1 "
                    "point along the path, HSIC within a factor 2)",
                    f"max |error FLR − FLR\\S| = {100 * diff:.1f} pt; HSIC FLR\\S / FLR "
                    f"(geometric mean) {gratio:.2f}", diff <= 0.01 and 0.5 <= gratio <= 2)
        else:
            both = (e_fkr <= e_flr) & (h_fkr <= h_flr)
            add(fig, panel, "FKR outperforms FLR in all the hyper-parameter space (lower error "
                "and lower HSIC at every μ)",
                f"FKR better at {both.sum()}/{len(both)} μ (error: {(e_fkr <= e_flr).sum()}, "
                f"HSIC: {(h_fkr <= h_flr).sum()}); mean error FKR {100 * e_fkr.mean():.1f} %, "
                f"FLR {100 * e_flr.mean():.1f} %", both.all())
            if {"FKR\\S", "FLR\\S"} <= labels:
                d_k = float(np.mean(pts["FKR\\S"][0] - e_fkr))
                d_l = float(np.mean(pts["FLR\\S"][0] - e_flr))
                d_krr = float(pts["KRR\\S"][0][0] - e_krr[0]) if "KRR\\S" in labels else np.nan
                add(fig, panel, "removing S degrades the results (higher error without S, "
                    "along both paths)",
                    f"mean error increase without S: FKR {100 * d_k:+.1f} pt, FLR "
                    f"{100 * d_l:+.1f} pt; KRR {100 * d_krr:+.1f} pt", d_k > 0 and d_l > 0)
            ratio = h_fkr[-1] / h_krr[0]
            inc = e_fkr[-1] - e_krr[0]
            add(fig, panel, "any fairness level by tuning μ, at +2–5 % error (FKR at the largest "
                "μ: HSIC ≤ 1e-2× KRR's, error +2 to +5 points)",
                f"HSIC {_ps_fmt(h_krr[0])} → {_ps_fmt(h_fkr[-1])} ({_ps_fmt(ratio)}×); error "
                f"{100 * e_krr[0]:.1f} → {100 * e_fkr[-1]:.1f} % ({100 * inc:+.1f} pt, "
                f"{100 * inc / e_krr[0]:+.0f} % relative)",
                ratio <= 1e-2 and 0.02 <= inc <= 0.05)
    return rows


def _ps_dr_checks(dr):
    s = perez_suay_summary(dr)
    rows = []
    labels = set(s["label"])
    for panel in dict.fromkeys(s["sensitive"]):
        if not {"PCA", "KPCA", "FDR", "KFDR"} <= labels:
            break
        pts = {lab: _ps_points(s, panel, lab) for lab in labels}
        part = s[s["sensitive"] == panel]

        def add(conclusion, measured, holds, panel=panel):
            rows.append({"figure": "Fig. 6", "panel": panel, "conclusion": conclusion,
                         "measured": measured, "holds": bool(holds)})

        text, ok = [], True
        for m in ("PCA", "KPCA"):
            e, h = pts[m]
            spread, ratio = 100 * (e.max() - e.min()), h.max() / h.min()
            text.append(f"{m}: error range {spread:.1f} pt, HSIC max/min {ratio:.1f}")
            ok &= ratio <= 10
        add("PCA/KPCA: n_p changes the error but hardly the HSIC (HSIC within a factor 10 over "
            "n_p)", "; ".join(text), ok)
        all_e = part["error_mean"].to_numpy()
        all_h = part["hsic_mean"].to_numpy()
        text, ok = [], True
        for m in ("FDR", "KFDR"):
            e, h = pts[m]
            dominated = bool(np.any((all_e < e[0] - 1e-12) & (all_h < h[0])))
            text.append(f"{m} {100 * e[0]:.1f} % / {_ps_fmt(h[0])}: "
                        + ("dominated" if dominated else "not dominated"))
            ok &= not dominated
        add("best trade-offs: FDR and KFDR with all inputs (no point of the panel has lower "
            "error and lower HSIC)", "; ".join(text), ok)
        e_f, h_f = pts["FDR"]
        e_k, h_k = pts["KFDR"]
        if panel == "sex":
            add("KFDR has a lower error than FDR (said of the sex panel)",
                f"KFDR {100 * e_k[0]:.1f} %, FDR {100 * e_f[0]:.1f} %", e_k[0] < e_f[0])
        h_base = min(pts["PCA"][1].min(), pts["KPCA"][1].min())
        ratio = max(h_f[0], h_k[0]) / h_base
        q = int(part.loc[part.method == "FDR", "n_components"].iloc[0])
        near = []
        for fair, base in (("FDR", "PCA"), ("KFDR", "KPCA")):
            bp = part[(part.label == base)]
            bp = bp.iloc[int(np.argmin(np.abs(bp["n_components"].to_numpy() - q)))]
            near.append((fair, base, int(bp["n_components"]),
                         pts[fair][0][0] - float(bp["error_mean"])))
        add("FDR/KFDR: similar error, dependence several orders of magnitude lower than "
            "PCA/KPCA (HSIC ≤ 1e-2× the lowest PCA/KPCA HSIC, error within 3 points at "
            "n_p ≈ q)",
            f"HSIC FDR {_ps_fmt(h_f[0])}, KFDR {_ps_fmt(h_k[0])}, lowest PCA/KPCA "
            f"{_ps_fmt(h_base)} (ratio {_ps_fmt(ratio)}); "
            + ", ".join(f"{f} − {b}(n_p={k}) {100 * d:+.1f} pt" for f, b, k, d in near),
            ratio <= 1e-2 and all(abs(d) <= 0.03 for *_, d in near))
    return rows


def perez_suay_checks(regression=None, dimensionality_reduction=None, *, hsic="hsic"):
    """Pérez-Suay et al.'s stated conclusions (§4.3–4.4) checked on measured means.

    The paper prints no numbers, only curves, so each sentence of its discussion is turned
    into a numerical criterion on the means over repetitions (the criterion is part of the
    ``conclusion`` text; thresholds such as "≥ 75 % of the path" or "a factor 10" are our
    reading of "better", "almost no impact", "minimally").  Errors are in percentage points;
    HSIC values below 1e-10 are printed as ``<1e-10`` (rounding level).

    Parameters
    ----------
    regression : DataFrame, optional
        :func:`perez_suay_regression` output (Adult: Fig. 4 checks; CMC: Fig. 5 checks).
    dimensionality_reduction : DataFrame, optional
        :func:`perez_suay_dimensionality_reduction` output (Fig. 6 checks).
    hsic : {"hsic", "hsic_model"}, default="hsic"
        The dependence measure of the regression checks (see :func:`perez_suay_regression`):
        the linear HSIC for every method, or each model's own kernel on S (RBF with σ_S for
        KRR/FKR, as the reference code plots them).

    Returns
    -------
    DataFrame
        ``figure, panel, conclusion, measured, holds``.
    """
    if regression is None and dimensionality_reduction is None:
        raise ValueError("pass regression and/or dimensionality_reduction results.")
    if hsic not in ("hsic", "hsic_model"):
        raise ValueError(f"hsic must be 'hsic' or 'hsic_model'; got {hsic!r}.")
    rows = []
    if regression is not None:
        rows += _ps_regression_checks(regression, hsic)
    if dimensionality_reduction is not None:
        rows += _ps_dr_checks(dimensionality_reduction)
    return pd.DataFrame(rows, columns=["figure", "panel", "conclusion", "measured", "holds"])


# --------------------------------------------------------------------------------------------
# reproducing De-Diego et al. (2025): Fair PLS on six real data sets
# --------------------------------------------------------------------------------------------
#: Data set keys of De-Diego et al. -> the names printed in its tables.
DEDIEGO_DATASETS = {
    "adult": "Adult Income", "german": "German Credit", "lawschool": "Law School",
    "diabetes": "Diabetes", "compas": "COMPAS", "communities": "Communities and Crimes",
}
#: The downstream models of Tables 4-5 (classification / regression), in the printed order.
DEDIEGO_MODELS = ("LR", "DT", "XGB")
#: The options of each part of a Cov² normalisation hypothesis (:func:`dediego_normalisations`).
DEDIEGO_NORMALISATION_OPTIONS = {
    "features": ("S not in X", "S in X"),
    "rows": ("test", "train"),
    "scores": ("raw", "unit"),
    "targets": ("raw", "standardized"),
    "reduce": ("sum", "mean"),
}
#: The hypothesis used for the Cov² columns of Tables 4-5 unless another is passed.
DEDIEGO_DEFAULT_NORMALISATION = {"features": "S not in X", "rows": "test", "scores": "raw",
                                 "targets": "raw", "reduce": "sum"}
_DEDIEGO_COV2_METRICS = ("cov2_y", "cov2_s")


def _dediego_key(dataset):
    if isinstance(dataset, str):
        key = dataset.strip().lower()
        for k, name in DEDIEGO_DATASETS.items():
            if key in (k, name.lower()):
                return k
    raise ValueError(
        f"dataset must be one of {list(DEDIEGO_DATASETS)} (or the printed names "
        f"{list(DEDIEGO_DATASETS.values())}); got {dataset!r}."
    )


def dediego_data(dataset, *, max_rows=None, random_state=0, data_home=None):
    """One data set of De-Diego et al. as numpy arrays, optionally subsampled.

    ``load_<dataset>(variant="pls")`` (the sensitive attribute and privileged group of Table 2;
    see each loader's ``DESCR`` for how its features differ from the paper's unpublished
    encoding).  Law School is external: it is read from ``data_home`` or ``$FAIRLAB_DATA`` and
    never downloaded here, so without a copy a :class:`FileNotFoundError` says where to put it.

    Parameters
    ----------
    dataset : str
        A key of :data:`DEDIEGO_DATASETS` or its printed name.
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
    from . import datasets

    key = _dediego_key(dataset)
    if max_rows is not None and (isinstance(max_rows, bool) or not isinstance(max_rows, Integral)
                                 or max_rows < 10):
        raise ValueError(f"max_rows must be None or an integer >= 10; got {max_rows!r}.")
    loader = getattr(datasets, f"load_{key}")
    data = loader(variant="pls", data_home=data_home, download_if_missing=False)
    X, y, s = data.X.to_numpy(float), data.y.to_numpy(), data.sensitive.to_numpy().astype(int)
    n = len(y)
    if max_rows is not None and n > max_rows:
        rows = np.sort(np.random.default_rng(random_state).choice(n, max_rows, replace=False))
        X, y, s = X[rows], y[rows], s[rows]
    task = "regression" if data.pos_label is None else "classification"
    return Bunch(X=X, y=y, s=s, feature_names=list(data.feature_names), task=task,
                 pos_label=data.pos_label, key=key, dataset=DEDIEGO_DATASETS[key], n_rows=n)


def dediego_load(datasets=None, *, max_rows=None, random_state=0, data_home=None):
    """:func:`dediego_data` for several data sets, with the reason for each one that is absent.

    Returns
    -------
    (dict, dict)
        ``key -> Bunch`` of the data sets found and ``key -> reason`` of those that are not (Law
        School without a local copy): the first line of the loader's error, without the
        machine-specific list of folders searched, and where to put the file.
    """
    keys = list(DEDIEGO_DATASETS) if datasets is None else [_dediego_key(d) for d in datasets]
    found, skipped = {}, {}
    for key in keys:
        try:
            found[key] = dediego_data(key, max_rows=max_rows, random_state=random_state,
                                      data_home=data_home)
        except FileNotFoundError as err:
            first = str(err).splitlines()[0].removesuffix(":").removesuffix("; searched")
            skipped[key] = f"{first} (put it under $FAIRLAB_DATA or pass data_home)"
    return found, skipped


def dediego_k(dataset, eta, n_features=None):
    """The number of components of De-Diego et al. Table 3 for a data set and η.

    Table 3 prints k for η = 0, 1 and 2 only; any other η takes the k of the nearest printed
    η (ties to the larger), so η = 10 uses k(η = 2).  With ``n_features`` the value is clipped
    to it (our encodings can have fewer features than the paper's d, e.g. Diabetes: 18 < 20).
    """
    from . import published

    key = _dediego_key(dataset)
    if not isinstance(eta, Real) or not eta >= 0:
        raise ValueError(f"eta must be a number >= 0; got {eta!r}.")
    t3 = published.table("dediego2025", "table3")
    t3 = t3[(t3["dataset"] == DEDIEGO_DATASETS[key]) & (t3["metric"] == "best_k")]
    printed = t3["eta"].to_numpy(float)
    best = printed[np.argmin(np.abs(printed - eta) - 1e-9 * printed)]
    k = int(t3.loc[t3["eta"] == best, "mean"].iloc[0])
    return min(k, int(n_features)) if n_features is not None else k


def dediego_normalisations():
    """Every Cov² normalisation hypothesis of the chapter, one row each.

    The product of :data:`DEDIEGO_NORMALISATION_OPTIONS`: ``features`` (the sensitive attribute
    left out of X, as our loaders do, or appended to X as one more standardised column),
    ``rows`` (Cov² on the test or the training rows), ``scores`` (the scores ``r(X)`` as
    ``FairPLS.transform`` returns them — standardised X times unit weight vectors — or each
    component scaled to unit variance), ``targets`` (Y and S as loaded, 0/1 or the [0, 1]
    regression target, or standardised) and ``reduce`` (sum or mean over components), i.e.
    ``fairlab.metrics.cov2(r, v, standardize=..., reduce=...)``.
    """
    import itertools

    opts = DEDIEGO_NORMALISATION_OPTIONS
    return pd.DataFrame(list(itertools.product(*opts.values())), columns=list(opts))


def _standardize_flag(scores, targets):
    unit, std = scores == "unit", targets == "standardized"
    return True if unit and std else ("scores" if unit else ("sensitive" if std else False))


def dediego_representation_scores(data, etas=(0.0, 1.0, 2.0, 10.0), *, n_splits=3,
                                  test_size=0.3, k=None, features=("S not in X", "S in X"),
                                  random_state=0, progress=False):
    """Per-split scores of De-Diego et al.'s Experiment A (Table 1, Figs. 2-3), in long format.

    For every data set, η and split: a seeded random split (``test_size`` of the rows for
    testing; the paper says "3 random splits" and nothing more), ``FairPLS(k, eta=η)`` fitted
    on the training rows (X, Y and S standardised with the training statistics, as
    ``FairPLS(scale=True)`` does; the paper: "zero mean and unit variance"), then on the
    training and on the test rows

    * ``cov2_y`` = Cov²(r(X), Y) and ``cov2_s`` = Cov²(r(X), S) under every combination of
      ``scores`` × ``targets`` × ``reduce`` of :func:`dediego_normalisations`;
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
        From :func:`dediego_load`.
    etas : sequence of float, default=(0, 1, 2, 10)
    n_splits : int, default=3
    test_size : float in (0, 1), default=0.3
    k : int or None
        ``None``: :func:`dediego_k` of each data set and η (Table 3), clipped to d.
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
    from .pls import FairPLS

    bad = [f for f in features if f not in DEDIEGO_NORMALISATION_OPTIONS["features"]]
    if bad or not features:
        raise ValueError(f"features must be among {DEDIEGO_NORMALISATION_OPTIONS['features']}; "
                         f"got {features!r}.")
    if isinstance(n_splits, bool) or not isinstance(n_splits, Integral) or n_splits < 1:
        raise ValueError(f"n_splits must be a positive integer; got {n_splits!r}.")
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict key -> Bunch, e.g. dediego_load()[0].")
    etas = [float(e) for e in etas]
    jobs = [(key, f, i) for key in data for f in features for i in range(n_splits)]
    combos = [(sc, tg, rd) for sc in DEDIEGO_NORMALISATION_OPTIONS["scores"]
              for tg in DEDIEGO_NORMALISATION_OPTIONS["targets"]
              for rd in DEDIEGO_NORMALISATION_OPTIONS["reduce"]]
    rows = []
    for key, feat, i in _progress(jobs, progress, total=len(jobs), desc="splits"):
        d = data[key]
        X = np.column_stack([d.X, d.s.astype(float)]) if feat == "S in X" else d.X
        split = next(repeated_splits(X, d.y, d.s, n_splits=1, train_size=1 - test_size,
                                     random_state=random_state + i))
        y_tr, y_te = split.y_train.astype(float), split.y_test.astype(float)
        for eta in etas:
            kk = dediego_k(key, eta, X.shape[1]) if k is None else min(int(k), X.shape[1])
            model = FairPLS(kk, eta=eta).fit(split.X_train, y_tr, sensitive_features=split.s_train)
            base = {"dataset": d.dataset, "eta": eta, "k": kk, "features": feat, "split": i}
            for part, Xp, yp, sp in (("test", split.X_test, y_te, split.s_test),
                                     ("train", split.X_train, y_tr, split.s_train)):
                T = model.transform(Xp)
                sv = sp.astype(float)
                for sc, tg, rd in combos:
                    flag = _standardize_flag(sc, tg)
                    for metric, v in (("cov2_y", yp), ("cov2_s", sv)):
                        val = metrics.cov2(T, v, sensitive_type="continuous", standardize=flag,
                                           reduce=rd)
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


def dediego_table1(scores, normalisation=None, *, error="projection", ddof=0):
    """Table 1 of De-Diego et al. from :func:`dediego_representation_scores`, for one hypothesis.

    Parameters
    ----------
    scores : DataFrame
    normalisation : dict, optional
        Values for ``features, rows, scores, targets, reduce`` (missing keys from
        :data:`DEDIEGO_DEFAULT_NORMALISATION`).
    error : {"projection", "loadings", "weights"}, default="projection"
        The reconstruction error to report (its ``features`` and ``rows`` follow
        ``normalisation``).
    ddof : int, default=0
        Of the std over splits (the paper does not say; 0 is ``np.std``'s default).

    Returns
    -------
    DataFrame
        ``dataset, eta, k, metric, mean, std, n_splits``, ready for :func:`dediego_compare`.
    """
    norm = _dediego_normalisation(normalisation)
    if error not in ("projection", "loadings", "weights"):
        raise ValueError(f"error must be 'projection', 'loadings' or 'weights'; got {error!r}.")
    base = (scores["features"] == norm["features"]) & (scores["rows"] == norm["rows"])
    cov = base & (scores["scores"] == norm["scores"]) & (scores["targets"] == norm["targets"]) \
        & (scores["reduce"] == norm["reduce"]) & scores["metric"].isin(_DEDIEGO_COV2_METRICS)
    err = base & (scores["metric"] == "reconstruction_error") & (scores["error"] == error)
    df = scores[cov | err]
    out = (df.groupby(["dataset", "eta", "k", "metric"], sort=False)["value"]
           .agg(mean="mean", std=lambda v: float(np.std(v, ddof=ddof)) if len(v) > ddof
                else np.nan, n_splits="size").reset_index())
    return out


def _dediego_normalisation(normalisation):
    norm = dict(DEDIEGO_DEFAULT_NORMALISATION)
    if normalisation is not None:
        if not isinstance(normalisation, dict):
            raise TypeError(f"normalisation must be a dict; got {type(normalisation).__name__}.")
        unknown = set(normalisation) - set(DEDIEGO_NORMALISATION_OPTIONS)
        if unknown:
            raise ValueError(f"normalisation has unknown key(s) {sorted(unknown)}; use "
                             f"{list(DEDIEGO_NORMALISATION_OPTIONS)}.")
        norm.update(normalisation)
    for key, value in norm.items():
        if value not in DEDIEGO_NORMALISATION_OPTIONS[key]:
            raise ValueError(f"normalisation[{key!r}] must be one of "
                             f"{DEDIEGO_NORMALISATION_OPTIONS[key]}; got {value!r}.")
    return norm


def dediego_compare(ours, table="table1"):
    """Our numbers beside a printed table of De-Diego et al. (``fairlab.published.compare``).

    Only the printed cells of the data sets present in ``ours`` are kept; ``within`` is True
    when our mean is within the paper's std of the printed mean (or rounds to it).
    """
    from . import published

    pub = published.table("dediego2025", table)
    pub = pub[pub["dataset"].isin(set(ours["dataset"]))]
    cols = [c for c in ("dataset", "eta", "model", "metric", "mean", "std") if c in ours.columns]
    keep = set(zip(pub["dataset"], pub["metric"]))
    ours = ours[[(d, m) in keep for d, m in zip(ours["dataset"], ours["metric"])]]
    return published.compare(ours[cols], pub, unmatched="report").reset_index(drop=True)


def dediego_normalisation_fit(scores, *, ddof=0):
    """How well each Cov² normalisation hypothesis reproduces the printed Cov² cells.

    ``scores`` from :func:`dediego_representation_scores` is compared with Table 1 (columns
    Cov²(r(X), Y) and Cov²(r(X), S)); ``scores`` from :func:`dediego_downstream_scores` with
    Tables 4 and 5 (Cov²(r(X), Ŷ) and Cov²(r(X), S), on the held-out folds).  For every
    hypothesis of :func:`dediego_normalisations` present in ``scores``: how many printed Cov²
    cells (over the data sets, η and models in ``scores``) we reproduce within the paper's
    std (``within`` of :func:`dediego_compare`), their share, and the median ratio ours /
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
    from . import published

    downstream = "model" in scores.columns
    ymetric = "cov2_yhat" if downstream else "cov2_y"
    mets = (ymetric, "cov2_s")
    rows = []
    for hyp in dediego_normalisations().to_dict("records"):
        if downstream:
            if hyp["rows"] != "test" or not (scores["features"] == hyp["features"]).any():
                continue
            summ = dediego_downstream_summary(scores, hyp, ddof=ddof)
            present = set(summ["dataset"])
            tables = [t for t in ("table4", "table5")
                      if published.table("dediego2025", t)["dataset"].isin(present).any()]
            cmp = pd.concat([dediego_compare(summ, t) for t in tables], ignore_index=True)
        else:
            present = ((scores["features"] == hyp["features"])
                       & (scores["rows"] == hyp["rows"])).any()
            if not present:
                continue
            cmp = dediego_compare(dediego_table1(scores, hyp, ddof=ddof))
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


def dediego_models(task="classification", models=DEDIEGO_MODELS, *, random_state=0):
    """The downstream models of De-Diego et al. Tables 4-5, with library defaults.

    ``"LR"``: ``LogisticRegression()`` (classification) or ``LinearRegression()``
    (regression); ``"DT"``: ``DecisionTree{Classifier,Regressor}(random_state=...)``;
    ``"XGB"``: ``xgboost.XGB{Classifier,Regressor}(random_state=..., n_jobs=1)`` — every other
    setting is the library default, as in the paper ("default specifications").  xgboost is an
    optional dependency (``pip install 'fairlab[book]'`` or ``pip install xgboost``): it is
    imported only when ``"XGB"`` is asked for, and its absence raises an ImportError saying so.
    """
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    if task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression'; got {task!r}.")
    unknown = [m for m in models if m not in DEDIEGO_MODELS]
    if unknown:
        raise ValueError(f"unknown model(s) {unknown}; choose among {list(DEDIEGO_MODELS)}.")
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


def dediego_downstream_scores(data, etas=(0.0, 1.0, 2.0), *, n_folds=7, models=DEDIEGO_MODELS,
                              k=None, normalisation=None, random_state=0, progress=False):
    """Per-fold scores of De-Diego et al.'s Experiment B (Tables 4-5, Figs. 1 and 4).

    For every data set and η, a seeded ``n_folds``-fold cross-validation: ``FairPLS(k, eta=η)``
    is fitted on the training folds, every model of :func:`dediego_models` is trained on the
    training representation r(X) and predicts the held-out fold, where we measure

    * classification: ``accuracy``, ``disparate_impact`` (DI = P(Ŷ = pos | S = 0) /
      P(Ŷ = pos | S = 1), S = 1 privileged, ``pos_label`` of Table 2), ``eopp`` (the ratio
      TPR_0 / TPR_1 of Fig. 4);  regression: ``ks`` (Kolmogorov–Smirnov distance between the
      groups' predictions) and ``mse``;
    * ``cov2_yhat`` = Cov²(r(X), Ŷ) and ``cov2_s`` = Cov²(r(X), S) on the held-out fold, under
      every ``scores`` × ``targets`` × ``reduce`` combination of :func:`dediego_normalisations`
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
        From :func:`dediego_load`.
    etas : sequence of float, default=(0, 1, 2)
    n_folds : int, default=7
    models : sequence of str, default=("LR", "DT", "XGB")
    k : int or None
        ``None``: :func:`dediego_k` (Table 3; η between the printed values takes the nearest).
    normalisation : dict, optional
        Only its ``features`` is used here (default ``"S not in X"``); the Cov² scaling is
        chosen later, by :func:`dediego_downstream_summary`.
    random_state : int, default=0
        Seed of the folds and of the tree models.
    progress : bool, default=False

    Returns
    -------
    DataFrame
        Columns ``dataset, eta, k, features, model, metric, scores, targets, reduce, fold,
        value``.
    """
    import warnings

    from sklearn.base import clone as _clone
    from sklearn.exceptions import ConvergenceWarning

    from .pls import FairPLS

    norm = _dediego_normalisation(normalisation)
    combos = [(sc, tg, rd) for sc in DEDIEGO_NORMALISATION_OPTIONS["scores"]
              for tg in DEDIEGO_NORMALISATION_OPTIONS["targets"]
              for rd in DEDIEGO_NORMALISATION_OPTIONS["reduce"]]

    def cov2_all(T, v):
        return {c: metrics.cov2(T, v, sensitive_type="continuous",
                                standardize=_standardize_flag(c[0], c[1]), reduce=c[2])
                for c in combos}

    if isinstance(n_folds, bool) or not isinstance(n_folds, Integral) or n_folds < 2:
        raise ValueError(f"n_folds must be an integer >= 2; got {n_folds!r}.")
    if not isinstance(data, dict) or not data:
        raise ValueError("data must be a non-empty dict key -> Bunch, e.g. dediego_load()[0].")
    etas = [float(e) for e in etas]
    jobs = [(key, eta) for key in data for eta in etas]
    rows = []
    for key, eta in _progress(jobs, progress, total=len(jobs), desc="folds"):
        d = data[key]
        X = np.column_stack([d.X, d.s.astype(float)]) if norm["features"] == "S in X" else d.X
        ests = dediego_models(d.task, models, random_state=random_state)
        kk = dediego_k(key, eta, X.shape[1]) if k is None else min(int(k), X.shape[1])
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
                    model = _clone(est).fit(T_tr, d.y[train])
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


def dediego_downstream_summary(scores, normalisation=None, *, ddof=0):
    """Mean and std over the folds of :func:`dediego_downstream_scores` (Tables 4-5).

    Per-fold metrics are averaged over the folds (``fold >= 0``), the Cov² columns under the
    ``scores``, ``targets`` and ``reduce`` of ``normalisation`` (default
    :data:`DEDIEGO_DEFAULT_NORMALISATION`); the pooled disparate impact and its interval
    (``fold = -1``) are renamed ``disparate_impact_pooled``, ``disparate_impact_ci_low``,
    ``disparate_impact_ci_high`` and kept as they are (std NaN).

    Returns
    -------
    DataFrame with columns ``dataset, eta, k, model, metric, mean, std, n_folds``.
    """
    norm = _dediego_normalisation(normalisation)
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


def dediego_plot_representation(table1, metric="cov2", *, axes=None):
    """Figs. 2-3 of De-Diego et al.: Cov² (or the reconstruction error) against η, per data set.

    Parameters
    ----------
    table1 : DataFrame
        :func:`dediego_table1` output (``dataset, eta, metric, mean, std``).
    metric : {"cov2", "reconstruction_error"}, default="cov2"
        ``"cov2"``: Fig. 2, Cov²(r(X), Y) (blue) and Cov²(r(X), S) (orange), mean ± std over
        the splits; ``"reconstruction_error"``: Fig. 3.
    axes : sequence of matplotlib Axes, optional
        One per data set; default a new row of subplots.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    if metric not in ("cov2", "reconstruction_error"):
        raise ValueError(f"metric must be 'cov2' or 'reconstruction_error'; got {metric!r}.")
    names = list(dict.fromkeys(table1["dataset"]))
    if not names:
        raise ValueError("table1 is empty; run dediego_table1 on some scores first.")
    if axes is None:
        fig, axes = plt.subplots(1, len(names), figsize=(3.0 * len(names), 3.0), squeeze=False)
        axes = axes[0]
    fig = axes[0].figure
    lines = ({"cov2_y": ("Cov²(r(X), Y)", "C0"), "cov2_s": ("Cov²(r(X), S)", "C1")}
             if metric == "cov2" else {"reconstruction_error": ("Error(X, r(X))", "C2")})
    for ax, name in zip(axes, names):
        sub = table1[table1["dataset"] == name]
        for m, (label, colour) in lines.items():
            part = sub[sub["metric"] == m].sort_values("eta")
            ax.errorbar(part["eta"], part["mean"], yerr=part["std"], marker="o", capsize=3,
                        color=colour, label=label)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("η")
    axes[0].set_ylabel("Cov²" if metric == "cov2" else "normalised reconstruction error")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def dediego_plot_tradeoff(summary, dataset, fairness="disparate_impact", *, ax=None):
    """Figs. 1 and 4 of De-Diego et al.: accuracy against DI (or EOpp), one point per η.

    Parameters
    ----------
    summary : DataFrame
        :func:`dediego_downstream_summary` output.
    dataset : str
        A printed data set name present in ``summary``.
    fairness : {"disparate_impact", "eopp"}, default="disparate_impact"
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt

    if fairness not in ("disparate_impact", "eopp"):
        raise ValueError(f"fairness must be 'disparate_impact' or 'eopp'; got {fairness!r}.")
    sub = summary[summary["dataset"] == dataset]
    if sub.empty:
        raise ValueError(f"dataset {dataset!r} is not in summary; it has "
                         f"{sorted(set(summary['dataset']))}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3.5))
    wide = sub[sub["metric"].isin([fairness, "accuracy"])].pivot_table(
        index=["model", "eta"], columns="metric", values="mean").reset_index()
    for marker, (model, part) in zip("osD^v", wide.groupby("model", sort=False)):
        points = ax.scatter(part[fairness], part["accuracy"], c=part["eta"], cmap="viridis",
                            marker=marker, s=40, vmin=wide["eta"].min(), vmax=wide["eta"].max(),
                            label=model)
    ax.figure.colorbar(points, ax=ax, label="η")
    ax.set_xlabel("disparate impact (1 = parity)" if fairness == "disparate_impact"
                  else "EOpp = TPR₀ / TPR₁ (1 = parity)")
    ax.set_ylabel("accuracy (held-out folds)")
    ax.set_title(dataset, fontsize=10)
    ax.legend(fontsize=8)
    return ax


def dediego_fig7(data, *, k=2, eta=1.0, n_folds=7, models=("LR", "DT"), random_state=0):
    """Fair PLS against Fair PCA as pre-processing (De-Diego et al. Fig. 7), per fold.

    Same folds as :func:`dediego_downstream_scores`; on each, ``FairPCA(k)`` (Kleindessner et
    al., fitted on the standardised training X with S) and ``FairPLS(k, eta=eta)`` give the
    representation, each model of :func:`dediego_models` is trained on it and scored on the
    held-out fold: ``accuracy`` and ``disparate_impact``.  The paper: "We have fixed k = 2 for
    both", and does not give η (its Table 4 has η ∈ {0, 1, 2}); ``eta=np.inf`` is Fair PLS with
    the hard constraint, as fair in the mean as Fair PCA.

    Returns
    -------
    DataFrame with columns ``method, eta, model, metric, fold, value``.
    """
    import warnings

    from sklearn.base import clone as _clone
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.preprocessing import StandardScaler

    from .pca import FairPCA
    from .pls import FairPLS

    if data.task != "classification":
        raise ValueError("dediego_fig7 needs a classification data set (the paper: Adult).")
    ests = dediego_models("classification", models, random_state=random_state)
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
                    pred = _clone(est).fit(T_tr, data.y[train]).predict(T_te)
                vals = {"accuracy": float(np.mean(pred == data.y[test])),
                        "disparate_impact": metrics.disparate_impact(
                            data.y[test], pred, sensitive_features=data.s[test],
                            privileged_group=1, pos_label=data.pos_label)}
                for metric, value in vals.items():
                    rows.append({"method": method, "eta": eta if method == "Fair PLS" else np.nan,
                                 "model": name, "metric": metric, "fold": f, "value": value})
    return pd.DataFrame(rows, columns=["method", "eta", "model", "metric", "fold", "value"])


# --------------------------------------------------------------------------------------------
# reproducing Kleindessner et al. (2023) §5.2 (trade-off curves vs the reductions, Figs. 4, 8, 9)
# --------------------------------------------------------------------------------------------
#: Data sets of §5.2 (``load_<name>(variant="agarwal")``).
KLEINDESSNER_TRADEOFF_DATASETS = ("adult", "bank")
#: Curves of §5.2: the fair PCA family with the λ knob, and fairlearn's reductions.
KLEINDESSNER_TRADEOFF_METHODS = ("Fair PCA", "Fair PCA-S", "Fair Kernel PCA", "Reductions")
#: Fairness notions: demographic parity and equal opportunity (TPR parity).
KLEINDESSNER_TRADEOFF_FAIRNESS = ("DP", "EO")
#: Downstream classifiers of §5.2.
KLEINDESSNER_TRADEOFF_CLASSIFIERS = ("logistic regression", "kernel SVM")
#: The λ grid of App. C.1: weights (i/10)³, i = 0..10 (the reference code's ``λ³``).
KLEINDESSNER_TRADEOFF_LAMBDAS = tuple(round((i / 10) ** 3, 6) for i in range(11))
#: The ``difference_bound`` ε grid of App. C.1 for the reductions.
KLEINDESSNER_TRADEOFF_EPS = (0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)
#: The training-set sizes of Fig. 9.
KLEINDESSNER_TRADEOFF_N_TRAIN = (1000, 5000, 10000, 20000, 30000, 40000)
_TRADEOFF_REDUCTION = "Reductions"


def _tradeoff_int(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _tradeoff_grid(values, name, upper=None):
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr < 0) or (
            upper is not None and np.any(arr > upper)):
        bound = f"in [0, {upper}]" if upper is not None else ">= 0"
        raise ValueError(f"{name} must be a non-empty list of numbers {bound}; got {values!r}.")
    return [float(v) for v in arr]


@functools.lru_cache(maxsize=4)
def _tradeoff_data(key, data_home):
    from . import datasets

    data = getattr(datasets, f"load_{key}")(variant="agarwal", data_home=data_home)
    return (data.X.to_numpy(float), (data.y.to_numpy() == data.pos_label).astype(int),
            data.sensitive.to_numpy().astype(int))


def kleindessner_tradeoff_splits(dataset, *, n_runs=10, n_train=5000, n_test=5000,
                                 first_run=0, data_home=None):
    """The train/test draws of Kleindessner et al. §5.2 (App. C.2).

    Run ``r`` permutes the rows with ``np.random.default_rng(r * 1111)`` and takes the first
    ``n_train`` rows for training and the next ``n_test`` for testing; a
    :class:`~sklearn.preprocessing.StandardScaler` fitted on the training rows scales both
    (the reference code, ``comparison_with_Agarwal``).

    Parameters
    ----------
    dataset : {"adult", "bank"}
        ``load_adult(variant="agarwal")`` (48 842 rows, d = 99, z = sex) or
        ``load_bank(variant="agarwal")`` (41 188 rows, d = 52, z = 1[age > 40]).
    n_runs : int, default=10
        Number of draws (runs ``first_run .. first_run + n_runs − 1``).
    n_train, n_test : int, default=5000
        Rows per draw; ``n_test=0`` gives training rows only (the runtime study of Fig. 9).
    first_run : int, default=0
        Index of the first run (the paper: runs 0 to 9).
    data_home : path, optional
        Passed to the loader.

    Returns
    -------
    list of Bunch
        ``X_train, y_train, s_train, X_test, y_test, s_test`` (numpy; y and s coded 0/1),
        ``run``, ``dataset``, ``n_train``.
    """
    key = str(dataset).lower()
    if key not in KLEINDESSNER_TRADEOFF_DATASETS:
        raise ValueError(f"dataset must be one of {list(KLEINDESSNER_TRADEOFF_DATASETS)}; "
                         f"got {dataset!r}.")
    n_runs = _tradeoff_int(n_runs, "n_runs", 1)
    n_train = _tradeoff_int(n_train, "n_train", 2)
    n_test = _tradeoff_int(n_test, "n_test", 0)
    first_run = _tradeoff_int(first_run, "first_run", 0)
    from sklearn.preprocessing import StandardScaler

    X, y, s = _tradeoff_data(key, None if data_home is None else str(data_home))
    if n_train + n_test > len(y):
        raise ValueError(f"n_train + n_test = {n_train + n_test} exceeds the {len(y)} rows of "
                         f"{key}; lower n_train or n_test.")
    out = []
    for run in range(first_run, first_run + n_runs):
        perm = np.random.default_rng(run * 1111).permutation(len(y))
        tr, te = perm[:n_train], perm[n_train:n_train + n_test]
        scaler = StandardScaler().fit(X[tr])
        out.append(Bunch(X_train=scaler.transform(X[tr]), y_train=y[tr], s_train=s[tr],
                         X_test=scaler.transform(X[te]) if n_test else X[te],
                         y_test=y[te], s_test=s[te],
                         run=run, dataset=key, n_train=n_train))
    return out


def _blas_limit(threads):
    """A ``threadpoolctl`` limit on the BLAS pools (a no-op context for ``threads=None``)."""
    import contextlib

    if threads is None:
        return contextlib.nullcontext()
    threads = _tradeoff_int(threads, "blas_threads", 1)
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=threads, user_api="blas")


def _tradeoff_gamma(X_train):
    """γ = 1/(d·Var X_train): the reference's kernel SVM and fair kernel PCA width."""
    var = float(np.var(X_train))
    return 1.0 / (X_train.shape[1] * var) if var > 0 else 1.0


def _tradeoff_classifier(classifier, n_train, gamma, warm_start=False):
    from sklearn.linear_model import LogisticRegression

    if classifier == "logistic regression":
        return LogisticRegression(C=1.0 / (2 * n_train * 0.01), max_iter=10_000, random_state=0,
                                  warm_start=warm_start)
    return SVC(C=1.0 / (2 * n_train * 5e-5), gamma=gamma, random_state=0)


def _tradeoff_transformers(method, d, gamma):
    """Unfitted (fair, standard) pair of a fair PCA method, with the paper's dimensions."""
    from sklearn.decomposition import PCA, KernelPCA

    from .kernel_pca import FairKernelPCA
    from .pca import FairPCA

    if method == "Fair PCA":
        return FairPCA(d - 1, center=False), PCA(d - 1, svd_solver="covariance_eigh")
    if method == "Fair PCA-S":
        k = max(int(d / 4), 1)
        return (FairPCA(k, equalize_covariance=0.5, center=False),
                PCA(k, svd_solver="covariance_eigh"))
    return (FairKernelPCA(d - 1, kernel="rbf", gamma=gamma, center=False),
            KernelPCA(d - 1, kernel="rbf", gamma=gamma, random_state=0))


def _tradeoff_fit_rows(split, fairness):
    """Rows the representation is learned from: all (DP) or those with y = 1 (EO)."""
    if fairness == "EO":
        rows = split.y_train == 1
        return split.X_train[rows], split.s_train[rows]
    return split.X_train, split.s_train


def _fair_curve(method, split, fairness, classifier, lambdas, *, reuse_fit=True,
                warm_start=True, evaluate=True):
    """One curve of a fair PCA method: (seconds of the shared fit, [(λ, pred_test, seconds)])."""
    import sklearn
    from sklearn.exceptions import ConvergenceWarning

    from .tradeoff import FairTradeoff

    X, y, n = split.X_train, split.y_train, len(split.y_train)
    gamma = _tradeoff_gamma(X)
    X_fit, s_fit = _tradeoff_fit_rows(split, fairness)
    linear = classifier == "logistic regression"
    warm = warm_start and reuse_fit and linear
    points, coef, intercept = [], None, None
    with warnings.catch_warnings(), sklearn.config_context(assume_finite=True):
        warnings.simplefilter("ignore", ConvergenceWarning)
        shared = 0.0
        if reuse_fit:
            t0 = time.perf_counter()
            fair, standard = _tradeoff_transformers(method, X.shape[1], gamma)
            fair.fit(X_fit, sensitive_features=s_fit)
            standard.fit(X_fit)
            A = fair.transform(X)
            C = np.hstack([A, standard.transform(X)])
            shared = time.perf_counter() - t0
            if evaluate:
                C_te = np.hstack([fair.transform(split.X_test),
                                  standard.transform(split.X_test)])
        for lam in lambdas:
            t0 = time.perf_counter()
            if reuse_fit:
                scale = np.r_[np.ones(A.shape[1]), np.full(C.shape[1] - A.shape[1], lam)]
                Z = C * scale
                clf = _tradeoff_classifier(classifier, n, gamma, warm_start=warm)
                if warm and coef is not None:  # start from the previous λ's weights
                    clf.coef_ = coef
                    clf.intercept_ = intercept
                clf.fit(Z, y)
                if warm:
                    coef = clf.coef_.copy()
                    intercept = clf.intercept_.copy()
            else:
                fair, standard = _tradeoff_transformers(method, X.shape[1], gamma)
                knob = FairTradeoff(fair, standard, lam=lam).fit(X_fit, sensitive_features=s_fit)
                clf = _tradeoff_classifier(classifier, n, gamma).fit(knob.transform(X), y)
            seconds = time.perf_counter() - t0
            pred = None
            if evaluate:
                if reuse_fit:
                    Z_te = C_te * scale
                else:
                    Z_te = knob.transform(split.X_test)
                pred = clf.predict(Z_te)
            points.append((lam, pred, seconds))
    return shared, points


def _reductions_curve(split, fairness, classifier, eps_grid, *, evaluate=True):
    """One curve of fairlearn's ExponentiatedGradient: (0.0, [(ε, pred_test, seconds)]).

    The paper's call: ``ExponentiatedGradient(clf, DemographicParity(difference_bound=ε))``
    (or ``TruePositiveRateParity``) with fairlearn's default ``eps``, which since fairlearn 0.5
    only sets the L1 bound of the multipliers, so the constraint's bound is what varies.
    """
    try:
        from fairlearn import reductions
    except ImportError:
        raise ImportError("the 'Reductions' curve runs fairlearn's ExponentiatedGradient; "
                          "install fairlearn (pip install 'fairlab[book]').") from None

    X, y, n = split.X_train, split.y_train, len(split.y_train)
    gamma = _tradeoff_gamma(X)
    moment = getattr(reductions, {"DP": "DemographicParity",
                                  "EO": "TruePositiveRateParity"}[fairness])
    rng = np.random.default_rng(split.run)
    points = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning of the cost-sensitive fits
        for eps in eps_grid:
            t0 = time.perf_counter()
            model = reductions.ExponentiatedGradient(
                _tradeoff_classifier(classifier, n, gamma), moment(difference_bound=eps))
            model.fit(X, y, sensitive_features=split.s_train)
            seconds = time.perf_counter() - t0
            pred = None
            if evaluate:
                pred = model.predict(split.X_test, random_state=int(rng.integers(2**31)))
            points.append((eps, pred, seconds))
    return 0.0, points


def _tradeoff_curve(method, split, fairness, classifier, lambdas, eps, *, reuse_fit,
                    warm_start, evaluate=True):
    if method == _TRADEOFF_REDUCTION:
        return _reductions_curve(split, fairness, classifier, eps, evaluate=evaluate)
    return _fair_curve(method, split, fairness, classifier, lambdas, reuse_fit=reuse_fit,
                       warm_start=warm_start, evaluate=evaluate)


def kleindessner_tradeoff_curves(datasets=("adult",), *, methods=("Fair PCA", "Reductions"),
                                 fairness=KLEINDESSNER_TRADEOFF_FAIRNESS,
                                 classifiers=("logistic regression",), n_runs=10, n_train=5000,
                                 n_test=5000, first_run=0, lambdas=KLEINDESSNER_TRADEOFF_LAMBDAS,
                                 eps=KLEINDESSNER_TRADEOFF_EPS, reuse_fit=True, warm_start=True,
                                 blas_threads=1, data_home=None, progress=False):
    r"""Error-vs-violation trade-off curves of Kleindessner et al. §5.2 (Figs. 4 and 8).

    For every data set, run (:func:`kleindessner_tradeoff_splits`), fairness notion, downstream
    classifier and method, one curve:

    * a fair PCA method (``"Fair PCA"``: ``FairPCA(d − 1)``; ``"Fair PCA-S"``:
      ``FairPCA(int(d/4), equalize_covariance=0.5)``, i.e. l = int(d/2); ``"Fair Kernel PCA"``:
      ``FairKernelPCA(d − 1, kernel="rbf", γ)``; all uncentred, as the paper's
      ``standardize=False``) paired with standard PCA / kernel PCA of the same dimension in the
      knob of §3.1, :class:`~fairlab.FairTradeoff`, ``x ↦ (U_fairᵀx; λ·U_stᵀx)``, for each λ of
      ``lambdas``; the classifier is trained on that representation of the training rows.
      For EO both representations are learned from the training rows with y = 1 (the reference
      code; the classifier still sees all rows);
    * ``"Reductions"``: fairlearn's ``ExponentiatedGradient`` around the same classifier,
      with ``DemographicParity`` (DP) or ``TruePositiveRateParity`` (EO) and
      ``difference_bound = ε`` for each ε of ``eps``, fairlearn's other defaults (the paper's
      call; fairlearn is called directly because the ``eps`` of
      :class:`~fairlab.baselines.ExponentiatedGradientClassifier` is fairlearn's ``eps``, the
      L1 bound of the multipliers, not the constraint's bound); its randomised predictions are
      drawn from a generator seeded with the run.

    Classifiers (reference code): ``LogisticRegression(C = 1/(2·n_train·0.01), max_iter=10000)``
    and ``SVC(C = 1/(2·n_train·5·10⁻⁵), γ = 1/(d·Var X_train))`` (C = 0.01 and 2 at n = 5000);
    fair kernel PCA uses the same γ.  Metrics on the test rows: ``error`` = P(ŷ ≠ y),
    ``violation`` = :math:`\Delta_{DP} = |P(\hat y=1 \mid z=0) - P(\hat y=1 \mid z=1)|` or
    :math:`\Delta_{EO} = |\mathrm{TPR}_0 - \mathrm{TPR}_1|`.

    Parameters
    ----------
    datasets : str or list of {"adult", "bank"}, default=("adult",)
    methods : list of {"Fair PCA", "Fair PCA-S", "Fair Kernel PCA", "Reductions"}
    fairness : list of {"DP", "EO"}
    classifiers : list of {"logistic regression", "kernel SVM"}
    n_runs, n_train, n_test, first_run : int
        Draws, their sizes and the first run's index (the paper: 10, 5000, 5000, 0).
    lambdas : list of float in [0, 1]
        Weights of the standard block, default :data:`KLEINDESSNER_TRADEOFF_LAMBDAS`
        ((i/10)³, the weights of the paper's figures).
    eps : list of float >= 0
        ``difference_bound`` values, default :data:`KLEINDESSNER_TRADEOFF_EPS`.
    reuse_fit : bool, default=True
        Fit the fair and the standard representation once per curve and rescale the standard
        block for each λ (what ``FairTradeoff`` computes: its fit does not depend on λ).
        ``False`` refits ``FairTradeoff`` for every λ, as the paper's pipeline does; both give
        the same representations.
    warm_start : bool, default=True
        Start each λ's logistic regression from the previous λ's weights (the objective is
        strictly convex, so only the iterations change, not the optimum up to the solver's
        tolerance).  Only with ``reuse_fit``; ignored for the kernel SVM.
    blas_threads : int or None, default=1
        BLAS threads during the fits (``threadpoolctl``), the same for every method; both kinds
        of curve are sequences of small fits, which an oversubscribed thread pool only slows
        down.  ``None`` leaves the pools as they are.
    data_home : path, optional
    progress : bool, default=False
        tqdm bar over the curves.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, fairness, classifier, run, param, error, violation,
        seconds``.  ``param`` is λ for the fair methods and ε for the reductions;
        ``seconds`` is the training time of that point (representation + classifier fits, no
        prediction), the once-per-curve fit of ``reuse_fit`` shared equally by the curve's
        points, so that the seconds of a curve add up to its wall time.
    """
    datasets = _ps_names(datasets, KLEINDESSNER_TRADEOFF_DATASETS, "datasets")
    methods = _ps_names(methods, KLEINDESSNER_TRADEOFF_METHODS, "methods")
    fairness = _ps_names(fairness, KLEINDESSNER_TRADEOFF_FAIRNESS, "fairness")
    classifiers = _ps_names(classifiers, KLEINDESSNER_TRADEOFF_CLASSIFIERS, "classifiers")
    lambdas = _tradeoff_grid(lambdas, "lambdas", upper=1.0)
    eps = _tradeoff_grid(eps, "eps")
    n_test = _tradeoff_int(n_test, "n_test", 1)
    tasks = [(ds, split, fair, clf, m)
             for ds in datasets
             for split in kleindessner_tradeoff_splits(ds, n_runs=n_runs, n_train=n_train,
                                                       n_test=n_test, first_run=first_run,
                                                       data_home=data_home)
             for fair in fairness for clf in classifiers for m in methods]
    rows = []
    for ds, split, fair, clf, method in _progress(tasks, progress, total=len(tasks),
                                                  desc="curves"):
        with _blas_limit(blas_threads):
            shared, points = _tradeoff_curve(method, split, fair, clf, lambdas, eps,
                                             reuse_fit=reuse_fit, warm_start=warm_start)
        score = (metrics.demographic_parity_difference if fair == "DP"
                 else metrics.equal_opportunity_difference)
        for param, pred, seconds in points:
            rows.append({"dataset": ds, "method": method, "fairness": fair, "classifier": clf,
                         "run": split.run, "param": param,
                         "error": float(np.mean(pred != split.y_test)),
                         "violation": float(score(split.y_test, pred,
                                                  sensitive_features=split.s_test)),
                         "seconds": seconds + shared / len(points)})
    return pd.DataFrame(rows, columns=["dataset", "method", "fairness", "classifier", "run",
                                       "param", "error", "violation", "seconds"])


def kleindessner_tradeoff_runtimes(n_train=KLEINDESSNER_TRADEOFF_N_TRAIN, *, dataset="adult",
                                   methods=("Fair PCA", "Fair PCA-S", "Reductions"),
                                   fairness="DP", classifier="logistic regression", n_runs=10,
                                   first_run=0, lambdas=KLEINDESSNER_TRADEOFF_LAMBDAS,
                                   eps=KLEINDESSNER_TRADEOFF_EPS, reuse_fit=True,
                                   warm_start=True, blas_threads=1, warmup=True,
                                   data_home=None, progress=False):
    """Whole-curve training times against n_train (Kleindessner et al. Fig. 9).

    For each ``n_train`` and run, the training rows of :func:`kleindessner_tradeoff_splits`
    (``n_test=0``, as the paper's runtime script) are drawn outside the timer, then every
    method's whole curve (all λ, or all ε) is trained and timed as in
    :func:`kleindessner_tradeoff_curves` (same options; no prediction).  The paper plots the
    mean over grid points and runs (``seconds_per_point``); its "0.04 s vs 4.6 s" is that
    statistic at n = 5000.

    Parameters
    ----------
    n_train : int or list of int
        Training-set sizes (the paper: :data:`KLEINDESSNER_TRADEOFF_N_TRAIN`).
    dataset, fairness, classifier : str
        One setting (the paper: Adult, DP, logistic regression).
    methods, n_runs, first_run, lambdas, eps, reuse_fit, warm_start, blas_threads, data_home
        As in :func:`kleindessner_tradeoff_curves`.
    progress : bool, default=False
        As in :func:`kleindessner_tradeoff_curves`.
    warmup : bool, default=True
        Train one point of every method's curve, untimed, on the first draw of the smallest
        size (imports, caches, thread start-up).

    Returns
    -------
    DataFrame
        Columns ``dataset, method, fairness, classifier, n_train, run, n_points, seconds,
        seconds_per_point``; ``seconds`` is the whole curve's wall time.
    """
    grid = [n_train] if isinstance(n_train, Integral) else list(n_train)
    if not grid:
        raise ValueError("n_train must be an integer or a non-empty list of integers.")
    grid = [_tradeoff_int(n, "n_train", 2) for n in grid]
    methods = _ps_names(methods, KLEINDESSNER_TRADEOFF_METHODS, "methods")
    (fairness,) = _ps_names([fairness], KLEINDESSNER_TRADEOFF_FAIRNESS, "fairness")
    (classifier,) = _ps_names([classifier], KLEINDESSNER_TRADEOFF_CLASSIFIERS,
                                    "classifier")
    lambdas = _tradeoff_grid(lambdas, "lambdas", upper=1.0)
    eps = _tradeoff_grid(eps, "eps")
    tasks = [(n, split) for n in grid
             for split in kleindessner_tradeoff_splits(dataset, n_runs=n_runs, n_train=n,
                                                       n_test=0, first_run=first_run,
                                                       data_home=data_home)]
    def curve(method, split, lambdas=lambdas, eps=eps):
        with _blas_limit(blas_threads):
            return _tradeoff_curve(method, split, fairness, classifier, lambdas, eps,
                                   reuse_fit=reuse_fit, warm_start=warm_start, evaluate=False)

    if warmup:
        first = min(tasks, key=lambda task: task[0])[1]
        for method in methods:
            curve(method, first, lambdas[:1], eps[:1])
    rows = []
    for n, split in _progress(tasks, progress, total=len(tasks), desc="runtime"):
        for method in methods:
            t0 = time.perf_counter()
            _, points = curve(method, split)
            seconds = time.perf_counter() - t0
            rows.append({"dataset": split.dataset, "method": method, "fairness": fairness,
                         "classifier": classifier, "n_train": n, "run": split.run,
                         "n_points": len(points), "seconds": seconds,
                         "seconds_per_point": seconds / len(points)})
    return pd.DataFrame(rows)


def kleindessner_tradeoff_runtime_summary(runtimes, *, reference="Reductions", ddof=0):
    """Mean ± std of the whole-curve seconds per method and n_train, and the ratio to ``reference``.

    Returns
    -------
    DataFrame
        Columns ``method, n_train, seconds, seconds_std, seconds_per_point, ratio`` (``ratio``
        = mean whole-curve seconds / the reference's at the same n_train; with grids of equal
        length it is also the per-point ratio the paper quotes).
    """
    if reference not in set(runtimes["method"]):
        raise ValueError(f"reference {reference!r} is not among the methods of runtimes.")
    g = runtimes.groupby(["method", "n_train"], sort=False)
    out = pd.DataFrame({"seconds": g["seconds"].mean(),
                        "seconds_std": g["seconds"].std(ddof=ddof).fillna(0.0),
                        "seconds_per_point": g["seconds_per_point"].mean()}).reset_index()
    return runtime_ratios(out, reference, by=("n_train",))


def kleindessner_reported_tradeoff_runtimes():
    """The running times Kleindessner et al. state in the text of §5.2 and App. C.7.

    "fair PCA runs for 0.04 seconds on average while the method by Agarwal et al. 2018 runs for
    4.6 seconds" (§5.2, n = 5000, logistic regression, including the classifier training); "the
    method of Agarwal et al. 2018, on average, runs for more than 32 seconds when training with
    40000 datapoints and aiming for DP"; "none of our methods ever runs for more than 0.5
    seconds" (App. C.7, Fig. 9).  The averages are over the eleven grid points and ten runs,
    so ``seconds`` is per grid point (``statistic``).  Their machine: a MacBook Pro
    (see :func:`kleindessner_reported_runtimes`).

    Returns
    -------
    DataFrame
        Columns ``source, method, n_train, fairness, relation, seconds, statistic``.
    """
    rows = [
        ("§5.2", "Fair PCA", 5000, "DP/EO", "≈", 0.04, "per point"),
        ("§5.2", "Reductions", 5000, "DP/EO", "≈", 4.6, "per point"),
        ("App. C.7", "Reductions", 40000, "DP", ">", 32.0, "per point"),
        ("App. C.7", "Fair PCA family", 40000, "DP", "<", 0.5, "per point"),
    ]
    return pd.DataFrame(rows, columns=["source", "method", "n_train", "fairness", "relation",
                                       "seconds", "statistic"])


def _lower_envelope(violation, error):
    """Sorted violations and the running minimum of the error: E(v) = min{error_i : v_i ≤ v}."""
    order = np.argsort(violation, kind="stable")
    return violation[order], np.minimum.accumulate(error[order])


def _curve_points(curve, x, y, name):
    if isinstance(curve, pd.DataFrame):
        missing = [c for c in (x, y) if c not in curve.columns]
        if missing:
            raise ValueError(f"{name} lacks the column(s) {missing}.")
        pts = curve[[x, y]].to_numpy(float)
    else:
        pts = np.asarray(curve, dtype=float)
        if pts.ndim != 2 or pts.shape[1] != 2:
            raise ValueError(f"{name} must be a DataFrame or an (n, 2) array of (violation, "
                             f"error) points; got shape {pts.shape}.")
    if len(pts) == 0 or not np.all(np.isfinite(pts)):
        raise ValueError(f"{name} must hold at least one point, all finite.")
    return pts[:, 0], pts[:, 1]


def tradeoff_curve_gap(curve, reference, *, x="violation", y="error"):
    r"""How far apart two trade-off curves are: the area between their lower envelopes.

    Each curve is summarised by its lower envelope E(v) = min{error of a point with violation
    ≤ v} (the best error reachable within a violation budget v: a non-increasing step
    function).  On the violation range both envelopes are defined and at least one curve
    reaches, [lo, hi] = [max(min v_a, min v_b), max(max v_a, max v_b)] (an envelope stays flat
    after its last point), the gap is

    .. math::

        \text{area} = \int_{lo}^{hi} |E_a(v) − E_b(v)|\,dv, \qquad
        \text{mean\_abs\_gap} = \frac{\text{area}}{hi − lo}, \qquad
        \text{mean\_gap} = \frac{1}{hi − lo}\int_{lo}^{hi} (E_a − E_b)\,dv,

    computed exactly (both are step functions).  ``mean_abs_gap`` is the error difference at
    matched violation, averaged over the range: "the curves overlap" reads as a mean gap that
    is small against the curves' own spread of errors.  ``mean_gap > 0`` means ``curve`` is
    worse (higher error) than ``reference`` on average.  When hi = lo (one point each at the
    same violation) the gaps are those at that point and ``area`` is 0.

    Parameters
    ----------
    curve, reference : DataFrame or array of shape (n, 2)
        Points (violation, error), e.g. one method's curve averaged over runs; with a
        DataFrame, the columns ``x`` and ``y``.
    x, y : str, default "violation", "error"

    Returns
    -------
    dict with ``lo, hi, area, mean_gap, mean_abs_gap``.
    """
    va, ea = _lower_envelope(*_curve_points(curve, x, y, "curve"))
    vb, eb = _lower_envelope(*_curve_points(reference, x, y, "reference"))
    lo, hi = max(va[0], vb[0]), max(va[-1], vb[-1])

    def at(v, vs, es):
        return es[np.searchsorted(vs, v, side="right") - 1]

    if hi <= lo:
        diff = float(at(lo, va, ea) - at(lo, vb, eb))
        return {"lo": float(lo), "hi": float(hi), "area": 0.0, "mean_gap": diff,
                "mean_abs_gap": abs(diff)}
    knots = np.unique(np.concatenate([[lo, hi], va[(va > lo) & (va < hi)],
                                      vb[(vb > lo) & (vb < hi)]]))
    left, width = knots[:-1], np.diff(knots)
    diff = at(left, va, ea) - at(left, vb, eb)
    area = float(np.sum(np.abs(diff) * width))
    return {"lo": float(lo), "hi": float(hi), "area": area,
            "mean_gap": float(np.sum(diff * width) / (hi - lo)),
            "mean_abs_gap": area / (hi - lo)}


def kleindessner_tradeoff_gaps(curves, *, reference="Reductions"):
    """:func:`tradeoff_curve_gap` of every method's mean curve against ``reference``'s.

    The curves of :func:`kleindessner_tradeoff_curves` are first averaged over runs per
    parameter value (the points the paper plots), then compared per data set, fairness notion
    and classifier.

    Returns
    -------
    DataFrame
        Columns ``dataset, fairness, classifier, method, lo, hi, area, mean_gap, mean_abs_gap,
        error_range`` (``error_range``: max − min of the mean errors of both curves, the scale
        to read the gap against).
    """
    if reference not in set(curves["method"]):
        raise ValueError(f"reference {reference!r} is not among the methods of curves.")
    keys = ["dataset", "fairness", "classifier"]
    mean = curves.groupby(keys + ["method", "param"], sort=False)[["violation", "error"]].mean()
    mean = mean.reset_index()
    rows = []
    for key, df in mean.groupby(keys, sort=False):
        ref = df[df["method"] == reference]
        if ref.empty:
            continue
        for method, cur in df[df["method"] != reference].groupby("method", sort=False):
            gap = tradeoff_curve_gap(cur, ref)
            both = np.concatenate([cur["error"], ref["error"]])
            rows.append(dict(zip(keys, key), method=method, **gap,
                             error_range=float(both.max() - both.min())))
    return pd.DataFrame(rows, columns=keys + ["method", "lo", "hi", "area", "mean_gap",
                                              "mean_abs_gap", "error_range"])


def write_results_csv(frame, path, *, chapter=None):
    """Write tidy results as CSV with provenance columns: commit, date and machine.

    Adds ``chapter`` (when given), ``commit`` (``git rev-parse HEAD`` of the working tree, with
    ``+dirty`` when it has uncommitted changes; ``"unknown"`` outside a git checkout), ``date``
    (UTC, ISO 8601), ``machine`` (platform, processor, CPU count) and ``fairlab`` (version),
    then writes ``path`` (folders created).  Used by ``make reproduce``.

    Returns
    -------
    pathlib.Path
    """
    import datetime
    import os
    import platform
    import subprocess
    from pathlib import Path

    from . import __version__

    def git(*args):
        try:
            return subprocess.run(["git", *args], capture_output=True, text=True, timeout=10,
                                  cwd=Path(__file__).resolve().parent, check=True).stdout
        except (OSError, subprocess.SubprocessError):
            return None

    head = git("rev-parse", "HEAD")
    commit = "unknown" if head is None else head.strip()
    if head is not None and git("status", "--porcelain", "--untracked-files=no"):
        commit += "+dirty"
    machine = (f"{platform.system()} {platform.machine()}, {platform.processor() or 'cpu'}, "
               f"{os.cpu_count()} cores, Python {platform.python_version()}")
    out = frame.copy()
    out.attrs = {}
    if chapter is not None:
        out.insert(0, "chapter", chapter)
    out["commit"] = commit
    out["date"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    out["machine"] = machine
    out["fairlab"] = __version__
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, index=False)
    return path


# --- Concept erasure on images (Kleindessner et al. Fig. 5 and Figs. 10-15) ----------------------

#: The methods of the concept-erasure figures, in the order they are drawn.
CONCEPT_ERASURE_METHODS = ("PCA", "Fair PCA", "Fair PCA-S")


def _concept_inputs(X, concept, k, methods, func):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{func}: X must be a 2-D array (n_images, n_pixels); got shape "
                         f"{X.shape}.")
    concept = np.asarray(concept).ravel()
    if concept.shape[0] != X.shape[0]:
        raise ValueError(f"{func}: concept must have one entry per row of X ({X.shape[0]}); got "
                         f"{concept.shape[0]}.")
    if set(np.unique(concept)) != {0, 1}:
        raise ValueError(f"{func}: concept must be binary 0/1 with both values present; got "
                         f"values {np.unique(concept)[:5]}.")
    if isinstance(k, bool) or not isinstance(k, Integral) or not 1 <= k < X.shape[1]:
        raise ValueError(f"{func}: k must be an int in [1, n_pixels) = [1, {X.shape[1]}); got "
                         f"{k!r}.")
    if isinstance(methods, str):
        methods = (methods,)
    methods = tuple(methods)
    unknown = [m for m in methods if m not in CONCEPT_ERASURE_METHODS]
    if unknown or not methods:
        raise ValueError(f"{func}: methods must be a non-empty subset of "
                         f"{CONCEPT_ERASURE_METHODS}; got {methods!r}.")
    return X, concept.astype(int), int(k), methods


def _concept_estimator(method, k, equalize_covariance):
    from sklearn.decomposition import PCA

    from .pca import FairPCA

    if method == "PCA":
        return PCA(n_components=k)
    if method == "Fair PCA":
        return FairPCA(n_components=k)
    return FairPCA(n_components=k, equalize_covariance=equalize_covariance)


def _fit_concept(method, X, concept, k, equalize_covariance):
    est = _concept_estimator(method, k, equalize_covariance)
    if method == "PCA":
        return est.fit(X)
    return est.fit(X, sensitive_features=concept)


def concept_erasure_reconstructions(X, concept, k, *, methods=CONCEPT_ERASURE_METHODS,
                                    equalize_covariance=0.85, X_new=None):
    """Reconstructions of images by PCA, Fair PCA and Fair PCA-S with a concept as the group.

    Kleindessner et al. (2023, Fig. 5 and App. C.6) fit fair PCA to flattened CelebA images with
    an annotation (eyeglasses, smiling, ...) as the sensitive feature and show the images
    projected onto the fair subspace, mapped back to pixel space.  Each method is fitted on
    ``(X, concept)`` (plain PCA ignores ``concept``) and returns
    ``inverse_transform(transform(X_new))``: the mean plus the projection onto the k
    components.

    Parameters
    ----------
    X : array-like of shape (n_images, n_pixels)
        Flattened images (e.g. :func:`fairlab.datasets.make_digits_concept` or
        :func:`fairlab.datasets.load_celeba`).
    concept : array-like of shape (n_images,)
        The concept to erase, 0/1 (both present).
    k : int
        Number of components, 1 <= k < n_pixels.
    methods : sequence of str, default=CONCEPT_ERASURE_METHODS
        Any of ``"PCA"``, ``"Fair PCA"`` (:class:`fairlab.pca.FairPCA`: equal projected group
        means) and ``"Fair PCA-S"`` (``FairPCA(equalize_covariance=...)``, §3.6: also close group
        covariances).
    equalize_covariance : float or int, default=0.85
        Fair PCA-S's l (a float f means l = max(k, ⌊f·n_pixels⌋)); 0.85 as in the paper's §5.1.
    X_new : array-like of shape (m, n_pixels), optional
        Images to reconstruct (default: ``X``).

    Returns
    -------
    dict
        ``{"Original": X_new, method: reconstruction, ...}``, arrays of shape (m, n_pixels).

    Raises
    ------
    ValueError
        Bad shapes, a non-binary ``concept``, ``k`` out of range or an unknown method.
    """
    X, concept, k, methods = _concept_inputs(X, concept, k, methods,
                                             "concept_erasure_reconstructions")
    X_new = X if X_new is None else np.asarray(X_new, dtype=float)
    if X_new.ndim != 2 or X_new.shape[1] != X.shape[1]:
        raise ValueError(f"concept_erasure_reconstructions: X_new must have shape (m, "
                         f"{X.shape[1]}); got {X_new.shape}.")
    out = {"Original": X_new}
    for method in methods:
        est = _fit_concept(method, X, concept, k, equalize_covariance)
        out[method] = est.inverse_transform(est.transform(X_new))
    return out


def concept_erasure_examples(X, concept, k, *, n_per_group=3, methods=CONCEPT_ERASURE_METHODS,
                             full_rank_fair=True, equalize_covariance=0.85, random_state=0):
    """A few images with and without the concept and their reconstructions (the figure's data).

    Fits every method on all of ``X`` (as the paper does on CelebA) and picks ``n_per_group``
    random images with the concept, then ``n_per_group`` without it.  The paper's Figs. 5
    and 10–15 show Fair PCA at k = d − 1 (only the direction of the group-mean difference is
    projected out) and at a small k; ``full_rank_fair`` adds the first.

    Parameters
    ----------
    X, concept, k, methods, equalize_covariance
        As in :func:`concept_erasure_reconstructions`.
    n_per_group : int, default=3
        Images shown per value of the concept.
    full_rank_fair : bool, default=True
        Also show Fair PCA with k = n_pixels − 1.
    random_state : int or None, default=0
        Seeds which images are shown.

    Returns
    -------
    images : dict
        ``{"original, d = 64": ..., "Fair PCA, k = 63": ..., "PCA, k = 10": ..., ...}`` (row
        titles, in drawing order), each of shape (2·n_per_group, n_pixels).
    shown_concept : ndarray of shape (2·n_per_group,)
        The concept of the images shown (``n_per_group`` ones, then zeros).
    """
    X, concept, k, methods = _concept_inputs(X, concept, k, methods, "concept_erasure_examples")
    if isinstance(n_per_group, bool) or not isinstance(n_per_group, Integral) or n_per_group < 1:
        raise ValueError(f"concept_erasure_examples: n_per_group must be a positive int; got "
                         f"{n_per_group!r}.")
    rng = np.random.default_rng(random_state)
    picks = []
    for value in (1, 0):
        rows = np.flatnonzero(concept == value)
        if len(rows) < n_per_group:
            raise ValueError(f"concept_erasure_examples: only {len(rows)} images have concept "
                             f"{value}; n_per_group={n_per_group} is too many.")
        picks.append(rng.choice(rows, size=n_per_group, replace=False))
    shown = np.concatenate(picks)
    d = X.shape[1]
    images = {f"original, d = {d}": X[shown]}
    if full_rank_fair:
        images[f"Fair PCA, k = {d - 1}"] = concept_erasure_reconstructions(
            X, concept, d - 1, methods=["Fair PCA"], X_new=X[shown])["Fair PCA"]
    rec = concept_erasure_reconstructions(X, concept, k, methods=methods,
                                          equalize_covariance=equalize_covariance, X_new=X[shown])
    images.update({f"{method}, k = {k}": rec[method] for method in methods})
    return images, concept[shown]


def concept_erasure_scores(X, concept, labels=None, k=10, *, methods=CONCEPT_ERASURE_METHODS,
                           equalize_covariance=0.85, test_size=0.5, random_state=0):
    """How well a linear classifier reads the concept (and the labels) before and after erasure.

    The images are split once into training and held-out halves (stratified by the concept).
    Every method is fitted on the training images (with the concept as sensitive feature) and
    maps both halves to its k-dimensional representation ``transform(X)``; a logistic regression
    (lbfgs, ``max_iter=2000``) is trained on the training representation to predict the concept
    and, when ``labels`` are given, a multinomial one to predict the labels (the digit); both are
    scored on the held-out images.  The row ``"Original pixels"`` does the same on the pixels
    themselves (the "before").  Reconstructions are an affine map of the representation, so a
    linear classifier reads the same from them.

    Parameters
    ----------
    X, concept, k, methods, equalize_covariance
        As in :func:`concept_erasure_reconstructions`; ``k`` defaults to 10.
    labels : array-like of shape (n_images,), optional
        A second target whose information should survive (the digit), or None.
    test_size : float in (0, 1), default=0.5
        Share of the images held out.
    random_state : int or None, default=0
        Seeds the split.

    Returns
    -------
    pandas.DataFrame
        One row per representation (``"Original pixels"``, then ``methods``) with
        ``concept_accuracy`` (held-out accuracy predicting the concept), ``chance`` (the
        held-out majority-class rate: what a representation without linear concept information
        allows), ``label_accuracy`` (held-out accuracy predicting ``labels``; NaN without them),
        ``max_cross_cov`` (the largest absolute empirical covariance of a dimension of the
        training representation with the concept: zero for Fair PCA up to rounding) and
        ``explained_variance`` (share of the held-out images' variance kept by the
        reconstruction; 1 for the pixels).

    Raises
    ------
    ValueError
        As :func:`concept_erasure_reconstructions`; ``labels`` of the wrong length;
        ``test_size`` outside (0, 1).
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    X, concept, k, methods = _concept_inputs(X, concept, k, methods, "concept_erasure_scores")
    if labels is not None:
        labels = np.asarray(labels).ravel()
        if labels.shape[0] != X.shape[0]:
            raise ValueError(f"concept_erasure_scores: labels must have one entry per row of X "
                             f"({X.shape[0]}); got {labels.shape[0]}.")
    if isinstance(test_size, bool) or not isinstance(test_size, Real) or not 0 < test_size < 1:
        raise ValueError(f"concept_erasure_scores: test_size must be a float in (0, 1); got "
                         f"{test_size!r}.")
    index = np.arange(X.shape[0])
    train, test = train_test_split(index, test_size=test_size, random_state=random_state,
                                   stratify=concept)
    c_train, c_test = concept[train], concept[test]
    chance = max(c_test.mean(), 1 - c_test.mean())
    total = ((X[test] - X[train].mean(axis=0)) ** 2).sum()

    def accuracy(Z_train, Z_test, y_train, y_test):
        clf = LogisticRegression(max_iter=2000)
        return clf.fit(Z_train, y_train).score(Z_test, y_test)

    def row(name, Z_train, Z_test, explained):
        Zc = Z_train - Z_train.mean(axis=0)
        cross = np.abs(Zc.T @ (c_train - c_train.mean())) / len(train)
        return {
            "method": name,
            "concept_accuracy": accuracy(Z_train, Z_test, c_train, c_test),
            "chance": chance,
            "label_accuracy": (np.nan if labels is None else
                               accuracy(Z_train, Z_test, labels[train], labels[test])),
            "max_cross_cov": float(cross.max()),
            "explained_variance": explained,
        }

    rows = [row("Original pixels", X[train], X[test], 1.0)]
    for method in methods:
        est = _fit_concept(method, X[train], c_train, k, equalize_covariance)
        Z_train, Z_test = est.transform(X[train]), est.transform(X[test])
        residual = ((X[test] - est.inverse_transform(Z_test)) ** 2).sum()
        rows.append(row(method, Z_train, Z_test, 1 - residual / total))
    return pd.DataFrame(rows)
