# `make test` and `make run` each bootstrap .venv on first use (Python 3.11+).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SOURCES := thegame_core service tests bench

.PHONY: test lint typecheck run simulate openapi bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[service,dev]'
	touch $@

lint: $(BIN)/.installed
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)

# The core is fully typed; the service is too, but flask-smorest's decorators carry no type hints.
typecheck: $(BIN)/.installed
	$(BIN)/mypy --strict thegame_core
	$(BIN)/mypy --strict --ignore-missing-imports --disable-error-code untyped-decorator service

test: lint typecheck
	$(BIN)/pytest -n 2 tests

# The service on http://127.0.0.1:$${PORT:-8000} (Swagger UI at /docs); embedded store unless REDIS_URL is set.
run: $(BIN)/.installed
	$(BIN)/python -m service

simulate: $(BIN)/.installed
	$(BIN)/python -m thegame_core simulate --players 2 --games 10000 --bot greedy --seed 1 --workers 2

openapi: $(BIN)/.installed
	$(BIN)/python -m service.openapi > openapi/openapi.json

bench: $(BIN)/.installed
	$(BIN)/python bench/core.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
