"""Build the book from the notebooks' stored outputs (no execution), for the book tests.

``python tests/book_build.py FOLDER`` writes the configuration alone (``make pdf`` uses it).
"""

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"


def stored_outputs_config(folder):
    """Write a copy of ``_config.yml`` into ``folder`` that renders the stored outputs.

    jupyter-book resolves ``local_extensions`` paths against the folder of the configuration
    file, so the copy names them by absolute path.
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["execute"]["execute_notebooks"] = "off"
    local = config["sphinx"].get("local_extensions") or {}
    config["sphinx"]["local_extensions"] = {name: str(ROOT / path) for name, path in local.items()}
    path = Path(folder) / "_config.yml"
    path.write_text(yaml.safe_dump(config))
    return path


def build(folder, *extra_args):
    """``jupyter-book build`` of the repository into ``folder``/_build, warnings as errors."""
    return subprocess.run(
        [str(JUPYTER_BOOK), "build", str(ROOT), "--config", str(stored_outputs_config(folder)),
         "--path-output", str(folder), "-W", "-n", "--keep-going", "-q", *extra_args],
        capture_output=True, text=True, cwd=ROOT,
    )


if __name__ == "__main__":
    stored_outputs_config(sys.argv[1])
