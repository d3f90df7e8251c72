"""Workspaces and their contexts. Workspaces are auto-created on first write, as the reference does.

>>> with db.transaction() as conn:                      # doctest: +SKIP
...     ensure_workspace(conn, "ws_a")
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg.errors
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.types.json import Jsonb

from shared.core.errors import EmbeddingModelMismatch, Forbidden
from shared.core.tenants import DEFAULT_TENANT, space_owner
from shared.db.rows import Connection, one

_COLUMNS = "id, tenant_id, name, settings, tags, embedding_model, created_at, updated_at"


def ensure_workspace(conn: Connection, workspace_id: str, tenant_id: str | None = None) -> None:
    """Create the workspace on first write, owned by the writer's tenant (a tenant's shared space by the
    tenant its name carries). With ``tenant_id``, refuse a workspace another tenant owns."""
    owner = space_owner(workspace_id) or tenant_id or DEFAULT_TENANT
    conn.execute(
        "INSERT INTO workspaces (id, name, tenant_id) VALUES (%s, %s, %s) ON CONFLICT (id) DO NOTHING",
        (workspace_id, workspace_id, owner),
    )
    if tenant_id is None:
        return
    # A second statement: in READ COMMITTED it sees a row another transaction committed after ours began.
    row = conn.execute("SELECT tenant_id FROM workspaces WHERE id = %s", (workspace_id,)).fetchone()
    if row and row["tenant_id"] != tenant_id:
        raise Forbidden(f"this key may not use workspace {workspace_id}", code="workspace_forbidden")


def bind_embedding_model(conn: Connection, workspace_id: str, model_id: str) -> None:
    """Bind the workspace to ``model_id`` on first use; refuse a different model afterwards."""
    row = conn.execute(
        "UPDATE workspaces SET embedding_model = coalesce(embedding_model, %s) WHERE id = %s "
        "RETURNING embedding_model",
        (model_id, workspace_id),
    ).fetchone()
    if row and row["embedding_model"] != model_id:
        raise EmbeddingModelMismatch(
            f"workspace {workspace_id!r} holds embeddings of model {row['embedding_model']!r}; "
            f"this server embeds with {model_id!r}. Re-embed the workspace (memorylayer reembed) "
            "or use a server configured with the workspace's model.",
            workspace_model=row["embedding_model"],
            server_model=model_id,
        )


def create(
    conn: Connection,
    workspace_id: str,
    name: str,
    settings: dict,
    tags: list[str],
    tenant_id: str = DEFAULT_TENANT,
) -> dict | None:
    return conn.execute(
        f"INSERT INTO workspaces (id, name, settings, tags, tenant_id) VALUES (%s, %s, %s, %s, %s) "
        f"ON CONFLICT (id) DO NOTHING RETURNING {_COLUMNS}",
        (workspace_id, name, Jsonb(settings), tags, space_owner(workspace_id) or tenant_id),
    ).fetchone()


def get(conn: Connection, workspace_id: str) -> dict | None:
    return conn.execute(f"SELECT {_COLUMNS} FROM workspaces WHERE id = %s", (workspace_id,)).fetchone()


def list_all(conn: Connection, tags: list[str], match_all: bool, only: list[str] | None) -> list[dict]:
    clauses, params = [], []
    if tags:
        clauses.append("tags @> %s" if match_all else "tags && %s")
        params.append(tags)
    if only is not None:
        clauses.append("id = ANY(%s)")
        params.append(only)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    return conn.execute(
        f"SELECT {_COLUMNS} FROM workspaces {where} ORDER BY created_at, id", params
    ).fetchall()


def installed_at(conn: Connection) -> datetime:
    """When this database was set up (its first migration): the reserved workspaces' creation time before
    their first use."""
    return one(conn.execute("SELECT min(applied_at) AS at FROM schema_migrations").fetchone())["at"]


def update(conn: Connection, workspace_id: str, changes: dict[str, Any]) -> dict | None:
    sets, params = ["updated_at = now()"], []
    for column in ("name", "settings", "tags"):
        if changes.get(column) is not None:
            sets.append(f"{column} = %s")
            params.append(Jsonb(changes[column]) if column == "settings" else changes[column])
    return conn.execute(
        f"UPDATE workspaces SET {', '.join(sets)} WHERE id = %s RETURNING {_COLUMNS}", [*params, workspace_id]
    ).fetchone()


def delete(conn: Connection, workspace_id: str) -> bool:
    return conn.execute("DELETE FROM workspaces WHERE id = %s", (workspace_id,)).rowcount > 0


def create_context(conn: Connection, workspace_id: str, context_id: str, body: dict) -> dict | None:
    """The context, created or (same id) replaced; None when another context of the workspace has its name."""
    try:
        with conn.transaction():  # a savepoint: the caller's transaction survives a taken name
            return _upsert_context(conn, workspace_id, context_id, body)
    except psycopg.errors.UniqueViolation as exc:
        if exc.diag.constraint_name != "contexts_workspace_name":
            raise
        return None


def _upsert_context(conn: Connection, workspace_id: str, context_id: str, body: dict) -> dict:
    return one(
        conn.execute(
            "INSERT INTO contexts (workspace_id, id, name, description, settings) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, description = excluded.description, "
            "settings = excluded.settings RETURNING workspace_id, id, name, description, settings, created_at",
            (
                workspace_id,
                context_id,
                body["name"],
                body.get("description"),
                Jsonb(body.get("settings") or {}),
            ),
        ).fetchone()
    )


def list_contexts(conn: Connection, workspace_id: str) -> list[dict]:
    return conn.execute(
        "SELECT workspace_id, id, name, description, settings, created_at FROM contexts "
        "WHERE workspace_id = %s ORDER BY created_at, id",
        (workspace_id,),
    ).fetchall()


def delete_context(conn: Connection, workspace_id: str, context_id: str) -> bool:
    return (
        conn.execute(
            "DELETE FROM contexts WHERE workspace_id = %s AND id = %s", (workspace_id, context_id)
        ).rowcount
        > 0
    )


def ensure_default_context(conn: Connection, workspace_id: str) -> None:
    """The ``_default`` context every workspace has (sessions name it when the client names none)."""
    conn.execute(
        "INSERT INTO contexts (workspace_id, id, name) VALUES (%s, '_default', '_default') ON CONFLICT DO NOTHING",
        (workspace_id,),
    )


def exists(conn: Connection, workspace_id: str) -> bool:
    return conn.execute("SELECT 1 FROM workspaces WHERE id = %s", (workspace_id,)).fetchone() is not None


def set_embedding_model(conn: Connection, workspace_id: str, model_id: str) -> None:
    """Rebind the workspace to ``model_id`` (after every memory was re-embedded with it)."""
    conn.execute(
        "UPDATE workspaces SET embedding_model = %s, updated_at = now() WHERE id = %s",
        (model_id, workspace_id),
    )


def stats(conn: Connection, workspace_id: str) -> dict[str, int]:
    """Undeleted memories, and how many bulk-written ones still wait to join the HNSW graph (a generation after
    the published one: shared/db/vector_index.py)."""
    return one(
        conn.execute(
            "SELECT count(*) AS memories, count(*) FILTER (WHERE vector_gen > coalesce("
            "  (SELECT min(published) FROM vector_index_generations), 0)) AS vectors_pending "
            "FROM memories WHERE workspace_id = %s AND deleted_at IS NULL",
            (workspace_id,),
        ).fetchone()
    )


def export_counts(conn: Connection, workspace_id: str) -> dict[str, Any]:
    """``m`` undeleted memories, ``a`` associations, and whether the workspace exists (``found``)."""
    return one(
        conn.execute(
            "SELECT (SELECT count(*) FROM memories WHERE workspace_id = %(ws)s AND deleted_at IS NULL) AS m, "
            "(SELECT count(*) FROM associations WHERE workspace_id = %(ws)s) AS a, "
            "EXISTS (SELECT 1 FROM workspaces WHERE id = %(ws)s) AS found",
            {"ws": workspace_id},
        ).fetchone()
    )


def recall_bindings(conn: Connection, workspace_ids: list[str]) -> Cursor[DictRow]:
    """Sent in recall's pipeline (fetch later): each searched workspace's embedding model (a mismatch is a 409)
    and whether it ever held an association (migration 0018: without one the expansion walk is skipped)."""
    return conn.execute(
        "SELECT id, embedding_model, has_associations FROM workspaces WHERE id = ANY(%s)", (workspace_ids,)
    )
