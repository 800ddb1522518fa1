"""A side-by-side table of printed and reproduced numbers, readable as text and as HTML.

One renderer for every reproduction chapter: each metric group (a metric, or a metric of one
downstream model) has four columns — the paper's cell (mean ± std, as printed), ours (mean ±
std), the difference of the means and a status mark — and each row is one printed row of the
paper (e.g. ``k``, ``method``).  In a notebook the HTML form is shown: a compact table that keeps
to the text column and scrolls inside its own box when it must, with a legend.  Its plain-text
form (``repr``) is what the notebook tests compare.
"""

import html
import math

import pandas as pd

#: Status -> mark, in the order of the legend.
STATUS_MARKS = {"equal": "=", "mean equal": "≈", "within std": "~", "differs": "✗", "n/a": ""}
_STATUS_TEXT = {
    "equal": "mean and std equal the printed ones at the printed decimals",
    "mean equal": "mean equal at the printed decimals, std not",
    "within std": "the difference is within the paper's std",
    "differs": "the difference exceeds the paper's std",
}
_STATUS_COLOUR = {"equal": "#1a7f37", "mean equal": "#4c9a2a", "within std": "#9a6700",
                  "differs": "#cf222e", "n/a": "inherit"}
_FIELDS = ("paper", "ours", "Δ", "")


def _number(mean, std, decimals):
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "n/a"
    text = f"{mean:.{decimals}f}"
    if std is not None and not (isinstance(std, float) and math.isnan(std)):
        text += f" ± {std:.{decimals}f}"
    return text


class SideBySide:
    """Printed and reproduced numbers side by side (see the module docstring).

    Attributes
    ----------
    frame : DataFrame
        Text cells; the row index is the paper's row, the columns a MultiIndex
        ``(group, field)`` with fields ``paper``, ``ours``, ``Δ`` and the mark.
    statuses : DataFrame
        The status of each (row, group), for colouring.
    title : str
    """

    def __init__(self, frame, statuses, title=""):
        self.frame = frame
        self.statuses = statuses
        self.title = title

    def __repr__(self):
        head = f"{self.title}\n" if self.title else ""
        return head + (self.frame.to_string() if len(self.frame) else "(no cells)")

    def _repr_html_(self):
        if not len(self.frame):
            return f"<p>{html.escape(self.title)}: no cells</p>"
        groups = list(dict.fromkeys(self.frame.columns.get_level_values(0)))
        names = [n or "" for n in self.frame.index.names]
        cell = "padding:0.15em 0.45em;white-space:nowrap;"
        out = ['<div class="fairlab-side-by-side" style="overflow-x:auto;max-width:100%;'
               'margin-bottom:0.8em">', '<table style="border-collapse:collapse;'
               'font-size:0.82em;font-variant-numeric:tabular-nums">']
        if self.title:
            out.append(f'<caption style="text-align:left;font-weight:600;padding-bottom:0.3em">'
                       f"{html.escape(self.title)}</caption>")
        out.append("<thead><tr>")
        out += [f'<th rowspan="2" style="{cell}text-align:left">{html.escape(n)}</th>'
                for n in names]
        out += [f'<th colspan="4" style="{cell}text-align:center;border-bottom:1px solid #999">'
                f"{html.escape(g)}</th>" for g in groups]
        out.append("</tr><tr>")
        for _ in groups:
            out += [f'<th style="{cell}text-align:right;font-weight:normal">{f}</th>'
                    for f in _FIELDS]
        out.append("</tr></thead><tbody>")
        for row_key, row in self.frame.iterrows():
            keys = row_key if isinstance(row_key, tuple) else (row_key,)
            out.append('<tr style="border-top:1px solid rgba(128,128,128,0.25)">')
            out += [f'<td style="{cell}text-align:left">{html.escape(str(k))}</td>' for k in keys]
            for g in groups:
                status = self.statuses.loc[row_key, g] if g in self.statuses.columns else "n/a"
                status = status if isinstance(status, str) else "n/a"
                colour = _STATUS_COLOUR.get(status, "inherit")
                for f in _FIELDS:
                    value = html.escape(str(row[(g, f)]))
                    style = cell + "text-align:right;"
                    if f == "":
                        style += f"color:{colour};font-weight:700"
                    out.append(f'<td style="{style}">{value}</td>')
            out.append("</tr>")
        out.append("</tbody></table>")
        legend = "; ".join(f"<b>{m}</b> {_STATUS_TEXT[s]}" for s, m in STATUS_MARKS.items()
                           if s in _STATUS_TEXT)
        out.append(f'<div style="font-size:0.78em;opacity:0.8">{legend}; Δ = ours − paper.'
                   "</div></div>")
        return "".join(out)


def side_by_side(compared, *, rows, group, decimals, title=""):
    """Render a :func:`~fairlab.published.compare` result (with a ``status`` column).

    Parameters
    ----------
    compared : DataFrame
        Output of ``compare`` with an added ``status`` column (keys of :data:`STATUS_MARKS`),
        and optionally ``n_splits``: a cell of ours on fewer splits or runs than the table's
        most shows its count, ``(n=3)``.
    rows : list of str
        Columns that name a printed row (e.g. ``["k", "method"]``), in the order shown.
    group : callable
        ``group(row) -> str``: the metric group of a compared row (a column group).
    decimals : callable
        ``decimals(row) -> int``: the printed decimals of the row's metric.
    title : str, optional

    Returns
    -------
    SideBySide
    """
    cells, statuses = {}, {}
    if compared.empty:
        empty = pd.DataFrame(index=pd.MultiIndex.from_tuples([], names=list(rows)),
                             columns=pd.MultiIndex.from_tuples([], names=[None, None]))
        return SideBySide(empty, pd.DataFrame(index=empty.index), title)
    full = compared["n_splits"].max() if "n_splits" in compared.columns else None
    for r in compared.itertuples(index=False):
        d = decimals(r)
        ours = _number(r.ours_mean, r.ours_std, d)
        if full is not None and not pd.isna(r.n_splits) and r.n_splits < full:
            ours += f" (n={int(r.n_splits)})"  # fewer splits or runs than the rest of the table
        g = group(r)
        key = tuple(getattr(r, c) for c in rows)
        key = tuple(int(v) if isinstance(v, float) and v.is_integer() else v for v in key)
        diff = r.difference
        cells.setdefault(key, {}).update({
            (g, "paper"): _number(r.paper_mean, r.paper_std, d),
            (g, "ours"): ours,
            (g, "Δ"): "" if pd.isna(diff) else f"{diff:+.{d}f}",
            (g, ""): STATUS_MARKS.get(r.status, ""),
        })
        statuses.setdefault(key, {})[g] = r.status
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=list(rows))
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    frame = frame.fillna("")
    status = pd.DataFrame.from_dict(statuses, orient="index")
    status.index = frame.index
    return SideBySide(frame, status, title)
