"""The user representation (POST /v1/representation/user), as the reference's deterministic path assembles it:
a user's memories in the tenant's user space (``scope: user``; they follow the user across workspaces), newest
first, with a profile (a ``profile``-subtype memory, else the top three joined) and no LLM beliefs.

    >>> profile([{"id": "m1", "content": "Likes tea", "subtype": None}])
    {'summary': 'Likes tea', 'source_memory_ids': ['m1'], 'derived': False}
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.core.fields import WorkspaceId
from shared.db import representation as repo
from shared.db.pool import Database
from shared.domain.requests import RequestModel

PROFILE_TOP = 3


class UserRepresentationRequest(RequestModel):
    user_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="The user (required here: keys carry no user).",
    )
    workspace_id: WorkspaceId = None
    limit: int = Field(default=20, ge=1, le=200, description="Observations at most (1-200, default 20).")
    include_profile: bool = Field(default=True, description="Attach the profile (default true).")


def profile(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A ``profile``-subtype memory's content, else the top observations joined; None with no memories."""
    if not rows:
        return None
    for row in rows:
        if row.get("subtype") == "profile":
            return {"summary": row["content"], "source_memory_ids": [row["id"]], "derived": False}
    top = rows[:PROFILE_TOP]
    return {
        "summary": " ".join(r["content"] for r in top),
        "source_memory_ids": [r["id"] for r in top],
        "derived": False,
    }


def user_representation(
    db: Database, user_space: str, user_id: str | None, *, limit: int, include_profile: bool
) -> dict[str, Any]:
    if not user_id:
        return {
            "user_id": "",
            "observations": [],
            "profile": None,
            "derived_beliefs": [],
            "provenance": {"error": "no_user_id", "scoping_mode": None},
        }
    with db.connection() as conn:
        rows = repo.user_memories(conn, user_space, user_id, limit=limit + 1)
    truncated, rows = len(rows) > limit, rows[:limit]
    observations = [
        {
            "memory_id": r["id"],
            "content": r["content"],
            "role": "self",
            "relevance": None,
            "event_time": r["event_time"],
            "match_signals": None,
        }
        for r in rows
    ]
    origins = sorted(
        {o for r in rows if isinstance(o := (r["metadata"] or {}).get("origin_workspace_id"), str)}
    )
    return {
        "user_id": user_id,
        "observations": observations,
        "profile": profile(rows) if include_profile else None,
        "derived_beliefs": [],
        "provenance": {
            "scoping_mode": "user",
            "user_id": user_id,
            "scoped_id_count": len(rows),
            "observation_count": len(observations),
            "origin_workspace_ids": origins,
            "truncated": truncated,
        },
    }
