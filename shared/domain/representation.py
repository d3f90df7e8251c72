"""Representations, as the reference's deterministic path assembles them (no LLM, no recall), each with a
profile (a ``profile``-subtype memory, else the top three joined) and no derived beliefs:

- the user representation (POST /v1/representation/user): a user's memories in the tenant's user space
  (``scope: user``; they follow the user across workspaces), newest first;
- the perspective (POST /v1/representation): what observer O holds about subject S in a workspace. Both are
  resolved in the entity registry (never created); the memories are O's (``observer_id`` names O) about S
  (``subject_id`` names S, or the memory is evidence of one of S's relations). A name the registry does not
  know answers an empty representation saying which side was unresolved.

    >>> profile([{"id": "m1", "content": "Likes tea", "subtype": None}])
    {'summary': 'Likes tea', 'source_memory_ids': ['m1'], 'derived': False}
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import Field

from shared.core.errors import InvalidInput, NotFound
from shared.core.fields import WorkspaceId
from shared.db import representation as repo
from shared.db.pool import Database
from shared.domain.relations.service import EntityService
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


EntityTypeHint = Annotated[
    str | None,
    Field(
        pattern=r"^[a-z][a-z0-9_]{0,63}$",
        description="Resolve this side only as an entity of this type (person, organization, …).",
    ),
]


class RepresentationRequest(RequestModel):
    observer: str = Field(min_length=1, max_length=200, description="Who holds the view (an entity's name).")
    subject: str = Field(min_length=1, max_length=200, description="Whom it is about (an entity's name).")
    workspace_id: WorkspaceId = None
    observer_type: EntityTypeHint = None
    subject_type: EntityTypeHint = None
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
    observations = [_observation(r) for r in rows]
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


def _resolve(
    entities: EntityService, workspace_id: str, name: str, entity_type: str | None
) -> tuple[dict[str, Any], str] | None:
    """The entity and how it matched (exact, alias), or None: never created here."""
    try:
        found = entities.resolve(workspace_id, name, entity_type)["resolution"]
    except (NotFound, InvalidInput):
        return None
    if entity_type and found["entity"]["entity_type"] != entity_type:
        return None
    return found["entity"], found["matched_via"]


def _placeholder(workspace_id: str, name: str, entity_type: str | None) -> dict[str, Any]:
    """The side the registry does not know, as the reference answers it: no id, flagged unresolved."""
    now = datetime.now(UTC)
    return {
        "id": "",
        "workspace_id": workspace_id,
        "entity_type": entity_type or "person",
        "canonical_name": name,
        "normalized_name": name,
        "aliases": [],
        "confidence": 1.0,
        "provenance": {"unresolved": True},
        "external_ids": {},
        "representative_memory_id": None,
        "status": "active",
        "merged_into": None,
        "created_at": now,
        "updated_at": now,
    }


def _names(entity: dict[str, Any]) -> list[str]:
    """What an ``observer_id``/``subject_id`` may hold to name the entity, lowercased."""
    names = {entity["id"], entity["canonical_name"], entity["normalized_name"], *(entity["aliases"] or [])}
    return sorted({n.strip().lower() for n in names if n and n.strip()})


def perspective(db: Database, workspace_id: str, body: RepresentationRequest) -> dict[str, Any]:
    entities = EntityService(db)
    observer = _resolve(entities, workspace_id, body.observer, body.observer_type)
    subject = _resolve(entities, workspace_id, body.subject, body.subject_type)
    if observer is None or subject is None:
        return {
            "observer": observer[0]
            if observer
            else _placeholder(workspace_id, body.observer, body.observer_type),
            "subject": subject[0] if subject else _placeholder(workspace_id, body.subject, body.subject_type),
            "is_self": False,
            "observations": [],
            "profile": None,
            "derived_beliefs": [],
            "provenance": {
                "unresolved": [
                    side for side, found in (("observer", observer), ("subject", subject)) if not found
                ],
                "scoping_mode": None,
                "observer_matched_via": observer[1] if observer else None,
                "subject_matched_via": subject[1] if subject else None,
            },
        }
    (o, o_via), (s, s_via) = observer, subject
    is_self = o["id"] == s["id"]
    with db.connection() as conn:
        rows = repo.perspective_memories(
            conn,
            workspace_id,
            observer=_names(o),
            subject=_names(s),
            subject_id=s["id"],
            self_view=is_self,
            limit=body.limit + 1,
        )
    truncated, rows = len(rows) > body.limit, rows[: body.limit]
    observations = [_observation(r) for r in rows]
    return {
        "observer": o,
        "subject": s,
        "is_self": is_self,
        "observations": observations,
        "profile": profile(rows) if body.include_profile else None,
        "derived_beliefs": [],
        "provenance": {
            "scoping_mode": "self" if is_self else "intersection",
            "observer_matched_via": o_via,
            "subject_matched_via": s_via,
            "scoped_id_count": len(rows),
            "observation_count": len(observations),
            "truncated": truncated,
        },
    }


def _observation(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "memory_id": row["id"],
        "content": row["content"],
        "role": "self",
        "relevance": None,
        "event_time": row["event_time"],
        "match_signals": None,
    }


class Representations:
    """Both representations over one pool, composed once with the other services (shared/app/services.py)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def perspective(self, workspace_id: str, body: RepresentationRequest) -> dict[str, Any]:
        return perspective(self.db, workspace_id, body)

    def of_user(
        self, user_space: str, user_id: str | None, *, limit: int, include_profile: bool
    ) -> dict[str, Any]:
        return user_representation(self.db, user_space, user_id, limit=limit, include_profile=include_profile)
