"""The PDF book (``make pdf``): numbering as in the HTML book, and layout LaTeX needs help with.

The LaTeX builder numbers chapters with LaTeX's own counter, so the front matter would become
Chapters 1-3 and every later chapter would be three ahead of its HTML number; and
sphinx-jupyterbook-latex numbers propositions, exercises and figures per *section*
("Proposition 4.4.1") where the HTML book numbers them per chapter ("Proposition 4.1").  This
extension does nothing for other builders.

- Each chapter of the PDF starts with ``\\fairlabchapter{n}`` (book/_latex/fairlabbook.sty),
  its number in the HTML book, or ``\\fairlabunnumbered`` when it has none (front and back
  matter).
- Propositions, exercises and figures are numbered per chapter, as in the HTML book.
- A reference to an exercise reads "Exercise 4.1" and links to the exercise: sphinx-exercise
  labels exercises ``exercise:<label>`` in LaTeX, which Sphinx's own number references miss.

It also lays out what LaTeX cannot fit by itself:

- The introduction (the root document, whose title sphinx-jupyterbook-latex drops) gets an
  unnumbered chapter heading and page headers.
- A text output that prints a table wider than the page is set in a smaller font, down to
  60 %, before its lines are wrapped: ``\\fairlabfitverbatim{<longest line in characters>}``.
- A table too long for one page becomes a longtable (which breaks across pages), its column
  widths weighted by their contents.
- A chapter left empty once Sphinx has moved the bibliography to the end (the References page)
  is dropped, and the bibliography takes its title and labels.
"""

import math
import re
import unicodedata

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.latex.nodes import thebibliography
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.texescape import escape
from sphinx_exercise.nodes import exercise_enumerable_node
from sphinx_jupyterbook_latex.nodes import CellOutput


class ChapterNumbers(SphinxPostTransform):
    """Tell LaTeX the HTML book's number (or none) of each chapter."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        secnumbers = self.env.toc_secnumbers
        # The chapters are the documents of the root's table of contents; the others are pages
        # inside a chapter (the API reference's modules).
        chapters = set(self.env.toctree_includes.get(self.config.root_doc, ()))
        for start in self.document.findall(addnodes.start_of_file):
            if start["docname"] not in chapters:
                continue
            number = secnumbers.get(start["docname"], {}).get("")
            if number:
                latex = f"\\fairlabchapter{{{number[0]}}}\n"
            else:
                latex = "\\fairlabunnumbered\n"
            start.insert(0, nodes.raw("", latex, format="latex"))


class IntroductionHeading(SphinxPostTransform):
    """Start the PDF with the root document's title as an unnumbered chapter."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        root = self.config.root_doc
        if self.document.get("docname", root) != root or root not in self.env.titles:
            return
        title = escape(self.env.titles[root].astext())
        latex = f"\\fairlabunnumbered\\chapter{{{title}}}\n"
        self.document.insert(0, nodes.raw("", latex, format="latex"))


class ProofTitles(SphinxPostTransform):
    """Let sphinx-proof find the document of a proposition under a title with an apostrophe.

    sphinx-proof looks for the enclosing chapter by comparing the chapter's names with its
    title, which smart quotes have changed ("machine's" became "machine’s"), and otherwise
    labels and numbers the proposition as if it were in no document.
    """

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        for section in self.document.findall(nodes.section):
            docname = section.get("docname")
            if docname in self.env.titles:
                name = self.env.titles[docname].astext().lower()
                if name not in section["names"]:
                    section["names"].append(name)


class WideOutputs(SphinxPostTransform):
    """Shrink the font of text outputs whose longest line is wider than the page."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        for block in list(self.document.findall(nodes.literal_block)):
            if not any(isinstance(parent, CellOutput) or "cell_output" in parent.get("classes", ())
                       for parent in _ancestors(block)):
                continue
            lines = block.astext().splitlines()
            width = max(map(_columns, lines), default=0)
            # A printed table has several wide lines with columns aligned by runs of spaces;
            # prose and messages read better wrapped than shrunk.
            if sum(_columns(line) >= 0.8 * width and _ALIGNED.search(line) is not None
                   for line in lines) < 3:
                continue
            index = block.parent.index(block)
            block.parent.insert(index + 1, nodes.raw("", "\\endgroup\n", format="latex"))
            block.parent.insert(index, nodes.raw(
                "", f"\\begingroup\\fairlabfitverbatim{{{width}}}\n", format="latex"))


class LongTables(SphinxPostTransform):
    """Let tables longer than about a page break across pages, with column widths by content."""

    default_priority = 900
    formats = ("latex",)
    max_characters = 3000   # about a page of a table in the table font
    max_rows = 30           # Sphinx makes longer tables longtables anyway

    def run(self, **kwargs):
        for table in self.document.findall(nodes.table):
            rows = list(table.findall(nodes.row))
            if len(rows) <= self.max_rows and len(table.astext()) <= self.max_characters:
                continue
            colspecs = list(table.findall(nodes.colspec))
            cells = [[] for _ in colspecs]
            for row in rows:
                entries = [entry for entry in row.children if isinstance(entry, nodes.entry)]
                if len(entries) == len(colspecs):
                    for column, entry in zip(cells, entries):
                        column.append(entry.astext())
            for colspec, column in zip(colspecs, cells):
                words = [len(word) for text in column for word in text.split()]
                longest_word = max(words, default=1)
                weight = max(math.sqrt(sum(map(len, column))), 1.3 * min(longest_word, 20), 4)
                colspec["colwidth"] = round(10 * weight)
            classes = [c for c in table["classes"] if c != "colwidths-auto"]
            table["classes"] = classes + ["colwidths-given", "longtable"]


class EmptyChapters(SphinxPostTransform):
    """Drop a chapter that is only a title once its bibliography went to the end of the book."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        bibliography = next(iter(self.document.findall(thebibliography)), None)
        if bibliography is None:
            return
        for start in list(self.document.findall(addnodes.start_of_file)):
            sections = [child for child in start.children if isinstance(child, nodes.section)]
            if len(sections) != 1 or _text(start) != _text(sections[0][0]):
                continue
            section = sections[0]
            docname = start["docname"]
            ids = dict.fromkeys([":doc", *section["ids"]])   # Sphinx's document label and others
            labels = [f"{docname}:{id_}" for id_ in ids]
            latex = (f"\\renewcommand\\bibname{{{escape(section[0].astext())}}}\\phantomsection"
                     + "".join(f"\\label{{\\detokenize{{{label}}}}}" for label in labels) + "\n")
            start.parent.remove(start)
            bibliography.parent.insert(bibliography.parent.index(bibliography),
                                       nodes.raw("", latex, format="latex"))


class ExerciseReferences(SphinxPostTransform):
    """Write resolved references to numbered exercises with their number and link."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs):
        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for ref in list(self.document.findall(addnodes.number_reference)):
            label = ref.get("refid") or ref.get("refuri", "").rpartition("#")[2]
            target = registry.get(label)
            if target is None or not isinstance(target.get("node"), exercise_enumerable_node):
                continue
            latex = f"\\hyperref[exercise:{label}]{{{escape(ref.astext())}}}"
            ref.replace_self(nodes.raw("", latex, format="latex"))


def number_per_chapter(app):
    """Undo sphinx-jupyterbook-latex's per-section numbering, set when the builder starts."""
    if app.builder.format == "latex":
        app.config.numfig_secnum_depth = 1


_ALIGNED = re.compile(r"\S {2,}\S")


def _text(node):
    """The text of a node without the LaTeX inserted here."""
    return "".join(text.astext() for text in node.findall(nodes.Text)
                   if not isinstance(text.parent, nodes.raw)).strip()


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def _columns(line):
    """Width of a line in a monospaced font: combining accents take no column."""
    return sum(not unicodedata.combining(char) for char in line.expandtabs())


def setup(app):
    app.connect("builder-inited", number_per_chapter, priority=900)
    app.add_post_transform(ChapterNumbers)
    app.add_post_transform(IntroductionHeading)
    app.add_post_transform(ProofTitles)
    app.add_post_transform(WideOutputs)
    app.add_post_transform(LongTables)
    app.add_post_transform(EmptyChapters)
    app.add_post_transform(ExerciseReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
