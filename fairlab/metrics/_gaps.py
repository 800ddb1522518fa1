"""The groups' gaps in a representation: the distance between their means, which a linear rule
can see, and between their covariances, which a quadratic one can (Kleindessner et al. §3.6).
"""

import numpy as np

from ._measures import _as_matrix, _group_index

_REFERENCES = ("other", "all")


def mean_gap(embedding, sensitive_features):
    """Euclidean distance between the two groups' mean representations, ‖ē₁ − ē₀‖₂.

    Fair PCA's constraint makes it 0 on the rows it was fitted on (up to rounding); a
    representation whose groups' means differ lets a linear rule tell the groups apart.

    Parameters
    ----------
    embedding : array-like of shape (n_samples, k)
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
        Exactly two groups (intersections of the columns for 2-D input).

    Returns
    -------
    float

    Examples
    --------
    >>> from fairlab.metrics import mean_gap
    >>> mean_gap([[1.0, 0.0], [-1.0, 0.0], [3.0, 4.0], [3.0, 4.0]], [0, 0, 1, 1])
    5.0
    """
    E = _as_matrix(embedding, "embedding")
    ids = _groups(sensitive_features, E.shape[0], "mean_gap", minimum_rows=1)
    return float(np.linalg.norm(E[ids == 1].mean(axis=0) - E[ids == 0].mean(axis=0)))


def covariance_gap(embedding, sensitive_features, *, reference="other"):
    """Frobenius norm of the gap between the groups' covariances in the representation.

    With Σ̂_g the sample covariance (1/(n_g − 1)) of group g's rows:

    * ``reference="other"`` (exactly two groups): ‖Σ̂₀ − Σ̂₁‖_F, the gap Fair PCA-S shrinks
      (Kleindessner et al. §3.6, Fig. 1);
    * ``reference="all"`` (any number of groups): Σ_g ‖Σ̂_g − Σ̂‖_F, Σ̂ the sample covariance
      of all rows.

    Parameters
    ----------
    embedding : array-like of shape (n_samples, k)
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
        Group labels; each group needs at least two rows.
    reference : {"other", "all"}, default="other"

    Returns
    -------
    float

    Examples
    --------
    >>> from fairlab.metrics import covariance_gap
    >>> covariance_gap([[0.0], [2.0], [0.0], [4.0]], [0, 0, 1, 1])   # variances 2 and 8
    6.0
    """
    if reference not in _REFERENCES:
        raise ValueError(f"reference must be one of {_REFERENCES}; got {reference!r}.")
    E = _as_matrix(embedding, "embedding")
    ids = _groups(sensitive_features, E.shape[0], "covariance_gap", minimum_rows=2,
                  two=reference == "other")

    def covariance(rows):
        return np.atleast_2d(np.cov(rows, rowvar=False))

    if reference == "other":
        return float(np.linalg.norm(covariance(E[ids == 0]) - covariance(E[ids == 1])))
    overall = covariance(E)
    return float(sum(np.linalg.norm(covariance(E[ids == g]) - overall)
                     for g in range(ids.max() + 1)))


def _groups(sensitive_features, n, function, *, minimum_rows, two=True):
    ids, labels = _group_index(sensitive_features, n)
    if two and len(labels) != 2:
        raise ValueError(
            f"sensitive_features must define exactly two groups for {function}; got "
            f"{len(labels)} ({labels}). Binarise the attribute"
            + (", or pass reference='all'." if function == "covariance_gap" else "."))
    sizes = np.bincount(ids, minlength=len(labels))
    if sizes.min() < minimum_rows:
        small = [label for label, size in zip(labels, sizes) if size < minimum_rows]
        raise ValueError(f"{function} needs at least {minimum_rows} row(s) per group; group(s) "
                         f"{small} have fewer.")
    return ids
