"""Request bodies of /v1/entities: merge, aliases, seed, derive (shared/domain/relations/ does the work)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from shared.core.fields import ObserverId, WorkspaceId
from shared.domain.requests.base import RequestModel

EntityId = Annotated[str, Field(min_length=1, max_length=128)]


class MergeRequest(RequestModel):
    source_id: EntityId = Field(description="The entity to fold away (it becomes `merged`).")
    target_id: EntityId = Field(description="The entity that survives and takes the relations and aliases.")
    reason: str = Field(default="", max_length=1000, description="Why (accepted for the reference's SDK).")
    workspace_id: WorkspaceId = None


class AliasesAdd(RequestModel):
    aliases: list[Annotated[str, Field(min_length=1, max_length=512)]] = Field(
        min_length=1, max_length=100, description="Names to add (1–100); ones it already has are skipped."
    )


# ------------------------------------------------------------------ beyond the registry
class SeedEntity(RequestModel):
    name: str = Field(min_length=1, max_length=512, description="The canonical name.")
    entity_type: str = Field(
        default="concept", max_length=64, description="Its kind (`person`, `org`, …); folded to `[a-z0-9_]`."
    )
    aliases: list[Annotated[str, Field(min_length=1, max_length=512)]] = Field(
        default_factory=list, max_length=100, description="Other names it resolves by (up to 100)."
    )
    description: str | None = Field(default=None, max_length=2000, description="Kept in its provenance.")
    external_ids: dict[Annotated[str, Field(max_length=64)], str | int] = Field(
        default_factory=dict, max_length=20, description='Ids in outside systems, e.g. `{"wikidata": "Q95"}`.'
    )
    confidence: float = Field(
        default=1.0, ge=0.0, le=1.0, description="Its confidence (an update only raises it)."
    )


class SeedEntitiesRequest(RequestModel):
    entities: list[SeedEntity] = Field(
        min_length=1, max_length=1000, description="The entities to create or update (1–1000)."
    )
    workspace_id: WorkspaceId = None


class EntityDeriveRequest(RequestModel):
    workspace_id: WorkspaceId = None
    observer_id: ObserverId = None
    force: bool = Field(
        default=False, description="Accepted for the reference's clients; nothing is cached here."
    )
