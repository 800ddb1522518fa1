"""Finding, verifying and (optionally) downloading raw data files.

Three kinds of raw files (``availability`` in ``provenance.json``):

* **shipped** — UCI Adult, UCI German credit, ProPublica COMPAS, UCI Bank Marketing, UCI
  Contraceptive Method Choice, UCI Communities and Crime, UCI Diabetes 130-US and LIBSVM
  a9a are inside the package, xz-compressed, in ``fairlab/datasets/data/<file>.xz``; Lee et
  al. (2022)'s published splits and their saved FPCA / MbF-PCA loading matrices (MIT) in
  ``fairlab/datasets/data/fair-manifold-pca/`` (read by
  :func:`fairlab.datasets.load_lee2022_split` and
  :func:`fairlab.datasets.load_lee2022_loadings`).
* **external** — the LSAC Law School files (their terms are not an open licence, so they
  are not redistributed).
* **on request** — the CelebA faces, downloaded only when asked
  (:func:`fairlab.datasets.load_celeba`, which checks the MD5 sums published with CelebA).

:func:`fetch_file` (and every loader) looks for a file, in order, in

1. ``data_home/<dataset>/<file>`` and ``data_home/<file>`` (the ``data_home`` argument),
2. ``$FAIRLAB_DATA/<dataset>/<file>``,
3. the copy shipped with fairlab (shipped data sets only),
4. the user cache ``get_data_home()/<dataset>/<file>`` (``$FAIRLAB_CACHE``, else
   ``$XDG_CACHE_HOME/fairlab``, else ``~/.cache/fairlab``),

and otherwise downloads it from its original source with the standard library
(``urllib``), verifies its SHA-256 and stores it under ``data_home`` (when given) or the
user cache.  So a user's own copy (``data_home`` or ``$FAIRLAB_DATA``) takes precedence
over the shipped one, and a shipped data set never touches the network.  The first copy
found is the one used: a file whose SHA-256 differs from the recorded one — shipped,
found locally or downloaded — is refused with :class:`ChecksumError` (a damaged ``.xz``
stream too); nothing is silently skipped or re-fetched.

Every file's SHA-256 (of the original, uncompressed bytes), size, source URL, license and
citation are recorded in ``provenance.json`` next to this module (see :func:`provenance`).
"""

import gzip
import hashlib
import io
import json
import lzma
import os
import tempfile
import urllib.error
import urllib.request
import zipfile
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["ChecksumError", "fetch_file", "get_data_home", "provenance"]

_HERE = Path(__file__).resolve().parent
DATA_DIR = _HERE / "data"
_PROVENANCE_FILE = _HERE / "provenance.json"
ENV_DATA = "FAIRLAB_DATA"
ENV_CACHE = "FAIRLAB_CACHE"


class ChecksumError(ValueError):
    """A data file is damaged: its SHA-256 differs from the one in ``provenance.json``.

    Also raised when a compressed copy (``.xz``, ``.gz``) cannot be decompressed.  The
    message names the file and how to replace it.
    """


@lru_cache(maxsize=1)
def _provenance_table():
    with open(_PROVENANCE_FILE, encoding="utf-8") as fh:
        return json.load(fh)


def _records():
    """Every provenance record by name: the loaders' data sets, Lee et al.'s files and celeba."""
    table = _provenance_table()
    return {**table["datasets"], "lee2022_splits": table["lee2022_splits"],
            "lee2022_loadings": table["lee2022_loadings"], "celeba": table["celeba"]}


def provenance(dataset=None):
    """Provenance records: source, license, citation, files with SHA-256 and size.

    Parameters
    ----------
    dataset : str or None, default=None
        A data set name (``"adult"``, ``"bank"``, ..., ``"lee2022_splits"`` for Lee et al.'s
        published splits, ``"lee2022_loadings"`` for their saved loading matrices);
        ``None`` returns all of them, keyed by name.

    Returns
    -------
    dict
        A deep copy, safe to modify.  Each record has ``title``, ``availability``
        (``"shipped"``, ``"external"`` or ``"on request"``), ``shipped`` (bool),
        ``homepage``, ``license`` (and possibly ``license_note``), ``citation`` and
        ``files`` (file name → ``sha256`` and ``size`` of the original bytes, ``url``).
    """
    table = _records()
    if dataset is None:
        return json.loads(json.dumps(table))
    if dataset not in table:
        raise ValueError(f"Unknown dataset {dataset!r}; known: {sorted(table)}.")
    return json.loads(json.dumps(table[dataset]))


def _file_record(dataset, filename):
    files = _provenance_table()["datasets"][dataset]["files"]
    return files[filename]


def _is_shipped(dataset, filename):
    rec = _provenance_table()["datasets"].get(dataset)
    return bool(rec and rec.get("shipped") and filename in rec["files"])


def shipped_path(filename, dataset=None):
    """Where the xz-compressed copy of a shipped file lives inside the package.

    ``data/<filename>.xz``, or ``data/<shipped_folder>/<filename>.xz`` when the provenance
    record of ``dataset`` names a ``shipped_folder`` (Lee et al.'s files, whose names are
    paths such as ``Adult/train_0.csv``).
    """
    folder = _records().get(dataset, {}).get("shipped_folder") if dataset else None
    return (DATA_DIR / folder if folder else DATA_DIR) / f"{filename}.xz"


# Sources of every raw file: (dataset, filename) -> {url, sha256, member}.  ``member`` names
# the file inside a zip archive (its SHA-256 is that of the member: the archives themselves
# are not pinned).  Shipped files are listed too: their source is only used when the
# shipped copy is missing from an installation.  Tests replace entries of this dict.
REMOTE_FILES = {}


def _init_remote_files():
    for name, rec in _provenance_table()["datasets"].items():
        for filename, frec in rec["files"].items():
            REMOTE_FILES[(name, filename)] = {
                "url": frec["url"],
                "sha256": frec["sha256"],
                "member": frec.get("archive_member"),
            }


_init_remote_files()


def check_data_home(data_home):
    """Validate a ``data_home`` argument: ``None``, or a folder as str or os.PathLike.

    Returns
    -------
    pathlib.Path or None
        The folder, ``~`` expanded; ``None`` when ``data_home`` is ``None``.

    Raises
    ------
    TypeError
        ``data_home`` is neither None, a str nor an os.PathLike (e.g. an int or a list).
    ValueError
        ``data_home`` is an empty string.
    """
    if data_home is None:
        return None
    if not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(
            "data_home must be None or a folder path given as a str or an os.PathLike "
            f"(e.g. pathlib.Path); got {type(data_home).__name__} {data_home!r}. Pass e.g. "
            "data_home='~/fairlab_data', or leave it None to use $FAIRLAB_DATA, the shipped "
            "copies and the user cache."
        )
    path = os.fspath(data_home)
    if not isinstance(path, str):
        raise TypeError(
            f"data_home must be a str or an os.PathLike whose path is a str; got {path!r} "
            f"(a {type(path).__name__}). Pass the folder as a str or a pathlib.Path."
        )
    if not path:
        raise ValueError(
            "data_home must not be an empty string; pass a folder, or None to use "
            "$FAIRLAB_DATA, the shipped copies and the user cache."
        )
    return Path(path).expanduser()


def _cache_dir():
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "fairlab"


def get_data_home(data_home=None):
    """The folder where downloaded data sets are cached (created if missing).

    Parameters
    ----------
    data_home : str or os.PathLike, optional
        Returned (``~`` expanded) when given.  Otherwise ``$FAIRLAB_CACHE``, else
        ``$XDG_CACHE_HOME/fairlab``, else ``~/.cache/fairlab``.

    Returns
    -------
    pathlib.Path
    """
    home = check_data_home(data_home)
    path = _cache_dir() if home is None else home
    path.mkdir(parents=True, exist_ok=True)
    return path


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


_DEFAULT_FIX = (
    "replace it with the original file (see fairlab.datasets.provenance() for its source "
    "and SHA-256)"
)


def read_verified(path, sha256, *, fix=None):
    """Read ``path`` (plain, ``.xz`` or ``.gz``) and check the SHA-256 of its decompressed bytes.

    Parameters
    ----------
    path : str or os.PathLike
        The file; a ``.xz`` or ``.gz`` suffix means compressed.
    sha256 : str
        Expected SHA-256 (hex) of the original, uncompressed bytes.
    fix : str, optional
        What the user should do about a damaged file (ends the error message).

    Returns
    -------
    bytes
        The original (decompressed) bytes.

    Raises
    ------
    ChecksumError
        The compressed stream is damaged, or the SHA-256 differs.
    """
    path = Path(path)
    fix = fix or _DEFAULT_FIX
    raw = path.read_bytes()
    if path.suffix in (".xz", ".gz"):
        try:
            raw = lzma.decompress(raw) if path.suffix == ".xz" else gzip.decompress(raw)
        except (lzma.LZMAError, EOFError, OSError, zlib.error) as exc:
            # OSError covers gzip.BadGzipFile; EOFError a truncated stream.
            raise ChecksumError(
                f"{path} is damaged: it cannot be decompressed ({type(exc).__name__}: {exc}), "
                f"so its SHA-256 cannot match the expected {sha256}. Fix: {fix}."
            ) from exc
    digest = _sha256(raw)
    if digest != sha256:
        raise ChecksumError(
            f"SHA-256 mismatch for {path}: expected {sha256}, got {digest}. The file is "
            f"corrupt or not the expected version. Fix: {fix}."
        )
    return raw


def _shipped_fix(dataset, filename):
    url = _file_record(dataset, filename)["url"]
    return (
        "the copy shipped inside fairlab is damaged; reinstall fairlab (e.g. pip install "
        f"--force-reinstall fairlab), or put the original {filename} (from {url}) in "
        f"$FAIRLAB_DATA/{dataset}/ or in a folder passed as data_home=..., which take "
        "precedence over the shipped copy"
    )


def read_shipped(dataset, filename):
    """Bytes of a file shipped in ``fairlab/datasets/data/`` (``<filename>.xz``), verified.

    Raises
    ------
    ChecksumError
        The shipped copy is damaged (bad xz stream or SHA-256 mismatch).
    """
    sha = _file_record(dataset, filename)["sha256"]
    return read_verified(shipped_path(filename), sha, fix=_shipped_fix(dataset, filename))


def _candidates(dataset, filename, data_home):
    """``[(path, kind)]`` in search order; kind is "local", "shipped" or "cache"."""
    paths = []
    home = check_data_home(data_home)
    if home is not None:
        paths += [(home / dataset / filename, "local"), (home / filename, "local")]
    env = os.environ.get(ENV_DATA)
    if env:
        paths.append((Path(env).expanduser() / dataset / filename, "local"))
    if _is_shipped(dataset, filename):
        paths.append((shipped_path(filename), "shipped"))
    paths.append((_cache_dir() / dataset / filename, "cache"))
    return paths


def download(url, sha256, *, member=None, timeout=60):
    """Download ``url`` (optionally a zip ``member`` of it) and check its SHA-256.

    Raises
    ------
    ChecksumError
        The downloaded bytes have the wrong SHA-256 (nothing is saved).
    urllib.error.URLError, OSError, zipfile.BadZipFile, KeyError
        The download failed or the archive lacks ``member``.
    """
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


def atomic_write(target, payload):
    """Write ``payload`` to ``target`` so that a reader never sees a half-written file."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # A unique temporary name: concurrent writers of the same file do not clobber each other.
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def fetch_file(dataset, filename, *, data_home=None, download_if_missing=True, timeout=60):
    """Path of a verified copy of a raw data file, downloading it if needed.

    The search order is that of the module: ``data_home``, ``$FAIRLAB_DATA/<dataset>/``,
    the copy shipped with fairlab, the user cache, then a download.

    Parameters
    ----------
    dataset : str
        Data set folder name (``"adult"``, ``"german"``, ``"compas"``, ``"bank"``,
        ``"lawschool"``, ``"diabetes"``, ``"communities"``, ``"cmc"``, ``"a9a"``).
    filename : str
        File name inside that folder, e.g. ``"bank-additional-full.csv"``.
    data_home : str or os.PathLike, optional
        Folder searched first (as ``data_home/<dataset>/<file>`` and ``data_home/<file>``)
        and where a download is stored.
    download_if_missing : bool, default=True
        If False, raise instead of downloading.  Shipped data sets never need a download.
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    pathlib.Path
        A local copy, or — for a shipped data set without one — the xz-compressed file
        inside the package (its decompressed bytes are the original file).

    Raises
    ------
    ChecksumError
        The copy found (shipped, local or downloaded) has the wrong SHA-256 or a damaged
        compressed stream.
    FileNotFoundError
        No copy, and downloading is disabled or failed (offline); the message says which
        file to put where.
    TypeError
        ``data_home`` is not None, a str or an os.PathLike, or ``download_if_missing`` is
        not a bool.
    """
    return fetch_bytes(dataset, filename, data_home=data_home,
                       download_if_missing=download_if_missing, timeout=timeout)[0]


def fetch_bytes(dataset, filename, *, data_home=None, download_if_missing=True, timeout=60):
    """Like :func:`fetch_file`, but also return the verified original bytes (hashed once)."""
    key = (dataset, filename)
    if key not in REMOTE_FILES:
        known = sorted({d for d, _ in REMOTE_FILES})
        raise ValueError(f"Unknown data file {dataset}/{filename}; known data sets: {known}.")
    if not isinstance(download_if_missing, (bool, np.bool_)):
        raise TypeError(
            f"download_if_missing must be True or False; got {download_if_missing!r}."
        )
    spec = REMOTE_FILES[key]
    candidates = _candidates(dataset, filename, data_home)
    for path, kind in candidates:
        if path.is_file():
            if kind == "shipped":
                return path, read_shipped(dataset, filename)
            # A changed byte is refused with ChecksumError, not skipped.
            fix = (f"replace it with the original {filename} (from {spec['url']}"
                   f"{', member ' + spec['member'] if spec['member'] else ''}) or delete it")
            return path, read_verified(path, spec["sha256"], fix=fix)

    home = check_data_home(data_home)
    target = (home if home is not None else _cache_dir()) / dataset / filename
    searched = "\n  ".join(str(p) for p, _ in candidates)
    hint = (
        f"Download {spec['url']}"
        f"{' and extract ' + spec['member'] if spec['member'] else ''} and put {filename} at "
        f"{target} (or in $FAIRLAB_DATA/{dataset}/, or pass data_home=...)."
    )
    if _is_shipped(dataset, filename):
        hint = (f"The copy shipped with fairlab ({shipped_path(filename).name}) is missing "
                "from this installation: reinstall fairlab, or " + hint[0].lower() + hint[1:])
    if not download_if_missing:
        raise FileNotFoundError(
            f"{dataset}/{filename} not found; searched:\n  {searched}\n"
            f"download_if_missing=False, so nothing was downloaded. {hint}"
        )
    try:
        payload = download(spec["url"], spec["sha256"], member=spec["member"], timeout=timeout)
    except (urllib.error.URLError, OSError, zipfile.BadZipFile, KeyError) as exc:
        raise FileNotFoundError(
            f"{dataset}/{filename} not found; searched:\n  {searched}\n"
            f"and downloading it failed ({exc}). {hint}"
        ) from exc
    atomic_write(target, payload)
    return target, payload
