"""Kleindessner et al. (2023) Table 4, the run as in the reference code: the choice among the
directions along which neither group varies, and what it does to the downstream scores.
"""

import numpy as np
import pandas as pd
from scipy import linalg
from sklearn.base import clone
from sklearn.neural_network import MLPClassifier

from ... import published
from ..._core.linalg import gram_rounding_floor
from ...datasets import load_lee2022_split
from ...evaluation.scorecards import downstream_scores, lee_classifiers
from .._ledger import results_dir
from ..methods import AsInReferenceCode
from ._data import DATASETS, MODELS, SAMADI_METHOD, _dataset_key
from ._units import REFERENCE_CODE_SUFFIX

#: The shares t of the attribute's direction that :func:`null_direction_scores` lets through.
NULL_SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: Further seeds of the MLP's initialisation that :func:`null_direction_scores` scores beside
#: the reference code's (999).
MLP_SEEDS = (0, 1, 2, 3, 4)
#: The file of :func:`write_null_direction_scores`, next to the ledger.
NULL_DIRECTION_FILE = "kleindessner_null_directions.csv"
_CALL = ("null_direction_scores(NULL_SHARES, dataset='compas', n_components=10, "
         "splits=range(10), mlp_seeds=MLP_SEEDS)")


def _seeded(seed):
    return f"MLP, seed {seed}"


def _null_space(A, B):
    # the directions along which neither group varies: at or below the rounding level of the
    # first round's matrix, as samadi_multiplicative_weights skips them
    weighted = 0.5 / len(A) * A.T @ A + 0.5 / len(B) * B.T @ B
    values, vectors = linalg.eigh(weighted)
    floor = gram_rounding_floor(len(A) + len(B), np.finfo(float).eps * np.abs(weighted).max())
    return vectors[:, values <= floor]


def null_direction_map(X, sensitive_features, n_components, share):
    r"""Samadi et al.'s run as in the reference code, with one admissible choice among the
    directions along which neither group varies.

    Each round of :func:`~fairlab.experiments.methods.samadi_multiplicative_weights` takes the
    top-k eigenvectors of w₁C₁/m₁ + w₂C₂/m₂.  Where the within-group scatter has rank r < k,
    the last k − r of them lie in its null space N (dimension d − r) and tie at eigenvalue 0:
    any (k − r)-dimensional subspace of N is as good an answer, and the reference code's
    MATLAB ``pca`` returns the one its rounding leads to.  The choice changes neither group's
    loss, so not the weights, but it changes what the map hands on.  On every row, the
    coordinates in N are those of the row's group mean, so they vary along one direction
    only, s ∝ Π_N(μ₁ − μ₀), the attribute's; the rest of N carries constants.

    The choice made here leaves out of every round the d − k directions spanned by
    u = √(1 − t²)·s + t·c₁ and c₂, …, c_{d−k} (c orthonormal in N, orthogonal to s), so that
    P̄ = P̄₀ + Π_N − Π_{u, c₂, …}, with P̄₀ the rounds without any direction of N (the ledger's
    run, :class:`AsInReferenceCode`), and the map M = I − (I − P̄)^{1/2} = M₀ + Π_N −
    Π_{u, c₂, …} (P̄'s part in N is a projection).  Then ‖M s‖ = t: the share t of the
    attribute's direction reaches the downstream models, t = 0 none of it (as in the ledger's
    run, which also leaves out the constant columns), t = 1 all of it; the SVMs, which see
    distances and inner products only, see nothing else of the choice.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
        The training rows.
    sensitive_features : array-like of shape (n_samples,)
        The binary attribute.
    n_components : int
        k; the within-group scatter must have rank below it.
    share : float in [0, 1]
        t.

    Returns
    -------
    AsInReferenceCode
        Fitted, with ``linear_map_`` = M.

    Raises
    ------
    ValueError
        ``share`` outside [0, 1]; no choice at this k (rank r ≥ k); or the attribute's
        direction not in N (the choice would hand on constants only).
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must lie in [0, 1]; got {share!r}.")
    model = AsInReferenceCode(SAMADI_METHOD, n_components).fit(
        X, sensitive_features=sensitive_features)
    X = np.asarray(X, dtype=float)
    z = np.asarray(sensitive_features, dtype=float).ravel()
    Xz = (X - model.mean_) / model.scale_
    groups = [Xz[z == g] for g in np.unique(z)]
    N = _null_space(*(G - G.mean(axis=0) for G in groups))
    d = X.shape[1]
    if d - N.shape[1] >= n_components:
        raise ValueError(f"the within-group scatter has rank {d - N.shape[1]} ≥ k = "
                         f"{n_components}: every round's top-k directions are determined.")
    along = N.T @ (groups[1].mean(axis=0) - groups[0].mean(axis=0))
    if np.linalg.norm(along) <= np.sqrt(np.finfo(float).eps) * np.linalg.norm(Xz, axis=0).max():
        raise ValueError("the groups' means do not differ along the null space: its "
                         "directions carry constants only.")
    s = N @ (along / np.linalg.norm(along))
    c = N @ linalg.null_space(along[None, :])
    left_out = np.column_stack([np.sqrt(1.0 - share**2) * s + share * c[:, 0],
                                c[:, 1:d - n_components]])
    model.linear_map_ = model.linear_map_ + N @ N.T - left_out @ left_out.T
    return model


def null_direction_scores(shares=NULL_SHARES, *, dataset="compas", n_components=10,
                          splits=range(10), classifiers=None, mlp_seeds=(), data_home=None):
    """Table 4's run as in the reference code (train-on-test, Lee et al.'s splits) with each
    admissible share of the attribute's direction (:func:`null_direction_map`).

    The experiment: on COMPAS at k = 10 (d = 11), one column of Lee et al.'s files equals
    the attribute and three directions carry no within-group variance, so every round of
    the multiplicative weights completes its eight determined directions with two of these
    three.  For each share t and split, the map is fitted on the training rows and the
    downstream classifiers (:func:`~fairlab.evaluation.lee_classifiers`) are trained and
    scored on the test embedding, as in the ledger; with ``mlp_seeds``, the MLP is also
    trained from those other random starts, to hold the choice's effect against the
    initialisation's.

    Parameters
    ----------
    shares : sequence of float in [0, 1], default=:data:`NULL_SHARES`
    dataset : str, default="compas"
    n_components : int, default=10
    splits : iterable of int, default=range(10)
    classifiers : dict, optional
        Default :func:`~fairlab.evaluation.lee_classifiers`.
    mlp_seeds : sequence of int, default=()
        Further seeds of the MLP (:data:`MLP_SEEDS` in the written file), scored as the model
        ``"MLP, seed s"``.
    data_home : str, optional

    Returns
    -------
    DataFrame
        Columns ``dataset, method, k, share, split, model, metric, value`` (the ledger's
        model and metric names: accuracy in percent, ΔDP as a fraction).
    """
    classifiers = dict(lee_classifiers() if classifiers is None else classifiers)
    for seed in mlp_seeds:
        classifiers[_seeded(seed)] = MLPClassifier(hidden_layer_sizes=(10, 5),
                                                   random_state=seed, max_iter=10_000)
    rows = []
    for i in splits:
        split = load_lee2022_split(_dataset_key(dataset), i, data_home=data_home)
        for share in shares:
            model = null_direction_map(split["X_train"], split["s_train"], n_components,
                                       float(share))
            scores = downstream_scores(model.transform(np.asarray(split["X_test"], float)),
                                       split["y_test"], split["s_test"],
                                       classifiers={n: clone(c) for n, c in classifiers.items()})
            for name in classifiers:
                for metric, key, scale in (("accuracy_pct", "accuracy", 100.0),
                                           ("delta_dp", "dp", 1.0)):
                    rows.append({"dataset": DATASETS[_dataset_key(dataset)],
                                 "method": SAMADI_METHOD + REFERENCE_CODE_SUFFIX,
                                 "k": n_components, "share": float(share), "split": int(i),
                                 "model": MODELS.get(name, name), "metric": metric,
                                 "value": scale * scores[f"{name}_{key}"]})
    return pd.DataFrame(rows)


def write_null_direction_scores(path=None, **parameters):
    """Compute :func:`null_direction_scores` at its defaults (or ``parameters``) and write it
    to :data:`NULL_DIRECTION_FILE` in the folder of the ledgers
    (:func:`fairlab.experiments.results_dir`), a first comment line naming the call."""
    parameters = {"mlp_seeds": MLP_SEEDS, **parameters}
    frame = null_direction_scores(**parameters)
    target = results_dir(path) / NULL_DIRECTION_FILE
    call = (_CALL if parameters == {"mlp_seeds": MLP_SEEDS}
            else f"null_direction_scores(**{parameters!r})")
    with open(target, "w", encoding="utf-8", newline="") as handle:
        handle.write(f"# fairlab.experiments.kleindessner.{call}, default BLAS kernel\n")
        frame.to_csv(handle, index=False, float_format="%.10g")
    return target


def read_null_direction_scores(path=None):
    """The table written by :func:`write_null_direction_scores`."""
    return pd.read_csv(results_dir(path) / NULL_DIRECTION_FILE, comment="#")


def null_direction_causes(compared, scores):
    """Each miss of the run as in the reference code beside what the null-direction choice and
    the MLP's initialisation do to it.

    Parameters
    ----------
    compared : DataFrame
        :func:`compare` on Table 4 (rows of the run as in the reference code are used).
    scores : DataFrame
        :func:`null_direction_scores` (or :func:`read_null_direction_scores`).

    Returns
    -------
    DataFrame
        One row per (dataset, k, model, metric) beyond the paper's std in ``compared`` and
        present in ``scores``: the printed mean and std (``paper_mean``, ``paper_std``), the
        ledger's mean (``ledger``); over the shares t, the lowest and highest mean
        (``shares_low``, ``shares_high``) and the smallest t whose mean lies within the
        paper's std (``share_within``, NaN where none); for the MLP, over its other seeds at
        t = 0, the lowest and highest mean (``seeds_low``, ``seeds_high``, NaN for the other
        models) and how many of them lie within the paper's std (``seeds_within``, of
        ``n_seeds``); ``cause``: ``"null directions"`` where some share brings the mean within
        the paper's std, ``"MLP initialisation"`` where every other seed at t = 0 lies within
        it, ``"null directions or MLP initialisation"`` where both hold, ``"unknown"`` where
        neither does.
    """
    runs = compared[compared["method"].str.endswith(REFERENCE_CODE_SUFFIX)
                    & ~compared["within"].fillna(False).astype(bool)]
    means = scores.groupby(["dataset", "k", "model", "metric", "share"])["value"].mean()
    seeded = scores["model"].str.startswith("MLP, seed ")
    out = []
    for r in runs.itertuples():
        key = (r.dataset, int(r.k), r.model, r.metric)
        if key not in means.droplevel("share").index:
            continue
        by_share = means.loc[key]
        close = (by_share - r.paper_mean).abs() <= r.paper_std
        row = {"dataset": r.dataset, "k": int(r.k), "model": r.model, "metric": r.metric,
               "paper_mean": r.paper_mean, "paper_std": r.paper_std, "ledger": r.ours_mean,
               "shares_low": by_share.min(), "shares_high": by_share.max(),
               "share_within": by_share.index[close].min() if close.any() else np.nan,
               "seeds_low": np.nan, "seeds_high": np.nan, "seeds_within": 0, "n_seeds": 0}
        if r.model == "MLP":
            by_seed = scores[seeded & (scores["dataset"] == r.dataset) & (scores["k"] == r.k)
                             & (scores["metric"] == r.metric) & (scores["share"] == 0.0)
                             ].groupby("model")["value"].mean()
            row.update(seeds_low=by_seed.min(), seeds_high=by_seed.max(), n_seeds=len(by_seed),
                       seeds_within=int(((by_seed - r.paper_mean).abs() <= r.paper_std).sum()))
        every_seed = row["n_seeds"] > 0 and row["seeds_within"] == row["n_seeds"]
        row["cause"] = {(True, True): "null directions or MLP initialisation",
                        (True, False): "null directions", (False, True): "MLP initialisation",
                        (False, False): "unknown"}[bool(close.any()), every_seed]
        out.append(row)
    return pd.DataFrame(out)


def null_direction_causes_in_words(causes):
    """:func:`null_direction_causes` as one sentence: each miss, the span of its mean over the
    shares t and its cause."""
    parts = []
    for r in causes.itertuples():
        said = (f"the {r.model}'s {'accuracy' if r.metric == 'accuracy_pct' else 'ΔDP'} spans "
                f"{published.format_range([r.shares_low, r.shares_high], 2, ' %')}")
        if r.share_within == r.share_within:
            said += (f", within the paper's std from t = "
                     f"{published.format_value(r.share_within, 2)} on")
        seeds = (f"with the ledger's choice, {r.n_seeds} other seeds of the MLP give "
                 f"{published.format_range([r.seeds_low, r.seeds_high], 2, ' %')}, "
                 f"{r.seeds_within} of them within the paper's std")
        parts.append(said + {
            "null directions": " — cause: the choice among the null directions",
            "null directions or MLP initialisation":
                " — cause: the choice among the null directions, though the MLP's random start "
                f"alone moves it as far ({seeds})",
            "MLP initialisation": f" — cause: the MLP's random start ({seeds})",
            "unknown": " — no share reaches the paper's std: cause unknown"}[r.cause])
    return ("Measured on the ledger's ten splits over the share t of the attribute's direction "
            "that the rounds keep among the null directions (none in the ledger's run): "
            + "; ".join(parts) + ".")
