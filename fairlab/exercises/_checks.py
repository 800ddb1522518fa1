"""The checks of the book's "compute" exercises, one per exercise label, in the book's order.

A check holds no reference value. It validates the answer's form and meaning (dimensions,
orthonormality, a function's dependence on its input, an interval's centre), then reduces the
numbers to bins at the precision the exercise states (:data:`STEPS`) and compares their salted
digest with the stored one (:mod:`._hashing`); typical mistakes are recognised the same way, to
give their hint. A message says what is wrong with the form of an answer, or which typical
mistake it is, never in which direction or in which of several numbers the answer is off: a
message narrows the answer down no more than the exercise's text does.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._hashing import matches
from ._registry import register


def _number(value, name="the answer"):
    """``value`` as a finite float; a string, a bool or anything else is refused, not coerced."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} should be a number, not the text {value!r}")
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)) or \
            isinstance(value, np.bool_):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
            value = value.item()
        else:
            raise TypeError(f"{name} should be a number, not {type(value).__name__}")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for a floating-point number") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} is {value}")
    return value


def _numbers(answer, names):
    """Numbers from a tuple/list/array of ``len(names)`` or a dict with the keys ``names``."""
    if isinstance(answer, dict):
        missing = [n for n in names if n not in answer]
        if missing:
            raise KeyError(f"the dict lacks the key(s) {missing}")
        values = [answer[n] for n in names]
    elif isinstance(answer, (str, bytes)):
        raise TypeError(f"the answer should be {len(names)} numbers, not a text")
    elif isinstance(answer, (tuple, list, np.ndarray)):
        values = list(np.ravel(np.asarray(answer, dtype=object))) \
            if isinstance(answer, np.ndarray) else list(answer)
        if len(values) != len(names):
            raise ValueError(f"expected {len(names)} numbers, got {len(values)}")
    else:
        raise TypeError(f"the answer should be a tuple of {len(names)} numbers, not "
                        f"{type(answer).__name__}")
    return tuple(_number(v, f"the value for {n!r}") for v, n in zip(values, names))


def _name(answer, what):
    if not isinstance(answer, str):
        raise TypeError(f"the answer should be {what}, as a string")
    return answer


# --- Chapter 2 --------------------------------------------------------------------------------

@register("ex-datasets-age", "a pair (DI for age >= 25, DI for age > 25) of the good-credit "
          "label of German credit: load_german(variant='lee2022') and load_german(variant='pls') "
          "(to 4 decimals).")
def _datasets_age(answer):
    label = "ex-datasets-age"
    values = _numbers(answer, (">= 25", "> 25"))
    if any(v <= 0 for v in values):
        return False, "A disparate impact is a ratio of two positive rates: it is above 0."
    if matches(label, "answer", values):
        return True, ("Both disparate impacts are right. Now say which applicants move between the "
                      "groups, and why their good-credit rate lowers the ratio.")
    if matches(label, "swapped", values):
        return False, ("The two values are swapped: the first is for age >= 25, the second for "
                       "age > 25.")
    if any(v > 1 for v in values):
        return False, ("A value above 1: divide the unprivileged group's rate by the privileged "
                       "group's (young applicants are the unprivileged group).")
    if matches(label, "bad-credit-ge", values[:1]) or matches(label, "bad-credit-gt", values[1:]):
        return False, ("That is the ratio for the bad-credit outcome: check which value of y means "
                       "good credit in each variant (its DESCR says).")
    return False, ("Not both values are right (to 4 decimals). Use "
                   "fairlab.metrics.disparate_impact(y, y, sensitive_features=...) with the group "
                   "that each variant protects as the privileged one.")


@register("ex-datasets-circle", "a function h of the projections t = X @ u (an array of n "
          "numbers) returning a 0/1 array equal to z, for X, z = make_circle_counterexample(40) "
          "and u = (cos 0.3, sin 0.3).")
def _datasets_circle(answer):
    if not callable(answer):
        raise TypeError("the answer should be a function h(t), e.g. a lambda")
    from ..datasets import make_circle_counterexample

    X, z = make_circle_counterexample(40)
    t = X @ np.array([np.cos(0.3), np.sin(0.3)])
    order = np.random.default_rng(0).permutation(t.size)
    try:
        predicted = np.asarray(answer(t), dtype=float).ravel()
        shuffled = np.asarray(answer(t[order]), dtype=float).ravel()
    except Exception as err:  # noqa: BLE001  (a student's function may raise anything)
        return False, f"Calling h on the projections raised {type(err).__name__}: {err}"
    if predicted.shape != z.shape or shuffled.shape != z.shape:
        return False, f"h returned {predicted.size} values for {z.size} rows: apply it elementwise."
    if not np.array_equal(shuffled, predicted[order]):
        return False, ("h does not act on each projection alone: given the same projections in "
                       "another order, its outputs do not follow them. Make it a function of t.")
    if not np.isin(predicted, (0, 1)).all():
        return False, "h should return 0 or 1 for every row."
    hits = int(np.sum(predicted == z))
    if hits == z.size:
        return True, ("h(u^T x) equals z on every row although the group means coincide: equal "
                      "means do not make a representation independent of the group.")
    if hits == 0:
        return False, "h predicts the opposite group on every row: swap its two outcomes."
    return False, (f"h(u^T x) equals z on {hits} of {z.size} rows. Look at where each group's "
                   "points lie, and where they land on the line spanned by u.")


# --- Chapter 3 --------------------------------------------------------------------------------

@register("ex-insep-test", "a pair (train, test) of metrics.linear_inseparability of the Fair "
          "PCA embedding of splits[0] (the chapter's defaults: seed 0, k = 2; to 4 decimals).")
def _insep_test(answer):
    label = "ex-insep-test"
    values = _numbers(answer, ("train", "test"))
    if any(v < 0 for v in values):
        return False, "An error rate is not negative."
    if matches(label, "answer", values):
        return True, ("Both values are right: explain why the first is exactly a group's share and "
                      "the second falls below it.")
    if matches(label, "swapped", values):
        return False, "The two values are swapped: the first is for the training rows."
    if any(v > 0.5 for v in values):
        return False, ("A value above 0.5 is an error rate above chance: pass the embedding and "
                       "the groups of the same rows (split.s_train with X_train, split.s_test "
                       "with X_test).")
    return False, ("Not both values are right (to 4 decimals): fit FairPCA(2) on split.X_train "
                   "with sensitive_features=split.s_train, measure its embedding of the training "
                   "rows, and transform split.X_test with the same model for the test value.")


# --- Chapter 4 --------------------------------------------------------------------------------

_FPCA_K = 5  # k = d - 1 for the chapter's d = 6 features


@register("ex-fpca-numerical", "the matrix U.T @ R, U = fair.components_.T (fair PCA with "
          "k = d - 1, center=False), R the orthonormal basis of the chapter's section on the "
          "relaxed constraint.")
def _fpca_numerical(answer):
    if isinstance(answer, (str, bytes)) or callable(answer):
        raise TypeError("the answer should be a matrix (a 2-D array)")
    try:
        M = np.asarray(answer, dtype=float)
    except OverflowError:
        raise ValueError("an entry is too large for a floating-point number") from None
    if M.ndim != 2:
        raise ValueError(f"expected a matrix, got an array of {M.ndim} dimension(s)")
    if not np.isfinite(M).all():
        raise ValueError("the matrix holds a non-finite entry")
    k, r = M.shape
    if (k, r) != (_FPCA_K, _FPCA_K):
        return False, (f"U.T @ R is {k} × {r}: with the chapter's d = {_FPCA_K + 1} features both "
                       f"U and R have k = d - 1 = {_FPCA_K} orthonormal columns (U = "
                       "fair.components_.T, the components as columns).")
    values = np.linalg.svd(M, compute_uv=False)
    if not np.all(np.abs(values - 1) < 1e-8):
        return False, ("U.T @ R is not orthogonal (its singular values, the cosines of the "
                       "principal angles, are not all 1 to 1e-8): U and R must both have "
                       "orthonormal columns spanning the same subspace. Is U fair PCA's, fitted "
                       "with sensitive_features and center=False as R was built?")
    if matches("ex-fpca-numerical", "answer", (np.abs(M).sum(), np.abs(M).max())):
        return True, (f"All {k} cosines of the principal angles are 1 (to 1e-8): the two "
                      f"{k}-dimensional subspaces coincide. Say why k = d - 1 leaves fair PCA no "
                      "choice but a rotation.")
    return False, ("An orthogonal matrix, but not U.T @ R of the chapter's U and R: compute it "
                   "from fair.components_.T and the chapter's R, not from another basis.")


# --- Chapter 5 --------------------------------------------------------------------------------

_LS = tuple(range(2, 10))


@register("ex-variants-l", "a dict {l: RBF-SVM accuracy} for l = 2, ..., 9: FairPCA(2, "
          "center=False, equalize_covariance=l) on the data of the paper's Figure 1, scored as in "
          "the chapter (cross_val_score(SVC(), E, z, cv=5).mean(); defaults: 500 points per "
          "group, seed 0; to 2 decimals).")
def _variants_l(answer):
    if not isinstance(answer, dict):
        raise TypeError("the answer should be a dict {l: accuracy}")
    got = {}
    for l, v in answer.items():
        if isinstance(l, bool) or not isinstance(l, (numbers.Integral, np.integer)):
            raise TypeError(f"the keys should be the integers l = 2, ..., 9, not {l!r}")
        got[int(l)] = _number(v, f"the accuracy at l = {l}")
    missing = sorted(set(_LS) - set(got))
    if missing:
        return False, f"The sweep lacks l = {missing}: the exercise asks for l = 2, ..., 9."
    if any(v > 1 for v in got.values()):
        return False, ("An accuracy above 1: report the mean of the five folds' accuracies, not a "
                       "percentage.")
    if any(v < 0 for v in got.values()):
        return False, "An accuracy is not negative."
    if matches("ex-variants-l", "answer", tuple(got[l] for l in _LS)):
        return True, ("Every accuracy is right. Read off where the SVM leaves chance, and explain "
                      "it from where the two groups differ.")
    return False, ("Not every accuracy is right (to 2 decimals). Fit each FairPCA(2, "
                   "center=False, equalize_covariance=l) on the whole data with "
                   "sensitive_features and score its embedding with "
                   "cross_val_score(SVC(), E, z, cv=5).")


# --- Chapter 11 -------------------------------------------------------------------------------

@register("ex-repro-ddof", "a number: the factor by which a standard deviation over ten splits "
          "grows when computed with ddof=1 instead of ddof=0 (to 3 decimals).")
def _repro_ddof(answer):
    factor = (_number(answer),)
    if matches("ex-repro-ddof", "answer", factor):
        return True, ("The factor is right. Now apply it to the printed standard deviations "
                      "of Table 1 (k = 2, PCA).")
    if matches("ex-repro-ddof", "variances", factor):
        return False, ("That is the ratio of the variances; a standard deviation is their square "
                       "root.")
    if matches("ex-repro-ddof", "inverted", factor):
        return False, "That factor shrinks the standard deviation: invert it."
    return False, ("Compare the divisors of the two variances over n = 10 splits, then take the "
                   "square root.")


@register("ex-repro-protocol", "the name of the data set ('adult', 'compas' or 'german') on "
          "which train-on-test inflates the kernel SVM's accuracy least at k = 2.")
def _repro_protocol(answer):
    name = _name(answer, "a data set name, e.g. 'adult'").strip().lower().replace(" ", "")
    name = {"germancredit": "german"}.get(name, name)
    if name not in ("adult", "compas", "german"):
        return False, "Answer with one of 'adult', 'compas' or 'german'."
    if matches("ex-repro-protocol", "answer", (name,)):
        return True, ("That data set is the one. Explain it from the number of test rows the "
                      "kernel SVM has to fit, and say why the linear SVM's gap stays within a few "
                      "points everywhere.")
    if matches("ex-repro-protocol", "largest", (name,)):
        return False, ("That is where the inflation is largest: the exercise asks where it is "
                       "least.")
    return False, ("Not that one: compare the gap between in-sample and held-out accuracy of the "
                   "kernel SVM on all three, averaged over the methods.")


# --- Chapter 12 -------------------------------------------------------------------------------

_PAPER_EPS = (0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)


@register("ex-tradeoff-gap", "the curves DataFrame returned by kleindessner_tradeoffs.curves(..., "
          "eps=[0.001, ..., 0.2] (the paper's 11 values), n_runs=3).")
def _tradeoff_gap(answer):
    import pandas as pd

    if not isinstance(answer, pd.DataFrame):
        raise TypeError("the answer should be the DataFrame that kleindessner_tradeoffs.curves "
                        "returns")
    from ..experiments import kleindessner_tradeoffs

    needed = ("dataset", "fairness", "classifier", "method", "run", "param", "error",
              "violation")
    absent = [c for c in needed if c not in answer.columns]
    if absent:
        raise KeyError(f"no column(s) {absent}: pass the curves, not the gaps")
    reductions = answer[answer.method == "Reductions"]
    if reductions.empty or "Fair PCA" not in set(answer.method):
        return False, "The curves need both 'Fair PCA' and 'Reductions' to compare them."
    try:
        params = reductions.param.astype(float)
        error = answer.error.astype(float)
        violation = answer.violation.astype(float)
    except (TypeError, ValueError):
        return False, "The curves' param, error and violation columns should hold numbers."
    if not (error.between(0, 1).all() and (violation >= 0).all()):
        return False, ("These are not curves of test errors (between 0 and 1) and violations "
                       "(not negative): pass what kleindessner_tradeoffs.curves returns.")
    eps = sorted(set(np.round(params, 6)))
    if eps != sorted(_PAPER_EPS):
        return False, (f"The reductions' curve has {len(eps)} values of ε; the exercise asks for "
                       "the paper's 11 (0.001 to 0.2).")
    runs = answer.run.nunique()
    if runs < 3:
        return False, f"The curves come from {runs} run(s); the exercise asks for n_runs=3."
    gaps = kleindessner_tradeoffs.gaps(answer)
    fair = gaps[gaps.method == "Fair PCA"]
    signs = ", ".join(f"{r.fairness}: {'+' if r.mean_gap > 0 else '−'}" for r in fair.itertuples())
    return True, (f"Curves over the paper's 11 values of ε and {runs} runs. The sign of Fair PCA's "
                  f"mean gap to the reductions ({signs}): compare it with the chapter's table, "
                  "then explain why dominated points leave a lower envelope unchanged.")


# --- Chapter 13 -------------------------------------------------------------------------------

@register("ex-erasure-parity", "a pair (parity accuracy, digit accuracy) after Fair PCA, read "
          "from concept_erasure.scores(X, labels % 2, labels, k=10) at the chapter's defaults "
          "(to 2 decimals).")
def _erasure_parity(answer):
    values = _numbers(answer, ("parity", "digit"))
    if any(not 0 <= v <= 1 for v in values):
        return False, "An accuracy lies between 0 and 1 (not a percentage)."
    if matches("ex-erasure-parity", "answer", values):
        return True, ("Both accuracies are right: parity is read at chance, the digit is not. "
                      "Now explain why the digit classifier still gives the parity away without "
                      "a contradiction.")
    for role, row in (("pixels", "the original pixels"), ("pca", "PCA"),
                      ("fair-pca-s", "Fair PCA-S")):
        if matches("ex-erasure-parity", role, values):
            return False, (f"Those are the accuracies of {row}; the exercise asks for the "
                           "'Fair PCA' row.")
    return False, ("Read both numbers from the 'Fair PCA' row: concept_accuracy (parity) and "
                   "label_accuracy (the digit), with the concept labels % 2 and k = 10.")


# --- Chapter 14 -------------------------------------------------------------------------------

@register("ex-ps-encoding", "the results DataFrame of perez_suay.regression(cmc, ['n_children', "
          "'wife_education'], sensitive_encoding='one-hot', grids=grids).")
def _ps_encoding(answer):
    import pandas as pd

    if not isinstance(answer, pd.DataFrame):
        raise TypeError("the answer should be the DataFrame that perez_suay.regression returns")
    needed = ("sensitive", "method", "variant", "repetition", "hsic")
    absent = [c for c in needed if c not in answer.columns]
    if absent:
        raise KeyError(f"no column(s) {absent}: pass the results of perez_suay.regression")
    if "FLR" not in set(answer.method):
        return False, "The results hold no FLR path: keep the default methods."
    if not {"n_children", "wife_education"} <= set(answer.sensitive):
        return False, ("The results lack a sensitive choice: pass ['n_children', 'wife_education'] "
                       "and the CMC splits.")
    # LR does not depend on μ: its test HSIC for n_children ("with S", first repetition) tells the
    # encodings apart.
    lr = answer[(answer.method == "LR") & (answer.sensitive == "n_children")
                & (answer.variant == "with S") & (answer.repetition == 0)]
    if lr.empty:
        return False, ("The results lack the LR row of n_children: keep the default methods and "
                       "variants.")
    hsic = (_number(lr.hsic.iloc[0], "LR's HSIC"),)
    if matches("ex-ps-encoding", "columns", hsic):
        return False, "These results use the numeric columns: pass sensitive_encoding='one-hot'."
    if not matches("ex-ps-encoding", "answer", hsic):
        return False, ("LR's HSIC differs from the chapter's defaults: run on the chapter's CMC "
                       "splits and grids.")
    return True, ("One-hot results for both sensitive variables. Plot them with perez_suay.plot "
                  "and compare the FLR curves with Fig. 5's; then say why the two encodings' HSIC "
                  "values are on different scales.")


@register("ex-ps-measure", "the sensitive choice, 'sex' or 'sex+race', under which the measure "
          "of the reference code (hsic='hsic_model') is NOT a constant multiple of the linear HSIC "
          "for KRR/FKR.")
def _ps_measure(answer):
    name = _name(answer, "'sex' or 'sex+race'").replace(" ", "").lower()
    name = name.replace("and", "+").replace("&", "+")
    name = {"race+sex": "sex+race"}.get(name, name)
    if name not in ("sex", "sex+race"):
        return False, "Answer with 'sex' or 'sex+race'."
    if matches("ex-ps-measure", "answer", (name,)):
        return True, ("That is the choice. Now explain it from the RBF kernel on rows of "
                      "one-hot blocks with a small σ_S.")
    return False, ("Not that one: under it the two measures' curves are the same up to a "
                   "constant factor. Compare the two panels again.")


# --- Chapter 15 -------------------------------------------------------------------------------

@register("ex-dediego-ci", "a pair (low, high): the 95 % confidence interval of a DI of 0.8 with "
          "selection rates 0.4 and 0.5 in two groups of 100 rows each (to 2 decimals).")
def _dediego_ci(answer):
    values = _numbers(answer, ("low", "high"))
    low, high = values
    if low > high:
        return False, "The lower end is above the upper one: give (low, high)."
    if abs((low + high) / 2 - 0.8) > 0.01:
        return False, "The interval should be centred on the estimate DI = 0.4 / 0.5 = 0.8."
    if high - low < 1e-6:
        return False, "An interval of no width: add and subtract 1.96 standard errors."
    if matches("ex-dediego-ci", "answer", values):
        return True, ("The interval is right. Is 0.8 inside? Is 1 (parity)? Say what 200 rows "
                      "can and cannot tell apart.")
    if matches("ex-dediego-ci", "pooled", values):
        return False, ("Each group's variance term divides by that group's 100 rows, not by the "
                       "200 rows together.")
    if matches("ex-dediego-ci", "ninety", values):
        return False, "That is a 90 % interval: a 95 % interval uses 1.96."
    return False, ("Centred right, but not the right width: use the 1.96 of a 95 % interval and "
                   "the variance formula of the chapter's section on the DI interval.")


# --- Chapter 16 -------------------------------------------------------------------------------

@register("ex-scaling-shift", "a number: how many of the 16 significant digits the textbook "
          "formula loses, 16 + log10(max |textbook − np.cov| / max |np.cov|) on X_mem (to a "
          "quarter of a digit).")
def _scaling_shift(answer):
    lost = (_number(answer),)
    if not 0 <= lost[0] <= 17:
        return False, ("A count of lost digits lies between 0 and 16: compute the maximum absolute "
                       "difference of the two matrices relative to the largest entry of np.cov, "
                       "and take 16 + log10 of it.")
    if lost[0] < 2:  # centred data lose about one digit to rounding: 0.98 to 1.25 by BLAS kernel
        return False, ("Under two digits lost: the two matrices agree to rounding, as they do on "
                       "centred data. Use X_mem as it is, with its mean of 100.")
    if matches("ex-scaling-shift", "answer", lost):
        return True, ("The number of digits is of the right order. Now explain it from the "
                      "size of the terms x x^T against the result, and say what the shift by "
                      "the first chunk's mean changes.")
    return False, ("Compute the maximum absolute difference of the two matrices, divide by the "
                   "largest entry of np.cov, and count the digits as 16 + log10 of that.")


# --- Chapter 18 -------------------------------------------------------------------------------

@register("ex-audit-train-test", "a pair (train gap, test gap): the largest |difference of the two "
          "groups' means| over Fair PCA's components on Adult's training rows and on its test "
          "rows (the split of the section on Adult and COMPAS; the test gap to 3 decimals).")
def _audit_train_test(answer):
    train_gap, test_gap = _numbers(answer, ("train gap", "test gap"))
    if train_gap < 0 or test_gap < 0:
        return False, "A gap is an absolute difference: it cannot be negative."
    if train_gap > 1e-8 and test_gap < 1e-8:
        return False, ("The test gap is at rounding level and the training gap is not: did you "
                       "fit on the test rows? Fit on the training rows and transform both.")
    if train_gap > 1e-8:
        return False, ("On the training rows the gap should be at rounding level: fit Fair PCA on "
                       "split.X_train with sensitive_features=split.s_train, and take the group "
                       "means of its transform of split.X_train.")
    if test_gap < 1e-6:
        return False, ("The test gap is at rounding level too: the group means of new rows are "
                       "not equal by construction. Transform split.X_test with the fitted model.")
    if matches("ex-audit-train-test", "answer", (test_gap,)):
        return True, ("The constraint holds on the rows it was imposed on, and new rows differ "
                      "by sampling noise. Now say how that noise scales with the number of test "
                      "rows, and why a cross-validated adversary on the test rows can find it.")
    return False, ("The training gap is at rounding level, as it should be; the test gap is not "
                   "the chapter's (to 3 decimals): use the chapter's Adult split and its number "
                   "of components, fit on the training rows and transform the test rows.")
