"""Run notebooks from top to bottom, as a student does, and say which fail (``make test`` of the
student bundle).

``python -m fairlab.exercises._run [FOLDER] [OUT] [--unanswered] [--jobs N]`` executes every
``FOLDER/NN_*.ipynb`` (default ``notebooks``) in a fresh kernel, ``N`` at a time (default 1), with
``FOLDER`` as the working directory, writes the executed copies into ``OUT`` (default
``_build/executed``) and prints one line per notebook with its wall time. With ``--unanswered``
every output of a cell that calls ``exercises.check`` must read "no answer yet" (a student
notebook as handed out). The exit status is 1 if any notebook failed.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

_CHECK = re.compile(r"exercises\.check\(")


def unanswered_problems(notebook):
    """The outputs of the notebook's check cells that do not say "no answer yet"."""
    problems = []
    for cell in notebook.cells:
        if cell.cell_type != "code" or not _CHECK.search(cell.source):
            continue
        texts = [out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
                 for out in cell.get("outputs", [])]
        if not any("no answer yet" in text for text in texts):
            problems.append(cell.source.strip().splitlines()[-1])
    return problems


def _execute(path, out, unanswered, timeout):
    """Execute one notebook in a fresh kernel; returns (seconds, error or None)."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    error = None
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except Exception as err:  # noqa: BLE001  (any failing cell fails the notebook)
        lines = str(err).strip().splitlines() or [""]
        error = f"{type(err).__name__}: {lines[-1][:300]}"
    if error is None and unanswered:
        problems = unanswered_problems(notebook)
        if problems:
            error = f"a check does not say 'no answer yet': {problems}"
    nbformat.write(notebook, Path(out) / path.name)
    return time.perf_counter() - start, error


def _print(line):
    print(line, flush=True)


def run(folder="notebooks", out="_build/executed", *, unanswered=False, jobs=1, timeout=1800,
        report=_print):
    """Execute every ``folder/NN_*.ipynb``, ``jobs`` at a time; returns
    ``{name: (seconds, error or None)}``."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    folder, out = Path(folder).resolve(), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    if not paths:
        raise FileNotFoundError(f"no notebook NN_*.ipynb in {folder}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer; got {jobs!r}")
    results = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_execute, path, out, unanswered, timeout): path for path in paths}
        for future in as_completed(futures):
            name = futures[future].name
            seconds, error = future.result()
            results[name] = (seconds, error)
            report(f"{name:<50} {seconds:7.1f} s  {'ok' if error is None else 'FAILED'}"
                   + ("" if error is None else f"\n    {error}"))
    results = dict(sorted(results.items()))
    failed = [name for name, (_, error) in results.items() if error]
    report(f"{len(results) - len(failed)} of {len(results)} notebooks ran from top to bottom "
           f"({sum(s for s, _ in results.values()):.0f} s of notebook time, "
           f"{time.perf_counter() - start:.0f} s wall with {jobs} at a time)"
           + (f"; failed: {failed}" if failed else ""))
    return results


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="notebooks")
    parser.add_argument("out", nargs="?", default="_build/executed")
    parser.add_argument("--unanswered", action="store_true",
                        help="every check must read 'no answer yet'")
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at a time")
    args = parser.parse_args(argv)
    results = run(args.folder, args.out, unanswered=args.unanswered, jobs=args.jobs)
    return 1 if any(error for _, error in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
