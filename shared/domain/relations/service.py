"""The entity registry's operations behind ``/v1/entities``: list, get (with its live relations), resolve,
aliases and merge.

    >>> EntityService(db).resolve("ws_a", "alice chen")["resolution"]["entity"]["name"]   # doctest: +SKIP
    'Alice Chen'

It returns rows; the routes make them wire entities.
"""

from __future__ import annotations

from typing import Any

from shared.core.errors import InvalidInput, NotFound
from shared.core.names import normalize_entity_name, normalize_entity_type
from shared.db import relations as repo
from shared.db.pool import Database
from shared.db.rows import Connection


class EntityService:
    def __init__(self, db: Database) -> None:
        self.db = db

    def list_entities(self, workspace_id: str, *, status: str, limit: int) -> dict[str, Any]:
        with self.db.connection() as conn:
            rows, total = repo.list_entities(conn, workspace_id, status=status, limit=limit)
        return {"entities": rows, "total_count": total}

    def _get(self, conn: Connection, workspace_id: str, entity_id: str) -> dict:
        row = repo.get_entity(conn, workspace_id, entity_id)
        if row is None:
            raise NotFound(f"entity {entity_id} not found", code="entity_not_found")
        return row

    def get(self, workspace_id: str, entity_id: str) -> dict[str, Any]:
        with self.db.connection() as conn:
            row = self._get(conn, workspace_id, entity_id)
            relations = repo.entity_relations(conn, workspace_id, entity_id)
        return {"entity": row, "relations": relations}

    def resolve(self, workspace_id: str, name: str, entity_type: str | None) -> dict[str, Any]:
        """Exact name (of ``entity_type`` when given, else any kind), then alias; 404 when nothing matches."""
        key = normalize_entity_name(name)
        if not key:
            raise InvalidInput("name must contain a letter or digit", code="invalid_entity_name")
        with self.db.connection() as conn:
            found = repo.resolve_names(conn, [workspace_id], [name]).get(key)
            if found and entity_type and found["entity_type"] != entity_type:
                typed = repo.entity_of_type(conn, workspace_id, entity_type, key)
                found = dict(found, id=typed, via=0) if typed else found
            if not found:
                raise NotFound(f"no entity named {name!r}", code="entity_not_found")
            row = self._get(conn, workspace_id, found["id"])
        matched = "exact" if row["normalized_name"] == key else "alias"
        return {"resolution": {"entity": row, "matched_via": matched, "score": 1.0}}

    def add_aliases(self, workspace_id: str, entity_id: str, aliases: list[str]) -> dict[str, Any]:
        with self.db.transaction() as conn:
            row = self._get(conn, workspace_id, entity_id)
            if row["status"] != "active":
                raise InvalidInput(
                    f"entity {entity_id} was merged into {row['merged_into']}", code="entity_merged"
                )
            repo.add_aliases(conn, workspace_id, entity_id, aliases, "manual", skip=row["normalized_name"])
            return {"entity": self._get(conn, workspace_id, entity_id)}

    def merge(self, workspace_id: str, source_id: str, target_id: str) -> dict[str, Any]:
        """Fold ``source_id`` into ``target_id``; returns the survivor. Merging an entity into itself, or one
        already merged into the target, changes nothing (idempotent)."""
        with self.db.transaction() as conn:
            locked = repo.lock_entities(conn, workspace_id, [source_id, target_id])
            for entity_id in (source_id, target_id):
                if entity_id not in locked:
                    raise NotFound(f"entity {entity_id} not found", code="entity_not_found")
            source, target = locked[source_id], locked[target_id]
            if source_id == target_id or source["merged_into"] == target_id:
                return {"entity": self._get(conn, workspace_id, target_id)}
            if target["status"] != "active":
                raise InvalidInput(
                    f"target {target_id} was merged into {target['merged_into']}", code="entity_merged"
                )
            if source["status"] != "active":
                raise InvalidInput(
                    f"source {source_id} was merged into {source['merged_into']}", code="entity_merged"
                )
            repo.merge_entities(conn, workspace_id, source_id, target_id)
            return {"entity": self._get(conn, workspace_id, target_id)}


def valid_type(value: str | None) -> str | None:
    if value is None:
        return None
    normalized = normalize_entity_type(value)
    if normalized is None:
        raise InvalidInput(f"invalid entity type {value[:64]!r}", code="invalid_entity_type")
    return normalized
