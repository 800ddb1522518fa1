"""fairlab.exercises: every compute exercise has a check; the instructor's solution passes it and
a typical wrong answer fails it, with a reason that does not give the solution away."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

from fairlab import exercises

ROOT = Path(__file__).resolve().parents[1]


def _compute_labels():
    """The labels of the exercises the index (book/exercises.md) marks "compute"."""
    text = (ROOT / "book" / "exercises.md").read_text()
    return re.findall(r"\{ref\}`(ex-[a-z0-9-]+)` \(compute\)", text)


def test_every_compute_exercise_has_a_check_and_nothing_else_does():
    assert _compute_labels(), "no compute exercise found in book/exercises.md"
    assert sorted(exercises.labels()) == sorted(_compute_labels())


@pytest.mark.parametrize("label", _compute_labels())
def test_the_chapter_of_each_compute_exercise_calls_its_check(label):
    chapters = [p for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
                if f":label: {label}\n" in p.read_text()]
    assert len(chapters) == 1, f"{label}: defined in {chapters}"
    assert f'exercises.check("{label}"' in chapters[0].read_text(), chapters[0].name


def test_no_answer_yet_says_what_form_the_answer_takes():
    result = exercises.check("ex-repro-ddof", ...)
    assert result.correct is None and not result
    assert exercises.expected("ex-repro-ddof") in str(result)
    assert exercises.check("ex-repro-ddof", None).correct is None


def test_unknown_label_lists_the_checked_ones():
    with pytest.raises(ValueError, match="ex-repro-ddof"):
        exercises.check("ex-no-such-exercise", 1)


def test_an_answer_of_the_wrong_form_is_wrong_not_an_error():
    result = exercises.check("ex-dediego-ci", "0.5 to 1")
    assert result.correct is False and "Expected" in str(result)


# --------------------------------------------------------------------------------------------
# The instructor's solutions (as in the chapters' solution cells) and a typical wrong answer


def _datasets_age():
    from fairlab.datasets import load_german
    from fairlab.metrics import disparate_impact

    def di(variant):
        data = load_german(variant=variant)
        return disparate_impact(data.y, data.y, sensitive_features=data.sensitive,
                                pos_label=data.pos_label)
    return di("lee2022"), di("pls")


def _datasets_circle():
    return lambda t: (np.abs(t) > 1e-12).astype(int)


def _insep_test():
    from fairlab import FairPCA, evaluation
    from fairlab.datasets import load_adult
    from fairlab.metrics import linear_inseparability

    adult = load_adult(variant="lee2022")
    split = next(iter(evaluation.repeated_splits(
        adult.X, adult.y, adult.sensitive, n_splits=3, train_size=1582, test_size=679,
        random_state=0, standardize=True)))
    fair = FairPCA(2).fit(split.X_train, sensitive_features=split.s_train)
    return (linear_inseparability(fair.transform(split.X_train), split.s_train),
            linear_inseparability(fair.transform(split.X_test), split.s_test))


def _fpca_data():
    rng = np.random.default_rng(0)
    n, d = 400, 6
    z = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + np.outer(z, rng.normal(size=d))
    return X, z


def _fpca_numerical(fair=True):
    from scipy.linalg import null_space
    from sklearn.decomposition import PCA

    from fairlab import FairPCA

    X, z = _fpca_data()
    R = null_space(((z - z.mean()) @ X)[None, :])
    k = X.shape[1] - 1
    if fair:
        U = FairPCA(k, center=False).fit(X, sensitive_features=z).components_.T
    else:  # the typical mistake: plain PCA
        U = PCA(k).fit(X).components_.T
    return U.T @ R


def _variants_l():
    from sklearn.model_selection import cross_val_score
    from sklearn.svm import SVC

    from fairlab import FairPCA
    from fairlab.datasets import make_covariance_mismatch

    X, z = make_covariance_mismatch(500, 10, random_state=0)
    answer = {}
    for l in range(2, 10):
        fair = FairPCA(2, center=False, equalize_covariance=l).fit(X, sensitive_features=z)
        E = fair.transform(X)
        answer[l] = cross_val_score(SVC(), E, z, cv=5).mean()
    return answer


def _erasure_parity():
    from fairlab.datasets import make_digits_concept
    from fairlab.experiments import concept_erasure

    X, _, labels = make_digits_concept(n_samples=1797, random_state=0)
    scores = concept_erasure.scores(X, labels % 2, labels, k=10).set_index("method")
    return scores.loc["Fair PCA", "concept_accuracy"], scores.loc["Fair PCA", "label_accuracy"]


def _erasure_parity_pixels():
    from fairlab.datasets import make_digits_concept
    from fairlab.experiments import concept_erasure

    X, _, labels = make_digits_concept(n_samples=1797, random_state=0)
    scores = concept_erasure.scores(X, labels % 2, labels, k=10).set_index("method")
    return scores.iloc[0]["concept_accuracy"], scores.iloc[0]["label_accuracy"]


def _dediego_ci(n_per_group=100):
    from fairlab.metrics import disparate_impact_ci

    m = n_per_group
    s = np.r_[np.zeros(m), np.ones(m)]
    y = np.r_[np.arange(m) < 0.4 * m, np.arange(m) < 0.5 * m].astype(int)
    _, low, high = disparate_impact_ci(None, y, sensitive_features=s, privileged_group=1)
    return low, high


def _scaling_shift(centred=False):
    # data like chapter 16's: three groups, 24 features of scale 0.5 to 3, mean about 100
    rng = np.random.default_rng(0)
    n, d = 300_000, 24
    group = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    X = (rng.standard_normal((n, d)) * np.linspace(0.5, 3.0, d)
         + rng.normal(scale=1.5, size=(3, d))[group] + 100.0)
    if centred:  # the typical mistake: the textbook formula on centred data
        X = X - X.mean(axis=0)
    reference = np.cov(X, rowvar=False)
    m = X.mean(axis=0)
    textbook = (X.T @ X - len(X) * np.outer(m, m)) / (len(X) - 1)
    return 16 + np.log10(np.abs(textbook - reference).max() / np.abs(reference).max())


def _ps_encoding(encoding="one-hot"):
    from fairlab.experiments import perez_suay

    cmc = perez_suay.load_splits("cmc", n_repetitions=2, n_train=500, n_val=500, n_test=473,
                                 random_state=0)
    grids = {"alpha": np.logspace(-4, 3, 7), "sigma": np.logspace(-4, 4, 10),
             "sigma_s": np.logspace(-1, 2, 10), "mu": np.logspace(-7, 3, 3)}
    return perez_suay.regression(cmc, ["n_children", "wife_education"], methods=("LR", "FLR"),
                                 sensitive_encoding=encoding, grids=grids)


def _tradeoff_gap(eps=(0.001, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2)):
    from fairlab.experiments import kleindessner_tradeoffs

    # the exercise's call at a small size (the chapter runs 2 000 training rows)
    return kleindessner_tradeoffs.curves(["adult"], methods=["Fair PCA", "Reductions"],
                                         fairness=["DP"], n_runs=3, n_train=400, n_test=400,
                                         lambdas=[0.0, 1.0], eps=list(eps))


def _audit_train_test(fit_on="train"):
    from fairlab import FairPCA, evaluation
    from fairlab.datasets import load_adult

    adult = load_adult()
    split = next(evaluation.repeated_splits(adult.X, adult.y, adult.sensitive, n_splits=1,
                                            train_size=2000, test_size=2000, standardize=True,
                                            random_state=0))
    rows = "X_train" if fit_on == "train" else "X_test"
    groups = "s_train" if fit_on == "train" else "s_test"
    fair = FairPCA(5).fit(split[rows], sensitive_features=split[groups])

    def gap(X, s):
        E = fair.transform(X)
        return float(np.abs(E[s == 1].mean(axis=0) - E[s == 0].mean(axis=0)).max())

    # the typical mistake fits on the test rows: then the test gap is the one at rounding level
    return gap(split.X_train, split.s_train), gap(split.X_test, split.s_test)


CASES = {
    # label: (instructor's solution, typical wrong answer, a word the wrong answer's reason says)
    "ex-datasets-age": (_datasets_age, lambda: (0.6860, 0.7948), "bad-credit"),
    "ex-datasets-circle": (_datasets_circle, lambda: (lambda t: (t > 0).astype(int)), "rows"),
    "ex-insep-test": (_insep_test, lambda: _insep_test()[::-1], "swapped"),
    "ex-fpca-numerical": (_fpca_numerical, lambda: _fpca_numerical(fair=False), "cosine"),
    "ex-variants-l": (_variants_l, lambda: {l: 100 * v for l, v in _variants_l().items()},
                      "percentage"),
    "ex-repro-ddof": (lambda: math.sqrt(10 / 9), lambda: 10 / 9, "variances"),
    "ex-repro-protocol": (lambda: "adult", lambda: "german", "smallest test part"),
    "ex-tradeoff-gap": (_tradeoff_gap, lambda: _tradeoff_gap(eps=(0.01, 0.2)), "11"),
    "ex-erasure-parity": (_erasure_parity, _erasure_parity_pixels, "Fair PCA"),
    "ex-ps-encoding": (_ps_encoding, lambda: _ps_encoding("columns"), "one-hot"),
    "ex-ps-measure": (lambda: "sex+race", lambda: "sex", "binary attribute"),
    "ex-dediego-ci": (_dediego_ci, lambda: _dediego_ci(n_per_group=200), "narrow"),
    "ex-scaling-shift": (_scaling_shift, lambda: _scaling_shift(centred=True), "centre"),
    "ex-audit-train-test": (_audit_train_test, lambda: _audit_train_test(fit_on="test"),
                            "fit on the test rows"),
}


def test_every_check_has_a_case():
    assert sorted(CASES) == sorted(exercises.labels())


@pytest.mark.parametrize("label", list(CASES))
def test_instructor_solution_passes_and_typical_mistake_fails(label):
    solution, mistake, reason = CASES[label]
    right = exercises.check(label, solution())
    assert right.correct is True, str(right)
    wrong = exercises.check(label, mistake())
    assert wrong.correct is False, str(wrong)
    assert reason in wrong.message, str(wrong)
    assert str(wrong).startswith("✗") and str(right).startswith("✓")
