"""Recall's result: ranked rows and expanded associations merged, scored, packed into the token budget. Each
memory is its row with recall's keys added (and its ETag, taken before the budget can cut the content); the
API layer sends it in wire form (``shared.api.wire.recall``).

>>> out = shape(req, rows, expanded, started)                      # doctest: +SKIP
>>> out["memories"][0]["match_signals"], out["retrieval_confidence"]   # doctest: +SKIP
(['vector', 'keyword'], 'strong')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from shared.core.wire import etag
from shared.domain.requests import RecallRequest
from shared.domain.retrieval.budget import pack


def shape(
    req: RecallRequest,
    rows: list[dict],
    expanded: list[dict],
    started: float,
    attach_embeddings: Callable[[list[dict]], None] | None = None,
    *,
    confidence: bool = True,
    budget: int | None = None,
) -> dict[str, Any]:
    """The recall response body; ``attach_embeddings`` fills in ``embedding`` when the request asks for them.
    Without ``confidence`` the answer carries the reference's compatibility values ("weak", no reasons).
    ``budget``: the token budget in force (the request's, else the server's default); each memory is sent at
    ``req.detail_level``, stepped down to fit it."""
    now = datetime.now(UTC)
    merged = [(r, signals(r)) for r in rows] + [(r, ["association"]) for r in expanded]
    # Stable: rows keep the SQL order among equal scores (browse mode is newest first).
    merged.sort(key=lambda item: -float(item[0]["boosted"]))
    merged = merged[: req.limit]
    if req.time_order:
        merged.sort(
            key=lambda item: item[0]["event_time"] or item[0]["created_at"],
            reverse=req.time_order == "desc",
        )
    memories = []
    for row, row_signals in merged:
        age_days = max(0.0, (now - row["created_at"]).total_seconds() / 86400)
        out = dict(row, etag=etag(row))
        out.update(
            relevance_score=round(float(row.get("relevance", row["boosted"])), 6),
            boosted_score=round(float(row["boosted"]), 6),
            match_signals=row_signals,
            source_scope="same_workspace",
            age_days=round(age_days, 3),
            freshness_score=round(math.pow(2, -age_days / 30), 6),
        )
        memories.append(out)
    if req.include_embeddings and memories and attach_embeddings is not None:
        attach_embeddings(memories)
    memories, summary = pack(memories, budget, req.detail_level)
    level, reasons = confidence_of(memories) if confidence else ("weak", [])
    freshness = [m["freshness_score"] for m in memories]
    return {
        "memories": memories,
        "total_count": int(rows[0]["pool"]) if rows else 0,
        "query_tokens": 0,
        # An int: SDK 0.2.1 declares int.
        "search_latency_ms": round((time.perf_counter() - started) * 1000),
        "mode_used": "rag",
        "query_rewritten": None,
        "sufficiency_reached": None,
        "source_scope": None,
        "boosted_score": None,
        "token_summary": None,
        "trajectory": None,
        "relation_write_result": None,
        "relation_paths": [],
        "drift_caveat": None,
        "freshness_metadata": {
            "avg_freshness": round(sum(freshness) / len(freshness), 6) if freshness else None,
            "min_freshness": min(freshness, default=None),
            "max_freshness": max(freshness, default=None),
            "severe_count": sum(1 for f in freshness if f < 0.1),
            "moderate_count": sum(1 for f in freshness if 0.1 <= f < 0.5),
        },
        "query_intent": ["general"],
        "retrieval_confidence": level,
        "confidence_reasons": reasons,
        "budget_summary": summary,
        "generation_summary": None,
    }


def signals(row: dict) -> list[str]:
    """Which arms and cues found a ranked row."""
    found = []
    if row.get("vec_rank") is not None:
        found.append("vector")
    if row.get("text_rank") is not None:
        found.append("keyword")
    if row.get("lent"):
        found.append("context")  # a neighbouring turn of its stream matched
    if row.get("relational"):
        found.append("relational")  # a typed relation with active evidence led here
    return found or ["recency"]


def confidence_of(memories: list[dict]) -> tuple[str, list[str]]:
    if not memories:
        return "weak", ["empty_result"]
    top = [set(m["match_signals"]) for m in memories[:3]]
    if any({"vector", "keyword"} <= s or ("relational" in s and s & {"vector", "keyword"}) for s in top):
        return "strong", ["multiple_independent_retrieval_signals"]
    if any("relational" in s for s in top):
        return "moderate", ["typed_relation_with_active_evidence"]
    if any("keyword" in s for s in top):
        return "moderate", ["keyword_only"]
    if any("association" in s for s in top):
        return "moderate", ["relational_only"]
    return "weak", ["uncalibrated_vector_only"]
