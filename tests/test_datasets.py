"""fairlab.datasets: synthetic generators and real-data recipes.

Every shipped data set (all but Law School; Lee et al.'s splits and loading matrices included)
is tested always: from ``$FAIRLAB_DATA`` when it is set (a user's copy takes precedence), from
the package otherwise.  Law School, Lee et al.'s ``full.csv`` files and the comparisons with
the raw copies run only when ``FAIRLAB_DATA`` points at them (skipped with a reason
otherwise).  The shipped copies themselves
(offline loading, checksums, package size) are tested in ``test_datasets_shipped.py``.
"""

import gzip
import lzma
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.linalg import block_diag, cholesky

from fairlab.datasets import (
    ChecksumError,
    _fetch,
    _lee2022,
    load_a9a,
    load_adult,
    load_bank,
    load_cmc,
    load_communities,
    load_compas,
    load_diabetes,
    load_german,
    load_lawschool,
    load_lee2022_loadings,
    load_lee2022_split,
    make_banana,
    make_circle_counterexample,
    make_covariance_mismatch,
    make_fkl_regression,
    make_lee_gaussians,
    make_pls_synthetic,
    make_sinusoid,
    provenance,
    summarize,
)

DATA = os.environ.get("FAIRLAB_DATA")
def _needs(sub):
    return pytest.mark.skipif(
        not DATA or not (Path(DATA) / sub).exists(),
        reason=f"FAIRLAB_DATA/{sub} not available",
    )


def _di(y, s, pos_label, privileged=1):
    y = np.asarray(y) == pos_label
    s = np.asarray(s)
    return y[s != privileged].mean() / y[s == privileged].mean()


# ======================================================================================
# synthetic generators
# ======================================================================================
GENERATORS = [
    (make_lee_gaussians, dict(n_per_group=20, n_features=7, n_latent=50)),
    (make_covariance_mismatch, dict(n_per_group=30)),
    (make_circle_counterexample, dict(n_samples=40, noise=0.1)),
    (make_sinusoid, dict(n_samples=50)),
    (make_banana, dict(n_samples=50)),
    (make_fkl_regression, dict(n_samples=50)),
    (make_pls_synthetic, dict(n_per_group=25)),
]


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("gen, kw", GENERATORS, ids=lambda g: getattr(g, "__name__", ""))
def test_generators_are_deterministic(gen, kw):
    a = _as_tuple(gen(**kw, random_state=3))
    b = _as_tuple(gen(**kw, random_state=np.random.RandomState(3)))
    c = _as_tuple(gen(**kw, random_state=4))
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], c[0])
    assert all(np.isfinite(np.asarray(u, dtype=float)).all() for u in a)


def test_lee_gaussians_equals_dense_recipe():
    n, d, p0, seed = 15, 6, 50, 7
    X, y, z = make_lee_gaussians(n, d, n_latent=p0, random_state=seed)
    assert X.shape == (2 * n, d)
    np.testing.assert_array_equal(y, z)
    np.testing.assert_array_equal(z, np.r_[np.ones(n), np.zeros(n)])

    # Independent dense construction from the paper's recipe (same random stream).
    m = p0 // 5

    def ar(r):
        i = np.arange(m)
        return r ** np.abs(i[:, None] - i[None, :]) / (1 - r**2)

    S1 = block_diag(*[ar(r) for r in (0.99, 0.98, 0.97, 0.98, 0.95)])
    S2 = block_diag(*[ar(r) for r in (0.95, 0.98, 0.97, 0.98, 0.99)])
    scale = np.linalg.norm(S2 - S1, 2)
    S1, S2 = S1 / scale, S2 / scale
    assert np.isclose(np.linalg.norm(S2 - S1, 2), 1.0)
    rng = np.random.RandomState(seed)
    Z1 = np.hstack([rng.standard_normal((n, m)) for _ in range(5)])
    Z2 = np.hstack([rng.standard_normal((n, m)) for _ in range(5)])
    W1, W2 = rng.standard_normal((p0, d)), rng.standard_normal((p0, d))
    mu2 = 2 * np.ones(p0) / np.sqrt(p0)
    expected = np.vstack([Z1 @ cholesky(S1) @ W1, (Z2 @ cholesky(S2) + mu2) @ W2])
    np.testing.assert_allclose(X, expected, rtol=1e-10, atol=1e-10)


def test_lee_gaussians_default_shape():
    X, y, z = make_lee_gaussians(random_state=0)
    assert X.shape == (480, 20) and z.sum() == 240


def test_covariance_mismatch_recipe():
    X, z = make_covariance_mismatch(n_per_group=4000, n_features=10, random_state=1)
    assert X.shape == (8000, 10)
    np.testing.assert_array_equal(z, np.repeat([0, 1], 4000))
    T = np.eye(10)
    T[:3, :3] = [[1, 0, 10], [1, 10, 10], [0, 10, 0]]
    rng = np.random.RandomState(1)
    np.testing.assert_array_equal(X[:4000], rng.standard_normal((4000, 10)))
    np.testing.assert_allclose(X[4000:], rng.standard_normal((4000, 10)) @ T)
    # Group 1 covariance is TᵀT, far from the identity of group 0.
    C1 = np.cov(X[z == 1].T)
    np.testing.assert_allclose(C1[:3, :3], (T.T @ T)[:3, :3], rtol=0.1, atol=2.0)


def test_circle_counterexample_appendix_a1():
    X, z = make_circle_counterexample(12, radius=2.0)
    np.testing.assert_array_equal(z, np.repeat([0, 1], 6))
    np.testing.assert_array_equal(X[z == 0], 0.0)
    np.testing.assert_allclose(np.linalg.norm(X[z == 1], axis=1), 2.0)
    # Both group means are zero: every projection satisfies fair PCA's constraint ...
    np.testing.assert_allclose(X[z == 1].mean(axis=0), 0.0, atol=1e-12)
    # ... yet 1[u·x != 0] recovers z for a generic direction u.
    u = np.array([np.cos(0.3), np.sin(0.3)])
    np.testing.assert_array_equal(np.abs(X @ u) > 1e-12, z == 1)
    # Deterministic without noise, whatever the seed.
    np.testing.assert_array_equal(X, make_circle_counterexample(12, radius=2.0, random_state=5)[0])


def test_sinusoid_recipe():
    X = make_sinusoid(20000, noise=0.1, random_state=0)
    a, b = X.T
    assert X.shape == (20000, 2)
    assert a.min() >= 0 and a.max() <= 1.5 * np.pi
    assert abs((b - np.sin(a)).std() - 0.1) < 0.005
    X0 = make_sinusoid(100, noise=0.0, random_state=1)
    np.testing.assert_allclose(X0[:, 1], np.sin(X0[:, 0]))


def test_banana_recipe():
    X, s = make_banana(500, signal_noise=0.0, random_state=2)
    signal = X - s[:, None] * np.array([1, 1]) / np.sqrt(2)
    np.testing.assert_allclose(signal[:, 1], signal[:, 0] ** 2 - 0.75, atol=1e-12)
    # The nuisance lies along pi/4: orthogonal to it, X does not depend on s.
    X2, s2 = make_banana(500, noise=3.0, signal_noise=0.0, random_state=2)
    perp = np.array([1, -1]) / np.sqrt(2)
    np.testing.assert_allclose(X2 @ perp, X @ perp, atol=1e-12)
    np.testing.assert_allclose(s2, 6 * s)


def test_fkl_regression_recipe():
    X, y, s = make_fkl_regression(300, sigma_f=0.0, sigma_y=0.0, random_state=0)
    a = X[:, 0]
    assert X.shape == (300, 1)
    np.testing.assert_allclose(a, np.log1p(np.abs(s)))  # the documented choice for log
    np.testing.assert_allclose(y, s**2 + a**2)
    # Negative s is allowed and finite (log would be undefined there).
    assert (s < 0).any() and np.isfinite(X).all()


def test_pls_synthetic_recipe():
    X, y, s = make_pls_synthetic(500, noise=0.0, random_state=0)
    assert X.shape == (1000, 7) and np.bincount(s).tolist() == [500, 500]
    assert set(np.unique(X[:, 4:])) <= {0.0, 1.0}
    # Without noise y is exactly linear in X with the documented group coefficients.
    beta = {0: [1, 0.5, 0.5, 0.25, 1, 1, 1], 1: [0.5, 1, 0.25, 0.5, 0.25, 0.25, 0.25]}
    for g in (0, 1):
        np.testing.assert_allclose(X[s == g] @ beta[g], y[s == g])
    # Rows are shuffled: the groups are interleaved.
    assert 0 < s[:500].sum() < 500
    # Latent means of variables 2, 3 are 10 in both groups.
    np.testing.assert_allclose(X[:, 2:4].mean(axis=0), 10.0, atol=0.15)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: make_lee_gaussians(0), "n_per_group"),
        (lambda: make_lee_gaussians(10, 5, n_latent=52), "multiple of 5"),
        (lambda: make_lee_gaussians(10, 2.5), "n_features"),
        (lambda: make_covariance_mismatch(10, 2), "n_features"),
        (lambda: make_circle_counterexample(7), "even"),
        (lambda: make_circle_counterexample(10, radius=0.0), "radius"),
        (lambda: make_sinusoid(10, noise=-1.0), "noise"),
        (lambda: make_banana(0), "n_samples"),
        (lambda: make_fkl_regression(10, sigma_s=0.0), "sigma_s"),
        (lambda: make_pls_synthetic(10, noise=-0.1), "noise"),
        (lambda: make_sinusoid(10, random_state="seed"), "random_state"),
    ],
)
def test_generators_refuse_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ======================================================================================
# shipped data: Adult, German credit, COMPAS
# ======================================================================================
@pytest.fixture(scope="module")
def adult():
    return {v: load_adult(variant=v) for v in ("lee2022", "agarwal")}


def _check_bunch(b):
    assert isinstance(b.X, pd.DataFrame) and isinstance(b.y, pd.Series)
    assert b.feature_names == list(b.X.columns)
    assert len(b.X) == len(b.y) == len(b.sensitive)
    assert all(dt == np.float64 for dt in b.X.dtypes) and np.isfinite(b.X.to_numpy()).all()
    for word in ("License", "Citation", "Preprocessing", "sha256"):
        assert word in b.DESCR


def test_adult_lee2022_recipe(adult):
    b = adult["lee2022"]
    _check_bunch(b)
    assert b.X.shape == (45222, 97)
    assert int(b.y.sum()) == 11208 and int(b.sensitive.sum()) == 30527
    # sex (Male = 1) is feature 2, as in Lee et al.'s files; race and fnlwgt are gone.
    assert b.feature_names[:6] == [
        "age", "education-num", "sex", "capital-gain", "capital-loss", "hours-per-week",
    ]
    np.testing.assert_array_equal(b.X["sex"], b.sensitive)
    assert not any(c.startswith(("race", "fnlwgt")) or "?" in c for c in b.feature_names)
    blocks = {"workclass": 7, "education": 16, "marital-status": 7, "occupation": 14,
              "relationship": 6, "native-country": 41}
    for col, k in blocks.items():
        cols = [c for c in b.feature_names if c.startswith(col + "=")]
        assert len(cols) == k
        np.testing.assert_array_equal(b.X[cols].sum(axis=1), 1.0)  # one level per row


def test_adult_agarwal_recipe(adult):
    b = adult["agarwal"]
    _check_bunch(b)
    assert b.X.shape == (48842, 99)
    assert int(b.y.sum()) == 11687 and int(b.sensitive.sum()) == 32650
    assert "sex" not in b.feature_names and "fnlwgt" in b.feature_names
    assert any(c.startswith("race=") for c in b.feature_names)
    # Kleindessner et al. App. C.2: 23.9 % positive; De-Diego et al. Table 2: DI 0.3597.
    assert round(b.y.mean(), 3) == 0.239
    assert round(_di(b.y, b.sensitive, 1), 4) == 0.3597


def test_adult_pls_is_agarwal_encoding(adult):
    b = load_adult(variant="pls")
    pd.testing.assert_frame_equal(b.X, adult["agarwal"].X)
    assert "36" in b.DESCR  # the feature-count difference is documented


def test_german_lee2022_recipe():
    b = load_german()
    _check_bunch(b)
    assert b.X.shape == (1000, 57)
    assert int(b.y.sum()) == 300 and b.pos_label == 0  # y = 1: bad credit, as Lee
    assert int(b.sensitive.sum()) == 851
    assert b.feature_names.index("age") == 4
    np.testing.assert_array_equal(b.X["age"], b.sensitive)
    assert not any(c.startswith(("personal_status", "sex")) for c in b.feature_names)


def test_german_pls_recipe():
    b = load_german(variant="pls")
    _check_bunch(b)
    assert b.X.shape == (1000, 47) and "age" not in b.feature_names
    assert int(b.y.sum()) == 700 and int(b.sensitive.sum()) == 810
    assert round(_di(b.y, b.sensitive, b.pos_label), 4) == 0.7948  # De-Diego et al. Table 2


def test_compas_lee2022_recipe():
    b = load_compas()
    _check_bunch(b)
    assert b.X.shape == (6172, 11)
    assert b.feature_names[:2] == ["age", "race"]
    np.testing.assert_array_equal(b.X["race"], b.sensitive)
    assert int(b.sensitive.sum()) == 2103 and int(b.y.sum()) == 2809 and b.pos_label == 0
    assert not any(c.startswith(("sex", "c_charge_desc")) for c in b.feature_names)


def test_compas_pls_recipe():
    b = load_compas(variant="pls")
    _check_bunch(b)
    assert b.X.shape == (6150, 8)
    assert list(b.X.columns[-2:]) == ["decile_score", "event"]  # named by De-Diego et al.
    assert round(_di(b.y, b.sensitive, b.pos_label), 4) == 0.8009  # De-Diego et al. Table 2


@pytest.mark.parametrize(
    "loader, variant",
    [(load_adult, "lee"), (load_german, "agarwal"), (load_compas, None), (load_bank, "pls"),
     (load_cmc, "lee2022"), (load_lawschool, "kusner"), (load_a9a, "train")],
)
def test_unknown_variant_is_refused(loader, variant):
    with pytest.raises(ValueError, match="unknown variant"):
        loader(variant=variant)


def test_shipped_file_with_one_byte_changed_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)  # else $FAIRLAB_DATA/german/ is read
    raw = bytearray(lzma.decompress((_fetch.DATA_DIR / "german.data.xz").read_bytes()))
    raw[1000] ^= 1
    (tmp_path / "german.data.xz").write_bytes(lzma.compress(bytes(raw)))
    monkeypatch.setattr(_fetch, "DATA_DIR", tmp_path)
    with pytest.raises(ChecksumError, match="SHA-256 mismatch"):
        load_german()


# ======================================================================================
# Lee et al. (2022)'s published splits (shipped; from $FAIRLAB_DATA when it has them)
# ======================================================================================
LEE = Path(DATA).expanduser() / "fair-manifold-pca" if DATA else None


@pytest.mark.parametrize(
    "name, shape, col",
    [("adult", (1582, 679, 97), 2), ("german", (700, 300, 57), 4), ("compas", (1727, 741, 11), 1)],
)
def test_lee2022_split(name, shape, col):
    b = load_lee2022_split(name, 3)
    assert (len(b.X_train), len(b.X_test), b.X_train.shape[1]) == shape
    for part in ("train", "test"):
        X, s, y = b[f"X_{part}"], b[f"s_{part}"], b[f"y_{part}"]
        assert X.dtype == float and set(np.unique(s)) == {0.0, 1.0}
        assert set(np.unique(y)) == {0.0, 1.0}
        # The sensitive attribute is a (standardised) feature: its sign gives s.
        np.testing.assert_array_equal(X[:, col] > 0, s == 1)
    np.testing.assert_allclose(b.X_train.mean(axis=0), 0.0, atol=1e-8)


@_needs("fair-manifold-pca/datasets/German/full.csv.gz")
def test_german_lee2022_equals_lee_full_csv():
    full = np.loadtxt(Path(DATA) / "fair-manifold-pca/datasets/German/full.csv.gz", delimiter=",")
    b = load_german()
    mine = np.column_stack([b.X.to_numpy(), b.y, b.sensitive])
    np.testing.assert_array_equal(mine, full)  # bit-identical, row order included


@_needs("fair-manifold-pca/datasets/COMPAS/full.csv.gz")
def test_compas_lee2022_contains_lee_subsample():
    full = np.loadtxt(Path(DATA) / "fair-manifold-pca/datasets/COMPAS/full.csv.gz", delimiter=",")
    b = load_compas()
    mine = np.column_stack([b.X.to_numpy(), b.y, b.sensitive])
    rows = pd.DataFrame(mine).value_counts()
    theirs = pd.DataFrame(full).value_counts()
    assert (rows.reindex(theirs.index, fill_value=0) >= theirs).all()


def test_adult_lee2022_binary_columns_match_lee_split():
    """Undo the standardisation of Lee's binary columns: every row is one of ours."""
    X = load_lee2022_split("adult", 0).X_train
    cols = [2, *range(6, 97)]  # sex and the 91 one-hot columns
    raw = []
    for j in cols:
        values = np.unique(X[:, j])
        assert len(values) <= 2
        # (0 - p)/sd < (1 - p)/sd: the smaller value is 0; a constant column is all 0
        raw.append(np.zeros(len(X)) if len(values) == 1 else
                   (X[:, j] - values[0]) / (values[1] - values[0]))
    raw = np.column_stack(raw).round(9)
    ours = set(map(tuple, load_adult().X.to_numpy()[:, cols]))
    assert all(tuple(r) in ours for r in raw)


def test_lee2022_split_falls_back_to_the_shipped_copy(tmp_path, monkeypatch):
    """$FAIRLAB_DATA without Lee's files: the shipped copy is read; without it, a clear error."""
    monkeypatch.setenv("FAIRLAB_DATA", str(tmp_path))
    monkeypatch.setenv("FAIRLAB_CACHE", str(tmp_path / "cache"))
    b = load_lee2022_split("german", 0)
    assert b.X_train.shape == (700, 57) and b.X_test.shape == (300, 57)
    assert not (tmp_path / "cache").exists()  # nothing downloaded, nothing created
    monkeypatch.setattr(_fetch, "DATA_DIR", tmp_path / "no-data")  # installation without it
    with pytest.raises(FileNotFoundError, match="FAIRLAB_DATA") as info:
        load_lee2022_split("german", 0)
    message = str(info.value)
    assert "German/train_0.csv" in message and "download_if_missing=True" in message
    assert str(tmp_path / "fair-manifold-pca" / "datasets" / "German" / "train_0.csv") in message
    assert ("raw.githubusercontent.com/nick-jhlee/fair-manifold-pca/"
            "cbd5c305ca40f380707c92f5cfd9df128e17017a/datasets/German/train_0.csv") in message
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize(
    "dataset, split, match",
    [("celeba", 0, "dataset must be one of"), ("adult", 10, "split must be"),
     ("adult", -1, "split must be"), ("adult", 1.0, "split must be")],
)
def test_lee2022_split_bad_arguments(dataset, split, match):
    with pytest.raises(ValueError, match=match):
        load_lee2022_split(dataset, split)


def _shipped_lee(name, key):
    """The original bytes of one of Lee et al.'s shipped files."""
    return lzma.decompress(_fetch.shipped_path(key, name).read_bytes())


def test_lee2022_split_refuses_a_changed_byte(tmp_path):
    """A local copy is read before the shipped one, and a damaged one is refused, not skipped."""
    dst = tmp_path / "datasets" / "German"
    dst.mkdir(parents=True)
    for part in ("train", "test"):
        raw = bytearray(_shipped_lee("lee2022_splits", f"German/{part}_0.csv"))
        if part == "test":
            raw[10] = ord("7") if raw[10] != ord("7") else ord("8")
        (dst / f"{part}_0.csv").write_bytes(bytes(raw))
    with pytest.raises(ChecksumError, match="test_0.csv"):
        load_lee2022_split("german", 0, data_home=tmp_path)


def test_lee2022_lookup_order_data_home_then_env_then_shipped(tmp_path, monkeypatch):
    """data_home, then $FAIRLAB_DATA/fair-manifold-pca, then the shipped copy, then the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("FAIRLAB_CACHE", str(cache))
    env, home = tmp_path / "env", tmp_path / "home"
    monkeypatch.setenv("FAIRLAB_DATA", str(env))
    split_key, load_key = "COMPAS/train_2.csv", "COMPAS/2_stfpca_3/STFPCA_V_2.csv"
    # (record, key): (copy under $FAIRLAB_DATA, copy under data_home, copy in the user cache);
    # plain or .gz, and the loadings under results/ or the repository's own uci/.
    copies = {
        ("lee2022_splits", split_key): (
            env / "fair-manifold-pca/datasets" / split_key,
            home / "datasets" / f"{split_key}.gz",
            cache / "fair-manifold-pca/datasets" / split_key),
        ("lee2022_loadings", load_key): (
            env / "fair-manifold-pca/results" / f"{load_key}.gz",
            home / "fair-manifold-pca/uci" / load_key,
            cache / "fair-manifold-pca/results" / f"{load_key}.gz"),
    }

    def put(path, raw):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(raw) if path.suffix == ".gz" else raw)

    for (name, key), (in_env, in_home, in_cache) in copies.items():
        order = [p for p, _ in _lee2022._candidates(name, key, home)]
        shipped = _fetch.shipped_path(key, name)
        assert (order.index(in_home) < order.index(in_env) < order.index(shipped)
                < order.index(in_cache))
        raw = _shipped_lee(name, key)
        put(in_env, raw)
        put(in_home, raw)
        put(in_cache, b"0,1\n")  # damaged, but never reached: the shipped copy comes first

    def read(**kw):
        return (load_lee2022_split("compas", 2, **kw).X_train,
                load_lee2022_loadings("compas", "2_stfpca_3", 2, **kw).V)

    from_home, from_env = read(data_home=home), read()
    # A damaged copy in data_home is read first and refused, not skipped ...
    for _, in_home, _ in copies.values():
        put(in_home, b"0,1\n")
    with pytest.raises(ChecksumError, match="train_2.csv.gz"):
        load_lee2022_split("compas", 2, data_home=home)
    with pytest.raises(ChecksumError, match="STFPCA_V_2.csv"):
        load_lee2022_loadings("compas", "2_stfpca_3", 2, data_home=home)
    # ... and so is one in $FAIRLAB_DATA, before the shipped copy.
    for in_env, _, _ in copies.values():
        put(in_env, b"0,1\n")
    with pytest.raises(ChecksumError, match="train_2.csv"):
        load_lee2022_split("compas", 2)
    with pytest.raises(ChecksumError, match="STFPCA_V_2.csv.gz"):
        load_lee2022_loadings("compas", "2_stfpca_3", 2)
    monkeypatch.delenv("FAIRLAB_DATA")
    for a, b, c in zip(read(), from_home, from_env):  # the shipped copy, before the cache
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


@pytest.mark.skipif(LEE is None or not (LEE / "datasets").is_dir(),
                    reason="FAIRLAB_DATA/fair-manifold-pca/datasets not available")
@pytest.mark.parametrize("name, sub", [("lee2022_splits", "datasets"),
                                       ("lee2022_loadings", "results")])
def test_lee2022_shipped_files_equal_the_fairlab_data_copies(name, sub):
    """Every shipped file of Lee et al. is byte for byte the raw copy under $FAIRLAB_DATA."""
    files = provenance(name)["files"]
    for key in files:
        src = LEE / sub / f"{key}.gz"
        if not src.is_file():
            pytest.fail(f"{src} is missing from FAIRLAB_DATA")
        assert _shipped_lee(name, key) == gzip.decompress(src.read_bytes()), key


@pytest.mark.skipif(LEE is None or not (LEE / "datasets").is_dir(),
                    reason="FAIRLAB_DATA/fair-manifold-pca/datasets not available")
@pytest.mark.parametrize("name", ["adult", "german", "compas"])
def test_lee2022_fairlab_data_copy_takes_precedence_and_equals_shipped(name, monkeypatch):
    folder = _lee2022._FOLDERS[name]
    for part in ("train", "test"):
        key = f"{folder}/{part}_6.csv"
        found = next(p for p, _ in _lee2022._candidates("lee2022_splits", key, None)
                     if p.is_file())
        assert found == LEE / "datasets" / f"{key}.gz"
    from_env = load_lee2022_split(name, 6)
    monkeypatch.delenv("FAIRLAB_DATA")
    shipped = load_lee2022_split(name, 6)
    for field in ("X_train", "y_train", "s_train", "X_test", "y_test", "s_test"):
        np.testing.assert_array_equal(from_env[field], shipped[field])
    assert from_env.DESCR == shipped.DESCR


# ======================================================================================
# data sets shipped since fairlab 0.1 (read from $FAIRLAB_DATA when it is set), and the
# external Law School through FAIRLAB_DATA
# ======================================================================================
def test_bank_agarwal_recipe():
    b = load_bank()
    _check_bunch(b)
    assert b.X.shape == (41188, 52) and "age" not in b.feature_names
    # Kleindessner et al. App. C.2: 11.3 % yes, 42.3 % older than 40.
    assert round(b.y.mean(), 3) == 0.113 and round(b.sensitive.mean(), 3) == 0.423


@_needs("lawschool/law_data.csv")
def test_lawschool_pls_recipe():
    b = load_lawschool(download_if_missing=False)
    _check_bunch(b)
    assert "Availability: external, not shipped" in b.DESCR
    assert b.X.shape == (19567, 3) and int(b.sensitive.sum()) == 18285
    assert round(_di(b.y, b.sensitive, 1), 4) == 0.6713  # De-Diego et al. Table 2


@_needs("lawschool/law_school_clean.csv")
def test_lawschool_lequy_recipe():
    b = load_lawschool(variant="lequy", download_if_missing=False)
    _check_bunch(b)
    assert b.X.shape == (20798, 10) and int(b.y.sum()) == 18505


def test_diabetes_pls_recipe():
    b = load_diabetes()
    _check_bunch(b)
    assert b.X.shape == (71518, 18)
    assert round(_di(b.y, b.sensitive, 1), 4) == 0.8952  # De-Diego et al. Table 2


def test_communities_pls_recipe():
    b = load_communities()
    _check_bunch(b)
    assert b.X.shape == (1994, 98) and b.pos_label is None
    assert b.y.between(0, 1).all() and "racepctblack" not in b.feature_names
    assert int(b.sensitive.sum()) == 1024


def test_cmc_fkl_recipe():
    b = load_cmc()
    _check_bunch(b)
    assert b.X.shape == (1473, 9) and int(b.y.sum()) == 333 + 511
    assert list(b.sensitive.columns) == [
        "wife_education", "husband_education", "n_children", "media_exposure",
    ]


def test_a9a_matches_adult_rows():
    b = load_a9a()
    assert b.X.shape == (32561, 123) and set(np.unique(b.X)) == {0.0, 1.0}
    # a9a's rows are adult.data's rows, in order: labels and sex agree with the raw file.
    from fairlab.datasets._real import _read_adult

    raw = _read_adult().iloc[:32561]
    np.testing.assert_array_equal(b.y, (raw["income"] == ">50K").astype(int))
    np.testing.assert_array_equal(b.sensitive["sex"], (raw["sex"] == "Male").astype(int))
    np.testing.assert_array_equal(b.sensitive["race"], raw["race"])
    np.testing.assert_array_equal(b.X.iloc[:, 71] + b.X.iloc[:, 72], 1.0)
    assert b.variant == "fkl" and b.subset == "train"
    with pytest.raises(ValueError, match="subset must be"):
        load_a9a(subset="validation")
    test = load_a9a(subset="test")
    assert test.X.shape == (16281, 123) and int(test.y.sum()) == 3846


SHIPPED_CALLS = [
    (load_adult, {"variant": "lee2022"}, "adult"), (load_german, {}, "german"),
    (load_compas, {}, "compas"), (load_bank, {}, "bank"), (load_diabetes, {}, "diabetes"),
    (load_communities, {}, "communities"), (load_cmc, {}, "cmc"),
    (load_a9a, {"subset": "test"}, "a9a"),
]


@pytest.mark.parametrize("loader, kwargs, name", SHIPPED_CALLS,
                         ids=[c[2] for c in SHIPPED_CALLS])
def test_fairlab_data_copy_takes_precedence_and_equals_shipped(loader, kwargs, name,
                                                                monkeypatch):
    """CI sets FAIRLAB_DATA: its raw copy is the one read, and it gives the shipped data."""
    if not DATA or not (Path(DATA) / name).is_dir():
        pytest.skip(f"FAIRLAB_DATA/{name} not available")
    files = list(provenance(name)["files"])
    for filename in files:
        assert _fetch.fetch_file(name, filename) == Path(DATA).expanduser() / name / filename
    from_env = loader(**kwargs)
    monkeypatch.delenv("FAIRLAB_DATA")
    for filename in files:
        assert _fetch.fetch_file(name, filename) == _fetch.DATA_DIR / f"{filename}.xz"
    shipped = loader(**kwargs)
    pd.testing.assert_frame_equal(from_env.X, shipped.X)
    pd.testing.assert_series_equal(from_env.y, shipped.y)
    assert from_env.DESCR == shipped.DESCR


def test_data_home_copy_takes_precedence(tmp_path, monkeypatch):
    """A file in data_home is read before $FAIRLAB_DATA and the shipped copy."""
    monkeypatch.setenv("FAIRLAB_DATA", str(tmp_path / "env"))
    raw = lzma.decompress((_fetch.DATA_DIR / "cmc.data.xz").read_bytes())
    (tmp_path / "env" / "cmc").mkdir(parents=True)
    (tmp_path / "env" / "cmc" / "cmc.data").write_bytes(raw)
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "cmc.data").write_bytes(raw)
    assert _fetch.fetch_file("cmc", "cmc.data", data_home=tmp_path / "home") == (
        tmp_path / "home" / "cmc.data")
    assert _fetch.fetch_file("cmc", "cmc.data") == tmp_path / "env" / "cmc" / "cmc.data"
    # The first copy found is used: a bad one is refused, not skipped for the shipped one.
    (tmp_path / "home" / "cmc.data").write_bytes(raw.replace(b"1", b"2", 1))
    with pytest.raises(ChecksumError, match="cmc.data"):
        load_cmc(data_home=tmp_path / "home")
    (tmp_path / "env" / "cmc" / "cmc.data").write_bytes(raw[:-1])
    with pytest.raises(ChecksumError, match="SHA-256 mismatch"):
        load_cmc()


# ======================================================================================
# summary table
# ======================================================================================
def test_summarize_reports_label_bias():
    from fairlab.metrics import disparate_impact

    german = load_german(variant="pls")
    table = summarize([german, load_compas()])
    row = table.iloc[0]
    assert (row["n"], row["d"], row["n_privileged"], row["n_unprivileged"]) == (1000, 47, 810, 190)
    assert row["bias_kind"] == "DI"
    expected = disparate_impact(None, german.y, sensitive_features=german.sensitive,
                                privileged_group=1, pos_label=1)
    assert row["bias"] == pytest.approx(expected) and round(row["bias"], 4) == 0.7948
    assert row["base_rate"] == pytest.approx(0.7)
    # COMPAS lee2022: y = 1 is re-offending, the favourable label is 0.
    assert table.iloc[1]["base_rate"] == pytest.approx(1 - load_compas().y.mean())


def test_summarize_lists_every_dataset_with_availability_licence_and_size():
    table = summarize().set_index("dataset")
    records = provenance()
    assert set(table.index) == set(records) and "lee2022_splits" in table.index
    assert table.loc["lawschool", "availability"] == "external"
    assert table.loc["lee2022_splits", "loader"] == "load_lee2022_split"
    assert table.loc["lee2022_loadings", "loader"] == "load_lee2022_loadings"
    lee = {"lee2022_splits": 60, "lee2022_loadings": 250}
    for name, n_files in lee.items():
        row = table.loc[name]
        assert (row["availability"], row["license"], row["n_files"]) == ("shipped", "MIT", n_files)
    assert 0.7 < table.loc["lee2022_splits", "shipped_mb"] < 0.9  # 81 MB of CSV
    shipped = ["adult", "german", "compas", "bank", "diabetes", "communities", "cmc", "a9a"]
    assert sorted(table.index[table["availability"] == "shipped"]) == sorted([*shipped, *lee])
    assert table.loc[table["availability"] == "shipped", "shipped_mb"].sum() < 6
    for name in [*shipped, *lee]:
        row = table.loc[name]
        assert 0 < row["shipped_mb"] < row["size_mb"]
    for name in shipped:
        assert table.loc[name, "loader"] == f"load_{name}"
    for name in ("bank", "diabetes", "communities", "cmc", "a9a"):
        assert table.loc[name, "license"] == "CC BY 4.0"
    assert table["license"].str.len().gt(0).all()
    assert np.isnan(table.loc["lawschool", "shipped_mb"])
    # With loaded data: the statistics, then availability and licence.
    loaded = summarize([load_cmc()])
    assert loaded.loc[0, "availability"] == "shipped" and loaded.loc[0, "license"] == "CC BY 4.0"
    with pytest.raises(TypeError, match="summarize\\(\\[load_adult\\(\\)\\]\\)"):
        summarize(load_cmc())


@pytest.mark.parametrize(
    "loader, name",
    [(load_adult, "adult"), (load_bank, "bank"), (load_diabetes, "diabetes"), (load_cmc, "cmc")],
)
def test_descr_says_where_the_data_come_from(loader, name):
    text = loader().DESCR
    assert "Availability: shipped with fairlab" in text
    assert f"$FAIRLAB_DATA/{name}/" in text and "License: " in text
