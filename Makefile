# MemoryLayer — local development. `make dev` runs the stack, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export MEMORYLAYER_EMBEDDING_PROVIDER ?= local

.PHONY: dev test lint format embed bench bench-locomo bench-compare bench-ingest cost clean-data

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Reinstall only when the project definition changes.
$(VENV)/.installed-local: pyproject.toml | $(VENV)/bin/activate
	$(PIP) install -q -e '.[local,llm]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(wildcard client/*/pyproject.toml) | $(VENV)/bin/activate
	$(PIP) install -q -e '.[dev]' $(foreach c,$(wildcard client/*/pyproject.toml),-e ./$(dir $(c)))
	touch $@ $(VENV)/.installed-local

node_modules/.installed: package.json
	npm install --no-audit --no-fund --silent
	touch $@

dev: $(VENV)/.installed-local  ## the local stack on http://127.0.0.1:$${MEMORYLAYER_PORT:-61001}
	$(VENV)/bin/memorylayer dev

embed: $(VENV)/.installed-local  ## the embedding container as a CPU process on $${MEMORYLAYER_EMBED_PORT:-61051}
	$(PY) -m functions.embed.server

test: $(VENV)/.installed-dev node_modules/.installed  ## every test, against a throwaway embedded Postgres
	MEMORYLAYER_EMBEDDING_PROVIDER=hash $(PY) -m pytest -q $(PYTEST_ARGS)

lint:
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

format:
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

bench: $(VENV)/.installed-dev  ## remember/recall latency and throughput at 1k and 10k memories
	$(PY) -m bench.api_load

bench-locomo: $(VENV)/.installed-dev  ## LoCoMo retrieval quality vs BM25 and dense-only
	$(PY) -m bench.locomo

bench-compare: $(VENV)/.installed-dev  ## side by side with the reference memorylayer-server 0.2.0
	$(PY) -m bench.compare

bench-ingest: $(VENV)/.installed-dev  ## append acknowledgement and append→recallable lag through SQS
	$(PY) -m bench.ingest

cost: $(VENV)/.installed-dev node_modules/.installed  ## idle cost per stage from the synthesized templates, and per million requests
	MEMORYLAYER_CDK_SKIP_DEPS=1 $(PY) -m infra.cost $(COST_ARGS)
	$(PY) -m bench.request_cost

clean-data:
	rm -rf .data
