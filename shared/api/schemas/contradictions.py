"""Contradictions between two memories (/v1/workspaces/{id}/contradictions, /v1/contradictions/{id}/resolve)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from shared.api.schemas.base import Timestamp, Wire

_EXAMPLE: dict[str, Any] = {
    "id": "contra_5b1f0c2a9d3e4f67", "workspace_id": "demo", "memory_a_id": "mem_3f2a9c1e8b7d4a60",
    "memory_b_id": "mem_9c8d7e6f5a4b3c2d", "contradiction_type": "negation", "confidence": 1.0,
    "detection_method": "negation_pattern", "detected_at": "2026-11-29T14:40:34.508615Z", "resolved_at": None,
    "resolution": None,
}  # fmt: skip


class Contradiction(Wire):
    """Two memories that cannot both be true (the reference's ``ContradictionResponse``)."""

    model_config = ConfigDict(json_schema_extra={"examples": [_EXAMPLE]})

    id: str = Field(description="`contra_` + 16 hex.")
    workspace_id: str = Field(description="The workspace both memories belong to.")
    memory_a_id: str = Field(description="The first memory.")
    memory_b_id: str = Field(description="The second memory.")
    contradiction_type: str | None = Field(
        description="`negation` (one says what the other denies), `semantic_value_conflict` (one subject and "
        "predicate, two values) or `asserted` (a `contradicts` association said so)."
    )
    confidence: float | None = Field(description="How alike the two statements are (0–1).")
    detection_method: str | None = Field(
        description="The rule that found it: `negation_pattern`, `entity_value_extraction`, `fact_key`, "
        "`association`."
    )
    detected_at: Timestamp | None = Field(description="When the scan found it.")
    resolved_at: Timestamp | None = Field(description="When it was resolved; null while open.")
    resolution: str | None = Field(description="`keep_a`, `keep_b`, `keep_both` or `merge`; null while open.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Contradiction:
        return cls.pick(row)


class ContradictionList(Wire):
    contradictions: list[Contradiction] = Field(description="Open contradictions, newest first.")
    count: int = Field(description="How many are listed.")


class ContradictionScan(Wire):
    workspace_id: str = Field(description="The workspace scanned.")
    contradictions_found: int = Field(description="How many new contradictions the scan recorded.")
    contradictions: list[Contradiction] = Field(description="The new ones (a pair recorded before is not).")
    memories_scanned: int = Field(description="How many live memories were compared (newest first).")
    truncated: bool = Field(
        description="The scan did not cover everything: the workspace has more live memories than one scan "
        "compares (`MEMORYLAYER_CONTRADICTION_SCAN_MAX_MEMORIES`), more pairs remain (`next_cursor`), or a fact "
        "group held more pairs than one group yields (`groups_capped`)."
    )
    next_cursor: str | None = Field(
        default=None,
        description="More pairs were found than one scan records (`MEMORYLAYER_CONTRADICTION_SCAN_MAX_PAIRS`): "
        "send this as `cursor` to record the next page; null when the scan got to the end.",
    )
    pairs_found: int = Field(
        default=0, description="How many pairs this scan's rules found in all (recorded before or not)."
    )
    groups_capped: int = Field(
        default=0,
        description="Fact groups (one user, subject and predicate) that held more pairs than one group yields "
        "(`MEMORYLAYER_CONTRADICTION_SCAN_MAX_GROUP_PAIRS`): their newest statements' pairs were taken.",
    )
