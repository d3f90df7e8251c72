"""SQL for the knowledgebase (migration 0043): what a generation reads besides its graph (``db/graph.py``): the
workspace's active entities and relations with their evidence; and the articles it stores.
Every function names its workspace; the row-level wall is the second line.

    >>> with db.transaction() as conn:                                             # doctest: +SKIP
    ...     replace(conn, "ws_a", summary, articles)
    ...     [a["id"] for a in list_articles(conn, "ws_a", None, 10, 0)][0]
    'index'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from psycopg.types.json import Jsonb

from shared.db.relations import ENTITY_COLUMNS
from shared.db.rows import Connection

ARTICLE_COLUMNS = "id, article_type, title, content_md, metadata, generated_at"


# ------------------------------------------------------------------ what a generation reads
def active_entities(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """The workspace's active entities, by id."""
    return conn.execute(
        f"SELECT {ENTITY_COLUMNS} FROM entities e WHERE e.workspace_id = %s AND e.status = 'active' "
        "ORDER BY e.id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def active_relations(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """The workspace's active relations, each with the memories that are its active evidence."""
    return conn.execute(
        "SELECT r.id, r.source_entity_id, r.target_entity_id, r.relationship, r.confidence::float8 AS confidence, "
        "ARRAY(SELECT v.source_memory_id FROM entity_relation_evidence v WHERE v.relation_id = r.id AND v.active "
        "      ORDER BY v.created_at, v.id) AS memory_ids "
        "FROM entity_relations r WHERE r.workspace_id = %s AND r.active ORDER BY r.id LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def memory_contents(conn: Connection, workspace_id: str, memory_ids: list[str]) -> dict[str, str]:
    """The text of those of ``memory_ids`` that are not forgotten (an article's placeholders, filled in)."""
    if not memory_ids:
        return {}
    rows = conn.execute(
        "SELECT id, content FROM memories WHERE workspace_id = %s AND id = ANY(%s) AND deleted_at IS NULL",
        (workspace_id, memory_ids),
    ).fetchall()
    return {r["id"]: r["content"] for r in rows}


def workspace_name(conn: Connection, workspace_id: str) -> str | None:
    row = conn.execute("SELECT name FROM workspaces WHERE id = %s", (workspace_id,)).fetchone()
    return row["name"] if row else None


# ------------------------------------------------------------------ the stored knowledgebase
def replace(conn: Connection, workspace_id: str, summary: dict[str, Any], articles: Iterable[dict]) -> None:
    """Put this generation in place of the workspace's previous one. The summary row is written first: its lock
    makes a concurrent generation of the same workspace wait, then replace this one whole."""
    conn.execute(
        "INSERT INTO knowledgebases (workspace_id, article_count, community_count, stats, coverage, generated_at) "
        "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (workspace_id) DO UPDATE SET "
        "article_count = excluded.article_count, community_count = excluded.community_count, "
        "stats = excluded.stats, coverage = excluded.coverage, generated_at = excluded.generated_at",
        (
            workspace_id,
            summary["article_count"],
            summary["community_count"],
            Jsonb(summary["stats"]),
            Jsonb(summary["coverage"]),
            summary["generated_at"],
        ),
    )
    conn.execute("DELETE FROM kb_articles WHERE workspace_id = %s", (workspace_id,))
    rows = [
        (
            workspace_id,
            a["id"],
            a["article_type"],
            position,
            a["title"],
            a["content_md"],
            Jsonb(a["metadata"]),
            a["generated_at"],
        )
        for position, a in enumerate(articles)
    ]
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO kb_articles (workspace_id, id, article_type, position, title, content_md, metadata, "
            "generated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            rows,
        )


def get_knowledgebase(conn: Connection, workspace_id: str) -> dict | None:
    return conn.execute(
        "SELECT workspace_id, article_count, community_count, stats, coverage, generated_at "
        "FROM knowledgebases WHERE workspace_id = %s",
        (workspace_id,),
    ).fetchone()


def list_articles(
    conn: Connection, workspace_id: str, article_type: str | None, limit: int, offset: int
) -> list[dict]:
    """Articles in generation order (the index, communities by size, entities), of one type when named."""
    return conn.execute(
        f"SELECT {ARTICLE_COLUMNS} FROM kb_articles WHERE workspace_id = %(ws)s "
        "AND (%(type)s::text IS NULL OR article_type = %(type)s) ORDER BY position LIMIT %(limit)s OFFSET %(offset)s",
        {"ws": workspace_id, "type": article_type, "limit": limit, "offset": offset},
    ).fetchall()


def get_article(conn: Connection, workspace_id: str, article_id: str) -> dict | None:
    return conn.execute(
        f"SELECT {ARTICLE_COLUMNS} FROM kb_articles WHERE workspace_id = %s AND id = %s",
        (workspace_id, article_id),
    ).fetchone()


def article_titles(conn: Connection, workspace_id: str, limit: int) -> list[dict]:
    """Every article's id, type and title, in order (a viewer's navigation)."""
    return conn.execute(
        "SELECT id, article_type, title FROM kb_articles WHERE workspace_id = %s ORDER BY position LIMIT %s",
        (workspace_id, limit),
    ).fetchall()


def article_counts(conn: Connection, workspace_ids: list[str]) -> dict[str, int]:
    """How many articles each of these workspaces has (absent: none)."""
    rows = conn.execute(
        "SELECT workspace_id, article_count FROM knowledgebases WHERE workspace_id = ANY(%s)",
        (workspace_ids,),
    ).fetchall()
    return {r["workspace_id"]: r["article_count"] for r in rows}
