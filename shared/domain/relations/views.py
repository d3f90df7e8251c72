"""Read views of one registry entity, deterministic, from the relations store and its evidence: the card (the
entity, its names, relations, top evidence and a summary written from them), its provenance (where it came
from and which memories and messages are its evidence), its related entities (shared member memories) and its
insights (the ``inference`` memories about it, with counts and recent facts).

    >>> EntityViews(db).card("ws_a", "ent_1")["reflection"]        # doctest: +SKIP
    'Alice Chen (person), also known as alice. reviewed PR-12; employed_by Acme Corp. Seen in 3 memories.'

Every view answers 404 ``entity_not_found`` for an id that is not this workspace's entity.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared.core.errors import NotFound
from shared.db import entity_views as views_repo
from shared.db import memory_relations as memory_relations_repo
from shared.db import relations as repo
from shared.db.pool import Database
from shared.db.rows import Connection

CARD_RELATIONS = 50
CARD_EVIDENCE = 10
CARD_INSIGHTS = 20
SUMMARY_RELATIONS = 12  # the card's summary names at most this many relations
PROVENANCE_EVIDENCE = 100
RECENT_FACTS = 10


class EntityViews:
    def __init__(self, db: Database) -> None:
        self.db = db

    def _entity(self, conn: Connection, workspace_id: str, entity_id: str) -> dict:
        row = repo.get_entity(conn, workspace_id, entity_id)
        if row is None:
            raise NotFound(f"entity {entity_id} not found", code="entity_not_found")
        return row

    def of_memory(self, workspace_id: str, memory_id: str) -> list[dict] | None:
        """The relations ``memory_id`` is evidence of, both ends named (None: no such memory)."""
        with self.db.connection() as conn:
            return memory_relations_repo.relations_of_memory(conn, workspace_id, memory_id)

    def card(self, workspace_id: str, entity_id: str) -> dict[str, Any]:
        """The entity's profile card, written from what the store holds (no LLM, nothing cached)."""
        with self.db.connection() as conn:
            entity = self._entity(conn, workspace_id, entity_id)
            relations = views_repo.relations_named(conn, workspace_id, entity_id, CARD_RELATIONS)
            evidence = repo.evidence_memories(conn, workspace_id, [entity_id], CARD_EVIDENCE)
            insights, _ = views_repo.insights(conn, workspace_id, entity_id, None, CARD_INSIGHTS)
            count = views_repo.counts(conn, workspace_id, entity_id)
        return {
            "entity_id": entity_id,
            "workspace_id": workspace_id,
            "reflection": summary(entity, relations, count["memories"]),
            "insights": insights,
            "source_memories": [m["id"] for m in evidence],
            "confidence": float(entity["confidence"]),
            "cached": False,
            "generated_at": datetime.now(UTC),
            "entity": entity,
            "relations": relations,
            "evidence": evidence,
            "counts": count,
        }

    def provenance(self, workspace_id: str, entity_id: str) -> dict[str, Any]:
        """How the entity came to exist and the evidence that keeps it: the reference's lineage fields, and
        each active evidence row with its memory, thread and messages."""
        with self.db.connection() as conn:
            entity = self._entity(conn, workspace_id, entity_id)
            evidence = views_repo.evidence(conn, workspace_id, entity_id, PROVENANCE_EVIDENCE)
        raw = dict(entity["provenance"] or {})
        external_ids = {**(raw.get("external_ids") or {}), **(entity["external_ids"] or {})}
        links = {source: {"id": str(value)} for source, value in external_ids.items()}
        links.update(raw.get("external_links") or {})
        first = [raw.get("source_memory_id"), entity["representative_memory_id"]]
        return {
            "entity_id": entity_id,
            "origin": origin(raw),
            "activity": raw.get("activity")
            or ("entity.seed" if raw.get("source") == "seed" else "entity.create"),
            "agent": raw.get("agent") or "memorylayer",
            "description": raw.get("description"),
            "external_links": links,
            "source_memory_ids": sorted({m for m in first if m}),
            "generated_at": entity["created_at"],
            "raw": raw,
            "source": raw.get("source"),
            "evidence_memory_ids": list(dict.fromkeys(e["memory_id"] for e in evidence)),
            "evidence": evidence,
        }

    def related(self, workspace_id: str, entity_id: str, *, limit: int, min_shared: int) -> dict[str, Any]:
        with self.db.connection() as conn:
            self._entity(conn, workspace_id, entity_id)
            rows = views_repo.related(conn, workspace_id, entity_id, limit=limit, min_shared=min_shared)
        return {
            "entity_id": entity_id,
            "related": [
                {
                    "entity": row,
                    "shared_memories": int(row["shared"]),
                    "score": round(int(row["shared"]) / max(1, int(row["members"])), 3),
                    "relationships": list(row["relationships"]),
                }
                for row in rows
            ],
        }

    def insights(
        self, workspace_id: str, entity_id: str, *, observer_id: str | None, limit: int
    ) -> dict[str, Any]:
        with self.db.connection() as conn:
            self._entity(conn, workspace_id, entity_id)
            rows, total = views_repo.insights(conn, workspace_id, entity_id, observer_id, limit)
            count = views_repo.counts(conn, workspace_id, entity_id)
            recent = views_repo.member_memories(conn, workspace_id, entity_id, RECENT_FACTS)
        return {
            "entity_id": entity_id,
            "workspace_id": workspace_id,
            "insights": rows,
            "total_count": total,
            "counts": count,
            "recent_facts": recent,
        }


def origin(provenance: dict[str, Any]) -> str:
    """The reference's ``origin`` for our provenance: seeded, created (by a write naming it) or unknown."""
    if provenance.get("source") == "seed":
        return "seeded"
    return "created" if provenance.get("source") else "unknown"


def summary(entity: dict, relations: list[dict], memories: int) -> str:
    """One paragraph from the store: name and kind, aliases, the strongest relations, how many memories."""
    parts = [f"{entity['canonical_name']} ({entity['entity_type']})"]
    if entity["status"] == "merged":
        parts[0] += f", merged into {entity['merged_into']}"
    aliases = list(entity["aliases"] or [])
    if aliases:
        parts[0] += ", also known as " + ", ".join(aliases[:10])
    said = []
    for rel in relations[:SUMMARY_RELATIONS]:
        if rel["source_entity_id"] == entity["id"]:
            said.append(f"{rel['relationship']} {rel['target_name']}")
        else:
            said.append(f"{rel['source_name']} {rel['relationship']} it")
    text = parts[0] + "."
    if said:
        text += " " + "; ".join(said) + "."
    noun = "memory" if memories == 1 else "memories"
    return text + f" Seen in {memories} {noun}."
