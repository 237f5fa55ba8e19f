# `make test` and `make run` each bootstrap .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: test lint typecheck run simulate bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[service,dev]'
	touch $@

lint: $(BIN)/.installed
	$(BIN)/ruff check thegame_core tests bench
	$(BIN)/ruff format --check thegame_core tests bench

typecheck: $(BIN)/.installed
	$(BIN)/mypy --strict thegame_core

test: lint typecheck
	$(BIN)/pytest -n 2 tests

run: $(BIN)/.installed
	$(BIN)/python -m thegame_core simulate --players 2 --games 1000 --bot greedy --seed 1

bench: $(BIN)/.installed
	$(BIN)/python bench/core.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
