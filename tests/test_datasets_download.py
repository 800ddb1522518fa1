"""Finding, verifying and downloading external data files — on loopback only.

A tiny fixture is generated in each test and served by :mod:`http.server` on 127.0.0.1;
the URL/checksum table ``fairlab.datasets._fetch.REMOTE_FILES`` is monkeypatched to point
at it.  No test touches the external network.
"""

import hashlib
import http.server
import io
import threading
import zipfile
from functools import partial

import numpy as np
import pytest

from fairlab.datasets import ChecksumError, _fetch, fetch_file, get_data_home, load_cmc


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
    """load_cmc downloads a generated 30-row CMC-like file, verifies it and parses it."""
    rng = np.random.default_rng(0)
    rows = np.column_stack([
        rng.integers(16, 50, 30), rng.integers(1, 5, (30, 2)), rng.integers(0, 8, 30),
        rng.integers(0, 2, (30, 2)), rng.integers(1, 5, (30, 2)), rng.integers(0, 2, 30),
        np.tile([1, 2, 3], 10),
    ])
    payload = "".join(",".join(map(str, r)) + "\n" for r in rows).encode()
    base, www, _ = server
    (www / "cmc.data").write_bytes(payload)
    _register("cmc", "cmc.data", f"{base}/cmc.data", payload)
    b = load_cmc()
    assert b.X.shape == (30, 9) and int(b.y.sum()) == 20
    np.testing.assert_array_equal(b.X["wife_age"], rows[:, 0])
    assert (isolated / "cmc" / "cmc.data").read_bytes() == payload
    # With the cached copy gone and downloads disabled: a clear error naming the file.
    (isolated / "cmc" / "cmc.data").unlink()
    with pytest.raises(FileNotFoundError, match="cmc/cmc.data not found"):
        load_cmc(download_if_missing=False)


def test_registered_sources_are_complete():
    """Every external file has an https/http URL and a SHA-256 in provenance.json."""
    expected = {
        ("bank", "bank-additional-full.csv"), ("lawschool", "law_data.csv"),
        ("lawschool", "law_school_clean.csv"), ("diabetes", "diabetic_data.csv"),
        ("communities", "communities.data"), ("communities", "communities.names"),
        ("cmc", "cmc.data"), ("a9a", "a9a"), ("a9a", "a9a.t"),
    }
    assert set(_fetch.REMOTE_FILES) == expected
    for spec in _fetch.REMOTE_FILES.values():
        assert spec["url"].startswith(("https://", "http://"))
        assert len(spec["sha256"]) == 64
