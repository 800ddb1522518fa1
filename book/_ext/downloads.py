"""The book's two downloads, the class bundle and the PDF, and the chapters' run times, as MyST
substitutions.

When the configuration is loaded, this extension writes the student notebooks and the class
bundle (``fairlab.exercises._student.build``: seconds, nothing executed) into
``_build/student/`` of the book's source folder, so every build links a bundle made from the
chapters it renders, and sets the substitutions that the pages use:

* ``{{ student_bundle }}``: a download link to ``_build/student/fairlab-student.zip`` (Sphinx
  copies the file into the built site);
* ``{{ run_time_NN }}``: how long chapter NN took when its notebook was last executed
  (``fairlab.exercises._student.run_time_substitutions``), which its "Time" line quotes;
* ``{{ reading_NN }}``: the minutes to present chapter NN's prose at the course plans' pace
  (``fairlab.exercises._student.reading_substitutions``), which the teaching page's table quotes;
* ``{{ pdf_book }}``: a download link to ``_build/latex/fairlab-workbench.pdf`` when ``make pdf``
  has built it (CI does where TeX Live is installed) and otherwise a sentence saying how to build
  it, so the page never links to a file the site does not hold.

* ``{{ handout_N }}``: a download link to the printable handout of session N of the
  three-session course (``make handouts``) when it has been built, otherwise how to build it;
* ``{{ solution_<label> }}`` (``-`` as ``_``): what the solution cell of each checked exercise
  printed when its chapter was last executed, which the instructor notes quote.

The instructor notes read the chapters' timings from the same folder (``timings.csv``,
``sessions.csv``), and the teaching page the minutes of each session (``plans.csv``).
"""

from pathlib import Path

BUNDLE = "_build/student/fairlab-student.zip"
PDF = "_build/latex/fairlab-workbench.pdf"
HANDOUTS = "_build/handouts"


def _configure(app, config):
    from fairlab.exercises import _instructor, _student

    root = Path(app.srcdir)
    _student.build(root, root / "_build" / "student")
    substitutions = dict(config.myst_substitutions or {})
    substitutions.update(_student.run_time_substitutions(root))
    substitutions.update(_student.reading_substitutions(root))
    substitutions.update(_instructor.solution_substitutions(root))
    substitutions["student_bundle"] = (
        f"{{download}}`fairlab-student.zip </{BUNDLE}>` (the student notebooks, the library "
        "and a README with the two commands that install and open them)")
    if (root / PDF).is_file():
        substitutions["pdf_book"] = f"{{download}}`the whole book as one PDF </{PDF}>`"
    else:
        substitutions["pdf_book"] = (
            "the whole book as one PDF, which this copy of the site does not include: `make pdf` "
            "builds it where TeX Live is installed ({doc}`/book/run_this_book` says how)")
    for number in (1, 2, 3):  # the three-session course's handouts (make handouts)
        handout = f"{HANDOUTS}/handout-session-{number}.pdf"
        substitutions[f"handout_{number}"] = (
            f"{{download}}`handout-session-{number}.pdf </{handout}>`"
            if (root / handout).is_file() else
            "`make handouts` prints it where TeX Live is installed")
    config.myst_substitutions = substitutions


def setup(app):
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
