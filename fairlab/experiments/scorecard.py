"""A researcher's own representation method through the papers' protocols: its scorecard.

:func:`scorecard` fits a method of one's own exactly where the ledger's experiments fit the
published ones — the same splits, the same downstream classifiers, the same scoring — as work
units of a ledger of its own (``scorecard.csv.gz`` in a results folder of the caller's, never the
committed ledgers), and ranks it among the published methods, read from the committed ledgers.
From the shell::

    python -m fairlab.experiments scorecard MODULE:FACTORY [--name NAME] [--quick] [--results DIR]

A method is a **factory** ``factory(n_components)`` that returns an unfitted scikit-learn
transformer whose ``fit`` takes ``sensitive_features`` (a class such as :class:`fairlab.FairPCA`
is one; :data:`KLEINDESSNER_FAIR_PCA` is the setting of the ledger's "Fair PCA" rows).
"""

import functools
import inspect
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .. import published
from ..datasets import load_lee2022_split
from ..pca import FairPCA
from ._ledger import (
    MISSING,
    LedgerError,
    parameters_json,
    read_ledger,
    results_dir,
    summarize_ledger,
)
from ._ledger._running import _compute, _merge
from .kleindessner import (
    DATASETS,
    DECIMALS,
    METHODS,
    METRIC_LABELS,
    MODELS,
    PAPER,
    PARAMETERS,
    TABLES,
    TIMINGS,
    score_splits,
)

#: Kleindessner et al. (2023) §5.1, Tables 1–3: Lee et al.'s ten splits of Adult, German credit
#: and COMPAS at k = 2 and 10, trained on the test embedding (the paper's protocol), scored by
#: %Var, MMD² and the kernel SVM's, linear SVM's and MLP's accuracy and ΔDP.
KLEINDESSNER = "kleindessner"
#: The protocols a method can be put through, by name.
PROTOCOLS = (KLEINDESSNER,)
#: The name of the scorecard's ledger: ``scorecard.csv.gz`` in its results folder.
LEDGER = "scorecard"
#: Where the scorecard's ledger goes when no results folder is named (in the working directory).
DEFAULT_RESULTS = "scorecard-results"
#: The better direction of each metric, by which methods are ranked (rank 1 is the best): more
#: variance kept and higher accuracy are better; a smaller MMD² between the groups' embeddings
#: and a smaller gap in positive rates (ΔDP) are better.
RANK_DIRECTION = {"var_pct": "higher", "accuracy_pct": "higher", "mmd2": "lower",
                  "delta_dp": "lower"}
#: The columns of a scorecard.
CARD_COLUMNS = ["protocol", "dataset", "k", "model", "metric", "method", "yours", "mean", "std",
                "n_splits", "rank", "ranked", "better"]
#: The factory of the ledger's "Fair PCA" rows: Kleindessner et al.'s experiments fitted the
#: uncentred XᵀX of the train-standardised data (``FairPCA(k, center=False)``).  On Lee et
#: al.'s splits, standardised with the training mean, centring subtracts zero up to rounding,
#: so plain :class:`~fairlab.FairPCA` gives the same stored values.
KLEINDESSNER_FAIR_PCA = functools.partial(FairPCA, center=False)

_EXPERIMENT = {KLEINDESSNER: "kleindessner"}  # the committed ledger of each protocol
_KS = {KLEINDESSNER: (2, 10)}
_SPLITS = {KLEINDESSNER: tuple(range(10))}
_UNIT_KEYS = ("method", "protocol", "dataset", "k", "split")


def describe_factory(factory):
    """A stable text naming ``factory``: ``module:qualname``, a partial with its arguments.

    It is part of a unit's parameters in the ledger, so a changed factory is computed anew
    while the same one is never computed twice.
    """
    if isinstance(factory, functools.partial):
        arguments = [repr(a) for a in factory.args]
        arguments += [f"{name}={value!r}" for name, value in sorted(factory.keywords.items())]
        return f"{describe_factory(factory.func)}({', '.join(arguments)})"
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", None)
    if module and qualname:
        return f"{module}:{qualname}"
    return repr(factory)


def _default_name(factory):
    while isinstance(factory, functools.partial):
        factory = factory.func
    return getattr(factory, "__name__", None) or type(factory).__name__


class _Units:
    """The scorecard's units of one method, as the ledger's runner takes them (``PAPER`` and
    ``run_unit``); picklable, so that the units run on a Dask cluster."""

    PAPER = PAPER

    def __init__(self, factory):
        self.factory = factory

    def run_unit(self, key, parameters):
        return _kleindessner_unit(self.factory, key, parameters)


def _kleindessner_unit(factory, key, parameters):
    """One split of Tables 1–3 for the method: the experiment's ``score_splits`` with the method
    where the experiment passes a published one."""
    split = load_lee2022_split(key["dataset"], key["split"])
    split.dataset = key["dataset"]
    scores = score_splits({key["method"]: factory(key["k"])}, [split],
                          protocols=(parameters["protocol"],))
    scores = scores[~scores["metric"].isin(TIMINGS)]
    return pd.DataFrame({
        "paper": PAPER, "table": TABLES[key["dataset"]], "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan,
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy()})


def _units(name, protocol, quick):
    ks = _KS[protocol][:1] if quick else _KS[protocol]
    splits = _SPLITS[protocol][:1] if quick else _SPLITS[protocol]
    return [{"method": name, "protocol": protocol, "dataset": dataset, "k": k, "split": split}
            for dataset in DATASETS for k in ks for split in splits]


def _unit_id(key):
    return "/".join([LEDGER, *(f"{field}={key[field]}" for field in _UNIT_KEYS)])


def _check_factory(method):
    if not callable(method):
        raise TypeError(f"method must be a factory factory(n_components) -> transformer, such "
                        f"as fairlab.FairPCA; got {method!r}.")
    try:
        estimator = method(2)
    except Exception as err:
        raise TypeError(f"method(2) raised {type(err).__name__}: {err}; a method is a factory "
                        f"factory(n_components) -> transformer.") from err
    missing = [a for a in ("fit", "transform") if not callable(getattr(estimator, a, None))]
    if missing:
        raise TypeError(f"method(2) returned {estimator!r}, which has no {' or '.join(missing)}"
                        f"; a method is a factory of scikit-learn transformers.")
    try:
        takes = "sensitive_features" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        takes = False
    if not takes:
        raise TypeError(f"{type(estimator).__name__}.fit takes no sensitive_features: the "
                        f"protocols fit a method with the sensitive attribute.")


def _results_folder(results):
    folder = Path(DEFAULT_RESULTS if results is None else results)
    try:
        committed = results_dir()
    except LedgerError:
        committed = None
    if committed is not None and folder.resolve() == committed.resolve():
        raise ValueError(f"results={str(folder)!r} is the folder of the committed ledgers; "
                         f"name a folder of your own for the scorecard's ledger.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"the results folder {str(folder)!r} cannot be created: {err}") from err
    return folder


def rank_methods(card):
    """``card`` with each method's ``rank`` in its cell, the number ``ranked`` and the ``better``
    direction.

    A cell is a protocol, data set, k, model and metric; rank 1 is the best mean by
    :data:`RANK_DIRECTION` (higher %Var and accuracy, lower MMD² and ΔDP), ties share the best
    rank (1, 1, 3), and a method without a value in a cell has none (NaN), nor counts among the
    ``ranked``.
    """
    card = card.copy()
    cell = ["protocol", "dataset", "k", "model", "metric"]
    higher = card["metric"].map(RANK_DIRECTION) == "higher"
    signed = card["mean"].where(higher, -card["mean"])
    card["rank"] = signed.groupby([card[c] for c in cell], dropna=False).rank(
        method="min", ascending=False)
    card["ranked"] = card["mean"].notna().groupby([card[c] for c in cell],
                                                 dropna=False).transform("sum")
    card["better"] = card["metric"].map(RANK_DIRECTION)
    return card


def _card(rows, protocol, splits, ks):
    """The card of one protocol: the method's summary beside the published methods' on the same
    splits, ranked."""
    ledger = read_ledger(_EXPERIMENT[protocol])
    printed = [DATASETS[d] for d in DATASETS]
    theirs = ledger[ledger["method"].isin(METHODS) & ledger["dataset"].isin(printed)
                    & ledger["k"].isin(ks) & ledger["split"].isin(splits)
                    & ledger["table"].isin(TABLES.values())]
    parts = [summarize_ledger(rows).assign(yours=True),
             summarize_ledger(theirs).assign(yours=False)]
    card = pd.concat(parts, ignore_index=True).assign(protocol=protocol)
    card["k"] = card["k"].astype(int)
    return rank_methods(card[card["metric"].isin(RANK_DIRECTION)])


def scorecard(method, *, name=None, protocols=None, quick=False, results=None, scheduler=None):
    """Put a representation method through the papers' protocols and rank it among theirs.

    Each protocol is a grid of work units (data set × k × split) that runs the method where the
    experiment runs a published one — with that experiment's own functions, so the splits,
    classifiers and scores are the same — kept as rows of a ledger in ``results``
    (``scorecard.csv.gz``: :data:`~fairlab.experiments.LEDGER_COLUMNS`, with the commit, date,
    machine, parameters and seconds of each unit, written under the ledger's lock).  A unit that
    the ledger holds with the same parameters (the protocol's and :func:`describe_factory` of
    the method) is not computed again: a second call computes nothing, and an interrupted one
    resumes.  A unit that raised is recorded with its error (``metric`` ``"missing"``), left
    out of the card with a warning, and run again by the next call.  The published methods'
    rows are read from the committed ledgers (:func:`~fairlab.experiments.results_dir` without a
    path) on the same splits.

    Protocols (:data:`PROTOCOLS`):

    * :data:`KLEINDESSNER` — Kleindessner et al. (2023) §5.1, Tables 1–3 on Lee et al.'s ten
      splits at k = 2 and 10, against the eleven methods of the tables.

    Each cell (protocol, data set, k, model, metric) ranks every method by its mean over the
    splits, rank 1 the best: higher %Var and accuracy are better, lower MMD² and ΔDP are
    better (:data:`RANK_DIRECTION`); ties share the best rank, and a method without a value
    (%Var and MMD² of a method without orthonormal ``components_``) is not ranked.

    Parameters
    ----------
    method : callable
        ``method(n_components)`` returns an unfitted transformer whose ``fit(X, y,
        sensitive_features=s)`` learns the representation (a class such as
        :class:`fairlab.FairPCA`, a :func:`functools.partial` of one, a function).  It must be
        importable by name to run on a Dask cluster.
    name : str, optional
        The method's name in the ledger and on the card; default the factory's ``__name__``.
        A unit is one name's: two methods need two names.
    protocols : sequence of str, optional
        Of :data:`PROTOCOLS`; default all.
    quick : bool, default=False
        One split (the first) per data set at the smallest k; the published methods are
        compared on that split too.  A few seconds of computation for a linear method.
    results : path, optional
        The folder of the scorecard's ledger (created if absent); default
        :data:`DEFAULT_RESULTS` in the working directory.  Never the committed ledgers' folder.
    scheduler : {None, "serial"} or str or distributed.Client, default=None
        Where units run, as for :func:`~fairlab.experiments.run`.

    Returns
    -------
    DataFrame
        :data:`CARD_COLUMNS`: one row per protocol, data set, k, model, metric and method (the
        method's own rows have ``yours`` True), with the ``mean``, ``std`` (``np.std``, as the
        papers) and ``n_splits`` over the splits, the ``rank`` among the ``ranked`` methods that
        have a value and the ``better`` direction.  :func:`render` prints it.

    Raises
    ------
    ValueError
        An unknown protocol, a name with ``/``, or ``results`` that cannot be a folder or that is
        the committed ledgers' folder.
    TypeError
        ``method`` is not a factory of transformers whose ``fit`` takes ``sensitive_features``.
    """
    chosen = list(PROTOCOLS) if protocols is None else (
        [protocols] if isinstance(protocols, str) else list(protocols))
    unknown = [p for p in chosen if p not in PROTOCOLS]
    if unknown or not chosen:
        raise ValueError(f"protocols must be among {list(PROTOCOLS)}; got {protocols!r}.")
    _check_factory(method)
    name = _default_name(method) if name is None else name
    if not isinstance(name, str) or not name.strip() or "/" in name:
        raise ValueError(f"name must be a non-empty text without '/'; got {name!r}.")
    folder = _results_folder(results)
    cards = []
    for protocol in chosen:
        keys = _units(name, protocol, quick)
        params = {"protocol": PARAMETERS["protocol"], "method": describe_factory(method)}
        ids = [_unit_id(key) for key in keys]
        ledger = _merge(LEDGER, folder)  # an interrupted call left its units in the cache
        held = ledger[(ledger["parameters"] == parameters_json(params))
                      & ~ledger["unit"].isin(ledger.loc[ledger["metric"] == MISSING, "unit"])]
        done = set(held["unit"])
        todo = [(uid, key) for uid, key in zip(ids, keys, strict=True) if uid not in done]
        if todo:
            _compute(LEDGER, todo, params, scheduler, folder, os.isatty(2), module=_Units(method))
            ledger = _merge(LEDGER, folder)
        rows = ledger[ledger["unit"].isin(set(ids))]
        failed = rows[rows["metric"] == MISSING]
        if len(failed):
            warnings.warn(f"{len(failed)} unit(s) of {name!r} raised and are left out of the "
                          f"card (the next call runs them again): "
                          + "; ".join(f"{u}: {n}" for u, n in zip(failed["unit"], failed["note"])),
                          UserWarning, stacklevel=2)
        cards.append(_card(rows, protocol, sorted({k["split"] for k in keys}),
                           sorted({k["k"] for k in keys})))
    return pd.concat(cards, ignore_index=True)[CARD_COLUMNS]


def _label(metric, model):
    label = METRIC_LABELS[metric]
    return f"{model} {label}" if model else label


def render(card):
    """A scorecard (:func:`scorecard`) for a reader: one table per protocol.

    Rows: per data set and k, the method (marked "yours") and then the published methods, each
    cell the mean ± std over the splits at the paper's decimals; under them the method's rank
    in each column ("2 of 12": second best of the twelve methods with a value).

    Returns
    -------
    list of fairlab.published.ReaderTable
    """
    tables = []
    columns = [_label(m, "") for m in ("var_pct", "mmd2")] + [
        _label(m, model) for model in MODELS.values() for m in ("accuracy_pct", "delta_dp")]
    for protocol, part in card.groupby("protocol", sort=False):
        part = part.assign(column=[_label(m, model) for m, model
                                   in zip(part["metric"], part["model"])])
        lines = {}
        for row in part.itertuples():
            places = DECIMALS[row.metric]
            method = f"{row.method} (yours)" if row.yours else row.method
            text = (None if pd.isna(row.mean) else
                    f"{row.mean:.{places}f} ± {row.std:.{places}f}")
            lines.setdefault((row.dataset, row.k, not row.yours, method), {})[row.column] = text
            if row.yours:
                rank = None if pd.isna(row.rank) else f"{int(row.rank)} of {int(row.ranked)}"
                lines.setdefault((row.dataset, row.k, True, "rank of yours"), {})[
                    row.column] = rank
        order = sorted(lines, key=lambda key: (
            _DATASET_ORDER.get(key[0], len(_DATASET_ORDER)), key[1], key[2],
            key[3] != "rank of yours", _METHOD_ORDER.get(key[3], -1)))
        frame = pd.DataFrame([lines[key] for key in order],
                             index=pd.MultiIndex.from_tuples(
                                 [(d, f"k = {k}", m) for d, k, _, m in order],
                                 names=["dataset", "k", "method"]))
        frame = frame[[c for c in columns if c in frame.columns]]
        reason = ("no value: %Var and MMD² need orthonormal components, which a kernel "
                  "method's embedding does not have (a method without a value is not ranked)")
        n_splits = sorted(set(part["n_splits"]))
        splits = " or ".join(map(str, n_splits))
        tables.append(published.reader_table(
            frame, title=f"Scorecard: {_PROTOCOL_TITLES[protocol]}", missing=reason,
            note=f"mean ± std over {splits} split(s), the same for every method; rank 1 is the "
                 f"best: higher %Var and %Acc, lower MMD² and ΔDP; ties share the best rank."))
    return tables


_PROTOCOL_TITLES = {KLEINDESSNER: "Kleindessner et al. (2023), Tables 1–3"}
_DATASET_ORDER = {printed: i for i, printed in enumerate(DATASETS.values())}
_METHOD_ORDER = {method: i for i, method in enumerate(METHODS)}

