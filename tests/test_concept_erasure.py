"""Concept erasure on images (Kleindessner et al. Fig. 5, 10-15): digits stand-in and runners."""

import numpy as np
import pytest

from fairlab.datasets import make_digits_concept
from fairlab.experiments import concept_erasure
from fairlab.pca import FairPCA


@pytest.fixture(scope="module")
def digits():
    return make_digits_concept(n_samples=800, random_state=0)


def test_make_digits_concept_stamps_a_bar_on_a_random_half():
    X, concept, digit = make_digits_concept(random_state=3)
    assert X.shape == (1797, 64) and concept.shape == digit.shape == (1797,)
    assert 0 <= X.min() and X.max() <= 1
    assert set(np.unique(digit)) == set(range(10))
    assert 0.45 < concept.mean() < 0.55
    rows = X.reshape(-1, 8, 8)[:, 2, :]
    # the bar: one constant value in [0.5, 1] across the row, on the concept images only
    assert np.all(np.ptp(rows[concept == 1], axis=1) == 0)
    assert np.all((rows[concept == 1, 0] >= 0.5) & (rows[concept == 1, 0] <= 1))
    assert np.mean(np.ptp(rows[concept == 0], axis=1) > 0) > 0.9
    # the other rows are untouched digits
    from sklearn.datasets import load_digits
    original = load_digits().data / 16
    other = np.delete(np.arange(64), np.arange(16, 24))
    np.testing.assert_array_equal(X[:, other], original[:, other])
    # the concept is independent of the digit: every digit has both values
    for d in range(10):
        assert 0.3 < concept[digit == d].mean() < 0.7


def test_make_digits_concept_is_seeded_and_configurable():
    a = make_digits_concept(n_samples=200, random_state=1)
    b = make_digits_concept(n_samples=200, random_state=1)
    c = make_digits_concept(n_samples=200, random_state=2)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[1], c[1])
    X, concept, _ = make_digits_concept(n_samples=300, bar_row=6, intensity=(1.0, 1.0),
                                        concept_rate=0.2, random_state=0)
    assert X.shape == (300, 64) and concept.mean() < 0.35
    assert np.all(X.reshape(-1, 8, 8)[concept == 1, 6, :] == 1.0)


@pytest.mark.parametrize("kwargs, match", [
    ({"n_samples": 0}, "n_samples"), ({"n_samples": 5000}, "at most 1797"),
    ({"bar_row": 8}, "bar_row"), ({"intensity": (0.8, 0.2)}, "intensity"),
    ({"concept_rate": 1.0}, "concept_rate"),
])
def test_make_digits_concept_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_digits_concept(**kwargs)


def test_fair_pca_representation_has_zero_cross_covariance_with_the_concept(digits):
    X, concept, _ = digits
    Z = FairPCA(n_components=10).fit(X, sensitive_features=concept).transform(X)
    cross = (Z - Z.mean(axis=0)).T @ (concept - concept.mean()) / len(concept)
    assert np.abs(cross).max() < 1e-10
    # while plain PCA's representation carries it
    from sklearn.decomposition import PCA
    Zp = PCA(10).fit_transform(X)
    assert np.abs((Zp - Zp.mean(axis=0)).T @ (concept - concept.mean())).max() / len(X) > 0.05


def test_scores_concept_drops_to_chance_and_the_digit_survives(digits):
    X, concept, digit = digits
    scores = concept_erasure.scores(X, concept, digit, k=10, random_state=0).set_index("method")
    assert list(scores.index) == ["Original pixels", *concept_erasure.METHODS]
    assert scores.loc["Original pixels", "concept_accuracy"] > 0.98
    assert scores.loc["PCA", "concept_accuracy"] > 0.95
    for method in ("Fair PCA", "Fair PCA-S"):
        assert abs(scores.loc[method, "concept_accuracy"] - scores.loc[method, "chance"]) < 0.06
        assert scores.loc[method, "max_cross_cov"] < 1e-10
    # the digit stays readable after erasing the bar (ten classes: chance is about 0.1)
    assert scores.loc["Fair PCA", "label_accuracy"] > 0.8
    assert scores.loc["Original pixels", "explained_variance"] == 1.0
    assert 0 < scores.loc["Fair PCA", "explained_variance"] < scores.loc["PCA",
                                                                         "explained_variance"]
    without_labels = concept_erasure.scores(X, concept, k=5, methods=["PCA"])
    assert np.isnan(without_labels["label_accuracy"]).all()


def test_reconstructions_have_the_right_shape_and_match_the_estimator(digits):
    X, concept, _ = digits
    rec = concept_erasure.reconstructions(X, concept, 10, X_new=X[:7])
    assert list(rec) == ["Original", *concept_erasure.METHODS]
    assert all(a.shape == (7, 64) for a in rec.values())
    np.testing.assert_array_equal(rec["Original"], X[:7])
    fair = FairPCA(n_components=10).fit(X, sensitive_features=concept)
    np.testing.assert_allclose(rec["Fair PCA"], fair.inverse_transform(fair.transform(X[:7])))
    # the reconstructed bar row no longer tells the groups apart on average
    rec_all = concept_erasure.reconstructions(X, concept, 10, methods="Fair PCA")["Fair PCA"]
    gap = rec_all[concept == 1].mean(axis=0) - rec_all[concept == 0].mean(axis=0)
    assert np.abs(gap).max() < 1e-10


def test_examples_pick_images_with_then_without_the_concept(digits):
    X, concept, _ = digits
    images, shown = concept_erasure.examples(X, concept, 8, n_per_group=2, random_state=1)
    np.testing.assert_array_equal(shown, [1, 1, 0, 0])
    assert list(images) == ["original, d = 64", "Fair PCA, k = 63", "PCA, k = 8",
                            "Fair PCA, k = 8", "Fair PCA-S, k = 8"]
    assert all(a.shape == (4, 64) for a in images.values())
    # k = d - 1 projects out one direction only: the rest of the image is kept
    full = FairPCA(n_components=63).fit(X, sensitive_features=concept)
    assert np.linalg.matrix_rank(np.eye(64) - full.components_.T @ full.components_) == 1
    fewer, _ = concept_erasure.examples(X, concept, 8, n_per_group=2, methods=["PCA"],
                                        full_rank_fair=False)
    assert list(fewer) == ["original, d = 64", "PCA, k = 8"]


def test_figure_scores_gaps_and_checks_of_the_claims(digits):
    X, concept, digit = digits
    scores = concept_erasure.figure_scores(X, concept, digit, k=10, random_state=0)
    assert list(scores.index) == [("Original pixels", 64), ("Fair PCA", 63), ("PCA", 10),
                                  ("Fair PCA", 10), ("Fair PCA-S", 10)]
    versions = {"original": X, **{f"{m}, k = 10": R for m, R in concept_erasure.reconstructions(
        X, concept, 10).items() if m != "Original"}}
    gaps = concept_erasure.group_mean_gaps(versions, concept, image_shape=(8, 8), bar_row=2)
    assert list(gaps.columns) == ["largest_mean_gap", "bar_with_concept", "bar_without_concept"]
    assert gaps.loc["original", "largest_mean_gap"] > 0.5
    assert gaps.loc["Fair PCA, k = 10", "largest_mean_gap"] < 1e-10
    assert gaps.loc["Fair PCA, k = 10", "bar_with_concept"] == pytest.approx(
        gaps.loc["Fair PCA, k = 10", "bar_without_concept"])
    found = concept_erasure.checks(scores, gaps)
    assert list(found.columns) == ["claim", "check", "measured", "holds"]
    assert found.holds.all() and set(found.claim) == {1, 2} and len(found) == 7
    assert "10⁻⁸" in found.check[1] and "e-0" not in " ".join(found.check)
    assert found.measured[1] == found.measured[2] == "zero up to rounding"
    # without labels (CelebA) claim 2 is the variance alone
    no_labels = concept_erasure.figure_scores(X, concept, k=10, random_state=0)
    assert len(concept_erasure.checks(no_labels, gaps)) == 5
    # a representation that keeps the concept fails claim 1
    leaky = scores.copy()
    leaky.loc[("Fair PCA", 10), "concept_accuracy"] = 0.9
    assert not concept_erasure.checks(leaky, gaps).holds[3]
    with pytest.raises(ValueError, match="figure_scores"):
        concept_erasure.checks(scores.reset_index(), gaps)
    with pytest.raises(ValueError, match="image_shape"):
        concept_erasure.group_mean_gaps(versions, concept, bar_row=2)
    with pytest.raises(ValueError, match="shape"):
        concept_erasure.group_mean_gaps({"x": X[:5]}, concept)


@pytest.mark.parametrize("call, match", [
    (lambda X, c: concept_erasure.reconstructions(X[:, 0], c, 3), "2-D"),
    (lambda X, c: concept_erasure.reconstructions(X, c[:-1], 3), "one entry per row"),
    (lambda X, c: concept_erasure.reconstructions(X, np.zeros_like(c), 3), "binary"),
    (lambda X, c: concept_erasure.reconstructions(X, c, 0), "k must be"),
    (lambda X, c: concept_erasure.reconstructions(X, c, 64), "k must be"),
    (lambda X, c: concept_erasure.reconstructions(X, c, 3, methods=["LDA"]), "methods"),
    (lambda X, c: concept_erasure.reconstructions(X, c, 3, X_new=X[:, :5]), "X_new"),
    (lambda X, c: concept_erasure.scores(X, c, np.ones(3)), "labels"),
    (lambda X, c: concept_erasure.scores(X, c, test_size=1.5), "test_size"),
    (lambda X, c: concept_erasure.examples(X, c, 3, n_per_group=0), "n_per_group"),
    (lambda X, c: concept_erasure.examples(X, c, 3, n_per_group=10_000), "too many"),
])
def test_bad_input(digits, call, match):
    X, concept, _ = digits
    with pytest.raises(ValueError, match=match):
        call(X, concept)
