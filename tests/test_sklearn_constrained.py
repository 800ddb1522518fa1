"""scikit-learn's estimator checks on the *constrained* path of every fair estimator.

``parametrize_with_checks`` calls ``fit(X, y)`` without ``sensitive_features``, so the checks in
the per-module test files only exercise the unconstrained fallback (PCA, kernel PCA, PLS, ridge):
a planted bug that dropped a column of FairPCA's constraint basis passed all of them.  Here each
estimator is wrapped in a subclass whose ``fit`` supplies a sensitive feature that does not
depend on X — three string-labelled groups by the row index, ``i mod 3`` — and, for the
estimators with a hard constraint, verifies it on the training data before returning: the group
means of the training scores agree to 1e-8 of their scale.  Every check then runs through the
constrained fit (and through the constraint check) on scikit-learn's own data.

Below six rows a group would have fewer than two rows, which the estimators refuse with their
own message; such fits (the one- and two-sample checks) get ``sensitive_features=None``, so the
checks still see scikit-learn's expected errors.
"""

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import _num_samples

from fairlab import (
    FairDR,
    FairKernelPCA,
    FairKernelProjection,
    FairKernelRegression,
    FairLinearRegression,
    FairPCA,
    FairPLS,
    KernelFairDR,
)
from fairlab.kernel_pls import KernelFairPLS
from fairlab.pls import NaiveFairPLS

_LABELS = np.array(["a", "b", "c"])


def row_groups(n, d):
    """m = min(3, d) groups by the row index (independent of X); None when there is no room.

    A linear fair method keeps d − (m − 1) directions, so m ≤ d; one feature or fewer than two
    rows per group leave the constrained problem empty, and the estimators refuse it with
    their own message.
    """
    m = min(3, d)
    return _LABELS[np.arange(n) % m] if (m >= 2 and n >= 2 * m) else None


def group_mean_gap(T, s):
    """Largest |mean of a group − overall mean| of the columns of T, over max(1, max|T|)."""
    T = np.asarray(T, dtype=float).reshape(len(T), -1)
    gap = max(np.abs(T[s == g].mean(axis=0) - T.mean(axis=0)).max(initial=0.0)
              for g in np.unique(s))
    return gap / max(1.0, float(np.abs(T).max(initial=0.0)))


def _constrained(cls, hard):
    """A subclass of ``cls`` whose fit derives ``sensitive_features`` from the row index.

    ``hard(estimator)`` says whether its constraint is exact (equal group means of the
    training scores), which fit then verifies.
    """

    def fit(self, X, y=None, **params):
        params.pop("sensitive_features", None)
        shape = np.shape(X) if hasattr(X, "shape") else np.shape(np.asarray(X))
        s = row_groups(_num_samples(X), shape[1] if len(shape) > 1 else 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # zero components, fallback, ...
            cls.fit(self, X, y, sensitive_features=s, **params)
        if hard(self) and s is not None:
            gap = group_mean_gap(self.transform(X), s)
            if not gap <= 1e-8:
                raise AssertionError(f"{cls.__name__}: constraint violated on the training "
                                     f"data (group-mean gap {gap:.2e})")
        return self

    namespace = {"fit": fit, "__module__": __name__, "__qualname__": f"Constrained{cls.__name__}",
                 "__doc__": f"{cls.__name__} fitted with three row-index groups."}
    if "fit_transform" in cls.__dict__:  # fit_transform without a fit call (FairKernelPCA)
        def fit_transform(self, X, y=None, **params):
            return fit(self, X, y, **params).transform(X)

        namespace["fit_transform"] = fit_transform
    return type(f"Constrained{cls.__name__}", (cls,), namespace)


# module-level names, so that the classes pickle (check_estimators_pickle)
def _always(est):
    return True


def _never(est):
    return False


def _hard_constraint(est):
    return getattr(est, "ridge", None) == 0 or np.isinf(getattr(est, "eta", 0.0))


ConstrainedFairPCA = _constrained(FairPCA, _always)
ConstrainedFairKernelPCA = _constrained(FairKernelPCA, _always)
ConstrainedFairKernelProjection = _constrained(FairKernelProjection, _always)
ConstrainedFairPLS = _constrained(FairPLS, _hard_constraint)
ConstrainedKernelFairPLS = _constrained(KernelFairPLS, _never)
ConstrainedNaiveFairPLS = _constrained(NaiveFairPLS, _never)
ConstrainedFairLinearRegression = _constrained(FairLinearRegression, _never)
ConstrainedFairKernelRegression = _constrained(FairKernelRegression, _never)
ConstrainedFairDR = _constrained(FairDR, _hard_constraint)
ConstrainedKernelFairDR = _constrained(KernelFairDR, _hard_constraint)

ESTIMATORS = [
    ConstrainedFairPCA(),
    ConstrainedFairPCA(n_components=1, center=False),
    ConstrainedFairKernelPCA(),
    ConstrainedFairKernelPCA(n_components=2, kernel="linear"),
    ConstrainedFairKernelProjection(sensitive_type="categorical"),
    ConstrainedFairKernelProjection(sensitive_type="categorical", approximation="nystroem",
                                    n_landmarks=20),
    ConstrainedFairPLS(),
    ConstrainedFairPLS(eta=np.inf),
    ConstrainedKernelFairPLS(),
    ConstrainedNaiveFairPLS(threshold=1.0),
    ConstrainedFairLinearRegression(mu=10.0),
    ConstrainedFairKernelRegression(mu=10.0),
    ConstrainedFairDR(n_components=1, ridge=0.0),
    ConstrainedKernelFairDR(n_components=1, ridge=0.0, kernel="linear"),
    ConstrainedKernelFairDR(n_components=2),
]

# Every check passes on the constrained path: no expected failure to list.
@parametrize_with_checks(ESTIMATORS)
def test_sklearn_checks_on_the_constrained_path(estimator, check):
    check(estimator)


def test_the_adapter_catches_a_dropped_constraint_column(monkeypatch):
    """The adapter's constraint check fails when a column of FairPCA's basis is dropped."""
    import fairlab.pca as pca

    original = pca.constraint_basis

    def drop_last_column(*args, **kwargs):
        Q = original(*args, **kwargs)
        return Q[:, :-1]

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5)) + 0.5 * (np.arange(30) % 3)[:, None]
    ConstrainedFairPCA(2).fit(X)  # the genuine basis: passes
    monkeypatch.setattr(pca, "constraint_basis", drop_last_column)
    with pytest.raises(AssertionError, match="constraint violated"):
        ConstrainedFairPCA(2).fit(X)
