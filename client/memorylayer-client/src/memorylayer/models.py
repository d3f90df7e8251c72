"""Typed views of the API's responses. Unknown keys are ignored, so newer servers never break older clients.

>>> Memory.model_validate({"id": "mem_1", "workspace_id": "ws", "content": "hi", "type": "episodic",
...     "importance": 0.5, "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
...     "something_new": 1}).content
'hi'
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AgentSpecification",
    "PromptNote",
    "RefinementRecord",
    "ResourcePage",
    "ResourceRevision",
    "Answer",
    "ApiKey",
    "AppendResult",
    "Association",
    "BatchOperationResult",
    "BatchResult",
    "Briefing",
    "Checkpoint",
    "CommitResult",
    "Context",
    "ContextDelta",
    "ContextExecResult",
    "ContextInjectResult",
    "ContextItem",
    "ContextLoadResult",
    "ContextPack",
    "ContextQueryResult",
    "ContextRlmResult",
    "KbArticle",
    "KbBridge",
    "KbCentralNode",
    "KbCommunity",
    "KbGraphAnalysis",
    "KbGraphStats",
    "Knowledgebase",
    "ContextState",
    "ContextStatus",
    "ContextVariable",
    "DecomposeResult",
    "DocumentInfo",
    "DocumentMemories",
    "DocumentPage",
    "DocumentUpload",
    "Entity",
    "EntityDetail",
    "EntityPage",
    "EntityRelation",
    "EntityRelationInput",
    "EntityRelationPath",
    "EntityResolution",
    "Evidence",
    "GraphPath",
    "ImportResult",
    "Job",
    "JobInfo",
    "Memory",
    "MemoryPage",
    "MemoryType",
    "Message",
    "MessagePage",
    "PageSearchResult",
    "RecallResult",
    "Reflection",
    "RelationWriteResult",
    "Revision",
    "RevisionPage",
    "Session",
    "Thread",
    "ThreadWithMessages",
    "TraverseResult",
    "WorkingMemoryItem",
    "Workspace",
    "WorkspaceExport",
]


class MemoryType(StrEnum):
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    WORKING = "working"


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class Memory(_Model):
    """One memory. ``sequence_key``/``sequence_index`` place it in an ordered stream (e.g. a chat)."""

    id: str
    workspace_id: str
    content: str
    type: str
    importance: float
    created_at: datetime
    updated_at: datetime
    tenant_id: str = "_default"
    context_id: str | None = None
    user_id: str | None = None
    observer_id: str | None = None
    subject_id: str | None = None
    session_id: str | None = None
    subtype: str | None = None
    content_hash: str | None = None
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    refinement_metadata: dict[str, Any] = Field(default_factory=dict)
    logical_key: str | None = None
    pinned: bool = False
    status: str = "active"
    abstract: str | None = None
    overview: str | None = None
    embedding: list[float] | None = None
    access_count: int = 0
    last_accessed_at: datetime | None = None
    decay_factor: float = 1.0
    revision: int | None = None
    etag: str | None = None
    source_memory_id: str | None = None
    sequence_key: str | None = None
    sequence_index: int | None = None
    event_time: datetime | None = None
    deleted_at: datetime | None = None
    embedding_model: str | None = None
    source_thread_id: str | None = None
    source_message_ids: list[str] | None = None
    fact_key: str | None = None
    # bitemporal history: a superseded memory has ``valid_to`` and ``superseded_by`` (recall include_history)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    superseded_by: str | None = None
    # a write's typed-relation report (remember with ``relations`` or a connector profile); never stored
    relation_write_result: RelationWriteResult | None = None
    # recall-only annotations
    relevance_score: float | None = None
    boosted_score: float | None = None
    source_scope: str | None = None
    match_signals: list[str] | None = None


class EntityRelationInput(_Model):
    """One typed relation for ``remember(relations=[…])``: each end by id or by name (a name with a type creates
    the entity when missing); ``relationship`` is one of the canonical names or a reverse form (``reviewed_by``).

        EntityRelationInput(source_entity_name="Bob", target_entity_name="PR-12", relationship="reviewed")
    """

    relationship: str
    source_entity_id: str | None = None
    source_entity_name: str | None = None
    source_entity_type: str | None = None
    target_entity_id: str | None = None
    target_entity_name: str | None = None
    target_entity_type: str | None = None
    confidence: float | None = None
    source_span_start: int | None = None
    source_span_end: int | None = None
    evidence_kind: str | None = None
    extraction_method: str | None = None


class RelationWriteResult(_Model):
    """What a write did with the memory's relations (sent only when it tried one)."""

    resolved: int = 0
    unresolved: int = 0
    rejected: int = 0
    duplicate: int = 0
    relation_ids: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)


class Entity(_Model):
    """A registry entity: a person, project, ticket, … with its aliases."""

    id: str
    workspace_id: str
    entity_type: str
    canonical_name: str
    normalized_name: str | None = None
    aliases: list[str] = Field(default_factory=list)
    confidence: float = 1.0
    provenance: dict[str, Any] = Field(default_factory=dict)
    external_ids: dict[str, Any] = Field(default_factory=dict)
    representative_memory_id: str | None = None
    status: str = "active"
    merged_into: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


class EntityRelation(_Model):
    """A typed, directed relation between two entities; ``active`` while a live memory is its evidence."""

    id: str
    source_entity_id: str
    target_entity_id: str
    relationship: str
    workspace_id: str | None = None
    direction: str = "outgoing"
    confidence: float = 1.0
    active: bool = True
    created_at: datetime | None = None
    updated_at: datetime | None = None


class EntityRelationPath(_Model):
    """How recall's relational arm reached memories: from ``seed_entity_id`` along ``relations``."""

    seed_entity_id: str
    entity_ids: list[str] = Field(default_factory=list)
    relations: list[EntityRelation] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)
    evidence_memory_ids: list[str] = Field(default_factory=list)


class EntityPage(_Model):
    entities: list[Entity] = Field(default_factory=list)
    total_count: int = 0


class EntityDetail(_Model):
    """``get_entity``: the entity and its active relations."""

    entity: Entity
    relations: list[EntityRelation] = Field(default_factory=list)


class EntityResolution(_Model):
    """``resolve_entity``: the entity a name or alias resolved to, and how (``exact`` or ``alias``)."""

    entity: Entity
    matched_via: str
    score: float = 1.0


class EntityCounts(_Model):
    """How much the store holds about an entity."""

    aliases: int = 0
    relations: int = 0
    memories: int = 0
    evidence: int = 0
    insights: int = 0


class CardRelation(EntityRelation):
    """A relation on an entity card, with both ends' names and kinds."""

    source_name: str = ""
    source_type: str = ""
    target_name: str = ""
    target_type: str = ""


class EntityCard(_Model):
    """``entity_card``: the entity, its relations, top evidence, insights and a summary written from them."""

    entity_id: str
    workspace_id: str
    reflection: str = ""
    insights: list[Memory] = Field(default_factory=list)
    source_memories: list[str] = Field(default_factory=list)
    confidence: float = 0.0
    cached: bool = False
    generated_at: datetime | None = None
    entity: Entity | None = None
    relations: list[CardRelation] = Field(default_factory=list)
    evidence: list[Memory] = Field(default_factory=list)
    counts: EntityCounts | None = None


class EvidenceRow(_Model):
    """One memory stating one of an entity's relations, and the thread and messages it came from."""

    evidence_id: str
    relation_id: str
    relationship: str
    source_entity_id: str
    target_entity_id: str
    memory_id: str
    thread_id: str | None = None
    message_ids: list[str] = Field(default_factory=list)
    evidence_kind: str | None = None
    extraction_method: str | None = None
    confidence: float = 1.0
    source_span_start: int | None = None
    source_span_end: int | None = None
    excerpt: str = ""
    created_at: datetime | None = None


class EntityProvenance(_Model):
    """``entity_provenance``: where an entity came from and the evidence that keeps it."""

    entity_id: str
    origin: str = "unknown"
    activity: str | None = None
    agent: str | None = None
    description: str | None = None
    external_links: dict[str, Any] = Field(default_factory=dict)
    source_memory_ids: list[str] = Field(default_factory=list)
    generated_at: datetime | None = None
    raw: dict[str, Any] = Field(default_factory=dict)
    source: str | None = None
    evidence_memory_ids: list[str] = Field(default_factory=list)
    evidence: list[EvidenceRow] = Field(default_factory=list)


class RelatedEntity(_Model):
    """An entity found in the same memories as another: how many, that share, and their direct relations."""

    entity: Entity
    shared_memories: int = 0
    score: float = 0.0
    relationships: list[str] = Field(default_factory=list)


class EntityInsights(_Model):
    """``entity_insights``: the ``inference`` memories about an entity, with counts and its recent facts."""

    entity_id: str
    workspace_id: str
    insights: list[Memory] = Field(default_factory=list)
    total_count: int = 0
    counts: EntityCounts | None = None
    recent_facts: list[Memory] = Field(default_factory=list)


class EntityDerivation(_Model):
    """``derive_entity_insights``: what the LLM's grounded insights became."""

    subject_id: str
    workspace_id: str
    insights_created: int = 0
    insights_updated: int = 0
    source_memory_count: int = 0
    insights: list[Memory] = Field(default_factory=list)
    generation_summary: dict[str, int] | None = None


class EntitySeedResult(_Model):
    """``seed_entities``: how many were created or updated, and which names were not stored."""

    workspace_id: str
    seeded: int = 0
    created: int = 0
    failed: list[str] = Field(default_factory=list)
    skipped_invalid_type: list[str] = Field(default_factory=list)
    entity_ids: list[str] = Field(default_factory=list)


class EntityBackfillResult(_Model):
    """``backfill_entities``: memories read and what they added; ``next_after`` continues a capped run."""

    workspace_id: str
    cleared: int = 0
    scanned: int = 0
    accreted: int = 0
    relations_written: int = 0
    entities_created: int = 0
    complete: bool = True
    next_after: str | None = None
    stopped_by: str | None = None  # "max_memories" or "time_budget" when the run stopped short


class EntityMergeGroup(_Model):
    target_id: str
    merged_ids: list[str] = Field(default_factory=list)


class EntityDedupeResult(_Model):
    """``dedupe_entities``: each group of colliding entities and the one they merged into."""

    workspace_id: str
    clusters: int = 0
    merged: int = 0
    considered: int = 0
    merges: list[EntityMergeGroup] = Field(default_factory=list)


class EntityEnrichResult(_Model):
    workspace_id: str
    source: str = "wikidata"
    checked: int = 0
    enriched: int = 0
    skipped: int = 0
    linker_configured: bool = False


class MemoryPage(_Model):
    """One page of ``list_memories``; ``total_count`` is the page's length (as the reference server)."""

    memories: list[Memory] = Field(default_factory=list)
    total_count: int = 0


class RecallResult(_Model):
    memories: list[Memory] = Field(default_factory=list)
    total_count: int = 0
    query_tokens: int | None = None
    search_latency_ms: float | None = None
    mode_used: str | None = None
    retrieval_confidence: str | None = None
    confidence_reasons: list[str] = Field(default_factory=list)
    budget_summary: dict[str, Any] | None = None
    query_intent: list[str] | None = None
    relation_paths: list[EntityRelationPath] = Field(default_factory=list)


class Association(_Model):
    id: str
    workspace_id: str
    source_id: str
    target_id: str
    relationship: str
    strength: float
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None


class GraphPath(_Model):
    nodes: list[str] = Field(default_factory=list)
    edges: list[Association] = Field(default_factory=list)
    total_strength: float = 0.0
    depth: int = 0


class TraverseResult(_Model):
    paths: list[GraphPath] = Field(default_factory=list)
    total_paths: int = 0
    unique_nodes: list[str] = Field(default_factory=list)
    query_latency_ms: float | None = None


class Contradiction(_Model):
    """Two memories that cannot both be true (``list_contradictions``, ``resolve_contradiction``)."""

    id: str
    workspace_id: str
    memory_a_id: str
    memory_b_id: str
    contradiction_type: str | None = None
    confidence: float | None = None
    detection_method: str | None = None
    detected_at: datetime | None = None
    resolved_at: datetime | None = None
    resolution: str | None = None


class ContradictionScan(_Model):
    """``scan_contradictions``: the contradictions this scan recorded (a pair recorded before is not)."""

    workspace_id: str
    contradictions_found: int = 0
    contradictions: list[Contradiction] = Field(default_factory=list)
    memories_scanned: int = 0
    truncated: bool = False
    next_cursor: str | None = None
    pairs_found: int = 0
    groups_capped: int = 0


class GraphSnapshot(_Model):
    workspace_id: str
    context_id: str | None = None
    node_count: int = 0
    edge_count: int = 0
    includes_rpg: bool = False


class Community(_Model):
    id: int
    memory_ids: list[str] = Field(default_factory=list)
    size: int = 0
    cohesion_score: float = 0.0
    central_node_ids: list[str] = Field(default_factory=list)
    label: str | None = None


class CentralNode(_Model):
    memory_id: str
    label: str | None = None
    degree: int = 0
    betweenness: float = 0.0
    community_id: int = -1


class Bridge(_Model):
    source_community_id: int
    target_community_id: int
    memory_id_source: str
    memory_id_target: str
    relationship_type: str
    strength: float = 0.0


class GraphStats(_Model):
    node_count: int = 0
    edge_count: int = 0
    community_count: int = 0
    density: float = 0.0
    avg_degree: float = 0.0
    max_degree: int = 0
    god_node_count: int = 0


class GraphAnalysis(_Model):
    """``analyze_graph``: every part of the analysis from one build of the graph; ``truncated``: a server cap
    left associations or memories out."""

    snapshot: GraphSnapshot
    communities: list[Community] = Field(default_factory=list)
    central_nodes: list[CentralNode] = Field(default_factory=list)
    bridges: list[Bridge] = Field(default_factory=list)
    stats: GraphStats = Field(default_factory=GraphStats)
    truncated: bool = False


class Revision(_Model):
    memory: dict[str, Any]
    revision: int | None = None
    action: str | None = None
    operation_id: str | None = None
    created_at: datetime | None = None


class RevisionPage(_Model):
    revisions: list[Revision] = Field(default_factory=list)
    next_page_token: str | None = None


class BatchOperationResult(_Model):
    index: int
    type: str
    status: str
    memory_id: str | None = None
    error: str | None = None


class BatchResult(_Model):
    total_operations: int
    successful: int
    failed: int
    results: list[BatchOperationResult] = Field(default_factory=list)


class Workspace(_Model):
    id: str
    name: str
    tenant_id: str = "_default"
    settings: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    embedding_model: str | None = None


class WorkspaceExport(_Model):
    """A parsed NDJSON export: the header's fields plus every memory and association (as plain dicts)."""

    version: str = "1.0"
    workspace_id: str
    exported_at: str | None = None
    total_memories: int = 0
    total_associations: int = 0
    memories: list[dict[str, Any]] = Field(default_factory=list)
    associations: list[dict[str, Any]] = Field(default_factory=list)


class ImportResult(_Model):
    imported: int = 0
    skipped_duplicates: int = 0
    errors: int = 0
    details: list[dict[str, Any]] = Field(default_factory=list)
    # Export format 2: "kept" or "remapped" ids, and the rows written / already held, by line type.
    ids: str | None = None
    imported_by_kind: dict[str, int] = Field(default_factory=dict)
    skipped_by_kind: dict[str, int] = Field(default_factory=dict)


class UserCounts(_Model):
    """One user of a workspace: how many memories, threads and sessions carry its ``user_id``."""

    user_id: str
    memories: int = 0
    threads: int = 0
    sessions: int = 0


class UserPage(_Model):
    workspace_id: str | None = None
    users: list[UserCounts] = Field(default_factory=list)
    next_after: str | None = None


class EraseResult(_Model):
    """What ``erase_user`` deleted (or, ``dry_run``, would delete), by kind."""

    user_id: str
    dry_run: bool = False
    workspaces: int = 0
    counts: dict[str, int] = Field(default_factory=dict)


class Context(_Model):
    """A named context inside a workspace (memories, sessions and threads carry a ``context_id``)."""

    id: str
    workspace_id: str | None = None
    name: str | None = None
    description: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None


# ---------------------------------------------------------------------- answer and reflect
class Evidence(_Model):
    id: str
    content: str
    relevance_score: float | None = None


class Answer(_Model):
    """A grounded answer: ``answer`` is None when no LLM is configured or when it abstains; ``citations`` and
    ``evidence`` name the memories it stands on."""

    query: str
    answer: str | None = None
    citations: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    abstained: bool = False
    reason: str | None = None
    llm_configured: bool = False
    retrieval_confidence: str | None = None
    generation_summary: dict[str, Any] = Field(default_factory=dict)


class Reflection(_Model):
    reflection: str
    source_memories: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    confidence: float = 0.0
    tokens_processed: int = 0
    llm_configured: bool = False
    abstained: bool = False


# ---------------------------------------------------------------------- sessions
class Session(_Model):
    """A short-lived session with its working memory. ``briefing`` is set when created with ``briefing=True``."""

    id: str
    workspace_id: str
    tenant_id: str = "_default"
    context_id: str | None = None
    user_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    auto_commit: bool = True
    committed_at: datetime | None = None
    expires_at: datetime | None = None
    created_at: datetime | None = None
    briefing: Briefing | None = None


class Briefing(_Model):
    """What happened in a workspace lately: counts, recent memories, open threads, contradictions."""

    workspace_summary: dict[str, Any] = Field(default_factory=dict)
    recent_activity: list[dict[str, Any]] = Field(default_factory=list)
    open_threads: list[Any] = Field(default_factory=list)
    contradictions_detected: list[dict[str, Any]] = Field(default_factory=list)
    memories: list[dict[str, Any]] = Field(default_factory=list)


class WorkingMemoryItem(_Model):
    key: str
    value: Any = None
    ttl_seconds: int | None = None
    expires_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


class CommitResult(_Model):
    """Working memory made long-term: ``memory_ids`` are the memories added (identical content is a no-op)."""

    session_id: str
    memories_extracted: int = 0
    memories_deduplicated: int = 0
    memories_created: int = 0
    breakdown: dict[str, Any] = Field(default_factory=dict)
    extraction_time_ms: float | None = None
    memory_ids: list[str] = Field(default_factory=list)


class Checkpoint(_Model):
    id: str
    session_id: str | None = None
    workspace_id: str | None = None
    idempotency_key: str | None = None
    content_hash: str | None = None
    source_kind: str | None = None
    capture_status: str | None = None
    index_status: str | None = None
    enrichment_status: str | None = None
    raw_memory_id: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


class ContextItem(_Model):
    id: str
    kind: str
    content: str
    importance: float | None = None
    event_time: datetime | None = None
    match_signals: list[str] = Field(default_factory=list)
    source_references: list[Any] = Field(default_factory=list)
    tombstone: bool = False


class ContextPack(_Model):
    """A session's context rendered within a token budget; pass ``cursor`` to ``context_delta`` later."""

    rendered: str = ""
    items: list[ContextItem] = Field(default_factory=list)
    open_threads: list[Any] = Field(default_factory=list)
    unresolved_contradictions: list[Any] = Field(default_factory=list)
    budget_summary: dict[str, Any] = Field(default_factory=dict)
    generation_summary: dict[str, Any] = Field(default_factory=dict)
    cursor: str
    degradation_notices: list[Any] = Field(default_factory=list)


class ContextDelta(_Model):
    """What changed since a cursor; ``has_more`` means call again with the new ``cursor``."""

    rendered: str = ""
    items: list[ContextItem] = Field(default_factory=list)
    memory_changes: list[ContextItem] = Field(default_factory=list)
    working_memory_changes: list[ContextItem] = Field(default_factory=list)
    checkpoint_changes: list[ContextItem] = Field(default_factory=list)
    tombstones: list[ContextItem] = Field(default_factory=list)
    budget_summary: dict[str, Any] = Field(default_factory=dict)
    cursor: str
    has_more: bool = False
    degradation_notices: list[Any] = Field(default_factory=list)


# ---------------------------------------------------------------------- context environment
class ContextExecResult(_Model):
    """``context_exec``: what the code printed, the ``repr`` of its last expression, and the variables it set.

    An exception raised by the code is not raised here: ``error`` holds it (``error_code``
    ``execution_error``) and the sandbox keeps nothing of that run.
    """

    output: str = ""
    result: str | None = None
    error: str | None = None
    error_code: str | None = None
    variables_changed: list[str] = Field(default_factory=list)
    not_persisted: list[str] = Field(default_factory=list)


class ContextVariable(_Model):
    """One sandbox variable: its type, a preview of its ``repr`` and its pickled size."""

    variable: str | None = None  # set when one variable was inspected
    type: str | None = None
    preview: str = ""
    size_bytes: int = 0


class ContextState(_Model):
    """``context_inspect()``: every variable of the session's sandbox (none yet: empty)."""

    variable_count: int = 0
    variables: dict[str, ContextVariable] = Field(default_factory=dict)
    total_size_bytes: int = 0


class ContextLoadResult(_Model):
    """``context_load``: ``count`` recalled memories stored in ``variable`` as a list of dicts."""

    count: int = 0
    variable: str
    query: str | None = None
    total_available: int = 0
    error: str | None = None


class ContextInjectResult(_Model):
    variable: str
    type: str | None = None
    preview: str = ""
    error: str | None = None


class ContextQueryResult(_Model):
    """``context_query``: the LLM's ``response`` about the variables (stored in ``result_var`` if given)."""

    response: str = ""
    variables_used: list[str] = Field(default_factory=list)
    result_var: str | None = None
    error: str | None = None


class ContextRlmResult(_Model):
    """``context_rlm``: the loop's final ``result`` and one ``trace`` entry per step."""

    result: str | None = None
    iterations: int = 0
    trace: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    goal_achieved: bool = False


class ContextStatus(_Model):
    """``context_status``: whether the session has a sandbox yet, its variables, size and limits."""

    exists: bool = False
    variable_count: int = 0
    variables: list[str] = Field(default_factory=list)
    total_size_bytes: int = 0
    memory_limit_bytes: int | None = None
    state_limit_bytes: int | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


# ---------------------------------------------------------------------- threads and jobs
class Thread(_Model):
    """A conversation whose messages feed memory extraction."""

    id: str
    workspace_id: str
    tenant_id: str = "_default"
    user_id: str | None = None
    context_id: str | None = None
    observer_id: str | None = None
    subject_id: str | None = None
    title: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    scope: str | None = None
    ownership: str | None = None
    parent_thread: str | None = None
    message_count: int = 0
    last_decomposed_index: int | None = None
    last_decomposed_at: datetime | None = None
    idle_action: str | None = None
    summary: str | None = None
    expires_at: datetime | None = None
    hidden_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


class Message(_Model):
    id: str
    thread_id: str
    message_index: int
    role: str
    content: str | list[dict[str, Any]]
    metadata: dict[str, Any] = Field(default_factory=dict)
    client_message_id: str | None = None
    created_at: datetime | None = None


class MessagePage(_Model):
    messages: list[Message] = Field(default_factory=list)
    thread_id: str
    total_count: int = 0


class AppendResult(_Model):
    """Messages stored; ``job_id`` is the extraction job to wait for (None if nothing new was stored)."""

    messages: list[Message] = Field(default_factory=list)
    thread_id: str
    new_message_count: int = 0
    job_id: str | None = None


class ThreadWithMessages(_Model):
    thread: Thread
    messages: list[Message] = Field(default_factory=list)
    total_messages: int = 0


class Job(_Model):
    """An extraction job: ``queued`` → ``running`` → ``done`` (``result`` holds the counts) or ``failed``."""

    id: str
    workspace_id: str | None = None
    thread_id: str | None = None
    from_index: int | None = None
    to_index: int | None = None
    status: str
    attempts: int = 0
    error: str | None = None
    result: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def finished(self) -> bool:
        """True once the job will not change any more (``done`` or ``failed``)."""
        return self.status in JOB_FINISHED


JOB_FINISHED = frozenset({"done", "failed"})


# ---------------------------------------------------------------------- admin
class ApiKey(_Model):
    """An API key's record. ``key`` (the secret) is only set in the answer to ``create_api_key``."""

    id: str
    prefix: str | None = None
    tenant_id: str = "_default"
    workspaces: list[str] = Field(default_factory=list)
    access: str = "read_write"
    name: str | None = None
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    created_at: datetime | None = None
    key: str | None = None


class UsageHour(_Model):
    """One tenant's use in one hour of one operation kind (read, write, recall, upload, sandbox, admin, document,
    extraction), ended one way (``outcome``: ok, client_error, server_error, replayed: bill ``ok``)."""

    tenant_id: str
    hour: datetime
    kind: str
    outcome: str
    requests: int = 0
    units: int = 0
    document_pages: int = 0
    sandbox_ms: int = 0
    generation_tokens: int = 0
    embedding_tokens: int = 0


class StoredUsage(_Model):
    """What a tenant stores now: live memories and their text's bytes."""

    tenant_id: str
    memories: int = 0
    bytes: int = 0


class UsageReport(_Model):
    """``get_usage``: the hourly rows of a period (``truncated``: the row cap cut them) and what each stores."""

    since: datetime
    until: datetime
    tenant_id: str | None = None
    hours: list[UsageHour] = Field(default_factory=list)
    truncated: bool = False
    stored: list[StoredUsage] = Field(default_factory=list)


# ---------------------------------------------------------------------- tokens
class TokenInfo(_Model):
    """A token: an API key a key minted for itself, never wider than it (``create_token``)."""

    id: str
    name: str = ""
    principal_type: str = "User"
    workspace_patterns: list[str] = Field(default_factory=list)
    scopes: list[str] = Field(default_factory=lambda: ["*"])
    created_at: datetime | None = None
    expires_at: datetime | None = None
    revoked: bool = False
    access: str | None = None
    shared_spaces: str | None = None
    tenant_id: str | None = None


class TokenCreateResult(TokenInfo):
    """``create_token``'s answer: the record and ``token``, the secret, shown this once."""

    token: str


Session.model_rebuild()


class DecomposeResult(_Model):
    """``decompose_thread``: extraction run now over the messages not yet processed."""

    thread_id: str
    workspace_id: str | None = None
    messages_processed: int = 0
    memories_created: int = 0
    from_index: int = 0
    to_index: int = 0
    job_id: str | None = None


# ---------------------------------------------------------------------------------------- versioned resources
class _Versioned(_Model):
    """What every versioned resource carries: send ``etag`` as ``if_match`` to change it."""

    id: str
    workspace_id: str
    tenant_id: str | None = None
    key: str
    schema_version: int = 1
    metadata: dict[str, Any] = Field(default_factory=dict)
    revision: int = 1
    etag: str
    created_by: str | None = None
    updated_by: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None


class PromptNote(_Versioned):
    title: str
    content: str
    enabled: bool = True


class AgentSpecification(_Versioned):
    name: str
    description: str
    instructions: str
    invocation_guidance: str = ""
    model: str = ""
    max_turns: int = 0
    allowed_tools: list[str] = Field(default_factory=list)
    denied_tools: list[str] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)
    mcp_servers: list[str] = Field(default_factory=list)
    permission_mode: str = "inherit"
    exec_policy_hint: str = ""
    background: bool = False
    enabled: bool = True


class RefinementRecord(_Versioned):
    """Append-only: written once (``revision`` 1)."""

    refinement_id: str
    phase: str
    trigger: str
    scope: str
    summary: str
    rationale: str
    expected_outcome: str
    evidence: list[dict[str, Any]] = Field(default_factory=list)
    edits: list[dict[str, Any]] = Field(default_factory=list)
    outcome: str
    parent_record_id: str | None = None
    rollback_of_record_id: str | None = None
    task_ref: dict[str, Any] | None = None
    approval_ref: dict[str, Any] | None = None


class Skill(_Versioned):
    """A skill: its SKILL.md manifest's fields; its files are summarised by ``bundle_hash``."""

    user_id: str | None = None
    name: str
    description: str
    version: str = "0.1.0"
    license: str | None = None
    compatibility: str | None = None
    allowed_tools: str | None = None
    body: str = ""
    source_mode: str = "server"
    manifest_hash: str = ""
    bundle_hash: str = ""
    enabled: bool = True


class SkillFile(_Model):
    path: str
    kind: str
    size_bytes: int
    content_hash: str
    mime_type: str | None = None


class SkillSync(_Model):
    """What a mirror should do: ``action`` is push, pull, conflict or in_sync."""

    action: str
    reason: str
    server_manifest_hash: str
    server_bundle_hash: str


class McpServer(_Versioned):
    """An MCP server record: ``env`` and ``headers`` values are ``***`` unless read with ``reveal_secrets``."""

    user_id: str | None = None
    name: str
    description: str | None = None
    transport: str
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    source_mode: str = "server"
    manifest_hash: str = ""
    enabled: bool = True


class McpImportResult(_Model):
    imported: int = 0
    updated: int = 0
    skipped: int = 0
    errors: list[str] = Field(default_factory=list)


class McpSync(_Model):
    """What a mirror should do: ``action`` is push, pull, conflict or in_sync."""

    action: str
    reason: str
    server_manifest_hash: str


class DataProvider(_Model):
    """A source documents are ingested from (``local``: direct upload)."""

    id: str
    workspace_id: str
    tenant_id: str | None = None
    name: str
    provider_type: str = "local"
    description: str | None = None
    enabled: bool = True
    connection_args: dict[str, Any] = Field(default_factory=dict)
    schedule: str | None = None
    last_sync_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    revision: int = 1
    etag: str = ""
    created_at: datetime | None = None
    updated_at: datetime | None = None


class WorkspaceView(_Model):
    """A durable checkout, worktree or snapshot of a workspace, addressed by ``view_id``; send ``etag`` as
    ``if_match`` to change it."""

    id: str
    workspace_id: str
    tenant_id: str | None = None
    view_id: str
    kind: str
    display_name: str | None = None
    memory_context_id: str | None = None
    capabilities: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    schema_version: int = 1
    revision: int = 1
    sequence: int = 0
    etag: str
    created_by: str | None = None
    updated_by: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None


class ViewObservation(_Model):
    """The latest state one observer published about one view: ``sequence`` is the observer's cursor within
    ``generation``; the resource's own are ``resource_revision`` and ``resource_sequence``."""

    id: str
    workspace_id: str
    tenant_id: str | None = None
    view_id: str
    observer_id: str
    generation: str
    sequence: int
    tool_host_id: str | None = None
    execution_site: str | None = None
    root_ref: str | None = None
    capabilities: list[str] = Field(default_factory=list)
    vcs: dict[str, Any] | None = None
    observed_at: datetime
    expires_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    schema_version: int = 1
    resource_revision: int = 1
    resource_sequence: int = 0
    etag: str
    created_by: str | None = None
    updated_by: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None


class ResourceRevision(_Model):
    """One accepted write: the resource as it left it (a model of its family), the action and its key."""

    resource: Any
    action: str
    operation_id: str


class ResourcePage(_Model):
    """A page of resources (or of revisions); pass ``next_page_token`` as ``page_token`` for the next."""

    items: list[Any] = Field(default_factory=list)
    next_page_token: str | None = None
    scanned_count: int | None = None
    scan_truncated: bool | None = None


# ---------------------------------------------------------------------- documents
class DocumentInfo(_Model):
    """An uploaded document: ``pending`` → ``processing`` → ``completed`` (its chunks are memories) or ``failed``."""

    id: str
    workspace_id: str
    filename: str
    document_type: str
    content_hash: str
    size_bytes: int
    mime_type: str | None = None
    status: str
    target_context_id: str = "_default"
    page_count: int = 0
    chunk_count: int = 0
    memory_ids: list[str] = Field(default_factory=list)
    deduplicated_count: int = 0
    error_message: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime
    processing_started_at: datetime | None = None
    processing_completed_at: datetime | None = None


class JobInfo(_Model):
    """A document ingestion job: ``queued`` → ``running`` → ``completed``, ``failed`` or ``cancelled``."""

    id: str
    workspace_id: str
    document_ids: list[str] = Field(default_factory=list)
    status: str
    progress_percent: int = 0
    documents_processed: int = 0
    total_memories_created: int = 0
    errors: list[dict[str, Any]] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime
    started_at: datetime | None = None
    completed_at: datetime | None = None


class DocumentPage(_Model):
    """A page of a document: its text; ``relevance_score`` in search results."""

    id: str
    document_id: str
    workspace_id: str
    page_no: int
    transcript: str | None = None
    transcript_model: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None
    relevance_score: float | None = None


class PageSearchResult(_Model):
    pages: list[DocumentPage] = Field(default_factory=list)
    total_count: int = 0
    query: str = ""


class DocumentMemories(_Model):
    """The memories derived from a document; each one's ``metadata`` names its page and span."""

    document_id: str
    memories: list[dict[str, Any]] = Field(default_factory=list)
    total: int = 0


class DocumentUpload(_Model):
    """``create_document_upload``: POST ``fields`` and the file (as ``file``) to ``upload_url``."""

    document: DocumentInfo
    job: JobInfo
    upload_url: str
    fields: dict[str, str] = Field(default_factory=dict)
    expires_in: int = 0
    max_bytes: int = 0


class KbGraphStats(_Model):
    node_count: int = 0
    edge_count: int = 0
    community_count: int = 0
    density: float = 0.0
    avg_degree: float = 0.0
    max_degree: int = 0
    god_node_count: int = 0


class Knowledgebase(_Model):
    """The last generation of a workspace's knowledgebase: its counts, when, and the graph it was cut from."""

    workspace_id: str
    article_count: int = 0
    community_count: int = 0
    generated_at: datetime
    stats: KbGraphStats | None = None
    coverage: dict[str, Any] | None = None


class KbArticle(_Model):
    """One article (``index``, ``community-{n}``, ``entity-{slug}-{suffix}``): Markdown with wikilinks."""

    id: str
    article_type: str
    title: str
    content_md: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    generated_at: datetime


class KbCommunity(_Model):
    """A community of linked memories (0 is the largest)."""

    id: int
    memory_ids: list[str] = Field(default_factory=list)
    size: int = 0
    cohesion_score: float = 0.0
    central_node_ids: list[str] = Field(default_factory=list)
    label: str | None = None


class KbCentralNode(_Model):
    memory_id: str
    label: str | None = None
    degree: int = 0
    betweenness: float = 0.0
    community_id: int = -1


class KbBridge(_Model):
    source_community_id: int
    target_community_id: int
    memory_id_source: str
    memory_id_target: str
    relationship_type: str
    strength: float = 0.0


class KbGraphAnalysis(_Model):
    """A fresh analysis of the workspace's memory graph."""

    snapshot: dict[str, Any] = Field(default_factory=dict)
    communities: list[KbCommunity] = Field(default_factory=list)
    central_nodes: list[KbCentralNode] = Field(default_factory=list)
    bridges: list[KbBridge] = Field(default_factory=list)
    stats: KbGraphStats = Field(default_factory=KbGraphStats)
