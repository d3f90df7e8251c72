"""The session service: sessions with enforced TTLs, working memory, commit, checkpoints, briefing, cleanup.

    >>> svc = SessionService(db, embedder, settings)                                  # doctest: +SKIP
    >>> session, _ = svc.create("ws_a", SessionCreate(working_memory={"goal": "fix redis"}))  # doctest: +SKIP
    >>> svc.commit(Scope.of("ws_a"), session["id"])["memories_created"]             # doctest: +SKIP
    1

Time comes from ``clock`` (UTC ``datetime.now`` by default): every expiry check passes it to SQL, so a test
moves time by swapping the clock instead of sleeping.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from shared.db import memories as mem_repo
from shared.db import workspaces as ws_repo
from shared.db.memories import COLUMNS
from shared.db.pool import Database
from shared.db.scope import Scope
from shared.embeddings.base import Embedder
from shared.errors import Conflict, InvalidInput, MemoryLayerError, NotFound, PayloadTooLarge
from shared.extraction.candidates import Candidate, Provenance
from shared.extraction.writer import MemoryWriter
from shared.memories import serialize
from shared.memories.rows import memory_row
from shared.sessions import repo
from shared.sessions.models import CheckpointCreate, CommitOptions, SessionCreate, WorkingMemoryItem
from shared.settings import Settings
from shared.tenants import DEFAULT_TENANT

Clock = Callable[[], datetime]
OPEN_THREAD_KEYS = frozenset({"open_threads", "open_items", "next_steps", "blocked"})
SEGMENT_MAX_CHARS = 256
# The raw checkpoint is found by its segments; its own vector only needs the opening.
RAW_EMBED_CHARS = 2000


def utcnow() -> datetime:
    return datetime.now(UTC)


def render_value(value: Any) -> str:
    """A working-memory value as text: strings as they are, anything else as sorted compact JSON."""
    return (
        value
        if isinstance(value, str)
        else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    )


def split_segments(text: str, limit: int = SEGMENT_MAX_CHARS) -> list[str]:
    """Non-empty lines, each cut at whitespace into pieces of at most ``limit`` characters.

    >>> [len(p) for p in split_segments("a\\n\\n  b  \\n" + "x " * 200, 100)]
    [1, 1, 99, 99, 99, 99]
    """
    pieces: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.split())
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit + 1)
            cut = cut if cut > 0 else limit
            pieces.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        if line:
            pieces.append(line)
    return pieces


class SessionService:
    def __init__(
        self, db: Database, embedder: Embedder, settings: Settings, *, clock: Clock = utcnow
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.clock = clock
        self.writer = MemoryWriter(db, embedder)

    # ------------------------------------------------------------------ sessions
    def create(
        self, workspace_id: str, body: SessionCreate, *, tenant_id: str = DEFAULT_TENANT
    ) -> tuple[dict, list[dict]]:
        """A new session (and its initial working memory). Ids are unique per workspace: a live id of this
        workspace is a 409, an expired one is retired first; other workspaces' ids are invisible here."""
        session_id = body.session_id or f"sess_{uuid.uuid4().hex}"
        entries = [WorkingMemoryItem(key=k, value=v) for k, v in (body.working_memory or {}).items()]
        self._check_values(entries)
        for _attempt in range(2):
            now = self.clock()
            row = {
                "id": session_id,
                "workspace_id": workspace_id,
                "context_id": body.context_id or "_default",
                "user_id": body.user_id,
                "metadata": body.metadata,
                "auto_commit": body.auto_commit,
                "expires_at": now + timedelta(seconds=body.ttl_seconds),
                "now": now,
            }
            with self.db.transaction() as conn:
                # A new workspace belongs to the creator's tenant (as a first remember makes it).
                ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
                conn.execute(
                    "INSERT INTO contexts (workspace_id, id, name) VALUES (%s, '_default', '_default') "
                    "ON CONFLICT DO NOTHING",
                    (workspace_id,),
                )
                created = repo.insert_session(conn, row)
                if created is not None:
                    return created, self._set(conn, created, entries, now)
                existing = repo.session_row(conn, workspace_id, session_id)
            if existing is not None and existing["expires_at"] > now:
                raise Conflict(f"session {session_id} already exists", code="session_exists")
            if existing is not None:
                self._retire(existing)
        raise Conflict(f"session {session_id} is being recreated concurrently", code="session_exists")

    def get(self, scope: Scope, session_id: str) -> dict:
        """A live session; an expired one is gone (404) even before cleanup removes it."""
        with self.db.connection() as conn:
            return self._find(conn, scope, session_id, now=self.clock())

    @staticmethod
    def _find(
        conn: psycopg.Connection, scope: Scope, session_id: str, *, now: datetime, for_update: bool = False
    ) -> dict:
        """The one live session with this id in the scope. Missing, expired and another tenant's are the same
        404 (the scope holds only the caller's workspaces, so nothing outside them can show); the id in two of
        the caller's own workspaces is a 409 until the request names one."""
        rows = repo.find_sessions(conn, scope, session_id, now=now, for_update=for_update)
        if not rows:
            raise NotFound(f"session {session_id} not found or expired", code="session_not_found")
        if len(rows) > 1:
            raise Conflict(
                f"session {session_id} exists in more than one of your workspaces: name the workspace "
                "(X-Workspace-ID or ?workspace_id)",
                code="session_ambiguous",
            )
        return rows[0]

    def list(
        self, workspace_id: str, *, context_id: str | None = None, include_expired: bool = False
    ) -> list[dict]:
        with self.db.connection() as conn:
            return repo.list_sessions(
                conn, workspace_id, context_id=context_id, include_expired=include_expired, now=self.clock()
            )

    def delete(self, scope: Scope, session_id: str) -> None:
        """Commit first when the session auto-commits, then remove it with its working memory."""
        self._retire(self.get(scope, session_id))

    def touch(self, scope: Scope, session_id: str, extend_seconds: int | None = None) -> datetime:
        """Set the expiry to now + ``extend_seconds`` (default: the touch TTL)."""
        now = self.clock()
        seconds = extend_seconds or self.settings.session_touch_ttl_s
        with self.db.transaction() as conn:
            session = self._find(conn, scope, session_id, now=now, for_update=True)
            until = now + timedelta(seconds=seconds)
            return repo.set_expiry(conn, session["workspace_id"], session_id, until, now)["expires_at"]

    def slide(self, scope: Scope, session_id: str) -> str | None:
        """``X-Session-ID``: keep the caller's live session alive for the touch TTL (never shortens it) and
        return its workspace; None when the scope holds no such live session, whoever else may hold the id.

        ``scope`` must already be the authorized caller's workspaces: this writes. An id found in two of them
        is a 409 and slides neither (the transaction rolls back)."""
        now = self.clock()
        until = now + timedelta(seconds=self.settings.session_touch_ttl_s)
        with self.db.transaction() as conn:
            rows = repo.slide(conn, scope, session_id, now=now, until=until)
            if len(rows) > 1:
                raise Conflict(
                    f"session {session_id} exists in more than one of your workspaces: name the workspace "
                    "(X-Workspace-ID or ?workspace_id)",
                    code="session_ambiguous",
                )
        return rows[0]["workspace_id"] if rows else None

    def _retire(self, session: dict) -> None:
        if session["auto_commit"]:
            self._commit(session, max_memories=None)
        with self.db.transaction() as conn:
            repo.delete_session(conn, session["workspace_id"], session["id"])

    # ------------------------------------------------------------------ working memory
    def set_working(self, scope: Scope, session_id: str, entries: list[WorkingMemoryItem]) -> list[dict]:
        self._check_values(entries)
        now = self.clock()
        with self.db.transaction() as conn:
            session = self._find(conn, scope, session_id, now=now, for_update=True)
            return self._set(conn, session, entries, now)

    def _set(
        self, conn: psycopg.Connection, session: dict, entries: list[WorkingMemoryItem], now: datetime
    ) -> list[dict]:
        rows = []
        for entry in entries:
            expires = now + timedelta(seconds=entry.ttl_seconds) if entry.ttl_seconds else None
            rows.append(
                repo.upsert_working(
                    conn,
                    session["workspace_id"],
                    session["id"],
                    entry.key,
                    entry.value,
                    entry.ttl_seconds,
                    now=now,
                    expires_at=expires,
                )
            )
            repo.record_event(conn, session["workspace_id"], session["id"], "working_upsert", entry.key)
        return rows

    def _check_values(self, entries: list[WorkingMemoryItem]) -> None:
        limit = self.settings.max_content_bytes
        for entry in entries:
            size = len(render_value(entry.value).encode())
            if size > limit:
                raise PayloadTooLarge(
                    f"the value of {entry.key!r} is {size} bytes; the limit is {limit}",
                    code="value_too_large",
                    limit=limit,
                )

    def get_working(self, scope: Scope, session_id: str, keys: list[str] | None) -> dict[str, Any]:
        """``{key: value}`` for the live keys asked for (all when ``keys`` is None); 404 if none is live."""
        now = self.clock()
        with self.db.connection() as conn:
            session = self._find(conn, scope, session_id, now=now)
            rows = repo.working(conn, session["workspace_id"], session_id, now=now, keys=keys)
        if keys and not rows:
            raise NotFound(
                f"working memory key not found: {','.join(keys)}", code="working_memory_key_not_found"
            )
        return {r["key"]: r["value"] for r in rows}

    def working_rows(self, session: dict) -> list[dict]:
        with self.db.connection() as conn:
            return repo.working(conn, session["workspace_id"], session["id"], now=self.clock())

    # ------------------------------------------------------------------ commit
    def commit(self, scope: Scope, session_id: str, options: CommitOptions | None = None) -> dict[str, Any]:
        session = self.get(scope, session_id)
        return self._commit(session, max_memories=(options or CommitOptions()).max_memories)

    def _commit(self, session: dict, *, max_memories: int | None) -> dict[str, Any]:
        """Working memory → long-term memories through the one writer: identical content is a NOOP, so
        committing twice creates nothing new and the counts say so."""
        started = time.perf_counter()
        rows = self.working_rows(session)[:max_memories]
        candidates = [
            Candidate(
                content=f"{r['key']}: {render_value(r['value'])}",
                type="semantic",
                subtype=None,
                metadata={"session_id": session["id"], "working_memory_key": r["key"]},
                # A key holds one value: committing a new value supersedes the old memory (history kept).
                subject="working_memory",
                predicate=r["key"],
                value=render_value(r["value"]),
                single_valued=True,
            )
            for r in rows
        ]
        report = self.writer.write(
            session["workspace_id"],
            session["user_id"],
            candidates,
            Provenance(session_id=session["id"], source="session_commit"),
        )
        with self.db.transaction() as conn:
            repo.mark_committed(conn, session["workspace_id"], session["id"], self.clock())
            repo.record_event(conn, session["workspace_id"], session["id"], "commit", session["id"])
        counts = report.counts
        return {
            "session_id": session["id"],
            "memories_extracted": len(candidates),
            "memories_deduplicated": counts["noop"],
            "memories_created": counts["added"] + counts["superseded"],
            "breakdown": counts,
            "extraction_time_ms": round((time.perf_counter() - started) * 1000),
            "memory_ids": report.added + [new for _old, new in report.superseded],
        }

    # ------------------------------------------------------------------ checkpoints
    def capture(self, scope: Scope, session_id: str, body: CheckpointCreate) -> dict:
        """Store a transcript segment durably (idempotent per key), then index its lines as memories."""
        session = self.get(scope, session_id)
        data = body.transcript_segment.encode()
        limit = self.settings.checkpoint_max_bytes
        if len(data) > limit:
            raise PayloadTooLarge(
                f"the segment is {len(data)} bytes; the limit is {limit}",
                code="checkpoint_too_large",
                limit=limit,
            )
        if hashlib.sha256(data).hexdigest() != body.content_hash:
            raise InvalidInput(
                "content_hash is not the sha256 of the UTF-8 segment", code="content_hash_mismatch"
            )
        with self.db.connection() as conn:
            existing = repo.checkpoint_by_key(conn, session["workspace_id"], session_id, body.idempotency_key)
        if existing is None:
            existing = self._capture(session, body, len(data))
        elif existing["content_hash"] != body.content_hash:
            raise Conflict(
                "idempotency_key was already used for another segment", code="idempotency_key_reused"
            )
        if existing["index_status"] in ("pending", "failed"):
            existing = self._index(session, existing, body.transcript_segment)
        return existing

    def _capture(self, session: dict, body: CheckpointCreate, byte_count: int) -> dict:
        hex_id = uuid.uuid4().hex
        now = self.clock()
        kind = re.sub(r"[^a-z0-9_-]", "_", body.source_kind.lower())
        checkpoint = {
            "id": f"chk_{hex_id}",
            "workspace_id": session["workspace_id"],
            "session_id": session["id"],
            "raw_memory_id": f"mem_chk_{hex_id}",
            "source_kind": kind,
            "source_sequence": body.source_sequence,
            "source_boundary": body.source_boundary,
            "content_hash": body.content_hash,
            "byte_count": byte_count,
            "capture_status": "durable",
            "index_status": "pending",
            "enrichment_status": "skipped",
            "idempotency_key": body.idempotency_key,
            "created_at": now,
            "updated_at": now,
        }
        vector = self.embedder.embed_one(body.transcript_segment[:RAW_EMBED_CHARS])
        metadata = {
            "session_id": session["id"],
            "checkpoint_id": checkpoint["id"],
            "source_kind": kind,
            "content_hash": body.content_hash,
        }
        raw = self._memory_row(
            session,
            checkpoint["raw_memory_id"],
            body.transcript_segment,
            "checkpoint",
            metadata,
            vector,
            source_memory_id=None,
        )
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, session["workspace_id"])
            ws_repo.bind_embedding_model(conn, session["workspace_id"], self.embedder.model_id)
            stored = repo.insert_checkpoint(conn, checkpoint)
            if stored is None:  # a concurrent capture with this key won: the same row, as a replay
                return repo.checkpoint_by_key(
                    conn, session["workspace_id"], session["id"], body.idempotency_key
                )
            mem_repo.insert(conn, raw)
            repo.record_event(conn, session["workspace_id"], session["id"], "checkpoint", stored["id"])
        return stored

    def _index(self, session: dict, checkpoint: dict, segment: str) -> dict:
        """One searchable memory per line (≤256 chars), each pointing at the raw memory. Capture is already
        durable: a failing embedder leaves ``index_status: failed`` and a replay retries."""
        pieces = split_segments(segment)
        cap = self.settings.checkpoint_max_segments
        status = "complete" if len(pieces) <= cap else "partial"
        pieces = pieces[:cap]
        try:
            size = max(1, self.settings.embedding_batch_size)
            vectors = [
                v for i in range(0, len(pieces), size) for v in self.embedder.embed(pieces[i : i + size])
            ]
        except MemoryLayerError:
            with self.db.transaction() as conn:
                return repo.set_index_status(
                    conn, session["workspace_id"], checkpoint["id"], "failed", self.clock()
                )
        rows = [
            self._memory_row(
                session,
                f"mem_{uuid.uuid4().hex[:16]}",
                piece,
                "event",
                {"session_id": session["id"], "checkpoint_id": checkpoint["id"], "segment_index": i},
                vector,
                source_memory_id=checkpoint["raw_memory_id"],
            )
            for i, (piece, vector) in enumerate(zip(pieces, vectors, strict=True))
        ]
        with self.db.transaction() as conn:
            # Re-indexing after a failure must not duplicate segments already written.
            conn.execute(
                "DELETE FROM memories WHERE source_memory_id = %s AND workspace_id = %s",
                (checkpoint["raw_memory_id"], session["workspace_id"]),
            )
            mem_repo.insert_many(conn, rows)
            return repo.set_index_status(
                conn, session["workspace_id"], checkpoint["id"], status, self.clock()
            )

    def _memory_row(
        self,
        session: dict,
        memory_id: str,
        content: str,
        subtype: str,
        metadata: dict,
        vector: Any,
        *,
        source_memory_id: str | None,
    ) -> dict[str, Any]:
        return memory_row(
            session["workspace_id"],
            content,
            embedding=vector,
            embedding_model=self.embedder.model_id,
            metadata=metadata,
            memory_id=memory_id,
            context_id=session["context_id"],
            user_id=session["user_id"],
            session_id=session["id"],
            subtype=subtype,
            source_memory_id=source_memory_id,
        )

    def checkpoint(self, scope: Scope, session_id: str, checkpoint_id: str) -> dict:
        session = self.get(scope, session_id)
        with self.db.connection() as conn:
            row = repo.get_checkpoint(conn, session["workspace_id"], session_id, checkpoint_id)
        if row is None:
            raise NotFound(f"checkpoint {checkpoint_id} not found", code="checkpoint_not_found")
        return row

    # ------------------------------------------------------------------ briefing
    def briefing(
        self,
        workspace_id: str,
        *,
        lookback_minutes: int = 60,
        limit: int = 10,
        include_memories: bool = True,
        include_contradictions: bool = True,
    ) -> dict[str, Any]:
        """What happened lately in a workspace: counts, recent memories, open threads, contradictions."""
        now = self.clock()
        since = now - timedelta(minutes=lookback_minutes)
        live = "workspace_id = %(ws)s AND deleted_at IS NULL AND valid_to IS NULL"
        params = {
            "ws": workspace_id,
            "since": since,
            "day": now - timedelta(days=1),
            "limit": limit,
            "now": now,
        }
        with self.db.connection() as conn:
            summary = conn.execute(
                "SELECT count(*) AS total_memories, count(*) FILTER (WHERE created_at > %(day)s) AS "
                "recent_memories, "
                f"count(DISTINCT subtype) AS total_categories, "
                f"(SELECT count(*) FROM associations WHERE workspace_id = %(ws)s) AS total_associations "
                f"FROM memories WHERE {live}",
                params,
            ).fetchone()
            topics = conn.execute(
                f"SELECT tag FROM memories, unnest(tags) AS tag WHERE {live} AND created_at > %(since)s "
                "GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 10",
                params,
            ).fetchall()
            recent = conn.execute(
                f"SELECT {COLUMNS} FROM memories WHERE {live} AND created_at > %(since)s "
                "ORDER BY created_at DESC, id LIMIT %(limit)s",
                params,
            ).fetchall()
            threads = conn.execute(
                "SELECT w.key, w.value, w.updated_at, w.session_id FROM working_memory w JOIN sessions s "
                "ON s.workspace_id = w.workspace_id AND s.id = w.session_id "
                "WHERE w.workspace_id = %(ws)s AND s.expires_at > %(now)s "
                "AND (w.expires_at IS NULL OR w.expires_at > %(now)s) AND lower(w.key) = ANY(%(keys)s) "
                "ORDER BY w.updated_at DESC LIMIT %(limit)s",
                {**params, "keys": sorted(OPEN_THREAD_KEYS)},
            ).fetchall()
            contradictions = self.contradictions(conn, workspace_id, limit) if include_contradictions else []
        activity = []
        if recent:
            activity.append(
                {
                    "timestamp": serialize.iso(recent[0]["created_at"]),
                    "summary": f"{len(recent)} memories in the last {lookback_minutes} minutes",
                    "memories_created": len(recent),
                    "key_decisions": [r["content"] for r in recent if r["subtype"] == "decision"][:5],
                }
            )
        return {
            "workspace_summary": {**summary, "active_topics": [t["tag"] for t in topics]},
            "recent_activity": activity,
            "open_threads": [
                {
                    "topic": render_value(t["value"]),
                    "status": "blocked" if t["key"].lower() == "blocked" else "in_progress",
                    "last_activity": serialize.iso(t["updated_at"]),
                    "key_memories": [],
                    "session_id": t["session_id"],
                }
                for t in threads
            ],
            "contradictions_detected": [
                {
                    "memory_a": c["source_id"],
                    "memory_b": c["target_id"],
                    "relationship": "contradicts",
                    "needs_resolution": True,
                    "detected_at": serialize.iso(c["created_at"]),
                    "id": c["id"],
                }
                for c in contradictions
            ],
            "memories": [serialize.memory(r) for r in recent] if include_memories else [],
        }

    @staticmethod
    def contradictions(conn: psycopg.Connection, workspace_id: str, limit: int) -> list[dict]:
        """``contradicts`` edges between two live memories: nothing has resolved them yet."""
        return conn.execute(
            "SELECT a.id, a.source_id, a.target_id, a.created_at FROM associations a "
            "JOIN memories s ON s.id = a.source_id AND s.deleted_at IS NULL AND s.valid_to IS NULL "
            "JOIN memories t ON t.id = a.target_id AND t.deleted_at IS NULL AND t.valid_to IS NULL "
            "WHERE a.workspace_id = %s AND a.relationship = 'contradicts' ORDER BY a.created_at DESC, a.id "
            "LIMIT %s",
            (workspace_id, limit),
        ).fetchall()

    # ------------------------------------------------------------------ cleanup
    def cleanup(self) -> dict[str, int]:
        """Commit (if auto_commit) and remove expired sessions, drop expired keys, age out context events.

        Safe to run concurrently: commit is idempotent, and the delete re-checks expiry.
        """
        now = self.clock()
        with self.db.connection() as conn:
            # Across workspaces by design: cleanup is the one caller with no tenant. Every step after this
            # names the row's own workspace, since the same id may live on in another one.
            expired = repo.expired_sessions(conn, now=now, limit=self.settings.session_cleanup_batch)
        committed = removed = 0
        for session in expired:
            try:
                if session["auto_commit"]:
                    self._commit(session, max_memories=None)
                    committed += 1
            except MemoryLayerError:
                continue  # provider down: keep the session for the next run rather than lose its memory
            with self.db.transaction() as conn:
                removed += repo.delete_session(conn, session["workspace_id"], session["id"], expired_by=now)
        with self.db.transaction() as conn:
            keys = repo.expire_working_keys(conn, now)
            purged = repo.purge_events(conn, now - timedelta(days=self.settings.context_event_retention_days))
        return {
            "sessions_expired": removed,
            "sessions_committed": committed,
            "working_keys_expired": keys,
            "events_purged": purged,
        }
