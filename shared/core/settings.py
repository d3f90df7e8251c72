"""One validated settings object, read from the environment (prefix ``MEMORYLAYER_``) once at start.

    >>> s = Settings(database_url="postgresql://u@h/db", embedding_provider="hash")
    >>> s.embedding_dimensions
    384

Code in ``shared/`` receives a ``Settings`` instance as an argument and never reads ``os.environ``.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.core.reference_env import (
    NOT_APPLICABLE,
    nearest,
    profile_variables,
    split_profile_variable,
    start_notes,
)

ENV_PREFIX = "MEMORYLAYER_"
# ``MEMORYLAYER_*`` names that are not settings but belong to another program of this repository, and may well
# be set in the same shell: the embedding container's port (functions/embed/config.py) and the clients' (SDK,
# MCP server) address, key and workspace. Tooling (tests, CDK bundling) uses ``ML_*`` instead.
NOT_SETTINGS = frozenset(
    {
        "MEMORYLAYER_EMBED_PORT",  # the embedding container's own port (functions/embed)
        # The clients' (SDK, LlamaIndex, MCP server): often exported in the same shell as `make dev`.
        "MEMORYLAYER_URL",
        "MEMORYLAYER_API_KEY",
        "MEMORYLAYER_WORKSPACE_ID",
        "MEMORYLAYER_SESSION_ID",
    }
)

EmbeddingProviderName = Literal["hash", "local", "openai", "google", "endpoint", "sagemaker"]
LLMProviderName = Literal["none", "openai", "google", "anthropic"]
# The reference's names for providers of ours: its embed-server speaks the same OpenAI-compatible
# POST /v1/embeddings as our endpoint provider's container, and its mock is a deterministic hash embedder.
EMBEDDING_PROVIDER_SYNONYMS = {"embed_server": "endpoint", "mock": "hash"}


def env(name: str, *reference_names: str) -> Any:
    """Read a field from ``MEMORYLAYER_<name>`` or, for an environment moved from the reference server, from its
    name for the same setting (``Settings(field=...)`` keeps working: populate_by_name)."""
    return AliasChoices(ENV_PREFIX + name, *(ENV_PREFIX + r for r in reference_names))


class LLMProfile(BaseModel):
    """One named LLM configuration (the reference's ``MEMORYLAYER_LLM_PROFILE_<NAME>_*``)."""

    provider: LLMProviderName = "none"
    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    temperature: float = Field(default=0.0, ge=0, le=2)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", populate_by_name=True)

    # --- service ---
    host: str = Field(default="127.0.0.1", validation_alias=env("HOST", "SERVER_HOST"))
    port: int = Field(default=61001, validation_alias=env("PORT", "SERVER_PORT"))
    # Host names the API answers to, comma-separated ("*": any). Unset: any, except that a server bound to
    # loopback (make dev, memorylayer serve) answers only to loopback names (local_server_settings).
    allowed_hosts: str | None = None
    # Web origins (``https://app.example.com``, comma-separated) whose pages may write to the API from a browser,
    # besides the server's own pages (the console, /docs). Unset: none; every other browser write is a 403
    # cross_site_request, in every auth mode (requests without an Origin, as from curl and the SDKs, pass).
    allowed_origins: str | None = None
    # Proxies whose X-Forwarded-For names the client (comma-separated addresses; unset: none, the socket's
    # peer is the client). Behind API Gateway the source address comes from the event instead.
    trusted_proxies: str | None = None
    data_dir: Path = Path(".data")
    # Prometheus text at GET /metrics (local host or admin key only), or nothing; Lambda always emits EMF.
    metrics_service: Literal["noop", "prometheus"] = "noop"
    # The app role's full DSN (local, tests); wins over the parts below. See shared/db/connection.py.
    database_url: str | None = None
    database_owner_url: str | None = None  # the owner's DSN, for migrations (local, tests)
    # In AWS: the RDS Proxy endpoint (prod API functions) or the writer endpoint (dev, and migrate always).
    database_host: str | None = None
    database_port: int = 5432
    database_name: str = "memorylayer"
    database_user: str = "memorylayer_app"
    database_auth: Literal["password", "iam"] = "password"
    database_sslrootcert: str | None = None  # default: the CA bundle shipped in shared/db/
    database_owner_secret_arn: str | None = None  # the RDS-managed master user secret: migrate only
    # In AWS: the migrate function, which the worker asks (an asynchronous invoke) to build the vector graph in
    # bulk when a large pending set exists (only the owner may: shared/domain/indexing/bulk.py).
    vector_rebuild_function: str | None = None
    # The bulk graph build's maintenance_work_mem (MB). An HNSW build is fastest with the whole graph in it (~2 GB
    # for 1M 384-d memories); in AWS the stack sizes it to a quarter of the writer's memory at its maximum ACUs,
    # so a build on a small instance does not allocate past what it has.
    vector_build_memory_mb: int = Field(default=4096, ge=64, le=65536)
    # Lambda-friendly pools: no connection is opened ahead of need, and idle ones are closed soon.
    db_pool_min: int = 0
    db_pool_max: int = 10
    db_pool_max_idle_s: float = 60.0
    # Wait for a connection while the database answers but cannot serve (restart, full pool): then a 503.
    db_connect_timeout_s: float = 5.0
    # How long it waits while connection attempts hang without an answer, as against an Aurora Serverless v2
    # writer resuming from 0 ACU (about 15 s; about 30 s after a day paused): then a 503 database_resuming with
    # Retry-After. The API's must leave room for the request inside API Gateway's 30 s and the function's 29 s;
    # the worker and cleanup (minutes of timeout, and an alarm on every error) wait longer.
    db_resume_timeout_s: float = Field(default=20.0, gt=0, le=25)
    db_background_resume_timeout_s: float = Field(default=60.0, gt=0)
    # statement_timeout, hnsw.ef_search, idle timeouts: the app role's defaults (migration 0010; RDS Proxy
    # refuses libpq startup options).
    # --- limits (bad input is a 4xx, never a partial write) ---
    max_content_bytes: int = 64 * 1024
    max_tags: int = 100
    max_tag_length: int = 256
    max_metadata_bytes: int = 64 * 1024
    max_metadata_depth: int = 16
    max_batch_operations: int = 1000
    max_recall_limit: int = 1000
    # Lambda's 6 MB synchronous payload carries the whole event (the body, base64 for binary types, and the
    # headers): a larger body never reaches the app in AWS, so the local cap is the same.
    max_request_bytes: int = 6_000_000
    # What one request may carry, each checked before anything is written (413 naming the limit): the rate
    # limiter counts requests, so these bound the work behind one.
    max_import_associations: int = Field(default=10_000, ge=0)
    max_import_memories: int = Field(default=10_000, ge=1)
    # A format-2 import's every other kind of line (entities, aliases, relations, evidence, revisions, messages,
    # …): at most this many of each, and this many rows in all, so a 6 MB body cannot write 58,000 entities.
    max_import_rows_per_kind: int = Field(default=10_000, ge=1)
    max_import_rows: int = Field(default=50_000, ge=1)
    # An export reads this many rows of a table per borrowed connection (a short transaction each: none is held
    # while the client reads) and sends its lines in chunks of about this many bytes (one thread hop and one
    # socket write per chunk, not per line, so a large export does not crowd the event loop's other requests).
    export_page_rows: int = Field(default=2000, ge=1, le=50_000)
    export_chunk_bytes: int = Field(default=256 * 1024, ge=1024)
    max_working_memory_items: int = Field(default=1000, ge=1)
    # How long a memory write's Idempotency-Key is remembered: a retry within it replays the first answer; after
    # it the key is free again, and the cleanup sweep (functions/cleanup, make dev) deletes the record.
    idempotency_ttl_s: int = Field(default=24 * 3600, ge=60)

    # --- association graphs (traverse, recall's expansion) ---
    # A walk reaches each node once; these bound the rest, inside the one recursive statement: the strongest
    # edges followed from one node (per direction), and the nodes reached beyond the seeds (traverse returns
    # one path per node reached, so this is also its path cap).
    graph_max_edges_per_node: int = Field(default=50, ge=1, le=10_000)
    graph_max_nodes: int = Field(default=500, ge=1, le=100_000)
    # Paths (with their edges' metadata) stop being added once the traverse response would pass this.
    traverse_max_response_bytes: int = Field(default=1024 * 1024, ge=1024)
    # Graph analysis (/v1/graph/*) reads at most this many associations (strongest first) and nodes (their
    # endpoints, then other live memories), and estimates betweenness from this many sources when there are more
    # nodes: each request's work is bounded whatever the workspace's size; ``truncated`` says a cap cut it.
    graph_analysis_max_edges: int = Field(default=5000, ge=1, le=100_000)
    graph_analysis_max_nodes: int = Field(default=2000, ge=1, le=100_000)
    graph_betweenness_pivots: int = Field(default=64, ge=1, le=10_000)

    # --- entity backfill (POST /v1/entities/backfill) ---
    # One call reads at most this many memories (also its default `max_memories`) and stops starting new ones
    # after this many seconds; its `next_after` continues. Each memory is written in its own short transaction.
    entity_backfill_max_memories: int = Field(default=500, ge=1, le=100_000)
    entity_backfill_time_budget_s: float = Field(default=10.0, gt=0, le=600)

    # --- contradictions ---
    # The scan compares at most this many live memories (newest first) in one request.
    contradiction_scan_max_memories: int = Field(default=2000, ge=2, le=100_000)
    # One scan records and returns at most this many pairs (its answer's `next_cursor` continues); one fact group
    # (a user's subject and predicate) yields at most this many pairs, newest first: n values would otherwise be
    # n²/2 rows, each a write.
    contradiction_scan_max_pairs: int = Field(default=500, ge=1, le=10_000)
    contradiction_scan_max_group_pairs: int = Field(default=100, ge=1, le=10_000)

    # --- embeddings ---
    # `local` (all-MiniLM-L6-v2 on ONNX, in process) everywhere: the Makefile, the CLI and a bare `Settings()`
    # agree, so a CLI run outside make never re-embeds a workspace with another model. Tests ask for `hash`.
    embedding_provider: EmbeddingProviderName = "local"
    embedding_model: str | None = None
    embedding_dimensions: int | None = None
    embedding_batch_size: int = 64
    embedding_timeout_s: float = 30.0
    embedding_max_retries: int = 3
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=env("OPENAI_API_KEY", "EMBEDDING_OPENAI_API_KEY")
    )
    openai_base_url: str | None = None
    google_api_key: SecretStr | None = Field(
        default=None, validation_alias=env("GOOGLE_API_KEY", "EMBEDDING_GOOGLE_API_KEY")
    )
    google_base_url: str | None = None
    embedding_retry_base_delay_s: float = 0.5
    embedding_retry_max_delay_s: float = 8.0
    embedding_threads: int = 2
    # The reference's embed-server URL is the same thing: both speak OpenAI-compatible POST /v1/embeddings.
    embed_endpoint_url: str = Field(
        default="http://127.0.0.1:61051", validation_alias=env("EMBED_ENDPOINT_URL", "EMBED_SERVER_URL")
    )
    embed_endpoint_api_key: SecretStr | None = None
    sagemaker_endpoint_name: str | None = None
    sagemaker_runtime_endpoint_url: str | None = None  # tests point boto3 at a local stub
    # embeddings=gpu: the endpoint hosts an inference component (scale to zero); InvokeEndpoint names it.
    sagemaker_inference_component_name: str | None = None
    google_task_type: str | None = None  # e.g. RETRIEVAL_DOCUMENT
    aws_region: str = "us-east-1"

    # --- recall ---
    recall_rrf_k: int = 60
    recall_candidate_multiplier: int = 4
    recall_min_candidates: int = 50
    # Recall through functions whose plans are kept per session (shared/domain/retrieval/recall.py,
    # _plan_reused); off: every recall statement planned with its values (a way out should a kept plan misbehave).
    recall_kept_plans: bool = True
    # A scope of at most this many memories is sorted exactly by such a function (0: never); a larger one walks
    # a graph.
    recall_sorted_max_rows: int = Field(default=5000, ge=0)
    # The relational arm (shared/domain/retrieval/relations.py); off: recall never asks it, relation rows stay.
    relational_recall_enabled: bool = True
    # Off: recall answers the compatibility confidence ("weak", no reasons) instead of computing it.
    retrieval_confidence_enabled: bool = True
    # Extractive tiers (shared/domain/memories/tiers.py): each write stores an abstract and an overview made of
    # whole source sentences, with their spans, and the cleanup fills them in for older memories; off: none are
    # written and detail levels fall back to the full content.
    extractive_tiers_enabled: bool = True
    # The token budget of a recall that names none (0: none, count and detail decide).
    recall_token_budget_default: int = Field(default=0, ge=0)

    # --- context cursors ---
    # The HMAC key of context cursors: set locally, or (in AWS) the ARN of a Secrets Manager secret read on
    # first use (shared/providers/secrets.py). No default: a public one lets anyone forge cursors. With auth_mode=none
    # and neither set, each process draws a random one.
    context_cursor_secret: SecretStr | None = None
    context_cursor_secret_arn: str | None = None
    context_event_retention_days: int = 30
    # Off: /context-pack and /context-delta answer 503 (the reference's); the events are still recorded.
    context_pack_enabled: bool = True

    # --- context environment: server-side sandboxes (docs/context-environment.md) ---
    # wasm: CPython-in-WebAssembly in this process (local, tests, the sandbox function itself); lambda: the
    # sandbox function (context_sandbox_function, set by the stack); off: every /v1/context route answers 501.
    context_executor: Literal["wasm", "lambda", "off"] = "wasm"
    context_sandbox_function: str | None = None
    # Lambda's tenant isolation mode (a TenantId on every invoke); false where the region lacks it (infra/regions.py)
    context_sandbox_tenant_isolation: bool = True
    context_wasm_path: str | None = None  # python.wasm (default: the bundled copy, else the venv's)
    context_max_variables: int = Field(default=1000, ge=1, le=100_000)
    context_max_exec_seconds: float = Field(default=30.0, gt=0, le=300)
    context_max_memory_bytes: int = Field(default=256 * 1024 * 1024, ge=64 * 1024 * 1024)
    context_max_state_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    context_max_output_chars: int = Field(default=50_000, ge=100)
    # Values in a sandbox state, all variables together (a list and each item count one each): the host checks
    # every state it reads or keeps in one walk of this many steps at most; more is 422 state_too_complex.
    context_max_state_elements: int = Field(default=1_000_000, ge=1)
    # The reference's restricted executor's complexity cap: code with more AST nodes than this is not run.
    context_max_operations: int = Field(default=1_000_000, ge=1)
    context_query_max_tokens: int = Field(default=4096, ge=1)
    context_rlm_max_iterations: int = Field(default=10, ge=1)
    context_rlm_max_exec_seconds: float = Field(default=120.0, gt=0)
    # Admission to the sandboxes, per API process (shared/domain/context_env/gate.py); a refusal is 429/503 + Retry-After.
    # 4 slots: each guest may hold its whole linear-memory cap (4 x 256 MiB) in this process.
    context_slots: int = Field(default=4, ge=1, le=256)
    # 3 of the 4 per tenant: one tenant's flood always leaves a slot to the others.
    context_tenant_slots: int = Field(default=3, ge=1)
    # 2 per key: one runaway key leaves its tenant a slot, and a client may still overlap two calls.
    context_key_slots: int = Field(default=2, ge=1)
    # 5 s: a waiter plus the 20 s AWS execution limit stays under the HTTP API's 30 s cut.
    context_slot_wait_s: float = Field(default=5.0, ge=0, le=60)
    # 32 waiting at most (8 per tenant): enough to smooth a burst, too few to pile up; the rest are refused now.
    context_slot_waiters: int = Field(default=32, ge=0)
    context_tenant_waiters: int = Field(default=8, ge=0)
    # With context_executor=lambda, the tenant cap also holds across instances: a lease row per running call
    # (shared/domain/context_env/leases.py). 60 s: twice the context function's 29 s timeout, so no live call outlives its
    # lease, and a crashed call's slot is free again within a minute.
    context_lease_ttl_s: float = Field(default=60.0, gt=0, le=3600)

    # --- sessions ---
    # A request carrying X-Session-ID keeps its session alive at least this long (never shortens it).
    session_touch_ttl_s: int = 3600
    session_cleanup_interval_s: int = 300
    session_cleanup_batch: int = 100
    checkpoint_max_bytes: int = Field(
        default=1024 * 1024, validation_alias=env("CHECKPOINT_MAX_BYTES", "SESSION_CHECKPOINT_MAX_BYTES")
    )
    # Off: POST /v1/sessions/{id}/checkpoints answers 503 (the reference's); captures already made stay readable.
    session_checkpoint_capture_enabled: bool = True
    # Lines indexed per checkpoint; the raw segment is always stored whole.
    checkpoint_max_segments: int = 1000

    # --- auth ---
    # Closed by default: `none` (anyone may do anything) is for `make dev` and tests, which say so explicitly;
    # it is refused inside Lambda and on a non-loopback address (see _refuse_open_auth_where_reachable).
    auth_mode: Literal["none", "api_key"] = "api_key"
    admin_key: SecretStr | None = None
    admin_key_secret_arn: str | None = None  # in AWS: the admin key lives in Secrets Manager
    # How long a value read from Secrets Manager is reused: a rotation reaches every container within this.
    secret_cache_ttl_s: int = 300
    # Per API key, across every instance: a fixed-window counter in Postgres (shared/domain/auth.py RateLimiter).
    rate_limit_per_s: float = 50.0
    rate_limit_burst: int = 100  # requests a key may make in one window of burst / per_s seconds
    # Failed authentications per source address per minute, then 429. Counted in the shared counter (so the
    # fleet holds the line); once over, the address is refused from this process's memory, before any key lookup.
    auth_failures_per_minute: int = 30
    # An unknown key is answered 401 from memory for this long: no database lookup for a key that just failed.
    negative_key_cache_s: float = 30.0
    # Set by the Lambda runtime (not prefixed): where `auth_mode=none` is refused.
    lambda_function_name: str | None = Field(default=None, validation_alias="AWS_LAMBDA_FUNCTION_NAME")

    # --- queue and extraction ---
    extraction_queue_url: str | None = None
    indexing_queue_url: str | None = None  # vector-indexing asks, off extraction's queue (unset: that queue)
    # One indexing run's longest time; with rows still pending it asks again, so other messages get a turn.
    indexing_run_budget_s: float = Field(default=60.0, gt=0)
    sqs_endpoint_url: str | None = None
    sqs_port: int = 61002  # local moto SQS server started by `make dev`
    extractor: Literal["auto", "deterministic", "llm"] = "auto"
    enrichment_policy: Literal["generative", "deterministic", "adaptive"] = "adaptive"
    extraction_recent_messages: int = 12
    extraction_max_attempts: int = 3  # matches the queue's maxReceiveCount: the last try marks the job failed

    # Under enrichment_policy=adaptive, the generation activities allowed (the reference's comma-separated
    # names, e.g. "reflection,synthesis"; empty: none). Unset: every activity, extraction only when its rules
    # do not suffice.
    adaptive_generation_activities: str | None = None
    # --- documents (docs/documents.md) ---
    # The bucket uploads land in (S3 in AWS, moto locally); unset: an in-process store (tests, one process).
    document_bucket: str | None = None
    # The queue the bucket's object-created events and reprocess requests go to; unset: processed in-process.
    document_queue_url: str | None = None
    s3_endpoint_url: str | None = None  # moto's server locally (the same one as SQS)
    # Through the API: within API Gateway's 10 MB and Lambda's 6 MB payloads once base64-encoded.
    document_max_bytes: int = 4 * 1024 * 1024
    # Through a presigned URL (POST /v1/documents/uploads): S3 takes it, the document function parses it.
    document_max_upload_bytes: int = 50 * 1024 * 1024
    document_max_pages: int = 500
    # What a DOCX may unpack to: more than this is a zip bomb, refused before it is read.
    document_max_unpacked_bytes: int = 64 * 1024 * 1024
    document_chunk_chars: int = (
        1500  # a memory's size at most (the reference's 4096 is past what embedders read)
    )
    document_max_attempts: int = 3  # the document queue's maxReceiveCount: the last try marks the job failed
    # Every parse runs in a child process (shared/domain/documents/isolated.py) killed past these: wall-clock
    # seconds at upload (the memory function answers within 29 s) and in a job (the documents function has 5
    # minutes), its address space (RLIMIT_AS; the memory function has 1 GiB in all), and how many children one
    # process runs at once. Over a budget: 422 document_parse_budget_exceeded.
    document_parse_seconds: float = 10.0
    document_job_parse_seconds: float = 120.0
    document_parse_memory_mb: int = 512
    document_parse_slots: int = 4
    # The interpreter the parse child runs; unset: this process's own (sys.executable).
    document_parse_python: str | None = None
    # The first line, inside the parsers: a DOCX body's XML elements, and pypdf's parsing budget (operators,
    # operands, array items) for one page's content stream.
    document_max_xml_elements: int = 1_000_000
    document_pdf_max_page_tokens: int = 50_000

    # --- LLM (only proposes; code decides) ---
    # The default profile; the reference's MEMORYLAYER_LLM_PROFILE_DEFAULT_* are the same settings.
    llm_provider: LLMProviderName = Field(
        default="none", validation_alias=env("LLM_PROVIDER", "LLM_PROFILE_DEFAULT_PROVIDER")
    )
    llm_model: str | None = Field(
        default=None, validation_alias=env("LLM_MODEL", "LLM_PROFILE_DEFAULT_MODEL")
    )
    llm_base_url: str | None = Field(
        default=None, validation_alias=env("LLM_BASE_URL", "LLM_PROFILE_DEFAULT_BASE_URL")
    )
    llm_api_key: SecretStr | None = Field(
        default=None, validation_alias=env("LLM_API_KEY", "LLM_PROFILE_DEFAULT_API_KEY")
    )
    # Per call: the response's token cap (unset: the provider's default) and the sampling temperature.
    llm_max_tokens: int | None = Field(
        default=None, ge=1, validation_alias=env("LLM_MAX_TOKENS", "LLM_PROFILE_DEFAULT_MAX_TOKENS")
    )
    llm_temperature: float = Field(
        default=0.0, ge=0, le=2, validation_alias=env("LLM_TEMPERATURE", "LLM_PROFILE_DEFAULT_TEMPERATURE")
    )
    # The other named profiles (MEMORYLAYER_LLM_PROFILE_<NAME>_*, read from the environment): which calls use
    # which name is shared/core/reference_env.py's PROFILE_USERS; a name not configured falls back to these above.
    llm_profiles: dict[str, LLMProfile] = Field(default_factory=dict)
    llm_timeout_s: float = 30.0
    # Per operation (one extraction job, one sandbox request, one answer): calls, estimated input tokens
    # (characters / 4, summed over its calls) and output tokens (each call's cap reserved, then what it used).
    llm_max_calls_per_operation: int = Field(
        default=4, ge=0, validation_alias=env("LLM_MAX_CALLS_PER_OPERATION", "GENERATION_MAX_CALLS")
    )
    llm_max_tokens_per_operation: int = Field(
        default=8000,
        ge=0,
        validation_alias=env("LLM_MAX_TOKENS_PER_OPERATION", "GENERATION_MAX_INPUT_TOKENS"),
    )
    llm_max_output_tokens_per_operation: int = Field(
        default=16_384,
        ge=0,
        validation_alias=env("LLM_MAX_OUTPUT_TOKENS_PER_OPERATION", "GENERATION_MAX_OUTPUT_TOKENS"),
    )

    @model_validator(mode="before")
    @classmethod
    def _refuse_unknown_variables(cls, data: object) -> object:
        # A typo (MEMORYLAYER_EMBEDING_PROVIDER) would otherwise be dropped silently and the default used.
        unknown = unknown_variables(os.environ)
        if unknown:
            named = []
            for name in unknown:
                guess = nearest(name, known_variables())
                named.append(f"{name} (did you mean {guess}?)" if guess else name)
            raise ValueError(
                f"unknown environment variable{'s' if len(unknown) > 1 else ''} {', '.join(named)}: "
                f"MEMORYLAYER_* names are settings (see shared/core/settings.py); unset or correct "
                f"{'them' if len(unknown) > 1 else 'it'}"
            )
        conflicts = alias_conflicts(os.environ)
        if conflicts:
            raise ValueError("; ".join(conflicts))
        return data

    @model_validator(mode="before")
    @classmethod
    def _read_llm_profiles(cls, data: Any) -> Any:
        if isinstance(data, dict) and "llm_profiles" not in data:
            named = {k: v for k, v in profile_variables(os.environ).items() if k != "default"}
            # The reference skips a profile without a provider (a warning): so do we, at start (start_notes).
            data = {**data, "llm_profiles": {k: v for k, v in named.items() if "provider" in v}}
        return data

    @field_validator("embedding_provider", mode="before")
    @classmethod
    def _reference_provider_names(cls, value: Any) -> Any:
        return EMBEDDING_PROVIDER_SYNONYMS.get(value, value) if isinstance(value, str) else value

    @field_validator("context_executor", mode="before")
    @classmethod
    def _reference_executors(cls, value: Any) -> Any:
        # The reference's in-process executors: code runs in our WebAssembly sandbox instead (reported at start).
        return "wasm" if isinstance(value, str) and value.lower() in ("smolagents", "restricted") else value

    @model_validator(mode="after")
    def _fill_embedding_defaults(self) -> Settings:
        defaults = {
            "hash": ("hash-384", 384),
            "local": ("all-MiniLM-L6-v2", 384),
            "endpoint": ("all-MiniLM-L6-v2", 384),
            "sagemaker": ("all-MiniLM-L6-v2", 384),
            "openai": ("text-embedding-3-small", 1536),
            "google": ("gemini-embedding-001", 768),
        }
        model, dims = defaults[self.embedding_provider]
        if self.embedding_model is None:
            self.embedding_model = model
        if self.embedding_dimensions is None:
            self.embedding_dimensions = dims
        if not 1 <= self.embedding_dimensions <= 4000:
            raise ValueError(
                "embedding_dimensions must be between 1 and 4000 (pgvector HNSW limit 2000 for vector)"
            )
        return self

    @model_validator(mode="after")
    def _resume_waits_cover_the_connect_wait(self) -> Settings:
        shortest = min(self.db_resume_timeout_s, self.db_background_resume_timeout_s)
        if shortest < self.db_connect_timeout_s:
            raise ValueError(
                f"db_resume_timeout_s and db_background_resume_timeout_s ({shortest:g}) must be at least "
                f"db_connect_timeout_s ({self.db_connect_timeout_s:g}): the resume wait extends the connect wait"
            )
        return self

    @model_validator(mode="after")
    def _refuse_open_auth_where_reachable(self) -> Settings:
        if self.auth_mode != "none":
            return self
        if self.lambda_function_name:
            raise ValueError(
                "auth_mode=none is refused inside Lambda (AWS_LAMBDA_FUNCTION_NAME is set): anyone reaching "
                "the API could read every workspace and mint keys"
            )
        if not is_loopback(self.host):
            raise ValueError(
                f"auth_mode=none is refused on {self.host}: bind to 127.0.0.1 or set MEMORYLAYER_AUTH_MODE=api_key"
            )
        return self

    @model_validator(mode="after")
    def _require_cursor_secret(self) -> Settings:
        # Checked here only when api_key was asked for (env or argument): functions that sign no cursors (the
        # worker, cleanup, migrate) run on the default. The API checks again when it is built (create_app).
        if "auth_mode" in self.model_fields_set and not self.has_cursor_secret:
            raise ValueError(
                "auth_mode=api_key needs MEMORYLAYER_CONTEXT_CURSOR_SECRET or "
                "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN: without one anybody could forge context cursors"
            )
        return self

    def llm_profile(self, name: str) -> LLMProfile:
        """The profile a call asking for ``name`` uses: that profile if configured, else the default one."""
        named = self.llm_profiles.get(name.lower())
        if named is not None:
            return named
        return LLMProfile(
            provider=self.llm_provider,
            model=self.llm_model,
            base_url=self.llm_base_url,
            api_key=self.llm_api_key,
            max_tokens=self.llm_max_tokens,
            temperature=self.llm_temperature,
        )

    def generation_allowed(self, activity: str) -> bool:
        """Whether the enrichment policy lets an LLM call for ``activity`` be made (the reference's names:
        session_extraction, reflection, synthesis, ...)."""
        if self.enrichment_policy == "deterministic":
            return False
        if self.enrichment_policy == "adaptive" and self.adaptive_generation_activities is not None:
            allowed = {a.strip().lower() for a in self.adaptive_generation_activities.split(",") if a.strip()}
            return activity in allowed
        return True

    @property
    def has_cursor_secret(self) -> bool:
        """Whether cursors can be signed safely: a configured secret, or auth none (a per-process random one)."""
        return bool(self.context_cursor_secret or self.context_cursor_secret_arn) or self.auth_mode == "none"

    @property
    def embedding_model_id(self) -> str:
        """The name recorded on each memory: model and dimensions, e.g. ``all-MiniLM-L6-v2@384``.

        Providers serving the same model (``local`` ONNX and the ``endpoint`` container) share an id, since their
        vectors are comparable; a different model or size never is.
        """
        return f"{self.embedding_model}@{self.embedding_dimensions}"


def field_variables() -> dict[str, list[str]]:
    """Each field's environment names, ours first (``port``: MEMORYLAYER_PORT, MEMORYLAYER_SERVER_PORT)."""
    names: dict[str, list[str]] = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if alias is None:
            names[name] = [ENV_PREFIX + name.upper()]
        elif isinstance(alias, AliasChoices):
            names[name] = [str(c).upper() for c in alias.choices if str(c).upper().startswith(ENV_PREFIX)]
    names.pop("llm_profiles", None)  # read by pattern (MEMORYLAYER_LLM_PROFILE_<NAME>_*), not by its name
    return names


@lru_cache(maxsize=1)
def known_variables() -> frozenset[str]:
    """Every fixed ``MEMORYLAYER_*`` name accepted: fields, their reference aliases, the not-applicable ones."""
    return (
        frozenset(n for names in field_variables().values() for n in names)
        | NOT_SETTINGS
        | frozenset(NOT_APPLICABLE)
    )


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """``MEMORYLAYER_*`` names in ``environ`` that are no setting (sorted).

    >>> unknown_variables({"MEMORYLAYER_PORT": "1", "MEMORYLAYER_PROT": "1", "PATH": "/bin"})
    ['MEMORYLAYER_PROT']
    """
    known = known_variables()
    return sorted(
        k
        for k in environ
        if k.upper().startswith(ENV_PREFIX) and k.upper() not in known and split_profile_variable(k) is None
    )


def alias_conflicts(environ: Mapping[str, str]) -> list[str]:
    """One message per setting given different values under our name and the reference's."""
    upper = {k.upper(): v for k, v in environ.items()}
    out = []
    for names in field_variables().values():
        given = [(n, upper[n]) for n in names if n in upper]
        if len({v for _, v in given}) > 1:
            shown = " and ".join(f"{n}={'…' if 'KEY' in n or 'SECRET' in n else v}" for n, v in given)
            out.append(f"{shown} name the same setting with different values: set one of them")
    return out


def local_server_settings(settings: Settings) -> Settings:
    """A server of our own on a loopback address answers to loopback names only, unless told otherwise: a web
    page that rebinds its own name to 127.0.0.1 then cannot drive it (its requests carry its own name)."""
    if settings.allowed_hosts or not is_loopback(settings.host):
        return settings
    names = {"localhost", "127.0.0.1", "::1", settings.host.strip("[]").lower()}
    return settings.model_copy(update={"allowed_hosts": ",".join(sorted(names))})


def is_loopback(host: str) -> bool:
    """``localhost``, ``127.0.0.0/8`` and ``::1``: reachable from this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0"), is_loopback("10.0.0.5")
    (True, True, False, False)
    """
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name other than localhost may resolve anywhere


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, validated at cold start; reference names that cannot apply are logged once."""
    settings = Settings()
    for note in start_notes(os.environ):
        logging.getLogger("memorylayer.settings").warning(note)
    return settings


DEFAULT_WORKSPACE = "_default"
GLOBAL_WORKSPACE = "_global"
GLOBAL_USER_WORKSPACE = "_global_user"
# Where the official SDK keeps user-owned chat threads (its USER_CHAT_HOME_WORKSPACE).
USER_CHAT_WORKSPACE = "_user_chat"
RESERVED_WORKSPACES = (DEFAULT_WORKSPACE, GLOBAL_WORKSPACE, GLOBAL_USER_WORKSPACE)
