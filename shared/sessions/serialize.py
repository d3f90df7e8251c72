"""Session rows to their wire form. Free of database and model imports: the sessions Lambda's routes load it
at cold start.

    >>> working_out({"key": "k", "value": 1, "ttl_seconds": None, "expires_at": None, "created_at": None,
    ...              "updated_at": None})["key"]
    'k'
"""

from __future__ import annotations

from typing import Any

from shared.memories import serialize


def session_out(row: dict) -> dict[str, Any]:
    return {
        "id": row["id"],
        "workspace_id": row["workspace_id"],
        "tenant_id": row["tenant_id"],
        "context_id": row["context_id"],
        "user_id": row["user_id"],
        "metadata": row["metadata"],
        "auto_commit": row["auto_commit"],
        "committed_at": serialize.iso(row["committed_at"]),
        "expires_at": serialize.iso(row["expires_at"]),
        "created_at": serialize.iso(row["created_at"]),
    }


def working_out(row: dict) -> dict[str, Any]:
    return {
        "key": row["key"],
        "value": row["value"],
        "ttl_seconds": row["ttl_seconds"],
        "expires_at": serialize.iso(row["expires_at"]),
        "created_at": serialize.iso(row["created_at"]),
        "updated_at": serialize.iso(row["updated_at"]),
    }


def checkpoint_out(row: dict) -> dict[str, Any]:
    out = dict(row)
    out["created_at"] = serialize.iso(row["created_at"])
    out["updated_at"] = serialize.iso(row["updated_at"])
    return out
