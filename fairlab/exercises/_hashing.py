"""Salted digests of answers, so that a check can recognise an answer without holding it.

A check never compares an answer with a stored value. It reduces the answer to *bins* at the
exercise's stated precision (a number ``v`` at step ``q`` falls in bin ``k = floor(v / q + 1/2)``)
and compares salted digests: the answer is taken when the digest of its bins, or of a
neighbouring bin of each number, equals the stored digest of the reference's bins. A number
within ``q`` of the reference is therefore always taken, one farther than ``1.5 q`` never (the
reference ± twice the step is refused). Typical mistakes are recognised the same way, under
their own *role*, to give their hint.

Stored are only the salt and, per exercise and role, the digest (:func:`table`): the student
bundle ships them as ``_hashes.json``, written at build time from the instructor's reference
values (the module ``_key``, which the bundle leaves out). In the book's checkout, which has
``_key``, the table is computed from it when first needed.

The digest is PBKDF2-HMAC-SHA256 (:func:`hashlib.pbkdf2_hmac`) with an iteration count that
makes one check cost about :data:`WORK` iterations whatever the number of candidate bins, so
that trying every bin of a plausible range offline costs seconds to minutes per exercise, and
a joint answer of several numbers (digested together) is out of reach.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from functools import lru_cache
from pathlib import Path

WORK = 40_000        # PBKDF2 iterations spent on one role of one check, over all its candidates
HASHES = Path(__file__).with_name("_hashes.json")
_CHECKOUT_SALT = "fairlab-book"  # the checkout's table (the bundle's salt is drawn at build time)


def bins(values, steps):
    """The bin index of each number at its step (a string stays itself, normalised)."""
    out = []
    for value, step in zip(values, steps, strict=True):
        if step is None:
            out.append(str(value))
        else:
            out.append(math.floor(float(value) / step + 0.5))
    return out


def _candidates(values, steps):
    """Every combination of each number's bin and its two neighbours (strings: themselves)."""
    choices = []
    for k, step in zip(bins(values, steps), steps, strict=True):
        choices.append((k,) if step is None else (k - 1, k, k + 1))
    return itertools.product(*choices)


def _iterations(steps):
    n = 3 ** sum(step is not None for step in steps)
    return max(1, WORK // n)


def digest(label, role, bin_tuple, steps, salt):
    """The salted digest of one tuple of bins of ``label``'s answer under ``role``."""
    token = "|".join([label, role, *map(str, bin_tuple)]).encode()
    return hashlib.pbkdf2_hmac("sha256", token, salt.encode(), _iterations(steps)).hex()


def make_table(references, steps, salt):
    """``{"salt": salt, "digests": {label: {role: digest}}}`` from the instructor's key
    ``references = {label: {role: values}}`` and the checks' precisions
    ``steps = {label: {role: steps}}`` (every role of the key needs its steps)."""
    digests = {}
    for label, by_role in references.items():
        digests[label] = {}
        for role, values in by_role.items():
            try:
                role_steps = steps[label][role]
            except KeyError:
                raise ValueError(f"no precision declared for {label!r}, role {role!r}") from None
            digests[label][role] = digest(label, role, bins(values, role_steps), role_steps, salt)
    return {"salt": salt, "digests": digests}


@lru_cache(maxsize=1)
def table():
    """The digests the checks compare with: the bundle's ``_hashes.json``, else the key's."""
    if HASHES.exists():
        return json.loads(HASHES.read_text())
    from . import _key  # the instructor's reference values: not in the student bundle
    from ._precision import STEPS

    return make_table(_key.references(), STEPS, _CHECKOUT_SALT)


def matches(label, role, values):
    """Whether ``values`` fall in or beside the bins stored for ``label``/``role`` (at the
    precision ``_precision.STEPS`` declares for them). False where nothing is stored for that role.
    """
    from ._precision import STEPS

    steps = STEPS[label][role]
    stored = table()["digests"].get(label, {}).get(role)
    if stored is None:
        return False
    salt = table()["salt"]
    return any(digest(label, role, candidate, steps, salt) == stored
               for candidate in _candidates(values, steps))


def roles(label):
    """The roles stored for ``label`` (``"answer"`` and the typical mistakes)."""
    return list(table()["digests"].get(label, {}))
