"""Associations between memories and the graph walk over them (/v1/memories/{id}/associate, /traverse)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire, _wrapped_example


class Association(Wire):
    """A directed, typed edge between two memories (API.md §7 lists the relationship types)."""

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

    id: str
    workspace_id: str
    source_id: str
    target_id: str
    relationship: str
    strength: float
    metadata: dict[str, Any]
    created_at: Timestamp

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Association:
        return cls.pick(row, strength=round(float(row["strength"]), 6))


class AssociationCreated(Association):
    """The new (or existing, identical) edge: wrapped, and flat too (SDK 0.2.1 reads the top level)."""

    model_config = _wrapped_example(Association, "association")

    association: Association


class AssociationList(Wire):
    associations: list[Association]
    total_count: int


class TraversePath(Wire):
    nodes: list[str]
    edges: list[Association]
    total_strength: float
    depth: int


class TraverseResponse(Wire):
    paths: list[TraversePath]
    total_paths: int
    unique_nodes: int
    truncated: bool = Field(description="True when a node, edge or size bound stopped the walk early.")
    query_latency_ms: float
