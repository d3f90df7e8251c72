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
    "Association",
    "BatchOperationResult",
    "BatchResult",
    "GraphPath",
    "ImportResult",
    "Memory",
    "MemoryPage",
    "MemoryType",
    "RecallResult",
    "Revision",
    "RevisionPage",
    "TraverseResult",
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
    # recall-only annotations
    relevance_score: float | None = None
    boosted_score: float | None = None
    source_scope: str | None = None
    match_signals: list[str] | None = None


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
    unique_nodes: int = 0
    query_latency_ms: float | None = None


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
