"""The memory service: the one place where remember/get/update/forget/batch/associate rules live.

    >>> svc = MemoryService(db, embedder, settings)                                 # doctest: +SKIP
    >>> memory, created, replayed = svc.remember("ws_a", MemoryCreate(content="likes tea"))   # doctest: +SKIP

Embedding happens before the transaction opens, so a slow provider never holds a database connection."""

from __future__ import annotations

import builtins
import hashlib
import uuid
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg

from shared.core import metering, metrics, ontology
from shared.core.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    PreconditionFailed,
    Unprocessable,
)
from shared.core.settings import Settings
from shared.core.tenants import DEFAULT_TENANT, user_space
from shared.db import associations as assoc_repo
from shared.db import audit, idempotency
from shared.db import memories as repo
from shared.db import relations as relations_repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.db.scope import Scope
from shared.domain.indexing import generations
from shared.domain.memories import serialize
from shared.domain.memories.classify import classify
from shared.domain.memories.rows import dedup_key, memory_row, normalise_tags
from shared.domain.memories.tiers import columns as tier_columns
from shared.domain.relations import connectors
from shared.domain.relations import writer as relations
from shared.domain.requests import (
    BatchCreate,
    BatchDelete,
    BatchRequest,
    BatchUpdate,
    MemoryCreate,
    MemoryUpdate,
)
from shared.providers.embeddings.base import Embedder

_Body = TypeVar("_Body", MemoryCreate, MemoryUpdate, BatchCreate)


# Set even when equal to ``current``: the row read for an update does not carry them.
_ALWAYS_SET = frozenset({"embedding", "abstract", "overview", "tier_source_spans"})


def new_association_id() -> str:
    return f"assoc_{uuid.uuid4().hex[:16]}"


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether dicts and lists nest deeper than ``limit`` levels: a walk with an explicit stack that stops at the
    first level past the limit, so 900 levels cost no recursion (the recursive version hit RecursionError, a 500).

    >>> nesting_exceeds({"a": [1, {"b": 2}]}, 3), nesting_exceeds({"a": [1, {"b": 2}]}, 2)
    (False, True)
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            if level + 1 > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return False


@dataclass
class Limits:
    settings: Settings

    def check(self, *, content: str | None, tags: list[str] | None, metadata: dict | None) -> None:
        s = self.settings
        if content is not None and len(content.encode()) > s.max_content_bytes:
            raise PayloadTooLarge(
                f"content is {len(content.encode())} bytes; the limit is {s.max_content_bytes}",
                code="content_too_large",
                limit=s.max_content_bytes,
            )
        if tags is not None:
            if len(tags) > s.max_tags:
                raise Unprocessable(f"{len(tags)} tags; the limit is {s.max_tags}", code="too_many_tags")
            long = [t for t in tags if len(t) > s.max_tag_length]
            if long:
                raise Unprocessable(
                    f"a tag is longer than {s.max_tag_length} characters", code="tag_too_long"
                )
        if metadata is not None:
            # Depth first: serializing a deeply nested value recurses, the iterative check does not.
            if nesting_exceeds(metadata, s.max_metadata_depth):
                raise Unprocessable(
                    f"metadata nests deeper than {s.max_metadata_depth} levels", code="metadata_too_deep"
                )
            size = len(serialize.canonical_json(metadata).encode())
            if size > s.max_metadata_bytes:
                raise PayloadTooLarge(
                    f"metadata is {size} bytes; the limit is {s.max_metadata_bytes}",
                    code="metadata_too_large",
                )

    def check_association(self, *, strength: Any, metadata: Any) -> None:
        """An edge's strength is a weight in [0, 1] (the database's CHECK too); its metadata has the limits of a
        memory's. ``None`` means not given. Every way in (associate, update, import) calls this first."""
        if strength is not None and (
            isinstance(strength, bool)
            or not isinstance(strength, int | float)
            or not 0.0 <= float(strength) <= 1.0  # also refuses NaN
        ):
            raise Unprocessable(
                f"association strength must be a number in [0, 1], not {str(strength)[:40]}",
                code="invalid_strength",
            )
        if metadata is not None and not isinstance(metadata, dict):
            raise Unprocessable("association metadata must be an object", code="invalid_metadata")
        self.check(content=None, tags=None, metadata=metadata)


@dataclass(frozen=True)
class Walk:
    """A graph walk: one path per node reached (its ``nodes``, its ``edges`` as association rows, its
    ``total_strength`` and ``depth``), and whether a cap of the walk cut it."""

    start_id: str
    paths: list[dict[str, Any]]
    truncated: bool


class MemoryService:
    def __init__(self, db: Database, embedder: Embedder, settings: Settings) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.limits = Limits(settings)

    # ------------------------------------------------------------------ remember
    def _row(self, workspace_id: str, body: MemoryCreate | BatchCreate, vector: Any) -> dict[str, Any]:
        return memory_row(
            workspace_id,
            body.content,
            embedding=vector,
            embedding_model=self.embedder.model_id,
            tags=body.tags,
            metadata=body.metadata,
            context_id=getattr(body, "context_id", None) or "_default",
            user_id=body.user_id,
            observer_id=body.observer_id,
            subject_id=body.subject_id,
            session_id=getattr(body, "session_id", None),
            type=body.type or classify(body.content)[0],
            subtype=body.subtype,
            importance=body.importance,
            refinement_metadata=getattr(body, "refinement_metadata", {}),
            logical_key=getattr(body, "logical_key", None),
            pinned=getattr(body, "pinned", False),
            event_time=body.event_time,
            tiers=self.settings.extractive_tiers_enabled,
        )

    def _target_workspace(self, workspace_id: str, body: MemoryCreate, tenant_id: str) -> str:
        """``scope: "user"`` stores the memory in the user's cross-workspace space, as the reference does, but
        in the writer's tenant's own: one shared space would let any tenant write into (and probe) another's."""
        if body.scope != "user":
            return workspace_id
        if not body.user_id:
            raise InvalidInput("scope 'user' requires user_id", code="user_id_required")
        return user_space(tenant_id)

    @metrics.measured(metrics.REMEMBERS, metrics.REMEMBER_LATENCY)
    def remember(
        self,
        workspace_id: str,
        body: MemoryCreate,
        *,
        idempotency_key: str | None = None,
        if_none_match: str | None = None,
        tenant_id: str = DEFAULT_TENANT,
    ) -> tuple[dict, bool, bool]:
        """Store a memory for a caller of ``tenant_id``. Returns (memory row, created, replayed); the row carries
        ``relation_write_result`` when relations were written (explicit, profile or text)."""
        body = _with_connector_profile(body)
        self.limits.check(content=body.content, tags=body.tags, metadata=body.metadata)
        if body.logical_key and not (idempotency_key and if_none_match == "*"):
            raise PreconditionFailed(
                "logical_key requires the Idempotency-Key and If-None-Match: * headers",
                code="conditional_required",
            )
        workspace_id = self._target_workspace(workspace_id, body, tenant_id)
        request_hash = hashlib.sha256(body.model_dump_json().encode()).hexdigest()
        vector = self.embedder.embed_one(body.content)
        row = self._row(workspace_id, body, vector)
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            ws_repo.bind_embedding_model(conn, workspace_id, self.embedder.model_id)
            if idempotency_key:
                replay = self._replay(conn, workspace_id, idempotency_key, request_hash)
                if replay is not None:
                    # As the reference, the relation write runs again (its evidence is there: duplicates).
                    if relations.needs_write(replay, body.relations) and replay["deleted_at"] is None:
                        written = relations.write_for_memory(conn, replay, body.relations)
                        replay = dict(replay, relation_write_result=written)
                    return replay, False, True
            if body.logical_key:
                taken = repo.logical_key_holder(conn, workspace_id, body.user_id, body.logical_key)
                if taken:
                    raise PreconditionFailed(
                        f"logical_key {body.logical_key!r} already names {taken}", memory_id=taken
                    )
            if body.sequence_key:
                row = self._sequenced(conn, row, body.sequence_key)
            try:
                with conn.transaction():
                    stored, created = repo.insert(conn, row)
            except psycopg.errors.UniqueViolation as exc:
                raise Conflict(
                    f"index {row['sequence_index']} of sequence {body.sequence_key!r} is taken",
                    code="sequence_index_taken",
                ) from exc
            if created:
                audit.record(
                    conn, workspace_id, "memory", "create", resource_type="memory", resource_id=stored["id"]
                )
            if created and body.associations:
                self._link_all(conn, workspace_id, stored["id"], body.associations)
            if created:
                relations.link_subject(conn, stored)
            # Also for an exact duplicate: its relations merge into the existing memory's.
            if relations.needs_write(stored, body.relations):
                stored = dict(
                    stored, relation_write_result=relations.write_for_memory(conn, stored, body.relations)
                )
            if idempotency_key:
                idempotency.record(conn, workspace_id, idempotency_key, request_hash, stored["id"])
        stored = dict(stored, embedding=vector)
        return stored, created, False

    def _sequenced(
        self,
        conn: Connection,
        row: dict[str, Any],
        sequence_key: str,
        taken: dict[str, int] | None = None,
    ) -> dict[str, Any]:
        """Give the row its place in the stream: the caller's explicit ``metadata.message_index``, else the next.

        ``taken`` carries the next index per stream across the rows of one batch (same transaction, same lock).
        """
        explicit = row["metadata"].get("message_index")
        if isinstance(explicit, int) and not isinstance(explicit, bool) and explicit >= 0:
            index = explicit
        elif taken is not None and sequence_key in taken:
            index = taken[sequence_key]
        else:
            index = repo.next_sequence_index(conn, row["workspace_id"], sequence_key)
        if taken is not None:
            taken[sequence_key] = max(taken.get(sequence_key, 0), index + 1)
        metadata = {**row["metadata"], "message_index": index}
        return {
            **row,
            "sequence_key": sequence_key,
            "sequence_index": index,
            "metadata": metadata,
            "dedup_key": dedup_key(row["content"], row["tags"], metadata, row["user_id"], sequence_key),
        }

    def sequence_keys(self, workspace_id: str) -> list[str]:
        with self.db.connection() as conn:
            return repo.sequence_keys(conn, workspace_id)

    def _replay(self, conn: Connection, workspace_id: str, key: str, request_hash: str) -> dict | None:
        if (record := idempotency.lock(conn, workspace_id, key, self.settings.idempotency_ttl_s)) is None:
            return None
        if record["request_hash"] != request_hash:
            raise Conflict(
                "Idempotency-Key was already used with a different request", code="idempotency_key_reused"
            )
        found = repo.get(
            conn, Scope.of(workspace_id), record["memory_id"], include_deleted=True, embedding=True
        )
        if found is None:
            raise Conflict(
                "the memory created under this Idempotency-Key no longer exists", code="idempotency_gone"
            )
        metering.replayed()  # billed once, when it was first answered
        return found

    def _link_all(self, conn: Connection, workspace_id: str, source_id: str, targets: list[str]) -> None:
        for target in dict.fromkeys(targets):
            if target == source_id or repo.get(conn, Scope.of(workspace_id), target) is None:
                continue
            assoc_repo.create(
                conn, workspace_id, new_association_id(), source_id, target, "related_to", 0.5, {}
            )

    # ------------------------------------------------------------------ read, update, forget
    def get(
        self, scope: Scope, memory_id: str, *, include_deleted: bool = False, embedding: bool = False
    ) -> dict:
        with self.db.connection() as conn:
            row = repo.get(conn, scope, memory_id, include_deleted=include_deleted, embedding=embedding)
        if row is None:
            raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
        return row

    def update(
        self, scope: Scope, memory_id: str, body: MemoryUpdate, *, if_match: str | None = None
    ) -> dict:
        body = _with_connector_profile(body)
        self.limits.check(content=body.content, tags=body.tags, metadata=body.metadata)
        vector = self.embedder.embed_one(body.content) if body.content is not None else None
        with self.db.transaction() as conn:
            current = repo.get_for_update(conn, scope, memory_id)
            if current is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            if if_match and if_match != serialize.etag(current):
                raise PreconditionFailed(
                    "If-Match does not match the memory's current ETag", etag=serialize.etag(current)
                )
            changes = self._changes(current, body, vector)
            if not changes:
                return current
            try:
                with conn.transaction():
                    updated = repo.update(conn, current["workspace_id"], memory_id, changes)
            except psycopg.errors.UniqueViolation as exc:
                raise Conflict(
                    "an identical memory already exists in this workspace", code="duplicate_memory"
                ) from exc
            self.rederive_relations(conn, updated, changes)
            audit.record(
                conn,
                updated["workspace_id"],
                "memory",
                "update",
                resource_type="memory",
                resource_id=memory_id,
            )
            return updated

    def rederive_relations(self, conn: Connection, memory: dict, changes: dict[str, Any]) -> None:
        """New content retired the old evidence (migration 0016's trigger: its excerpts no longer read the
        same); new metadata retires the profile's. Either way the memory's relations are derived again, where
        the reference silently dropped them."""
        if "metadata" in changes:
            relations_repo.deactivate_evidence(conn, memory["workspace_id"], memory["id"], ["adapter"])
        if {"content", "metadata"} & changes.keys() and relations.needs_write(memory, []):
            relations.write_for_memory(conn, memory, [])

    def _changes(self, current: dict, body: MemoryUpdate, vector: Any) -> dict[str, Any]:
        fields = body.model_dump(exclude_unset=True, exclude={"op", "memory_id"})
        changes = {k: v for k, v in fields.items() if v is not None and k != "content"}
        if "tags" in changes:
            changes["tags"] = normalise_tags(changes["tags"])
            changes["tags_lower"] = sorted({t.lower() for t in changes["tags"]})
        content = body.content if body.content is not None else current["content"]
        if body.content is not None and body.content != current["content"]:
            changes["content"] = body.content
            changes["content_hash"] = hashlib.sha256(body.content.encode()).hexdigest()
            changes["embedding"] = vector
            changes["embedding_model"] = self.embedder.model_id
            # New content, new tiers (or none, with tiers off: the old ones would quote text no longer there).
            changes.update(tier_columns(body.content, self.settings.extractive_tiers_enabled))
        changes = {k: v for k, v in changes.items() if k in _ALWAYS_SET or current.get(k) != v}
        if {"content", "tags", "metadata"} & changes.keys():
            changes["dedup_key"] = dedup_key(
                content,
                changes.get("tags", current["tags"]),
                changes.get("metadata", current["metadata"]),
                current["user_id"],
                current["sequence_key"],
            )
        return changes

    def forget(self, scope: Scope, memory_id: str, *, hard: bool = False) -> dict:
        with self.db.transaction() as conn:
            row = (
                repo.hard_delete(conn, scope, memory_id) if hard else repo.soft_delete(conn, scope, memory_id)
            )
            if row is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            audit.record(
                conn,
                row["workspace_id"],
                "memory",
                "delete",
                resource_type="memory",
                resource_id=memory_id,
                metadata={"hard": hard},
            )
        return row

    def decay(self, scope: Scope, memory_id: str, rate: float) -> dict:
        with self.db.transaction() as conn:
            current = repo.get_for_update(conn, scope, memory_id)
            if current is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            if current["pinned"]:
                return current
            new = max(0.0, round(float(current["importance"]) - rate, 6))
            audit.record(
                conn,
                current["workspace_id"],
                "memory",
                "decay",
                resource_type="memory",
                resource_id=memory_id,
            )
            return repo.update(
                conn,
                current["workspace_id"],
                memory_id,
                {"importance": new, "decay_factor": current["decay_factor"] * (1 - rate)},
            )

    def list(self, scope: Scope, **filters: Any) -> list[dict]:
        with self.db.connection() as conn:
            return repo.list_recent(conn, scope, **filters)

    def revisions(
        self, scope: Scope, memory_id: str, *, limit: int, before: int | None
    ) -> builtins.list[dict]:
        with self.db.connection() as conn:
            if repo.get(conn, scope, memory_id, include_deleted=True) is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            return repo.revisions(conn, scope, memory_id, limit=limit, before=before)

    # ------------------------------------------------------------------ batch
    def batch(
        self, workspace_id: str, body: BatchRequest, *, tenant_id: str = DEFAULT_TENANT
    ) -> dict[str, Any]:
        """Run operations in order; one failing operation does not fail the others."""
        if len(body.operations) > self.settings.max_batch_operations:
            raise PayloadTooLarge(
                f"{len(body.operations)} operations; the limit is {self.settings.max_batch_operations}",
                code="batch_too_large",
            )
        results: list[dict[str, Any]] = [{}] * len(body.operations)
        creates = [
            (i, _with_connector_profile(op))
            for i, op in enumerate(body.operations)
            if isinstance(op, BatchCreate)
        ]
        valid: list[tuple[int, BatchCreate]] = []
        for index, create in creates:
            try:
                self.limits.check(content=create.content, tags=create.tags, metadata=create.metadata)
                valid.append((index, create))
            except (PayloadTooLarge, Unprocessable) as exc:
                results[index] = _result(index, "create", error=exc.message)
        if valid:
            self._create_many(workspace_id, valid, results, tenant_id)
        scope = Scope.of(workspace_id)
        for index, op in enumerate(body.operations):
            if isinstance(op, BatchCreate):
                continue
            kind = "update" if isinstance(op, BatchUpdate) else "delete"
            try:
                if isinstance(op, BatchUpdate):
                    self.update(scope, op.memory_id, op)
                elif isinstance(op, BatchDelete):
                    self.forget(scope, op.memory_id, hard=op.hard)
                results[index] = _result(index, kind, memory_id=op.memory_id)
            except (NotFound, Conflict, PayloadTooLarge, Unprocessable, PreconditionFailed) as exc:
                results[index] = _result(index, kind, memory_id=op.memory_id, error=exc.message)
        failed = sum(1 for r in results if r["status"] == "error")
        return {
            "total_operations": len(results),
            "successful": len(results) - failed,
            "failed": failed,
            "results": results,
        }

    def _create_many(
        self,
        workspace_id: str,
        valid: builtins.list[tuple[int, BatchCreate]],
        results: builtins.list[dict[str, Any]],
        tenant_id: str,
    ) -> None:
        """One transaction, one pipelined insert. The rows join the HNSW graph afterwards (the worker's
        ``index_vectors``, driven by a queued job: row by row, or a bulk build of the next graph generation):
        until then recall finds them by an exact scan of the pending tail."""
        vectors = self._embed_batched([op.content for _, op in valid])
        rows = [self._row(workspace_id, op, v) for (_, op), v in zip(valid, vectors, strict=True)]
        try:
            with self.db.transaction() as conn:
                # A generation after the graph's: the rows skip the per-row HNSW insert.
                generation = generations.for_bulk_write(conn, self.embedder.dimensions)
                rows = [{**row, "vector_gen": generation} for row in rows]
                ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
                ws_repo.bind_embedding_model(conn, workspace_id, self.embedder.model_id)
                taken: dict[str, int] = {}
                rows = [
                    self._sequenced(conn, row, op.sequence_key, taken) if op.sequence_key else row
                    for row, (_, op) in zip(rows, valid, strict=True)
                ]
                stored = repo.insert_many(conn, rows)
                for row, (memory_id, created) in zip(rows, stored, strict=True):
                    if created:
                        relations.link_subject(conn, {**row, "id": memory_id})
                    if relations.needs_write(row, []):
                        relations.write_for_memory(conn, {**row, "id": memory_id}, [])
                # One event for the batch's creates (each update or delete in it records its own).
                audit.record(
                    conn,
                    workspace_id,
                    "memory",
                    "batch_create",
                    resource_type="memory",
                    metadata={"created": sum(1 for _, created in stored if created), "requested": len(rows)},
                )
        except psycopg.errors.UniqueViolation:
            for index, _ in valid:
                results[index] = _result(index, "create", error="a sequence index in this batch is taken")
            return
        for (index, _), (memory_id, _created) in zip(valid, stored, strict=True):
            results[index] = _result(index, "create", memory_id=memory_id)

    def _embed_batched(self, texts: builtins.list[str]) -> builtins.list[Any]:
        size = max(1, self.settings.embedding_batch_size)
        out: list[Any] = []
        for start in range(0, len(texts), size):
            out.extend(self.embedder.embed(texts[start : start + size]))
        return out

    # ------------------------------------------------------------------ associations
    def associate(
        self, scope: Scope, source_id: str, target_id: str, relationship: str, strength: float, metadata: dict
    ) -> tuple[dict, bool]:
        if not ontology.is_relationship(relationship):
            raise InvalidInput(
                f"unknown relationship {relationship!r}; see GET /v1/workspaces/{{id}}/schema",
                code="unknown_relationship",
            )
        if source_id == target_id:
            raise InvalidInput("a memory cannot be associated with itself", code="self_association")
        self.limits.check_association(strength=strength, metadata=metadata)
        with self.db.transaction() as conn:
            source = repo.get(conn, scope, source_id)
            if source is None:
                raise NotFound(f"memory {source_id} not found", code="memory_not_found")
            workspace_id = source["workspace_id"]
            if repo.get(conn, Scope.of(workspace_id), target_id) is None:
                raise NotFound(f"target memory {target_id} not found in workspace", code="memory_not_found")
            return assoc_repo.create(
                conn,
                workspace_id,
                new_association_id(),
                source_id,
                target_id,
                relationship,
                strength,
                metadata,
            )

    def associations(
        self, scope: Scope, memory_id: str, *, direction: str, relationships: builtins.list[str]
    ) -> builtins.list[dict]:
        with self.db.connection() as conn:
            source = repo.get(conn, scope, memory_id)
            if source is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            return assoc_repo.list_for(
                conn, source["workspace_id"], memory_id, direction=direction, relationships=relationships
            )

    def update_association(self, scope: Scope, memory_id: str, association_id: str, changes: dict) -> None:
        self.limits.check_association(strength=changes.get("strength"), metadata=changes.get("metadata"))
        with self.db.transaction() as conn:
            source = repo.get(conn, scope, memory_id)
            if source is None or not assoc_repo.update(
                conn, source["workspace_id"], memory_id, association_id, changes
            ):
                raise NotFound(f"association {association_id} not found", code="association_not_found")

    def delete_association(self, scope: Scope, memory_id: str, association_id: str) -> None:
        with self.db.transaction() as conn:
            source = repo.get(conn, scope, memory_id)
            if source is None or not assoc_repo.delete(
                conn, source["workspace_id"], memory_id, association_id
            ):
                raise NotFound(f"association {association_id} not found", code="association_not_found")

    def traverse(
        self,
        scope: Scope,
        memory_id: str,
        *,
        max_depth: int,
        relationship_types: builtins.list[str],
        direction: str,
        min_strength: float,
    ) -> Walk:
        """Breadth-first from ``memory_id``, each node reached once: one path per node, the strongest way in
        from the previous level. ``truncated`` says a cap (nodes, edges per node) cut the walk; the depth limit
        is the caller's and does not count, and the response's byte cap is applied where the bytes are made
        (``shared.api.wire.traversal``)."""
        s = self.settings
        with self.db.connection() as conn:
            start = repo.get(conn, scope, memory_id)
            if start is None:
                raise NotFound(f"memory {memory_id} not found", code="memory_not_found")
            reached, truncated = assoc_repo.walk(
                conn,
                start["workspace_id"],
                memory_id,
                max_depth=max_depth,
                direction=direction,
                relationships=relationship_types,
                min_strength=min_strength,
                per_node=s.graph_max_edges_per_node,
                max_nodes=s.graph_max_nodes,
            )
        routes: dict[str, tuple[list[str], list[dict[str, Any]]]] = {memory_id: ([memory_id], [])}
        paths: list[dict[str, Any]] = []
        for row in reached:  # breadth-first: a node's parent is always routed before it
            nodes, edges = routes[row["parent"]]
            routes[row["node"]] = (nodes + [row["node"]], edges + [row])
            paths.append(
                {
                    "nodes": routes[row["node"]][0],
                    "edges": routes[row["node"]][1],
                    "total_strength": round(float(row["score"]), 6),
                    "depth": row["depth"],
                }
            )
        return Walk(memory_id, paths, truncated)


def _with_connector_profile(body: _Body) -> _Body:
    """A declared connector envelope in the metadata, mapped onto a ``knowledge_work`` profile (see
    shared/domain/relations/connectors.py); any other metadata is stored as given and never interpreted."""
    if body.metadata and connectors.declared(body.metadata):
        return body.model_copy(update={"metadata": connectors.normalize(body.metadata)})
    return body


def _result(
    index: int, kind: str, *, memory_id: str | None = None, error: str | None = None
) -> dict[str, Any]:
    return {
        "index": index,
        "type": kind,
        "status": "error" if error else "success",
        "memory_id": memory_id,
        "error": error,
    }
