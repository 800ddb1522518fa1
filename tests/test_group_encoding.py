"""The group encoding of check_groups: the sort-free fast path equals np.unique on every dtype."""

import numpy as np
import pandas as pd
import pytest

from fairlab._core.validation import _encode, check_groups, encode_sensitive

RNG = np.random.default_rng(0)


def _columns():
    yield "bool", RNG.random(50) < 0.3
    yield "int 0/1", RNG.integers(0, 2, 200)
    yield "int8 wide", RNG.integers(-128, 128, 300).astype(np.int8)  # col − min overflows int8
    yield "uint8", RNG.integers(250, 256, 40).astype(np.uint8)
    yield "uint64 large", np.array([2**63 + 5, 2**63 + 1, 2**63 + 5], dtype=np.uint64)
    yield "int64 extremes", np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0])
    yield "int gaps", RNG.choice([-7, 3, 1000], size=100)
    yield "int sparse", RNG.integers(-10**9, 10**9, 64)  # range ≫ n: sorted path
    yield "int one value", np.full(5, 4)
    yield "float integral", RNG.integers(0, 4, 100).astype(float)
    yield "float negative integral", RNG.choice([-2.0, 5.0, 0.0], size=30)
    yield "float fractional", RNG.choice([0.5, 1.25, -3.0], size=30)
    yield "float huge", np.array([1e300, -1e300, 1e300])
    yield "float 2^53", np.array([2.0**53, 2.0**53 + 2, 0.0])
    yield "strings", RNG.choice(["b", "a", "c"], size=20)
    yield "objects", np.array(["x", 3, "x", 3], dtype=object)[[0, 2]]
    yield "int strided", RNG.integers(0, 3, (60, 2))[:, 1]


@pytest.mark.parametrize("name, col", list(_columns()), ids=[n for n, _ in _columns()])
def test_encode_equals_unique(name, col):
    labels, inverse, counts = _encode(col)
    ref_labels, ref_inverse, ref_counts = np.unique(col, return_inverse=True, return_counts=True)
    assert labels.dtype == ref_labels.dtype
    np.testing.assert_array_equal(labels, ref_labels)
    np.testing.assert_array_equal(inverse.reshape(-1), ref_inverse.reshape(-1))
    np.testing.assert_array_equal(counts, ref_counts)


def test_check_groups_codes_and_categories_from_integers():
    z = np.array([5, 2, 5, 9, 2, 2])
    groups = check_groups(z, 6)
    np.testing.assert_array_equal(groups.categories[0], [2, 5, 9])
    np.testing.assert_array_equal(groups.codes[:, 0], [1, 0, 1, 2, 0, 0])


def test_check_groups_rejects_nan_in_float_labels():
    with pytest.raises(ValueError, match="missing values"):
        check_groups(np.array([0.0, np.nan, 1.0]), 3)


@pytest.mark.parametrize("values", [
    np.array([7, 3, 100, 3, 7, 7], dtype=np.int64),
    np.array([2, 0, 2, 1, 0], dtype=np.uint8),
    np.array([-5, 4, -5, 4], dtype=np.int16),
    np.array([True, False, False, True, True]),
])
def test_integer_and_boolean_groups_encode_as_sorted_factorisation(values):
    # encode_sensitive reads integers and booleans as groups by one O(n) lookup; the columns
    # must be those of pandas' sorted factorisation, which other label types still use
    codes, labels = pd.factorize(values, sort=True)
    encoded = encode_sensitive(values)
    if len(labels) == 2:
        expected = (codes == 1).astype(float)[:, None]
    else:
        expected = np.eye(len(labels))[codes]
    np.testing.assert_array_equal(encoded.matrix, expected)
    assert encoded.n_groups == [len(labels)]
