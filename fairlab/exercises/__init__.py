"""Checked exercises: say whether an answer to a "compute" exercise is right, and why.

Every "compute" exercise of the book has a check registered under the exercise's label::

    from fairlab import exercises
    exercises.check("ex-dediego-ci", (0.5, 1.1))

The check answers with a :class:`Result` (shown as one line in a notebook): right, not yet, or
no answer yet, and the reason, without giving the solution away. :func:`expected` says in what
form an answer is taken; :func:`labels` lists the exercises that have a check. A student's
notebook (``make student``) holds ``answer = ...`` in place of the solution, which the check
reads as "no answer yet", so the notebook runs from top to bottom before anything is filled in.

The checks compare with reference values at the chapter's default parameters; a chapter rerun
with other parameters gives other numbers, and the check says which defaults it assumes.
"""

from . import _checks  # noqa: F401  (registers the checks)
from ._registry import Result, check, expected, labels, register

__all__ = ["Result", "check", "expected", "labels", "register"]
