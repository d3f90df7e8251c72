"""SQL for representations: the live memories one user holds in the tenant's user space, and those one observer
holds about one subject in a workspace (every call names the workspace)."""

from __future__ import annotations

from shared.db.rows import Connection


def user_memories(conn: Connection, user_space: str, user_id: str, *, limit: int) -> list[dict]:
    """The user's current memories in ``user_space``, newest event first (``created_at`` without one)."""
    return conn.execute(
        "SELECT id, content, subtype, metadata, event_time, created_at FROM memories "
        "WHERE workspace_id = %s AND user_id = %s AND deleted_at IS NULL AND valid_to IS NULL "
        "AND status <> 'archived' ORDER BY coalesce(event_time, created_at) DESC, created_at DESC, id LIMIT %s",
        (user_space, user_id, limit),
    ).fetchall()


def perspective_memories(
    conn: Connection,
    workspace_id: str,
    *,
    observer: list[str],
    subject: list[str],
    subject_id: str,
    self_view: bool,
    limit: int,
) -> list[dict]:
    """Live memories the observer wrote (``observer_id`` is one of ``observer``, lowercased) about the subject:
    its ``subject_id`` names it, or the memory is evidence of a live relation of entity ``subject_id``. A self
    view (observer and subject one entity) also takes the observer's memories about no one in particular.
    Newest event first (``created_at`` without one)."""
    unaddressed = "OR m.subject_id IS NULL" if self_view else ""
    return conn.execute(
        "SELECT m.id, m.content, m.subtype, m.metadata, m.event_time, m.created_at FROM memories m "
        "WHERE m.workspace_id = %(ws)s AND m.deleted_at IS NULL AND m.valid_to IS NULL AND m.status <> 'archived' "
        "AND lower(m.observer_id) = ANY(%(observer)s) AND (lower(m.subject_id) = ANY(%(subject)s) "
        f"{unaddressed} OR EXISTS (SELECT 1 FROM entity_relation_evidence e "
        "JOIN entity_relations r ON r.id = e.relation_id AND r.workspace_id = e.workspace_id "
        "WHERE e.workspace_id = m.workspace_id AND e.source_memory_id = m.id AND e.active AND r.active "
        "AND %(subject_id)s IN (r.source_entity_id, r.target_entity_id))) "
        "ORDER BY coalesce(m.event_time, m.created_at) DESC, m.created_at DESC, m.id LIMIT %(n)s",
        {
            "ws": workspace_id,
            "observer": observer,
            "subject": subject,
            "subject_id": subject_id,
            "n": limit,
        },
    ).fetchall()
