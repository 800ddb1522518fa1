"""Command line of the results ledger: ``python -m fairlab.experiments {run,verify,status,repair}``.

``run EXPERIMENT`` computes the units of the paper-scale grid that the ledger lacks (``--where
field=value``, repeatable, narrows the grid: values of one field are alternatives, fields must all
match; numbers compare as numbers, names case-insensitively, as keys or as printed); ``verify``
reruns a sample of every ledger and exits 1 on a difference; ``status`` prints each ledger's units,
rows and summed unit time; ``repair EXPERIMENT`` keeps the latest computation of each unit a ledger
holds twice.  A ledger that cannot be read, or a selection of no unit, is an error (exit status 2)
that names the file or the valid values.
"""

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from . import _ledger


def _split_pairs(pairs, option):
    """NAME=VALUE arguments of ``option`` as (name, value) pairs."""
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"{option} takes NAME=VALUE; got {pair!r}.")
        yield name, value


def _experiment(name):
    """An experiment with a ledger (argparse's choices would list the empty default too)."""
    if name not in _ledger.EXPERIMENTS:
        raise argparse.ArgumentTypeError(
            f"invalid choice: {name!r} (choose from {', '.join(_ledger.EXPERIMENTS)})")
    return name


def _where(pairs):
    chosen = {}
    for field, value in _split_pairs(pairs, "--where"):
        chosen.setdefault(field, []).append(value)
    return chosen


def _parameters(pairs):
    out = {}
    for name, value in _split_pairs(pairs, "--parameter"):  # VALUE as JSON, else a string
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _run(args):
    units = _ledger.select_units(args.experiment, _where(args.where))
    print(f"{args.experiment}: {len(units)} unit(s) in the grid", flush=True)
    rows = _ledger.run(args.experiment, units, parameters=_parameters(args.parameter),
                       scheduler=args.scheduler, redo=args.redo, path=args.results,
                       progress=not args.quiet)
    print(f"{rows['unit'].nunique()} unit(s) in the ledger, {len(rows)} rows; "
          f"{_ledger.ledger_path(args.experiment, args.results)}")


def _verify(args):
    # One cluster for every ledger (its start costs seconds), closed at the end.
    client, owned = (args.scheduler, False) if args.scheduler == "serial" else \
        _ledger._client(args.scheduler)
    try:
        return _verify_each(args, client)
    finally:
        if owned:
            _ledger._close(client)


def _verify_each(args, scheduler):
    experiments = args.experiment or _ledger.EXPERIMENTS
    held = [e for e in experiments if not _ledger.read_ledger(e, args.results).empty]

    def verify(experiment):
        return _ledger.verify(experiment, path=args.results,
                              max_unit_seconds=args.max_unit_seconds, scheduler=scheduler)

    if scheduler == "serial":
        results = dict(zip(held, map(verify, held), strict=True))
    else:  # every ledger's units on the cluster at once, the slowest first (one queue)
        with ThreadPoolExecutor(max_workers=max(len(held), 1)) as pool:
            results = dict(zip(held, pool.map(verify, held), strict=True))
    failed = False
    for experiment in experiments:
        if experiment not in results:
            print(f"{experiment}: no ledger")
            continue
        result = results[experiment]
        checked = result[result["equal"].notna()]
        bad = checked[~checked["equal"].astype(bool)]
        parts = checked["unit"].str.contains(" [", regex=False).sum()
        print(f"{experiment}: {len(checked)} unit(s) recomputed"
              + (f" ({parts} of them parts of a unit)" if parts else "")
              + f", {len(bad)} differ")
        for row in bad.itertuples():
            print(f"  differs: {row.unit} (largest relative difference "
                  f"{row.max_relative_difference:.2e})")
        for row in result[result["equal"].isna()].itertuples():
            print(f"  not verified ({row.note}): {row.unit}")
        failed |= len(bad) > 0
    return 1 if failed else 0


def _status(args):
    lines, damaged = [], []
    for experiment in _ledger.EXPERIMENTS:
        try:
            ledger = _ledger.read_ledger(experiment, args.results)
        except _ledger.LedgerError as err:
            damaged.append(str(err))
            continue
        per_unit = ledger.drop_duplicates("unit")
        lines.append({"experiment": experiment, "units": len(per_unit), "rows": len(ledger),
                      "unit hours": round(per_unit["seconds"].sum() / 3600, 2),
                      "commits": ledger["commit"].nunique()})
    folder = _ledger.results_dir(args.results).resolve()
    print(f"ledgers in {folder}")
    if not any(line["units"] for line in lines) and not damaged:
        print(f"no ledger holds a unit there ({'empty' if folder.is_dir() else 'no such folder'}"
              "): the committed ledgers are in a checkout's notebooks/results; point --results "
              "or FAIRLAB_RESULTS at them")
    if lines:
        print(pd.DataFrame(lines).to_string(index=False))
    for message in damaged:
        print(f"error: {message}", file=sys.stderr)
    return 1 if damaged else 0


def _repair(args):
    dropped = _ledger.repair(args.experiment, args.results)
    print(f"{args.experiment}: {dropped} duplicated row(s) removed; "
          f"{_ledger.ledger_path(args.experiment, args.results)}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fairlab.experiments",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default=None,
                        help="folder of the ledgers (default: $FAIRLAB_RESULTS, else the nearest "
                             "notebooks/results at or above the working directory)")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="compute the units the ledger lacks")
    run.add_argument("experiment", choices=_ledger.EXPERIMENTS)
    run.add_argument("--where", action="append", default=[], metavar="FIELD=VALUE")
    run.add_argument("--parameter", action="append", default=[], metavar="NAME=VALUE")
    run.add_argument("--scheduler", default=None,
                     help="'serial', or a dask scheduler address (default: $FAIRLAB_SCHEDULER, "
                          "else a LocalCluster with one worker per core)")
    run.add_argument("--redo", action="store_true", help="recompute units the ledger holds")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    verify = commands.add_parser("verify", help="recompute a sample of the ledgers")
    verify.add_argument("experiment", nargs="*", type=_experiment, metavar="EXPERIMENT",
                        help=f"ledgers to verify, of {', '.join(_ledger.EXPERIMENTS)} "
                             "(default: all)")
    verify.add_argument("--max-unit-seconds", type=float,
                        default=_ledger.MAX_UNIT_SECONDS,
                        help="rerun a slower unit's parts, if its experiment names any")
    verify.add_argument("--scheduler", default=None,
                        help="'serial', or a dask scheduler address (default as for run)")
    commands.add_parser("status", help="units, rows and unit time of each ledger")
    repair = commands.add_parser("repair", help="keep the latest computation of each unit that "
                                                "a ledger holds twice")
    repair.add_argument("experiment", choices=_ledger.EXPERIMENTS)
    args = parser.parse_args(argv)
    handler = {"run": _run, "verify": _verify, "status": _status, "repair": _repair}
    try:
        return handler[args.command](args) or 0
    except (_ledger.LedgerError, ValueError) as err:
        if not isinstance(err, _ledger.LedgerError) and args.command != "run":
            raise
        parser.exit(2, f"{parser.prog} {args.command}: error: {err}\n")


if __name__ == "__main__":
    sys.exit(main())
