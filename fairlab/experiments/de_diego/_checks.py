"""De-Diego et al. (2025) §4, the paper's claims checked: our tables beside the printed ones, and
the reading of its normalisation and of its spread.
"""

import numpy as np
import pandas as pd

from ... import published
from ._data import _COV2_METRICS, table1
from ._downstream import downstream_summary
from ._readings import DEFAULT_NORMALISATION, normalisations
from ._units import PAPER

#: Decimals the paper rounds every cell to (it drops trailing zeros: ``0.29`` is 0.2900).
DECIMALS = 4


#: The printed column names of each metric of Tables 1, 4 and 5.
METRIC_LABELS = {"cov2_y": "Cov²(r(X), Y)", "cov2_s": "Cov²(r(X), S)",
                 "reconstruction_error": "Error", "disparate_impact": "DI",
                 "accuracy": "Accuracy", "cov2_yhat": "Cov²(r(X), Ŷ)", "ks": "KS", "mse": "MSE"}


def compare(ours, table="table1"):
    """Our numbers beside a printed table of De-Diego et al. (``fairlab.published.compare``).

    Only the printed cells of the data sets present in ``ours`` are kept; ``within`` is True
    when our mean is within the paper's std of the printed mean (or rounds to it), and
    ``status`` is :func:`fairlab.published.with_status`'s verdict at :data:`DECIMALS`;
    ``n_splits`` is the number of splits (Table 1) or folds (Tables 4-5) behind our mean.
    """
    pub = published.table("dediego2025", table)
    pub = pub[pub["dataset"].isin(set(ours["dataset"]))]
    cols = [c for c in ("dataset", "eta", "model", "metric", "mean", "std") if c in ours.columns]
    keep = set(zip(pub["dataset"], pub["metric"]))
    ours = ours[[(d, m) in keep for d, m in zip(ours["dataset"], ours["metric"])]]
    out = published.compare(ours[cols], pub, unmatched="report").reset_index(drop=True)
    out = published.with_status(out, decimals=lambda row: DECIMALS)
    count = "n_splits" if "n_splits" in ours.columns else "n_folds"
    if count in ours.columns:
        keys = [c for c in ("dataset", "eta", "model", "metric") if c in ours.columns]
        counts = ours[keys + [count]].rename(columns={count: "n_splits"})
        out = out.merge(counts.assign(eta=counts["eta"].astype(float)), how="left",
                        on=keys, validate="many_to_one")
    return out


def coverage(compared):
    """How many printed cells of each table we show, and how many are within the paper's std.

    Parameters
    ----------
    compared : dict of str -> DataFrame
        Table label -> its :func:`compare` result (every printed cell of the table, ours or not).

    Returns
    -------
    DataFrame
        One row per table and ``"all"``: ``printed`` cells, ``shown`` (with our number),
        ``within`` (the paper's std), ``equal`` (mean, or mean and std, at the printed decimals)
        and ``share within`` (of ``printed``).
    """
    rows = []
    for label, table in compared.items():
        rows.append({"table": label, "printed": len(table),
                     "shown": int(table["ours_mean"].notna().sum()),
                     "within": int(table["within"].fillna(False).astype(bool).sum()),
                     "equal": int(table["status"].isin(["equal", "mean equal"]).sum())})
    out = pd.DataFrame(rows).set_index("table")
    out.loc["all"] = out.sum()
    out["share within"] = (out["within"] / out["printed"]).round(2)
    return out


def normalisation_fit(scores, *, ddof=0):
    """How well each Cov² normalisation hypothesis reproduces the printed Cov² cells.

    ``scores`` from :func:`representation_scores` is compared with Table 1 (columns
    Cov²(r(X), Y) and Cov²(r(X), S)); ``scores`` from :func:`downstream_scores` with
    Tables 4 and 5 (Cov²(r(X), Ŷ) and Cov²(r(X), S), on the held-out folds).  For every
    hypothesis of :func:`normalisations` present in ``scores``: how many printed Cov²
    cells (over the data sets, η and models in ``scores``) we reproduce within the paper's
    std (``within`` of :func:`compare`), their share, and the median ratio ours /
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
    downstream = "model" in scores.columns
    ymetric = "cov2_yhat" if downstream else "cov2_y"
    mets = (ymetric, "cov2_s")
    rows = []
    for hyp in normalisations().to_dict("records"):
        if downstream:
            if hyp["rows"] != "test" or not (scores["features"] == hyp["features"]).any():
                continue
            summ = downstream_summary(scores, hyp, ddof=ddof)
            present = set(summ["dataset"])
            tables = [t for t in ("table4", "table5")
                      if published.table("dediego2025", t)["dataset"].isin(present).any()]
            cmp = pd.concat([compare(summ, t) for t in tables], ignore_index=True)
        else:
            present = ((scores["features"] == hyp["features"])
                       & (scores["rows"] == hyp["rows"])).any()
            if not present:
                continue
            cmp = compare(table1(scores, hyp, ddof=ddof))
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


def reading_bound(scores_a, scores_b, *, ddof=0):
    """How many printed cells of Tables 1, 4 and 5 some reading of the paper puts within its std.

    A *reading* is one interpretation of Cov² (a row of :func:`normalisations` less its
    ``rows``: features, scores, targets, reduce).  Table 1 (Experiment A) may further be read
    on the test or the training rows and with any of the three reconstruction errors; Tables
    4 and 5 (Experiment B, one protocol) on the test rows.  For every printed cell: is it
    within the paper's std under the literal reading (:data:`DEFAULT_NORMALISATION`,
    ``error="projection"``), under the best reading, and under **at least one** reading?
    Only the ``features`` and ``rows`` that ``scores_a`` / ``scores_b`` hold are tried.
    Accuracy, DI, KS and MSE have one reading.

    Returns
    -------
    DataFrame
        One row per table, then three totals that differ in how many readings they allow:
        ``"all: one reading"`` (the same reading for the three tables),
        ``"all: one per experiment"`` (Table 1 its own; Tables 4 and 5 one together) and
        ``"all: one per table"``.  Columns: ``printed`` cells, ``literal`` (within under the
        literal reading), ``best single`` (the most cells the allowed readings put within; per
        table, the best reading of that table), ``some reading`` (within under at least one
        reading, chosen cell by cell) and the shares of ``printed`` of the last two.
    """
    def reading(hyp):
        return str(sorted((k, v) for k, v in hyp.items() if k != "rows"))

    def cells(compared, hyp, variant, table):
        c = compared[compared["ours_mean"].notna()]
        keys = [k for k in ("dataset", "eta", "model", "metric") if k in c.columns]
        return c.assign(cell=c[keys].astype(str).agg(" | ".join, axis=1),
                        within=c["within"].fillna(False).astype(bool), reading=reading(hyp),
                        variant=variant, table=table)

    frames = []
    present_a = set(zip(scores_a["features"], scores_a["rows"]))
    for hyp in normalisations().to_dict("records"):
        if (hyp["features"], hyp["rows"]) not in present_a:
            continue
        for error in ("projection", "loadings", "weights"):
            frames.append(cells(compare(table1(scores_a, hyp, error=error, ddof=ddof)), hyp,
                                f"{hyp['rows']} rows, {error} error", "table1"))
    for hyp in normalisations().to_dict("records"):
        if hyp["rows"] != "test" or not (scores_b["features"] == hyp["features"]).any():
            continue
        summary = downstream_summary(scores_b, hyp, ddof=ddof)
        summary = summary[summary["eta"].isin([0.0, 1.0, 2.0])]
        for table in ("table4", "table5"):
            if published.table(PAPER, table)["dataset"].isin(set(summary["dataset"])).any():
                frames.append(cells(compare(summary, table), hyp, "test rows", table))
    everything = pd.concat(frames, ignore_index=True)
    is_literal = (everything["reading"] == reading(DEFAULT_NORMALISATION)) & everything[
        "variant"].isin(["test rows, projection error", "test rows"])
    # cells within per (table, reading), the best variant of each reading
    per_reading = (everything.groupby(["table", "reading", "variant"], sort=False)["within"].sum()
                   .groupby(level=["table", "reading"], sort=False).max().unstack("table"))
    out = []
    for table, part in everything.groupby("table", sort=False):
        out.append({"table": table, "printed": len(published.table(PAPER, table)),
                    "literal": int(part.loc[is_literal[part.index], "within"].sum()),
                    "best single": int(per_reading[table].max()),
                    "some reading": int(part.groupby("cell")["within"].any().sum())})
    out = pd.DataFrame(out).set_index("table")
    tables = list(out.index)
    experiment_b = [t for t in tables if t != "table1"]
    totals = out.sum()
    best = {"all: one reading": per_reading[tables].dropna().sum(axis=1).max(),
            "all: one per experiment": (per_reading["table1"].max() if "table1" in tables else 0)
            + (per_reading[experiment_b].dropna().sum(axis=1).max() if experiment_b else 0),
            "all: one per table": totals["best single"]}
    for label, value in best.items():
        out.loc[label] = {**totals, "best single": int(value)}
    for column in ("best single", "some reading"):
        out[f"share ({column})"] = (out[column] / out["printed"]).round(2)
    return out


def spread_hypotheses(scores_a, scores_b, *, floor=0.005):
    """What the ± of Table 1's Cov² columns could be: each hypothesis's relative spread.

    Table 1 prints every Cov² with a std of about half its mean.  For each hypothesis of what
    the ± measures, computed on our scores under the literal reading
    (:data:`DEFAULT_NORMALISATION`), the std / mean of every cell whose mean exceeds ``floor``:

    * ``splits (ddof=0)`` / ``splits (ddof=1)``: the std over Experiment A's splits (test rows);
    * ``splits × train/test rows``: over the splits' training and test rows together;
    * ``folds (Cov²(r(X), S))``: over Experiment B's folds, the held-out Cov²(r(X), S) of the
      same data set and η (Table 4's column, whose printed spread looks like fold noise).

    The first row is the paper's own: Table 1's printed std / mean.  ``contains`` says whether
    the paper's range of std / mean contains the hypothesis's median.

    Returns
    -------
    DataFrame
        ``spread, cells, median, min, max, contains`` (std / mean), one row per hypothesis.
    """
    literal = DEFAULT_NORMALISATION
    a = scores_a[(scores_a["features"] == literal["features"])
                 & (scores_a["scores"] == literal["scores"])
                 & (scores_a["targets"] == literal["targets"])
                 & (scores_a["reduce"] == literal["reduce"])
                 & scores_a["metric"].isin(_COV2_METRICS)]
    b = scores_b[(scores_b["features"] == literal["features"]) & (scores_b["fold"] >= 0)
                 & (scores_b["scores"] == literal["scores"])
                 & (scores_b["targets"] == literal["targets"])
                 & (scores_b["reduce"] == literal["reduce"]) & (scores_b["metric"] == "cov2_s")]
    b = b.drop_duplicates(["dataset", "eta", "fold"])  # Cov²(r(X), S) is the same for every model
    printed = published.table(PAPER, "table1")
    printed = printed[printed["metric"].isin(_COV2_METRICS)]
    keys = ["dataset", "eta", "metric"]

    def ratios(frame, ddof):
        g = frame.groupby(keys, sort=False)["value"]
        mean = g.mean()
        return (g.std(ddof=ddof) / mean)[mean > floor]

    candidates = {
        "printed (Table 1)": (printed["std"] / printed["mean"])[printed["mean"] > floor],
        "splits (ddof=0)": ratios(a[a["rows"] == "test"], 0),
        "splits (ddof=1)": ratios(a[a["rows"] == "test"], 1),
        "splits × train/test rows": ratios(a, 0),
        "folds (Cov²(r(X), S))": ratios(b, 0),
    }
    low, high = candidates["printed (Table 1)"].min(), candidates["printed (Table 1)"].max()
    rows = [{"spread": name, "cells": len(r), "median": float(r.median()), "min": float(r.min()),
             "max": float(r.max()), "contains": bool(low <= r.median() <= high)}
            for name, r in candidates.items()]
    return pd.DataFrame(rows)
