"""Associations between memories and the graph walk over them (/v1/memories/{id}/associate, /traverse)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Wire, _wrapped_example
from shared.api.schemas.fields import (
    CreatedAt,
    InWorkspace,
)
from shared.core.fields import (
    AssociationType,
    Metadata,
    Strength,
    TargetMemoryId,
)


class Association(Wire):
    """A directed, typed edge between two memories (the relationship types: ``GET /v1/workspaces/{id}/schema``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "assoc_5d1e2f3a4b5c6d7e",
                    "workspace_id": "demo",
                    "source_id": "mem_3f2a9c1e8b7d4a60",
                    "target_id": "mem_8a7b6c5d4e3f2a10",
                    "relationship": "related_to",
                    "strength": 0.5,
                    "metadata": {},
                    "created_at": "2026-11-29T14:40:34.508615Z",
                }
            ]
        }
    )

    id: str = Field(description="`assoc_` + 16 hex.")
    workspace_id: InWorkspace
    source_id: str = Field(description="The memory the edge starts from.")
    target_id: TargetMemoryId
    relationship: AssociationType
    strength: Strength
    metadata: Metadata
    created_at: CreatedAt

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Association:
        return cls.pick(row, strength=round(float(row["strength"]), 6))


class AssociationCreated(Association):
    """The new (or existing, identical) edge: wrapped, and flat too (SDK 0.2.1 reads the top level)."""

    model_config = _wrapped_example(Association, "association")

    association: Association = Field(description="The edge.")


class AssociationList(Wire):
    associations: list[Association] = Field(description="The associations.")
    total_count: int = Field(description="The number of associations sent.")


class TraversePath(Wire):
    nodes: list[str] = Field(description="Memory ids along the path.")
    edges: list[Association] = Field(description="The edges along the path.")
    total_strength: float = Field(description="The path's score (product of strengths, decayed per hop).")
    depth: int = Field(description="How many hops from the start memory the path takes.")


class TraverseResponse(Wire):
    paths: list[TraversePath] = Field(description="Every path from the start memory, breadth-first.")
    total_paths: int = Field(description="How many paths were found.")
    unique_nodes: list[str] = Field(
        description="The distinct memories reached: the start first, then in the order the walk reached them."
    )
    truncated: bool = Field(description="True when a node, edge or size bound stopped the walk early.")
    query_latency_ms: float = Field(description="Time the walk took, in milliseconds.")
