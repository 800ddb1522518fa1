"""The PDF book and the handouts keep the notebooks' figures, which the notebooks store as SVG
only: LaTeX's build takes the SVG (not the figure's text form) and book/_latex/svg_figures.py
turns it into a PDF, which LaTeX includes."""

import importlib.util
import shutil
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402

from fairlab import plotting  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _extension():
    spec = importlib.util.spec_from_file_location("svg_figures",
                                                  ROOT / "book" / "_latex" / "svg_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_latex_build_renders_the_svg_not_the_text_form():
    from myst_nb.core.render import base_render_priority

    sphinx = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]
    assert sphinx["local_extensions"]["svg_figures"] == "book/_latex"
    priority = base_render_priority()["latex"]
    for builder, mime, rank in sphinx["config"]["nb_mime_priority_overrides"]:
        if builder == "latex":
            priority[mime] = rank
    # a figure's output holds its SVG and "<Figure size ...>": the lower rank is rendered
    assert priority["image/svg+xml"] < priority["text/plain"]
    assert _extension().SvgToPdf.conversion_rules == [("image/svg+xml", "application/pdf")]


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert (Debian's librsvg2-bin) is not installed")
def test_a_figure_becomes_a_pdf_with_its_labels_as_text(tmp_path):
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("projected coordinate")
    svg = tmp_path / "figure.svg"
    svg.write_text(plotting.figure_svg(fig))
    plt.close(fig)
    pdf = tmp_path / "figure.pdf"
    _extension().svg_to_pdf(svg, pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        assert "projected coordinate" in text
