"""FairKernelProjection (Störck, Hinder and Hammer, 2026) against a dense computation of its
formula, on instances with offsets, scales, collinear and mixed sensitive columns.

The reference is written here from the paper's closed form, k_⊥ = K − KS̃(S̃ᵀKS̃)⁺S̃ᵀK with S̃
the centred sensitive columns, using NumPy's pseudo-inverse: nothing of fairlab's solver.
"""

import warnings

import numpy as np
import pytest
from scipy import linalg
from sklearn.svm import SVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairKernelPCA, FairKernelProjection, UnconstrainedFallbackWarning
from fairlab._core.kernels import kernel_matrix


def _instance(seed, *, n=60, d=4, offset=0.0, scale=1.0, collinear=False, mixed=False):
    """X (uncentred: an offset per column, column scales), and one to three sensitive columns
    that X depends on (age-like, income-like; optionally collinear or with a group column)."""
    rng = np.random.default_rng(seed)
    age = rng.uniform(18, 80, n)
    X = rng.normal(size=(n, d)) * scale * np.logspace(0, 1, d) + offset
    X[:, 0] += 0.05 * age * scale
    S = [age]
    if collinear:
        S.append(2.0 * age - 30.0)  # the same direction once centred
    if mixed:
        group = rng.integers(0, 3, n)
        X[:, 1] += group * scale
        import pandas as pd

        return X, pd.DataFrame({"age": age, "group": pd.Categorical(group)})
    return X, np.column_stack(S) if len(S) > 1 else age


def _dense_reference(X, S, gamma):
    """K − KS̃(S̃ᵀKS̃)⁺S̃ᵀK with S̃ the centred columns of S (categorical columns one-hot)."""
    import pandas as pd

    if isinstance(S, pd.DataFrame):
        S = np.column_stack([pd.get_dummies(S[c]).to_numpy(float) if S[c].dtype == "category"
                             else S[c].to_numpy(float)[:, None] for c in S]).reshape(len(S), -1)
    S = np.asarray(S, float).reshape(len(X), -1)
    St = S - S.mean(axis=0)
    K = kernel_matrix(X, kernel="rbf", gamma=gamma)
    M = np.linalg.pinv(St.T @ K @ St, rcond=1e-10, hermitian=True)
    return K, K - K @ St @ M @ St.T @ K, St


CASES = [
    dict(),
    dict(offset=1e3),
    dict(scale=1e-3),
    dict(scale=1e3, offset=50.0),
    dict(collinear=True),
    dict(mixed=True),
    dict(n=12, d=20),  # d > n
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items())
                         or "plain")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fair_kernel_equals_the_dense_formula_and_features_carry_no_covariance(case, seed):
    X, S = _instance(seed, **case)
    gamma = 1.0 / (X.shape[1] * X.var())
    kind = "auto" if case.get("mixed") else "continuous"
    proj = FairKernelProjection(gamma=gamma, sensitive_type=kind).fit(X, sensitive_features=S)
    K, reference, St = _dense_reference(X, S, gamma)
    scale = np.abs(K).max()
    assert np.abs(proj.fair_kernel(X) - reference).max() <= 1e-9 * scale
    Psi = proj.transform(X)
    assert np.abs(Psi @ Psi.T - reference).max() <= 1e-8 * scale
    # every feature has zero covariance with every sensitive column, at rounding level
    cov = (Psi - Psi.mean(axis=0)).T @ St
    norms = np.outer(np.linalg.norm(Psi, axis=0), np.linalg.norm(St, axis=0))
    assert np.abs(cov).max() <= 1e-9 * norms.max()
    assert proj.n_constraints_ == np.linalg.matrix_rank(St)


def test_out_of_sample_rows_use_the_same_kernel():
    X, age = _instance(3, n=80)
    X_new = X[:10] + 0.3
    proj = FairKernelProjection(gamma=0.1).fit(X, sensitive_features=age)
    Psi, Psi_new = proj.transform(X), proj.transform(X_new)
    np.testing.assert_allclose(Psi_new @ Psi.T, proj.fair_kernel(X_new, X), atol=1e-10)
    np.testing.assert_allclose(proj.fair_kernel(X_new, X), proj.fair_kernel(X, X_new).T,
                               atol=1e-12)
    # scikit-learn's kernel methods take the fair kernel as a precomputed one
    model = SVR(kernel="precomputed").fit(proj.fair_kernel(X), X[:, 2])
    assert model.predict(proj.fair_kernel(X_new, X)).shape == (10,)


def test_a_two_valued_column_gives_the_same_projection_as_continuous_and_categorical():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 3)) + 5.0
    s = rng.integers(0, 2, 50)
    X[:, 0] += s
    as_number = FairKernelProjection(gamma=0.2).fit(X, sensitive_features=s.astype(float))
    as_group = FairKernelProjection(gamma=0.2, sensitive_type="categorical").fit(
        X, sensitive_features=np.where(s == 1, "b", "a"))
    np.testing.assert_allclose(as_number.fair_kernel(X), as_group.fair_kernel(X), atol=1e-12)


def test_kernel_pca_of_the_fair_kernel_is_fair_kernel_pca():
    """Centred, K_⊥ is the matrix G of fair kernel PCA: the same eigenvalues."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(70, 3)) + 2.0
    z = rng.integers(0, 3, 70)
    X[:, 0] += z
    proj = FairKernelProjection(gamma=0.3, sensitive_type="categorical").fit(
        X, sensitive_features=z)
    H = np.eye(70) - 1.0 / 70
    ours = linalg.eigvalsh(H @ proj.fair_kernel(X) @ H)[::-1][:5]
    fkpca = FairKernelPCA(5, gamma=0.3, eigen_solver="dense").fit(X, sensitive_features=z)
    np.testing.assert_allclose(ours, fkpca.eigenvalues_, rtol=1e-9)


def test_nystroem_with_every_row_as_landmark_is_the_exact_projection():
    X, age = _instance(6, n=90)
    exact = FairKernelProjection(gamma=0.05).fit(X, sensitive_features=age)
    nys = FairKernelProjection(gamma=0.05, approximation="nystroem", n_landmarks=90).fit(
        X, sensitive_features=age)
    scale = np.abs(kernel_matrix(X, kernel="rbf", gamma=0.05)).max()
    assert np.abs(nys.fair_kernel(X) - exact.fair_kernel(X)).max() <= 1e-8 * scale
    Psi = nys.transform(X)
    cov = (Psi - Psi.mean(axis=0)).T @ (age - age.mean())
    assert np.abs(cov).max() <= 1e-9 * np.linalg.norm(Psi, axis=0).max() * np.linalg.norm(
        age - age.mean())
    few = FairKernelProjection(gamma=0.05, approximation="nystroem", n_landmarks=30).fit(
        X, sensitive_features=age)
    assert few.transform(X).shape == (90, few.n_components_) and few.n_components_ <= 29


def test_no_sensitive_features_warns_and_keeps_the_kernel():
    X, _ = _instance(7, n=40)
    with pytest.warns(UnconstrainedFallbackWarning):
        proj = FairKernelProjection(gamma=0.1).fit(X)
    np.testing.assert_allclose(proj.fair_kernel(X), kernel_matrix(X, kernel="rbf", gamma=0.1),
                               atol=1e-12)


@pytest.mark.parametrize("kwargs, sensitive, exc, match", [
    (dict(sensitive_type="continuous"), np.array(["a", "b"] * 20), TypeError, "non-numeric"),
    (dict(sensitive_type="ordinal"), np.arange(40.0), ValueError, "sensitive_type"),
    (dict(), np.r_[np.arange(39.0), np.nan], ValueError, "NaN"),
    (dict(), np.arange(30.0), ValueError, "40 rows"),
    (dict(kernel="precomputed"), np.arange(40.0), ValueError, "kernel"),
])
def test_bad_input_names_the_argument(kwargs, sensitive, exc, match):
    X, _ = _instance(8, n=40)
    with pytest.raises(exc, match=match):
        FairKernelProjection(**kwargs).fit(X, sensitive_features=sensitive)


def test_same_result_on_every_run_and_for_any_row_block():
    X, age = _instance(9, n=70)
    a = FairKernelProjection(gamma=0.1).fit(X, sensitive_features=age)
    b = FairKernelProjection(gamma=0.1).fit(X, sensitive_features=age)
    np.testing.assert_array_equal(a.transform(X), b.transform(X))
    np.testing.assert_allclose(a.transform(X[:7]), a.transform(X)[:7], atol=1e-12)


# scikit-learn's checks see the unconstrained fallback (they pass no sensitive_features); the
# constrained path is checked in tests/test_sklearn_constrained.py.
@parametrize_with_checks([FairKernelProjection(), FairKernelProjection(kernel="linear"),
                          FairKernelProjection(approximation="nystroem", n_landmarks=20)])
def test_sklearn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        check(estimator)


def test_one_type_per_column_equals_auto_on_a_mixed_frame():
    X, S = _instance(10, mixed=True)
    auto = FairKernelProjection(gamma=0.1, sensitive_type="auto").fit(X, sensitive_features=S)
    listed = FairKernelProjection(gamma=0.1, sensitive_type=["continuous", "categorical"]).fit(
        X, sensitive_features=S)
    np.testing.assert_allclose(auto.fair_kernel(X), listed.fair_kernel(X), atol=1e-12)
    assert auto.n_constraints_ == 3  # age and two of the three group indicators
