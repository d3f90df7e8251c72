"""Curating the registry in bulk: seed a catalog of entities, fold together entities whose names collide
(dedupe), and the external-KB enrichment pass (no knowledge base is configured here, so it links nothing).

    >>> Curation(db).seed("ws_a", [SeedItem(name="Acme Corp", entity_type="org", aliases=["Acme"])])  # doctest: +SKIP
    {'seeded': 1, 'created': 1, 'failed': [], 'skipped_invalid_type': [], 'entity_ids': ['ent_…']}

Dedupe is deterministic: two active entities of the same kind collide when a normalised canonical name or alias
of one is one of the other's; each group of colliding entities is merged (``merge_entities``: relations and
their evidence rewired, names kept as aliases) into its most established member.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.core.names import normalize_entity_name, normalize_entity_type
from shared.db import entity_views as views_repo
from shared.db import relations as repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database


@dataclass(frozen=True)
class SeedItem:
    name: str
    entity_type: str = "concept"
    aliases: list[str] = field(default_factory=list)
    description: str | None = None
    external_ids: dict[str, str] = field(default_factory=dict)
    confidence: float = 1.0


class Curation:
    def __init__(self, db: Database) -> None:
        self.db = db

    def seed(self, workspace_id: str, items: list[SeedItem], *, tenant_id: str) -> dict[str, Any]:
        """Create or update each item's entity (typed upsert: an existing one gains the aliases, external ids
        and any provenance keys it lacks). A kind that is not ``[a-z][a-z0-9_]{0,63}`` after folding is
        skipped and reported; a name with no letter or digit is ``failed``. One transaction; the workspace is
        created on this first write as on a memory's."""
        seeded, created, failed, skipped, ids = 0, 0, [], [], []
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            for item in items:
                kind = normalize_entity_type(item.entity_type)
                if kind is None:
                    skipped.append(item.name)
                    continue
                if not normalize_entity_name(item.name):
                    failed.append(item.name)
                    continue
                provenance: dict[str, Any] = {
                    "source": "seed",
                    "activity": "entity.seed",
                    "agent": "memorylayer",
                }
                if item.description:
                    provenance["description"] = item.description
                if item.external_ids:
                    provenance["external_ids"] = item.external_ids
                row = repo.upsert_entity(
                    conn, workspace_id, item.name.strip(), kind, aliases=item.aliases,
                    confidence=item.confidence, provenance=provenance, external_ids=item.external_ids,
                )  # fmt: skip
                seeded += 1
                created += int(row["created"])
                ids.append(row["id"])
        return {
            "seeded": seeded,
            "created": created,
            "failed": failed,
            "skipped_invalid_type": skipped,
            "entity_ids": ids,
        }

    def dedupe(self, workspace_id: str, *, limit: int) -> dict[str, Any]:
        """Merge each group of colliding entities (among the ``limit`` oldest active ones) into its most
        established member: most active evidence, then most aliases, then highest confidence, then oldest."""
        with self.db.transaction() as conn:
            rows = views_repo.dedupe_candidates(conn, workspace_id, limit)
            groups = collisions(rows)
            merges: list[dict[str, Any]] = []
            for group in groups:
                ids = [r["id"] for r in group]
                locked = repo.lock_entities(conn, workspace_id, ids)
                live = [r for r in group if locked.get(r["id"], {}).get("status") == "active"]
                if len(live) < 2:
                    continue
                target, *sources = live
                for source in sources:
                    repo.merge_entities(conn, workspace_id, source["id"], target["id"])
                merges.append({"target_id": target["id"], "merged_ids": [s["id"] for s in sources]})
        return {
            "clusters": len(merges),
            "merged": sum(len(m["merged_ids"]) for m in merges),
            "considered": len(rows),
            "merges": merges,
        }

    def enrich(self, workspace_id: str, *, types: list[str] | None, limit: int) -> dict[str, Any]:
        """The reference links entities to Wikidata through a configured linker; none is configured here (no
        outbound lookups from the API), so every eligible entity is checked and skipped, as the reference's
        default no-op linker does. Nothing is written."""
        with self.db.connection() as conn:
            eligible = views_repo.eligible_entities(conn, workspace_id, types, limit)
        return {"checked": len(eligible), "enriched": 0, "skipped": len(eligible), "linker_configured": False}


def collisions(rows: list[dict]) -> list[list[dict]]:
    """Groups (size > 1) of same-kind entities linked, transitively, by a shared normalised name or alias; each
    group's first member is the one the others merge into."""
    parent = {r["id"]: r["id"] for r in rows}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[tuple[str, str], str] = {}
    for row in rows:
        for key in {row["normalized_name"], *(row["alias_keys"] or [])}:
            seen = owner.setdefault((row["entity_type"], key), row["id"])
            if seen != row["id"]:
                parent[find(row["id"])] = find(seen)
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(find(row["id"]), []).append(row)
    ranked = [
        sorted(
            g,
            key=lambda r: (
                -int(r["evidence"]),
                -len(r["alias_keys"] or []),
                -float(r["confidence"]),
                r["created_at"],
                r["id"],
            ),
        )  # fmt: skip
        for g in groups.values()
        if len(g) > 1
    ]
    return sorted(ranked, key=lambda g: g[0]["id"])
