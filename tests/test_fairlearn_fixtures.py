"""fairlearn's own CorrelationRemover fixtures as golden tests of fairlab's oracle eraser.

The inputs and expected outputs below are the literal fixtures of fairlearn's tests
(``test/unit/preprocessing/linear_dep_remover/test_sklearn_compat.py``: ``test_linear_dependence``,
``test_correlation_remover_handles_alpha``, ``test_correlation_remover_handles_default_sensitive_
features``), written by fairlearn's developers, not derived here.  fairlab's ``OracleLEACE`` is the
same residual with the sensitive column passed as ``sensitive_features`` instead of as a column
of X (fairlab.baselines.leace): fitted on the other columns it must reproduce each fixture, and
fairlearn's CorrelationRemover, as installed, must still produce it (so the fixture is read right).
fairlearn's ``alpha`` has no counterpart in fairlab: its use is the convex combination
α·r(X) + (1 − α)·X of the erased and the raw columns.  The alpha fixture's sensitive column is a
number with one row per value, which fairlab's group-based eraser refuses (tested).
"""

import numpy as np
import pandas as pd
import pytest
from fairlearn.preprocessing import CorrelationRemover

from fairlab import UnconstrainedFallbackWarning
from fairlab.baselines.leace import LEACE, OracleLEACE

# test_linear_dependence: column 0 (or "a") is sensitive
DEPENDENCE_X = np.array([[0, 0, 1, 1], [1, 1, 2, 2], [0.1, 0.2, 1.2, 1.1]]).T
DEPENDENCE_EXPECTED = np.array([[1.5, 0.6], [1.5, 0.7], [1.5, 0.7], [1.5, 0.6]])

# test_correlation_remover_handles_alpha: column 0 is sensitive
ALPHA_X = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
ALPHA_EXPECTED = {
    0.0: np.array([[2, 3], [5, 6], [8, 9]]),
    0.5: np.array([[3.5, 4.5], [5, 6], [6.5, 7.5]]),
    1.0: np.array([[5, 6], [5, 6], [5, 6]]),
}


@pytest.mark.parametrize("frame", [False, True])
def test_linear_dependence_fixture(frame):
    X = pd.DataFrame(DEPENDENCE_X, columns=["a", "b", "c"]) if frame else DEPENDENCE_X
    ids = ("a",) if frame else [0]
    np.testing.assert_array_almost_equal(
        DEPENDENCE_EXPECTED, CorrelationRemover(sensitive_feature_ids=ids).fit_transform(X))
    if frame:
        sensitive, rest = X["a"], X[["b", "c"]]
    else:
        sensitive, rest = X[:, 0], X[:, 1:]
    oracle = OracleLEACE().fit(rest, sensitive_features=sensitive)
    out = oracle.transform(rest, sensitive_features=sensitive)
    np.testing.assert_array_almost_equal(DEPENDENCE_EXPECTED, out)
    np.testing.assert_allclose(out, DEPENDENCE_EXPECTED, rtol=0, atol=1e-14)
    # column "b" is 1 + s: s is a linear function of the other columns, so LEACE, a map of x
    # alone, reaches the oracle's residual; with "b" dropped it cannot (s is then unobserved)
    leace = LEACE().fit_transform(rest, sensitive_features=sensitive)
    np.testing.assert_allclose(leace, DEPENDENCE_EXPECTED, rtol=0, atol=1e-14)
    c = np.asarray(rest)[:, 1:]
    assert np.abs(LEACE().fit_transform(c, sensitive_features=sensitive)
                  - DEPENDENCE_EXPECTED[:, 1:]).max() > 0.01


@pytest.mark.parametrize("alpha", sorted(ALPHA_EXPECTED))
def test_alpha_fixture(alpha):
    """fairlearn's fixture holds; fairlab cannot take its input.  Its sensitive column
    (1, 4, 7) is a number, one row per value: OracleLEACE reads attributes as groups and
    refuses groups of one row, naming the fix; it has no continuous attribute (fairlearn's
    regression on the column is the continuous reading)."""
    np.testing.assert_array_almost_equal(
        ALPHA_EXPECTED[alpha],
        CorrelationRemover(sensitive_feature_ids=[0], alpha=alpha).fit_transform(ALPHA_X))
    with pytest.raises(ValueError, match="has 1 row.*merge it with another group"):
        OracleLEACE().fit(ALPHA_X[:, 1:], sensitive_features=ALPHA_X[:, 0])


def test_alpha_as_a_convex_combination():
    """The use that the alpha fixture pins, on the dependence fixture's data: fairlearn's
    output at α equals α·r(X) + (1 − α)·X with fairlab's residual r."""
    rest, sensitive = DEPENDENCE_X[:, 1:], DEPENDENCE_X[:, 0]
    erased = OracleLEACE().fit_transform(rest, sensitive_features=sensitive)
    for alpha in sorted(ALPHA_EXPECTED):
        expected = CorrelationRemover(sensitive_feature_ids=[0], alpha=alpha).fit_transform(
            DEPENDENCE_X)
        np.testing.assert_allclose(alpha * erased + (1 - alpha) * rest, expected, rtol=0,
                                   atol=1e-14)


def test_default_sensitive_features_fixture():
    """No sensitive column: fairlearn returns X unchanged, fairlab the identity (with its
    warning that nothing was erased)."""
    np.testing.assert_array_equal(ALPHA_X, CorrelationRemover().fit_transform(ALPHA_X))
    with pytest.warns(UnconstrainedFallbackWarning):
        out = OracleLEACE().fit(ALPHA_X).transform(ALPHA_X)
    np.testing.assert_array_equal(ALPHA_X, out)
