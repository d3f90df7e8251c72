"""Rows to the wire form of the reference server's ``Memory`` (API.md §4).

>>> iso(datetime(2026, 11, 29, 14, 40, 34, 508615, tzinfo=UTC))
'2026-11-29T14:40:34.508615Z'
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any


def iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def etag(row: dict[str, Any]) -> str:
    """``"memory-<revision>-<sha256>"`` over everything a client can change."""
    payload = {
        k: row.get(k) for k in ("content", "type", "subtype", "tags", "metadata", "refinement_metadata")
    }
    payload["pinned"] = row.get("pinned")
    payload["importance"] = round(float(row.get("importance") or 0), 6)
    digest = hashlib.sha256(canonical_json(payload).encode()).hexdigest()
    return f'"memory-{row["revision"]}-{digest}"'


def memory(row: dict[str, Any], *, embedding: bool = False) -> dict[str, Any]:
    """A memory row as the API returns it; ``embedding`` only when the row carries it and it was asked for."""
    vector = row.get("embedding") if embedding else None
    out = {
        "id": row["id"],
        "workspace_id": row["workspace_id"],
        "tenant_id": row["tenant_id"],
        "context_id": row["context_id"],
        "user_id": row["user_id"],
        "observer_id": row["observer_id"],
        "subject_id": row["subject_id"],
        "session_id": row["session_id"],
        "content": row["content"],
        "content_hash": row["content_hash"],
        "type": row["type"],
        "subtype": row["subtype"],
        "importance": round(float(row["importance"]), 6),
        "tags": list(row["tags"]),
        "metadata": row["metadata"],
        "refinement_metadata": row["refinement_metadata"],
        "logical_key": row["logical_key"],
        "pinned": row["pinned"],
        "status": row["status"],
        "abstract": None,
        "overview": None,
        "embedding": _floats(vector),
        "embedding_model": row["embedding_model"],
        "access_count": row["access_count"],
        "last_accessed_at": iso(row["last_accessed_at"]),
        "decay_factor": row["decay_factor"],
        "revision": row["revision"],
        "etag": etag(row),
        "source_thread_id": row["source_thread_id"],
        "source_message_ids": list(row["source_message_ids"] or []),
        "source_memory_id": row["source_memory_id"],
        "fact_key": row["fact_key"],
        "sequence_key": row["sequence_key"],
        "sequence_index": row["sequence_index"],
        "valid_from": iso(row["valid_from"]),
        "valid_to": iso(row["valid_to"]),
        "superseded_by": row["superseded_by"],
        "event_time": iso(row["event_time"]),
        "created_at": iso(row["created_at"]),
        "updated_at": iso(row["updated_at"]),
        "deleted_at": iso(row["deleted_at"]),
    }
    return out


def _floats(vector: Any) -> list[float] | None:
    """pgvector returns ``Vector`` objects; fresh embeddings are numpy arrays."""
    if vector is None:
        return None
    values = vector.to_numpy() if hasattr(vector, "to_numpy") else vector
    return [round(float(x), 7) for x in values]


def association(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "workspace_id": row["workspace_id"],
        "source_id": row["source_id"],
        "target_id": row["target_id"],
        "relationship": row["relationship"],
        "strength": round(float(row["strength"]), 6),
        "metadata": row["metadata"],
        "created_at": iso(row["created_at"]),
    }


def workspace(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "name": row["name"],
        "settings": row["settings"],
        "tags": list(row["tags"]),
        "embedding_model": row["embedding_model"],
        "created_at": iso(row["created_at"]),
        "updated_at": iso(row["updated_at"]),
    }
