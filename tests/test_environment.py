"""The three dependency lists (pyproject, environment.yml, requirements.lock) agree."""

import re
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python >= 3.11")


def _pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in ("book", "dev"):
        reqs += project["optional-dependencies"][extra]
    return {canonicalize_name(Requirement(r).name): Requirement(r).specifier for r in reqs}


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
    for name, spec in _pyproject_requirements().items():
        assert name in pins, f"{name} is not pinned in requirements.lock"
        assert spec.contains(pins[name], prereleases=True), f"{name}=={pins[name]} violates {spec}"
