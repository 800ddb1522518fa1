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
    "classifier_score",
    "dependence_score",
    "downstream_scores",
    "evaluate_splits",
    "format_mean_std",
    "format_table",
    "lee_classifiers",
    "predictor_score",
    "repeated_splits",
    "runtime_sweep",
    "scorecard",
    "summarize",
    "sweep",
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
