# Two commands for a newcomer: `make lab` and `make test`.
.PHONY: lab test lint notebooks bench clean

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ROOTFLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
# Headless use: make lab LAB_ARGS="--no-browser --port=8899"
LAB_ARGS ?=
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=300

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -U pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOTFLAG) $(LAB_ARGS)

test: $(STAMP)
	$(BIN)/ruff check mogul tests benchmarks notebooks
	$(BIN)/nbstripout --keep-output --keep-count --verify notebooks/*.ipynb
	$(BIN)/python -m pytest -n 2 tests
	$(BIN)/python -m pytest -n 2 --dist loadscope notebooks $(NBVAL)

lint: $(STAMP)
	$(BIN)/ruff check mogul tests benchmarks notebooks

notebooks: $(STAMP)
	cd notebooks && ../$(BIN)/jupyter execute --inplace *.ipynb
	$(BIN)/nbstripout --keep-output --keep-count notebooks/*.ipynb

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) build dist
