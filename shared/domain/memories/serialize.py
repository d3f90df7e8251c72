"""The wire primitives (``shared.core.wire``) under the names the domain's callers use. Rows become wire dicts
in the API layer only (``shared.api.wire``, ``shared.api.schemas``)."""

from __future__ import annotations

from shared.core.wire import canonical_json, etag, iso

__all__ = ["canonical_json", "etag", "iso"]
