"""Reading one printed table cell: value, standard deviation, printed decimals, bold.

The papers' sources print cells in LaTeX.  The forms met in the three papers, and a few
common others, are understood:

==========================  =====================================================
``$\\mathbf{7.78_{0.77}}$``  mean 7.78, std 0.77 in subscript, bold (Kleindessner)
``$0.3227\\pm 0.1593$``      mean ± std (De-Diego); also ``0.87 ± 0.02``, ``+-``
``12.34 (0.56)``            mean with std in parentheses
``0.3597``, ``36``          a single number (no std)
``1.2e-3``                  scientific notation; also ``1.2\\times 10^{-3}``
``$0.129^{\\star}$``         a number with a marker (star, dagger, ``*``)
``$n/a$``, ``-``            no number: mean and std are NaN
==========================  =====================================================
"""

import math
import re
from typing import NamedTuple

__all__ = ["Cell", "parse_cell", "rounded_equal"]

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:\s*\\times\s*10\^\{?[-+]?\d+\}?)?"
_WRAPPERS = re.compile(r"^\\(?:mathbf|textbf|boldsymbol|bm|mathrm|text)\s*\{(.*)\}$", re.S)
_MARKER = re.compile(r"\s*(\^\{?\\(?:star|ast|dagger|ddagger)\}?|\^\{?\*+\}?|\*+|†|‡|⋆)$")
_EMPTY = {"", "n/a", "na", "-", "--", "—", "–", "nan"}
_FORMS = [
    re.compile(rf"^(?P<mean>{_NUM})\s*_\s*\{{(?P<std>{_NUM})\}}$"),
    re.compile(rf"^(?P<mean>{_NUM})\s*(?:\\pm|±|\+/-|\+-)\s*(?P<std>{_NUM})$"),
    re.compile(rf"^(?P<mean>{_NUM})\s*\(\s*(?P<std>{_NUM})\s*\)$"),
    re.compile(rf"^(?P<mean>{_NUM})$"),
]


class Cell(NamedTuple):
    """A parsed table cell (see :func:`parse_cell`)."""

    mean: float
    std: float
    decimals: int | None
    std_decimals: int | None
    bold: bool
    marker: str


def _number(text):
    """Value and printed decimals of one number (``1.5``, ``2e-3``, ``1.2\\times 10^{-3}``)."""
    text = text.replace(" ", "")
    exponent = 0
    m = re.fullmatch(r"(.*?)\\times10\^\{?([-+]?\d+)\}?", text)
    if m:
        text, exponent = m.group(1), int(m.group(2))
    m = re.fullmatch(r"(.*?)[eE]([-+]?\d+)", text)
    if m:
        text, exponent = m.group(1), exponent + int(m.group(2))
    mantissa_decimals = len(text.split(".", 1)[1]) if "." in text else 0
    value = float(f"{text}e{exponent}") if exponent else float(text)
    return value, mantissa_decimals - exponent


def parse_cell(raw):
    """Parse a printed table cell into its mean, standard deviation and printed decimals.

    Parameters
    ----------
    raw : str
        The cell as printed, e.g. ``"$\\mathbf{7.78_{0.77}}$"``, ``"$0.29\\pm 0.1488$"``,
        ``"12.34 (0.56)"``, ``"1.2e-3"`` or ``"$n/a$"``.  Enclosing ``$...$``, bold
        wrappers (``\\mathbf{}``, ``\\textbf{}``) and a trailing marker (``^{\\star}``,
        ``*``, ``†``) are removed first; the unicode minus sign is read as ``-``.

    Returns
    -------
    Cell
        Named tuple ``(mean, std, decimals, std_decimals, bold, marker)``: ``std`` is NaN
        when none is printed; ``decimals`` is the number of printed decimals of the mean
        (``None`` for a cell without a number, negative for ``1e3``-like values), and
        ``std_decimals`` the same for the std.

    Raises
    ------
    TypeError
        If ``raw`` is not a string.
    ValueError
        If ``raw`` is none of the forms above.

    Examples
    --------
    >>> parse_cell("$\\\\mathbf{7.78_{0.77}}$")
    Cell(mean=7.78, std=0.77, decimals=2, std_decimals=2, bold=True, marker='')
    >>> parse_cell("$0.29\\\\pm 0.1488$").std
    0.1488
    """
    if not isinstance(raw, str):
        raise TypeError(f"raw must be the printed cell as a str, got {type(raw).__name__}.")
    s = raw.strip().replace("−", "-")
    if len(s) >= 2 and s.startswith("$") and s.endswith("$"):
        s = s[1:-1].strip()
    bold = False
    marker = ""
    for _ in range(3):  # wrappers and markers may nest: \mathbf{0.1^{\star}}
        m = _WRAPPERS.match(s)
        if m:
            bold = bold or not s.startswith(("\\mathrm", "\\text{"))
            s = m.group(1).strip()
        m = _MARKER.search(s)
        if m and m.start() > 0:
            marker = m.group(1).strip()
            s = s[: m.start()].strip()
    if s.lower() in _EMPTY:
        return Cell(math.nan, math.nan, None, None, bold, marker)
    for form in _FORMS:
        m = form.match(s)
        if m:
            mean, decimals = _number(m.group("mean"))
            std, std_decimals = math.nan, None
            if "std" in form.groupindex:
                std, std_decimals = _number(m.group("std"))
            return Cell(mean, std, decimals, std_decimals, bold, marker)
    raise ValueError(
        f"Cannot read the published cell raw={raw!r}: expected a number, 'mean_{{std}}', "
        "'mean \\pm std', 'mean (std)' or 'n/a', optionally in $...$ and \\mathbf{...}."
    )


def rounded_equal(value, raw, *, decimals=None):
    """Whether ``value`` rounds to the number printed in ``raw``.

    True when ``|value - printed| <= 0.5 * 10**-decimals``, i.e. when rounding ``value``
    to the printed number of decimals gives the printed mean; a value exactly half-way
    counts as equal whichever tie rule the authors used.

    Parameters
    ----------
    value : float
        Our number (NaN or ``None`` gives False).
    raw : str
        The printed cell (see :func:`parse_cell`); its mean is compared.
    decimals : int, optional
        Rounding to use instead of the decimals printed in ``raw``.  The papers print
        numbers without trailing zeros (``69.8`` for 69.80), so the decimals read from
        ``raw`` can be fewer than the authors' rounding, which makes the default lenient.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``raw`` prints no number (``n/a``, ``-``) or cannot be parsed.

    Examples
    --------
    >>> rounded_equal(7.7849, "$\\\\mathbf{7.78_{0.77}}$")
    True
    >>> rounded_equal(7.79, "7.78")
    False
    """
    cell = parse_cell(raw)
    if cell.decimals is None:
        raise ValueError(f"raw={raw!r} prints no number, so nothing can be rounded to it.")
    if value is None:
        return False
    value = float(value)
    if math.isnan(value):
        return False
    d = cell.decimals if decimals is None else int(decimals)
    half = 0.5 * 10.0 ** (-d)
    return bool(abs(value - cell.mean) <= half * (1 + 1e-9))
