"""The notebooks' SVG figures in the PDF book and the handouts (``make pdf``, ``make handouts``).

The chapters store their figures as SVG only (:func:`fairlab.plotting.book_style`), and LaTeX
includes PDF, PNG and JPEG but not SVG; myst-nb's LaTeX output therefore skips the figure and
prints its text form ("<Figure size ...>") instead.  ``_config.yml`` lets myst-nb pick the SVG
for LaTeX (``nb_mime_priority_overrides``), and this extension converts each one to a PDF with
``rsvg-convert`` (Debian's ``librsvg2-bin``, installed with TeX Live): the figure stays vector
graphics and its labels stay text, searchable in the PDF as in the HTML book.

Without ``rsvg-convert`` a LaTeX build stops at once with the command that installs it, rather
than turning out a PDF without figures.  Other builders are left alone.
"""

import shutil
import subprocess

from sphinx.errors import ExtensionError
from sphinx.transforms.post_transforms.images import ImageConverter

RSVG_CONVERT = "rsvg-convert"
INSTALL_HINT = "on Debian or Ubuntu: apt-get install --no-install-recommends librsvg2-bin"


class SvgToPdf(ImageConverter):
    """SVG to PDF with ``rsvg-convert`` for the builders that include PDF but not SVG."""

    conversion_rules = [("image/svg+xml", "application/pdf")]

    def is_available(self):
        return shutil.which(RSVG_CONVERT) is not None

    def convert(self, _from, _to):
        svg_to_pdf(_from, _to)
        return True


def svg_to_pdf(source, target):
    """Write the SVG file ``source`` as the PDF file ``target``, at the SVG's own size."""
    subprocess.run([RSVG_CONVERT, "--format=pdf", f"--output={target}", str(source)], check=True,
                   capture_output=True)


def require_converter(app):
    """Stop a LaTeX build that would lose every figure."""
    if app.builder.format == "latex" and shutil.which(RSVG_CONVERT) is None:
        raise ExtensionError(f"the PDF's figures are SVG and need {RSVG_CONVERT} ({INSTALL_HINT})")


def setup(app):
    app.add_post_transform(SvgToPdf)
    app.connect("builder-inited", require_converter)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
