"""load_celeba on a tiny fixture in CelebA's on-disk layout: no network, no real CelebA."""

import hashlib
import urllib.request
import zipfile

import numpy as np
import pytest
from PIL import Image

from fairlab.datasets import ChecksumError, _images, load_celeba, provenance, summarize

NAMES = ["5_o_Clock_Shadow", "Eyeglasses", "Smiling"]
ROWS = {  # image name: attribute values, +1/-1
    "000001.jpg": [-1, 1, -1], "000002.jpg": [-1, -1, 1], "000003.jpg": [1, 1, 1],
    "000004.jpg": [-1, -1, -1],
}
SIZE = (218, 178)  # (height, width) of an aligned CelebA image


def _md5(path):
    return hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()


def _attribute_text():
    lines = [str(len(ROWS)), " ".join(NAMES)]
    lines += [f"{name} " + " ".join(f"{v:2d}" for v in vals) for name, vals in ROWS.items()]
    return "\n".join(lines) + "\n"


def _image(i):
    """A colour image whose grey level is known: one constant colour per image."""
    return Image.new("RGB", (SIZE[1], SIZE[0]), color=(40 * i, 40 * i, 40 * i))


@pytest.fixture
def offline(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    monkeypatch.setenv("FAIRLAB_CACHE", str(tmp_path / "cache"))

    def no_network(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:1]}")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    return tmp_path


def _write_celeba(folder, monkeypatch, *, extracted=False):
    """Write list_attr_celeba.txt and img_align_celeba.zip (or the folder); pin their MD5."""
    folder.mkdir(parents=True, exist_ok=True)
    attr = folder / "list_attr_celeba.txt"
    attr.write_text(_attribute_text())
    if extracted:
        (folder / "img_align_celeba").mkdir()
        for i, name in enumerate(ROWS, start=1):
            _image(i).save(folder / "img_align_celeba" / name, quality=95)
    else:
        with zipfile.ZipFile(folder / "img_align_celeba.zip", "w") as archive:
            for i, name in enumerate(ROWS, start=1):
                _image(i).save(folder / name, format="JPEG", quality=95)
                archive.write(folder / name, f"img_align_celeba/{name}")
                (folder / name).unlink()
        zpath = folder / "img_align_celeba.zip"
        monkeypatch.setitem(_images.CELEBA_FILES, "img_align_celeba.zip",
                            {"md5": _md5(zpath), "url": zpath.as_uri()})
    monkeypatch.setitem(_images.CELEBA_FILES, "list_attr_celeba.txt",
                        {"md5": _md5(attr), "url": attr.as_uri()})


@pytest.mark.parametrize("extracted", [False, True])
def test_load_celeba_parses_attributes_and_grey_downscaled_images(offline, monkeypatch,
                                                                   extracted):
    _write_celeba(offline / "home" / "celeba", monkeypatch, extracted=extracted)
    data = load_celeba(attribute="Smiling", n_samples=None, image_size=(8, 6),
                       data_home=offline / "home")
    assert data.X.shape == (4, 48) and data.image_shape == (8, 6)
    np.testing.assert_array_equal(data.concept, [0, 1, 1, 0])
    assert list(data.attributes.columns) == NAMES
    assert list(data.attributes.index) == list(ROWS)
    np.testing.assert_array_equal(data.attributes.to_numpy(), np.array(list(ROWS.values())))
    # constant grey images, scaled to [0, 1] (JPEG may move a level or two)
    expected = np.array([40, 80, 120, 160]) / 255
    np.testing.assert_allclose(data.X.mean(axis=1), expected, atol=3 / 255)
    assert np.ptp(data.X, axis=1).max() < 4 / 255
    assert "Smiling" in data.DESCR and "50.0%" in data.DESCR
    first_two = load_celeba(n_samples=2, image_size=(4, 4), data_home=offline / "home")
    assert first_two.X.shape == (2, 16) and list(first_two.concept) == [1, 0]  # Eyeglasses


def test_load_celeba_reads_fairlab_data(offline, monkeypatch):
    _write_celeba(offline / "shared" / "celeba", monkeypatch)
    monkeypatch.setenv("FAIRLAB_DATA", str(offline / "shared"))
    assert load_celeba(n_samples=3, image_size=(5, 5)).X.shape == (3, 25)


def test_load_celeba_offline_error_says_what_to_fetch_and_where(offline):
    with pytest.raises(FileNotFoundError) as err:
        load_celeba(data_home=offline / "home")
    message = str(err.value)
    assert "list_attr_celeba.txt" in message and "img_align_celeba.zip" in message
    assert "download_if_missing=False" in message and "FAIRLAB_DATA" in message
    assert str(offline / "home" / "celeba") in message
    assert "mmlab.ie.cuhk.edu.hk/projects/CelebA.html" in message


def test_load_celeba_refuses_a_damaged_file(offline, monkeypatch):
    home = offline / "home"
    _write_celeba(home / "celeba", monkeypatch)
    attr = home / "celeba" / "list_attr_celeba.txt"
    attr.write_text(_attribute_text().replace("000004.jpg -1", "000004.jpg  1"))
    with pytest.raises(ChecksumError, match="MD5 mismatch.*list_attr_celeba.txt"):
        load_celeba(data_home=home)


def test_load_celeba_downloads_only_on_request(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRLAB_DATA", raising=False)
    monkeypatch.setenv("FAIRLAB_CACHE", str(tmp_path / "cache"))
    _write_celeba(tmp_path / "source", monkeypatch)  # the "remote" copies, as file:// URLs
    home = tmp_path / "home"
    with pytest.raises(FileNotFoundError):
        load_celeba(data_home=home)
    data = load_celeba(n_samples=2, image_size=(4, 4), data_home=home, download_if_missing=True)
    assert data.X.shape == (2, 16)
    assert (home / "celeba" / "list_attr_celeba.txt").is_file()
    assert (home / "celeba" / "img_align_celeba.zip").is_file()
    # a source whose bytes changed is refused and nothing is saved
    other = tmp_path / "other"
    monkeypatch.setitem(_images.CELEBA_FILES, "list_attr_celeba.txt",
                        {"md5": "0" * 32, "url": (tmp_path / "source" / "list_attr_celeba.txt")
                         .as_uri()})
    with pytest.raises(ChecksumError, match="nothing was saved"):
        load_celeba(data_home=other, download_if_missing=True)
    assert not (other / "celeba" / "list_attr_celeba.txt").exists()


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"attribute": "Wings"}, ValueError, "Unknown attribute 'Wings'"),
    ({"n_samples": 0}, ValueError, "n_samples"),
    ({"image_size": (8,)}, ValueError, "image_size"),
    ({"download_if_missing": "yes"}, TypeError, "download_if_missing"),
])
def test_load_celeba_bad_arguments(offline, monkeypatch, kwargs, exc, match):
    _write_celeba(offline / "home" / "celeba", monkeypatch)
    with pytest.raises(exc, match=match):
        load_celeba(data_home=offline / "home", **kwargs)


def test_malformed_attribute_files_are_refused():
    with pytest.raises(ValueError, match="announces 3 images but lists 2"):
        _images._parse_attributes(b"3\nA B\nx.jpg 1 -1\ny.jpg -1 1\n")
    with pytest.raises(ValueError, match="-1 or 1"):
        _images._parse_attributes(b"1\nA B\nx.jpg 1 0\n")
    with pytest.raises(ValueError, match="number of images"):
        _images._parse_attributes(b"A B\nx.jpg 1 -1\n")


def test_celeba_provenance_is_on_request_with_published_md5():
    rec = provenance("celeba")
    assert rec["availability"] == "on request" and not rec["shipped"]
    assert set(rec["files"]) == {"list_attr_celeba.txt", "img_align_celeba.zip"}
    assert all(len(f["md5"]) == 32 for f in rec["files"].values())
    row = summarize().set_index("dataset").loc["celeba"]
    assert row["loader"] == "load_celeba" and row["availability"] == "on request"
    assert np.isnan(row["size_mb"])
