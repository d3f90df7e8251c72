"""/v1/entities: the entity registry (list, resolve, get, aliases, merge) and the operations beyond it (backfill,
seed, dedupe, enrich; one entity's card, provenance, related entities, insights and derive). Always on, unlike
the reference's 501-unless-flagged routes: the relations a workspace writes create these entities, so they can
be read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import EntityIdPath
from shared.core.errors import Unprocessable
from shared.core.fields import WorkspaceId
from shared.domain.relations.curation import SeedItem
from shared.domain.relations.service import valid_type
from shared.domain.requests.entities import (
    AliasesAdd,
    EntityDeriveRequest,
    MergeRequest,
    SeedEntitiesRequest,
)

router = APIRouter(prefix="/v1/entities", tags=["entities"])


def _wire(result: dict[str, Any]) -> dict[str, Any]:
    """The service's rows as the wire's entities and relations."""
    out = dict(result)
    if "entity" in out:
        out["entity"] = schemas.Entity.from_row(out["entity"])
    if "entities" in out:
        out["entities"] = [schemas.Entity.from_row(r) for r in out["entities"]]
    if "relations" in out:
        out["relations"] = [schemas.EntityRelation.from_row(r) for r in out["relations"]]
    if "resolution" in out:
        out["resolution"] = _wire(out["resolution"])
    return out


@router.get("", response_model=schemas.EntityList)
def list_entities(
    caller: CallerDep,
    svc: ServicesDep,
    status: Annotated[
        Literal["active", "merged"], Query(description="active (default) entities, or the merged tombstones.")
    ] = "active",
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most.")] = 100,
    workspace_id: WorkspaceId = None,
) -> dict[str, Any]:
    """The workspace's entities (`active`, or the `merged` tombstones), by id."""
    return _wire(svc.entities.list_entities(caller.workspace(workspace_id), status=status, limit=limit))


@router.get("/resolve", response_model=schemas.EntityResolution)
def resolve_entity(
    caller: CallerDep,
    svc: ServicesDep,
    name: Annotated[str, Query(min_length=1, max_length=512, description="The name or alias to resolve.")],
    entity_type: Annotated[
        str | None, Query(max_length=64, description="Prefer the entity of this kind when names collide.")
    ] = None,
    workspace_id: WorkspaceId = None,
) -> dict[str, Any]:
    """The entity a name or alias resolves to (exact after normalisation, never fuzzy); 404 when none does."""
    return _wire(svc.entities.resolve(caller.workspace(workspace_id), name, valid_type(entity_type)))


@router.post("/merge", response_model=schemas.EntityEnvelope)
def merge_entities(body: MergeRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Fold `source_id` into `target_id`: its relations are rewired, its name and aliases become the target's
    aliases and it stays as a `merged` tombstone. Returns the target."""
    return _wire(svc.entities.merge(caller.workspace(body.workspace_id), body.source_id, body.target_id))


@router.get("/{entity_id}", response_model=schemas.EntityDetail)
def get_entity(
    entity_id: EntityIdPath, caller: CallerDep, svc: ServicesDep, workspace_id: WorkspaceId = None
) -> dict[str, Any]:
    """One entity with its active relations (either direction)."""
    return _wire(svc.entities.get(caller.workspace(workspace_id), entity_id))


@router.get("/{entity_id}/aliases", response_model=schemas.EntityAliases)
def entity_aliases(
    entity_id: EntityIdPath, caller: CallerDep, svc: ServicesDep, workspace_id: WorkspaceId = None
) -> dict[str, Any]:
    """The entity's aliases."""
    entity = svc.entities.get(caller.workspace(workspace_id), entity_id)["entity"]
    return {"entity_id": entity_id, "aliases": schemas.Entity.from_row(entity).aliases}


@router.post("/{entity_id}/aliases", response_model=schemas.EntityEnvelope)
def add_entity_aliases(
    entity_id: EntityIdPath,
    body: AliasesAdd,
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
) -> dict[str, Any]:
    """Add names the entity resolves by (ones it already has are skipped); a merged entity refuses them.
    Returns the entity."""
    return _wire(svc.entities.add_aliases(caller.workspace(workspace_id), entity_id, body.aliases))


# ------------------------------------------------------------------ beyond the registry
@router.post("/backfill", response_model=schemas.EntityBackfillResponse)
def backfill_entities(
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    batch_size: Annotated[int, Query(ge=1, le=2000, description="Memories read per transaction.")] = 200,
    max_memories: Annotated[
        int | None,
        Query(
            ge=1,
            description="Stop after this many (continue with `after`); none, or more than the server's cap "
            "(`MEMORYLAYER_ENTITY_BACKFILL_MAX_MEMORIES`, default 500): the cap.",
        ),
    ] = None,
    reset: Annotated[
        bool, Query(description="The reference's wipe-first rebuild: refused here (422), see docs/wire.md.")
    ] = False,
    after: Annotated[
        str,
        Query(max_length=128, description="Start after this memory id (a previous answer's `next_after`)."),
    ] = "",
) -> dict[str, Any]:
    """Run the deterministic entity extraction over the workspace's live memories: profiles, the relations
    their text states plainly, the resolve-only patterns. Idempotent: a rerun writes nothing new. One call reads
    at most `max_memories` (capped) within a time budget; `next_after` continues."""
    ws = caller.workspace(workspace_id)
    if reset:
        raise Unprocessable(
            "reset would delete relations only their writes' explicit input held; merge or re-run instead",
            code="reset_not_supported",
        )
    settings = svc.settings
    cap = settings.entity_backfill_max_memories
    result = svc.entity_backfill.run(
        ws,
        batch_size=batch_size,
        max_memories=min(max_memories or cap, cap),
        after=after,
        time_budget_s=settings.entity_backfill_time_budget_s,
    )
    return {"workspace_id": ws, **result}


@router.post("/seed", response_model=schemas.SeedEntitiesResponse)
def seed_entities(body: SeedEntitiesRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Create or update a catalog of entities (typed upsert: an existing one gains the aliases, external ids
    and description it lacks). Idempotent. A kind that cannot be one is skipped and named."""
    ws = caller.workspace(body.workspace_id)
    items = [
        SeedItem(
            name=e.name,
            entity_type=e.entity_type,
            aliases=e.aliases,
            description=e.description,
            external_ids={k: str(v) for k, v in e.external_ids.items()},
            confidence=e.confidence,
        )  # fmt: skip
        for e in body.entities
    ]
    return {"workspace_id": ws, **svc.curation.seed(ws, items, tenant_id=caller.tenant_id)}


@router.post("/dedupe", response_model=schemas.EntityDedupeResponse)
def dedupe_entities(
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    threshold: Annotated[
        float | None,
        Query(
            ge=0.0, le=1.0, description="Accepted for the reference's clients: names collide exactly (1.0)."
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=10000, description="Active entities read (oldest first).")] = 1000,
) -> dict[str, Any]:
    """Merge entities of the same kind whose normalised names or aliases collide into the most established
    one (relations and evidence moved, names kept as aliases). Deterministic, no embeddings."""
    ws = caller.workspace(workspace_id)
    return {"workspace_id": ws, **svc.curation.dedupe(ws, limit=limit)}


@router.post("/enrich", response_model=schemas.EntityEnrichResponse)
def enrich_entities(
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    types: Annotated[
        str, Query(max_length=1000, description="Comma-separated kinds eligible for linking.")
    ] = "org,person,place",
    limit: Annotated[int, Query(ge=1, le=5000, description="Entities considered at most.")] = 500,
    overwrite: Annotated[
        bool, Query(description="Re-link entities already linked (nothing is linked here).")
    ] = False,
) -> dict[str, Any]:
    """The reference's external-KB (Wikidata) linking. No knowledge base is configured here, so eligible
    entities are counted and skipped, as the reference's default no-op linker does; nothing changes."""
    ws = caller.workspace(workspace_id)
    kinds = [valid_type(t.strip()) for t in types.split(",") if t.strip()]
    result = svc.curation.enrich(ws, types=[k for k in kinds if k] or None, limit=limit)
    return {"workspace_id": ws, "source": "wikidata", **result}


@router.get("/{entity_id}/card", response_model=schemas.EntityCardResponse)
def entity_card(
    entity_id: EntityIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    force_refresh: Annotated[bool, Query(description="Accepted: the card is built on every call.")] = False,
) -> dict[str, Any]:
    """The entity's profile card: the entity with its aliases, its relations (with names), its top evidence,
    its insights and a summary written from them. Deterministic; no LLM."""
    card = svc.entity_views.card(caller.workspace(workspace_id), entity_id)
    return {
        **card,
        "entity": schemas.Entity.from_row(card["entity"]),
        "relations": [schemas.CardRelation.from_named(r) for r in card["relations"]],
        "insights": [schemas.Memory.from_row(m) for m in card["insights"]],
        "evidence": [schemas.Memory.from_row(m) for m in card["evidence"]],
    }


@router.get("/{entity_id}/provenance", response_model=schemas.EntityProvenance)
def entity_provenance(
    entity_id: EntityIdPath, caller: CallerDep, svc: ServicesDep, workspace_id: WorkspaceId = None
) -> dict[str, Any]:
    """Where the entity came from (origin, first memories, external ids) and the evidence that keeps it: each
    memory stating one of its relations, with the thread and messages it was extracted from."""
    found = svc.entity_views.provenance(caller.workspace(workspace_id), entity_id)
    return {**found, "evidence": [schemas.EvidenceRow.from_row(e) for e in found["evidence"]]}


@router.get("/{entity_id}/related", response_model=schemas.RelatedEntitiesResponse)
def related_entities(
    entity_id: EntityIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    limit: Annotated[int, Query(ge=1, le=100, description="How many at most.")] = 10,
    min_shared: Annotated[int, Query(ge=1, le=10000, description="Fewest shared memories to count.")] = 1,
) -> dict[str, Any]:
    """Entities found in the same live memories as this one (evidence of relations, or about them), most
    shared first, with their direct relations to it. Reads at most the entity's 5,000 newest memories."""
    found = svc.entity_views.related(
        caller.workspace(workspace_id), entity_id, limit=limit, min_shared=min_shared
    )
    for item in found["related"]:
        item["entity"] = schemas.Entity.from_row(item["entity"])
    return found


@router.get("/{entity_id}/insights", response_model=schemas.EntityInsightsResponse)
def entity_insights(
    entity_id: EntityIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: WorkspaceId = None,
    observer_id: Annotated[
        str | None, Query(max_length=255, description="Only insights of this observer.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="How many insights at most.")] = 20,
) -> dict[str, Any]:
    """The `inference` memories about the entity (POST …/derive writes them), newest first, with counts of
    what the store holds about it and its most recent facts. Derives nothing."""
    found = svc.entity_views.insights(
        caller.workspace(workspace_id), entity_id, observer_id=observer_id, limit=limit
    )
    return {
        **found,
        "insights": [schemas.Memory.from_row(m) for m in found["insights"]],
        "recent_facts": [schemas.Memory.from_row(m) for m in found["recent_facts"]],
    }


@router.post("/{entity_id}/derive", response_model=schemas.EntityDeriveResponse)
def derive_entity_insights(
    entity_id: EntityIdPath, body: EntityDeriveRequest, caller: CallerDep, svc: ServicesDep
) -> dict[str, Any]:
    """Let the LLM propose insights from the entity's memories; the grounded ones (citing memories it was
    shown) are stored as `inference` memories about it. 403 `generation_not_allowed` without an LLM the
    enrichment policy allows."""
    ws = caller.workspace(body.workspace_id)
    found = svc.entity_insights.derive(
        ws, entity_id, observer_id=body.observer_id, tenant_id=caller.tenant_id
    )
    return {
        "subject_id": entity_id,
        "workspace_id": ws,
        **found,
        "insights": [schemas.Memory.from_row(m) for m in found["insights"]],
        "generation_summary": found.get("generation_summary"),
    }
