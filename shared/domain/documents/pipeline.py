"""One ingestion job: claim it, read the stored bytes, parse into pages, chunk, embed, write the chunks as
memories through the same writer as extracted memories (dedup, relations, walls), store the pages, finish. The
parse runs in a child process under time and memory limits (isolated.py): over them, the job fails at once.

    >>> DocumentPipeline(db, embedder, blobs, settings).run("ws_a", "job_…", final_attempt=True)  # doctest: +SKIP
    {'status': 'done', 'job_id': 'job_…', 'memories_created': 12, ...}

Delivery is at least once, and a rerun changes nothing: page ids follow from (document, page number) and a
chunk's memory carries (document, page, span) in the metadata its dedup key reads, so the same chunk resolves
to the memory the earlier run wrote. A job that is done or cancelled is skipped; a failed one fails again (its
message goes on to the DLQ, the job keeps the reason). A refusal of the bytes (corrupt, over a limit) fails the
job at once: no retry can change it.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import UTC, datetime
from typing import Any

from shared.core import metering, metrics
from shared.core.errors import InvalidInput, MemoryLayerError, PayloadTooLarge
from shared.core.settings import Settings
from shared.db import documents as repo
from shared.db import memories as memories_repo
from shared.db import usage
from shared.db.pool import Database
from shared.db.rows import one
from shared.db.scope import Scope
from shared.domain.documents import parsers
from shared.domain.documents.chunks import chunks
from shared.domain.documents.isolated import IsolatedParser
from shared.domain.extraction.candidates import Candidate, Provenance
from shared.domain.extraction.writer import MemoryWriter
from shared.providers.blobs import BlobNotFound, BlobStore
from shared.providers.embeddings.base import Embedder

log = logging.getLogger(__name__)
PENDING = "pending:"  # a presigned upload's hash until its bytes arrive (service.pending_hash)
PAGE_EMBED_CHARS = 2000  # what a page's search vector reads: its opening, as embedders read ~256-512 tokens


class JobFailed(MemoryLayerError):
    """The job failed (now, or on an earlier delivery): the message must go on to the DLQ."""

    code = "document_job_failed"


class DocumentNotYetRecorded(MemoryLayerError):
    """An object-created event for bytes whose document row is not committed yet (or never will be: the
    redeliveries then end in the DLQ)."""

    code = "document_not_recorded"


def page_id(document_id: str, page_no: int) -> str:
    return "page_" + hashlib.sha256(f"{document_id}:{page_no}".encode()).hexdigest()[:20]


class DocumentPipeline:
    def __init__(self, db: Database, embedder: Embedder, blobs: BlobStore, settings: Settings) -> None:
        self.db = db
        self.embedder = embedder
        self.blobs = blobs
        self.settings = settings
        self.writer = MemoryWriter(db, embedder, tiers=settings.extractive_tiers_enabled)
        self.limits = parsers.Limits(
            max_pages=settings.document_max_pages,
            max_unpacked_bytes=settings.document_max_unpacked_bytes,
            max_xml_elements=settings.document_max_xml_elements,
            max_pdf_page_tokens=settings.document_pdf_max_page_tokens,
        )
        # Uploads and jobs parse through this one, so its slots bound the children of the whole process.
        self.parser = IsolatedParser(
            self.limits,
            memory_mb=settings.document_parse_memory_mb,
            slots=settings.document_parse_slots,
            python=settings.document_parse_python,
        )

    @metrics.job("document")
    def run(self, workspace_id: str, job_id: str, *, final_attempt: bool) -> dict[str, Any]:
        with self.db.transaction() as conn:
            job = repo.get_job(conn, workspace_id, job_id)
            if job is None:
                return {"status": "skipped", "reason": "no such job", "job_id": job_id}
            if job["status"] == "failed":
                raise JobFailed(f"document job {job_id} failed: {_last_error(job)}")
            claimed = repo.start_job(conn, workspace_id, job_id)
        if claimed is None:
            return {"status": "skipped", "reason": job["status"], "job_id": job_id}
        document_id = claimed["document_ids"][0]
        try:
            with metering.metered(metering.Note()):  # the job's embedding tokens, billed with its pages
                result = self._ingest(workspace_id, job_id, document_id)
        except MemoryLayerError as exc:  # the bytes are refused: no retry can change that
            self._fail(workspace_id, job_id, document_id, exc, final=True)
            raise JobFailed(f"document job {job_id} failed: {exc.message}") from exc
        except Exception as exc:
            self._fail(workspace_id, job_id, document_id, exc, final=final_attempt)
            raise
        return {"status": "done", "job_id": job_id, "document_id": document_id, **result}

    # ------------------------------------------------------------------ the work
    def _ingest(self, workspace_id: str, job_id: str, document_id: str) -> dict[str, Any]:
        with self.db.transaction() as conn:
            doc = repo.get(conn, workspace_id, document_id)
            if doc is None:
                raise InvalidInput(f"document {document_id} no longer exists", code="document_not_found")
            repo.update(
                conn, workspace_id, document_id, {"status": "processing", "processing_started_at": _now()}
            )
        try:
            data = self.blobs.get(doc["storage_key"], max_bytes=self.settings.document_max_upload_bytes)
        except BlobNotFound as exc:
            raise InvalidInput("the uploaded bytes are missing", code="document_missing") from exc
        except ValueError as exc:
            raise PayloadTooLarge(str(exc), code="document_too_large") from exc
        content_hash = hashlib.sha256(data).hexdigest()
        if doc["content_hash"].startswith(PENDING):  # a presigned upload: its bytes are seen here first
            doc, duplicate = self._settle(workspace_id, job_id, doc, data, content_hash)
            if duplicate is not None:
                return {"deduplicated": True, "original_document_id": duplicate}
        elif content_hash != doc["content_hash"]:
            raise InvalidInput("the stored bytes do not match the upload's hash", code="hash_mismatch")
        pages = self.parser.parse(
            doc["document_type"], data, seconds=self.settings.document_job_parse_seconds
        )
        options = doc["extraction_options"] or {}
        size = min(int(options.get("chunk_size") or self.settings.document_chunk_chars),
                   self.settings.document_chunk_chars)  # fmt: skip
        importance = float(options.get("importance", 0.5))
        candidates: list[Candidate] = []
        page_rows: list[dict[str, Any]] = []
        for page in pages:
            pid = page_id(document_id, page.page_no)
            page_chunks = chunks(page.text, size=size)
            page_rows.append(
                {
                    "id": pid,
                    "page_no": page.page_no,
                    "transcript": page.text,
                    "transcript_model": f"parser:{doc['document_type']}",
                    "metadata": {"chars": len(page.text), "chunks": len(page_chunks)},
                }
            )
            for chunk in page_chunks:
                candidates.append(
                    Candidate(
                        content=chunk.text,
                        type="semantic",
                        subtype=None,
                        importance=importance,
                        tags=["document"],
                        metadata={
                            "source_document_id": document_id,
                            "source_page_id": pid,
                            "page_no": page.page_no,
                            "span": [chunk.start, chunk.end],
                            "filename": doc["filename"],
                        },
                    )
                )
        vectors = (
            self.embedder.embed([p["transcript"][:PAGE_EMBED_CHARS] for p in page_rows]) if page_rows else []
        )
        for row, vector in zip(page_rows, vectors, strict=True):
            row["embedding"] = vector
        if self._cancelled(workspace_id, job_id):
            return {"cancelled": True}
        report = self.writer.write(
            workspace_id,
            None,
            candidates,
            Provenance(source="document", context_id=doc["target_context_id"]),
        )
        memory_ids = _ordered(report.added, report.unchanged)
        with self.db.transaction() as conn:
            job = repo.get_job(conn, workspace_id, job_id, lock=True)
            if job is None or job["status"] != "running":  # cancelled meanwhile: keep what is written, say so
                return {"cancelled": True, "memories_created": len(report.added)}
            repo.replace_pages(conn, workspace_id, document_id, page_rows)
            used = metering.current()
            billed = {**(used.counts if used else {}), "document_pages": len(page_rows)}
            usage.add_for_workspace(conn, workspace_id, "document", billed)
            earlier = one(repo.get(conn, workspace_id, document_id, lock=True))["memory_ids"]
            keep = set(memory_ids)
            for old_id in earlier:
                if old_id not in keep:  # derived by an earlier run with other options: retired
                    memories_repo.soft_delete(conn, Scope.of(workspace_id), old_id)
            repo.update(
                conn,
                workspace_id,
                document_id,
                {
                    "status": "completed",
                    "page_count": len(page_rows),
                    "chunk_count": len(candidates),
                    "memory_ids": memory_ids,
                    "deduplicated_count": len(report.unchanged),
                    "error_message": None,
                    "processing_completed_at": _now(),
                },
            )
            repo.update_job(
                conn,
                workspace_id,
                job_id,
                {
                    "status": "completed",
                    "progress_percent": 100,
                    "documents_processed": 1,
                    "total_memories_created": len(report.added),
                    "completed_at": _now(),
                },
            )
        metrics.record(metrics.DOCUMENT_PAGES, len(page_rows))
        return {"pages": len(page_rows), "chunks": len(candidates), "memories_created": len(report.added),
                "memories_unchanged": len(report.unchanged)}  # fmt: skip

    def _settle(
        self, workspace_id: str, job_id: str, doc: dict[str, Any], data: bytes, content_hash: str
    ) -> tuple[dict[str, Any], str | None]:
        """A presigned upload's hash, size and type from its bytes; the same bytes as an earlier document: that
        one stands, this one (row and object) is removed and the job says so."""
        if not data:
            raise InvalidInput("the file is empty (0 bytes)", code="empty_document")
        kind = parsers.detect(doc["filename"], doc["mime_type"], data)
        with self.db.transaction() as conn:
            earlier = repo.by_hash(conn, workspace_id, content_hash)
            if earlier is not None:
                repo.delete(conn, workspace_id, doc["id"])
                repo.update_job(conn, workspace_id, job_id, {
                    "status": "completed", "progress_percent": 100, "documents_processed": 1,
                    "document_ids": [earlier["id"]], "completed_at": _now(),
                    "metadata": {"deduplicated": True, "original_document_id": earlier["id"]},
                })  # fmt: skip
            else:
                changes = {"content_hash": content_hash, "size_bytes": len(data), "document_type": kind}
                doc = one(repo.update(conn, workspace_id, doc["id"], changes))
        if earlier is not None:
            self.blobs.delete(doc["storage_key"])
            return doc, earlier["id"]
        return doc, None

    def run_object(self, storage_key: str, *, final_attempt: bool) -> dict[str, Any]:
        """The bucket's object-created event: the document the key names, and its newest job (a redelivery of
        the event after that job failed must fail again, on to the DLQ)."""
        with self.db.connection() as conn:
            doc = repo.by_storage_key(conn, storage_key)
            job = repo.latest_job(conn, doc["workspace_id"], doc["id"]) if doc else None
        if doc is None or job is None:
            if self.blobs.exists(storage_key):
                # The upload stores its bytes before its rows commit, so the event can come first: retry it.
                raise DocumentNotYetRecorded(f"no document for {storage_key} yet")
            return {"status": "skipped", "reason": "the object is gone", "key": storage_key}
        return self.run(doc["workspace_id"], job["id"], final_attempt=final_attempt)

    def _cancelled(self, workspace_id: str, job_id: str) -> bool:
        with self.db.connection() as conn:
            job = repo.get_job(conn, workspace_id, job_id)
        return job is None or job["status"] != "running"

    def _fail(self, workspace_id: str, job_id: str, document_id: str, exc: Exception, *, final: bool) -> None:
        reason = exc.message if isinstance(exc, MemoryLayerError) else f"{exc.__class__.__name__}: {exc}"
        code = exc.code if isinstance(exc, MemoryLayerError) else "internal_error"
        with self.db.transaction() as conn:
            job = repo.get_job(conn, workspace_id, job_id, lock=True)
            if job is None:
                return
            errors = [*job["errors"], {"document_id": document_id, "code": code, "error": reason,
                                       "attempt": job["attempts"], "final": final}]  # fmt: skip
            changes: dict[str, Any] = {"errors": errors}
            if final:
                changes.update(status="failed", completed_at=_now())
            else:
                changes["status"] = "queued"  # the queue's next delivery claims it again
            repo.update_job(conn, workspace_id, job_id, changes)
            if final:
                repo.update(conn, workspace_id, document_id, {"status": "failed", "error_message": reason})
        log.warning("document job %s failed (final=%s): %s", job_id, final, reason)


def _ordered(*groups: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for group in groups:
        for item in group:
            seen.setdefault(item)
    return list(seen)


def _last_error(job: dict[str, Any]) -> str:
    return str(job["errors"][-1]["error"]) if job["errors"] else "unknown"


def _now() -> datetime:
    return datetime.now(UTC)
