"""Kleindessner et al. (2023) §5.3: concept erasure on images (Fig. 5 and Figs. 10–15).
"""

from numbers import Real

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from .._core.validation import check_int
from ..pca import FairPCA

#: The methods of the concept-erasure figures, in the order they are drawn.
METHODS = ("PCA", "Fair PCA", "Fair PCA-S")


def _inputs(X, concept, k, methods, func):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{func}: X must be a 2-D array (n_images, n_pixels); got shape "
                         f"{X.shape}.")
    concept = np.asarray(concept).ravel()
    if concept.shape[0] != X.shape[0]:
        raise ValueError(f"{func}: concept must have one entry per row of X ({X.shape[0]}); got "
                         f"{concept.shape[0]}.")
    if set(np.unique(concept)) != {0, 1}:
        raise ValueError(f"{func}: concept must be binary 0/1 with both values present; got "
                         f"values {np.unique(concept)[:5]}.")
    k = check_int(k, f"{func}: k", maximum=X.shape[1] - 1)  # fewer components than pixels
    if isinstance(methods, str):
        methods = (methods,)
    methods = tuple(methods)
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ValueError(f"{func}: methods must be a non-empty subset of "
                         f"{METHODS}; got {methods!r}.")
    return X, concept.astype(int), k, methods


def _estimator(method, k, equalize_covariance):

    if method == "PCA":
        return PCA(n_components=k)
    if method == "Fair PCA":
        return FairPCA(n_components=k)
    return FairPCA(n_components=k, equalize_covariance=equalize_covariance)


def _fit(method, X, concept, k, equalize_covariance):
    est = _estimator(method, k, equalize_covariance)
    if method == "PCA":
        return est.fit(X)
    return est.fit(X, sensitive_features=concept)


def reconstructions(X, concept, k, *, methods=METHODS,
                                    equalize_covariance=0.85, X_new=None):
    """Reconstructions of images by PCA, Fair PCA and Fair PCA-S with a concept as the group.

    Kleindessner et al. (2023, Fig. 5 and App. C.6) fit fair PCA to flattened CelebA images with
    an annotation (eyeglasses, smiling, ...) as the sensitive feature and show the images
    projected onto the fair subspace, mapped back to pixel space.  Each method is fitted on
    ``(X, concept)`` (plain PCA ignores ``concept``) and returns
    ``inverse_transform(transform(X_new))``: the mean plus the projection onto the k
    components.

    Parameters
    ----------
    X : array-like of shape (n_images, n_pixels)
        Flattened images (e.g. :func:`fairlab.datasets.make_digits_concept` or
        :func:`fairlab.datasets.load_celeba`).
    concept : array-like of shape (n_images,)
        The concept to erase, 0/1 (both present).
    k : int
        Number of components, 1 <= k < n_pixels.
    methods : sequence of str, default=METHODS
        Any of ``"PCA"``, ``"Fair PCA"`` (:class:`fairlab.pca.FairPCA`: equal projected group
        means) and ``"Fair PCA-S"`` (``FairPCA(equalize_covariance=...)``, §3.6: also close group
        covariances).
    equalize_covariance : float or int, default=0.85
        Fair PCA-S's l (a float f means l = max(k, ⌊f·n_pixels⌋)); 0.85 as in the paper's §5.1.
    X_new : array-like of shape (m, n_pixels), optional
        Images to reconstruct (default: ``X``).

    Returns
    -------
    dict
        ``{"Original": X_new, method: reconstruction, ...}``, arrays of shape (m, n_pixels).

    Raises
    ------
    ValueError
        Bad shapes, a non-binary ``concept``, ``k`` out of range or an unknown method.
    """
    X, concept, k, methods = _inputs(X, concept, k, methods,
                                             "reconstructions")
    X_new = X if X_new is None else np.asarray(X_new, dtype=float)
    if X_new.ndim != 2 or X_new.shape[1] != X.shape[1]:
        raise ValueError(f"reconstructions: X_new must have shape (m, "
                         f"{X.shape[1]}); got {X_new.shape}.")
    out = {"Original": X_new}
    for method in methods:
        est = _fit(method, X, concept, k, equalize_covariance)
        out[method] = est.inverse_transform(est.transform(X_new))
    return out


def examples(X, concept, k, *, n_per_group=3, methods=METHODS,
                             full_rank_fair=True, equalize_covariance=0.85, random_state=0):
    """A few images with and without the concept and their reconstructions (the figure's data).

    Fits every method on all of ``X`` (as the paper does on CelebA) and picks ``n_per_group``
    random images with the concept, then ``n_per_group`` without it.  The paper's Figs. 5
    and 10–15 show Fair PCA at k = d − 1 (only the direction of the group-mean difference is
    projected out) and at a small k; ``full_rank_fair`` adds the first.

    Parameters
    ----------
    X, concept, k, methods, equalize_covariance
        As in :func:`reconstructions`.
    n_per_group : int, default=3
        Images shown per value of the concept.
    full_rank_fair : bool, default=True
        Also show Fair PCA with k = n_pixels − 1.
    random_state : int or None, default=0
        Seeds which images are shown.

    Returns
    -------
    images : dict
        ``{"original, d = 64": ..., "Fair PCA, k = 63": ..., "PCA, k = 10": ..., ...}`` (row
        titles, in drawing order), each of shape (2·n_per_group, n_pixels).
    shown_concept : ndarray of shape (2·n_per_group,)
        The concept of the images shown (``n_per_group`` ones, then zeros).
    """
    X, concept, k, methods = _inputs(X, concept, k, methods, "examples")
    n_per_group = check_int(n_per_group, "examples: n_per_group")
    rng = np.random.default_rng(random_state)
    picks = []
    for value in (1, 0):
        rows = np.flatnonzero(concept == value)
        if len(rows) < n_per_group:
            raise ValueError(f"examples: only {len(rows)} images have concept "
                             f"{value}; n_per_group={n_per_group} is too many.")
        picks.append(rng.choice(rows, size=n_per_group, replace=False))
    shown = np.concatenate(picks)
    d = X.shape[1]
    images = {f"original, d = {d}": X[shown]}
    if full_rank_fair:
        images[f"Fair PCA, k = {d - 1}"] = reconstructions(
            X, concept, d - 1, methods=["Fair PCA"], X_new=X[shown])["Fair PCA"]
    rec = reconstructions(X, concept, k, methods=methods,
                                          equalize_covariance=equalize_covariance, X_new=X[shown])
    images.update({f"{method}, k = {k}": rec[method] for method in methods})
    return images, concept[shown]


def scores(X, concept, labels=None, k=10, *, methods=METHODS,
                           equalize_covariance=0.85, test_size=0.5, random_state=0):
    """How well a linear classifier reads the concept (and the labels) before and after erasure.

    The images are split once into training and held-out halves (stratified by the concept).
    Every method is fitted on the training images (with the concept as sensitive feature) and
    maps both halves to its k-dimensional representation ``transform(X)``; a logistic regression
    (lbfgs, ``max_iter=2000``) is trained on the training representation to predict the concept
    and, when ``labels`` are given, a multinomial one to predict the labels (the digit); both are
    scored on the held-out images.  The row ``"Original pixels"`` does the same on the pixels
    themselves (the "before").  Reconstructions are an affine map of the representation, so a
    linear classifier reads the same from them.

    Parameters
    ----------
    X, concept, k, methods, equalize_covariance
        As in :func:`reconstructions`; ``k`` defaults to 10.
    labels : array-like of shape (n_images,), optional
        A second target whose information should survive (the digit), or None.
    test_size : float in (0, 1), default=0.5
        Share of the images held out.
    random_state : int or None, default=0
        Seeds the split.

    Returns
    -------
    pandas.DataFrame
        One row per representation (``"Original pixels"``, then ``methods``) with
        ``concept_accuracy`` (held-out accuracy predicting the concept), ``chance`` (the
        held-out majority-class rate: what a representation without linear concept information
        allows), ``label_accuracy`` (held-out accuracy predicting ``labels``; NaN without them),
        ``max_cross_cov`` (the largest absolute empirical covariance of a dimension of the
        training representation with the concept: zero for Fair PCA up to rounding) and
        ``explained_variance`` (share of the held-out images' variance kept by the
        reconstruction; 1 for the pixels).

    Raises
    ------
    ValueError
        As :func:`reconstructions`; ``labels`` of the wrong length;
        ``test_size`` outside (0, 1).
    """
    X, concept, k, methods = _inputs(X, concept, k, methods, "scores")
    if labels is not None:
        labels = np.asarray(labels).ravel()
        if labels.shape[0] != X.shape[0]:
            raise ValueError(f"scores: labels must have one entry per row of X "
                             f"({X.shape[0]}); got {labels.shape[0]}.")
    if isinstance(test_size, bool) or not isinstance(test_size, Real) or not 0 < test_size < 1:
        raise ValueError(f"scores: test_size must be a float in (0, 1); got "
                         f"{test_size!r}.")
    index = np.arange(X.shape[0])
    train, test = train_test_split(index, test_size=test_size, random_state=random_state,
                                   stratify=concept)
    c_train, c_test = concept[train], concept[test]
    chance = max(c_test.mean(), 1 - c_test.mean())
    total = ((X[test] - X[train].mean(axis=0)) ** 2).sum()

    def accuracy(Z_train, Z_test, y_train, y_test):
        clf = LogisticRegression(max_iter=2000)
        return clf.fit(Z_train, y_train).score(Z_test, y_test)

    def row(name, Z_train, Z_test, explained):
        Zc = Z_train - Z_train.mean(axis=0)
        cross = np.abs(Zc.T @ (c_train - c_train.mean())) / len(train)
        return {
            "method": name,
            "concept_accuracy": accuracy(Z_train, Z_test, c_train, c_test),
            "chance": chance,
            "label_accuracy": (np.nan if labels is None else
                               accuracy(Z_train, Z_test, labels[train], labels[test])),
            "max_cross_cov": float(cross.max()),
            "explained_variance": explained,
        }

    rows = [row("Original pixels", X[train], X[test], 1.0)]
    for method in methods:
        est = _fit(method, X[train], c_train, k, equalize_covariance)
        Z_train, Z_test = est.transform(X[train]), est.transform(X[test])
        residual = ((X[test] - est.inverse_transform(Z_test)) ** 2).sum()
        rows.append(row(method, Z_train, Z_test, 1 - residual / total))
    return pd.DataFrame(rows)

