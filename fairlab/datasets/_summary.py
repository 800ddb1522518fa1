"""One table describing loaded data sets: size, groups, base rates, label bias."""

import numpy as np
import pandas as pd

__all__ = ["summarize"]


def _primary_sensitive(bunch):
    s = bunch.sensitive
    if isinstance(s, pd.DataFrame):
        return s.iloc[:, 0]  # a9a: sex; cmc: wife_education
    return s


def summarize(bunches):
    """Summary table of loaded data sets (De-Diego et al. Table 2 style).

    Parameters
    ----------
    bunches : iterable of Bunch
        Results of the ``load_*`` functions.

    Returns
    -------
    pandas.DataFrame
        One row per bunch: ``dataset``, ``variant``, ``n``, ``d``, ``sensitive`` (the
        attribute summarised: the first column when several), ``n_privileged``,
        ``n_unprivileged`` (binary attributes, 1 = privileged), ``base_rate``
        (:math:`P(y = \\text{pos\\_label})`), ``rate_privileged``, ``rate_unprivileged`` and
        ``bias`` with ``bias_kind``: for classification the disparate impact of the labels
        :func:`fairlab.metrics.disparate_impact` (unprivileged / privileged rate; the min/max
        ratio over groups when the attribute is not binary), for a regression target the
        Kolmogorov–Smirnov distance :func:`fairlab.metrics.ks_distance` between the groups.
    """
    from fairlab.metrics import disparate_impact, ks_distance

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
        rows.append(row)
    table = pd.DataFrame(rows)
    counts = ["n_privileged", "n_unprivileged"]
    table[counts] = table[counts].astype("Int64")  # integers, <NA> for non-binary attributes
    return table
