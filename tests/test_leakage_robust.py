"""fairlab.metrics.leakage under offsets, scales, outliers and constant columns; the coverage of
its intervals on independent data; its interval and p-value computed by hand."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin

from fairlab import FairPCA, evaluation
from fairlab.metrics import leakage
from fairlab.metrics._audit import _interval, _permutation_p_value, _robust_columns

QUICK = {"adversaries": ("logistic",), "tests": (), "cv": 5, "n_bootstrap": 200}


def leak(n=400, seed=0):
    """Column 0 tells the groups apart (balanced accuracy about 0.93), at a spread of about 0.5;
    columns 1 and 2 are noise."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    Z = rng.standard_normal((n, 3))
    Z[:, 0] = 0.3 * (Z[:, 0] + 3.2 * s)
    return Z, s


def row(table, method="logistic", measure="balanced_accuracy"):
    rows = table[(table.method == method) & (table.measure == measure)]
    assert len(rows) == 1
    return rows.iloc[0]


# ------------------------------------------------------------------ the cases, one by one
def _offset(Z, rng):
    return Z + 1e10


def _beside(Z, rng):
    return np.c_[Z, 1e10 * rng.standard_normal(Z.shape[0])]


def _outlier(Z, rng):
    W = Z.copy()
    W[5, 1] = 1e12
    return W


def _scale_1e300(Z, rng):
    return Z * 1e300


def _tiny(Z, rng):
    return Z * 1e-300


def _huge_leak_column(Z, rng):
    W = Z.copy()
    W[:, 0] *= 1e10
    return W


@pytest.mark.parametrize("change", [_offset, _beside, _outlier, _scale_1e300, _tiny,
                                    _huge_leak_column])
def test_a_leak_is_found_whatever_offsets_scales_and_outliers_surround_it(change):
    Z, s = leak()
    alone = row(leakage(Z, s, **QUICK))
    assert alone.detected and alone.score > 0.9
    changed = row(leakage(change(Z, np.random.default_rng(1)), s, **QUICK))
    assert changed.detected
    assert abs(changed.score - alone.score) <= 0.01


def test_the_tests_see_the_standardised_columns_too():
    """HSIC and MMD² with a Gaussian kernel: a column of scale 1e10 beside the leak would set
    the kernel's width, and the leak would be invisible."""
    Z, s = leak(300)
    options = {"adversaries": ("logistic",), "tests": ("mmd2", "hsic"), "n_bootstrap": 50,
               "n_permutations": 100}
    alone = leakage(Z, s, **options)
    beside = leakage(_beside(Z, np.random.default_rng(1)), s, **options)
    tests = beside[beside.kind == "permutation test"]
    assert (tests.p_value < 0.02).all() and tests.detected.all()
    assert alone[alone.kind == "permutation test"].detected.all()


def _family(rng, Z):
    """One draw of the adversarial family: per column an offset of up to 1e10 spreads, a scale
    of 1e-6 to 1e10 (the columns' scales within 1e5 of each other), in half of the draws one
    outlier of 1e12 spreads, in half a constant column (zero, 1e10 or -7.5), the columns in a
    random order.  Returns the representation and whether it holds an outlier."""
    n, k = Z.shape
    overall = 10.0 ** rng.uniform(-6, 5)
    scales = overall * 10.0 ** rng.uniform(0, 5, k)
    offsets = rng.choice([0.0, 1.0, -1.0], k) * 10.0 ** rng.uniform(0, 10, k) * scales
    W = Z * scales + offsets
    outlier = rng.random() < 0.5
    if outlier:
        i, j = rng.integers(n), rng.integers(k)
        W[i, j] = offsets[j] + rng.choice([-1.0, 1.0]) * 1e12 * scales[j]
    if rng.random() < 0.5:
        W = np.c_[W, np.full(n, rng.choice([0.0, 1e10, -7.5]))]
    return W[:, rng.permutation(W.shape[1])], outlier


def test_detection_is_unchanged_on_a_family_of_offsets_scales_outliers_and_constants():
    """24 draws of the family around a leak and around independent noise.  The leak is found
    every time with the same score (within 0.01, or 0.02 where an outlier replaced one of its
    entries: a few of 300 predictions); the noise is never flagged, and its scores stay within
    0.002 unless an outlier replaced one of its entries (a classifier fitted to noise is
    unstable: one moved entry moves its boundary through the bulk of the rows)."""
    rng = np.random.default_rng(2024)
    Z, s = leak(300, seed=3)
    noise = np.random.default_rng(5).standard_normal((300, 3))  # not a false alarm
    options = {"adversaries": ("logistic", "rbf_svm"), "tests": ("hsic",), "cv": 5,
               "n_bootstrap": 100, "n_permutations": 50}
    references = [leakage(Z, s, **options), leakage(noise, s, **options)]
    assert references[0].detected.all() and not references[1].detected.any()
    for draw in range(24):
        for base, reference, tolerance in zip((Z, noise), references, (0.01, 0.002)):
            W, outlier = _family(rng, base)
            table = leakage(W, s, **options)
            assert (table.detected == reference.detected).all(), draw
            adversaries = table.kind == "adversary"
            gap = (table.score - reference.score)[adversaries].abs().max()
            if outlier:
                tolerance = 0.06 if base is noise else 0.02
            assert gap <= tolerance, (draw, gap)


def test_constant_extra_columns_change_nothing():
    Z, s = leak(200)
    options = {"adversaries": ("logistic", "gradient_boosting", "mlp"), "n_bootstrap": 50,
               "n_permutations": 30}
    pd.testing.assert_frame_equal(leakage(Z, s, **options),
                                  leakage(np.c_[np.zeros(200), Z, np.full(200, 3e9)], s,
                                          **options))


# ------------------------------------------------------------------ rounding, per column
def test_a_column_constant_to_rounding_is_dropped_at_any_scale():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 300)
    noise = rng.normal(size=(300, 2))
    for scale in (1e-200, 1.0, 1e200):
        rounding = scale * (3.0 + 1e-15 * (s + 0.1 * rng.random(300)))  # a constant's last bits
        table = leakage(np.c_[noise, rounding], s, **QUICK)
        assert not table.detected.any()
        _, informative = _robust_columns(np.c_[noise, rounding])
        assert list(informative) == [True, True, False]
    # one decade above the limit (10⁻¹² of its own magnitude) the same column is information
    signal = 3.0 + 1e-11 * (s + 0.1 * rng.random(300))
    assert leakage(np.c_[noise, signal], s, **QUICK).detected.all()


def test_the_limit_between_columns_sits_at_1e_12_of_the_largest_spread():
    rng = np.random.default_rng(5)
    s = rng.integers(0, 2, 300)
    noise = rng.normal(size=(300, 2))
    small = s + 0.3 * rng.standard_normal(300)  # a clear leak
    found = leakage(np.c_[noise, 1e-11 * small], s, **QUICK)
    assert found.detected.all()
    rounding = leakage(np.c_[noise, 1e-13 * small], s, **QUICK)
    assert not rounding.detected.any()


def test_a_fair_projection_equal_to_chance_up_to_rounding_reads_chance():
    """Components beyond the rank of the data are 0 up to rounding, and the rounding follows the
    attribute: on every machine, the audit must read them as the constant they are."""
    rng = np.random.default_rng(0)
    n = 600
    s = rng.integers(0, 2, n)
    base = rng.standard_normal((n, 3))
    X = np.c_[base, base @ rng.standard_normal((3, 3)), 1.0 + 0 * s]  # rank 3 in 7 features
    X[:, :3] += 0.8 * s[:, None]
    E = FairPCA(6).fit(X, sensitive_features=s).transform(X)
    spread = E.std(axis=0)
    assert (spread[:3] > 0.1).all() and (spread[3:] < 1e-13).all()  # 3 real, 3 rounding
    _, informative = _robust_columns(E)
    assert list(informative) == [True, True, True, False, False, False]
    table = leakage(E, s, adversaries=("logistic", "gradient_boosting"), tests=(),
                    n_bootstrap=100)
    assert not table.detected.any()
    # the same with every column rescaled: the rounding columns stay rounding
    assert not leakage(E * [1.0, 1e3, 1e-3, 1.0, 1.0, 1.0], s, **QUICK).detected.any()


def test_last_bits_of_offset_columns_do_not_change_the_audit():
    rng = np.random.default_rng(1)
    s = rng.integers(0, 2, 300)
    Z = rng.normal(size=(300, 3)) + 0.4 * s[:, None] + [1e6, -3.0, 0.0]
    wiggled = Z * (1 + 4e-16 * rng.standard_normal(Z.shape))
    options = {"adversaries": ("logistic", "gradient_boosting"), "tests": (),
               "n_bootstrap": 50}
    pd.testing.assert_frame_equal(leakage(Z, s, **options), leakage(wiggled, s, **options))


# ------------------------------------------------------------------ degenerate inputs
def test_a_constant_representation_reads_chance_with_a_warning():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 100)
    for E in (np.ones((100, 3)), np.zeros((100, 1)), np.full((100, 2), 1e300)):
        with pytest.warns(UserWarning, match="representation is constant"):
            table = leakage(E, s, n_bootstrap=20, n_permutations=20)
        assert list(table.method) == ["logistic", "logistic", "rbf_svm", "rbf_svm", "mlp", "mlp",
                                      "gradient_boosting", "gradient_boosting", "mmd2", "hsic"]
        assert not table.detected.any()
        adv = table[table.kind == "adversary"]
        assert (adv.score == adv.chance).all() and (adv.ci_low == adv.chance).all()
        assert (adv.ci_high == adv.chance).all() and (adv.chance == 0.5).all()
        tests = table[table.kind == "permutation test"]
        assert (tests.score == 0).all() and (tests.p_value == 1).all()
    # a continuous attribute, and three groups: chance 0 and 1/3, HSIC only
    with pytest.warns(UserWarning, match="constant"):
        cont = leakage(np.ones((100, 2)), rng.standard_normal(100), n_bootstrap=20)
    assert list(cont.measure) == ["r2"] * 4 + ["hsic"] and (cont.chance == 0).all()
    with pytest.warns(UserWarning, match="constant"):
        three = leakage(np.ones((90, 2)), np.repeat([0, 1, 2], 30), adversaries=("logistic",))
    assert list(three.measure) == ["balanced_accuracy", "hsic"]
    assert three.score.iloc[0] == pytest.approx(1 / 3)


def test_a_discrete_representation_runs_the_tests():
    """Most pairs of rows coincide: the median heuristic of MMD² is 0 without a fallback."""
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 200)
    E = ((rng.random(200) < 0.05) | (s == 1) & (rng.random(200) < 0.3)).astype(float)[:, None]
    table = leakage(E, s, adversaries=("logistic",), n_bootstrap=50, n_permutations=100)
    tests = table[table.kind == "permutation test"]
    assert list(tests.method) == ["mmd2", "hsic"] and tests.detected.all()


def test_empty_inputs_name_the_argument():
    s = np.repeat([0, 1], 20)
    with pytest.raises(ValueError, match=r"representation has no columns \(shape \(40, 0\)\)"):
        leakage(np.empty((40, 0)), s)
    with pytest.raises(ValueError, match="estimators is empty"):
        evaluation.audit_representations({}, [])
    with pytest.raises(TypeError, match="estimators must be a dict"):
        evaluation.audit_representations([FairPCA(1)], [])
    with pytest.raises(ValueError, match="splits is empty"):
        evaluation.audit_representations({"Fair PCA": FairPCA(1)}, [])


# ------------------------------------------------------------------ by hand
def test_the_interval_by_hand():
    draws = np.array([0.40, 0.45, 0.50, 0.55, 0.60, 0.70])
    # numpy's default quantile: q(p) = x_(⌊h⌋) + (h − ⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)), h = (N − 1)p
    # confidence 0.8: α = 0.1, h = 0.5 → 0.425; 1 − α: h = 4.5 → 0.65
    # cv = 5: c = √(1 + 5/4) = 1.5; T = 0.5: [0.5 − 1.5·0.075, 0.5 + 1.5·0.15]
    assert _interval(0.5, draws, 0.8, 5, (0.0, 1.0)) == pytest.approx((0.3875, 0.725))
    # cv = 2: c = √3; cut at the bounds
    low, high = _interval(0.5, draws, 0.8, 2, (0.45, 0.7))
    assert (low, high) == (0.45, 0.7)
    assert _interval(0.5, draws, 0.8, 2, (0.0, 1.0)) == pytest.approx(
        (0.5 - np.sqrt(3) * 0.075, 0.5 + np.sqrt(3) * 0.15))
    # the interval contains its value even when the draws do not
    assert _interval(0.3, draws, 0.8, 5, (0.0, 1.0))[0] == 0.3


def test_the_p_value_by_hand_with_ties():
    permuted = np.array([0.1, 0.3, 0.3, 0.5, 0.3 - 1e-13])
    # T = 0.3: the two exact ties, the one within rounding and 0.5 count: (1 + 4)/(1 + 5)
    assert _permutation_p_value(0.3, permuted, 1e-12) == pytest.approx(5 / 6)
    # without a tolerance the near tie does not count: (1 + 3)/6
    assert _permutation_p_value(0.3, permuted, 0.0) == pytest.approx(4 / 6)
    assert _permutation_p_value(0.6, permuted, 1e-12) == pytest.approx(1 / 6)


def test_an_audit_interval_by_hand():
    """The whole chain on a tiny input: the balanced accuracy of the out-of-fold predictions, the
    bootstrap of it, and the stretched percentile interval, recomputed here from the definitions."""
    from sklearn.model_selection import StratifiedKFold

    from fairlab.metrics._audit import _bootstrap_counts, _seed

    rng = np.random.default_rng(7)
    s = np.repeat([0, 1], 10)
    E = (rng.standard_normal(20) + 1.5 * s)[:, None]
    table = leakage(E, s, adversaries={"threshold": _Threshold()}, tests=(), cv=2,
                    n_bootstrap=40, confidence=0.9)
    ba = row(table, "threshold")
    # the adversary predicts group 1 above the training folds' midpoint
    folds = StratifiedKFold(2, shuffle=True, random_state=_seed(0, "sensitive_features",
                                                                  "folds")).split(E, s)
    pred = np.empty(20, dtype=int)
    Z = _robust_columns(E)[0]
    for train, test in folds:
        mid = 0.5 * (Z[train][s[train] == 0].mean() + Z[train][s[train] == 1].mean())
        pred[test] = Z[test, 0] > mid
    recall = [np.mean(pred[s == g] == g) for g in (0, 1)]
    assert ba.score == pytest.approx(np.mean(recall))
    W = _bootstrap_counts(s, 40, _seed(0, "sensitive_features", "bootstrap"))
    draws = [np.mean([np.sum(w[s == g] * (pred[s == g] == g)) / 10 for g in (0, 1)]) for w in W]
    q_low, q_high = np.quantile(draws, [0.05, 0.95])
    c = np.sqrt(3.0)
    assert ba.ci_low == pytest.approx(max(0.0, ba.score - c * (ba.score - q_low)))
    assert ba.ci_high == pytest.approx(min(1.0, ba.score + c * (q_high - ba.score)))


class _Threshold(ClassifierMixin, BaseEstimator):
    """A classifier of one column: group 1 above the midpoint of the two groups' means."""

    def fit(self, X, y):
        X = np.asarray(X)[:, 0]
        self.classes_ = np.array([0, 1])
        self.mid_ = 0.5 * (X[y == 0].mean() + X[y == 1].mean())
        return self

    def predict(self, X):
        return (np.asarray(X)[:, 0] > self.mid_).astype(int)

    def decision_function(self, X):
        return np.asarray(X)[:, 0] - self.mid_


# ------------------------------------------------------------------ coverage under the null
def test_the_interval_covers_chance_at_its_nominal_rate_on_independent_data():
    """200 null instances (n = 100, logistic adversary, cv = 5): each interval (nominal 95 %)
    must cover chance in at least the 0.1 % quantile of Binomial(200, 0.95) of them, 179."""
    instances, nominal = 200, 0.95
    least = stats.binom.ppf(0.001, instances, nominal)
    assert least == 179
    covered = {"balanced_accuracy": 0, "roc_auc": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(instances):
            rng = np.random.default_rng(10_000 + i)
            table = leakage(rng.standard_normal((100, 3)), rng.integers(0, 2, 100),
                            adversaries=("logistic",), tests=(), n_bootstrap=100,
                            confidence=nominal, random_state=i)
            for _, r in table.iterrows():
                covered[r.measure] += bool(r.ci_low <= r.chance <= r.ci_high)
    assert min(covered.values()) >= least, covered
