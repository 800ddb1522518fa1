"""The README's examples work: its Python runs, its `make notebook` lines name real parameters.

The book's introduction repeats the library example; it is run the same way.
"""

import ast
import importlib
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


# --------------------------------------------------------------------------------------------
# README.md and CONTRIBUTING.md name only what exists, and the README's settings table names
# every variable there is.

DOCS = {name: (ROOT / name).read_text() for name in ("README.md", "CONTRIBUTING.md")}
MAKEFILE = (ROOT / "Makefile").read_text()
MAKE_TARGETS = set(re.findall(r"^([a-z][a-z-]*):", MAKEFILE, re.M))
MAKE_BUILTINS = {"CURDIR", "MAKE", "MAKEFILE_LIST"}
CODE = "\n".join(
    path.read_text() for pattern in ("fairlab/**/*.py", "tests/*.py", "benchmarks/*.py")
    for path in sorted(ROOT.glob(pattern)) if path.name != "test_readme.py"
) + MAKEFILE + (ROOT / ".ci" / "run").read_text() + (ROOT / "pyproject.toml").read_text()
# Named in the docs as what not to write (a name style, a comment marker the notebooks do not use).
COUNTEREXAMPLES = {"kleindessner_table", "NBVAL_IGNORE_OUTPUT"}


def _settings_table():
    """(name, kind) of each row of the README's settings table."""
    section = README.split("## Settings", 1)[1].split("\n## ", 1)[0]
    return {(m[1], m[2]) for m in re.finditer(r"^\| `([A-Z_]+)` \| ([^|]+?) \|", section, re.M)}


def _user_make_variables():
    """Variables a make command takes: set with ?=, or read without being defined at all."""
    optional = set(re.findall(r"^([A-Z_]+)\s*\?=", MAKEFILE, re.M))
    defined = set(re.findall(r"^([A-Z_]+)\s*[:?]?=", MAKEFILE, re.M))
    read = set(re.findall(r"\$\(([A-Z_]+)\)", MAKEFILE))
    return optional | (read - defined - MAKE_BUILTINS)


def test_the_settings_table_names_every_make_variable():
    table = {name for name, kind in _settings_table() if kind == "make"}
    assert "MAX_UNIT_SECONDS" in _user_make_variables()  # read, never defined: still a setting
    assert table == _user_make_variables(), (
        f"README's settings table lacks {sorted(_user_make_variables() - table)}, names "
        f"{sorted(table - _user_make_variables())} that the Makefile does not take")


def test_the_settings_table_names_every_environment_variable():
    used = set(re.findall(r"\bFAIRLAB_[A-Z_]+\b", CODE))
    table = {name for name, kind in _settings_table() if kind.startswith("environment")}
    assert {"FAIRLAB_DATA", "FAIRLAB_RESULTS"} <= used
    assert used <= table, f"README's settings table lacks {sorted(used - table)}"
    unused = {name for name in table if not re.search(rf"\b{name}\b", CODE)}
    assert not unused, f"the settings table names {sorted(unused)}, which nothing reads"


def _code_spans(text):
    """The inline code of a Markdown text (``a span`` may run over a line break), whitespace
    collapsed; fenced blocks left out."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    double = re.findall(r"``(.+?)``", prose, re.S)  # ``a span that holds a ` itself``
    prose = re.sub(r"``.+?``", "", prose, flags=re.S)
    return {" ".join(span.split()) for span in [*double, *re.findall(r"`([^`]+)`", prose)]}


def _make_targets_named(text):
    """The targets of the make commands in the code of ``text`` (spans and blocks)."""
    code = [*re.findall(r"^```\w*\n(.*?)^```", text, re.M | re.S), *_code_spans(text)]
    return {target for snippet in code for target in re.findall(r"\bmake ([a-z][a-z-]*)", snippet)}


@pytest.mark.parametrize("doc", DOCS)
def test_every_make_target_the_docs_name_exists(doc):
    named = _make_targets_named(DOCS[doc])
    assert named, doc
    assert named <= MAKE_TARGETS, (
        f"{doc} names make targets that do not exist: {named - MAKE_TARGETS}")


def test_the_readme_names_every_described_make_target():
    described = set(re.findall(r"^([a-z][a-z-]*):.*## ", MAKEFILE, re.M))
    named = _make_targets_named(README)
    assert described - named == set(), "README.md does not mention these make targets"


def _backticked(doc):
    return _code_spans(DOCS[doc])


def _is_placeholder(token):
    return any(mark in token for mark in ("<", "NN_", "*", "...", "…"))


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc):
    paths = [t for t in _backticked(doc) if "/" in t and " " not in t and not _is_placeholder(t)
             and not t.startswith(("http", "$", "~", "./", "_build", ".venv"))]
    assert paths, doc
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def _identifier_exists(token):
    token = token.removesuffix("()")
    if token.startswith("fairlab."):  # a module and attributes, resolved by import
        parts = token.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attribute in parts[cut:]:
                    obj = getattr(obj, attribute)
            except AttributeError:
                return False
            return True
        return False
    if re.search(r"\.(md|yml|json|zip|txt|csv|cfg|toml)$", token):
        return (ROOT / token).exists() or token in CODE
    return all(re.search(rf"\b{re.escape(part)}\b", CODE) for part in token.split("."))


@pytest.mark.parametrize("doc", DOCS)
def test_every_code_name_the_docs_use_exists(doc):
    """Each name in backticks that looks like code (snake_case, CamelCase, dotted) is found in
    the library, the tests, the benchmarks or the build files."""
    names = [t for t in _backticked(doc)
             if re.fullmatch(r"[A-Za-z_][\w.]*(\(\))?", t) and t not in COUNTEREXAMPLES
             and ("_" in t.strip("_") or "." in t or re.search(r"[a-z][A-Z]", t))]
    assert names, doc
    unknown = [name for name in names if not _identifier_exists(name)]
    assert not unknown, f"{doc} names what the code does not have: {unknown}"


def test_the_name_checks_catch_a_stale_name():
    assert not _identifier_exists("OPTION_RUN_SIZES")
    assert _identifier_exists("RUN_SIZES")
    assert not _identifier_exists("fairlab.datasets.load_germen")
    assert _identifier_exists("fairlab.datasets.get_data_home")


def _apt_packages(text):
    """The packages of each ``apt-get install --no-install-recommends`` in ``text``: to the end
    of its code span, or of its line and the lines its ``\\`` continues (in a comment, too)."""
    found = []
    for match in re.finditer(r"(`?)(?:sudo )?apt-get install --no-install-recommends ", text):
        rest = text[match.end():]
        if match[1]:
            command = rest.split("`", 1)[0]
        else:
            lines = rest.split("\n")
            count = next(i for i, line in enumerate(lines) if not line.rstrip().endswith("\\"))
            command = " ".join(line.lstrip("# ") for line in lines[:count + 1])
        found.append(set(command.replace("\\", " ").split()))
    return found


def test_the_pdf_packages_are_named_alike_everywhere():
    """The PDF's Debian packages (TeX Live, its fonts, rsvg-convert for the figures): CI
    installs .ci/run's TEX_PACKAGES, and the Makefile, the README and the book name the same."""
    ci = (ROOT / ".ci" / "run").read_text()
    listed = re.search(r"^TEX_PACKAGES=\(([^)]*)\)", ci, re.M)[1].split()
    assert {"latexmk", "texlive-xetex", "librsvg2-bin"} <= set(listed)
    for name in ("Makefile", "README.md", "book/run_this_book.md"):
        found = _apt_packages((ROOT / name).read_text())
        assert found and all(packages == set(listed) for packages in found), (name, found)
