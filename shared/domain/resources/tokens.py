"""The opaque strings of versioned resources: ETags, request hashes and page tokens.

    >>> etag(2, {"content": {"title": "t"}})[:6]
    '"vr-2-'
    >>> scope = cursor_scope("heads", "ws_a", "prompt_note")
    >>> decode_cursor(encode_cursor(41, scope), scope)
    41

A page token is bound to what it pages (workspace, kind, filters): one from another listing is refused, not
silently applied to the wrong rows.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime
from typing import Any

from shared.core.errors import InvalidInput
from shared.core.wire import iso


def canonical_hash(value: Any) -> str:
    """SHA-256 of ``value`` as canonical JSON (sorted keys, no spaces): equal values hash equal."""

    def default(item: Any) -> str:
        if isinstance(item, datetime):
            return str(iso(item))
        raise TypeError(f"unsupported canonical value: {type(item).__name__}")

    payload = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=default)
    return hashlib.sha256(payload.encode()).hexdigest()


def etag(revision: int, state: dict[str, Any]) -> str:
    """A strong ETag of one revision's state, in the reference's form (``"vr-<revision>-<state hash>"``)."""
    return f'"vr-{revision}-{canonical_hash(state)}"'


def cursor_scope(*parts: str) -> str:
    return canonical_hash(list(parts))


def encode_cursor(sequence: int, scope: str) -> str:
    payload = json.dumps({"v": 1, "scope": scope, "before_sequence": sequence}, sort_keys=True).encode()
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def decode_cursor(token: str, scope: str) -> int:
    """The sequence a page token continues before; 400 for a token this listing did not hand out."""
    try:
        payload = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode())
        sequence = payload["before_sequence"]
        if payload.get("v") != 1 or payload.get("scope") != scope:
            raise ValueError("another listing's token")
        if not isinstance(sequence, int) or isinstance(sequence, bool) or sequence < 1:
            raise ValueError("not a sequence")
        return sequence
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InvalidInput("invalid page token", code="invalid_page_token") from exc
