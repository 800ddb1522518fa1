"""Real data sets with the preprocessing recipes of the seed papers.

Every loader returns a :class:`sklearn.utils.Bunch` with

``X``
    :class:`pandas.DataFrame` of float features (``feature_names`` = its columns);
``y``
    :class:`pandas.Series` target (0/1 ints for classification, floats for regression);
``sensitive``
    :class:`pandas.Series` (one attribute) or :class:`pandas.DataFrame` (several);
    for a binary attribute 1 marks the *privileged* group;
``pos_label``
    the label whose rate the disparate impact of De-Diego et al. Table 2 compares
    (``P(y = pos_label | unprivileged) / P(y = pos_label | privileged)``); ``None`` for
    regression targets;
``DESCR``
    source, license, citation and the preprocessing applied, step by step;

plus ``dataset`` and ``variant``.  A ``variant=`` argument selects the paper setting:

=========  ========================================================  ====================
variant    setting                                                   data sets
=========  ========================================================  ====================
lee2022    Kleindessner et al. §5.1, Lee et al. (2022)'s AIF360 preprocessing    adult, german,
compas
agarwal    Kleindessner et al. §5.2 (comparison with reductions)                 adult, bank
pls        De-Diego et al. Tables 2–3                                        adult, german,
                                                                      compas, lawschool,
                                                                      diabetes, communities
fkl        Pérez-Suay et al. §4 (CMC); :func:`load_a9a` for its Adult          cmc
lequy      Le Quy et al. (2022)'s cleaned bar-passage file            lawschool
=========  ========================================================  ====================

**Where the raw files come from.**  Every data set except Law School ships with fairlab
(xz-compressed, about 3.8 MB in all), so these loaders work offline with nothing to set up;
the SHA-256 of the original bytes is checked at every load.  Law School is external (the
LSAC terms are not an open licence): it is read from a local copy or downloaded from its
source.  Every loader looks for its raw files, in order, in

1. ``data_home/<dataset>/<file>`` or ``data_home/<file>`` (the ``data_home`` argument),
2. ``$FAIRLAB_DATA/<dataset>/<file>``,
3. the copy shipped with fairlab (every data set but Law School),
4. the user cache (:func:`fairlab.datasets.get_data_home`),

and otherwise downloads the file (``download_if_missing=True``) and verifies it.  A user's
own copy therefore takes precedence over the shipped one; the first copy found is used, and
a damaged one — shipped or not — raises :class:`fairlab.datasets.ChecksumError` naming the
file and the fix.  See :func:`fairlab.datasets.fetch_file`.
"""

import io
import textwrap

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from ._fetch import fetch_bytes, provenance, shipped_path

__all__ = [
    "load_adult",
    "load_german",
    "load_compas",
    "load_bank",
    "load_lawschool",
    "load_diabetes",
    "load_communities",
    "load_cmc",
    "load_a9a",
]


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------
def _check_variant(variant, allowed, loader):
    if variant not in allowed:
        raise ValueError(
            f"{loader}: unknown variant={variant!r}; choose one of {list(allowed)} "
            "(see the loader's docstring for what each one reproduces)."
        )


def _read_raw(dataset, filename, data_home, download_if_missing):
    """Verified original bytes of a raw file (search order: see the module docstring)."""
    return fetch_bytes(dataset, filename, data_home=data_home,
                       download_if_missing=download_if_missing)[1]


def _one_hot(df, columns, *, drop_first):
    """One-hot encode ``columns`` as ``name=value`` float columns (sorted categories).

    Non-encoded columns keep their order and come first, as with ``pd.get_dummies`` (and
    AIF360, which calls it).
    """
    out = pd.get_dummies(df, columns=list(columns), prefix_sep="=", drop_first=drop_first)
    return out.astype(float)


def _fmt_size(n_bytes):
    return f"{n_bytes / 1e6:.2f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e3:.0f} kB"


def _availability(dataset, rec):
    """One line: where the raw files come from (shipped / external), with sizes."""
    size = sum(f["size"] for f in rec["files"].values())
    if rec["shipped"]:
        packed = sum(shipped_path(name).stat().st_size for name in rec["files"]
                     if shipped_path(name).is_file())
        return (f"shipped with fairlab ({_fmt_size(size)}, {_fmt_size(packed)} "
                "xz-compressed in the package; the SHA-256 of the original bytes is checked "
                f"at every load). A copy in data_home or $FAIRLAB_DATA/{dataset}/ takes "
                "precedence.")
    return (f"external, not shipped ({_fmt_size(size)}; see License): read from data_home, "
            f"$FAIRLAB_DATA/{dataset}/ or the user cache, else downloaded from the source "
            "URLs above (SHA-256 verified).")


def _descr(dataset, variant, *, setting, steps, X, y, sensitive, target, pos_label, note=""):
    rec = provenance(dataset)
    files = "\n".join(
        f"  - {name}: {f['size']} bytes, sha256 {f['sha256']}\n    source: {f['url']}"
        + (f" (member {f['archive_member']})" if f.get("archive_member") else "")
        for name, f in rec["files"].items()
    )
    if isinstance(sensitive, pd.DataFrame):
        sens = ", ".join(sensitive.columns)
    else:
        counts = sensitive.value_counts().sort_index()
        sens = f"{sensitive.name} (" + ", ".join(f"{k}: {v}" for k, v in counts.items()) + ")"
    step_text = "\n".join(
        textwrap.fill(s, 88, initial_indent="  - ", subsequent_indent="    ") for s in steps
    )
    lines = [
        f"{rec['title']} — variant {variant!r}",
        "=" * 60,
        f"Setting: {setting}",
        f"Shape: {X.shape[0]} rows x {X.shape[1]} features",
        f"Target y: {target}" + (f" (pos_label = {pos_label})" if pos_label is not None else ""),
        f"Sensitive: {sens}",
        "",
        "Preprocessing:",
        step_text,
    ]
    if note:
        lines += ["", textwrap.fill("Note: " + note, 88)]
    lines += [
        "",
        f"Source: {rec['homepage']}",
        f"Files:\n{files}",
        textwrap.fill(f"Availability: {_availability(dataset, rec)}", 88,
                      subsequent_indent="  "),
        f"License: {rec['license']}" + (f" ({rec['license_note']})" if rec.get("license_note")
                                         else ""),
        f"Citation: {rec['citation']}",
    ]
    return "\n".join(lines) + "\n"


def _bunch(dataset, variant, X, y, sensitive, *, pos_label, setting, steps, target, note=""):
    X = X.reset_index(drop=True)
    y = y.reset_index(drop=True)
    sensitive = sensitive.reset_index(drop=True)
    return Bunch(
        X=X,
        y=y,
        sensitive=sensitive,
        feature_names=list(X.columns),
        pos_label=pos_label,
        dataset=dataset,
        variant=variant,
        DESCR=_descr(
            dataset, variant, setting=setting, steps=steps, X=X, y=y, sensitive=sensitive,
            target=target, pos_label=pos_label, note=note,
        ),
    )


# --------------------------------------------------------------------------------------
# UCI Adult (shipped)
# --------------------------------------------------------------------------------------
_ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "income",
]
_ADULT_CATEGORICAL_LEE = [
    "workclass", "education", "marital-status", "occupation", "relationship", "native-country",
]


def _read_adult(data_home=None, download_if_missing=True):
    """adult.data (32 561 rows) followed by adult.test (16 281 rows, first line skipped)."""
    frames = []
    for name, skip in (("adult.data", 0), ("adult.test", 1)):
        raw = _read_raw("adult", name, data_home, download_if_missing)
        frames.append(pd.read_csv(io.BytesIO(raw), header=None, names=_ADULT_COLUMNS,
                                  skiprows=skip, skipinitialspace=True))
    df = pd.concat(frames, ignore_index=True)
    df["income"] = df["income"].str.rstrip(".")  # adult.test writes "<=50K." / ">50K."
    return df


def load_adult(*, variant="lee2022", data_home=None, download_if_missing=True):
    """UCI Adult (census income, 1994), shipped with fairlab.

    Parameters
    ----------
    variant : {"lee2022", "agarwal", "pls"}, default="lee2022"
        ``"lee2022"`` — Kleindessner et al. §5.1 (Lee et al. 2022 via AIF360 ``AdultDataset``):
        adult.data + adult.test; rows with any ``?`` dropped (45 222 rows); ``fnlwgt``
        and ``race`` dropped; ``sex`` binarised (Male = 1) and **kept as a feature**;
        workclass, education, marital-status, occupation, relationship and native-country
        one-hot encoded without dropping a level → 97 features (6 numeric first, in file
        order, then the dummies with sorted levels); y = 1[income > 50K].
        Lee et al. then subsample 5 % and standardise each 70/30 split; their exact splits
        are :func:`load_lee2022_split`.

        ``"agarwal"`` — Kleindessner et al. §5.2 / App. C.2: all 48 842 rows, ``?`` kept as a level;
        ``sex`` (Male = 1) is the sensitive attribute and not a feature; every other column,
        ``fnlwgt`` and ``race`` included, one-hot encoded with ``drop_first`` → 99 features.

        ``"pls"`` — De-Diego et al.: Adult, sensitive = gender, privileged = Male.  The paper's
        encoding (36 features, Table 3) is not published; this variant uses the same
        rows and encoding as ``"agarwal"`` (99 features).  Its labels reproduce Table 2's
        disparate impact 0.3597.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/adult/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/adult/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.

    Returns
    -------
    Bunch
        ``X``, ``y``, ``sensitive`` (Series ``"sex"``, Male = 1), ``feature_names``,
        ``pos_label`` (1), ``DESCR``.

    Examples
    --------
    >>> from fairlab.datasets import load_adult
    >>> data = load_adult()
    >>> data.X.shape
    (45222, 97)
    """
    _check_variant(variant, ("lee2022", "agarwal", "pls"), "load_adult")
    df = _read_adult(data_home, download_if_missing)
    y = (df["income"] == ">50K").astype(int).rename("income>50K")
    sex = (df["sex"] == "Male").astype(int).rename("sex")
    if variant == "lee2022":
        keep = ~(df == "?").any(axis=1)
        frame = df.loc[keep].drop(columns=["fnlwgt", "race", "income"])
        frame["sex"] = sex[keep]
        X = _one_hot(frame, _ADULT_CATEGORICAL_LEE, drop_first=False)
        steps = [
            "adult.data and adult.test concatenated (48 842 rows; adult.test's first line "
            "and the trailing '.' of its labels removed).",
            "Rows with a missing value ('?') dropped: 45 222 rows (AIF360 AdultDataset).",
            "fnlwgt and race dropped; sex binarised (Male = 1) and kept as a feature.",
            "workclass, education, marital-status, occupation, relationship, native-country "
            "one-hot encoded (all levels, sorted): 97 features.",
            "y = 1[income > 50K].",
        ]
        return _bunch("adult", variant, X, y[keep], sex[keep], pos_label=1,
                      setting="Kleindessner et al. §5.1 (Lee et al. 2022, AIF360-style)",
                      steps=steps,
                      target="1 = income > 50K")
    frame = df.drop(columns=["sex", "income"])
    categorical = [c for c in frame.columns if frame[c].dtype == object or
                   pd.api.types.is_string_dtype(frame[c])]
    X = _one_hot(frame, categorical, drop_first=True)
    steps = [
        "adult.data and adult.test concatenated: 48 842 rows; '?' kept as its own level.",
        "sex (Male = 1) is the sensitive attribute and is removed from the features.",
        "Every other categorical column (race included) one-hot encoded with drop_first "
        "(the alphabetically first level dropped); numeric columns (fnlwgt included) kept: "
        "99 features.",
        "y = 1[income > 50K].",
    ]
    note = ""
    setting = "Kleindessner et al. §5.2 (comparison with Agarwal et al. 2018)"
    if variant == "pls":
        setting = "De-Diego et al. (Fair PLS), Tables 2-3: sensitive gender, privileged Male"
        note = ("De-Diego et al. report d = 36 features for Adult (Table 3) without publishing "
                "its "
                "encoding; this variant uses the 99-feature encoding of 'agarwal'. The labels "
                "and groups reproduce the disparate impact of Table 2 (0.3597).")
    return _bunch("adult", variant, X, y, sex, pos_label=1, setting=setting, steps=steps,
                  target="1 = income > 50K", note=note)


# --------------------------------------------------------------------------------------
# UCI German credit (shipped)
# --------------------------------------------------------------------------------------
_GERMAN_COLUMNS = [
    "status", "month", "credit_history", "purpose", "credit_amount", "savings",
    "employment", "investment_as_income_percentage", "personal_status", "other_debtors",
    "residence_since", "property", "age", "installment_plans", "housing",
    "number_of_credits", "skill_level", "people_liable_for", "telephone", "foreign_worker",
    "credit",
]
_GERMAN_CATEGORICAL = [
    "status", "credit_history", "purpose", "savings", "employment", "other_debtors",
    "property", "installment_plans", "housing", "skill_level", "telephone", "foreign_worker",
]


def _read_german(data_home=None, download_if_missing=True):
    raw = _read_raw("german", "german.data", data_home, download_if_missing)
    return pd.read_csv(io.BytesIO(raw), sep=" ", header=None, names=_GERMAN_COLUMNS)


def load_german(*, variant="lee2022", data_home=None, download_if_missing=True):
    """UCI Statlog German credit (1000 applicants), shipped with fairlab.

    Parameters
    ----------
    variant : {"lee2022", "pls"}, default="lee2022"
        ``"lee2022"`` — Kleindessner et al. §5.1 (Lee et al. 2022 via AIF360 ``GermanDataset``):
        ``personal_status`` (and the sex derived from it) dropped; ``age`` binarised
        (age ≥ 25 → 1) and **kept as a feature**; 12 categorical columns one-hot encoded
        with all levels → 57 features (7 numeric first, then dummies).  As in Lee et al.'s
        files, **y = 1 means bad credit** (``pos_label = 0``: good credit is favourable).

        ``"pls"`` — De-Diego et al. Table 2: sensitive = age, privileged = age > 25 (strictly);
        y = 1 good credit; age removed from the features; the 13 categorical columns
        (``personal_status`` included) one-hot encoded with ``drop_first`` → 47 features.
        De-Diego et al. reports d = 21 (Table 3) without its encoding; the labels reproduce
        Table 2's disparate impact 0.7948.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/german/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/german/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.

    Returns
    -------
    Bunch
        ``sensitive`` is the Series ``"age>=25"`` or ``"age>25"`` (1 = privileged).

    Examples
    --------
    >>> from fairlab.datasets import load_german
    >>> load_german().X.shape
    (1000, 57)
    """
    _check_variant(variant, ("lee2022", "pls"), "load_german")
    df = _read_german(data_home, download_if_missing)
    if variant == "lee2022":
        age = (df["age"] >= 25).astype(int).rename("age>=25")
        frame = df.drop(columns=["personal_status", "credit"])
        frame["age"] = age.astype(float)
        X = _one_hot(frame, _GERMAN_CATEGORICAL, drop_first=False)
        y = (df["credit"] == 2).astype(int).rename("bad_credit")
        steps = [
            "german.data (1000 rows, 20 attributes + class 1 = good / 2 = bad).",
            "personal_status dropped (it encodes sex, which Lee et al. drop too).",
            "age binarised: 1[age >= 25] (privileged), kept as a feature.",
            "12 categorical attributes one-hot encoded (all levels): 7 numeric + 50 = 57 "
            "features.",
            "y = 1[bad credit] = class - 1, as in Lee et al.'s files (AIF360's favourable "
            "label is good credit, hence pos_label = 0).",
        ]
        return _bunch("german", variant, X, y, age, pos_label=0,
                      setting="Kleindessner et al. §5.1 (Lee et al. 2022, AIF360-style)",
                      steps=steps,
                      target="1 = bad credit")
    age = (df["age"] > 25).astype(int).rename("age>25")
    frame = df.drop(columns=["age", "credit"])
    X = _one_hot(frame, [*_GERMAN_CATEGORICAL, "personal_status"], drop_first=True)
    y = (df["credit"] == 1).astype(int).rename("good_credit")
    steps = [
        "german.data (1000 rows).",
        "Sensitive: 1[age > 25] (privileged); age removed from the features.",
        "13 categorical attributes (personal_status included) one-hot encoded with "
        "drop_first; 6 numeric attributes kept: 47 features.",
        "y = 1[good credit].",
    ]
    note = ("De-Diego et al. reports d = 21 (Table 3) without publishing its encoding. The labels "
            "and groups reproduce the disparate impact of its Table 2 (0.7948).")
    return _bunch("german", variant, X, y, age, pos_label=1,
                  setting="De-Diego et al. (Fair PLS), Tables 2-3: sensitive age, privileged > 25",
                  steps=steps, target="1 = good credit", note=note)


# --------------------------------------------------------------------------------------
# ProPublica COMPAS (shipped)
# --------------------------------------------------------------------------------------
def _read_compas(data_home=None, download_if_missing=True):
    raw = _read_raw("compas", "compas-scores-two-years.csv", data_home, download_if_missing)
    # keep_default_na=False: "N/A" in score_text is a value to filter on, not a NaN.
    return pd.read_csv(io.BytesIO(raw), keep_default_na=False, na_values=[""])


def load_compas(*, variant="lee2022", data_home=None, download_if_missing=True):
    """ProPublica COMPAS two-year recidivism (Broward County), shipped with fairlab.

    Parameters
    ----------
    variant : {"lee2022", "pls"}, default="lee2022"
        ``"lee2022"`` — Kleindessner et al. §5.1 (Lee et al. 2022 via AIF360 ``CompasDataset``):
        ProPublica's filter (``|days_b_screening_arrest|`` ≤ 30, is_recid ≠ −1,
        c_charge_degree ≠ "O", score_text ≠ "N/A") → 6172 rows; features age, race
        (Caucasian = 1, **kept as a feature**), juv_fel_count, juv_misd_count,
        juv_other_count, priors_count, age_cat (3 dummies), c_charge_degree (2 dummies) →
        11 features; sex and c_charge_desc dropped.  As in Lee et al.'s files, **y = 1
        means re-offended** (``pos_label = 0``).

        ``"pls"`` — De-Diego et al. Table 2: sensitive = race, privileged = Caucasian.  All 7214
        rows, restricted to African-American and Caucasian defendants (6150 rows; the
        disparate impact of Table 2, 0.8009, is that of these two groups); features sex
        (Male = 1), age, juv_fel_count, juv_misd_count, juv_other_count, priors_count, and
        the two that De-Diego et al.'s text names among the most relevant ("event, decile
        score, juv misd count, race"): decile_score and event → 8 features (Table 3 prints
        d = 6 without naming them); y = two_year_recid, ``pos_label = 0``.  ``event`` is the
        recidivism indicator of ProPublica's survival analysis, from which two_year_recid is
        derived (they agree on 89 % of the rows): with it the features contain the label.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/compas/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/compas/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.

    Returns
    -------
    Bunch
        ``sensitive`` is the Series ``"race"`` (Caucasian = 1).

    Examples
    --------
    >>> from fairlab.datasets import load_compas
    >>> load_compas().X.shape
    (6172, 11)
    """
    _check_variant(variant, ("lee2022", "pls"), "load_compas")
    df = _read_compas(data_home, download_if_missing)
    if variant == "lee2022":
        days = pd.to_numeric(df["days_b_screening_arrest"])
        keep = ((days <= 30) & (days >= -30) & (df["is_recid"] != -1)
                & (df["c_charge_degree"] != "O") & (df["score_text"] != "N/A"))
        df = df.loc[keep]
        race = (df["race"] == "Caucasian").astype(int).rename("race")
        frame = df[["age", "race", "juv_fel_count", "juv_misd_count", "juv_other_count",
                    "priors_count", "age_cat", "c_charge_degree"]].copy()
        frame["race"] = race.astype(float)
        X = _one_hot(frame, ["age_cat", "c_charge_degree"], drop_first=False)
        y = df["two_year_recid"].astype(int)
        steps = [
            "compas-scores-two-years.csv (7214 rows).",
            "ProPublica filter: -30 <= days_b_screening_arrest <= 30, is_recid != -1, "
            "c_charge_degree != 'O', score_text != 'N/A': 6172 rows.",
            "Features age, race (1 = Caucasian, kept as a feature), juv_fel_count, "
            "juv_misd_count, juv_other_count, priors_count, age_cat and c_charge_degree "
            "one-hot (all levels): 11 features; sex and c_charge_desc dropped.",
            "y = two_year_recid (1 = re-offended, as in Lee et al.'s files; pos_label = 0).",
        ]
        return _bunch("compas", variant, X, y, race, pos_label=0,
                      setting="Kleindessner et al. §5.1 (Lee et al. 2022, AIF360-style)",
                      steps=steps,
                      target="1 = re-offended within two years")
    df = df.loc[df["race"].isin(["African-American", "Caucasian"])]
    race = (df["race"] == "Caucasian").astype(int).rename("race")
    X = df[["sex", "age", "juv_fel_count", "juv_misd_count", "juv_other_count",
            "priors_count", "decile_score", "event"]].copy()
    X["sex"] = (X["sex"] == "Male").astype(int)
    X = X.astype(float)
    y = df["two_year_recid"].astype(int)
    steps = [
        "compas-scores-two-years.csv, no ProPublica filter (De-Diego et al. §8.1: 7214 rows).",
        "Rows restricted to race African-American or Caucasian: 6150 rows; "
        "sensitive = 1[Caucasian].",
        "Features sex (Male = 1), age, juv_fel_count, juv_misd_count, juv_other_count, "
        "priors_count, and decile_score and event, which De-Diego et al.'s text names among "
        "the most relevant: 8 features (Table 3: d = 6, unnamed).",
        "y = two_year_recid; pos_label = 0 (not re-offending is favourable).",
    ]
    return _bunch("compas", variant, X, y, race, pos_label=0,
                  setting="De-Diego et al., Tables 2-3: sensitive race, privileged Caucasian",
                  steps=steps, target="1 = re-offended within two years",
                  note="The disparate impact of the labels reproduces Table 2 (0.8009).")


# --------------------------------------------------------------------------------------
# Shipped since fairlab 0.1: Bank Marketing, Diabetes, Communities and Crime, CMC, a9a;
# external: Law School
# --------------------------------------------------------------------------------------
def load_bank(*, variant="agarwal", data_home=None, download_if_missing=True):
    """UCI Bank Marketing, ``bank-additional-full.csv``, shipped with fairlab.

    Parameters
    ----------
    variant : {"agarwal"}, default="agarwal"
        Kleindessner et al. §5.2 / App. C.2: 41 188 rows; sensitive = 1[age > 40] (42.3 %); y = 1
        [subscribed]; age removed from the features; every categorical column one-hot
        encoded with ``drop_first``, numeric columns (``duration`` included, as in the
        reference code) kept → 52 features.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/bank/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/bank/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.

    Examples
    --------
    >>> from fairlab.datasets import load_bank
    >>> load_bank().X.shape
    (41188, 52)
    """
    _check_variant(variant, ("agarwal",), "load_bank")
    raw = _read_raw("bank", "bank-additional-full.csv", data_home, download_if_missing)
    df = pd.read_csv(io.BytesIO(raw), sep=";")
    older = (df["age"] > 40).astype(int).rename("age>40")
    y = (df["y"] == "yes").astype(int).rename("subscribed")
    frame = df.drop(columns=["age", "y"])
    categorical = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    X = _one_hot(frame, categorical, drop_first=True)
    steps = [
        "bank-additional-full.csv (41 188 rows, ';'-separated).",
        "Sensitive: 1[age > 40]; age removed from the features.",
        f"{len(categorical)} categorical columns one-hot encoded with drop_first; numeric "
        f"columns kept: {X.shape[1]} features.",
        "y = 1[y == 'yes'] (subscribed a term deposit).",
    ]
    return _bunch("bank", variant, X, y, older, pos_label=1,
                  setting="Kleindessner et al. §5.2 (comparison with Agarwal et al. 2018)",
                  steps=steps,
                  target="1 = subscribed a term deposit")


def load_lawschool(*, variant="pls", data_home=None, download_if_missing=True):
    """LSAC law school data (external: not shipped, LSAC terms).

    Parameters
    ----------
    variant : {"pls", "lequy"}, default="pls"
        ``"pls"`` — De-Diego et al. Tables 2–3, from Kusner et al.'s ``law_data.csv``: rows of
        White or Black students (19 567 of 21 791; Table 2's disparate impact 0.6713 is
        that of these two groups); sensitive = 1[White]; features LSAT, UGPA, ZFYA (the
        three named in De-Diego et al. §8.1; d = 3 as in Table 3); y = first_pf (1 = passed).

        ``"lequy"`` — Le Quy et al. (2022)'s ``law_school_clean.csv``: 20 798 rows;
        sensitive = 1[race == White]; the 10 other columns are the features;
        y = pass_bar.
    data_home : str or os.PathLike, optional
        Folder with a copy of the files (``data_home/lawschool/<file>`` or
        ``data_home/<file>``).  Law School is **external** — the LSAC terms are not an open
        licence, so fairlab does not ship it.  Search order: ``data_home``, then
        ``$FAIRLAB_DATA/lawschool/``, then the user cache, then a download.
    download_if_missing : bool, default=True
        Download the file from its source (SHA-256 verified) when no copy is found;
        offline, a :class:`FileNotFoundError` names the file and where to put it.  See
        :func:`fairlab.datasets.fetch_file`.
    """
    _check_variant(variant, ("pls", "lequy"), "load_lawschool")
    if variant == "pls":
        raw = _read_raw("lawschool", "law_data.csv", data_home, download_if_missing)
        df = pd.read_csv(io.BytesIO(raw), index_col=0)
        df = df.loc[df["race"].isin(["White", "Black"])]
        white = (df["race"] == "White").astype(int).rename("race")
        X = df[["LSAT", "UGPA", "ZFYA"]].astype(float)
        y = df["first_pf"].astype(int)
        steps = [
            "law_data.csv (Kusner et al. 2017; 21 791 rows).",
            "Rows with race White or Black kept: 19 567 rows; sensitive = 1[White].",
            "Features LSAT, UGPA, ZFYA (3 features, as Table 3).",
            "y = first_pf (1 = passed the first year).",
        ]
        return _bunch("lawschool", variant, X, y, white, pos_label=1,
                      setting="De-Diego et al., Tables 2-3: sensitive race, privileged White",
                      steps=steps, target="1 = passed the first year",
                      note="The disparate impact of the labels reproduces Table 2 (0.6713).")
    raw = _read_raw("lawschool", "law_school_clean.csv", data_home, download_if_missing)
    df = pd.read_csv(io.BytesIO(raw))
    white = (df["race"] == "White").astype(int).rename("race")
    X = df.drop(columns=["race", "pass_bar"]).astype(float)
    y = df["pass_bar"].astype(int)
    steps = [
        "law_school_clean.csv (Le Quy et al. 2022; 20 798 rows, 12 columns).",
        "Sensitive = 1[race == White]; the 10 other non-target columns are the features.",
        "y = pass_bar.",
    ]
    return _bunch("lawschool", variant, X, y, white, pos_label=1,
                  setting="Le Quy et al. (2022) cleaned bar-passage data", steps=steps,
                  target="1 = passed the bar")


_DIABETES_NUMERIC = [
    "time_in_hospital", "num_lab_procedures", "num_procedures", "num_medications",
    "number_outpatient", "number_emergency", "number_inpatient", "number_diagnoses",
]


def load_diabetes(*, variant="pls", data_home=None, download_if_missing=True):
    """UCI Diabetes 130-US hospitals 1999–2008, shipped with fairlab.

    Parameters
    ----------
    variant : {"pls"}, default="pls"
        De-Diego et al. Tables 2–3: the first encounter of each patient (file order) is kept
        (71 518 of 101 766 rows — this is what reproduces Table 2's disparate impact
        0.8952); sensitive = 1[race == Caucasian] (every other value, ``?`` included, is
        unprivileged); y = 1[readmitted, ``<30`` or ``>30``] with ``pos_label = 1``
        (Table 2 compares readmission rates).  Features (18): the 8 numeric counts, age
        (decade index 0–9), gender (Male = 1), A1Cresult and max_glu_serum one-hot
        (``None`` is the dropped level), change (Ch = 1), diabetesMed (Yes = 1).
        De-Diego et al. reports d = 27 (Table 3) without its encoding.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/diabetes/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/diabetes/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.
    """
    _check_variant(variant, ("pls",), "load_diabetes")
    raw = _read_raw("diabetes", "diabetic_data.csv", data_home, download_if_missing)
    df = pd.read_csv(io.BytesIO(raw), keep_default_na=False, na_values=[""])
    df = df.drop_duplicates("patient_nbr", keep="first")
    cauc = (df["race"] == "Caucasian").astype(int).rename("race")
    X = df[_DIABETES_NUMERIC].astype(float)
    X["age"] = df["age"].str.extract(r"\[(\d+)-", expand=False).astype(float) / 10
    X["gender"] = (df["gender"] == "Male").astype(float)
    for col in ("A1Cresult", "max_glu_serum"):
        for level in sorted(set(df[col]) - {"None"}):
            X[f"{col}={level}"] = (df[col] == level).astype(float)
    X["change"] = (df["change"] == "Ch").astype(float)
    X["diabetesMed"] = (df["diabetesMed"] == "Yes").astype(float)
    y = (df["readmitted"] != "NO").astype(int).rename("readmitted")
    steps = [
        "diabetic_data.csv (101 766 encounters).",
        "First encounter of each patient_nbr kept: 71 518 rows.",
        "Sensitive = 1[race == Caucasian].",
        f"Features: 8 numeric counts, age decade (0-9), gender (Male = 1), A1Cresult and "
        f"max_glu_serum one-hot (None dropped), change, diabetesMed: {X.shape[1]} features.",
        "y = 1[readmitted != 'NO'].",
    ]
    return _bunch("diabetes", variant, X, y, cauc, pos_label=1,
                  setting="De-Diego et al., Tables 2-3: sensitive race, privileged Caucasian",
                  steps=steps, target="1 = readmitted (within or after 30 days)",
                  note="De-Diego et al. reports d = 27 (Table 3) without its encoding. The labels "
                  "and groups reproduce the disparate impact of Table 2 (0.8952).")


def _communities_names(data_home, download_if_missing):
    raw = _read_raw("communities", "communities.names", data_home, download_if_missing)
    return [line.split()[1] for line in raw.decode("latin-1").splitlines()
            if line.startswith("@attribute")]


def load_communities(*, variant="pls", data_home=None, download_if_missing=True):
    """UCI Communities and Crime (1994 communities, regression), shipped with fairlab.

    Parameters
    ----------
    variant : {"pls"}, default="pls"
        De-Diego et al. Tables 2–3: y = ViolentCrimesPerPop (normalised to [0, 1]); sensitive =
        1[not a black community] with "black community" = racepctblack > 0.06 (the
        median; the paper's threshold is not stated); the non-predictive columns (state,
        county, community, communityname, fold), every column with missing values and
        racepctblack itself are removed → 98 features.  De-Diego et al. reports d = 33 and a KS
        distance of 0.129 (Table 2), neither reproducible without its preprocessing.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/communities/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/communities/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.
    """
    _check_variant(variant, ("pls",), "load_communities")
    names = _communities_names(data_home, download_if_missing)
    raw = _read_raw("communities", "communities.data", data_home, download_if_missing)
    df = pd.read_csv(io.BytesIO(raw), header=None, names=names, na_values="?")
    not_black = (df["racepctblack"] <= 0.06).astype(int).rename("not_black")
    y = df["ViolentCrimesPerPop"].astype(float)
    frame = df.drop(columns=["state", "county", "community", "communityname", "fold",
                             "ViolentCrimesPerPop", "racepctblack"])
    X = frame.loc[:, frame.notna().all()].astype(float)
    steps = [
        "communities.data (1994 rows, 128 columns named by communities.names).",
        "Sensitive = 1[racepctblack <= 0.06] (not a black community; 0.06 is the median).",
        f"Dropped: state, county, community, communityname, fold, racepctblack and every "
        f"column with a missing value: {X.shape[1]} features.",
        "y = ViolentCrimesPerPop (regression target in [0, 1]).",
    ]
    return _bunch("communities", variant, X, y, not_black, pos_label=None,
                  setting="De-Diego et al., Tables 2-3: sensitive race, privileged not black",
                  steps=steps, target="violent crimes per 100k population (normalised)")


_CMC_COLUMNS = [
    "wife_age", "wife_education", "husband_education", "n_children", "wife_religion",
    "wife_working", "husband_occupation", "standard_of_living", "media_exposure", "method",
]
_CMC_SENSITIVE = ["wife_education", "husband_education", "n_children", "media_exposure"]


def load_cmc(*, variant="fkl", data_home=None, download_if_missing=True):
    """UCI Contraceptive Method Choice (1987 Indonesia survey), shipped with fairlab.

    Parameters
    ----------
    variant : {"fkl"}, default="fkl"
        Pérez-Suay et al. §4: 1473 rows; y = 1[uses a contraceptive method] (method 2 or 3);
        ``X`` = the 9 attributes as numbers (the sensitive ones included — drop them for
        the paper's "without S" runs); ``sensitive`` = DataFrame of the four attributes
        the paper protects one at a time: wife's education, husband's education, number
        of children, media exposure.
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/cmc/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/cmc/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.
    """
    _check_variant(variant, ("fkl",), "load_cmc")
    raw = _read_raw("cmc", "cmc.data", data_home, download_if_missing)
    df = pd.read_csv(io.BytesIO(raw), header=None, names=_CMC_COLUMNS)
    X = df.drop(columns="method").astype(float)
    y = (df["method"] != 1).astype(int).rename("uses_contraception")
    steps = [
        "cmc.data (1473 rows, 9 attributes + method 1 = no use, 2 = long-term, 3 = short-term).",
        "y = 1[method != 1] (using / not using, as Pérez-Suay et al. §4).",
        "X = the 9 attributes as numbers (sensitive ones included).",
        "sensitive = wife_education, husband_education, n_children, media_exposure "
        "(each protected separately in Pérez-Suay et al. Fig. 5).",
    ]
    return _bunch("cmc", variant, X, y, df[_CMC_SENSITIVE].astype(int), pos_label=1,
                  setting="Pérez-Suay et al. §4 (Fair Kernel Learning, CMC)", steps=steps,
                  target="1 = uses a contraceptive method")


_A9A_RACE = {67: "White", 68: "Asian-Pac-Islander", 69: "Amer-Indian-Eskimo", 70: "Other",
             71: "Black"}


def load_a9a(*, variant="fkl", subset="train", data_home=None, download_if_missing=True):
    """LIBSVM a9a: UCI Adult with 123 binary features (Pérez-Suay et al.'s Adult), shipped.

    Parameters
    ----------
    variant : {"fkl"}, default="fkl"
        Pérez-Suay et al. §4 (the only recipe: LIBSVM's encoding is fixed); accepted for uniformity
        with the other loaders.
    subset : {"train", "test"}, default="train"
        ``a9a`` (32 561 rows, the rows of adult.data in order) or ``a9a.t`` (16 281).
    data_home : str or os.PathLike, optional
        Folder with your own copy of the raw files (``data_home/a9a/<file>`` or
        ``data_home/<file>``).  Search order: ``data_home``, then ``$FAIRLAB_DATA/a9a/``,
        then the copy shipped with fairlab (the default, offline); a copy found first is
        used and must match the recorded SHA-256.
    download_if_missing : bool, default=True
        Download the file if no copy is found at all (never the case in a regular
        installation, which ships it).  See :func:`fairlab.datasets.fetch_file`.

    Returns
    -------
    Bunch
        ``X``: 123 binary columns ``f1`` … ``f123`` (1-based, as the paper and LIBSVM;
        the sensitive columns stay in ``X``, drop them for the paper's "\\S" runs);
        ``y``: 1 = income > 50K (LIBSVM label +1; Pérez-Suay et al. uses ``2 * y - 1``);
        ``sensitive``: DataFrame with ``sex`` (Male = 1, from f72 = Female / f73 = Male)
        and ``race`` (name, from f67–f71); ``sensitive_columns``: the 0-based column
        indices ``{"sex": [71, 72], "race": [66, ..., 70]}`` of the one-hot blocks that
        Pérez-Suay et al. passes as ``Q``.
    """
    _check_variant(variant, ("fkl",), "load_a9a")
    if subset not in ("train", "test"):
        raise ValueError(f"load_a9a: subset must be 'train' or 'test'; got {subset!r}.")
    from sklearn.datasets import load_svmlight_file

    filename = "a9a" if subset == "train" else "a9a.t"
    raw = _read_raw("a9a", filename, data_home, download_if_missing)
    Xs, labels = load_svmlight_file(io.BytesIO(raw), n_features=123)
    names = [f"f{j}" for j in range(1, 124)]
    X = pd.DataFrame(Xs.toarray(), columns=names)
    y = pd.Series((labels > 0).astype(int), name="income>50K")
    race_block = X[[f"f{j}" for j in _A9A_RACE]].to_numpy()
    sensitive = pd.DataFrame({
        "sex": X["f73"].astype(int),
        "race": np.array(list(_A9A_RACE.values()), dtype=object)[race_block.argmax(axis=1)],
    })
    steps = [
        f"{filename} (svmlight format, {X.shape[0]} rows) read with n_features=123.",
        "y = 1[label == +1] (income > 50K).",
        "sensitive: sex = f73 (Male; f72 = Female), race = argmax of f67-f71 "
        "(White, Asian-Pac-Islander, Amer-Indian-Eskimo, Other, Black); the sensitive "
        "columns stay in X.",
    ]
    bunch = _bunch("a9a", variant, X, y, sensitive, pos_label=1,
                   setting="Pérez-Suay et al. §4 (Fair Kernel Learning, Adult as LIBSVM a9a)",
                   steps=steps, target="1 = income > 50K")
    bunch.subset = subset
    bunch.sensitive_columns = {"sex": [71, 72], "race": [66, 67, 68, 69, 70]}
    return bunch
