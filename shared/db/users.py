"""The users of a workspace (the ``user_id`` its rows carry): listing with counts, and erasing one user.

>>> with db.transaction() as conn:                                            # doctest: +SKIP
...     erase(conn, ["ws_a", "_global_user"], "u_1")
{'memories': 3, 'derived_memories': 1, 'revisions': 2, ...}
"""

from __future__ import annotations

from typing import Any

from shared.db.rows import Connection

# The user's memories (theirs by user_id, or about them by subject_id: whoever wrote it, it is their personal
# data), and the ones derived from them: extracted from their threads, made during their sessions, or written
# from one of their memories (a fact's source).
_USER_MEMORIES = """
WITH RECURSIVE mine AS (
    SELECT id FROM memories m
    WHERE m.workspace_id = ANY(%(ws)s) AND (m.user_id = %(u)s OR m.subject_id = %(u)s
        OR (m.source_thread_id, m.workspace_id) IN (SELECT id, workspace_id FROM threads
                                                    WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s)
        OR (m.session_id, m.workspace_id) IN (SELECT id, workspace_id FROM sessions
                                              WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s))
    UNION
    SELECT m.id FROM memories m JOIN mine ON m.source_memory_id = mine.id WHERE m.workspace_id = ANY(%(ws)s)
), orphaned AS (  -- relations whose every piece of evidence is the user's: they stand on nothing once it goes
    SELECT r.id FROM entity_relations r WHERE r.workspace_id = ANY(%(ws)s)
      AND EXISTS (SELECT 1 FROM entity_relation_evidence e WHERE e.relation_id = r.id
                  AND e.source_memory_id IN (SELECT id FROM mine))
      AND NOT EXISTS (SELECT 1 FROM entity_relation_evidence e WHERE e.relation_id = r.id
                      AND e.source_memory_id NOT IN (SELECT id FROM mine))
)
"""

# Entities first known from the user's memories that keep no relation once the orphaned ones go (a name the
# user brought, their own among them); one still related through someone else's evidence stays.
_LONE_ENTITIES = """
SELECT e.id FROM entities e WHERE e.workspace_id = ANY(%(ws)s)
  AND (e.provenance->>'source_memory_id' IN (SELECT id FROM mine) OR e.representative_memory_id IN (SELECT id FROM mine))
  AND NOT EXISTS (SELECT 1 FROM entity_relations r WHERE (r.source_entity_id = e.id OR r.target_entity_id = e.id)
                  AND r.id NOT IN (SELECT id FROM orphaned))
"""

_COUNTS = (
    _USER_MEMORIES
    + """
SELECT
  (SELECT count(*) FROM memories WHERE id IN (SELECT id FROM mine) AND (user_id = %(u)s OR subject_id = %(u)s))
      AS memories,
  (SELECT count(*) FROM memories WHERE id IN (SELECT id FROM mine)
      AND user_id IS DISTINCT FROM %(u)s AND subject_id IS DISTINCT FROM %(u)s) AS derived_memories,
  (SELECT count(*) FROM memory_revisions WHERE memory_id IN (SELECT id FROM mine)) AS revisions,
  (SELECT count(*) FROM associations WHERE source_id IN (SELECT id FROM mine) OR target_id IN (SELECT id FROM mine))
      AS associations,
  (SELECT count(*) FROM entity_relation_evidence WHERE source_memory_id IN (SELECT id FROM mine)) AS evidence,
  (SELECT count(*) FROM orphaned) AS relations,
  (SELECT count(*) FROM ("""
    + _LONE_ENTITIES
    + """) lone) AS entities,
  (SELECT count(*) FROM threads WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s) AS threads,
  (SELECT count(*) FROM thread_messages t WHERE (t.thread_id, t.workspace_id) IN
      (SELECT id, workspace_id FROM threads WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s)) AS messages,
  (SELECT count(*) FROM sessions WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s) AS sessions,
  (SELECT count(*) FROM working_memory w WHERE (w.session_id, w.workspace_id) IN
      (SELECT id, workspace_id FROM sessions WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s))
      AS working_memory,
  (SELECT count(*) FROM context_sandboxes c WHERE (c.session_id, c.workspace_id) IN
      (SELECT id, workspace_id FROM sessions WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s)) AS sandboxes
"""
)

# In this order, each its own statement (a memory's delete trigger updates evidence a relation's delete would
# cascade to): the user's lone entities (their relations and aliases go by foreign key), the relations left
# with no evidence, then the memories, then threads (their extraction jobs first) and sessions.
_DELETES = (
    _USER_MEMORIES + "DELETE FROM entities WHERE id IN (" + _LONE_ENTITIES + ")",
    _USER_MEMORIES + "DELETE FROM entity_relations WHERE id IN (SELECT id FROM orphaned)",
    _USER_MEMORIES + "DELETE FROM memories WHERE id IN (SELECT id FROM mine)",
    """DELETE FROM extraction_jobs j WHERE (j.thread_id, j.workspace_id) IN
        (SELECT id, workspace_id FROM threads WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s)""",
    "DELETE FROM threads WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s",
    "DELETE FROM sessions WHERE workspace_id = ANY(%(ws)s) AND user_id = %(u)s",
)


def erase_counts(conn: Connection, workspace_ids: list[str], user_id: str) -> dict[str, int]:
    """What ``erase`` deletes, by kind, without deleting it."""
    row = conn.execute(_COUNTS, {"ws": workspace_ids, "u": user_id}).fetchone()
    return {k: int(v) for k, v in (row or {}).items()}


def erase(conn: Connection, workspace_ids: list[str], user_id: str) -> None:
    """Hard-delete the user's memories and those about them (their revisions, associations and relation evidence
    go by foreign key), the memories derived from them, relations left with no evidence, their threads
    (messages, extraction jobs) and sessions (working memory, checkpoints, sandbox state)."""
    for statement in _DELETES:
        conn.execute(statement, {"ws": workspace_ids, "u": user_id})


def listing(conn: Connection, workspace_id: str, *, limit: int, after: str | None) -> list[dict[str, Any]]:
    """The workspace's users by id, with how many memories, threads and sessions each has."""
    return conn.execute(
        """
        WITH ids AS (
            SELECT user_id FROM memories WHERE workspace_id = %(ws)s AND deleted_at IS NULL AND user_id IS NOT NULL
            UNION SELECT user_id FROM threads WHERE workspace_id = %(ws)s AND user_id IS NOT NULL
            UNION SELECT user_id FROM sessions WHERE workspace_id = %(ws)s AND user_id IS NOT NULL
        )
        SELECT i.user_id,
          (SELECT count(*) FROM memories m WHERE m.workspace_id = %(ws)s AND m.user_id = i.user_id
               AND m.deleted_at IS NULL) AS memories,
          (SELECT count(*) FROM threads t WHERE t.workspace_id = %(ws)s AND t.user_id = i.user_id) AS threads,
          (SELECT count(*) FROM sessions s WHERE s.workspace_id = %(ws)s AND s.user_id = i.user_id) AS sessions
        FROM ids i WHERE %(after)s::text IS NULL OR i.user_id > %(after)s
        ORDER BY i.user_id LIMIT %(n)s
        """,
        {"ws": workspace_id, "after": after, "n": limit},
    ).fetchall()


def tenant_workspaces(conn: Connection, tenant_id: str, only: list[str] | None) -> list[str]:
    """The tenant's workspaces (``only``: those of them a scoped key names)."""
    rows = conn.execute(
        "SELECT id FROM workspaces WHERE tenant_id = %s AND (%s::text[] IS NULL OR id = ANY(%s)) ORDER BY id",
        (tenant_id, only, only),
    ).fetchall()
    return [r["id"] for r in rows]
