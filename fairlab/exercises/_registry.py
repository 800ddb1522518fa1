"""The registry of exercise checks and the :class:`Result` they return."""

from __future__ import annotations

from dataclasses import dataclass

_CHECKS: dict[str, tuple] = {}


@dataclass(frozen=True)
class Result:
    """The verdict on one answer: ``correct`` is True, False, or None (no answer yet)."""

    label: str
    correct: bool | None
    message: str

    def __bool__(self):
        return bool(self.correct)

    def __repr__(self):
        verdict = {True: "right", False: "not yet", None: "no answer yet"}[self.correct]
        mark = {True: "✓", False: "✗", None: "…"}[self.correct]
        return f"{mark} {self.label}: {verdict}. {self.message}"

    __str__ = __repr__


def register(label, expects):
    """Decorator: register ``function(answer) -> (correct, message)`` as the check of ``label``.

    ``expects`` says, in one sentence, what form the answer takes (shown to a student who has
    not answered yet and in a student notebook's scaffold).
    """
    def decorate(function):
        if label in _CHECKS:
            raise ValueError(f"exercise {label!r} already has a check")
        _CHECKS[label] = (function, expects)
        return function
    return decorate


def labels():
    """The labels of the exercises that have a check, in the book's order."""
    return list(_CHECKS)


def expected(label):
    """What form the answer to exercise ``label`` takes."""
    return _lookup(label)[1]


def _lookup(label):
    if label not in _CHECKS:
        known = ", ".join(_CHECKS)
        raise ValueError(f"no check for exercise {label!r}; the checked exercises are: {known}")
    return _CHECKS[label]


def check(label, answer=...):
    """Check ``answer`` to the exercise labelled ``label``; returns a :class:`Result`.

    ``answer=...`` (the placeholder of a student notebook) or None gives "no answer yet" and
    says what form the answer takes; an answer of the wrong form (a text where numbers are
    expected, a number too large for a float, ...) gives "not yet" and says why, and so does a
    label that names no checked exercise: a check answers, it does not raise.
    """
    if not isinstance(label, str) or label not in _CHECKS:
        shown = label if isinstance(label, str) else f"{type(label).__name__} {label!r}"[:60]
        known = ", ".join(_CHECKS)
        return Result(str(shown), False, f"No checked exercise is labelled {shown!r}: the "
                      f"label is a string, one of {known}.")
    function, expects = _CHECKS[label]
    if answer is ... or answer is None:
        return Result(label, None, f"Expected: {expects}")
    try:
        correct, message = function(answer)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as err:
        reason = str(err).strip("'\"") or type(err).__name__
        return Result(label, False, f"Could not read the answer ({reason}). Expected: {expects}")
    return Result(label, bool(correct), message)
