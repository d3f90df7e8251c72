"""Opaque, signed context cursors, bit-for-bit the reference server's format.

    >>> token = encode(b"secret", "ws_a", "sess_1", 42)
    >>> decode(b"secret", token, "ws_a", "sess_1")
    42
    >>> decode(b"secret", token, "ws_b", "sess_1")
    Traceback (most recent call last):
    shared.core.errors.InvalidInput: context cursor does not match this workspace and session

A cursor is ``base64url_nopad(json ‖ HMAC-SHA256(secret, json))`` with ``json`` =
``{"scope": sha256(ws \\0 sid)[:24], "seq": N, "v": 1}`` (sorted keys, compact).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json

from shared.core.errors import InvalidInput

VERSION = 1


def scope_fingerprint(workspace_id: str, session_id: str) -> str:
    return hashlib.sha256(f"{workspace_id}\0{session_id}".encode()).hexdigest()[:24]


def encode(secret: bytes, workspace_id: str, session_id: str, sequence: int) -> str:
    payload = json.dumps(
        {"scope": scope_fingerprint(workspace_id, session_id), "seq": sequence, "v": VERSION},
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    signature = hmac.new(secret, payload, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(payload + signature).decode().rstrip("=")


def _invalid(message: str) -> InvalidInput:
    return InvalidInput(message, code="invalid_cursor", recovery="request_context_pack")


def decode(secret: bytes, cursor: str, workspace_id: str, session_id: str) -> int:
    """The sequence a cursor stands for; ``InvalidInput`` (400, ``invalid_cursor``) if forged or foreign."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError) as exc:
        raise _invalid("invalid context cursor") from exc
    payload, signature = raw[:-32], raw[-32:]
    if len(raw) <= 32 or not hmac.compare_digest(
        signature, hmac.new(secret, payload, hashlib.sha256).digest()
    ):
        raise _invalid("invalid context cursor")
    try:
        value = json.loads(payload)
        sequence = value["seq"]
    except (ValueError, KeyError, TypeError) as exc:
        raise _invalid("invalid context cursor") from exc
    if value.get("v") != VERSION:
        raise _invalid("unsupported context cursor version")
    if value.get("scope") != scope_fingerprint(workspace_id, session_id):
        raise _invalid("context cursor does not match this workspace and session")
    if not isinstance(sequence, int) or isinstance(sequence, bool) or sequence < 0:
        raise _invalid("invalid context cursor")
    return sequence
