"""SQL for documents, their pages and their ingestion jobs (migration 0032). Every call names its workspace.

>>> with db.transaction() as conn:                                          # doctest: +SKIP
...     doc = create(conn, {"id": "doc_1", "workspace_id": "ws_a", ...})
...     job = create_job(conn, "ws_a", "job_1", ["doc_1"], {})
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from shared.db.rows import Connection, one

DOCUMENT_COLUMNS = (
    "id, workspace_id, filename, document_type, content_hash, size_bytes, mime_type, storage_key, status, "
    "target_context_id, extraction_options, page_count, chunk_count, memory_ids, deduplicated_count, "
    "error_message, metadata, created_at, processing_started_at, processing_completed_at"
)
PAGE_COLUMNS = "id, document_id, workspace_id, page_no, transcript, transcript_model, metadata, created_at"
JOB_COLUMNS = (
    "id, workspace_id, document_ids, status, progress_percent, documents_processed, total_memories_created, "
    "attempts, errors, metadata, created_at, started_at, completed_at"
)
_JSON = frozenset({"extraction_options", "metadata", "errors"})
ACTIVE_JOB = ("queued", "running")


def _value(column: str, value: Any) -> Any:
    return Jsonb(value) if column in _JSON else value


def create(conn: Connection, row: dict[str, Any]) -> dict | None:
    """Insert a document; None when the workspace already holds the same bytes (its content hash)."""
    columns = list(row)
    return conn.execute(
        f"INSERT INTO documents ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT (workspace_id, content_hash) DO NOTHING RETURNING {DOCUMENT_COLUMNS}",
        [_value(c, row[c]) for c in columns],
    ).fetchone()


def get(conn: Connection, workspace_id: str, document_id: str, *, lock: bool = False) -> dict | None:
    return conn.execute(
        f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE id = %s AND workspace_id = %s"
        + (" FOR UPDATE" if lock else ""),
        (document_id, workspace_id),
    ).fetchone()


def by_hash(conn: Connection, workspace_id: str, content_hash: str) -> dict | None:
    return conn.execute(
        f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE workspace_id = %s AND content_hash = %s",
        (workspace_id, content_hash),
    ).fetchone()


def by_storage_key(conn: Connection, storage_key: str) -> dict | None:
    """The document an S3 object belongs to (the document function's entry from an S3 event): the key
    carries the workspace (``documents/<workspace>/<document>/<name>``), and the caller's wall must allow it."""
    return conn.execute(
        f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE storage_key = %s", (storage_key,)
    ).fetchone()


def list_documents(
    conn: Connection,
    workspace_id: str,
    *,
    status: str | None,
    document_type: str | None,
    limit: int,
    offset: int,
) -> tuple[list[dict], int]:
    where = ["workspace_id = %s"]
    params: list[Any] = [workspace_id]
    if status:
        where.append("status = %s")
        params.append(status)
    if document_type:
        where.append("document_type = %s")
        params.append(document_type)
    clause = " AND ".join(where)
    rows = conn.execute(
        f"SELECT {DOCUMENT_COLUMNS}, count(*) OVER () AS total FROM documents WHERE {clause} "
        "ORDER BY created_at DESC, id LIMIT %s OFFSET %s",
        [*params, limit, offset],
    ).fetchall()
    if rows:
        return rows, int(rows[0]["total"])
    total = conn.execute(f"SELECT count(*) AS n FROM documents WHERE {clause}", params).fetchone()
    return [], int(total["n"]) if total else 0


def update(conn: Connection, workspace_id: str, document_id: str, changes: dict[str, Any]) -> dict | None:
    sets = ", ".join(f"{c} = %s" for c in changes)
    return conn.execute(
        f"UPDATE documents SET {sets} WHERE id = %s AND workspace_id = %s RETURNING {DOCUMENT_COLUMNS}",
        [*(_value(c, v) for c, v in changes.items()), document_id, workspace_id],
    ).fetchone()


def delete(conn: Connection, workspace_id: str, document_id: str) -> dict | None:
    """Remove the document; its pages go with it (ON DELETE CASCADE)."""
    return conn.execute(
        f"DELETE FROM documents WHERE id = %s AND workspace_id = %s RETURNING {DOCUMENT_COLUMNS}",
        (document_id, workspace_id),
    ).fetchone()


# ------------------------------------------------------------------ pages
def replace_pages(
    conn: Connection, workspace_id: str, document_id: str, pages: list[dict[str, Any]]
) -> list[dict]:
    """The document's pages, exactly these (a reprocess replaces the earlier ones)."""
    conn.execute(
        "DELETE FROM document_pages WHERE document_id = %s AND workspace_id = %s", (document_id, workspace_id)
    )
    out: list[dict] = []
    for p in pages:
        out.append(
            one(
                conn.execute(
                    "INSERT INTO document_pages (id, document_id, workspace_id, page_no, transcript, transcript_model, "
                    f"embedding, metadata) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING {PAGE_COLUMNS}",
                    (
                        p["id"],
                        document_id,
                        workspace_id,
                        p["page_no"],
                        p["transcript"],
                        p.get("transcript_model"),
                        p.get("embedding"),
                        Jsonb(p.get("metadata") or {}),
                    ),
                ).fetchone()
            )
        )
    return out


def pages(conn: Connection, workspace_id: str, document_id: str) -> list[dict]:
    return conn.execute(
        f"SELECT {PAGE_COLUMNS} FROM document_pages WHERE document_id = %s AND workspace_id = %s ORDER BY page_no",
        (document_id, workspace_id),
    ).fetchall()


def page(conn: Connection, workspace_id: str, document_id: str, page_id: str) -> dict | None:
    return conn.execute(
        f"SELECT {PAGE_COLUMNS} FROM document_pages WHERE id = %s AND document_id = %s AND workspace_id = %s",
        (page_id, document_id, workspace_id),
    ).fetchone()


def search_pages(
    conn: Connection, workspace_id: str, vector: Any, *, limit: int, document_ids: list[str] | None
) -> list[dict]:
    """Pages nearest the query by cosine similarity of their text embeddings (an exact scan of the
    workspace's pages: a workspace's pages are few next to its memories)."""
    where = "workspace_id = %s AND embedding IS NOT NULL"
    params: list[Any] = [workspace_id]
    if document_ids:
        where += " AND document_id = ANY(%s)"
        params.append(document_ids)
    return conn.execute(
        f"SELECT {PAGE_COLUMNS}, 1 - (embedding <=> %s) AS relevance_score FROM document_pages WHERE {where} "
        "ORDER BY embedding <=> %s, page_no LIMIT %s",
        [vector, *params, vector, limit],
    ).fetchall()


# ------------------------------------------------------------------ jobs
def create_job(
    conn: Connection,
    workspace_id: str,
    job_id: str,
    document_ids: list[str],
    metadata: dict[str, Any],
    *,
    done: bool = False,
) -> dict:
    """A queued job; ``done``: one that is complete at birth (a duplicate upload's)."""
    row = conn.execute(
        "INSERT INTO document_jobs (id, workspace_id, document_ids, metadata, status, progress_percent, "
        "documents_processed, started_at, completed_at) VALUES (%s, %s, %s, %s, %s, %s, %s, "
        f"CASE WHEN %s THEN now() END, CASE WHEN %s THEN now() END) RETURNING {JOB_COLUMNS}",
        (
            job_id,
            workspace_id,
            document_ids,
            Jsonb(metadata),
            "completed" if done else "queued",
            100 if done else 0,
            len(document_ids) if done else 0,
            done,
            done,
        ),
    ).fetchone()
    assert row is not None
    return row


def get_job(conn: Connection, workspace_id: str, job_id: str, *, lock: bool = False) -> dict | None:
    return conn.execute(
        f"SELECT {JOB_COLUMNS} FROM document_jobs WHERE id = %s AND workspace_id = %s"
        + (" FOR UPDATE" if lock else ""),
        (job_id, workspace_id),
    ).fetchone()


def job_anywhere(conn: Connection, job_id: str) -> dict | None:
    """A job by id alone: for the document function, whose queue message names the job (its wall is the
    worker's, which sees every workspace)."""
    return conn.execute(f"SELECT {JOB_COLUMNS} FROM document_jobs WHERE id = %s", (job_id,)).fetchone()


def latest_job(conn: Connection, workspace_id: str, document_id: str, *, active: bool = False) -> dict | None:
    """The document's newest job (``active``: only a queued or running one)."""
    statuses = list(ACTIVE_JOB) if active else [*ACTIVE_JOB, "completed", "failed", "cancelled"]
    return conn.execute(
        f"SELECT {JOB_COLUMNS} FROM document_jobs WHERE workspace_id = %s AND %s = ANY(document_ids) "
        "AND status = ANY(%s) ORDER BY created_at DESC LIMIT 1",
        (workspace_id, document_id, statuses),
    ).fetchone()


def list_jobs(
    conn: Connection, workspace_id: str, *, status: str | None, limit: int, offset: int
) -> list[dict]:
    where, params = "workspace_id = %s", [workspace_id]
    if status:
        where += " AND status = %s"
        params.append(status)
    return conn.execute(
        f"SELECT {JOB_COLUMNS} FROM document_jobs WHERE {where} ORDER BY created_at DESC, id LIMIT %s OFFSET %s",
        [*params, limit, offset],
    ).fetchall()


def update_job(conn: Connection, workspace_id: str, job_id: str, changes: dict[str, Any]) -> dict | None:
    sets = ", ".join(f"{c} = %s" for c in changes)
    return conn.execute(
        f"UPDATE document_jobs SET {sets} WHERE id = %s AND workspace_id = %s RETURNING {JOB_COLUMNS}",
        [*(_value(c, v) for c, v in changes.items()), job_id, workspace_id],
    ).fetchone()


def start_job(conn: Connection, workspace_id: str, job_id: str) -> dict | None:
    """Claim a queued job (or one whose worker died mid-run: at-least-once delivery); None when it is done,
    failed or cancelled."""
    return conn.execute(
        "UPDATE document_jobs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, "
        f"now()) WHERE id = %s AND workspace_id = %s AND status = ANY(%s) RETURNING {JOB_COLUMNS}",
        (job_id, workspace_id, list(ACTIVE_JOB)),
    ).fetchone()


def delete_jobs_of(conn: Connection, workspace_id: str, document_id: str) -> None:
    conn.execute(
        "DELETE FROM document_jobs WHERE workspace_id = %s AND document_ids = ARRAY[%s]::text[]",
        (workspace_id, document_id),
    )


# ------------------------------------------------------------------ memories
def memories(conn: Connection, workspace_id: str, memory_ids: list[str]) -> list[dict]:
    """The live ones of a document's memories (its ``memory_ids``), in page and span order."""
    return conn.execute(
        "SELECT id, content, type, subtype, importance, tags, metadata, created_at FROM memories "
        "WHERE workspace_id = %s AND id = ANY(%s) AND deleted_at IS NULL "
        "ORDER BY (metadata ->> 'page_no')::int NULLS LAST, (metadata -> 'span' ->> 0)::int NULLS LAST, id",
        (workspace_id, memory_ids),
    ).fetchall()
