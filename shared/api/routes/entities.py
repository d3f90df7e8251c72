"""/v1/entities: the entity registry (list, resolve, get, aliases, merge). Always on, unlike the reference's
501-unless-flagged routes: the relations a workspace writes create these entities, so they can be read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from shared.api.deps import CallerDep, ServicesDep
from shared.relations.service import EntityService, valid_type

router = APIRouter(prefix="/v1/entities", tags=["entities"])

EntityId = Annotated[str, Field(min_length=1, max_length=128)]


class MergeRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source_id: EntityId
    target_id: EntityId
    reason: str = Field(default="", max_length=1000)
    workspace_id: str | None = None


class AliasesAdd(BaseModel):
    model_config = ConfigDict(extra="ignore")

    aliases: list[Annotated[str, Field(min_length=1, max_length=512)]] = Field(min_length=1, max_length=100)


def _entities(svc: Any) -> EntityService:
    return EntityService(svc.db)


@router.get("")
def list_entities(
    caller: CallerDep,
    svc: ServicesDep,
    status: Literal["active", "merged"] = "active",
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    workspace_id: str | None = None,
) -> dict[str, Any]:
    return _entities(svc).list_entities(caller.workspace(workspace_id), status=status, limit=limit)


@router.get("/resolve")
def resolve_entity(
    caller: CallerDep,
    svc: ServicesDep,
    name: Annotated[str, Query(min_length=1, max_length=512)],
    entity_type: Annotated[str | None, Query(max_length=64)] = None,
    workspace_id: str | None = None,
) -> dict[str, Any]:
    return _entities(svc).resolve(caller.workspace(workspace_id), name, valid_type(entity_type))


@router.post("/merge")
def merge_entities(body: MergeRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return _entities(svc).merge(caller.workspace(body.workspace_id), body.source_id, body.target_id)


@router.get("/{entity_id}")
def get_entity(
    entity_id: str, caller: CallerDep, svc: ServicesDep, workspace_id: str | None = None
) -> dict[str, Any]:
    return _entities(svc).get(caller.workspace(workspace_id), entity_id)


@router.get("/{entity_id}/aliases")
def entity_aliases(
    entity_id: str, caller: CallerDep, svc: ServicesDep, workspace_id: str | None = None
) -> dict[str, Any]:
    entity = _entities(svc).get(caller.workspace(workspace_id), entity_id)["entity"]
    return {"entity_id": entity_id, "aliases": entity["aliases"]}


@router.post("/{entity_id}/aliases")
def add_entity_aliases(
    entity_id: str, body: AliasesAdd, caller: CallerDep, svc: ServicesDep, workspace_id: str | None = None
) -> dict[str, Any]:
    return _entities(svc).add_aliases(caller.workspace(workspace_id), entity_id, body.aliases)
