"""The three dependency lists (pyproject, environment.yml, requirements.lock) agree, and so do the
Python versions that pyproject, environment.yml, the README and CI state."""

import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_requirements(here_only=False):
    """name → version range of every requirement (``here_only``: those whose environment
    marker holds on this machine, e.g. the Linux-only CPU build of xgboost)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in ("book", "dev"):
        reqs += project["optional-dependencies"][extra]
    reqs = [Requirement(r) for r in reqs]
    if here_only:
        reqs = [r for r in reqs if r.marker is None or r.marker.evaluate()]
    return {canonicalize_name(r.name): r.specifier for r in reqs}


def _environment_requirements():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    reqs = {}
    for dep in env["dependencies"]:
        entries = dep["pip"] if isinstance(dep, dict) else [dep]
        for entry in entries:
            if entry.startswith("-"):
                continue
            req = Requirement(entry)
            reqs[canonicalize_name(req.name)] = req.specifier
    return reqs


def test_environment_yml_mirrors_pyproject():
    env = _environment_requirements()
    python = env.pop("python")
    env.pop("pip")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert str(python) == project["requires-python"]
    assert env == _pyproject_requirements()


def test_environment_yml_installs_the_package_itself():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "--editable ." in pip_section


def test_lock_pins_every_dependency_within_its_range():
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)$", line.strip())
        if match:
            pins[canonicalize_name(match[1])] = match[2]
    for name, spec in _pyproject_requirements(here_only=True).items():
        assert name in pins, f"{name} is not pinned in requirements.lock"
        assert spec.contains(pins[name], prereleases=True), f"{name}=={pins[name]} violates {spec}"


def test_python_versions_agree():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    requires = pyproject["project"]["requires-python"]
    match = re.fullmatch(r">=3\.(\d+)", requires)
    assert match, f"requires-python should read '>=3.N', not {requires!r}"
    oldest = int(match[1])

    stated = re.findall(r"Python ≥ 3\.(\d+)", (ROOT / "README.md").read_text())
    assert stated == [str(oldest)], f"README states Python ≥ 3.{stated}; pyproject: {requires}"

    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python"))
    assert SpecifierSet(python.removeprefix("python")) == SpecifierSet(requires)

    assert pyproject["tool"]["ruff"]["target-version"] == f"py3{oldest}"

    # Claim what CI tests: one classifier per version from the oldest (CI's default interpreter)
    # to the newest, which .ci/run installs and unit-tests as well.
    newest = re.search(r"^NEWEST_PYTHON=3\.(\d+)", (ROOT / ".ci" / "run").read_text(), re.M)
    assert newest, ".ci/run names no NEWEST_PYTHON"
    pattern = r"Programming Language :: Python :: 3\.(\d+)"
    classified = [re.fullmatch(pattern, c) for c in pyproject["project"]["classifiers"]]
    minors = sorted(int(m[1]) for m in classified if m)
    assert minors == list(range(oldest, int(newest[1]) + 1)), (
        f"classifiers name Python 3.{minors}; CI tests 3.{oldest} to 3.{newest[1]}"
    )
    tested = re.findall(r"tested on 3\.(\d+) and 3\.(\d+)", (ROOT / "README.md").read_text())
    assert tested == [(str(oldest), newest[1])], "README's 'tested on' names other versions"
