"""make student-check: the class bundle tested as a student meets it.

``python tests/student_check.py BUNDLE.zip [--python PYTHON] [--keep]`` unzips the bundle into a
temporary folder, runs the install command of the bundle's own README there (a fresh virtual
environment, ``.venv`` in the bundle), reports the install's wall time and the environment's size,
then runs every student notebook from top to bottom in that environment (the runner of the
bundle's ``make test``, ``--jobs`` at a time, each check required to read "no answer yet") and
exits non-zero on any failure. The environment variables that point at the book's external data
(``FAIRLAB_DATA``, ``FAIRLAB_PAPERS``) are removed, as a student's machine has neither, and so
is ``PYTHONDONTWRITEBYTECODE``, which would make every kernel compile its imports again.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path


def readme_commands(readme):
    """The commands of the README's first ``bash`` block, comments removed."""
    block = re.search(r"```bash\n(.*?)```", readme, re.S)
    if block is None:
        raise ValueError("the bundle's README has no ```bash block with its commands")
    return [line.split("#")[0].strip() for line in block[1].splitlines()
            if line.split("#")[0].strip()]


def folder_mib(path):
    """Disk use of ``path`` in MiB (``du -sk``, as a student's file manager would count it)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0]) / 1024


def unzip(bundle, where):
    """Unzip with the system's ``unzip`` (which restores the stored modes) where there is one."""
    if shutil.which("unzip"):
        subprocess.run(["unzip", "-q", str(bundle), "-d", str(where)], check=True)
    else:
        with zipfile.ZipFile(bundle) as zf:
            zf.extractall(where)
    tops = [p for p in Path(where).iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise ValueError(f"the bundle should hold one folder, not {[p.name for p in tops]}")
    return tops[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--python", default="python3", help="the interpreter of the new venv")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at a time")
    args = parser.parse_args(argv)

    env = {k: v for k, v in os.environ.items()
           if k not in ("FAIRLAB_DATA", "FAIRLAB_PAPERS", "VIRTUAL_ENV", "PYTHONPATH",
                        "PYTHONDONTWRITEBYTECODE")}
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    where = Path(tempfile.mkdtemp(prefix="fairlab-student-"))
    status = 0
    try:
        root = unzip(args.bundle.resolve(), where)
        commands = readme_commands((root / "README.md").read_text())
        install = [c for c in commands if "install" in c]
        if len(install) != 1:
            raise ValueError(f"the README's commands {commands} should hold one install command")
        command = f"{install[0]} PYTHON={args.python}" if install[0].startswith("make") \
            else install[0]
        print(f"bundle unzipped in {root}; install: {command}", flush=True)
        start = time.perf_counter()
        subprocess.run(command, shell=True, cwd=root, env=env, check=True)
        seconds = time.perf_counter() - start
        print(f"install: {seconds:.0f} s; the environment (.venv): "
              f"{folder_mib(root / '.venv'):.0f} MiB", flush=True)
        start = time.perf_counter()
        status = subprocess.run([str(root / ".venv" / "bin" / "python"), "-m",
                                 "fairlab.exercises._run", "notebooks", "_build/executed",
                                 "--unanswered", "--jobs", str(args.jobs)],
                                cwd=root, env=env).returncode
        print(f"student notebooks: {time.perf_counter() - start:.0f} s wall; the environment "
              f"after running them: {folder_mib(root / '.venv'):.0f} MiB", flush=True)
    finally:
        if args.keep:
            print(f"kept: {where}")
        else:
            shutil.rmtree(where, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
