"""The package as it is released: licence, metadata, what the sdist and the wheel hold, and the
extras that error messages advise."""

import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRA = re.compile(r"fairlab\[([A-Za-z0-9_,-]+)\]")


def test_licence_declared_once_as_an_spdx_expression_with_its_file():
    project = PYPROJECT["project"]
    assert project["license"] == "BSD-3-Clause"  # a string: the SPDX expression (PEP 639)
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("BSD 3-Clause License\n")
    assert not any(c.startswith("License ::") for c in project.get("classifiers", [])), (
        "with an SPDX expression, licence classifiers are not allowed")
    setuptools = next(r for r in PYPROJECT["build-system"]["requires"] if "setuptools" in r)
    assert re.search(r">=\s*(7[7-9]|[89]\d)", setuptools), (
        "license = '<SPDX>' and license-files need setuptools 77 or newer")


def _mentioned_extras():
    texts = [(p, p.read_text()) for p in sorted((ROOT / "fairlab").rglob("*.py"))]
    texts += [(ROOT / name, (ROOT / name).read_text())
              for name in ("README.md", "CONTRIBUTING.md") if (ROOT / name).exists()]
    for path, text in texts:
        for match in EXTRA.finditer(text):
            for extra in match[1].split(","):
                yield path.relative_to(ROOT), extra


def test_every_extra_an_error_or_a_page_advises_exists():
    defined = set(PYPROJECT["project"]["optional-dependencies"])
    mentioned = list(_mentioned_extras())
    assert ("fairlab/baselines/reductions.py", "reductions") in {
        (str(p), e) for p, e in mentioned}
    unknown = [(str(p), e) for p, e in mentioned if e not in defined]
    assert not unknown, f"these name extras pyproject.toml does not define: {unknown}"


def test_the_reductions_extra_is_fairlearn_alone():
    assert [r.split(">")[0] for r in PYPROJECT["project"]["optional-dependencies"]["reductions"]
            ] == ["fairlearn"]


def test_a_missing_fairlearn_advises_the_reductions_extra(monkeypatch):
    from fairlab.baselines import ExponentiatedGradientClassifier
    from fairlab.baselines.reductions import _fairlearn_reductions

    monkeypatch.setitem(sys.modules, "fairlearn.reductions", None)  # import now fails
    with pytest.raises(ImportError, match=re.escape("pip install 'fairlab[reductions]'")):
        _fairlearn_reductions(ExponentiatedGradientClassifier())


def _tracked(folder):
    """The files git tracks under ``folder`` (relative to the repository)."""
    try:
        out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs the git checkout (its list of tracked files)")
    return {line for line in out.splitlines() if (ROOT / line).exists()}


@pytest.fixture(scope="module")
def distributions(tmp_path_factory):
    """``python -m build`` of the checkout: (sdist, wheel), the wheel built from the sdist."""
    pytest.importorskip("build", reason="python -m build needs the 'build' package (dev extra)")
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                             str(out), str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return sdist, wheel


def test_sdist_holds_the_library_and_the_licence_but_no_tests(distributions):
    sdist, _ = distributions
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml"):
        assert name in names
    assert not any(n.startswith("tests/") for n in names), (
        "the sdist leaves the tests out (they need the whole repository; MANIFEST.in)")
    library = {p for p in _tracked("fairlab") if not p.endswith((".pyc", ".gitignore"))}
    assert library - names == set(), "tracked library files missing from the sdist"


def test_wheel_holds_the_licence_and_every_module_and_data_file(distributions):
    _, wheel = distributions
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(f"{info}/METADATA").decode()
    assert f"{info}/licenses/LICENSE" in names
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Provides-Extra: reductions" in metadata
    library = {p for p in _tracked("fairlab") if not p.endswith(".gitignore")}
    assert library - names == set(), "tracked library files missing from the wheel"


def test_installed_wheel_loads_its_shipped_data(distributions, tmp_path):
    """The wheel alone (no checkout on the path) reads a shipped data set, hash-checked."""
    _, wheel = distributions
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", "--target", str(target), str(wheel)], check=True)
    code = ("import fairlab, sys; from fairlab.datasets import load_german; "
            "assert fairlab.__file__.startswith(sys.argv[1]), fairlab.__file__; "
            "print(load_german().X.shape[0])")
    result = subprocess.run([sys.executable, "-s", "-c", code, str(target)],
                            env={"PYTHONPATH": str(target)}, capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "1000"
