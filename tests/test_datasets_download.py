"""Finding, verifying and downloading data files — on loopback only.

A tiny fixture is generated in each test and served by :mod:`http.server` on 127.0.0.1;
the URL/checksum table ``fairlab.datasets._fetch.REMOTE_FILES`` (external files) or the
base URL ``fairlab.datasets._lee2022.BASE_URL`` (Lee et al.'s splits and loading matrices) is
monkeypatched to point at it.  No test touches the external network.  Lee et al.'s files ship
with fairlab, so their download path is only reached by an installation without the shipped
copy: those tests point ``_fetch.DATA_DIR`` at an empty folder.
"""

import gzip
import hashlib
import http.server
import io
import os
import threading
import zipfile
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from fairlab.datasets import (
    ChecksumError,
    _fetch,
    _lee2022,
    fetch_file,
    get_data_home,
    load_cmc,
    load_lawschool,
    load_lee2022_loadings,
    load_lee2022_split,
)


def _sha(data):
    return hashlib.sha256(data).hexdigest()


class _Handler(http.server.SimpleHTTPRequestHandler):
    hits = []

    def do_GET(self):  # noqa: N802 (http.server API)
        type(self).hits.append(self.path)
        super().do_GET()

    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture
def server(tmp_path):
    """Serve ``tmp_path / "www"`` on 127.0.0.1; yields (base_url, folder, request log)."""
    www = tmp_path / "www"
    www.mkdir()
    hits = []
    handler = type("H", (_Handler,), {"hits": hits})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=www))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", www, hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No FAIRLAB_DATA, a private user cache; returns the cache folder."""
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("FAIRLAB_CACHE", str(cache))
    monkeypatch.setattr(_fetch, "REMOTE_FILES", dict(_fetch.REMOTE_FILES))
    return cache


def _register(dataset, filename, url, payload, member=None):
    _fetch.REMOTE_FILES[(dataset, filename)] = {
        "url": url, "sha256": _sha(payload), "member": member,
    }


PAYLOAD = b"a,b\n1,2\n3,4\n"


def test_download_verifies_and_caches(server, isolated):
    base, www, hits = server
    (www / "tiny.csv").write_bytes(PAYLOAD)
    _register("fixture", "tiny.csv", f"{base}/tiny.csv", PAYLOAD)
    path = fetch_file("fixture", "tiny.csv")
    assert path == isolated / "fixture" / "tiny.csv" and path.read_bytes() == PAYLOAD
    assert hits == ["/tiny.csv"]
    # Second call: served from the cache, no request.
    assert fetch_file("fixture", "tiny.csv") == path
    assert hits == ["/tiny.csv"]
    assert get_data_home() == isolated


def test_download_into_data_home(server, isolated, tmp_path):
    base, www, _ = server
    (www / "tiny.csv").write_bytes(PAYLOAD)
    _register("fixture", "tiny.csv", f"{base}/tiny.csv", PAYLOAD)
    home = tmp_path / "home"
    path = fetch_file("fixture", "tiny.csv", data_home=home)
    assert path == home / "fixture" / "tiny.csv"
    assert not (isolated / "fixture").exists()


def test_download_extracts_a_zip_member(server, isolated):
    base, www, _ = server
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("pack/tiny.csv", PAYLOAD)
        archive.writestr("pack/other.txt", b"ignored")
    (www / "pack.zip").write_bytes(buffer.getvalue())
    _register("fixture", "tiny.csv", f"{base}/pack.zip", PAYLOAD, member="pack/tiny.csv")
    assert fetch_file("fixture", "tiny.csv").read_bytes() == PAYLOAD


def test_download_with_wrong_checksum_is_refused_and_not_saved(server, isolated):
    base, www, _ = server
    (www / "tiny.csv").write_bytes(PAYLOAD.replace(b"4", b"5"))  # one byte changed
    _register("fixture", "tiny.csv", f"{base}/tiny.csv", PAYLOAD)
    with pytest.raises(ChecksumError, match="nothing was saved"):
        fetch_file("fixture", "tiny.csv")
    assert not (isolated / "fixture" / "tiny.csv").exists()


def test_offline_error_names_file_and_place(server, isolated):
    base, _, _ = server
    _register("fixture", "tiny.csv", f"{base}/missing.csv", PAYLOAD)  # 404
    with pytest.raises(FileNotFoundError, match="downloading it failed") as info:
        fetch_file("fixture", "tiny.csv")
    message = str(info.value)
    assert "tiny.csv" in message and str(isolated / "fixture" / "tiny.csv") in message
    assert "FAIRLAB_DATA" in message


def test_download_if_missing_false_makes_no_request(server, isolated):
    base, www, hits = server
    (www / "tiny.csv").write_bytes(PAYLOAD)
    _register("fixture", "tiny.csv", f"{base}/tiny.csv", PAYLOAD)
    with pytest.raises(FileNotFoundError, match="download_if_missing=False"):
        fetch_file("fixture", "tiny.csv", download_if_missing=False)
    assert hits == []


def test_local_file_with_one_byte_changed_is_refused(isolated, tmp_path):
    _register("fixture", "tiny.csv", "http://127.0.0.1:9/never", PAYLOAD)
    home = tmp_path / "home" / "fixture"
    home.mkdir(parents=True)
    (home / "tiny.csv").write_bytes(PAYLOAD[:-2] + b"5\n")
    with pytest.raises(ChecksumError, match="SHA-256 mismatch"):
        fetch_file("fixture", "tiny.csv", data_home=tmp_path / "home")


def test_search_order_data_home_then_env_then_cache(isolated, tmp_path, monkeypatch):
    _register("fixture", "tiny.csv", "http://127.0.0.1:9/never", PAYLOAD)
    home, env = tmp_path / "home", tmp_path / "env"
    for root in (home, env, isolated):
        (root / "fixture").mkdir(parents=True)
    (home / "fixture" / "tiny.csv").write_bytes(PAYLOAD)
    (env / "fixture" / "tiny.csv").write_bytes(b"corrupt")
    (isolated / "fixture" / "tiny.csv").write_bytes(b"corrupt")
    monkeypatch.setenv("FAIRLAB_DATA", str(env))
    assert fetch_file("fixture", "tiny.csv", data_home=home) == home / "fixture" / "tiny.csv"
    # Without data_home, $FAIRLAB_DATA comes next, and a bad copy there is refused — not
    # silently skipped in favour of the cache.
    with pytest.raises(ChecksumError):
        fetch_file("fixture", "tiny.csv")
    (env / "fixture" / "tiny.csv").write_bytes(PAYLOAD)
    assert fetch_file("fixture", "tiny.csv") == env / "fixture" / "tiny.csv"
    # data_home may also hold the file directly.
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "tiny.csv").write_bytes(PAYLOAD)
    assert fetch_file("fixture", "tiny.csv", data_home=flat) == flat / "tiny.csv"


def test_unknown_file_is_refused(isolated):
    with pytest.raises(ValueError, match="Unknown data file"):
        fetch_file("nope", "x.csv")


def test_loader_end_to_end_through_download(server, isolated):
    """load_lawschool (external) downloads a generated law_data.csv, verifies and parses it."""
    rng = np.random.default_rng(0)
    races = np.array(["White", "Black", "Asian", "White", "Black", "Hispanic"] * 5)
    rows = ["," + ",".join(["race", "sex", "LSAT", "UGPA", "region_first", "ZFYA",
                            "sander_index", "first_pf"])]
    for i, race in enumerate(races):
        rows.append(f"{i},{race},{1 + i % 2},{rng.integers(20, 48)},{rng.uniform(2, 4):.1f},"
                    f"GL,{rng.normal():.3f},{rng.uniform():.3f},{i % 3 != 0:d}")
    payload = ("\n".join(rows) + "\n").encode()
    base, www, _ = server
    (www / "law_data.csv").write_bytes(payload)
    _register("lawschool", "law_data.csv", f"{base}/law_data.csv", payload)
    b = load_lawschool()
    assert b.X.shape == (20, 3) and list(b.X.columns) == ["LSAT", "UGPA", "ZFYA"]
    assert int(b.sensitive.sum()) == 10  # White = 1; Asian and Hispanic rows dropped
    assert (isolated / "lawschool" / "law_data.csv").read_bytes() == payload
    # With the cached copy gone and downloads disabled: a clear error naming the file.
    (isolated / "lawschool" / "law_data.csv").unlink()
    with pytest.raises(FileNotFoundError, match="lawschool/law_data.csv not found"):
        load_lawschool(download_if_missing=False)


def test_shipped_dataset_makes_no_request(server, isolated):
    """CMC ships with fairlab: even with a reachable source it is never downloaded."""
    base, www, hits = server
    (www / "cmc.data").write_bytes(PAYLOAD)
    _register("cmc", "cmc.data", f"{base}/cmc.data", PAYLOAD)
    assert load_cmc().X.shape == (1473, 9)
    assert hits == [] and not isolated.exists()


def test_registered_sources_are_complete():
    """Every raw file (shipped ones too) has an https/http URL and a SHA-256."""
    expected = {
        ("adult", "adult.data"), ("adult", "adult.test"), ("german", "german.data"),
        ("compas", "compas-scores-two-years.csv"),
        ("bank", "bank-additional-full.csv"), ("lawschool", "law_data.csv"),
        ("lawschool", "law_school_clean.csv"), ("diabetes", "diabetic_data.csv"),
        ("communities", "communities.data"), ("communities", "communities.names"),
        ("cmc", "cmc.data"), ("a9a", "a9a"), ("a9a", "a9a.t"),
    }
    assert set(_fetch.REMOTE_FILES) == expected
    for spec in _fetch.REMOTE_FILES.values():
        assert spec["url"].startswith(("https://", "http://"))
        assert len(spec["sha256"]) == 64


# ======================================================================================
# Lee et al.'s splits, downloaded on request (by an installation without the shipped copy)
# ======================================================================================
DATA = os.environ.get("FAIRLAB_DATA")
LEE_PIN = "cbd5c305ca40f380707c92f5cfd9df128e17017a"


def _fake_split(n, d, seed):
    rng = np.random.default_rng(seed)
    table = np.column_stack([rng.normal(size=(n, d)), rng.integers(0, 2, (n, 2))])
    return "".join(",".join(f"{v:.18e}" for v in row) + "\n" for row in table).encode()


@pytest.fixture
def no_shipped_data(tmp_path, monkeypatch):
    """An installation whose package data folder is empty (nothing shipped is found)."""
    empty = tmp_path / "no-package-data"
    empty.mkdir()
    monkeypatch.setattr(_fetch, "DATA_DIR", empty)
    return empty


@pytest.fixture
def lee_server(server, isolated, no_shipped_data, monkeypatch):
    """Lee et al.'s German split 0 (generated) served at the repository's raw layout."""
    base, www, hits = server
    folder = www / "repo" / "datasets" / "German"
    folder.mkdir(parents=True)
    files = _fetch._provenance_table()["lee2022_splits"]["files"]
    payloads = {}
    for part, n in (("train", 7), ("test", 3)):
        payload = _fake_split(n, 4, seed=n)
        (folder / f"{part}_0.csv").write_bytes(payload)
        monkeypatch.setitem(files, f"German/{part}_0.csv",
                            {"sha256": _sha(payload), "size": len(payload)})
        payloads[part] = payload
    monkeypatch.setattr(_lee2022, "BASE_URL", f"{base}/repo")
    return www, hits, payloads


def test_lee2022_shipped_copy_comes_before_the_cache_and_the_network(server, isolated,
                                                                     monkeypatch):
    """With the shipped copy present, download_if_missing=True neither downloads nor caches."""
    base, _, hits = server
    monkeypatch.setattr(_lee2022, "BASE_URL", base)
    b = load_lee2022_split("german", 0, download_if_missing=True)
    V = load_lee2022_loadings("german", "2_fpca_0.0", 0, download_if_missing=True).V
    assert b.X_train.shape == (700, 57) and V.shape == (57, 2)
    assert hits == [] and not isolated.exists()


def test_lee2022_loadings_download_on_request_verifies_and_caches(server, isolated,
                                                                  no_shipped_data, monkeypatch):
    base, www, hits = server
    key = "German/2_fpca_0.0/FPCA_V_0.csv"
    payload = b"1.0e+00,0.0e+00\n0.0e+00,1.0e+00\n0.0e+00,0.0e+00\n"
    (www / "repo" / "uci" / "German" / "2_fpca_0.0").mkdir(parents=True)
    (www / "repo" / "uci" / key).write_bytes(payload)
    files = _fetch._provenance_table()["lee2022_loadings"]["files"]
    monkeypatch.setitem(files, key, {"sha256": _sha(payload), "size": len(payload)})
    monkeypatch.setattr(_lee2022, "BASE_URL", f"{base}/repo")
    with pytest.raises(FileNotFoundError, match="download_if_missing=True"):
        load_lee2022_loadings("german", "2_fpca_0.0", 0)
    assert hits == []
    b = load_lee2022_loadings("german", "2_fpca_0.0", 0, download_if_missing=True)
    np.testing.assert_array_equal(b.V, np.eye(3, 2))
    assert hits == ["/repo/uci/German/2_fpca_0.0/FPCA_V_0.csv"]
    cached = isolated / "fair-manifold-pca" / "results" / f"{key}.gz"
    assert gzip.decompress(cached.read_bytes()) == payload
    again = load_lee2022_loadings("german", "2_fpca_0.0", 0)  # from the cache, no request
    np.testing.assert_array_equal(again.V, b.V)
    assert len(hits) == 1


def test_lee2022_base_url_is_pinned():
    assert _lee2022.BASE_URL == (
        f"https://raw.githubusercontent.com/nick-jhlee/fair-manifold-pca/{LEE_PIN}")


def test_lee2022_download_on_request_verifies_and_caches(lee_server, isolated):
    _, hits, payloads = lee_server
    b = load_lee2022_split("german", 0, download_if_missing=True)
    assert hits == ["/repo/datasets/German/train_0.csv", "/repo/datasets/German/test_0.csv"]
    train = np.loadtxt(io.BytesIO(payloads["train"]), delimiter=",")
    np.testing.assert_array_equal(b.X_train, train[:, :-2])
    np.testing.assert_array_equal(b.s_train, train[:, -1])
    assert b.X_test.shape == (3, 4)
    cached = isolated / "fair-manifold-pca" / "datasets" / "German" / "train_0.csv.gz"
    assert gzip.decompress(cached.read_bytes()) == payloads["train"]
    assert get_data_home() == isolated
    # Second call: from the cache, no request, even without download_if_missing.
    again = load_lee2022_split("german", 0)
    np.testing.assert_array_equal(again.X_train, b.X_train)
    assert len(hits) == 2


def test_lee2022_download_into_data_home(lee_server, isolated, tmp_path):
    home = tmp_path / "home"
    load_lee2022_split("german", 0, data_home=home, download_if_missing=True)
    assert (home / "fair-manifold-pca" / "datasets" / "German" / "test_0.csv.gz").is_file()
    assert not isolated.exists()


def test_lee2022_no_download_by_default(lee_server, isolated):
    _, hits, _ = lee_server
    with pytest.raises(FileNotFoundError, match="download_if_missing=True") as info:
        load_lee2022_split("german", 0)
    assert hits == []
    assert f"{_lee2022.BASE_URL}/datasets/German/train_0.csv" in str(info.value)


def test_lee2022_download_with_wrong_checksum_is_refused_and_not_saved(lee_server, isolated):
    www, _, payloads = lee_server
    changed = bytearray(payloads["test"])
    changed[5] = ord("7") if changed[5] != ord("7") else ord("8")
    (www / "repo" / "datasets" / "German" / "test_0.csv").write_bytes(bytes(changed))
    with pytest.raises(ChecksumError, match="nothing was saved"):
        load_lee2022_split("german", 0, download_if_missing=True)
    folder = isolated / "fair-manifold-pca" / "datasets" / "German"
    assert (folder / "train_0.csv.gz").is_file() and not (folder / "test_0.csv.gz").exists()


def test_lee2022_download_failure_says_what_to_fetch(lee_server, isolated):
    www, _, _ = lee_server
    (www / "repo" / "datasets" / "German" / "train_0.csv").unlink()  # 404
    with pytest.raises(FileNotFoundError, match="downloading it from .* failed") as info:
        load_lee2022_split("german", 0, download_if_missing=True)
    message = str(info.value)
    assert "datasets/German/train_0.csv" in message and "FAIRLAB_DATA" in message


def test_lee2022_cached_copy_with_a_changed_byte_is_refused(lee_server, isolated):
    load_lee2022_split("german", 0, download_if_missing=True)
    cached = isolated / "fair-manifold-pca" / "datasets" / "German" / "train_0.csv.gz"
    cached.write_bytes(cached.read_bytes()[:-4] + b"\0\0\0\0")  # gzip trailer damaged
    with pytest.raises(ChecksumError, match="train_0.csv.gz"):
        load_lee2022_split("german", 0, download_if_missing=True)


@pytest.mark.skipif(
    not DATA or not (Path(DATA) / "fair-manifold-pca/datasets/German").is_dir(),
    reason="FAIRLAB_DATA/fair-manifold-pca/datasets/German not available",
)
def test_lee2022_download_of_the_published_files(server, isolated, no_shipped_data,
                                                 monkeypatch):
    """The real German split 3, served from loopback, passes the recorded SHA-256."""
    base, www, hits = server
    src = Path(DATA) / "fair-manifold-pca" / "datasets" / "German"
    folder = www / "datasets" / "German"
    folder.mkdir(parents=True)
    for part in ("train", "test"):
        raw = gzip.decompress((src / f"{part}_3.csv.gz").read_bytes())
        (folder / f"{part}_3.csv").write_bytes(raw)
    monkeypatch.setattr(_lee2022, "BASE_URL", base)
    b = load_lee2022_split("german", 3, download_if_missing=True)
    assert (len(b.X_train), len(b.X_test), b.X_train.shape[1]) == (700, 300, 57)
    assert len(hits) == 2
