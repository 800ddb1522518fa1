"""The API pages (book/api.md, book/api/*.md) document every public name.

Public: each name in ``__all__`` of ``fairlab`` and of its public sub-packages. A name is
documented by a directive naming it (``autoclass``, ``autofunction``, ``autoexception``,
``autodata``, ``py:data``), by the members of an ``automodule`` of its module (a function or
class with a docstring, or a constant with a ``#:`` doc comment in that module's own source;
autodoc leaves out constants re-exported without one), or,
for a sub-module, by an ``automodule`` of it. tests/test_book.py checks the built book's
inventory (objects.inv) against the same names.
"""

import functools
import importlib
import inspect
import re
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "book" / "api.md", *sorted((ROOT / "book" / "api").glob("*.md"))]
PUBLIC_MODULES = ["fairlab", "fairlab.metrics", "fairlab.baselines", "fairlab.datasets",
                  "fairlab.published", "fairlab.experiments", "fairlab.exercises",
                  "fairlab.evaluation", "fairlab.plotting"]
DIRECTIVE = re.compile(r"^\.\. (auto\w+|py:\w+):: (\S+)\n((?:   :[^\n]*\n(?:      [^\n]*\n)*)*)",
                       re.M)


def public_names():
    """Every public name as its documented path, e.g. ``fairlab.published.Cell``."""
    return [f"{module}.{name}" for module in PUBLIC_MODULES
            for name in importlib.import_module(module).__all__]


def _directives():
    for page in PAGES:
        for kind, target, options in DIRECTIVE.findall(page.read_text()):
            parsed = {}
            for match in re.finditer(r"   :([\w-]+):([^\n]*(?:\n      [^\n]*)*)", options):
                parsed[match[1]] = {w for w in re.split(r"[\s,]+", match[2]) if w}
            yield page, kind, target, parsed


@functools.cache
def _attribute_docs(module):
    """The ``#:`` doc comments of a module's own constants, as autodoc reads them."""
    from sphinx.pycode import ModuleAnalyzer

    return ModuleAnalyzer.for_module(module).find_attr_docs()


def _documented(path):
    module, name = path.rsplit(".", 1)
    obj = getattr(importlib.import_module(module), name)
    for _, kind, target, options in _directives():
        if "module" in options:  # .. py:data:: NAME with :module: M
            target = f"{min(options['module'])}.{target}"
        if target == path and kind != "automodule":
            return True
        if kind == "automodule" and isinstance(obj, types.ModuleType) and target == path:
            return True
        if kind == "automodule" and target == module and "members" in options:
            listed, excluded = options["members"], options.get("exclude-members", set())
            if name in excluded or isinstance(obj, types.ModuleType):
                continue
            if name not in (listed or importlib.import_module(module).__all__):
                continue
            if (inspect.isclass(obj) or inspect.isroutine(obj)) and inspect.getdoc(obj):
                return True
            if ("", name) in _attribute_docs(module):  # a constant with a #: comment
                return True
    return False


def test_the_pages_are_found():
    assert any(kind == "automodule" for _, kind, _, _ in _directives())
    assert "fairlab.FairPCA" in public_names()


@pytest.mark.parametrize("path", public_names())
def test_every_public_name_has_an_entry(path):
    assert _documented(path), (
        f"{path} is on no API page: add it to book/api/ (an autoclass/autofunction, a member "
        "of an automodule, or an autodata with a description for a constant)")


@pytest.mark.parametrize("path", public_names())
def test_every_public_class_and_function_has_a_docstring(path):
    module, name = path.rsplit(".", 1)
    obj = getattr(importlib.import_module(module), name)
    if inspect.isclass(obj) or inspect.isroutine(obj) or isinstance(obj, types.ModuleType):
        assert (obj.__doc__ or "").strip(), f"{path} has no docstring"


def test_every_api_page_is_in_the_table_of_contents():
    toc = (ROOT / "_toc.yml").read_text()
    for page in PAGES:
        entry = page.relative_to(ROOT).with_suffix("").as_posix()
        assert f"file: {entry}\n" in toc, f"{entry} is not in _toc.yml"


def test_a_name_left_out_is_caught(monkeypatch):
    """Planted: a public function that no page names, and a constant on no autodata."""
    import fairlab.metrics

    def planted():
        """A planted function."""

    monkeypatch.setattr(fairlab.metrics, "planted", planted, raising=False)
    assert not _documented("fairlab.metrics.planted")  # automodule :members: would show it...
    monkeypatch.setattr(fairlab.metrics, "__all__", [*fairlab.metrics.__all__, "planted"])
    assert _documented("fairlab.metrics.planted")  # ...once it is in __all__
    monkeypatch.setattr(fairlab.metrics, "PLANTED_CONSTANT", 3, raising=False)
    assert not _documented("fairlab.metrics.PLANTED_CONSTANT")


def test_the_values_the_pages_print_are_current():
    """A constant documented with ``py:data`` and ``:value:`` shows the value it has."""
    shown = [(f"{m[2]}.{m[1]}", m[3]) for page in PAGES for m in re.finditer(
        r"^\.\. py:data:: (\S+)\n   :module: (\S+)\n   :value: ([^\n]*)\n", page.read_text(),
        re.M)]
    assert shown
    for path, value in shown:
        module, name = path.rsplit(".", 1)
        assert repr(getattr(importlib.import_module(module), name)) == value, (
            f"{path} is {getattr(importlib.import_module(module), name)!r}, not {value}")


def test_constants_are_named_by_their_module_option():
    """``.. py:data:: fairlab.published.PAPERS`` after an automodule of fairlab.published would
    be indexed as fairlab.published.fairlab.published.PAPERS: a bare name and ``:module:``."""
    for page, kind, target, options in _directives():
        if kind == "py:data":
            assert "." not in target and "module" in options, f"{page.name}: {target}"
