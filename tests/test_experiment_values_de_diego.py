"""Values of De-Diego et al.'s Experiment A runner (``de_diego.representation_scores``).

Each score is recomputed here from its definition with NumPy — the split, the fitted
``FairPLS`` and nothing else taken from the runner — so a planted bug in a metric (an
unstandardised reconstruction error, a Cov² without centring, the train rows scored as test
rows) fails a unit test, not only the chapter's notebook check.
"""

import numpy as np
import pytest
from sklearn.utils import Bunch

from fairlab import FairPLS
from fairlab.evaluation import repeated_splits
from fairlab.experiments import de_diego

ETAS = (0.0, 5.0)


@pytest.fixture(scope="module")
def toy():
    # offsets and scales far from a standardised matrix, so a missing standardisation shows
    rng = np.random.default_rng(7)
    n, d = 150, 6
    s = (rng.random(n) < 0.35).astype(int)
    X = rng.normal(size=(n, d)) * [1.0, 3.0, 0.2, 10.0, 1.0, 0.5] + [5.0, -2.0, 0.0, 40.0, 1.0, 3.0]
    X[:, 1] += 2.0 * s
    y = X[:, 0] - 0.3 * X[:, 3] / 10 + s + rng.normal(scale=0.5, size=n)
    data = {"toy": Bunch(X=X, y=y, s=s, dataset="Toy")}
    scores = de_diego.representation_scores(data, etas=ETAS, n_splits=1, k=2,
                                            features=("S not in X",), random_state=3)
    split = next(repeated_splits(X, y, s, n_splits=1, train_size=0.7, random_state=3))
    return scores, split


def _cov2(T, v):
    Tc, vc = T - T.mean(axis=0), v - v.mean()
    return float(np.sum((Tc.T @ vc / len(v)) ** 2))


def _one(frame, **where):
    rows = frame
    for column, value in where.items():
        rows = rows[rows[column] == value]
    assert len(rows) == 1, where
    return float(rows["value"].iloc[0])


@pytest.mark.parametrize("eta", ETAS)
@pytest.mark.parametrize("part", ["test", "train"])
def test_reconstruction_errors_equal_their_definitions(toy, eta, part):
    scores, split = toy
    model = FairPLS(2, eta=eta).fit(split.X_train, split.y_train.astype(float),
                                    sensitive_features=split.s_train)
    X = split.X_test if part == "test" else split.X_train
    Xs = (X - split.X_train.mean(axis=0)) / split.X_train.std(axis=0, ddof=1)
    total = np.sum(Xs**2)
    Q, _ = np.linalg.qr(model.x_weights_)
    T = model.transform(X)
    expected = {
        "projection": np.sum((Xs - Xs @ Q @ Q.T) ** 2) / total,
        "loadings": np.sum((Xs - T @ model.x_loadings_.T) ** 2) / total,
        "weights": np.sum((Xs - T @ model.x_weights_.T) ** 2) / total,
    }
    for error, value in expected.items():
        got = _one(scores, eta=eta, rows=part, error=error, metric="reconstruction_error")
        assert got == pytest.approx(value, rel=1e-10), error


@pytest.mark.parametrize("eta", ETAS)
def test_cov2_cells_equal_the_centred_cross_covariance(toy, eta):
    scores, split = toy
    model = FairPLS(2, eta=eta).fit(split.X_train, split.y_train.astype(float),
                                    sensitive_features=split.s_train)
    T = model.transform(split.X_test)
    y, s = split.y_test.astype(float), split.s_test.astype(float)
    raw = {"cov2_y": _cov2(T, y), "cov2_s": _cov2(T, s)}
    unit_T = (T - T.mean(axis=0)) / T.std(axis=0)
    standardized = {"cov2_y": _cov2(unit_T, (y - y.mean()) / y.std()),
                    "cov2_s": _cov2(unit_T, (s - s.mean()) / s.std())}
    for metric in raw:
        common = {"eta": eta, "rows": "test", "metric": metric}
        assert _one(scores, scores="raw", targets="raw", reduce="sum", **common) \
            == pytest.approx(raw[metric], rel=1e-10)
        assert _one(scores, scores="raw", targets="raw", reduce="mean", **common) \
            == pytest.approx(raw[metric] / 2, rel=1e-10)
        assert _one(scores, scores="unit", targets="standardized", reduce="sum", **common) \
            == pytest.approx(standardized[metric], rel=1e-10)


def test_the_penalty_lowers_cov2_with_s_on_the_training_rows(toy):
    scores, _ = toy
    cov = [_one(scores, eta=eta, rows="train", scores="raw", targets="raw", reduce="sum",
                metric="cov2_s") for eta in ETAS]
    assert cov[1] < cov[0]
