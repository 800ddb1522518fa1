"""The book builds with warnings as errors (broken references, bad directives, bad citations).

Notebooks are not executed here: their stored outputs are rendered (nbval re-executes them).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_config_keeps_notebook_errors_fatal_and_math_offline():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["sphinx"]["config"]["nb_execution_raise_on_error"] is True
    assert "sphinx-mathjax-offline" in config["sphinx"]["extra_extensions"]
    assert {".*", "_build", "tests", "fairlab"} <= set(config["exclude_patterns"])


def test_book_builds_with_warnings_as_errors(tmp_path):
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    if not jupyter_book.exists():
        pytest.skip("jupyter-book is not installed (install the 'book' extra)")
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["execute"]["execute_notebooks"] = "off"
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    result = subprocess.run(
        [str(jupyter_book), "build", str(ROOT), "--config", str(tmp_path / "_config.yml"),
         "--path-output", str(tmp_path), "-W", "-n", "--keep-going", "-q"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    html = tmp_path / "_build" / "html"
    assert (html / "index.html").exists()
    assert (html / "_static" / "mathjax").is_dir(), "MathJax must be bundled for offline math"
    shutil.rmtree(tmp_path / "_build", ignore_errors=True)
