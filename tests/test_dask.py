"""Beyond one machine's memory: dask arrays and ``partial_fit`` give the in-memory fit.

FairPCA, FairPLS and FairLinearRegression accumulate sums over rows; fitted on a dask array (on
a two-process ``LocalCluster`` and on the threaded scheduler) or chunk by chunk with
``partial_fit``, they must equal the fit on the concatenated rows to 1e-10 (relative).  The
memory test fits FairPCA on a dask array generated block by block, never materialised.
"""

import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from fairlab import (
    FairKernelPCA,
    FairKernelRegression,
    FairLinearRegression,
    FairPCA,
    FairPLS,
    KernelFairPLS,
    UnconstrainedFallbackWarning,
)

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

RTOL = 1e-10


def assert_close(actual, expected, rtol=RTOL):
    """max |actual − expected| ≤ rtol · max |expected| (relative to the array's scale)."""
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape
    scale = np.max(np.abs(expected), initial=0.0)
    diff = np.max(np.abs(actual - expected), initial=0.0)
    assert diff <= rtol * scale, f"relative difference {diff / scale:.3g} > {rtol}"
    return diff / scale if scale else 0.0


# ---------------------------------------------------------------------------------------------
# Schedulers: a LocalCluster of two worker processes (started and stopped here), and threads
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster_client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "Port 8787 is already in use"
        cluster = distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
        )
        client = distributed.Client(cluster, set_as_default=False)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(params=["threads", "cluster"])
def scheduler(request):
    target = "threads" if request.param == "threads" else request.getfixturevalue("cluster_client")
    with dask.config.set(scheduler=target):
        yield request.param


def chunked(a, rows):
    """``a`` as a dask array cut into blocks of ``rows`` rows (irregular last block)."""
    a = np.asarray(a)
    return da.from_array(a, chunks=(rows,) + a.shape[1:])


def make_data(n=1200, d=7, offset=0.0, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.choice(np.array(["a", "b", "c"], dtype=object), n, p=[0.5, 0.3, 0.2])
    z2 = rng.integers(0, 2, n)
    shift = (z == "b")[:, None] * 0.8 - (z == "c")[:, None] * 0.5 + 0.4 * z2[:, None]
    X = rng.normal(size=(n, d)) * np.linspace(1.0, 3.0, d) + shift + offset
    y = X @ rng.normal(size=d) + (z == "b") + rng.normal(size=n)
    labels = (y > np.median(y)).astype(int)
    s_cont = X[:, 0] * 0.3 + rng.normal(size=n)
    return X, y, labels, z, z2, s_cont


# ---------------------------------------------------------------------------------------------
# Equality with the in-memory fit
# ---------------------------------------------------------------------------------------------
PCA_CASES = {
    "dp-far-from-origin": (dict(n_components=3), 1e3, "z"),
    "uncentred": (dict(n_components=3, center=False), 1.0, "z"),
    "equal-opportunity": (dict(n_components=2, fairness="equal_opportunity"), 5.0, "z"),
    "several-attributes": (dict(n_components=3), 2.0, "z+z2"),
    "fair-pca-s": (dict(n_components=2, equalize_covariance=0.7), 0.0, "z2"),
    "fair-pca-s-multi": (dict(n_components=2, equalize_covariance=4), 0.0, "z+z2"),
}


def _attributes(which, z, z2):
    if which == "z":
        return z
    if which == "z2":
        return z2
    return np.column_stack([z, z2.astype(object)])


def _compare_pca(est, ref):
    worst = assert_close(est.components_, ref.components_)
    worst = max(worst, assert_close(est.mean_, ref.mean_) if ref.center else 0.0)
    worst = max(worst, assert_close(est.explained_variance_, ref.explained_variance_))
    worst = max(worst, assert_close(est.explained_variance_ratio_, ref.explained_variance_ratio_))
    assert est.n_covariance_directions_ == ref.n_covariance_directions_
    return worst


@pytest.mark.parametrize("case", PCA_CASES)
def test_fair_pca_on_dask_equals_in_memory(case, scheduler):
    params, offset, which = PCA_CASES[case]
    X, _, labels, z, z2, _ = make_data(offset=offset)
    s = _attributes(which, z, z2)
    ref = FairPCA(**params).fit(X, labels, sensitive_features=s)
    est = FairPCA(**params).fit(chunked(X, 250), chunked(labels, 250),
                                sensitive_features=chunked(s, 250))
    _compare_pca(est, ref)
    Xt = est.transform(chunked(X, 300))
    assert isinstance(Xt, da.Array)  # lazy: computed block by block
    assert_close(Xt.compute(), ref.transform(X))
    back = est.inverse_transform(Xt)
    assert isinstance(back, da.Array)
    assert_close(back.compute(), ref.inverse_transform(ref.transform(X)))


PLS_CASES = {
    "eta-finite": (dict(eta=2.0), "y", "z"),
    "eta-inf": (dict(eta=np.inf), "y", "z"),
    "pls": (dict(eta=0.0), "Y2", "z"),
    "unscaled-continuous": (dict(eta=5.0, scale=False), "y", "cont"),
    "equalized-odds": (dict(eta=np.inf, fairness="equalized_odds"), "Y2", "z"),
    "mixed-attributes": (dict(eta=np.inf), "y", "mixed"),
}


def _pls_inputs(ys, which, X, y, z, s_cont):
    Y = y if ys == "y" else np.column_stack([y, X[:, 1] - X[:, 2]])
    if which == "z":
        return Y, z
    if which == "cont":
        return Y, s_cont
    return Y, pd.DataFrame({"group": z, "score": s_cont})


def _compare_pls(est, ref):
    worst = assert_close(est.x_weights_, ref.x_weights_)
    for name in ("x_loadings_", "x_rotations_", "y_loadings_", "coef_", "objective_"):
        worst = max(worst, assert_close(getattr(est, name), getattr(ref, name)))
    return worst


@pytest.mark.parametrize("case", PLS_CASES)
def test_fair_pls_on_dask_equals_in_memory(case, scheduler):
    params, ys, which = PLS_CASES[case]
    X, y, _, z, _, s_cont = make_data(offset=20.0, seed=1)
    Y, s = _pls_inputs(ys, which, X, y, z, s_cont)
    ref = FairPLS(3, **params).fit(X, Y, sensitive_features=s)
    s_dask = dd.from_pandas(s, npartitions=4) if isinstance(s, pd.DataFrame) else chunked(s, 300)
    if isinstance(s, pd.DataFrame):  # partitions of a dask DataFrame: X must use the same rows
        rows = s_dask.map_partitions(len).compute().tolist()
        X_dask, Y_dask = da.from_array(X, chunks=(tuple(rows), -1)), da.from_array(Y)
    else:
        X_dask, Y_dask = chunked(X, 300), chunked(Y, 300)
    est = FairPLS(3, **params).fit(X_dask, Y_dask, sensitive_features=s_dask)
    _compare_pls(est, ref)
    assert est.x_scores_ is None
    for method in ("transform", "predict"):
        out = getattr(est, method)(chunked(X, 400))
        assert isinstance(out, da.Array)
        assert_close(out.compute(), getattr(ref, method)(X))


FLR_CASES = {
    "continuous": (dict(mu=1e5), "cont"),
    "categorical": (dict(mu=1e6, alpha=0.0), "z"),
    "mixed": (dict(mu=1e4), "mixed"),
}


@pytest.mark.parametrize("case", FLR_CASES)
def test_fair_linear_regression_on_dask_equals_in_memory(case, scheduler):
    params, which = FLR_CASES[case]
    X, y, _, z, z2, s_cont = make_data(offset=10.0, seed=2)
    s = {"cont": s_cont, "z": z, "mixed": np.column_stack([s_cont, z2])}[which]
    ref = FairLinearRegression(**params).fit(X, y, sensitive_features=s)
    est = FairLinearRegression(**params).fit(chunked(X, 200), chunked(y, 200),
                                             sensitive_features=chunked(s, 200))
    assert_close(est.coef_, ref.coef_)
    assert_close(est.intercept_, ref.intercept_)
    pred = est.predict(chunked(X, 500))
    assert isinstance(pred, da.Array) and pred.ndim == 1
    assert_close(pred.compute(), ref.predict(X))


def test_nystroem_fair_kernel_pca_on_dask_equals_in_memory(scheduler):
    X, _, _, z, _, _ = make_data(n=900, d=4, seed=3)
    params = dict(n_components=3, approximation="nystroem", n_landmarks=120, random_state=7)
    ref = FairKernelPCA(**params).fit(X, sensitive_features=z)
    est = FairKernelPCA(**params).fit(chunked(X, 200), sensitive_features=chunked(z, 200))
    np.testing.assert_array_equal(est.landmark_indices_, ref.landmark_indices_)
    assert est.gamma_ == pytest.approx(ref.gamma_, rel=1e-14)
    assert est.n_constraints_ == ref.n_constraints_
    assert_close(est.eigenvalues_, ref.eigenvalues_)
    E = est.transform(chunked(X, 300))
    assert isinstance(E, da.Array)
    assert_close(E.compute(), ref.transform(X))


def test_dask_dataframes_and_feature_names():
    X, y, _, z, _, s_cont = make_data(seed=4)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    frame["group"] = pd.Categorical(z)
    ddf = dd.from_pandas(frame, npartitions=3)
    features = [f"f{j}" for j in range(X.shape[1])]
    with dask.config.set(scheduler="threads"):
        est = FairPCA(2).fit(ddf[features], sensitive_features=ddf["group"])
        ref = FairPCA(2).fit(frame[features], sensitive_features=frame["group"])
        _compare_pca(est, ref)
        np.testing.assert_array_equal(est.feature_names_in_, ref.feature_names_in_)
        assert_close(est.transform(ddf[features]).compute(), ref.transform(frame[features]))
        pls = FairPLS(2, eta=np.inf).fit(ddf[features], dd.from_pandas(pd.Series(y), npartitions=3),
                                         sensitive_features=ddf["group"])
        _compare_pls(pls, FairPLS(2, eta=np.inf).fit(frame[features], y,
                                                     sensitive_features=frame["group"]))


def test_unconstrained_fallback_on_dask_warns_and_equals_pca():
    X, y, *_ = make_data(seed=5)
    with dask.config.set(scheduler="threads"):
        with pytest.warns(UnconstrainedFallbackWarning):
            est = FairPCA(3).fit(chunked(X, 300))
        with pytest.warns(UnconstrainedFallbackWarning):
            ref = FairPCA(3).fit(X)
        _compare_pca(est, ref)
        with pytest.warns(UnconstrainedFallbackWarning):
            pls = FairPLS(2).fit(chunked(X, 300), chunked(y, 300))
        with pytest.warns(UnconstrainedFallbackWarning):
            _compare_pls(pls, FairPLS(2).fit(X, y))


def test_one_compute_for_the_statistics(monkeypatch):
    """The statistics (and the group labels) come from a single dask.compute over all blocks.

    It is preceded by one small compute: the shift, the mean of the first row block.
    """
    X, _, _, z, *_ = make_data(seed=6)
    calls = []
    original = dask.compute

    def counting(*args, **kwargs):
        calls.append(len(args))
        return original(*args, **kwargs)

    monkeypatch.setattr(dask, "compute", counting)
    with dask.config.set(scheduler="sync"):
        FairPCA(2).fit(chunked(X, 100), sensitive_features=chunked(z, 100))
    assert calls == [1, 1]


# ---------------------------------------------------------------------------------------------
# partial_fit: any chunking gives the fit on the concatenation
# ---------------------------------------------------------------------------------------------
def random_chunks(n, rng, n_cuts=25):
    """Random chunk boundaries including chunks of one row."""
    cuts = set(rng.choice(np.arange(1, n), size=n_cuts, replace=False).tolist())
    for start in rng.choice(np.arange(1, n - 2), size=4, replace=False):
        cuts.update({int(start), int(start) + 1})  # a one-row chunk
    bounds = [0, *sorted(cuts), n]
    return [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def stream_order(z, rng):
    """Rows sorted by group with a little mixing: early chunks miss groups, new ones appear."""
    order = np.argsort(np.asarray(z).astype(str), kind="stable")
    swap = rng.choice(len(order), size=len(order) // 20, replace=False)
    order[np.sort(swap)] = order[swap]
    return order


@pytest.mark.parametrize("case", PCA_CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_fair_pca_partial_fit_equals_fit(case, seed):
    params, offset, which = PCA_CASES[case]
    rng = np.random.default_rng(seed)
    X, _, labels, z, z2, _ = make_data(n=700, offset=offset, seed=10 + seed)
    order = stream_order(z, rng)
    X, labels, z, z2 = X[order], labels[order], z[order], z2[order]
    s = _attributes(which, z, z2)
    ref = FairPCA(**params).fit(X, labels, sensitive_features=s)
    est = FairPCA(**params)
    chunks = random_chunks(len(X), rng)
    assert any(len(set(np.asarray(z[c]))) < 3 for c in chunks)  # some chunks miss a group
    for c in chunks:
        est.partial_fit(X[c], labels[c], sensitive_features=s[c])
    assert "components_" in vars(est)  # solved by partial_fit, not on attribute access
    _compare_pca(est, ref)
    assert est.n_samples_seen_ == len(X)
    assert_close(est.transform(X), ref.transform(X))


@pytest.mark.parametrize("case", PLS_CASES)
def test_fair_pls_partial_fit_equals_fit(case):
    params, ys, which = PLS_CASES[case]
    rng = np.random.default_rng(3)
    X, y, _, z, _, s_cont = make_data(n=700, offset=20.0, seed=13)
    order = stream_order(z, rng)
    X, y, z, s_cont = X[order], y[order], z[order], s_cont[order]
    Y, s = _pls_inputs(ys, which, X, y, z, s_cont)
    ref = FairPLS(3, **params).fit(X, Y, sensitive_features=s)
    est = FairPLS(3, **params)
    for c in random_chunks(len(X), rng):
        part = s.iloc[c] if isinstance(s, pd.DataFrame) else s[c]
        est.partial_fit(X[c], Y[c], sensitive_features=part)
    _compare_pls(est, ref)
    assert_close(est.predict(X), ref.predict(X))


@pytest.mark.parametrize("case", FLR_CASES)
def test_fair_linear_regression_partial_fit_equals_fit(case):
    params, which = FLR_CASES[case]
    rng = np.random.default_rng(4)
    X, y, _, z, z2, s_cont = make_data(n=700, offset=10.0, seed=14)
    order = stream_order(z, rng)
    X, y, z, z2, s_cont = X[order], y[order], z[order], z2[order], s_cont[order]
    s = {"cont": s_cont, "z": z, "mixed": np.column_stack([s_cont, z2])}[which]
    ref = FairLinearRegression(**params).fit(X, y, sensitive_features=s)
    est = FairLinearRegression(**params)
    for c in random_chunks(len(X), rng):
        est.partial_fit(X[c], y[c], sensitive_features=s[c])
    assert_close(est.coef_, ref.coef_)
    assert_close(est.intercept_, ref.intercept_)


def test_partial_fit_from_a_memory_mapped_file_and_a_generator(tmp_path):
    X, _, _, z, *_ = make_data(n=1000, offset=50.0, seed=15)
    np.save(tmp_path / "X.npy", X)
    mapped = np.load(tmp_path / "X.npy", mmap_mode="r")
    est = FairPCA(3)
    for start in range(0, len(mapped), 128):
        est.partial_fit(mapped[start : start + 128], sensitive_features=z[start : start + 128])
    _compare_pca(est, FairPCA(3).fit(X, sensitive_features=z))

    def chunks():
        for start in range(0, len(X), 333):
            yield X[start : start + 333], z[start : start + 333]

    gen = FairPCA(3)
    for part, groups in chunks():
        gen.partial_fit(part, sensitive_features=groups)
    _compare_pca(gen, est)


def test_partial_fit_solution_is_refreshed_and_restarted_by_fit():
    X, _, _, z, *_ = make_data(n=600, seed=16)
    est = FairPCA(2).partial_fit(X[:300], sensitive_features=z[:300])
    first = est.components_.copy()
    _compare_pca(est, FairPCA(2).fit(X[:300], sensitive_features=z[:300]))
    est.partial_fit(X[300:], sensitive_features=z[300:])
    assert not np.allclose(est.components_, first)  # solved again by the second call
    _compare_pca(est, FairPCA(2).fit(X, sensitive_features=z))
    est.fit(X[:300], sensitive_features=z[:300])  # fit forgets the stream ...
    est.partial_fit(X[300:], sensitive_features=z[300:])  # ... and partial_fit starts anew
    _compare_pca(est, FairPCA(2).fit(X[300:], sensitive_features=z[300:]))


def test_partial_fit_refuses_inconsistent_chunks():
    X, y, _, z, *_ = make_data(n=200, seed=17)
    est = FairPCA(2).partial_fit(X[:100], sensitive_features=z[:100])
    with pytest.raises(ValueError, match="features"):
        est.partial_fit(X[100:, :-1], sensitive_features=z[100:])
    with pytest.raises(ValueError, match="same sensitive_features"):
        est.partial_fit(X[100:], sensitive_features=None)
    with pytest.raises(ValueError, match="changed between partial_fit calls"):
        est.set_params(equalize_covariance=0.5).partial_fit(X[100:], sensitive_features=z[100:])
    with pytest.raises(TypeError, match="pass a dask array to fit"):
        FairPCA(2).partial_fit(chunked(X, 50), sensitive_features=z)
    with pytest.raises(ValueError, match="single group"):
        FairPCA(2).partial_fit(X[:10], sensitive_features=np.zeros(10)).transform(X)
    lonely = FairPCA(2).partial_fit(X[:10], sensitive_features=np.r_[np.zeros(9), 1])
    assert "components_" not in vars(lonely)  # no solution while a group has one row ...
    with pytest.raises(NotFittedError, match="no solution yet.*1 row"):
        lonely.transform(X)
    lonely.partial_fit(X[10:20], sensitive_features=np.r_[1, np.zeros(9)])
    assert lonely.transform(X).shape == (len(X), 2)  # ... until a later chunk adds one
    with pytest.raises(ValueError, match="requires y"):
        FairPLS(2).partial_fit(X, None, sensitive_features=z)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------
def test_dask_input_errors():
    X, y, _, z, *_ = make_data(n=300, seed=18)
    Xd = chunked(X, 100)
    with dask.config.set(scheduler="sync"):
        unknown = Xd[Xd[:, 0] > -np.inf]  # boolean indexing: chunk sizes unknown
        with pytest.raises(ValueError, match="compute_chunk_sizes"):
            FairPCA(2).fit(unknown, sensitive_features=z)
        with pytest.raises(ValueError, match="NaN or infinity"):
            FairPCA(2).fit(chunked(np.where(X > 2, np.nan, X), 100), sensitive_features=z)
        with pytest.raises(ValueError, match="single group"):
            FairPCA(2).fit(Xd, sensitive_features=chunked(np.zeros(300), 100))
        with pytest.raises(ValueError, match="has 1 row"):
            FairPCA(2).fit(Xd, sensitive_features=chunked(np.r_[1, np.zeros(299)], 100))
        with pytest.raises(ValueError, match="299 entries"):
            FairPCA(2).fit(Xd, sensitive_features=z[:-1])
        with pytest.raises(ValueError, match="missing values"):
            FairPCA(2).fit(Xd, sensitive_features=chunked(np.r_[z[:-1], None], 100))
        with pytest.raises(ValueError, match="expecting 7 features"):
            FairPCA(2).fit(Xd, sensitive_features=z).transform(chunked(X[:, :-1], 100))
        with pytest.raises(ValueError, match="at least 2 rows with y == pos_label"):
            FairPCA(2, fairness="equal_opportunity").fit(
                Xd, chunked(np.zeros(300, int), 100), sensitive_features=z)
        with pytest.raises(TypeError, match="nystroem"):
            FairKernelPCA(2).fit(Xd, sensitive_features=z)
        for est in (FairKernelRegression(), KernelFairPLS()):
            with pytest.raises(TypeError, match="Gram matrix"):
                est.fit(Xd, y, sensitive_features=z)


def test_dask_array_without_dask_installed(monkeypatch):
    """A dask array passed where dask cannot be imported: a clear ImportError."""
    X, _, _, z, *_ = make_data(n=100, seed=19)
    Xd = chunked(X, 50)
    for name in [m for m in sys.modules if m == "dask" or m.startswith("dask.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"fairlab\[dask\]"):
        FairPCA(2).fit(Xd, sensitive_features=z)


def test_fairlab_imports_and_fits_without_dask():
    code = textwrap.dedent("""
        import sys
        sys.modules["dask"] = None  # as if dask were not installed
        import numpy as np
        import fairlab
        from fairlab import FairPCA, FairPLS, FairLinearRegression, FairKernelPCA
        X = np.random.default_rng(0).normal(size=(50, 4))
        z = np.repeat([0, 1], 25)
        FairPCA(2).fit(X, sensitive_features=z).partial_fit(X, sensitive_features=z).transform(X)
        FairPLS(2).fit(X, X[:, 0], sensitive_features=z)
        FairLinearRegression().partial_fit(X, X[:, 0], sensitive_features=z).predict(X)
        assert "dask.array" not in sys.modules
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ---------------------------------------------------------------------------------------------
# Memory: a dask array far larger than what the driver may hold
# ---------------------------------------------------------------------------------------------
MEMORY_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import dask, dask.array as da
    import numpy as np
    from fairlab import FairPCA

    n, d, rows = (int(v) for v in sys.argv[1:4])
    X = da.random.default_rng(0).standard_normal((n, d), chunks=(rows, d))
    z = da.random.default_rng(1).integers(0, 3, size=n, chunks=rows)
    def status_mib(field):  # VmRSS: now; VmHWM: peak of this process (ru_maxrss would include
        with open("/proc/self/status") as f:  # the parent's RSS, inherited through fork + exec)
            line = next(line for line in f if line.startswith(field + ":"))
        return int(line.split()[1]) / 1024
    before = status_mib("VmRSS")
    start = time.perf_counter()
    with dask.config.set(scheduler="threads"):
        est = FairPCA(5).fit(X, sensitive_features=z)
    seconds = time.perf_counter() - start
    peak = status_mib("VmHWM")
    assert np.all(np.isfinite(est.components_))
    print(json.dumps({"peak_mib": peak, "before_mib": before, "seconds": seconds,
                      "array_mib": n * d * 8 / 2**20}))
""")


def _run_memory_script(n, d, rows):
    # one level of parallelism: dask's threads, single-threaded BLAS inside each task
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(n), str(d), str(rows)],
                         capture_output=True, text=True, check=False, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_memory_stays_far_below_the_array_size():
    """2·10⁶ × 50 float64 (763 MiB), generated blockwise: the driver's peak RSS stays small."""
    result = _run_memory_script(2_000_000, 50, 50_000)  # 40 blocks of 19 MiB
    assert result["peak_mib"] - result["before_mib"] < 0.5 * result["array_mib"], result


@pytest.mark.skipif(os.environ.get("FAIRLAB_BIG") != "1",
                    reason="8 GB dask array: set FAIRLAB_BIG=1 to run")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_memory_on_an_eight_gigabyte_array():
    """2·10⁷ × 50 float64 (7.45 GiB), never materialised: the driver's peak RSS stays < 1 GiB."""
    result = _run_memory_script(20_000_000, 50, 100_000)  # 200 blocks of 38 MiB
    assert result["peak_mib"] < 1024, result
