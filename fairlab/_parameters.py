"""Checks of a chapter's parameters, as papermill injects them.

``make notebook NB=... PARAMS=...`` (papermill) sets a chapter's parameters from the command line:
``-p name value`` gives a number or a string, ``-y "name: [1, 2]"`` any YAML value. Papermill
checks nothing: a misspelled data set is injected as it is, and ``-p etas "[0, 1, 10]"`` injects
the *string* ``"[0, 1, 10]"``. The chapters call :func:`check_parameters` right after their
parameters cell, so that such a value is refused there, with the valid values and the fix,
instead of running on with something else or failing cells later with a message about another
name.
"""

import difflib
import numbers
from collections.abc import Set

__all__ = ["check_parameters"]


def _type_name(kind):
    return "None" if kind is type(None) else kind.__name__


def _is_instance(value, kind):
    """isinstance, where a bool is not a number and an int is also a float."""
    if kind is type(None):
        return value is None
    if isinstance(value, bool) and kind is not bool:
        return False
    if kind is int:
        return isinstance(value, numbers.Integral)
    if kind is float:
        return isinstance(value, numbers.Real)
    return isinstance(value, kind)


def _as_types(spec):
    """The tuple of types a spec names, or None when the spec is not a type (None: NoneType)."""
    items = spec if isinstance(spec, tuple) else (spec,)
    items = tuple(type(None) if item is None else item for item in items)
    if items and all(isinstance(item, type) for item in items):
        return items
    return None


def _suggestion(value, choices):
    close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _same(value, choice):
    """value == choice, where a bool equals only a bool and a string only a string."""
    if isinstance(value, bool | str) or isinstance(choice, bool | str):
        return type(value) is type(choice) and value == choice
    try:
        return bool(value == choice)
    except (TypeError, ValueError):
        return False


def _check_choice(name, value, choices):
    if not any(_same(value, choice) for choice in choices):
        valid = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name}={value!r} is not one of {valid}{_suggestion(value, choices)}")


def _check_types(name, value, types):
    if any(_is_instance(value, kind) for kind in types):
        return
    expected = " or ".join(_type_name(kind) for kind in types)
    expected = ("an " if expected[0] in "aeiou" else "a ") + expected
    if isinstance(value, str) and any(kind in (list, dict, tuple) for kind in types):
        example = value if value.strip()[:1] in "[{" else "[...]"
        raise TypeError(
            f"{name} must be {expected}, got the string {value!r}: papermill's -p passes "
            f"numbers and strings; pass lists and dicts as YAML with -y, e.g. "
            f"-y \"{name}: {example}\"")
    raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {value!r}")


def _is_choices(spec):
    return isinstance(spec, list | tuple | Set) and not isinstance(spec, str)


def check_parameters(namespace, /, **specs):
    """Refuse a chapter parameter of the wrong type or outside its choices.

    Called once after a chapter's parameters cell (and papermill's injected one), e.g.
    ``check_parameters(globals(), tradeoff_dataset=["adult", "german"], etas=list)``. Nothing is
    converted or replaced: a value passes unchanged, or the call raises.

    Parameters
    ----------
    namespace : mapping
        Where the parameters live, usually the chapter's ``globals()``.
    **specs
        For each parameter to check, by name, one of

        * a type, or a tuple of types (``None`` standing for ``type(None)``): the value must be an
          instance of one of them. A bool is not an ``int`` nor a ``float``; an ``int`` is also a
          ``float``. A string where a ``list`` or ``dict`` is expected gets the advice to pass
          it with ``-y``.
        * a list, tuple or set of allowed values: the value must equal one of them (a string must
          match exactly; the message names the closest valid value, found by
          :func:`difflib.get_close_matches`).
        * a pair ``(list, choices)``: the value must be a list, each of its items one of
          ``choices``.

    Raises
    ------
    TypeError
        A value of another type, e.g. the string ``"[0, 1, 10]"`` where a list is expected.
    ValueError
        A value outside its choices (``"germen"``: "did you mean 'german'?"), or a spec naming
        a parameter that ``namespace`` lacks.

    Examples
    --------
    >>> from fairlab import check_parameters
    >>> check_parameters({"dataset": "german", "etas": [0, 1]},
    ...                  dataset=["adult", "german"], etas=list)
    >>> check_parameters({"dataset": "germen"}, dataset=["adult", "german"])
    Traceback (most recent call last):
    ...
    ValueError: dataset='germen' is not one of 'adult', 'german'; did you mean 'german'?
    """
    for name, spec in specs.items():
        if name not in namespace:
            raise ValueError(f"check_parameters: there is no parameter named {name!r}")
        value = namespace[name]
        if (isinstance(spec, tuple) and len(spec) == 2 and spec[0] is list
                and _is_choices(spec[1])):
            _check_types(name, value, (list,))
            for i, item in enumerate(value):
                _check_choice(f"{name}[{i}]", item, list(spec[1]))
        elif (types := _as_types(spec)) is not None:
            _check_types(name, value, types)
        elif _is_choices(spec) and spec:
            _check_choice(name, value, list(spec))
        else:
            raise TypeError(
                f"check_parameters: the spec of {name} must be a type, a tuple of types, a "
                f"collection of allowed values or (list, choices); got {spec!r}")
