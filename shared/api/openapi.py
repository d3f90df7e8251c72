"""/openapi.json that documents itself: field and parameter descriptions, a bearer scheme, examples.

    >>> describe("MemoryCreate", "tags")
    'Labels for filtering. Kept as sent, exact duplicates removed.'

Descriptions a model or route declares itself win; the rest come from one glossary here, by field name (with
per-model overrides where a name means something else), so the same field reads the same on every route. The
schema is built on the first request for it, never at cold start.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

WS = "The workspace; else the `X-Workspace-ID` header, else the key's only workspace."

GLOSSARY: dict[str, str] = {
    # identity and scope
    "id": "The object's id.",
    "workspace_id": WS,
    "tenant_id": "The tenant owning the workspace (`_default` unless keys say otherwise).",
    "context_id": "A named sub-space of the workspace (`_default`); reserved by the reference, not a filter.",
    "user_id": "The end user this belongs to; with `scope: user` the memory goes to the `_global_user` space.",
    "observer_id": "Who observed it (e.g. the agent), for multi-agent memories.",
    "subject_id": "Whom it is about.",
    "session_id": "The session it came from.",
    "scope": "`workspace` (default) or `user` (the user's space shared across workspaces).",
    "ownership": "Who owns the thread: `user` (default) or `agent`.",
    # memory content
    "content": "The text. Leading and trailing whitespace is stripped; empty text is refused.",
    "content_hash": "sha256 hex of the UTF-8 content (or segment).",
    "type": "episodic, semantic, procedural or working; classified by rules when left out.",
    "subtype": "A finer kind: preference, decision, fact, directive, profile, event, …",
    "importance": "0–1 (default 0.5): weighs ranking; recall raises it a little, decay lowers it.",
    "tags": "Labels for filtering. Kept as sent, exact duplicates removed.",
    "metadata": "Any JSON object, stored as given (the server adds a few keys of its own).",
    "refinement_metadata": "Any JSON object about how the memory was refined; covered by the ETag.",
    "logical_key": "A stable key of yours, unique in the workspace (needs Idempotency-Key and If-None-Match).",
    "pinned": "Exempt from decay and archival.",
    "status": "active, archived or deleted.",
    "abstract": "A one-line summary (null: not generated).",
    "overview": "A short summary (null: not generated).",
    "embedding_model": "The model (and dimensions) that embedded it, e.g. `local-minilm@384`.",
    "access_count": "How often recall returned it.",
    "last_accessed_at": "When recall last returned it.",
    "decay_factor": "Multiplier applied by decay (1.0: never decayed).",
    "revision": "Increases by one on every change; see /revisions.",
    "etag": '`"memory-<revision>-<sha256>"`: send as If-Match to update only this version.',
    "source_thread_id": "The thread it was extracted from.",
    "source_message_ids": "The thread messages it was extracted from.",
    "source_memory_id": "The memory it was derived from (e.g. a checkpoint's raw memory).",
    "fact_key": "Groups the versions of one fact: a newer one supersedes the older.",
    "sequence_key": "An ordered stream (e.g. one chat); the server numbers its memories atomically.",
    "sequence_index": "Position in `sequence_key`'s stream, assigned by the server.",
    "valid_from": "Start of the fact's validity.",
    "valid_to": "End of the fact's validity (null: still valid).",
    "superseded_by": "The memory that replaced this one.",
    "event_time": "When the event happened (ISO-8601); temporal filters fall back to created_at.",
    "created_at": "When it was created (ISO-8601 UTC).",
    "updated_at": "When it last changed (ISO-8601 UTC).",
    "deleted_at": "When it was soft-deleted (null: live).",
    "associations": "Ids of memories to link to the new one (`related_to`).",
    # recall
    "query": "The question or keywords; `*` browses by recency without ranking.",
    "types": "Only these memory types (any of them).",
    "subtypes": "Only these subtypes (any of them).",
    "include_global": "Also search the shared `_global` workspace (when the key reaches it).",
    "include_global_user": "Also search the user's `_global_user` space (needs `user_id`).",
    "mode": "rag (default), hybrid, llm or agentic; llm and agentic need a configured LLM.",
    "tolerance": "Cosine floor: loose 0.15, moderate 0.3 (default), strict 0.6.",
    "limit": "How many to return at most.",
    "offset": "How many to skip (paging).",
    "include_embeddings": "Send each memory's embedding vector (384 floats for the default model).",
    "min_relevance": "Drop results under this relevance (≤0 disables the floor; null: the tolerance's).",
    "recency_weight": "0–1 (default 0.2): how much newer memories are preferred.",
    "include_associations": "Expand results along associations (default true).",
    "traverse_depth": "How many association hops to expand (0–5, default 2).",
    "max_expansion": "At most this many memories added by expansion (default 50).",
    "created_after": "Only memories created after this time.",
    "created_before": "Only memories created before this time.",
    "event_after": "Only memories whose event_time (else created_at) is after this time.",
    "event_before": "Only memories whose event_time (else created_at) is before this time.",
    "time_order": "Order the results by time (asc or desc) instead of by score.",
    "detail_level": "abstract, overview or full (default): how much of each memory to send.",
    "include_archived": "Also return archived memories.",
    "include_history": "Also return superseded versions of facts.",
    "exclude_ids": "Never return these memory ids.",
    "budget_tokens": "Fit the answer into about this many tokens (estimated as characters / 3).",
    "include_confidence": "Compute `retrieval_confidence` (always on; accepted for the SDK).",
    "relevance_score": "Fused relevance of the arms that found it (0–1).",
    "memories": "The memories, best first (or in `time_order`).",
    "total_count": "How many there are (for recall: the fused candidate pool before the limit).",
    "query_tokens": "Tokens the query used (0: no LLM involved).",
    "search_latency_ms": "Time the server spent searching, in milliseconds.",
    "mode_used": "The mode that ran (rag without an LLM).",
    "relation_paths": "Entity relation paths (empty on this server).",
    "freshness_metadata": "Summary of the results' freshness.",
    "avg_freshness": "Mean freshness of the results (null: no results).",
    "min_freshness": "Lowest freshness of the results.",
    "max_freshness": "Highest freshness of the results.",
    "severe_count": "Results with freshness under 0.1.",
    "moderate_count": "Results with freshness from 0.1 to 0.5.",
    "query_intent": "The query's intent as classified by rules (e.g. `general`).",
    "retrieval_confidence": "strong (two independent signals), moderate (keyword or relational only) or weak.",
    "confidence_reasons": "Why, e.g. `multiple_independent_retrieval_signals`, `empty_result`.",
    "budget_summary": "What the token budget did.",
    "estimator": "How tokens were estimated (`chars_div_3_conservative_v1`).",
    "truncated_items": "Memories cut to fit the budget.",
    "omitted_items": "Memories left out to fit the budget.",
    "generation_summary": "LLM calls and tokens spent (null or zeros without an LLM).",
    # answer, reflect
    "reflection": "The synthesis, or a note saying no LLM is configured.",
    "source_memories": "Ids of the memories it rests on.",
    "evidence": "The memories recall found, with their relevance.",
    "confidence": "0–1 confidence of the synthesis (0 when there is none).",
    "tokens_processed": "LLM tokens used (input + output).",
    "llm_configured": "Whether this server has an LLM.",
    "abstained": "True when nothing relevant was found, so nothing was claimed.",
    "include_sources": "Return the ids of the memories used.",
    "depth": "How deep to reflect (1–5; accepted for the SDK).",
    # batch
    "operations": "The operations, each `{op: create|update|delete, …}`; each succeeds or fails on its own.",
    "op": "Which operation: create, update or delete.",
    "memory_id": "The memory it applies to.",
    "hard": "Delete for good instead of soft-deleting.",
    "total_operations": "Operations received.",
    "successful": "Operations that succeeded.",
    "failed": "Operations that failed.",
    "results": "One entry per operation (failures past the first 20 are only counted).",
    "error": "What went wrong (null: nothing).",
    # associations, traverse, decay
    "target_id": "The memory to link to.",
    "source_id": "The memory the edge starts from.",
    "relationship": "A lowercase relationship type, e.g. related_to, causes, supersedes (API.md §7).",
    "strength": "0–1 (default 0.5): how strong the link is; expansion scores follow it.",
    "max_depth": "How many hops to walk (1–5, default 2).",
    "relationship_types": "Only edges of these types (empty: all).",
    "direction": "both (default), outgoing or incoming.",
    "min_strength": "Only edges at least this strong.",
    "paths": "Every path from the start memory, breadth-first.",
    "nodes": "Memory ids along the path.",
    "edges": "The edges along the path.",
    "total_strength": "The path's score (product of strengths, decayed per hop).",
    "total_paths": "How many paths were found.",
    "unique_nodes": "Distinct memories reached, the start included.",
    "query_latency_ms": "Time the walk took, in milliseconds.",
    "association": "The edge.",
    "decay_rate": "How much importance to take away (0–1, default 0.1).",
    "memory": "The memory.",
    "revisions": "The revisions, oldest first.",
    "operation_id": "The write that made the revision (an idempotency key or batch id).",
    # workspaces, contexts
    "name": "A display name.",
    "settings": "Any JSON object of settings.",
    "description": "A free-text description.",
    "workspace": "The workspace.",
    "workspaces": "The workspaces.",
    "context": "The context.",
    "contexts": "The contexts.",
    # sessions, working memory, checkpoints, context pack
    "ttl_seconds": "Seconds to live (sessions: 60–86400, default 3600; working memory: stored, not enforced).",
    "auto_commit": "Commit the session's working memory when it ends or expires (default true).",
    "working_memory": "Working memory to set at creation, as `{key: value}`.",
    "briefing": "Also return a briefing of recent workspace activity.",
    "briefing_options": "Briefing options: lookback_minutes or lookback_hours, limit.",
    "committed_at": "When the session was committed (null: not yet).",
    "expires_at": "When it expires (ISO-8601 UTC).",
    "session": "The session.",
    "sessions": "The sessions.",
    "key": "A working-memory key (1–256 characters).",
    "value": "Any JSON value.",
    "items": "Several entries at once: `{key: value}` or `[{key, value, ttl_seconds}]`.",
    "min_importance": "Only keep memories at least this important (accepted; no LLM extraction here).",
    "deduplicate": "Skip duplicates (accepted; no LLM extraction here).",
    "categories": "Only these categories (accepted; no LLM extraction here).",
    "max_memories": "At most this many memories (1–500, default 50).",
    "transcript_segment": "The transcript text to keep (at most the configured size, 1 MiB by default).",
    "idempotency_key": "Your key for this segment: a retry with it returns the same checkpoint.",
    "source_kind": "Where the segment came from (default `transcript`; sanitised to `[a-z0-9_-]`).",
    "source_sequence": "Your sequence number for the segment (optional).",
    "source_boundary": "Your boundary marker for the segment, e.g. its last turn (optional).",
    "topic": "What the model is working on: recalled memories about it are added.",
    "entity_ids": "Entity ids to recall around (the first 8 are used).",
    "entity_names": "Entity names to recall around (the first 8 are used).",
    "section_limits": "Items per section at most.",
    "directives": "Directive and preference memories, pinned ones.",
    "recent_activity": "Recent memories of the workspace.",
    "contradictions": "Unresolved contradictions.",
    "checkpoints": "Raw checkpoint memories for recovery.",
    "include_directives": "Include the directives section.",
    "include_working_memory": "Include the session's working memory.",
    "include_recent_activity": "Include recent activity.",
    "include_contradictions": "Include unresolved contradictions.",
    "include_sandbox_summary": "Include the context-environment summary.",
    "include_checkpoint_recovery": "Include raw checkpoints for recovery.",
    "include_memories": "Include the recent memories themselves.",
    "cursor": "The cursor from the last context pack or delta; changes after it are returned.",
    # threads, messages, jobs
    "title": "A title.",
    "idle_action": "What to do when the thread goes idle (e.g. `decompose`).",
    "parent_thread": "The thread this one continues.",
    "thread": "The thread.",
    "threads": "The threads.",
    "thread_id": "The thread.",
    "message_count": "Messages in the thread.",
    "last_decomposed_index": "The last message index extraction has read.",
    "last_decomposed_at": "When extraction last ran.",
    "hidden_at": "When the thread was hidden (null: visible).",
    "summary": "A summary of the thread (null: none yet).",
    "messages": "The messages, by index.",
    "total_messages": "Messages in the thread.",
    "role": "Who spoke: user, assistant, system, tool…",
    "text": "The part's text.",
    "data": "The part's structured data.",
    "job": "The job.",
    "from_index": "First message index the job reads.",
    "to_index": "Last message index the job reads.",
    "attempts": "How many times the job ran.",
    "result": "What the job produced (null until it finishes).",
    "started_at": "When the job started.",
    "finished_at": "When the job finished.",
    # admin keys
    "access": "read or read_write (default).",
    "api_keys": "The keys (without their secrets).",
    "revoked_at": "When the key was revoked (null: active).",
    # commit, import, context pack and delta
    "extraction_time_ms": "Time the extraction took, in milliseconds.",
    "associations_imported": "Associations written.",
    "memory_changes": "Memories added or changed since the cursor.",
    "working_memory_changes": "Working-memory keys set since the cursor.",
    "checkpoint_changes": "Checkpoints captured since the cursor.",
    "tombstones": "What was deleted or superseded since the cursor.",
    "calls": "LLM calls made (0: deterministic).",
    "input_tokens": "LLM input tokens.",
    "output_tokens": "LLM output tokens.",
    "match_signals": "How it was found: vector, keyword, context, association, recency…",
    "unresolved_contradictions": "Contradicting memories not yet resolved.",
    # typed relations (issue 18; docs/relations.md)
    "relations": "Typed relations this memory is evidence for (`EntityRelationInput`, at most 100).",
    "source_entity_id": "The relation's source entity, by id.",
    "source_entity_name": "The relation's source entity, by name or alias (created when a type is given).",
    "source_entity_type": "Our extension: the source's kind; with a name, the entity is created when missing.",
    "target_entity_id": "The relation's target entity, by id.",
    "target_entity_name": "The relation's target entity, by name or alias (created when a type is given).",
    "target_entity_type": "Our extension: the target's kind; with a name, the entity is created when missing.",
    "source_span_start": "Where the evidence starts in `content` (character offset).",
    "source_span_end": "Where the evidence ends in `content` (exclusive; needs `source_span_start`).",
    "evidence_kind": "explicit (default), adapter, pattern or generated.",
    "extraction_method": "What produced the relation (default `explicit_api`).",
    "include_relations": "Run the relational recall arm when the query names a relation (default true).",
    # FastAPI's validation error
    "detail": "What was wrong with the request.",
    "loc": "Where: `body`, then the path into it.",
    "msg": "What is wrong.",
    "input": "The value that was refused.",
    "ctx": "Details of the rule.",
}

# Same name, another meaning.
OVERRIDES: dict[tuple[str, str], str] = {
    ("EmailIngest", "sender"): "The sender's address or name (becomes the `sent_by` entity).",
    ("EmailIngest", "body"): "The email's text.",
    ("EmailIngest", "to"): "The recipients (one `sent_to` relation each, at most 100).",
    ("EmailIngest", "subject"): "The subject line, put in the memory's text.",
    ("EmailIngest", "timestamp"): "When it was sent (its date prefixes the memory's text).",
    (
        "EmailIngest",
        "thread_id",
    ): "The mail thread's id (names the email when it has no subject or message id).",
    ("EmailIngest", "message_id"): "The email's Message-ID (kept in the memory's metadata).",
    ("EmailIngest", "importance"): "0–1 (default 0.5), as for a memory.",
    ("EmailIngest", "context_id"): "A named sub-space of the workspace (`_default`).",
    (
        "EmailIngest",
        "metadata",
    ): "Extra metadata, stored with the email's own fields (sender, recipients, …).",
    ("EntityRelationInput", "relationship"): "One of the 103 canonical relationships or a reverse form "
    "(`reviewed_by`); docs/relations.md.",
    ("EntityRelationInput", "confidence"): "How sure the writer is (0–1, default 1).",
    ("ContextPackRequest", "budget_tokens"): "Fit the rendered pack into about this many tokens (32–200000).",
    ("ContextDeltaRequest", "budget_tokens"): "Fit the delta into about this many tokens (32–200000).",
    ("ContextCreate", "id"): "The context's id (generated when left out).",
    ("WorkspaceCreate", "id"): "The workspace's id (generated when left out).",
    ("ThreadCreate", "id"): "The thread's id (generated when left out).",
    ("MessageCreate", "id"): "Your id for the message: appending it again is a no-op.",
    ("SessionCreate", "session_id"): "The session's id (else `sess_` + 32 hex).",
    ("MessageCreate", "content"): "A string, or a list of content parts `{type, text?, data?}`.",
    ("ContentPart", "type"): "The part's kind, e.g. `text` or `image`.",
    ("AnswerRequest", "limit"): "Memories to ground the answer on (1–50, default 8).",
    ("KeyCreate", "workspaces"): "The workspaces the key may use (1–100).",
    ("KeyCreate", "tenant_id"): "The tenant that owns the key; its workspaces become the tenant's.",
    ("KeyCreate", "expires_at"): "When the key stops working (null: never).",
    ("Memory", "id"): "`mem_` + 16 hex.",
    ("Association", "id"): "`assoc_` + 16 hex.",
    ("ReflectRequest", "detail_level"): "How detailed the reflection should be (accepted for the SDK).",
}

PARAMETERS: dict[str, str] = {
    "x-workspace-id": "The workspace to use when the body or query does not name one.",
    "x-session-id": "The session (SDKs send it after creating one); its workspace is the fallback.",
    "idempotency-key": "Makes the write safe to retry: a replay returns the first result (`replayed: true`).",
    "if-none-match": "`*`: create only if no memory with this Idempotency-Key or logical_key exists.",
    "if-match": "The ETag of the version you read: the update fails with 412 if it changed since.",
    "association_id": "The association's id.",
    "checkpoint_id": "The checkpoint's id.",
    "job_id": "The job's id.",
    "key_id": "The API key's id.",
    "message_id": "The message's id.",
    "include_deleted": "Also find a soft-deleted memory.",
    "include_expired": "Also list expired sessions.",
    "after_index": "Only messages after this index (-1: from the start).",
    "order": "asc (default) or desc by message index.",
    "page_token": "The `next_page_token` of the previous page.",
    "relationships": "Only these relationship types, comma-separated.",
    "tag": "Only memories with this tag.",
    "tags": "Only workspaces with these tags.",
    "match": "all (default): every tag must match; any: one is enough.",
    "extend_seconds": "New lifetime from now, in seconds (default: the session's TTL).",
    "key": "One key, or several comma-separated (default: every key).",
    "lookback_minutes": "How far back to look, in minutes.",
    "include_associations": "Also export the associations (default true).",
    "limit": "How many at most (for export, 0 means all).",
}


def describe(model: str, field: str) -> str | None:
    return OVERRIDES.get((model, field)) or GLOSSARY.get(field)


def _fill_schemas(schemas: dict[str, Any]) -> None:
    for name, schema in schemas.items():
        for field, prop in (schema.get("properties") or {}).items():
            if not prop.get("description") and (text := describe(name, field)):
                prop["description"] = text


def _restore_examples(schemas: dict[str, Any]) -> None:
    """FastAPI drops None values inside examples when it builds the document (`exclude_none`), which makes an
    example with a null field an invalid body: put the models' own examples back."""
    import shared.domain.requests as requests
    from shared.api import schemas as responses

    for name, schema in schemas.items():
        model = getattr(responses, name, None) or getattr(requests, name, None)
        extra = getattr(model, "model_config", {}).get("json_schema_extra")
        if "examples" in schema and isinstance(extra, dict) and "examples" in extra:
            schema["examples"] = extra["examples"]


def _fill_parameters(paths: dict[str, Any]) -> None:
    for item in paths.values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("description"):
                    continue
                name = parameter["name"]
                text = PARAMETERS.get(name.lower()) or GLOSSARY.get(name)
                if parameter["in"] == "path" and name.endswith("_id"):
                    text = PARAMETERS.get(name) or f"The {name[:-3].replace('_', ' ')}'s id."
                if text:
                    parameter["description"] = text


BEARER = {
    "type": "http",
    "scheme": "bearer",
    "description": "An API key (`memorylayer keys create`), or the admin key for /v1/admin. Local `make dev` "
    "runs without keys (auth_mode none): any value works.",
}


def build(app: FastAPI, open_paths: frozenset[str]) -> dict[str, Any]:
    """The app's OpenAPI document, completed: descriptions, the bearer scheme, open routes marked open."""
    spec = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes, tags=TAGS
    )
    components = spec.setdefault("components", {})
    _fill_schemas(components.get("schemas", {}))
    _restore_examples(components.get("schemas", {}))
    _fill_parameters(spec.get("paths", {}))
    components["securitySchemes"] = {"bearer": BEARER}
    spec["security"] = [{"bearer": []}]
    for path, item in spec.get("paths", {}).items():
        if path in open_paths:
            for operation in item.values():
                operation["security"] = []
    return spec


TAGS = [
    {
        "name": "memories",
        "description": "Remember, recall, update and forget memories; associations and batch.",
    },
    {"name": "workspaces", "description": "Workspaces, their contexts, schema, export and import."},
    {"name": "sessions", "description": "Sessions, working memory, commits and transcript checkpoints."},
    {"name": "context", "description": "Context packs and deltas: what a model should know now."},
    {
        "name": "context environment",
        "description": "A per-session Python sandbox (`X-Session-ID`): load memories as data, run code over "
        "them, ask the LLM about them. Caller code runs in a confined process, never in the API.",
    },
    {"name": "threads", "description": "Conversation threads that feed memory extraction, and its jobs."},
    {"name": "admin", "description": "API keys (admin key only)."},
    {"name": "health", "description": "Liveness and readiness (no key needed)."},
    {"name": "console", "description": "What the memory console page (/console) needs beyond /v1."},
]


def install(app: FastAPI, open_paths: frozenset[str]) -> None:
    """Serve the completed document at /openapi.json (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app, open_paths)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
