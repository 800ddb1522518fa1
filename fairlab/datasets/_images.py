"""Images with a binary concept: CelebA faces (external) and an offline digits stand-in.

* :func:`load_celeba` reads the aligned-and-cropped CelebA faces and their 40 attribute
  annotations (Liu et al., 2015), as Kleindessner et al. (2023) use them in Fig. 5 and
  Figs. 10–15: grey-scale, downscaled, flattened.  CelebA is 1.4 GB and its licence allows
  non-commercial research use only, so it is neither shipped nor ever downloaded unless
  asked (``download_if_missing=True``).
* :func:`make_digits_concept` builds a small stand-in that needs no download: scikit-learn's
  bundled 8×8 handwritten digits, with a synthetic "eyeglasses" concept (a horizontal bar)
  stamped onto a random half of them.
"""

import hashlib
import io
import os
import urllib.error
import urllib.request
import zipfile
from numbers import Real
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils import Bunch, check_random_state

from .._core.validation import check_int
from ._fetch import (
    ENV_DATA,
    ChecksumError,
    _cache_dir,
    _provenance_table,
    atomic_write,
    check_data_home,
)

__all__ = ["load_celeba", "make_digits_concept"]

_DATASET = "celeba"
ATTRIBUTE_FILE = "list_attr_celeba.txt"
IMAGE_ARCHIVE = "img_align_celeba.zip"
IMAGE_FOLDER = "img_align_celeba"

#: ``{file name: {"md5": ..., "url": ...}}`` of the two CelebA files the loader reads, from
#: ``provenance.json`` (the MD5 sums are those published with the files' official copies).
#: Tests replace entries of this dict.
CELEBA_FILES = {name: {"md5": rec["md5"], "url": rec["url"]}
                for name, rec in _provenance_table()[_DATASET]["files"].items()}


def _md5_of(path):
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _roots(data_home):
    """Folders that may hold the CelebA files, in search order."""
    roots = []
    home = check_data_home(data_home)
    if home is not None:
        roots += [home / _DATASET, home]
    env = os.environ.get(ENV_DATA)
    if env:
        roots.append(Path(env).expanduser() / _DATASET)
    roots.append(_cache_dir() / _DATASET)
    return roots


def _hint(data_home):
    home = check_data_home(data_home)
    target = (home if home is not None else _cache_dir()) / _DATASET
    return (
        f"Fetch {ATTRIBUTE_FILE} and {IMAGE_ARCHIVE} (the aligned-and-cropped faces) from the "
        "CelebA page https://mmlab.ie.cuhk.edu.hk/projects/CelebA.html (Google Drive folders "
        "'Anno' and 'Img'; non-commercial research use only) and put both files, unchanged, in "
        f"{target} (or in $FAIRLAB_DATA/{_DATASET}/, or in a folder passed as data_home=...); "
        f"an extracted {IMAGE_FOLDER}/ folder may replace the zip."
    )


def _verified(path, name):
    expected = CELEBA_FILES[name]["md5"]
    got = _md5_of(path)
    if got != expected:
        raise ChecksumError(
            f"MD5 mismatch for {path}: expected {expected}, got {got}. The file is corrupt or "
            f"not the original CelebA {name}. Fix: replace it with the original file or delete "
            "it (see fairlab.datasets.provenance('celeba'))."
        )
    return path


def _download(name, target, timeout):
    spec = CELEBA_FILES[name]
    with urllib.request.urlopen(spec["url"], timeout=timeout) as response:  # noqa: S310
        payload = response.read()
    got = hashlib.md5(payload, usedforsecurity=False).hexdigest()
    if got != spec["md5"]:
        raise ChecksumError(
            f"MD5 mismatch for {name} downloaded from {spec['url']}: expected {spec['md5']}, "
            f"got {got}; nothing was saved (Google Drive may answer a scripted download of a "
            "large file with a confirmation page). Fetch the file by hand instead."
        )
    atomic_write(target, payload)
    return target


def _find(name, data_home, download_if_missing, timeout, *, allow_folder=False):
    """Path of a verified copy of ``name`` (or of the extracted image folder)."""
    roots = _roots(data_home)
    for root in roots:
        if (root / name).is_file():
            return _verified(root / name, name)
        if allow_folder and (root / IMAGE_FOLDER).is_dir():
            return root / IMAGE_FOLDER
    searched = "\n  ".join(str(r / name) for r in roots)
    if not download_if_missing:
        raise FileNotFoundError(
            f"CelebA file {name} not found; searched:\n  {searched}\n"
            f"download_if_missing=False, so nothing was downloaded. {_hint(data_home)}"
        )
    home = check_data_home(data_home)
    target = (home if home is not None else _cache_dir()) / _DATASET / name
    try:
        return _download(name, target, timeout)
    except (urllib.error.URLError, OSError) as exc:
        raise FileNotFoundError(
            f"CelebA file {name} not found; searched:\n  {searched}\n"
            f"and downloading it failed ({exc}). {_hint(data_home)}"
        ) from exc


def _parse_attributes(raw):
    """The attribute table of ``list_attr_celeba.txt``: a count line, a header, ±1 rows."""
    lines = raw.decode("utf-8").splitlines()
    if len(lines) < 2:
        raise ValueError(f"{ATTRIBUTE_FILE} is too short: expected a count line and a header.")
    try:
        n_images = int(lines[0].strip())
    except ValueError:
        raise ValueError(
            f"{ATTRIBUTE_FILE}: the first line must be the number of images; got {lines[0]!r}."
        ) from None
    names = lines[1].split()
    rows = [line.split() for line in lines[2:] if line.strip()]
    if len(rows) != n_images:
        raise ValueError(
            f"{ATTRIBUTE_FILE} announces {n_images} images but lists {len(rows)}."
        )
    bad = [r[0] for r in rows if len(r) != len(names) + 1]
    if bad:
        raise ValueError(
            f"{ATTRIBUTE_FILE}: rows must hold an image name and {len(names)} values; "
            f"{len(bad)} do not (first: {bad[0]!r})."
        )
    values = np.array([r[1:] for r in rows], dtype=np.int8)
    if not np.isin(values, (-1, 1)).all():
        raise ValueError(f"{ATTRIBUTE_FILE}: attribute values must be -1 or 1.")
    return pd.DataFrame(values, columns=names, index=pd.Index([r[0] for r in rows], name="image"))


def _to_gray(data, image_size):
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        gray = img.convert("L").resize((image_size[1], image_size[0]), Image.Resampling.BILINEAR)
        return np.asarray(gray, dtype=np.float64).ravel() / 255.0


def load_celeba(*, attribute="Eyeglasses", n_samples=2000, image_size=(80, 80), data_home=None,
                download_if_missing=False, timeout=60):
    """CelebA aligned faces as grey-scale pixel vectors, with one attribute as the concept.

    Kleindessner et al. (2023, §5.1 and App. C.6) rescale the aligned-and-cropped CelebA
    images to 80×80 grey scale, flatten them and fit fair PCA with one annotation (bald,
    beard, eyeglasses, hat, mustache or smiling) as the sensitive feature.

    The loader reads two files of the official release (Liu et al., 2015):
    ``list_attr_celeba.txt`` (a count line, a header of 40 attribute names, then one row per
    image: its file name and 40 values ±1) and ``img_align_celeba.zip`` (the 202 599 aligned
    JPEG images, 178×218 pixels, as members ``img_align_celeba/000001.jpg`` ...), or the
    folder ``img_align_celeba/`` extracted from it.  They are looked up, in order, in
    ``data_home/celeba/``, ``data_home/``, ``$FAIRLAB_DATA/celeba/`` and ``celeba/`` in the user
    cache (:func:`fairlab.datasets.get_data_home`).  Both files are checked against the
    MD5 sums published with the official copies (``provenance("celeba")``); the images of an
    extracted folder cannot be checked one by one and are read as they are.

    Parameters
    ----------
    attribute : str, default="Eyeglasses"
        The annotation used as the concept, a column of the attribute file (``"Smiling"``,
        ``"Eyeglasses"``, ``"Mustache"``, ``"No_Beard"``, ``"Bald"``, ``"Wearing_Hat"``, ...).
    n_samples : int or None, default=2000
        Read the first ``n_samples`` images in file order (``None``: all 202 599; about
        10 GB as float64 at 80×80).
    image_size : (int, int), default=(80, 80)
        (height, width) of the downscaled images.  The whole 178×218 image is resized
        (bilinear, aspect ratio not kept, as "rescaled to 80×80" in the paper); grey scale is
        PIL's ITU-R 601-2 luma; pixel values are scaled to [0, 1].
    data_home : str or os.PathLike, optional
        Folder searched first, and where a download is stored.
    download_if_missing : bool, default=False
        Only when True are missing files downloaded (1.4 GB from Google Drive, MD5 checked;
        Google Drive may refuse scripted downloads of the zip, then fetch it by hand).
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    sklearn.utils.Bunch
        ``X`` (n_samples × height·width float array), ``concept`` (0/1 int array: 1 where
        the attribute is +1), ``attributes`` (DataFrame of all 40 annotations, ±1, indexed by
        image name), ``image_shape`` (height, width), ``attribute`` and ``DESCR``.

    Raises
    ------
    FileNotFoundError
        A file is missing and ``download_if_missing`` is False (or the download failed); the
        message says what to fetch and where to put it.
    ChecksumError
        A file's MD5 differs from the published one.
    ValueError
        Bad arguments (unknown ``attribute``, non-positive sizes) or a malformed attribute
        file, or an image missing from the archive.
    """
    if not isinstance(download_if_missing, (bool, np.bool_)):
        raise TypeError(f"download_if_missing must be True or False; got {download_if_missing!r}.")
    n_samples = check_int(n_samples, "n_samples", allow_none=True)
    if (not isinstance(image_size, (tuple, list)) or len(image_size) != 2):
        raise ValueError(f"image_size must be a (height, width) pair; got {image_size!r}.")
    image_size = tuple(check_int(s, "image_size entries") for s in image_size)
    if not isinstance(attribute, str):
        raise TypeError(f"attribute must be a str such as 'Eyeglasses'; got {attribute!r}.")

    attr_path = _find(ATTRIBUTE_FILE, data_home, download_if_missing, timeout)
    table = _parse_attributes(Path(attr_path).read_bytes())
    if attribute not in table.columns:
        raise ValueError(f"Unknown attribute {attribute!r}; known: {list(table.columns)}.")
    if n_samples is not None:
        table = table.iloc[:n_samples]
    images = _find(IMAGE_ARCHIVE, data_home, download_if_missing, timeout, allow_folder=True)

    X = np.empty((len(table), image_size[0] * image_size[1]))
    if Path(images).is_dir():
        for i, name in enumerate(table.index):
            path = Path(images) / name
            if not path.is_file():
                raise ValueError(f"Image {name} of {ATTRIBUTE_FILE} is missing from {images}.")
            X[i] = _to_gray(path.read_bytes(), image_size)
    else:
        with zipfile.ZipFile(images) as archive:
            members = set(archive.namelist())
            for i, name in enumerate(table.index):
                member = f"{IMAGE_FOLDER}/{name}"
                if member not in members:
                    raise ValueError(f"Image {member} of {ATTRIBUTE_FILE} is missing from "
                                     f"{images}.")
                X[i] = _to_gray(archive.read(member), image_size)
    concept = (table[attribute].to_numpy() == 1).astype(int)
    descr = (
        f"CelebA aligned faces (Liu et al., 2015): the first {len(table)} images, grey scale, "
        f"{image_size[0]}×{image_size[1]} pixels in [0, 1], flattened; concept = "
        f"{attribute!r} (+1 → 1), present in {concept.mean():.1%} of them.  External data "
        "(non-commercial research use only), read from a local copy."
    )
    return Bunch(X=X, concept=concept, attributes=table, image_shape=image_size,
                 attribute=attribute, DESCR=descr)


def make_digits_concept(n_samples=None, *, bar_row=2, intensity=(0.5, 1.0), concept_rate=0.5,
                        random_state=None):
    """Scikit-learn's 8×8 digits with a synthetic "eyeglasses" concept: a stamped bar.

    An offline stand-in for CelebA with a binary attribute.  The images are
    :func:`sklearn.datasets.load_digits` (1 797 handwritten digits, bundled with scikit-learn,
    no download), scaled from 0–16 to [0, 1].  A random ``concept_rate`` share of them get
    the concept: row ``bar_row`` of the image is overwritten with a horizontal bar across the
    whole width, of one random intensity per image drawn uniformly from ``intensity`` (so the
    bar covers the strokes beneath it, as glasses cover the eyes).  Which images get the bar
    is independent of the digit, so the concept can be erased without erasing the digit; the
    bar is a linear feature, readable by a linear classifier.

    Parameters
    ----------
    n_samples : int or None, default=None
        Number of images (a random subset without replacement); ``None`` keeps all 1 797.
    bar_row : int, default=2
        Row (0 = top, 7 = bottom) of the bar.
    intensity : (float, float), default=(0.5, 1.0)
        Range of the bar's pixel value, within [0, 1].
    concept_rate : float in (0, 1), default=0.5
        Probability that an image gets the bar.
    random_state : int, RandomState instance or None, default=None
        Seeds the subset, which images get the bar and its intensities.

    Returns
    -------
    X : ndarray of shape (n_samples, 64)
        Flattened images, pixel values in [0, 1] (``X.reshape(-1, 8, 8)`` gives the images).
    concept : ndarray of shape (n_samples,)
        1 where the bar was stamped, else 0.
    digit : ndarray of shape (n_samples,)
        The digit shown (0–9).
    """
    from sklearn.datasets import load_digits

    rng = check_random_state(random_state)
    images, digit = load_digits(return_X_y=True)
    n_samples = check_int(n_samples, "n_samples", allow_none=True)
    if n_samples is not None:
        if n_samples > len(digit):
            raise ValueError(f"n_samples must be at most {len(digit)}; got {n_samples}.")
        keep = np.sort(rng.choice(len(digit), size=n_samples, replace=False))
        images, digit = images[keep], digit[keep]
    check_int(bar_row, "bar_row", minimum=0, maximum=7)
    if (not isinstance(intensity, (tuple, list)) or len(intensity) != 2
            or not all(isinstance(v, Real) for v in intensity)
            or not 0 <= intensity[0] <= intensity[1] <= 1):
        raise ValueError(f"intensity must be a pair (low, high) with 0 <= low <= high <= 1; "
                         f"got {intensity!r}.")
    if not isinstance(concept_rate, Real) or not 0 < concept_rate < 1:
        raise ValueError(f"concept_rate must be a float in (0, 1); got {concept_rate!r}.")
    X = images.reshape(-1, 8, 8) / 16.0
    concept = (rng.random_sample(len(digit)) < concept_rate).astype(int)
    level = rng.uniform(intensity[0], intensity[1], size=len(digit))
    X[concept == 1, bar_row, :] = level[concept == 1, None]
    return X.reshape(len(digit), 64), concept, digit.astype(int)
