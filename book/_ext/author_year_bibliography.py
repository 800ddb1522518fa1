"""Author–year labels in the bibliography, matching the author–year citations in the text.

sphinxcontrib-bibtex cites "Kleindessner et al. (2023)" (``bibtex_reference_style =
author_year``) but labels the bibliography with pybtex's ``alpha`` style ("[KDRZ23]"). This
extension registers the pybtex styles ``author_year`` (labels "Kleindessner et al. 2023") and
``author_year_plain`` (the ``plain`` formatting with those labels, sorted by author and year);
``_config.yml`` selects the latter with ``bibtex_default_style``.
"""

from collections import Counter

import pybtex.plugin
from pybtex.richtext import Text
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle


def _last_name(person):
    return Text(*person.rich_last_names).render_as("text") if person.rich_last_names else ""


def _label(entry):
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_last_name(p) for p in people]
    if len(names) > 1 and names[-1] == "others":  # "and others" in the .bib: et al.
        names = names[:1] + ["", ""]
    if not names:
        authors = entry.fields.get("organization", entry.key)
    elif len(names) == 1:
        authors = names[0]
    elif len(names) == 2:
        authors = f"{names[0]} and {names[1]}"
    else:
        authors = f"{names[0]} et al."
    return f"{authors} {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabelStyle(BaseLabelStyle):
    """Labels "Author Year", "Author and Other Year", "Author et al. Year"; a, b, … on clashes."""

    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [_label(e) for e in entries]
        clashes = Counter(labels)
        seen = Counter()
        for label in labels:
            if clashes[label] > 1:
                seen[label] += 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            else:
                yield label


class AuthorYearPlainStyle(PlainStyle):
    default_label_style = AuthorYearLabelStyle
    default_sorting_style = "author_year_title"


pybtex.plugin.register_plugin("pybtex.style.labels", "author_year", AuthorYearLabelStyle)
pybtex.plugin.register_plugin("pybtex.style.formatting", "author_year_plain", AuthorYearPlainStyle)


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
