"""Wire helpers: ISO timestamps, canonical JSON, the memory ETag, and rows as wire dicts (API.md §4).

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
    """A memory row in wire form, as a dict (for NDJSON export, briefings and recall's result shaping); the
    fields are declared once, by ``shared.api.schemas.Memory``. ``embedding`` only when asked for."""
    from shared.api.schemas import Memory

    return Memory.from_row(row, embedding=embedding).model_dump(mode="json")


def association(row: dict[str, Any]) -> dict[str, Any]:
    from shared.api.schemas import Association

    return Association.from_row(row).model_dump(mode="json")


def workspace(row: dict[str, Any]) -> dict[str, Any]:
    from shared.api.schemas import Workspace

    return Workspace.from_row(row).model_dump(mode="json")
