r"""fairlearn's exponentiated-gradient reduction (Agarwal et al. 2018) with a routable keyword.

fairlearn's :class:`~fairlearn.reductions.ExponentiatedGradient` is used as it is, not
rewritten.  Its ``fit(X, y, **kwargs)`` takes ``sensitive_features`` through ``**kwargs``, so
scikit-learn's metadata routing cannot request it and the reduction cannot sit after a fairlab
transformer in a :class:`~sklearn.pipeline.Pipeline`.  :class:`ExponentiatedGradientClassifier`
is the thin adapter that fixes only that: ``fit(X, y, *, sensitive_features)`` (hence
``set_fit_request``), the fairness constraint given by name, and fairlab's convention that
``sensitive_features=None`` fits the unconstrained classifier with a warning.

The reduction solves

.. math::

    \min_{Q \in \Delta(\mathcal H)} \operatorname{err}(Q)
    \quad\text{s.t.}\quad \gamma(Q) \le \varepsilon,

over randomised classifiers Q (distributions over the base estimator's hypotheses), as a
saddle point of the Lagrangian found by exponentiated gradient on the multipliers; γ is the
constraint's violation vector (for demographic parity, the distances of the groups' selection
rates to the overall one) and ε is ``difference_bound``.  Its ``predict`` samples from Q
(seeded by ``random_state`` here).
"""

# SPDX-License-Identifier: BSD-3-Clause

import importlib
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, _fit_context, clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, check_random_state

from .._core.validation import (
    check_groups,
    check_transform_input,
    validate_data,
    warn_unconstrained,
)

__all__ = ["ExponentiatedGradientClassifier"]

_CONSTRAINTS = {  # name -> fairlearn.reductions class
    "demographic_parity": "DemographicParity",
    "equalized_odds": "EqualizedOdds",
    "true_positive_rate_parity": "TruePositiveRateParity",
    "false_positive_rate_parity": "FalsePositiveRateParity",
    "error_rate_parity": "ErrorRateParity",
}
_INSTALL_HINT = "pip install 'fairlab[reductions]'  (or: pip install fairlearn)"


def _fairlearn_reductions(estimator):
    try:
        return importlib.import_module("fairlearn.reductions")
    except ImportError:
        raise ImportError(
            f"{type(estimator).__name__} runs fairlearn's ExponentiatedGradient, and fairlearn "
            f"is not installed. Install it with: {_INSTALL_HINT}"
        ) from None


class ExponentiatedGradientClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """fairlearn's ExponentiatedGradient as a classifier with ``sensitive_features`` routed.

    Parameters
    ----------
    estimator : classifier, default=None
        The base classifier, fitted with ``sample_weight`` (it must accept it).  ``None`` means
        ``LogisticRegression()``.
    constraints : {"demographic_parity", "equalized_odds", "true_positive_rate_parity", \
"false_positive_rate_parity", "error_rate_parity"}, default="demographic_parity"
        The fairlearn moment bounded by ``difference_bound``.
    difference_bound : float >= 0, default=0.01
        Allowed violation ε of the constraint (the moment's ``difference_bound``, e.g. the gap of
        the groups' selection rates for demographic parity).
    eps : float > 0, default=0.01
        fairlearn's ``eps``: the L1 bound of the Lagrange multipliers is B = 1/eps.  Since
        fairlearn 0.5 it does not set the allowed violation; ``difference_bound`` does.
    max_iter : int >= 1, default=50
        Iterations of exponentiated gradient.
    eta0 : float > 0, default=2.0
        Initial step of the multiplier update.
    random_state : int, RandomState instance or None, default=None
        Seeds the sampling of :meth:`predict` from the randomised classifier.

    Attributes
    ----------
    reduction_ : fairlearn.reductions.ExponentiatedGradient
        The fitted reduction; ``None`` after a fit with ``sensitive_features=None``.
    estimator_ : classifier
        The unconstrained classifier, only after a fit with ``sensitive_features=None``.
    classes_ : ndarray of shape (n_classes,)
        Two classes for the reduction; any number for the unconstrained fallback.
    n_iter_ : int
        Iterations of exponentiated gradient run (0 for the fallback).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has string feature names.

    Notes
    -----
    Binary targets only for the reduction (fairlearn's); the unconstrained fallback takes the
    base classifier's targets.  In a Pipeline enable metadata routing and
    call ``set_fit_request(sensitive_features=True)`` on this step and on every fairlab step
    before it.  :meth:`predict_proba` returns the probabilities of the randomised classifier
    Q (fairlearn's ``_pmf_predict``), so ``predict`` is a draw from them.

    References
    ----------
    * A. Agarwal, A. Beygelzimer, M. Dudík, J. Langford, H. Wallach. "A reductions approach to
      fair classification." ICML 2018.

    Examples
    --------
    >>> import numpy as np
    >>> import sklearn
    >>> from sklearn.pipeline import make_pipeline
    >>> from fairlab import FairPCA
    >>> from fairlab.baselines import ExponentiatedGradientClassifier
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 300)
    >>> X = rng.normal(size=(300, 4)) + s[:, None]
    >>> y = (X[:, 0] > 0.5).astype(int)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     model = make_pipeline(
    ...         FairPCA(2).set_fit_request(sensitive_features=True),
    ...         ExponentiatedGradientClassifier(random_state=0).set_fit_request(
    ...             sensitive_features=True),
    ...     ).fit(X, y, sensitive_features=s)
    >>> model.predict(X[:5]).shape
    (5,)
    """

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "constraints": [StrOptions(set(_CONSTRAINTS))],
        "difference_bound": [Interval(Real, 0, None, closed="left")],
        "eps": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, constraints="demographic_parity", difference_bound=0.01,
                 eps=0.01, max_iter=50, eta0=2.0, random_state=None):
        self.estimator = estimator
        self.constraints = constraints
        self.difference_bound = difference_bound
        self.eps = eps
        self.max_iter = max_iter
        self.eta0 = eta0
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)  # the base estimator validates its own
    def fit(self, X, y, *, sensitive_features=None):
        """Fit the reduction (or, without ``sensitive_features``, the base classifier).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary labels (any two values; ``classes_[1]`` is the positive class of the
            constraint).
        sensitive_features : array-like of shape (n_samples,) or (n_samples, n_attributes)
            Group labels, passed to fairlearn.  ``None`` fits ``estimator`` unconstrained
            and warns.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        base = LogisticRegression() if self.estimator is None else clone(self.estimator)
        if sensitive_features is None:
            warn_unconstrained(self, type(base).__name__)
            self.reduction_ = None
            self.estimator_ = base.fit(X, y)
            self.n_iter_ = 0
            return self
        if self.classes_.size != 2:
            raise ValueError(
                f"{type(self).__name__} needs binary labels (fairlearn's reductions); y has "
                f"{self.classes_.size} classes. Encode y as two classes."
            )
        if np.shape(sensitive_features)[0] != X.shape[0]:
            raise ValueError(
                f"sensitive_features has {np.shape(sensitive_features)[0]} rows but X has "
                f"{X.shape[0]}; pass one group label per row."
            )
        # missing, infinite or mixed-type labels and single-group attributes are refused
        # here, by name, before fairlearn sees them
        check_groups(sensitive_features, X.shape[0])
        reductions = _fairlearn_reductions(self)
        constraint = getattr(reductions, _CONSTRAINTS[self.constraints])(
            difference_bound=self.difference_bound)
        self.reduction_ = reductions.ExponentiatedGradient(
            base, constraint, eps=self.eps, max_iter=self.max_iter, eta0=self.eta0)
        # fairlearn's moments read y as 0/1: code classes_[1] as the positive label
        self.reduction_.fit(X, (y == self.classes_[1]).astype(int),
                            sensitive_features=sensitive_features)
        self.n_iter_ = int(self.reduction_.last_iter_) + 1
        return self

    def predict(self, X):
        """A draw from the randomised classifier Q (seeded by ``random_state``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        if self.reduction_ is None:
            return self.estimator_.predict(X)
        codes = self.reduction_.predict(X, random_state=check_random_state(self.random_state))
        return self.classes_[np.asarray(codes, dtype=int)]

    def predict_proba(self, X):
        """Class probabilities of the randomised classifier Q.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``.
        """
        check_is_fitted(self)
        X = check_transform_input(self, X)
        if self.reduction_ is None:
            return self.estimator_.predict_proba(X)
        return np.asarray(self.reduction_._pmf_predict(X))
