"""Tables describing the data sets: where each comes from, and the loaded data's statistics."""

import numpy as np
import pandas as pd

from ._fetch import _records, shipped_path

__all__ = ["summarize"]

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
