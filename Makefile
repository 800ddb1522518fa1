# The two commands a newcomer needs are `make book` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.fairlab-installed
NB     ?= 00_quickstart
PARAMS ?=
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: install book test notebook bench lint clean

install: $(STAMP)

# (Re)install whenever the dependency list or the lock changes.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint requirements.lock --editable '.[book,dev]'
	touch $(STAMP)

# Execute every notebook (cached: unchanged notebooks are not re-run) and build the HTML book
# into _build/html; any warning, broken reference or failing cell is an error.
book: $(STAMP)
	$(BIN)/jupyter-book build --warningiserror --nitpick --keep-going .

# Unit and property tests, then every notebook re-executed and compared with its stored outputs.
test: $(STAMP)
	$(BIN)/python -m pytest $(NBVAL) tests notebooks

# Rerun one notebook with new parameters: make notebook NB=00_quickstart PARAMS="-p seed 3"
notebook: $(STAMP)
	mkdir -p _build/papermill
	$(BIN)/papermill --cwd notebooks notebooks/$(NB).ipynb _build/papermill/$(NB).ipynb $(PARAMS)

bench: $(STAMP)
	set -e; for script in benchmarks/bench_*.py; do $(BIN)/python $$script; done

lint: $(STAMP)
	$(BIN)/ruff check fairlab tests benchmarks

clean:
	rm -rf _build .pytest_cache .hypothesis .ruff_cache
