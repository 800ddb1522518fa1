"""Checking a ledger: recomputed units against the stored rows, the verification sample, and the
ledger's provenance and summary.
"""

import json
import math
from collections import Counter

import numpy as np
import pandas as pd

from .._provenance import machine
from ._files import MISSING, ROW_KEYS, _round, read_ledger
from ._grid import _key_from_id, _module, unit_id
from ._running import _run_units, recompute

#: :func:`verify` reruns a sampled unit whole when the ledger says it took at most this long (s),
#: and otherwise the parts its experiment names (``verification_parts``).
MAX_UNIT_SECONDS = 60.0


def _is_timing(rows):
    """Whether each row's metric is a wall-clock time of its experiment (``TIMINGS``)."""
    experiment = rows["unit"].str.split("/", n=1).str[0]
    return pd.Series([metric in getattr(_module(name), "TIMINGS", ())
                      for name, metric in zip(experiment, rows["metric"], strict=True)],
                     index=rows.index, dtype=bool)


def equal_to_ledger(rows, ledger):
    """Per unit, whether freshly computed ``rows`` equal the ledger's values.

    A value is equal when it rounds to the stored one at :data:`SIGNIFICANT_DIGITS` (NaN equals
    NaN).  Wall-clock times (the experiment's ``TIMINGS`` metrics) are not compared: they belong
    to the machine.  A unit the ledger does not hold is not equal, and says so in ``in_ledger``.

    Returns
    -------
    DataFrame
        ``unit, values, in_ledger, equal, max_relative_difference`` (NaN for a unit not in the
        ledger).
    """
    keys = ROW_KEYS
    held = set(ledger["unit"])
    rows = rows[~_is_timing(rows)]
    both = rows.merge(ledger[keys + ["value"]], on=keys, how="left",
                      suffixes=("", "_ledger"), validate="one_to_one")
    out = []
    for uid, group in both.groupby("unit", sort=False):
        if uid not in held:
            out.append({"unit": uid, "values": len(group), "in_ledger": False, "equal": False,
                        "max_relative_difference": np.nan})
            continue
        new = np.array([_round(v) for v in group["value"]], float)
        old = group["value_ledger"].to_numpy(float)
        same = (new == old) | (np.isnan(new) & np.isnan(old))
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.abs(new - old) / np.maximum(np.abs(old), np.finfo(float).tiny)
        rel = np.where(same, 0.0, np.where(np.isnan(rel), np.inf, rel))
        out.append({"unit": uid, "values": len(group), "in_ledger": True,
                    "equal": bool(same.all()), "max_relative_difference": float(rel.max())})
    return pd.DataFrame(out, columns=["unit", "values", "in_ledger", "equal",
                                      "max_relative_difference"])


def recompute_against_ledger(experiment, units, ledger, *, leave_out_models=()):
    """Recompute ``units`` here and compare them with their ledger rows (a chapter's live check).

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    units : list of dict or list of sequence
        Unit keys, as dicts or as values in the order of the module's ``UNIT_KEYS`` (the form
        a notebook parameter takes).
    ledger : DataFrame
        :func:`read_ledger`'s rows.
    leave_out_models : sequence of str, default=()
        Downstream models whose rows are not compared (e.g. a module's
        ``KERNEL_DEPENDENT_MODELS``).

    Returns
    -------
    DataFrame
        :func:`equal_to_ledger`'s verdict, ``unit`` without the ``"<experiment>/"`` prefix.
    """
    keys = _module(experiment).UNIT_KEYS
    units = [dict(u) if isinstance(u, dict) else dict(zip(keys, u, strict=True)) for u in units]
    rows = recompute(experiment, units)
    verdict = equal_to_ledger(rows[~rows["model"].isin(list(leave_out_models))], ledger)
    verdict["unit"] = verdict["unit"].str.removeprefix(f"{experiment}/")
    return verdict


def verification_sample(ledger, *, max_unit_seconds=MAX_UNIT_SECONDS):
    """A deterministic sample of a ledger's units: the quickest unit of each (dataset, method).

    Units that hold values other than wall-clock times come first (a unit of times only, such as
    a runtime figure's, has nothing to compare).  Where the chosen unit took longer than
    ``max_unit_seconds``, the parts of it that its experiment names (``verification_parts``) are
    rerun instead; an experiment that names none leaves the pair out (:func:`verify` says
    which).  Missing units are left out.

    Returns
    -------
    list of (str, dict or None)
        ``(unit id, part)`` sorted by unit id, ``part`` None for the whole unit.
    """
    ledger = ledger[ledger["metric"] != MISSING]
    valued = set(ledger.loc[~_is_timing(ledger), "unit"])
    per_unit = ledger.drop_duplicates("unit")[["unit", "dataset", "method", "seconds"]]
    per_unit = per_unit.assign(times_only=~per_unit["unit"].isin(valued))
    chosen = (per_unit.sort_values(["times_only", "seconds", "unit"], kind="stable")
              .drop_duplicates(["dataset", "method"]))
    fast = chosen["seconds"] <= max_unit_seconds
    sample = [(uid, None) for uid in set(chosen.loc[fast, "unit"])]
    for uid in set(chosen.loc[~fast, "unit"]):
        experiment = uid.split("/", 1)[0]
        parts = getattr(_module(experiment), "verification_parts", None)
        if parts is not None:
            sample += [(uid, part) for part in parts(_key_from_id(experiment, uid))]
    return sorted(sample, key=lambda job: job[0])


def _part_text(part):
    """A part as text, e.g. ``"sensitive=sex; variants=with S"``."""
    return "; ".join(f"{name}={','.join(map(str, np.atleast_1d(value)))}"
                     for name, value in part.items())


def _blas_kernels(machine_text):
    return machine_text.partition("BLAS:")[2].strip()


def verify(experiment, *, path=None, max_unit_seconds=MAX_UNIT_SECONDS, scheduler="serial"):
    """Recompute :func:`verification_sample` of the ledger and compare each unit with it.

    The units run where ``scheduler`` says (as in :func:`run`; default here, one after the
    other); the verdict does not depend on it.

    Returns
    -------
    DataFrame
        ``unit, values, in_ledger, equal, max_relative_difference, note`` per recomputed unit
        (or part of a unit, named after the unit id in brackets), plus one row with
        ``equal = NaN`` for each (dataset, method) pair left out (too slow), whose ``unit``
        names the pair.  Recomputed under another BLAS kernel than the ledger's,
        a unit of a method the experiment lists in ``KERNEL_DEPENDENT``, or a unit it lists in
        ``KERNEL_DEPENDENT_UNITS`` (by id), is not judged
        (``equal = NaN``, with a note that gives the largest relative difference) when it
        differs, and the rows of the downstream models in
        ``KERNEL_DEPENDENT_MODELS`` are not compared (a unit that has no other rows:
        ``equal = NaN``, with a note).  A unit that cannot run here is not
        equal, unless its external data are absent (``FileNotFoundError``: ``equal = NaN``,
        with a note).
    """
    ledger = read_ledger(experiment, path)
    if ledger.empty:
        raise ValueError(f"the ledger of {experiment} is empty: nothing to verify.")
    sample = verification_sample(ledger, max_unit_seconds=max_unit_seconds)
    parameters = json.loads(ledger["parameters"].iloc[0])
    mixed = ledger["parameters"].nunique() > 1
    module = _module(experiment)
    here = _blas_kernels(machine())
    seconds = ledger.drop_duplicates("unit").set_index("unit")["seconds"]
    n_parts = Counter(uid for uid, _ in sample)
    jobs, expected = [], []
    for uid, part in sample:
        params = json.loads(ledger.loc[ledger["unit"] == uid, "parameters"].iloc[0]) \
            if mixed else parameters
        extra = {k: v for k, v in params.items() if k in module.PARAMETERS}
        jobs.append((_key_from_id(experiment, uid), {**module.PARAMETERS, **extra},
                     *(() if part is None else (part,))))
        expected.append(int(seconds[uid] / n_parts[uid]))  # the slowest start first
    results, covered = [], set()
    for (uid, part), rows in zip(sample, _run_units(experiment, jobs, scheduler, expected),
                                 strict=True):
        label = uid if part is None else f"{uid} [{_part_text(part)}]"
        held = ledger[ledger["unit"] == uid]
        if (rows["metric"] == MISSING).any():  # the unit could not run here
            covered |= set(held["dataset"] + " / " + held["method"])
            note = rows["note"].iloc[0]
            absent = note.startswith("FileNotFoundError")  # external data not on this machine
            results.append(pd.DataFrame([{
                "unit": label, "values": 0, "in_ledger": True,
                "equal": math.nan if absent else False, "max_relative_difference": math.nan,
                "note": ("its data are not on this machine: " if absent else "failed here: ")
                + note.splitlines()[0][:200]}]))
            continue
        stored = held.iloc[0]
        other_kernel = _blas_kernels(stored["machine"]) != here
        dependent = rows["model"].isin(getattr(module, "KERNEL_DEPENDENT_MODELS", ()))
        verdict = equal_to_ledger(rows[~dependent] if other_kernel else rows, ledger)
        if verdict.empty:  # only times, or only kernel-dependent models: reported, not dropped
            verdict = pd.DataFrame([{"unit": uid, "values": 0, "in_ledger": True,
                                     "equal": math.nan, "max_relative_difference": math.nan,
                                     "note": "wall-clock times only: nothing to compare"}])
        if other_kernel and dependent.any():
            verdict["note"] = ("another BLAS kernel than the ledger's: kernel-dependent models "
                               "not compared")
        dependent_unit = (stored["method"] in getattr(module, "KERNEL_DEPENDENT", ())
                          or uid in getattr(module, "KERNEL_DEPENDENT_UNITS", ()))
        if dependent_unit and other_kernel and not verdict["equal"].all():
            # a method whose result follows the BLAS kernel's rounding, checked on another kernel
            verdict["equal"] = math.nan
            verdict["note"] = ("another BLAS kernel than the ledger's; this method depends on it "
                               "(largest relative difference "
                               f"{verdict['max_relative_difference'].max():.1e})")
        verdict["unit"] = label
        results.append(verdict)
        covered |= set(rows["dataset"] + " / " + rows["method"])
    out = pd.concat(results, ignore_index=True) if results else equal_to_ledger(
        ledger.iloc[:0], ledger)
    pairs = set(ledger["dataset"] + " / " + ledger["method"])
    skipped = pd.DataFrame({"unit": sorted(pairs - covered), "values": 0, "in_ledger": True,
                            "equal": math.nan, "max_relative_difference": math.nan,
                            "note": f"every unit slower than {max_unit_seconds:g} s"})
    out = pd.concat([out, skipped], ignore_index=True) if len(skipped) else out
    out["note"] = out["note"].fillna("") if "note" in out.columns else ""
    return out


def describe_ledger(ledger, experiment=None):
    """The provenance of a ledger as printable lines: its size, commits, dates, unit time, machines,
    and, given ``experiment``, how many units of the paper-scale grid it holds and lacks.

    Missing units (:data:`MISSING`) are counted apart and listed with the first line of their error.
    """
    units = ledger.drop_duplicates("unit")
    if units.empty:
        return "the ledger is empty"
    first, last = units["date"].min()[:10], units["date"].max()[:10]
    lines = [f"ledger: {len(units)} units, {len(ledger)} rows; computed at "
             f"{units['commit'].nunique()} commit(s) on {first}"
             + ("" if first == last else f" to {last}")
             + f"; {units['seconds'].sum() / 3600:.2f} unit-hours in all"]
    lines += [f"  commit {commit[:12]}: {count} units"
              for commit, count in units["commit"].value_counts(sort=False).sort_index().items()]
    lines += ["machine(s):"] + [f"  {name}" for name in sorted(units["machine"].unique())]
    missing = units[units["metric"] == MISSING]
    lines.append(f"{len(missing)} unit(s) recorded as missing")
    lines += [f"  {row.unit}: {str(row.note).splitlines()[0][:160]}"
              for row in missing.itertuples()]
    if experiment is not None:
        grid = {unit_id(experiment, key) for key in _module(experiment).units()}
        absent = len(grid - set(units["unit"]))
        lines.append(f"paper-scale grid: {len(grid)} units, {len(grid) - absent} held, "
                     f"{absent} not computed yet")
    return "\n".join(lines)


def summarize_ledger(ledger, *, ddof=0):
    """Mean and std over splits of each printed cell of a ledger (the papers' ``np.std``: ddof 0).

    Missing units (:data:`MISSING`) are left out: a cell rests on the splits that finished.

    Returns
    -------
    DataFrame
        ``paper, table, dataset, method, k, eta, model, metric, mean, std, n_splits``, in the
        ledger's order, ready for :func:`fairlab.published.compare`.
    """
    keys = ["paper", "table", "dataset", "method", "k", "eta", "model", "metric"]
    ledger = ledger[ledger["metric"] != MISSING]
    grouped = ledger.groupby(keys, sort=False, dropna=False)["value"]
    out = grouped.agg(mean="mean", n_splits="size").reset_index()
    out.insert(len(keys) + 1, "std", grouped.std(ddof=ddof).to_numpy())
    out["n_splits"] = out["n_splits"].astype(int)
    return out
