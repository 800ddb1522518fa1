"""The one place where ranks are decided: structural constraint columns and the rounding rule.

* :meth:`SensitiveGroups.independent_columns` is exact (integer elimination), checked against
  a dense rank computation on small instances, including collinear attributes;
* :func:`constraint_basis` keeps a direction exactly when it lies above the rounding bound of
  the product, tested on both sides of the threshold.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import linalg

from fairlab._core.kernels import kernel_matrix_is_new
from fairlab._core.linalg import (
    GramSum,
    center_cross_gram,
    centred_gram_factor,
    complement_basis,
    constraint_basis,
    gram,
    lower_gram,
    subspace_sine,
    symmetric_product,
    symmetric_rank_2k_update,
    symmetric_rank_k_update,
    symmetric_rank_one_update,
    top_eigh,
)
from fairlab._core.validation import check_continuous_sensitive, check_groups

EPS = np.finfo(float).eps


# ------------------------------------------------------------------ structural constraint rank
def _dense_rank(Z):
    # independent reference: SVD of the centred one-hot matrix, whose entries are O(1) and
    # whose non-zero singular values are >= 1/sqrt(n) here, far above any rounding
    return int(np.sum(linalg.svdvals(Z) > 1e-8))


@pytest.mark.parametrize("m", [2, 3, 7])
def test_one_attribute_has_m_minus_one_contrasts(m):
    codes = np.arange(40) % m
    groups = check_groups(codes, 40)
    assert groups.n_constraints == m - 1
    np.testing.assert_array_equal(groups.independent_columns, np.arange(m - 1))
    Zc = groups.contrasts()
    assert Zc.shape == (40, m - 1)
    # same span as all m centred columns
    assert subspace_sine(Zc, groups.one_hot(center=True)) < 1e-12


def test_collinear_attributes_are_detected_exactly():
    a = np.arange(60) % 4
    cases = {
        "duplicate": (np.c_[a, a], 3),
        "coarsening": (np.c_[a, a % 2], 3),
        "two coarsenings": (np.c_[a, a % 2, a // 2], 3),
        "relabelled copy": (np.c_[a, (a + 1) % 4 * 10], 3),
        "independent": (np.c_[a, np.arange(60) % 3], 3 + 2),
        # only the combinations (0,0), (1,1) occur: the second attribute equals the first
        "sparse table": (np.c_[np.arange(60) % 2, np.arange(60) % 2], 1),
    }
    for name, (codes, expected) in cases.items():
        groups = check_groups(codes, len(codes))
        assert groups.n_constraints == expected, name
        assert _dense_rank(groups.one_hot(center=True)) == expected, name
        assert _dense_rank(groups.contrasts()) == expected, name


def test_independent_columns_agree_with_dense_rank_on_random_tables():
    rng = np.random.default_rng(0)
    for _ in range(60):
        n = int(rng.integers(6, 40))
        n_attr = int(rng.integers(2, 4))
        codes = np.column_stack([rng.integers(0, int(rng.integers(2, 5)), n)
                                 for _ in range(n_attr)])
        if rng.random() < 0.5:  # make one attribute a function of another
            codes[:, -1] = (codes[:, 0] * 7 + 3) % 5
        if any(len(np.unique(c)) < 2 for c in codes.T):
            continue
        groups = check_groups(codes, n)
        Z = groups.one_hot(center=True)
        assert groups.n_constraints == _dense_rank(Z)
        assert _dense_rank(groups.contrasts()) == groups.n_constraints
        assert subspace_sine(groups.contrasts(), Z) < 1e-10


def test_continuous_sensitive_marks_one_redundant_indicator_per_attribute():
    frame = pd.DataFrame({"group": ["a", "b", "c"] * 4, "age": np.arange(12.0)})
    S, independent = check_continuous_sensitive(frame, 12, return_independent=True)
    assert S.shape == (12, 4)
    np.testing.assert_array_equal(independent, [True, True, False, True])


# -------------------------------------------------------------------- the rounding-bound rule
def _product_with_noise(relative_noise, seed=0, n=500, p=8, offset=1e3):
    """A = FᵀG with an exactly rank-1 product plus noise of a chosen size relative to the bound.

    F has large offsets and mixed column scales; G = [g, g] so that the exact A has rank 1.
    The noise added to the second column has entries ``relative_noise`` times the rounding
    bound n·eps·‖F_k‖‖G_j‖ of each entry.
    """
    rng = np.random.default_rng(seed)
    F = (rng.normal(size=(n, p)) + offset) * np.logspace(-3, 3, p)
    g = rng.normal(size=n)
    G = np.c_[g, g]
    A = F.T @ G
    A[:, 1] = A[:, 0]  # exactly rank 1 before the noise
    fn, gn = np.linalg.norm(F, axis=0), np.linalg.norm(G, axis=0)
    bound = n * EPS * np.outer(fn, gn)
    A[:, 1] += relative_noise * bound[:, 1] * rng.choice([-1.0, 1.0], size=p)
    return A, fn, gn, n


def test_constraint_basis_ignores_rounding_sized_directions():
    # noise at 0.1 of the per-entry bound: indistinguishable from rounding -> rank 1
    A, fn, gn, n = _product_with_noise(0.1)
    Q = constraint_basis(A, fn, gn, n_terms=n)
    assert Q.shape[1] == 1
    assert subspace_sine(Q, A[:, :1]) < 1e-10


def test_constraint_basis_keeps_directions_above_the_bound():
    # noise at 10·√(p r) of the per-entry bound: clearly resolved -> rank 2
    A, fn, gn, n = _product_with_noise(10 * np.sqrt(8 * 2))
    Q = constraint_basis(A, fn, gn, n_terms=n)
    assert Q.shape[1] == 2
    np.testing.assert_allclose(Q.T @ Q, np.eye(2), atol=1e-14)
    assert subspace_sine(Q, A) < 1e-10


def test_constraint_basis_full_rank_uses_the_columns_themselves():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(10, 3))
    Q = constraint_basis(A, np.ones(10), np.ones(3), n_terms=100)
    assert Q.shape == (10, 3)
    assert subspace_sine(Q, A) < 1e-14
    assert constraint_basis(np.zeros((5, 0)), np.ones(5), np.ones(0), 10).shape == (5, 0)


def test_complement_basis_is_exact_orthogonal_complement():
    rng = np.random.default_rng(2)
    Q = linalg.qr(rng.normal(size=(9, 3)), mode="economic")[0]
    R = complement_basis(Q)
    assert R.shape == (9, 6)
    np.testing.assert_allclose(np.c_[Q, R].T @ np.c_[Q, R], np.eye(9), atol=1e-14)
    np.testing.assert_array_equal(complement_basis(np.zeros((4, 0))), np.eye(4))


def test_centred_gram_factor_drops_structural_zeros():
    # 3 distinct points repeated: the centred Gram matrix has rank 2 by construction
    S = np.repeat(np.array([[0.0], [1.0], [3.0]]), 10, axis=0)
    K = np.exp(-((S - S.T) ** 2))
    n = K.shape[0]
    H = np.eye(n) - 1.0 / n
    w, V = centred_gram_factor(H @ K @ H, n_distinct=3)
    assert w.shape == (2,)
    np.testing.assert_allclose((V * w) @ V.T, H @ K @ H, atol=1e-12)


@pytest.mark.parametrize("random_state", [None, 0])
def test_top_eigh_is_deterministic_and_matches_dense(random_state):
    rng = np.random.default_rng(3)
    U = linalg.qr(rng.normal(size=(700, 700)))[0]
    spectrum = np.r_[np.linspace(1.0, 2.0, 695), 10.0 + np.arange(5)]
    M = (U * spectrum) @ U.T
    ref = linalg.eigh(M, subset_by_index=[695, 699])[0][::-1]
    runs = [top_eigh(M, 5, solver="arpack", random_state=random_state) for _ in range(2)]
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    np.testing.assert_allclose(runs[0][0], ref, rtol=1e-10)


def test_product_tables_are_small():
    # the exact elimination runs on the (1 + Σm)² co-occurrence matrix, never on n rows
    codes = np.array(list(itertools.product(range(6), range(5), range(4))) * 50)
    groups = check_groups(codes, len(codes))
    assert groups.n_constraints == 5 + 4 + 3


# ------------------------------------------------ symmetric kernels that read one triangle only
def _poisoned_upper(S, order):
    """S with NaN above the diagonal: a kernel that reads the upper triangle returns NaN."""
    M = np.array(S, order=order)
    M[np.triu_indices_from(M, 1)] = np.nan
    return M


@pytest.mark.parametrize("order", ["C", "F"])
def test_symmetric_kernels_read_and_write_the_lower_triangle_only(order):
    rng = np.random.default_rng(5)
    A = rng.normal(size=(30, 9)) + 100.0
    S, Q, D, x = A.T @ A, rng.normal(size=(9, 2)), rng.normal(size=(9, 2)), rng.normal(size=9)
    np.testing.assert_allclose(symmetric_product(_poisoned_upper(S, order), Q), S @ Q,
                               rtol=1e-13)
    lower = np.tril_indices(9)
    M = symmetric_rank_one_update(_poisoned_upper(S, order), -2.5, x)
    np.testing.assert_allclose(M[lower], (S - 2.5 * np.outer(x, x))[lower], rtol=1e-13)
    M = symmetric_rank_2k_update(_poisoned_upper(S, order), -1.0, Q, D)
    np.testing.assert_allclose(M[lower], (S - Q @ D.T - D @ Q.T)[lower], rtol=1e-13)
    M = symmetric_rank_k_update(_poisoned_upper(S, order), -1.0, Q)
    np.testing.assert_allclose(M[lower], (S - Q @ Q.T)[lower], rtol=1e-13)
    np.testing.assert_allclose(lower_gram(A)[lower], S[lower], rtol=1e-13)
    np.testing.assert_array_equal(np.triu(lower_gram(A), 1), 0.0)


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_top_eigh_reads_the_lower_triangle_only(solver, order):
    rng = np.random.default_rng(6)
    U = linalg.qr(rng.normal(size=(300, 300)))[0]
    S = (U * np.r_[np.linspace(0.0, 1.0, 296), 20.0, 30.0, 40.0, 50.0]) @ U.T
    w, V = top_eigh(_poisoned_upper(S, order), 3, solver=solver)
    ref_w, ref_V = top_eigh(S, 3, solver="dense")
    np.testing.assert_allclose(w, ref_w, rtol=1e-9)
    assert subspace_sine(V, ref_V) < 1e-8


def test_gram_is_exactly_symmetric_and_agrees_with_the_product():
    rng = np.random.default_rng(7)
    for A in (rng.normal(size=(500, 40)) * np.logspace(-3, 3, 40), rng.normal(size=(40, 500))):
        for layout in (np.ascontiguousarray(A), np.asfortranarray(A), A[:, ::2]):
            G = gram(layout)
            np.testing.assert_array_equal(G, G.T)
            np.testing.assert_allclose(G, layout.T @ layout, rtol=1e-12,
                                       atol=1e-13 * np.abs(layout).max() ** 2 * len(layout))
    assert gram(np.zeros((0, 3))).shape == (3, 3)


def test_gram_sum_of_row_blocks_equals_the_whole():
    rng = np.random.default_rng(8)
    A = rng.normal(size=(1000, 12))
    sums = GramSum(12)
    for start in (0, 1, 300, 999):  # blocks of 1, 299, 699 and 1 rows, one empty
        sums.add(A[start : {0: 1, 1: 300, 300: 999, 999: 1000}[start]])
    sums.add(A[:0])
    lower = np.tril_indices(12)
    np.testing.assert_allclose(sums.lower()[lower], (A.T @ A)[lower], rtol=1e-12)
    np.testing.assert_array_equal(np.triu(sums.lower(), 1), 0.0)
    assert np.all(GramSum(4).lower() == 0.0)


# ------------------------------------------------------------------ centring without copies
@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_cross_gram_centred_in_place_is_bitwise_the_copy(offset):
    # the in-place route must not change a single bit of any kernel method's transform
    rng = np.random.default_rng(0)
    K_fit = rng.normal(offset, 3.0, size=(40, 40))
    K_new = rng.normal(offset, 3.0, size=(17, 40))
    means, mean = K_fit.mean(axis=0), float(K_fit.mean())
    expected = center_cross_gram(K_new, means, mean)
    work = K_new.copy()
    out = center_cross_gram(work, means, mean, overwrite=True)
    assert out is work
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(expected, K_new - K_new.mean(axis=1)[:, None] - means + mean)


def test_cross_gram_overwrite_leaves_other_dtypes_and_user_matrices_alone():
    K32 = np.arange(12, dtype=np.float32).reshape(3, 4)
    before = K32.copy()
    out = center_cross_gram(K32, np.ones(4), 1.0, overwrite=True)
    assert out is not K32 and out.dtype == np.float64
    np.testing.assert_array_equal(K32, before)
    assert not kernel_matrix_is_new("precomputed")
    assert kernel_matrix_is_new("rbf") and kernel_matrix_is_new(lambda a, b: a @ b.T)
