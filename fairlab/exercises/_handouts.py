"""Printable handouts: one PDF per session of a course of the teaching page (``make handouts``).

``python -m fairlab.exercises._handouts [ROOT] [OUT] [--course "three sessions"]`` writes, per
session of the course (:data:`fairlab.exercises._student.PLANS`), a small book into
``OUT/session-N/``: a cover page (the session's chapters, its minutes and homework, from
:func:`fairlab.exercises._student.plans`) and the session's chapters with their stored outputs
(figures and tables) but without solutions, as in the student notebooks; builds it with
jupyter-book's LaTeX builder (xelatex, the book's configuration, nothing executed) and copies the
PDF to ``OUT/handout-session-N.pdf``. Needs TeX Live as ``make pdf`` does. Cross-references to
chapters outside the session are left unresolved (the handout is not the book), so the build does
not treat warnings as errors; it fails when no PDF comes out.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import _student


def _config(root, folder, title):
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text())
    config["title"] = title
    config["only_build_toc_files"] = True
    config["execute"]["execute_notebooks"] = "off"
    config["bibtex_bibfiles"] = [str(root / path) for path in config.get("bibtex_bibfiles", [])]
    sphinx = config["sphinx"]
    local = dict(sphinx.get("local_extensions") or {})
    local.pop("downloads", None)  # builds the class bundle from its source folder: not here
    local.pop("repository_links", None)
    sphinx["local_extensions"] = {name: str(root / path) for name, path in local.items()}
    extra = sphinx["config"]
    extra["latex_additional_files"] = [str(root / p) for p in extra.get("latex_additional_files",
                                                                        [])]
    extra["html_static_path"] = [str(root / p) for p in extra.get("html_static_path", [])]
    stem = folder.name
    config["latex"]["latex_documents"] = {"targetname": f"{stem}.tex"}
    (folder / "_config.yml").write_text(yaml.safe_dump(config, allow_unicode=True))


def _cover(course, number, plan, row, titles):
    joint = " or " if plan.get("one_of") else ", "
    lines = [f"# Session {number} of the course in {course}", "",
             "Chapters: " + joint.join(f"{c}. {titles[c]}" for c in plan["chapters"]) + ".", "",
             f"Minutes: lecture {row['lecture']}, running the notebooks {row['run']}, lab "
             f"{row['lab']}, discussion {row['discussion']}; {row['total']} in all.", "",
             "Homework: " + ", ".join(f"`{label}`" for label in row["homework"].split(", "))
             + " (the checked exercises end with `exercises.check`).", ""]
    return "\n".join(lines)


def build(root=".", out=None, course="three sessions", *, latex=True):
    """Write the handouts of ``course``; returns the paths of the PDFs (or of the sources when
    ``latex`` is False)."""
    import yaml

    root = Path(root).resolve()
    out = Path(out) if out is not None else root / "_build" / "handouts"
    if course not in _student.PLANS:
        raise ValueError(f"course must be one of {list(_student.PLANS)}; got {course!r}")
    substitutions = _student._substitutions(root)
    paths = {int(p.name[:2]): p for p in _student.chapters(root)}
    titles = {c: _student._title(json.loads(p.read_text())) for c, p in paths.items()}
    rows = [r for r in _student.plans(root) if r["course"] == course]
    made = []
    for number, (plan, row) in enumerate(zip(_student.PLANS[course], rows), start=1):
        folder = out / f"session-{number}"
        if folder.exists():
            shutil.rmtree(folder)
        (folder / "notebooks").mkdir(parents=True)
        (folder / "index.md").write_text(_cover(course, number, plan, row, titles))
        chapters = []
        for chapter in plan["chapters"]:
            source = paths[chapter]
            notebook = _student.student_notebook(json.loads(source.read_text()), substitutions,
                                                 keep_outputs=True)
            (folder / "notebooks" / source.name).write_text(json.dumps(notebook))
            chapters.append({"file": f"notebooks/{source.stem}"})
        toc = {"format": "jb-book", "root": "index", "chapters": chapters}
        (folder / "_toc.yml").write_text(yaml.safe_dump(toc))
        _config(root, folder, f"Session {number}: fairlab workbench")
        if not latex:
            made.append(folder)
            continue
        jupyter_book = Path(sys.executable).parent / "jupyter-book"
        result = subprocess.run([str(jupyter_book), "build", str(folder), "--builder", "pdflatex",
                                 "--keep-going", "-q"], capture_output=True, text=True,
                                env={**os.environ, "LATEXMKOPTS": "-silent"})
        pdf = folder / "_build" / "latex" / f"{folder.name}.pdf"
        if not pdf.is_file():
            raise RuntimeError(f"no PDF for session {number}:\n{result.stdout[-3000:]}\n"
                               f"{result.stderr[-3000:]}")
        target = out / f"handout-session-{number}.pdf"
        shutil.copyfile(pdf, target)
        made.append(target)
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--course", default="three sessions")
    args = parser.parse_args(argv)
    for path in build(args.root, args.out, args.course):
        print(f"handout: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
