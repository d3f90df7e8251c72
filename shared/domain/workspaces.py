"""Workspaces: CRUD, export (its rows; the API layer writes them as NDJSON: ``shared.api.wire.export_lines``)
and import.

    >>> svc = WorkspaceService(db, memories)                                # doctest: +SKIP
    >>> header, records = svc.export_rows("ws_a", include_associations=True)  # doctest: +SKIP

Export pages through the workspace with keyset pagination, so a large export never holds one connection or
one transaction for its whole length. Import re-embeds with this server's model and maps association ends
to the new ids. What a memory's history holds comes back too (``ImportedHistory``): its timestamps, which fact
is current (``fact_key``, ``valid_to``, ``superseded_by``), the turns marked stale by a newer fact, archived
status; references among the imported memories are mapped to their new ids, and any other reference is dropped.
"""

from __future__ import annotations

import builtins
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.core.errors import Conflict, InvalidInput, MemoryLayerError, NotFound, PayloadTooLarge
from shared.core.tenants import DEFAULT_TENANT, is_reserved
from shared.db import associations as assoc_repo
from shared.db import audit
from shared.db import memories as mem_repo
from shared.db import workspaces as repo
from shared.db.pool import Database
from shared.db.scope import Scope
from shared.domain.memories import serialize
from shared.domain.memories.service import MemoryService
from shared.domain.requests import MemoryCreate
from shared.domain.resources import transfer as resource_transfer

EXPORT_PAGE = 500
EXPORT_VERSION = "1.0"


class ImportedHistory(BaseModel):
    """The parts of an exported memory that ``remember`` does not take: restored on the imported row.

    >>> exported = {"fact_key": "user|lives_in", "superseded_by": "mem_b", "stale_by": "mem_gone"}
    >>> ImportedHistory.model_validate(exported).restored({"mem_b": "mem_9"})
    {'fact_key': 'user|lives_in', 'superseded_by': 'mem_9'}
    """

    model_config = ConfigDict(extra="ignore")

    created_at: datetime | None = None
    updated_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    status: Literal["active", "archived"] | None = None
    fact_key: str | None = Field(default=None, max_length=512)
    # Ids in the export; mapped to the imported ones.
    superseded_by: str | None = Field(default=None, max_length=128)
    stale_by: str | None = Field(default=None, max_length=128)
    source_memory_id: str | None = Field(default=None, max_length=128)

    def restored(self, id_map: dict[str, str]) -> dict[str, Any]:
        """Column → value for the imported row; a reference to a memory not in this import is left out."""
        fields: dict[str, Any] = {}
        for column, value in self.model_dump(exclude_none=True).items():
            if column not in _REFERENCES:
                fields[column] = value
            elif value in id_map:
                fields[column] = id_map[value]
        return fields


# ImportedHistory's fields that name another memory by its id in the export.
_REFERENCES = frozenset({"superseded_by", "stale_by", "source_memory_id"})


class WorkspaceService:
    def __init__(self, db: Database, memories: MemoryService) -> None:
        self.db = db
        self.memories = memories

    def create(
        self,
        workspace_id: str | None,
        name: str,
        settings: dict,
        tags: list[str],
        tenant_id: str = DEFAULT_TENANT,
    ) -> dict:
        workspace_id = workspace_id or f"ws_{uuid.uuid4().hex[:16]}"
        with self.db.transaction() as conn:
            row = repo.create(conn, workspace_id, name, settings, tags, tenant_id)
            if row is None:
                raise Conflict(f"workspace {workspace_id} already exists", code="workspace_exists")
            audit.record(
                conn, workspace_id, "workspace", "create", resource_type="workspace", resource_id=workspace_id
            )
        return row

    def get(self, workspace_id: str) -> dict:
        with self.db.connection() as conn:
            row = repo.get(conn, workspace_id)
        if row is None:
            raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")
        return row

    def stats(self, workspace_id: str) -> dict[str, int]:
        """Live memories, and how many bulk-written ones still wait to join the HNSW graph."""
        with self.db.connection() as conn:
            return repo.stats(conn, workspace_id)

    def list(self, tags: list[str], match_all: bool, only: list[str] | None = None) -> list[dict]:
        with self.db.connection() as conn:
            return repo.list_all(conn, tags, match_all, only)

    def installed_at(self) -> datetime:
        with self.db.connection() as conn:
            return repo.installed_at(conn)

    def update(self, workspace_id: str, changes: dict[str, Any]) -> dict:
        with self.db.transaction() as conn:
            row = repo.update(conn, workspace_id, changes)
            if row is None:
                raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")
            audit.record(
                conn,
                workspace_id,
                "workspace",
                "update",
                resource_type="workspace",
                resource_id=workspace_id,
                metadata={"fields": sorted(k for k, v in changes.items() if v is not None)},
            )
        return row

    def delete(self, workspace_id: str) -> None:
        if is_reserved(workspace_id):
            raise InvalidInput(f"workspace {workspace_id} is reserved", code="reserved_workspace")
        with self.db.transaction() as conn:
            # Recorded first: the event takes its tenant from the workspace, and the trail outlives it.
            audit.record(
                conn, workspace_id, "workspace", "delete", resource_type="workspace", resource_id=workspace_id
            )
            if not repo.delete(conn, workspace_id):
                raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")

    # ------------------------------------------------------------------ contexts
    def create_context(self, workspace_id: str, context_id: str | None, body: dict[str, Any]) -> dict:
        with self.db.transaction() as conn:
            repo.ensure_workspace(conn, workspace_id)
            row = repo.create_context(conn, workspace_id, context_id or f"ctx_{uuid.uuid4().hex[:12]}", body)
        if row is None:
            raise Conflict(
                f"a context named {body['name']!r} exists in this workspace", code="context_name_exists"
            )
        return row

    def list_contexts(self, workspace_id: str) -> builtins.list[dict]:
        with self.db.connection() as conn:
            return repo.list_contexts(conn, workspace_id)

    def delete_context(self, workspace_id: str, context_id: str) -> None:
        with self.db.transaction() as conn:
            if not repo.delete_context(conn, workspace_id, context_id):
                raise NotFound(f"context {context_id} not found", code="context_not_found")

    # ------------------------------------------------------------------ export / import
    def export_rows(
        self,
        workspace_id: str,
        *,
        include_associations: bool,
        offset: int = 0,
        limit: int = 0,
        secrets: bool = False,
    ) -> tuple[dict[str, Any], Iterator[tuple[str, dict[str, Any]]]]:
        """The export's header, and its records: ``("memory", row)`` for each memory, then
        ``("association", row)`` for each association (read page by page as they are consumed), then
        ``("resource", item)`` for each versioned resource with its revisions (already in wire form; secrets
        masked unless ``secrets``)."""
        with self.db.connection() as conn:
            counts = repo.export_counts(conn, workspace_id)
        if not counts["found"]:
            raise NotFound(f"workspace {workspace_id} not found", code="workspace_not_found")
        total = max(0, counts["m"] - offset)
        if limit:
            total = min(total, limit)
        header = {
            "type": "header",
            "version": EXPORT_VERSION,
            "workspace_id": workspace_id,
            "exported_at": serialize.iso(datetime.now(UTC)),
            "total_memories": total,
            "total_associations": counts["a"] if include_associations else 0,
        }
        return header, self._export_records(workspace_id, include_associations, offset, total, secrets)

    def _export_records(
        self, workspace_id: str, include_associations: bool, offset: int, total: int, secrets: bool
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        after: tuple[Any, str] | None = None
        sent, skip = 0, offset
        while sent < total:
            with self.db.connection() as conn:
                page = mem_repo.export_page(conn, workspace_id, after=after, limit=EXPORT_PAGE)
            if not page:
                break
            after = (page[-1]["created_at"], page[-1]["id"])
            for row in page:
                if skip:
                    skip -= 1
                    continue
                if sent >= total:
                    break
                yield "memory", row
                sent += 1
        if include_associations:
            with self.db.connection() as conn:
                edges = assoc_repo.all_in_workspace(conn, workspace_id)
            for edge in edges:
                yield "association", edge
        for resource in resource_transfer.export_items(self.db, workspace_id, secrets=secrets):
            yield "resource", resource

    def _check_associations(self, edges: Any) -> None:
        """Refuse an import whose associations break a limit before anything is written: their number, and
        each edge's strength and metadata (a 4xx naming the edge, instead of a partly imported workspace)."""
        if edges is None:
            return
        if not isinstance(edges, list):
            raise InvalidInput("import 'associations' must be a list", code="invalid_import")
        cap = self.memories.settings.max_import_associations
        if len(edges) > cap:
            raise PayloadTooLarge(
                f"import carries {len(edges)} associations; the limit is {cap}",
                code="too_many_associations",
                limit=cap,
            )
        for index, edge in enumerate(edges):
            if not isinstance(edge, dict):
                raise InvalidInput(f"associations[{index}] is not an object", code="invalid_import")
            try:
                self.memories.limits.check_association(
                    strength=edge.get("strength"), metadata=edge.get("metadata")
                )
            except MemoryLayerError as exc:
                raise type(exc)(
                    f"associations[{index}]: {exc.message}", code=exc.code, **exc.details
                ) from exc

    def import_data(
        self, workspace_id: str, data: dict[str, Any], tenant_id: str = DEFAULT_TENANT
    ) -> dict[str, Any]:
        """Import ``{"memories": [...], "associations": [...], "resources": [...]}``; bad items are reported, good
        ones kept.

        Items with ``scope: "user"`` go to the importing tenant's user space, as ``remember`` does."""
        memories = data.get("memories") or []
        most = self.memories.settings.max_import_memories
        if isinstance(memories, list) and len(memories) > most:
            raise PayloadTooLarge(
                f"import carries {len(memories)} memories; the limit is {most} (split the file)",
                code="too_many_memories",
                limit=most,
            )
        self._check_associations(data.get("associations"))
        resources = data.get("resources") or []
        if isinstance(resources, list) and len(resources) > most:
            raise PayloadTooLarge(
                f"import carries {len(resources)} resources; the limit is {most} (split the file)",
                code="too_many_resources",
                limit=most,
            )
        imported, skipped, errors = 0, 0, 0
        details: list[dict[str, Any]] = []
        id_map: dict[str, str] = {}
        histories: list[tuple[dict[str, Any], ImportedHistory]] = []
        for index, item in enumerate(data.get("memories") or []):
            # Each memory is its own write; one the limits or the database refuse is reported here with its index
            # (not raised: that would answer 4xx/500 after the items before it were committed).
            try:
                if not isinstance(item, dict):
                    raise InvalidInput(f"memories[{index}] is not an object", code="invalid_import")
                body = MemoryCreate.model_validate({k: v for k, v in item.items() if k != "workspace_id"})
                history = ImportedHistory.model_validate(item)
                row, created, _ = self.memories.remember(workspace_id, body, tenant_id=tenant_id)
            except (ValidationError, MemoryLayerError) as exc:
                errors += 1
                details.append({"index": index, "error": str(exc)[:500]})
                continue
            except psycopg.DataError:  # the database's text stays in the log (shared/api/errors.py)
                errors += 1
                details.append({"index": index, "error": "a value is out of range or cannot be stored"})
                continue
            if isinstance(item.get("id"), str):
                id_map[item["id"]] = row["id"]
            if created:
                imported += 1
                histories.append((row, history))
            else:
                skipped += 1
        # After every memory is in: a fact names the one that replaced it, which may come later in the file.
        # Only rows this import created are touched (a duplicate skipped keeps the state it had). One unit of
        # work for all of them, not a pool borrow and a commit per row.
        restores = [(row, fields) for row, history in histories if (fields := history.restored(id_map))]
        if restores:
            with self.db.transaction() as conn:
                for row, fields in restores:
                    mem_repo.restore_imported(conn, row["workspace_id"], row["id"], fields)
        associations = 0
        for edge in data.get("associations") or []:
            source, target = id_map.get(edge.get("source_id")), id_map.get(edge.get("target_id"))
            if not source or not target:
                continue
            try:
                self.memories.associate(
                    Scope.of(workspace_id),
                    source,
                    target,
                    edge.get("relationship", "related_to"),
                    float(edge.get("strength", 0.5)),
                    edge.get("metadata") or {},
                )
                associations += 1
            except (InvalidInput, NotFound) as exc:
                errors += 1
                details.append({"association": edge.get("id"), "error": str(exc)[:500]})
        transferred = resource_transfer.import_items(self.db, workspace_id, resources, tenant_id=tenant_id)
        result = {
            "imported": imported,
            "skipped_duplicates": skipped,
            "associations_imported": associations,
            "resources_imported": transferred["imported"],
            "resources_skipped": transferred["skipped"],
            "errors": errors + len(transferred["details"]),
            "details": details + transferred["details"],
        }
        # The import is item by item (each memory's own event); this one says that it ran and what it did.
        with self.db.transaction() as conn:
            audit.record(
                conn,
                workspace_id,
                "workspace",
                "import",
                resource_type="workspace",
                resource_id=workspace_id,
                metadata={k: v for k, v in result.items() if k != "details"},
            )
        return result
