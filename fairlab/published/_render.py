"""How a result table reaches the reader: the one renderer of the reproduction chapters.

Everything a chapter shows of a comparison goes through this module:

* :class:`SideBySide` (from :func:`side_by_side`) -- the paper's cells beside ours.  Its
  :meth:`~SideBySide.compact` view shows the means only (paper, ours and a coloured status mark
  per metric group) and fits the text column; the full view adds the standard deviations and
  the differences and is meant to be shown collapsed (:meth:`~SideBySide.collapsed`);
* :class:`ReaderTable` (from :func:`reader_table`) -- any other result table, with headers in
  words, numbers at fixed decimals and ``—`` plus its reason for a missing value;
* :class:`Verdict` (from :func:`verdict` and :func:`verdict_row`) -- one compact row per printed
  table or figure and the sentence generated from the same numbers;
* :class:`Details` -- tables behind a click (an HTML ``<details>`` element);
* :class:`Prose` -- a generated sentence, shown as Markdown (:func:`checks_prose`: checked claims
  as a list).

Every table keeps its label columns (method, k, ...) sticky when it scrolls sideways, writes
method names as the papers print them (``MbF-PCA (10⁻³)``), headers in words (never
``snake_case``), ``—`` for a missing value with its reason in a note under the table, and never
``-0.00``.  The plain-text form (``repr``) of each object is what the notebook tests compare.
"""

import html
import math
import numbers
import re

import numpy as np
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
_FIELD_HEADERS = {"paper": "paper", "ours": "ours", "Δ": "Δ", "": ""}

#: The mark of a value that is missing; its reason is given in a note under the table.
MISSING = "—"

#: Column and index names that are not words, with the words a reader sees instead.
HEADER_WORDS = {
    "var_pct": "%Var", "mmd2": "MMD²", "accuracy_pct": "%Acc", "delta_dp": "ΔDP",
    "mean_gap": "mean gap", "ci_low": "CI low", "ci_high": "CI high",
    "error_range": "error range", "n_splits": "splits", "n_runs": "runs",
    "n_train": "training rows", "n_test": "test rows", "train_on_test": "trained on the test rows",
    "train_test": "trained on the training rows", "linear_inseparability": "linear inseparability",
    "fit_seconds": "fit time (s)", "seconds": "time (s)", "seconds_std": "time std (s)",
    "in_ledger": "in the ledger", "paper_mean": "paper mean", "paper_std": "paper std",
    "ours_mean": "our mean", "ours_std": "our std", "k": "k", "eta": "η", "method": "method",
    "dataset": "data set", "model": "model", "metric": "metric",
    "max_cross_cov": "largest cross-covariance", "concept_accuracy": "concept accuracy",
    "label_accuracy": "label accuracy", "explained_variance": "explained variance",
    "dp_violation": "ΔDP", "disparate_impact": "disparate impact", "cov2_s": "Cov²",
    "hsic_s": "HSIC", "p_value": "p-value", "rbf_svm": "RBF SVM", "rbf_svr": "RBF SVR",
    "gradient_boosting": "gradient boosting", "balanced_accuracy": "balanced accuracy",
    "roc_auc": "ROC AUC", "hsic": "HSIC",
    "size_mb": "size (MB)", "shipped_mb": "shipped (MB, xz)", "base_rate": "base rate",
    "bias_kind": "bias measure", "n_privileged": "privileged rows",
    "n_unprivileged": "unprivileged rows", "rate_privileged": "privileged rate",
    "rate_unprivileged": "unprivileged rate", "kernel_svm_accuracy": "kernel SVM accuracy",
    "kernel_svm_dp": "kernel SVM ΔDP", "linear_svm_accuracy": "linear SVM accuracy",
    "linear_svm_dp": "linear SVM ΔDP", "mlp_accuracy": "MLP accuracy", "mlp_dp": "MLP ΔDP",
    "largest_mean_gap": "largest gap between group means", "bar_with_concept":
    "bar row, with the concept", "bar_without_concept": "bar row, without",
    "citation": "how to cite",
}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_SYMBOLS = ("k", "η", "eta", "d", "λ", "ε", "τ", "n")
_LATEX = re.compile(r"\$|\\[a-zA-Z]+")
_CELL = "padding:0.15em 0.5em;white-space:nowrap;"
_WRAP = "padding:0.15em 0.5em;text-align:left;white-space:normal;min-width:16em;max-width:36em;"
_STICKY = "position:sticky;left:0;z-index:1;background:var(--pst-color-background,#fff);"


def header_label(name):
    """A column or index name as a reader's label: words, never ``snake_case``.

    Known names come from :data:`HEADER_WORDS` (``"mean_gap"`` -> ``"mean gap"``,
    ``"ci_low"`` -> ``"CI low"``); any other name has its underscores replaced by spaces.
    A tuple (a MultiIndex column) is joined with spaces.
    """
    if isinstance(name, tuple):
        return " ".join(header_label(n) for n in name if n not in ("", None)).strip()
    if name is None:
        return ""
    text = str(name)
    return HEADER_WORDS.get(text, text.replace("_", " "))


def method_label(name):
    """A method name as the papers print it: exponents as superscripts (``10^-3`` -> ``10⁻³``)."""
    return re.sub(r"\^\{?(-?\d+)\}?", lambda m: m.group(1).translate(_SUPERSCRIPT), str(name))


def format_value(value, decimals=2):
    """One cell as text: fixed decimals, never ``-0.00``; ``—`` for None or NaN.

    Integers (and floats that are whole numbers where ``decimals`` is 0) print without
    decimals, booleans as ``yes``/``no``, strings as they are (method names with
    :func:`method_label`).  A dict, list or a string holding LaTeX is refused: a reader never
    sees one.

    Raises
    ------
    TypeError
        For a dict, list, tuple or set (format it into words first).
    ValueError
        For a string holding LaTeX (``$...$`` or a ``\\command``).
    """
    if value is None or value is pd.NA or value is pd.NaT:
        return MISSING
    if isinstance(value, (dict, list, tuple, set)):
        raise TypeError(f"a table cell must be a number or text, got the {type(value).__name__} "
                        f"{value!r}; format it into words first.")
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isnan(value):
            return MISSING
        text = f"{value:.{int(decimals)}f}"
        if text.startswith("-") and float(text) == 0:
            text = text[1:]  # -0.00 -> 0.00: the sign of a value that rounds to zero
        return text
    text = str(value)
    if _LATEX.search(text):
        raise ValueError(f"the cell {text!r} holds LaTeX; give the number (parse_cell) or words.")
    return method_label(text)


def format_range(values, decimals=2, unit=""):
    """The range of some numbers in words: ``27.8 % to 40.3 %``, or one value where both ends
    print alike (``100.0 %``)."""
    values = [float(v) for v in values]
    if not values:
        raise ValueError("format_range needs at least one value.")
    low, high = format_value(min(values), decimals), format_value(max(values), decimals)
    return f"{low}{unit}" if low == high else f"{low}{unit} to {high}{unit}"


def _key_label(name, value):
    """A row label of an outer level, e.g. ``k = 2``; a data set is its own label."""
    shown = format_value(value, 0) if isinstance(value, numbers.Real) else method_label(value)
    label = header_label(name)
    return f"{label} = {shown}" if label in _SYMBOLS else shown


def _notes_html(notes):
    return "".join(f'<div class="fairlab-table-note" style="font-size:0.78em;opacity:0.85">'
                   f"{html.escape(n)}</div>" for n in notes)


def _wrap(inner, title, notes):
    caption = (f'<caption style="caption-side:top;text-align:left;font-weight:600;'
               f'padding-bottom:0.3em">{html.escape(title)}</caption>' if title else "")
    return ('<div class="fairlab-table-wrap" style="overflow-x:auto;max-width:100%;'
            'margin-bottom:0.9em"><table class="fairlab-table" style="border-collapse:separate;'
            'border-spacing:0;font-size:0.82em;font-variant-numeric:tabular-nums">'
            f"{caption}{inner}</table>{_notes_html(notes)}</div>")


def _body_rows(keys, names, cells_of, n_cols):
    """Table body: outer key levels as spanning group rows, the last level as a sticky label."""
    out, last_group = [], None
    for i, key in enumerate(keys):
        key = key if isinstance(key, tuple) else (key,)
        group = tuple(key[:-1])
        if group and group != last_group:
            label = ", ".join(_key_label(n, v) for n, v in zip(names, group))
            out.append(f'<tr class="fairlab-group"><th colspan="{n_cols + 1}" style="{_CELL}'
                       f'text-align:left;font-weight:600;padding-top:0.5em">'
                       f"{html.escape(label)}</th></tr>")
            last_group = group
        out.append('<tr style="border-top:1px solid rgba(128,128,128,0.25)">')
        out.append(f'<th scope="row" class="fairlab-label" style="{_CELL}{_STICKY}'
                   f'text-align:left;font-weight:normal">{html.escape(method_label(key[-1]))}</th>')
        out += cells_of(i)
        out.append("</tr>")
    return "".join(out)


class ReaderTable:
    """A result table as a reader sees it (see the module docstring).

    Build it with :func:`reader_table`.

    Attributes
    ----------
    text : DataFrame
        The formatted cells (strings), headers in words.
    title : str
    notes : list of str
        The lines under the table: what ``—`` means in it, and ``note``.
    wrap : set of str
        The columns (headers in words) whose text wraps.
    """

    def __init__(self, text, *, title="", notes=(), wrap=()):
        self.text = text
        self.title = title
        self.notes = list(notes)
        self.wrap = set(wrap)

    def __repr__(self):
        head = f"{self.title}\n" if self.title else ""
        body = self.text.to_string() if len(self.text) else "(no rows)"
        return head + body + "".join(f"\n{n}" for n in self.notes)

    def _repr_html_(self):
        frame = self.text
        names = [header_label(n) for n in frame.index.names]
        head = ["<thead><tr>", f'<th style="{_CELL}{_STICKY}text-align:left">'
                f"{html.escape(names[-1])}</th>"]
        # headers in words may wrap (a column is as wide as its numbers, not its header)
        head += [f'<th style="padding:0.15em 0.5em;text-align:right;vertical-align:bottom;'
                 f'white-space:normal;min-width:4.5em;max-width:9em">{html.escape(str(c))}</th>'
                 for c in frame.columns]
        head.append("</tr></thead>")

        def cells(i):
            return [f'<td style="{_WRAP if c in self.wrap else _CELL + "text-align:right"}">'
                    f"{html.escape(str(v))}</td>" for c, v in zip(frame.columns, frame.iloc[i])]

        body = _body_rows(list(frame.index), names, cells, len(frame.columns))
        return _wrap("".join(head) + f"<tbody>{body}</tbody>", self.title, self.notes)


def reader_table(frame, *, title="", decimals=2, missing=None, note="", wrap=()):
    """Render any result table for a reader.

    Parameters
    ----------
    frame : DataFrame
        Its index names the rows (the label columns: one level, or several, whose outer levels
        become group rows such as ``k = 2``); a frame with an unnamed ``RangeIndex`` uses its
        first column as the label.  Cells are numbers, booleans or text.
    title : str, optional
        The caption.
    decimals : int or dict, default=2
        Decimals of every numeric column, or ``{column: decimals}`` (others: 2).
    missing : str or dict, optional
        Why a value is missing: one reason for every ``—``, or ``{column: reason}``.  A table
        with a missing value and no reason for it is refused.
    note : str, optional
        A line under the table.
    wrap : sequence of str, optional
        Columns of long text (a citation) that wrap, left-aligned, within a reading width,
        instead of staying on one line.

    Returns
    -------
    ReaderTable

    Raises
    ------
    ValueError
        A missing value without its reason, or a cell holding LaTeX.
    TypeError
        A cell holding a dict or a list.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}.")
    if isinstance(frame.index, pd.RangeIndex) and frame.index.name is None:
        frame = frame.set_index(frame.columns[0])
    notes, reasons = [], {}
    text = {}
    for col in frame.columns:
        places = decimals.get(col, 2) if isinstance(decimals, dict) else decimals
        values = [format_value(v, places) for v in frame[col]]
        if MISSING in values:
            reason = missing.get(col) if isinstance(missing, dict) else missing
            if not reason:
                raise ValueError(
                    f"column {col!r} has a missing value; say why with missing='...' or "
                    f"missing={{{col!r}: '...'}}.")
            reasons.setdefault(reason, []).append(header_label(col))
        text[header_label(col)] = values
    for reason, cols in reasons.items():
        where = "" if isinstance(missing, str) else f" ({', '.join(cols)})"
        notes.append(f"{MISSING}{where}: {reason}")
    if note:
        notes.append(note)
    out = pd.DataFrame(text, index=frame.index)
    out.index = out.index.set_names([header_label(n) for n in frame.index.names])
    out.index = out.index.map(lambda k: tuple(method_label(v) if isinstance(v, str) else v
                                              for v in k) if isinstance(k, tuple)
                              else (method_label(k) if isinstance(k, str) else k))
    unknown = set(wrap) - set(frame.columns)
    if unknown:
        raise ValueError(f"wrap names columns the table lacks: {sorted(map(str, unknown))}.")
    return ReaderTable(out, title=title, notes=notes, wrap={header_label(c) for c in wrap})


class Prose(str):
    """A generated sentence: a string that shows as Markdown in a notebook and in the book."""

    def _repr_markdown_(self):
        return str(self)

    def __repr__(self):
        return str(self)


class Details:
    """Tables behind a click: an HTML ``<details>`` element, collapsed until opened.

    Parameters
    ----------
    *parts : objects with ``_repr_html_``
        What the element holds (:class:`SideBySide`, :class:`ReaderTable`, ...).
    summary : str
        The line a reader clicks, e.g. ``"Table 1 in full: means ± std and differences"``.
    """

    def __init__(self, *parts, summary):
        if not summary:
            raise ValueError("summary must say what the collapsed detail holds.")
        bad = [type(p).__name__ for p in parts if not hasattr(p, "_repr_html_")]
        if bad:
            raise TypeError(f"Details holds tables with an HTML form; got {bad}.")
        self.parts = parts
        self.summary = summary

    def __repr__(self):
        return f"▸ {self.summary} ({len(self.parts)} table(s), collapsed)"

    def _repr_html_(self):
        inner = "".join(p._repr_html_() for p in self.parts)
        return (f'<details class="fairlab-details"><summary style="cursor:pointer;'
                f'font-weight:600">{html.escape(self.summary)}</summary>{inner}</details>')


# ----------------------------------------------------------------------------- side by side


def _number(mean, std, decimals):
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return MISSING
    text = format_value(mean, decimals)
    if std is not None and not (isinstance(std, float) and math.isnan(std)):
        text += f" ± {format_value(std, decimals)}"
    return text


def _signed(value, decimals):
    """A difference with its sign (``+0.12``, ``-0.05``, ``0.00`` for one that rounds to zero)."""
    text = format_value(value, decimals)
    return text if text.startswith("-") or float(text) == 0 else "+" + text


class SideBySide:
    """Printed and reproduced numbers side by side (see the module docstring).

    Its HTML form is the full table (paper mean ± std, ours, Δ, mark per metric group);
    :meth:`compact` gives the means-only view that fits the text column, :meth:`split` several
    compact views of a few groups each, and :meth:`collapsed` the full table behind a click.

    Attributes
    ----------
    frame : DataFrame
        Text cells; the row index is the paper's row, the columns a MultiIndex
        ``(group, field)`` with fields ``paper``, ``ours``, ``Δ`` and the mark.
    means : DataFrame
        The compact cells: columns ``(group, "paper")`` and ``(group, "ours")`` holding the
        means at the printed decimals.
    statuses : DataFrame
        The status of each (row, group), for colouring.
    title : str
    notes : list of str
        What ``—`` means in the table.
    """

    def __init__(self, frame, statuses, title="", *, means=None, notes=(), groups=None,
                 compact=False):
        self.frame = frame
        self.statuses = statuses
        self.title = title
        self.means = means if means is not None else frame
        self.notes = list(notes)
        self.groups = (list(dict.fromkeys(frame.columns.get_level_values(0))) if groups is None
                       else list(groups))
        self.is_compact = compact

    def _view(self, groups, compact, title):
        unknown = [g for g in groups if g not in self.groups]
        if unknown:
            raise ValueError(f"unknown metric group(s) {unknown}; the table has {self.groups}.")
        return SideBySide(self.frame, self.statuses, self.title if title is None else title,
                          means=self.means, notes=self.notes, groups=groups, compact=compact)

    def compact(self, groups=None, *, title=None):
        """The means-only view (paper, ours and the mark per group) of some or all groups."""
        return self._view(self.groups if groups is None else list(groups), True, title)

    def split(self, size=4, *, titles=None):
        """Compact views of ``size`` metric groups each, in the table's order.

        ``titles``: one title per view (default: the table's title and the groups shown).
        """
        chunks = [self.groups[i:i + size] for i in range(0, len(self.groups), size)]
        titles = titles or [f"{self.title}: {', '.join(c)}" if self.title else ", ".join(c)
                            for c in chunks]
        if len(titles) != len(chunks):
            raise ValueError(f"titles must have {len(chunks)} entries, one per view.")
        return [self.compact(c, title=t) for c, t in zip(chunks, titles)]

    def collapsed(self, summary=None):
        """The full table (means ± std, Δ) behind a click."""
        full = self._view(self.groups, False, self.title)
        return Details(full, summary=summary or f"{self.title or 'The table'} in full: "
                       "means ± std over the splits, and the differences")

    def _fields(self):
        return ("paper", "ours") if self.is_compact else _FIELDS

    def __repr__(self):
        head = f"{self.title}\n" if self.title else ""
        source = self.means if self.is_compact else self.frame
        cols = [(g, f) for g in self.groups for f in self._fields() if (g, f) in source.columns]
        body = source[cols].to_string() if len(source) else "(no cells)"
        return head + body + "".join(f"\n{n}" for n in self.notes)

    def _repr_html_(self):
        if not len(self.frame):
            return f"<p>{html.escape(self.title)}: no cells</p>"
        names = [header_label(n) for n in self.frame.index.names]
        fields = self._fields()
        source = self.means if self.is_compact else self.frame
        head = ["<thead><tr>", f'<th rowspan="2" style="{_CELL}{_STICKY}text-align:left">'
                f"{html.escape(names[-1])}</th>"]
        head += [f'<th colspan="{len(fields)}" style="{_CELL}text-align:center;'
                 f'border-bottom:1px solid #999">{html.escape(method_label(g))}</th>'
                 for g in self.groups]
        head.append("</tr><tr>")
        for _ in self.groups:
            head += [f'<th style="{_CELL}text-align:right;font-weight:normal">'
                     f"{_FIELD_HEADERS[f]}</th>" for f in fields]
        head.append("</tr></thead>")

        def cells(i):
            out = []
            for g in self.groups:
                status = (self.statuses[g].iloc[i] if g in self.statuses.columns
                          else "n/a")
                status = status if isinstance(status, str) else "n/a"
                colour = _STATUS_COLOUR.get(status, "inherit")
                mark = self.frame[(g, "")].iloc[i] if (g, "") in self.frame.columns else ""
                for f in fields:
                    value = source[(g, f)].iloc[i] if (g, f) in source.columns else ""
                    style = _CELL + "text-align:right;"
                    if f == "":
                        style += f"color:{colour};font-weight:700"
                    text = html.escape(str(value))
                    if self.is_compact and f == "ours" and mark:
                        text += (f' <span style="color:{colour};font-weight:700">'
                                 f"{html.escape(str(mark))}</span>")
                    out.append(f'<td style="{style}">{text}</td>')
            return out

        body = _body_rows(list(self.frame.index), self.frame.index.names, cells,
                          len(self.groups) * len(fields))
        legend = "; ".join(f"{m} {_STATUS_TEXT[s]}" for s, m in STATUS_MARKS.items()
                           if s in _STATUS_TEXT)
        what = ("Means; " if self.is_compact else "Mean ± std; Δ = ours − paper; ")
        notes = [what + legend + "."] + self.notes
        return _wrap("".join(head) + f"<tbody>{body}</tbody>", self.title, notes)


def side_by_side(compared, *, rows, group, decimals, title="", missing=None):
    """Render a :func:`~fairlab.published.compare` result (with a ``status`` column).

    Parameters
    ----------
    compared : DataFrame
        Output of ``compare`` with an added ``status`` column (keys of :data:`STATUS_MARKS`),
        and optionally ``n_splits``: a cell of ours on fewer splits or runs than the table's
        most shows its count, ``(n=3)``.
    rows : list of str
        Columns that name a printed row (e.g. ``["k", "method"]``), in the order shown; in
        HTML the outer ones become group rows (``k = 2``) and the last a sticky label column.
    group : callable
        ``group(row) -> str``: the metric group of a compared row (a column group).
    decimals : callable
        ``decimals(row) -> int``: the printed decimals of the row's metric.
    title : str, optional
    missing : callable or str, optional
        Why our number is missing from a cell (``missing(row) -> str``, or one reason); the
        default says whether the paper printed a number there.  Shown as a note under the
        table, after ``—``.

    Returns
    -------
    SideBySide
    """
    cells, means, statuses, reasons = {}, {}, {}, {}
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
        if pd.isna(r.ours_mean):
            if callable(missing):
                reason = missing(r)
            elif missing:
                reason = missing
            elif pd.isna(r.paper_mean):
                reason = "the paper prints no number here, and the measure is not computed"
            else:
                reason = "no number of ours yet"
            reasons[reason] = None
        g = group(r)
        key = tuple(getattr(r, c) for c in rows)
        key = tuple(int(v) if isinstance(v, float) and v.is_integer() else v for v in key)
        diff = r.difference
        cells.setdefault(key, {}).update({
            (g, "paper"): _number(r.paper_mean, r.paper_std, d),
            (g, "ours"): ours,
            (g, "Δ"): "" if pd.isna(diff) else _signed(diff, d),
            (g, ""): STATUS_MARKS.get(r.status, ""),
        })
        means.setdefault(key, {}).update({
            (g, "paper"): format_value(r.paper_mean, d),
            (g, "ours"): format_value(r.ours_mean, d),
        })
        statuses.setdefault(key, {})[g] = r.status
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=list(rows))
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    frame = frame.fillna("")
    mean_frame = pd.DataFrame.from_dict(means, orient="index")
    mean_frame.index = frame.index
    mean_frame.columns = pd.MultiIndex.from_tuples(mean_frame.columns)
    mean_frame = mean_frame.fillna("")
    status = pd.DataFrame.from_dict(statuses, orient="index")
    status.index = frame.index
    notes = [f"{MISSING}: {reason}" for reason in reasons]
    return SideBySide(frame, status, title, means=mean_frame, notes=notes)


# ----------------------------------------------------------------------------- verdict

_VERDICT_COLUMNS = {
    "printed": "printed cells",
    "shown": "with our number",
    "within": "within the paper's std",
    "equal": "equal at the printed decimals",
    "checks": "checks held",
}


def _index_label(index, key):
    """A row of a (Multi)Index in words: ``German Credit, k = 10, MLP``."""
    key = key if isinstance(key, tuple) else (key,)
    return ", ".join(_key_label(n, v) for n, v in zip(index.names, key))


def _as_checks(checks):
    """A claim check input as ``{claim: bool}``."""
    if checks is None:
        return {}
    if isinstance(checks, (list, tuple)):
        return {k: v for part in checks for k, v in _as_checks(part).items()}
    if isinstance(checks, pd.DataFrame):
        return {f"{_index_label(checks.index, idx)} · {col}": bool(v) for col in checks.columns
                for idx, v in checks[col].items()}
    if isinstance(checks, pd.Series):
        if checks.index.nlevels > 1 or checks.index.name is not None:
            named = {_index_label(checks.index, k): bool(v) for k, v in checks.items()}
            return ({f"{checks.name}: {k}": v for k, v in named.items()} if checks.name
                    else named)
        return {str(k): bool(v) for k, v in checks.items()}
    if isinstance(checks, dict):
        return {str(k): bool(v) for k, v in checks.items()}
    raise TypeError(f"checks must be a dict of claim -> bool, a Series or a DataFrame of "
                    f"booleans (or a list of them), got {type(checks).__name__}.")


def checks_prose(checks, *, held="holds", failed="fails"):
    """Checked claims as a Markdown list: ``- holds: <claim>`` or ``- **fails**: <claim>``.

    ``checks``: what :func:`verdict_row` takes (a dict of claim -> bool, a Series or DataFrame of
    booleans, or a list of them).  The list is generated from the checks, so the words follow the
    numbers.
    """
    claims = _as_checks(checks)
    if not claims:
        raise ValueError("checks holds no claim.")
    return Prose("\n".join(f"- {held}: {claim}" if ok else f"- **{failed}**: {claim}"
                           for claim, ok in claims.items()))


def verdict_row(item, compared=None, *, checks=None):
    """The verdict of one printed table or figure, as counts.

    Parameters
    ----------
    item : str
        What the row is about, in the book's words (``"Table 1 (Adult Income)"``, ``"Fig. 11.2
        (the paper's Figure 2)"``).
    compared : DataFrame, optional
        Its cells: a :func:`~fairlab.published.compare` result with ``status`` (from
        :func:`~fairlab.published.with_status`).  None for a figure, which prints no cells.
    checks : dict, Series or DataFrame of bool, or a list of them, optional
        The paper's stated conclusions checked on it: ``{claim: held}``; a Series or DataFrame
        names each check by its row (and column): ``"German Credit, k = 10, MLP · <column>"``.

    Returns
    -------
    dict
        ``item``, ``printed``, ``shown``, ``within``, ``equal`` (None without ``compared``),
        ``held``, ``checks`` (None without ``checks``) and ``failed`` (the claims that do not
        hold).
    """
    row = {"item": str(item), "printed": None, "shown": None, "within": None, "equal": None,
           "held": None, "checks": None, "failed": []}
    if compared is not None:
        need = {"ours_mean", "within", "status"} - set(compared.columns)
        if need:
            raise ValueError(f"compared lacks {sorted(need)}; pass compare(...) through "
                             "with_status(...).")
        row.update(printed=int(len(compared)), shown=int(compared["ours_mean"].notna().sum()),
                   within=int(compared["within"].fillna(False).astype(bool).sum()),
                   equal=int(compared["status"].isin(["equal", "mean equal"]).sum()))
    claims = _as_checks(checks)
    if claims:
        row.update(held=sum(claims.values()), checks=len(claims),
                   failed=[c for c, ok in claims.items() if not ok])
    return row


def _count(n, noun, plural=None):
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def _items(names):
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Verdict:
    """The verdict of a chapter: one row per printed table or figure, and its sentence.

    Attributes
    ----------
    rows : list of dict
        :func:`verdict_row` results.
    totals : dict
        ``printed``, ``shown``, ``within``, ``equal``, ``held``, ``checks`` summed over the rows.
    table : ReaderTable
    sentence : Prose
        Generated from :attr:`totals` and the failed claims; shown as Markdown.
    """

    def __init__(self, rows, *, title="", sentence=None):
        self.rows = list(rows)
        if not self.rows:
            raise ValueError("a verdict needs at least one row (verdict_row(...)).")
        self.title = title
        keys = ("printed", "shown", "within", "equal", "held", "checks")
        self.totals = {k: sum(r[k] for r in self.rows if r[k] is not None) for k in keys}
        self.table = self._table()
        self.sentence = Prose(sentence if sentence is not None else self._sentence())

    def _table(self):
        data = []
        for r in self.rows:
            entry = {"item": r["item"]}
            for key, label in _VERDICT_COLUMNS.items():
                if key == "checks":
                    entry[label] = (MISSING if r["checks"] is None
                                    else f"{r['held']} of {r['checks']}")
                else:
                    entry[label] = MISSING if r[key] is None else int(r[key])
            data.append(entry)
        frame = pd.DataFrame(data).set_index("item")
        frame.index.name = "the paper's table or figure"
        has_checks = any(r["checks"] is not None for r in self.rows)
        has_cells = any(r["printed"] is not None for r in self.rows)
        if not has_checks:
            frame = frame.drop(columns=_VERDICT_COLUMNS["checks"])
        if not has_cells:  # a paper that only draws figures: its claims are the verdict
            frame = frame.drop(columns=[_VERDICT_COLUMNS[k] for k in
                                        ("printed", "shown", "within", "equal")])
        notes = []
        if has_cells and any(r["printed"] is None for r in self.rows):
            notes.append(f"{MISSING} under the cells: a figure prints no cells; its stated "
                         "conclusions are checked instead.")
        if has_checks and any(r["checks"] is None for r in self.rows):
            notes.append(f"{MISSING} under checks: the paper states no conclusion about it "
                         "beyond its cells.")
        text = frame.astype(str)
        return ReaderTable(text, title=self.title, notes=notes)

    def _sentence(self):
        t = self.totals
        parts = []
        with_cells = [r["item"] for r in self.rows if r["printed"] is not None]
        if with_cells:
            parts.append(
                f"Of the {_count(t['printed'], 'cell')} printed in {_items(with_cells)}, "
                f"{t['shown']} have our number: {t['within']} of them lie within the paper's "
                f"standard deviation and {t['equal']} equal the printed value at its decimals.")
        if t["checks"]:
            failed = [c for r in self.rows for c in r["failed"]]
            line = (f"{t['held']} of the {_count(t['checks'], 'check')} of the paper's stated "
                    f"conclusions {'holds' if t['held'] == 1 else 'hold'}")
            if failed:
                line += f"; {_count(len(failed), 'fails', 'fail')}: " + "; ".join(failed)
            parts.append(line + ".")
        return " ".join(parts)

    def __repr__(self):
        return f"{self.table!r}\n\n{self.sentence}"

    def _repr_html_(self):
        return (self.table._repr_html_()
                + f'<p class="fairlab-verdict-sentence">{html.escape(self.sentence)}</p>')


def verdict(rows, *, title="", sentence=None):
    """A chapter's verdict from :func:`verdict_row` results (see :class:`Verdict`).

    ``sentence``: a sentence of the caller's (built from the same numbers) instead of the
    generated one.
    """
    return Verdict(rows, title=title, sentence=sentence)
