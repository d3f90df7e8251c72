"""Entities and their typed relations (/v1/entities; docs/relations.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire

_ENTITY_EXAMPLE: dict[str, Any] = {
    "id": "ent_5b1f0c2a9d3e4f67", "workspace_id": "demo", "entity_type": "person", "canonical_name": "Alice Chen",
    "normalized_name": "alice chen", "aliases": ["alice", "achen"], "confidence": 1.0,
    "provenance": {"source": "knowledge_work"}, "external_ids": {"github": "achen"},
    "representative_memory_id": "mem_3f2a9c1e8b7d4a60", "status": "active", "merged_into": None,
    "created_at": "2026-11-29T14:40:34.508615Z", "updated_at": "2026-11-29T14:40:34.508615Z",
}  # fmt: skip
_RELATION_EXAMPLE: dict[str, Any] = {
    "id": "erel_0a1b2c3d4e5f6789", "workspace_id": "demo", "source_entity_id": "ent_5b1f0c2a9d3e4f67",
    "target_entity_id": "ent_9c8d7e6f5a4b3c2d", "relationship": "reviewed", "direction": "outgoing",
    "confidence": 1.0, "active": True, "created_at": "2026-11-29T14:40:34.508615Z",
    "updated_at": "2026-11-29T14:40:34.508615Z",
}  # fmt: skip


class Entity(Wire):
    """A registry entity (the reference's ``Entity``, SDK 0.2.1 ``memorylayer.models.Entity``) plus external ids."""

    model_config = ConfigDict(json_schema_extra={"examples": [_ENTITY_EXAMPLE]})

    id: str = Field(description="`ent_` + 16 hex.")
    workspace_id: str = Field(description="The workspace the entity belongs to.")
    entity_type: str = Field(description="Its kind: person, project, ticket, pull_request, document, …")
    canonical_name: str = Field(description="The name as first written.")
    normalized_name: str = Field(
        description="The lookup key: case-folded, whitespace and punctuation collapsed."
    )
    aliases: list[str] = Field(description="Other names that resolve to it (as written).")
    confidence: float = Field(description="The highest confidence any mention gave it (0–1).")
    provenance: dict[str, Any] = Field(description="Where it was first seen (e.g. the connector or profile).")
    external_ids: dict[str, Any] = Field(description='Ids in outside systems, e.g. `{"github": "achen"}`.')
    representative_memory_id: str | None = Field(description="The memory that first named it.")
    status: Literal["active", "merged"] = Field(description="`merged`: folded into `merged_into`.")
    merged_into: str | None = Field(description="The entity it was merged into (null: not merged).")
    created_at: Timestamp = Field(description="When it was created.")
    updated_at: Timestamp = Field(description="When it last changed.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Entity:
        return cls.pick(
            row, aliases=list(row["aliases"] or []), confidence=round(float(row["confidence"]), 6)
        )


class EntityRelation(Wire):
    """A typed, directed relation between two entities (the reference's ``EntityRelation``)."""

    model_config = ConfigDict(json_schema_extra={"examples": [_RELATION_EXAMPLE]})

    id: str = Field(description="`erel_` + 16 hex.")
    workspace_id: str = Field(description="The workspace the relation belongs to.")
    source_entity_id: str = Field(description="The entity the relation goes from.")
    target_entity_id: str = Field(description="The entity the relation goes to.")
    relationship: str = Field(description="The canonical relationship, e.g. `reviewed`, `works_at`.")
    direction: str = Field(
        description="Always `outgoing`: relations are stored in their canonical direction."
    )
    confidence: float = Field(description="The highest confidence of its active evidence (0–1).")
    active: bool = Field(description="False once no active evidence (no live memory) supports it.")
    created_at: Timestamp = Field(description="When it was created.")
    updated_at: Timestamp = Field(description="When it last changed.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> EntityRelation:
        return cls.pick(row, confidence=round(float(row["confidence"]), 6))


class EntityRelationPath(Wire):
    """How the relational recall arm reached its memories: from a seed entity along active relations."""

    seed_entity_id: str = Field(description="The entity the query named (resolved by name or alias).")
    entity_ids: list[str] = Field(description="The entities along the path, seed first.")
    relations: list[EntityRelation] = Field(description="The relations walked, in order (one or two hops).")
    evidence_ids: list[str] = Field(description="The evidence rows that tie the last relation to memories.")
    evidence_memory_ids: list[str] = Field(description="The returned memories that are its evidence.")


class EntityList(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entities": [_ENTITY_EXAMPLE], "total_count": 1}]}
    )

    entities: list[Entity] = Field(description="The workspace's entities of the asked status.")
    total_count: int = Field(description="How many there are in all (before the limit).")


class EntityEnvelope(Wire):
    model_config = ConfigDict(json_schema_extra={"examples": [{"entity": _ENTITY_EXAMPLE}]})

    entity: Entity = Field(description="The entity (after the change, for writes).")


class EntityDetail(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entity": _ENTITY_EXAMPLE, "relations": [_RELATION_EXAMPLE]}]}
    )

    entity: Entity = Field(description="The entity.")
    relations: list[EntityRelation] = Field(description="Its active relations, either direction (up to 100).")


class EntityMatch(Wire):
    entity: Entity = Field(description="The entity the name resolved to.")
    matched_via: Literal["exact", "alias"] = Field(
        description="`exact`: its name; `alias`: one of its aliases."
    )
    score: float = Field(description="1.0: resolution is exact, never fuzzy.")


class EntityResolution(Wire):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"resolution": {"entity": _ENTITY_EXAMPLE, "matched_via": "alias", "score": 1.0}}]
        }
    )

    resolution: EntityMatch = Field(description="The match (a name that resolves to nothing is a 404).")


class EntityAliases(Wire):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"entity_id": "ent_5b1f0c2a9d3e4f67", "aliases": ["alice", "achen"]}]}
    )

    entity_id: str = Field(description="The entity.")
    aliases: list[str] = Field(description="Its aliases, oldest first.")
