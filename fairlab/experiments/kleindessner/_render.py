"""Kleindessner et al. (2023) §5.1, what a chapter shows: the side-by-side tables and their words.
"""

from ... import published
from ._data import DECIMALS, MODELS
from ._units import REFERENCE_CODE_SUFFIX, base_method

#: The printed tables' name of each metric.
METRIC_LABELS = {"var_pct": "%Var", "mmd2": "MMD²", "accuracy_pct": "%Acc", "delta_dp": "ΔDP"}
_METRIC_LABEL = METRIC_LABELS


def _missing_reason(row):
    """Why a cell of ours is empty (the renderer prints it under the table, after —)."""
    if base_method(row.method) == "Fair Kernel PCA" and row.metric in ("var_pct", "mmd2"):
        return ("%Var and MMD² need orthonormal components, which a kernel method's embedding "
                "does not have (the paper prints none either)")
    return "no unit of the ledger computes this cell yet (make reproduce)"


def side_by_side(compared, title="", *, rows=("k", "method"), by_k=False):
    """:func:`compare` as a table: one row per (k, method), four columns per printed metric.

    Each metric (``%Var``, ``MMD²``, and ``<model> %Acc`` / ``<model> ΔDP`` of each downstream
    model present) shows the paper's cell, ours (mean ± std over the splits), the difference
    and the mark of :data:`fairlab.published.STATUS_MARKS` (``=`` mean and std equal at the
    authors' decimals, ``≈`` mean equal, ``~`` within the paper's std, ``✗`` beyond it).

    ``rows`` names the printed row (Table 4, one method on three data sets: ``("dataset",
    "k")``).  ``by_k=True`` puts ``k`` into the column groups instead (``%Var (k = 2)``), one
    row per method: half as many rows, for a compact view of a few groups.

    Returns
    -------
    fairlab.published.SideBySide
        Shown as HTML in a notebook; ``.frame`` holds the text cells.
    """
    def group(r):
        label = _METRIC_LABEL[r.metric]
        label = label if not r.model else f"{r.model} {label}"
        return f"{label} (k = {int(r.k)})" if by_k else label

    if by_k:
        rows = [r for r in rows if r != "k"]

    return published.side_by_side(compared, rows=list(rows), group=group,
                                  decimals=lambda r: DECIMALS[r.metric], title=title,
                                  missing=_missing_reason)


def printed_table_views(compared, dataset, name):
    """What a chapter shows of one of the paper's Tables 1–3: a glance and the detail.

    Parameters
    ----------
    compared : DataFrame
        :func:`compare` output (any data sets; the runs as in the reference code are left out).
    dataset : str
        The data set of the table, e.g. ``"Adult Income"``.
    name : str
        How the chapter names the table, e.g. ``"The paper's Table 1 (Adult Income)"``.

    Returns
    -------
    glance : fairlab.published.SideBySide
        The representation's columns (%Var, MMD²) of the methods, ``k`` in the column groups:
        one row per method, so it fits the text column.
    detail : fairlab.published.Details
        Under a click: the kernel SVM's, the linear SVM's and the MLP's columns the same way,
        and the complete table (mean ± std, differences, the reference runs).
    """
    view = compared[(compared["dataset"] == dataset)
                    & ~compared["method"].str.endswith(REFERENCE_CODE_SUFFIX)]
    own = view[view["method"].map(base_method) == view["method"]]
    table = side_by_side(own, title=f"{name} beside ours: the representation", by_k=True)
    glance = table.compact([g for g in table.groups if g.startswith(("%Var", "MMD²"))])
    models = [m for m in MODELS.values() if any(g.startswith(m) for g in table.groups)]
    detail = published.Details(
        *[table.compact([g for g in table.groups if g.startswith(m)], title=f"{name}: {m}")
          for m in models],
        side_by_side(view, title=f"{name} in full"),
        summary=f"{', '.join(models)}; the complete table with standard deviations, differences "
                "and the reference runs")
    return glance, detail


def misses_in_words(compared):
    """The cells of a :func:`compare` result beyond the paper's std, in words.

    ``"INLP (k = 2: %Var, MMD²; k = 10: %Var); RLACE (k = 2: %Var)"``, or ``"none"``.
    """
    bad = compared[compared["status"] == "differs"]
    parts = []
    for method, cells in bad.groupby("method", sort=False):
        per_k = []
        for k, at in cells.groupby("k", sort=True):
            labels = [_METRIC_LABEL[m] if not model else f"{model} {_METRIC_LABEL[m]}"
                      for m, model in zip(at["metric"], at["model"])]
            per_k.append(f"k = {int(k)}: {', '.join(labels)}")
        parts.append(f"{published.method_label(method)} ({'; '.join(per_k)})")
    return "; ".join(parts) or "none"


#: The two runs :func:`counts_by_run` counts, in its columns' order.
RUNS = ("fairlab", "as in the reference code")


def counts_by_run(compared, by=("method",)):
    """How many printed cells fairlab's fit and the run as in the reference code reproduce.

    ``compared`` is :func:`compare`'s output; the methods counted are those with rows run as in
    the reference code (names ending in :data:`REFERENCE_CODE_SUFFIX`), each beside fairlab's
    fit of the same method (other variants are left out, as are cells without our number).
    Returns one row per ``by`` group (``method`` is the printed method) and, for each run of
    :data:`RUNS`, the columns ``"<run>: equal"`` (mean and std at the printed decimals),
    ``"<run>: within std"`` and ``"<run>: printed cells"``.
    """
    by = [by] if isinstance(by, str) else list(by)
    as_reference = compared["method"].str.endswith(REFERENCE_CODE_SUFFIX)
    bases = set(compared.loc[as_reference, "method"].map(base_method))
    rows = compared[(as_reference | compared["method"].isin(bases))
                    & compared["ours_mean"].notna()]
    rows = rows.assign(run=rows["method"].str.endswith(REFERENCE_CODE_SUFFIX)
                       .map(dict(zip((False, True), RUNS))),
                       method=rows["method"].map(base_method))
    counts = rows.groupby([*by, "run"], sort=False).agg(
        equal=("status", lambda s: int((s == "equal").sum())),
        within=("within", lambda s: int(s.fillna(False).sum())),
        printed=("status", "size")).unstack("run")
    names = {"equal": "equal", "within": "within std", "printed": "printed cells"}
    counts.columns = [f"{run}: {names[stat]}" for stat, run in counts.columns]
    return counts


def match_counts(compared, by=("method",)):
    """How many printed cells each method reproduces: counts of each ``status``."""
    by = [by] if isinstance(by, str) else list(by)
    counts = compared.groupby([*by, "status"], sort=False).size().unstack(fill_value=0)
    order = [s for s in ("equal", "mean equal", "within std", "differs", "n/a")
             if s in counts.columns]
    return counts[order]
