"""Fairness and representation metrics, each computed exactly as the paper that uses it.

Three families, one place (so that every table of the book is comparable):

**Group fairness of predictions** (classification, labels compared with ``pos_label``).
With selection rate r_g = P(Ŷ = 1 | G = g) and true/false positive rates TPR_g, FPR_g:

* :func:`demographic_parity_difference` — max_g r_g − min_g r_g
  (Kleindessner et al., Δ_DP of §5);
* :func:`equal_opportunity_difference` — max_g TPR_g − min_g TPR_g
  (Kleindessner et al., Δ_EO of §5.2);
* :func:`equalized_odds_difference` — max(ΔTPR, ΔFPR) (Kleindessner et al. App. C);
* :func:`disparate_impact` — r_unpriv / r_priv (De-Diego et al. §5, DI);
* :func:`disparate_impact_ci` — DI with its asymptotic (delta-method) confidence interval
  (Besse et al. 2022; De-Diego et al. Table 2);
* :func:`equal_opportunity_ratio` — TPR_unpriv / TPR_priv (De-Diego et al. Fig. 4, EOpp);
* :func:`ks_distance` — sup_t ``|F_a(t) − F_b(t)|`` (De-Diego et al. Table 5).

The differences agree with fairlearn's functions of the same name (``method="between_groups"``,
``agg="worst_case"``); the ratios agree with fairlearn's ``*_ratio`` (min over max) when no
privileged group is named.  A 2-D ``sensitive_features`` defines intersectional groups, as in
fairlearn.  ``sensitive_features`` is always read as group labels (of any type), here and in
:func:`ks_distance`, :func:`mmd2` and :func:`linear_inseparability`.

Labels are checked, not coerced: ``y_pred``/``y_true`` with NaN or missing values, with
non-integer floats (probabilities or scores: threshold them first, ``y_pred = proba >= 0.5``),
a ``pos_label`` found in neither ``y_true`` nor ``y_pred``, or a ``y_pred`` label that
``y_true`` never uses (other than ``pos_label`` in a binary problem) raise ``ValueError``;
:func:`equalized_odds_difference` needs binary ``y_true``.

**Statistical dependence of a representation on the sensitive attribute**:

* :func:`hsic` — (1/n²) tr(K H L H), the biased HSIC estimator of Pérez-Suay et al.
  (eq. (1)), linear or RBF kernels;
* :func:`cov2` — ‖(1/n) T̃ᵀS̃‖²_F, the squared cross-covariance of De-Diego et al.
  (eq. (4), Table 1); it equals :func:`hsic` with two linear kernels;
* :func:`mmd2` — the squared maximum mean discrepancy between the two groups (biased
  V-statistic, Gaussian kernel) used by Lee et al. (2022) and Kleindessner et al. §5.1, with the
  bandwidth rule :func:`lee_bandwidth`;
* :func:`linear_inseparability` — error of a logistic model predicting the group
  (Kleindessner et al. §5.1).

The sensitive argument of :func:`cov2` and :func:`hsic` may be continuous or group labels, chosen
by ``sensitive_type``: ``"auto"`` (default) reads float columns as continuous numbers and
integer, boolean, string, object and pandas categorical columns as **group labels**;
``"categorical"`` and ``"continuous"`` force one reading.  So groups 0/1/2 give the same value as
integers and as strings; an integer-valued continuous variable (an age in years, a count) needs
``sensitive_type="continuous"``.  A column with m groups is encoded by its m indicators
1[S = g]/√2, so that Cov² = ½ Σ_g Cov²(T, 1[S = g]) and for **two groups exactly the value of the
0/1-coded attribute** (the two centred indicators are opposite; without the 1/√2 the value would
double): De-Diego et al.'s Table 1 (binary S as a 0/1 indicator) and Pérez-Suay et al.'s HSIC
keep their values.  :class:`~fairlab.FairPLS` penalises group labels with the same ½ Σ_g.

**Utility of a linear representation** x ↦ Uᵀx:

* :func:`explained_variance` — tr(UᵀΣU)/tr(Σ) (Lee et al. 2022 and Kleindessner et al.
  Tables 1–3, ×100);
* :func:`reconstruction_error` — ‖X̃ − X̃UUᵀ‖²_F / n (Kleindessner et al. Fig. 1,
  De-Diego et al. Table 1).

**Leakage audit** — is the sensitive information really gone from a representation?

* :func:`leakage` — cross-validated adversaries (logistic regression, RBF SVM, MLP, gradient
  boosting) predicting each sensitive attribute, scored by balanced accuracy and ROC AUC (or
  R² for a continuous attribute) with bootstrap intervals and chance levels, and permutation
  tests of :func:`mmd2` and :func:`hsic`; a linear eraser guards against linear adversaries
  only, and this audit also asks nonlinear ones.

Every function returns a Python ``float``, except :func:`leakage`, which returns a table
(pandas DataFrame).
"""

from functools import partial
from itertools import combinations
from numbers import Real

import numpy as np
import pandas as pd
from scipy import linalg
from scipy.spatial.distance import cdist, pdist
from sklearn.linear_model import LogisticRegression

from ._linalg import SIGN_TIE, column_signs
from ._validation import (
    as_column_matrix,
    check_groups,
    check_int,
    encode_sensitive,
    label_kind,
    sortable_labels,
)

__all__ = [
    "cov2",
    "demographic_parity_difference",
    "disparate_impact",
    "disparate_impact_ci",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "explained_variance",
    "hsic",
    "ks_distance",
    "lee_bandwidth",
    "leakage",
    "linear_inseparability",
    "mmd2",
    "reconstruction_error",
]


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

    :func:`fairlab._validation.encode_sensitive` (the encoding FairPLS uses too), with the
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


def _rbf_gamma(X, gamma, name):
    if gamma is None:
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
        raise ValueError(f"{name} must be None or a positive number; got {gamma!r}.")
    return float(gamma)


def _centred_gram(X, kernel, gamma, name):
    if kernel == "linear":
        Xc = X - X.mean(axis=0)
        return Xc @ Xc.T
    K = np.exp(-_rbf_gamma(X, gamma, name) * cdist(X, X, "sqeuclidean"))
    rows = K.mean(axis=0)
    return K - rows[None, :] - rows[:, None] + rows.mean()


def hsic(X, Y, *, kernel="linear", gamma=None, kernel_y="linear", gamma_y=None,
         sensitive_type="auto"):
    """Biased HSIC estimator (1/n²) tr(K H L H) of Pérez-Suay et al., eq. (1).

    K = k(X, X), L = l(ψ(Y), ψ(Y)), H = I − (1/n)11ᵀ, where ψ encodes the second variable (the
    sensitive attribute) as in :func:`cov2`: continuous columns as they are, a categorical
    column with m groups as its m group indicators divided by √2.  Kernels: ``"linear"``
    (k(x, x') = xᵀx') or ``"rbf"`` (k(x, x') = exp(−γ‖x − x'‖²)); ``gamma=None`` is the median
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
    −1/+1); with the RBF kernel and ``gamma_y=None`` the coding does not matter.

    Parameters
    ----------
    X : array-like of shape (n_samples,) or (n_samples, p)
        Numeric (the predictions or the representation).
    Y : array-like of shape (n_samples,) or (n_samples, q)
        The sensitive attribute (or any second variable): numbers or group labels, encoded
        according to ``sensitive_type``; a DataFrame is encoded column by column.
    kernel, kernel_y : {"linear", "rbf"}
        Kernels on X and on the encoded Y.
    gamma, gamma_y : float > 0 or None
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
    X = _as_matrix(X, "X")
    Y = _sensitive_matrix(Y, "Y", sensitive_type)
    _check_length(X.shape[0], Y.shape[0], "Y")
    if X.shape[0] < 2:
        raise ValueError(
            f"hsic needs at least 2 samples (a dependence between X and Y is measured over "
            f"pairs of rows); got {X.shape[0]}.")
    for k, name in ((kernel, "kernel"), (kernel_y, "kernel_y")):
        if k not in ("linear", "rbf"):
            raise ValueError(f"{name}={k!r} is not supported; choose 'linear' or 'rbf'.")
    n = X.shape[0]
    if kernel == "linear" and kernel_y == "linear":
        return _cov2(X, Y)
    Kc = _centred_gram(X, kernel, gamma, "gamma")
    if kernel_y == "linear":
        Yc = Y - Y.mean(axis=0)
        # tr(HKH · YYᵀ) = tr(Ỹᵀ K̃ Ỹ): no second n×n matrix
        return max(float(np.einsum("ij,ij->", Yc, Kc @ Yc)) / n**2, 0.0)
    Lc = _centred_gram(Y, kernel_y, gamma_y, "gamma_y")
    # tr(K H L H) = Σ_ij (HKH)_ij L_ij; with both centred the sum is the same
    return max(float(np.einsum("ij,ij->", Kc, Lc)) / n**2, 0.0)


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
    # top-k eigenvectors of X̃ᵀX̃ (d × d) span the same subspace as MATLAB pca's first k loadings
    d = Xc.shape[1]
    if d <= Xc.shape[0]:
        _, V = linalg.eigh(Xc.T @ Xc, subset_by_index=[d - k, d - 1])
    else:
        V = np.linalg.svd(Xc, full_matrices=False)[2][:k].T
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
    Q, _ = np.linalg.qr(U.T)  # d × k orthonormal basis of the row span
    residual = X - (X @ Q) @ Q.T
    err = float(np.sum(residual**2))
    if normalize:
        total = float(np.sum(X**2))
        if total == 0:
            raise ValueError("X is zero after centring; the normalised error is undefined.")
        return err / total
    return err / X.shape[0]


# --------------------------------------------------------------------------------------------
# leakage audit: can the sensitive attribute still be recovered from the representation?
# --------------------------------------------------------------------------------------------
#: the built-in adversaries: name -> (classifier family, regressor family), in words
_ADVERSARIES = {
    "logistic": ("logistic regression", "ridge regression"),
    "rbf_svm": ("RBF support vector classifier", "RBF support vector regression"),
    "mlp": ("one-hidden-layer perceptron", "one-hidden-layer perceptron"),
    "gradient_boosting": ("histogram gradient boosting", "histogram gradient boosting"),
}
#: the names a continuous attribute's rows use for the built-in adversaries
_REGRESSOR_NAMES = {"logistic": "ridge", "rbf_svm": "rbf_svr"}
_ALIASES = {"ridge": "logistic", "linear": "logistic", "rbf_svr": "rbf_svm"}
_TESTS = ("mmd2", "hsic")
_LEAKAGE_COLUMNS = ["attribute", "attribute_type", "kind", "method", "measure", "score",
                    "ci_low", "ci_high", "chance", "p_value", "detected", "n_samples"]


def _seed(random_state, *words):
    """An integer seed for one stream (a CV split, a bootstrap, an adversary) of the audit.

    Derived from ``random_state`` and the stream's name (CRC-32, the same on every machine and
    Python run), so that the result of one adversary does not depend on which others run.
    """
    from zlib import crc32

    keys = [crc32(str(w).encode("utf-8")) for w in words]
    return int(np.random.SeedSequence([random_state, *keys]).generate_state(1)[0])


def _builtin_adversary(name, categorical, seed):
    """A built-in adversary (see :func:`leakage`), inputs standardised on the training fold.

    Returns the estimator and whether its group predictions are to be prior-corrected.
    """
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPClassifier, MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC, SVR

    boosting = {"max_iter": 100, "learning_rate": 0.1, "max_leaf_nodes": 15,
                "min_samples_leaf": 20, "l2_regularization": 1.0, "early_stopping": False,
                "random_state": seed}
    mlp = {"hidden_layer_sizes": (32,), "solver": "lbfgs", "alpha": 1.0, "max_iter": 200,
           "random_state": seed}
    if categorical:
        model = {
            "logistic": lambda: LogisticRegression(C=1.0, max_iter=1000,
                                                   class_weight="balanced"),
            "rbf_svm": lambda: SVC(kernel="rbf", C=1.0, gamma="scale", class_weight="balanced"),
            "mlp": lambda: MLPClassifier(**mlp),
            # class weights make histogram boosting several times slower: it is prior-corrected
            "gradient_boosting": lambda: HistGradientBoostingClassifier(**boosting),
        }[name]()
        return make_pipeline(StandardScaler(), model), name in ("mlp", "gradient_boosting")
    model = {
        "logistic": lambda: Ridge(alpha=1.0),
        "rbf_svm": lambda: SVR(kernel="rbf", C=1.0, gamma="scale", epsilon=0.1),
        "mlp": lambda: MLPRegressor(**mlp),
        "gradient_boosting": lambda: HistGradientBoostingRegressor(**boosting),
    }[name]()
    # the target is standardised on the training fold too (SVR's ε and the MLP's scale)
    return TransformedTargetRegressor(make_pipeline(StandardScaler(), model),
                                      transformer=StandardScaler()), False


def _check_adversaries(adversaries):
    """``[(name, builtin name or None, estimator or None)]`` from the ``adversaries`` argument."""
    from sklearn.base import clone

    if isinstance(adversaries, dict):
        out = []
        for name, estimator in adversaries.items():
            if not isinstance(name, str):
                raise TypeError(f"adversaries: the key {name!r} must be a str (the row's name).")
            if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
                raise TypeError(
                    f"adversaries[{name!r}] must be a scikit-learn estimator (with fit and "
                    f"predict); got {type(estimator).__name__}. Pass a dict name -> estimator, "
                    "e.g. {'forest': RandomForestClassifier(random_state=0)}, or a tuple of "
                    f"built-in names {tuple(_ADVERSARIES)}.")
            out.append((name, None, clone(estimator)))
    elif isinstance(adversaries, str):
        raise TypeError(
            f"adversaries must be a tuple of names or a dict name -> estimator; got the str "
            f"{adversaries!r}. Write adversaries=({adversaries!r},).")
    else:
        out = []
        for name in adversaries:
            key = _ALIASES.get(name, name) if isinstance(name, str) else name
            if key not in _ADVERSARIES:
                raise ValueError(
                    f"adversaries: unknown adversary {name!r}; choose from "
                    f"{tuple(_ADVERSARIES)} (or pass a dict name -> scikit-learn estimator).")
            out.append((key, key, None))
    if not out:
        raise ValueError("adversaries is empty; pass at least one adversary, e.g. "
                         "adversaries=('logistic',).")
    names = [n for n, _, _ in out]
    if len(set(names)) != len(names):
        raise ValueError(f"adversaries names the same adversary twice: {names}.")
    return out


def _sensitive_columns(sensitive_features):
    """``[(attribute name, 1-D column)]``: one entry per column of ``sensitive_features``."""
    name = "sensitive_features"
    if isinstance(sensitive_features, pd.DataFrame):
        if sensitive_features.shape[1] == 0:
            raise ValueError(f"{name} has no columns; pass at least one sensitive attribute.")
        return [(str(c), sensitive_features.iloc[:, j])
                for j, c in enumerate(sensitive_features.columns)]
    if isinstance(sensitive_features, pd.Series):
        label = name if sensitive_features.name is None else str(sensitive_features.name)
        return [(label, sensitive_features)]
    a = as_column_matrix(sensitive_features, name)
    if a.shape[1] == 1:
        return [(name, a[:, 0])]
    return [(f"{name}[:, {j}]", a[:, j]) for j in range(a.shape[1])]


def _fold_scores(model, E, target, folds, categorical, prior_corrected=False):
    """Out-of-fold predictions: (labels or values, a score for ROC AUC or None).

    ``prior_corrected``: predict argmax_g p̂(g | x)/π_g (π_g the training fold's group shares),
    the Bayes rule of balanced accuracy, for a classifier fitted without class weights.
    """
    import warnings

    from sklearn.base import clone
    from sklearn.exceptions import ConvergenceWarning

    pred = np.empty(E.shape[0], dtype=int if categorical else float)
    score = np.empty(E.shape[0]) if categorical else None
    for train, test in folds:
        fitted = clone(model)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fitted.fit(E[train], target[train])
        if not categorical:
            pred[test] = fitted.predict(E[test])
            continue
        proba = fitted.predict_proba(E[test]) if hasattr(fitted, "predict_proba") else None
        if prior_corrected:
            prior = np.bincount(target[train], minlength=proba.shape[1]) / len(train)
            pred[test] = np.argmax(proba / prior, axis=1)
        else:
            pred[test] = fitted.predict(E[test])
        if proba is not None:
            score[test] = proba[:, -1]
        elif hasattr(fitted, "decision_function"):
            decision = np.asarray(fitted.decision_function(E[test]))
            score[test] = decision if decision.ndim == 1 else decision[:, -1]
        else:
            score[test] = pred[test]
    return pred, score


def _bootstrap_counts(strata, n_bootstrap, seed):
    """Multiplicities W (n_bootstrap × n) of the rows in each resample, resampled per stratum.

    ``strata`` holds an integer per row; each stratum keeps its size in every resample (for a
    categorical attribute the groups, so that balanced accuracy and ROC AUC stay defined).
    """
    rng = np.random.default_rng(seed)
    n = strata.shape[0]
    counts = np.zeros((n_bootstrap, n))
    rows = np.arange(n_bootstrap)[:, None] * n
    for g in np.unique(strata):
        members = np.flatnonzero(strata == g)
        draws = members[rng.integers(0, members.size, size=(n_bootstrap, members.size))]
        counts += np.bincount((rows + draws).ravel(), minlength=n_bootstrap * n).reshape(
            n_bootstrap, n)
    return counts


def _balanced_accuracy(weights, target, pred, n_groups):
    """Σ_g recall_g / m for each row of weights (group totals are fixed by the resampling)."""
    sizes = np.bincount(target, minlength=n_groups).astype(float)
    hit = (pred == target) / (n_groups * sizes[target])
    return weights @ hit


def _roc_auc(weights, target, score):
    """ROC AUC (ties count ½) of ``score`` for group 1 vs group 0, for each row of weights."""
    order = np.argsort(score, kind="stable")
    sorted_score = score[order]
    starts = np.flatnonzero(np.r_[True, sorted_score[1:] != sorted_score[:-1]])
    positive = (target[order] == 1).astype(float)
    w = weights[:, order]
    pos = np.add.reduceat(w * positive, starts, axis=1)
    neg = np.add.reduceat(w * (1.0 - positive), starts, axis=1)
    below = np.cumsum(neg, axis=1) - neg
    return (pos * (below + 0.5 * neg)).sum(axis=1) / (pos.sum(axis=1) * neg.sum(axis=1))


def _r2(weights, target, pred):
    """1 − Σ w (y − ŷ)² / Σ w (y − ȳ_w)², for each row of weights."""
    total = weights.sum(axis=1)
    resid = weights @ (target - pred) ** 2
    spread = weights @ target**2 - (weights @ target) ** 2 / total
    return 1.0 - resid / spread


def _test_rows(E, column, categorical, n_groups, sensitive_type, tests, n_permutations, seed):
    """``[(method, statistic, null mean, p_value)]``: the permutation tests named in ``tests``.

    The statistics are :func:`mmd2` and :func:`hsic` themselves (RBF kernel with the median
    heuristic on the representation).  The permutation null uses the same centred Gram matrix
    (:func:`_centred_gram`), computed once: permuting the attribute permutes the rows and
    columns of its Gram matrix, and each permuted statistic is a quadratic form in K̃.  Column
    0 of every null is the identity permutation, the observed statistic computed the same way.
    """
    n = E.shape[0]
    rng = np.random.default_rng(seed)
    perms = np.stack([np.arange(n)] + [rng.permutation(n) for _ in range(n_permutations)])
    Kc = _centred_gram(E, "rbf", None, "gamma")
    rows = []
    if "mmd2" in tests and categorical and n_groups == 2:
        ids = _two_groups(column, n)
        sizes = np.bincount(ids, minlength=2)
        # MMD² = dᵀKd with d = 1[group 0]/n₀ − 1[group 1]/n₁; 1ᵀd = 0, so dᵀKd = dᵀK̃d
        d = np.where(ids == 0, 1.0 / sizes[0], -1.0 / sizes[1])[perms].T  # n × (1 + P)
        rows.append(("mmd2", mmd2(E, column), np.einsum("ij,ij->j", d, Kc @ d), 1e-12))
    if "hsic" in tests and categorical:
        Y = _sensitive_matrix(column, "sensitive_features", sensitive_type)
        Y = Y - Y.mean(axis=0)
        q = Y.shape[1]
        Yp = Y[perms].transpose(1, 0, 2).reshape(n, -1)  # n × ((1 + P)·q)
        null = np.einsum("ij,ij->j", Yp, Kc @ Yp).reshape(-1, q).sum(axis=1) / n**2
        value = hsic(E, column, kernel="rbf", kernel_y="linear", sensitive_type=sensitive_type)
        rows.append(("hsic", value, null, 1e-12))
    elif "hsic" in tests:
        Lc = _centred_gram(_sensitive_matrix(column, "sensitive_features", sensitive_type),
                           "rbf", None, "gamma_y")
        # Σ_ij K̃_ij L̃_{p(i)p(j)} for each permutation, in single precision (memory bound)
        K32, L32 = Kc.astype(np.float32), Lc.astype(np.float32)
        null = np.array([np.vdot(K32, L32.take(p, axis=0).take(p, axis=1)) for p in perms],
                        dtype=float) / n**2
        value = hsic(E, column, kernel="rbf", kernel_y="rbf", sensitive_type=sensitive_type)
        rows.append(("hsic", value, null, 1e-6))
    out = []
    for method, value, null, rtol in rows:
        observed, permuted = null[0], null[1:]
        # ties with the observed statistic (up to rounding) count as at least as large
        p_value = (1 + np.sum(permuted >= observed - rtol * abs(observed))) / (1 + n_permutations)
        out.append((method, float(value), float(permuted.mean()), float(p_value)))
    return out


def _test_subsample(n, max_rows, strata, seed):
    """Row indices (sorted) of at most ``max_rows`` rows, drawn per stratum in proportion."""
    if n <= max_rows:
        return np.arange(n)
    rng = np.random.default_rng(seed)
    if strata is None:
        return np.sort(rng.choice(n, size=max_rows, replace=False))
    keep = []
    for g in np.unique(strata):
        members = np.flatnonzero(strata == g)
        take = max(2, int(round(members.size * max_rows / n)))
        keep.append(rng.choice(members, size=min(take, members.size), replace=False))
    return np.sort(np.concatenate(keep))


#: A column of a representation whose spread is below this fraction of its largest entry is
#: constant to rounding (about 4 500 eps: the accumulated rounding of the products that made it).
_ROUNDING_SPREAD = 1e-12


#: The representation is read to this fraction of its largest entry (see _without_rounding_noise).
_READ_TO = 1e-9


def _without_rounding_noise(E):
    """``E`` read to the digits that do not depend on how it was computed.

    * A column constant to rounding is replaced by its mean.  A component of zero variance
      (e.g. a fair PCA component beyond the rank of the training data) is computed as dot
      products whose exact values are equal; its last bits follow the row's other entries, and
      with them the attribute.  An adversary standardises its input, so it would blow those
      bits up into a perfect signal.  A column whose standard deviation is below
      ``_ROUNDING_SPREAD`` times the largest entry of ``E`` cannot be told from a constant, and
      a constant carries no information.
    * Every entry is rounded to ``_READ_TO`` times the largest entry.  The last bits of a
      representation differ between BLAS kernels and thread counts; gradient-boosted trees
      (through their bin edges) and other adversaries would turn such differences into
      different scores, so that the audit of the same representation would depend on the
      machine.
    * Every centred column is oriented by fairlab's sign convention with near ties broken by
      row order (:func:`fairlab._linalg.column_signs`): flipping a column's sign changes no
      information, but it changes the splits of gradient-boosted trees, and an estimator's
      signs may follow the BLAS kernel at a near tie.
    """
    E = np.array(E, dtype=np.float64)
    scale = np.abs(E).max(initial=0.0)
    if scale == 0.0:
        return E
    flat = E.std(axis=0) <= _ROUNDING_SPREAD * scale
    E[:, flat] = E[:, flat].mean(axis=0)
    step = _READ_TO * scale
    E = np.round(E / step) * step
    # a column's sign carries no information, but the trees' splits see it: one orientation
    return E * column_signs(E - E.mean(axis=0), tie=SIGN_TIE)


def leakage(representation, sensitive_features, *,
            adversaries=("logistic", "rbf_svm", "mlp", "gradient_boosting"),
            tests=("mmd2", "hsic"), sensitive_type="auto", cv=5, n_bootstrap=500,
            n_permutations=200, confidence=0.95, max_test_samples=5000, random_state=0):
    r"""Leakage audit: how well can the sensitive attribute be recovered from a representation?

    A linear eraser (LEACE, Fair PCA, INLP…) guarantees that no *linear* model recovers the
    attribute; a nonlinear one may.  This audit asks several adversaries and two kernel
    dependence tests, each with its uncertainty, and returns one tidy table.

    **Adversaries** (cross-validated).  The rows are split into ``cv`` folds (stratified by
    group for a categorical attribute, shuffled with a seed); each adversary is fitted on
    ``cv − 1`` folds and predicts the held-out one, so every row gets one out-of-fold
    prediction ŝ_i.  Every adversary standardises the representation on its training folds
    (inside its pipeline).  The score is computed on the out-of-fold predictions:

    * categorical attribute with m groups: the balanced accuracy

      .. math:: \mathrm{BA} = \frac1m \sum_{g=1}^m P(\hat s = g \mid s = g),

      chance level 1/m (whatever the group sizes), and for two groups also the ROC AUC of the
      adversary's score for the second group (ties count ½), chance level ½;
    * continuous attribute: the out-of-fold R² = 1 − Σ(s_i − ŝ_i)² / Σ(s_i − s̄)², chance
      level 0 (a model that has learnt nothing predicts s̄ and scores about 0, slightly below).

    The confidence interval is the percentile bootstrap of that score: the out-of-fold pairs
    (s_i, ŝ_i) are resampled ``n_bootstrap`` times (within each group for a categorical
    attribute, so every group keeps its size), the adversaries are not refitted.  It
    measures the uncertainty of the evaluation on n rows, not the variation of the fitted
    models.  An adversary **detects** leakage when its interval lies above chance,
    ``ci_low > chance``.

    Built-in adversaries (the logistic regression and the SVM class-weighted to balance the
    groups; the MLP and the gradient boosting predict argmax_g p̂(g | x)/π_g with π_g the
    training-fold group shares, the rule that maximises balanced accuracy):

    ========================= ============================ ================================
    name                      categorical attribute        continuous attribute (row name)
    ========================= ============================ ================================
    ``"logistic"``            logistic regression, C = 1   ridge regression, α = 1
                                                           (``"ridge"``)
    ``"rbf_svm"``             SVC, RBF kernel, C = 1,      SVR, RBF kernel, ε = 0.1
                              γ = 1/k on standardised data (``"rbf_svr"``)
    ``"mlp"``                 32 hidden units, L-BFGS,     the same, as a regressor
                              L2 penalty α = 1
    ``"gradient_boosting"``   histogram gradient boosting, the same, as a regressor
                              100 trees of 15 leaves
    ========================= ============================ ================================

    A continuous attribute is standardised on the training folds too.  ``"ridge"``,
    ``"linear"`` and ``"rbf_svr"`` are accepted as names of the first two.

    **Distribution tests** (permutation tests of independence, on the representation as it
    is, with a Gaussian kernel of median-heuristic width):

    * ``"mmd2"`` — :func:`mmd2` between the two groups (only for a two-group attribute);
    * ``"hsic"`` — :func:`hsic` with the RBF kernel on the representation and, on the
      attribute, the linear kernel of its group indicators (categorical) or the RBF kernel
      (continuous, so that a non-monotone dependence is found too).

    The p-value is (1 + #{b : T_b ≥ T}) / (1 + B) over B = ``n_permutations`` random
    permutations of the attribute (T the statistic, T_b its value on the b-th permutation);
    the test **detects** leakage when p < 1 − ``confidence``.  For two groups the two tests
    are the same test: HSIC = p₀²p₁² MMD² with p_g the group shares, so both p-values agree.
    The ``chance`` column of a test holds the mean of T_b, the value the biased estimators
    take without any dependence (above 0).  With more than ``max_test_samples`` rows the
    tests use a seeded random subsample of that size (in proportion within the groups), as
    the kernel matrices have n² entries.

    Parameters
    ----------
    representation : array-like of shape (n_samples, k)
        The representation to audit (numeric, finite).  The adversaries read it to 10⁻⁹ of its
        largest entry, so that they do not depend on the last bits, which follow the BLAS
        kernel; a column whose spread is below 10⁻¹² of the largest entry is constant to
        rounding and is audited as the constant it is (an adversary's standardisation would
        otherwise turn its last bits, which follow the rest of the row, into a signal).
    sensitive_features : array-like of shape (n_samples,) or (n_samples, q), Series or DataFrame
        The attribute(s); each column is audited separately, one block of rows each.
    adversaries : tuple of str, or dict, default=("logistic", "rbf_svm", "mlp", "gradient_boosting")
        Names of built-in adversaries (table above), or a dict name → scikit-learn estimator:
        a classifier for a categorical attribute, a regressor for a continuous one.  A custom
        estimator is cloned, preceded by a ``StandardScaler`` and given the seed of its stream
        when its ``random_state`` is ``None``; its ``predict`` gives the labels, its
        ``predict_proba`` (else ``decision_function``) the ROC AUC score.
    tests : tuple of {"mmd2", "hsic"}, default=("mmd2", "hsic")
        Distribution tests to run; ``()`` runs none.
    sensitive_type : {"auto", "categorical", "continuous"}, default="auto"
        How each column is read, as in :func:`hsic`: ``"auto"`` reads float columns as
        continuous and integer, boolean, string and categorical columns as group labels.
    cv : int, default=5
        Number of folds, at least 2 and at most the size of the smallest group.
    n_bootstrap : int, default=500
        Bootstrap resamples of each interval.
    n_permutations : int, default=200
        Permutations of each test (the smallest attainable p-value is 1/(1 + n_permutations)).
    confidence : float in (0, 1), default=0.95
        Level of the intervals; the tests are read at level 1 − ``confidence``.
    max_test_samples : int, default=5000
        At most this many rows enter the distribution tests.
    random_state : int, default=0
        Seeds the folds, the adversaries, the bootstrap and the permutations.  Each stream
        has its own seed, derived from ``random_state`` and the names of the attribute and
        of the adversary, so an adversary's row does not change when others are added.

    Returns
    -------
    DataFrame
        One row per (attribute, adversary, measure) and per (attribute, test), with columns

        * ``attribute`` — the column's name (``"sensitive_features"`` for unnamed 1-D input,
          ``"sensitive_features[:, j]"`` for the columns of an unnamed 2-D array);
        * ``attribute_type`` — ``"categorical"`` or ``"continuous"``;
        * ``kind`` — ``"adversary"`` or ``"permutation test"``;
        * ``method`` — the adversary's or the test's name;
        * ``measure`` — ``"balanced_accuracy"``, ``"roc_auc"``, ``"r2"``, ``"mmd2"`` or
          ``"hsic"``;
        * ``score`` — the measure's value;
        * ``ci_low``, ``ci_high`` — the bootstrap interval (NaN for tests);
        * ``chance`` — the value without leakage: 1/m, ½ or 0; for tests the permutation mean;
        * ``p_value`` — the permutation p-value (NaN for adversaries);
        * ``detected`` — ``ci_low > chance`` (adversaries) or ``p_value < 1 − confidence``
          (tests);
        * ``n_samples`` — the rows used.

        The same inputs and ``random_state`` give the same table: every adversary and every
        linear algebra call runs single-threaded.  (Another BLAS build may change the last
        bits of the scores.)

    Notes
    -----
    Cost.  On 2 000 rows × 10 dimensions the default took 4.4 s for a binary attribute,
    6.4 s for three groups and 7 s for a continuous one (two shared CPU cores; most of it the
    MLP, the SVM, the boosting and, for a continuous attribute, the HSIC permutations, about
    n² operations each; an SVM's fit grows like n²).  Cheaper: fewer adversaries
    (``adversaries=("logistic", "gradient_boosting")``: 1.4 s), ``tests=()`` (2 s), fewer
    folds (``cv=3``), a smaller ``n_bootstrap`` (200 gives a rough interval) or
    ``n_permutations`` (100 still resolves p = 0.01).

    Several rows are several tests: on independent data each adversary's interval misses
    chance with probability about 1 − ``confidence``, so among eight adversary rows one
    false alarm is not rare.  Read a single detection next to the others (and the
    permutation tests), or raise ``confidence``.

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.metrics import leakage
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 300)
    >>> angle = rng.uniform(0, 2 * np.pi, 300)
    >>> radius = 1 + s + 0.2 * rng.standard_normal(300)    # s is the radius: no linear signal
    >>> Z = np.c_[radius * np.cos(angle), radius * np.sin(angle)]
    >>> table = leakage(Z, s, adversaries=("logistic", "rbf_svm"), n_bootstrap=200,
    ...                 n_permutations=100)
    >>> rows = table.measure == "balanced_accuracy"
    >>> table.loc[rows, ["method", "detected"]]  # doctest: +NORMALIZE_WHITESPACE
        method  detected
    0  logistic     False
    2   rbf_svm      True
    """
    from sklearn.base import clone, is_classifier, is_regressor
    from sklearn.model_selection import KFold, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    E = _as_matrix(representation, "representation")
    E_read = _without_rounding_noise(E)  # what the adversaries see
    n = E.shape[0]
    chosen = _check_adversaries(adversaries)
    if isinstance(tests, str):
        raise TypeError(f"tests must be a tuple of names; got the str {tests!r}. Write "
                        f"tests=({tests!r},).")
    tests = tuple(tests)
    unknown = [t for t in tests if t not in _TESTS]
    if unknown:
        raise ValueError(f"tests: unknown test(s) {unknown}; choose from {_TESTS} (or () for "
                         "none).")
    cv = check_int(cv, "cv", minimum=2)
    n_bootstrap = check_int(n_bootstrap, "n_bootstrap", minimum=1)
    n_permutations = check_int(n_permutations, "n_permutations", minimum=1)
    max_test_samples = check_int(max_test_samples, "max_test_samples", minimum=4)
    random_state = check_int(random_state, "random_state", minimum=0)
    if (not isinstance(confidence, Real) or isinstance(confidence, (bool, np.bool_))
            or not 0 < confidence < 1):
        raise ValueError(f"confidence must be a number strictly between 0 and 1, e.g. 0.95; "
                         f"got {confidence!r}.")
    if n < 2 * cv:
        raise ValueError(
            f"representation has {n} rows, too few for cv={cv} folds (each held-out fold needs "
            f"at least 2 rows): pass at least {2 * cv} rows or a smaller cv.")
    columns = _sensitive_columns(sensitive_features)
    for _, column in columns:
        _check_length(n, len(column), "sensitive_features")

    alpha = (1.0 - confidence) / 2.0
    records = []
    with threadpool_limits(limits=1):
        for attribute, column in columns:
            where = ("sensitive_features" if len(columns) == 1
                     else f"sensitive_features column {attribute!r}")
            encoded = encode_sensitive(column, name=where, sensitive_type=sensitive_type)
            m = encoded.n_groups[0]
            categorical = m is not None
            column_type = "categorical" if categorical else "continuous"
            if categorical:
                if m < 2:
                    raise ValueError(
                        f"{where} has a single group, so there is nothing to leak; drop that "
                        "attribute.")
                groups = check_groups(column, n, name=where)
                target = groups.codes[:, 0]
                sizes = np.bincount(target)
                if sizes.min() < cv:
                    small = groups.categories[0][int(np.argmin(sizes))]
                    raise ValueError(
                        f"cv={cv} is larger than the smallest group of {where} ({small!r}, "
                        f"{sizes.min()} rows): every fold needs a row of every group. Pass "
                        f"cv <= {sizes.min()}, or merge that group with another.")
                splitter = StratifiedKFold(cv, shuffle=True,
                                           random_state=_seed(random_state, attribute, "folds"))
            else:
                target = encoded.matrix[:, 0]
                if np.ptp(target) == 0:
                    raise ValueError(f"{where} is constant, so there is nothing to leak; drop "
                                     "that attribute.")
                splitter = KFold(cv, shuffle=True,
                                 random_state=_seed(random_state, attribute, "folds"))
            folds = list(splitter.split(E_read, target if categorical else None))
            weights = _bootstrap_counts(target if categorical else np.zeros(n, dtype=int),
                                        n_bootstrap, _seed(random_state, attribute, "bootstrap"))
            head = (attribute, column_type)

            for name, builtin, estimator in chosen:
                seed = _seed(random_state, attribute, "adversary", name)
                if builtin is not None:
                    model, corrected = _builtin_adversary(builtin, categorical, seed)
                    label = name if categorical else _REGRESSOR_NAMES.get(name, name)
                else:
                    if categorical and not is_classifier(estimator):
                        raise ValueError(
                            f"adversaries[{name!r}] is not a classifier, but {where} is "
                            "categorical; pass a classifier (or sensitive_type='continuous').")
                    if not categorical and not is_regressor(estimator):
                        raise ValueError(
                            f"adversaries[{name!r}] is not a regressor, but {where} is "
                            "continuous; pass a regressor (or sensitive_type='categorical').")
                    model = clone(estimator)
                    if model.get_params().get("random_state", 0) is None:
                        model.set_params(random_state=seed)
                    model, corrected = make_pipeline(StandardScaler(), model), False
                    label = name
                pred, score = _fold_scores(model, E_read, target, folds, categorical,
                                           categorical and corrected)
                if categorical:
                    measures = [("balanced_accuracy", 1.0 / m,
                                 partial(_balanced_accuracy, target=target, pred=pred,
                                         n_groups=m))]
                    if m == 2:
                        measures.append(("roc_auc", 0.5,
                                         partial(_roc_auc, target=target, score=score)))
                else:
                    measures = [("r2", 0.0, partial(_r2, target=target, pred=pred))]
                for measure, chance, statistic in measures:
                    value = float(statistic(np.ones((1, n)))[0])
                    low, high = (float(v) for v in
                                 np.quantile(statistic(weights), [alpha, 1.0 - alpha]))
                    records.append((*head, "adversary", label, measure, value, low, high,
                                    chance, np.nan, low > chance, n))

            if not tests:
                continue
            keep = _test_subsample(n, max_test_samples, target if categorical else None,
                                   _seed(random_state, attribute, "test rows"))
            sub = (column.iloc[keep] if isinstance(column, pd.Series) else column[keep])
            results = _test_rows(E[keep], sub, categorical, m, sensitive_type, tests,
                                 n_permutations, _seed(random_state, attribute, "permutations"))
            for method, value, null_mean, p_value in results:
                records.append((*head, "permutation test", method, method, value, np.nan,
                                np.nan, null_mean, p_value, p_value < 1.0 - confidence,
                                int(keep.size)))
    return pd.DataFrame.from_records(records, columns=_LEAKAGE_COLUMNS)
