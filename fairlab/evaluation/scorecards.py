"""The representation scorecard of Lee et al. (2022) and Kleindessner et al. (2023) §5.1.

%Var, MMD², linear inseparability and the accuracy and Δ_DP of downstream classifiers.
"""

import inspect
from collections.abc import Mapping

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import metrics
from ._util import _progress, _to_numpy


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


class FixedProjection(TransformerMixin, BaseEstimator):
    """A linear representation computed elsewhere: ``x ↦ components x``, scored like any method.

    Lets a loading matrix saved by another implementation (e.g. the authors' own run of a
    method) go through exactly the protocol that fairlab's fits go through.  ``fit`` learns
    nothing; it checks the width of X and ignores ``y`` and ``sensitive_features``.

    Parameters
    ----------
    components : array-like of shape (n_components, n_features)
        The rows span the representation (orthonormal rows for %Var and MMD² to be scored).
    """
    def __init__(self, components):
        self.components = components

    def fit(self, X, y=None, *, sensitive_features=None):
        X = validate_data(self, X, dtype=float)
        components = np.asarray(self.components, dtype=float)
        if components.ndim != 2 or components.shape[1] != X.shape[1]:
            raise ValueError(f"components must have shape (n_components, {X.shape[1]}) for X "
                             f"with {X.shape[1]} features; got {components.shape}.")
        self.components_ = components
        return self

    def transform(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=float, reset=False)
        return X @ self.components_.T


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


def audit_representations(estimators, splits, *, progress=False, **leakage_options):
    """Leakage audit of each estimator's test representation, on each split; one tidy table.

    Each estimator is fitted on the training rows of a split (with ``y`` and
    ``sensitive_features`` where its ``fit`` takes them), maps the test rows, and
    :func:`fairlab.metrics.leakage` audits that test representation against ``s_test``: what
    an attacker who receives the released representation of new rows can recover.

    Parameters
    ----------
    estimators : dict of str -> estimator
    splits : iterable of Bunch
        As :func:`repeated_splits` yields them (``X_train, y_train, s_train, X_test, s_test``).
    progress : bool, default=False
    **leakage_options
        Passed to :func:`fairlab.metrics.leakage` (``adversaries``, ``tests``, ``cv``,
        ``random_state``…).

    Returns
    -------
    DataFrame
        ``split``, ``representation`` (the key in ``estimators``), then the columns of
        :func:`fairlab.metrics.leakage`.
    """
    if not isinstance(estimators, Mapping):
        raise TypeError(
            f"estimators must be a dict name -> estimator, e.g. {{'Fair PCA': FairPCA(2)}}; got "
            f"{type(estimators).__name__}.")
    if not estimators:
        raise ValueError("estimators is empty: there is nothing to audit. Pass a dict name -> "
                         "estimator, e.g. {'Fair PCA': FairPCA(2)}.")
    tables = []
    splits = list(splits)
    if not splits:
        raise ValueError("splits is empty: there is nothing to audit. Pass at least one split, "
                         "e.g. repeated_splits(X, y, s, n_splits=1).")
    for i, split in enumerate(_progress(splits, progress, total=len(splits), desc="splits")):
        for name, estimator in estimators.items():
            fitted = _fit_with_sensitive(estimator, split.X_train, split.y_train, split.s_train)
            table = metrics.leakage(fitted.transform(split.X_test), split.s_test,
                                    **leakage_options)
            table.insert(0, "representation", name)
            table.insert(0, "split", split.get("split", i))
            tables.append(table)
    return pd.concat(tables, ignore_index=True)

