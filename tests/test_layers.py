"""The house as drawn in CONTRIBUTING.md: layers, no import cycle, no borrowed private names.

The layer contract lives in pyproject.toml (``[tool.importlinter]``) and is checked here with
import-linter; the two rules it cannot express (private names across estimator modules, cycles
among the benchmark scripts, which are not a package) are checked on the source's syntax tree.
"""

import ast
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _layer_members():
    return [[name.strip() for name in layer.replace("|", ":").split(":")]
            for layer in CONFIG["contracts"][0]["layers"]]


ESTIMATORS = [name for name in _layer_members()[3] if name != "fairlab.baselines"]


def _lint(config_file, cwd):
    """Run import-linter on ``config_file`` in a fresh interpreter, its graph built from ``cwd``."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports;"
         f"sys.exit(lint_imports(config_filename={str(config_file)!r}, no_cache=True,"
         " no_logo=True))"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_layer_contracts_hold():
    result = _lint(ROOT / "pyproject.toml", ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_contract_catches_an_upward_import(tmp_path):
    """The same kind of contract on a two-layer package whose lower layer imports the upper."""
    package = tmp_path / "house"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "upper.py").write_text("VALUE = 1\n")
    (package / "lower.py").write_text("from house.upper import VALUE\n")
    config = tmp_path / "contract.toml"
    config.write_text(textwrap.dedent("""\
        [tool.importlinter]
        root_package = "house"
        [[tool.importlinter.contracts]]
        name = "upper above lower"
        type = "layers"
        layers = ["house.upper", "house.lower"]
        """))
    result = _lint(config, tmp_path)
    assert result.returncode != 0
    assert "house.lower -> house.upper" in result.stdout


def test_every_module_of_fairlab_has_a_layer():
    """A new module or sub-package cannot escape the contract by being left out of it."""
    members = {name for layer in _layer_members() for name in layer}
    tops = {f"fairlab.{path.stem}" for path in (ROOT / "fairlab").glob("*.py")
            if path.stem not in ("__init__", "__main__")}
    tops |= {f"fairlab.{path.parent.name}" for path in (ROOT / "fairlab").glob("*/__init__.py")}
    assert tops == members


def _imports(path):
    """(module, names) for each ``from module import names`` of ``path``, resolved to absolute."""
    tree = ast.parse(path.read_text())
    package = "fairlab"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join([package, module]) if module else package
            yield module, [alias.name for alias in node.names]


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_no_estimator_borrows_another_estimators_private_name(estimator):
    path = ROOT / Path(*estimator.split(".")).with_suffix(".py")
    borrowed = [(module, name) for module, names in _imports(path) for name in names
                if module in ESTIMATORS and module != estimator and name.startswith("_")]
    assert not borrowed, f"{estimator} imports private names {borrowed}: move them to fairlab._core"


def _cycles(graph):
    """The strongly connected components of more than one node of ``graph`` (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_planted_cycle():
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_no_import_cycle_in_the_library():
    graph = grimp.build_graph("fairlab")
    edges = {module: sorted(graph.find_modules_directly_imported_by(module))
             for module in graph.modules}
    assert _cycles(edges) == []


def test_no_import_cycle_among_the_benchmarks():
    scripts = {path.stem: path for path in (ROOT / "benchmarks").glob("*.py")}
    edges = {}
    for name, path in scripts.items():
        tree = ast.parse(path.read_text())
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
        edges[name] = sorted(imported & set(scripts))
    assert _cycles(edges) == []


#: The most physical lines an experiment module may have: a room of one purpose fits on a reading.
MAX_EXPERIMENT_LINES = 700


def _physical_lines(path):
    return len(path.read_bytes().splitlines())


def test_no_experiment_module_is_over_700_lines():
    """Experiments live in rooms of one purpose (CONTRIBUTING.md): a module past the limit is a
    package of rooms waiting to be split."""
    modules = sorted((ROOT / "fairlab" / "experiments").rglob("*.py"))
    assert modules
    long = {str(path.relative_to(ROOT)): _physical_lines(path) for path in modules
            if _physical_lines(path) > MAX_EXPERIMENT_LINES}
    assert not long, f"experiment modules over {MAX_EXPERIMENT_LINES} lines: {long}"


def test_the_line_count_is_physical(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"a = 1\n\n# x\r\nb = '''\n'''")
    assert _physical_lines(path) == 5
