"""Mean ± std tables printed like the papers' (``7.78 ± 0.77``).
"""


import numpy as np
import pandas as pd


def summarize(results, by="method", *, ddof=0, columns=None):
    """Mean and standard deviation of every numeric column, grouped by ``by``.

    ``ddof=0`` (population std, ``np.std``) by default: Kleindessner et al.'s tables were written by
    ``write_results.py`` with numpy's default and reproduce only with it (Adult PCA k=2: %Var
    7.78 ± 0.77, whereas ddof=1 gives ± 0.82).

    Returns
    -------
    DataFrame indexed by ``by`` with two-level columns (metric, "mean"/"std"); group order is
    the order of first appearance.
    """
    by = [by] if isinstance(by, str) else list(by)
    num = results.drop(columns=[c for c in ("split",) if c not in by], errors="ignore")
    cols = [c for c in (columns or num.columns) if c not in by
            and pd.api.types.is_numeric_dtype(num[c])]
    grouped = num.groupby(by, sort=False)[cols]
    mean, std = grouped.mean(), grouped.std(ddof=ddof)
    return pd.concat({"mean": mean, "std": std}, axis=1).swaplevel(axis=1)[cols]


def _fixed(value, decimals):
    """``value`` at ``decimals`` fixed decimals, never ``-0.00`` (a value that rounds to zero)."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def format_mean_std(mean, std, decimals=2):
    """``"7.78 ± 0.77"``: mean and std rounded to ``decimals`` (NaN → ``"n/a"``).

    Examples
    --------
    >>> format_mean_std(7.7799, 0.7731)
    '7.78 ± 0.77'
    >>> format_mean_std(0.3486, 0.0257, decimals=3)
    '0.349 ± 0.026'
    """
    if mean is None or (isinstance(mean, float) and np.isnan(mean)):
        return "n/a"
    return f"{mean:.{decimals}f} ± {std:.{decimals}f}"


def format_table(results, by="method", *, decimals=2, scale=None, columns=None, ddof=0):
    """Paper-style table of ``mean ± std`` strings (one row per ``by`` group).

    Parameters
    ----------
    results : DataFrame
        Tidy results (:func:`evaluate_splits`, :func:`sweep`).
    decimals : int or dict of column -> int
    scale : dict of column -> float, optional
        Multiply before formatting (e.g. ``{"kernel_svm_accuracy": 100}`` for %Acc).
    """
    stats = summarize(results, by, ddof=ddof, columns=columns)
    scale = scale or {}
    out = {}
    for col in dict.fromkeys(stats.columns.get_level_values(0)):
        dec = decimals.get(col, 2) if isinstance(decimals, dict) else decimals
        f = scale.get(col, 1.0)
        out[col] = [format_mean_std(m * f, s * f, dec)
                    for m, s in zip(stats[(col, "mean")], stats[(col, "std")])]
    return pd.DataFrame(out, index=stats.index)



def format_audit(audit, by="representation", *, measures=("balanced_accuracy", "r2", "hsic"),
                 decimals=2):
    """A leakage audit as a table of strings: one row per ``by`` group, one column per method.

    An adversary's cell is ``"0.53 [0.50, 0.55] ✓"`` (score and bootstrap interval), a test's
    ``"p = 0.01 ✓"``; the ✓ marks a detection (interval above chance, or p below the level).
    A value that rounds to zero prints without its sign (``0.00``, never ``-0.00``).

    Parameters
    ----------
    audit : DataFrame
        :func:`fairlab.metrics.leakage` or :func:`audit_representations` output.
    by : str or list of str, default="representation"
        Columns that index the rows (e.g. ``["data", "representation"]``).
    measures : tuple of str
        The measures shown (``"roc_auc"``, ``"mmd2"`` are left out by default).
    decimals : int, default=2

    Returns
    -------
    DataFrame of str, columns in the order the methods first appear.
    """
    by = [by] if isinstance(by, str) else list(by)
    shown = audit[audit["measure"].isin(measures)]
    adversary = shown["kind"] == "adversary"
    d = decimals
    text = np.where(
        adversary,
        [f"{_fixed(s, d)} [{_fixed(lo, d)}, {_fixed(hi, d)}]" for s, lo, hi in
         zip(shown["score"], shown["ci_low"], shown["ci_high"])],
        [f"p = {_fixed(p, d)}" for p in shown["p_value"]])
    text = pd.Series(text, index=shown.index) + np.where(shown["detected"], " ✓", "")
    table = shown.assign(cell=text).pivot_table(index=by, columns="method", values="cell",
                                                aggfunc="first", sort=False)
    table.columns.name = None
    return table[list(dict.fromkeys(shown["method"]))]
