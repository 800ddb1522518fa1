"""The checks of the book's "compute" exercises, one per exercise label, in the book's order.

Reference values are those of the chapter at its default parameters (printed by the
instructor's solution cell of the chapter and tested in ``tests/test_exercises.py``); a message
says what is wrong with an answer, never what the right value is.
"""

from __future__ import annotations

import math

import numpy as np

from ._registry import register


def _number(value, name="the answer"):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} should be a number, not {type(value).__name__}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} is {value}")
    return value


def _pair(answer, names):
    """Two numbers from a tuple/list of two or a dict with the keys ``names``."""
    if isinstance(answer, dict):
        missing = [n for n in names if n not in answer]
        if missing:
            raise KeyError(f"the dict lacks the key(s) {missing}")
        values = [answer[n] for n in names]
    else:
        values = list(answer)
        if len(values) != 2:
            raise ValueError(f"expected two numbers, got {len(values)}")
    return tuple(_number(v, f"the value for {n!r}") for v, n in zip(values, names))


def _close(a, b, tol):
    return abs(a - b) <= tol


# --- Chapter 2 --------------------------------------------------------------------------------

@register("ex-datasets-age", "a pair (DI for age >= 25, DI for age > 25) of the good-credit "
          "label of German credit: load_german(variant='lee2022') and load_german(variant='pls').")
def _datasets_age(answer):
    ge, gt = _pair(answer, (">= 25", "> 25"))
    ref_ge, ref_gt = 0.8212, 0.7948     # chapter 2's summary tables
    bad_ge, bad_gt = 0.6860, 0.8393     # the same ratio for the bad-credit label
    if _close(ge, ref_ge, 5e-4) and _close(gt, ref_gt, 5e-4):
        return True, ("Both disparate impacts are right. Now say which applicants move between the "
                      "groups, and why their good-credit rate lowers the ratio.")
    if _close(ge, ref_gt, 5e-4) and _close(gt, ref_ge, 5e-4):
        return False, ("The two values are swapped: the first is for age >= 25, the second for "
                       "age > 25.")
    if any(v > 1 for v in (ge, gt)):
        return False, ("A value above 1: divide the unprivileged group's rate by the privileged "
                       "group's (young applicants are the unprivileged group).")
    if _close(ge, bad_ge, 5e-3) or _close(gt, bad_gt, 5e-3):
        return False, ("That is the ratio for the bad-credit outcome: check which value of y means "
                       "good credit in each variant (its DESCR says).")
    wrong = [name for name, v, r in ((">= 25", ge, ref_ge), ("> 25", gt, ref_gt))
             if not _close(v, r, 5e-4)]
    return False, (f"The value for {' and '.join(wrong)} is off (to 4 decimals). Use "
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
    u = np.array([np.cos(0.3), np.sin(0.3)])
    predicted = np.asarray(answer(X @ u)).astype(float).ravel()
    if predicted.shape != z.shape:
        return False, f"h returned {predicted.size} values for {z.size} rows: apply it elementwise."
    hits = int(np.sum(predicted == z))
    if hits == z.size:
        return True, ("h(u^T x) equals z on every row although the group means coincide: equal "
                      "means "
                      "do not make a representation independent of the group.")
    if hits == 0:
        return False, "h predicts the opposite group on every row: swap its two outcomes."
    return False, (f"h(u^T x) equals z on {hits} of {z.size} rows. Look at where each group's "
                   "points lie, and where they land on the line spanned by u.")


# --- Chapter 3 --------------------------------------------------------------------------------

@register("ex-insep-test", "a pair (train, test) of metrics.linear_inseparability of the Fair "
          "PCA embedding of splits[0] (the chapter's defaults: seed 0, k = 2).")
def _insep_test(answer):
    train, test = _pair(answer, ("train", "test"))
    ref_train, ref_test = 0.3325, 0.3314    # the share of women in the training rows is 526/1582
    if _close(train, ref_train, 5e-4) and _close(test, ref_test, 5e-4):
        return True, ("Both values are right: explain why the first is exactly a group's share and "
                      "the second falls below it.")
    if _close(train, ref_test, 5e-4) and _close(test, ref_train, 5e-4):
        return False, "The two values are swapped: the first is for the training rows."
    if train > 0.5 or test > 0.5:
        return False, ("A value above 0.5 is an error rate above chance: pass the embedding and "
                       "the groups of the same rows (split.s_train with X_train, split.s_test "
                       "with X_test).")
    if not _close(train, ref_train, 5e-4):
        return False, ("The training value is off: fit FairPCA(2) on split.X_train with "
                       "sensitive_features=split.s_train and measure the embedding of the same "
                       "rows.")
    return False, ("The training value is right, the test value is off: transform split.X_test "
                   "with the model fitted on the training rows, and pair it with split.s_test.")


# --- Chapter 4 --------------------------------------------------------------------------------

@register("ex-fpca-numerical", "the matrix U.T @ R, U = fair.components_.T (fair PCA with "
          "k = d - 1, center=False), R the orthonormal basis of the chapter's section on the "
          "relaxed constraint.")
def _fpca_numerical(answer):
    M = np.asarray(answer, dtype=float)
    if M.ndim != 2:
        raise ValueError(f"expected a matrix, got an array of {M.ndim} dimension(s)")
    k, r = M.shape
    if k != r:
        return False, (f"U.T @ R is {k} × {r}: U should have as many columns as R (k = d - 1), "
                       "with the components as columns (fair.components_.T).")
    values = np.linalg.svd(M, compute_uv=False)
    if np.any(values > 1 + 1e-8):
        return False, ("A singular value above 1: U and R must both have orthonormal columns "
                       "(use fair.components_.T, the components as columns).")
    if np.all(np.abs(values - 1) < 1e-8):
        return True, (f"All {k} cosines of the principal angles are 1 (to 1e-8): the two "
                      f"{k}-dimensional subspaces coincide. Say why k = d - 1 leaves fair PCA no "
                      "choice but a rotation.")
    return False, (f"The smallest cosine of the principal angles is {values.min():.3g}, not 1: the "
                   "subspaces differ. Is U fair PCA's, fitted with sensitive_features and "
                   "center=False as R was built?")


# --- Chapter 5 --------------------------------------------------------------------------------

_VARIANTS_L = {2: 0.496, 3: 0.500, 4: 0.487, 5: 0.492, 6: 0.464, 7: 0.474, 8: 0.617, 9: 0.926}


@register("ex-variants-l", "a dict {l: RBF-SVM accuracy} for l = 2, ..., 9: FairPCA(2, "
          "center=False, equalize_covariance=l) on the data of the paper's Figure 1, scored as in "
          "the chapter (cross_val_score(SVC(), E, z, cv=5).mean(); defaults: 500 points per "
          "group, seed 0).")
def _variants_l(answer):
    if not isinstance(answer, dict):
        raise TypeError("the answer should be a dict {l: accuracy}")
    got = {int(l): _number(v, f"the accuracy at l = {l}") for l, v in answer.items()}
    missing = sorted(set(_VARIANTS_L) - set(got))
    if missing:
        return False, f"The sweep lacks l = {missing}: the exercise asks for l = 2, ..., 9."
    if any(v > 1 for v in got.values()):
        return False, ("An accuracy above 1: report the mean of the five folds' accuracies, not a "
                       "percentage.")
    off = [l for l, ref in _VARIANTS_L.items() if not _close(got[l], ref, 0.006)]
    if not off:
        return True, ("Every accuracy is right. Read off where the SVM leaves chance, and explain "
                      "it "
                      "from where the two groups differ.")
    return False, (f"The accuracy at l = {off} is off (to 2 decimals). Fit each FairPCA(2, "
                   f"center=False, "
                   "equalize_covariance=l) on the whole data with sensitive_features and score its "
                   "embedding with cross_val_score(SVC(), E, z, cv=5).")


# --- Chapter 11 -------------------------------------------------------------------------------

@register("ex-repro-ddof", "a number: the factor by which a standard deviation over ten splits "
          "grows when computed with ddof=1 instead of ddof=0.")
def _repro_ddof(answer):
    factor = _number(answer)
    if _close(factor, math.sqrt(10 / 9), 5e-4):
        return True, ("The factor is right. Now apply it to the printed standard deviations "
                      "of Table 1 (k = 2, PCA).")
    if _close(factor, 10 / 9, 5e-4):
        return False, ("That is the ratio of the variances; a standard deviation is their square "
                       "root.")
    if factor < 1:
        return False, ("The sample standard deviation (ddof=1) is the larger of the two: invert "
                       "your factor.")
    return False, ("Compare the divisors of the two variances over n = 10 splits, then take the "
                   "square root.")


@register("ex-repro-protocol", "the name of the data set ('adult', 'compas' or 'german') on "
          "which train-on-test inflates the kernel SVM's accuracy least at k = 2.")
def _repro_protocol(answer):
    if not isinstance(answer, str):
        raise TypeError("the answer should be a data set name, e.g. 'adult'")
    name = answer.strip().lower().replace(" ", "")
    known = {"adult": "adult", "compas": "compas", "german": "german", "germancredit": "german"}
    if name not in known:
        return False, "Answer with one of 'adult', 'compas' or 'german'."
    if known[name] == "adult":
        return True, ("That data set is the one. Explain it from the number of test rows the "
                      "kernel SVM has to fit, and say why the linear SVM's gap stays within a few "
                      "points everywhere.")
    if known[name] == "german":
        return False, ("German Credit has the smallest test part, so a flexible model memorises it "
                       "most easily: look at the largest gap there, not the smallest.")
    return False, ("Compare the gap between in-sample and held-out accuracy of the kernel SVM on "
                   "all three, averaged over the methods.")


# --- Chapter 12 -------------------------------------------------------------------------------

_PAPER_EPS = (0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)


@register("ex-tradeoff-gap", "the curves DataFrame returned by kleindessner_tradeoffs.curves(..., "
          "eps=[0.001, ..., 0.2] (the paper's 11 values), n_runs=3).")
def _tradeoff_gap(answer):
    import pandas as pd

    if not isinstance(answer, pd.DataFrame):
        raise TypeError("the answer should be the DataFrame that kleindessner_tradeoffs.curves "
                        "returns")
    for column in ("method", "run", "param"):
        if column not in answer.columns:
            raise KeyError(f"no column {column!r}: pass the curves, not the gaps")
    from ..experiments import kleindessner_tradeoffs

    reductions = answer[answer.method == "Reductions"]
    if reductions.empty or "Fair PCA" not in set(answer.method):
        return False, "The curves need both 'Fair PCA' and 'Reductions' to compare them."
    eps = sorted(set(np.round(reductions.param.astype(float), 6)))
    if eps != sorted(_PAPER_EPS):
        return False, (f"The reductions' curve has {len(eps)} values of ε; the exercise asks for "
                       f"the "
                       f"paper's 11 (0.001 to 0.2).")
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
          "from concept_erasure.scores(X, labels % 2, labels, k=10) at the chapter's defaults.")
def _erasure_parity(answer):
    parity, digit = _pair(answer, ("parity", "digit"))
    ref_parity, ref_digit = 0.504, 0.851    # the "Fair PCA" row at seed 0, all 1 797 digits
    if _close(parity, ref_parity, 0.005) and _close(digit, ref_digit, 0.005):
        return True, ("Both accuracies are right: parity is read at chance, the digit is not. "
                      "Now explain why the digit "
                      "classifier still gives the parity away without a contradiction.")
    if parity > 0.6:
        return False, ("The parity accuracy is far above chance: read the 'Fair PCA' row (after "
                       "erasure), not the original pixels or PCA.")
    if digit < 0.5:
        return False, ("The digit accuracy is low: that is the row of Fair PCA-S; the exercise "
                       "asks "
                       "for Fair PCA.")
    return False, ("Read both numbers from the 'Fair PCA' row: concept_accuracy (parity) and "
                   "label_accuracy (the digit), with the concept labels % 2 and k = 10.")


# --- Chapter 14 -------------------------------------------------------------------------------

@register("ex-ps-encoding", "the results DataFrame of perez_suay.regression(cmc, ['n_children', "
          "'wife_education'], sensitive_encoding='one-hot', grids=grids).")
def _ps_encoding(answer):
    import pandas as pd

    if not isinstance(answer, pd.DataFrame):
        raise TypeError("the answer should be the DataFrame that perez_suay.regression returns")
    for column in ("sensitive", "method", "hsic"):
        if column not in answer.columns:
            raise KeyError(f"no column {column!r}: pass the results of perez_suay.regression")
    if "FLR" not in set(answer.method):
        return False, "The results hold no FLR path: keep the default methods."
    sensitive = set(answer.sensitive)
    if not {"n_children", "wife_education"} <= sensitive:
        return False, ("The results lack a sensitive choice: pass ['n_children', 'wife_education'] "
                       "and the CMC splits.")
    # LR does not depend on μ: its test HSIC for n_children ("with S", first repetition) at the
    # chapter's defaults tells the encodings apart (0.0494 with the numeric column).
    lr = answer[(answer.method == "LR") & (answer.sensitive == "n_children")
                & (answer.variant == "with S") & (answer.repetition == 0)]
    if lr.empty:
        return False, ("The results lack the LR row of n_children: keep the default methods and "
                       "variants.")
    hsic = float(lr.hsic.iloc[0])
    if _close(hsic, 0.0494, 0.001):
        return False, "These results use the numeric columns: pass sensitive_encoding='one-hot'."
    if not _close(hsic, 0.00104, 0.00003):
        return False, ("LR's HSIC differs from the chapter's defaults: run on the chapter's CMC "
                       "splits "
                       "and grids.")
    return True, ("One-hot results for both sensitive variables. Plot them with perez_suay.plot "
                  "and "
                  "compare the FLR curves with Fig. 5's; then say why the two encodings' HSIC "
                  "values are on different scales.")


@register("ex-ps-measure", "the sensitive choice, 'sex' or 'sex+race', under which the measure "
          "of the reference code (hsic='hsic_model') is NOT a constant multiple of the linear HSIC "
          "for KRR/FKR.")
def _ps_measure(answer):
    if not isinstance(answer, str):
        raise TypeError("the answer should be 'sex' or 'sex+race'")
    name = answer.replace(" ", "").lower().replace("and", "+").replace("&", "+")
    if name in ("sex+race", "race+sex"):
        return True, ("That is the choice. Now explain it from the RBF kernel on rows of "
                      "one-hot blocks with a small σ_S.")
    if name == "sex":
        return False, ("For one binary attribute the centred RBF Gram matrix is a multiple of the "
                       "linear one: compare the two panels' curves again.")
    return False, "Answer with 'sex' or 'sex+race'."


# --- Chapter 15 -------------------------------------------------------------------------------

@register("ex-dediego-ci", "a pair (low, high): the 95 % confidence interval of a DI of 0.8 with "
          "selection rates 0.4 and 0.5 in two groups of 100 rows each.")
def _dediego_ci(answer):
    low, high = _pair(answer, ("low", "high"))
    ref_low, ref_high = 0.552, 1.048
    if low > high:
        return False, "The lower end is above the upper one: give (low, high)."
    if _close(low, ref_low, 0.005) and _close(high, ref_high, 0.005):
        return True, ("The interval is right. Is 0.8 inside? Is 1 (parity)? Say what 200 rows "
                      "can and cannot tell apart.")
    if not _close((low + high) / 2, 0.8, 0.01):
        return False, "The interval should be centred on the estimate DI = 0.4 / 0.5 = 0.8."
    if high - low < 0.45:
        return False, ("The interval is too narrow: each group's variance term divides by that "
                       "group's 100 rows, not by the 200 rows together.")
    return False, ("The interval is too wide: use the 1.96 of a 95 % interval and the variance "
                   "formula of the chapter's section on the DI interval.")


# --- Chapter 16 -------------------------------------------------------------------------------

@register("ex-scaling-shift", "a number: how many of the 16 significant digits the textbook "
          "formula loses, 16 + log10(max |textbook − np.cov| / max |np.cov|) on X_mem.")
def _scaling_shift(answer):
    lost = _number(answer)
    if 3 <= lost <= 7:
        return True, ("The number of digits is of the right order. Now explain it from the "
                      "size of the terms x x^T against the result, and say what the shift by "
                      "the first chunk's mean changes.")
    if lost <= 2:
        return False, ("So few digits lost means the two matrices agree almost to rounding: did "
                       "you centre X_mem before the textbook formula?")
    if lost > 10:
        return False, ("Too many: at a mean of 100 the terms are about 10^4 times the result, "
                       "not 10^16. Use the maximum absolute difference relative to the largest "
                       "entry.")
    return False, ("Compute the maximum absolute difference of the two matrices, divide by their "
                   "largest entry, and count the digits as 16 + log10 of that.")


# --- Chapter 18 -------------------------------------------------------------------------------

@register("ex-audit-train-test", "a pair (train gap, test gap): the largest |difference of the two "
          "groups' means| over Fair PCA's components on Adult's training rows and on its test "
          "rows (the split of the section on Adult and COMPAS).")
def _audit_train_test(answer):
    train_gap, test_gap = _pair(answer, ("train gap", "test gap"))
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
    if test_gap > 1.0:
        return False, ("A test gap above one standard deviation is far more than sampling noise: "
                       "standardise with the training statistics (standardize=True) as the "
                       "chapter does.")
    return True, ("The constraint holds on the rows it was imposed on, and new rows differ "
                  "by sampling noise. Now say how that noise scales with the number of test rows, "
                  "and why a cross-validated adversary on the test rows can find it.")
