"""Wire primitives: ISO timestamps, canonical JSON and the memory ETag (the reference's forms, bit for bit).

>>> iso(datetime(2026, 11, 29, 14, 40, 34, 508615, tzinfo=UTC))
'2026-11-29T14:40:34.508615Z'
"""

from __future__ import annotations

import hashlib
import json
import re
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
    value = json.loads(text, parse_constant=_not_a_number)
    if has_lone_surrogate(value):
        raise ValueError(LONE_SURROGATE)
    return value


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


LONE_SURROGATE = (
    "a string holds a lone surrogate (U+D800 to U+DFFF outside a pair), which is not Unicode text"
)
# Any surrogate escape in the raw JSON (pairs too): only a body holding one is parsed again to look closer.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def has_lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds a string (or key) with a lone surrogate: JSON's ``"\\ud800"`` parses to
    one, but no UTF-8 encoder (the database's, the answer's) can write it.

    >>> has_lone_surrogate(json.loads('{"a": ["\\\\ud800"]}')), has_lone_surrogate(json.loads('"\\\\ud83d\\\\ude00"'))
    (True, False)
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_SURROGATE = re.compile("[\\ud800-\\udfff]")
