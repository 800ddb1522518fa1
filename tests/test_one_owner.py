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


# --------------------------------------------------------------------------------------------
# One owner per decision: each rule below has one definition in fairlab._core, and the
# estimators, baselines and metrics that apply it give the same answer as that definition.
# --------------------------------------------------------------------------------------------
def test_the_rounding_floor_of_a_gram_matrix_has_one_owner():
    from fairlab._core.constraints import component_floor
    from fairlab._core.linalg import centred_gram_factor, gram_rounding_floor

    assert gram_rounding_floor(7, 0.5) == 4.0 * 7 * 0.5
    # without a constraint, the floor of fair kernel PCA / the projection is the Gram floor
    assert component_floor(50, 1e-16, 3.0, np.zeros((3, 0))) == gram_rounding_floor(50, 1e-16)
    # centred_gram_factor keeps no eigenvalue at or below it
    Kc = np.diag([1.0, 4.0 * 3 * 0.25, 0.0])
    w, _ = centred_gram_factor(Kc, 3, unit=0.25)
    assert np.all(w > gram_rounding_floor(3, 0.25))


def test_the_pls_stopping_rule_and_tolerance_have_one_owner():
    import inspect

    from fairlab import FairPLS, KernelFairPLS
    from fairlab import pls as pls_module
    from fairlab._core.pls_steps import TOL, stops_at

    for f in (FairPLS.__init__, pls_module._fit_components, pls_module._components,
              pls_module._fit_components_from_moments):
        assert inspect.signature(f).parameters["tol"].default == TOL
    with pytest.warns(UserWarning, match="component 2: no direction has a positive objective"):
        assert stops_at(0.0, 1e-20, 2, 10, 4, "η‖Sᵀt‖²", stacklevel=1)
    assert not stops_at(1.0, 1e-20, 2, 10, 4, "η‖Sᵀt‖²", stacklevel=1)
    # y a function of the attribute only, hard constraint: both stop at component 0 by that rule
    rng = np.random.default_rng(3)
    z = rng.integers(0, 2, 60).astype(float)
    X = np.column_stack([z, rng.standard_normal(60)])
    y = z.copy()
    for est in (FairPLS(1, eta=np.inf), KernelFairPLS(1, eta=np.inf, kernel="linear")):
        with pytest.warns(UserWarning, match="component 0: no direction has a positive objective"):
            est.fit(X[:, :1], y, sensitive_features=z)


def _transformers():
    from fairlab import (
        FairDR,
        FairKernelPCA,
        FairKernelProjection,
        FairPCA,
        FairPLS,
        KernelFairDR,
        KernelFairPLS,
    )
    from fairlab.baselines import LEACE, SAL

    return [FairPCA(2), FairKernelPCA(2), FairKernelPCA(2, kernel="linear"),
            FairKernelProjection(), FairPLS(2), KernelFairPLS(2), FairDR(2), KernelFairDR(2),
            LEACE(), SAL()]


@pytest.mark.parametrize("est", _transformers(), ids=lambda e: type(e).__name__)
def test_one_transform_dtype_policy(est):
    from fairlab._core.validation import TRANSFORM_DTYPE

    rng = np.random.default_rng(4)
    z = rng.integers(0, 2, 80)
    X = (rng.standard_normal((80, 4)) + z[:, None]).astype(np.float32).astype(np.float64)
    y = X[:, 0] + z
    est.fit(X, y, sensitive_features=z)
    ours = est.transform(X)
    for dtype in (np.float32, np.float16):
        if np.all(X.astype(dtype) == X) or dtype is np.float32:
            out = est.transform(X.astype(dtype))
            assert out.dtype == TRANSFORM_DTYPE
            np.testing.assert_array_equal(out, ours)  # the conversion is exact
    assert est.__sklearn_tags__().transformer_tags.preserves_dtype == ["float64"]


def test_one_solver_vocabulary():
    from fairlab._core.linalg import SVD_SOLVER_NAMES, eigen_solver_name, svd_solver_name

    for core, svd in SVD_SOLVER_NAMES.items():
        assert svd_solver_name(core) == svd and eigen_solver_name(svd) == core
    for shared in ("arpack", "randomized", "auto"):
        assert svd_solver_name(shared) == eigen_solver_name(shared) == shared
    rng = np.random.default_rng(5)
    z = rng.integers(0, 2, 200)
    X = rng.standard_normal((200, 8)) + z[:, None]
    for kwargs in ({}, {"svd_solver": "full"}, {"equalize_covariance": 4},
                   {"svd_solver": "randomized", "random_state": 0}):
        assert FairPCA(2, **kwargs).fit(X, sensitive_features=z).solver_ in (
            "full", "arpack", "randomized")
    nys = FairKernelPCA(2, approximation="nystroem", n_landmarks=60).fit(X, sensitive_features=z)
    assert nys.solver_ == eigen_solver_name(nys.fair_pca_.solver_)


def test_gamma_none_has_one_meaning_per_name():
    from scipy.spatial.distance import pdist

    from fairlab import FairKernelPCA
    from fairlab._core.kernels import resolve_gamma
    from fairlab.metrics import hsic

    rng = np.random.default_rng(6)
    X = rng.standard_normal((40, 3))
    s = rng.integers(0, 2, 40)
    # the estimators: gamma=None is 1/(d·Var(X))
    kpca = FairKernelPCA(2).fit(X, sensitive_features=s)
    assert kpca.gamma_ == resolve_gamma(X, None) == 1.0 / (3 * np.var(X))
    # the metrics: gamma="median" (the default) is the median heuristic; None is its alias
    median = 1.0 / np.median(pdist(X, "sqeuclidean"))
    assert hsic(X, s, kernel="rbf") == hsic(X, s, kernel="rbf", gamma="median") \
        == hsic(X, s, kernel="rbf", gamma=median)
    with pytest.warns(FutureWarning, match="median"):
        assert hsic(X, s, kernel="rbf", gamma=None) == hsic(X, s, kernel="rbf")


def test_top_k_pca_has_one_owner():
    from scipy.spatial.distance import pdist

    from fairlab._core.linalg import top_principal_axes
    from fairlab.metrics import lee_bandwidth

    rng = np.random.default_rng(7)
    for shape in ((50, 6), (8, 20)):  # the eigh route and the SVD route
        X = rng.standard_normal(shape)
        Xc = X - X.mean(axis=0)
        V = top_principal_axes(Xc, 3)
        np.testing.assert_allclose(V.T @ V, np.eye(3), atol=1e-12)
        assert lee_bandwidth(X, 3) == float(np.sqrt(np.median(pdist(Xc @ V, "sqeuclidean"))
                                                    / 2.0))


def test_equal_opportunity_parses_the_sensitive_columns_once(monkeypatch):
    import pandas as pd

    from fairlab._core import validation

    calls = []
    parse = validation._as_2d_columns

    def counting(*args, **kwargs):
        calls.append(1)
        return parse(*args, **kwargs)

    monkeypatch.setattr(validation, "_as_2d_columns", counting)
    rng = np.random.default_rng(8)
    z = pd.Categorical(rng.choice(["a", "b", "c"], 300))
    y = rng.integers(0, 2, 300)
    X = rng.standard_normal((300, 5)) + np.asarray(z.codes)[:, None]
    eo = FairPCA(2, fairness="equal_opportunity").fit(X, y, sensitive_features=z)
    assert len(calls) == 1
    # the same fit as demographic parity on the positive rows
    dp = FairPCA(2).fit(X[y == 1], sensitive_features=z[y == 1])
    np.testing.assert_array_equal(eo.components_, dp.components_)


def test_no_estimator_imports_another_estimators_private_names():
    import ast
    from pathlib import Path

    estimators = {"pca", "kernel_pca", "pls", "kernel_pls", "hsic_regression", "hsic_reduction",
                  "kernel_projection", "tradeoff"}
    root = Path(__file__).resolve().parents[1] / "fairlab"
    borrowed = []
    for name in sorted(estimators):
        for node in ast.walk(ast.parse((root / f"{name}.py").read_text())):
            if (isinstance(node, ast.ImportFrom) and node.level == 1
                    and node.module in estimators - {name}):
                borrowed += [f"{name} <- {node.module}.{a.name}" for a in node.names
                             if a.name.startswith("_")]
    assert not borrowed
