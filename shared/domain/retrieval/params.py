"""The values of recall.sql's filters, from a recall request."""

from __future__ import annotations

from typing import Any

from shared.domain.requests import RecallRequest


def filter_params(req: RecallRequest, workspace_ids: list[str]) -> dict[str, Any]:
    """The values of ``{filters}``: NULL for a filter the request does not use."""
    tags = sorted({t.strip().lower() for t in req.tags if t.strip()})
    return {
        "ws": workspace_ids,
        "include_archived": req.include_archived,
        "include_history": req.include_history,
        "types": list(req.types) or None,
        "subtypes": list(req.subtypes) or None,
        "exclude_ids": list(req.exclude_ids) or None,
        "tags": tags or None,
        "user_id": req.user_id,
        "observer_id": req.observer_id,
        "subject_id": req.subject_id,
        "created_after": req.created_after,
        "created_before": req.created_before,
        "event_after": req.event_after,
        "event_before": req.event_before,
    }
