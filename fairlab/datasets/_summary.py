"""Tables describing the data sets: where each comes from, and the loaded data's statistics."""

import re

import numpy as np
import pandas as pd

from ._fetch import _records, shipped_path

__all__ = ["describe", "summarize"]

_LOADERS = {"lee2022_splits": "load_lee2022_split", "lee2022_loadings": "load_lee2022_loadings"}


def _catalogue():
    """One row per data set of ``provenance.json``: availability, licence, sizes."""
    rows = []
    for name, rec in _records().items():
        files = rec["files"]
        sizes = [f["size"] for f in files.values()]
        size = np.nan if None in sizes else sum(sizes)  # CelebA: sizes not recorded
        packed = (sum(shipped_path(f, name).stat().st_size for f in files
                      if shipped_path(f, name).is_file()) if rec["shipped"] else 0)
        rows.append({
            "dataset": name,
            "loader": _LOADERS.get(name, f"load_{name}"),
            "title": rec["title"],
            "availability": rec["availability"],
            "license": rec["license"],
            "n_files": len(files),
            "size_mb": size / 1e6,
            "shipped_mb": packed / 1e6 if rec["shipped"] else np.nan,
        })
    return pd.DataFrame(rows)


def _primary_sensitive(bunch):
    s = bunch.sensitive
    if isinstance(s, pd.DataFrame):
        return s.iloc[:, 0]  # a9a: sex; cmc: wife_education
    return s


def summarize(bunches=None):
    """Table of every data set, or summary table of loaded ones (De-Diego et al. Table 2 style).

    Parameters
    ----------
    bunches : iterable of Bunch, optional
        Results of the ``load_*`` functions.  ``None`` (the default) lists every data set
        fairlab knows, without loading any.

    Returns
    -------
    pandas.DataFrame
        With ``bunches=None``, one row per data set (Lee et al.'s splits and saved loading
        matrices included, both shipped):
        ``dataset``, ``loader``, ``title``, ``availability`` (``"shipped"``: inside the
        package, offline; ``"external"``: read from a local copy or downloaded;
        ``"on request"``: downloaded only when asked), ``license``, ``n_files``,
        ``size_mb`` (original files, MB = 10⁶ bytes) and ``shipped_mb`` (their
        xz-compressed size in the package; NaN when not shipped).

        Otherwise one row per bunch: ``dataset``, ``variant``, ``n``, ``d``, ``sensitive`` (the
        attribute summarised: the first column when several), ``n_privileged``,
        ``n_unprivileged`` (binary attributes, 1 = privileged), ``base_rate``
        (:math:`P(y = \\mathtt{pos\\_label})`), ``rate_privileged``, ``rate_unprivileged`` and
        ``bias`` with ``bias_kind``: for classification the disparate impact of the labels
        :func:`fairlab.metrics.disparate_impact` (unprivileged / privileged rate; the min/max
        ratio over groups when the attribute is not binary), for a regression target the
        Kolmogorov–Smirnov distance :func:`fairlab.metrics.ks_distance` between the groups,
        then the data set's ``availability`` and ``license``.

    Examples
    --------
    >>> from fairlab import datasets
    >>> table = datasets.summarize()
    >>> table.set_index("dataset").loc["lawschool", "availability"]
    'external'
    """
    if bunches is None:
        return _catalogue()
    if isinstance(bunches, (dict, str)) or not hasattr(bunches, "__iter__"):
        raise TypeError(
            "bunches must be a list (or other iterable) of Bunch objects returned by the "
            "load_* functions — e.g. summarize([load_adult()]) — or None to list every data "
            f"set; got {type(bunches).__name__}."
        )
    from fairlab.metrics import disparate_impact, ks_distance

    records = _records()
    rows = []
    for b in bunches:
        s = _primary_sensitive(b)
        y = np.asarray(b.y)
        binary = set(np.unique(s)) <= {0, 1}
        row = {
            "dataset": b.dataset,
            "variant": b.variant,
            "n": b.X.shape[0],
            "d": b.X.shape[1],
            "sensitive": s.name,
            "n_privileged": int((s == 1).sum()) if binary else pd.NA,
            "n_unprivileged": int((s == 0).sum()) if binary else pd.NA,
        }
        if b.pos_label is None:
            row.update(
                base_rate=np.nan,
                rate_privileged=np.nan,
                rate_unprivileged=np.nan,
                bias=ks_distance(y, sensitive_features=s),
                bias_kind="KS",
            )
        else:
            hit = y == b.pos_label
            row.update(
                base_rate=hit.mean(),
                rate_privileged=hit[np.asarray(s) == 1].mean() if binary else np.nan,
                rate_unprivileged=hit[np.asarray(s) == 0].mean() if binary else np.nan,
                bias=disparate_impact(
                    None,
                    y,
                    sensitive_features=s,
                    pos_label=b.pos_label,
                    privileged_group=1 if binary else None,
                ),
                bias_kind="DI" if binary else "DI (min/max)",
            )
        rec = records.get(b.dataset, {})
        row.update(availability=rec.get("availability"), license=rec.get("license"))
        rows.append(row)
    table = pd.DataFrame(rows)
    counts = ["n_privileged", "n_unprivileged"]
    table[counts] = table[counts].astype("Int64")  # integers, <NA> for non-binary attributes
    return table


# The fields of a loader's DESCR, in the words a reader sees; "Preprocessing" may carry a
# parenthesis, e.g. "Preprocessing (Lee et al.'s, done before publication):".
_DESCR_FIELDS = {"Setting": "setting", "Method": "method", "Fitted on": "fitted on",
                 "Shape": "shape", "Target y": "target y", "Sensitive": "sensitive",
                 "Sensitive s": "sensitive s", "Note": "note", "Source": "source",
                 "Copied": "copied from", "Availability": "availability", "License": "licence",
                 "Citation": "how to cite"}
_FIELD = re.compile(r"^(" + "|".join(map(re.escape, _DESCR_FIELDS)) +
                    r"|Preprocessing[^:]*|Files):(?: (.*))?$")
_FILE = re.compile(r"^(?P<name>.+?): (?P<size>\d+) bytes, sha256 [0-9a-f]{64}"
                   r"(?: source: (?P<url>\S+))?(?P<rest>.*)$")
_COMMIT = re.compile(r"\bcommit [0-9a-f]{7,40}\b")
_HASH = re.compile(r"[0-9a-f]{40,64}")
_DESCRIBED = "the data"


def _joined(head, tail):
    """Two wrapped lines as one: textwrap breaks after a hyphen (``one-`` / ``hot``)."""
    if head.endswith("-") and head[-2:-1].isalpha():
        return head + tail
    return f"{head} {tail}" if head else tail


def _descr_fields(descr):
    """``(title, [(field, value, items, notice)])`` from the text a loader writes."""
    lines = descr.splitlines()
    underlined = lines[1:2] and set(lines[1]) == {"="}
    title, body = lines[0].strip(), lines[2:] if underlined else lines[1:]
    fields = []
    for line in body:
        if not line.strip():
            continue
        match = _FIELD.match(line)
        if match:
            fields.append([match[1], (match[2] or "").strip(), [], []])
        elif not fields:
            raise ValueError(f"not the DESCR of a fairlab loader: {line!r} comes before any field.")
        elif line.startswith("  |"):  # a licence notice, quoted line by line
            fields[-1][3].append(line[4:].strip())
        elif line.startswith("  - "):
            fields[-1][2].append(line[4:].strip())
        elif line.startswith("    ") and fields[-1][2]:
            fields[-1][2][-1] = _joined(fields[-1][2][-1], line.strip())
        else:  # a wrapped line of the field's own text
            fields[-1][1] = _joined(fields[-1][1], line.strip())
    return title, fields


def _notice(lines):
    """A quoted notice as text: its paragraphs (blank lines) joined."""
    paragraphs, current = [], []
    for line in lines + [""]:
        if line:
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    return " ".join(paragraphs)


def describe(bunch):
    """The ``DESCR`` of a loaded data set as a table: one row per fact, in a reader's words.

    Every loader of :mod:`fairlab.datasets` writes its ``DESCR`` in one layout (a title, then
    ``Setting``, ``Shape``, ``Target y``, ``Sensitive``, the preprocessing steps, the files and
    their provenance).  This function reads that layout back into rows that a table can show,
    so that a chapter shows a data set's description as a table rather than printed text.

    Parameters
    ----------
    bunch : Bunch or str
        A result of a ``load_*`` function (:func:`load_adult`, :func:`load_lee2022_split`,
        :func:`load_lee2022_loadings`, ...), or its ``DESCR``.

    Returns
    -------
    pandas.DataFrame
        One column, ``text``, indexed by ``(part, item)``.  The parts, in this order:
        ``"the data"`` (``data set`` and what follows it in the title after ``—``, e.g. the
        variant, then setting, method, shape, target, sensitive attribute and any note),
        ``"preprocessing"`` (``step 1``, ``step 2``, ...; the part is named as in the
        ``DESCR``, e.g. ``"preprocessing (Lee et al.'s, done before publication)"``),
        ``"files"`` (one row per raw file: its size and the URL it comes from) and
        ``"provenance"`` (source, where a copy was taken from, availability, licence, the
        licence notice where the ``DESCR`` quotes one, and how to cite).  Checksums and commit
        hashes are left out: :func:`provenance` gives them, and a URL that holds one is left
        out of the file's row.  The environment variable ``$FAIRLAB_DATA`` is written
        ``FAIRLAB_DATA``.

    Raises
    ------
    TypeError
        If ``bunch`` is neither a Bunch with a ``DESCR`` nor a string.
    ValueError
        If the text is not in the layout of fairlab's loaders.

    Examples
    --------
    >>> from fairlab import datasets
    >>> table = datasets.describe(datasets.load_german(variant="lee2022"))
    >>> table.loc[("the data", "shape"), "text"]
    '1000 rows x 57 features'
    >>> table.loc["files"].index.tolist()
    ['german.data']
    """
    descr = bunch if isinstance(bunch, str) else getattr(bunch, "DESCR", None)
    if not isinstance(descr, str):
        raise TypeError("bunch must be a result of a fairlab load_* function (a Bunch with a "
                        f"DESCR) or its DESCR text; got {type(bunch).__name__}.")
    if not descr.strip():
        raise ValueError("the DESCR is empty: not the DESCR of a fairlab loader.")
    title, fields = _descr_fields(descr)
    name, _, qualifier = title.partition(" — ")
    data = [(_DESCRIBED, "data set", name)]
    if qualifier:
        variant = re.fullmatch(r"variant '(.+)'", qualifier)
        data.append((_DESCRIBED, "variant", variant[1]) if variant
                    else (_DESCRIBED, "which", qualifier))
    steps, files, sources = [], [], []
    for field, value, items, notice in fields:
        # a "$" would read as mathematics in a rendered table: the variable by its name alone
        value = _COMMIT.sub("a pinned commit", value).replace("$FAIRLAB_DATA", "FAIRLAB_DATA")
        if field.startswith("Preprocessing"):
            part = field[0].lower() + field[1:]
            steps += [(part, f"step {i}", step) for i, step in enumerate(items, 1)]
        elif field == "Files":
            for item in items:
                match = _FILE.match(item)
                if not match:
                    raise ValueError(f"a file of the DESCR is not 'NAME: SIZE bytes, sha256 ...': "
                                     f"{item!r}.")
                size = f"{int(match['size']):,} bytes".replace(",", " ")
                url = match["url"]
                where = f", from {url}{match['rest']}" if url and not _HASH.search(url) else ""
                files.append(("files", match["name"], size + where))
        elif field in ("Setting", "Method", "Fitted on", "Shape", "Target y", "Sensitive",
                       "Sensitive s", "Note"):
            data.append((_DESCRIBED, _DESCR_FIELDS[field], value))
        else:
            sources.append(("provenance", _DESCR_FIELDS[field], value))
            if notice:
                sources.append(("provenance", "licence notice", _notice(notice)))
    table = pd.DataFrame(data + steps + files + sources, columns=["part", "item", "text"])
    return table.set_index(["part", "item"])
