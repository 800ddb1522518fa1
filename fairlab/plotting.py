"""Figures shared by the notebooks (seaborn/matplotlib, colour-blind-safe palette).

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
  PCA-S reconstructions, one row each (Kleindessner et al. Fig. 5 and Figs. 10–15).

Every function takes its data and an optional ``ax`` and returns the :class:`~matplotlib.axes.Axes`
with labelled axes (units in brackets).  Colours come from seaborn's ``"colorblind"`` palette;
markers differ between groups/methods so that figures also read in grey scale.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

__all__ = [
    "PALETTE",
    "plot_boxplots",
    "plot_component_map",
    "plot_concept_erasure",
    "plot_embedding",
    "plot_runtime",
    "plot_tradeoff",
]

#: colour-blind-safe qualitative palette (Wong 2011 / seaborn "colorblind")
PALETTE = sns.color_palette("colorblind")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")

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
}


def _label(name):
    return LABELS.get(name, str(name))


def _get_ax(ax, figsize=(5, 3.6)):
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


def plot_tradeoff(results, *, x="dp_violation", y="accuracy", hue="method", param=None,
                  errorbars=True, annotate=True, ax=None):
    """Accuracy-vs-violation trade-off curves, averaged over splits.

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
        Write the parameter value at the two ends of each curve.
    """
    _require_columns(results, [x, y, param], "plot_tradeoff")
    ax = _get_ax(ax)
    hue = hue if hue is not None and hue in results.columns else None
    groups = results.groupby(hue, sort=False) if hue else [(None, results)]
    for i, (name, df) in enumerate(groups):
        if param is not None:
            stats = df.groupby(param, sort=True)[[x, y]].agg(["mean", "std"])
            xm, ym = stats[(x, "mean")], stats[(y, "mean")]
            xs, ys = stats[(x, "std")].fillna(0), stats[(y, "std")].fillna(0)
            values = stats.index.to_numpy()
        else:
            df = df.sort_values(x)
            xm, ym, xs, ys, values = df[x], df[y], None, None, None
        color, marker = PALETTE[i % len(PALETTE)], _MARKERS[i % len(_MARKERS)]
        ax.plot(xm, ym, marker=marker, color=color, label=None if name is None else str(name),
                markersize=5, linewidth=1.5)
        if errorbars and xs is not None:
            ax.errorbar(xm, ym, xerr=xs, yerr=ys, fmt="none", ecolor=color, alpha=0.4,
                        linewidth=1)
        if annotate and values is not None and len(values) > 1:
            symbol = _label(param) if len(_label(param)) <= 3 else param  # "λ" rather than "lam"
            for j in (0, len(values) - 1):
                ax.annotate(f"{symbol}={values[j]:g}", (xm.iloc[j], ym.iloc[j]), fontsize=7,
                            xytext=(3, 3), textcoords="offset points", color=color)
    ax.set_xlabel(_label(x))
    ax.set_ylabel(_label(y))
    if hue:
        ax.legend(title=hue, fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def plot_boxplots(results, metric, *, by="method", hue=None, ax=None):
    """Boxplots of ``metric`` over splits, one box per ``by`` value (Kleindessner et al. Fig. 2).

    ``hue`` (e.g. the data dimension ``"d"``) splits each box further.
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
            colour = PALETTE[(j if hue else keep[k]) % len(PALETTE)]
            box.set_facecolor(colour)
            box.set_alpha(0.85)
        if hue:
            parts["boxes"][0].set_label(f"{hue}={h}")
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])
    ax.set_xlim(-0.6, len(cats) - 0.4)
    if hue:
        ax.legend(fontsize=8)
    ax.set_xlabel(_label(by))
    ax.set_ylabel(_label(metric))
    ax.tick_params(axis="x", labelrotation=30)
    for t in ax.get_xticklabels():
        t.set_horizontalalignment("right")
    ax.grid(axis="y", alpha=0.3)
    return ax


def plot_runtime(results, *, x="d", y="seconds", hue="method", logx=True, logy=True, ax=None):
    """Running time vs problem size on log-log axes (Kleindessner et al. Fig. 3/7/9).

    ``results`` is the output of :func:`fairlab.evaluation.runtime_sweep` (or any tidy frame with
    the columns ``x``, ``y``, ``hue``); repeated rows per (x, hue) are averaged.
    """
    _require_columns(results, [x, y, hue], "plot_runtime")
    ax = _get_ax(ax)
    for i, (name, df) in enumerate(results.groupby(hue, sort=False)):
        curve = df.groupby(x, sort=True)[y].mean()
        ax.plot(curve.index, curve.to_numpy(), marker=_MARKERS[i % len(_MARKERS)],
                color=PALETTE[i % len(PALETTE)], label=str(name), markersize=5)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(_label(x))
    ax.set_ylabel(_label(y))
    ax.legend(title=hue, fontsize=8)
    ax.grid(alpha=0.3, which="both")
    return ax


def plot_embedding(embedding, sensitive_features, *, dims=(0, 1), ax=None, alpha=0.6, s=12,
                   xlabel=None, ylabel=None):
    """Scatter plot of two columns of a representation, coloured (and marked) by group."""
    E = embedding.to_numpy() if isinstance(embedding, pd.DataFrame) else np.asarray(embedding)
    if E.ndim != 2 or E.shape[1] < 2:
        raise ValueError(f"embedding must be 2-D with at least two columns; got shape {E.shape}.")
    groups = np.asarray(sensitive_features)
    if groups.shape[0] != E.shape[0]:
        raise ValueError(
            f"sensitive_features has {groups.shape[0]} entries but embedding has {E.shape[0]} rows."
        )
    a, b = dims
    ax = _get_ax(ax, figsize=(4.5, 4))
    for i, g in enumerate(np.unique(groups)):
        rows = groups == g
        ax.scatter(E[rows, a], E[rows, b], s=s, alpha=alpha, color=PALETTE[i % len(PALETTE)],
                   marker=_MARKERS[i % len(_MARKERS)], label=f"group {g}", edgecolors="none")
    ax.set_xlabel(xlabel or f"component {a + 1} (projection units)")
    ax.set_ylabel(ylabel or f"component {b + 1} (projection units)")
    ax.legend(fontsize=8, markerscale=1.5)
    ax.grid(alpha=0.3)
    return ax


def plot_component_map(estimator, X, *, component=0, sensitive_features=None, resolution=120,
                       padding=0.05, cmap="viridis", ax=None, xlabel="$x_1$", ylabel="$x_2$",
                       colorbar_label=None):
    """Background colour map of one component of a fitted transformer over a 2-D input grid.

    The grid spans the bounding box of ``X`` (n × 2) enlarged by ``padding``; the colour at a grid
    point x is ``estimator.transform(x)[component]`` (Pérez-Suay et al. Fig. 2/3).  The samples are
    drawn on top, marked by group when ``sensitive_features`` is given.  ``colorbar_label``
    replaces the default "component j (projection units)", e.g. by a shorter label in a grid of
    small panels.
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
    ax = _get_ax(ax, figsize=(4.8, 4))
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
        ax.legend(fontsize=8)
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
        _, axes = plt.subplots(len(arrays), n, figsize=(1.3 * n + 1.2, 1.35 * len(arrays)),
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
                ax.set_ylabel(name, fontsize=9)
            if r == 0 and concept is not None:
                ax.set_title(("with " if concept[c] == 1 else "without ") + concept_name,
                             fontsize=8)
    return axes
