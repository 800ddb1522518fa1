"""The experiments and their grids of work units: which module runs an experiment, a unit's id, and
the units a selection names.
"""

import importlib

import numpy as np

#: The experiments that are grids of units, in the order of the book's chapters.
EXPERIMENTS = ("kleindessner", "kleindessner_tradeoffs", "perez_suay", "de_diego",
               "text_representations")


def _module(experiment):
    if experiment not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {list(EXPERIMENTS)}; got {experiment!r}.")
    module = importlib.import_module(f"..{experiment}", __package__)
    if not hasattr(module, "run_unit"):
        raise ValueError(f"experiment {experiment!r} does not define work units yet.")
    return module


def unit_id(experiment, key):
    """A readable, unique name of a unit: ``experiment/field=value/...`` in ``UNIT_KEYS`` order."""
    module = _module(experiment)
    missing = [name for name in module.UNIT_KEYS if name not in key]
    if missing:
        raise ValueError(f"unit key {key!r} lacks {missing}; {experiment} units have "
                         f"{list(module.UNIT_KEYS)}.")
    return "/".join([experiment, *(f"{name}={key[name]}" for name in module.UNIT_KEYS)])


def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _matches(value, wanted, printed):
    """Whether a grid value equals a ``--where`` text: numbers as numbers (``1`` is ``1.0``),
    text case-insensitively, as the key or as its printed name (``printed``)."""
    if _is_number(value):
        try:
            return float(wanted) == float(value)
        except ValueError:
            return False
    wanted = str(wanted).strip().casefold()
    return wanted in (str(value).casefold(), str(printed.get(value, value)).casefold())


def select_units(experiment, where=None):
    """The units of the paper-scale grid whose fields take the given values.

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    where : dict of str to sequence, optional
        Field of ``UNIT_KEYS`` -> accepted values (alternatives); every field must match.  A
        value may be given as text, as the command line does: numbers compare as numbers
        (``"1"`` selects η = 1.0), data sets and other names case-insensitively, as keys or as
        the experiment prints them (``"German"``, ``"german credit"``).

    Raises
    ------
    ValueError
        A field the units lack, a value no unit takes (with the values the field takes), or a
        combination that selects no unit.
    """
    module = _module(experiment)
    grid = module.units()
    where = {field: [values] if isinstance(values, (str, int, float)) else list(values)
             for field, values in (where or {}).items()}
    unknown = sorted(set(where) - set(module.UNIT_KEYS))
    if unknown:
        raise ValueError(f"{experiment} units have the fields {list(module.UNIT_KEYS)}; "
                         f"got {unknown}.")
    printed = getattr(module, "DATASETS", {})
    printed = printed if isinstance(printed, dict) else {}

    def takes(field):
        values = list(dict.fromkeys(key[field] for key in grid))
        return ", ".join(f"{v!r}" + (f" ({printed[v]})" if field == "dataset" and v in printed
                                     else "") for v in values)

    for field, values in where.items():
        names = printed if field == "dataset" else {}
        for wanted in values:
            if not any(_matches(key[field], wanted, names) for key in grid):
                raise ValueError(f"no {experiment} unit has {field}={wanted!r}; {field} takes "
                                 f"{takes(field)}.")
    chosen = [key for key in grid
              if all(any(_matches(key[field], wanted, printed if field == "dataset" else {})
                         for wanted in values) for field, values in where.items())]
    if not chosen:
        asked = "; ".join(f"{field} in {values}" for field, values in where.items())
        raise ValueError(f"no {experiment} unit has all of {asked}: each value exists, but not "
                         f"together. The fields take: "
                         + "; ".join(f"{f}: {takes(f)}" for f in where) + ".")
    return chosen


def _key_from_id(experiment, uid):
    module = _module(experiment)
    fields = dict(part.split("=", 1) for part in uid.split("/")[1:])
    return module.parse_key(fields)
