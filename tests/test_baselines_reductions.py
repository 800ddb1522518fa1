"""The fairlearn adapter: ExponentiatedGradient with ``sensitive_features`` routed.

The reduction itself is fairlearn's; the tests check that the adapter is exactly it (same
predictions as calling fairlearn directly), that it composes with a fairlab transformer in a
Pipeline through metadata routing, that it lowers the demographic-parity gap as its constraint
says, and fairlab's conventions (fallback with a warning, clear errors, estimator checks).
"""

import doctest
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from fairlab import FairPCA, UnconstrainedFallbackWarning
from fairlab.baselines import ExponentiatedGradientClassifier
from fairlab.metrics import demographic_parity_difference

reductions = pytest.importorskip("fairlearn.reductions")
# fairlearn 0.15 itself still uses a pandas idiom that pandas 3 deprecates
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:fairlearn")


def biased_data(seed=0, n=600):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 5)) + 1.5 * s[:, None]
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.75).astype(int)
    return X, y, s


def test_is_fairlearns_exponentiated_gradient():
    X, y, s = biased_data()
    ours = ExponentiatedGradientClassifier(difference_bound=0.05, eps=0.02, random_state=3).fit(
        X, y, sensitive_features=s)
    theirs = reductions.ExponentiatedGradient(
        LogisticRegression(), reductions.DemographicParity(difference_bound=0.05), eps=0.02).fit(
        X, y, sensitive_features=s)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X, random_state=3))
    np.testing.assert_allclose(ours.predict_proba(X), theirs._pmf_predict(X), rtol=0, atol=0)


def test_lowers_the_demographic_parity_gap_to_its_bound():
    X, y, s = biased_data()
    unconstrained = LogisticRegression().fit(X, y)
    before = demographic_parity_difference(y, unconstrained.predict(X), sensitive_features=s)
    assert before > 0.3
    gaps = []
    for bound in (0.01, 0.15):
        fair = ExponentiatedGradientClassifier(difference_bound=bound, random_state=0).fit(
            X, y, sensitive_features=s)
        # fairlearn's DemographicParity bounds each group's selection rate's distance to the
        # overall one, for the randomised classifier Q itself (its expected selection rates)
        p = fair.predict_proba(X)[:, 1]
        gaps.append(max(abs(p[s == g].mean() - p.mean()) for g in (0, 1)))
        assert gaps[-1] <= bound + 0.02  # ε plus fairlearn's stopping tolerance
    assert gaps[1] > gaps[0] + 0.05, "the bound must be what difference_bound says"


def test_routes_after_a_fairlab_transformer_in_a_pipeline():
    X, y, s = biased_data(1)
    labels = np.where(y == 1, "yes", "no")  # any two labels
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            FairPCA(3).set_fit_request(sensitive_features=True),
            ExponentiatedGradientClassifier(random_state=0).set_fit_request(
                sensitive_features=True),
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", UnconstrainedFallbackWarning)
            pipe.fit(X, labels, sensitive_features=s)
    E = FairPCA(3).fit(X, sensitive_features=s).transform(X)
    direct = ExponentiatedGradientClassifier(random_state=0).fit(E, labels, sensitive_features=s)
    np.testing.assert_array_equal(pipe.predict(X), direct.predict(E))
    assert set(pipe.predict(X)) <= {"yes", "no"}
    assert list(pipe.classes_) == ["no", "yes"]


def test_without_sensitive_features_is_the_base_classifier_and_warns():
    X, y, _ = biased_data()
    with pytest.warns(UnconstrainedFallbackWarning, match="LogisticRegression"):
        est = ExponentiatedGradientClassifier().fit(X, y)
    np.testing.assert_array_equal(est.predict(X), LogisticRegression().fit(X, y).predict(X))


@pytest.mark.parametrize(
    "kwargs, y, s, error, match",
    [
        ({}, np.arange(10) % 3, np.arange(10) % 2, ValueError, "binary"),  # the reduction only
        ({}, np.arange(10) % 2, np.arange(9) % 2, ValueError, "one group label per row"),
        ({"constraints": "parity"}, np.arange(10) % 2, np.arange(10) % 2, ValueError,
         "constraints"),
        ({"eps": 0.0}, np.arange(10) % 2, np.arange(10) % 2, ValueError, "eps"),
        ({"difference_bound": -1.0}, np.arange(10) % 2, np.arange(10) % 2, ValueError,
         "difference_bound"),
    ],
)
def test_bad_input(kwargs, y, s, error, match):
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(error, match=match):
        ExponentiatedGradientClassifier(**kwargs).fit(X, y, sensitive_features=s)


def test_missing_fairlearn_gives_install_hint(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "fairlearn.reductions", None)
    X, y, s = biased_data()
    with pytest.raises(ImportError, match="pip install fairlearn"):
        ExponentiatedGradientClassifier().fit(X, y, sensitive_features=s)


@parametrize_with_checks([ExponentiatedGradientClassifier()],
                         expected_failed_checks=lambda est: {
                             "check_non_transformer_estimators_n_iter":
                                 "the checks fit without sensitive_features: the fallback "
                                 "runs no exponentiated-gradient iteration (n_iter_ = 0)",
                         })
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnconstrainedFallbackWarning)
        check(estimator)


def test_docstring_example():
    import fairlab.baselines.reductions as module

    assert doctest.testmod(module).failed == 0


# ------------------------------------------------------------------ the precomputed RBF kernel
def gram_data(seed=0, n=300, m=200, d=30):
    """Standardised rows with one-hot-like columns (as the §5.2 data), fit rows first."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n + m, d))
    X[:, :12] = X[:, :12] > 1.0
    X = (X - X[:n].mean(0)) / X[:n].std(0)
    y = (X[:n, 0] + X[:n, 13] + 0.5 * rng.normal(size=n) > 0).astype(int)
    s = (X[:n, 1] > 0).astype(int)
    return X, y, s, n


@pytest.mark.parametrize("gamma", [0.02, "scale"])
def test_gram_svc_is_the_rbf_svc_bit_for_bit(gamma):
    from sklearn.svm import SVC

    from fairlab.baselines._rbf_gram import _GramSVC, _RBFGram

    X, y, _, n = gram_data()
    w = np.random.default_rng(1).exponential(size=n)
    gram = _RBFGram(X, n, gamma)
    ref = SVC(C=2.0, gamma=gamma, random_state=0).fit(X[:n], y, sample_weight=w)
    assert gram.gamma == ref._gamma
    ours = _GramSVC(gram, C=2.0, random_state=0).fit(np.arange(n)[:, None], y, sample_weight=w)
    np.testing.assert_array_equal(ours.svc_.support_, ref.support_)
    np.testing.assert_array_equal(ours.svc_.dual_coef_, ref.dual_coef_)
    np.testing.assert_array_equal(ours.svc_.intercept_, ref.intercept_)
    rows = np.arange(len(X))
    np.testing.assert_array_equal(ours.predict(rows[:, None]), ref.predict(X))
    # the kernel values computed as libsvm's predict does give its decision values exactly
    exact = gram.libsvm_predict_rows(rows, ref.support_)
    np.testing.assert_array_equal(ours.svc_.decision_function(exact), ref.decision_function(X))


def test_gram_fit_kernel_rounds_to_libsvms(monkeypatch):
    from fairlab.baselines import _rbf_gram

    X, _, _, n = gram_data(2, n=120, m=0)
    fast = _rbf_gram._RBFGram(X, n, 0.05).kernel
    monkeypatch.setattr(_rbf_gram, "_EXP_ULPS", np.inf)  # every entry recomputed as libsvm does
    exact = _rbf_gram._RBFGram(X, n, 0.05).kernel
    np.testing.assert_array_equal(fast.astype(np.float32), exact.astype(np.float32))
    np.testing.assert_array_equal(np.diag(fast), 1.0)


def test_gram_svc_predicts_close_rows_as_libsvm(monkeypatch):
    from sklearn.svm import SVC

    from fairlab.baselines import _rbf_gram

    X, y, _, n = gram_data(3)
    gram = _rbf_gram._RBFGram(X, n, 0.03)
    ours = _rbf_gram._GramSVC(gram, C=2.0).fit(np.arange(n)[:, None], y)
    monkeypatch.setattr(_rbf_gram, "_U", 1.0)  # every decision value counts as close to 0
    ref = SVC(C=2.0, gamma=0.03).fit(X[:n], y)
    np.testing.assert_array_equal(ours.predict(np.arange(len(X))[:, None]), ref.predict(X))


@pytest.mark.filterwarnings("ignore")  # fairlearn's convergence notes
@pytest.mark.parametrize("moment", ["DemographicParity", "TruePositiveRateParity"])
def test_reduction_on_the_gram_is_the_reduction_on_the_rbf_svc(moment):
    from sklearn.base import clone
    from sklearn.svm import SVC

    from fairlab.baselines._rbf_gram import _GramSVC, _RBFGram

    X, y, s, n = gram_data(4)
    gram = _RBFGram(X, n, 0.03)
    assert clone(_GramSVC(gram)).gram is gram  # clones share the one Gram
    fits = []
    for estimator, fit_rows, test_rows in [
            (SVC(C=2.0, gamma=0.03, random_state=0), X[:n], X[n:]),
            (_GramSVC(gram, C=2.0, random_state=0), np.arange(n)[:, None],
             np.arange(n, len(X))[:, None])]:
        model = reductions.ExponentiatedGradient(
            estimator, getattr(reductions, moment)(difference_bound=0.01)).fit(
            fit_rows, y, sensitive_features=s)
        fits.append((model, model._pmf_predict(test_rows),
                     model.predict(test_rows, random_state=5)))
    (old, old_pmf, old_pred), (new, new_pmf, new_pred) = fits
    assert len(old.predictors_) > 1
    np.testing.assert_array_equal(old.weights_, new.weights_)
    np.testing.assert_array_equal(old_pmf, new_pmf)
    np.testing.assert_array_equal(old_pred, new_pred)
