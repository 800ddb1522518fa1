"""The README's examples work: its Python runs, its `make notebook` lines name real parameters.

The book's introduction repeats the library example; it is run the same way.
"""

import ast
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
import sklearn
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
INTRO = (ROOT / "book" / "intro.md").read_text()


def _blocks(language, text=README):
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)


def test_readme_has_python_examples():
    assert _blocks("python")


EXAMPLES = [pytest.param(block, id=f"README-{i}") for i, block in enumerate(_blocks("python"))]
EXAMPLES += [pytest.param(block, id=f"intro-{i}")
             for i, block in enumerate(_blocks("python", INTRO))]


@pytest.mark.parametrize("block", EXAMPLES)
def test_python_example_runs(block):
    """Each block runs as printed, given X, y and s (the data the README leaves to the reader)."""
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 200)
    X = rng.normal(size=(200, 8)) + s[:, None]
    y = (X[:, 1] + rng.normal(size=200) > 0.5).astype(int)
    with sklearn.config_context():  # undoes the block's set_config on exit
        exec(compile(block, "example", "exec"), {"X": X, "y": y, "s": s})


def _parameters(stem):
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text())
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    return {
        target.id
        for node in ast.parse("".join(first["source"])).body
        if isinstance(node, ast.Assign)
        for target in ast.walk(node.targets[0])
        if isinstance(target, ast.Name)
    }


NOTEBOOK_LINES = [
    line for block in _blocks("bash") for line in block.splitlines()
    if line.startswith("make notebook")
]


def test_readme_shows_a_yaml_parameter():
    assert any("-y" in line for line in NOTEBOOK_LINES)


@pytest.mark.parametrize("line", NOTEBOOK_LINES)
def test_make_notebook_example_names_real_parameters(line):
    args = dict(word.split("=", 1) for word in shlex.split(line)[2:])
    params = shlex.split(args.get("PARAMS", ""))  # make pastes PARAMS into the shell command
    declared = _parameters(args["NB"])
    names = []
    while params:
        flag = params.pop(0)
        if flag == "-p":
            names.append(params.pop(0))
            params.pop(0)
        elif flag == "-y":
            names += list(yaml.safe_load(params.pop(0)))
        else:
            pytest.fail(f"unexpected papermill option {flag!r} in {line!r}")
    assert names and set(names) <= declared, f"{line}: not parameters of {args['NB']}"
