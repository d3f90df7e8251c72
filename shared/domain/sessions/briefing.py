"""The briefing: what happened lately in a workspace (counts, recent memories, open threads, contradictions);
its memories are rows, which the API layer sends in wire form (``shared.api.wire.briefing``).

>>> briefing(svc, "ws_a", lookback_minutes=60)["workspace_summary"]["total_memories"]   # doctest: +SKIP
12
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from shared.db import associations as assoc_repo
from shared.db import memories as mem_repo
from shared.db import sessions as repo
from shared.domain.memories import serialize
from shared.domain.memories.tiers import attach as attach_tiers
from shared.domain.retrieval.budget import DetailLevel, representations
from shared.domain.sessions.working import OPEN_THREAD_KEYS, render_value

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts


def briefing(
    svc: SessionParts,
    workspace_id: str,
    *,
    lookback_minutes: int = 60,
    limit: int = 10,
    include_memories: bool = True,
    include_contradictions: bool = True,
    detail_level: DetailLevel = "abstract",
) -> dict[str, Any]:
    now = svc.clock()
    since = now - timedelta(minutes=lookback_minutes)
    with svc.db.connection() as conn:
        summary = mem_repo.activity_summary(conn, workspace_id, day_start=now - timedelta(days=1))
        topics = mem_repo.top_tags_since(conn, workspace_id, since)
        types = mem_repo.type_counts(conn, workspace_id)
        recent = mem_repo.created_since(conn, workspace_id, since, limit)
        threads = repo.open_threads(conn, workspace_id, sorted(OPEN_THREAD_KEYS), now=now, limit=limit)
        contradictions = (
            assoc_repo.unresolved_contradictions(conn, workspace_id, limit) if include_contradictions else []
        )
    activity = []
    if recent:
        activity.append(
            {
                "timestamp": serialize.iso(recent[0]["created_at"]),
                "summary": f"{len(recent)} memories in the last {lookback_minutes} minutes",
                "memories_created": len(recent),
                "key_decisions": [r["content"] for r in recent if r["subtype"] == "decision"][:5],
            }
        )
    return {
        "workspace_summary": {**summary, "active_topics": topics, "memory_types": types},
        "recent_activity": activity,
        "open_threads": [
            {
                "topic": render_value(t["value"]),
                "status": "blocked" if t["key"].lower() == "blocked" else "in_progress",
                "last_activity": serialize.iso(t["updated_at"]),
                "key_memories": [],
                "session_id": t["session_id"],
            }
            for t in threads
        ],
        "contradictions_detected": [
            {
                "memory_a": c["source_id"],
                "memory_b": c["target_id"],
                "relationship": "contradicts",
                "needs_resolution": True,
                "detected_at": serialize.iso(c["created_at"]),
                "id": c["id"],
            }
            for c in contradictions
        ],
        "memories": [_at_level(svc, r, detail_level) for r in recent] if include_memories else [],
    }


def _at_level(svc: SessionParts, row: dict[str, Any], level: DetailLevel) -> dict[str, Any]:
    """The memory with its content at ``level`` (its tier; the whole content when it has none)."""
    out = dict(row)
    attach_tiers(out, row, svc.settings.extractive_tiers_enabled)
    out["content"] = representations(out, level)[0]
    return out
