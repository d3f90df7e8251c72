"""Conversation threads: messages are stored durably first, then an extraction job goes on the queue.

>>> svc = ThreadService(db, queue, worker)                                   # doctest: +SKIP
>>> messages, job = svc.append("ws_a", "thread_1", [NewMessage("user", "I live in Paris", {}, None)])  # doctest: +SKIP
"""

from __future__ import annotations

import builtins
import re
import uuid
from typing import Any

from shared.core.errors import Conflict, NotFound, Unprocessable
from shared.core.tenants import DEFAULT_TENANT
from shared.db import threads as repo
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.scope import Scope
from shared.db.threads import NewMessage, ThreadFilter
from shared.domain.extraction.speakers import merge_participants
from shared.domain.extraction.worker import ExtractionWorker
from shared.providers.queue import JobQueue

# A thread id as POST /v1/threads takes it (shared.domain.requests.threads), for threads an append creates.
THREAD_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}")


class ThreadService:
    def __init__(self, db: Database, queue: JobQueue, worker: ExtractionWorker) -> None:
        self.db = db
        self.queue = queue
        self.worker = worker

    def create(
        self,
        workspace_id: str,
        thread_id: str | None,
        fields: dict[str, Any],
        *,
        tenant_id: str = DEFAULT_TENANT,
    ) -> dict:
        thread_id = thread_id or f"thread_{uuid.uuid4().hex}"
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(
                conn, workspace_id, tenant_id
            )  # a new workspace is the creator's tenant's
            row = repo.create(conn, workspace_id, thread_id, fields)
        if row is None:
            raise Conflict(f"thread {thread_id} already exists", code="thread_exists")
        return row

    def get(self, workspace_id: str, thread_id: str) -> dict:
        with self.db.connection() as conn:
            row = repo.get(conn, workspace_id, thread_id)
        if row is None:
            raise NotFound(f"thread {thread_id} not found", code="thread_not_found")
        return row

    def find(self, workspaces: tuple[str, ...], thread_id: str) -> dict:
        """The thread in the first of ``workspaces`` that has one by this id."""
        with self.db.connection() as conn:
            for workspace_id in workspaces:
                row = repo.get(conn, workspace_id, thread_id)
                if row is not None:
                    return row
        raise NotFound(f"thread {thread_id} not found", code="thread_not_found")

    def list(self, scope: Scope, keep: ThreadFilter, *, limit: int, offset: int) -> builtins.list[dict]:
        """Threads in ``scope``: one workspace for GET /v1/threads, every workspace the caller may see for a
        user's listing (GET /v1/threads/user/{user_id})."""
        with self.db.connection() as conn:
            return repo.list_threads(conn, scope, keep, limit=limit, offset=offset)

    def set_hidden(self, workspace_id: str, thread_id: str, *, hidden: bool) -> dict:
        """Archive or restore. Extraction is untouched: memories already extracted stay, a queued job still
        runs, and a new message restores the thread (and is extracted as usual)."""
        with self.db.transaction() as conn:
            row = repo.set_hidden(conn, workspace_id, thread_id, hidden=hidden)
        if row is None:
            raise NotFound(f"thread {thread_id} not found", code="thread_not_found")
        return row

    def update(self, workspace_id: str, thread_id: str, changes: dict[str, Any]) -> dict:
        with self.db.transaction() as conn:
            row = (
                repo.update(conn, workspace_id, thread_id, changes)
                if changes
                else repo.get(conn, workspace_id, thread_id)
            )
        if row is None:
            raise NotFound(f"thread {thread_id} not found", code="thread_not_found")
        return row

    def delete(self, workspace_id: str, thread_id: str) -> None:
        with self.db.transaction() as conn:
            if not repo.delete(conn, workspace_id, thread_id):
                raise NotFound(f"thread {thread_id} not found", code="thread_not_found")

    def append(
        self,
        workspace_id: str,
        thread_id: str,
        messages: builtins.list[NewMessage],
        *,
        tenant_id: str = DEFAULT_TENANT,
    ) -> tuple[builtins.list[dict], dict | None]:
        """Store messages (indexes assigned under the thread's row lock) and their extraction job, in one
        transaction. Returns (the messages, new or already stored; the job or None); ``enqueue`` the job next.

        A thread id not seen before is created by its first append, as the reference does: chat integrations
        key threads by their own conversation id. The job row is the outbox: once this commits nothing is
        lost, even if enqueueing fails (the sweeper re-sends jobs left queued), so the caller may acknowledge
        before the queue call."""
        with self.db.transaction() as conn:
            thread = repo.lock(conn, workspace_id, thread_id)
            if thread is None:
                if not THREAD_ID.fullmatch(thread_id):
                    raise Unprocessable(
                        "a new thread's id is 1-128 letters, digits and . _ : - (not starting with . : -)",
                        code="invalid_thread_id",
                    )
                ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
                # ON CONFLICT DO NOTHING: a concurrent first append may have made it; the lock then finds it.
                repo.create(conn, workspace_id, thread_id, {"title": thread_id, "ownership": "workspace"})
                thread = repo.lock(conn, workspace_id, thread_id)
                assert thread is not None
            # Before any row: a speaker past the participants cap refuses the whole append.
            people = merge_participants(
                thread["participants"], ((m.speaker_name, m.speaker_id) for m in messages)
            )
            new, existing = repo.append(conn, thread, messages)
            if people != thread["participants"]:
                repo.set_participants(conn, workspace_id, thread_id, people)
            job = (
                repo.create_job(
                    conn, workspace_id, thread_id, new[0]["message_index"], new[-1]["message_index"]
                )
                if new
                else None
            )
        stored = sorted(new + existing, key=lambda m: m["message_index"])
        return stored, job

    def enqueue(self, job: dict) -> bool:
        message = {"job_id": job["id"], "workspace_id": job["workspace_id"], "thread_id": job["thread_id"]}
        return self.queue.send(message)

    def messages(self, workspace_id: str, thread_id: str, **query: Any) -> tuple[builtins.list[dict], int]:
        with self.db.connection() as conn:
            if repo.get(conn, workspace_id, thread_id) is None:
                raise NotFound(f"thread {thread_id} not found", code="thread_not_found")
            return repo.messages(conn, workspace_id, thread_id, **query), repo.count_messages(
                conn, workspace_id, thread_id
            )

    def delete_message(self, workspace_id: str, thread_id: str, message_id: str) -> None:
        with self.db.transaction() as conn:
            if not repo.delete_message(conn, workspace_id, thread_id, message_id):
                raise NotFound(f"message {message_id} not found", code="message_not_found")

    def decompose(self, workspace_id: str, thread_id: str) -> dict[str, Any]:
        """Extract, now, from every message not yet processed (no queue round trip)."""
        with self.db.transaction() as conn:
            thread = repo.lock(conn, workspace_id, thread_id)
            if thread is None:
                raise NotFound(f"thread {thread_id} not found", code="thread_not_found")
            start, end = thread["last_decomposed_index"], thread["message_count"] - 1
            job = repo.create_job(conn, workspace_id, thread_id, start, end) if end >= start else None
        result = self.worker.run(job["id"]) if job else {"messages_processed": 0, "added": 0, "superseded": 0}
        return {
            "thread_id": thread_id,
            "workspace_id": workspace_id,
            "messages_processed": result.get("messages_processed", 0),
            "memories_created": result.get("added", 0) + result.get("superseded", 0),
            "from_index": start,
            "to_index": max(end, start - 1) + 1,
            "job_id": job["id"] if job else None,
        }

    def job(self, job_id: str) -> dict:
        with self.db.connection() as conn:
            row = repo.get_job(conn, job_id)
        if row is None:
            raise NotFound(f"job {job_id} not found", code="job_not_found")
        return row

    def recent_jobs(self, workspace_id: str, limit: int) -> builtins.list[dict]:
        """The workspace's newest extraction jobs first (the memory console's jobs tab)."""
        with self.db.connection() as conn:
            return repo.recent_jobs(conn, workspace_id, limit)


def requeue_stale_jobs(db: Database, queue: JobQueue, older_than_s: int = 120) -> int:
    """Re-send jobs still queued long after their commit: their queue message may never have been sent.
    A duplicate message is harmless (a done job is skipped). Run by the scheduled cleanup."""
    with db.connection() as conn:
        stale = repo.stale_jobs(conn, older_than_s)
    return sum(
        queue.send({"job_id": j["id"], "workspace_id": j["workspace_id"], "thread_id": j["thread_id"]})
        for j in stale
    )
