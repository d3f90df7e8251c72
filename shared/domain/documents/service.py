"""Documents in, memories out: upload, the jobs that process uploads, and the lifecycle (reprocess, verify,
delete). The work itself is ``shared/domain/documents/pipeline.py``.

    >>> svc = DocumentService(db, embedder, blobs, queue, settings)                   # doctest: +SKIP
    >>> doc, job = svc.upload("ws_a", b"# Notes\\n\\nTea at five.", "notes.md", "text/markdown", {})  # doctest: +SKIP

An upload is checked whole (size, type against its bytes, parse in a child process under limits, page count)
before anything is stored, so a refused upload leaves nothing behind. The rows (document and job, one transaction) come first, the bytes
second, so the bucket's event always finds its document; a failed store removes the rows again. The bucket's object-created event (SQS) then
starts the document function; with no queue configured the same pipeline runs in this process.
"""

from __future__ import annotations

import builtins
import hashlib
import logging
import threading
import uuid
from datetime import UTC, datetime
from typing import Any

from shared.core.errors import InvalidInput, NotFound, PayloadTooLarge, Unprocessable
from shared.core.settings import Settings
from shared.db import documents as repo
from shared.db import memories as memories_repo
from shared.db import rls
from shared.db import workspaces as ws_repo
from shared.db.pool import Database
from shared.db.scope import Scope
from shared.domain.documents import parsers
from shared.domain.documents.pipeline import DocumentPipeline
from shared.providers.blobs import BlobNotFound, BlobStore
from shared.providers.embeddings.base import Embedder
from shared.providers.queue import JobQueue

log = logging.getLogger(__name__)

# The reference's extraction options, as a client may send them (unknown keys are refused).
OPTION_KEYS = frozenset(
    {"chunking_strategy", "chunk_size", "chunk_overlap", "target_context_id", "importance", "system_prompt",
     "retain_original"}
)  # fmt: skip


def storage_key(workspace_id: str, document_id: str, filename: str) -> str:
    return f"documents/{workspace_id}/{document_id}/{filename}"


def pending_hash(document_id: str) -> str:
    """A presigned upload's hash until its bytes arrive (unique, so the same-bytes index lets it be)."""
    return f"pending:{document_id}"


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - OPTION_KEYS)
    if unknown:
        raise InvalidInput(
            f"unknown extraction options: {', '.join(unknown)}", code="invalid_extraction_options"
        )
    size = options.get("chunk_size")
    if size is not None and (
        not isinstance(size, int) or isinstance(size, bool) or not 100 <= size <= 100_000
    ):
        raise InvalidInput(
            "chunk_size must be an integer from 100 to 100000", code="invalid_extraction_options"
        )
    importance = options.get("importance")
    if importance is not None and (not isinstance(importance, int | float) or not 0.0 <= importance <= 1.0):
        raise InvalidInput("importance must be from 0.0 to 1.0", code="invalid_extraction_options")
    context = options.get("target_context_id")
    if context is not None and (not isinstance(context, str) or not 0 < len(context) <= 128):
        raise InvalidInput("target_context_id must be 1-128 characters", code="invalid_extraction_options")
    return options


class DocumentService:
    def __init__(
        self, db: Database, embedder: Embedder, blobs: BlobStore, queue: JobQueue, settings: Settings
    ) -> None:
        self.db = db
        self.blobs = blobs
        self.queue = queue
        self.settings = settings
        self.pipeline = DocumentPipeline(db, embedder, blobs, settings)
        # No bucket event reaches a queue of ours: run uploads in this process (tests, a one-process stack).
        self.inline = not (settings.document_bucket and settings.document_queue_url)

    @property
    def limits(self) -> parsers.Limits:
        return self.pipeline.limits

    # ------------------------------------------------------------------ upload
    def upload(
        self,
        workspace_id: str,
        data: bytes,
        filename: str | None,
        mime_type: str | None,
        options: dict[str, Any],
        *,
        document_type: str | None = None,
        tenant_id: str | None = None,
    ) -> tuple[dict, dict]:
        name = parsers.safe_filename(filename)
        if not data:
            raise InvalidInput("the file is empty (0 bytes)", code="empty_document")
        if len(data) > self.settings.document_max_bytes:
            raise PayloadTooLarge(
                f"the file is {len(data)} bytes; uploads through the API take at most "
                f"{self.settings.document_max_bytes} (use POST /v1/documents/uploads for larger files)",
                code="document_too_large",
                max_bytes=self.settings.document_max_bytes,
            )
        options = check_options(dict(options))
        kind = parsers.detect(name, mime_type, data, document_type)
        # In a child process under time and memory limits (isolated.py): a hostile file costs this call, never
        # the process.
        pages = self.pipeline.parser.parse(kind, data, seconds=self.settings.document_parse_seconds)
        if not pages:
            raise InvalidInput(
                "the document has no text to read (a scanned PDF needs OCR, which is not served here)",
                code="no_text",
            )
        content_hash = hashlib.sha256(data).hexdigest()
        with self.db.connection() as conn:
            existing = repo.by_hash(conn, workspace_id, content_hash)
        if existing is not None:
            return existing, self._duplicate_job(workspace_id, existing)
        document_id = f"doc_{uuid.uuid4().hex[:20]}"
        key = storage_key(workspace_id, document_id, name)
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            doc = repo.create(conn, self._row(workspace_id, document_id, name, kind, content_hash,
                                              len(data), mime_type, key, options))  # fmt: skip
            job = None
            if doc is not None:
                job = repo.create_job(conn, workspace_id, f"job_{uuid.uuid4().hex[:20]}", [document_id], {})
        if doc is None or job is None:  # the same bytes arrived concurrently: that upload's document stands
            with self.db.connection() as conn:
                existing = repo.by_hash(conn, workspace_id, content_hash)
            assert existing is not None
            return existing, self._duplicate_job(workspace_id, existing)
        try:
            # After the rows commit, so the bucket's event always finds its document.
            self.blobs.put(key, data, content_type=mime_type)
        except BaseException:
            with self.db.transaction() as conn:
                repo.delete(conn, workspace_id, document_id)
                repo.delete_jobs_of(conn, workspace_id, document_id)
            raise
        self._dispatch(workspace_id, job["id"], from_bucket=True)
        return doc, job

    def presign(
        self,
        workspace_id: str,
        filename: str,
        mime_type: str | None,
        options: dict[str, Any],
        *,
        tenant_id: str | None = None,
    ) -> tuple[dict, dict, dict[str, Any]]:
        """A document waiting for its bytes and a URL to send them to (S3's presigned POST, size-capped); the
        bucket's event then starts the job, and the hash, the same-bytes check and the type are settled there."""
        name = parsers.safe_filename(filename)
        options = check_options(dict(options))
        kind = parsers.kind_of(name, mime_type)
        document_id = f"doc_{uuid.uuid4().hex[:20]}"
        key = storage_key(workspace_id, document_id, name)
        post = self.blobs.presigned_put(key, max_bytes=self.settings.document_max_upload_bytes)
        if post is None or self.inline:  # no bucket, or no queue its events reach
            # The server is up and will stay this way: not a 5xx; the multipart upload still works.
            raise Unprocessable(
                "this server has no document bucket for presigned uploads: send the file to POST /v1/documents",
                code="presigned_upload_not_supported",
            )
        with self.db.transaction() as conn:
            ws_repo.ensure_workspace(conn, workspace_id, tenant_id)
            row = self._row(workspace_id, document_id, name, kind, pending_hash(document_id), 0, mime_type, key,
                            options)  # fmt: skip
            doc = repo.create(conn, row)
            assert doc is not None
            job = repo.create_job(conn, workspace_id, f"job_{uuid.uuid4().hex[:20]}", [document_id],
                                  {"upload": "presigned"})  # fmt: skip
        return doc, job, post

    def _row(
        self,
        workspace_id: str,
        document_id: str,
        name: str,
        kind: str,
        content_hash: str,
        size: int,
        mime_type: str | None,
        key: str,
        options: dict[str, Any],
    ) -> dict[str, Any]:
        return {
            "id": document_id,
            "workspace_id": workspace_id,
            "filename": name,
            "document_type": kind,
            "content_hash": content_hash,
            "size_bytes": size,
            "mime_type": mime_type,
            "storage_key": key,
            "target_context_id": options.get("target_context_id") or "_default",
            "extraction_options": options,
        }

    def _duplicate_job(self, workspace_id: str, existing: dict) -> dict:
        """The reference's answer to the same bytes again: the existing document and a job complete at birth."""
        with self.db.transaction() as conn:
            return repo.create_job(
                conn,
                workspace_id,
                f"job_{uuid.uuid4().hex[:20]}",
                [existing["id"]],
                {"deduplicated": True, "original_document_id": existing["id"]},
                done=True,
            )

    def _dispatch(self, workspace_id: str, job_id: str, *, from_bucket: bool) -> None:
        """Start the job: the bucket's event does for a new object; a reprocess (no new object) sends its own
        message. With no queue, a thread of this process runs it."""
        if self.inline:
            threading.Thread(
                target=self._run_inline, args=(workspace_id, job_id), name=f"document-{job_id}", daemon=True
            ).start()
        elif not from_bucket:
            self.queue.send({"kind": "document", "workspace_id": workspace_id, "job_id": job_id})

    def _run_inline(self, workspace_id: str, job_id: str) -> None:
        # A new thread starts from an empty context: an API process's pool would show it nothing.
        try:
            with rls.visible((workspace_id,)):
                self.pipeline.run(workspace_id, job_id, final_attempt=True)
        except Exception:
            log.exception("document job %s failed", job_id)

    # ------------------------------------------------------------------ reads
    def get(self, workspace_id: str, document_id: str) -> dict:
        with self.db.connection() as conn:
            doc = repo.get(conn, workspace_id, document_id)
        if doc is None:
            raise NotFound(f"document {document_id} not found", code="document_not_found")
        return doc

    def list(
        self, workspace_id: str, *, status: str | None, document_type: str | None, limit: int, offset: int
    ) -> tuple[builtins.list[dict], int]:
        with self.db.connection() as conn:
            return repo.list_documents(
                conn, workspace_id, status=status, document_type=document_type, limit=limit, offset=offset
            )

    def pages(self, workspace_id: str, document_id: str) -> builtins.list[dict]:
        with self.db.connection() as conn:
            if repo.get(conn, workspace_id, document_id) is None:
                raise NotFound(f"document {document_id} not found", code="document_not_found")
            return repo.pages(conn, workspace_id, document_id)

    def page(self, workspace_id: str, document_id: str, page_id: str) -> dict:
        with self.db.connection() as conn:
            if repo.get(conn, workspace_id, document_id) is None:
                raise NotFound(f"document {document_id} not found", code="document_not_found")
            row = repo.page(conn, workspace_id, document_id, page_id)
        if row is None:
            raise NotFound(f"page {page_id} not found", code="page_not_found")
        return row

    def memories(self, workspace_id: str, document_id: str) -> builtins.list[dict]:
        with self.db.connection() as conn:
            doc = repo.get(conn, workspace_id, document_id)
            if doc is None:
                raise NotFound(f"document {document_id} not found", code="document_not_found")
            return repo.memories(conn, workspace_id, doc["memory_ids"])

    def search(
        self, workspace_id: str, query: str, *, limit: int, document_ids: builtins.list[str] | None
    ) -> builtins.list[dict]:
        """Pages by the similarity of their text embedding to the query's (one vector a page)."""
        vector = self.pipeline.embedder.embed([query])[0]
        with self.db.connection() as conn:
            return repo.search_pages(conn, workspace_id, vector, limit=limit, document_ids=document_ids)

    # ------------------------------------------------------------------ jobs
    def job(self, workspace_id: str, job_id: str) -> dict:
        with self.db.connection() as conn:
            row = repo.get_job(conn, workspace_id, job_id)
        if row is None:
            raise NotFound(f"ingestion job {job_id} not found", code="job_not_found")
        return row

    def jobs(self, workspace_id: str, *, status: str | None, limit: int, offset: int) -> builtins.list[dict]:
        with self.db.connection() as conn:
            return repo.list_jobs(conn, workspace_id, status=status, limit=limit, offset=offset)

    def cancel(self, workspace_id: str, job_id: str) -> dict:
        """A queued or running job stops before it writes (the pipeline looks before each write); a finished
        job is answered as it is, as the reference does."""
        with self.db.transaction() as conn:
            job = repo.get_job(conn, workspace_id, job_id, lock=True)
            if job is None:
                raise NotFound(f"ingestion job {job_id} not found", code="job_not_found")
            if job["status"] not in repo.ACTIVE_JOB:
                return job
            updated = repo.update_job(
                conn, workspace_id, job_id, {"status": "cancelled", "completed_at": _now()}
            )
            for document_id in job["document_ids"]:
                doc = repo.get(conn, workspace_id, document_id)
                if doc is not None and doc["status"] in ("pending", "processing"):
                    repo.update(conn, workspace_id, document_id,
                                {"status": "failed", "error_message": "cancelled"})  # fmt: skip
        assert updated is not None
        return updated

    # ------------------------------------------------------------------ lifecycle
    def reprocess(
        self, workspace_id: str, document_id: str, options: dict[str, Any] | None
    ) -> tuple[dict, dict]:
        """Derive the document again (new options, or a fixed parser): the same chunks resolve to the same
        memories, and memories of the earlier run that the new one no longer derives are retired."""
        options = check_options(dict(options or {}))
        with self.db.transaction() as conn:
            doc = repo.get(conn, workspace_id, document_id, lock=True)
            if doc is None:
                raise NotFound(f"document {document_id} not found", code="document_not_found")
            merged = {**doc["extraction_options"], **options}
            changes: dict[str, Any] = {
                "status": "pending",
                "extraction_options": merged,
                "error_message": None,
                "processing_started_at": None,
                "processing_completed_at": None,
            }
            if options.get("target_context_id"):
                changes["target_context_id"] = options["target_context_id"]
            doc = repo.update(conn, workspace_id, document_id, changes)
            job = repo.create_job(conn, workspace_id, f"job_{uuid.uuid4().hex[:20]}", [document_id],
                                  {"reprocess": True})  # fmt: skip
        assert doc is not None
        self._dispatch(workspace_id, job["id"], from_bucket=False)
        return doc, job

    def verify(self, workspace_id: str, document_id: str) -> dict[str, Any]:
        """Re-check the stored bytes against the document's hash; a document whose bytes are intact but that
        never completed is run again (a new job), one whose bytes are gone or changed is marked failed."""
        doc = self.get(workspace_id, document_id)
        try:
            data = self.blobs.get(doc["storage_key"], max_bytes=self.settings.document_max_upload_bytes)
            intact = hashlib.sha256(data).hexdigest() == doc["content_hash"]
            problem = None if intact else "the stored bytes do not match the document's hash"
        except (BlobNotFound, ValueError) as exc:
            intact, problem = False, f"the stored bytes cannot be read: {exc.__class__.__name__}"
        job_id: str | None = None
        if not intact:
            with self.db.transaction() as conn:
                repo.update(conn, workspace_id, document_id, {"status": "failed", "error_message": problem})
        elif doc["status"] != "completed":
            with self.db.connection() as conn:
                active = repo.latest_job(conn, workspace_id, document_id, active=True)
            if active is None:
                _, job = self.reprocess(workspace_id, document_id, None)
                job_id = job["id"]
        return {
            "task_id": job_id,
            "mode": "document",
            "scheduled": job_id is not None,
            "document_id": document_id,
            "intact": intact,
            "problem": problem,
        }

    def delete(self, workspace_id: str, document_id: str, *, delete_memories: bool) -> dict:
        """The document, its pages and its stored bytes; with ``delete_memories`` also the memories derived
        from it (forgotten as any memory is: soft-deleted, their relation evidence retired by the database)."""
        with self.db.transaction() as conn:
            doc = repo.delete(conn, workspace_id, document_id)
            if doc is None:
                raise NotFound(f"document {document_id} not found", code="document_not_found")
            for job in repo.list_jobs(conn, workspace_id, status=None, limit=1000, offset=0):
                if document_id in job["document_ids"] and job["status"] in repo.ACTIVE_JOB:
                    repo.update_job(
                        conn, workspace_id, job["id"], {"status": "cancelled", "completed_at": _now()}
                    )
            if delete_memories:
                for memory_id in doc["memory_ids"]:
                    memories_repo.soft_delete(conn, Scope.of(workspace_id), memory_id)
        self.blobs.delete(doc["storage_key"])
        return doc


def _now() -> datetime:
    return datetime.now(UTC)
