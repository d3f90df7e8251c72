"""Rows as wire dicts, and the wire primitives (``shared.core.wire``) under the names callers use."""

from __future__ import annotations

from typing import Any

from shared.core.wire import canonical_json, etag, iso

__all__ = ["association", "canonical_json", "etag", "iso", "memory", "workspace"]


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
