"""Recall and what is built on it: answer and reflect (/v1/memories/recall, /answer, /reflect)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import ConfigDict, Field, create_model

from shared.api.schemas.base import Wire, _absent
from shared.api.schemas.entities import EntityRelationPath
from shared.api.schemas.fields import (
    ObjectId,
)
from shared.api.schemas.memories import Memory
from shared.core.fields import (
    Content,
)


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
    avg_freshness: float | None = Field(description="Mean freshness of the results (null: no results).")
    min_freshness: float | None = Field(description="Lowest freshness of the results.")
    max_freshness: float | None = Field(description="Highest freshness of the results.")
    severe_count: int = Field(description="Results with freshness under 0.1.")
    moderate_count: int = Field(description="Results with freshness from 0.1 to 0.5.")


class BudgetSummary(Wire):
    requested: int | None = Field(description="`budget_tokens` as asked (null: no budget).")
    used: int = Field(description="Estimated tokens of the memories sent.")
    estimator: str = Field(description="How tokens were estimated (`chars_div_3_conservative_v1`).")
    truncated_items: int = Field(description="Memories cut to fit the budget.")
    omitted_items: int = Field(description="Memories left out to fit the budget.")


class RecallResponse(Wire):
    """The reference server's ``RecallResult``, without the keys that are always null here (query_rewritten,
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

    memories: list[RecalledMemory] = Field(description="The memories, best first (or in `time_order`).")
    total_count: int = Field(description="Size of the fused candidate pool before the limit.")
    query_tokens: int = Field(description="Tokens the query used (0: no LLM involved).")
    search_latency_ms: int = Field(description="Time the server spent searching, in milliseconds.")
    mode_used: str = Field(description="The mode that ran (rag without an LLM).")
    relation_paths: list[EntityRelationPath] = Field(
        description="How the relational arm reached its memories (empty without `include_relations` or a "
        "relation in the query)."
    )
    freshness_metadata: FreshnessMetadata = Field(description="Summary of the results' freshness.")
    query_intent: list[str] = Field(description="The query's intent as classified by rules (e.g. `general`).")
    retrieval_confidence: Literal["strong", "moderate", "weak"] = Field(
        description="strong (two independent signals), moderate (keyword or relational only) or weak."
    )
    confidence_reasons: list[str] = Field(
        description="Why, e.g. `multiple_independent_retrieval_signals`, `empty_result`."
    )
    budget_summary: BudgetSummary = Field(description="What the token budget did.")
    generation_summary: dict[str, Any] | None = Field(
        default=None, exclude_if=_absent, description="LLM calls and tokens (left out: no LLM was used)."
    )


class Evidence(Wire):
    id: ObjectId
    content: Content
    relevance_score: float = Field(description="Fused relevance of the arms that found it (0–1).")


class AnswerResponse(Wire):
    """A grounded answer: cites memory ids, abstains when recall found nothing relevant."""

    model_config = ConfigDict(extra="allow")

    query: str = Field(description="The question, as asked.")
    answer: str | None = Field(description="Null when abstaining or when no LLM is configured.")
    citations: list[str] = Field(description="Ids of the memories the answer rests on.")
    abstained: bool = Field(description="True when nothing relevant was found, so nothing was claimed.")
    llm_configured: bool = Field(description="Whether this server has an LLM.")
    evidence: list[Evidence] = Field(description="The memories recall found, with their relevance.")
    retrieval_confidence: Literal["strong", "moderate", "weak"] = Field(
        description="strong (two independent signals), moderate (keyword or relational only) or weak."
    )
    generation_summary: dict[str, Any] = Field(
        description="LLM calls and tokens spent (null or zeros without an LLM)."
    )


class ReflectResponse(Wire):
    reflection: str = Field(description="The synthesis, or a note saying no LLM is configured.")
    source_memories: list[str] = Field(description="Ids of the memories it rests on.")
    evidence: list[Evidence] = Field(description="The memories recall found, with their relevance.")
    confidence: float = Field(description="0–1 confidence of the synthesis (0 when there is none).")
    tokens_processed: int = Field(description="LLM tokens used (input + output).")
    llm_configured: bool = Field(description="Whether this server has an LLM.")
    abstained: bool = Field(description="True when nothing relevant was found, so nothing was claimed.")
