"""Lee et al. (2022)'s published splits and saved loading matrices (Kleindessner et al. §5.1).

Both ship with fairlab (MIT License, (c) 2022 Junghyun Lee), copied byte for byte from the
public repository ``nick-jhlee/fair-manifold-pca`` at a pinned commit and xz-compressed under
``fairlab/datasets/data/fair-manifold-pca/``:

* :func:`load_lee2022_split` — the ten 70/30 train/test splits of Adult, German credit and
  COMPAS (the repository's ``datasets/<Adult|German|COMPAS>/{train,test}_<i>.csv``, 60 files,
  81 MB as CSV); provenance record ``provenance("lee2022_splits")``;
* :func:`load_lee2022_loadings` — Lee et al.'s saved PCA, FPCA and MbF-PCA loading matrices
  on those splits (the repository's ``uci/<Dataset>/<setting>/{FPCA,STFPCA}_V_<i>.csv`` and
  ``uci/<Dataset>/PCA_V_<i>.csv``, 250 files); provenance record
  ``provenance("lee2022_loadings")``.

Each file is looked for, in order, under

1. ``data_home`` and ``data_home/fair-manifold-pca`` (the ``data_home`` argument),
2. ``$FAIRLAB_DATA/fair-manifold-pca``,
3. the copy shipped with fairlab,
4. the user cache ``get_data_home()/fair-manifold-pca``,

as ``datasets/<Dataset>/<part>_<i>.csv`` (splits) or ``results/<Dataset>/<setting>/<name>.csv``
(loadings; the repository's own folder name ``uci/`` is accepted too), plain or ``.csv.gz``.
The first copy found is used, and it must match the SHA-256 of the published file recorded in
``provenance.json`` (:class:`~fairlab.datasets.ChecksumError` otherwise).  Only when no copy
exists at all (an installation without the shipped data) and ``download_if_missing=True``,
the file is downloaded from the repository at the pinned commit (:data:`BASE_URL`), checked,
and stored gzip-compressed under ``data_home/fair-manifold-pca`` (when given) or the user cache.
The repository's synthetic splits are not shipped (and not read by these loaders).
"""

import gzip
import io
import os
import re
import textwrap
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
    shipped_path,
)

__all__ = ["load_lee2022_loadings", "load_lee2022_split"]

_FOLDERS = {"adult": "Adult", "german": "German", "compas": "COMPAS"}
_REPO = "fair-manifold-pca"
_SPLITS = "lee2022_splits"
_LOADINGS = "lee2022_loadings"
# Sub-folders of a root searched for each record's files: the layout of $FAIRLAB_DATA (and of
# the shipped copy) first, then the repository's own folder name.
_SUBDIRS = {_SPLITS: ("datasets",), _LOADINGS: ("results", "uci")}

#: Raw-file URL prefix of ``nick-jhlee/fair-manifold-pca`` at the pinned commit; a split's URL
#: is ``f"{BASE_URL}/datasets/<Folder>/<part>_<i>.csv"``, a loading matrix's
#: ``f"{BASE_URL}/uci/<Folder>/<setting>/<name>_<i>.csv"``.  Tests point it at a local server.
BASE_URL = _provenance_table()[_SPLITS]["base_url"]

# What each split's columns mean (Lee et al.'s AIF360 preprocessing; see DESCR).
_SPLIT_INFO = {
    "adult": dict(
        title="Adult", n_full="2261 rows, a 5 % subsample of AIF360's AdultDataset (45 222 rows)",
        y="1 = income > 50K", s="1 = Male (privileged)", col=2, col_name="sex",
        dropped="race and fnlwgt dropped",
    ),
    "german": dict(
        title="German credit", n_full="all 1000 rows of AIF360's GermanDataset",
        y="1 = bad credit (AIF360 label 2, minus 1)", s="1 = age >= 25 (privileged)", col=4,
        col_name="age, binarised", dropped="sex and personal_status dropped",
    ),
    "compas": dict(
        title="COMPAS", n_full="2468 rows, a 40 % subsample of AIF360's CompasDataset (6172 rows)",
        y="1 = re-offended within two years (two_year_recid; AIF360's favourable label is 0)",
        s="1 = Caucasian (privileged)", col=1, col_name="race, binarised",
        dropped="sex and c_charge_desc dropped",
    ),
}


def _record(name):
    return _provenance_table()[name]


def _roots(data_home):
    """Local folders holding ``datasets/`` and ``results/``, in search order (before shipped)."""
    roots = []
    home = check_data_home(data_home)
    if home is not None:
        roots += [home, home / _REPO]
    env = os.environ.get(ENV_DATA)
    if env:
        roots.append(Path(env).expanduser() / _REPO)
    return roots


def _candidates(name, key, data_home):
    """``[(path, kind)]`` in search order; kind is "local", "shipped" or "cache"."""

    def under(root, kind):
        return [(root / sub / f"{key}{ext}", kind) for sub in _SUBDIRS[name]
                for ext in (".gz", "")]

    paths = [p for root in _roots(data_home) for p in under(root, "local")]
    paths.append((shipped_path(key, name), "shipped"))
    paths += under(_cache_dir() / _REPO, "cache")
    return paths


def _file_bytes(name, key, data_home, download_if_missing, timeout, loader):
    """Verified original bytes of Lee et al.'s file ``key`` (record ``name``).

    The first copy found (data_home, $FAIRLAB_DATA, shipped, user cache) is read; a missing
    one is downloaded only with ``download_if_missing=True``.
    """
    rec = _record(name)
    sha = rec["files"][key]["sha256"]
    sub = _SUBDIRS[name][0]
    repo_path = f"{rec['folder']}/{key}"
    url = f"{BASE_URL}/{repo_path}"
    candidates = _candidates(name, key, data_home)
    for path, kind in candidates:
        if path.is_file():
            if kind == "shipped":
                fix = ("the copy shipped inside fairlab is damaged; reinstall fairlab (e.g. pip "
                       f"install --force-reinstall fairlab), or put the published file {url} at "
                       f"$FAIRLAB_DATA/{_REPO}/{sub}/{key} or in a folder passed as "
                       "data_home=..., which take precedence over the shipped copy")
            else:
                fix = (f"replace it with the published file {url} or delete it (fairlab then "
                       "reads the copy it ships)")
            return read_verified(path, sha, fix=fix)  # ChecksumError on a changed byte

    home = check_data_home(data_home)
    target = (home if home is not None else _cache_dir()) / _REPO / sub / f"{key}.gz"
    searched = "\n  ".join(str(p) for p, _ in candidates)
    missing = (f"The copy shipped with fairlab ({shipped_path(key, name)}) is missing from "
               "this installation: reinstall fairlab, or")
    where = (f"put a copy of the folder {rec['folder']}/ of "
             f"https://github.com/nick-jhlee/fair-manifold-pca (commit {rec['commit']}) at "
             f"$FAIRLAB_DATA/{_REPO}/{sub}/ (set the environment variable {ENV_DATA}), or pass "
             "data_home=...")
    if not download_if_missing:
        raise FileNotFoundError(
            f"Lee et al. (2022) file {repo_path} not found; searched:\n  {searched}\n"
            f"download_if_missing=False, so nothing was downloaded. {missing} pass "
            f"download_if_missing=True to {loader} to download it (SHA-256 verified) from "
            f"{url} into {target}; or {where}"
        )
    try:
        payload = download(url, sha, timeout=timeout)  # ChecksumError: nothing saved
    except (urllib.error.URLError, OSError) as exc:
        raise FileNotFoundError(
            f"Lee et al. (2022) file {repo_path} not found; searched:\n  {searched}\n"
            f"and downloading it from {url} failed ({exc}). {missing} fetch that file yourself "
            f"and put it at {target.with_suffix('')} (plain or .gz); or {where}"
        ) from exc
    # Stored gzip-compressed (the Adult splits are 4 MB each as CSV, 0.1 MB compressed);
    # mtime=0 keeps the cached file byte-reproducible.
    atomic_write(target, gzip.compress(payload, compresslevel=6, mtime=0))
    return payload


def _fmt_mb(n):
    return f"{n / 1e6:.2f} MB"


def _availability(name):
    rec = _record(name)
    size = sum(f["size"] for f in rec["files"].values())
    packed = sum(p.stat().st_size for p in (shipped_path(k, name) for k in rec["files"])
                 if p.is_file())
    sub = _SUBDIRS[name][0]
    return (f"shipped with fairlab ({len(rec['files'])} files, {_fmt_mb(size)} as published, "
            f"{_fmt_mb(packed)} xz-compressed in the package; the SHA-256 of the original bytes "
            f"is checked at every load). A copy in data_home or $FAIRLAB_DATA/{_REPO}/{sub}/ "
            "takes precedence.")


def _provenance_lines(name, keys):
    """The Source / Files / Availability / License / Citation block of a DESCR."""
    rec = _record(name)
    files = "\n".join(
        f"  - {rec['folder']}/{k}: {rec['files'][k]['size']} bytes, sha256 "
        f"{rec['files'][k]['sha256']}\n    source: {BASE_URL}/{rec['folder']}/{k}"
        for k in keys
    )
    return [
        "",
        f"Source: {rec['homepage']} (commit {rec['commit']}, folder {rec['folder']}/)",
        textwrap.fill(f"Copied: {rec['copied_from']}", 88, subsequent_indent="  ",
                      break_on_hyphens=False),
        f"Files:\n{files}",
        textwrap.fill(f"Availability: {_availability(name)}", 88, subsequent_indent="  ",
                      break_on_hyphens=False),
        textwrap.fill(f"License: {rec['license']}. {rec['license_note']} Its notice (the file "
                      f"LICENSE at commit {rec['commit'][:12]}):", 88, subsequent_indent="  "),
        textwrap.indent(rec["license_text"].rstrip("\n"), "  | ", lambda line: True),
        f"Citation: {rec['citation']}",
    ]


def _split_descr(key, split, out, keys):
    info = _SPLIT_INFO[key]
    rec = _record(_SPLITS)
    d = out.X_train.shape[1]
    groups = ", ".join(
        f"{part} {int((out[f's_{part}'] == 1).sum())} of {len(out[f's_{part}'])}"
        for part in ("train", "test")
    )
    steps = [
        f"Lee et al.'s AIF360 preprocessing of {info['title']}: {info['n_full']}; "
        f"{info['dropped']}; categorical attributes one-hot encoded (all levels).",
        "A random 70/30 train/test split (AIF360 shuffled without a seed: these files are the "
        "only exact copy of the data of Lee et al. 2022 and Kleindessner et al. 2023 §5.1).",
        "Every column standardised with the train mean and population standard deviation of "
        "this split (std 0 replaced by 1), so the test part is not exactly centred.",
        f"The sensitive attribute is also a feature: column {info['col']} ({info['col_name']}).",
    ]
    lines = [
        f"{rec['title']} — {key}, split {split}",
        "=" * 60,
        "Setting: Kleindessner et al. (2023) §5.1, Tables 1-3; Lee et al. (2022) §5",
        f"Shape: train {len(out.X_train)} rows, test {len(out.X_test)} rows x {d} features",
        f"Target y: {info['y']}",
        f"Sensitive s: {info['s']}; privileged rows: {groups}",
        "",
        "Preprocessing (Lee et al.'s, done before publication):",
        "\n".join(textwrap.fill(s, 88, initial_indent="  - ", subsequent_indent="    ")
                  for s in steps),
    ]
    return "\n".join(lines + _provenance_lines(_SPLITS, keys)) + "\n"


def _check_dataset_split(dataset, split):
    key = str(dataset).lower() if isinstance(dataset, str) else dataset
    if key not in _FOLDERS:
        raise ValueError(
            f"dataset must be one of {sorted(_FOLDERS)} (Lee et al.'s real data sets); "
            f"got {dataset!r}."
        )
    if isinstance(split, bool) or not isinstance(split, (int, np.integer)) or not 0 <= split <= 9:
        raise ValueError(f"split must be an int in 0..9 (Lee et al.'s ten splits); got {split!r}.")
    return key, int(split)


def _check_download_flag(download_if_missing):
    if not isinstance(download_if_missing, (bool, np.bool_)):
        raise TypeError(
            f"download_if_missing must be True or False; got {download_if_missing!r}."
        )


def load_lee2022_split(dataset, split, *, data_home=None, download_if_missing=False,
                       timeout=60):
    """One of Lee et al. (2022)'s ten 70/30 splits of Adult, German credit or COMPAS.

    These files (repository ``nick-jhlee/fair-manifold-pca``, folder ``datasets/``, MIT
    License, (c) 2022 Junghyun Lee) are the only exact copy of the data Kleindessner et al.
    §5.1 used: AIF360 shuffled them without a seed.  Each split was standardised with its
    *train* mean and population standard deviation (std 0 → 1), so the test part is not
    exactly centred.

    The 60 files ship with fairlab (xz-compressed, 0.85 MB), so this works offline with
    nothing to set up; the SHA-256 of the published CSV bytes is checked at every load.
    fairlab looks for ``datasets/<Adult|German|COMPAS>/{train,test}_<i>.csv`` (or
    ``.csv.gz``) under, in order, ``data_home``, ``data_home/fair-manifold-pca``,
    ``$FAIRLAB_DATA/fair-manifold-pca``, then reads the shipped copy, then the user cache
    ``get_data_home()/fair-manifold-pca``; a user's own copy takes precedence.  Only when no
    copy exists (an installation without the shipped data) and ``download_if_missing=True``,
    a file is downloaded from the repository at the pinned commit and cached
    (gzip-compressed) under ``data_home/fair-manifold-pca`` or the user cache.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
    split : int in 0..9
    data_home : str or os.PathLike, optional
        Folder searched first, and where a download is stored.
    download_if_missing : bool, default=False
        Download a file that is nowhere (not even shipped) from GitHub
        (``raw.githubusercontent.com``, SHA-256 verified).  Off by default: nothing touches
        the network unless asked.
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    Bunch
        ``X_train``, ``y_train``, ``s_train``, ``X_test``, ``y_test``, ``s_test`` as float
        NumPy arrays, ``dataset``, ``split`` and ``DESCR`` (preprocessing, the two files with
        their SHA-256 and URL, availability, the MIT licence notice and the citation).
        Columns: Adult 97 (column 2 is ``sex``), German 57 (column 4 is binarised ``age``),
        COMPAS 11 (column 1 is ``race``) — the sensitive attribute is among the features, as
        in the paper.  ``y``: Adult 1 = income > 50K, German 1 = bad credit, COMPAS
        1 = re-offended; ``s``: 1 = Male / age ≥ 25 / Caucasian.
        Rows: Adult 1582/679, German 700/300, COMPAS 1727/741.

    Raises
    ------
    FileNotFoundError
        No copy at all (the shipped one is missing from the installation) and
        ``download_if_missing=False`` (or the download failed); the message names the file,
        its URL and where to put it (``FAIRLAB_DATA``).
    ChecksumError
        The copy found (local, shipped or cached) or the download differs from the published
        file.
    TypeError
        ``data_home`` is not None, a str or an os.PathLike.

    Examples
    --------
    >>> from fairlab.datasets import load_lee2022_split
    >>> b = load_lee2022_split("german", 0)
    >>> b.X_train.shape, b.X_test.shape
    ((700, 57), (300, 57))
    """
    key, split = _check_dataset_split(dataset, split)
    _check_download_flag(download_if_missing)
    check_data_home(data_home)
    folder = _FOLDERS[key]
    out = Bunch(dataset=key, split=split)
    keys = []
    for part in ("train", "test"):
        file_key = f"{folder}/{part}_{split}.csv"
        raw = _file_bytes(_SPLITS, file_key, data_home, download_if_missing, timeout,
                          "load_lee2022_split")
        table = np.loadtxt(io.BytesIO(raw), delimiter=",", ndmin=2)
        out[f"X_{part}"] = table[:, :-2]
        out[f"y_{part}"] = table[:, -2]
        out[f"s_{part}"] = table[:, -1]
        keys.append(file_key)
    out["DESCR"] = _split_descr(key, split, out, keys)
    return out


_SETTING = re.compile(r"^(?P<k>\d+)_(?:(?P<method>fpca|stfpca|mbfpca)_(?P<param>[0-9.]+)|pca)$")
#: The numbers of components of Lee et al.'s PCA settings: one saved d × 10 matrix per split,
#: whose first k columns are PCA at k (MATLAB's ``pca`` orders them by decreasing variance).
_PCA_KS = (2, 10)


def _pca_file(folder, split):
    """The file key of Lee et al.'s saved PCA loadings (``10_pca/`` for COMPAS) of one split."""
    keys = [f"{folder}/PCA_V_{split}.csv", f"{folder}/10_pca/PCA_V_{split}.csv"]
    return next(k for k in keys if k in _record(_LOADINGS)["files"])


def _settings(folder):
    """Lee et al.'s settings for one data set: its FPCA and MbF-PCA folders and PCA at each k."""
    fitted = {key.split("/")[1] for key in _record(_LOADINGS)["files"]
              if key.startswith(f"{folder}/") and not key.rsplit("/", 1)[1].startswith("PCA_V_")}
    pca = {f"{k}_pca" for k in _PCA_KS}
    return sorted(fitted | pca, key=lambda s: (int(s.split("_")[0]), s))


def load_lee2022_loadings(dataset, setting, split, *, data_home=None, download_if_missing=False,
                          timeout=60):
    """Lee et al. (2022)'s saved PCA, FPCA or MbF-PCA loading matrix on one of their splits.

    The d × k matrices that Lee et al.'s experiments wrote to their repository
    (``nick-jhlee/fair-manifold-pca``, folder ``uci/``, MIT License, (c) 2022 Junghyun Lee):
    PCA (MATLAB's ``pca``), the fitted FPCA (Olfat & Aswani 2019, the SDP) and MbF-PCA (Lee
    et al. 2022, the "STFPCA" of their code) on train split ``split`` of
    :func:`load_lee2022_split`.  They let a re-implementation be held against the authors'
    own output on the same data (subspace angle, %Var, MMD²; for PCA, whose subspace
    :class:`sklearn.decomposition.PCA` reproduces, the order and signs of the columns that a
    downstream MLP meets), for Kleindessner et al. (2023) Tables 1-3.

    All 250 files ship with fairlab (xz-compressed, 0.81 MB) and are looked up like the
    splits: ``data_home``, ``data_home/fair-manifold-pca``, ``$FAIRLAB_DATA/fair-manifold-pca``,
    the shipped copy, the user cache — each as ``results/<path under uci/>`` (or ``uci/...``,
    the repository's folder name; plain or ``.csv.gz``).  The SHA-256 of the published bytes
    is checked at every load.  Lee et al.'s metric tables are not shipped.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
    setting : str
        Lee et al.'s folder name, ``"<k>_<method>_<param>"``, or ``"<k>_pca"``:

        * ``"2_pca"``, ``"10_pca"`` — PCA: the first k columns of the one d × 10 matrix Lee
          et al. saved per split (``<Dataset>/PCA_V_<i>.csv``; COMPAS's lies in ``10_pca/``),
          in MATLAB's order (decreasing variance) and with its signs;
        * ``"<k>_fpca_<delta>"`` — FPCA with fairness tolerance δ = ``delta``: ``"2_fpca_0.0"``,
          ``"2_fpca_0.1"``, ``"10_fpca_0.0"``, ``"10_fpca_0.1"`` (every data set);
        * ``"<k>_stfpca_<t>"`` — MbF-PCA with τ = 10⁻ᵗ: ``"2_stfpca_3"``, ``"2_stfpca_6"``
          and ``"10_stfpca_6"`` (Adult, COMPAS); German's folders are called ``mbfpca``
          (``"2_mbfpca_3"``, ``"2_mbfpca_6"``, ``"10_mbfpca_3"``, ``"10_mbfpca_6"``).  Either
          spelling is accepted for every data set.
    split : int in 0..9
    data_home : str or os.PathLike, optional
        Folder searched first, and where a download is stored.
    download_if_missing : bool, default=False
        Download a file that is nowhere (not even shipped) from GitHub, SHA-256 verified.
    timeout : float, default=60
        Seconds before a download attempt gives up.

    Returns
    -------
    Bunch
        ``V`` (d × k float array, as saved: columns are the loading vectors, so
        ``X @ V`` is the k-dimensional representation and ``V.T`` is scikit-learn's
        ``components_`` orientation), ``dataset``, ``split``, ``setting`` (the folder read),
        ``method`` (``"PCA"``, ``"FPCA"`` or ``"MbF-PCA"``), ``k``, ``delta`` (FPCA) or ``tau``
        (MbF-PCA), and ``DESCR`` (source, SHA-256, availability, MIT licence notice,
        citation).

    Raises
    ------
    ValueError
        Unknown data set, split or setting (the message lists the settings of the data set).
    FileNotFoundError
        No copy at all and ``download_if_missing=False`` (or the download failed).
    ChecksumError
        The copy found or the download differs from the published file.

    Examples
    --------
    >>> from fairlab.datasets import load_lee2022_loadings
    >>> load_lee2022_loadings("compas", "2_fpca_0.0", 0).V.shape
    (11, 2)
    """
    key, split = _check_dataset_split(dataset, split)
    _check_download_flag(download_if_missing)
    check_data_home(data_home)
    folder = _FOLDERS[key]
    available = _settings(folder)
    match = _SETTING.match(setting) if isinstance(setting, str) else None
    chosen = None
    if match and match["method"] is None:
        chosen = setting if setting in available else None
    elif match:
        k, method, param = match["k"], match["method"], match["param"]
        names = [setting] if method == "fpca" else [f"{k}_stfpca_{param}", f"{k}_mbfpca_{param}"]
        chosen = next((s for s in names if s in available), None)
    if chosen is None:
        raise ValueError(
            f"setting must be one of Lee et al.'s result folders for {key}: {available} "
            "('<k>_pca': PCA; '<k>_fpca_<delta>': FPCA; '<k>_stfpca_<t>' / '<k>_mbfpca_<t>': "
            f"MbF-PCA with tau = 10^-t); got {setting!r}."
        )
    k, method, param = _SETTING.match(chosen).groups()
    if method is None:
        file_key = _pca_file(folder, split)
    else:
        name = "FPCA_V" if method == "fpca" else "STFPCA_V"
        file_key = f"{folder}/{chosen}/{name}_{split}.csv"
    raw = _file_bytes(_LOADINGS, file_key, data_home, download_if_missing, timeout,
                      "load_lee2022_loadings")
    V = np.loadtxt(io.BytesIO(raw), delimiter=",", ndmin=2)[:, :int(k)]
    out = Bunch(V=V, dataset=key, split=split, setting=chosen, k=int(k))
    if method is None:
        out.update(method="PCA")
        what = ("PCA (MATLAB pca, centred; Lee et al. saved the 10 leading loading vectors, "
                f"of which these are the first {k})")
    elif method == "fpca":
        out.update(method="FPCA", delta=float(param))
        what = (f"FPCA (Olfat & Aswani 2019, the SDP as Lee et al. ran it), fairness tolerance "
                f"delta = {param}")
    else:
        out.update(method="MbF-PCA", tau=10.0 ** -int(param))
        what = f"MbF-PCA (Lee et al. 2022; 'STFPCA' in their code), tau = 1e-{param}"
    rec = _record(_LOADINGS)
    lines = [
        f"{rec['title']} — {key}, {chosen}, split {split}",
        "=" * 60,
        f"Method: {what}, k = {k}",
        f"Fitted on: load_lee2022_split({key!r}, {split}).X_train (Lee et al.'s own run)",
        f"Shape: {V.shape[0]} x {V.shape[1]} (d x k; columns are the loading vectors)",
    ]
    out["DESCR"] = "\n".join(lines + _provenance_lines(_LOADINGS, [file_key])) + "\n"
    return out
