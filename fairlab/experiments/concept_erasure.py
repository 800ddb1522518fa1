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



def figure_scores(X, concept, labels=None, k=10, *, equalize_covariance=0.85, random_state=0):
    """The :func:`scores` of the figure's rows: pixels, Fair PCA at k = d − 1, each method at k.

    Parameters
    ----------
    X, concept, labels, k, equalize_covariance, random_state
        As in :func:`scores` (one split, the same for every row).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``(method, k)``: ``("Original pixels", d)``, ``("Fair PCA", d − 1)``, then
        ``(method, k)`` for each of :data:`METHODS`; the columns of :func:`scores`.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"figure_scores: X must be a 2-D array (n_images, n_pixels); got shape "
                         f"{X.shape}.")
    d = X.shape[1]
    kwargs = dict(equalize_covariance=equalize_covariance, random_state=random_state)
    full = scores(X, concept, labels, k=d - 1, methods=["Fair PCA"], **kwargs)
    small = scores(X, concept, labels, k=k, **kwargs).iloc[1:]  # the pixels are in ``full``
    out = pd.concat([full.assign(k=[d, d - 1]), small.assign(k=k)], ignore_index=True)
    return out.set_index(["method", "k"])


def group_mean_gaps(versions, concept, *, image_shape=None, bar_row=None):
    """How far apart the two groups' mean images are, in each version of the images.

    For a version :math:`R` (the originals, or reconstructions) with group means
    :math:`\\mu_1(R)` (images with the concept) and :math:`\\mu_0(R)` (without), the largest
    gap is :math:`\\max_j |\\mu_1(R)_j - \\mu_0(R)_j|` over the pixels.  Fair PCA makes it zero
    up to rounding: a linear reader finds no difference between the groups on average.

    Parameters
    ----------
    versions : dict
        ``{name: array of shape (n_images, n_pixels)}``, e.g. ``{"original": X, "Fair PCA, k =
        63": ...}`` (:func:`reconstructions`).
    concept : array-like of shape (n_images,)
        0/1, both present.
    image_shape : tuple of int, optional
        ``(height, width)``; needed with ``bar_row``.
    bar_row : int, optional
        A row of pixels (the digits' bar): adds the mean brightness of that row in each group.

    Returns
    -------
    pandas.DataFrame
        One row per version (index ``version``): ``largest_mean_gap`` and, with ``bar_row``,
        ``bar_with_concept`` and ``bar_without_concept``.
    """
    concept = np.asarray(concept).ravel()
    if set(np.unique(concept)) != {0, 1}:
        raise ValueError("group_mean_gaps: concept must be binary 0/1 with both values present; "
                         f"got values {np.unique(concept)[:5]}.")
    if bar_row is not None and image_shape is None:
        raise ValueError("group_mean_gaps: bar_row needs image_shape.")
    rows = {}
    for name, R in versions.items():
        R = np.asarray(R, dtype=float)
        if R.ndim != 2 or R.shape[0] != concept.shape[0]:
            raise ValueError(f"group_mean_gaps: {name!r} must have shape ({concept.shape[0]}, "
                             f"n_pixels); got {R.shape}.")
        with_, without = R[concept == 1].mean(axis=0), R[concept == 0].mean(axis=0)
        row = {"largest_mean_gap": float(np.abs(with_ - without).max())}
        if bar_row is not None:
            row["bar_with_concept"] = float(with_.reshape(image_shape)[bar_row].mean())
            row["bar_without_concept"] = float(without.reshape(image_shape)[bar_row].mean())
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("version")


def _power(value):
    """A small tolerance as a power of ten in words: 1e-08 -> 10⁻⁸."""
    from ..published import method_label

    return method_label(f"10^{int(round(np.log10(value)))}")


def _tiny(what, value, tolerance):
    """A value that should be zero up to rounding, in words, with its size when it is not (the
    rounding error itself changes with the BLAS kernel, so it is not printed)."""
    value = float(value)
    return "zero up to rounding" if value < tolerance else f"{what} {value:.1e}"


def checks(figure_scores_, gaps, *, tolerance=0.02, kept=0.8, gap_tolerance=1e-8,
           cov_tolerance=1e-10):
    """The paper's claims about its Fig. 5 and Figs. 10–15, checked on the numbers.

    Claim 1, "fair PCA ... successfully obfuscates the demographic information":

    * before, the concept is there to erase: a logistic regression reads it from the pixels
      more than ``tolerance`` above chance;
    * Fair PCA's reconstructions have equal group means (largest gap below ``gap_tolerance``);
    * no dimension of Fair PCA's representation covaries with the concept (below
      ``cov_tolerance``);
    * after Fair PCA, at k = d − 1 and at the small k, the concept is read at chance (within
      ``tolerance``).

    Claim 2, "the projected faces resemble the original ones to a good extent": Fair PCA at
    k = d − 1 keeps at least ``kept`` of the held-out images' variance and, with labels (such
    as the digit), the label is read after it as well as on the pixels, and at the small k as
    well as after PCA (each within ``tolerance``).

    Parameters
    ----------
    figure_scores_ : DataFrame
        :func:`figure_scores` output.
    gaps : DataFrame
        :func:`group_mean_gaps` output, its versions named ``"Fair PCA, k = ..."`` for Fair PCA.
    tolerance : float, default=0.02
        Largest difference of two accuracies read as "the same".
    kept : float, default=0.8
        Smallest share of variance read as "resembles the original".
    gap_tolerance, cov_tolerance : float
        Largest group-mean gap and cross-covariance read as zero.

    Returns
    -------
    pandas.DataFrame
        ``claim`` (1 or 2), ``check``, ``measured``, ``holds``: one row per check.
    """
    s = figure_scores_
    if list(s.index.names) != ["method", "k"] or "concept_accuracy" not in s.columns:
        raise ValueError("checks: figure_scores_ must be the output of figure_scores.")
    d = int(s.xs("Original pixels", level="method").index[0])
    small = int(s.xs("PCA", level="method").index[0])
    pixels, fair = s.loc[("Original pixels", d)], s.xs("Fair PCA", level="method")
    chance = float(pixels["chance"])
    fair_gaps = gaps.loc[[v for v in gaps.index if str(v).startswith("Fair PCA,")],
                         "largest_mean_gap"]
    cross = float(fair["max_cross_cov"].max())
    read = ", ".join(f"{a:.2f} at k = {kk}" for kk, a in fair["concept_accuracy"].items())
    rows = [
        (1, f"the pixels show the concept (accuracy more than {tolerance:g} above chance)",
         f"{pixels['concept_accuracy']:.2f} against chance {chance:.2f}",
         pixels["concept_accuracy"] > chance + tolerance),
        (1, f"Fair PCA's reconstructions have equal group means (largest gap below "
            f"{_power(gap_tolerance)})", _tiny("largest gap", fair_gaps.max(), gap_tolerance),
         bool(len(fair_gaps)) and fair_gaps.max() < gap_tolerance),
        (1, f"no Fair PCA dimension covaries with the concept (below {_power(cov_tolerance)})",
         _tiny("largest", cross, cov_tolerance), cross < cov_tolerance),
        (1, f"after Fair PCA the concept is read at chance (within {tolerance:g}), at both k",
         f"{read}; chance {chance:.2f}",
         bool((np.abs(fair["concept_accuracy"] - chance) <= tolerance).all())),
    ]
    variance = float(fair.loc[d - 1, "explained_variance"])
    rows.append((2, f"Fair PCA at k = {d - 1} keeps at least {kept:.0%} of the held-out "
                    "images' variance", f"{variance:.0%}", variance >= kept))
    if not s["label_accuracy"].isna().all():
        at_full, at_small = fair.loc[d - 1, "label_accuracy"], fair.loc[small, "label_accuracy"]
        pca = s.loc[("PCA", small), "label_accuracy"]
        rows += [
            (2, f"the label is read after Fair PCA at k = {d - 1} as well as on the pixels "
                f"(within {tolerance:g})",
             f"{at_full:.2f} against {pixels['label_accuracy']:.2f}",
             at_full >= pixels["label_accuracy"] - tolerance),
            (2, f"at k = {small} Fair PCA reads the label as well as PCA (within {tolerance:g})",
             f"{at_small:.2f} against {pca:.2f}", at_small >= pca - tolerance),
        ]
    out = pd.DataFrame(rows, columns=["claim", "check", "measured", "holds"])
    out["holds"] = out["holds"].astype(bool)
    return out
