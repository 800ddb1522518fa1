"""Figures shared by the notebooks (seaborn/matplotlib, colour-blind-safe palette).

* :func:`book_style` — the one style of the book: figure sizes for its text column, text that
  stays legible there, SVG output, and how pandas shows tables; every chapter calls it once;
* :func:`method_style` — the one colour, marker and line of each method (:data:`METHOD_STYLES`),
  the same in every figure of the book;
* :func:`axis_label` — a column name in words with its unit (``"var_pct"`` → "variance
  explained (%)"), for any axis the functions below do not label themselves;
* :func:`legend_outside` — a legend beside or below the axes, never over the data;
* :func:`panel_grid` — several panels that fit the text column, wrapped into rows, and
  :func:`figure_legend`, one legend below them all;
* :func:`figure_svg` — the SVG of a figure, byte for byte the same on every run and machine;
* :func:`plot_tradeoff` — accuracy vs fairness-violation curves (Kleindessner et al.
  Fig. 4/8, De-Diego et al. Fig. 1/4), one curve per method, points ordered by the swept
  parameter;
* :func:`plot_boxplots` — one box per method (and optionally per setting) of a metric over
  splits (Kleindessner et al. Fig. 2);
* :func:`plot_runtime` — log-log running time vs problem size (Kleindessner et al. Fig. 3/7/9);
* :func:`plot_embedding` — a 2-D representation coloured by group (Kleindessner et al. Fig. 1,
  De-Diego et al. Fig. 6);
* :func:`plot_component_map` — a component of a fitted transformer as a background colour map
  over a 2-D input grid (Pérez-Suay et al. Fig. 2/3);
* :func:`plot_concept_erasure` — a grid of images: originals, then their PCA / Fair PCA / Fair
  PCA-S reconstructions, one row each (Kleindessner et al. Fig. 5 and Figs. 10–15);
* :func:`plot_leakage` — the adversaries of a leakage audit (:func:`fairlab.metrics.leakage`):
  each score with its confidence interval and its chance level.

Every plotting function takes its data and an optional ``ax`` and returns the
:class:`~matplotlib.axes.Axes` with labelled axes (units in brackets) and its legend outside the
data.  Colours come from seaborn's ``"colorblind"`` palette; a method is drawn in the colour and
with the marker :func:`method_style` gives it, in every figure, and markers differ between
methods so that figures also read in grey scale.  Where a paper printed the numbers a figure
shows, ``published=`` draws them beside ours: the same colour and marker, hollow (see
:data:`PAPER_LABEL`).

Sizes.  The book's text column is :data:`COLUMN_WIDTH_PX` = 660 CSS px wide.  A figure of width
:math:`w` inches is drawn as SVG :math:`96\\,w` px wide (1 in = 96 CSS px) and shrunk to the column
when wider, so a text of :math:`f` points is displayed at
:math:`\\tfrac{96}{72} f \\cdot \\min(1,\\, 660 / 96 w)` px.  :func:`book_style` keeps
:math:`w \\le` :data:`COLUMN_WIDTH` = 6.875 in (no shrinking) and every text at
:data:`MIN_FONT_PT` = 8 pt or more, that is 10.7 px or more.
"""

import io
import re
import zlib

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.ticker import MaxNLocator

from ._core.validation import check_int

__all__ = [
    "COLUMN_WIDTH",
    "LABELS",
    "METHOD_STYLES",
    "PALETTE",
    "PAPER_LABEL",
    "axis_label",
    "book_style",
    "figure_legend",
    "figure_svg",
    "legend_outside",
    "method_style",
    "panel_grid",
    "plot_boxplots",
    "plot_component_map",
    "plot_concept_erasure",
    "plot_embedding",
    "plot_leakage",
    "plot_runtime",
    "plot_tradeoff",
]

#: colour-blind-safe qualitative palette (Wong 2011 / seaborn "colorblind")
PALETTE = sns.color_palette("colorblind")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")

#: The one style of each method in the book's figures: an index into :data:`PALETTE` and a
#: matplotlib marker.  Methods that share a figure differ in colour or marker (variants of one
#: method, e.g. Fair PCA-S at two thresholds, share its colour and differ in marker); a name
#: ending in ``\S`` (Pérez-Suay et al.: the sensitive features left out of the inputs) is its
#: method's style with a dashed line.  Names are the papers' spellings, as in
#: :mod:`fairlab.published` and the ledgers.
METHOD_STYLES = {
    # Kleindessner et al. (2023), Tables 1-4 and Figs. 2-9
    "PCA": (7, "o"),
    "Fair PCA": (0, "s"),
    "Fair PCA-S": (2, "^"),
    "Fair PCA-S (0.5)": (2, "v"),
    "Fair PCA-S (0.85)": (2, "^"),
    "Fair Kernel PCA": (4, "D"),
    "FPCA (0, 0.01)": (1, "P"),
    "FPCA (0.1, 0.01)": (1, "X"),
    "MbF-PCA (10^-3)": (3, "<"),
    "MbF-PCA (10^-6)": (3, ">"),
    "INLP": (5, "h"),
    "RLACE": (6, "*"),
    "Reductions": (1, "p"),
    "Fair PCA of Samadi et al. 2018": (9, "d"),
    # De-Diego et al. (2025)
    "PLS": (7, "v"),
    "Fair PLS": (3, "o"),
    # Pérez-Suay et al. (2017), Figs. 4-6
    "LR": (0, "X"),
    "FLR": (0, "o"),
    "KRR": (1, "X"),
    "FKR": (1, "o"),
    "KPCA": (1, "s"),
    "FDR": (3, "*"),
    "KFDR": (4, "D"),
    # the erasers and the other compared methods
    "LEACE": (9, "v"),
    "SAL": (5, "s"),
}

#: Legend entry of a paper's printed values, drawn hollow in the method's colour and marker.
PAPER_LABEL = "paper (hollow)"

#: axis labels (with units) for the column names used by :mod:`fairlab.evaluation`
LABELS = {
    "accuracy": "accuracy (fraction correct)",
    "dp_violation": r"$\Delta_{DP}$ = |P(Ŷ=1|Z=0) − P(Ŷ=1|Z=1)|",
    "eo_violation": r"$\Delta_{EO}$ = |TPR$_0$ − TPR$_1$|",
    "disparate_impact": "disparate impact P(Ŷ=1|S=0) / P(Ŷ=1|S=1)",
    "explained_variance": "explained variance (%)",
    "mmd2": "MMD² (dimensionless)",
    "linear_inseparability": "linear inseparability (error rate)",
    "seconds": "running time (s)",
    "seconds_min": "running time, fastest repeat (s)",
    "mse": "mean squared error",
    "hsic": "HSIC(f, S)",
    "ks": "KS distance",
    "cov2_y": "Cov²(r(X), Y)",
    "cov2_s": "Cov²(r(X), S)",
    "d": "data dimension d",
    "k": "target dimension k",
    "n": "number of samples n",
    "lam": "λ",
    "eta": "η",
    "mu": "μ",
    "var_pct": "variance explained (%)",
    "explained_variance_pct": "variance explained (%)",
    "reconstruction_error": "reconstruction error (mean squared)",
    "balanced_accuracy": "balanced accuracy (fraction)",
    "auc": "ROC AUC (fraction)",
    "r2": "R² (fraction of variance)",
    "seconds_mean": "running time, mean of repeats (s)",
    "n_components": "number of components k",
    "n_train": "training rows n",
    "eps": "ε (fairness tolerance)",
    "tau": "threshold τ",
    "gamma": "kernel width γ",
    "l": "l (covariance directions kept)",
}

#: width of the book's text column in CSS pixels, and in inches at 96 px per inch
COLUMN_WIDTH_PX = 660
COLUMN_WIDTH = COLUMN_WIDTH_PX / 96
#: smallest text a book figure draws, in points (8 pt = 10.7 CSS px)
MIN_FONT_PT = 8

_BOOK_RC = {
    "figure.figsize": (COLUMN_WIDTH, 3.4),
    "figure.dpi": 96,
    "savefig.dpi": 96,
    "figure.constrained_layout.use": True,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.title_fontsize": 9,
    "figure.titlesize": 11,
    "legend.frameon": False,
    # text stays text in the SVG: legible at any zoom, searchable, and its size can be checked
    "svg.fonttype": "none",
}

#: pandas display options of the book: every column of a table and up to 200 rows are shown, and
#: text cells up to 120 characters (method names, settings); the width of the plain-text form is
#: pandas' own (80 characters), which also fits the PDF's text column.
BOOK_TABLES = {
    "display.max_columns": None,
    "display.max_rows": 200,
    "display.max_colwidth": 120,
}


def book_style(*, svg=True):
    """Set the one style of the book, figures and tables (call it once, at the top of a chapter).

    The style is seaborn's ``"whitegrid"`` with the colour-blind-safe palette, figures
    :data:`COLUMN_WIDTH` inches (660 CSS px) wide by default, and text sizes from 9 to 11 pt
    (12 to 14.7 px at that width), with constrained layout, so that a legend placed outside
    the axes is counted in the figure's size instead of being cut off or widening it.  Tables
    follow :data:`BOOK_TABLES` (pandas display options).

    Parameters
    ----------
    svg : bool, default=True
        In IPython/Jupyter, also show figures as SVG (:func:`figure_svg`) instead of PNG, at
        exactly their ``figsize`` (no trimming by ``bbox_inches="tight"``), so that a figure
        of :data:`COLUMN_WIDTH` inches fills the column and is never shrunk.  Outside IPython
        only the matplotlib settings change.
    """
    sns.set_theme(style="whitegrid", palette="colorblind", rc=_BOOK_RC)
    for option, value in BOOK_TABLES.items():
        pd.set_option(option, value)
    if svg:
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - IPython ships with the book extra
            get_ipython = None
        shell = get_ipython() if get_ipython is not None else None
        if shell is not None:
            from matplotlib.figure import Figure
            from matplotlib_inline.backend_inline import set_matplotlib_formats

            set_matplotlib_formats("svg")  # and no PNG
            shell.display_formatter.formatters["image/svg+xml"].for_type(Figure, figure_svg)


# a number with more than two decimals inside an attribute value of the SVG
_ATTRIBUTE = re.compile(r'="([^"]*)"')
_LONG_DECIMAL = re.compile(r"\d+\.\d{3,}")


def _two_decimals(match):
    return f"{float(match.group()):.2f}".rstrip("0").rstrip(".")


# an element id that matplotlib makes by hashing the element's unrounded geometry (``p``: a clip
# path, ``m``: a marker, ``h``: a hatch), e.g. ``id="p562c9cb758"``
_HASHED_ID = re.compile(r'\bid="([a-z][0-9a-f]{10})"')


def _renumber_hashed_ids(svg):
    """Name each hashed element id by its order of appearance (``p562c9cb758`` → ``p1``).

    matplotlib hashes a clip rectangle's bounds at full precision, so a last-bit difference in an
    axes' position (constrained layout after data that differ in their last bits) renames the clip
    path, although every drawn coordinate is the same at 0.01 pt.
    """
    names = {}
    for old in _HASHED_ID.findall(svg):
        names.setdefault(old, f"{old[0]}{len(names) + 1}")
    if not names:
        return svg
    return re.sub(r"\b(" + "|".join(names) + r")\b", lambda m: names[m.group()], svg)


#: Marks (points, cells, paths) above which a plotted collection is embedded in the SVG as an
#: image at 150 dpi, the text and axes staying vector: a dense scatter or contour as vectors is
#: megabytes of markup for no visible gain.
DENSE_MARKS = 2000


def figure_svg(fig):
    """The SVG text of ``fig`` at its ``figsize``, the same for the same figure on any machine.

    A notebook stores its figures and ``nbval`` compares them on re-execution, so the SVG must
    not change between runs: it carries no date, its element ids come from a fixed salt
    (``svg.hashsalt``) instead of random ones, and every coordinate and length in its markup
    is rounded to 0.01 pt (0.013 px, far below what a screen shows).  The rounding makes the
    text independent of the last bits of the plotted numbers, which differ with the BLAS kernel
    and thread count; text content (labels, tick values) is left as drawn.  The ids matplotlib
    hashes from unrounded geometry (clip paths, markers) are renamed by order of appearance, so
    they do not carry those last bits either.

    Collections of more than :data:`DENSE_MARKS` marks are embedded as images (the notebook
    tests mask embedded image data, as they leave PNG figures uncompared).

    Returns ``None`` for a figure with nothing drawn, as IPython's own formatters do.
    """
    if not fig.axes and not fig.artists and not fig.texts and not fig.images:
        return None
    for ax in fig.axes:  # thousands of marks or cells as vectors make megabytes of markup
        for artist in [*ax.collections, *ax.images]:
            marks = len(getattr(artist, "get_offsets", lambda: ())())
            paths = len(artist.get_paths()) if hasattr(artist, "get_paths") else 0
            if max(marks, paths) > DENSE_MARKS or hasattr(artist, "get_array") and \
                    getattr(artist.get_array(), "size", 0) > DENSE_MARKS:
                artist.set_rasterized(True)
    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "fairlab", "svg.fonttype": "none",
                         "savefig.dpi": 150}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = _ATTRIBUTE.sub(
        lambda m: '="' + _LONG_DECIMAL.sub(_two_decimals, m.group(1)) + '"', buffer.getvalue())
    return _renumber_hashed_ids(svg)


def axis_label(name, unit=None):
    """A column name in words with its unit, for an axis or a legend title.

    Known names (the columns of :mod:`fairlab.evaluation` and of the chapters' tables, listed in
    :data:`LABELS`) get their label, ``"var_pct"`` → "variance explained (%)".  Another name has
    its underscores replaced by spaces; ``unit`` is appended in brackets.

    Parameters
    ----------
    name : str
        The column name.
    unit : str, optional
        Unit of a name that :data:`LABELS` does not know, e.g. ``"s"``.

    Examples
    --------
    >>> axis_label("var_pct")
    'variance explained (%)'
    >>> axis_label("fit_time", "s")
    'fit time (s)'
    """
    if name in LABELS and unit is None:
        return LABELS[name]
    text = LABELS.get(name, str(name).replace("_", " "))
    return f"{text} ({unit})" if unit else text


def _label(name):
    return LABELS.get(name, str(name))


def method_style(name):
    """The colour, marker and line style of a method, the same in every figure.

    Known methods (:data:`METHOD_STYLES`) have a fixed style; a name with a setting appended
    after " · " (``"PCA · Lee et al.'s loadings"``) has its method's; a name ending in ``\\S``
    has its method's with a dashed line.  Any other name gets a style computed from the name
    itself (a CRC-32 checksum), so that it too looks the same in every figure.

    Parameters
    ----------
    name : str
        The method's name, as the papers print it.

    Returns
    -------
    dict
        ``{"color": (r, g, b), "marker": str, "linestyle": "-" or "--"}``, keyword arguments
        of :meth:`~matplotlib.axes.Axes.plot`.

    Examples
    --------
    >>> method_style("Fair PCA")["marker"]
    's'
    >>> method_style("FKR\\S")["linestyle"]
    '--'
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a method's name (str); got {type(name).__name__}.")
    base = name.split(" · ")[0].strip()
    linestyle = "-"
    if base.endswith("\\S") and base not in METHOD_STYLES:
        base, linestyle = base[:-2], "--"
    if base in METHOD_STYLES:
        colour, marker = METHOD_STYLES[base]
    else:
        code = zlib.crc32(base.encode("utf-8"))
        colour, marker = code % len(PALETTE), _MARKERS[(code // len(PALETTE)) % len(_MARKERS)]
    return {"color": PALETTE[colour], "marker": marker, "linestyle": linestyle}


def _paper_handle(ax):
    """One legend entry for the paper's values (hollow grey marker), drawn nowhere."""
    return ax.plot([], [], linestyle="none", marker="o", markerfacecolor="white",
                   markeredgecolor="0.35", markersize=6, label=PAPER_LABEL)[0]


def _draw_published(ax, published, x, y, hue, func):
    """The paper's printed values on ``ax``: each method's marker, hollow, in its colour.

    ``published`` has the columns ``x``, ``y`` and ``hue`` (or no ``hue`` column: one style),
    and optionally ``relation`` (``"<"``, ``">"`` or ``"≈"``/``"="``, as the paper's text gives
    a bound or a value): a bound gets a short arrow in its direction.
    """
    _require_columns(published, [x, y, hue if hue in published.columns else None], func)
    rows = published.dropna(subset=[x, y])
    for row in rows.itertuples(index=False):
        row = row._asdict()
        name = str(row[hue]) if hue in rows.columns else ""
        style = method_style(name)
        xv, yv = float(row[x]), float(row[y])
        ax.plot([xv], [yv], linestyle="none", marker=style["marker"], markersize=8,
                markerfacecolor="white", markeredgecolor=style["color"], markeredgewidth=1.6,
                zorder=4)
        relation = str(row.get("relation", "")).strip()
        if relation in ("<", ">"):
            ax.annotate("", xy=(xv, yv), xytext=(0, -18 if relation == "<" else 18),
                        textcoords="offset points",
                        arrowprops={"arrowstyle": "<-", "color": style["color"], "lw": 1.2,
                                    "shrinkA": 0, "shrinkB": 5})
    if len(rows):
        _paper_handle(ax)


def legend_outside(ax, *, where="right", title=None, **kwargs):
    """Draw the legend of ``ax`` outside its data: to the right of it, or below it.

    With constrained layout (set by :func:`book_style`) the axes shrink to make room, so the
    figure keeps its width.  ``where="below"`` suits a figure of several panels side by side.
    Returns the :class:`~matplotlib.legend.Legend` (``None`` when ``ax`` has nothing labelled).
    """
    if where not in ("right", "below"):
        raise ValueError(f"where must be 'right' or 'below'; got {where!r}.")
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if where == "right":
        place = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0}
    else:
        place = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.2), "borderaxespad": 0.0,
                 "ncols": min(len(handles), 4)}
    place.update(kwargs)
    return ax.legend(handles, labels, title=title, **place)


def panel_grid(n_panels, *, ncols=2, panel_height=2.6, sharex=False, sharey=False):
    """A figure of ``n_panels`` axes as wide as the text column, wrapped into rows.

    Panels side by side in one row become thumbnails once there are more than two of them (a
    five-panel row gives each about 130 px, on a phone 70), so the panels fill ``ncols``
    columns and as many rows as needed, each row ``panel_height`` inches high; the axes a
    last, incomplete row does not use are removed.

    Parameters
    ----------
    n_panels : int
        Number of panels, at least 1.
    ncols : int, default=2
        Panels per row (fewer when there are fewer panels).
    panel_height : float, default=2.6
        Height of one row in inches.
    sharex, sharey : bool or {"row", "col", "all", "none"}, default=False
        As :func:`matplotlib.pyplot.subplots`.

    Returns
    -------
    fig : matplotlib Figure
    axes : ndarray of shape (n_panels,)
        The panels in reading order.
    """
    n_panels = check_int(n_panels, "n_panels", minimum=1)
    ncols = min(check_int(ncols, "ncols", minimum=1), n_panels)
    nrows = -(-n_panels // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, panel_height * nrows),
                             sharex=sharex, sharey=sharey, squeeze=False,
                             layout="constrained")
    axes = axes.ravel()
    for ax in axes[n_panels:]:
        ax.remove()
    return fig, axes[:n_panels]


def figure_legend(fig, axes=None, *, title=None, ncols=None):
    """One legend below the panels of ``fig``, from the labelled artists of all ``axes``.

    Each label appears once, in the order first met; the panels' own legends are removed.
    With constrained layout (:func:`book_style`, :func:`panel_grid`) the panels shrink to make
    room, so the legend never covers data.  Returns the :class:`~matplotlib.legend.Legend`
    (``None`` when nothing is labelled).
    """
    axes = fig.axes if axes is None else list(np.ravel(axes))
    entries = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    if not entries:
        return None
    ncols = min(len(entries), 4) if ncols is None else ncols
    return fig.legend(list(entries.values()), list(entries), title=title, ncols=ncols,
                      loc="outside lower center")


def _get_ax(ax, figsize=(COLUMN_WIDTH, 3.4)):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _require_columns(data, columns, func):
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"{func} expects a tidy pandas DataFrame; got {type(data).__name__}.")
    missing = [c for c in columns if c is not None and c not in data.columns]
    if missing:
        raise ValueError(
            f"{func}: column(s) {missing} not in the data; available: {list(data.columns)}."
        )


def _ticks(ax, nbins=4):
    """At most ``nbins`` + 1 ticks per linear axis: tick labels that never run together."""
    if ax.get_xscale() == "linear":
        ax.xaxis.set_major_locator(MaxNLocator(nbins))
    if ax.get_yscale() == "linear":
        ax.yaxis.set_major_locator(MaxNLocator(nbins))


def _symbol(param, param_labels, name):
    """The reader's symbol of the swept parameter of curve ``name``, or None (no label)."""
    if isinstance(param_labels, dict):
        return param_labels.get(name, param_labels.get(None))
    if param_labels is not None:
        return param_labels
    label = LABELS.get(param)
    return label if label is not None and len(label) <= 3 else None  # "λ", never "param"


def _annotate_apart(ax, labels, points, *, apart=0.08):
    """Write each ``(x, y, text, colour)`` label beside its point unless it would sit on another.

    Distances are measured in fractions of the data's range on each axis: a label closer than
    ``apart`` to one already written (curves that end at the same point, the two ends of a short
    curve) is left out, so that no two labels overlap each other.
    """
    if not labels:
        return
    xy = np.asarray(points, dtype=float)
    span = np.ptp(xy, axis=0)
    span[~(span > 0)] = 1.0
    placed = []
    for x, y, text, colour in labels:
        here = np.array([x, y]) / span
        if any(np.max(np.abs(here - other)) < apart for other in placed):
            continue
        placed.append(here)
        ax.annotate(text, (x, y), fontsize=MIN_FONT_PT, xytext=(4, 4), textcoords="offset points",
                    color=colour)


def plot_tradeoff(results, *, x="dp_violation", y="accuracy", hue="method", param=None,
                  errorbars=True, annotate=True, param_labels=None, published=None,
                  legend="right", ax=None):
    """Accuracy-vs-violation trade-off curves, averaged over splits.

    Each curve is drawn in its method's style (:func:`method_style`).

    Parameters
    ----------
    results : DataFrame
        Tidy results, e.g. from :func:`fairlab.evaluation.sweep` (one row per value × split),
        possibly concatenated over methods with a ``method`` column.
    x, y : str
        Columns on the axes (default Δ_DP and accuracy, as Kleindessner et al. Fig. 4).
    hue : str or None
        Column distinguishing the curves (ignored when absent from ``results``).
    param : str or None
        Swept parameter (``"lam"``, ``"eta"``, ``"mu"``…): points are averaged per value and joined
        in its order; ``None`` averages nothing and joins the points in the order of ``x``.
    errorbars : bool
        Draw ±1 std over splits in both directions.
    annotate : bool
        Write the parameter's value at the two ends of each curve, as "λ = 0", with the symbol
        of ``param_labels``; a curve whose parameter has no symbol is not annotated (a column
        name such as ``param`` is never shown), and a label that would sit on another one (curves
        ending at the same point) is left out.
    param_labels : str or dict, optional
        The symbol of the swept parameter: one for every curve (``"λ"``), or one per ``hue``
        value (``{"Reductions": "ε", None: "λ"}``, the key ``None`` for the others).  Default:
        the symbol :data:`LABELS` gives ``param`` (``"lam"`` → λ), if it is one.
    published : DataFrame, optional
        The paper's printed values, with the columns ``x``, ``y`` and ``hue`` (and optionally
        ``relation``): drawn hollow beside ours, with one legend entry :data:`PAPER_LABEL`.
    legend : {"right", "below"} or False
        Where the legend goes, outside the data (:func:`legend_outside`); ``False``: none.
    """
    _require_columns(results, [x, y, param], "plot_tradeoff")
    ax = _get_ax(ax)
    hue = hue if hue is not None and hue in results.columns else None
    groups = results.groupby(hue, sort=False) if hue else [(None, results)]
    labels, points = [], []
    for name, df in groups:
        if param is not None:
            stats = df.groupby(param, sort=True)[[x, y]].agg(["mean", "std"])
            xm, ym = stats[(x, "mean")], stats[(y, "mean")]
            xs, ys = stats[(x, "std")].fillna(0), stats[(y, "std")].fillna(0)
            values = stats.index.to_numpy()
        else:
            df = df.sort_values(x)
            xm, ym, xs, ys, values = df[x], df[y], None, None, None
        style = method_style("" if name is None else str(name))
        ax.plot(xm, ym, label=None if name is None else str(name), markersize=5,
                linewidth=1.5, **style)
        if errorbars and xs is not None:
            ax.errorbar(xm, ym, xerr=xs, yerr=ys, fmt="none", ecolor=style["color"], alpha=0.4,
                        linewidth=1)
        symbol = _symbol(param, param_labels, name)
        if annotate and symbol and values is not None and len(values) > 1:
            labels += [(float(xm.iloc[j]), float(ym.iloc[j]), f"{symbol} = {values[j]:g}",
                        style["color"]) for j in (0, len(values) - 1)]
        points += list(zip(np.asarray(xm, dtype=float), np.asarray(ym, dtype=float)))
    _annotate_apart(ax, labels, points)
    if published is not None:
        _draw_published(ax, published, x, y, hue or "method", "plot_tradeoff")
    ax.set_xlabel(_label(x))
    ax.set_ylabel(_label(y))
    if (hue or published is not None) and legend:
        legend_outside(ax, where=legend, title=axis_label(hue) if hue else None)
    _ticks(ax)
    ax.grid(alpha=0.3)
    return ax


#: hatches of the ``hue`` levels of :func:`plot_boxplots`
_HATCHES = ("", "///", "...", "xxx", "\\\\\\", "ooo")


def plot_boxplots(results, metric, *, by="method", hue=None, ax=None):
    """Boxplots of ``metric`` over splits, one box per ``by`` value (Kleindessner et al. Fig. 2).

    A box has its method's colour (:func:`method_style`; ``by`` or ``hue`` is ``"method"``), so
    a method looks the same here as in every other figure.  ``hue`` (e.g. the data dimension
    ``"d"``) splits each box further: its levels side by side, told apart by hatching, with a
    legend titled in words.
    """
    _require_columns(results, [metric, by, hue], "plot_boxplots")
    ax = _get_ax(ax)
    # matplotlib's own boxplot (seaborn 0.13 passes the deprecated ``vert`` to matplotlib 3.11)
    cats = list(dict.fromkeys(results[by]))
    hues = list(dict.fromkeys(results[hue])) if hue else [None]
    width = 0.8 / len(hues)
    for j, h in enumerate(hues):
        sub = results if h is None else results[results[hue] == h]
        data = [sub.loc[sub[by] == c, metric].dropna().to_numpy() for c in cats]
        keep = [i for i, d in enumerate(data) if d.size]
        positions = [i - 0.4 + width * (j + 0.5) for i in keep]
        parts = ax.boxplot([data[i] for i in keep], positions=positions, widths=width * 0.85,
                           patch_artist=True, orientation="vertical", manage_ticks=False,
                           medianprops={"color": "black"}, flierprops={"markersize": 3})
        for k, box in enumerate(parts["boxes"]):
            method = str(cats[keep[k]]) if hue != "method" else str(h)
            box.set_facecolor(method_style(method)["color"])
            box.set_alpha(0.85)
            if hue and hue != "method":
                box.set_hatch(_HATCHES[j % len(_HATCHES)])
                box.set_edgecolor("0.2")
        if hue and hue != "method":
            ax.bar([0], [0], width=0, color="white", edgecolor="0.2",
                   hatch=_HATCHES[j % len(_HATCHES)], label=str(h))
        elif hue:
            parts["boxes"][0].set_label(str(h))
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])
    ax.set_xlim(-0.6, len(cats) - 0.4)
    if hue:
        legend_outside(ax, title=axis_label(hue))
    ax.set_xlabel(_label(by))
    ax.set_ylabel(_label(metric))
    ax.tick_params(axis="x", labelrotation=30)
    for t in ax.get_xticklabels():
        t.set_horizontalalignment("right")
    if ax.get_yscale() == "linear":
        ax.yaxis.set_major_locator(MaxNLocator(5))
    ax.grid(axis="y", alpha=0.3)
    return ax


def plot_runtime(results, *, x="d", y="seconds", hue="method", logx=True, logy=True,
                 published=None, ax=None):
    """Running time vs problem size on log-log axes (Kleindessner et al. Fig. 3/7/9).

    ``results`` is the output of :func:`fairlab.evaluation.runtime_sweep` (or any tidy frame with
    the columns ``x``, ``y``, ``hue``); repeated rows per (x, hue) are averaged.  Each method is
    drawn in its style (:func:`method_style`).  ``published``: the times the paper reports
    (columns ``x``, ``y``, ``hue`` and optionally ``relation``, e.g.
    :func:`fairlab.experiments.kleindessner.reported_runtimes`), drawn hollow in the same
    colours and markers, a bound ("<", ">") with an arrow in its direction.
    """
    _require_columns(results, [x, y, hue], "plot_runtime")
    ax = _get_ax(ax)
    for name, df in results.groupby(hue, sort=False):
        curve = df.groupby(x, sort=True)[y].mean()
        ax.plot(curve.index, curve.to_numpy(), label=str(name), markersize=5,
                **method_style(str(name)))
    if published is not None:
        _draw_published(ax, published, x, y, hue, "plot_runtime")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(_label(x))
    ax.set_ylabel(_label(y))
    legend_outside(ax, title=axis_label(hue))
    _ticks(ax, nbins=5)
    ax.grid(alpha=0.3, which="both")
    return ax


def plot_embedding(embedding, sensitive_features, *, dims=(0, 1), ax=None, alpha=0.6, s=12,
                   xlabel=None, ylabel=None, legend="right"):
    """Scatter plot of two columns of a representation, coloured (and marked) by group.

    ``legend`` places the legend outside the data (``"right"`` or ``"below"``, see
    :func:`legend_outside`); ``False`` draws none, e.g. for all but one of several panels
    that share their groups.
    """
    E = embedding.to_numpy() if isinstance(embedding, pd.DataFrame) else np.asarray(embedding)
    if E.ndim != 2 or E.shape[1] < 2:
        raise ValueError(f"embedding must be 2-D with at least two columns; got shape {E.shape}.")
    groups = np.asarray(sensitive_features)
    if groups.shape[0] != E.shape[0]:
        raise ValueError(
            f"sensitive_features has {groups.shape[0]} entries but embedding has {E.shape[0]} rows."
        )
    a, b = dims
    ax = _get_ax(ax, figsize=(COLUMN_WIDTH * 0.6, 3.4))
    for i, g in enumerate(np.unique(groups)):
        rows = groups == g
        ax.scatter(E[rows, a], E[rows, b], s=s, alpha=alpha, color=PALETTE[i % len(PALETTE)],
                   marker=_MARKERS[i % len(_MARKERS)], label=f"group {g}", edgecolors="none")
    ax.set_xlabel(xlabel or f"component {a + 1} (projection units)")
    ax.set_ylabel(ylabel or f"component {b + 1} (projection units)")
    if legend:
        legend_outside(ax, where=legend, markerscale=1.5)
    ax.grid(alpha=0.3)
    return ax


def plot_component_map(estimator, X, *, component=0, sensitive_features=None, resolution=120,
                       padding=0.05, cmap="viridis", ax=None, xlabel="$x_1$", ylabel="$x_2$",
                       colorbar_label=None, legend="right"):
    """Background colour map of one component of a fitted transformer over a 2-D input grid.

    The grid spans the bounding box of ``X`` (n × 2) enlarged by ``padding``; the colour at a grid
    point x is ``estimator.transform(x)[component]`` (Pérez-Suay et al. Fig. 2/3).  The samples are
    drawn on top, marked by group when ``sensitive_features`` is given.  ``colorbar_label``
    replaces the default "component j (projection units)", e.g. by a shorter label in a grid of
    small panels; ``legend`` (``"right"``, ``"below"`` or ``False``) places the groups' legend
    outside the map.
    """
    X = X.to_numpy() if isinstance(X, pd.DataFrame) else np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have exactly two columns (a 2-D input space); got {X.shape}.")
    if not hasattr(estimator, "transform"):
        raise TypeError("estimator must be a fitted transformer (with a transform method).")
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = padding * (hi - lo)
    g0 = np.linspace(lo[0] - pad[0], hi[0] + pad[0], resolution)
    g1 = np.linspace(lo[1] - pad[1], hi[1] + pad[1], resolution)
    G0, G1 = np.meshgrid(g0, g1)
    values = np.asarray(estimator.transform(np.column_stack([G0.ravel(), G1.ravel()])))
    if values.ndim != 2 or not 0 <= component < values.shape[1]:
        raise ValueError(
            f"component={component} is out of range for a transform with "
            f"{values.shape[1] if values.ndim == 2 else 1} output column(s)."
        )
    ax = _get_ax(ax, figsize=(COLUMN_WIDTH * 0.6, 3.4))
    ax.grid(False)  # a grid over a colour map hides it
    mesh = ax.pcolormesh(G0, G1, values[:, component].reshape(G0.shape), cmap=cmap,
                         shading="auto")
    if colorbar_label is None:
        colorbar_label = f"component {component + 1} (projection units)"
    ax.figure.colorbar(mesh, ax=ax, label=colorbar_label)
    if sensitive_features is None:
        ax.scatter(X[:, 0], X[:, 1], s=8, c="white", edgecolors="black", linewidths=0.3)
    else:
        groups = np.asarray(sensitive_features)
        for i, g in enumerate(np.unique(groups)):
            rows = groups == g
            ax.scatter(X[rows, 0], X[rows, 1], s=10, color=PALETTE[i % len(PALETTE)],
                       marker=_MARKERS[i % len(_MARKERS)], edgecolors="white", linewidths=0.3,
                       label=f"group {g}")
        if legend:
            legend_outside(ax, where=legend)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return ax


def plot_concept_erasure(images, image_shape, *, concept=None, concept_name="concept",
                         cmap="gray", axes=None):
    """Grid of images, one row per version: originals, then each method's reconstructions.

    Parameters
    ----------
    images : dict
        ``{row title: array of shape (n_images, height·width)}``, all with the same
        ``n_images`` (e.g. the first result of
        :func:`fairlab.evaluation.concept_erasure_examples`); rows are drawn in dict order.
    image_shape : (int, int)
        (height, width) of an image.
    concept : array-like of shape (n_images,), optional
        0/1 per column; titles the columns "with <concept_name>" / "without <concept_name>".
    concept_name : str, default="concept"
    cmap : str, default="gray"
    axes : 2-D array of Axes, optional
        ``len(images)`` × ``n_images`` axes to draw into; a new figure otherwise.

    Returns
    -------
    ndarray of Axes
        Shape (len(images), n_images).  Every row shares one grey scale (the originals'
        range), so brightness compares across rows.
    """
    if not isinstance(images, dict) or not images:
        raise ValueError("images must be a non-empty dict {row title: (n_images, n_pixels) array}.")
    arrays = {name: np.asarray(a, dtype=float) for name, a in images.items()}
    height, width = (int(v) for v in image_shape)
    n = next(iter(arrays.values())).shape[0]
    for name, a in arrays.items():
        if a.ndim != 2 or a.shape != (n, height * width):
            raise ValueError(f"images[{name!r}] must have shape ({n}, {height * width}) for "
                             f"image_shape={tuple(image_shape)}; got {a.shape}.")
    if concept is not None:
        concept = np.asarray(concept).ravel()
        if concept.shape[0] != n:
            raise ValueError(f"concept must have one entry per image ({n}); got "
                             f"{concept.shape[0]}.")
    if axes is None:
        cell = min(1.3, (COLUMN_WIDTH - 1.2) / n)  # inches per image: the row fits the column
        _, axes = plt.subplots(len(arrays), n, figsize=(cell * n + 1.2, (cell + 0.1) * len(arrays)),
                               squeeze=False, constrained_layout=True)
    axes = np.asarray(axes).reshape(len(arrays), n)
    first = next(iter(arrays.values()))
    vmin, vmax = float(first.min()), float(first.max())
    for r, (name, a) in enumerate(arrays.items()):
        for c in range(n):
            ax = axes[r, c]
            ax.imshow(a[c].reshape(height, width), cmap=cmap, vmin=vmin, vmax=vmax,
                      interpolation="nearest")
            ax.set_xticks([])
            ax.set_yticks([])
            if c == 0:
                ax.set_ylabel(name)
            if r == 0 and concept is not None:
                ax.set_title(("with " if concept[c] == 1 else "without ") + concept_name,
                             fontsize=MIN_FONT_PT)
    return axes


#: the measures of :func:`fairlab.metrics.leakage`, in words
_LEAKAGE_MEASURES = {
    "balanced_accuracy": "balanced accuracy",
    "roc_auc": "ROC AUC",
    "r2": "R²",
}
_ADVERSARIES = {
    "logistic": "logistic regression",
    "ridge": "ridge regression",
    "rbf_svm": "RBF SVM",
    "rbf_svr": "RBF SVR",
    "mlp": "MLP",
    "gradient_boosting": "gradient boosting",
}


def plot_leakage(table, ax=None):
    """Dot-and-interval plot of a leakage audit: one line per adversary and measure.

    Each adversary row of ``table`` (the output of :func:`fairlab.metrics.leakage`) is a dot
    at its score with a bar over its confidence interval, coloured (and marked) by measure;
    a black bar marks the row's chance level (1/m for balanced accuracy, ½ for ROC AUC, 0
    for R²).  A filled dot means that the interval lies above chance (``detected``), a hollow
    one that it does not.  The permutation tests (MMD², HSIC) are on scales of their own and
    are not drawn: read their p-values in the table.

    Parameters
    ----------
    table : DataFrame
        With the columns ``attribute``, ``kind``, ``method``, ``measure``, ``score``,
        ``ci_low``, ``ci_high``, ``chance`` and ``detected``; the output of
        :func:`fairlab.evaluation.audit_representations` (a ``representation`` column) too.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Rows labelled "adversary: measure" ("adversary" alone when the table holds one
        measure), prefixed by the attribute when the table audits several and by the
        representation when it audits several; x axis "adversary score", legend below the
        data.
    """
    columns = ["attribute", "kind", "method", "measure", "score", "ci_low", "ci_high",
               "chance", "detected"]
    _require_columns(table, columns, "plot_leakage")
    rows = table[table["kind"] == "adversary"].reset_index(drop=True)
    # drawn to 6 decimals: the last bits of a score follow the BLAS kernel, and through the axis
    # limits they would change the figure's markup (figure_svg), not what it shows
    rows = rows.assign(**{c: rows[c].astype(float).round(6)
                          for c in ("score", "ci_low", "ci_high", "chance")})
    if rows.empty:
        raise ValueError("plot_leakage: table has no adversary rows (kind == 'adversary'); "
                         "pass the output of fairlab.metrics.leakage with adversaries.")
    ax = _get_ax(ax, figsize=(COLUMN_WIDTH, 0.9 + 0.3 * len(rows)))
    several = rows["attribute"].nunique() > 1
    measures = list(dict.fromkeys(rows["measure"]))
    y = np.arange(len(rows))
    for i, measure in enumerate(measures):
        sub = rows[rows["measure"] == measure]
        colour, marker = PALETTE[i % len(PALETTE)], _MARKERS[i % len(_MARKERS)]
        yy = y[sub.index]
        # the interval as a bar of its own: a percentile bootstrap need not contain the score
        ax.hlines(yy, sub["ci_low"], sub["ci_high"], colors=colour, linewidth=2, zorder=2)
        filled = sub["detected"].to_numpy(dtype=bool)
        ax.scatter(sub["score"][filled], yy[filled], color=colour, marker=marker, s=40,
                   zorder=3, label=_LEAKAGE_MEASURES.get(measure, str(measure).replace("_", " ")))
        ax.scatter(sub["score"][~filled], yy[~filled], facecolors="white", edgecolors=colour,
                   marker=marker, s=40, zorder=3, linewidths=1.5)
    ax.scatter(rows["chance"], y, marker="|", s=250, color="black", linewidths=2, zorder=4,
               label="chance level")
    names = [_ADVERSARIES.get(r.method, str(r.method)) for r in rows.itertuples()]
    labels = [f"{name}: {_LEAKAGE_MEASURES.get(r.measure, r.measure)}"
              if len(measures) > 1 else name for name, r in zip(names, rows.itertuples())]
    if several:
        labels = [f"{a} · {text}" for a, text in zip(rows["attribute"], labels)]
    if "representation" in rows and rows["representation"].nunique() > 1:
        labels = [f"{r} · {text}" for r, text in zip(rows["representation"], labels)]
    ax.set_yticks(y, labels)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # the first row on top
    ax.set_xlabel("adversary score (bar: confidence interval)")
    ax.grid(axis="y", alpha=0)
    ax.grid(axis="x", alpha=0.3)
    legend_outside(ax, where="below", title="hollow: interval not above chance")
    return ax
