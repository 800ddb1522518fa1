r"""The three papers' printed tables as data, and a side-by-side view with our numbers.

Every numeric table of the three papers is shipped as a tidy CSV file (one row per
printed cell) in ``fairlab/published/data/`` with a metadata file (``metadata.json``:
caption, citation, units, bold cells, transcription notes):

* ``kleindessner2023`` -- Kleindessner et al. (2023), *Efficient fair PCA for fair
  representation learning*: ``table1`` (Adult), ``table2`` (German Credit), ``table3``
  (COMPAS), ``table4`` (Samadi et al.'s fair PCA on the three data sets).
* ``dediego2025`` -- De-Diego et al. (2025), *PLS-based approach for fair representation
  learning*: ``table1`` (Cov², reconstruction error vs η), ``table2`` (bias of the original
  data), ``table3`` (best k), ``table4`` (classification), ``table5`` (regression).
* ``perezsuay2017`` -- Pérez-Suay et al. (2017), *Fair Kernel Learning*: its results are
  figures only (its Tables 1 and 2 describe the features of the data), so it has no
  table; :func:`tables` lists none for it.

Columns of every table
----------------------
``dataset``, ``method``, ``model``, ``metric`` (str)
    Identifiers as printed; ``""`` (empty string) where a table does not use one.  Method
    names keep the paper's spelling with typography normalised (``"MbF-PCA (10^-3)"``,
    ``"Fair PCA-S (0.85)"``).  ``model`` is the downstream model of accuracy/fairness
    columns (``"Kernel SVM"``, ``"LR"``, ...).  ``metric`` is a short stable name:
    ``var_pct``, ``mmd2``, ``accuracy_pct``, ``delta_dp`` (Kleindessner); ``cov2_y``,
    ``cov2_s``, ``cov2_yhat``, ``reconstruction_error``, ``disparate_impact``,
    ``accuracy``, ``ks``, ``mse``, ``best_k``, ``n_features`` and the interval bounds
    ``<metric>_ci_low``/``<metric>_ci_high`` (De-Diego).  Units are in
    ``df.attrs["units"]``: note ``accuracy_pct`` is in percent, ``accuracy`` a fraction.
``k``, ``eta`` (float64)
    Number of components and the fairness parameter, NaN where unused.  ``eta`` is the
    paper's own name for it: η of Fair PLS for ``dediego2025`` (weight of the penalty
    Cov²(Xw, S)); it would be μ for ``perezsuay2017``.  Kleindessner et al.'s tables have
    no such column: method parameters are part of the method name.
``mean``, ``std`` (float64)
    Parsed from ``raw``; ``std`` is NaN when none is printed, both are NaN for ``n/a``.
``raw`` (str)
    The cell exactly as printed (LaTeX kept), e.g. ``$\mathbf{7.78_{0.77}}$``
    (bold = best in its block) or ``$0.3227\pm 0.1593$``.

Functions
---------
:func:`table`, :func:`tables`, :func:`compare`, :func:`with_status`, :func:`rounded_equal`,
:func:`parse_cell`, and the one renderer of result tables (``_render``): :func:`side_by_side`
(paper · ours · difference · status, with a compact view and a collapsed full one),
:func:`reader_table` (any result table in readers' labels), :func:`verdict` / :func:`verdict_row`
(a chapter's verdict and its generated sentence), :class:`Details` and :class:`Prose`.

Examples
--------
>>> from fairlab import published
>>> df = published.table("kleindessner2023", "table1")
>>> df.loc[:1, ["method", "k", "metric", "mean", "std", "raw"]]
  method    k   metric   mean    std                       raw
0    PCA  2.0  var_pct  7.780  0.770    $\mathbf{7.78_{0.77}}$
1    PCA  2.0     mmd2  0.349  0.026  $\mathbf{0.349_{0.026}}$
>>> df.attrs["citation"][:40]
'Kleindessner, M., Donini, M., Russell, C'
"""

from ._cells import Cell, parse_cell, rounded_equal
from ._compare import compare, with_status
from ._render import (
    HEADER_WORDS,
    MISSING,
    STATUS_MARKS,
    Details,
    Prose,
    ReaderTable,
    SideBySide,
    Verdict,
    checks_prose,
    format_range,
    format_value,
    header_label,
    method_label,
    reader_table,
    side_by_side,
    verdict,
    verdict_row,
)
from ._tables import COLUMNS, ID_COLUMNS, PAPERS, table, tables

__all__ = [
    "COLUMNS",
    "HEADER_WORDS",
    "ID_COLUMNS",
    "MISSING",
    "PAPERS",
    "STATUS_MARKS",
    "Cell",
    "Details",
    "Prose",
    "ReaderTable",
    "SideBySide",
    "Verdict",
    "checks_prose",
    "compare",
    "format_range",
    "format_value",
    "header_label",
    "method_label",
    "parse_cell",
    "reader_table",
    "rounded_equal",
    "side_by_side",
    "verdict",
    "verdict_row",
    "with_status",
    "table",
    "tables",
]
