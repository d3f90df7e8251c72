"""The SET list of a dynamic UPDATE, with column names from an allow-list, never from a request's keys.

>>> assignments({"title": "x"}, frozenset({"title"}), what="thread").as_string()   # doctest: +SKIP
'"title" = %s'
"""

from __future__ import annotations

from typing import Any

from psycopg import sql


def assignments(changes: dict[str, Any], allowed: frozenset[str], *, what: str) -> sql.Composed:
    """``"col" = %s, ...`` for the keys of ``changes``; a key outside ``allowed`` is a programming error."""
    unknown = sorted(changes.keys() - allowed)
    if unknown:
        raise ValueError(f"not an updatable {what} column: {', '.join(unknown)}")
    return sql.SQL(", ").join(sql.SQL("{} = %s").format(sql.Identifier(column)) for column in changes)
