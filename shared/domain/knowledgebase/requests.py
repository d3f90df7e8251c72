"""The request body of ``POST /v1/knowledgebase/generate``."""

from __future__ import annotations

from pydantic import Field

from shared.core.fields import ContextId, WorkspaceId
from shared.domain.requests import RequestModel


class KbGenerateRequest(RequestModel):
    workspace_id: WorkspaceId = None
    context_id: ContextId = None
    include_rpg: bool = Field(
        default=False, description="Accepted for the reference's SDK; there are no RPG nodes."
    )
    max_communities: int = Field(default=50, ge=1, le=500, description="The most community articles (1–500).")
    max_god_nodes: int = Field(
        default=20,
        ge=0,
        le=200,
        description="The most entity articles (0–200), the best-connected entities first.",
    )
    regenerate: bool = Field(
        default=False, description="Accepted for the reference's SDK: every call writes the articles afresh."
    )
    background: bool = Field(
        default=False, description="Accepted for the reference's SDK: generation always runs in the call."
    )
