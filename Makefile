# MemoryLayer — local development. `make dev` runs the stack, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

.PHONY: help dev examples test test-unit test-integration lint typecheck audit format schema embed bench bench-locomo bench-compare bench-ingest cost clean-data clean lock deploy destroy dist

$(VENV)/bin/activate:
	@echo "creating $(VENV)/ (the first run then installs the local stack from PyPI: a few minutes)"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Reinstall only when the project definition changes. Not -q: pip's lines are the first run's progress.
$(VENV)/.installed-local: pyproject.toml | $(VENV)/bin/activate
	@echo "installing the local stack into $(VENV)/ ..."
	$(PIP) install -e '.[local,llm]'
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

# What examples/ imports beyond the stack: the Python SDK and the LlamaIndex store (with llama-index-core).
EXAMPLE_PACKAGES := client/memorylayer-client client/memorylayer-llamaindex
$(VENV)/.installed-examples: $(foreach p,$(EXAMPLE_PACKAGES),$(p)/pyproject.toml) | $(VENV)/.installed-local
	$(PIP) install $(foreach p,$(EXAMPLE_PACKAGES),-e ./$(p))
	touch $@

examples: $(VENV)/.installed-examples  ## install what examples/ needs (the SDK, the LlamaIndex store) into .venv
	@echo "installed: run examples/*.py with .venv/bin/python while make dev runs (examples/README.md)"

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

format: $(VENV)/.installed-dev  ## ruff: fix what it can, then format
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

$(VENV)/bin/uv: | $(VENV)/bin/activate
	$(PIP) install -q uv

# Installable artifacts for an app of one's own (each SDK's README, "Use it from your app"); the publish workflow
# (.github/workflows/publish.yml) uploads exactly these.
dist: $(VENV)/bin/uv $(JS_SDK)/node_modules/.installed  ## wheels + sdists of every Python client and the npm tarball, into dist/
	$(PY) client/dist.py dist

cost: $(VENV)/.installed-dev node_modules/.installed  ## idle cost per stage from the synthesized templates, and per million requests
	ML_CDK_SKIP_DEPS=1 $(PY) -m infra.cost $(COST_ARGS)
	$(PY) -m bench.request_cost

clean-data:  ## delete the local stack's data (.data/)
	rm -rf .data

# A synth leaves about 4 GB: cdk.out/ (templates and asset copies) and build/ (the Lambda bundles and their pip
# cache, which makes the next synth take seconds instead of minutes).
clean:  ## delete build outputs: cdk.out/, build/ (Lambda bundles, their dependency cache), dist/
	rm -rf cdk.out build dist

# --- AWS -------------------------------------------------------------------------------------------------------
STAGE ?= dev
# The region to deploy to (default: the AWS CLI's); what it lacks falls back (infra/README.md, "Regions")
REGION ?=
# Extra cdk context, e.g. CDK_ARGS='-c alarm_email=ops@example.com -c embeddings=gpu'
CDK_ARGS ?=
CDK_REGION = $(if $(REGION),-c region=$(REGION))
PREFLIGHT_ENV = $(if $(REGION),AWS_DEFAULT_REGION=$(REGION) AWS_REGION=$(REGION))
UV_COMPILE = $(VENV)/bin/uv pip compile --quiet --python-platform aarch64-manylinux_2_28 --python-version 3.12 \
	--generate-hashes --no-header

# The embedding container (x86_64, the base image's Python 3.11): every transitive dependency pinned with hashes,
# except torch and what only it needs (CUDA, triton), which come with the base image.
EMBED_TORCH = 2.5.1
EMBED_LOCK = echo 'torch==$(EMBED_TORCH)' > build/embed-constraints.txt && $(VENV)/bin/uv pip compile --quiet \
	--python-platform x86_64-manylinux_2_28 --python-version 3.11 --generate-hashes --no-header \
	-c build/embed-constraints.txt --no-emit-package torch --no-emit-package triton \
	$(foreach p,cublas-cu12 cuda-cupti-cu12 cuda-nvrtc-cu12 cuda-runtime-cu12 cudnn-cu12 cufft-cu12 curand-cu12 \
	cusolver-cu12 cusparse-cu12 nccl-cu12 nvjitlink-cu12 nvtx-cu12,--no-emit-package nvidia-$(p)) \
	functions/embed/requirements.txt -o functions/embed/requirements.lock

$(VENV)/.installed-infra: pyproject.toml | $(VENV)/bin/activate
	$(PIP) install -q -e '.[infra]' uv
	touch $@

node_modules/.installed-ci: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@ node_modules/.installed

# Lambda dependencies, pinned with hashes for python3.12 on arm64 (re-run after changing [project].dependencies
# or the embed extra; commit both lock files).
lock: $(VENV)/.installed-infra  ## re-pin the Lambda, sandbox and embedding dependencies (hashed lock files)
	mkdir -p build
	$(PY) -m infra.bundle --requirements base > build/lambda-requirements-base.in
	$(PY) -m infra.bundle --requirements local > build/lambda-requirements-local.in
	$(UV_COMPILE) build/lambda-requirements-base.in -o infra/lambda-requirements.lock
	$(UV_COMPILE) build/lambda-requirements-local.in -o infra/lambda-requirements-local.lock
	$(PY) -m infra.sandbox > build/sandbox-requirements.in
	$(UV_COMPILE) build/sandbox-requirements.in -o infra/sandbox-requirements.lock
	$(EMBED_LOCK)

# One command from a fresh clone: venv + infra extras, the pinned cdk CLI, then deploy (AWS credentials and a
# bootstrapped account/region needed; Docker only with -c embeddings=gpu).
deploy: $(VENV)/.installed-infra node_modules/.installed-ci  ## the stack to AWS (STAGE=dev, REGION=; AWS credentials, a bootstrapped account)
	$(PREFLIGHT_ENV) $(PY) -m infra.preflight  # credentials, region and the CDK bootstrap, in seconds, before minutes of synthesis
	npx cdk deploy --no-notices --require-approval never -c stage=$(STAGE) $(CDK_REGION) $(CDK_ARGS)

destroy: $(VENV)/.installed-infra node_modules/.installed-ci  ## delete the STAGE's stack from AWS
	$(PREFLIGHT_ENV) $(PY) -m infra.preflight
	npx cdk destroy --no-notices --force -c stage=$(STAGE) $(CDK_REGION) $(CDK_ARGS)
