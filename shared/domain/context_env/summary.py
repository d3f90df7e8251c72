"""The context pack's ``sandbox_summary``: read from the stored summary, never creating a sandbox.

>>> sandbox_summary(db, "ws_a", "sess_1", notices, "key_1")       # doctest: +SKIP
[{'id': 'sandbox:sess_1', 'content': '{"total_size_bytes": 21, "variable_count": 1, ...}'}]
"""

from __future__ import annotations

import json
import logging
from typing import Any

from shared.db import sandboxes as repo

log = logging.getLogger("memorylayer.sandbox")
PREVIEW_CHARS = 160  # as the reference's pack (inspect with preview_chars=160)


def viewer_of(principal: Any) -> str:
    """Who asks, as a sandbox row records its owner: the key's id, ``admin`` or ``open`` (auth mode none)."""
    return principal.key_id or ("admin" if principal.admin else "open")


def may_view(row: dict[str, Any], viewer: str) -> bool:
    """The rule /inspect follows: the key that made the sandbox, or the admin key."""
    return viewer in (row["key_id"], "admin")


def sandbox_summary(
    db: Any, workspace_id: str, session_id: str, notices: list[str], viewer: str
) -> list[dict[str, Any]]:
    """Zero or one item body (``id``, ``content``); a failure is a degradation notice, never an error."""
    try:
        with db.connection() as conn:
            row = repo.find(conn, workspace_id, session_id)
    except Exception:  # the pack must not fail for its last, optional section
        log.exception("sandbox summary failed")
        notices.append("sandbox_summary_unavailable")
        return []
    if row is None or not row["variables"] or not may_view(row, viewer):
        return []
    return [{"id": f"sandbox:{session_id}", "content": summary_content(row)}]


def summary_content(row: dict[str, Any]) -> str:
    """A sandbox row's variables as the JSON text of /inspect (previews cut to 160 characters).

    >>> summary_content({"variables": {"x": {"type": "int", "preview": "1", "size_bytes": 5}}, "state_bytes": 21})
    '{"total_size_bytes": 21, "variable_count": 1, "variables": {"x": {"preview": "1", "size_bytes": 5, "type": "int"}}}'
    """
    variables = {
        name: {**entry, "preview": str(entry.get("preview", ""))[:PREVIEW_CHARS]}
        for name, entry in row["variables"].items()
    }
    content = {
        "variable_count": len(variables),
        "variables": variables,
        "total_size_bytes": row["state_bytes"],
    }
    return json.dumps(content, sort_keys=True)
