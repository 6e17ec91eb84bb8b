# simdom: `make run` and `make test` each set up .venv from nothing, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
BASE   := $(VENV)/.base-stamp
STAMP  := $(VENV)/.installed-stamp
# the compiled kernel (numba's cache and the ahead-of-time module, simdom/engine/warm.py) lives in the
# cache folder; compiling it is a quick no-op when the current engine's kernel is there
# headless Chromium (Debian package) for the report's browser test (tests/test_report_browser.py)
CHROMIUM := /usr/bin/chromium

.PHONY: run test lint test-fast bench docs clean venv kernel kernel-run chromium

# make run needs simdom alone; make test (and docs, bench) also the extras: tests, docs, OpenSpiel, PettingZoo.
# Installed with uv (itself from PyPI: 33 s with pip -> 9 s here), or with pip where uv cannot be had.
# Both compile the packages' bytecode at install (uv only when asked): where PYTHONDONTWRITEBYTECODE is
# set, as in many containers, Python would otherwise compile every module's source at every start
# (`simdom --help` 0.63 s -> 0.26 s here, a 200,000-deal `simdom run` 1.6 s -> 0.95 s).
EXTRAS := test,docs,rl
INSTALL = ($(BIN)/python -m pip install -q uv && $(BIN)/python -m uv pip install -q --compile-bytecode \
	--python $(BIN)/python $(1)) || $(BIN)/python -m pip install -q $(1)

$(BASE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(call INSTALL,-e .)
	touch $(BASE)

$(STAMP): $(BASE)
	$(call INSTALL,-e '.[$(EXTRAS)]')
	touch $(STAMP)

# simdom's own bytecode too (an editable install's sources are not compiled at install; a no-op when current)
kernel: $(BASE)
	$(BIN)/python -m compileall -q simdom
	$(BIN)/python -m simdom.engine.warm

$(CHROMIUM):
	apt-get install -y chromium || (apt-get update && apt-get install -y chromium)

chromium: $(CHROMIUM)

venv: $(STAMP) kernel $(CHROMIUM)

# make run compiles only what the default study plays: the batch kernel of the plain policies (random, greedy,
# hold; simdom/engine/_kernel/plain.py), in one process; every other command compiles what it uses on its
# first use, saying so, or `make kernel` compiles all of it ahead (docs/speed.md, "First use")
kernel-run: $(BASE)
	$(BIN)/python -m compileall -q simdom
	$(BIN)/python -m simdom.engine.warm plain

run: kernel-run
	$(BIN)/simdom run scenarios/default.toml

lint: $(STAMP)
	$(BIN)/ruff check simdom tests

test: $(STAMP) kernel $(CHROMIUM) lint
	$(BIN)/python -m pytest -q -n auto

test-fast: $(STAMP) kernel
	$(BIN)/python -m pytest -q -n auto -m "not slow"

bench: $(STAMP) kernel
	$(BIN)/python bench/run_bench.py

# the docs site (mkdocs.yml over docs/) into build/site, every warning an error
docs: $(STAMP)
	$(BIN)/python -m mkdocs build --strict

clean:
	rm -rf $(VENV) build *.egg-info
