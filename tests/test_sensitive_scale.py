r"""Sensitive attributes: one reading of ``sensitive_type="auto"``, any unit, near-duplicates.

* ``"auto"`` is decided by one function, :func:`fairlab._core.validation.auto_sensitive_kind`, and
  every consumer — the estimators (FairPCA, FairKernelPCA, FairKernelProjection), the encoding
  of the metrics and of FairPLS, and :func:`fairlab.metrics.leakage` — reads a table of input
  kinds alike: a ``pd.Categorical`` is categorical whatever its categories (floats included),
  booleans and integers (NumPy or pandas' nullable) are categorical, floats (NumPy or pandas'
  ``Float64``) continuous, strings and objects categorical.
* A continuous attribute constrains the fit through the span of its centred column only, so
  its unit must not matter: from 1e-300 to 1e300 the fits equal the fit in the attribute's
  own unit (before, the constraint was silently lost at ≥ 1e154 and ≤ 1e-200: its squares
  overflowed or underflowed).
* Near-duplicate continuous columns far from the origin: the columns' rank is decided on
  Â = S̃ D⁻¹ (S̃ centred, D the norms of the columns as given), whose singular values at or
  below n·eps·√(n·q) are rounding (:func:`fairlab._core.linalg.constraint_basis`).  For two columns
  o + a and o + a + δb (a, b of unit spread, b ⟂ a, offset o ≥ 1) the second singular value is
  ≈ δ/(√2·o), so the threshold is δ* = 2·o·n^{3/2}·eps: at δ*/10 the columns are one
  constraint, at 10·δ* two — asserted at offsets 1, 1e4 and 1e8.
"""

import warnings

import numpy as np
import pandas as pd
import pytest

from fairlab import FairKernelPCA, FairKernelProjection, FairPCA
from fairlab._core.validation import auto_sensitive_kind, check_sensitive, encode_sensitive
from fairlab.metrics import leakage

N = 30
VALUES = np.array([0.5, 1.5, 2.5] * (N // 3))
# input kind → (sensitive_features, the documented reading under "auto")
TABLE = {
    "Categorical of floats": (pd.Categorical(VALUES), "categorical"),
    "Series of a Categorical of floats": (pd.Series(pd.Categorical(VALUES)), "categorical"),
    "Categorical of strings": (pd.Categorical(np.array(["a", "b", "c"] * (N // 3))),
                               "categorical"),
    "bool": (np.arange(N) % 2 == 0, "categorical"),
    "int": ((VALUES * 2).astype(int), "categorical"),
    "float": (VALUES, "continuous"),
    "object of strings": (np.array(["a", "b", "c"] * (N // 3), dtype=object), "categorical"),
    "object of floats": (VALUES.astype(object), "categorical"),
    "pandas string": (pd.Series(["a", "b", "c"] * (N // 3), dtype="string"), "categorical"),
    "pandas Int64": (pd.Series((VALUES * 2).astype(int), dtype="Int64"), "categorical"),
    "pandas Float64": (pd.Series(VALUES, dtype="Float64"), "continuous"),
    "pandas boolean": (pd.Series(np.arange(N) % 2 == 0, dtype="boolean"), "categorical"),
    "DataFrame column of a Categorical": (pd.DataFrame({"s": pd.Categorical(VALUES)}),
                                          "categorical"),
}


def _quiet(est, X, s):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, sensitive_features=s)


@pytest.mark.parametrize("name", list(TABLE))
def test_every_consumer_reads_auto_alike(name):
    s, expected = TABLE[name]
    dtype = s.dtypes.iloc[0] if isinstance(s, pd.DataFrame) else s.dtype
    assert auto_sensitive_kind(dtype) == expected
    # the estimators' reader, the metrics' and FairPLS's encoding, the leakage audit
    assert check_sensitive(s, N, "auto").kinds == (expected,)
    assert (encode_sensitive(s).n_groups[0] is None) == (expected == "continuous")
    X = np.random.default_rng(0).normal(size=(N, 2))
    table = leakage(X, s, adversaries=("logistic",), tests=(), cv=2, n_bootstrap=10)
    assert set(table.attribute_type) == {expected}
    # the estimators themselves: m − 1 constraints for m groups, 1 for a continuous column
    m = len(pd.unique(np.asarray(s, dtype=object).ravel()))
    constraints = m - 1 if expected == "categorical" else 1
    X = np.random.default_rng(1).normal(size=(N, 5))
    for est in (FairPCA(1, sensitive_type="auto"), FairKernelPCA(1, sensitive_type="auto"),
                FairKernelProjection(sensitive_type="auto")):
        assert _quiet(est, X, s).n_constraints_ == constraints, type(est).__name__


def _attribute_data(n=100, seed=0):
    rng = np.random.default_rng(seed)
    s = rng.normal(size=n)
    X = np.c_[s + rng.normal(size=n), rng.normal(size=(n, 3))]
    return X, s


ESTIMATORS = {
    "FairPCA": lambda: FairPCA(2, sensitive_type="continuous"),
    "FairKernelPCA": lambda: FairKernelPCA(2, gamma=0.2, sensitive_type="continuous"),
    "FairKernelProjection": lambda: FairKernelProjection(gamma=0.2),
}


@pytest.mark.parametrize("scale", [1e-300, 1e-250, 1e-200, 1e-150, 1e150, 1e154, 1e200, 1e300])
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_continuous_attribute_in_any_unit(name, scale):
    X, s = _attribute_data()
    ref = _quiet(ESTIMATORS[name](), X, s)
    est = _quiet(ESTIMATORS[name](), X, s * scale)
    assert est.n_constraints_ == ref.n_constraints_ == 1
    E, E_ref = est.transform(X), ref.transform(X)
    np.testing.assert_allclose(E, E_ref, atol=1e-10 * np.abs(E_ref).max())
    # the constraint holds: no component correlates with s (it did, 0.5, when it was lost)
    sc = s - s.mean()
    Ec = E - E.mean(axis=0)
    corr = np.abs(sc @ Ec) / (np.linalg.norm(sc) * np.linalg.norm(Ec, axis=0))
    assert corr.max() < 1e-8


@pytest.mark.parametrize("unit", [1.0, 1e200])
@pytest.mark.parametrize("offset", [1.0, 1e4, 1e8])
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_near_duplicate_continuous_columns_both_sides_of_the_tolerance(name, offset, unit):
    n = 100
    rng = np.random.default_rng(3)
    a = rng.normal(size=n)
    b = rng.normal(size=n)
    b -= b.mean()
    b -= a * (a @ b) / (a @ a)
    b *= np.sqrt(n) / np.linalg.norm(b)  # unit spread, orthogonal to a
    X = np.c_[a + rng.normal(size=n), b + rng.normal(size=n), rng.normal(size=(n, 4))]
    threshold = 2 * offset * n**1.5 * np.finfo(float).eps  # δ* of the module docstring
    for factor, constraints in ((0.1, 1), (10.0, 2)):
        S = np.c_[offset + a, offset + a + factor * threshold * b]
        # the documented rule, evaluated here independently: σ₂ of the centred columns over
        # their norms as given, against n·eps·√(n·q)
        Sc = S - S.mean(axis=0)
        sigma = np.linalg.svd(Sc / np.linalg.norm(S, axis=0), compute_uv=False)
        rounding = n * np.finfo(float).eps * np.sqrt(2 * n)
        assert (sigma[1] > rounding) == (constraints == 2), (factor, sigma[1] / rounding)
        est = _quiet(ESTIMATORS[name](), X, S * unit)  # the rule is free of the unit
        assert est.n_constraints_ == constraints, (factor, offset)


@pytest.mark.parametrize("make, param", [
    (lambda v: FairKernelPCA(2, approximation="nystroem", n_landmarks=v), "n_landmarks"),
    (lambda v: FairKernelProjection(approximation="nystroem", n_landmarks=v), "n_landmarks"),
    (lambda v: FairKernelPCA(2, kernel="poly", degree=v), "degree"),
    (lambda v: FairKernelProjection(kernel="poly", degree=v), "degree"),
    (lambda v: FairKernelPCA(2, kernel="poly", coef0=v), "coef0"),
    (lambda v: FairKernelPCA(2, gamma=v), "gamma"),
    (lambda v: FairKernelProjection(gamma=v), "gamma"),
    (lambda v: FairKernelPCA(2, random_state=v), "random_state"),
])
@pytest.mark.parametrize("value", [True, False, np.True_])
def test_bool_is_not_a_number(make, param, value):
    # True passes scikit-learn's Integral/Real constraints as 1: refused by fairlab, naming
    # the parameter; False and np.True_ are refused by the constraints themselves
    # (InvalidParameterError, a TypeError), naming it too
    X, s = _attribute_data(n=40)
    with pytest.raises(TypeError, match=param) as info:
        _quiet(make(value), X, (s > 0).astype(int))
    if value is True:
        assert "is a bool" in str(info.value)


def _dask_fit(S, X, chunks=100):
    da = pytest.importorskip("dask.array")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return FairPCA(2, sensitive_type="continuous").fit(
            da.from_array(X, chunks=chunks), sensitive_features=da.from_array(S, chunks=chunks))


def _partial_fit(S, X, chunks=100):
    model = FairPCA(2, sensitive_type="continuous")
    for start in range(0, X.shape[0], chunks):
        model.partial_fit(X[start:start + chunks],
                          sensitive_features=S[start:start + chunks])
    return model


@pytest.mark.parametrize("fit", [_dask_fit, _partial_fit])
@pytest.mark.parametrize("scale, verdict", [(1e160, "overflow"), (2e150, "overflow"),
                                            (1e-210, "underflow"), (1e-170, "underflow")])
def test_streamed_fits_refuse_a_continuous_column_they_cannot_sum(fit, scale, verdict):
    """The streamed sums cannot rescale a column exactly (a scale chosen on one chunk may not
    suit the next): beyond float64's range for squares they say so, naming the column, instead
    of blaming X for an infinity (1e160) or calling a tiny column only constant (1e-210)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    s = rng.normal(size=300)
    s /= np.abs(s).max()  # max |s| = 1 exactly, so the scale is the column's largest value
    # partial_fit keeps accumulating: it reports at the first use of the statistics
    with pytest.raises(ValueError, match=rf"attribute 0 \(continuous\) .*{verdict}.*rescale"):
        fit(s * scale, X).transform(X)


@pytest.mark.parametrize("fit", [_dask_fit, _partial_fit])
@pytest.mark.parametrize("scale", [1e150, 1e-140, 1.0])
def test_streamed_fits_at_the_edges_of_the_summable_range_equal_the_in_memory_fit(fit, scale):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    s = rng.normal(size=300)
    s /= np.abs(s).max()
    X[:, 0] += s
    streamed = fit(s * scale, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        memory = FairPCA(2, sensitive_type="continuous").fit(X, sensitive_features=s)
    E = streamed.transform(X)
    assert abs(np.corrcoef(E[:, 0], s)[0, 1]) < 1e-10
    np.testing.assert_allclose(np.abs(streamed.components_), np.abs(memory.components_),
                               atol=1e-8)
