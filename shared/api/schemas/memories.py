"""Memories: a memory as stored and sent, its writes, lists, revisions and batches (/v1/memories)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _absent
from shared.core.wire import etag

MemoryTypeOut = Literal["episodic", "semantic", "procedural", "working"]


class Memory(Wire):
    """One memory, as the reference's ``Memory`` (API.md §4). ``embedding`` is sent only when asked for."""

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

    id: str
    workspace_id: str
    tenant_id: str
    context_id: str | None
    user_id: str | None
    observer_id: str | None
    subject_id: str | None
    session_id: str | None
    content: str
    content_hash: str
    type: MemoryTypeOut
    subtype: str | None
    importance: float
    tags: list[str]
    metadata: dict[str, Any]
    refinement_metadata: dict[str, Any]
    logical_key: str | None
    pinned: bool
    status: str
    abstract: str | None = None
    overview: str | None = None
    embedding_model: str | None
    access_count: int
    last_accessed_at: Timestamp | None
    decay_factor: float
    revision: int
    etag: str
    source_thread_id: str | None
    source_message_ids: list[str]
    source_memory_id: str | None
    fact_key: str | None
    sequence_key: str | None
    sequence_index: int | None
    valid_from: Timestamp | None
    valid_to: Timestamp | None
    superseded_by: str | None
    event_time: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp
    deleted_at: Timestamp | None
    embedding: list[float] | None = Field(
        default=None,
        exclude_if=_absent,  # the key is left out, not sent as null: ~3 KB nobody asked for
        description="The embedding vector (e.g. 384 floats); only with `include_embeddings`.",
    )

    @classmethod
    def from_row(cls, row: dict[str, Any], *, embedding: bool = False) -> Self:
        """A memory row; with ``embedding``, its vector too when the row carries it."""
        values = {name: row[name] for name in _MEMORY_COLUMNS}
        values["importance"] = round(float(row["importance"]), 6)
        values["tags"] = list(row["tags"])
        values["source_message_ids"] = list(row["source_message_ids"] or [])
        values["etag"] = etag(row)
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
    """What a write did with the memory's typed relations (issue 18); sent only when something was tried."""

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
        description="The typed-relation report of this write; null unless a relation was written, tried or refused.",
    )

    @classmethod
    def written(cls, row: dict[str, Any], *, embedding: bool = False) -> RememberedMemory:
        memory = cls.from_row(row, embedding=embedding)
        report = row.get("relation_write_result")
        if report is not None and report.any():
            memory.relation_write_result = RelationWriteResult.model_construct(**report.as_wire())
        return memory


class MemoryEnvelope(Wire):
    memory: Memory


class RememberResponse(Wire):
    memory: RememberedMemory
    replayed: bool = Field(description="True when an Idempotency-Key replay returned the stored memory.")


class IngestedMemory(Wire):
    """201 of an ingest route: the reference's ``MemoryResponse`` (no ``replayed``)."""

    memory: RememberedMemory


class MemoryList(Wire):
    memories: list[Memory]
    total_count: int = Field(description="The number of memories on this page (as the reference counts).")


class SequenceKeys(Wire):
    keys: list[str] = Field(description="Every live `sequence_key` of the workspace.")


class Revision(Wire):
    memory: dict[str, Any] = Field(description="The memory as it was after this revision (wire form).")
    revision: int
    action: str = Field(description="What made this revision: create, update, delete, restore, decay…")
    operation_id: str | None
    created_at: Timestamp


class RevisionPage(Wire):
    revisions: list[Revision]
    next_page_token: str | None = Field(
        description="Pass as `page_token` for the next page; null on the last."
    )


class BatchItemResult(Wire):
    index: int = Field(description="Position of the operation in `operations`.")
    type: Literal["create", "update", "delete"]
    status: Literal["success", "error"]
    memory_id: str | None
    error: str | None


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

    total_operations: int
    successful: int
    failed: int
    results: list[BatchItemResult] = Field(
        description="Every success, and the first 20 failures (the rest are counted in `error_summary`)."
    )
    errors_omitted: int = Field(description="Failures left out of `results`.")
    error_summary: list[BatchErrorGroup] = Field(description="Failures grouped by message.")
