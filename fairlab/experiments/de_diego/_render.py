"""De-Diego et al. (2025) §4, what a chapter shows: the side-by-side table and the figures.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from ... import metrics, published
from ...pca import FairPCA
from ...plotting import COLUMN_WIDTH, PAPER_LABEL, figure_legend, panel_grid
from ...pls import FairPLS
from ._checks import DECIMALS, METRIC_LABELS
from ._data import _folds
from ._downstream import downstream_models


def side_by_side(compared, title=""):
    """:func:`compare` as a table: one row per η (and model), four columns per printed metric.

    Each metric shows the paper's cell, ours (mean ± std over the splits or folds), the
    difference and the mark of :data:`fairlab.published.STATUS_MARKS`.
    """
    rows = ["eta", "model"] if "model" in compared.columns and compared["model"].ne("").any() \
        else ["eta"]
    return published.side_by_side(compared, rows=rows, group=lambda r: METRIC_LABELS[r.metric],
                                  decimals=lambda r: DECIMALS, title=title)


def _paper_rows(published, dataset, metrics):
    """The printed rows of ``dataset`` and ``metrics`` in a :mod:`fairlab.published` table."""
    if published is None:
        return None
    missing = [c for c in ("dataset", "eta", "metric", "mean") if c not in published.columns]
    if missing:
        raise ValueError(f"published must be a table of fairlab.published (columns dataset, "
                         f"eta, metric, mean); it lacks {missing}.")
    return published[(published["dataset"] == dataset) & published["metric"].isin(metrics)]


def plot_representation(table1, metric="cov2", *, published=None, axes=None):
    """Figs. 2-3 of De-Diego et al.: Cov² (or the reconstruction error) against η, per data set.

    Parameters
    ----------
    table1 : DataFrame
        :func:`table1` output (``dataset, eta, metric, mean, std``).
    metric : {"cov2", "reconstruction_error"}, default="cov2"
        ``"cov2"``: Fig. 2, Cov²(r(X), Y) (blue) and Cov²(r(X), S) (orange), mean ± std over
        the splits; ``"reconstruction_error"``: Fig. 3.
    published : DataFrame, optional
        The paper's Table 1 (``fairlab.published.table("dediego2025", "table1")``), the
        numbers behind its Figs. 2-3: drawn hollow beside ours, in the same colour
        (:data:`fairlab.plotting.PAPER_LABEL`).
    axes : sequence of matplotlib Axes, optional
        One per data set; default a new :func:`fairlab.plotting.panel_grid` of two panels
        per row (legible on a phone), with one legend below them.

    Returns
    -------
    matplotlib Figure
    """
    if metric not in ("cov2", "reconstruction_error"):
        raise ValueError(f"metric must be 'cov2' or 'reconstruction_error'; got {metric!r}.")
    names = list(dict.fromkeys(table1["dataset"]))
    if not names:
        raise ValueError("table1 is empty; run de_diego.table1 on some scores first.")
    if axes is None:
        _, axes = panel_grid(len(names), ncols=2, panel_height=2.3)
    axes = np.ravel(axes)
    fig = axes[0].figure
    lines = ({"cov2_y": ("Cov²(r(X), Y)", "C0", "o"), "cov2_s": ("Cov²(r(X), S)", "C1", "s")}
             if metric == "cov2" else {"reconstruction_error": ("Error(X, r(X))", "C2", "o")})
    for ax, name in zip(axes, names):
        sub = table1[table1["dataset"] == name]
        paper = _paper_rows(published, name, list(lines))
        for m, (label, colour, marker) in lines.items():
            part = sub[sub["metric"] == m].sort_values("eta")
            ax.errorbar(part["eta"], part["mean"], yerr=part["std"], marker=marker, capsize=3,
                        color=colour, label=label, markersize=5)
            if paper is not None and len(paper):
                printed = paper[paper["metric"] == m].sort_values("eta")
                ax.plot(printed["eta"], printed["mean"], linestyle="none", marker=marker,
                        markersize=8, markerfacecolor="white", markeredgecolor=colour,
                        markeredgewidth=1.5, zorder=4)
        if paper is not None and len(paper):
            ax.plot([], [], linestyle="none", marker="o", markerfacecolor="white",
                    markeredgecolor="0.35", label=PAPER_LABEL)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("η")
        ax.yaxis.set_major_locator(MaxNLocator(4))
    axes[0].set_ylabel("Cov²" if metric == "cov2" else "reconstruction error")
    figure_legend(fig, axes)
    return fig


def plot_tradeoff(summary, dataset, fairness="disparate_impact", *, published=None, ax=None):
    """Figs. 1 and 4 of De-Diego et al.: accuracy against DI (or EOpp), one point per η.

    Parameters
    ----------
    summary : DataFrame
        :func:`downstream_summary` output.
    dataset : str
        A printed data set name present in ``summary``.
    fairness : {"disparate_impact", "eopp"}, default="disparate_impact"
    published : DataFrame, optional
        The paper's Table 4 (``fairlab.published.table("dediego2025", "table4")``), which
        prints accuracy and DI at η = 0, 1, 2: drawn hollow beside ours, each model's marker
        edged in its η's colour (:data:`fairlab.plotting.PAPER_LABEL`).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    if fairness not in ("disparate_impact", "eopp"):
        raise ValueError(f"fairness must be 'disparate_impact' or 'eopp'; got {fairness!r}.")
    sub = summary[summary["dataset"] == dataset]
    if sub.empty:
        raise ValueError(f"dataset {dataset!r} is not in summary; it has "
                         f"{sorted(set(summary['dataset']))}.")
    if ax is None:
        _, ax = plt.subplots(figsize=(COLUMN_WIDTH / 2, 3.0), layout="constrained")
    wide = sub[sub["metric"].isin([fairness, "accuracy"])].pivot_table(
        index=["model", "eta"], columns="metric", values="mean").reset_index()
    paper = _paper_rows(published, dataset, [fairness, "accuracy"])
    if paper is not None and len(paper):
        paper = paper.pivot_table(index=["model", "eta"], columns="metric",
                                  values="mean").reset_index().dropna()
    norm = plt.Normalize(wide["eta"].min(), wide["eta"].max())
    markers = dict(zip(dict.fromkeys(wide["model"]), "osD^v"))
    for model, part in wide.groupby("model", sort=False):
        points = ax.scatter(part[fairness], part["accuracy"], c=part["eta"], cmap="viridis",
                            marker=markers[model], s=40, norm=norm, label=model)
    if paper is not None and len(paper) and fairness in paper.columns:
        for model, part in paper.groupby("model", sort=False):
            ax.scatter(part[fairness], part["accuracy"], marker=markers.get(model, "o"), s=70,
                       facecolors="white", edgecolors=plt.get_cmap("viridis")(norm(part["eta"])),
                       linewidths=1.5, zorder=4)
        ax.scatter([], [], marker="o", facecolors="white", edgecolors="0.35", label=PAPER_LABEL)
    ax.figure.colorbar(points, ax=ax, label="η")
    ax.set_xlabel("disparate impact (1 = parity)" if fairness == "disparate_impact"
                  else "EOpp = TPR₀ / TPR₁ (1 = parity)")
    ax.set_ylabel("accuracy (held-out folds)")
    ax.xaxis.set_major_locator(MaxNLocator(4))
    ax.yaxis.set_major_locator(MaxNLocator(4))
    ax.set_title(dataset, fontsize=10)
    ax.legend(title="model")
    return ax


def fig7(data, *, k=2, eta=1.0, n_folds=7, models=("LR", "DT"), random_state=0):
    """Fair PLS against Fair PCA as pre-processing (De-Diego et al. Fig. 7), per fold.

    Same folds as :func:`downstream_scores`; on each, ``FairPCA(k)`` (Kleindessner et
    al., fitted on the standardised training X with S) and ``FairPLS(k, eta=eta)`` give the
    representation, each model of :func:`downstream_models` is trained on it and scored on the
    held-out fold: ``accuracy`` and ``disparate_impact``.  The paper: "We have fixed k = 2 for
    both", and does not give η (its Table 4 has η ∈ {0, 1, 2}); ``eta=np.inf`` is Fair PLS with
    the hard constraint, as fair in the mean as Fair PCA.

    Returns
    -------
    DataFrame with columns ``method, eta, model, metric, fold, value``.
    """
    if data.task != "classification":
        raise ValueError("fig7 needs a classification data set (the paper: Adult).")
    ests = downstream_models("classification", models, random_state=random_state)
    rows = []
    for f, test in enumerate(_folds(len(data.y), n_folds, random_state)):
        train = np.setdiff1d(np.arange(len(data.y)), test)
        scaler = StandardScaler().fit(data.X[train])
        X_tr, X_te = scaler.transform(data.X[train]), scaler.transform(data.X[test])
        reps = {
            "Fair PCA": FairPCA(k).fit(X_tr, sensitive_features=data.s[train]),
            "Fair PLS": FairPLS(k, eta=eta).fit(X_tr, data.y[train].astype(float),
                                                sensitive_features=data.s[train]),
        }
        for method, rep in reps.items():
            T_tr, T_te = rep.transform(X_tr), rep.transform(X_te)
            for name, est in ests.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    pred = clone(est).fit(T_tr, data.y[train]).predict(T_te)
                vals = {"accuracy": float(np.mean(pred == data.y[test])),
                        "disparate_impact": metrics.disparate_impact(
                            data.y[test], pred, sensitive_features=data.s[test],
                            privileged_group=1, pos_label=data.pos_label)}
                for metric, value in vals.items():
                    rows.append({"method": method, "eta": eta if method == "Fair PLS" else np.nan,
                                 "model": name, "metric": metric, "fold": f, "value": value})
    return pd.DataFrame(rows, columns=["method", "eta", "model", "metric", "fold", "value"])
