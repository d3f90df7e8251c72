"""Documents, their pages and ingestion jobs (/v1/documents), in the reference's shapes."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared.api.schemas.base import Timestamp, Wire
from shared.api.schemas.fields import CreatedAt, InWorkspace, ObjectId

Meta = dict[str, Any]


class Document(Wire):
    id: ObjectId
    workspace_id: InWorkspace
    filename: str = Field(description="The file's name as kept: its last path component, printable.")
    document_type: str = Field(description="`text`, `markdown`, `code`, `html`, `pdf` or `docx`.")
    content_hash: str = Field(description="SHA-256 of the bytes: the same bytes again are the same document.")
    size_bytes: int = Field(description="The file's size in bytes.")
    mime_type: str | None = Field(description="The content type the upload declared (null: none).")
    source_vfs_ref: str | None = Field(default=None, description="Always null here (no data connectors).")
    status: str = Field(description="`pending`, `processing`, `completed` or `failed`.")
    target_context_id: str = Field(description="The context its memories are written to.")
    page_count: int = Field(description="Pages with text.")
    chunk_count: int = Field(description="Chunks the pages were cut into (one memory each).")
    memory_ids: list[str] = Field(description="The memories derived from it.")
    deduplicated_count: int = Field(description="Chunks that resolved to a memory already stored.")
    error_message: str | None = Field(description="Why processing failed (null: it did not).")
    metadata: Meta = Field(description="The caller's metadata.")
    created_at: CreatedAt
    processing_started_at: Timestamp | None = Field(description="When the last run started.")
    processing_completed_at: Timestamp | None = Field(description="When the last run completed.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Document:
        return cls.pick(row, source_vfs_ref=None)


class DocumentList(Wire):
    documents: list[Document] = Field(description="This page of documents, newest first.")
    total: int = Field(description="Documents matching the filters.")
    limit: int = Field(description="The page size asked for.")
    offset: int = Field(description="How many were skipped.")


class IngestionJob(Wire):
    id: ObjectId
    workspace_id: InWorkspace
    document_ids: list[str] = Field(description="The documents the job processes.")
    status: str = Field(description="`queued`, `running`, `completed`, `failed` or `cancelled`.")
    progress_percent: int = Field(description="0 until done, then 100.")
    documents_processed: int = Field(description="Documents finished.")
    total_memories_created: int = Field(description="Memories the job added (not those it found stored).")
    errors: list[Meta] = Field(description="Each failed attempt: document_id, code, error, attempt, final.")
    metadata: Meta = Field(description="`reprocess`, or `deduplicated` with the `original_document_id`.")
    created_at: CreatedAt
    started_at: Timestamp | None = Field(description="When the first attempt started.")
    completed_at: Timestamp | None = Field(description="When it completed, failed or was cancelled.")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> IngestionJob:
        return cls.pick(row)


class IngestionJobList(Wire):
    jobs: list[IngestionJob] = Field(description="This page of jobs, newest first.")
    total: int = Field(description="Jobs on this page (as the reference counts).")
    limit: int = Field(description="The page size asked for.")
    offset: int = Field(description="How many were skipped.")


class DocumentAccepted(Wire):
    """Upload's answer: the document and the job that processes it."""

    document: Document = Field(description="The document (an earlier one, for the same bytes again).")
    job: IngestionJob = Field(description="Its ingestion job (complete at birth for the same bytes again).")


class ReprocessAccepted(IngestionJob):
    """The job's fields at the top level, which SDK 0.2.1 reads, plus the reference's envelope."""

    document: Document = Field(description="The document, back to `pending`.")
    job: IngestionJob = Field(description="The new ingestion job (the same as the top level).")


class DocumentPage(Wire):
    id: ObjectId
    document_id: str = Field(description="The document it is a page of.")
    workspace_id: InWorkspace
    page_no: int = Field(description="Zero-based page number.")
    transcript: str | None = Field(description="The page's text.")
    transcript_model: str | None = Field(description="What read it: `parser:<document type>`.")
    metadata: Meta = Field(description="`chars` and `chunks` of the page.")
    created_at: Timestamp | None = Field(description="When the page was stored.")
    relevance_score: float | None = Field(
        default=None, description="Search only: cosine similarity to the query."
    )

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> DocumentPage:
        return cls.pick(row, relevance_score=row.get("relevance_score"))


class DocumentPageList(Wire):
    pages: list[DocumentPage] = Field(description="The document's pages in order.")
    total: int = Field(description="How many.")


class PageSearchResult(Wire):
    pages: list[DocumentPage] = Field(description="Pages, most similar first.")
    total_count: int = Field(description="How many were returned.")
    query: str = Field(description="The query, as sent.")


class DocumentMemory(Wire):
    id: ObjectId
    content: str = Field(description="The chunk's text.")
    type: str | None = Field(description="The memory type (`semantic`).")
    subtype: str | None = Field(description="The memory subtype (null).")
    importance: float = Field(description="Its importance, 0-1.")
    tags: list[str] = Field(description="Its tags (`document`).")
    created_at: Timestamp | None = Field(description="When it was written.")
    metadata: Meta = Field(
        description="Provenance: source_document_id, source_page_id, page_no, span [start, end] in the page."
    )


class DocumentMemories(Wire):
    document_id: str = Field(description="The document.")
    memories: list[DocumentMemory] = Field(description="Its live memories, in page and span order.")
    total: int = Field(description="How many.")


class DocumentVerify(Wire):
    task_id: str | None = Field(description="The job that re-runs it (null: none was needed or possible).")
    mode: str = Field(description="Always `document`.")
    scheduled: bool = Field(description="Whether a job was started.")
    document_id: str = Field(description="The document checked.")
    intact: bool = Field(description="Whether the stored bytes match the document's hash.")
    problem: str | None = Field(description="What is wrong with the stored bytes (null: nothing).")


class DocumentDeleted(Wire):
    deleted: bool = Field(description="Always true (an unknown document is a 404).")
    document_id: str = Field(description="The document removed.")


class PresignedUpload(Wire):
    document: Document = Field(description="The document, `pending` until its bytes arrive.")
    job: IngestionJob = Field(description="The job the bucket's upload event starts.")
    upload_url: str = Field(description="POST the form `fields` and then the file (as `file`) here.")
    fields: dict[str, str] = Field(description="Form fields the POST must carry, as given.")
    expires_in: int = Field(description="Seconds the URL is valid for.")
    max_bytes: int = Field(description="The largest file the URL takes.")
