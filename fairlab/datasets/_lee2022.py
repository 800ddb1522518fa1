"""Lee et al. (2022)'s published train/test splits (the exact data of Kleindessner et al. §5.1).

The split files are not shipped (81 MB).  :func:`load_lee2022_split` looks for
``datasets/<Adult|German|COMPAS>/{train,test}_<i>.csv`` (or ``.csv.gz``), in order, under

1. ``data_home`` and ``data_home/fair-manifold-pca`` (the ``data_home`` argument),
2. ``$FAIRLAB_DATA/fair-manifold-pca``,
3. the user cache ``get_data_home()/fair-manifold-pca``,

and, on request only (``download_if_missing=True``), downloads the missing file from the
public repository ``nick-jhlee/fair-manifold-pca`` at a pinned commit (:data:`BASE_URL`),
checks its SHA-256 and stores it gzip-compressed under ``data_home/fair-manifold-pca`` (when
given) or the user cache.  Every copy, local or downloaded, must match the SHA-256 of the
published file recorded in ``provenance.json`` (``provenance("lee2022_splits")``).
"""

import gzip
import io
import os
import urllib.error
from pathlib import Path

import numpy as np
from sklearn.utils import Bunch

from ._fetch import (
    ENV_DATA,
    _cache_dir,
    _provenance_table,
    atomic_write,
    check_data_home,
    download,
    read_verified,
)

__all__ = ["load_lee2022_split"]

_FOLDERS = {"adult": "Adult", "german": "German", "compas": "COMPAS"}
_REPO = "fair-manifold-pca"

#: Raw-file URL prefix of ``nick-jhlee/fair-manifold-pca`` at the pinned commit; a file's URL
#: is ``f"{BASE_URL}/datasets/<Folder>/<part>_<i>.csv"``.  Tests point it at a local server.
BASE_URL = _provenance_table()["lee2022_splits"]["base_url"]


def _roots(data_home):
    """Folders holding ``datasets/<Folder>/``, in search order."""
    roots = []
    home = check_data_home(data_home)
    if home is not None:
        roots += [home, home / _REPO]
    env = os.environ.get(ENV_DATA)
    if env:
        roots.append(Path(env).expanduser() / _REPO)
    roots.append(_cache_dir() / _REPO)
    return roots


def _split_candidates(folder, stem, data_home):
    """``<root>/datasets/<Folder>/<stem>.csv[.gz]`` for each root, in search order."""
    return [root / "datasets" / folder / f"{stem}{ext}" for root in _roots(data_home)
            for ext in (".csv.gz", ".csv")]


def _part_bytes(folder, stem, data_home, download_if_missing, timeout):
    """Verified original bytes of ``<folder>/<stem>.csv`` (found, or downloaded on request)."""
    key = f"{folder}/{stem}.csv"
    sha = _provenance_table()["lee2022_splits"]["files"][key]["sha256"]
    fix = (f"replace it with the published file {BASE_URL}/datasets/{key} or delete it "
           "(then load_lee2022_split(..., download_if_missing=True) fetches it again)")
    candidates = _split_candidates(folder, stem, data_home)
    for path in candidates:
        if path.is_file():
            return read_verified(path, sha, fix=fix)  # ChecksumError on a changed byte

    home = check_data_home(data_home)
    target = ((home if home is not None else _cache_dir()) / _REPO / "datasets" / folder
              / f"{stem}.csv.gz")
    url = f"{BASE_URL}/datasets/{key}"
    searched = "\n  ".join(str(p) for p in candidates)
    hint = (
        f"Pass download_if_missing=True to download it (SHA-256 verified) from {url} into "
        f"{target}; or put a copy of the folder datasets/ of "
        "https://github.com/nick-jhlee/fair-manifold-pca (commit "
        f"{_provenance_table()['lee2022_splits']['commit']}) under $FAIRLAB_DATA/{_REPO}/ "
        f"(set the environment variable {ENV_DATA}), or pass data_home=..."
    )
    if not download_if_missing:
        raise FileNotFoundError(
            f"Lee et al. (2022) split {key} not found; searched:\n  {searched}\n"
            f"download_if_missing=False, so nothing was downloaded. {hint}"
        )
    try:
        payload = download(url, sha, timeout=timeout)  # ChecksumError: nothing saved
    except (urllib.error.URLError, OSError) as exc:
        raise FileNotFoundError(
            f"Lee et al. (2022) split {key} not found; searched:\n  {searched}\n"
            f"and downloading it from {url} failed ({exc}). Fetch that file yourself and "
            f"put it at {target.with_suffix('')} (plain or .gz), or put a copy of the folder "
            "datasets/ of https://github.com/nick-jhlee/fair-manifold-pca under "
            f"$FAIRLAB_DATA/{_REPO}/ (set the environment variable {ENV_DATA}), or pass "
            "data_home=..."
        ) from exc
    # Stored gzip-compressed (the Adult splits are 4 MB each as CSV, 0.1 MB compressed);
    # mtime=0 keeps the cached file byte-reproducible.
    atomic_write(target, gzip.compress(payload, compresslevel=6, mtime=0))
    return payload


def load_lee2022_split(dataset, split, *, data_home=None, download_if_missing=False,
                       timeout=60):
    """One of Lee et al. (2022)'s ten 70/30 splits of Adult, German credit or COMPAS.

    These files (repository ``nick-jhlee/fair-manifold-pca``, folder ``datasets/``, MIT
    License) are the only exact copy of the data Kleindessner et al. §5.1 used: AIF360
    shuffled them without a seed.  Each split was standardised with its *train* mean and
    population standard deviation (std 0 → 1), so the test part is not exactly centred.

    The files are not shipped.  fairlab looks for
    ``datasets/<Adult|German|COMPAS>/{train,test}_<i>.csv`` (or ``.csv.gz``) under, in
    order, ``data_home``, ``data_home/fair-manifold-pca``, ``$FAIRLAB_DATA/fair-manifold-pca``
    and the user cache ``get_data_home()/fair-manifold-pca``; with
    ``download_if_missing=True`` a missing file is downloaded from the repository at the
    pinned commit and cached (gzip-compressed) under ``data_home/fair-manifold-pca`` or the
    user cache.  Every copy must match the SHA-256 of the published CSV bytes.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
    split : int in 0..9
    data_home : str or os.PathLike, optional
        Folder searched first, and where a download is stored.
    download_if_missing : bool, default=False
        Download missing files from GitHub (``raw.githubusercontent.com``, SHA-256
        verified).  Off by default: nothing touches the network unless asked.
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    Bunch
        ``X_train``, ``y_train``, ``s_train``, ``X_test``, ``y_test``, ``s_test`` as float
        NumPy arrays.  Columns: Adult 97 (column 2 is ``sex``), German 57 (column 4 is
        binarised ``age``), COMPAS 11 (column 1 is ``race``) — the sensitive attribute is
        among the features, as in the paper.  ``y``: Adult 1 = income > 50K, German
        1 = bad credit, COMPAS 1 = re-offended; ``s``: 1 = Male / age ≥ 25 / Caucasian.
        Rows: Adult 1582/679, German 700/300, COMPAS 1727/741.

    Raises
    ------
    FileNotFoundError
        A file is absent and ``download_if_missing=False`` (or the download failed); the
        message names the file, its URL and where to put it (``FAIRLAB_DATA``).
    ChecksumError
        A local copy or the download differs from the published file.
    TypeError
        ``data_home`` is not None, a str or an os.PathLike.
    """
    key = str(dataset).lower() if isinstance(dataset, str) else dataset
    if key not in _FOLDERS:
        raise ValueError(
            f"dataset must be one of {sorted(_FOLDERS)} (Lee et al.'s real data sets); "
            f"got {dataset!r}."
        )
    if isinstance(split, bool) or not isinstance(split, (int, np.integer)) or not 0 <= split <= 9:
        raise ValueError(f"split must be an int in 0..9 (Lee et al.'s ten splits); got {split!r}.")
    if not isinstance(download_if_missing, (bool, np.bool_)):
        raise TypeError(
            f"download_if_missing must be True or False; got {download_if_missing!r}."
        )
    check_data_home(data_home)
    folder = _FOLDERS[key]
    out = Bunch(dataset=key, split=int(split))
    for part in ("train", "test"):
        raw = _part_bytes(folder, f"{part}_{int(split)}", data_home, download_if_missing,
                          timeout)
        table = np.loadtxt(io.BytesIO(raw), delimiter=",", ndmin=2)
        out[f"X_{part}"] = table[:, :-2]
        out[f"y_{part}"] = table[:, -2]
        out[f"s_{part}"] = table[:, -1]
    return out
