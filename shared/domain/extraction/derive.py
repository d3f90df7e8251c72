"""Entity insights: the LLM reads the memories that are an entity's evidence (or are about it) and proposes
higher-order insights, each citing the memories it rests on; code keeps the grounded ones and stores each as a
semantic ``inference`` memory about the entity (``subject_id``), citing its sources in metadata.

    >>> EntityDeriver(db, memories, llm, settings).derive("ws_a", "ent_1", observer_id=None)   # doctest: +SKIP
    {'insights_created': 2, 'insights_updated': 0, 'source_memory_count': 7, 'insights': [...]}

It needs an LLM the enrichment policy allows for synthesis (the reference's activity for inference); without
one it is a 403 ``generation_not_allowed`` before anything is read. An insight citing no memory it was shown is
dropped; an insight already stored (same text, entity and sources: the memory's dedup key) is counted as
updated, not stored twice.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError

from shared.core.errors import Forbidden, NotFound, ServiceUnavailable, Unprocessable
from shared.core.settings import Settings
from shared.db import relations as repo
from shared.db.pool import Database
from shared.domain.memories.service import MemoryService
from shared.domain.requests import MemoryCreate
from shared.providers.llm.base import LLMClient
from shared.providers.llm.budget import OperationBudget

ACTIVITY = "synthesis"
PROFILE = "inference"
SOURCE_MEMORIES = 50  # the reference's cap on what one derivation reads
MAX_INSIGHTS = 10

SYSTEM = (
    "You derive insights about one entity from numbered observations: patterns, preferences, tendencies and "
    "conclusions that the observations support together but do not state outright. Each insight must cite the "
    "numbers of the observations it rests on (at least one, preferably several). Give at most 10; none if "
    "nothing is supported. confidence is 0 to 1."
)
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["insights"],
    "properties": {
        "insights": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["content", "citations", "confidence"],
                "properties": {
                    "content": {"type": "string"},
                    "citations": {"type": "array", "items": {"type": "integer"}},
                    "confidence": {"type": "number"},
                },
            },
        }
    },
}


class _Insight(BaseModel):
    content: str = Field(min_length=1, max_length=2000)
    citations: list[int] = Field(max_length=SOURCE_MEMORIES)
    confidence: float


class _Proposal(BaseModel):
    insights: list[_Insight] = Field(max_length=50)


class EntityDeriver:
    def __init__(
        self, db: Database, memories: MemoryService, llm: LLMClient | None, settings: Settings
    ) -> None:
        self.db = db
        self.memories = memories
        self.llm = llm
        self.settings = settings

    def derive(
        self, workspace_id: str, entity_id: str, *, observer_id: str | None, tenant_id: str
    ) -> dict[str, Any]:
        llm = self.llm
        if llm is None or not self.settings.generation_allowed(ACTIVITY):
            raise Forbidden(
                "deriving insights needs an LLM, and generation is not allowed here (none configured, or the "
                "enrichment policy does not allow synthesis)",
                code="generation_not_allowed",
            )
        with self.db.connection() as conn:
            entity = repo.get_entity(conn, workspace_id, entity_id)
            if entity is None:
                raise NotFound(f"entity {entity_id} not found", code="entity_not_found")
            sources = [
                m
                for m in repo.evidence_memories(conn, workspace_id, [entity_id], SOURCE_MEMORIES)
                if m["subtype"] != "inference" and (observer_id is None or m["observer_id"] == observer_id)
            ]
        result: dict[str, Any] = {"insights_created": 0, "insights_updated": 0, "insights": []}
        result["source_memory_count"] = len(sources)
        if not sources:
            return result
        numbered = "\n".join(f"[{i}] {m['content']}" for i, m in enumerate(sources, start=1))
        prompt = f"Entity: {entity['canonical_name']} ({entity['entity_type']})\n\nObservations:\n{numbered}"
        budget = OperationBudget(self.settings, profile_max_tokens=getattr(llm, "max_tokens", None))
        refused = budget.refusal(SYSTEM, prompt)
        if refused is not None:
            raise Unprocessable(f"no LLM call: {refused}", code="generation_budget_exceeded")
        raw, usage = llm.complete_json(
            SYSTEM, prompt, SCHEMA, name="entity_insights", max_tokens=budget.admit(SYSTEM, prompt)
        )
        try:
            proposal = _Proposal.model_validate(raw)
        except ValidationError as exc:
            raise ServiceUnavailable(
                "LLM insights were outside the schema", code="llm_invalid_output"
            ) from exc
        for insight in proposal.insights[:MAX_INSIGHTS]:
            cited = [sources[i - 1]["id"] for i in dict.fromkeys(insight.citations) if 1 <= i <= len(sources)]
            if not cited or not insight.content.strip():
                continue
            body = MemoryCreate(
                content=insight.content.strip(), type="semantic", subtype="inference",
                importance=min(1.0, max(0.0, insight.confidence)), subject_id=entity_id, observer_id=observer_id,
                metadata={"derived_from": sorted(cited), "derived_by": "entity_insights", "entity_id": entity_id},
            )  # fmt: skip
            row, created, _ = self.memories.remember(workspace_id, body, tenant_id=tenant_id)
            result["insights_created" if created else "insights_updated"] += 1
            result["insights"].append(row)
        result["generation_summary"] = {
            "calls": 1,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
        }
        return result
