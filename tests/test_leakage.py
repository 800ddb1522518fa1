"""fairlab.metrics.leakage: planted leakage is found, none is invented, the table is stable."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from sklearn.dummy import DummyClassifier  # noqa: E402
from sklearn.metrics import balanced_accuracy_score, r2_score, roc_auc_score  # noqa: E402

from fairlab.metrics import hsic, leakage, mmd2  # noqa: E402
from fairlab.metrics._audit import (  # noqa: E402
    _balanced_accuracy,
    _r2,
    _robust_columns,
    _roc_auc,
    _test_rows,
)
from fairlab.plotting import plot_leakage  # noqa: E402

# small and quick: the whole file runs in a few seconds
FAST = {"cv": 3, "n_bootstrap": 200, "n_permutations": 100}
ALL = ("logistic", "rbf_svm", "mlp", "gradient_boosting")
COLUMNS = ["attribute", "attribute_type", "kind", "method", "measure", "score", "ci_low",
           "ci_high", "chance", "p_value", "detected", "n_samples"]


def circle(n=400, seed=1):
    """s is the radius of a ring (1 or 2): each group's mean is 0, no linear signal at all."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    angle = rng.uniform(0, 2 * np.pi, n)
    radius = 1 + s + 0.15 * rng.standard_normal(n)
    return np.c_[radius * np.cos(angle), radius * np.sin(angle), rng.standard_normal((n, 2))], s


def shifted(n=400, seed=0):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    Z = rng.standard_normal((n, 4))
    Z[:, 0] += 1.5 * s
    return Z, s


def noise(n=400, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, 4)), rng.integers(0, 2, n)


def adversary(table, method, measure):
    row = table[(table.method == method) & (table.measure == measure)]
    assert len(row) == 1
    return row.iloc[0]


@pytest.fixture(scope="module")
def ring():
    Z, s = circle()
    return leakage(Z, s, adversaries=ALL, **FAST)


def test_table_layout(ring):
    assert list(ring.columns) == COLUMNS
    assert list(ring.method) == ["logistic", "logistic", "rbf_svm", "rbf_svm", "mlp", "mlp",
                                 "gradient_boosting", "gradient_boosting", "mmd2", "hsic"]
    assert set(ring.kind) == {"adversary", "permutation test"}
    adv = ring[ring.kind == "adversary"]
    assert (adv.ci_low <= adv.score).all() and (adv.score <= adv.ci_high).all()
    assert adv.p_value.isna().all() and ring[ring.kind != "adversary"].ci_low.isna().all()
    assert (ring.n_samples == 400).all() and (ring.attribute == "sensitive_features").all()
    assert ring.detected.dtype == bool


def test_nonlinear_leakage_is_found_by_nonlinear_adversaries_only(ring):
    for measure in ("balanced_accuracy", "roc_auc"):
        linear = adversary(ring, "logistic", measure)
        assert linear.ci_low <= linear.chance <= linear.ci_high and not linear.detected
        for method in ("rbf_svm", "gradient_boosting", "mlp"):
            row = adversary(ring, method, measure)
            assert row.detected and row.ci_low > row.chance + 0.3
    tests = ring[ring.kind == "permutation test"]
    assert (tests.p_value < 0.05).all() and tests.detected.all()


def test_linear_leakage_is_found_by_every_adversary():
    Z, s = shifted()
    table = leakage(Z, s, adversaries=ALL, **FAST)
    assert table.detected.all()
    assert (table[table.kind == "adversary"].score > 0.7).all()


def test_independent_noise_is_not_flagged():
    Z, s = noise()
    table = leakage(Z, s, adversaries=ALL, **FAST)
    adv = table[table.kind == "adversary"]
    assert ((adv.ci_low <= adv.chance) & (adv.chance <= adv.ci_high)).all()
    tests = table[table.kind == "permutation test"]
    assert (tests.p_value > 0.2).all()
    assert not table.detected.any()


def test_continuous_attribute():
    rng = np.random.default_rng(0)
    n = 300
    s = rng.uniform(-1.5, 1.5, n)
    Z = np.c_[np.cos(2 * s), np.sin(2 * s)] + 0.1 * rng.standard_normal((n, 2))
    Z = np.c_[Z, rng.standard_normal((n, 2))]
    table = leakage(Z, s, adversaries=ALL, **FAST)
    assert list(table.method) == ["ridge", "rbf_svr", "mlp", "gradient_boosting", "hsic"]
    assert set(table.attribute_type) == {"continuous"}
    assert (table[table.kind == "adversary"].chance == 0).all()
    assert table.detected.all()
    assert adversary(table, "gradient_boosting", "r2").ci_low > 0.8  # a nonlinear function of s
    assert adversary(table, "gradient_boosting", "r2").score > adversary(table, "ridge", "r2").score

    independent = leakage(rng.standard_normal((n, 4)), s, adversaries=ALL, **FAST)
    assert not independent.detected.any()
    row = adversary(independent, "ridge", "r2")
    assert row.ci_low <= 0 <= row.ci_high
    # flexible regressors fit the noise of their training folds: out of fold, R² < 0
    assert (independent[independent.kind == "adversary"].ci_low < 0).all()
    assert adversary(independent, "hsic", "hsic").p_value > 0.05


def test_several_attributes_and_groups():
    Z, s = shifted(300)
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"sex": np.where(s == 1, "f", "m"),
                          "region": rng.choice(["n", "s", "e"], 300),
                          "income": Z[:, 0] + 0.1 * rng.standard_normal(300)})
    table = leakage(Z, frame, adversaries=("logistic",), **FAST)
    assert list(dict.fromkeys(table.attribute)) == ["sex", "region", "income"]
    region = table[table.attribute == "region"]
    # three groups: balanced accuracy only (chance 1/3), and HSIC only (MMD² needs two groups)
    assert list(region.measure) == ["balanced_accuracy", "hsic"]
    assert region.chance.iloc[0] == pytest.approx(1 / 3)
    assert not region.detected.any()
    assert table[table.attribute != "region"].detected.all()
    assert set(table[table.attribute == "income"].attribute_type) == {"continuous"}


def test_scores_are_the_library_estimators():
    Z, s = circle(200)
    table = leakage(Z, s, adversaries=("logistic",), **FAST)
    # the tests, like the adversaries, see the robustly standardised columns
    seen = _robust_columns(Z)[0]
    assert adversary(table, "mmd2", "mmd2").score == mmd2(seen, s)
    assert adversary(table, "hsic", "hsic").score == hsic(seen, s, kernel="rbf")
    # the tests of a categorical and of a continuous attribute both run
    for categorical, y in ((True, s), (False, Z[:, 0] ** 2)):
        rows = _test_rows(Z, y, categorical, 2, "auto", ("mmd2", "hsic"), 5, 0)
        assert all(np.isfinite(r[1]) and 0 < r[3] <= 1 for r in rows)
    # a dummy adversary (the majority group) is at chance, and the custom dict form works
    dummy = leakage(Z, s, adversaries={"dummy": DummyClassifier()}, tests=(), **FAST)
    assert list(dummy.method) == ["dummy", "dummy"] and not dummy.detected.any()
    assert dummy.score.iloc[0] == pytest.approx(0.5)


def test_bootstrap_statistics_match_scikit_learn():
    rng = np.random.default_rng(0)
    target = rng.integers(0, 3, 50)
    pred = np.where(rng.random(50) < 0.6, target, rng.integers(0, 3, 50))
    ones = np.ones((1, 50))
    assert _balanced_accuracy(ones, target, pred, 3)[0] == pytest.approx(
        balanced_accuracy_score(target, pred))
    binary = target % 2
    score = np.round(rng.random(50), 1)  # with ties
    assert _roc_auc(ones, binary, score)[0] == pytest.approx(roc_auc_score(binary, score))
    weights = rng.integers(0, 3, (1, 50)).astype(float)
    y, yhat = rng.standard_normal(50), rng.standard_normal(50)
    assert _r2(weights, y, yhat)[0] == pytest.approx(
        r2_score(y, yhat, sample_weight=weights[0]))
    assert _roc_auc(weights, binary, score)[0] == pytest.approx(
        roc_auc_score(binary, score, sample_weight=weights[0]))


def test_deterministic():
    Z, s = circle(200)
    first = leakage(Z, s, adversaries=ALL, **FAST)
    pd.testing.assert_frame_equal(first, leakage(Z, s, adversaries=ALL, **FAST))
    other = leakage(Z, s, adversaries=ALL, random_state=1, **FAST)
    assert not first.ci_low.equals(other.ci_low)
    # an adversary's rows do not depend on which other adversaries run
    alone = leakage(Z, s, adversaries=("mlp",), tests=(), **FAST)
    pd.testing.assert_frame_equal(alone, first[first.method == "mlp"].reset_index(drop=True))


@pytest.mark.parametrize("kwargs, name", [
    ({"adversaries": ("logistic", "forest")}, "adversaries"),
    ({"adversaries": "logistic"}, "adversaries"),
    ({"adversaries": {"x": 3}}, "adversaries"),
    ({"tests": ("ks",)}, "tests"),
    ({"cv": 1}, "cv"),
    ({"cv": 30}, "cv"),
    ({"confidence": 1.0}, "confidence"),
    ({"confidence": 95}, "confidence"),
    ({"n_bootstrap": 0}, "n_bootstrap"),
    ({"n_permutations": 2.5}, "n_permutations"),
    ({"sensitive_type": "binary"}, "sensitive_type"),
    ({"random_state": None}, "random_state"),
])
def test_bad_arguments_name_themselves(kwargs, name):
    Z, s = noise(60)
    s[:25] = 0  # the smallest group then has fewer than 30 rows
    with pytest.raises((ValueError, TypeError), match=name):
        leakage(Z, s, **kwargs)


def test_bad_data_is_refused():
    Z, s = noise(60)
    with pytest.raises(ValueError, match="sensitive_features has 59 entries"):
        leakage(Z, s[:-1])
    Z_nan = Z.copy()
    Z_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="representation contains NaN"):
        leakage(Z_nan, s)
    with pytest.raises(ValueError, match="sensitive_features contains NaN"):
        leakage(Z, np.where(s == 1, np.nan, 0.5))
    with pytest.raises(ValueError, match="too few for cv=5"):
        leakage(Z[:8], s[:8])
    with pytest.raises(ValueError, match="single group"):
        leakage(Z, np.zeros(60, dtype=int))
    with pytest.raises(ValueError, match="not a regressor"):
        leakage(Z, Z[:, 0], adversaries={"dummy": DummyClassifier()})


def test_plot_leakage(ring):
    ax = plot_leakage(ring)
    assert ax.get_xlabel().startswith("adversary score")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == "logistic regression: balanced accuracy" and len(labels) == 8
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "chance level" in legend and "ROC AUC" in legend
    chance = [c for c in ax.collections if c.get_label() == "chance level"]
    assert len(chance) == 1 and np.allclose(chance[0].get_offsets()[:, 0], 0.5)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="no adversary rows"):
        plot_leakage(ring[ring.kind != "adversary"])


def test_a_column_constant_to_rounding_is_no_signal():
    """A zero-variance component computed in floating point keeps the attribute in its last
    bits; standardised by an adversary, those bits would be a perfect signal."""
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 400)
    noise = rng.normal(size=(400, 2))
    rounding = 3.0 + 1e-15 * (s + 0.1 * rng.random(400))  # constant, but for its last bits
    table = leakage(np.c_[noise, rounding], s, adversaries=("logistic",), tests=(),
                    n_bootstrap=100)
    assert not table["detected"].any()
    # 1e-15 · s beside columns of unit scale is rounding too
    alone = leakage(np.c_[noise, 1e-15 * s], s, adversaries=("logistic",), tests=(),
                    n_bootstrap=100)
    assert not alone["detected"].any()
    # but at the scale of the representation it is the signal it looks like, and is found
    scaled = leakage(np.c_[noise * 1e-15, 1e-15 * s], s, adversaries=("logistic",), tests=(),
                     n_bootstrap=100)
    assert scaled["detected"].all()


def test_last_bit_differences_do_not_change_the_audit():
    """Another BLAS kernel changes a representation in its last bits; the audit must not move."""
    rng = np.random.default_rng(1)
    s = rng.integers(0, 2, 300)
    Z = rng.normal(size=(300, 3)) + 0.4 * s[:, None]
    wiggled = Z * (1 + 4e-16 * rng.standard_normal(Z.shape))
    a = leakage(Z, s, adversaries=("logistic", "gradient_boosting"), tests=(), n_bootstrap=50)
    b = leakage(wiggled, s, adversaries=("logistic", "gradient_boosting"), tests=(),
                n_bootstrap=50)
    pd.testing.assert_frame_equal(a, b)
