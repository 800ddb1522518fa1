"""Conventions and facts that live in one place: signs, kernel facts, integer checks."""

import numpy as np
import pytest

from fairlab import FairKernelPCA, FairPCA
from fairlab._core.kernels import (
    POLY_COEF0,
    POLY_DEGREE,
    entry_rounding_unit,
    indefinite_reason,
    is_psd_kernel,
    kernel_diagonal,
    kernel_matrix,
)
from fairlab._core.linalg import column_signs, flip_signs, signs_of_extremes
from fairlab._core.validation import check_int


def test_column_signs_make_the_largest_entry_positive():
    rng = np.random.default_rng(0)
    V = rng.standard_normal((20, 6))
    V[:, 2] = 0.0
    signs = column_signs(V)
    flipped = flip_signs(V)
    np.testing.assert_array_equal(flipped, V * signs)
    rows = np.argmax(np.abs(flipped), axis=0)
    assert np.all(flipped[rows, np.arange(6)] >= 0)
    assert signs[2] == 1.0
    # the blockwise form agrees wherever the maximum magnitude is not tied
    np.testing.assert_array_equal(signs_of_extremes(V.max(axis=0), V.min(axis=0)), signs)


def test_kernel_facts():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((15, 3))
    for kernel in ("rbf", "linear", "poly", "cosine"):
        K = kernel_matrix(X, kernel=kernel, gamma=0.3)
        np.testing.assert_allclose(kernel_diagonal(X, kernel, 0.3), np.diag(K), rtol=1e-12)
        assert is_psd_kernel(kernel) and indefinite_reason(kernel) is None
    assert kernel_diagonal(X, "sigmoid", 0.3) is None
    assert not is_psd_kernel("sigmoid") and "sigmoid" in indefinite_reason("sigmoid")
    assert not is_psd_kernel("poly", degree=2.5) and not is_psd_kernel("poly", coef0=-1)
    assert not is_psd_kernel(lambda a, b: a @ b.T) and not is_psd_kernel("precomputed")
    assert (POLY_DEGREE, POLY_COEF0) == (3, 1.0)  # scikit-learn's defaults
    eps = np.finfo(float).eps
    assert entry_rounding_unit(kernel_matrix(X, kernel="rbf", gamma=1.0), "rbf") == eps
    K = kernel_matrix(X, kernel="linear")
    assert entry_rounding_unit(K, "linear") == eps * np.abs(K).max()


@pytest.mark.parametrize(
    "value, kwargs, ok",
    [(3, {}, True), (np.int64(3), {}, True), (0, {}, False), (True, {}, False), (2.0, {}, False),
     (None, {"allow_none": True}, True), (None, {}, False), (0, {"minimum": 0}, True),
     (8, {"minimum": 0, "maximum": 7}, False)],
)
def test_check_int(value, kwargs, ok):
    if ok:
        assert check_int(value, "n", **kwargs) == value
    else:
        with pytest.raises(ValueError, match="n must be"):
            check_int(value, "n", **kwargs)


def test_fair_pca_reports_its_constraints_and_kernel_pca_reads_them():
    rng = np.random.default_rng(2)
    z = rng.integers(0, 3, 300)
    X = rng.standard_normal((300, 6)) + z[:, None]
    assert FairPCA(2).fit(X, sensitive_features=z).n_constraints_ == 2
    with pytest.warns(UserWarning):
        assert FairPCA(2).fit(X).n_constraints_ == 0
    nys = FairKernelPCA(2, approximation="nystroem", n_landmarks=50)
    nys.fit(X, sensitive_features=z)
    assert nys.n_constraints_ == nys.fair_pca_.n_constraints_ == 2
