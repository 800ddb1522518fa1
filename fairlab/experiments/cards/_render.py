"""The scorecard for a reader: its tables, one of scores and one of the leakage audit per
protocol."""

import pandas as pd

from ... import published
from ._audit import LEAKAGE
from ._registry import _REGISTRY


def _label(spec, metric, model):
    label = spec.labels[metric]
    return f"{model} {label}" if model else label


def render(card):
    """A scorecard (:func:`~fairlab.experiments.scorecard`) for a reader: two tables per protocol.

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
    columns = [_label(spec, m, model) for m, model in spec.columns]
    datasets = {printed: i for i, printed in enumerate(spec.datasets.values())}
    methods = {method: i for i, method in enumerate(spec.methods)}
    part = part.assign(column=[_label(spec, m, model) for m, model
                               in zip(part["metric"], part["model"])])
    lines = {}
    for row in part.itertuples():
        places = spec.decimals[row.metric]
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
