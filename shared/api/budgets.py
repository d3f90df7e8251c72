"""Every route whose work grows with what it is sent or what is stored declares its budget here: what bounds one
request's rows, bytes or time, the settings that hold the numbers, and how a client continues when a budget cut
the work short. ``docs/budgets.md`` is rendered from this table (``python -m shared.api.budgets``), and
``tests/unit/test_budgets.py`` fails when a route that takes a body, a file or a list query parameter has none.

Every body is first bounded by the request cap (``max_request_bytes``, the ``BodySizeLimit`` middleware, 413)
and strict JSON; "the model's caps" are the request model's ``max_length`` / ``le`` constraints (422).

    >>> budget_for("POST", "/v1/context/execute").settings[0]
    'context_max_exec_seconds'
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

BODY = "max_request_bytes"


@dataclass(frozen=True)
class Budget:
    """``routes``: ``METHOD /path/template`` patterns (``*`` matches within and across segments)."""

    routes: tuple[str, ...]
    bounds: str
    settings: tuple[str, ...] = (BODY,)
    resume: str = ""


BUDGETS: tuple[Budget, ...] = (
    Budget(
        ("POST /v1/memories", "PUT /v1/memories/{memory_id}", "PUT /v1/memories/{memory_id}/semantic"),
        "one memory: content, tags, metadata (bytes and depth)",
        (BODY, "max_content_bytes", "max_tags", "max_tag_length", "max_metadata_bytes", "max_metadata_depth"),
    ),
    Budget(
        ("POST /v1/memories/batch",),
        "operations per request, each as one memory",
        (BODY, "max_batch_operations", "max_content_bytes", "max_metadata_bytes"),
    ),
    Budget(
        ("POST /v1/memories/recall", "POST /v1/memories/answer", "POST /v1/memories/reflect"),
        "results and candidates per recall; the candidate rows one statement sorts; the answer's tokens",
        (
            BODY,
            "max_recall_limit",
            "recall_min_candidates",
            "recall_sorted_max_rows",
            "llm_max_tokens_per_operation",
        ),
    ),
    Budget(
        ("POST /v1/memories/{memory_id}/traverse",),
        "nodes reached, strongest edges per node, answer bytes (one recursive statement)",
        (BODY, "graph_max_nodes", "graph_max_edges_per_node", "traverse_max_response_bytes"),
        "`truncated` says a cap cut the walk",
    ),
    Budget(
        (
            "POST /v1/memories/{memory_id}/decay",
            "POST /v1/memories/{memory_id}/associate",
            "PATCH /v1/memories/{memory_id}/associations/{association_id}",
        ),
        "one memory or one association: the model's caps (metadata bytes)",
        (BODY, "max_metadata_bytes"),
    ),
    Budget(
        ("POST /v1/workspaces/{workspace_id}/import",),
        "lines of each kind and rows in all (format 2, one transaction); memories and associations (format 1.0)",
        (
            BODY,
            "max_import_memories",
            "max_import_associations",
            "max_import_rows_per_kind",
            "max_import_rows",
        ),
        "413 naming the kind and limit, nothing written: split the file",
    ),
    Budget(
        ("GET /v1/admin/usage",),
        "the period (at most 92 days) and the hourly rows one report holds (10,000: "
        "`shared/domain/usage.py`); stored memories counted in one pass",
        (),
        "400 `usage_period_too_long` for a longer period; `truncated`: ask again from the last hour returned",
    ),
    Budget(
        ("GET /v1/workspaces",),
        "the `tags` filter: query string length (the model's caps), one page of workspaces",
        (),
    ),
    Budget(
        (
            "POST /v1/workspaces",
            "PUT /v1/workspaces/{workspace_id}",
            "POST /v1/workspaces/{workspace_id}/contexts",
            "POST /v1/workspaces/{workspace_id}/views",
            "PUT /v1/workspaces/{workspace_id}/views/*",
            "POST /v1/users/{user_id}/erase",
            "POST /v1/admin/api-keys",
            "POST /v1/tokens",
            "POST /v1/entities/merge",
            "POST /v1/entities/{entity_id}/aliases",
            "POST /v1/contradictions/{contradiction_id}/resolve",
            "PUT /v1/threads/{thread_id}",
        ),
        "one row (or one user's erase, one transaction): the body cap and the model's caps",
    ),
    Budget(
        ("POST /v1/threads", "POST /v1/threads/{thread_id}/messages"),
        "messages per append (500), participants (50), content per message; the extraction job runs later "
        "and its rules read at most 10,000 characters, 400 sentences of 1,000 of each text",
        (BODY, "max_content_bytes", "max_metadata_bytes"),
    ),
    Budget(
        ("POST /v1/sessions", "POST /v1/sessions/{session_id}/memory"),
        "working-memory items per request",
        (BODY, "max_working_memory_items"),
        "413 too_many_items, nothing written",
    ),
    Budget(
        ("POST /v1/sessions/{session_id}/commit", "POST /v1/sessions/{session_id}/checkpoints"),
        "a checkpoint's bytes and segments; a commit's memories as a batch",
        (BODY, "checkpoint_max_bytes", "checkpoint_max_segments", "max_batch_operations"),
    ),
    Budget(
        ("POST /v1/sessions/{session_id}/context-pack", "POST /v1/sessions/{session_id}/context-delta"),
        "the pack's token budget and recall limit; events per delta window",
        (BODY, "max_recall_limit", "context_event_retention_days"),
        "a delta answers a signed cursor to continue from",
    ),
    Budget(
        ("POST /v1/context/*",),
        "sandbox time, memory, operations, state and output per call; RLM iterations; concurrent slots "
        "per deployment, tenant and key",
        (
            "context_max_exec_seconds",
            "context_max_memory_bytes",
            "context_max_operations",
            "context_max_state_bytes",
            "context_max_state_elements",
            "context_max_output_chars",
            "context_max_variables",
            "context_query_max_tokens",
            "context_rlm_max_iterations",
            "context_rlm_max_exec_seconds",
            "context_slots",
            "context_tenant_slots",
            "context_key_slots",
        ),
        "503/429 with Retry-After when no slot is free",
    ),
    Budget(
        ("POST /v1/entities/backfill",),
        "memories read per call and its time; one transaction per memory written",
        ("entity_backfill_max_memories", "entity_backfill_time_budget_s"),
        "`next_after` (pass as `after`), `stopped_by`",
    ),
    Budget(
        ("POST /v1/entities/seed", "POST /v1/entities/{entity_id}/derive"),
        "entities per seed (1,000); LLM calls and tokens per derive",
        (BODY, "llm_max_calls_per_operation", "llm_max_tokens_per_operation"),
    ),
    Budget(
        ("POST /v1/ingest/email",),
        "one message: the body cap, then content as one memory",
        (BODY, "max_content_bytes"),
    ),
    Budget(
        (
            "POST /v1/prompt-notes",
            "PUT /v1/prompt-notes/{note_id}",
            "POST /v1/agent-specifications",
            "PUT /v1/agent-specifications/{specification_id}",
            "POST /v1/refinement-records",
            "GET /v1/refinement-records",
            "POST /v1/skills",
            "POST /v1/skills/resolve",
            "PUT /v1/skills/{skill_id}/manifest",
            "PUT /v1/skills/{skill_id}",
            "POST /v1/skills/{skill_id}/sync",
            "POST /v1/mcp-servers",
            "POST /v1/mcp-servers/resolve",
            "POST /v1/mcp-servers/import",
            "PUT /v1/mcp-servers/{server_id}",
            "POST /v1/mcp-servers/{server_id}/sync",
            "POST /v1/data-providers",
            "PUT /v1/data-providers/{provider_id}",
        ),
        "one versioned resource (or one page of a listing filtered by the list parameters): the body cap and "
        "the model's caps; resolve ranks at most one page; an Idempotency-Key is replayed for its TTL",
        (BODY, "idempotency_ttl_s"),
    ),
    Budget(
        ("PUT /v1/skills/{skill_id}/files/*",),
        "one file of 1 MiB, 256 files a skill; the bundle is streamed file by file",
        (BODY,),
    ),
    Budget(
        ("POST /v1/representation", "POST /v1/representation/user"),
        "memories read per representation (the model's `limit`)",
    ),
    Budget(
        ("POST /v1/documents", "POST /v1/documents/uploads"),
        "upload bytes (direct and presigned), pages, unpacked bytes and XML elements (DOCX), text per PDF "
        "page; parsing runs in a child process with its own time, memory and concurrent slots",
        (
            "document_max_bytes",
            "document_max_upload_bytes",
            "document_max_pages",
            "document_max_unpacked_bytes",
            "document_max_xml_elements",
            "document_pdf_max_page_tokens",
            "document_parse_seconds",
            "document_job_parse_seconds",
            "document_parse_memory_mb",
            "document_parse_slots",
        ),
        "422 document_parse_budget_exceeded; 503 with Retry-After when no parse slot is free",
    ),
    Budget(
        ("POST /v1/documents/search", "POST /v1/documents/{document_id}/reprocess"),
        "results per search (the model's `limit`); a reprocess is one queued job under the upload's limits",
        (BODY, "max_recall_limit", "document_max_pages"),
    ),
    Budget(
        ("POST /v1/workspaces/{workspace_id}/contradictions/scan",),
        "memories compared, pairs recorded and answered per scan, pairs per fact group",
        (
            "contradiction_scan_max_memories",
            "contradiction_scan_max_pairs",
            "contradiction_scan_max_group_pairs",
        ),
        "`next_cursor` (pass as `cursor`); `truncated`, `groups_capped`",
    ),
    Budget(
        ("POST /v1/graph/analyze", "POST /v1/graph/densify-preview"),
        "edges and nodes of the graph built, betweenness pivots; densify reads the nodes' vectors once",
        ("graph_analysis_max_edges", "graph_analysis_max_nodes", "graph_betweenness_pivots"),
        "`truncated` says a cap cut the graph",
    ),
    Budget(
        ("POST /v1/knowledgebase/generate",),
        "the graph's caps; communities and central nodes written (the model's `max_communities` 500)",
        ("graph_analysis_max_edges", "graph_analysis_max_nodes"),
    ),
)


def _key(method: str, path: str) -> str:
    return f"{method.upper()} {path}"


def budget_for(method: str, path: str) -> Budget | None:
    """The budget declared for a route (its path template as FastAPI names it), or None."""
    key = _key(method, path)
    return next((b for b in BUDGETS if any(fnmatchcase(key, pattern) for pattern in b.routes)), None)


def markdown() -> str:
    """docs/budgets.md."""
    lines = [
        "# Budgets",
        "",
        "What bounds the work of each route that takes a body, a file or a list, and how to continue when a "
        "budget cut it short. Generated from `shared/api/budgets.py` (`python -m shared.api.budgets > "
        "docs/budgets.md`); `tests/unit/test_budgets.py` checks that every such route has a row here.",
        "",
        f"Every body is first bounded by `MEMORYLAYER_{BODY.upper()}` (413) and read as strict JSON; \"the model's "
        "caps\" are the request model's length and range constraints (422). Settings are `MEMORYLAYER_` + the "
        "name in capitals (`shared/core/settings.py`).",
        "",
        "| routes | what is bounded | settings | to continue |",
        "|---|---|---|---|",
    ]
    for b in BUDGETS:
        routes = "<br>".join(f"`{r}`" for r in b.routes)
        settings = ", ".join(f"`{s}`" for s in b.settings) or "—"
        lines.append(f"| {routes} | {b.bounds} | {settings} | {b.resume or '—'} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
