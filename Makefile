# simdom: `make run` and `make test` each set up .venv from nothing, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# the ahead-of-time kernel (simdom/engine/aot.py) lives in the cache folder; building it is a quick
# no-op when the current engine's module is there

.PHONY: run test test-fast bench clean venv kernel

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

kernel: $(STAMP)
	$(BIN)/python -m simdom.engine.aot

venv: kernel

run: kernel
	$(BIN)/simdom run scenarios/default.toml

test: kernel
	$(BIN)/python -m pytest -q

test-fast: kernel
	$(BIN)/python -m pytest -q -m "not slow"

bench: kernel
	$(BIN)/python bench/run_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
