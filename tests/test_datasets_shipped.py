"""The raw files shipped inside the package: offline loading, checksums, package size.

These tests never read ``$FAIRLAB_DATA`` (it is removed) and never touch the network
(``urllib.request.urlopen`` is replaced by a function that fails the test).  Lee et al.'s
splits and saved loading matrices ship too (``data/fair-manifold-pca/``): their shapes,
columns and group balance are checked here, offline, against the counts recorded when the
files were copied (the ``SOURCE.md`` of the raw copies, ``$FAIRLAB_DATA/fair-manifold-pca``).
"""

import lzma
import os
import shutil
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import PCA

from fairlab.datasets import (
    ChecksumError,
    _fetch,
    _lee2022,
    describe,
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
    load_lee2022_loadings,
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
    (load_compas, {"variant": "pls"}, (6150, 8)),
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
    """{path in data/: (dataset, file name, file record)} of every file marked as shipped."""
    out = {}
    for name, rec in provenance().items():
        if rec["shipped"]:
            for filename, frec in rec["files"].items():
                path = _fetch.shipped_path(filename, name).relative_to(_fetch.DATA_DIR)
                assert path not in out, f"{path} is listed twice"
                out[path] = (name, filename, frec)
    return out


def _url(name, filename, frec):
    """A file's source: its own url, or (Lee et al.'s files) base_url/folder/<file>."""
    if "url" in frec:
        return frec["url"]
    rec = provenance(name)
    return f"{rec['base_url']}/{rec['folder']}/{filename}"


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
    # Lee et al.'s files (splits and loadings) are 1.6 MB of it.
    lee = sum(p.stat().st_size for p in (_fetch.DATA_DIR / "fair-manifold-pca").rglob("*.xz"))
    assert 1.5 * MB < lee < 1.8 * MB, f"Lee et al.'s files are {lee / MB:.2f} MB"


def test_every_shipped_file_matches_its_provenance_entry():
    records = _shipped_records()
    on_disk = {p.relative_to(_fetch.DATA_DIR) for p in _fetch.DATA_DIR.rglob("*") if p.is_file()}
    assert all(p.suffix == ".xz" for p in on_disk), on_disk
    # Each file has an entry, and no "shipped" entry lacks a file.
    assert on_disk == set(records)
    assert len(records) == 11 + 60 + 250  # the data sets' files, Lee's splits and loadings
    for path, (dataset, filename, frec) in records.items():
        raw = lzma.decompress((_fetch.DATA_DIR / path).read_bytes())
        assert len(raw) == frec["size"], path
        assert _fetch._sha256(raw) == frec["sha256"], path
        assert _url(dataset, filename, frec).startswith("https://"), path
        if dataset in ("lee2022_splits", "lee2022_loadings"):
            assert path.parts[0] == "fair-manifold-pca", path
        else:
            assert _fetch._is_shipped(dataset, filename) and path == Path(f"{filename}.xz")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_provenance_records_are_complete(name):
    rec = provenance(name)
    assert rec["shipped"] and rec["availability"] == "shipped"
    for key in ("title", "homepage", "license", "citation", "copied_from"):
        assert rec[key], key
    if name not in ("compas",):
        assert rec["license"] == "CC BY 4.0"


@pytest.mark.parametrize("name, n_files, folder",
                         [("lee2022_splits", 60, "datasets"), ("lee2022_loadings", 250, "uci")])
def test_lee2022_provenance_records_are_shipped_with_their_licence(name, n_files, folder):
    lee = provenance(name)
    assert lee["shipped"] and lee["availability"] == "shipped" and lee["license"] == "MIT"
    for key in ("title", "homepage", "citation", "copied_from", "license_note", "commit"):
        assert lee[key], key
    assert lee["license_text"].startswith("MIT License\n\nCopyright (c) 2022 Junghyun Lee\n")
    assert "shall be included in all\ncopies or substantial portions" in lee["license_text"]
    assert lee["shipped_folder"] == f"fair-manifold-pca/{'results' if folder == 'uci' else folder}"
    assert lee["folder"] == folder
    assert len(lee["files"]) == n_files
    assert all(len(f["sha256"]) == 64 and f["size"] > 0 for f in lee["files"].values())
    assert lee["base_url"] == _lee2022.BASE_URL == (
        "https://raw.githubusercontent.com/nick-jhlee/fair-manifold-pca/" + lee["commit"])
    assert lee["commit"] == "cbd5c305ca40f380707c92f5cfd9df128e17017a"


def test_lee2022_shipped_files_are_the_real_splits_and_the_pca_fpca_mbfpca_loadings():
    splits = provenance("lee2022_splits")["files"]
    assert set(splits) == {f"{ds}/{part}_{i}.csv" for ds in ("Adult", "German", "COMPAS")
                           for part in ("train", "test") for i in range(10)}
    loadings = provenance("lee2022_loadings")["files"]
    pca = {k for k in loadings if "PCA_V_" in k and "FPCA" not in k}
    assert pca == {f"{ds}/PCA_V_{i}.csv" for ds in ("Adult", "German") for i in range(10)} | {
        f"COMPAS/10_pca/PCA_V_{i}.csv" for i in range(10)}
    loadings = {k: v for k, v in loadings.items() if k not in pca}
    settings = {k.rsplit("/", 1)[0] for k in loadings}
    assert settings == {
        *(f"{ds}/{k}_fpca_{d}" for ds in ("Adult", "German", "COMPAS") for k in (2, 10)
          for d in ("0.0", "0.1")),
        *(f"{ds}/{s}" for ds in ("Adult", "COMPAS") for s in ("2_stfpca_3", "2_stfpca_6",
                                                              "10_stfpca_6")),
        *(f"German/{k}_mbfpca_{t}" for k in (2, 10) for t in (3, 6)),
    }
    for key in loadings:
        setting, name = key.split("/")[1:]
        stem = "FPCA_V" if "_fpca_" in setting else "STFPCA_V"
        assert name in {f"{stem}_{i}.csv" for i in range(10)}, key
    assert len(loadings) == 10 * len(settings)


def test_provenance_availability_of_the_others():
    assert provenance("lawschool")["availability"] == "external"
    assert not provenance("lawschool")["shipped"]
    assert provenance("celeba")["availability"] == "on request"


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


# Lee et al.'s splits, offline: per data set, (train rows, test rows, features), the column that
# is the sensitive attribute, and per split the number of privileged rows (s = 1) and the label
# rate, train and test, as recorded from the published files (SOURCE.md of the raw copies).
LEE_SPLITS = {
    "adult": ((1582, 679, 97), 2,
              [1042, 1075, 1062, 1060, 1061, 1059, 1056, 1050, 1054, 1059],
              [469, 436, 449, 451, 450, 452, 455, 461, 457, 452],
              [0.236, 0.253, 0.250, 0.241, 0.246, 0.261, 0.259, 0.245, 0.247, 0.248],
              [0.277, 0.239, 0.246, 0.267, 0.255, 0.219, 0.225, 0.258, 0.253, 0.250]),
    "german": ((700, 300, 57), 4,
               [591, 593, 596, 600, 599, 595, 585, 596, 596, 599],
               [260, 258, 255, 251, 252, 256, 266, 255, 255, 252],
               [0.297, 0.303, 0.286, 0.300, 0.299, 0.299, 0.304, 0.297, 0.304, 0.303],
               [0.307, 0.293, 0.333, 0.300, 0.303, 0.303, 0.290, 0.307, 0.290, 0.293]),
    "compas": ((1727, 741, 11), 1,
               [580, 578, 574, 573, 575, 563, 592, 577, 572, 564],
               [247, 249, 253, 254, 252, 264, 235, 250, 255, 263],
               [0.451, 0.455, 0.455, 0.448, 0.458, 0.452, 0.455, 0.459, 0.453, 0.455],
               [0.462, 0.452, 0.453, 0.468, 0.445, 0.460, 0.452, 0.444, 0.457, 0.453]),
}


@pytest.mark.parametrize("name", sorted(LEE_SPLITS))
def test_lee2022_splits_load_offline_with_their_shapes_columns_and_groups(offline, name):
    (n_train, n_test, d), col, s_train, s_test, y_train, y_test = LEE_SPLITS[name]
    totals = set()
    for split in range(10):
        b = load_lee2022_split(name, split)
        assert (b.dataset, b.split) == (name, split)
        assert b.X_train.shape == (n_train, d) and b.X_test.shape == (n_test, d)
        assert b.y_train.shape == b.s_train.shape == (n_train,)
        assert b.y_test.shape == b.s_test.shape == (n_test,)
        for part, n_priv, rate in (("train", s_train, y_train), ("test", s_test, y_test)):
            X, y, s = b[f"X_{part}"], b[f"y_{part}"], b[f"s_{part}"]
            assert X.dtype == float and np.isfinite(X).all()
            assert set(np.unique(s)) == set(np.unique(y)) == {0.0, 1.0}
            assert int(s.sum()) == n_priv[split], (part, split)
            assert round(float(y.mean()), 3) == rate[split], (part, split)
            # The sensitive attribute is a (standardised) feature: its sign gives s.
            np.testing.assert_array_equal(X[:, col] > 0, s == 1)
        # Standardised with the train mean and population std (std 0 -> 1).
        np.testing.assert_allclose(b.X_train.mean(axis=0), 0.0, atol=1e-8)
        sd = b.X_train.std(axis=0)
        np.testing.assert_allclose(sd[sd > 1e-8], 1.0, rtol=1e-6)
        # Every split partitions the same subsample: the group and label totals are constant.
        totals.add((b.s_train.sum() + b.s_test.sum(), b.y_train.sum() + b.y_test.sum()))
    assert len(totals) == 1, totals
    assert "Availability: shipped with fairlab" in b.DESCR
    assert not offline.exists()  # nothing was cached or downloaded


def test_lee2022_german_splits_hold_the_shipped_german_credit_groups(offline):
    """German: all 1000 rows in every split, so the totals are those of load_german()."""
    german = load_german()
    b = load_lee2022_split("german", 7)
    assert b.s_train.sum() + b.s_test.sum() == german.sensitive.sum() == 851
    assert b.y_train.sum() + b.y_test.sum() == german.y.sum() == 300


def test_lee2022_descr_has_the_licence_notice_and_the_provenance(offline):
    text = load_lee2022_split("compas", 4).DESCR
    rec = provenance("lee2022_splits")
    for needle in ("Availability: shipped with fairlab", "License: MIT",
                   "Copyright (c) 2022 Junghyun Lee", "Permission is hereby granted",
                   rec["commit"], "https://github.com/nick-jhlee/fair-manifold-pca",
                   f"{_lee2022.BASE_URL}/datasets/COMPAS/train_4.csv",
                   rec["files"]["COMPAS/test_4.csv"]["sha256"], "$FAIRLAB_DATA/fair-manifold-pca/",
                   "Kleindessner et al. (2023) §5.1", "column 1 (race, binarised)",
                   "Lee, J., Kim, G., Olfat, M."):
        assert needle in text, needle


@pytest.mark.parametrize("loader, kwargs, shape", EVERY_CALL[:1] + EVERY_CALL[2::3])
def test_describe_gives_the_descr_as_rows_without_hashes(offline, loader, kwargs, shape):
    bunch = loader(**kwargs)
    table = describe(bunch)
    assert list(table.columns) == ["text"]
    assert list(dict.fromkeys(table.index.get_level_values("part"))) == [
        "the data", "preprocessing", "files", "provenance"]
    assert table.loc[("the data", "shape"), "text"] == f"{shape[0]} rows x {shape[1]} features"
    assert table.loc[("the data", "variant"), "text"] == kwargs["variant"]
    rec = provenance(bunch.dataset)
    assert list(table.loc["files"].index) == list(rec["files"])
    assert table.loc[("provenance", "how to cite"), "text"] == rec["citation"]
    text = " ".join(table["text"])
    assert not any(f["sha256"] in text for f in rec["files"].values())
    assert "$" not in text and "  " not in text
    steps = table.loc[table.index.get_level_values("part") == "preprocessing", "text"]
    for step in steps:  # each step whole, its wrapped lines joined
        assert step.split()[0] in bunch.DESCR and step.split()[-1] in bunch.DESCR


def test_describe_a_lee2022_split_keeps_its_licence_notice_not_its_commit(offline):
    table = describe(load_lee2022_split("compas", 4))
    rec = provenance("lee2022_splits")
    assert table.loc[("the data", "which"), "text"] == "compas, split 4"
    assert ("preprocessing (Lee et al.'s, done before publication)", "step 4") in table.index
    notice = table.loc[("provenance", "licence notice"), "text"]
    assert notice.startswith("MIT License Copyright (c) 2022 Junghyun Lee Permission is hereby")
    assert "\n" not in notice and "|" not in notice
    text = " ".join(table["text"])
    assert rec["commit"] not in text and rec["commit"][:12] not in text
    assert "a pinned commit" in text
    assert table.loc[("files", "datasets/COMPAS/train_4.csv"), "text"].endswith(" bytes")


def test_describe_refuses_what_is_not_a_loaders_descr():
    with pytest.raises(TypeError, match="load_"):
        describe({"X": None})
    with pytest.raises(ValueError, match="not the DESCR of a fairlab loader"):
        describe("a title\n=====\nfree text")
    with pytest.raises(ValueError, match="empty"):
        describe("")


def test_lee2022_loadings_load_offline(offline):
    files = provenance("lee2022_loadings")["files"]
    d = {"Adult": 97, "German": 57, "COMPAS": 11}
    for key in files:
        folder, *_, name = key.split("/")
        split = int(name[:-4].rsplit("_", 1)[1])
        settings = ["2_pca", "10_pca"] if name.startswith("PCA_V") else [key.split("/")[1]]
        for setting in settings:
            b = load_lee2022_loadings(folder.lower(), setting, split)
            k = int(setting.split("_")[0])
            assert b.V.shape == (d[folder], k) and b.k == k and b.setting == setting
            # Orthonormal loading vectors (Stiefel manifold / eigenvectors of the SDP solution).
            np.testing.assert_allclose(b.V.T @ b.V, np.eye(k), atol=1e-8)
        if setting.endswith("_pca"):
            assert b.method == "PCA"
        elif "_fpca_" in setting:
            assert b.method == "FPCA" and b.delta == float(setting.split("_")[2])
        else:
            assert b.method == "MbF-PCA" and b.tau == 10.0 ** -int(setting.split("_")[2])
    assert "Copyright (c) 2022 Junghyun Lee" in b.DESCR and "License: MIT" in b.DESCR
    assert "Availability: shipped with fairlab" in b.DESCR
    assert not offline.exists()


@pytest.mark.parametrize("dataset", ["adult", "german", "compas"])
def test_lee2022_pca_loadings_are_pca_of_the_train_split(offline, dataset):
    """Lee et al.'s saved PCA loadings are scikit-learn's PCA components, column by column.

    Their columns come in MATLAB's order with MATLAB's signs: each equals the matching
    component of :class:`sklearn.decomposition.PCA` up to its sign.  The signs agree on every
    Adult column and differ on some German and COMPAS columns, which is what an MLP fed these
    columns sees (chapter 11).
    """
    flipped = 0
    for split in range(10):
        X = load_lee2022_split(dataset, split).X_train
        V = load_lee2022_loadings(dataset, "10_pca", split).V
        ours = PCA(n_components=10, svd_solver="full").fit(X).components_.T
        signs = np.sign(np.sum(ours * V, axis=0))
        # COMPAS (d = 11) has rank 10 after centring: its tenth component has variance ~1e-31,
        # so only the span of the last column is defined, and both lie in the null direction.
        exact = 9 if dataset == "compas" else 10
        flipped += int((signs[:exact] < 0).sum())
        np.testing.assert_allclose(V[:, :exact], (ours * signs)[:, :exact], atol=1e-6)
        if dataset == "compas":
            centred = X - X.mean(axis=0)
            assert np.abs(centred @ V[:, 9]).max() < 1e-8
        np.testing.assert_array_equal(load_lee2022_loadings(dataset, "2_pca", split).V,
                                      V[:, :2])
    assert (flipped > 0) == (dataset != "adult")


def test_lee2022_loadings_settings_aliases_and_errors(offline):
    # German's MbF-PCA folders are called mbfpca, the others stfpca: both spellings work.
    assert load_lee2022_loadings("german", "2_stfpca_3", 0).setting == "2_mbfpca_3"
    assert load_lee2022_loadings("adult", "2_mbfpca_6", 1).setting == "2_stfpca_6"
    for bad in ("10_stfpca_3", "3_pca", "2_pca_1", "fpca", 2):
        with pytest.raises(ValueError, match="setting must be one of .*'2_fpca_0.0'"):
            load_lee2022_loadings("compas", bad, 0)
    with pytest.raises(ValueError, match="split must be"):
        load_lee2022_loadings("compas", "2_fpca_0.0", 10)
    with pytest.raises(ValueError, match="dataset must be one of"):
        load_lee2022_loadings("bank", "2_fpca_0.0", 0)


def test_lee2022_without_the_shipped_copy_names_what_to_fetch(offline, tmp_path, monkeypatch):
    """An installation without the data: the error says what to fetch and where to put it."""
    monkeypatch.setattr(_fetch, "DATA_DIR", tmp_path / "empty")
    with pytest.raises(FileNotFoundError) as info:
        load_lee2022_split("compas", 4)
    message = str(info.value)
    assert f"{_lee2022.BASE_URL}/datasets/COMPAS/train_4.csv" in message
    assert "missing from this installation: reinstall fairlab" in message
    assert "download_if_missing=True" in message and "FAIRLAB_DATA" in message
    with pytest.raises(FileNotFoundError) as info:
        load_lee2022_loadings("german", "10_mbfpca_6", 2)
    assert f"{_lee2022.BASE_URL}/uci/German/10_mbfpca_6/STFPCA_V_2.csv" in str(info.value)
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


LEE_READS = {
    "fair-manifold-pca/datasets/German/test_5.csv": lambda: load_lee2022_split("german", 5),
    "fair-manifold-pca/results/COMPAS/10_fpca_0.1/FPCA_V_3.csv":
        lambda: load_lee2022_loadings("compas", "10_fpca_0.1", 3),
}


@pytest.mark.parametrize("path", sorted(LEE_READS))
@pytest.mark.parametrize("how", ["xz stream", "content"])
def test_lee2022_shipped_file_with_a_changed_byte_is_refused(data_copy, path, how):
    target = data_copy / f"{path}.xz"
    if how == "xz stream":
        packed = bytearray(target.read_bytes())
        packed[len(packed) // 2] ^= 0x10
        target.write_bytes(bytes(packed))
    else:
        raw = bytearray(lzma.decompress(target.read_bytes()))
        raw[len(raw) // 3] ^= 0x01
        target.write_bytes(lzma.compress(bytes(raw), preset=0))  # a valid xz stream
    with pytest.raises(ChecksumError, match=f"{path.rsplit('/', 1)[1]}.xz") as info:
        LEE_READS[path]()
    assert "reinstall fairlab" in str(info.value)
    if how == "content":
        assert "SHA-256 mismatch" in str(info.value)


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
     lambda h: load_lee2022_loadings("german", "2_fpca_0.0", 0, data_home=h),
     lambda h: fetch_file("cmc", "cmc.data", data_home=h), lambda h: get_data_home(h)],
    ids=["load_bank", "load_adult", "load_lawschool", "load_lee2022_split",
         "load_lee2022_loadings", "fetch_file", "get_data_home"],
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
    with pytest.raises(TypeError, match="download_if_missing must be True or False"):
        load_lee2022_loadings("german", "2_fpca_0.0", 0, download_if_missing=bad)


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
