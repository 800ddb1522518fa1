"""De-Diego et al. (2025) §4, the readings of Cov²(r(X), v): what r(X) is, how Y and S enter,
and how the components are summed — the one place the experiment's Cov² hypotheses are listed.

The paper prints Cov²(r(X), Y) and Cov²(r(X), S) without saying which r, which scaling or
which sum; every reading below is computed and kept, and the chapter lets the printed values
choose (one reading per experiment, never per cell).
"""

import itertools

import numpy as np
import pandas as pd

from ... import metrics

#: The options of each part of a Cov² normalisation hypothesis (:func:`normalisations`).
NORMALISATION_OPTIONS = {
    "features": ("S not in X", "S in X"),
    "rows": ("test", "train"),
    "scores": ("raw", "unit", "reconstruction"),
    "targets": ("raw", "standardized", "one-hot"),
    "reduce": ("sum", "mean", "trace"),
}

#: The hypothesis used for the Cov² columns of Tables 4-5 unless another is passed.
DEFAULT_NORMALISATION = {"features": "S not in X", "rows": "test", "scores": "raw",
                         "targets": "raw", "reduce": "sum"}


def normalisations():
    """Every Cov² normalisation hypothesis of the chapter, one row each.

    The product of :data:`NORMALISATION_OPTIONS`:

    * ``features``: the sensitive attribute left out of X, as our loaders do, or appended to X
      as one more standardised column;
    * ``rows``: Cov² on the test or the training rows;
    * ``scores``, what r(X) is: the scores T as ``FairPLS.transform`` returns them
      (standardised X times the rotations, ``"raw"``), each component scaled to unit variance
      (``"unit"``), or the reconstruction of the standardised X from them, T Pᵀ with the PLS
      loadings P (``"reconstruction"``, n × d: the paper's Error compares r(X) with X, so r
      may be read in X's space);
    * ``targets``: Y and S as loaded (0/1, or the [0, 1] regression target), standardised, or a
      binary one as its two indicator columns, as PLS for classification takes a one-hot Y,
      which doubles Cov² (a continuous one stays as loaded);
    * ``reduce``: the sum of the columns' Cov², their mean, or the sum divided by the total
      variance of r(X), tr Cov(r(X)) (``"trace"``: scale-free in r).

    The covariances divide by n (``fairlab.metrics.cov2``); the factor (n/(n − 1))² of the
    other convention is below 1 % at every test set's size here, far inside the paper's std.
    """
    opts = NORMALISATION_OPTIONS
    return pd.DataFrame(list(itertools.product(*opts.values())), columns=list(opts))


def check_normalisation(normalisation):
    """:data:`DEFAULT_NORMALISATION` updated by ``normalisation`` (a dict or None), checked."""
    norm = dict(DEFAULT_NORMALISATION)
    if normalisation is not None:
        if not isinstance(normalisation, dict):
            raise TypeError(f"normalisation must be a dict; got {type(normalisation).__name__}.")
        unknown = set(normalisation) - set(NORMALISATION_OPTIONS)
        if unknown:
            raise ValueError(f"normalisation has unknown key(s) {sorted(unknown)}; use "
                             f"{list(NORMALISATION_OPTIONS)}.")
        norm.update(normalisation)
    for key, value in norm.items():
        if value not in NORMALISATION_OPTIONS[key]:
            raise ValueError(f"normalisation[{key!r}] must be one of "
                             f"{NORMALISATION_OPTIONS[key]}; got {value!r}.")
    return norm


def cov2_reading(R, v, scores, targets, reduce):
    """Cov²(R, v) under one reading of :func:`normalisations`, R already r(X) of ``scores``
    (the reconstruction for ``"reconstruction"``, else the scores).

    ``targets="one-hot"``: a binary v becomes its two indicator columns 1[v = a], 1[v = b] and
    the value is the sum of their Cov² — 2·Cov²(R, v), since the centred indicators are ±ṽ.
    ``reduce="trace"``: the sum over R's columns divided by Σ_j Var(r_j) (after the unit
    scaling of ``scores="unit"``, where it equals the mean); a constant R gives NaN.
    """
    v = np.asarray(v, float)
    unit = scores == "unit"
    by = "sum" if reduce == "trace" else reduce
    if targets == "one-hot" and len(np.unique(v)) == 2:
        value = sum(metrics.cov2(R, (v == level).astype(float), sensitive_type="continuous",
                                 standardize="scores" if unit else False, reduce=by)
                    for level in np.unique(v))
    else:
        std = targets == "standardized"
        flag = True if unit and std else ("scores" if unit else ("sensitive" if std else False))
        value = metrics.cov2(R, v, sensitive_type="continuous", standardize=flag, reduce=by)
    if reduce != "trace":
        return value
    variances = np.var(R, axis=0)
    total = float(np.sum(variances > 0)) if unit else float(np.sum(variances))
    return value / total if total > 0 else np.nan


def cov2_readings(model, T, v):
    """Cov²(r(X), v) under every ``scores × targets × reduce`` of :func:`normalisations`.

    ``T`` is ``model.transform`` of the rows; the ``"reconstruction"`` readings need the PLS
    loadings ``x_loadings_`` (in the standardised space of ``FairPLS``) and are left out for
    a model without them.

    Returns
    -------
    dict
        ``(scores, targets, reduce) -> value``.
    """
    opts = NORMALISATION_OPTIONS
    loadings = getattr(model, "x_loadings_", None)
    out = {}
    for scores in opts["scores"]:
        if scores == "reconstruction":
            if loadings is None or np.shape(loadings)[1] != T.shape[1]:
                continue
            R = T @ np.asarray(loadings).T
        else:
            R = T
        for targets, reduce in itertools.product(opts["targets"], opts["reduce"]):
            out[scores, targets, reduce] = cov2_reading(R, v, scores, targets, reduce)
    return out
