"""The entity operations beyond the registry (/v1/entities: backfill, seed, dedupe, enrich, and one entity's card,
provenance, related entities, insights and derive): the reference's response fields, then ours."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.entities import _RELATION_EXAMPLE, Entity, EntityRelation
from shared.api.schemas.memories import Memory


class EntityBackfillResponse(Wire):
    workspace_id: str = Field(description="The workspace backfilled.")
    cleared: int = Field(description="Entities wiped first: always 0 (`reset` is refused here).")
    scanned: int = Field(description="Live memories read.")
    accreted: int = Field(description="Memories that stated at least one relation (new or already stored).")
    relations_written: int = Field(description="Evidence rows stored by this call (0 on a rerun).")
    entities_created: int = Field(description="Active entities the workspace gained.")
    complete: bool = Field(description="True when every live memory after `after` was read.")
    next_after: str | None = Field(
        description="Pass as `after` to continue (null when complete): `max_memories` or the time budget "
        "stopped the call."
    )
    stopped_by: str | None = Field(
        default=None,
        description="Why an incomplete call stopped: `max_memories` (the call's or the server's cap, "
        "`MEMORYLAYER_ENTITY_BACKFILL_MAX_MEMORIES`) or `time_budget` "
        "(`MEMORYLAYER_ENTITY_BACKFILL_TIME_BUDGET_S`); null when complete.",
    )


class SeedEntitiesResponse(Wire):
    workspace_id: str = Field(description="The workspace seeded.")
    seeded: int = Field(description="Entities created or updated.")
    failed: list[str] = Field(description="Names with no letter or digit, so not stored.")
    skipped_invalid_type: list[str] = Field(
        description="Names whose entity_type is not a kind (`[a-z][a-z0-9_]{0,63}` after case folding)."
    )
    created: int = Field(description="How many of `seeded` are new entities.")
    entity_ids: list[str] = Field(description="The seeded entities' ids, in request order.")


class EntityMergeGroup(Wire):
    target_id: str = Field(description="The survivor: the most established entity of the group.")
    merged_ids: list[str] = Field(description="The entities merged into it (now `merged` tombstones).")


class EntityDedupeResponse(Wire):
    workspace_id: str = Field(description="The workspace deduplicated.")
    clusters: int = Field(description="Groups of colliding entities found and merged.")
    merged: int = Field(description="Entities merged into a group's survivor.")
    considered: int = Field(description="Active entities read (at most `limit`, oldest first).")
    merges: list[EntityMergeGroup] = Field(description="Each group: its survivor and what merged into it.")


class EntityEnrichResponse(Wire):
    workspace_id: str = Field(description="The workspace.")
    source: str = Field(description="The external knowledge base asked for: `wikidata`.")
    checked: int = Field(description="Eligible entities considered.")
    enriched: int = Field(description="Entities linked: 0, no knowledge base is configured.")
    skipped: int = Field(description="Entities left as they were.")
    linker_configured: bool = Field(
        description="False: this server makes no outbound knowledge-base lookups."
    )


class CardRelation(EntityRelation):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {**_RELATION_EXAMPLE, "source_name": "Alice Chen", "source_type": "person",
                 "target_name": "PR-12", "target_type": "pull_request"}
            ]
        }
    )  # fmt: skip

    source_name: str = Field(description="The source entity's canonical name.")
    source_type: str = Field(description="The source entity's kind.")
    target_name: str = Field(description="The target entity's canonical name.")
    target_type: str = Field(description="The target entity's kind.")

    @classmethod
    def from_named(cls, row: dict[str, Any]) -> CardRelation:
        return cls.pick(row, confidence=round(float(row["confidence"]), 6))


class EntityCounts(Wire):
    aliases: int = Field(description="Its aliases.")
    relations: int = Field(description="Its active relations, either direction.")
    memories: int = Field(
        description="Live memories it is found in (evidence of its relations, or about it)."
    )
    evidence: int = Field(description="Active evidence rows of its relations.")
    insights: int = Field(description="Live `inference` memories about it.")


class EntityCardResponse(Wire):
    entity_id: str = Field(description="The entity.")
    workspace_id: str = Field(description="The workspace.")
    reflection: str = Field(
        description="A summary written from the store (name, kind, aliases, strongest relations); no LLM."
    )
    insights: list[Memory] = Field(description="`inference` memories about it, newest first (up to 20).")
    source_memories: list[str] = Field(description="The ids of `evidence`.")
    confidence: float = Field(description="The entity's confidence (0-1).")
    cached: bool = Field(description="Always false: the card is built on each call.")
    generated_at: Timestamp = Field(description="When this card was built.")
    entity: Entity = Field(description="The entity, with its aliases.")
    relations: list[CardRelation] = Field(
        description="Its active relations with both ends' names (up to 50)."
    )
    evidence: list[Memory] = Field(
        description="Its top evidence: live memories stating its relations or about it, most confident first."
    )
    counts: EntityCounts = Field(description="How much the store holds about it.")


class EvidenceRow(Wire):
    evidence_id: str = Field(description="The evidence row.")
    relation_id: str = Field(description="The relation it supports.")
    relationship: str = Field(description="That relation's relationship.")
    source_entity_id: str = Field(description="That relation's source.")
    target_entity_id: str = Field(description="That relation's target.")
    memory_id: str = Field(description="The memory that states it.")
    thread_id: str | None = Field(
        description="The thread the memory was extracted from (null: not extracted)."
    )
    message_ids: list[str] = Field(description="The thread messages it was extracted from.")
    evidence_kind: str = Field(
        description="explicit, adapter (a profile or connector), pattern or generated."
    )
    extraction_method: str | None = Field(description="How it was found, e.g. `deterministic_extraction`.")
    confidence: float = Field(description="The evidence's confidence (0-1).")
    source_span_start: int | None = Field(description="Where the excerpt starts in the memory's content.")
    source_span_end: int | None = Field(description="Where it ends.")
    excerpt: str = Field(description="The span's text, or the content's first 280 characters without a span.")
    created_at: Timestamp = Field(description="When the evidence was stored.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> EvidenceRow:
        return cls.pick(row, message_ids=list(row["message_ids"] or []))


class EntityProvenance(Wire):
    entity_id: str = Field(description="The entity.")
    origin: str = Field(
        description="`seeded` (POST /v1/entities/seed), `created` (a write named it) or `unknown`."
    )
    activity: str | None = Field(description="What produced it: `entity.seed` or `entity.create`.")
    agent: str | None = Field(description="Who recorded it: `memorylayer`.")
    description: str | None = Field(description="The seed's description, if any.")
    external_links: dict[str, Any] = Field(
        description='Ids in outside systems, e.g. `{"github": {"id": "achen"}}`.'
    )
    source_memory_ids: list[str] = Field(description="The memories that first named it.")
    generated_at: Timestamp | None = Field(description="When it was created.")
    raw: dict[str, Any] = Field(description="The stored provenance as written.")
    source: str | None = Field(
        description="The write that created it (e.g. `knowledge_work_metadata`, `seed`)."
    )
    evidence_memory_ids: list[str] = Field(description="The memories holding `evidence`, newest first.")
    evidence: list[EvidenceRow] = Field(
        description="Its relations' active evidence, newest first (up to 100)."
    )


class RelatedEntity(Wire):
    entity: Entity = Field(description="The related entity.")
    shared_memories: int = Field(description="Live memories both are found in.")
    score: float = Field(description="`shared_memories` over the entity's own memory count (0-1).")
    relationships: list[str] = Field(description="Direct active relations between the two, if any.")


class RelatedEntitiesResponse(Wire):
    entity_id: str = Field(description="The entity asked about.")
    related: list[RelatedEntity] = Field(description="Related entities, most shared memories first.")


class EntityInsightsResponse(Wire):
    entity_id: str = Field(description="The entity.")
    workspace_id: str = Field(description="The workspace.")
    insights: list[Memory] = Field(description="Live `inference` memories about it, newest first.")
    total_count: int = Field(description="How many there are in all (before `limit`).")
    counts: EntityCounts = Field(description="How much the store holds about it.")
    recent_facts: list[Memory] = Field(description="Its newest member memories (up to 10).")


class GenerationSummary(Wire):
    calls: int = Field(description="LLM calls made.")
    input_tokens: int = Field(description="Input tokens they used.")
    output_tokens: int = Field(description="Output tokens they used.")


class EntityDeriveResponse(Wire):
    subject_id: str = Field(description="The entity analysed.")
    workspace_id: str = Field(description="The workspace.")
    insights_created: int = Field(description="New `inference` memories stored.")
    insights_updated: int = Field(description="Insights already stored with the same text.")
    source_memory_count: int = Field(description="Memories the LLM was shown.")
    insights: list[Memory] = Field(description="The insights stored or found, as memories.")
    generation_summary: GenerationSummary | None = Field(description="The LLM's usage (null: no call).")
