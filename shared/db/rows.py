"""The connection type every repository takes: the pool sets ``row_factory=dict_row``, so rows are dicts.

>>> def get(conn: Connection, workspace_id: str, memory_id: str) -> dict | None: ...
"""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow

Connection = psycopg.Connection[DictRow]


def one(row: DictRow | None) -> DictRow:
    """The row of a statement that always returns one (an aggregate, an INSERT or an UPDATE of a locked row
    with RETURNING): a None there is a bug, not an answer."""
    if row is None:
        raise LookupError("the statement returned no row")
    return row
