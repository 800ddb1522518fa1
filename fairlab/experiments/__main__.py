"""Command line of the results ledger: ``python -m fairlab.experiments {run,verify,status,repair,
scorecard}``.

``run EXPERIMENT`` computes the units of the paper-scale grid that the ledger lacks (``--where
field=value``, repeatable, narrows the grid: values of one field are alternatives, fields must all
match; numbers compare as numbers, names case-insensitively, as keys or as printed); ``verify``
reruns a sample of every ledger and exits 1 on a difference; ``status`` prints each ledger's units,
rows and summed unit time; ``repair EXPERIMENT`` keeps the latest computation of each unit a ledger
holds twice; ``scorecard MODULE:FACTORY`` puts a method of one's own through the papers'
protocols (:func:`~fairlab.experiments.scorecard`) and prints its card.  A ledger that cannot be
read, a selection of no unit, or a factory that cannot be imported is an error (exit status 2)
that names the file, the valid values or what is wrong with the factory.
"""

import argparse
import importlib
import json
import sys
from concurrent.futures import ThreadPoolExecutor

import pandas as pd

from . import _ledger


def _protocols():
    from .cards import PROTOCOLS

    return list(PROTOCOLS)


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


def _factory(spec):
    """The object ``MODULE:FACTORY`` names (``FACTORY`` may be dotted: ``Class.attribute``)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"the method must be given as MODULE:FACTORY, e.g. fairlab:FairPCA; "
                         f"got {spec!r}.")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"cannot import the module {module_name!r} of {spec!r} ({err}); it must "
                         f"be importable from the working directory or the Python path.") from err
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as err:
            raise ValueError(f"the module {module_name!r} has no {attribute!r} (of {spec!r})."
                             ) from err
    if not callable(obj):
        raise ValueError(f"{spec!r} is not callable: a method is a factory "
                         f"factory(n_components) -> transformer.")
    return obj


def _scorecard(args):
    from .cards import render, scorecard

    method = _factory(args.method)
    try:
        card = scorecard(method, name=args.name, protocols=args.protocol or None,
                         quick=args.quick, results=args.card_results, scheduler=args.scheduler)
    except TypeError as err:  # a factory of something that is not a fair transformer
        raise ValueError(str(err)) from err
    for table in render(card):
        print(table)
        print()


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
    card = commands.add_parser(
        "scorecard", help="put a method of one's own through the papers' protocols")
    card.add_argument("method", metavar="MODULE:FACTORY",
                      help="factory(n_components) -> transformer whose fit takes "
                           "sensitive_features, e.g. fairlab:FairPCA")
    card.add_argument("--name", default=None, help="the method's name on the card (default: "
                                                   "the factory's)")
    card.add_argument("--protocol", action="append", default=[], metavar="P",
                      choices=_protocols(), help=f"of {', '.join(_protocols())} (default: all)")
    card.add_argument("--quick", action="store_true",
                      help="one split per data set at the smallest k, and the leakage "
                           "audit's cheaper settings")
    card.add_argument("--results", dest="card_results", default=None, metavar="DIR",
                      help="folder of the scorecard's ledger, created if absent (default: "
                           "./scorecard-results; never the committed ledgers' folder)")
    card.add_argument("--scheduler", default=None,
                      help="'serial', or a dask scheduler address (default as for run)")
    args = parser.parse_args(argv)
    handler = {"run": _run, "verify": _verify, "status": _status, "repair": _repair,
               "scorecard": _scorecard}
    try:
        return handler[args.command](args) or 0
    except (_ledger.LedgerError, ValueError) as err:
        if not isinstance(err, _ledger.LedgerError) and args.command not in ("run", "scorecard"):
            raise
        parser.exit(2, f"{parser.prog} {args.command}: error: {err}\n")


if __name__ == "__main__":
    sys.exit(main())
