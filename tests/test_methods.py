"""The registry of the experiments' methods: every entry builds and fits, each protocol's list is
the experiment's printed list, and a setting lives in the registry alone."""

import dataclasses
import importlib.util
import warnings

import numpy as np
import pytest
from sklearn.base import clone

from fairlab import baselines, published
from fairlab.experiments import (
    de_diego,
    kleindessner,
    kleindessner_tradeoffs,
    methods,
    perez_suay,
)


def _instance(n_features=6, n=80, seed=0):
    rng = np.random.default_rng(seed)
    s = np.repeat([0.0, 1.0], n // 2)
    X = rng.normal(size=(n, n_features)) + 0.5 * s[:, None]
    y = (X[:, 0] + 0.3 * rng.normal(size=n) > 0.25).astype(float)
    return X, y, s


def _fast(name):
    # the papers' outer iterations (RLACE's 10 000, MbF-PCA's penalty path) are not what this
    # test is about
    if name == "RLACE":
        return {"max_iter": 200}
    return {"max_iter": 5} if name.startswith("MbF-PCA") else {}


@pytest.mark.parametrize("name", methods.names())
def test_every_entry_builds_a_fitting_estimator(name):
    method = methods.get(name)
    X, y, s = _instance()
    if name in methods.names(methods.KLEINDESSNER_REFERENCE):
        try:
            estimator = method.build(2, dataset="german", split=0)
        except FileNotFoundError as error:
            pytest.skip(f"Lee et al.'s saved loadings are not available here: {error}")
        X, y, s = _instance(n_features=len(estimator.components[0]))
    else:
        estimator = method.build(2, **_fast(name))
    if getattr(estimator, "solver", None) in ("scs", "clarabel") \
            and importlib.util.find_spec("cvxpy") is None:
        pytest.skip(f"{name} solves its program with cvxpy, which is not installed")
    if method.kind == "reduction" and importlib.util.find_spec("fairlearn") is None:
        pytest.skip("the reductions run fairlearn, which is not installed")
    clone(estimator)
    args = (X, y) if method.supervised else (X,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence notes of tiny instances
        fitted = (estimator.fit(*args, sensitive_features=s) if method.sensitive
                  else estimator.fit(*args))
    out = fitted.transform(X) if hasattr(fitted, "transform") else fitted.predict(X)
    assert len(out) == len(X) and np.all(np.isfinite(out))
    if name == kleindessner.SAMADI_METHOD + methods.REFERENCE_CODE_SUFFIX:
        assert np.shape(out)[1] == X.shape[1]  # the reference code's d-dimensional map
    elif hasattr(fitted, "transform") and method.kind != "reduction":
        assert np.shape(out)[1] <= 2


def test_the_protocols_are_the_printed_lists():
    tables = list(dict.fromkeys(published.table(kleindessner.PAPER, "table1")["method"]))
    assert methods.names(methods.KLEINDESSNER_TABLES) == tuple(tables) == kleindessner.METHODS
    table4 = list(dict.fromkeys(published.table(kleindessner.PAPER, "table4")["method"]))
    assert methods.names(methods.KLEINDESSNER_TABLE4) == tuple(table4)
    assert kleindessner.SAMADI_METHOD == table4[0]
    assert methods.names(methods.KLEINDESSNER_SYNTHETIC) == kleindessner.SYNTHETIC_METHODS == (
        "PCA", "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "INLP", "RLACE", "Fair PCA",
        "Fair Kernel PCA", "Fair PCA-S (0.85)")
    assert kleindessner.REFERENCE_CODE_METHODS == (
        "Fair PCA", "Fair PCA-S (0.5)", "Fair PCA-S (0.85)", "INLP", "FPCA (0.1, 0.01)",
        "FPCA (0, 0.01)", kleindessner.SAMADI_METHOD)
    assert kleindessner.REFERENCE_SETTINGS == {
        "PCA": "pca", "FPCA (0.1, 0.01)": "fpca_0.1", "FPCA (0, 0.01)": "fpca_0.0",
        "MbF-PCA (10^-3)": "stfpca_3", "MbF-PCA (10^-6)": "stfpca_6"}
    assert methods.names(methods.KLEINDESSNER_TRADEOFF) == kleindessner_tradeoffs.METHODS == (
        "Fair PCA", "Fair PCA-S", "Fair Kernel PCA", "Reductions")
    assert methods.names(methods.PEREZ_SUAY_REGRESSION) == perez_suay.REGRESSION_METHODS == (
        "LR", "FLR", "KRR", "FKR")
    assert methods.names(methods.PEREZ_SUAY_DR) == perez_suay.DR_METHODS == (
        "PCA", "KPCA", "FDR", "KFDR")
    assert methods.names(methods.DE_DIEGO_A) == methods.names(methods.DE_DIEGO_B) == (
        "Fair PLS",)
    assert de_diego.PAPER == methods.get("Fair PLS").paper
    assert set(methods.names()) == {n for p in methods.PROTOCOLS for n in methods.names(p)}


def test_the_estimators_are_the_papers_settings():
    built = kleindessner.estimators(2)
    assert built["FPCA (0.1, 0.01)"].get_params() == baselines.FPCA(
        2, delta=0.1, mu=0.01).get_params()
    assert built["Fair PCA-S (0.85)"].get_params() == methods.build(
        "Fair PCA-S (0.85)", 2).get_params()
    assert kleindessner.estimators(5, ["RLACE"], rlace_max_iter=7, random_state=3)[
        "RLACE"].get_params() == baselines.RLACE(n_components=5, max_iter=7,
                                                 random_state=3).get_params()


def test_a_planted_parameter_gives_another_estimator():
    paper = methods.build("FPCA (0.1, 0.01)", 2)
    planted = methods.build("FPCA (0.1, 0.01)", 2, delta=0.2)
    assert planted.get_params() != paper.get_params()
    assert methods.get("FPCA (0.1, 0.01)").parameters == {"delta": 0.1, "mu": 0.01}
    with pytest.raises(ValueError, match="takes no parameter"):
        methods.build("PCA", 2, delta=0.1)


def test_an_unknown_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown method 'FPCA \(1, 1\)'.*'Fair PCA'"):
        methods.get("FPCA (1, 1)")
    with pytest.raises(ValueError, match="choose among"):
        methods.build("Fair PCA (0.3)", 2)
    with pytest.raises(ValueError, match="unknown protocol"):
        methods.names("kleindessner")


def test_the_variants_know_their_base():
    for name in (*kleindessner.REFERENCE_METHODS, *kleindessner.REFERENCE_CODE_RUNS):
        base = methods.get(name).base
        assert base in (*kleindessner.METHODS, kleindessner.SAMADI_METHOD)
        assert name.startswith(base)
        assert kleindessner.base_method(name) == base
    assert kleindessner.base_method("Fair PCA") == "Fair PCA"
    assert kleindessner.base_method("not a method") == "not a method"


def test_an_entry_is_frozen():
    method = methods.get("Fair PCA")
    with pytest.raises(dataclasses.FrozenInstanceError):
        method.name = "PCA"
    with pytest.raises(TypeError):
        method.parameters["center"] = True
    with pytest.raises(ValueError, match="kind"):
        methods.Method("X", object, "quadratic", ())


# Samadi et al.'s run as in the reference code (Kleindessner et al.'s Table 4)

def _two_groups(seed, n=(23, 9), d=6, offset=50.0):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n[0], d)) @ rng.normal(size=(d, d)) + offset
    B = 3.0 * rng.normal(size=(n[1], d)) - offset
    return A - A.mean(axis=0), B - B.mean(axis=0)


def _top_projection(M, k):
    values, vectors = np.linalg.eigh(M)  # ascending: the last k columns lead
    U = vectors[:, np.argsort(values)[::-1][:k]]
    return U @ U.T


@pytest.mark.parametrize("k", [1, 3, 5])
def test_samadi_multiplicative_weights_by_hand(k):
    """Every round recomputed with numpy: the weighted oracle, the losses, the reweighting."""
    A, B = _two_groups(k)
    eta, rounds = 20.0 / k, 5
    C = [A.T @ A, B.T @ B]
    m = [len(A), len(B)]
    alpha = [np.sort(np.linalg.eigvalsh(c))[::-1][:k].sum() for c in C]
    w, total = np.array([0.5, 0.5]), np.zeros((6, 6))
    for _ in range(rounds):
        P = _top_projection(w[0] / m[0] * C[0] + w[1] / m[1] * C[1], k)
        z = np.array([(alpha[g] - np.trace(C[g] @ P)) / m[g] for g in (0, 1)])
        w = w * np.exp(eta * z) / np.sum(w * np.exp(eta * z))
        total += P
    P_bar = methods.samadi_multiplicative_weights(A, B, k, eta=eta, n_rounds=rounds)
    np.testing.assert_allclose(P_bar, total / rounds, atol=1e-10)
    eigenvalues = np.linalg.eigvalsh(P_bar)
    assert np.isclose(np.trace(P_bar), k) and eigenvalues.min() > -1e-12
    assert eigenvalues.max() < 1 + 1e-12


def test_samadi_one_round_is_the_pca_of_the_equally_weighted_groups():
    A, B = _two_groups(7)
    P = methods.samadi_multiplicative_weights(A, B, 2, eta=10.0, n_rounds=1)
    expected = _top_projection(A.T @ A / len(A) + B.T @ B / len(B), 2)
    np.testing.assert_allclose(P, expected, atol=1e-10)


def test_samadi_as_in_the_reference_code_maps_the_z_scored_rows():
    """The map is I − (I − P̄)^{1/2} of the rounds on the z-scored, group-centred rows; a
    column whose std is at most 1e-4 is centred, not scaled; no components_ (not a projection)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 5)) * [1.0, 5.0, 0.1, 2.0, 1.0] + 7.0
    X[:, 4] = 2.0 + 1e-6 * rng.normal(size=40)  # std below the floor
    z = (np.arange(40) % 3 == 0).astype(int)
    k = 2
    run = methods.build(kleindessner.SAMADI_METHOD + methods.REFERENCE_CODE_SUFFIX, k).fit(
        X, sensitive_features=z)
    std = X.std(axis=0, ddof=1)
    scale = np.where(std > 1e-4, std, 1.0)
    assert scale[4] == 1.0 and scale[0] != 1.0
    Xz = (X - X.mean(axis=0)) / scale
    A, B = (Xz[z == g] - Xz[z == g].mean(axis=0) for g in (0, 1))
    P_bar = methods.samadi_multiplicative_weights(A, B, k, eta=20.0 / k, n_rounds=5)
    values, vectors = np.linalg.eigh(np.eye(5) - P_bar)
    root = vectors @ np.diag(np.sqrt(np.clip(values, 0, None))) @ vectors.T
    M = np.eye(5) - root
    np.testing.assert_allclose(run.linear_map_, M, atol=1e-10)
    X_new = rng.normal(size=(4, 5))
    np.testing.assert_allclose(run.transform(X_new), (X_new - X.mean(axis=0)) / scale @ M,
                               atol=1e-10)
    assert run.transform(X_new).shape == (4, 5) and not hasattr(run, "components_")


@pytest.mark.parametrize("k", [3, 4])
def test_samadi_rounds_never_take_a_direction_no_group_varies_in(k):
    """A column equal to S (COMPAS's race in Lee et al.'s files) is constant within each group:
    the rounds leave it out, and keep fewer than k directions where the data span fewer."""
    rng = np.random.default_rng(11)
    n = 60
    z = np.r_[np.zeros(35), np.ones(25)]
    X = np.c_[rng.normal(size=(n, 2)) + 1e3, z, 2.0 * z + 1.0]  # two columns carry S alone
    A, B = (X[z == g] - X[z == g].mean(axis=0) for g in (0, 1))
    P_bar = methods.samadi_multiplicative_weights(A, B, k, eta=20.0 / k, n_rounds=5)
    np.testing.assert_allclose(P_bar[2:, :], 0.0, atol=1e-12)
    np.testing.assert_allclose(np.trace(P_bar), 2.0, atol=1e-12)  # the rank of the data
