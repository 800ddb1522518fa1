"""Tests of fairlab.FairTradeoff (Kleindessner et al. §3.1)."""

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.decomposition import PCA
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairPCA, FairTradeoff


def _data(seed=0, n=300, d=6):
    rng = np.random.default_rng(seed)
    z = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 1.5 * z[:, None] * rng.normal(size=d)
    y = (X[:, 0] + 2 * z + rng.normal(size=n) > 1).astype(int)
    return X, y, z


@pytest.mark.parametrize("lam", [0.0, 0.3, 1.0])
def test_output_is_fair_block_and_scaled_standard_block(lam):
    X, y, z = _data()
    knob = FairTradeoff(FairPCA(2), PCA(2), lam=lam).fit(X, y, sensitive_features=z)
    out = knob.transform(X)
    fair = FairPCA(2).fit(X, sensitive_features=z).transform(X)
    std = PCA(2).fit(X).transform(X)
    assert out.shape == (X.shape[0], 4)
    np.testing.assert_allclose(out[:, :2], fair, atol=1e-12)
    np.testing.assert_allclose(out[:, 2:], lam * std, atol=1e-12)


def test_lam_zero_keeps_group_means_equal():
    X, y, z = _data(1)
    out = FairTradeoff(FairPCA(3), PCA(3), lam=0.0).fit(X, sensitive_features=z).transform(X)
    assert np.abs(out[z == 0].mean(0) - out[z == 1].mean(0)).max() < 1e-10


def test_lam_is_a_monotone_knob_for_a_regularised_classifier():
    # The DP gap of a regularised logistic model grows with λ (the point of §3.1).
    X, y, z = _data(2, n=2000)
    gaps = []
    for lam in (0.0, 0.2, 1.0):
        knob = FairTradeoff(FairPCA(2), PCA(2), lam=lam).fit(X, y, sensitive_features=z)
        E = knob.transform(X)
        pred = LogisticRegression(C=0.01).fit(E, y).predict(E)
        gaps.append(abs(pred[z == 1].mean() - pred[z == 0].mean()))
    assert gaps[0] < 0.05 < gaps[1] < gaps[2]


def test_prefitted_parts_and_frozen_estimators():
    X, y, z = _data(3)
    fair = FairPCA(2).fit(X, sensitive_features=z)
    std = PCA(2).fit(X)
    expected = np.hstack([fair.transform(X), 0.5 * std.transform(X)])
    # both parts fitted: usable without fit
    np.testing.assert_allclose(FairTradeoff(fair, std, lam=0.5).transform(X), expected)
    # frozen parts survive the clone-and-fit of fit()
    knob = FairTradeoff(FrozenEstimator(fair), FrozenEstimator(std), lam=0.5).fit(X)
    np.testing.assert_allclose(knob.transform(X), expected)
    with pytest.raises(NotFittedError):
        FairTradeoff(FairPCA(2), std, lam=0.5).transform(X)


def test_pipeline_routing_and_pandas_output():
    X, y, z = _data(4)
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            FairTradeoff(FairPCA(2), PCA(2), lam=0.2).set_fit_request(sensitive_features=True),
            LogisticRegression(),
        )
        pipe.fit(df, y, sensitive_features=z)
    knob = pipe[0].set_output(transform="pandas")
    out = knob.transform(df)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == [
        "fair__fairpca0", "fair__fairpca1", "standard__pca0", "standard__pca1"
    ]
    assert np.abs(out.iloc[:, :2][z == 0].mean() - out.iloc[:, :2][z == 1].mean()).max() < 1e-10


@pytest.mark.parametrize("lam", [-0.1, 1.5, "a"])
def test_bad_lam(lam):
    X, y, z = _data(5)
    with pytest.raises(ValueError, match="lam"):
        FairTradeoff(FairPCA(2), PCA(2), lam=lam).fit(X, sensitive_features=z)


def test_bad_parts():
    X, y, z = _data(6)
    with pytest.raises(ValueError, match="fair"):
        FairTradeoff("pca", PCA(2)).fit(X, sensitive_features=z)
    with pytest.raises(ValueError, match="5 features"):
        FairTradeoff(FairPCA(2), PCA(2)).fit(X[:, :5], sensitive_features=z).transform(X)


@parametrize_with_checks([FairTradeoff(FairPCA(1), PCA(1), lam=0.5)])
@pytest.mark.filterwarnings("ignore::fairlab.UnconstrainedFallbackWarning")
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
