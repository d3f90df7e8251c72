"""Request bodies of /v1/graph: analyse a workspace's graph, preview its densification."""

from __future__ import annotations

from pydantic import Field

from shared.core.fields import WorkspaceId
from shared.domain.requests import RequestModel


class GraphAnalysisRequest(RequestModel):
    workspace_id: WorkspaceId = None
    context_id: str | None = Field(
        default=None, max_length=128, description="Only the memories of this context."
    )
    include_rpg: bool = Field(
        default=False, description="Accepted for the reference's clients: every live memory is a node here."
    )
    include_relations: bool = Field(
        default=False,
        description="Also join memories that are evidence about one entity (typed relations) by a "
        "`shares_entity` edge (our extension).",
    )


class DensifyPreviewRequest(RequestModel):
    workspace_id: WorkspaceId = None
    context_id: str | None = Field(
        default=None, max_length=128, description="Only the memories of this context."
    )
    cosine_enabled: bool = Field(default=True, description="Join each memory to its nearest embeddings.")
    cosine_threshold: float = Field(default=0.82, ge=-1.0, le=1.0, description="The least cosine similarity.")
    cosine_k: int = Field(default=8, ge=1, le=50, description="Nearest neighbours per memory (1–50).")
    cosine_weight: float = Field(default=1.0, ge=0.0, le=10.0, description="The signal's weight.")
    maxsim_enabled: bool = Field(default=True, description="Accepted; no memory has page multivectors here.")
    maxsim_threshold: float = Field(
        default=0.0, allow_inf_nan=False, description="Accepted; see `maxsim_enabled`."
    )
    maxsim_k: int = Field(default=8, ge=1, le=50, description="Accepted; see `maxsim_enabled`.")
    maxsim_weight: float = Field(default=1.5, ge=0.0, le=10.0, description="Accepted; see `maxsim_enabled`.")
    entity_enabled: bool = Field(
        default=True, description="Join memories that are evidence about one entity (typed relations)."
    )
    entity_weight: float = Field(default=1.0, ge=0.0, le=10.0, description="The signal's weight.")
    entity_max_group: int = Field(
        default=50, ge=2, le=1000, description="Skip an entity with more memories than this (2–1000)."
    )
