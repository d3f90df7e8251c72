"""SQL for re-embedding a workspace with another model, in batches by id (resumable).

>>> with db.transaction() as conn:                                                 # doctest: +SKIP
...     rows = page(conn, "ws_a", "all-MiniLM-L6-v2@384", after="", limit=256)
...     set_embeddings(conn, "ws_a", "all-MiniLM-L6-v2@384", [(r["id"], vector) for r in rows])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.db.rows import Connection, one


def count_pending(conn: Connection, workspace_id: str, model_id: str) -> int:
    """Memories (history included) whose embedding is not ``model_id``'s."""
    row = one(
        conn.execute(
            "SELECT count(*) AS n FROM memories WHERE workspace_id = %s AND embedding_model IS DISTINCT FROM %s",
            (workspace_id, model_id),
        ).fetchone()
    )
    return int(row["n"])


def page(conn: Connection, workspace_id: str, model_id: str, *, after: str, limit: int) -> list[dict]:
    """``id, content`` of the next memories (by id, after ``after``) not yet embedded by ``model_id``."""
    return conn.execute(
        "SELECT id, content FROM memories WHERE workspace_id = %s AND embedding_model IS DISTINCT FROM %s "
        "AND id > %s ORDER BY id LIMIT %s",
        (workspace_id, model_id, after, limit),
    ).fetchall()


def set_embeddings(
    conn: Connection, workspace_id: str, model_id: str, vectors: Sequence[tuple[str, Any]]
) -> None:
    """Store new ``(memory_id, vector)`` embeddings made by ``model_id``."""
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE memories SET embedding = %s, embedding_model = %s WHERE id = %s AND workspace_id = %s",
            [(vector, model_id, memory_id, workspace_id) for memory_id, vector in vectors],
        )
