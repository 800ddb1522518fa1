"""The papers' printed tables, read from the shipped CSV files with their metadata.
"""

import json
from functools import cache, lru_cache
from importlib import resources

import numpy as np
import pandas as pd

PAPERS = ("kleindessner2023", "dediego2025", "perezsuay2017")
ID_COLUMNS = ("dataset", "method", "k", "eta", "model", "metric")
COLUMNS = (*ID_COLUMNS, "mean", "std", "raw")
_STR_COLUMNS = ("dataset", "method", "model", "metric")
_NUM_COLUMNS = ("k", "eta")


@lru_cache(maxsize=1)
def _metadata():
    file = resources.files(__package__).joinpath("data", "metadata.json")
    with file.open(encoding="utf-8") as fh:
        return json.load(fh)


def _check_paper(paper):
    if not isinstance(paper, str) or paper not in PAPERS:
        raise ValueError(f"Unknown paper {paper!r}; valid papers: {list(PAPERS)}.")
    return _metadata()["papers"][paper]


def tables(paper=None):
    """List the available published tables.

    Parameters
    ----------
    paper : str, optional
        One of ``"kleindessner2023"``, ``"dediego2025"``, ``"perezsuay2017"``; ``None``
        lists every paper's tables.

    Returns
    -------
    list of tuple of (str, str)
        ``(paper, name)`` pairs, e.g. ``("kleindessner2023", "table1")``, in the order of
        the papers' numbering.  ``perezsuay2017`` has none (its results are figures).

    Raises
    ------
    ValueError
        If ``paper`` is not one of the keys above.

    Examples
    --------
    >>> tables("dediego2025")[:2]
    [('dediego2025', 'table1'), ('dediego2025', 'table2')]
    """
    papers = PAPERS if paper is None else (paper,)
    out = []
    for p in papers:
        out.extend((p, name) for name in _check_paper(p)["tables"])
    return out


def _normalise_name(name):
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
        return f"table{int(name)}"
    if isinstance(name, str):
        return name.strip().lower().replace(" ", "")
    return name


@cache
def _read(paper, name):
    meta = _metadata()["papers"][paper]["tables"][name]
    with resources.files(__package__).joinpath("data", meta["file"]).open(encoding="utf-8") as fh:
        df = pd.read_csv(fh, dtype=str, keep_default_na=False)
    if list(df.columns) != list(COLUMNS):
        raise RuntimeError(f"{meta['file']} has columns {list(df.columns)}, not {list(COLUMNS)}.")
    return df


def _descr(paper, meta, tmeta):
    lines = [
        f"{paper} {tmeta['source']}",
        "",
        f"Caption: {tmeta['caption']}",
        f"Cells: {tmeta['statistic']}",
        "",
        "Metrics and units:",
        *(f"  {m}: {u}" for m, u in tmeta["units"].items()),
        "Identifier columns:",
        *(f"  {c}: {u}" for c, u in tmeta["identifiers"].items()),
        f"Bold: {tmeta['bold']['rule']}",
        "Transcription notes:",
        *(f"  - {n}" for n in tmeta["notes"]),
        "",
        f"Citation: {meta['citation']}",
    ]
    return "\n".join(lines)


def table(paper, name):
    r"""One printed table of a paper, as a tidy DataFrame (one row per printed cell).

    Parameters
    ----------
    paper : str
        ``"kleindessner2023"``, ``"dediego2025"`` or ``"perezsuay2017"``.
    name : str or int
        ``"table1"``, ``"table2"``, ... as numbered in the paper (``"Table 1"`` and ``1``
        are accepted too).  :func:`tables` lists the valid pairs.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, method, k, eta, model, metric, mean, std, raw`` (see the module
        docstring): identifiers are strings with ``""`` where unused, ``k``/``eta``/
        ``mean``/``std`` are float64 with NaN where unused or not printed.  ``df.attrs``
        holds ``paper``, ``name``, ``citation`` (full reference), ``caption``, ``descr``
        (units, identifier meanings, bold rule, transcription notes), ``units`` (metric ->
        description), ``source`` (where in the paper) and ``bold`` (the bold cells, each as
        a dict of its non-empty identifiers).  A fresh copy is returned on every call.

    Raises
    ------
    ValueError
        For an unknown paper or table; the message lists the valid ones.

    Examples
    --------
    >>> df = table("dediego2025", "table1")
    >>> row = df[(df.dataset == "Adult Income") & (df.eta == 1.0) & (df.metric == "cov2_s")]
    >>> row[["mean", "std", "raw"]]
         mean     std                 raw
    4  0.0474  0.0238  $0.0474\pm 0.0238$
    """
    meta = _check_paper(paper)
    key = _normalise_name(name)
    if key not in meta["tables"]:
        valid = list(meta["tables"])
        if not valid:
            raise ValueError(
                f"{paper} has no published table to load: {meta['notes']} "
                f"Papers with tables: {[p for p in PAPERS if _metadata()['papers'][p]['tables']]}."
            )
        raise ValueError(f"Unknown table {name!r} for {paper}; valid tables: {valid}.")
    tmeta = meta["tables"][key]
    df = _read(paper, key).copy()
    for col in _STR_COLUMNS + ("raw",):
        df[col] = df[col].astype(str)
    for col in _NUM_COLUMNS + ("mean", "std"):
        df[col] = pd.to_numeric(df[col].replace("", np.nan)).astype("float64")
    df.attrs.update(
        paper=paper,
        name=key,
        citation=meta["citation"],
        caption=tmeta["caption"],
        descr=_descr(paper, meta, tmeta),
        units=dict(tmeta["units"]),
        source=tmeta["source"],
        bold=[dict(c) for c in tmeta["bold"]["cells"]],
    )
    return df
