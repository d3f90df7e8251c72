"""Conditional memory writes, as the reference's versioned memory routes serve them: a soft delete, its
restore, and a semantic replace (new content and classification, embedded again). Each names the revision it
expects (``If-Match``: the memory's ETag, else 412) and its operation (``Idempotency-Key``: a retry answers the
first result, marked replayed; the key with another request is a 409). Every one is a new revision in the
memory's history (``/revisions``), tagged with its operation, and an audit event, in the write's transaction.

Where the reference takes only memories with a ``logical_key``, any memory is accepted here.

    >>> mutation = delete(memories, scope, "mem_1", Condition("op-1", '"memory-1-…"'))   # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import psycopg

from shared.core import metering
from shared.core.errors import Conflict, NotFound, PreconditionFailed
from shared.db import audit, idempotency
from shared.db import memories as repo
from shared.db.rows import Connection
from shared.db.scope import Scope
from shared.domain.memories import serialize
from shared.domain.memories.rows import dedup_key, normalise_tags
from shared.domain.memories.tiers import columns as tier_columns
from shared.domain.requests import MemoryReplace

if TYPE_CHECKING:
    from shared.domain.memories.service import MemoryService

Action = Literal["delete", "restore", "replace"]

# A snapshot (memory_revisions.snapshot, jsonb) holds times as text; the row a write returns holds datetimes.
_TIMES = (
    "last_accessed_at",
    "valid_from",
    "valid_to",
    "event_time",
    "created_at",
    "updated_at",
    "deleted_at",
)


@dataclass(frozen=True)
class Condition:
    """What a conditional write names: its operation (the Idempotency-Key) and the ETag it expects."""

    operation_id: str
    expected_etag: str


@dataclass(frozen=True)
class Mutation:
    """The memory after the write, and whether this answer is a retry's (the first write's result)."""

    row: dict[str, Any]
    replayed: bool


def delete(memories: MemoryService, scope: Scope, memory_id: str, condition: Condition) -> Mutation:
    """Soft-delete a live memory: hidden from recall and listings, kept with its history until restored."""
    return _mutate(
        memories,
        scope,
        memory_id,
        "delete",
        condition,
        {},
        lambda conn, current: repo.soft_delete(conn, Scope.of(current["workspace_id"]), memory_id),
    )


def restore(memories: MemoryService, scope: Scope, memory_id: str, condition: Condition) -> Mutation:
    """Bring a soft-deleted memory back as it was (its relation evidence comes back with it). A hard-deleted
    one is gone: 404."""
    return _mutate(
        memories,
        scope,
        memory_id,
        "restore",
        condition,
        {},
        lambda conn, current: repo.restore(conn, current["workspace_id"], memory_id),
    )


def replace(
    memories: MemoryService, scope: Scope, memory_id: str, body: MemoryReplace, condition: Condition
) -> Mutation:
    """Replace a live memory's semantic document: content (embedded again), type, subtype, tags, refinement
    metadata and pin. Relations are derived again from the new content."""
    memories.limits.check(content=body.content, tags=body.tags, metadata=body.refinement_metadata)
    vector = memories.embedder.embed_one(body.content)  # before the transaction: no connection waits on it
    tags = normalise_tags(body.tags)

    def apply(conn: Connection, current: dict[str, Any]) -> dict[str, Any] | None:
        changes = {
            "content": body.content,
            "content_hash": hashlib.sha256(body.content.encode()).hexdigest(),
            "embedding": vector,
            "embedding_model": memories.embedder.model_id,
            "type": body.type,
            "subtype": body.subtype,
            "tags": tags,
            "tags_lower": sorted({t.lower() for t in tags}),
            "refinement_metadata": body.refinement_metadata,
            "pinned": body.pinned,
            "dedup_key": dedup_key(
                body.content, tags, current["metadata"], current["user_id"], current["sequence_key"]
            ),
            **tier_columns(body.content, memories.settings.extractive_tiers_enabled),
        }
        updated = repo.update(conn, current["workspace_id"], memory_id, changes)
        memories.rederive_relations(conn, updated, changes)
        return updated

    return _mutate(memories, scope, memory_id, "replace", condition, body.model_dump(mode="json"), apply)


def _mutate(
    memories: MemoryService,
    scope: Scope,
    memory_id: str,
    action: Action,
    condition: Condition,
    request: dict[str, Any],
    apply: Callable[[Connection, dict[str, Any]], dict[str, Any] | None],
) -> Mutation:
    request_hash = hashlib.sha256(
        serialize.canonical_json(
            {"action": action, "memory_id": memory_id, "expected_etag": condition.expected_etag, **request}
        ).encode()
    ).hexdigest()
    try:
        with memories.db.transaction() as conn:
            current = repo.get_for_update(conn, scope, memory_id, include_deleted=True)
            if current is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            workspace_id = current["workspace_id"]
            ttl_s = memories.settings.idempotency_ttl_s
            replay = _replay(conn, workspace_id, memory_id, condition.operation_id, request_hash, ttl_s)
            if replay is not None:
                metering.replayed()
                return Mutation(replay, replayed=True)
            _check(current, action, condition)
            repo.tag_operation(conn, condition.operation_id, action)
            row = apply(conn, current)
            assert row is not None, "the memory is locked in the state just checked"
            idempotency.record(conn, workspace_id, condition.operation_id, request_hash, memory_id)
            audit.record(
                conn,
                workspace_id,
                "memory",
                action,
                resource_type="memory",
                resource_id=memory_id,
                metadata={"revision": row["revision"]},
            )
    except psycopg.errors.UniqueViolation as exc:
        # Restore or replace would make two live memories of one content (or one logical_key); a concurrent
        # write took the Idempotency-Key for another memory.
        constraint = exc.diag.constraint_name or ""
        if constraint.startswith("idempotency"):
            raise Conflict(
                "Idempotency-Key was already used with a different request", code="idempotency_key_reused"
            ) from exc
        raise Conflict(
            "a live memory with the same content or logical_key exists in this workspace",
            code="duplicate_memory",
        ) from exc
    return Mutation(row, replayed=False)


def _check(current: dict[str, Any], action: Action, condition: Condition) -> None:
    """The reference's preconditions, in its order: the ETag first, then the memory's state."""
    etag = serialize.etag(current)
    if condition.expected_etag != etag:
        raise PreconditionFailed("If-Match does not match the memory's current ETag", etag=etag)
    if action == "restore" and current["deleted_at"] is None:
        raise Conflict(f"memory {current['id']} is not deleted", code="memory_not_deleted")
    if action != "restore" and current["deleted_at"] is not None:
        raise NotFound(f"memory {current['id']} not found", code="memory_not_found")


def _replay(
    conn: Connection, workspace_id: str, memory_id: str, operation_id: str, request_hash: str, ttl_s: int
) -> dict[str, Any] | None:
    """The first result of this operation, if it ran within ``ttl_s``; a 409 if its key was used for another
    request."""
    record = idempotency.lock(conn, workspace_id, operation_id, ttl_s)
    if record is None:
        return None
    if record["request_hash"] != request_hash or record["memory_id"] != memory_id:
        raise Conflict(
            "Idempotency-Key was already used with a different request", code="idempotency_key_reused"
        )
    snapshot = repo.operation_snapshot(conn, workspace_id, memory_id, operation_id)
    if snapshot is None:
        raise Conflict("the write under this Idempotency-Key left no revision", code="idempotency_gone")
    return {
        k: datetime.fromisoformat(v) if k in _TIMES and isinstance(v, str) else v for k, v in snapshot.items()
    }
