r"""INLP — Iterative Null-space Projection (Ravfogel, Elazar, Gonen, Twiton, Goldberg; ACL 2020).

INLP trains a linear classifier to predict the protected attribute, projects the data onto the
null space of its weight vector(s), and repeats on the projected data; the final map is the
orthogonal projection onto the intersection of all the null spaces::

    Q = []                                   # orthonormal basis of span{w_1, …, w_t}
    for t in 1..T:                           # T = n_iterations (a fixed count, as in the paper)
        Xp = X (I − QQᵀ)                     # always the ORIGINAL data, re-projected
        W  = clone(classifier).fit(Xp, z).coef_        # 1×d (binary) or m×d (one-vs-rest)
        Q  = orthonormal basis of span(Q, Wᵀ)           # ∩ null(w_i) = span{w_i}^⊥
    P = I − QQᵀ;  x ↦ P x                    # (optional) PCA to k dims inside range(P)

Defaults are those of Kleindessner et al. (2023), who ran INLP as a fair-PCA baseline:
``LinearSVC(fit_intercept=False, class_weight=None, dual=False, random_state=0)``,
T = d − k iterations, no accuracy threshold, the training data as "dev" set.  Their
k-dimensional embedding was ``eigsh(P, k)`` — k eigenvectors of eigenvalue 1, an arbitrary
choice inside range(P) whenever fewer than d − k directions were removed; here it is the
rank-k PCA of the projected data inside range(P) instead (the same space when exactly d − k
directions were removed, then sorted by variance).

Implementation: Q is extended by Gram–Schmidt (two passes) instead of re-orthogonalising the
sum of the row-space projectors at every step (Ben-Israel's formula, the same space), and
Xp is updated by a rank-one downdate per new direction, so an iteration costs one classifier
fit plus O(nd).  A weight component already in span(Q) to within max(m, d)·eps·‖W‖₂ (the
rule of ``scipy.linalg.orth``) adds no direction.
"""

# SPDX-License-Identifier: BSD-3-Clause

from numbers import Integral

import numpy as np
from scipy import linalg
from sklearn.base import _fit_context, clone
from sklearn.svm import LinearSVC
from sklearn.utils._param_validation import HasMethods, Interval

from ._common import BaseEraser, Eraser

_EPS = np.finfo(np.float64).eps


def default_classifier():
    """The classifier of Kleindessner et al.'s INLP baseline."""
    return LinearSVC(fit_intercept=False, class_weight=None, dual=False, random_state=0)


def _new_directions(W, Q, budget):
    """Orthonormal directions (d × c, c ≤ budget) spanning the part of the rows of W not in Q."""
    R = W - (W @ Q) @ Q.T
    R = R - (R @ Q) @ Q.T  # second Gram–Schmidt pass: orthogonal to Q to rounding
    _, s, Vt = linalg.svd(R, full_matrices=False, check_finite=False)
    scale = linalg.norm(W, 2) if W.size else 0.0
    count = int(np.sum(s > max(W.shape) * _EPS * scale))
    return Vt[: min(count, budget)].T  # the leading singular directions when truncated


def inlp_directions(X, groups, classifier, n_iterations, max_removed):
    """Run INLP; returns Q (d × q, orthonormal), all weight rows, and the iterations run."""
    d = X.shape[1]
    Q = np.zeros((d, 0))
    weights = []
    Xp = X.copy()
    for t in range(n_iterations):
        for a in range(groups.codes.shape[1]):  # several attributes: one classifier each
            clf = clone(classifier).fit(Xp, groups.codes[:, a])
            if not hasattr(clf, "coef_"):
                raise TypeError(
                    f"INLP needs a linear classifier exposing coef_ after fit; "
                    f"{type(clf).__name__} has none."
                )
            W = np.atleast_2d(np.asarray(clf.coef_, dtype=np.float64))
            weights.append(W)
            new = _new_directions(W, Q, max_removed - Q.shape[1])
            Xp -= (Xp @ new) @ new.T  # X(I − QQᵀ) for the extended Q (new ⟂ Q)
            Q = np.hstack([Q, new])
            if Q.shape[1] >= max_removed:
                return Q, np.vstack(weights), t + 1
    return Q, np.vstack(weights), n_iterations


class INLP(BaseEraser):
    r"""Iterative Null-space Projection (Ravfogel et al. 2020), optionally followed by PCA.

    After T rounds of "fit a linear classifier of the attribute, project onto the null space
    of its weights", the data are mapped by the orthogonal projection

    .. math::

        P = I - P_{\mathrm{span}\{w_1, \dots, w_T\}},
        \qquad \mathcal N(w_1) \cap \dots \cap \mathcal N(w_T) = \mathrm{range}(P),

    the weights :math:`w_t` of round t being fitted on :math:`X P_{t-1}`.

    Parameters
    ----------
    n_components : int, default=None
        ``None`` outputs the d-dimensional P x.  An int k runs T = d − k rounds by default and
        adds a PCA to k dimensions inside range(P) (at most min(n_samples, d − 1); at most
        d − k directions are removed).
    classifier : estimator with ``coef_``, default=None
        Cloned at every round.  ``None``:
        ``LinearSVC(fit_intercept=False, class_weight=None, dual=False, random_state=0)``, as
        in the word-embedding experiments of Ravfogel et al. and in Kleindessner et al.
        A classifier with randomness of its own should carry a fixed ``random_state``, or
        the fit is not reproducible.
    n_iterations : int, default=None
        T.  ``None``: d − ``n_components`` (Kleindessner et al.) or, without
        ``n_components``, min(35, d − 1) (Ravfogel et al.'s word-embedding setting, which
        uses the default classifier).  A multi-class classifier (one-vs-rest, m weight
        vectors) removes up to m directions per round; the rounds stop once d − k (or d − 1)
        directions are removed, the last round keeping only the leading singular directions of
        its weights.
    center : bool, default=True
        Fit the classifiers on centred data.  ``False`` uses X as given, as the reference code
        did (Kleindessner et al.'s real data were standardised; uncentred data far from the
        origin make a classifier without intercept spend its first directions on the offset).
        The output P x is linear either way, as in the paper.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        Mean of the training rows.
    classifier_weights_ : ndarray of shape (n_weights, n_features)
        Every classifier's ``coef_`` rows, in the order fitted (empty without the attribute).
    n_iter_ : int
        Rounds run.
    projection_ : ndarray of shape (n_features, n_features)
        P, a symmetric orthogonal projection of rank d − ``n_removed_``.
    removed_directions_ : ndarray of shape (``n_removed_``, n_features)
        Orthonormal basis of span{w_t} (rows).
    n_removed_ : int
    components_ : ndarray of shape (n_components, n_features)
        Only with ``n_components``: orthonormal principal directions of the projected data.
    explained_variance_, explained_variance_ratio_ : ndarray of shape (n_components,)
        Only with ``n_components``.
    n_components_ : int
        Output dimension.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    Notes
    -----
    Several attributes: every round fits one classifier per attribute.  No ``min_accuracy``
    threshold and no ``by_class`` sampling (Kleindessner et al. used neither).  Cost: T
    classifier fits plus O(ndT).  ``sensitive_features=None`` removes nothing (PCA or the
    identity) and warns.

    References
    ----------
    * S. Ravfogel, Y. Elazar, H. Gonen, M. Twiton, Y. Goldberg. "Null it out: guarding
      protected attributes by iterative nullspace projection." ACL 2020.
    * M. Kleindessner, M. Donini, C. Russell, M. B. Zafar. "Efficient fair PCA for fair
      representation learning." AISTATS 2023 (INLP as a baseline, §5).

    Examples
    --------
    >>> import numpy as np
    >>> from fairlab.baselines.inlp import INLP
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 6)) + 2.0 * z[:, None]
    >>> inlp = INLP(n_components=3).fit(X, sensitive_features=z)
    >>> inlp.n_removed_, inlp.transform(X).shape
    (3, (100, 3))
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "classifier": [HasMethods(["fit"]), None],
        "n_iterations": [Interval(Integral, 1, None, closed="left"), None],
        "center": ["boolean"],
    }

    def __init__(self, n_components=None, *, classifier=None, n_iterations=None, center=True):
        self.n_components = n_components
        self.classifier = classifier
        self.n_iterations = n_iterations
        self.center = center

    @_fit_context(prefer_skip_nested_validation=False)  # the classifier validates its own
    def fit(self, X, y=None, *, sensitive_features=None):
        """Run INLP (and the optional PCA inside the space it keeps).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Group labels, at least two rows per group.  ``None`` fits the unconstrained
            method (PCA to ``n_components``, or the identity) and warns.

        Returns
        -------
        self : INLP
        """
        return self._fit(X, sensitive_features)

    def _fit_unconstrained(self, X):
        self.classifier_weights_ = np.zeros((0, X.shape[1]))
        self.n_iter_ = 0
        return super()._fit_unconstrained(X)

    def _fit_eraser(self, X, groups):
        n, d = X.shape
        k = self.n_components
        max_removed = self._removal_budget(d)
        T = self.n_iterations
        if T is None:
            T = min(35, d - 1) if k is None else d - k
        classifier = default_classifier() if self.classifier is None else self.classifier
        Xs = X - X.mean(axis=0) if self.center else X
        Q, weights, n_iter = inlp_directions(Xs, groups, classifier, T, max_removed)
        self.classifier_weights_ = weights
        self.n_iter_ = n_iter
        return Eraser.orthogonal(np.ascontiguousarray(Q))
