"""De-Diego et al. (2025) §4, the extended reading bound: how many printed cells any reading of
the paper, chosen once per experiment, can put within the printed std, data set by data set.
"""

import gzip
import io
import itertools

import pandas as pd

from ... import published
from .._ledger import read_ledger, results_dir
from ._checks import compare
from ._data import (
    DATASETS,
    counting_early_stops,
    cv_k,
    load_data,
    load_datasets,
    representation_scores,
    table1,
)
from ._downstream import downstream_summary
from ._encodings import ENCODINGS
from ._readings import normalisations
from ._units import ETAS_A, PAPER, PARAMETERS, scores_from_ledger

#: The file of :func:`write_reading_counts`, in the folder of the ledgers.
READING_COUNTS_FILE = "de_diego_reading_bound.csv.gz"

#: The choices of Experiment A (Table 1) that :func:`reading_cells` varies.
CHOICES_A = ("variant", "features", "rows", "scores", "targets", "reduce", "error", "ddof")
#: The three readings of Table 1's Error (:func:`representation_scores`), and its metric.
_ERRORS = ("projection", "loadings", "weights")
_ERROR = "reconstruction_error"
#: The Cov² metrics of Tables 4-5, and the η they print.
_COV2_B = ("cov2_yhat", "cov2_s")
_PRINTED_ETAS = (0.0, 1.0, 2.0)
#: The choices of Experiment B (Tables 4-5) that :func:`reading_cells` varies.
CHOICES_B = ("variant", "features", "scores", "targets", "reduce", "ddof")


def reading_counts(cells):
    """:func:`reading_cells` summed: per experiment, data set and reading, how many printed
    cells lie within the std (``within``), beside how many cells the experiment prints for the
    data set (``printed``, counted over every reading).

    This is all :func:`extended_bound` needs, and what :func:`write_reading_counts` stores.
    """
    required = {"experiment", "dataset", "cell", "within"}
    if not isinstance(cells, pd.DataFrame) or not required <= set(cells.columns):
        raise ValueError(f"cells must be a DataFrame with columns {sorted(required)}.")
    choices = [c for c in cells.columns if c not in required]
    frame = cells.assign(within=cells["within"].fillna(False).astype(bool),
                         **{c: cells[c].fillna("").astype(str) for c in choices})
    printed = frame.drop_duplicates(["experiment", "dataset", "cell"]).groupby(
        ["experiment", "dataset"], sort=False).size().rename("printed")
    counts = frame.groupby(["experiment", "dataset", *choices], sort=False)["within"].sum()
    counts = counts.astype(int).reset_index()
    return counts.merge(printed.reset_index(), on=["experiment", "dataset"], how="left")


def extended_bound(counts, *, target=0.6):
    """Per data set, the most printed cells one reading per experiment puts within the std.

    A *reading* is one value of every choice column of an experiment (the columns other than
    ``experiment, dataset, printed, within``; a column may be empty for an experiment that does
    not vary it).  It is chosen once per experiment, never per cell: for each data set and
    experiment the reading with the most cells within counts, and the data set's bound is the
    sum over its experiments,

    .. math::  B_d = \\sum_e \\max_r \\#\\{c \\in C_{d,e} : \\text{within}(c, r)\\}.

    Choosing the reading per data set can only help, so :math:`\\sum_d B_d` bounds the count of
    any reading that is the same for every data set (the ``"all: one reading per experiment"``
    row gives that count); where :math:`\\sum_d B_d` stays below ``target`` of the printed cells,
    no such reading reaches ``target``.

    Parameters
    ----------
    counts : DataFrame
        :func:`reading_counts` (or :func:`read_reading_counts`), or the cells it sums (one row
        per printed cell and reading: ``experiment``, ``dataset``, ``cell``, ``within`` (bool;
        a cell without our number is False) and the choice columns).
    target : float in (0, 1], default=0.6

    Returns
    -------
    DataFrame
        Indexed by data set, then ``"all: bound (a reading per data set)"`` and ``"all: one
        reading per experiment"``: ``printed`` (distinct cells), one ``within, <experiment>``
        column per experiment, ``within`` (their sum), ``share`` and ``reaches target``.
    """
    if isinstance(counts, pd.DataFrame) and "cell" in counts.columns:
        counts = reading_counts(counts)
    required = {"experiment", "dataset", "printed", "within"}
    if not isinstance(counts, pd.DataFrame) or not required <= set(counts.columns):
        raise ValueError("counts must be a DataFrame with columns "
                         f"{sorted(required)} (reading_counts), or the cells it sums.")
    if not 0 < target <= 1:
        raise ValueError(f"target must be in (0, 1]; got {target!r}.")
    choices = [c for c in counts.columns if c not in required]
    frame = counts.assign(**{c: counts[c].fillna("").astype(str) for c in choices})
    experiments = list(dict.fromkeys(frame["experiment"]))
    per = frame.groupby(["dataset", "experiment", *choices], sort=False)["within"].sum()
    best = per.groupby(level=["dataset", "experiment"], sort=False).max().unstack("experiment")
    best = best.reindex(columns=experiments).fillna(0).astype(int)
    printed = frame.drop_duplicates(["experiment", "dataset"]).groupby(
        "dataset", sort=False)["printed"].sum()
    out = best.rename(columns=lambda e: f"within, {e}")
    out.insert(0, "printed", printed.reindex(out.index))
    out["within"] = best.sum(axis=1)
    out.loc["all: bound (a reading per data set)"] = out.sum()
    global_best = {e: int(per.xs(e, level="experiment").groupby(level=choices, sort=False)
                          .sum().max()) if choices else int(best[e].sum())
                   for e in experiments}
    out.loc["all: one reading per experiment"] = {
        "printed": out.loc["all: bound (a reading per data set)", "printed"],
        **{f"within, {e}": v for e, v in global_best.items()},
        "within": sum(global_best.values())}
    out = out.astype(int)
    out["share"] = (out["within"] / out["printed"]).round(2)
    out["reaches target"] = out["within"] >= target * out["printed"]
    out.index.name = "dataset"
    return out


def _cells(compared, experiment, **choice):
    c = compared
    keys = [k for k in ("eta", "model", "metric") if k in c.columns]
    return pd.DataFrame({"experiment": experiment, "dataset": c["dataset"].to_numpy(),
                         "cell": c[keys].astype(str).agg(" | ".join, axis=1).to_numpy(),
                         "within": c["within"].fillna(False).astype(bool).to_numpy(),
                         **choice})


def reading_cells(scores_a, scores_b, *, ddofs=(0, 1)):
    """The printed cells of Tables 1, 4 and 5 under every reading, for :func:`extended_bound`.

    Experiment A (Table 1): every ``variant`` of ``scores_a`` (a column naming how the scores
    were computed, e.g. the encoding and the rule for k; absent: one variant) × the Cov²
    readings of :func:`normalisations` present (``features``, ``rows``, ``scores``,
    ``targets``, ``reduce``) × the three reconstruction errors × the std's ``ddof``.
    Experiment B (Tables 4-5): every ``variant`` of ``scores_b`` × the Cov² readings on the
    test rows × ``ddof``.

    Returns
    -------
    DataFrame
        ``experiment`` (``"A"``, ``"B"``), ``dataset``, ``cell``, ``within`` and the choices
        :data:`CHOICES_A` / :data:`CHOICES_B` (empty where an experiment has none).
    """
    frames = []
    hyps = normalisations().to_dict("records")
    for variant, part in _variants(scores_a):
        frames += _table1_cells(part, variant, hyps, ddofs)
    for variant, part in _variants(scores_b):
        frames += _tables45_cells(part, variant, hyps, ddofs)
    columns = ["experiment", "dataset", "cell", "within", "variant", "error", "ddof",
               "features", "rows", "scores", "targets", "reduce"]
    return pd.concat(frames, ignore_index=True)[columns]


def _table1_cells(part, variant, hyps, ddofs):
    """Table 1's cells under every reading of one variant.

    A Cov² cell depends on the Cov² reading and not on the error, an Error cell on the error
    (and the ``features`` and ``rows`` it shares with the Cov² reading) and not on the rest:
    each is compared once, then set beside every value of the choices it does not depend on.
    """
    present = set(zip(part["features"], part["rows"]))
    cov, err = [], []
    for hyp, ddof in itertools.product(hyps, ddofs):
        if (hyp["features"], hyp["rows"]) in present:
            c = compare(table1(part, hyp, ddof=ddof))
            cov.append(_cells(c[c["metric"] != _ERROR], "A", variant=variant, ddof=ddof, **hyp))
    for (features, rows), error, ddof in itertools.product(sorted(present), _ERRORS, ddofs):
        c = compare(table1(part, {"features": features, "rows": rows}, error=error, ddof=ddof))
        err.append(_cells(c[c["metric"] == _ERROR], "A", variant=variant, error=error,
                          ddof=ddof, features=features, rows=rows))
    readings = pd.DataFrame(hyps)[["scores", "targets", "reduce"]].drop_duplicates()
    return [pd.concat(cov).merge(pd.DataFrame({"error": _ERRORS}), how="cross"),
            pd.concat(err).merge(readings, how="cross")]


def _tables45_cells(part, variant, hyps, ddofs):
    """Tables 4-5's cells under every reading of one variant, on the test folds.

    A Cov² cell depends on the Cov² reading; the accuracy, DI, KS and MSE cells on none of it:
    those are compared once per ``features`` and ``ddof``, then set beside every reading.
    """
    hyps = [h for h in hyps if h["rows"] == "test" and (part["features"] == h["features"]).any()]
    tables = [t for t in ("table4", "table5")
              if published.table(PAPER, t)["dataset"].isin(set(part["dataset"])).any()]
    covariances = part[part["metric"].isin(_COV2_B)]

    def compared(scores, normalisation, ddof):
        summary = downstream_summary(scores, normalisation, ddof=ddof)
        summary = summary[summary["eta"].isin(_PRINTED_ETAS)]
        return [compare(summary, table) for table in tables]

    cov, other = [], []
    for hyp, ddof in itertools.product(hyps, ddofs):
        for c in compared(covariances, hyp, ddof):
            cov.append(_cells(c[c["metric"].isin(_COV2_B)], "B", variant=variant, ddof=ddof,
                              error="", **{**hyp, "rows": ""}))
    for features, ddof in itertools.product(sorted({h["features"] for h in hyps}), ddofs):
        for c in compared(part, {"features": features}, ddof):
            other.append(_cells(c[~c["metric"].isin(_COV2_B)], "B", variant=variant, ddof=ddof,
                                error="", features=features, rows=""))
    if not cov:
        return []
    readings = pd.DataFrame(hyps)[["scores", "targets", "reduce"]].drop_duplicates()
    return [pd.concat(cov), pd.concat(other).merge(readings, how="cross")]


def encoding_and_k_variants(scores_a, data, k_cv, etas, *, n_splits=3, test_size=0.3,
                            random_state=0, max_rows=None, data_home=None):
    """Experiment A under every encoding × rule for k, for :func:`reading_cells`.

    ``scores_a`` (our encodings, Table 3's k: the ledger's, or computed at the same parameters)
    is one variant; the others are computed here on the rows of ``data`` (the same
    ``max_rows`` and ``random_state``, the ``features`` variants of ``scores_a``): k by
    cross-validation (``k_cv``, :func:`cv_k`'s frame), and the loader's features
    (``load_data(encoding="loader")``) for the data sets whose encoding :func:`encode` changed,
    with either k.  A data set whose two encodings are
    the same, or that ``scores_a`` holds and ``data`` does not (Law School without its file),
    repeats its scores, so that every variant covers every data set.

    Returns
    -------
    DataFrame
        :func:`representation_scores`'s columns and ``variant`` (``"encoding: …; k: …"``).
    """
    keys = {name: key for key, name in DATASETS.items()}
    rule = {(keys[r.dataset], float(r.eta)): int(r.k_cv) for r in k_cv.itertuples()}
    changed = [key for key in data if not ENCODINGS[key][0].startswith("loader")
               and key != "lawschool"]
    loader = {key: load_data(key, max_rows=max_rows, random_state=random_state,
                             data_home=data_home, encoding="loader") for key in changed}
    kwargs = {"n_splits": n_splits, "test_size": test_size, "random_state": random_state,
              "features": tuple(dict.fromkeys(scores_a["features"]))}
    with counting_early_stops():  # expected near k = d; the rows are the result
        by_cv = representation_scores(data, etas, k=rule, **kwargs)
        loader_t3 = representation_scores(loader, etas, **kwargs) if loader else None
        loader_cv = representation_scores(loader, etas, k=rule, **kwargs) if loader else None
    absent = set(scores_a["dataset"]) - {DATASETS[key] for key in data}
    by_cv = pd.concat([by_cv, scores_a[scores_a["dataset"].isin(absent)]], ignore_index=True)
    names = [DATASETS[key] for key in changed]

    def swap(base, other):
        if other is None:
            return base
        return pd.concat([base[~base["dataset"].isin(names)], other], ignore_index=True)

    parts = {"encoding: Table 3's where the text gives it; k: Table 3": scores_a,
             "encoding: Table 3's where the text gives it; k: cross-validation": by_cv,
             "encoding: the loader's; k: Table 3": swap(scores_a, loader_t3),
             "encoding: the loader's; k: cross-validation": swap(by_cv, loader_cv)}
    return pd.concat([p.assign(variant=label) for label, p in parts.items()],
                     ignore_index=True)


def _variants(scores):
    if "variant" not in scores.columns:
        return [("as computed", scores)]
    return [(v, part.drop(columns="variant")) for v, part in scores.groupby("variant", sort=False)]


def paper_reading_counts(path=None, data_home=None, datasets=None):
    """:func:`reading_counts` at paper scale: the ledger's scores, and Experiment A on every
    row under the other encoding and the rule for k of :func:`encoding_and_k_variants`.

    Experiment A's and B's scores under our encodings and Table 3's k are the ledger's
    (``path``: the folder of the ledgers); k by cross-validation is :func:`cv_k` on every
    row at the ledger's η and seed, and the variants use the ledger's splits.  ``datasets``
    (keys or printed names; default all) narrows it; Law School counts only where its file
    is found.  About two to five minutes on one core for all.
    """
    data, _ = load_datasets(datasets, data_home=data_home)
    names = {DATASETS[key] for key in data}
    ledger = read_ledger("de_diego", path)
    ledger = ledger[ledger["dataset"].isin(names)]
    scores_a = scores_from_ledger(ledger, "table1")
    scores_b = scores_from_ledger(ledger, "table4+5")
    k_cv = cv_k(data, ETAS_A, random_state=PARAMETERS["random_state"])
    variants = encoding_and_k_variants(
        scores_a, data, k_cv, ETAS_A, data_home=data_home,
        **{name: PARAMETERS[name] for name in ("n_splits", "test_size", "random_state")})
    return reading_counts(reading_cells(variants, scores_b))


def write_reading_counts(path=None, data_home=None):
    """Compute :func:`paper_reading_counts` and write it to :data:`READING_COUNTS_FILE` in the
    folder of the ledgers (:func:`fairlab.experiments.results_dir`), a first comment line
    naming the call."""
    frame = paper_reading_counts(path, data_home)
    target = results_dir(path) / READING_COUNTS_FILE
    # mtime 0: the same counts give the same bytes, so an unchanged file stays unchanged in git
    with open(target, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as zipped, \
            io.TextIOWrapper(zipped, encoding="utf-8", newline="") as handle:
        handle.write("# fairlab.experiments.de_diego.paper_reading_counts(), from the ledger "
                     "de_diego.csv.gz\n")
        frame.to_csv(handle, index=False)
    return target


def read_reading_counts(path=None):
    """The table written by :func:`write_reading_counts` (choices as text, empty where an
    experiment does not vary one)."""
    return pd.read_csv(results_dir(path) / READING_COUNTS_FILE, comment="#",
                       keep_default_na=False, dtype={"ddof": str})
