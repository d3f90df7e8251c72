"""/v1/documents: upload (multipart, or a presigned URL for large files), documents, pages, page search,
ingestion jobs, reprocess, verify, delete. Fixed paths come before ``/{document_id}``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Path, Query, UploadFile
from fastapi.concurrency import run_in_threadpool

from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import JobIdPath, Offset
from shared.api.schemas import documents as wire
from shared.domain.documents.requests import PageSearch, Reprocess, UploadRequest

router = APIRouter(prefix="/v1/documents", tags=["documents"])

DocumentIdPath = Annotated[str, Path(description="The document's id.")]
PageIdPath = Annotated[str, Path(description="The page's id.")]
Limit = Annotated[int, Query(ge=1, le=200, description="How many at most.")]


def _accepted(doc: dict, job: dict) -> wire.DocumentAccepted:
    return wire.DocumentAccepted.model_construct(
        document=wire.Document.from_row(doc), job=wire.IngestionJob.from_row(job)
    )


@router.post("", status_code=202, response_model=wire.DocumentAccepted)
async def upload_document(
    caller: CallerDep,
    svc: ServicesDep,
    file: Annotated[UploadFile, File(description="The document file.")],
    document_type: Annotated[str | None, Form(description="Override the detected type.")] = None,
    target_context_id: Annotated[str | None, Form(description="The context its memories go to.")] = None,
    chunk_size: Annotated[int | None, Form(description="Largest chunk (one memory), in characters.")] = None,
    importance: Annotated[float | None, Form(description="Importance of its memories, 0-1.")] = None,
    retain_original: Annotated[bool | None, Form(description="Accepted; the bytes are always kept.")] = None,
    chunking_strategy: Annotated[str | None, Form(description="Accepted; chunks follow paragraphs.")] = None,
    chunk_overlap: Annotated[int | None, Form(description="Accepted; chunks do not overlap.")] = None,
) -> wire.DocumentAccepted:
    """Store a document (at most ``document_max_bytes``) and queue its ingestion; poll the job or document."""
    data = await file.read()
    options = {k: v for k, v in {"target_context_id": target_context_id, "chunk_size": chunk_size,
               "importance": importance}.items() if v is not None}  # fmt: skip
    # Sniff, parse (a child process), database and store block: on the threadpool, never on the event loop.
    doc, job = await run_in_threadpool(
        svc.documents.upload, caller.workspace(), data, file.filename, file.content_type, options,
        document_type=document_type, tenant_id=caller.tenant_id,
    )  # fmt: skip
    return _accepted(doc, job)


@router.post(
    "/uploads",
    status_code=201,
    response_model=wire.PresignedUpload,
    responses={422: {"description": "`presigned_upload_not_supported`: this server has no document bucket."}},
)
def presign_upload(body: UploadRequest, caller: CallerDep, svc: ServicesDep) -> wire.PresignedUpload:
    """Large files: a presigned POST straight to the bucket; its upload event starts the job."""
    doc, job, post = svc.documents.presign(
        caller.workspace(), body.filename, body.content_type, body.extraction_options or {},
        tenant_id=caller.tenant_id,
    )  # fmt: skip
    return wire.PresignedUpload.model_construct(
        document=wire.Document.from_row(doc), job=wire.IngestionJob.from_row(job), upload_url=post["url"],
        fields=post["fields"], expires_in=post["expires_in"], max_bytes=svc.settings.document_max_upload_bytes,
    )  # fmt: skip


@router.get("", response_model=wire.DocumentList)
def list_documents(
    caller: CallerDep,
    svc: ServicesDep,
    status: Annotated[str | None, Query(description="Only documents in this status.")] = None,
    document_type: Annotated[str | None, Query(description="Only documents of this type.")] = None,
    workspace_id: Annotated[str | None, Query(description="The workspace (default: the caller's).")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> wire.DocumentList:
    """The workspace's documents, newest first."""
    rows, total = svc.documents.list(
        caller.workspace(workspace_id), status=status, document_type=document_type, limit=limit, offset=offset
    )
    return wire.DocumentList.model_construct(
        documents=[wire.Document.from_row(r) for r in rows], total=total, limit=limit, offset=offset
    )


@router.get("/jobs", response_model=wire.IngestionJobList)
def list_jobs(
    caller: CallerDep,
    svc: ServicesDep,
    status: Annotated[str | None, Query(description="Only jobs in this status.")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> wire.IngestionJobList:
    """The workspace's ingestion jobs, newest first."""
    rows = svc.documents.jobs(caller.workspace(), status=status, limit=limit, offset=offset)
    jobs = [wire.IngestionJob.from_row(r) for r in rows]
    return wire.IngestionJobList.model_construct(jobs=jobs, total=len(jobs), limit=limit, offset=offset)


@router.get("/jobs/{job_id}", response_model=wire.IngestionJob)
def get_job(job_id: JobIdPath, caller: CallerDep, svc: ServicesDep) -> wire.IngestionJob:
    """One ingestion job: its status, progress and errors."""
    return wire.IngestionJob.from_row(svc.documents.job(caller.workspace(), job_id))


@router.post("/jobs/{job_id}/cancel", response_model=wire.IngestionJob)
def cancel_job(job_id: JobIdPath, caller: CallerDep, svc: ServicesDep) -> wire.IngestionJob:
    """Cancel a queued or running job (a finished one is answered as it is)."""
    return wire.IngestionJob.from_row(svc.documents.cancel(caller.workspace(), job_id))


@router.post("/search", response_model=wire.PageSearchResult)
def search_pages(body: PageSearch, caller: CallerDep, svc: ServicesDep) -> wire.PageSearchResult:
    """Pages ranked by the similarity of their text embedding to the query's."""
    rows = svc.documents.search(caller.workspace(), body.query, limit=body.limit, document_ids=body.doc_ids)
    pages = [wire.DocumentPage.from_row(r) for r in rows]
    return wire.PageSearchResult.model_construct(pages=pages, total_count=len(pages), query=body.query)


@router.get("/{document_id}", response_model=wire.Document)
def get_document(document_id: DocumentIdPath, caller: CallerDep, svc: ServicesDep) -> wire.Document:
    """One document and its processing status."""
    return wire.Document.from_row(svc.documents.get(caller.workspace(), document_id))


@router.get("/{document_id}/memories", response_model=wire.DocumentMemories)
def document_memories(
    document_id: DocumentIdPath, caller: CallerDep, svc: ServicesDep
) -> wire.DocumentMemories:
    """The live memories derived from the document, with their provenance."""
    rows = svc.documents.memories(caller.workspace(), document_id)
    memories = [wire.DocumentMemory.pick(r) for r in rows]
    return wire.DocumentMemories.model_construct(
        document_id=document_id, memories=memories, total=len(memories)
    )


@router.get("/{document_id}/pages", response_model=wire.DocumentPageList)
def document_pages(document_id: DocumentIdPath, caller: CallerDep, svc: ServicesDep) -> wire.DocumentPageList:
    """The document's pages in order."""
    pages = [wire.DocumentPage.from_row(r) for r in svc.documents.pages(caller.workspace(), document_id)]
    return wire.DocumentPageList.model_construct(pages=pages, total=len(pages))


@router.get("/{document_id}/pages/{page_id}", response_model=wire.DocumentPage)
def document_page(
    document_id: DocumentIdPath, page_id: PageIdPath, caller: CallerDep, svc: ServicesDep
) -> wire.DocumentPage:
    """One page of the document."""
    return wire.DocumentPage.from_row(svc.documents.page(caller.workspace(), document_id, page_id))


@router.post("/{document_id}/reprocess", status_code=202, response_model=wire.ReprocessAccepted)
def reprocess_document(
    document_id: DocumentIdPath, caller: CallerDep, svc: ServicesDep, body: Reprocess | None = None
) -> wire.ReprocessAccepted:
    """Derive the document again (optionally with new options); nothing is duplicated."""
    doc, job = svc.documents.reprocess(caller.workspace(), document_id, body.options() if body else None)
    out = wire.IngestionJob.from_row(job)
    return wire.ReprocessAccepted.model_construct(document=wire.Document.from_row(doc), job=out, **dict(out))


@router.post("/{document_id}/verify", status_code=202, response_model=wire.DocumentVerify)
def verify_document(
    document_id: DocumentIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    workspace_id: Annotated[str | None, Query(description="The workspace (default: the caller's).")] = None,
) -> wire.DocumentVerify:
    """Re-check the stored bytes against the hash; re-run a document that never completed."""
    return wire.DocumentVerify.model_construct(
        **svc.documents.verify(caller.workspace(workspace_id), document_id)
    )


@router.delete("/{document_id}", response_model=wire.DocumentDeleted)
def delete_document(
    document_id: DocumentIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    delete_memories: Annotated[bool, Query(description="Also forget the memories derived from it.")] = False,
) -> wire.DocumentDeleted:
    """Remove the document, its pages and its stored bytes (and, if asked, its memories)."""
    svc.documents.delete(caller.workspace(), document_id, delete_memories=delete_memories)
    return wire.DocumentDeleted.model_construct(deleted=True, document_id=document_id)
