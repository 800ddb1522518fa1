"""The measures of :mod:`fairlab.metrics`: group fairness of predictions, dependence of a
representation on the sensitive attribute, and what a representation keeps of the data."""


import warnings
from itertools import combinations
from numbers import Real

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist, pdist
from sklearn.linear_model import LogisticRegression

from .._core.linalg import top_principal_axes
from .._core.validation import (
    as_column_matrix,
    check_groups,
    check_int,
    encode_sensitive,
    label_kind,
    sortable_labels,
)


# --------------------------------------------------------------------------------------------
# input helpers
# --------------------------------------------------------------------------------------------
def _as_1d(a, name):
    """A 1-D numpy array (Series/list/column vector accepted)."""
    if isinstance(a, (pd.Series, pd.DataFrame)):
        a = a.to_numpy()
    if isinstance(a, (str, bytes)) or np.isscalar(a):
        raise TypeError(
            f"{name} must be array-like (one entry per sample); got {type(a).__name__}."
        )
    a = np.asarray(a)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one entry per sample); got shape {a.shape}.")
    return a


def _as_matrix(a, name):
    """A finite float matrix (n, p) of numbers; 1-D input becomes one column.

    Only numbers (and booleans, read as 0/1) are accepted: group labels are encoded by
    :func:`_sensitive_matrix`, which is used for the sensitive argument of :func:`cov2` and
    :func:`hsic` only.
    """
    if isinstance(a, pd.DataFrame):
        bad = [c for c, t in a.dtypes.items() if not pd.api.types.is_numeric_dtype(t)]
        if bad:
            raise TypeError(
                f"{name} must be numeric; column(s) {bad} are not. Encode them as numbers first "
                "(e.g. pd.get_dummies for categories)."
            )
        a = a.to_numpy()
    elif isinstance(a, pd.Series):
        a = a.to_numpy()
    a = as_column_matrix(a, name)
    if a.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} must be numeric; got dtype {a.dtype}. Encode category labels as numbers "
            "first (e.g. pd.get_dummies); in cov2/hsic pass a categorical variable as the second "
            "argument, which encodes group labels itself."
        )
    a = a.astype(float)
    if a.shape[0] == 0:
        raise ValueError(f"{name} is empty; pass at least one sample.")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or infinite values; impute or drop those rows.")
    return a


def _sensitive_matrix(S, name, sensitive_type):
    """The sensitive argument of :func:`cov2`/:func:`hsic` as a float matrix (n, q).

    :func:`fairlab._core.validation.encode_sensitive` (the encoding FairPLS uses too), with the
    1/√2 weights of the group indicators applied.
    """
    encoded = encode_sensitive(S, name=name, sensitive_type=sensitive_type)
    return encoded.matrix * encoded.weights


def _check_length(n, other, name):
    if other != n:
        raise ValueError(
            f"{name} has {other} entries but the first argument has {n}; pass one value per sample."
        )


def _group_index(sensitive_features, n_samples, name="sensitive_features"):
    """Integer group ids (intersections of the columns for 2-D input) and the group labels."""
    groups = check_groups(sensitive_features, n_samples, name=name)
    codes = groups.codes
    if codes.shape[1] == 1:
        return codes[:, 0], np.asarray(groups.categories[0]).tolist()  # plain Python labels
    rows, inverse = np.unique(codes, axis=0, return_inverse=True)
    labels = [tuple(np.asarray(groups.categories[r])[c:c + 1].tolist()[0]
                    for r, c in enumerate(row)) for row in rows]
    return inverse.reshape(-1), labels


def _unique(a):
    """Distinct values of a label vector as Python objects (sorted when they can be)."""
    if a.dtype.kind != "O":
        return np.unique(a).tolist()
    values = pd.unique(pd.Series(a, dtype=object)).tolist()
    return sorted(values) if sortable_labels(a) else values


def _check_labels(a, name):
    """Refuse missing values and non-integer floats (probabilities, scores) in a label vector."""
    if a.dtype.kind == "c":
        raise TypeError(f"{name} must hold class labels; got complex dtype {a.dtype}.")
    if a.dtype.kind == "f":
        if not np.isfinite(a).all():
            raise ValueError(
                f"{name} contains NaN or infinite values; every row needs a class label. Drop "
                "those rows (from y_true, y_pred and sensitive_features alike) or predict them."
            )
        fractional = a != np.round(a)
        if fractional.any():
            example = float(a[fractional][0])
            looks_like = ("probabilities" if ((a >= 0) & (a <= 1)).all()
                          else "continuous scores")
            if name == "y_pred":
                fix = ("threshold them, e.g. y_pred = proba >= 0.5 (or pass model.predict(X) "
                       "rather than model.predict_proba(X)[:, 1])"
                       if looks_like == "probabilities"
                       else "threshold them, e.g. y_pred = scores > 0 (or pass model.predict(X))")
            else:
                fix = "pass the true class labels (e.g. 0/1)"
            raise ValueError(
                f"{name} holds non-integer values (e.g. {example:g}) that look like "
                f"{looks_like}, but this metric compares class labels with pos_label: {fix}."
            )
    elif a.dtype.kind == "O" and pd.isna(pd.Series(a, dtype=object)).any():
        raise ValueError(
            f"{name} contains missing values (None/NaN); every row needs a class label. Drop "
            "those rows (from y_true, y_pred and sensitive_features alike)."
        )


def _check_label_sets(y_true, y_pred, pos_label, *, need_true, binary):
    """The label checks shared by the classification metrics (see the module docstring)."""
    try:
        hash(pos_label)
    except TypeError:
        raise TypeError(f"pos_label must be a single label; got {pos_label!r}.") from None
    pred = _unique(y_pred)
    if y_true is None:
        if pos_label not in pred and not any(label_kind(v) == label_kind(pos_label) for v in pred):
            raise ValueError(
                f"pos_label={pos_label!r} cannot match any label of y_pred (labels {pred}); "
                f"pass the favourable label, e.g. pos_label={pred[-1]!r}."
            )
        return
    true = _unique(y_true)
    if binary and len(true) > 2:
        raise ValueError(
            f"equalized_odds_difference is defined for binary labels, but y_true has "
            f"{len(true)} labels {true}. Binarise one class against the rest first, e.g. "
            "equalized_odds_difference(y_true == c, y_pred == c, sensitive_features=...) "
            "(pos_label=1 then matches True)."
        )
    if need_true and pos_label not in true:
        raise ValueError(
            f"pos_label={pos_label!r} does not occur in y_true (labels {true}), so the rates "
            "conditioned on y_true == pos_label are undefined; pass the favourable label of "
            f"y_true, e.g. pos_label={true[-1]!r}."
        )
    if pos_label not in true and pos_label not in pred:
        raise ValueError(
            f"pos_label={pos_label!r} occurs in neither y_true (labels {true}) nor y_pred "
            f"(labels {pred}); pass the favourable label, e.g. pos_label={true[-1]!r}."
        )
    extra = [v for v in pred if v not in true and v != pos_label]
    if extra and len(set(true) | set(pred) | {pos_label}) > 2:
        raise ValueError(
            f"y_pred contains label(s) {extra} that never occur in y_true (labels {true}) and "
            f"are not pos_label={pos_label!r}: y_true and y_pred must use the same label "
            "encoding. Map y_pred onto y_true's labels (e.g. y_pred = np.where(y_pred == 1, 1, 0) "
            "for -1/1 predictions of 0/1 labels), or fix pos_label."
        )


def _prediction_inputs(y_true, y_pred, sensitive_features, *, need_true, pos_label,
                       binary=False):
    y_pred = _as_1d(y_pred, "y_pred")
    n = y_pred.shape[0]
    if n == 0:
        raise ValueError("y_pred is empty; pass at least one prediction.")
    _check_labels(y_pred, "y_pred")
    if need_true or y_true is not None:
        if y_true is None:
            raise ValueError("y_true is required for this metric (it conditions on the true label)")
        y_true = _as_1d(y_true, "y_true")
        _check_length(n, y_true.shape[0], "y_true")
        _check_labels(y_true, "y_true")
    _check_label_sets(y_true, y_pred, pos_label, need_true=need_true, binary=binary)
    ids, labels = _group_index(sensitive_features, n)
    return y_true, y_pred, ids, labels


def _rates(mask_selected, ids, n_groups, within=None):
    """P(selected | group) (optionally within the rows ``within``), one entry per group."""
    rows = np.ones_like(mask_selected, dtype=bool) if within is None else within
    counts = np.bincount(ids[rows], minlength=n_groups).astype(float)
    hits = np.bincount(ids[rows & mask_selected], minlength=n_groups).astype(float)
    return hits, counts


def _checked_rates(hits, counts, labels, what):
    empty = np.flatnonzero(counts == 0)
    if empty.size:
        raise ValueError(
            f"group {labels[empty[0]]!r} has no rows with {what}, so its rate is undefined; "
            "use more data or merge groups."
        )
    return hits / counts


def _ratio(rates, labels, privileged_group):
    """min/max (privileged_group=None) or unprivileged/privileged; 0/0 := 1 (nobody selected)."""
    if privileged_group is None:
        num, den = rates.min(), rates.max()
    else:
        match = [i for i, g in enumerate(labels) if g == privileged_group]
        if not match:
            raise ValueError(
                f"privileged_group={privileged_group!r} is not one of the groups {labels}."
            )
        p = match[0]
        others = np.delete(np.arange(len(rates)), p)
        # several unprivileged groups: the worst (smallest) ratio, as the DI "80% rule" reads
        num, den = rates[others].min(), rates[p]
    if den == 0:
        return 1.0 if num == 0 else float("inf")
    return float(num / den)


# --------------------------------------------------------------------------------------------
# group fairness of predictions
# --------------------------------------------------------------------------------------------
def demographic_parity_difference(y_true, y_pred, *, sensitive_features, pos_label=1):
    """Demographic parity difference Δ_DP = max_g P(Ŷ=1|G=g) − min_g P(Ŷ=1|G=g).

    For two groups this is ``|P(Ŷ=1|Z=0) − P(Ŷ=1|Z=1)|``, the Δ_DP of Kleindessner et al.
    (§5.1, Tables 1–3 and Fig. 4).  Equals
    ``fairlearn.metrics.demographic_parity_difference`` (``between_groups``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or None
        Not used in the value (accepted for a uniform signature with fairlearn); when given it is
        validated against ``y_pred`` (same label encoding, see Raises).
    y_pred : array-like of shape (n_samples,)
        Predicted labels; a prediction is a "selection" when it equals ``pos_label``.
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
        Group labels; several columns define intersectional groups.
    pos_label : scalar, default=1
        The favourable label.

    Returns
    -------
    float in [0, 1]; 0 means equal selection rates.

    Raises
    ------
    ValueError
        The label checks shared by every classification metric of this module:

        * ``y_pred``/``y_true`` with NaN/inf or missing values;
        * ``y_pred``/``y_true`` with non-integer floats, e.g. probabilities from
          ``predict_proba`` (threshold them first: ``y_pred = proba >= 0.5``);
        * ``pos_label`` in neither ``y_true`` nor ``y_pred`` (with ``y_true=None``: of another
          type than every label of ``y_pred``, e.g. ``1`` for ``"yes"``/``"no"`` predictions);
        * a ``y_pred`` label that never occurs in ``y_true`` and is not ``pos_label``, unless
          the three together use only two labels (a binary problem whose ``y_true`` happens to
          hold one class).  This catches mismatched encodings such as −1/1 predictions of 0/1
          labels.

    Examples
    --------
    >>> from fairlab.metrics import demographic_parity_difference
    >>> demographic_parity_difference(None, [1, 1, 1, 0, 1, 0, 0, 0],
    ...                               sensitive_features=list("aaaabbbb"))
    0.5
    """
    _, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=False, pos_label=pos_label
    )
    hits, counts = _rates(y_pred == pos_label, ids, len(labels))
    r = hits / counts
    return float(r.max() - r.min())


def equal_opportunity_difference(y_true, y_pred, *, sensitive_features, pos_label=1):
    """Equal opportunity difference Δ_EO = max_g TPR_g − min_g TPR_g.

    TPR_g = P(Ŷ=1 | Y=1, G=g).  For two groups this is the Δ_EO of Kleindessner et al. §5.2
    (Fig. 4/8, "aiming for EO").  Equals ``fairlearn.metrics.equal_opportunity_difference``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (required: the rates condition on ``y_true == pos_label``).
    y_pred, sensitive_features, pos_label
        As in :func:`demographic_parity_difference`.

    Returns
    -------
    float in [0, 1].

    Raises
    ------
    ValueError
        A group without rows with ``y_true == pos_label`` (its TPR is undefined), ``pos_label``
        absent from ``y_true``, and the label checks of :func:`demographic_parity_difference`.
    """
    y_true, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=True, pos_label=pos_label
    )
    hits, counts = _rates(y_pred == pos_label, ids, len(labels), within=y_true == pos_label)
    tpr = _checked_rates(hits, counts, labels, f"y_true == {pos_label!r}")
    return float(tpr.max() - tpr.min())


def equalized_odds_difference(y_true, y_pred, *, sensitive_features, pos_label=1):
    """Equalized odds difference max(max_g TPR_g − min_g TPR_g, max_g FPR_g − min_g FPR_g).

    TPR_g = P(Ŷ=1 | Y=1, G=g), FPR_g = P(Ŷ=1 | Y=0, G=g): the worst case over the two
    conditional rates (Kleindessner et al. App. C; fairlearn's ``equalized_odds_difference`` with
    ``agg="worst_case"``).  Defined for **binary** labels: ``y_true`` must have at most two
    labels (for a multiclass problem binarise one class against the rest, e.g.
    ``equalized_odds_difference(y_true == c, y_pred == c, sensitive_features=s)``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred, sensitive_features, pos_label
        As in :func:`demographic_parity_difference`.

    Returns
    -------
    float in [0, 1].

    Raises
    ------
    ValueError
        A multiclass ``y_true``; a group without positive or without negative rows; the checks
        of :func:`equal_opportunity_difference`.
    """
    y_true, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=True, pos_label=pos_label,
        binary=True
    )
    selected = y_pred == pos_label
    positive = y_true == pos_label
    tpr = _checked_rates(*_rates(selected, ids, len(labels), within=positive), labels,
                         f"y_true == {pos_label!r}")
    fpr = _checked_rates(*_rates(selected, ids, len(labels), within=~positive), labels,
                         f"y_true != {pos_label!r}")
    return float(max(tpr.max() - tpr.min(), fpr.max() - fpr.min()))


def disparate_impact(y_true, y_pred, *, sensitive_features, privileged_group=None, pos_label=1):
    """Disparate impact DI = P(Ŷ=1 | S=unprivileged) / P(Ŷ=1 | S=privileged) (De-Diego et al. §5).

    De-Diego et al. estimates DI(Ŷ, S) = [n₁,₀/(n₀,₀+n₁,₀)] / [n₁,₁/(n₀,₁+n₁,₁)], with n_{i,j} the
    number of rows with Ŷ = i and S = j and S = 1 the privileged group.  DI is a **ratio**
    (1 = parity, the "80 % rule" flags DI < 0.8), not the difference Δ_DP.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or None
        Not used in the value; validated when given, as in
        :func:`demographic_parity_difference`.
    y_pred, sensitive_features, pos_label
        As in :func:`demographic_parity_difference` (same label checks).
    privileged_group : scalar or None, default=None
        The label of the privileged group.  ``None``: the min/max ratio of the group selection
        rates (fairlearn's ``demographic_parity_ratio``), which equals the paper's DI whenever the
        privileged group is the one selected more often.  With more than one unprivileged group the
        smallest unprivileged/privileged ratio is returned.

    Returns
    -------
    float ≥ 0; 1.0 when no group is selected at all (0/0 read as parity); ``inf`` when only the
    privileged group's rate is 0.
    """
    _, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=False, pos_label=pos_label
    )
    hits, counts = _rates(y_pred == pos_label, ids, len(labels))
    return _ratio(hits / counts, labels, privileged_group)


def disparate_impact_ci(y_true, y_pred, *, sensitive_features, privileged_group=None,
                        pos_label=1, confidence=0.95):
    r"""Disparate impact with its asymptotic confidence interval (Besse et al., 2022).

    With two groups, n_j rows in group j (j = 1 the privileged group), selection rates
    π̂_j = P̂(Ŷ = pos_label | S = j) and DI_n = π̂_0 / π̂_1 (:func:`disparate_impact`), Besse
    et al. (2022, "A survey of bias in machine learning through the prism of statistical
    parity", §3) show by the delta method that √n (DI_n − DI) is asymptotically normal.  Applied
    to the multinomial frequencies of the four cells (Ŷ, S) the asymptotic variance is

    .. math::

        \widehat{\mathrm{Var}}(\mathrm{DI}_n)
        = \frac{\hat\pi_0(1-\hat\pi_0)}{n_0\,\hat\pi_1^2}
        + \frac{\hat\pi_0^2\,\hat\pi_1(1-\hat\pi_1)}{n_1\,\hat\pi_1^4}
        = \mathrm{DI}_n^2\Bigl(\frac{1-\hat\pi_0}{n_0\hat\pi_0}
        + \frac{1-\hat\pi_1}{n_1\hat\pi_1}\Bigr),

    (the covariance of π̂_0 and π̂_1 vanishes asymptotically), and the interval is
    DI_n ± z_{(1+c)/2} · sqrt(Var), symmetric around DI_n, as printed in De-Diego et al.'s
    Table 2 (Adult: 0.3597 [0.3428, 0.3765]; this function gives that interval from the labels).

    Parameters
    ----------
    y_true, y_pred, sensitive_features, pos_label, privileged_group
        As in :func:`disparate_impact`; ``sensitive_features`` must define exactly two groups.
        ``privileged_group=None``: the group with the larger selection rate.
    confidence : float in (0, 1), default=0.95

    Returns
    -------
    tuple of float
        ``(di, low, high)``.  When the privileged rate is 0 the variance is undefined and the
        bounds are NaN.
    """
    from scipy.stats import norm

    if not (isinstance(confidence, Real) and 0 < confidence < 1):
        raise ValueError(f"confidence must be a number in (0, 1); got {confidence!r}.")
    _, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=False, pos_label=pos_label
    )
    if len(labels) != 2:
        raise ValueError(
            f"sensitive_features must define exactly two groups for disparate_impact_ci; got "
            f"{len(labels)} ({labels}). Binarise the attribute (privileged vs the rest)."
        )
    hits, counts = _rates(y_pred == pos_label, ids, 2)
    rates = hits / counts
    if privileged_group is None:
        priv = int(np.argmax(rates))
    else:
        match = [i for i, g in enumerate(labels) if g == privileged_group]
        if not match:
            raise ValueError(
                f"privileged_group={privileged_group!r} is not one of the groups {labels}."
            )
        priv = match[0]
    p1, n1 = rates[priv], counts[priv]
    p0, n0 = rates[1 - priv], counts[1 - priv]
    di = _ratio(rates, labels, labels[priv])
    if p1 == 0:
        return di, float("nan"), float("nan")
    var = p0 * (1 - p0) / (n0 * p1**2) + p0**2 * p1 * (1 - p1) / (n1 * p1**4)
    half = float(norm.ppf(0.5 + confidence / 2) * np.sqrt(var))
    return di, di - half, di + half


def equal_opportunity_ratio(y_true, y_pred, *, sensitive_features, privileged_group=None,
                            pos_label=1):
    """Equal opportunity ratio EOpp = TPR_unprivileged / TPR_privileged (De-Diego et al., Fig. 4).

    EOpp = P̂(Ŷ=1 | S=0, Y=1) / P̂(Ŷ=1 | S=1, Y=1).  ``privileged_group=None`` gives min/max over
    groups, i.e. fairlearn's ``equal_opportunity_ratio``.  Conventions as in
    :func:`disparate_impact`; input checks as in :func:`equal_opportunity_difference`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (required).
    y_pred, sensitive_features, pos_label, privileged_group
        As in :func:`disparate_impact`.

    Returns
    -------
    float ≥ 0.
    """
    y_true, y_pred, ids, labels = _prediction_inputs(
        y_true, y_pred, sensitive_features, need_true=True, pos_label=pos_label
    )
    hits, counts = _rates(y_pred == pos_label, ids, len(labels), within=y_true == pos_label)
    tpr = _checked_rates(hits, counts, labels, f"y_true == {pos_label!r}")
    return _ratio(tpr, labels, privileged_group)


def ks_distance(y_pred, *, sensitive_features):
    """Kolmogorov–Smirnov distance between the groups' distributions of a continuous prediction.

    KS = sup_t ``|F_a(t) − F_b(t)|``, F_g the empirical CDF of ``y_pred`` within group g; with more
    than two groups, the maximum over pairs.  It is the regression counterpart of DI in De-Diego et
    al.
    (Tables 2 and 5, Communities and Crimes): 0 = identical distributions, 1 = disjoint supports.
    Equals ``scipy.stats.ks_2samp(...).statistic`` for two groups.
    """
    y_pred = _as_1d(y_pred, "y_pred")
    if y_pred.dtype.kind not in "biuf":
        raise TypeError(f"y_pred must be numeric for ks_distance; got dtype {y_pred.dtype}.")
    y_pred = y_pred.astype(float)
    if y_pred.size == 0 or not np.isfinite(y_pred).all():
        raise ValueError("y_pred must be non-empty and finite (no NaN/inf).")
    ids, labels = _group_index(sensitive_features, y_pred.shape[0])
    grid = np.unique(y_pred)
    # F_g evaluated at every observed value: sup of |F_a − F_b| is attained there
    cdfs = [np.searchsorted(np.sort(y_pred[ids == g]), grid, side="right") / np.sum(ids == g)
            for g in range(len(labels))]
    return float(max(np.abs(cdfs[a] - cdfs[b]).max() for a, b in combinations(range(len(cdfs)), 2)))


# --------------------------------------------------------------------------------------------
# dependence between a representation and the sensitive attribute
# --------------------------------------------------------------------------------------------
def _median_sq_dist(X):
    """Median of the squared Euclidean distances over the n(n−1)/2 distinct pairs (MATLAB pdist)."""
    if X.shape[0] < 2:
        raise ValueError("the median heuristic needs at least two samples.")
    return float(np.median(pdist(X, "sqeuclidean")))


#: The metrics' default RBF width: γ = 1/median of the squared distances (:func:`hsic`).  The
#: estimators' ``gamma=None`` is another rule, 1/(d·Var(X)) (scikit-learn's ``"scale"``); the
#: two have two names, and ``None`` here is read as ``"median"`` with a FutureWarning.
MEDIAN = "median"


def _rbf_gamma(X, gamma, name):
    if gamma is None:
        warnings.warn(
            f"{name}=None in fairlab.metrics is the median heuristic, while the estimators read "
            f"gamma=None as 1/(n_features·Var(X)); pass {name}='median' (the default) to keep "
            "this value. None will be refused in a future release.", FutureWarning, stacklevel=4)
        gamma = MEDIAN
    if isinstance(gamma, str) and gamma == MEDIAN:
        sq = pdist(X, "sqeuclidean") if X.shape[0] >= 2 else np.zeros(0)
        med = float(np.median(sq)) if sq.size else 0.0
        if med <= 0:
            # discrete data (e.g. a binary attribute): most pairs can coincide, so take the median
            # over the pairs of distinct rows instead
            positive = sq[sq > 0]
            if positive.size == 0:
                return 1.0  # constant data: the centred Gram matrix is 0 for any γ
            med = float(np.median(positive))
        return 1.0 / med
    if not np.isscalar(gamma) or isinstance(gamma, (bool, str)) or not gamma > 0:
        raise ValueError(f"{name} must be 'median' or a positive number; got {gamma!r}.")
    return float(gamma)


def _centred_gram(X, kernel, gamma, name):
    if kernel == "linear":
        Xc = X - X.mean(axis=0)
        return Xc @ Xc.T
    return _centred_rbf(cdist(X, X, "sqeuclidean"), _rbf_gamma(X, gamma, name))


def _centred_rbf(sq_dist, gamma):
    """H K H for K = exp(−γ·D), D the matrix of squared distances (shared by several γ).

    K − 1mᵀ − m1ᵀ + m̄ (m the column means) evaluated in place in one new array, entry by
    entry in that order: the numbers of the expression with its temporaries, bit for bit.
    """
    K = np.multiply(sq_dist, -gamma)
    np.exp(K, out=K)
    rows = K.mean(axis=0)
    K -= rows[None, :]
    K -= rows[:, None]
    K += rows.mean()
    return K


def _hsic_linear_second(Kc, Y):
    """(1/n²) tr(K̃ · ỸỸᵀ) = (1/n²) tr(Ỹᵀ K̃ Ỹ) for a centred K̃: no second n×n matrix."""
    Yc = Y - Y.mean(axis=0)
    return max(float(np.einsum("ij,ij->", Yc, Kc @ Yc)) / Kc.shape[0] ** 2, 0.0)


def hsic_rbf_widths(X, Y, gammas, *, sensitive_type="auto"):
    """:func:`hsic` with the RBF kernel on X and the linear one on Y, for several widths at once.

    ``[hsic(X, Y, kernel="rbf", gamma=g, sensitive_type=sensitive_type) for g in gammas]``,
    the same numbers, with the squared distances of X computed once instead of once per γ — the
    search of a kernel width that maximises the dependence on S (Pérez-Suay et al. §4.4).

    Parameters
    ----------
    X : array-like of shape (n_samples,) or (n_samples, p)
    Y : array-like of shape (n_samples,) or (n_samples, q)
        Encoded as in :func:`hsic`.
    gammas : sequence of float > 0
        The widths γ of exp(−γ‖x − x'‖²).
    sensitive_type : {"auto", "categorical", "continuous"}, default="auto"

    Returns
    -------
    ndarray of shape (len(gammas),)

    Examples
    --------
    >>> from fairlab.metrics import hsic, hsic_rbf_widths
    >>> X, s = [[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1]
    >>> widths = hsic_rbf_widths(X, s, [0.1, 1.0])
    >>> float(widths[1]) == hsic(X, s, kernel="rbf", gamma=1.0)
    True
    """
    X, Y = _hsic_inputs(X, Y, sensitive_type, "hsic_rbf_widths")
    gammas = np.asarray(gammas, dtype=float)
    if gammas.ndim != 1 or gammas.size == 0 or not np.all(np.isfinite(gammas) & (gammas > 0)):
        raise ValueError(f"gammas must be a non-empty 1-D sequence of positive numbers; "
                         f"got {gammas!r}.")
    sq_dist = cdist(X, X, "sqeuclidean")
    return np.array([_hsic_linear_second(_centred_rbf(sq_dist, g), Y) for g in gammas])


def hsic(X, Y, *, kernel="linear", gamma=MEDIAN, kernel_y="linear", gamma_y=MEDIAN,
         sensitive_type="auto"):
    """Biased HSIC estimator (1/n²) tr(K H L H) of Pérez-Suay et al., eq. (1).

    K = k(X, X), L = l(ψ(Y), ψ(Y)), H = I − (1/n)11ᵀ, where ψ encodes the second variable (the
    sensitive attribute) as in :func:`cov2`: continuous columns as they are, a categorical
    column with m groups as its m group indicators divided by √2.  Kernels: ``"linear"``
    (k(x, x') = xᵀx') or ``"rbf"`` (k(x, x') = exp(−γ‖x − x'‖²)); ``gamma="median"`` is the median
    heuristic γ = 1 / median_{i<j} ‖x_i − x_j‖², i.e. the width σ = sqrt(median/2) of
    :func:`lee_bandwidth` in Pérez-Suay et al.'s parametrisation exp(−‖x − x'‖²/(2σ²)).  When that
    median is 0 (discrete data such as a binary attribute, where most pairs coincide) the median
    over the pairs of distinct rows is used.

    With two linear kernels HSIC = (1/n²)‖X̃ᵀỸ‖²_F = :func:`cov2` (X̃, Ỹ column-centred, Y
    encoded); this case is computed in O(n·p·q) without any n×n matrix.  Pérez-Suay et al. uses it
    with predictions as X and the sensitive attribute as Y; De-Diego et al. uses the kernel form as
    the fairness term of kernel Fair PLS.

    Group labels: with the √2 scaling two rows of different groups are at squared distance
    ‖ψ(s) − ψ(s')‖² = 1 (the number of differing attributes, for several categorical columns),
    so the RBF kernel on one categorical attribute is l(s, s') = 1 if s = s', exp(−γ_y)
    otherwise, and the median heuristic gives γ_y = 1.  Hence a **binary attribute gives the
    same HSIC whether it is passed as 0/1 numbers (continuous) or as group labels**, for the
    linear kernel and for the RBF kernel with any ``gamma_y``.  A binary attribute coded a/b as
    continuous numbers gives (b − a)² times the linear value of its group coding (e.g. 4× for
    −1/+1); with the RBF kernel and ``gamma_y="median"`` the coding does not matter.

    Parameters
    ----------
    X : array-like of shape (n_samples,) or (n_samples, p)
        Numeric (the predictions or the representation).
    Y : array-like of shape (n_samples,) or (n_samples, q)
        The sensitive attribute (or any second variable): numbers or group labels, encoded
        according to ``sensitive_type``; a DataFrame is encoded column by column.
    kernel, kernel_y : {"linear", "rbf"}
        Kernels on X and on the encoded Y.
    gamma, gamma_y : float > 0 or "median", default="median"
        The RBF widths γ.  ``"median"``: the median heuristic above.  (The estimators'
        ``gamma=None`` is 1/(d·Var(X)) instead; ``None`` is accepted here as ``"median"``, with
        a FutureWarning.)
    sensitive_type : {"auto", "categorical", "continuous"}, default="auto"
        How Y is read.  ``"auto"``: float columns are continuous; integer, boolean, string,
        object and pandas categorical columns are group labels.  ``"categorical"``: every column
        is group labels (also floats).  ``"continuous"``: every column is used as numbers
        (integers and booleans included; strings raise ``TypeError``).

    Returns
    -------
    float ≥ 0 (0 for a constant X or Y).

    Examples
    --------
    >>> from fairlab.metrics import hsic
    >>> hsic([1, 2, 3, 4], ["a", "a", "b", "b"]) == hsic([1, 2, 3, 4], [0.0, 0.0, 1.0, 1.0])
    True
    """
    X, Y = _hsic_inputs(X, Y, sensitive_type, "hsic")
    for k, name in ((kernel, "kernel"), (kernel_y, "kernel_y")):
        if k not in ("linear", "rbf"):
            raise ValueError(f"{name}={k!r} is not supported; choose 'linear' or 'rbf'.")
    n = X.shape[0]
    if kernel == "linear" and kernel_y == "linear":
        return _cov2(X, Y)
    Kc = _centred_gram(X, kernel, gamma, "gamma")
    if kernel_y == "linear":
        return _hsic_linear_second(Kc, Y)
    Lc = _centred_gram(Y, kernel_y, gamma_y, "gamma_y")
    # tr(K H L H) = Σ_ij (HKH)_ij L_ij; with both centred the sum is the same
    return max(float(np.einsum("ij,ij->", Kc, Lc)) / n**2, 0.0)


def _hsic_inputs(X, Y, sensitive_type, caller):
    """X as a matrix and Y encoded (as :func:`hsic` reads them), of equal length, ≥ 2 rows."""
    X = _as_matrix(X, "X")
    Y = _sensitive_matrix(Y, "Y", sensitive_type)
    _check_length(X.shape[0], Y.shape[0], "Y")
    if X.shape[0] < 2:
        raise ValueError(
            f"{caller} needs at least 2 samples (a dependence between X and Y is measured over "
            f"pairs of rows); got {X.shape[0]}.")
    return X, Y


def _cov2(T, S):
    C = (T - T.mean(axis=0)).T @ (S - S.mean(axis=0)) / T.shape[0]
    return float(np.sum(C**2))


def cov2(scores, sensitive, *, sensitive_type="auto", standardize=False, reduce="sum"):
    r"""Squared cross-covariance Cov²(T, S) = ‖(1/n) T̃ᵀ S̃‖²_F of De-Diego et al. (eq. (4), Table 1).

    T (n × k) are the component scores r(X), S (n × q) the encoded sensitive attribute (or the
    target, for the column Cov²(r(X), Y) of Table 1); T̃, S̃ are column-centred.  Precisely: the
    k × q cross-covariance matrix C = T̃ᵀS̃ / n (divisor n, as C_{A,B} = AᵀB/n in De-Diego et al.
    §3.2), and Cov² = Σ_{a,b} C_ab², the sum over components and sensitive columns of the squared
    covariances.  For one component and one continuous attribute it is Cov(t, s)², the quantity
    the Fair PLS penalty η·Cov²(Xw, S) drives to 0.  Equals :func:`hsic` with linear kernels on
    both sides.

    Encoding of ``sensitive`` (column by column): a continuous column is used as it is; a
    categorical column with groups g = 1, …, m becomes the m columns 1[S = g]/√2, so that

    .. math::

        \mathrm{Cov}^2(T, S) = \tfrac12 \sum_a \sum_g \mathrm{Cov}(t_a, 1[S = g])^2
        = \tfrac12 \sum_a \sum_g p_g^2 (\mu_{a,g} - \mu_a)^2 ,

    with p_g the share of group g, μ_{a,g} the mean of component a in group g and μ_a its overall
    mean: invariant to relabelling the groups, 0 exactly when every group has the same mean.  For
    two groups the centred indicators are opposite (1[S = 1] − p₁ = −(1[S = 0] − p₀)), so the
    value is Σ_a Cov(t_a, 1[S = 1])² = Σ_a (p₀p₁(μ_{a,1} − μ_{a,0}))² — **exactly the value of
    the attribute coded as a 0/1 number**, De-Diego et al.'s binary indicator S (without the
    1/√2 it would be twice that).  A binary attribute coded a/b as continuous numbers gives
    (b − a)² times the group value (e.g. 4× for −1/+1).  A two-group column is therefore
    computed as its single 0/1 indicator 1[S = g₂] (g₂ the larger label), the same value without
    rounding noise.  :class:`~fairlab.FairPLS` penalises group labels with the same ½ Σ_g.

    Parameters
    ----------
    scores : array-like of shape (n_samples,) or (n_samples, k)
        Numeric component scores T.
    sensitive : array-like of shape (n_samples,) or (n_samples, q)
        Numbers or group labels; a DataFrame is encoded column by column.
    sensitive_type : {"auto", "categorical", "continuous"}, default="auto"
        ``"auto"``: float columns are continuous; integer, boolean, string, object and pandas
        categorical columns are group labels.  ``"categorical"``: every column is group labels.
        ``"continuous"``: every column is used as numbers (e.g. an integer-valued target or an
        age in years); strings raise ``TypeError``.
    standardize : {False, "scores", "sensitive", True}, default=False
        Which side is divided by its population standard deviation (ddof=0; a constant column
        is left as it is) before the covariances are taken.  ``False``: neither (the formula
        above, the value of the printed definition C = T̃ᵀS̃/n).  ``"scores"``: each component
        t_a has unit variance.  ``"sensitive"``: each column of the encoded second argument
        (for two groups: the 0/1 indicator) has unit variance.  ``True``: both, so that
        Cov² = Σ_{a,b} corr²(t_a, s_b), the sum of squared correlations, invariant to the scale
        of either side.  De-Diego et al. do not say which scaling their Table 1 uses; the
        chapter "Reproducing De-Diego et al." compares these options with the printed cells.
    reduce : {"sum", "mean"}, default="sum"
        ``"sum"``: Σ_{a,b} C_ab² (the Frobenius norm squared).  ``"mean"``: that sum divided by
        the number of entries k·q (the average over components and columns).

    Returns
    -------
    float ≥ 0.

    Examples
    --------
    >>> from fairlab.metrics import cov2, hsic
    >>> cov2([1, 2, 3, 4], [0, 0, 1, 1])   # centred t·s summed = 2, /n = 0.5, squared
    0.25
    >>> cov2([1, 2, 3, 4], ["f", "f", "m", "m"])   # the same groups as labels
    0.25
    >>> hsic([1, 2, 3, 4], [0, 0, 1, 1])   # linear kernels: the same number
    0.25
    >>> cov2([1, 2, 3, 4], [-1, -1, 1, 1], sensitive_type="continuous")   # −1/+1 as numbers: 4×
    1.0
    >>> round(cov2([1, 2, 3, 4], [0, 0, 1, 1], standardize=True), 4)   # corr² = 0.8
    0.8
    >>> cov2([[1, 0], [2, 0], [3, 0], [4, 0]], [0, 0, 1, 1], reduce="mean")   # (0.25 + 0) / 2
    0.125
    """
    if standardize not in (False, True, "scores", "sensitive"):
        raise ValueError(
            f"standardize must be False, True, 'scores' or 'sensitive'; got {standardize!r}."
        )
    if reduce not in ("sum", "mean"):
        raise ValueError(f"reduce must be 'sum' or 'mean'; got {reduce!r}.")
    T = _as_matrix(scores, "scores")
    S = _sensitive_matrix(sensitive, "sensitive", sensitive_type)
    _check_length(T.shape[0], S.shape[0], "sensitive")
    if standardize in (True, "scores"):
        T = _unit_variance(T)
    if standardize in (True, "sensitive"):
        S = _unit_variance(S)
    value = _cov2(T, S)
    return value / (T.shape[1] * S.shape[1]) if reduce == "mean" else value


def _unit_variance(A):
    """Columns divided by their population std (ddof=0); constant columns left as they are."""
    std = A.std(axis=0)
    std[std == 0] = 1.0
    return A / std


def lee_bandwidth(X_train, n_components):
    """Gaussian-kernel width σ of Lee et al. (2022) for :func:`mmd2`.

    Project the training data on its top ``n_components`` principal axes (centred PCA, as MATLAB
    ``pca``) and take σ = sqrt(median_{i<j} ‖P(x_i) − P(x_j)‖² / 2) over the n(n−1)/2 distinct
    pairs.  One σ per split, shared by every method evaluated on that split.  Pairwise distances
    do not depend on the centring or on the signs of the axes, so only the span matters.
    """
    X = _as_matrix(X_train, "X_train")
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError("X_train must have at least two rows.")
    k = check_int(n_components, "n_components", maximum=min(X.shape))
    Xc = X - X.mean(axis=0)
    # the top-k principal axes span the same subspace as MATLAB pca's first k loadings
    V = top_principal_axes(Xc, k)
    return float(np.sqrt(_median_sq_dist(Xc @ V) / 2.0))


def _two_groups(sensitive_features, n):
    ids, labels = _group_index(sensitive_features, n)
    if len(labels) != 2:
        raise ValueError(
            f"sensitive_features must define exactly two groups for mmd2; got {len(labels)} "
            f"({labels}). Binarise the attribute (e.g. privileged vs the rest)."
        )
    return ids


def _kernel_mean(A, B, gamma, block=2048):
    """mean_{a∈A, b∈B} exp(−γ‖a − b‖²), in row blocks to bound memory at O(block·|B|)."""
    total = 0.0
    for start in range(0, A.shape[0], block):
        total += np.exp(-gamma * cdist(A[start:start + block], B, "sqeuclidean")).sum()
    return total / (A.shape[0] * B.shape[0])


def mmd2(embedding, sensitive_features, *, sigma=None):
    """Squared MMD between the two groups, biased V-statistic with a Gaussian kernel.

    MMD² = mean K(A, A) + mean K(B, B) − 2 mean K(A, B) over all pairs **including** i = j, with
    A, B the rows of each group and K(x, y) = exp(−‖x − y‖²/(2σ²)): the estimator of Lee et al.
    (2022, ``mmd.m``) used for the MMD² column of Kleindessner et al. Tables 1–3 and Fig. 2.  It is
    symmetric
    in the groups, ≥ 0, and 0 when the two groups are the same point set.

    Parameters
    ----------
    embedding : array-like of shape (n_samples, k)
        The representation (Kleindessner et al.: the test embedding of a split).
    sensitive_features : array-like of shape (n_samples,)
        Exactly two groups.
    sigma : float > 0 or None
        Kernel width.  ``None``: sqrt(median_{i<j} ‖e_i − e_j‖² / 2) of ``embedding`` itself.  To
        reproduce the papers pass ``sigma=lee_bandwidth(X_train, k)`` (PCA-k of the training split).

    Examples
    --------
    >>> from fairlab.metrics import mmd2
    >>> round(mmd2([[0.0], [1.0]], [0, 1], sigma=1.0), 6)   # 2 − 2·exp(−1/2)
    0.786939
    >>> mmd2([[0.0], [1.0], [0.0], [1.0]], [0, 0, 1, 1], sigma=1.0)   # same points
    0.0
    """
    E = _as_matrix(embedding, "embedding")
    ids = _two_groups(sensitive_features, E.shape[0])
    if sigma is None:
        sigma = np.sqrt(_median_sq_dist(E) / 2.0)
        if sigma == 0:
            raise ValueError(
                "sigma=None: the median pairwise distance of the embedding is 0; pass sigma=..."
            )
    elif not np.isscalar(sigma) or isinstance(sigma, (bool, str)) or not sigma > 0:
        raise ValueError(f"sigma must be None or a positive number; got {sigma!r}.")
    gamma = 1.0 / (2.0 * float(sigma) ** 2)
    A, B = E[ids == 0], E[ids == 1]
    value = _kernel_mean(A, A, gamma) + _kernel_mean(B, B, gamma) - 2.0 * _kernel_mean(A, B, gamma)
    return max(float(value), 0.0)  # ≥ 0 in exact arithmetic; clip round-off


def linear_inseparability(embedding, sensitive_features, *, random_state=0):
    """Error rate of an L2-regularised logistic model predicting the group from the representation.

    Kleindessner et al. §5.1 ("linear inseparability"; higher = fairer, ≈ the minority share when
    nothing is
    linearly predictable): MATLAB ``fitclinear(E, z, 'Learner', 'logistic')`` is trained **and
    evaluated** on the same embedding.  fitclinear minimises (1/n)Σ loss + (λ/2)‖β‖² with λ = 1/n
    and an unpenalised bias, which is scikit-learn's ``LogisticRegression(C=1)`` objective
    C Σ loss + ½‖β‖² (C = 1/(nλ) = 1), used here (lbfgs, deterministic; ``random_state`` is passed
    for solvers that need it).  More than two groups: multinomial logistic regression.
    """
    E = _as_matrix(embedding, "embedding")
    ids, _ = _group_index(sensitive_features, E.shape[0])
    model = LogisticRegression(C=1.0, max_iter=10_000, random_state=random_state)
    model.fit(E, ids)
    return float(np.mean(model.predict(E) != ids))


# --------------------------------------------------------------------------------------------
# utility of a linear representation
# --------------------------------------------------------------------------------------------
def _check_components(X, components, name="components"):
    U = _as_matrix(components, name)
    if U.shape[1] != X.shape[1]:
        raise ValueError(
            f"{name} has {U.shape[1]} columns but X has {X.shape[1]} features; pass components of "
            "shape (n_components, n_features), e.g. estimator.components_."
        )
    return U


def explained_variance(X, components):
    """Fraction of variance explained, tr(UᵀΣU) / tr(Σ), with U = components.T (d × k).

    Σ = ``np.cov(X, rowvar=False)`` (centred with X's own mean, divisor n − 1; the divisor
    cancels).  Lee et al. (2022) and Kleindessner et al. (Tables 1–3, Fig. 2, "%Var" = 100 × this)
    evaluate
    it on the **test** split: Σ is the test covariance, U was learned on the training split.
    Computed as ‖X̃U‖²_F / ‖X̃‖²_F without forming Σ.

    ``components`` must have orthonormal rows (for a non-orthonormal basis the ratio is not a
    fraction of variance); orthonormalise first, e.g. ``np.linalg.qr(W)[0].T``.
    """
    X = _as_matrix(X, "X")
    U = _check_components(X, components)
    gram = U @ U.T
    if not np.allclose(gram, np.eye(U.shape[0]), atol=1e-6):
        raise ValueError(
            "components must have orthonormal rows (components @ components.T = I); "
            "orthonormalise them first, e.g. np.linalg.qr(W)[0].T for a d × k matrix W."
        )
    Xc = X - X.mean(axis=0)
    total = float(np.sum(Xc**2))
    if total == 0:
        raise ValueError("X has zero variance; explained variance is undefined.")
    return float(np.sum((Xc @ U.T) ** 2) / total)


def reconstruction_error(X, components, mean=None, *, normalize=False):
    """Mean squared reconstruction error ‖X̃ − X̃ P‖²_F / n, P the projector onto the components.

    X̃ = X − ``mean`` (``mean=None``: no centring, as Kleindessner et al.'s uncentred experiments;
    pass
    ``estimator.mean_`` for a centred model).  With orthonormal rows U (k × d), P = UᵀU, i.e. the
    Kleindessner et al. Fig. 1 quantity ‖X − XUUᵀ‖²_F (divided by n here).  Non-orthonormal
    components
    (e.g. PLS weights) are orthonormalised: P is the orthogonal projector onto their row span.
    Rows that are exactly zero (the components an estimator leaves zero when its fit stops
    early) span nothing and are left out; the other rows must be linearly independent.

    ``normalize=True`` divides by ‖X̃‖²_F instead of n: the fraction of the (uncentred) energy
    lost, in [0, 1].  De-Diego et al. Table 1 reports Error(X, r(X)) = tr((X − r(X))ᵀ(X − r(X))) on
    standardised data with values below 1, which matches this normalised form.
    """
    X = _as_matrix(X, "X")
    U = _check_components(X, components)
    if mean is not None:
        mean = _as_matrix(np.asarray(mean, dtype=float).reshape(1, -1), "mean")
        if mean.shape[1] != X.shape[1]:
            raise ValueError(f"mean has {mean.shape[1]} entries but X has {X.shape[1]} features.")
        X = X - mean
    # a QR of a zero column would still add a basis vector (its Householder step is the identity)
    U = U[np.any(U != 0, axis=1)]
    Q, _ = np.linalg.qr(U.T)  # d × k orthonormal basis of the row span
    residual = X - (X @ Q) @ Q.T
    err = float(np.sum(residual**2))
    if normalize:
        total = float(np.sum(X**2))
        if total == 0:
            raise ValueError("X is zero after centring; the normalised error is undefined.")
        return err / total
    return err / X.shape[0]
