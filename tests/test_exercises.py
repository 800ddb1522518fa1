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
    for label in ("ex-no-such-exercise", ["ex-repro-ddof"], None, 3):
        result = exercises.check(label, 1)
        assert result.correct is False and "ex-repro-ddof" in result.message, str(result)


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


def _fpca_data(n_per_group=500, n_features=6, seed=0):
    # chapter 4's Gaussian example at its defaults
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n_features, n_features)) * np.linspace(2.0, 0.5, n_features)
    mu = rng.normal(size=n_features) * 1.5
    z = np.repeat([0, 1], n_per_group)
    X = rng.normal(size=(2 * n_per_group, n_features)) @ A + np.outer(z, mu)
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
    # chapter 16's data at its defaults (drawn by Dask, block by block, as the chapter does)
    import dask.array as da

    n, d, seed = 300_000, 24, 0
    chunk_rows = 8 * 2**20 // (8 * d)
    rng = da.random.default_rng(seed)
    group = rng.choice(3, size=n, p=[0.5, 0.3, 0.2], chunks=chunk_rows)
    group_means = np.random.default_rng(seed).normal(scale=1.5, size=(3, d))
    X = (rng.standard_normal((n, d), chunks=(chunk_rows, d)) * np.linspace(0.5, 3.0, d)
         + (group[:, None] == np.arange(3)) @ group_means + 100.0).compute(scheduler="threads")
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
    "ex-repro-protocol": (lambda: "adult", lambda: "german", "largest"),
    "ex-tradeoff-gap": (_tradeoff_gap, lambda: _tradeoff_gap(eps=(0.01, 0.2)), "11"),
    "ex-erasure-parity": (_erasure_parity, _erasure_parity_pixels, "Fair PCA"),
    "ex-ps-encoding": (_ps_encoding, lambda: _ps_encoding("columns"), "one-hot"),
    "ex-ps-measure": (lambda: "sex+race", lambda: "sex", "constant factor"),
    "ex-dediego-ci": (_dediego_ci, lambda: _dediego_ci(n_per_group=200), "100 rows"),
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


# --------------------------------------------------------------------------------------------
# Answers of the wrong form get a message, never an exception; trivial answers are refused

INVALID = ["0.5 to 1", b"0.5", 10**400, -(10**400), float("nan"), float("inf"), True, [1],
           [[1, 2], [3, 4]], {"a": 1}, {2: "x"}, (10**400, 1), ("0.5", "1"), object(),
           lambda t: t, np.array([]), np.eye(2), set(), 0, 1, -1.0, 1e308]


@pytest.mark.parametrize("label", list(CASES))
def test_invalid_answers_get_a_message_not_an_exception(label):
    for answer in INVALID:
        result = exercises.check(label, answer)
        assert result.correct is False, (answer, str(result))
        assert result.message and str(result).startswith("✗"), (answer, str(result))


def test_trivial_answers_are_refused():
    from fairlab.datasets import make_circle_counterexample

    _, z = make_circle_counterexample(40)
    trivial = {
        "ex-fpca-numerical": [np.eye(5), -np.eye(5), np.eye(2), np.eye(3), np.eye(6),
                              np.zeros((0, 0)), np.zeros((5, 5)),
                              np.linalg.qr(np.random.default_rng(1).normal(size=(5, 5)))[0],
                              np.eye(5)[::-1]],
        "ex-datasets-circle": [lambda t: z, lambda t: z.copy(), lambda t: np.ones_like(t),
                               lambda t: np.zeros(len(t)), lambda t: 1, lambda t: z[:len(t)],
                               lambda t: (np.arange(len(t)) % 2)],
        "ex-scaling-shift": [3, 4, 5, 6.5, 7, 0, 16],
        "ex-audit-train-test": [(0.0, 0.1), (0.0, 0.0), (0.0, 1.0), (1e-12, 0.5)],
        "ex-dediego-ci": [(0.8, 0.8), (0.0, 1.6), (0.3, 1.3)],
        "ex-repro-protocol": ["compas", "german", "ADULTS", ""],
        "ex-ps-measure": ["sex", "race", ""],
        "ex-variants-l": [{l: 0.5 for l in range(2, 10)}, {l: 1.0 for l in range(2, 10)}, {}],
    }
    for label, answers in trivial.items():
        for answer in answers:
            result = exercises.check(label, answer)
            assert result.correct is False, (label, answer, str(result))


def _numeric_labels():
    from fairlab.exercises import _key, _precision

    return [label for label, roles in _key.references().items()
            if all(step is not None for step in _precision.STEPS[label]["answer"])]


@pytest.mark.parametrize("label", _numeric_labels())
def test_reference_within_one_step_is_taken_and_two_steps_away_is_refused(label):
    """At the bins: the reference ± one step (each number, every sign) is taken, ± two refused."""
    from fairlab.exercises import _hashing, _key, _precision

    reference = np.array(_key.references()[label]["answer"], dtype=float)
    steps = np.array(_precision.STEPS[label]["answer"], dtype=float)
    assert _hashing.matches(label, "answer", tuple(reference))
    rng = np.random.default_rng(0)
    for _ in range(5):
        signs = rng.choice([-1.0, 1.0], size=reference.size)
        assert _hashing.matches(label, "answer", tuple(reference + 0.999 * signs * steps))
    for i in range(reference.size):
        for sign in (-1, 1):
            moved = reference.copy()
            moved[i] += sign * 2 * steps[i]
            assert not _hashing.matches(label, "answer", tuple(moved)), (i, sign)


# The checks whose answer is a number or a tuple of numbers, as the check takes them.
_AS_ANSWER = {
    "ex-datasets-age": tuple, "ex-insep-test": tuple, "ex-repro-ddof": lambda v: v[0],
    "ex-erasure-parity": tuple, "ex-dediego-ci": tuple, "ex-scaling-shift": lambda v: v[0],
    "ex-audit-train-test": lambda v: (0.0, v[0]),
    "ex-variants-l": lambda v: dict(zip(range(2, 10), v)),
}


@pytest.mark.parametrize("label", list(_AS_ANSWER))
def test_a_hundred_probes_learn_no_direction(label):
    """A hundred wrong answers above and below the reference (2 to 20 steps away, each number
    moved) get the same messages on both sides, none of which holds the reference's digits:
    the messages cannot be used to bisect towards the answer."""
    from fairlab.exercises import _key, _precision

    roles = _key.references()[label]
    reference = np.array(roles["answer"], dtype=float)
    steps = np.array(_precision.STEPS[label]["answer"], dtype=float)
    if label == "ex-dediego-ci":  # the interval's centre is the exercise's DI: move its width
        direction = np.array([-1.0, 1.0])
    else:
        direction = np.ones_like(reference)
    rng = np.random.default_rng(0)
    messages = {-1: set(), 1: set()}
    farthest = 10 if label in ("ex-scaling-shift", "ex-variants-l") else 20  # in the domain
    for distance in rng.uniform(2, farthest, size=50):
        for sign in (-1, 1):
            values = reference + sign * distance * direction * steps
            near_mistake = [role for role, v in roles.items() if role != "answer" and all(
                abs(a - b) <= 2 * step for a, b, step in
                zip(values, v, _precision.STEPS[label][role]))]
            if near_mistake:
                continue  # a typical mistake has its own hint
            result = exercises.check(label, _AS_ANSWER[label](tuple(values)))
            assert result.correct is False, str(result)
            messages[sign].add(result.message)
            for value, step in zip(reference, steps):
                decimals = max(0, -int(np.floor(np.log10(step))))
                assert f"{value:.{decimals}f}" not in result.message, str(result)
    assert messages[-1] == messages[1], messages


# --------------------------------------------------------------------------------------------
# The digests: fixed, since a bundle handed out holds digests this code must keep matching


def test_the_digest_of_an_answer_is_fixed():
    """Bins, salt, token and work are all in the digest: a change to any refuses every answer of
    a student bundle already handed out (its _hashes.json was written by this code)."""
    from fairlab.exercises import _hashing

    assert _hashing.digest("ex-a", "answer", (3, -2), (0.5, 0.5), "salt") == (
        "a483a3bcf96e09ec30013a01095e84a68b63c79709c24345a3e79c23926e40d9")
    assert _hashing.digest("ex-a", "answer", ("name",), (None,), "salt") == (
        "ab247104ad41647b6b9521c638dece4b8107670c57c1144d285e21185c6d1485")
    table = _hashing.make_table({"ex-a": {"answer": (1.0, "x")}},
                                {"ex-a": {"answer": (0.1, None)}}, "s")
    assert table == {"salt": "s", "digests": {"ex-a": {"answer": (
        "1f4eb770017c92bbccd29933372691bf79cc6c015f88a3190a5bdb9d3c651eae")}}}


def test_bins_candidates_and_work_per_check():
    from fairlab.exercises import _hashing

    # k = floor(v/q + 1/2): 0.25 at step 0.5 lies on a bin boundary and goes up
    assert _hashing.bins([0.74, -0.26, 0.25, "a", 3], [0.5, 0.5, 0.5, None, None]) == [
        1, -1, 1, "a", "3"]
    with pytest.raises(ValueError):  # one step per number: a mismatch is an error, not a cut
        _hashing.bins([1.0, 2.0], [0.5])
    assert sorted(_hashing._candidates((1.0, "x"), (0.5, None))) == [
        (1, "x"), (2, "x"), (3, "x")]
    # the work of one check is spread over its 3^m candidates, one iteration at least
    assert _hashing._iterations((0.5, 0.5)) == _hashing.WORK // 9
    assert _hashing._iterations((None, 0.5)) == _hashing.WORK // 3
    assert _hashing._iterations((None,)) == _hashing.WORK
    assert _hashing._iterations((1.0,) * 12) == 1


def test_a_table_needs_a_precision_for_every_role():
    from fairlab.exercises import _hashing

    with pytest.raises(ValueError, match="no precision declared for 'ex-a', role 'typo'"):
        _hashing.make_table({"ex-a": {"typo": (1.0,)}}, {"ex-a": {"answer": (0.1,)}}, "s")
    assert _hashing.roles("no-such-exercise") == []
    assert "answer" in _hashing.roles("ex-datasets-age")


def test_a_role_with_no_stored_digest_matches_nothing(monkeypatch):
    from fairlab.exercises import _hashing

    monkeypatch.setattr(_hashing, "table", lambda: {"salt": "s", "digests": {}})
    assert _hashing.matches("ex-datasets-age", "answer", (1.0, 2.0)) is False
