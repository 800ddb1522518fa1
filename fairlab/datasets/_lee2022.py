"""Lee et al. (2022)'s published train/test splits (the exact data of Kleindessner et al. §5.1)."""

import io
import os
from pathlib import Path

import numpy as np
from sklearn.utils import Bunch

from ._fetch import ENV_DATA, _provenance_table, read_verified

__all__ = ["load_lee2022_split"]

_FOLDERS = {"adult": "Adult", "german": "German", "compas": "COMPAS"}
_REPO = "fair-manifold-pca"


def _split_candidates(folder, stem, data_home):
    """``<root>/datasets/<Folder>/<stem>.csv[.gz]`` for each root, in search order."""
    roots = []
    if data_home is not None:
        home = Path(data_home).expanduser()
        roots += [home, home / _REPO]
    env = os.environ.get(ENV_DATA)
    if env:
        roots.append(Path(env).expanduser() / _REPO)
    return [root / "datasets" / folder / f"{stem}{ext}" for root in roots
            for ext in (".csv.gz", ".csv")]


def load_lee2022_split(dataset, split, *, data_home=None):
    """One of Lee et al. (2022)'s ten 70/30 splits of Adult, German credit or COMPAS.

    These files (repository ``nick-jhlee/fair-manifold-pca``, folder ``datasets/``, MIT
    License) are the only exact copy of the data Kleindessner et al. §5.1 used: AIF360 shuffled them
    without a seed.  Each split was standardised with its *train* mean and population
    standard deviation (std 0 → 1), so the test part is not exactly centred.  The files
    are not shipped; fairlab looks for ``datasets/<Adult|German|COMPAS>/{train,test}_<i>.csv``
    (or ``.csv.gz``) under ``data_home``, ``data_home/fair-manifold-pca`` and
    ``$FAIRLAB_DATA/fair-manifold-pca``, and checks the SHA-256 of the original CSV bytes.

    Parameters
    ----------
    dataset : {"adult", "german", "compas"}
    split : int in 0..9
    data_home : str or path-like, optional

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
        Naming the expected path and ``FAIRLAB_DATA`` when the files are absent.
    ChecksumError
        When a file differs from the published one.
    """
    key = str(dataset).lower() if isinstance(dataset, str) else dataset
    if key not in _FOLDERS:
        raise ValueError(
            f"dataset must be one of {sorted(_FOLDERS)} (Lee et al.'s real data sets); "
            f"got {dataset!r}."
        )
    if isinstance(split, bool) or not isinstance(split, (int, np.integer)) or not 0 <= split <= 9:
        raise ValueError(f"split must be an int in 0..9 (Lee et al.'s ten splits); got {split!r}.")
    folder = _FOLDERS[key]
    hashes = _provenance_table()["lee2022_splits"]["sha256"]
    out = Bunch(dataset=key, split=int(split))
    for part in ("train", "test"):
        stem = f"{part}_{int(split)}"
        candidates = _split_candidates(folder, stem, data_home)
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            searched = "\n  ".join(str(p) for p in candidates) or "(nothing: no data_home given)"
            raise FileNotFoundError(
                f"Lee et al. (2022) split {folder}/{stem}.csv not found; searched:\n  "
                f"{searched}\nPut a copy of the folder datasets/ of "
                "https://github.com/nick-jhlee/fair-manifold-pca under "
                f"$FAIRLAB_DATA/{_REPO}/ (set the environment variable {ENV_DATA}) or pass "
                "data_home=..."
            )
        raw = read_verified(path, hashes[f"{folder}/{stem}.csv"])
        table = np.loadtxt(io.BytesIO(raw), delimiter=",", ndmin=2)
        out[f"X_{part}"] = table[:, :-2]
        out[f"y_{part}"] = table[:, -2]
        out[f"s_{part}"] = table[:, -1]
    return out
