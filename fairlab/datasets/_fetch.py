"""Finding, verifying and (optionally) downloading raw data files.

Two kinds of raw files:

* **shipped** — UCI Adult, UCI German credit and ProPublica COMPAS are inside the package,
  xz-compressed, in ``fairlab/datasets/data/``.  The SHA-256 of the *original*
  (decompressed) bytes is checked every time a file is read.
* **external** — every other data set.  :func:`fetch_file` looks for the file, in order, in

  1. ``data_home/<dataset>/<file>`` and ``data_home/<file>`` (the ``data_home`` argument),
  2. ``$FAIRLAB_DATA/<dataset>/<file>``,
  3. the user cache ``get_data_home()/<dataset>/<file>`` (``$FAIRLAB_CACHE``, else
     ``$XDG_CACHE_HOME/fairlab``, else ``~/.cache/fairlab``),

  and otherwise downloads it from its original source with the standard library
  (``urllib``), verifies its SHA-256 and stores it under ``data_home`` (when given) or the
  user cache.  A file whose SHA-256 differs from the recorded one — found locally or
  downloaded — is refused with :class:`ChecksumError`; nothing is silently re-fetched.

Every file's SHA-256, size, source URL, license and citation are recorded in
``provenance.json`` next to this module (see :func:`provenance`).
"""

import hashlib
import io
import json
import lzma
import os
import urllib.error
import urllib.request
import zipfile
from functools import lru_cache
from pathlib import Path

__all__ = ["ChecksumError", "fetch_file", "get_data_home", "provenance"]

_HERE = Path(__file__).resolve().parent
DATA_DIR = _HERE / "data"
_PROVENANCE_FILE = _HERE / "provenance.json"
ENV_DATA = "FAIRLAB_DATA"
ENV_CACHE = "FAIRLAB_CACHE"


class ChecksumError(ValueError):
    """A data file's SHA-256 differs from the one recorded in ``provenance.json``."""


@lru_cache(maxsize=1)
def _provenance_table():
    with open(_PROVENANCE_FILE, encoding="utf-8") as fh:
        return json.load(fh)


def provenance(dataset=None):
    """Provenance records (source, license, citation, files with SHA-256).

    Parameters
    ----------
    dataset : str or None
        A data set name (``"adult"``, ``"bank"``, ...); ``None`` returns all of them.

    Returns
    -------
    dict
        A deep copy, safe to modify.
    """
    table = _provenance_table()["datasets"]
    if dataset is None:
        return json.loads(json.dumps(table))
    if dataset not in table:
        raise ValueError(f"Unknown dataset {dataset!r}; known: {sorted(table)}.")
    return json.loads(json.dumps(table[dataset]))


def _file_record(dataset, filename):
    files = _provenance_table()["datasets"][dataset]["files"]
    return files[filename]


# Remote sources of the external files: (dataset, filename) -> {url, sha256, member}.
# ``member`` names the file inside a zip archive (its SHA-256 is that of the member: the
# archives themselves are not pinned).  Tests replace entries of this dict.
REMOTE_FILES = {}


def _init_remote_files():
    for name, rec in _provenance_table()["datasets"].items():
        if rec.get("shipped"):
            continue
        for filename, frec in rec["files"].items():
            REMOTE_FILES[(name, filename)] = {
                "url": frec["url"],
                "sha256": frec["sha256"],
                "member": frec.get("archive_member"),
            }


_init_remote_files()


def _cache_dir():
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "fairlab"


def get_data_home(data_home=None):
    """The folder where downloaded data sets are cached (created if missing).

    ``data_home`` if given, else ``$FAIRLAB_CACHE``, else ``$XDG_CACHE_HOME/fairlab``,
    else ``~/.cache/fairlab``.
    """
    path = _cache_dir() if data_home is None else Path(data_home).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


def read_verified(path, sha256):
    """Read ``path`` (plain, ``.xz`` or ``.gz``) and check the SHA-256 of its decompressed bytes."""
    path = Path(path)
    raw = path.read_bytes()
    if path.suffix == ".xz":
        raw = lzma.decompress(raw)
    elif path.suffix == ".gz":
        import gzip

        raw = gzip.decompress(raw)
    digest = _sha256(raw)
    if digest != sha256:
        raise ChecksumError(
            f"SHA-256 mismatch for {path}: expected {sha256}, got {digest}. The file is "
            "corrupt or not the expected version; replace it with the original file (see "
            "fairlab.datasets.provenance() for its source)."
        )
    return raw


def read_shipped(dataset, filename):
    """Bytes of a file shipped in ``fairlab/datasets/data/`` (``<filename>.xz``), verified."""
    sha = _file_record(dataset, filename)["sha256"]
    return read_verified(DATA_DIR / f"{filename}.xz", sha)


def _candidates(dataset, filename, data_home):
    paths = []
    if data_home is not None:
        home = Path(data_home).expanduser()
        paths += [home / dataset / filename, home / filename]
    env = os.environ.get(ENV_DATA)
    if env:
        paths.append(Path(env).expanduser() / dataset / filename)
    paths.append(_cache_dir() / dataset / filename)
    return paths


def _download(url, sha256, member, timeout):
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (https/http only)
        payload = response.read()
    if member is not None:
        with zipfile.ZipFile(io.BytesIO(payload)) as archive:
            payload = archive.read(member)
    digest = _sha256(payload)
    if digest != sha256:
        raise ChecksumError(
            f"SHA-256 mismatch for the file downloaded from {url}"
            f"{f' (member {member})' if member else ''}: expected {sha256}, got {digest}. "
            "The source may have changed; nothing was saved."
        )
    return payload


def fetch_file(dataset, filename, *, data_home=None, download_if_missing=True, timeout=60):
    """Path of a verified local copy of an external raw file, downloading it if needed.

    Parameters
    ----------
    dataset : str
        Data set folder name (``"bank"``, ``"lawschool"``, ``"diabetes"``,
        ``"communities"``, ``"cmc"``, ``"a9a"``).
    filename : str
        File name inside that folder, e.g. ``"bank-additional-full.csv"``.
    data_home : str or path-like, optional
        Folder searched first (as ``data_home/<dataset>/<file>`` and ``data_home/<file>``)
        and where a download is stored.
    download_if_missing : bool, default=True
        If False, raise instead of downloading.
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ChecksumError
        A local copy or the download has the wrong SHA-256.
    FileNotFoundError
        No local copy, and downloading is disabled or failed (offline); the message says
        which file to put where.
    """
    return fetch_bytes(dataset, filename, data_home=data_home,
                       download_if_missing=download_if_missing, timeout=timeout)[0]


def fetch_bytes(dataset, filename, *, data_home=None, download_if_missing=True, timeout=60):
    """Like :func:`fetch_file`, but also return the verified bytes (hashed once)."""
    key = (dataset, filename)
    if key not in REMOTE_FILES:
        known = sorted({d for d, _ in REMOTE_FILES})
        raise ValueError(f"Unknown data file {dataset}/{filename}; known data sets: {known}.")
    spec = REMOTE_FILES[key]
    candidates = _candidates(dataset, filename, data_home)
    for path in candidates:
        if path.is_file():
            return path, read_verified(path, spec["sha256"])  # ChecksumError on a changed byte

    target_dir = Path(data_home).expanduser() if data_home is not None else get_data_home()
    target = target_dir / dataset / filename
    searched = "\n  ".join(str(p) for p in candidates)
    hint = (
        f"Download {spec['url']}"
        f"{' and extract ' + spec['member'] if spec['member'] else ''} and put {filename} at "
        f"{target} (or in $FAIRLAB_DATA/{dataset}/, or pass data_home=...)."
    )
    if not download_if_missing:
        raise FileNotFoundError(
            f"{dataset}/{filename} not found; searched:\n  {searched}\n"
            f"download_if_missing=False, so nothing was downloaded. {hint}"
        )
    try:
        payload = _download(spec["url"], spec["sha256"], spec["member"], timeout)
    except (urllib.error.URLError, OSError, zipfile.BadZipFile, KeyError) as exc:
        raise FileNotFoundError(
            f"{dataset}/{filename} not found; searched:\n  {searched}\n"
            f"and downloading it failed ({exc}). {hint}"
        ) from exc
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    tmp.write_bytes(payload)
    os.replace(tmp, target)  # atomic: a reader never sees a half-written file
    return target, payload
