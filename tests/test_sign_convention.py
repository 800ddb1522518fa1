"""fairlab's sign convention, and where it still follows the last bits of a solver.

The largest-magnitude entry of every column is made positive.  When the largest positive and the
largest negative entry have the same magnitude (the loadings of collinear indicator columns are
±a), which one is larger by a few ulps follows the BLAS kernel.  ``column_signs(E, tie=...)``
breaks such a near tie by row order; the leakage audit uses it.  The estimators still use the
exact rule, because the results in the ledger were computed with it: on COMPAS, Fair PCA-S's first
component and LEACE's second flip between two OpenBLAS kernels (see ``column_signs``).
"""

import numpy as np
import pandas as pd

from fairlab._core.linalg import SIGN_TIE, column_signs, flip_signs
from fairlab.metrics import leakage


def test_a_near_tie_is_broken_by_row_order_whichever_entry_is_larger_by_ulps():
    a = 0.7071067811865476
    for wiggle in (-3e-16, 0.0, 3e-16):
        V = np.array([[0.1], [-(a + wiggle)], [a], [0.2]])
        assert column_signs(V, tie=SIGN_TIE)[0] == -1.0
        assert column_signs(-V, tie=SIGN_TIE)[0] == 1.0
    # the exact rule lets the last bits decide
    V = np.array([[0.1], [-a], [a + 3e-16]])
    assert column_signs(V)[0] == 1.0 and column_signs(V, tie=SIGN_TIE)[0] == -1.0
    # a clear maximum decides under both rules; a zero column gets +1
    W = np.array([[0.1], [-0.9], [0.5]])
    assert column_signs(W)[0] == column_signs(W, tie=SIGN_TIE)[0] == -1.0
    assert column_signs(np.zeros((3, 1)), tie=SIGN_TIE)[0] == 1.0
    assert flip_signs(W)[1, 0] == 0.9


def test_the_leakage_audit_does_not_see_a_column_sign():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 300)
    Z = rng.normal(size=(300, 3)) + np.c_[0.5 * s, s ** 2, np.zeros(300)]
    flipped = Z * np.array([-1.0, 1.0, -1.0])
    options = dict(adversaries=("logistic", "gradient_boosting"), tests=(), n_bootstrap=50)
    pd.testing.assert_frame_equal(leakage(Z, s, **options), leakage(flipped, s, **options))
