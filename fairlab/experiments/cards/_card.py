"""The scorecard's machinery: the factory checked, the units of a method, their run into the
scorecard's own ledger, the ranking among the published methods, and the card."""

import functools
import inspect
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._ledger import (
    MISSING,
    LedgerError,
    parameters_json,
    read_ledger,
    results_dir,
    summarize_ledger,
)
from .._ledger._running import _compute, _merge
from ..kleindessner import PAPER
from ._audit import AUDIT, AUDIT_QUICK, LEAKAGE, _audit_card, _audit_rows
from ._registry import _REGISTRY, PROTOCOLS

#: The name of the scorecard's ledger: ``scorecard.csv.gz`` in its results folder.
LEDGER = "scorecard"
#: Where the scorecard's ledger goes when no results folder is named (in the working directory).
DEFAULT_RESULTS = "scorecard-results"
#: The metrics ranked by their distance to a target value, rank 1 the closest: the disparate
#: impact, a ratio of the groups' positive rates, is at parity at 1 and worse below as above.
RANK_TARGET = {"disparate_impact": 1.0}
#: The better direction of each metric, by which methods are ranked (rank 1 is the best): more
#: variance kept and higher accuracy are better; a smaller MMD² between the groups' embeddings
#: and a smaller gap in positive rates (ΔDP) are better; a metric of :data:`RANK_TARGET` is
#: better the closer to its target.
RANK_DIRECTION = {"var_pct": "higher", "accuracy_pct": "higher", "mmd2": "lower",
                  "delta_dp": "lower", "cov2_y": "higher", "cov2_s": "lower",
                  "reconstruction_error": "lower", "error": "lower", "hsic": "lower",
                  "curve_gap": "lower", "accuracy": "higher", "cov2_yhat": "higher",
                  "ks": "lower", "mse": "lower",
                  **{m: f"closest to {t:g}" for m, t in RANK_TARGET.items()}}
#: The columns of a scorecard.  The leakage audit's rows (``metric`` :data:`LEAKAGE`) fill the
#: last four; the others leave them empty.  ``eta`` is a row's trade-off parameter (Fair PLS's
#: η; a curve point's λ, or the ε of the reductions), empty elsewhere.
CARD_COLUMNS = ["protocol", "dataset", "k", "eta", "model", "metric", "method", "yours", "mean",
                "std", "n_splits", "rank", "ranked", "better", "ci_low", "ci_high", "chance",
                "detected"]

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
        rows, Z_test, s_test = _REGISTRY[key["protocol"]].run(self.factory, key, parameters)
        audit = _audit_rows(Z_test, s_test, parameters["audit"])
        return pd.concat([rows, audit.assign(**{c: rows[c].iloc[0] for c in
                                                ("paper", "table", "dataset", "method", "k",
                                                 "eta", "split")})],
                         ignore_index=True)[list(rows.columns)]


def _parameters(protocol, method, quick):
    return {**_REGISTRY[protocol].parameters, "method": describe_factory(method),
            "audit": AUDIT_QUICK if quick else AUDIT}


def _units(name, protocol, quick):
    spec = _REGISTRY[protocol]
    splits = spec.splits[:1] if quick else spec.splits
    datasets = spec.quick if quick and spec.quick else spec.datasets
    return [{"method": name, "protocol": protocol, "dataset": dataset, "k": k, "split": split}
            for dataset in datasets
            for k in (spec.ks(dataset)[:1] if quick else spec.ks(dataset))
            for split in splits]


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
    :data:`RANK_DIRECTION` (higher %Var, accuracy and Cov²(r(X), Y), lower MMD², ΔDP,
    Cov²(r(X), S) and reconstruction error) or, for a metric of :data:`RANK_TARGET`, the
    smallest distance |mean − target| (the disparate impact closest to 1, from either side);
    ties share the best rank (1, 1, 3), and a method without a value in a cell has none
    (NaN), nor counts among the ``ranked``.  A metric outside
    :data:`RANK_DIRECTION` (the leakage audit's) is not ranked: its ``rank``, ``ranked`` and
    ``better`` are empty.
    """
    card = card.copy()
    cell = ["protocol", "dataset", "k", "model", "metric"]
    higher = card["metric"].map(RANK_DIRECTION) == "higher"
    target = card["metric"].map(RANK_TARGET)
    signed = card["mean"].where(higher, -card["mean"])
    signed = signed.where(target.isna(), -(card["mean"] - target).abs())
    card["rank"] = signed.groupby([card[c] for c in cell], dropna=False).rank(
        method="min", ascending=False)
    card["ranked"] = card["mean"].notna().groupby([card[c] for c in cell],
                                                 dropna=False).transform("sum")
    card["better"] = card["metric"].map(RANK_DIRECTION)
    unranked = ~card["metric"].isin(RANK_DIRECTION)
    card.loc[unranked, "rank"] = np.nan
    card.loc[unranked, "ranked"] = np.nan
    return card


def _card(rows, protocol, pairs, splits):
    """The card of one protocol: the method's summary beside the published methods' on the same
    data sets, k and splits, ranked; then its leakage audit."""
    spec = _REGISTRY[protocol]
    theirs = spec.published(read_ledger(spec.experiment))
    chosen = pd.Series(list(zip(theirs["dataset"], theirs["k"].astype(int))),
                       index=theirs.index).isin(pairs) & theirs["split"].isin(splits)
    scored = rows[~rows["metric"].str.startswith(LEAKAGE)]
    if spec.summarize is None:
        parts = [summarize_ledger(scored).assign(yours=True),
                 summarize_ledger(theirs[chosen]).assign(yours=False)]
        card = pd.concat(parts, ignore_index=True)
        card = card[card["metric"].isin(RANK_DIRECTION)]
    else:
        card = spec.summarize(scored, theirs[chosen])
    card = card.assign(protocol=protocol)
    card["k"] = card["k"].astype(int)
    card = rank_methods(card)
    audit = _audit_card(rows, protocol)
    return pd.concat([card, audit], ignore_index=True) if len(audit) else card


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

    Protocols (:data:`PROTOCOLS`; these constants are importable from
    :mod:`fairlab.experiments.cards`):

    * :data:`KLEINDESSNER` — Kleindessner et al. (2023) §5.1, Tables 1–3 on Lee et al.'s ten
      splits at k = 2 and 10, against the eleven methods of the tables.
    * :data:`DE_DIEGO_A` — De-Diego et al. (2025) §4, Experiment A (Table 1) on the six data
      sets' three splits, at each k of Table 3 that the committed ledger holds for the data
      set, against Fair PLS at every η of that k (``"Fair PLS (η = 1)"``).  The method
      receives X standardised with the training rows' statistics (Fair PLS standardises
      itself); Cov² reads its raw test representation, and the reconstruction error the span
      of its ``components_`` (none without them).  Law School is read from
      ``$FAIRLAB_DATA``: without it, its units are recorded as failed, with a warning.
    * :data:`DE_DIEGO_B` — De-Diego et al. (2025) §4, Experiment B (Tables 4–5) on the six
      data sets' seven folds (a unit is one fold of the ledger's seeded 7-fold
      cross-validation), at each k of Table 3 that the committed ledger holds for the η that
      Tables 4–5 print (0, 1, 2), against Fair PLS at those η of the same k.  The method is
      fitted on the other folds (X standardised with their statistics, as for Experiment A);
      the logistic (linear) regression, decision tree and XGBoost are trained on its training
      representation (:func:`~fairlab.experiments.de_diego.fold_scores`) and scored on the
      fold: DI, accuracy, Cov²(r(X), Ŷ) and Cov²(r(X), S), KS and MSE for the regression data
      set (Communities and Crimes); DI ranks closest to 1 (:data:`RANK_TARGET`).  A quick card
      takes German Credit only (its first fold, at k = 1).  Law School as for Experiment A.
    * :data:`PEREZ_SUAY_DR` — Pérez-Suay et al. (2017) §4.4, Fig. 6 on a9a's 25 repetitions,
      one panel per sensitive choice (sex; race and sex), at each number of components of the
      committed ledger, q (the columns of S) first, against PCA, KPCA, FDR and KFDR with and
      without S (``"FDR\\S"``).  The method is fitted on the training rows with S in X and
      ``sensitive_features`` the paper's matrix S (the one-hot columns: 2 for sex, 7 for race
      and sex), so a method that takes group labels only fails here; its test representation
      gives the 1-NN test error and the linear HSIC with S.  The audit's groups are the
      distinct rows of S, those under 1% of the test rows merged into one.
    * :data:`KLEINDESSNER_TRADEOFFS` — Kleindessner et al. (2023) §5.2, Figs. 4 and 8 on the
      ten draws of Adult and Bank, one panel per fairness notion (DP, EO), at d − 1
      components (Fair PCA's); the method takes Fair PCA's place in the knob with standard
      PCA (:func:`~fairlab.experiments.kleindessner_tradeoffs.curve_scores`), a curve per
      classifier (logistic regression, kernel SVM) over the λ grid, beside the curves of Fair
      PCA, Fair PCA-S, fair kernel PCA and the reductions (their ε grid).  The card ranks
      the mean curves by their gap to the reductions' (``curve_gap``, the experiment's
      :func:`~fairlab.experiments.kleindessner_tradeoffs.gaps`: the error above theirs at
      matched violation, averaged over the violation range) and lists every mean point
      (``curve_violation``, ``curve_error``, ``eta`` the λ or ε; not ranked).  A quick card
      takes Adult's panels only.  The audit reads the knob's fair block (the method's own
      test representation).

    Each cell (protocol, data set, k, model, metric) ranks every method by its mean over the
    splits, rank 1 the best: higher %Var, accuracy, Cov²(r(X), Y) and Cov²(r(X), Ŷ) are
    better, lower MMD², ΔDP, Cov²(r(X), S), reconstruction error, 1-NN error, HSIC, KS, MSE and
    gap to the reductions are better (:data:`RANK_DIRECTION`), and the disparate impact closer
    to 1 (:data:`RANK_TARGET`); ties share the best rank, and a method without a value
    (%Var and MMD² of a method without orthonormal ``components_``) is not ranked.

    Every unit also audits the method's test representation with
    :func:`fairlab.metrics.leakage` (:data:`AUDIT`; :data:`AUDIT_QUICK` for a quick card): its
    nonlinear adversaries try to recover the sensitive attribute, and the card's rows of
    ``metric`` :data:`LEAKAGE` (``model`` the adversary, ``yours`` only: the committed ledgers
    hold no audit, so they are not ranked) give the balanced accuracy's mean and std over the
    splits, the lowest ``ci_low`` and highest ``ci_high`` of the splits' intervals, the
    ``chance`` level and the number of splits whose interval lies above it (``detected``).
    The audit's settings are part of a unit's parameters, so a full card computes the quick
    card's units again.

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
        One split (the first; Experiment B: the first fold) per data set at the smallest k,
        and the audit's cheaper settings (the trade-off curves: Adult's panels only;
        Experiment B: German Credit only); the published methods are
        compared on that split too.  About a minute for a linear method, every protocol
        together, most of it the trade-off curves' kernel SVMs.
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
        have a value and the ``better`` direction; the audit's rows fill ``ci_low``,
        ``ci_high``, ``chance`` and ``detected`` (empty elsewhere).  :func:`render` prints it.

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
        params = _parameters(protocol, method, quick)
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
        printed = _REGISTRY[protocol].datasets
        pairs = {(printed[k["dataset"]], k["k"]) for k in keys}
        cards.append(_card(rows, protocol, pairs, sorted({k["split"] for k in keys})))
    card = pd.concat(cards, ignore_index=True).reindex(columns=CARD_COLUMNS)
    card["detected"] = card["detected"].astype("Int64")
    return card

