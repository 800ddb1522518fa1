"""The raw files shipped inside the package: offline loading, checksums, package size.

These tests never read ``$FAIRLAB_DATA`` (it is removed) and never touch the network
(``urllib.request.urlopen`` is replaced by a function that fails the test).
"""

import lzma
import os
import shutil
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fairlab.datasets import (
    ChecksumError,
    _fetch,
    _lee2022,
    fetch_file,
    get_data_home,
    load_a9a,
    load_adult,
    load_bank,
    load_cmc,
    load_communities,
    load_compas,
    load_diabetes,
    load_german,
    load_lawschool,
    load_lee2022_split,
    provenance,
)

MB = 10**6
SHIPPED = ["adult", "german", "compas", "bank", "diabetes", "communities", "cmc", "a9a"]

# Every loader call, every variant / subset each one offers.
EVERY_CALL = [
    (load_adult, {"variant": "lee2022"}, (45222, 97)),
    (load_adult, {"variant": "agarwal"}, (48842, 99)),
    (load_adult, {"variant": "pls"}, (48842, 99)),
    (load_german, {"variant": "lee2022"}, (1000, 57)),
    (load_german, {"variant": "pls"}, (1000, 47)),
    (load_compas, {"variant": "lee2022"}, (6172, 11)),
    (load_compas, {"variant": "pls"}, (6150, 6)),
    (load_bank, {"variant": "agarwal"}, (41188, 52)),
    (load_diabetes, {"variant": "pls"}, (71518, 18)),
    (load_communities, {"variant": "pls"}, (1994, 98)),
    (load_cmc, {"variant": "fkl"}, (1473, 9)),
    (load_a9a, {"variant": "fkl", "subset": "train"}, (32561, 123)),
    (load_a9a, {"variant": "fkl", "subset": "test"}, (16281, 123)),
]

# A loader call reading each shipped file.
READS = {
    "adult.data": (load_adult, {}), "adult.test": (load_adult, {}),
    "german.data": (load_german, {}), "compas-scores-two-years.csv": (load_compas, {}),
    "bank-additional-full.csv": (load_bank, {}), "diabetic_data.csv": (load_diabetes, {}),
    "communities.data": (load_communities, {}), "communities.names": (load_communities, {}),
    "cmc.data": (load_cmc, {}), "a9a": (load_a9a, {}), "a9a.t": (load_a9a, {"subset": "test"}),
}


def _shipped_records():
    """{filename: (dataset, file record)} of every file provenance.json marks as shipped."""
    out = {}
    for name, rec in provenance().items():
        if rec["shipped"]:
            for filename, frec in rec["files"].items():
                assert filename not in out, f"{filename} is listed twice"
                out[filename] = (name, frec)
    return out


@pytest.fixture
def offline(tmp_path, monkeypatch):
    """No FAIRLAB_DATA, an empty private user cache, and no network at all."""
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("FAIRLAB_CACHE", str(cache))

    def no_network(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:1]}")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    return cache


# --------------------------------------------------------------------------------------
# package contents
# --------------------------------------------------------------------------------------
def test_package_data_is_under_6_mb():
    data = [p for p in _fetch.DATA_DIR.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in data) + _fetch._PROVENANCE_FILE.stat().st_size
    assert total < 6 * MB, f"package data is {total / MB:.2f} MB"


def test_every_shipped_file_matches_its_provenance_entry():
    records = _shipped_records()
    on_disk = {p.name for p in _fetch.DATA_DIR.iterdir() if p.is_file()}
    assert all(name.endswith(".xz") for name in on_disk), on_disk
    # Each file has an entry, and no "shipped" entry lacks a file.
    assert {name[:-3] for name in on_disk} == set(records)
    for filename, (dataset, frec) in records.items():
        raw = lzma.decompress((_fetch.DATA_DIR / f"{filename}.xz").read_bytes())
        assert len(raw) == frec["size"], filename
        assert _fetch._sha256(raw) == frec["sha256"], filename
        assert frec["url"].startswith("https://") and _fetch._is_shipped(dataset, filename)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_provenance_records_are_complete(name):
    rec = provenance(name)
    assert rec["shipped"] and rec["availability"] == "shipped"
    for key in ("title", "homepage", "license", "citation", "copied_from"):
        assert rec[key], key
    if name not in ("compas",):
        assert rec["license"] == "CC BY 4.0"


def test_provenance_availability_of_the_others():
    assert provenance("lawschool")["availability"] == "external"
    assert not provenance("lawschool")["shipped"]
    lee = provenance("lee2022_splits")
    assert lee["availability"] == "on request" and lee["license"] == "MIT"
    assert len(lee["files"]) == 60 and all(len(f["sha256"]) == 64 for f in lee["files"].values())
    assert lee["base_url"] == _lee2022.BASE_URL == (
        "https://raw.githubusercontent.com/nick-jhlee/fair-manifold-pca/" + lee["commit"])


# --------------------------------------------------------------------------------------
# offline: every loader but Law School works with nothing set up
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "loader, kwargs, shape", EVERY_CALL,
    ids=[f"{c[0].__name__}-{'-'.join(map(str, c[1].values()))}" for c in EVERY_CALL],
)
def test_every_loader_works_offline(offline, loader, kwargs, shape):
    b = loader(**kwargs)
    assert b.X.shape == shape and len(b.y) == len(b.sensitive) == shape[0]
    assert np.isfinite(b.X.to_numpy()).all()
    assert "Availability: shipped with fairlab" in b.DESCR
    assert not offline.exists()  # nothing was cached or downloaded


def test_lawschool_offline_error_names_the_file_and_where_to_put_it(offline):
    for variant, filename in (("pls", "law_data.csv"), ("lequy", "law_school_clean.csv")):
        with pytest.raises(FileNotFoundError) as info:
            load_lawschool(variant=variant, download_if_missing=False)
        message = str(info.value)
        assert f"lawschool/{filename} not found" in message
        assert str(offline / "lawschool" / filename) in message
        assert "$FAIRLAB_DATA/lawschool/" in message and "data_home" in message


def test_lee2022_offline_error_names_what_to_fetch(offline):
    with pytest.raises(FileNotFoundError) as info:
        load_lee2022_split("compas", 4)
    message = str(info.value)
    assert f"{_lee2022.BASE_URL}/datasets/COMPAS/train_4.csv" in message
    assert "download_if_missing=True" in message and "FAIRLAB_DATA" in message
    assert not offline.exists()


def test_fetch_file_gives_the_shipped_copy(offline):
    assert fetch_file("bank", "bank-additional-full.csv") == (
        _fetch.DATA_DIR / "bank-additional-full.csv.xz")


# --------------------------------------------------------------------------------------
# a damaged shipped file is refused
# --------------------------------------------------------------------------------------
@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A private copy of the package data folder, used by the loaders instead."""
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    monkeypatch.setenv("FAIRLAB_CACHE", str(tmp_path / "cache"))
    copy = tmp_path / "data"
    shutil.copytree(_fetch.DATA_DIR, copy)
    monkeypatch.setattr(_fetch, "DATA_DIR", copy)
    return copy


@pytest.mark.parametrize("filename", sorted(READS))
def test_one_byte_flipped_in_the_xz_stream_is_refused(data_copy, filename):
    path = data_copy / f"{filename}.xz"
    packed = bytearray(path.read_bytes())
    packed[len(packed) // 2] ^= 0x10
    path.write_bytes(bytes(packed))
    loader, kwargs = READS[filename]
    with pytest.raises(ChecksumError, match=f"{filename}.xz") as info:
        loader(**kwargs)
    assert "reinstall fairlab" in str(info.value)
    assert not isinstance(info.value, lzma.LZMAError)


@pytest.mark.parametrize("where", ["header", "footer", "truncated"])
def test_damaged_xz_container_is_refused(data_copy, where):
    path = data_copy / "german.data.xz"
    packed = bytearray(path.read_bytes())
    if where == "header":
        packed[7] ^= 0x01  # stream flags
    elif where == "footer":
        packed[-6] ^= 0x01
    else:
        packed = packed[: len(packed) - 100]
    path.write_bytes(bytes(packed))
    with pytest.raises(ChecksumError, match="german.data.xz"):
        load_german()


@pytest.mark.parametrize("filename", sorted(READS))
def test_one_byte_changed_in_the_content_is_refused(data_copy, filename):
    path = data_copy / f"{filename}.xz"
    raw = bytearray(lzma.decompress(path.read_bytes()))
    raw[len(raw) // 3] ^= 0x01
    path.write_bytes(lzma.compress(bytes(raw), preset=0))  # a valid xz stream
    loader, kwargs = READS[filename]
    with pytest.raises(ChecksumError, match="SHA-256 mismatch") as info:
        loader(**kwargs)
    assert f"{filename}.xz" in str(info.value) and "reinstall fairlab" in str(info.value)


def test_missing_shipped_file_says_reinstall(data_copy):
    (data_copy / "cmc.data.xz").unlink()
    with pytest.raises(FileNotFoundError, match="missing from this installation"):
        load_cmc(download_if_missing=False)


# --------------------------------------------------------------------------------------
# data_home must be a path
# --------------------------------------------------------------------------------------
BAD_HOMES = [3, 1.5, ["folder"], ("a", "b"), b"folder", True]


@pytest.mark.parametrize("bad", BAD_HOMES, ids=[type(b).__name__ for b in BAD_HOMES])
@pytest.mark.parametrize(
    "call",
    [lambda h: load_bank(data_home=h), lambda h: load_adult(data_home=h),
     lambda h: load_lawschool(data_home=h), lambda h: load_lee2022_split("german", 0, data_home=h),
     lambda h: fetch_file("cmc", "cmc.data", data_home=h), lambda h: get_data_home(h)],
    ids=["load_bank", "load_adult", "load_lawschool", "load_lee2022_split", "fetch_file",
         "get_data_home"],
)
def test_data_home_of_a_wrong_type_is_refused(call, bad):
    with pytest.raises(TypeError, match=r"data_home must be None or a folder path .* str or an "
                       r"os\.PathLike"):
        call(bad)


def test_data_home_accepts_str_and_pathlike(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    for home in (str(tmp_path), tmp_path, os.fspath(tmp_path) + os.sep):
        assert load_cmc(data_home=home).X.shape == (1473, 9)
    with pytest.raises(ValueError, match="data_home must not be an empty string"):
        load_cmc(data_home="")


@pytest.mark.parametrize("bad", ["no", 0, None])
def test_download_if_missing_must_be_a_bool(bad):
    with pytest.raises(TypeError, match="download_if_missing must be True or False"):
        load_cmc(download_if_missing=bad)
    with pytest.raises(TypeError, match="download_if_missing must be True or False"):
        load_lee2022_split("german", 0, download_if_missing=bad)


def test_frames_are_the_same_from_every_source(tmp_path, monkeypatch):
    """The shipped copy and a plain local copy of the same bytes give identical data."""
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    shipped = load_communities()
    for filename in ("communities.data", "communities.names"):
        raw = lzma.decompress((_fetch.DATA_DIR / f"{filename}.xz").read_bytes())
        Path(tmp_path / filename).write_bytes(raw)
    local = load_communities(data_home=tmp_path)
    pd.testing.assert_frame_equal(shipped.X, local.X)
    pd.testing.assert_series_equal(shipped.y, local.y)
