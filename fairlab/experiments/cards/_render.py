"""The scorecard for a reader: its tables, one of scores and one of the leakage audit per
protocol."""

import pandas as pd

from ... import published
from ._audit import LEAKAGE
from ._registry import _REGISTRY


def _label(spec, metric, model):
    label = spec.labels[metric]
    return f"{model} {label}" if model else label


def _mean_std(row, places):
    if pd.isna(row.mean):
        return None
    if pd.isna(row.std):  # a summary of the mean curve: no spread over the splits
        return f"{row.mean:.{places}f}"
    return f"{row.mean:.{places}f} ± {row.std:.{places}f}"


def render(card):
    """A scorecard (:func:`~fairlab.experiments.scorecard`) for a reader: its tables per protocol.

    The first: per data set and k, the method (marked "yours") and then the published methods,
    each cell the mean ± std over the splits at the paper's decimals; under them the method's
    rank in each column ("2 of 12": second best of the twelve methods with a value).  The
    second: the leakage audit of the method's representation, per data set and k, each
    adversary's balanced accuracy (mean ± std over the splits), the lowest and highest end of
    the splits' intervals, and in how many splits the interval lies above chance.  A protocol
    of curves (Kleindessner et al.'s trade-offs) prints, between them, every method's mean
    curve point per λ (or ε of the reductions): per data set and classifier, the violation and
    the error.

    Returns
    -------
    list of fairlab.published.ReaderTable
    """
    tables = []
    for protocol, part in card.groupby("protocol", sort=False):
        spec = _REGISTRY[protocol]
        audit = part[part["metric"] == LEAKAGE]
        points = part[part["metric"].isin(spec.points)]
        tables.append(_scores_table(protocol, part[part["metric"].isin(
            {metric for metric, _ in spec.columns})]))
        if len(points):
            tables.append(_points_table(protocol, points))
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
        text = _mean_std(row, places)
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


def _points_table(protocol, points):
    spec = _REGISTRY[protocol]
    datasets = {printed: i for i, printed in enumerate(spec.datasets.values())}
    models = {model: i for i, (_, model) in enumerate(spec.columns)}
    methods = {method: i for i, method in enumerate(spec.methods)}
    cells = {}
    for row in points.itertuples():
        method = f"{row.method} (yours)" if row.yours else row.method
        key = (row.dataset, row.model, not row.yours, methods.get(row.method, -1), method,
               row.eta, f"{row.eta:g}")
        cells.setdefault(key, {})[spec.labels[row.metric]] = _mean_std(
            row, spec.decimals[row.metric])
    order = sorted(cells, key=lambda key: (datasets.get(key[0], len(datasets)),
                                           models.get(key[1], len(models)), *key[2:6]))
    frame = pd.DataFrame([cells[key] for key in order], index=pd.MultiIndex.from_tuples(
        [(d, model, method, point) for d, model, _, _, method, _, point in order],
        names=["dataset", "classifier", "method", "λ (the reductions: ε)"]))
    frame = frame[[spec.labels[m] for m in spec.points if spec.labels[m] in frame.columns]]
    splits = " or ".join(map(str, sorted(set(points["n_splits"]))))
    return published.reader_table(
        frame, title=f"Curve points: {spec.title}",
        note=f"mean ± std over {splits} split(s) of each point of each method's curve: λ the "
             f"weight of the standard block, ε the reductions' bound on the violation.")


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
