"""Memories: a memory as stored and sent, its writes, lists, revisions and batches (/v1/memories)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _absent
from shared.api.schemas.fields import (
    CreatedAt,
    EmbeddingModel,
    ErrorText,
    EventTimeOut,
    InWorkspace,
    TenantId,
    UpdatedAt,
)
from shared.core.fields import (
    Content,
    ContentHash,
    ContextId,
    Importance,
    LogicalKey,
    Metadata,
    ObserverId,
    Pinned,
    RefinementMetadata,
    SequenceKey,
    SourceSessionId,
    SubjectId,
    Subtype,
    Tags,
    UserId,
)
from shared.core.wire import etag as etag_of

MemoryTypeOut = Literal["episodic", "semantic", "procedural", "working"]


class Memory(Wire):
    """One memory, as the reference server's ``Memory``. ``embedding`` is sent only when asked for."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "mem_3f2a9c1e8b7d4a60",
                    "workspace_id": "demo",
                    "tenant_id": "_default",
                    "context_id": "_default",
                    "user_id": None,
                    "observer_id": None,
                    "subject_id": None,
                    "session_id": None,
                    "content": "Alice prefers green tea",
                    "content_hash": "9b1c…",
                    "type": "semantic",
                    "subtype": "preference",
                    "importance": 0.8,
                    "tags": ["drinks"],
                    "metadata": {},
                    "refinement_metadata": {},
                    "logical_key": None,
                    "pinned": False,
                    "status": "active",
                    "abstract": None,
                    "overview": None,
                    "embedding_model": "local-minilm@384",
                    "access_count": 0,
                    "last_accessed_at": None,
                    "decay_factor": 1.0,
                    "revision": 1,
                    "etag": '"memory-1-5e0c…"',
                    "source_thread_id": None,
                    "source_message_ids": [],
                    "source_memory_id": None,
                    "fact_key": None,
                    "sequence_key": None,
                    "sequence_index": None,
                    "valid_from": None,
                    "valid_to": None,
                    "superseded_by": None,
                    "event_time": None,
                    "created_at": "2026-11-29T14:40:34.508615Z",
                    "updated_at": "2026-11-29T14:40:34.508615Z",
                    "deleted_at": None,
                }
            ]
        }
    )

    id: str = Field(description="`mem_` + 16 hex.")
    workspace_id: InWorkspace
    tenant_id: TenantId
    context_id: ContextId
    user_id: UserId
    observer_id: ObserverId
    subject_id: SubjectId
    session_id: SourceSessionId
    content: Content
    content_hash: ContentHash
    type: MemoryTypeOut = Field(
        description="episodic, semantic, procedural or working; classified by rules when left out."
    )
    subtype: Subtype
    importance: Importance
    tags: Tags
    metadata: Metadata
    refinement_metadata: RefinementMetadata
    logical_key: LogicalKey
    pinned: Pinned
    status: str = Field(description="active, archived or deleted.")
    abstract: str | None = Field(
        default=None,
        description="Up to 200 characters: whole sentences of the content, chosen without an LLM (null: none "
        "yet, or tiers are off).",
    )
    overview: str | None = Field(
        default=None,
        description="Up to 500 characters: whole sentences of the content, chosen without an LLM (null: none "
        "yet, or tiers are off).",
    )
    embedding_model: EmbeddingModel
    access_count: int = Field(
        description="Always 0: recall does not count reads here (kept for the reference's wire)."
    )
    last_accessed_at: Timestamp | None = Field(
        description="Always null: recall does not record reads here (kept for the reference's wire)."
    )
    decay_factor: float = Field(description="Multiplier applied by decay (1.0: never decayed).")
    revision: int = Field(description="Increases by one on every change; see /revisions.")
    etag: str = Field(
        description='`"memory-<revision>-<sha256>"`: send as If-Match to update only this version.'
    )
    source_thread_id: str | None = Field(description="The thread it was extracted from.")
    source_message_ids: list[str] = Field(description="The thread messages it was extracted from.")
    source_memory_id: str | None = Field(
        description="The memory it was derived from (e.g. a checkpoint's raw memory)."
    )
    fact_key: str | None = Field(
        description="Groups the versions of one fact: a newer one supersedes the older."
    )
    sequence_key: SequenceKey
    sequence_index: int | None = Field(
        description="Position in `sequence_key`'s stream, assigned by the server."
    )
    valid_from: Timestamp | None = Field(description="Start of the fact's validity.")
    valid_to: Timestamp | None = Field(description="End of the fact's validity (null: still valid).")
    superseded_by: str | None = Field(description="The memory that replaced this one.")
    event_time: EventTimeOut
    created_at: CreatedAt
    updated_at: UpdatedAt
    deleted_at: Timestamp | None = Field(description="When it was soft-deleted (null: live).")
    embedding: list[float] | None = Field(
        default=None,
        exclude_if=_absent,  # the key is left out, not sent as null: ~3 KB nobody asked for
        description="The embedding vector (e.g. 384 floats); only with `include_embeddings`.",
    )

    @classmethod
    def from_row(cls, row: dict[str, Any], *, embedding: bool = False, etag: str | None = None) -> Self:
        """A memory row; with ``embedding``, its vector too when the row carries it. ``etag``: the stored
        memory's, when ``row`` is no longer it (recall's budget may have cut the content)."""
        values = {name: row[name] for name in _MEMORY_COLUMNS}
        values["importance"] = round(float(row["importance"]), 6)
        values["tags"] = list(row["tags"])
        values["source_message_ids"] = list(row["source_message_ids"] or [])
        values["etag"] = etag_of(row) if etag is None else etag
        values["abstract"] = row.get("abstract")
        values["overview"] = row.get("overview")
        vector = row.get("embedding") if embedding else None
        if vector is not None:
            values["embedding"] = floats(vector)
        return cls.model_construct(**values)


_MEMORY_COLUMNS = tuple(
    name
    for name in Memory.model_fields
    if name not in ("importance", "tags", "source_message_ids", "etag", "abstract", "overview", "embedding")
)


def floats(vector: Any) -> list[float]:
    """pgvector returns ``Vector`` objects; fresh embeddings are numpy arrays."""
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return [round(float(x), 7) for x in values]


class RelationWriteResult(Wire):
    """What a write did with the memory's typed relations (docs/relations.md); sent only when something was tried."""

    resolved: int = Field(description="Relations written with both entities resolved.")
    unresolved: int = Field(
        description="Relations whose entity names matched no entity and were not created."
    )
    rejected: int = Field(
        description="Relations refused (unknown relationship, bad span, wrong entity kind)."
    )
    duplicate: int = Field(description="Relations that already existed with this memory as evidence.")
    relation_ids: list[str] = Field(description="Ids of the relations this write touched.")
    errors: list[str] = Field(description="One message per rejected relation.")


class RememberedMemory(Memory):
    """A memory as a write returns it: with the transient ``relation_write_result`` (never stored)."""

    relation_write_result: RelationWriteResult | None = Field(
        default=None,
        description="The typed-relation report of this write; null unless a relation was written, tried or "
        "refused.",
    )

    @classmethod
    def written(cls, row: dict[str, Any], *, embedding: bool = False) -> RememberedMemory:
        memory = cls.from_row(row, embedding=embedding)
        report = row.get("relation_write_result")
        if report is not None and report.any():
            memory.relation_write_result = RelationWriteResult.model_construct(**report.as_wire())
        return memory


class MemoryEnvelope(Wire):
    memory: Memory = Field(description="The memory.")


class RememberResponse(Wire):
    memory: RememberedMemory = Field(description="The memory.")
    replayed: bool = Field(description="True when an Idempotency-Key replay returned the stored memory.")


class MemoryMutation(Wire):
    memory: Memory = Field(description="The memory after the write (a retry: as the first write left it).")
    replayed: bool = Field(description="True when this answers a retry of the same Idempotency-Key.")


class IngestedMemory(Wire):
    """201 of an ingest route: the reference's ``MemoryResponse`` (no ``replayed``)."""

    memory: RememberedMemory = Field(description="The memory.")


class MemoryList(Wire):
    memories: list[Memory] = Field(description="The memories, best first (or in `time_order`).")
    total_count: int = Field(description="The number of memories on this page (as the reference counts).")


class SequenceKeys(Wire):
    keys: list[str] = Field(description="Every live `sequence_key` of the workspace.")


class Revision(Wire):
    memory: dict[str, Any] = Field(description="The memory as it was after this revision (wire form).")
    revision: int = Field(description="Increases by one on every change; see /revisions.")
    action: str = Field(
        description="What made this revision: create, replace (an update), delete, restore, supersede…"
    )
    operation_id: str | None = Field(
        description="The write that made the revision (an idempotency key or batch id)."
    )
    created_at: CreatedAt


class RevisionPage(Wire):
    revisions: list[Revision] = Field(description="The revisions, newest first.")
    next_page_token: str | None = Field(
        description="Pass as `page_token` for the next page; null on the last."
    )


class BatchItemResult(Wire):
    index: int = Field(description="Position of the operation in `operations`.")
    type: Literal["create", "update", "delete"] = Field(
        description="The operation: create, update or delete."
    )
    status: Literal["success", "error"] = Field(description="success or error.")
    memory_id: str | None = Field(description="The memory it applies to.")
    error: ErrorText


class BatchErrorGroup(Wire):
    error: str = Field(description="One distinct error message.")
    count: int = Field(description="How many operations failed with it.")
    indexes: list[int] = Field(description="Every failed operation's index, in order.")


class BatchResponse(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "total_operations": 2,
                    "successful": 1,
                    "failed": 1,
                    "results": [
                        {"index": 0, "type": "create", "status": "success", "memory_id": "mem_3f2a9c1e8b7d4a60",
                         "error": None},
                        {"index": 1, "type": "delete", "status": "error", "memory_id": "mem_0000000000000000",
                         "error": "memory mem_0000000000000000 not found"},
                    ],
                    "errors_omitted": 0,
                    "error_summary": [{"error": "memory mem_0000000000000000 not found", "count": 1,
                                       "indexes": [1]}],
                }
            ]
        }
    )  # fmt: skip

    total_operations: int = Field(description="Operations received.")
    successful: int = Field(description="Operations that succeeded.")
    failed: int = Field(description="Operations that failed.")
    results: list[BatchItemResult] = Field(
        description="Every success, and the first 20 failures (the rest are counted in `error_summary`)."
    )
    errors_omitted: int = Field(description="Failures left out of `results`.")
    error_summary: list[BatchErrorGroup] = Field(description="Failures grouped by message.")
