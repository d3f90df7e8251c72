"""Recall and what is built on it: answer and reflect (/v1/memories/recall, /answer, /reflect)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import ConfigDict, Field, create_model

from shared.api.schemas.base import Wire, _absent
from shared.api.schemas.entities import EntityRelationPath
from shared.api.schemas.memories import Memory


class _RecalledMemory(Memory):
    """A memory as recall returns it: the memory plus how it was found."""

    model_config = ConfigDict(json_schema_extra=None)  # RecallResponse's example shows one

    relevance_score: float = Field(description="Fused relevance of the arms that found it (0–1).")
    boosted_score: float = Field(description="Relevance after the scope and recency boosts; the ranking key.")
    match_signals: list[str] = Field(
        description="Which arms found it: vector, keyword, context, association, recency, relational."
    )
    source_scope: str = Field(description="Where it was found (same_workspace for now).")
    age_days: float = Field(description="Days since it was created.")
    freshness_score: float = Field(description="2^(−age_days/30).")
    truncated: bool | None = Field(
        default=None,
        exclude_if=_absent,
        description="Present (true) only when `budget_tokens` cut its content.",
    )


def _nulls_left_out(model: type[Wire], name: str) -> Any:
    """``model`` with every nullable field optional and left out when null (recall sends no nulls: a result is
    ~40 keys per memory, most of them null for a plain memory; the SDKs default them)."""
    fields: dict[str, Any] = {}
    for field, info in model.model_fields.items():
        if info.is_required() and type(None) in get_args(info.annotation):
            fields[field] = (
                info.annotation,
                Field(default=None, exclude_if=_absent, description=info.description),
            )
    return create_model(name, __base__=model, __doc__=model.__doc__, **fields)


if TYPE_CHECKING:  # the checker sees the fields; the wire model leaves nulls out
    RecalledMemory = _RecalledMemory
else:
    RecalledMemory = _nulls_left_out(_RecalledMemory, "RecalledMemory")


class FreshnessMetadata(Wire):
    avg_freshness: float | None
    min_freshness: float | None
    max_freshness: float | None
    severe_count: int
    moderate_count: int


class BudgetSummary(Wire):
    requested: int | None = Field(description="`budget_tokens` as asked (null: no budget).")
    used: int = Field(description="Estimated tokens of the memories sent.")
    estimator: str
    truncated_items: int
    omitted_items: int


class RecallResponse(Wire):
    """The reference's ``RecallResult`` (API.md §6), without the keys that are always null here (query_rewritten,
    trajectory, …): what the SDKs read, no more."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "memories": [
                        {"id": "mem_3f2a9c1e8b7d4a60", "workspace_id": "demo", "tenant_id": "_default",
                         "context_id": "_default", "content": "Alice prefers green tea", "content_hash": "9b1c…",
                         "type": "semantic", "subtype": "preference", "importance": 0.8, "tags": ["drinks"],
                         "metadata": {}, "refinement_metadata": {}, "pinned": False, "status": "active",
                         "embedding_model": "local-minilm@384", "access_count": 1, "decay_factor": 1.0,
                         "revision": 1, "etag": '"memory-1-5e0c…"', "source_message_ids": [],
                         "created_at": "2026-11-29T14:40:34.508615Z", "updated_at": "2026-11-29T14:40:34.508615Z",
                         "relevance_score": 1.0, "boosted_score": 1.2, "match_signals": ["vector", "keyword"],
                         "source_scope": "same_workspace", "age_days": 0.2, "freshness_score": 0.995}
                    ],
                    "total_count": 3,
                    "query_tokens": 0,
                    "search_latency_ms": 6,
                    "mode_used": "rag",
                    "relation_paths": [],
                    "freshness_metadata": {"avg_freshness": 0.995, "min_freshness": 0.995, "max_freshness": 0.995,
                                           "severe_count": 0, "moderate_count": 0},
                    "query_intent": ["general"],
                    "retrieval_confidence": "strong",
                    "confidence_reasons": ["multiple_independent_retrieval_signals"],
                    "budget_summary": {"requested": None, "used": 8, "estimator": "chars_div_3_conservative_v1",
                                       "truncated_items": 0, "omitted_items": 0},
                }
            ]
        }
    )  # fmt: skip

    memories: list[RecalledMemory]
    total_count: int = Field(description="Size of the fused candidate pool before the limit.")
    query_tokens: int
    search_latency_ms: int
    mode_used: str
    relation_paths: list[EntityRelationPath] = Field(
        description="How the relational arm reached its memories (empty without `include_relations` or a "
        "relation in the query)."
    )
    freshness_metadata: FreshnessMetadata
    query_intent: list[str]
    retrieval_confidence: Literal["strong", "moderate", "weak"]
    confidence_reasons: list[str]
    budget_summary: BudgetSummary
    generation_summary: dict[str, Any] | None = Field(
        default=None, exclude_if=_absent, description="LLM calls and tokens (left out: no LLM was used)."
    )


class Evidence(Wire):
    id: str
    content: str
    relevance_score: float


class AnswerResponse(Wire):
    """A grounded answer: cites memory ids, abstains when recall found nothing relevant."""

    model_config = ConfigDict(extra="allow")

    query: str
    answer: str | None = Field(description="Null when abstaining or when no LLM is configured.")
    citations: list[str] = Field(description="Ids of the memories the answer rests on.")
    abstained: bool
    llm_configured: bool
    evidence: list[Evidence]
    retrieval_confidence: Literal["strong", "moderate", "weak"]
    generation_summary: dict[str, Any]


class ReflectResponse(Wire):
    reflection: str
    source_memories: list[str]
    evidence: list[Evidence]
    confidence: float
    tokens_processed: int
    llm_configured: bool
    abstained: bool
