"""Load memories straight into the reference's data directory, in-process, with the reference's own code.

Run by the reference venv's Python, as a script, while no reference server runs on that data directory:

    .venv-ref312/bin/python bench/compare/ref_bulk_load.py --data-dir D --workspace W --input contents.jsonl

``--input`` holds one JSON string (a memory's content) per line. The configuration comes from the same
environment as ``memorylayer serve`` (``MEMORYLAYER_DATA_DIR`` — set by ``--data-dir`` — and
``MEMORYLAYER_EMBEDDING_PROVIDER``, ``hash`` unless set), so a server started normally on that data directory
afterwards sees the memories as if they had been loaded through ``POST /v1/memories/batch``. Prints a JSON
summary as its last stdout line; progress goes to stderr.

Why loading through the API is slow (memorylayer-server 0.2.0, SQLite backend): every remember

1. searches every stored vector of the workspace for near-duplicates (``vec_distance_cosine`` over all rows,
   no vector index), and its post-store pipeline (auto-association, contradiction check, tiers) searches them
   again;
2. scans two whole tables, though for a new memory neither statement changes anything:
   ``DELETE FROM memories_fts WHERE id = ?`` (``id`` is an UNINDEXED FTS5 column, so this reads every FTS row:
   3.2 ms at 20,000 memories) and the context-event retention ``DELETE FROM session_context_events WHERE
   event_time < ?`` (no index on ``event_time``, one event per write: 1.3 ms at 20,000);
3. commits twice (the create, then the embedding update), each an fsync of the WAL.

(1) and (2) grow with the number of memories; together they are why the HTTP load slowed to a crawl.

What this loader does, per content, in order: the batch endpoint's create (``RememberInput`` from the same
fields, ``normalize_connector_metadata``) → the reference's ``MemoryService.remember`` → its embedding service
(``hash`` provider), deterministic classification, ``SQLiteStorageBackend.create_memory`` /
``mutate_memory`` (memory row, FTS row, revision, operation, context event), ``update_memory`` (the
embedding BLOB that ``vec_distance_cosine`` searches; the reference has no separate vector table) and the
entity-relation writer. The workspace is registered the way the API does it on the first request naming it
(the authentication service's ``resolve_workspace``, which auto-creates it). Deviations from the API path,
all outside the rows written:

- the near-duplicate check answers "create" and the post-store pipeline is skipped, as for the earlier HTTP
  bulk load (the benchmark's sentences are unique by construction: each ends in a random tag). The loaded
  rows lack what that pipeline adds (auto-associations, tiers), so the recall measured over them is, if
  anything, flattered;
- the storage backend's connection is wrapped so that its per-statement ``commit()`` is deferred to one
  commit per ``--chunk`` memories (a transaction per chunk instead of two per memory);
- the FTS ``DELETE ... WHERE id = ?`` is skipped when its id is that of the memory row inserted just before
  in the same mutation (a freshly generated id: there is no FTS row to delete; checked at the end: one FTS
  row per memory, no duplicates), and the retention ``DELETE`` is run once per chunk, just before the commit,
  with the latest cutoff (the cutoff only grows, so the last one deletes exactly what all of them would);
- no background tasks run (``MEMORYLAYER_TASKS_ENABLED=false``) and INFO logging is off during the load.

Everything else — ids, timestamps, content hashes, etags, metadata, FTS text, the embedding BLOB — is
produced by the reference's code as through its API.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

FTS_DELETE = "DELETE FROM memories_fts WHERE id = ?"
RETENTION_DELETE = "DELETE FROM session_context_events WHERE event_time < ?"
MEMORY_INSERT = "INSERT INTO memories ("


async def _skipped() -> None:
    return None


class ChunkedConnection:
    """Wraps the backend's ``aiosqlite.Connection``: ``commit()`` is deferred to ``flush()``, and the two
    whole-table scans that cannot change anything for a new memory are skipped or deferred (see above)."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._last_inserted_id: str | None = None
        self._retention_params: Any = None
        self.stats = {"commits_deferred": 0, "fts_deletes_skipped": 0, "retention_deletes_deferred": 0}

    def execute(self, sql: str, parameters: Any = None) -> Any:
        text = sql.strip()
        if text.startswith(MEMORY_INSERT) and parameters:
            self._last_inserted_id = parameters[0]
        elif text == FTS_DELETE and parameters and parameters[0] == self._last_inserted_id:
            self._last_inserted_id = None
            self.stats["fts_deletes_skipped"] += 1
            return _skipped()
        elif text == RETENTION_DELETE:
            self._retention_params = parameters
            self.stats["retention_deletes_deferred"] += 1
            return _skipped()
        return self._connection.execute(sql, parameters)

    async def commit(self) -> None:
        self.stats["commits_deferred"] += 1

    async def flush(self) -> None:
        if self._retention_params is not None:
            await self._connection.execute(RETENTION_DELETE, self._retention_params)
            self._retention_params = None
        await self._connection.commit()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def patch_write_path() -> None:
    """The near-duplicate check answers "create"; the post-store pipeline is skipped (see above)."""
    from memorylayer_server.services.deduplication.base import DeduplicationAction, DeduplicationResult
    from memorylayer_server.services.deduplication.default import DefaultDeduplicationService
    from memorylayer_server.services.memory.default import MemoryService

    async def create(self, content, content_hash, embedding, workspace_id) -> DeduplicationResult:  # noqa: ANN001
        return DeduplicationResult(
            action=DeduplicationAction.CREATE, reason="bench bulk load: unique by construction"
        )

    async def no_post_store(self, *args, **kwargs) -> bool:  # noqa: ANN001, ANN002, ANN003
        return False

    DefaultDeduplicationService.check_duplicate = create
    MemoryService.enqueue_post_store = no_post_store


async def load(workspace: str, contents: list[str], chunk: int, max_seconds: float | None) -> dict[str, Any]:
    from memorylayer_server.dependencies import initialize_services, preconfigure, shutdown_services

    v, _ = preconfigure()  # imports and registers the reference's plugins, as `memorylayer serve` does
    patch_write_path()

    from memorylayer_server.models.memory import RememberInput
    from memorylayer_server.services.authentication import EXT_AUTHENTICATION_SERVICE
    from memorylayer_server.services.ingest import normalize_connector_metadata
    from memorylayer_server.services.memory import EXT_MEMORY_SERVICE
    from memorylayer_server.services.storage import EXT_STORAGE_BACKEND
    from scitrera_app_framework import get_extension

    v = await initialize_services(v)
    storage = get_extension(EXT_STORAGE_BACKEND, v)
    memory_service = get_extension(EXT_MEMORY_SERVICE, v)
    auth = get_extension(EXT_AUTHENTICATION_SERVICE, v)
    if type(storage).__name__ != "SQLiteStorageBackend" or not storage._has_vec_extension:
        raise SystemExit(f"expected the SQLite backend with sqlite-vec, got {type(storage).__name__}")
    if memory_service.storage is not storage:
        raise SystemExit("the memory service does not write through the storage backend extension")

    # What the API does for the first request that names the workspace (X-Workspace-ID): auto-create it.
    identity = await auth.verify_api_key(None)
    workspace_id = await auth.resolve_workspace(workspace, None, identity.tenant_id, allow_create=True)
    before = await count(storage, workspace_id)

    connection = storage._connection
    chunked = ChunkedConnection(connection)
    storage._connection = chunked
    logging.disable(logging.INFO)
    started = time.perf_counter()
    done = 0
    try:
        for start in range(0, len(contents), chunk):
            if max_seconds is not None and time.perf_counter() - started > max_seconds:
                break
            for content in contents[start : start + chunk]:
                # POST /v1/memories/batch, op "create" with only "content": BatchCreateOp's defaults
                remember_input = RememberInput(
                    content=content,
                    type=None,
                    subtype=None,
                    importance=0.5,
                    tags=[],
                    metadata=normalize_connector_metadata({}).metadata,
                    observer_id=None,
                    subject_id=None,
                )
                await memory_service.remember(workspace_id=workspace_id, input=remember_input)
            await chunked.flush()
            done = min(start + chunk, len(contents))
            elapsed = time.perf_counter() - started
            print(f"[ref_bulk_load] {done:,} in {elapsed:.0f} s ({done / elapsed:.0f}/s)", file=sys.stderr)
    finally:
        storage._connection = connection
        logging.disable(logging.NOTSET)
    elapsed = time.perf_counter() - started

    after = await count(storage, workspace_id)
    if after["memories"] - before["memories"] != done:
        raise SystemExit(f"expected {done} new memories, found {after['memories'] - before['memories']}")
    if after["fts_rows"] != after["memories"] or after["fts_duplicate_ids"] or after["without_embedding"]:
        raise SystemExit(f"inconsistent load: {after}")
    if chunked.stats["fts_deletes_skipped"] != done:
        raise SystemExit(f"skipped FTS deletes for other than the new memories: {chunked.stats}")
    await shutdown_services(v)
    return {
        "workspace": workspace_id,
        "requested": len(contents),
        "loaded": done,
        "seconds": round(elapsed, 1),
        "per_s": round(done / elapsed, 1) if elapsed else None,
        "chunk": chunk,
        "time_boxed": done < len(contents),
        **after,
        **chunked.stats,
    }


async def count(storage: Any, workspace_id: str) -> dict[str, int]:
    async def one(sql: str) -> int:
        cursor = await storage._connection.execute(sql, (workspace_id,))
        return (await cursor.fetchone())[0]

    return {
        "memories": await one("SELECT count(*) FROM memories WHERE workspace_id = ? AND deleted_at IS NULL"),
        "without_embedding": await one(
            "SELECT count(*) FROM memories WHERE workspace_id = ? AND embedding IS NULL"
        ),
        "fts_rows": await one("SELECT count(*) FROM memories_fts WHERE workspace_id = ?"),
        "fts_duplicate_ids": await one(
            "SELECT count(*) FROM (SELECT id FROM memories_fts WHERE workspace_id = ? "
            "GROUP BY id HAVING count(*) > 1)"
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data-dir", required=True, type=Path, help="the reference's MEMORYLAYER_DATA_DIR")
    parser.add_argument("--workspace", required=True, help="workspace id, as in the X-Workspace-ID header")
    parser.add_argument("--input", required=True, type=Path, help="JSON lines, one content string each")
    parser.add_argument("--chunk", type=int, default=1000, help="memories per transaction")
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="stop after the chunk that ends later"
    )
    args = parser.parse_args()
    with args.input.open() as f:
        contents = [json.loads(line) for line in f if line.strip()]
    if not all(isinstance(c, str) and c for c in contents):
        raise SystemExit(f"{args.input}: every line must be a non-empty JSON string")
    args.data_dir.mkdir(parents=True, exist_ok=True)
    os.environ["MEMORYLAYER_DATA_DIR"] = str(args.data_dir.resolve())
    os.environ.setdefault("MEMORYLAYER_EMBEDDING_PROVIDER", "hash")
    os.environ["MEMORYLAYER_TASKS_ENABLED"] = "false"
    summary = asyncio.run(load(args.workspace, contents, args.chunk, args.max_seconds))
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
