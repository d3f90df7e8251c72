"""/v1/entities: the entity registry (list, resolve, get, aliases, merge). Always on, unlike the reference's
501-unless-flagged routes: the relations a workspace writes create these entities, so they can be read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import EntityIdPath
from shared.core.fields import (
    WorkspaceId,
)
from shared.domain.relations.service import EntityService, valid_type

router = APIRouter(prefix="/v1/entities", tags=["entities"])

EntityId = Annotated[str, Field(min_length=1, max_length=128)]


class MergeRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source_id: EntityId = Field(description="The entity to fold away (it becomes `merged`).")
    target_id: EntityId = Field(description="The entity that survives and takes the relations and aliases.")
    reason: str = Field(default="", max_length=1000, description="Why (accepted for the reference's SDK).")
    workspace_id: WorkspaceId = None


class AliasesAdd(BaseModel):
    model_config = ConfigDict(extra="ignore")

    aliases: list[Annotated[str, Field(min_length=1, max_length=512)]] = Field(
        min_length=1, max_length=100, description="Names to add (1–100); ones it already has are skipped."
    )


def _entities(svc: Any) -> EntityService:
    return EntityService(svc.db)


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
    return _wire(_entities(svc).list_entities(caller.workspace(workspace_id), status=status, limit=limit))


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
    return _wire(_entities(svc).resolve(caller.workspace(workspace_id), name, valid_type(entity_type)))


@router.post("/merge", response_model=schemas.EntityEnvelope)
def merge_entities(body: MergeRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Fold `source_id` into `target_id`: its relations are rewired, its name and aliases become the target's
    aliases and it stays as a `merged` tombstone. Returns the target."""
    return _wire(_entities(svc).merge(caller.workspace(body.workspace_id), body.source_id, body.target_id))


@router.get("/{entity_id}", response_model=schemas.EntityDetail)
def get_entity(
    entity_id: EntityIdPath, caller: CallerDep, svc: ServicesDep, workspace_id: WorkspaceId = None
) -> dict[str, Any]:
    """One entity with its active relations (either direction)."""
    return _wire(_entities(svc).get(caller.workspace(workspace_id), entity_id))


@router.get("/{entity_id}/aliases", response_model=schemas.EntityAliases)
def entity_aliases(
    entity_id: EntityIdPath, caller: CallerDep, svc: ServicesDep, workspace_id: WorkspaceId = None
) -> dict[str, Any]:
    """The entity's aliases."""
    entity = _entities(svc).get(caller.workspace(workspace_id), entity_id)["entity"]
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
    return _wire(_entities(svc).add_aliases(caller.workspace(workspace_id), entity_id, body.aliases))
