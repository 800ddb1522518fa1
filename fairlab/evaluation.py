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

import inspect
import math
import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC
from sklearn.utils import Bunch

from . import metrics

__all__ = [
    "KLEINDESSNER_DATASETS",
    "KLEINDESSNER_DECIMALS",
    "KLEINDESSNER_METHODS",
    "KLEINDESSNER_MODELS",
    "KLEINDESSNER_TABLES",
    "SAMADI_METHOD",
    "classifier_score",
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
    "lee_classifiers",
    "lee_gaussian_splits",
    "predictor_score",
    "repeated_splits",
    "runtime_ratios",
    "runtime_sweep",
    "scorecard",
    "summarize",
    "sweep",
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
