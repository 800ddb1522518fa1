"""Our numbers beside the printed ones: the side-by-side comparison and its verdict per cell.
"""

import math

import numpy as np
import pandas as pd

from ._cells import parse_cell, rounded_equal
from ._tables import _NUM_COLUMNS, COLUMNS, ID_COLUMNS, table

_COMPARE_COLUMNS = (
    *ID_COLUMNS, "paper", "paper_mean", "paper_std", "ours_mean", "ours_std", "difference",
    "within",
)


def _blank_to_nan(value):
    if value is None or value is pd.NA or (isinstance(value, str) and not value.strip()):
        return np.nan
    return value


def _key_values(series, col, frame_name):
    """Identifier values as comparable strings; "" for empty/NaN."""
    if col in _NUM_COLUMNS:
        values = series
        if not pd.api.types.is_numeric_dtype(values):
            values = values.astype(object).map(_blank_to_nan)
        try:
            values = pd.to_numeric(values)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Column {col!r} of {frame_name} must be numeric (NaN where unused): {exc}."
            ) from None
        return [("" if pd.isna(v) else f"{float(v):.12g}") for v in values]
    out = []
    for v in series:
        if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
            out.append("")
        else:
            out.append(" ".join(str(v).split()))
    return out


def _within(diff, paper_std, ours_mean, raw):
    if pd.isna(ours_mean):
        return pd.NA
    cell = parse_cell(raw)
    if cell.decimals is None:
        return pd.NA
    rounds = rounded_equal(ours_mean, raw)
    if not math.isnan(paper_std):
        return bool(abs(diff) <= paper_std * (1 + 1e-9) + 1e-12 or rounds)
    return rounds


def with_status(compared, decimals=None):
    """Add ``mean_equal``, ``std_equal`` and ``status`` to a :func:`compare` result.

    ``mean_equal`` / ``std_equal``: our mean / std rounded to the authors' decimals equals the
    printed one (:func:`rounded_equal`; NA where either side has no number).  ``status`` is
    ``"equal"`` (mean, and std where printed), ``"mean equal"``, ``"within std"``
    (``within``), ``"differs"``, or ``"n/a"`` where either side has no number: the keys of
    :data:`STATUS_MARKS`.

    Parameters
    ----------
    compared : DataFrame
        A :func:`compare` result.
    decimals : callable, optional
        ``decimals(row) -> int``: the authors' rounding of a row's metric.  The papers drop
        trailing zeros (``0.29`` for 0.2900), so the decimals read from a cell can be fewer
        than the rounding; default: those read from the cell.
    """
    mean_eq, std_eq, status = [], [], []
    for row in compared.itertuples():
        cell = parse_cell(row.paper)
        places = None if decimals is None else decimals(row)
        m_eq = (pd.NA if pd.isna(row.ours_mean) or cell.decimals is None
                else rounded_equal(row.ours_mean, row.paper, decimals=places))
        s_eq = (pd.NA if pd.isna(row.ours_std) or cell.std is None or math.isnan(cell.std)
                else rounded_equal(row.ours_std, f"{cell.std}", decimals=places))
        mean_eq.append(m_eq)
        std_eq.append(s_eq)
        if m_eq is pd.NA:
            status.append("n/a")
        elif m_eq and s_eq is not False:
            status.append("equal")
        elif m_eq:
            status.append("mean equal")
        elif bool(row.within):
            status.append("within std")
        else:
            status.append("differs")
    return compared.assign(mean_equal=pd.array(mean_eq, dtype="boolean"),
                           std_equal=pd.array(std_eq, dtype="boolean"), status=status)


def _py(value):
    """NumPy scalars as plain Python values (for readable messages and reports)."""
    return value.item() if isinstance(value, np.generic) else value


def _describe(row, cols):
    return "{" + ", ".join(f"{c}={row[c]!r}" for c in cols if row[c] != "") + "}"


def compare(ours, published, *, on=None, unmatched="raise"):
    r"""Our numbers side by side with a published table.

    Each published row is matched with the row of ``ours`` that has the same identifiers
    (by default, the identifier columns that are non-empty in that published row; or the
    columns in ``on``).  ``k`` and ``eta`` compare as numbers (``2`` equals ``2.0``),
    strings after trimming whitespace; in ``ours`` NaN/None/"" all mean "unused".

    Parameters
    ----------
    ours : pandas.DataFrame
        Our results: identifier columns (a subset of ``dataset, method, k, eta, model,
        metric``: those the published table uses), ``mean`` and optionally ``std``.  One
        row per published cell: aggregate repetitions first (``groupby(...).agg``).
        Other columns are ignored.
    published : pandas.DataFrame or tuple of (str, str)
        A table from :func:`table` (possibly filtered to some rows), or ``(paper, name)``.
    on : str or list of str, optional
        Identifier columns to match on for every row, instead of each published row's
        non-empty ones.
    unmatched : {"raise", "report"}, default="raise"
        What to do with rows of ``ours`` that match no published row (a typo in a method
        name, a metric the paper does not print): ``"raise"`` a ValueError naming them and
        the published values of the mismatching column, or ``"report"`` them as a list of
        dicts in ``result.attrs["unmatched_ours"]``.

    Returns
    -------
    pandas.DataFrame
        One row per published row, in its order, with the identifier columns and

        * ``paper``: the printed cell (``raw``);
        * ``paper_mean``, ``paper_std``: the parsed numbers (NaN when not printed);
        * ``ours_mean``, ``ours_std``: ours, NaN when no row of ``ours`` matches;
        * ``difference``: ``ours_mean - paper_mean``;
        * ``within`` (nullable boolean): True when ``|difference| <= paper_std``, or when
          ``ours_mean`` rounded to the decimals printed in ``paper`` equals the printed
          mean (:func:`rounded_equal`; the only test when no std is printed, and also
          accepted when one is, since the printed mean is itself rounded -- this matters for
          cells printed as ``0.0 ± 0.0``); ``<NA>`` when either side has no number.

        ``attrs`` carries ``paper``, ``name``, ``citation`` and ``caption`` of the
        published table and, with ``unmatched="report"``, ``unmatched_ours``.

    Raises
    ------
    TypeError
        If ``ours`` is not a DataFrame or ``published`` neither a DataFrame nor a pair.
    ValueError
        If ``ours`` lacks ``mean``, ``on`` names a non-identifier column or one missing from
        ``ours``, several rows of ``ours`` match one published cell, ``k``/``eta`` of ``ours``
        are not numeric, or (``unmatched="raise"``) a row of ``ours`` matches nothing.

    Examples
    --------
    >>> import pandas as pd
    >>> pub = table("dediego2025", "table2")
    >>> ours = pd.DataFrame({"dataset": ["Adult Income", "German Credit"],
    ...                      "metric": ["disparate_impact"] * 2, "mean": [0.3601, 0.81]})
    >>> res = compare(ours, pub)
    >>> res.loc[res.ours_mean.notna(), ["dataset", "paper", "ours_mean", "within"]]
             dataset   paper  ours_mean  within
    0   Adult Income  0.3597     0.3601   False
    3  German Credit  0.7948     0.8100   False
    >>> bool(compare(ours.assign(mean=[0.35974, 0.7948]), pub).within[0])
    True
    """
    if isinstance(published, tuple) and len(published) == 2:
        published = table(*published)
    if not isinstance(published, pd.DataFrame):
        raise TypeError(
            "published must be a DataFrame from fairlab.published.table(paper, name) or a "
            f"(paper, name) pair, got {type(published).__name__}."
        )
    missing = [c for c in COLUMNS if c not in published.columns]
    if missing:
        raise ValueError(
            f"published lacks the column(s) {missing}; pass a table from "
            "fairlab.published.table(paper, name)."
        )
    if not isinstance(ours, pd.DataFrame):
        raise TypeError(
            f"ours must be a pandas DataFrame with identifier columns and 'mean', got "
            f"{type(ours).__name__}."
        )
    if "mean" not in ours.columns:
        raise ValueError(
            f"ours must have a 'mean' column (and optionally 'std'); it has {list(ours.columns)}."
        )
    if unmatched not in ("raise", "report"):
        raise ValueError(f"unmatched must be 'raise' or 'report', got {unmatched!r}.")
    if on is not None:
        on = [on] if isinstance(on, str) else list(on)
        bad = [c for c in on if c not in ID_COLUMNS]
        if bad or not on:
            raise ValueError(
                f"on must name identifier columns among {list(ID_COLUMNS)}, got {on!r}."
            )
        absent = [c for c in on if c not in ours.columns]
        if absent:
            raise ValueError(f"on names column(s) {absent} that ours does not have.")

    pub = published.reset_index(drop=True)
    ours = ours.reset_index(drop=True)
    pub_keys = pd.DataFrame({c: _key_values(pub[c], c, "published") for c in ID_COLUMNS})
    ours_cols = [c for c in ID_COLUMNS if c in ours.columns]
    ours_keys = pd.DataFrame(
        {c: _key_values(ours[c], c, "ours") for c in ours_cols}, index=ours.index
    )
    try:
        ours_mean = pd.to_numeric(ours["mean"]).astype("float64").to_numpy()
        ours_std = (
            pd.to_numeric(ours["std"]).astype("float64").to_numpy()
            if "std" in ours.columns
            else np.full(len(ours), np.nan)
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(f"ours' 'mean' and 'std' columns must be numeric: {exc}.") from None

    n = len(pub)
    match = np.full(n, -1)
    used = np.zeros(len(ours), dtype=bool)
    lacking = set()
    signatures = {}
    for i in range(n):
        cols = tuple(on) if on is not None else tuple(c for c in ID_COLUMNS if pub_keys.at[i, c])
        signatures.setdefault(cols, []).append(i)
    for cols, rows in signatures.items():
        if any(c not in ours_keys.columns for c in cols):
            lacking.update(c for c in cols if c not in ours_keys.columns)
            continue
        index = {}
        for j, key in enumerate(zip(*(ours_keys[c] for c in cols))):
            index.setdefault(key, []).append(j)
        for i in rows:
            hits = index.get(tuple(pub_keys.at[i, c] for c in cols), [])
            if len(hits) > 1:
                raise ValueError(
                    f"ours has {len(hits)} rows (index {hits}) for the published cell "
                    f"{_describe(pub_keys.loc[i], cols)}; give one row per cell, e.g. "
                    f"ours.groupby({list(cols)}, as_index=False).agg(mean=('mean', 'mean'), "
                    "std=('mean', 'std')), "
                    "or pass on=[...] with more identifier columns."
                )
            if hits:
                match[i] = hits[0]
                used[hits[0]] = True

    leftover = np.flatnonzero(~used)
    report = []
    if len(leftover):
        report = [
            {c: _py(ours.at[j, c]) for c in (*ours_cols, "mean", "std") if c in ours.columns}
            for j in leftover
        ]
        if unmatched == "raise":
            hints = []
            if lacking:
                hints.append(
                    f"ours lacks column(s) {sorted(lacking)} that published rows match on"
                )
            for c in ours_cols:
                values = set(ours_keys.loc[leftover, c]) - set(pub_keys[c]) - {""}
                if values:
                    hints.append(
                        f"{c} value(s) {sorted(values)} do not occur in the published table "
                        f"(it has {sorted(set(pub_keys[c]) - {''})[:12]})"
                    )
            raise ValueError(
                f"{len(leftover)} row(s) of ours match no published row, e.g. {report[:5]}"
                + ("; " + "; ".join(hints) if hints else "")
                + ". Fix the identifiers, or pass unmatched='report' to list them in "
                "result.attrs['unmatched_ours']."
            )

    has = match >= 0
    take = np.where(has, match, 0)
    o_mean = np.where(has, ours_mean[take] if len(ours) else np.nan, np.nan)
    o_std = np.where(has, ours_std[take] if len(ours) else np.nan, np.nan)
    p_mean = pub["mean"].astype("float64").to_numpy()
    p_std = pub["std"].astype("float64").to_numpy()
    diff = o_mean - p_mean
    raws = pub["raw"].astype(str).tolist()
    within = [_within(diff[i], p_std[i], o_mean[i], raws[i]) for i in range(n)]

    out = pub[list(ID_COLUMNS)].copy()
    out["paper"] = pub["raw"].astype(str)
    out["paper_mean"] = p_mean
    out["paper_std"] = p_std
    out["ours_mean"] = o_mean
    out["ours_std"] = o_std
    out["difference"] = diff
    out["within"] = pd.array(within, dtype="boolean")
    out.attrs = {k: published.attrs[k] for k in ("paper", "name", "citation", "caption")
                 if k in published.attrs}
    if unmatched == "report":
        out.attrs["unmatched_ours"] = report
    return out
