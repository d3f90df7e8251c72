"""SQL for a skill's bundle files (migration 0036): one row per (workspace, skill, path), content inline. Every
call names its workspace; a skill's manifest lives in ``resources`` (kind ``skill``).

>>> with db.transaction() as conn:                                          # doctest: +SKIP
...     upsert(conn, "ws_a", "skl_1", {"path": "scripts/run.py", "kind": "script", "content": b"print()", ...})
"""

from __future__ import annotations

from typing import Any

from shared.db.rows import Connection, one

_INFO = "path, kind, content_hash, size_bytes, mime_type, created_at, updated_at"


def upsert(conn: Connection, workspace_id: str, skill_id: str, file: dict[str, Any]) -> dict:
    """Write one file (a new path, or new content at a path); its info row."""
    return one(
        conn.execute(
            "INSERT INTO skill_files (workspace_id, skill_id, path, kind, content, content_hash, size_bytes, "
            "mime_type) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (workspace_id, skill_id, path) DO UPDATE SET content = EXCLUDED.content, "
            "content_hash = EXCLUDED.content_hash, size_bytes = EXCLUDED.size_bytes, "
            f"mime_type = EXCLUDED.mime_type, updated_at = now() RETURNING {_INFO}",
            (
                workspace_id,
                skill_id,
                file["path"],
                file["kind"],
                file["content"],
                file["content_hash"],
                file["size_bytes"],
                file["mime_type"],
            ),
        ).fetchone()
    )


def delete(conn: Connection, workspace_id: str, skill_id: str, path: str) -> bool:
    row = conn.execute(
        "DELETE FROM skill_files WHERE workspace_id = %s AND skill_id = %s AND path = %s RETURNING path",
        (workspace_id, skill_id, path),
    ).fetchone()
    return row is not None


def get(conn: Connection, workspace_id: str, skill_id: str, path: str) -> dict | None:
    """One file with its content."""
    return conn.execute(
        f"SELECT {_INFO}, content FROM skill_files WHERE workspace_id = %s AND skill_id = %s AND path = %s",
        (workspace_id, skill_id, path),
    ).fetchone()


def listing(conn: Connection, workspace_id: str, skill_id: str, *, content: bool = False) -> list[dict]:
    """A skill's files by path (with their content when asked)."""
    columns = f"{_INFO}, content" if content else _INFO
    return conn.execute(
        f"SELECT {columns} FROM skill_files WHERE workspace_id = %s AND skill_id = %s ORDER BY path",
        (workspace_id, skill_id),
    ).fetchall()


def hashes(conn: Connection, workspace_id: str, skill_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
    """(path, content hash) of each named skill's files: what its bundle hash is computed from."""
    rows = conn.execute(
        "SELECT skill_id, path, content_hash FROM skill_files WHERE workspace_id = %s AND skill_id = ANY(%s) "
        "ORDER BY skill_id, path",
        (workspace_id, skill_ids),
    ).fetchall()
    found: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        found.setdefault(row["skill_id"], []).append((row["path"], row["content_hash"]))
    return found
