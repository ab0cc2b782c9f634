# Two commands for a newcomer: `make lab` and `make test`.
.PHONY: lab test install-check lint format notebooks bench bench-all clean browser e2e baselines classroom practice voila-player postgres playthroughs bubblewrap

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Headless use: make lab LAB_ARGS="--no-browser --port=8899"
LAB_ARGS ?=
STRIP := --keep-output --keep-count --keep-metadata-keys metadata.widgets
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=300
# The browser for the end-to-end tests: Debian's chromium package, driven by Playwright.
# Elsewhere: make CHROMIUM=/path/to/chromium e2e
CHROMIUM ?= /usr/bin/chromium
# make classroom (mogul classroom, mogul/classroom/serve.py): one server for the whole class,
# the lecture hall (mogul/classroom/server: no kernel at all). Students open
# http://<this machine>:8866/mogul/hall/; the lecturer's dashboard and the projector page are on
# the same server behind its token, CLASSROOM_TOKEN (drawn afresh each time unless given). All
# use the table store CLASSROOM_DB (a SQLite file here, or a postgresql+psycopg:// URL, on which
# CLASSROOM_ARGS=--workers=4 serves with four processes). For a room of students use
# CLASSROOM_IP=0.0.0.0; CLASSROOM_ARGS pass on to mogul classroom (mogul classroom --help).
CLASSROOM_DB ?= $(CURDIR)/classroom.sqlite
CLASSROOM_IP ?= 127.0.0.1
CLASSROOM_PORT ?= 8866
CLASSROOM_ARGS ?=
CLASSROOM_TOKEN ?=

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -U pip
	$(BIN)/python -m pip install -q -e '.[test,classroom]'
	touch $@

# JupyterLab on the notebooks themselves (mogul lab, mogul/kit/lab.py): the batch engines
# compiled into numba's cache first (a progress bar; about a minute the first time, seconds
# after), the kit's notebooks trusted (Lab then draws their saved widget state before Run All)
# and the kit's Lab settings (share/jupyter/lab/settings: no news or update pop-ups).
lab: $(STAMP)
	$(BIN)/python -m mogul lab notebooks $(LAB_ARGS)

test: $(STAMP) postgres bubblewrap
	$(BIN)/ruff check mogul tests benchmarks examples notebooks
	$(BIN)/ruff format --check mogul tests benchmarks examples
	$(BIN)/nbstripout $(STRIP) --verify notebooks/*.ipynb
	$(BIN)/python -m pytest -n 2 tests mogul --doctest-modules --ignore=mogul/__main__.py
	$(BIN)/python -m pytest -n 2 --dist loadscope notebooks $(NBVAL)
	$(MAKE) --no-print-directory install-check
	$(MAKE) --no-print-directory e2e

# The kit as a user installs it (tests/install_check.py): the sdist and the wheel built, the
# wheel installed with its classroom extra into a fresh venv in a temporary folder, then mogul
# doctor, notebooks 01 and 03 under nbval from mogul lab's copy, and mogul classroom's pages.
# INSTALL_CHECK_ARGS=--lab also starts mogul lab and times pip install to Lab answering.
INSTALL_CHECK_ARGS ?=
install-check: $(STAMP)
	$(BIN)/python tests/install_check.py $(INSTALL_CHECK_ARGS)

# Chromium for the browser tests: installed with apt-get when missing (as root), else a clear
# message and a failing exit.
browser:
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "browser: $(CHROMIUM)"; \
	elif [ "$(CHROMIUM)" = /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "browser: installing Debian's chromium package"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	    && test -x "$(CHROMIUM)"; \
	else \
	  echo "make browser: no Chromium at $(CHROMIUM); the browser tests need one." >&2; \
	  echo "  Debian/Ubuntu, as root: apt-get update && apt-get install -y chromium" >&2; \
	  echo "  Elsewhere: install Chromium, then make CHROMIUM=/path/to/chromium test" >&2; \
	  exit 1; \
	fi

# PostgreSQL's server programs for the classroom store's tests (tests/classroom starts a server
# of its own in a temporary folder): Debian's postgresql package, installed with apt-get when
# missing (as root); elsewhere the tests skip with a message saying what to install.
postgres:
	@if command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "postgres: server programs found"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "postgres: installing Debian's postgresql package"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else \
	  echo "make postgres: no PostgreSQL server programs (initdb, pg_ctl); the PostgreSQL store" >&2; \
	  echo "  tests will be skipped. Debian/Ubuntu, as root: apt-get install -y postgresql" >&2; \
	  echo "  Elsewhere: install PostgreSQL and put its bin folder on PATH (or MOGUL_PG_BIN)." >&2; \
	fi

# Bubblewrap (bwrap) for students' bots: each runs in namespaces of its own (mogul/kit/guard.py).
# Installed with apt-get when missing (as root); elsewhere a message: without it the kit warns
# once and runs bots as plain processes with the same limits (tests/hostile_bots skips the
# attacks only namespaces stop).
bubblewrap:
	@if command -v bwrap >/dev/null; then \
	  echo "bubblewrap: $$(command -v bwrap)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "bubblewrap: installing Debian's bubblewrap package"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	else \
	  echo "make bubblewrap: no bwrap; students' bots will run without namespaces." >&2; \
	  echo "  Debian/Ubuntu, as root: apt-get install -y bubblewrap" >&2; \
	fi

# JupyterLab, the Voila player and the lecture hall in headless Chromium (tests/e2e): after Run
# All and after playing, every chart and text inside its frame and the data inside the axes, at
# phone, laptop and projector sizes, and screenshots against the reviewed baselines in
# tests/e2e/baselines. This run's screenshots land in screenshots/ (git-ignored), with
# screenshots/index.html beside the baselines. Two pytest workers, each with its own servers and
# Chromium: a browser test mostly waits for a kernel or a page (one worker used about half of
# the two cores; two take 3:20 where one took 4:50).
e2e: $(STAMP) browser
	MOGUL_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -n 2 tests/e2e

# Rewrite the screenshot baselines (after an intended change of what a page shows), then open
# screenshots/index.html and look at every picture before committing tests/e2e/baselines.
baselines: $(STAMP) browser
	MOGUL_BASELINES=update MOGUL_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest tests/e2e
	@echo "Review screenshots/index.html, then commit tests/e2e/baselines."

# The class: students open http://<this machine>:8866/mogul/hall/ (or scan a table's QR code on
# the projector page); the lecturer opens the dashboard address printed below on the laptop and
# the projector page (also linked from the dashboard) on the room's screen.
classroom: $(STAMP)
	$(BIN)/python -m mogul classroom --ip $(CLASSROOM_IP) --port $(CLASSROOM_PORT) --db "$(CLASSROOM_DB)" \
	  $(if $(CLASSROOM_TOKEN),--token $(CLASSROOM_TOKEN)) $(CLASSROOM_ARGS)

# make practice: one student alone against bots on the lecture hall's page (no kernel, no
# lecturer); prints the address of a table of one person and bots. PRACTICE_GAME picks the game
# or edition, PRACTICE_BOTS the bots (comma-separated); CLASSROOM_IP=0.0.0.0 serves a phone on
# the network (a QR code is printed).
PRACTICE_GAME ?=
PRACTICE_BOTS ?=
practice: $(STAMP)
	$(BIN)/python -m mogul.classroom.server --practice $(PRACTICE_GAME) $(if $(PRACTICE_BOTS),--bots $(PRACTICE_BOTS)) --ip $(CLASSROOM_IP) --port $(CLASSROOM_PORT)

# Playing alone against bots, one game per browser tab (a kernel each): notebook 03 as a Voila
# app, no code shown (mogul player; tests/e2e serve it the same way).
voila-player: $(STAMP)
	$(BIN)/python -m mogul player --ip $(CLASSROOM_IP) --port $(CLASSROOM_PORT)

lint: $(STAMP)
	$(BIN)/ruff check mogul tests benchmarks examples notebooks
	$(BIN)/ruff format --check mogul tests benchmarks examples

# Lay the code out as the tool does (make test fails on any file it would change).
format: $(STAMP)
	$(BIN)/ruff format mogul tests benchmarks examples

# Run every notebook and keep its outputs and its widget state (metadata.widgets, which
# nbstripout drops by default): Lab then draws the players and apps before the reader runs a
# cell, instead of a line of text. Plotly's bundle is left out of the saved state (5 MB a chart).
notebooks: $(STAMP)
	$(BIN)/python -m mogul warm-up
	cd notebooks && ../$(BIN)/jupyter execute --inplace *.ipynb
	$(BIN)/python -m mogul.widgets.saved_state notebooks/*.ipynb
	$(BIN)/nbstripout $(STRIP) notebooks/*.ipynb

# Rewrite the golden playthroughs in tests/playthroughs after an intended change of the rules;
# commit them with the change (their diff shows what the change does to seeded games).
playthroughs: $(STAMP)
	$(BIN)/python tests/playthroughs/generate.py

# make bench: every game's figures in one table (readable engine, batch kernel and simulate
# side by side, bot decision, analysis), then the classic kernel against the C reference
# (benchmarks/bench_fast.py builds it; a few minutes). make bench-all: then every other
# benchmark, one after another (some take minutes; bench_classroom starts servers of its own).
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_games.py

bench-all: bench
	for f in benchmarks/bench_*.py; do \
	  [ "$$f" = benchmarks/bench_games.py ] && continue; \
	  echo "== $$f"; $(BIN)/python $$f || exit 1; \
	done

clean:
	rm -rf $(VENV) build dist
