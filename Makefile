# `make test` and `make run` each bootstrap .venv on first use (Python 3.11+): `make run` installs only what the
# service needs (the run stamp), `make test` the tools too (the dev stamp, which also satisfies the run stamp).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(BIN)/.installed-run
DEV_STAMP := $(BIN)/.installed-dev
SOURCES := thegame_core service tests bench examples

.PHONY: test lint typecheck run worker simulate openapi bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[service]'
	touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[service,dev]'
	touch $@ $(RUN_STAMP)

lint: $(DEV_STAMP)
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)

# The core is fully typed; the service is too, but flask-smorest's decorators carry no type hints.
typecheck: $(DEV_STAMP)
	$(BIN)/mypy --strict thegame_core
	$(BIN)/mypy --strict --ignore-missing-imports --disable-error-code untyped-decorator service

test: lint typecheck
	$(BIN)/pytest -n 2 tests

# The service on http://$${HOST:-127.0.0.1}:$${PORT:-8000}: the page at /, Swagger UI at /docs; embedded store unless REDIS_URL is set.
run: $(RUN_STAMP)
	$(BIN)/python -m service

# A worker of the job queue (analyses, daily yardsticks) for a service on REDIS_URL (TG_QUEUE_URL: the queue's own
# plain Redis, when REDIS_URL is a cluster); one per core. `make run` alone needs none: it runs its jobs itself.
worker: $(RUN_STAMP)
	$(BIN)/python -m service worker

simulate: $(RUN_STAMP)
	$(BIN)/python -m thegame_core simulate --players 2 --games 10000 --bot greedy --seed 1 --workers 2

openapi: $(RUN_STAMP)
	$(BIN)/python -m service.openapi > openapi/openapi.json

bench: $(RUN_STAMP)
	$(BIN)/python bench/core.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
