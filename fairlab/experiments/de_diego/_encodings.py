"""De-Diego et al. (2025) §4, the encodings: which columns of each data set are the features,
beside the paper's Table 3 (d), its §8.1 descriptions (n, features) and Table 2 (S).

The paper does not publish its preprocessing ("the details about how each dataset has been
processed can be find in the GitHub repository", §4; no such repository is public).  What its
text does say, per data set, and what we take from it:

* **German Credit** — §8.1: "described as values of 21 features: 14 categorical and 7
  numerical"; Table 3: d = 21.  The counts after preprocessing equal the described ones, so
  each feature stays one column (ordinal codes, no one-hot expansion, which would give more
  than 21).  UCI lists 20 attributes (13 categorical, 7 numerical); the 14th categorical we read
  as Table 2's binarised sensitive attribute, 1[age > 25] (the paper names no other column
  for German).  Categorical attributes take the rank of their UCI code by number (A40 < A41
  < ... < A410).
* **COMPAS** — Table 3: d = 6; §3.3 names the most relevant features of the components,
  "event, decile score, juv misd count, race and decile score" (η = 0) and "event, age, juv
  other count, juv misd count and priors count" (η = 1).  Without race (Table 2's S) these are
  six columns, d = 6: event, decile_score, juv_misd_count, age, juv_other_count,
  priors_count.  ``event`` is ProPublica's recidivism event, equal to the label on 89 % of
  the rows: the paper kept it (it is the first feature it names), so do we.
* **Adult Income** (d = 36), **Diabetes** (d = 27), **Communities and Crimes** (d = 33) —
  the text gives the raw counts (14, 49 and 127 features) and a few named factors, but no
  selection or encoding that reaches Table 3's d: the loaders' ``"pls"`` encodings stay
  (99, 18 and 98 features), and the difference is reported, not guessed away.
* **Law School** — d = 3, the three features §8.1 names (LSAT, UGPA, ZFYA), as loaded.
"""

import pandas as pd

from ... import datasets, published
from ...datasets._real import _read_compas, _read_german

#: Data set keys of De-Diego et al. -> the names printed in its tables.
DATASETS = {
    "adult": "Adult Income", "german": "German Credit", "lawschool": "Law School",
    "diabetes": "Diabetes", "compas": "COMPAS", "communities": "Communities and Crimes",
}

#: The data sets' sizes as §8.1 describes them (rows before any filtering).
PAPER_ROWS = {"adult": 48842, "german": 1000, "lawschool": 21791, "diabetes": 101766,
              "compas": 7214, "communities": 1994}

#: Table 2's sensitive attribute and privileged group, in the paper's words.
PAPER_SENSITIVE = {"adult": "Gender (Male)", "german": "Age (> 25)", "lawschool": "Race (White)",
                   "diabetes": "Race (Caucasian)", "compas": "Race (Caucasian)",
                   "communities": "Race (Not black)"}

#: Our sensitive attribute and its threshold, beside :data:`PAPER_SENSITIVE`.
OUR_SENSITIVE = {"adult": "sex = Male", "german": "age > 25", "lawschool": "race = White",
                 "diabetes": "race = Caucasian", "compas": "race = Caucasian",
                 "communities": "racepctblack <= 0.06 (the median; no threshold printed)"}

#: The features of each data set, and the text they rest on.
ENCODINGS = {
    "adult": ("loader 'pls': every column but sex one-hot (drop_first)",
              "§8.1: 14 features, 8 categorical and 6 numeric; no encoding reaching d = 36"),
    "german": ("20 UCI attributes as ordinal codes + 1[age > 25]",
               "§8.1: 21 features, 14 categorical and 7 numerical; Table 3: d = 21"),
    "lawschool": ("LSAT, UGPA, ZFYA", "§8.1 names these three; Table 3: d = 3"),
    "diabetes": ("loader 'pls': 8 counts, age, gender, A1C and glucose results, change, "
                 "diabetesMed", "§8.1: 49 features, 36 categorical; no encoding reaching d = 27"),
    "compas": ("event, decile_score, juv_misd_count, age, juv_other_count, priors_count",
               "§3.3 names these six (and race, the S of Table 2); Table 3: d = 6"),
    "communities": ("loader 'pls': every complete numeric column but racepctblack",
                    "§8.1: 127 features, 123 numerical; no selection reaching d = 33"),
}

_COMPAS_FEATURES = ["event", "decile_score", "juv_misd_count", "age", "juv_other_count",
                    "priors_count"]


def _german_ordinal(data_home=None):
    df = _read_german(data_home, download_if_missing=False)
    X = df.drop(columns="credit").copy()
    for column in [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]:
        codes = sorted(set(X[column]), key=lambda code: int(code[1:]))
        X[column] = X[column].map({code: rank for rank, code in enumerate(codes)})
    X["age>25"] = (df["age"] > 25).astype(int)
    return X.astype(float)


def encode(key, bunch, data_home=None):
    """The features of De-Diego et al.'s data set ``key`` under our reading of its text.

    Parameters
    ----------
    key : str
        A data set key (``"german"``, ``"compas"``, ...).
    bunch : Bunch
        ``load_<key>(variant="pls")``: its rows, labels and groups are kept; only the features
        of German Credit and COMPAS change (see the module docstring for the text each rests
        on).

    Returns
    -------
    DataFrame
        The features, one column each, rows in ``bunch``'s order.
    """
    if key == "german":
        return _german_ordinal(data_home)
    if key == "compas":
        raw = _read_compas(data_home, download_if_missing=False)
        raw = raw.loc[raw["race"].isin(["African-American", "Caucasian"])]
        return raw[_COMPAS_FEATURES].astype(float).reset_index(drop=True)
    return bunch.X


def feature_counts(data_home=None):
    """Table 3's d, §8.1's n and Table 2's S beside ours, one row per data set found.

    ``d (before)`` counts the features of the loader's ``"pls"`` variant, ``d (ours)`` those
    of :func:`encode` that the experiment uses.  Law School is left out when it has no local
    copy.

    Returns
    -------
    DataFrame
        ``dataset, d (paper), d (before), d (ours), n (paper), n (ours), S (paper), S (ours),
        features (ours), text``.
    """
    t3 = published.table("dediego2025", "table3")
    d_paper = t3[t3["metric"] == "n_features"].set_index("dataset")["mean"]
    rows = []
    for key, name in DATASETS.items():
        try:
            bunch = getattr(datasets, f"load_{key}")(variant="pls", data_home=data_home,
                                                      download_if_missing=False)
        except FileNotFoundError:
            continue
        X = encode(key, bunch, data_home)
        rows.append({"dataset": name, "d (paper)": int(d_paper[name]),
                     "d (before)": bunch.X.shape[1], "d (ours)": X.shape[1],
                     "n (paper)": PAPER_ROWS[key], "n (ours)": len(X),
                     "S (paper)": PAPER_SENSITIVE[key], "S (ours)": OUR_SENSITIVE[key],
                     "features (ours)": ENCODINGS[key][0], "text": ENCODINGS[key][1]})
    return pd.DataFrame(rows)
