"""Contradictions: found by a deterministic scan of a workspace, listed while open, resolved once.

Resolving keeps history rather than deleting: ``keep_a`` / ``keep_b`` supersede the other memory (``valid_to``,
``superseded_by``, a revision), as the extraction writer supersedes an old fact; ``merge`` rewrites memory A to
the merged text (a revision of A) and supersedes B by it; ``keep_both`` only closes the record.

    >>> svc = ContradictionService(db, memories, settings)                                # doctest: +SKIP
    >>> svc.scan("ws_a")["contradictions"][0]["contradiction_type"]                      # doctest: +SKIP
    'negation'
"""

from __future__ import annotations

import uuid
from typing import Any

from shared.core.errors import Conflict, InvalidInput, NotFound
from shared.core.settings import Settings
from shared.db import contradictions as repo
from shared.db import facts
from shared.db import memories as memory_repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.db.scope import Scope
from shared.domain.contradictions import rules
from shared.domain.memories.service import MemoryService
from shared.domain.requests import MemoryUpdate

RESOLUTIONS = ("keep_a", "keep_b", "keep_both", "merge")
# At most this many stated (`contradicts`) associations are taken up by one scan.
MAX_ASSERTED = 1000


def new_contradiction_id() -> str:
    return f"contra_{uuid.uuid4().hex[:16]}"


def parse_cursor(cursor: str | None) -> int:
    """A scan cursor is the position of the next pair in the scan's order (opaque to clients)."""
    if not cursor:
        return 0
    if not cursor.isdigit() or len(cursor) > 9:
        raise InvalidInput("cursor is not one a scan answered (next_cursor)", code="invalid_cursor")
    return int(cursor)


def _pair(a: str, b: str, kind: str, method: str, confidence: float, newer: str | None) -> dict[str, Any]:
    return {
        "id": new_contradiction_id(),
        "memory_a_id": a,
        "memory_b_id": b,
        "contradiction_type": kind,
        "confidence": confidence,
        "detection_method": method,
        "newer_memory_id": newer,
    }


def _asserted(edge: dict[str, Any]) -> dict[str, Any]:
    """A ``contradicts`` association as a pair: someone stated it."""
    newer = edge["source_id"] if edge["source_created_at"] >= edge["target_created_at"] else edge["target_id"]
    strength = min(1.0, max(0.0, float(edge["strength"])))
    return _pair(edge["source_id"], edge["target_id"], "asserted", "association", strength, newer)


class ContradictionService:
    def __init__(self, db: Database, memories: MemoryService, settings: Settings) -> None:
        self.db = db
        self.memories = memories
        self.settings = settings

    def scan(self, workspace_id: str, cursor: str | None = None) -> dict[str, Any]:
        """Record the contradictions among the workspace's newest live memories (and the ``contradicts``
        associations between live memories) not recorded before; the new records come back.

        The pairs found come in a fixed order, and one scan records at most ``contradiction_scan_max_pairs`` of
        them, from ``cursor`` on (a previous answer's ``next_cursor``): the work and the answer of one request
        are bounded however many pairs a workspace holds. One insert statement records a whole page."""
        settings = self.settings
        limit, page_size = settings.contradiction_scan_max_memories, settings.contradiction_scan_max_pairs
        offset = parse_cursor(cursor)
        with self.db.connection() as conn:
            rows = repo.statements(conn, workspace_id, limit)
            edges = repo.asserted(conn, workspace_id, MAX_ASSERTED)
        statements = [
            rules.Statement(r["id"], r["content"], r["created_at"], r["user_id"], r["metadata"] or {})
            for r in rows[:limit]
        ]
        findings, groups_capped = rules.find_capped(
            statements, max_group_pairs=settings.contradiction_scan_max_group_pairs
        )
        pairs = [_pair(f.a.id, f.b.id, f.kind, f.method, f.confidence, f.newer_id) for f in findings]
        pairs += [_asserted(edge) for edge in edges]
        page = pairs[offset : offset + page_size]
        with self.db.transaction() as conn:
            found = repo.insert_many(conn, workspace_id, page)
        order = {row["id"]: index for index, row in enumerate(page)}
        found.sort(key=lambda row: order.get(row["id"], 0))
        end = offset + len(page)
        next_cursor = str(end) if end < len(pairs) else None
        return {
            "workspace_id": workspace_id,
            "contradictions": found,
            "memories_scanned": len(statements),
            "truncated": len(rows) > limit or next_cursor is not None or groups_capped > 0,
            "next_cursor": next_cursor,
            "pairs_found": len(pairs),
            "groups_capped": groups_capped,
        }

    def unresolved(self, workspace_id: str, limit: int) -> list[dict]:
        with self.db.connection() as conn:
            return repo.unresolved(conn, workspace_id, limit)

    def resolve(
        self, scope: Scope, contradiction_id: str, resolution: str, merged_content: str | None = None
    ) -> dict:
        """Apply ``resolution`` and close the record, or change nothing and raise: 400 for a resolution that is
        not one of ``RESOLUTIONS`` (or a merge without text), 404 for an id outside ``scope``, 409 when it is
        already resolved or one of its memories is no longer live."""
        if resolution not in RESOLUTIONS:
            raise InvalidInput(
                f"resolution must be one of: {', '.join(RESOLUTIONS)}", code="invalid_resolution"
            )
        merged = (merged_content or "").strip()
        if resolution == "merge" and not merged:
            raise InvalidInput(
                "merged_content is required when resolution is 'merge'", code="merged_content_required"
            )
        if resolution == "merge":
            # The rewrite goes through the memory service (embedding, dedup, revision, relations) before the
            # record is closed; checked first so that a closed or stale record rewrites nothing.
            with self.db.connection() as conn:
                record = self._open(conn, scope, contradiction_id)
            self.memories.update(
                Scope.of(record["workspace_id"]), record["memory_a_id"], MemoryUpdate(content=merged)
            )
        with self.db.transaction() as conn:
            record = self._open(conn, scope, contradiction_id, lock=True)
            workspace_id, a, b = record["workspace_id"], record["memory_a_id"], record["memory_b_id"]
            if resolution in ("keep_a", "merge"):
                facts.supersede(conn, workspace_id, b, by=a)
            elif resolution == "keep_b":
                facts.supersede(conn, workspace_id, a, by=b)
            return repo.resolve(
                conn, workspace_id, contradiction_id, resolution, merged if resolution == "merge" else None
            )

    @staticmethod
    def _open(conn: Connection, scope: Scope, contradiction_id: str, *, lock: bool = False) -> dict:
        """The record, unresolved, with both memories live (locked with it when ``lock``)."""
        record = repo.get(conn, scope, contradiction_id, for_update=lock)
        if record is None:
            raise NotFound(f"contradiction {contradiction_id} not found", code="contradiction_not_found")
        if record["resolved_at"] is not None:
            raise Conflict(
                f"contradiction {contradiction_id} is already resolved ({record['resolution']})",
                code="contradiction_resolved",
            )
        for memory_id in (record["memory_a_id"], record["memory_b_id"]):
            memory = (
                memory_repo.get_for_update(conn, Scope.of(record["workspace_id"]), memory_id)
                if lock
                else memory_repo.get(conn, Scope.of(record["workspace_id"]), memory_id)
            )
            if memory is None or memory["valid_to"] is not None:
                raise Conflict(
                    f"memory {memory_id} is no longer live (deleted or superseded): nothing to resolve",
                    code="contradiction_stale",
                )
        return record
