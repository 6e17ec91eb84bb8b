# simdom: `make run` and `make test` each set up .venv from nothing, then run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# the ahead-of-time kernel (simdom/engine/aot.py): rebuilt when an engine source changes
KERNEL := $(VENV)/.kernel-stamp

.PHONY: run test test-fast bench clean venv kernel

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

$(KERNEL): $(STAMP) $(wildcard simdom/engine/*.py)
	$(BIN)/python -m simdom.engine.aot
	touch $(KERNEL)

venv: $(KERNEL)

kernel: $(KERNEL)

run: $(KERNEL)
	$(BIN)/simdom run scenarios/default.toml

test: $(KERNEL)
	$(BIN)/python -m pytest -q

test-fast: $(KERNEL)
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(KERNEL)
	$(BIN)/python bench/run_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
