"""Mutation score of the modules listed in ``tests/mutation/modules.toml``, by mutmut.

For each module, a fresh work folder ``_build/mutation/<module>/`` gets a copy of the library, the
tests and ``pyproject.toml`` with a ``[tool.mutmut]`` section that mutates that module alone and
selects its test files; ``mutmut run`` there (at low priority, ``--max-children`` workers, under
a time limit) tries every mutant against the tests that call the mutated function.

A surviving mutant listed in ``tests/mutation/equivalent.toml`` (the function, the mutated line
as mutmut shows it, and why no test can tell it from the original) is counted as equivalent, out
of the score; a listed entry that no longer matches a survivor is reported as stale.  The score
is (killed + timed out) / (mutants − equivalent): survivors and mutants that no listed test
reaches ("no tests") count against it.

Each module's row of ``tests/mutation/scores.csv`` is replaced by the new one (the other rows are
kept), and the surviving mutants' diffs are written to ``_build/mutation/<module>.survivors``.

    python tests/mutation/run.py                        # every listed module
    python tests/mutation/run.py fairlab/_core/hsic.py  # some of them
    python tests/mutation/run.py --rescore              # after editing equivalent.toml
"""

import argparse
import csv
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MODULES = HERE / "modules.toml"
EQUIVALENT = HERE / "equivalent.toml"
SCORES = HERE / "scores.csv"
WORK = ROOT / "_build" / "mutation"
COLUMNS = ["module", "mutants", "killed", "timeout", "survived", "no_tests", "equivalent", "other",
           "score", "seconds", "tests", "mutmut", "commit", "date"]
# mutmut's verdicts (mutmut.stats.status_by_exit_code) that kill a mutant.
KILLED = {"killed": "killed", "timeout": "timeout", "caught by type check": "killed"}

# Run inside a work folder after `mutmut run`: each mutant's verdict and, unless killed, its diff.
_DUMP = """
import json
from mutmut.__main__ import walk_mutatable_files
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
out = {}
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    for name, code in data.exit_code_by_key.items():
        status = status_by_exit_code[code]
        diff = "" if status == "killed" else get_diff_for_mutant(name, path=path)
        out[name] = [status, diff]
print(json.dumps(out))
"""


def load_modules():
    return tomllib.loads(MODULES.read_text())["modules"]


def load_equivalent():
    """(function, mutated line) -> reason, from equivalent.toml."""
    if not EQUIVALENT.exists():
        return {}
    entries = tomllib.loads(EQUIVALENT.read_text()).get("equivalent", [])
    return {(e["function"], _normalise(e["mutant"])): e["why"] for e in entries}


def _normalise(line):
    return " ".join(line.split())


def function_of(mutant):
    """The mutated function's dotted name, the key that survives renumbering.

    mutmut's ``fairlab._core.hsic.x__pivoted_cholesky__mutmut_3`` is
    ``fairlab._core.hsic._pivoted_cholesky``, and a method's ``...xǁ_RowGroupsǁweights__mutmut_5``
    is ``..._RowGroups.weights``.
    """
    module, _, name = mutant.rpartition("__mutmut_")[0].rpartition(".")
    if name.startswith("xǁ"):
        name = ".".join(name.removeprefix("xǁ").split("ǁ"))
    else:
        name = name.removeprefix("x_")
    return f"{module}.{name}"


def mutated_line(diff):
    """The added lines of a mutant's diff, whitespace-normalised: what equivalent.toml quotes."""
    added = [line[1:] for line in diff.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    return _normalise(" ".join(added))


def prepare(module, tests, pytest_args, also_copy, work):
    """A fresh work folder with the library, the tests, the files the tests read (``also_copy``)
    and a pyproject that mutates ``module``."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "_build")
    shutil.copytree(ROOT / "fairlab", work / "fairlab", ignore=ignore)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=ignore)
    for path in also_copy:
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / path).is_dir():
            shutil.copytree(ROOT / path, work / path, ignore=ignore)
        else:
            shutil.copy2(ROOT / path, work / path)
    config = "\n".join([
        "", "[tool.mutmut]",
        'source_paths = ["fairlab"]',
        f"only_mutate = [{json.dumps(module)}]",
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
        f"pytest_add_cli_args = {json.dumps(['-p', 'no:cacheprovider', *pytest_args])}",
        f"also_copy = {json.dumps(also_copy)}",
        # Each mutant's tests run in a process forked from a server that has run no test: one
        # forked from mutmut's own process (which ran the suite) inherits thread pools whose
        # threads did not survive the fork, and dask's threaded scheduler then waits forever.
        'process_isolation = "forkserver"',
        "",
    ])
    (work / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text() + config)


def run_module(module, entry, *, max_children, timeout, equivalent, rescore=None):
    """Mutate ``module`` and score it; with ``rescore`` (the seconds its last run took), score
    the verdicts of that run again (after equivalent.toml changed) without running anything."""
    tests = entry["tests"]
    slug = module.removesuffix(".py").replace("/", ".")
    work = WORK / slug
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if rescore is None:
        prepare(module, tests, entry.get("pytest_args", []), entry.get("also_copy", []), work)
        # One BLAS thread per worker: the workers do not oversubscribe the cores.
        env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        command = ["nice", "-n", "15", "timeout", str(timeout),
                   sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)]
        log = WORK / f"{slug}.log"
        print(f"{module}: mutmut on {len(tests)} test file(s), log in {log.relative_to(ROOT)}",
              flush=True)
        start = time.perf_counter()
        with open(log, "w") as out:
            status = subprocess.run(command, cwd=work, env=env, stdout=out,
                                    stderr=subprocess.STDOUT)
        seconds = time.perf_counter() - start
        if status.returncode:
            reason = "timed out" if status.returncode == 124 else f"exit code {status.returncode}"
            sys.exit(f"{module}: mutmut {reason}; see {log}")
    else:
        if not (work / "mutants").is_dir():
            sys.exit(f"{module}: no earlier run in {work.relative_to(ROOT)} to score again")
        print(f"{module}: the verdicts of its last run, scored again", flush=True)
        seconds = float(rescore)
    dump = subprocess.run([sys.executable, "-c", _DUMP], cwd=work, env=env, check=True,
                          capture_output=True, text=True)
    results = json.loads(dump.stdout)

    counts = dict.fromkeys(["killed", "timeout", "survived", "no_tests", "equivalent", "other"], 0)
    survivors, matched = [], set()
    for name, (verdict, diff) in sorted(results.items()):
        if verdict in KILLED:
            counts[KILLED[verdict]] += 1
        elif verdict == "survived":
            key = (function_of(name), mutated_line(diff))
            if key in equivalent:
                counts["equivalent"] += 1
                matched.add(key)
            else:
                counts["survived"] += 1
                survivors.append(f"# {name}: survived\n{diff}\n")
        elif verdict == "no tests":
            counts["no_tests"] += 1
            survivors.append(f"# {name}: no tests\n{diff}\n")
        else:
            counts["other"] += 1
            survivors.append(f"# {name}: {verdict}\n{diff}\n")
    (WORK / f"{slug}.survivors").write_text("\n".join(survivors))
    prefix = module.removesuffix(".py").replace("/", ".") + "."
    stale = [key for key in equivalent if key[0].startswith(prefix) and key not in matched]
    for function, line in stale:
        print(f"  stale entry in equivalent.toml (no such survivor): {function}: {line}")

    scored = len(results) - counts["equivalent"]
    score = (counts["killed"] + counts["timeout"]) / scored if scored else float("nan")
    print(f"  {len(results)} mutants: {counts['killed']} killed, {counts['timeout']} timed out, "
          f"{counts['survived']} survived, {counts['no_tests']} reached by no test, "
          f"{counts['equivalent']} equivalent, {counts['other']} other; "
          f"score {score:.1%} in {seconds:.0f} s", flush=True)
    return {"module": module, "mutants": len(results), **counts, "score": f"{score:.4f}",
            "seconds": f"{seconds:.0f}", "tests": " ".join(tests)}


def _commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def write_scores(rows, order):
    """Replace the rows of the modules just run, keep the others, in the order of modules.toml."""
    table = {}
    if SCORES.exists():
        with open(SCORES, newline="") as f:
            table = {row["module"]: row for row in csv.DictReader(f)}
    table.update({row["module"]: row for row in rows})
    rank = {module: i for i, module in enumerate(order)}
    with open(SCORES, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for module in sorted(table, key=lambda m: (rank.get(m, len(rank)), m)):
            writer.writerow(table[module])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*",
                        help="modules to mutate, as listed in modules.toml (default: all)")
    parser.add_argument("--max-children", type=int, default=2,
                        help="mutmut's parallel test workers (default 2)")
    parser.add_argument("--timeout", type=int, default=3600,
                        help="seconds one module's mutmut run may take (default 3600)")
    parser.add_argument("--rescore", action="store_true",
                        help="run nothing: score each module's last run again, with the "
                             "equivalent mutants recorded since")
    args = parser.parse_args(argv)
    listed = load_modules()
    unknown = [m for m in args.modules if m not in listed]
    if unknown:
        parser.error(f"not in {MODULES.relative_to(ROOT)}: {', '.join(unknown)}")
    equivalent = load_equivalent()
    WORK.mkdir(parents=True, exist_ok=True)
    stamp = {"mutmut": version("mutmut"), "commit": _commit(),
             "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}
    previous = {}
    if args.rescore and SCORES.exists():
        with open(SCORES, newline="") as f:
            previous = {row["module"]: row for row in csv.DictReader(f)}
    for module in args.modules or list(listed):
        if args.rescore and module not in previous:
            print(f"{module}: not in {SCORES.relative_to(ROOT)}, nothing to score again")
            continue
        old = previous.get(module, {})
        row = run_module(module, listed[module], max_children=args.max_children,
                         timeout=args.timeout, equivalent=equivalent,
                         rescore=old.get("seconds", "nan") if args.rescore else None)
        keep = {k: old[k] for k in ("mutmut", "commit", "date")} if args.rescore else stamp
        write_scores([{**row, **keep}], list(listed))
    print(f"scores in {SCORES.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
