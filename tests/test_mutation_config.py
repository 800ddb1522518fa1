"""The mutation-testing configuration (tests/mutation/): every listed module and test file exists,
and every recorded equivalent mutant names a function of a listed module and says why."""

import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "mutation"


def _run_module():
    spec = importlib.util.spec_from_file_location("mutation_run", HERE / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_listed_module_and_test_file_exists():
    listed = tomllib.loads((HERE / "modules.toml").read_text())["modules"]
    assert listed
    for module, entry in listed.items():
        assert (ROOT / module).is_file(), module
        assert entry["tests"], module
        for path in [*entry["tests"], *entry.get("also_copy", [])]:
            assert (ROOT / path).exists(), (module, path)


def test_every_equivalent_mutant_names_a_listed_function_and_a_reason():
    run = _run_module()
    listed = {m.removesuffix(".py").replace("/", ".") for m in run.load_modules()}
    entries = tomllib.loads(run.EQUIVALENT.read_text())["equivalent"]
    for entry in entries:
        assert set(entry) == {"function", "mutant", "why"}, entry
        module = next((m for m in listed if entry["function"].startswith(m + ".")), None)
        assert module, entry["function"]
        name = entry["function"].removeprefix(module + ".").split(".")
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text()
        assert f"def {name[-1]}(" in source, entry["function"]
        assert entry["mutant"].strip() and entry["why"].strip(), entry


def test_mutant_keys_do_not_depend_on_mutmut_numbering():
    run = _run_module()
    assert run.function_of("fairlab._core.hsic.x__pivoted_cholesky__mutmut_13") == (
        "fairlab._core.hsic._pivoted_cholesky")
    assert run.function_of("fairlab.exercises._hashing.x_bins__mutmut_2") == (
        "fairlab.exercises._hashing.bins")
    assert run.function_of("fairlab._core.covariance_gap.xǁ_RowGroupsǁ__init____mutmut_1") == (
        "fairlab._core.covariance_gap._RowGroups.__init__")
    diff = "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x  / 2\n+    return x  * 2"
    assert run.mutated_line(diff) == "return x * 2"
