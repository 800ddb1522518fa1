"""Bad input across every estimator: a clear error that names the argument and the fix."""

import numpy as np
import pytest
from sklearn.decomposition import PCA

import fairlab
from fairlab import baselines
from fairlab.metrics import hsic, hsic_rbf_widths

FAIRLAB = ["FairPCA", "FairKernelPCA", "FairPLS", "KernelFairPLS", "NaiveFairPLS",
           "FairLinearRegression", "FairKernelRegression", "FairDR", "KernelFairDR"]
BASELINES = ["SAL", "LEACE", "OracleLEACE", "INLP", "RLACE", "FPCA", "MbFPCA", "SamadiFairPCA",
             "ExponentiatedGradientClassifier"]
REGRESSORS = ["FairPLS", "KernelFairPLS", "NaiveFairPLS", "FairLinearRegression",
              "FairKernelRegression"]
# estimators whose sensitive attribute is group labels (check_groups) or one-hot encoded
# (check_continuous_sensitive); FairPLS's encoding keeps labels of different types apart
GROUPED = ["FairPCA", "FairKernelPCA", "FairLinearRegression", "FairKernelRegression", "FairDR",
           "KernelFairDR", *BASELINES]


def make(name, **params):
    cls = getattr(fairlab, name) if name in FAIRLAB else getattr(baselines, name)
    return cls(**params)


def data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    s = rng.integers(0, 2, n)
    y = (X[:, 0] + s > 0.5).astype(int)
    return X, y, s


def fit(est, X, y, s):
    return est.fit(X, y, sensitive_features=s)


@pytest.mark.parametrize("name", FAIRLAB + BASELINES)
def test_string_in_x_names_x_and_the_fix(name):
    X, y, s = data()
    X = X.astype(object)
    X[3, 1] = "abc"
    with pytest.raises(ValueError, match=rf"X must be numeric.*'abc'.*{name}.*OneHotEncoder"):
        fit(make(name), X, y, s)


@pytest.mark.parametrize("name", REGRESSORS)
def test_string_y_of_a_regression_names_y(name):
    X, _, s = data()
    y = np.array(["low", "high"] * 20)
    with pytest.raises(ValueError, match=rf"y must be numeric.*{name}.*LabelEncoder"):
        fit(make(name), X, y, s)


@pytest.mark.parametrize("name", GROUPED)
def test_mixed_label_types_in_one_attribute(name):
    X, y, s = data()
    s = s.astype(object)
    s[:5] = "1"  # "1" and 1 would be two different groups (or silently one)
    with pytest.raises(TypeError, match=r"sensitive_features attribute 0 mixes group labels "
                                        r"of different types \(number, str\).*astype\(str\)"):
        fit(make(name), X, y, s)


def test_nan_in_sensitive_features_of_exponentiated_gradient():
    X, y, s = data()
    s = s.astype(float)
    s[2] = np.nan
    with pytest.raises(ValueError, match="sensitive_features contains missing values"):
        fit(make("ExponentiatedGradientClassifier"), X, y, s)


@pytest.mark.parametrize("name", [n for n in FAIRLAB + BASELINES
                                  if "n_components" in make(n).get_params()])
def test_bool_n_components_is_refused(name):
    X, y, s = data()
    with pytest.raises(TypeError, match="n_components must be .*got the bool True"):
        fit(make(name, n_components=True), X, y, s)


def test_tradeoff_blocks_of_different_width_are_refused():
    X, _, s = data()
    knob = fairlab.FairTradeoff(fairlab.FairPCA(2), PCA(3), lam=0.5)
    with pytest.raises(ValueError, match="give 2 and 3 components.*same n_components"):
        knob.fit(X, sensitive_features=s)
    # fitted transformers given directly: checked at transform time
    fair = fairlab.FairPCA(2).fit(X, sensitive_features=s)
    knob = fairlab.FairTradeoff(fair, PCA(3).fit(X), lam=0.5)
    with pytest.raises(ValueError, match="give 2 and 3 components"):
        knob.transform(X)
    assert fairlab.FairTradeoff(fairlab.FairPCA(2), PCA(2)).fit(
        X, sensitive_features=s).transform(X).shape == (40, 4)


@pytest.mark.parametrize("gammas", [[], [1.0, 0.0], [[1.0]], [np.inf], [-1.0]])
def test_hsic_rbf_widths_names_its_argument(gammas):
    with pytest.raises(ValueError, match="gammas must be a non-empty 1-D sequence of positive"):
        hsic_rbf_widths([[0.0], [1.0]], [0, 1], gammas)


def test_hsic_of_one_sample_is_refused():
    with pytest.raises(ValueError, match="at least 2 samples"):
        hsic([[1.0]], [0])
    assert hsic([1.0, 2.0], [0, 1]) > 0
