# MemoryLayer — local development. `make dev` runs the stack, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

.PHONY: help dev test test-unit test-integration lint typecheck audit format schema embed bench bench-locomo bench-compare bench-ingest cost clean-data lock deploy destroy

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Reinstall only when the project definition changes.
$(VENV)/.installed-local: pyproject.toml | $(VENV)/bin/activate
	$(PIP) install -q -e '.[local,llm]'
	$(PY) -m shared.domain.context_env.interpreter fetch >/dev/null  # the sandbox's python.wasm, pinned by hash
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(wildcard client/*/pyproject.toml) | $(VENV)/bin/activate
	$(PIP) install -q -e '.[dev]' $(foreach c,$(wildcard client/*/pyproject.toml),-e ./$(dir $(c)))
	$(PY) -m shared.domain.context_env.interpreter fetch >/dev/null  # the sandbox's python.wasm, pinned by hash
	touch $@ $(VENV)/.installed-local

node_modules/.installed: package.json
	npm install --no-audit --no-fund --silent
	touch $@

# The TypeScript SDK's pinned compiler and Node types, from its lock file (tests/client/test_js_sdk.py builds it).
JS_SDK := client/memorylayer-js
$(JS_SDK)/node_modules/.installed: $(JS_SDK)/package.json $(JS_SDK)/package-lock.json
	cd $(JS_SDK) && npm ci --no-audit --no-fund --silent
	touch $@

help:  ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  \1\t/; s/\$$\$$/$$/g' | expand -t 20

# The local stack is open (auth_mode none) unless asked otherwise; the server itself defaults to api_key, and
# refuses none on a non-loopback MEMORYLAYER_HOST.
dev: $(VENV)/.installed-local  ## the local stack on http://127.0.0.1:$${MEMORYLAYER_PORT:-61001}
	MEMORYLAYER_AUTH_MODE=$${MEMORYLAYER_AUTH_MODE:-none} $(VENV)/bin/memorylayer dev

embed: $(VENV)/.installed-local  ## the embedding container as a CPU process on $${MEMORYLAYER_EMBED_PORT:-61051}
	$(PY) -m functions.embed.server

# The two tiers, by folder (tests/conftest.py UNIT_TIER names the unit folders and refuses Postgres in them).
UNIT_TESTS := tests/unit tests/embed
INTEGRATION_TESTS := tests/integration tests/functions tests/client tests/infra

test: $(VENV)/.installed-dev node_modules/.installed $(JS_SDK)/node_modules/.installed  ## every test, both tiers, against a throwaway embedded Postgres (CI)
	MEMORYLAYER_EMBEDDING_PROVIDER=hash $(PY) -m pytest -q $(PYTEST_ARGS)

test-unit: $(VENV)/.installed-dev  ## the edit-run loop: no Postgres, no servers but in-process ones (under a minute)
	MEMORYLAYER_EMBEDDING_PROVIDER=hash $(PY) -m pytest -q $(UNIT_TESTS) $(PYTEST_ARGS)

test-integration: $(VENV)/.installed-dev node_modules/.installed $(JS_SDK)/node_modules/.installed  ## the rest: Postgres, moto, HTTP, processes, CDK
	MEMORYLAYER_EMBEDDING_PROVIDER=hash $(PY) -m pytest -q $(INTEGRATION_TESTS) $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev  ## ruff, the layers contract (import-linter), then mypy (`make typecheck`)
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(MAKE) --no-print-directory typecheck

typecheck: $(VENV)/.installed-dev  ## mypy over shared/ and functions/ (configured in pyproject.toml)
	$(VENV)/bin/mypy

# Strict: a dependency the vulnerability service cannot answer for fails the target like a vulnerable one, so it
# cannot pass without having looked. Not run by .ci/run: CI's machines reach the package index but not the
# vulnerability services (PyPI's per-release JSON and OSV), so there it could only fail.
audit: $(VENV)/.installed-dev  ## known vulnerabilities in the installed packages (pip-audit; needs PyPI's JSON API or OSV)
	$(VENV)/bin/pip-audit --strict --skip-editable --progress-spinner off $(AUDIT_ARGS)

format:
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

# After a new migration or an edited file in shared/db/functions/ (tests/integration/test_schema.py says when).
schema: $(VENV)/.installed-dev  ## rewrite shared/db/schema.sql: a throwaway Postgres migrated from empty, dumped
	$(PY) -m shared.local.schema

bench: $(VENV)/.installed-dev  ## remember/recall latency and throughput at 1k and 10k memories
	$(PY) -m bench.api_load

bench-locomo: $(VENV)/.installed-dev  ## LoCoMo retrieval quality vs BM25 and dense-only
	$(PY) -m bench.locomo

bench-compare: $(VENV)/.installed-dev  ## side by side with the reference memorylayer-server 0.2.0
	$(PY) -m bench.compare

bench-ingest: $(VENV)/.installed-dev  ## append acknowledgement and append→recallable lag through SQS
	$(PY) -m bench.ingest

cost: $(VENV)/.installed-dev node_modules/.installed  ## idle cost per stage from the synthesized templates, and per million requests
	ML_CDK_SKIP_DEPS=1 $(PY) -m infra.cost $(COST_ARGS)
	$(PY) -m bench.request_cost

clean-data:
	rm -rf .data

# --- AWS -------------------------------------------------------------------------------------------------------
STAGE ?= dev
# The region to deploy to (default: the AWS CLI's); what it lacks falls back (infra/README.md, "Regions")
REGION ?=
# Extra cdk context, e.g. CDK_ARGS='-c alarm_email=ops@example.com -c embeddings=gpu'
CDK_ARGS ?=
CDK_REGION = $(if $(REGION),-c region=$(REGION))
UV_COMPILE = $(VENV)/bin/uv pip compile --quiet --python-platform aarch64-manylinux_2_28 --python-version 3.12 \
	--generate-hashes --no-header

$(VENV)/.installed-infra: pyproject.toml | $(VENV)/bin/activate
	$(PIP) install -q -e '.[infra]' uv
	touch $@

node_modules/.installed-ci: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@ node_modules/.installed

# Lambda dependencies, pinned with hashes for python3.12 on arm64 (re-run after changing [project].dependencies
# or the embed extra; commit both lock files).
lock: $(VENV)/.installed-infra
	mkdir -p build
	$(PY) -m infra.bundle --requirements base > build/lambda-requirements-base.in
	$(PY) -m infra.bundle --requirements local > build/lambda-requirements-local.in
	$(UV_COMPILE) build/lambda-requirements-base.in -o infra/lambda-requirements.lock
	$(UV_COMPILE) build/lambda-requirements-local.in -o infra/lambda-requirements-local.lock
	$(PY) -m infra.sandbox > build/sandbox-requirements.in
	$(UV_COMPILE) build/sandbox-requirements.in -o infra/sandbox-requirements.lock

# One command from a fresh clone: venv + infra extras, the pinned cdk CLI, then deploy (AWS credentials and a
# bootstrapped account/region needed; Docker only with -c embeddings=gpu).
deploy: $(VENV)/.installed-infra node_modules/.installed-ci
	npx cdk deploy --no-notices --require-approval never -c stage=$(STAGE) $(CDK_REGION) $(CDK_ARGS)

destroy: $(VENV)/.installed-infra node_modules/.installed-ci
	npx cdk destroy --no-notices --force -c stage=$(STAGE) $(CDK_REGION) $(CDK_ARGS)
