"""The leakage audit: can the sensitive attribute still be recovered from a representation?

:func:`leakage` (public as :func:`fairlab.metrics.leakage`) trains cross-validated adversaries on
the representation and reports their scores with bootstrap intervals and chance levels, beside
the permutation tests of the dependence measures of :mod:`fairlab.metrics` (MMD², HSIC) that it
builds on.
"""

import warnings
from functools import partial
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

from .._core.linalg import SIGN_TIE, column_signs
from .._core.threads import limit_threads
from .._core.validation import (
    as_column_matrix,
    as_sensitive_container,
    check_groups,
    check_int,
    encode_sensitive,
)
from ._measures import (
    MEDIAN,
    _as_matrix,
    _centred_gram,
    _check_length,
    _median_sq_dist,
    _rbf_gamma,
    _sensitive_matrix,
    _two_groups,
    hsic,
    mmd2,
)

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
    """``[(attribute name, 1-D column)]``: one entry per column of ``sensitive_features``.

    Columns keep their dtype (a bare ``pd.Categorical`` becomes a Series), so that
    ``sensitive_type="auto"`` reads them by :func:`~fairlab._core.validation.auto_sensitive_kind`,
    the rule of the estimators.
    """
    name = "sensitive_features"
    sensitive_features = as_sensitive_container(sensitive_features)
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
    # einsum, not a BLAS product: the same sums on every BLAS kernel (an interval's printed
    # digits moved between kernels at an exact tie)
    return np.einsum("bi,i->b", weights, hit)


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
    # einsum, not a BLAS product: the same sums on every BLAS kernel
    resid = np.einsum("bi,i->b", weights, (target - pred) ** 2)
    spread = (np.einsum("bi,i->b", weights, target**2)
              - np.einsum("bi,i->b", weights, target) ** 2 / total)
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
    Kc = _centred_gram(E, "rbf", MEDIAN, "gamma")
    rows = []
    if "mmd2" in tests and categorical and n_groups == 2:
        ids = _two_groups(column, n)
        sizes = np.bincount(ids, minlength=2)
        # MMD² = dᵀKd with d = 1[group 0]/n₀ − 1[group 1]/n₁; 1ᵀd = 0, so dᵀKd = dᵀK̃d
        d = np.where(ids == 0, 1.0 / sizes[0], -1.0 / sizes[1])[perms].T  # n × (1 + P)
        # mmd2's median heuristic; where most pairs of rows coincide (discrete columns), the
        # median over the pairs of distinct rows, the width of Kc (_rbf_gamma)
        sigma = None if _median_sq_dist(E) > 0 else np.sqrt(0.5 / _rbf_gamma(E, MEDIAN, "gamma"))
        rows.append(("mmd2", mmd2(E, column, sigma=sigma), np.einsum("ij,ij->j", d, Kc @ d),
                     1e-12))
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
                           "rbf", MEDIAN, "gamma_y")
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
        p_value = _permutation_p_value(observed, permuted, rtol)
        out.append((method, float(value), float(permuted.mean()), p_value))
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


#: A column whose robust spread is below this fraction of its own typical magnitude (the median
#: of its absolute entries), or of the largest robust spread among the columns, is constant to
#: rounding: about 4 500 eps, the accumulated rounding of the products that made it.
_ROUNDING_SPREAD = 1e-12

#: The fences: an entry beyond Q1 − 10·IQR or Q3 + 10·IQR of its column is read as the fence.
_FENCE = 10.0

#: The standardised columns are read to this step: 10⁻⁹ of a robust standard deviation.
_READ_TO = 1e-9

#: The interquartile range of the standard normal distribution, 2·Φ⁻¹(3/4).
_IQR_NORMAL = 1.3489795003921634


def _robust_columns(E):
    r"""What the adversaries and the tests see: ``E``'s informative columns, standardised robustly.

    Returns ``(Z, informative)``: ``Z`` of shape (n, k') holds the k' informative columns of
    ``E`` (``informative``, a boolean mask of length k), each read as follows.

    * **Standardised robustly.**  Column j becomes z_ij = (e_ij − m_j)/σ_j with m_j its median
      and σ_j = IQR_j / 1.349 (the interquartile range in standard deviations of a normal
      sample); where half of the entries or more share one value (IQR_j = 0, e.g. a sparse or
      binary column) σ_j is the median of |e_ij − m_j| over the entries that differ from m_j.
      An offset or a scale of a column changes nothing, and a large value elsewhere in ``E``
      does not make a column small.  The column is first multiplied by the power of two that
      brings its largest entry into [½, 1): an exact operation that keeps the differences
      finite for entries up to the largest float.
    * **Outliers at the fences.**  An entry beyond the fences Q1_j − 10·IQR_j and
      Q3_j + 10·IQR_j (with IQR_j = 1.349·σ_j) is read as the fence, so that a single huge
      entry neither dominates the adversaries' own standardisation (which would shrink the
      rest of its column to nothing) nor the kernel width of the tests.  The fences lie
      far beyond Tukey's (3·IQR), so that the columns are read linearly but for gross
      outliers and a linear adversary stays one: of the Fair PCA representations of
      Adult and COMPAS (k = 5), at most 1.4 % of a column's entries lie beyond them, against
      7 % beyond Tukey's.
    * **Constant to rounding, dropped.**  A column whose σ_j is at most ``_ROUNDING_SPREAD``
      times its typical magnitude median_i |e_ij| (a constant plus rounding, whatever its
      scale), or at most ``_ROUNDING_SPREAD`` times the largest σ_l of the columns that pass
      that first rule (a zero-variance component computed in floating point: dot products
      whose exact values are 0, with last bits that follow the row's other entries and with
      them the attribute: without this rule the logistic adversary reads 0.74 and 1.00 from
      Fair PCA and LEACE on COMPAS at k = 10, against 0.53 with it), carries no
      information and is dropped, as is a constant column.  This second rule is the one
      that compares columns: it cannot be made scale-free, since a component that is 0 up
      to rounding is, alone, a column like any other; a column whose spread is below
      10⁻¹² of another's is read as rounding, whatever its origin.
    * **Read to 10⁻⁹.**  Every z_ij is rounded to a multiple of ``_READ_TO``, so that the last
      bits of ``E``, which follow the BLAS kernel and the thread count, do not reach the
      adversaries (gradient-boosted trees turn them into different bin edges).
    * **One orientation.**  Every column is oriented by fairlab's sign convention with near
      ties broken by row order (:func:`fairlab._core.linalg.column_signs`): a column's sign carries
      no information, but the trees' splits see it.
    """
    E = np.array(E, dtype=np.float64)
    _, exponent = np.frexp(np.abs(E).max(axis=0, initial=0.0))
    E = np.ldexp(E, -exponent[None, :])  # exact: |entries| <= 1 in every column
    q1, median, q3 = np.quantile(E, [0.25, 0.5, 0.75], axis=0)
    sigma = (q3 - q1) / _IQR_NORMAL
    for j in np.flatnonzero(sigma == 0):
        deviation = np.abs(E[:, j] - median[j])
        deviation = deviation[deviation > 0]
        sigma[j] = np.median(deviation) if deviation.size else 0.0
    typical = np.median(np.abs(E), axis=0)
    informative = sigma > _ROUNDING_SPREAD * typical
    # σ_j in the units of E, compared with the largest σ_l of the columns kept so far
    sigma_units = np.where(informative, np.ldexp(sigma, exponent), 0.0)
    informative &= sigma_units > _ROUNDING_SPREAD * sigma_units.max(initial=0.0)
    cols = np.flatnonzero(informative)
    iqr = _IQR_NORMAL * sigma[cols]
    low = (q1[cols] - _FENCE * iqr - median[cols]) / sigma[cols]
    high = (q3[cols] + _FENCE * iqr - median[cols]) / sigma[cols]
    Z = np.clip((E[:, cols] - median[cols]) / sigma[cols], low, high)
    Z = np.round(Z / _READ_TO) * _READ_TO
    # a column's sign carries no information, but the trees' splits see it: one orientation
    return Z * column_signs(Z - Z.mean(axis=0), tie=SIGN_TIE), informative


def _interval(value, draws, confidence, cv, bounds):
    r"""The interval of a cross-validated score: the percentile bootstrap, widened for the refits.

    With α = (1 − ``confidence``)/2 and q_α, q_{1−α} the quantiles of the bootstrap ``draws``,
    each side is stretched about the ``value`` T by c = √(1 + K/(K − 1)) (K = ``cv``):

    .. math:: [\,T - c\,(T - q_α),\; T + c\,(q_{1-α} - T)\,],

    then cut to ``bounds`` (and made to contain T).  The factor is Nadeau and Bengio's
    correction of the variance of a cross-validated score (Machine Learning 52, 2003): with
    σ² the variance of one fold's score, Var ≈ (1/K + n_test/n_train)·σ² with
    n_test/n_train = 1/(K − 1); σ² ≈ K·v for v the variance of the pooled score that the
    bootstrap of the out-of-fold pairs measures, so Var ≈ (1 + K/(K − 1))·v.
    """
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [alpha, 1.0 - alpha])
    stretch = np.sqrt(1.0 + cv / (cv - 1.0))
    low = min(value - stretch * (value - low), value)
    high = max(value + stretch * (high - value), value)
    return float(max(low, bounds[0])), float(min(high, bounds[1]))


def _permutation_p_value(observed, permuted, rtol):
    """(1 + #{b : T_b ≥ T − rtol·|T|}) / (1 + B): ties with T up to rounding count as ≥ T."""
    permuted = np.asarray(permuted, dtype=float)
    return float((1 + np.sum(permuted >= observed - rtol * abs(observed)))
                 / (1 + permuted.size))


def leakage(representation, sensitive_features, *,
            adversaries=("logistic", "rbf_svm", "mlp", "gradient_boosting"),
            tests=("mmd2", "hsic"), sensitive_type="auto", cv=5, n_bootstrap=500,
            n_permutations=200, confidence=0.95, max_test_samples=5000, random_state=0):
    r"""Leakage audit: how well can the sensitive attribute be recovered from a representation?

    A linear eraser (LEACE, Fair PCA, INLP…) guarantees that no *linear* model recovers the
    attribute; a nonlinear one may.  This audit asks several adversaries and two kernel
    dependence tests, each with its uncertainty, and returns one tidy table.

    **What the audit sees.**  Each column of the representation is standardised robustly,
    (e − median)/(IQR/1.349), its entries beyond the fences Q1 − 10·IQR and Q3 + 10·IQR
    read as the fence, and read to 10⁻⁹ of that robust standard deviation; a
    constant column, or one constant to rounding, is dropped (``_robust_columns``).  So
    an offset or a scale of a column, a column of large values beside the others, a single
    huge entry or an extra constant column do not change what the adversaries and the tests
    find, and the last bits of the representation, which follow the BLAS kernel, do not
    reach them.  A representation without any informative column (a constant one) carries
    no information: every row reads its chance level (a score equal to chance, an interval
    of width 0, a p-value of 1), with a warning.

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

    The confidence interval starts from the percentile bootstrap of that score: the
    out-of-fold pairs (s_i, ŝ_i) are resampled ``n_bootstrap`` times (within each group for
    a categorical attribute, so every group keeps its size), the adversaries are not
    refitted.  That bootstrap measures the uncertainty of the evaluation on n rows only, not
    the variation of the fitted models, which share their training rows with the other
    folds' test rows: on independent data its 95 % interval covered chance in 81.5 % of 200
    instances (balanced accuracy; 83.5 % for the ROC AUC), the spread of the score being
    about √2 times the bootstrap's.  Each side of the interval is therefore stretched about
    the score T by Nadeau and Bengio's correction for cross-validation (Machine Learning
    52, 2003; ``_interval``),

    .. math:: [\,T - c\,(T - q_{α}),\; T + c\,(q_{1-α} - T)\,],
              \qquad c = \sqrt{1 + K/(K - 1)},

    with q the bootstrap quantiles, α = (1 − ``confidence``)/2 and K = ``cv`` (c = 1.5 for
    5 folds, → √2 for many), cut to the measure's range.  On the same 200 instances it
    covers chance in 96 % (balanced accuracy) and 94 % (ROC AUC).  An adversary **detects**
    leakage when its interval lies above chance, ``ci_low > chance``.

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

    **Distribution tests** (permutation tests of independence, on the standardised columns
    the adversaries see, with a Gaussian kernel of median-heuristic width):

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
        The representation to audit (numeric, finite, at least one column).  Read column by
        column as described above: a column whose robust spread is below 10⁻¹² of its own
        typical magnitude, or of the largest robust spread of the other columns, is constant
        to rounding and dropped (an adversary's standardisation would otherwise turn its last
        bits, which follow the rest of the row, into a signal); columns whose spreads differ
        by less than 12 orders of magnitude are all read.
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
    Cost.  Seconds on a few thousand rows; most of it the MLP, the SVM, the boosting and, for
    a continuous attribute, the HSIC permutations, about n² operations each (an SVM's fit grows
    like n²).  Cheaper: fewer adversaries (``adversaries=("logistic", "gradient_boosting")``),
    ``tests=()``, fewer folds (``cv=3``), a smaller ``n_bootstrap`` (200 gives a rough interval) or
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

    E = _as_matrix(representation, "representation")
    if E.shape[1] == 0:
        raise ValueError(
            f"representation has no columns (shape {E.shape}): there is nothing to audit. Pass "
            "the representation itself, e.g. estimator.transform(X) with n_components >= 1.")
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

    E_read, _ = _robust_columns(E)  # what the adversaries and the tests see
    constant = E_read.shape[1] == 0
    if constant:
        warnings.warn(
            "representation is constant (every column is constant, or constant to rounding): "
            "it carries no information on the attribute, and every row of the audit reads "
            "chance.", UserWarning, stacklevel=2)
    records = []
    with limit_threads():
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
                measures = ([("balanced_accuracy", 1.0 / m, (0.0, 1.0))]
                            + ([("roc_auc", 0.5, (0.0, 1.0))] if m == 2 else [])
                            if categorical else [("r2", 0.0, (-np.inf, 1.0))])
                if constant:  # nothing to learn from: the adversary's score is chance
                    for measure, chance, _ in measures:
                        records.append((*head, "adversary", label, measure, chance, chance,
                                        chance, chance, np.nan, False, n))
                    continue
                pred, score = _fold_scores(model, E_read, target, folds, categorical,
                                           categorical and corrected)
                statistics = {
                    "balanced_accuracy": partial(_balanced_accuracy, target=target, pred=pred,
                                                 n_groups=m),
                    "roc_auc": partial(_roc_auc, target=target, score=score),
                    "r2": partial(_r2, target=target, pred=pred),
                }
                for measure, chance, bounds in measures:
                    statistic = statistics[measure]
                    value = float(statistic(np.ones((1, n)))[0])
                    low, high = _interval(value, statistic(weights), confidence, cv, bounds)
                    records.append((*head, "adversary", label, measure, value, low, high,
                                    chance, np.nan, low > chance, n))

            if not tests:
                continue
            keep = _test_subsample(n, max_test_samples, target if categorical else None,
                                   _seed(random_state, attribute, "test rows"))
            sub = (column.iloc[keep] if isinstance(column, pd.Series) else column[keep])
            if constant:  # MMD² and HSIC of a constant representation are 0 for any kernel
                results = [(t, 0.0, 0.0, 1.0) for t in _TESTS
                           if t in tests and (t == "hsic" or (categorical and m == 2))]
            else:
                results = _test_rows(E_read[keep], sub, categorical, m, sensitive_type, tests,
                                     n_permutations,
                                     _seed(random_state, attribute, "permutations"))
            for method, value, null_mean, p_value in results:
                records.append((*head, "permutation test", method, method, value, np.nan,
                                np.nan, null_mean, p_value, p_value < 1.0 - confidence,
                                int(keep.size)))
    return pd.DataFrame.from_records(records, columns=_LEAKAGE_COLUMNS)
