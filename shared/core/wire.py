"""Wire primitives: ISO timestamps, canonical JSON and the memory ETag (the reference's forms, bit for bit).

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


def strict_json(text: str | bytes) -> Any:
    """``json.loads`` that refuses ``NaN`` and ``Infinity`` (not JSON numbers, RFC 8259) with a ValueError: the
    edge checks JSON bodies whole, and readers of line-by-line bodies check each line with this.

    >>> strict_json('{"a": 1.5}')
    {'a': 1.5}
    >>> strict_json('{"a": NaN}')
    Traceback (most recent call last):
    ...
    ValueError: NaN is not a JSON number
    """
    return json.loads(text, parse_constant=_not_a_number)


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
