# The two commands a newcomer needs are `make book` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.fairlab-installed
NB     ?= 01_quickstart
PARAMS ?=
KERNEL ?= Sandybridge
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# Tests that run whole notebooks under papermill have "papermill" in their names.
NO_PAPERMILL := -k "not papermill"
# make test / test-unit / test-blas run one pytest worker per core (pytest-xdist; --dist loadscope
# keeps a notebook's cells, and a module's or a class's tests, in one worker: the papermill runs
# are one class per notebook, so they spread over the workers), each with single-threaded BLAS so
# the workers do not oversubscribe the cores; PARALLEL= runs serially.  That results do not depend
# on the BLAS's thread count is checked by the unit tests that set it (threadpoolctl).
PARALLEL ?= -n auto --dist loadscope
ONE_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

.PHONY: help install book student pdf test test-blas test-unit blas-info notebook bench bench-quick \
	bench-all reproduce verify-results appendix sync lint clean student-check instructor grade \
	handouts mutation

# The targets with a one-line description (## after the prerequisites).
help:  ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 24

install: $(STAMP)  ## create .venv and install fairlab with the book's and the tests' dependencies

# (Re)install whenever the dependency list or the lock changes.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint requirements.lock --editable '.[book,dev]'
	touch $(STAMP)

# Execute every notebook (cached: unchanged notebooks are not re-run) and build the HTML book
# into _build/html; any warning, broken reference or failing cell is an error.
# The student bundle comes first: the book links it (and the instructor notes read its timings).
book: $(STAMP) student  ## execute the notebooks (cached) and build the HTML book into _build/html
	$(BIN)/jupyter-book build --warningiserror --nitpick --keep-going .

# Student notebooks (every solution taken out, a cell to work in left in its place, nothing
# executed; seconds) into _build/student/notebooks, and the class bundle
# _build/student/fairlab-student.zip (the notebooks, the library, environment.yml, a README with
# the two commands); the book links the bundle. See fairlab/exercises/_student.py.
student: $(STAMP)  ## student notebooks without solutions and the class bundle (_build/student)
	$(BIN)/python -m fairlab.exercises._student . _build/student

# The class bundle as a student meets it: unzipped in a temporary folder, installed by its README's
# own command into a fresh virtual environment (pip's configured index), and every student notebook
# run from top to bottom in it, each check on its "no answer yet" path; fails on any error. Prints
# the install's time, the environment's size and each notebook's time (about 10 minutes in all).
student-check: student  ## the class bundle unzipped, installed as its README says, every notebook run
	$(BIN)/python tests/student_check.py _build/student/fairlab-student.zip --python $(PYTHON)

# The instructor bundle, never handed to students: the executed chapters with their solutions, the
# answer key (reference values, precisions, typical mistakes, what each solution printed), the
# instructor notes and the grader, and the chapters with exercises as nbgrader source notebooks
# (nbgrader/source/, cell metadata schema 3; nbgrader is not needed to write them), zipped as
# _build/instructor/fairlab-instructor.zip.
# make grade SUBMISSIONS=folder scores the student notebooks under folder (each executed, its
# checks recorded): right, wrong or missing per exercise, into grades.csv.
SUBMISSIONS ?= submissions
instructor: $(STAMP)  ## solutions, answer key, notes and grader for teachers (_build/instructor)
	$(BIN)/python -m fairlab.exercises._instructor build . _build/instructor

grade: $(STAMP)  ## score submitted student notebooks: SUBMISSIONS=folder, into grades.csv
	$(BIN)/python -m fairlab.exercises._instructor grade $(SUBMISSIONS) --csv grades.csv

# The whole book as one PDF, _build/latex/fairlab-workbench.pdf, through LaTeX (xelatex) from the
# notebooks' stored outputs, nothing executed; the notebooks' SVG figures go in as PDF through
# rsvg-convert (book/_latex/svg_figures.py). Needs TeX Live and librsvg: on Debian or Ubuntu,
# apt-get install --no-install-recommends latexmk texlive-xetex texlive-latex-extra \
#   texlive-fonts-recommended fonts-freefont-otf fonts-dejavu-core fonts-liberation librsvg2-bin
pdf: $(STAMP)  ## the whole book as one PDF (needs TeX Live)
	mkdir -p _build/pdf
	$(BIN)/python tests/book_build.py _build/pdf   # writes _build/pdf/_config.yml: execution off
	LATEXMKOPTS=-silent LATEXOPTS=-halt-on-error \
	    $(BIN)/jupyter-book build --builder pdflatex --config _build/pdf/_config.yml \
	    --warningiserror --nitpick --keep-going .
	@echo "The PDF book: _build/latex/fairlab-workbench.pdf"

# One printable handout per session of the three-session course (book/teaching.md): a cover with
# the session's chapters, minutes and homework, then its chapters with their stored outputs and
# without solutions, through LaTeX as make pdf (needs TeX Live); _build/handouts/*.pdf.
handouts: $(STAMP)  ## one handout PDF per session of the three-session course (needs TeX Live)
	$(BIN)/python -m fairlab.exercises._handouts . _build/handouts

# Unit and property tests, then every notebook re-executed and compared with its stored outputs.
test: $(STAMP)  ## unit tests and every notebook re-executed and compared (nbval)
	$(ONE_THREAD) $(BIN)/python -m pytest $(PARALLEL) $(NBVAL) tests notebooks

# The same numerical checks under another OpenBLAS kernel: make test-blas KERNEL=Sandybridge
# (Sandybridge needs AVX; Nehalem SSE4.2; ARMV8 on 64-bit ARM). OpenBLAS does not check that the
# CPU can run the kernel it is told to use: one it cannot dies with "Illegal instruction". Stops
# unless the OpenBLAS of NumPy and of SciPy both run KERNEL. Leaves out the book build and
# browser test (tests/test_book.py) and the papermill runs. The unit tests and the notebooks run
# as in make test (one single-threaded worker per core). Both parts run; the target fails if
# either does.
test-blas: $(STAMP)  ## the numerical tests and notebooks under another OpenBLAS kernel (KERNEL=...)
	OPENBLAS_CORETYPE=$(KERNEL) $(BIN)/python -c "$$BLAS_INFO" $(KERNEL)
	status=0; \
	OPENBLAS_CORETYPE=$(KERNEL) $(ONE_THREAD) $(BIN)/python -m pytest $(PARALLEL) tests \
	    --ignore=tests/test_book.py $(NO_PAPERMILL) || status=1; \
	OPENBLAS_CORETYPE=$(KERNEL) $(ONE_THREAD) $(BIN)/python -m pytest $(PARALLEL) $(NBVAL) \
	    notebooks || status=1; \
	exit $$status

# Unit and property tests only: no notebook executed, no book built (tests/test_book.py runs in
# make test); for another Python, e.g. make test-unit PYTHON=python3.13 VENV=_build/venv-py3.13
test-unit: $(STAMP)  ## unit and property tests only
	$(ONE_THREAD) $(BIN)/python -m pytest $(PARALLEL) tests --ignore=tests/test_book.py \
	    $(NO_PAPERMILL)

# Which BLAS NumPy and SciPy use, and the OpenBLAS kernel they run (OPENBLAS_CORETYPE chooses it).
blas-info: $(STAMP)  ## which BLAS NumPy and SciPy use, and its kernel
	$(BIN)/python -c "$$BLAS_INFO"

# Rerun one notebook with new parameters: make notebook NB=01_quickstart PARAMS="-p seed 3"
# (lists and dicts as YAML: PARAMS='-y "etas: [0, 1, 10]"')
notebook: $(STAMP)  ## rerun one notebook with parameters: NB=... PARAMS=...
	mkdir -p _build/papermill
	$(BIN)/papermill --cwd notebooks notebooks/$(NB).ipynb _build/papermill/$(NB).ipynb $(PARAMS)

# Paper scale as data: the work units of every experiment with a ledger (notebooks/results/<name>.csv.gz)
# that the ledger lacks, on a Dask LocalCluster with one single-threaded worker per core, or on the
# cluster FAIRLAB_SCHEDULER=tcp://host:port names; then Table 4's scores over the choices among its null
# directions (notebooks/results/kleindessner_null_directions.csv, about three minutes) and the counts of
# De-Diego et al.'s extended reading bound (notebooks/results/de_diego_reading_bound.csv, a few minutes).
# Interrupted, it resumes: finished units are kept.
# Narrow it with WHERE, e.g. make reproduce LEDGERS=kleindessner WHERE='--where dataset=german'.
# Fig. 9 of chapter 12 (running time against n) is a timing, not a ledger: the chapter runs under
# papermill into _build/reproduce/ with the paper's sizes (notebooks/params/<chapter>.yml, papermill -f),
# writing its curves and runtimes as CSV with the commit, date and machine.
LEDGERS ?= kleindessner kleindessner_tradeoffs perez_suay de_diego text_representations
WHERE   ?=
reproduce_chapter = $(BIN)/papermill --cwd notebooks notebooks/$(1).ipynb \
    _build/reproduce/$(1).ipynb -f notebooks/params/$(1).yml \
    -p results_csv $(CURDIR)/_build/reproduce/$(1).csv
reproduce: $(STAMP)  ## every paper-scale result the ledgers lack (resumable; hours)
	for ledger in $(LEDGERS); do $(BIN)/python -m fairlab.experiments run $$ledger $(WHERE) || exit 1; done
	$(ONE_THREAD) $(BIN)/python -c "from fairlab.experiments import kleindessner; \
	    kleindessner.write_null_direction_scores()"
	$(ONE_THREAD) $(BIN)/python -c "from fairlab.experiments import de_diego; \
	    de_diego.write_reading_counts()"
	$(MAKE) appendix
	mkdir -p _build/reproduce
	$(call reproduce_chapter,12_reproducing_kleindessner_tradeoffs)

# Recompute a deterministic sample of every ledger (the quickest unit of each data set and method),
# on a LocalCluster of one single-threaded worker per core (or FAIRLAB_SCHEDULER's cluster), and
# fail on any value that differs beyond the stored precision (8 significant digits). Where that
# unit took more than MAX_UNIT_SECONDS (default 60), the parts of it that its experiment names
# are rerun instead (Pérez-Suay's a9a units: one panel, each variant, three values of μ); a pair
# without such parts is listed as not verified.
verify-results: $(STAMP)  ## recompute a sample of the ledgers and compare (minutes)
	$(ONE_THREAD) $(BIN)/python -m fairlab.experiments verify \
	    $(if $(MAX_UNIT_SECONDS),--max-unit-seconds $(MAX_UNIT_SECONDS))

# The book's provenance appendix (book/appendix/*.md), generated from the ledgers and the
# benchmark table: rerun after either changes (reproduce and bench do); a test checks it.
appendix: $(STAMP)  ## regenerate the provenance appendix from the ledgers and goals.csv
	$(BIN)/python -m fairlab.experiments._appendix book/appendix

# One table of runtime ratios against each goal (scikit-learn's default solvers, the floor, the
# compared methods' former solvers, ROPTLIB's published times, the concept-erasure package's and
# fairlearn's erasers, LEACE's former whitening); then the paper-scale time of each
# ledger and the compared methods' ledger times beside the times their papers report.
# bench-quick: reduced shapes with single-threaded BLAS (the setting least disturbed by anything
# else running: two threads on a busy 2-core machine can be many times slower), failing only on
# a ratio over twice its goal (CI runs it); bench-all: every benchmark script's own tables.
bench: $(STAMP)  ## runtime ratios against scikit-learn's default solvers, beside each goal
	$(BIN)/python benchmarks/goals.py
	$(MAKE) appendix

bench-quick: $(STAMP)  ## the reduced benchmark CI runs
	$(BIN)/python benchmarks/goals.py --quick --threads 1

bench-all: $(STAMP)  ## every benchmark script's own tables
	set -e; for script in benchmarks/bench_*.py; do $(BIN)/python $$script; done

# Mutation testing (mutmut): each module listed in tests/mutation/modules.toml is mutated in a
# work folder under _build/mutation/ and its listed tests run against every mutant, two workers at
# low priority; each module's score goes to tests/mutation/scores.csv and its surviving mutants'
# diffs to _build/mutation/<module>.survivors.  Minutes for a small module, hours for all of them
# (CI does not run it): MODULES=fairlab/_core/hsic.py narrows it.
MODULES ?=
mutation: $(STAMP)  ## mutation score of the modules in tests/mutation/modules.toml (slow; MODULES=...)
	$(BIN)/python tests/mutation/run.py $(MODULES)

# Pair every notebook with its percent-format text copy notebooks/NN_topic.py (jupytext) and bring
# each pair in sync, the newer file of the two winning; a new notebook gets its copy.
sync: $(STAMP)  ## pair every notebook with its percent-format .py copy
	for nb in notebooks/*.ipynb; do \
	    if [ -f "$${nb%.ipynb}.py" ]; then $(BIN)/jupytext --sync --quiet "$$nb"; \
	    else $(BIN)/jupytext --set-formats ipynb,py:percent --quiet "$$nb"; fi || exit 1; \
	done

lint: $(STAMP)  ## ruff on the library, tests, benchmarks and the notebooks' .py copies
	$(BIN)/ruff check fairlab tests benchmarks notebooks

clean:  ## remove build outputs and caches
	rm -rf _build .pytest_cache .hypothesis .ruff_cache

# Prints one line per BLAS library loaded by NumPy and SciPy; with an argument, exits non-zero
# unless every OpenBLAS among them runs that kernel.
define BLAS_INFO
import sys
from pathlib import Path
import numpy, scipy.linalg
from threadpoolctl import threadpool_info
blas = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
for lib in blas:
    where = Path(lib["filepath"])
    print(f"{where.parent.name}/{where.name}: {lib['internal_api']} {lib['version']}, "
          f"kernel {lib.get('architecture', 'n/a')}, {lib['num_threads']} threads")
kernels = {lib["architecture"].lower() for lib in blas if lib["internal_api"] == "openblas"}
if len(sys.argv) > 1 and kernels != {sys.argv[1].lower()}:
    sys.exit(f"OPENBLAS_CORETYPE={sys.argv[1]} is not in effect; OpenBLAS runs {kernels or 'none'}")
endef
export BLAS_INFO
