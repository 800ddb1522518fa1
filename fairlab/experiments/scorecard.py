"""A researcher's own representation method through the papers' protocols: its scorecard.

:func:`scorecard` fits a method of one's own exactly where the ledger's experiments fit the
published ones — the same splits, the same downstream classifiers, the same scoring — as work
units of a ledger of its own (``scorecard.csv.gz`` in a results folder of the caller's, never the
committed ledgers), and ranks it among the published methods, read from the committed ledgers;
every unit also audits the method's test representation (:func:`fairlab.metrics.leakage`).
The protocols (:data:`PROTOCOLS`): Kleindessner et al.'s Tables 1–3, De-Diego et al.'s
Experiment A and Pérez-Suay et al.'s dimensionality reductions (Fig. 6).  From the shell::

    python -m fairlab.experiments scorecard MODULE:FACTORY [--name NAME] [--protocol P ...]
        [--quick] [--results DIR] [--scheduler ADDRESS]

A method is a **factory** ``factory(n_components)`` that returns an unfitted scikit-learn
transformer whose ``fit`` takes ``sensitive_features`` (a class such as :class:`fairlab.FairPCA`
is one; :data:`KLEINDESSNER_FAIR_PCA` is the setting of the ledger's "Fair PCA" rows).
"""

import functools
import inspect
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import metrics, published
from ..datasets import load_lee2022_split
from ..evaluation.scorecards import _fit_with_sensitive
from ..pca import FairPCA
from . import de_diego, perez_suay
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
#: De-Diego et al. (2025) §4, Experiment A (Table 1): the six data sets, each on the ledger's
#: three seeded 70/30 splits, the representation fitted on the training rows (S not in X;
#: X standardised with the training rows' mean and standard deviation, as Fair PLS does),
#: scored on the test rows by Cov²(r(X), Y), Cov²(r(X), S) (raw scores and targets, summed over
#: the components) and the projection's reconstruction error, at every k of Table 3 (the
#: ledger's k of some η), against Fair PLS at each η of the same k.
DE_DIEGO_A = "de_diego_a"
#: Pérez-Suay et al. (2017) §4.4, Fig. 6: the ledger's 25 repetitions of a9a (5,000 training
#: rows, the 16,281 test rows), the representation fitted on the training rows with S (the
#: "with S" variant: the sensitive columns stay in X) for each panel (S the sex columns, or
#: the race and sex columns), scored on the test rows by a 1-NN classifier's error and the
#: linear HSIC of the test representation with S, at each number of components of the ledger,
#: the fair methods' q (the columns of S) first, against PCA, KPCA, FDR and KFDR with and
#: without S.
PEREZ_SUAY_DR = "perez_suay_dr"
#: The protocols a method can be put through, by name.
PROTOCOLS = (KLEINDESSNER, DE_DIEGO_A, PEREZ_SUAY_DR)
#: The name of the scorecard's ledger: ``scorecard.csv.gz`` in its results folder.
LEDGER = "scorecard"
#: Where the scorecard's ledger goes when no results folder is named (in the working directory).
DEFAULT_RESULTS = "scorecard-results"
#: The better direction of each metric, by which methods are ranked (rank 1 is the best): more
#: variance kept and higher accuracy are better; a smaller MMD² between the groups' embeddings
#: and a smaller gap in positive rates (ΔDP) are better.
RANK_DIRECTION = {"var_pct": "higher", "accuracy_pct": "higher", "mmd2": "lower",
                  "delta_dp": "lower", "cov2_y": "higher", "cov2_s": "lower",
                  "reconstruction_error": "lower", "error": "lower", "hsic": "lower"}
#: The columns of a scorecard.  The leakage audit's rows (``metric`` :data:`LEAKAGE`) fill the
#: last four; the others leave them empty.
CARD_COLUMNS = ["protocol", "dataset", "k", "model", "metric", "method", "yours", "mean", "std",
                "n_splits", "rank", "ranked", "better", "ci_low", "ci_high", "chance", "detected"]
#: The metric of the leakage audit's rows: an adversary's balanced accuracy in recovering the
#: sensitive attribute from the method's test representation (:func:`fairlab.metrics.leakage`).
LEAKAGE = "leakage"
#: The leakage audit of every unit (:func:`fairlab.metrics.leakage`, balanced accuracy): its
#: three nonlinear adversaries, 5 folds, 500 bootstrap resamples, on at most 5,000 test rows (a
#: seeded subsample), no permutation tests.
AUDIT = {"adversaries": ["rbf_svm", "mlp", "gradient_boosting"], "cv": 5, "n_bootstrap": 500,
         "max_rows": 5000, "random_state": 0}
#: The audit of a quick card: the cheaper settings of :func:`fairlab.metrics.leakage`'s notes —
#: two adversaries (the SVM and the gradient boosting), 3 folds, 200 resamples ("a rough
#: interval") — on at most 1,000 test rows.
AUDIT_QUICK = {"adversaries": ["rbf_svm", "gradient_boosting"], "cv": 3, "n_bootstrap": 200,
               "max_rows": 1000, "random_state": 0}
#: The factory of the ledger's "Fair PCA" rows: Kleindessner et al.'s experiments fitted the
#: uncentred XᵀX of the train-standardised data (``FairPCA(k, center=False)``).  On Lee et
#: al.'s splits, standardised with the training mean, centring subtracts zero up to rounding,
#: so plain :class:`~fairlab.FairPCA` gives the same stored values.
KLEINDESSNER_FAIR_PCA = functools.partial(FairPCA, center=False)

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


def _kleindessner_unit(factory, key, parameters):
    """One split of Tables 1–3 for the method: the experiment's ``score_splits`` with the method
    where the experiment passes a published one; and the test representation, for the audit
    (of the method fitted again on the training rows, as ``score_splits`` fits it)."""
    split = load_lee2022_split(key["dataset"], key["split"])
    split.dataset = key["dataset"]
    scores = score_splits({key["method"]: factory(key["k"])}, [split],
                          protocols=(parameters["protocol"],))
    scores = scores[~scores["metric"].isin(TIMINGS)]
    fitted = _fit_with_sensitive(factory(key["k"]), split.X_train, split.y_train, split.s_train)
    rows = pd.DataFrame({
        "paper": PAPER, "table": TABLES[key["dataset"]], "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan,
        "model": scores["model"].to_numpy(), "metric": scores["metric"].to_numpy(),
        "split": key["split"], "value": scores["value"].to_numpy()})
    return rows, fitted.transform(split.X_test), split.s_test


def _de_diego_a_unit(factory, key, parameters):
    """One split of Experiment A for the method: the experiment's ``split_scores`` with the
    method where the experiment passes Fair PLS, the rows Table 1 reads (``table1_rows``)."""
    d = de_diego.load_data(key["dataset"])
    with de_diego.counting_early_stops():  # Fair PLS near k = d, as in the experiment
        scores, split, fitted = de_diego.split_scores(
            d, factory(key["k"]), features=de_diego.DEFAULT_NORMALISATION["features"],
            split=key["split"], test_size=parameters["test_size"],
            random_state=parameters["random_state"], standardize=True)
    scores = de_diego.table1_rows(pd.DataFrame(scores))
    rows = pd.DataFrame({
        "paper": de_diego.PAPER, "table": "table1", "dataset": scores["dataset"].to_numpy(),
        "method": key["method"], "k": key["k"], "eta": np.nan, "model": "",
        "metric": scores["metric"].to_numpy(), "split": key["split"],
        "value": scores["value"].to_numpy(float)})
    return rows, fitted.transform(split.X_test), split.s_test


def _perez_suay_dr_unit(factory, key, parameters):
    """One repetition of one Fig. 6 panel for the method: the experiment's
    ``reduction_scores`` with the method where the experiment fits a published reduction."""
    split = perez_suay.load_splits(
        "adult", n_repetitions=key["split"] + 1,
        random_state=parameters["random_state"])[key["split"]]
    found, fitted, X_test, S_test = perez_suay.reduction_scores(
        split, key["dataset"], factory(key["k"]), method=key["method"],
        variant=parameters["variant"], sensitive_encoding=parameters["sensitive_encoding"])
    scores = pd.DataFrame(found).melt(value_vars=list(_PEREZ_SUAY_METRICS), var_name="metric")
    rows = pd.DataFrame({
        "paper": perez_suay.PAPER, "table": "fig6", "dataset": _PANELS[key["dataset"]],
        "method": key["method"], "k": key["k"], "eta": np.nan, "model": "",
        "metric": scores["metric"].to_numpy(), "split": key["split"],
        "value": scores["value"].to_numpy(float)})
    return rows, fitted.transform(X_test), _sensitive_groups(S_test)


def _sensitive_groups(S):
    """The audit's categorical sensitive attribute: one group per distinct row of S (sex; or
    race and sex), the groups under :data:`_RARE_GROUP` of the rows merged into one, so that
    every fold of the audit's subsample holds a row of every group."""
    _, groups, counts = np.unique(np.asarray(S), axis=0, return_inverse=True,
                                  return_counts=True)
    groups = groups.ravel()
    rare = counts < _RARE_GROUP * len(groups)
    return np.where(rare[groups], len(counts), groups)


def _audit_rows(Z, s, settings):
    """The leakage audit of one test representation as rows: per adversary (``model``), its
    balanced accuracy (:data:`LEAKAGE`), its interval and its chance level."""
    Z, s = np.asarray(Z, dtype=float), np.asarray(s).ravel()
    if len(s) > settings["max_rows"]:  # the SVM's fits grow like n²
        rng = np.random.default_rng(settings["random_state"])
        rows = np.sort(rng.choice(len(s), settings["max_rows"], replace=False))
        Z, s = Z[rows], s[rows]
    table = metrics.leakage(Z, s.astype(np.int64), adversaries=tuple(settings["adversaries"]),
                            tests=(), sensitive_type="categorical", cv=settings["cv"],
                            n_bootstrap=settings["n_bootstrap"],
                            random_state=settings["random_state"])
    table = table[table["measure"] == "balanced_accuracy"]
    parts = [pd.DataFrame({"model": table["method"].to_numpy(), "metric": metric,
                           "value": table[column].to_numpy(float)})
             for metric, column in ((LEAKAGE, "score"), (f"{LEAKAGE}_ci_low", "ci_low"),
                                    (f"{LEAKAGE}_ci_high", "ci_high"),
                                    (f"{LEAKAGE}_chance", "chance"))]
    return pd.concat(parts, ignore_index=True)


def _kleindessner_published(ledger):
    return ledger[ledger["method"].isin(METHODS) & ledger["table"].isin(TABLES.values())]


def _de_diego_a_published(ledger):
    """Table 1's reading of the ledger's Experiment A rows, one method per η."""
    scores = de_diego.table1_rows(de_diego.scores_from_ledger(ledger, "table1"))
    return pd.DataFrame({
        "paper": de_diego.PAPER, "table": "table1", "dataset": scores["dataset"],
        "method": [_fair_pls(eta) for eta in scores["eta"]], "k": scores["k"],
        "eta": scores["eta"], "model": "", "metric": scores["metric"],
        "split": scores["split"], "value": scores["value"]})


def _perez_suay_dr_published(ledger):
    """Fig. 6's rows of the ledger in the scorecard's cells: the panel as the data set."""
    rows = ledger[(ledger["table"] == "fig6") & ledger["metric"].isin(_PEREZ_SUAY_METRICS)]
    return rows.assign(dataset=rows["model"].map(_PANELS), model="")


@functools.cache
def _perez_suay_dr_ks():
    """Panel -> the k of Fig. 6 in the committed ledger: q (the columns of S, FDR's and KFDR's
    k, where every published method has a value) first, then the others in order."""
    ledger = read_ledger("perez_suay")
    ledger = ledger[ledger["table"] == "fig6"]
    ks = {}
    for panel, part in ledger.groupby("model"):
        q = len(perez_suay.SENSITIVE["adult"][panel])
        ks[panel] = (q, *sorted({int(k) for k in part["k"]} - {q}))
    return ks


@functools.cache
def _de_diego_a_ks():
    """Data set -> the k of Experiment A's units in the committed ledger (Table 3's, clipped to
    the features of our encodings)."""
    ledger = read_ledger("de_diego")
    ledger = ledger[ledger["table"] == "table1"]
    printed = {name: key for key, name in de_diego.DATASETS.items()}
    return {printed[name]: tuple(sorted({int(k) for k in part["k"]}))
            for name, part in ledger.groupby("dataset")}


@dataclass(frozen=True)
class _Protocol:
    """A protocol of :func:`scorecard`: its units, how one runs, and its card's published rows.

    ``run(factory, key, parameters)`` computes one unit (``key``: method, protocol, data set,
    k, split) and returns its ledger rows (:data:`~fairlab.experiments.LEDGER_COLUMNS` up to
    ``value``) and the test representation and sensitive attribute that the audit reads;
    ``published(ledger)`` turns the committed ledger ``experiment`` into ledger rows of the
    published methods (the card keeps those of the units' data sets, k and splits);
    ``ks(dataset)`` gives the k of a data set (a quick card takes the first);
    ``parameters`` are the experiment's settings recorded with each unit.  The rest is how
    :func:`render` prints it: the ``title``, the ``columns`` as (metric, model) pairs, the
    reason a value can be ``missing``, which direction is ``better`` in words, and the
    published ``methods`` in their printed order.
    """

    name: str
    experiment: str
    datasets: dict
    splits: tuple
    ks: object
    parameters: dict
    run: object
    published: object
    title: str
    columns: tuple
    missing: str
    better: str
    methods: tuple


def _parameters(protocol, method, quick):
    return {**_REGISTRY[protocol].parameters, "method": describe_factory(method),
            "audit": AUDIT_QUICK if quick else AUDIT}


def _units(name, protocol, quick):
    spec = _REGISTRY[protocol]
    splits = spec.splits[:1] if quick else spec.splits
    return [{"method": name, "protocol": protocol, "dataset": dataset, "k": k, "split": split}
            for dataset in spec.datasets
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
    Cov²(r(X), S) and reconstruction error), ties share the best rank (1, 1, 3), and a method
    without a value in a cell has none (NaN), nor counts among the ``ranked``.  A metric outside
    :data:`RANK_DIRECTION` (the leakage audit's) is not ranked: its ``rank``, ``ranked`` and
    ``better`` are empty.
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
    unranked = ~card["metric"].isin(RANK_DIRECTION)
    card.loc[unranked, "rank"] = np.nan
    card.loc[unranked, "ranked"] = np.nan
    return card


def _fair_pls(eta):
    return f"Fair PLS (η = {eta:g})"


def _audit_card(rows, protocol):
    """The leakage audit's rows of the card: per data set, k and adversary (``model``), the
    balanced accuracy's mean and std over the splits, the lowest and highest end of the
    splits' intervals, the chance level and the number of splits whose interval lies above it
    (``detected``)."""
    audit = rows[rows["metric"].str.startswith(LEAKAGE)]
    if not len(audit):
        return pd.DataFrame(columns=CARD_COLUMNS)
    cell = ["dataset", "method", "k", "model"]
    wide = audit.pivot_table(index=[*cell, "split"], columns="metric", values="value",
                             aggfunc="first")
    by = wide.groupby(level=cell)
    detected = wide[f"{LEAKAGE}_ci_low"] > wide[f"{LEAKAGE}_chance"]
    out = pd.DataFrame({
        "mean": by[LEAKAGE].mean(), "std": by[LEAKAGE].agg(lambda v: float(np.std(v))),
        "n_splits": by[LEAKAGE].size(), "ci_low": by[f"{LEAKAGE}_ci_low"].min(),
        "ci_high": by[f"{LEAKAGE}_ci_high"].max(), "chance": by[f"{LEAKAGE}_chance"].first(),
        "detected": detected.groupby(level=cell).sum()}).reset_index()
    return out.assign(protocol=protocol, metric=LEAKAGE, yours=True, rank=np.nan,
                      ranked=np.nan, better=np.nan, k=out["k"].astype(int))


def _card(rows, protocol, pairs, splits):
    """The card of one protocol: the method's summary beside the published methods' on the same
    data sets, k and splits, ranked; then its leakage audit."""
    spec = _REGISTRY[protocol]
    theirs = spec.published(read_ledger(spec.experiment))
    chosen = pd.Series(list(zip(theirs["dataset"], theirs["k"].astype(int))),
                       index=theirs.index).isin(pairs) & theirs["split"].isin(splits)
    scored = rows[~rows["metric"].str.startswith(LEAKAGE)]
    parts = [summarize_ledger(scored).assign(yours=True),
             summarize_ledger(theirs[chosen]).assign(yours=False)]
    card = pd.concat(parts, ignore_index=True).assign(protocol=protocol)
    card["k"] = card["k"].astype(int)
    card = rank_methods(card[card["metric"].isin(RANK_DIRECTION)])
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

    Protocols (:data:`PROTOCOLS`):

    * :data:`KLEINDESSNER` — Kleindessner et al. (2023) §5.1, Tables 1–3 on Lee et al.'s ten
      splits at k = 2 and 10, against the eleven methods of the tables.
    * :data:`DE_DIEGO_A` — De-Diego et al. (2025) §4, Experiment A (Table 1) on the six data
      sets' three splits, at each k of Table 3 that the committed ledger holds for the data
      set, against Fair PLS at every η of that k (``"Fair PLS (η = 1)"``).  The method
      receives X standardised with the training rows' statistics (Fair PLS standardises
      itself); Cov² reads its raw test representation, and the reconstruction error the span
      of its ``components_`` (none without them).  Law School is read from
      ``$FAIRLAB_DATA``: without it, its units are recorded as failed, with a warning.
    * :data:`PEREZ_SUAY_DR` — Pérez-Suay et al. (2017) §4.4, Fig. 6 on a9a's 25 repetitions,
      one panel per sensitive choice (sex; race and sex), at each number of components of the
      committed ledger, q (the columns of S) first, against PCA, KPCA, FDR and KFDR with and
      without S (``"FDR\\S"``).  The method is fitted on the training rows with S in X and
      ``sensitive_features`` the paper's matrix S (the one-hot columns: 2 for sex, 7 for race
      and sex), so a method that takes group labels only fails here; its test representation
      gives the 1-NN test error and the linear HSIC with S.  The audit's groups are the
      distinct rows of S, those under 1% of the test rows merged into one.

    Each cell (protocol, data set, k, model, metric) ranks every method by its mean over the
    splits, rank 1 the best: higher %Var, accuracy and Cov²(r(X), Y) are better, lower MMD²,
    ΔDP, Cov²(r(X), S), reconstruction error, 1-NN error and HSIC are better
    (:data:`RANK_DIRECTION`); ties share the best rank, and a method without a value (%Var and
    MMD² of a method without orthonormal ``components_``) is not ranked.

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
        One split (the first) per data set at the smallest k, and the audit's cheaper
        settings; the published methods are compared on that split too.  About a minute for
        a linear method, every protocol together.
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


#: Fig. 6's panels (the sensitive choices of a9a) as the scorecard's data sets.
_PANELS = {p: f"a9a, S = {perez_suay.SENSITIVE_LABELS[p]}" for p in perez_suay.SENSITIVE["adult"]}
#: The share of the test rows under which a group of S joins the audit's merged group (a9a's
#: rarest races by sex hold 0.3–0.6% of the test rows, a few rows of the audit's subsample).
_RARE_GROUP = 0.01
#: The metrics of Fig. 6 in the scorecard, with their printed names.
_PEREZ_SUAY_METRICS = {"error": "1-NN error", "hsic": "HSIC"}
#: Their decimals: the error as a fraction, the HSIC's small values.
_PEREZ_SUAY_DECIMALS = {"error": 4, "hsic": 6}


def _label(metric, model):
    label = {**de_diego.METRIC_LABELS, **METRIC_LABELS, **_PEREZ_SUAY_METRICS}[metric]
    return f"{model} {label}" if model else label


def _decimals(metric):
    return {**DECIMALS, **_PEREZ_SUAY_DECIMALS}.get(metric, de_diego.DECIMALS)


def render(card):
    """A scorecard (:func:`scorecard`) for a reader: two tables per protocol.

    The first: per data set and k, the method (marked "yours") and then the published methods,
    each cell the mean ± std over the splits at the paper's decimals; under them the method's
    rank in each column ("2 of 12": second best of the twelve methods with a value).  The
    second: the leakage audit of the method's representation, per data set and k, each
    adversary's balanced accuracy (mean ± std over the splits), the lowest and highest end of
    the splits' intervals, and in how many splits the interval lies above chance.

    Returns
    -------
    list of fairlab.published.ReaderTable
    """
    tables = []
    for protocol, part in card.groupby("protocol", sort=False):
        audit = part[part["metric"] == LEAKAGE]
        tables.append(_scores_table(protocol, part[part["metric"] != LEAKAGE]))
        if len(audit):
            tables.append(_audit_table(protocol, audit))
    return tables


def _scores_table(protocol, part):
    spec = _REGISTRY[protocol]
    columns = [_label(m, model) for m, model in spec.columns]
    datasets = {printed: i for i, printed in enumerate(spec.datasets.values())}
    methods = {method: i for i, method in enumerate(spec.methods)}
    part = part.assign(column=[_label(m, model) for m, model
                               in zip(part["metric"], part["model"])])
    lines = {}
    for row in part.itertuples():
        places = _decimals(row.metric)
        method = f"{row.method} (yours)" if row.yours else row.method
        text = (None if pd.isna(row.mean) else
                f"{row.mean:.{places}f} ± {row.std:.{places}f}")
        lines.setdefault((row.dataset, row.k, not row.yours, method), {})[row.column] = text
        if row.yours:
            rank = None if pd.isna(row.rank) else f"{int(row.rank)} of {int(row.ranked)}"
            lines.setdefault((row.dataset, row.k, True, "rank of yours"), {})[row.column] = rank
    order = sorted(lines, key=lambda key: (
        datasets.get(key[0], len(datasets)), key[1], key[2],
        key[3] != "rank of yours", methods.get(key[3], -1)))
    frame = pd.DataFrame([lines[key] for key in order],
                         index=pd.MultiIndex.from_tuples(
                             [(d, f"k = {k}", m) for d, k, _, m in order],
                             names=["dataset", "k", "method"]))
    frame = frame[[c for c in columns if c in frame.columns]]
    splits = " or ".join(map(str, sorted(set(part["n_splits"]))))
    return published.reader_table(
        frame, title=f"Scorecard: {spec.title}", missing=spec.missing,
        note=f"mean ± std over {splits} split(s), the same for every method; rank 1 is the "
             f"best: {spec.better}; ties share the best rank.")


def _audit_table(protocol, audit):
    cells = {}
    for row in audit.itertuples():
        cells.setdefault((row.dataset, f"k = {row.k}"), {})[row.model] = (
            f"{row.mean:.3f} ± {row.std:.3f} [{row.ci_low:.3f}, {row.ci_high:.3f}], "
            f"{int(row.detected)} of {int(row.n_splits)}")
    spec = _REGISTRY[protocol]
    datasets = {printed: i for i, printed in enumerate(spec.datasets.values())}
    order = sorted(cells, key=lambda key: (datasets.get(key[0], len(datasets)),
                                           int(key[1].removeprefix("k = "))))
    frame = pd.DataFrame([cells[key] for key in order],
                         index=pd.MultiIndex.from_tuples(order, names=["dataset", "k"]))
    method = audit["method"].iloc[0]
    chance = " or ".join(f"{c:g}" for c in sorted(set(audit["chance"])))
    return published.reader_table(
        frame, title=f"Leakage audit of {method}: {spec.title}",
        missing="no value: the adversary did not run on this data set",
        note=f"each adversary's balanced accuracy in recovering the sensitive attribute from "
             f"the test representation (chance {chance}): mean ± std over the splits, "
             f"[lowest, highest] end of the splits' intervals, and in how many splits the "
             f"interval lies above chance (leakage detected).")


#: The protocols, by name: to add one, write its unit and its published rows and register it
#: here (and its name in :data:`PROTOCOLS`).
_REGISTRY = {p.name: p for p in (
    _Protocol(
        name=KLEINDESSNER, experiment="kleindessner", datasets=DATASETS,
        splits=tuple(range(10)), ks=lambda dataset: (2, 10),
        parameters={"protocol": PARAMETERS["protocol"]}, run=_kleindessner_unit,
        published=_kleindessner_published, title="Kleindessner et al. (2023), Tables 1–3",
        columns=(("var_pct", ""), ("mmd2", ""), *((m, model) for model in MODELS.values()
                                                   for m in ("accuracy_pct", "delta_dp"))),
        missing="no value: %Var and MMD² need orthonormal components, which a kernel method's "
                "embedding does not have (a method without a value is not ranked)",
        better="higher %Var and %Acc, lower MMD² and ΔDP", methods=METHODS),
    _Protocol(
        name=DE_DIEGO_A, experiment="de_diego", datasets=de_diego.DATASETS,
        splits=tuple(range(de_diego.PARAMETERS["n_splits"])), ks=lambda d: _de_diego_a_ks()[d],
        parameters={c: de_diego.PARAMETERS[c] for c in ("test_size", "random_state")},
        run=_de_diego_a_unit, published=_de_diego_a_published,
        title="De-Diego et al. (2025), Experiment A (Table 1)",
        columns=(("cov2_y", ""), ("cov2_s", ""), ("reconstruction_error", "")),
        missing="no value: the reconstruction error needs the components_ of a linear map, "
                "which the method does not have (a method without a value is not ranked)",
        better="higher Cov²(r(X), Y), lower Cov²(r(X), S) and Error",
        methods=tuple(_fair_pls(eta) for eta in de_diego.ETAS_A)),
    _Protocol(
        name=PEREZ_SUAY_DR, experiment="perez_suay",
        datasets=_PANELS,
        splits=tuple(range(perez_suay.N_REPETITIONS)), ks=lambda d: _perez_suay_dr_ks()[d],
        parameters={"random_state": perez_suay.PARAMETERS["random_state"],
                    "sensitive_encoding": perez_suay.PARAMETERS["sensitive_encoding"],
                    "variant": "with S"},
        run=_perez_suay_dr_unit, published=_perez_suay_dr_published,
        title="Pérez-Suay et al. (2017), dimensionality reduction (Fig. 6)",
        columns=(("error", ""), ("hsic", "")),
        missing="no value: FDR and KFDR have q components only (a method without a value is "
                "not ranked)",
        better="lower 1-NN error and lower HSIC",
        methods=tuple(f"{m}{s}" for m in perez_suay.DR_METHODS for s in ("", "\\S"))),
)}
