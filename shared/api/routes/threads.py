"""/v1/threads (conversation threads) and /v1/jobs (extraction job status)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Query, Response

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import JobIdPath, MessageIdPath, Offset, ThreadIdPath
from shared.core.errors import NotFound, PayloadTooLarge
from shared.db.threads import NewMessage
from shared.domain.memories import serialize
from shared.domain.requests import MessagesAppend, ThreadCreate, ThreadUpdate

router = APIRouter(prefix="/v1", tags=["threads"])


@router.post("/threads", status_code=201, response_model=schemas.ThreadEnvelope)
def create_thread(body: ThreadCreate, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """Start a conversation thread; appended messages feed memory extraction."""
    fields = body.model_dump(exclude={"id", "workspace_id"}, exclude_none=True)
    row = svc.threads.create(caller.workspace(body.workspace_id), body.id, fields, tenant_id=caller.tenant_id)
    return schemas.ThreadEnvelope.model_construct(thread=schemas.Thread.from_row(row))


@router.get("/threads", response_model=schemas.ThreadList)
def list_threads(
    caller: CallerDep,
    svc: ServicesDep,
    user_id: Annotated[str | None, Query(description="Only this user's threads.")] = None,
    limit: Annotated[int, Query(ge=1, le=500, description="How many at most.")] = 50,
    offset: Offset = 0,
) -> schemas.ThreadList:
    """The workspace's threads, optionally one user's."""
    rows = svc.threads.list(caller.workspace(), user_id=user_id, limit=limit, offset=offset)
    threads = [schemas.Thread.from_row(r) for r in rows]
    return schemas.ThreadList.model_construct(threads=threads, total_count=len(rows))


@router.get("/threads/{thread_id}", response_model=schemas.ThreadEnvelope)
def get_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """One thread (without its messages: see /full or /messages)."""
    row = svc.threads.get(caller.workspace(), thread_id)
    return schemas.ThreadEnvelope.model_construct(thread=schemas.Thread.from_row(row))


@router.put("/threads/{thread_id}", response_model=schemas.ThreadEnvelope)
def update_thread(
    thread_id: ThreadIdPath, body: ThreadUpdate, caller: CallerDep, svc: ServicesDep
) -> schemas.ThreadEnvelope:
    """Change a thread's title, metadata or idle action."""
    row = svc.threads.update(caller.workspace(), thread_id, body.model_dump(exclude_unset=True))
    return schemas.ThreadEnvelope.model_construct(thread=schemas.Thread.from_row(row))


@router.delete("/threads/{thread_id}", status_code=204)
def delete_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> Response:
    """Delete a thread and its messages (memories already extracted from it stay)."""
    svc.threads.delete(caller.workspace(), thread_id)
    return Response(status_code=204)


@router.get("/threads/{thread_id}/full", response_model=schemas.ThreadFull)
def thread_full(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadFull:
    """A thread with all its messages."""
    ws = caller.workspace()
    thread = svc.threads.get(ws, thread_id)
    messages, total = svc.threads.messages(ws, thread_id, limit=100_000)
    return schemas.ThreadFull.model_construct(
        thread=schemas.Thread.from_row(thread),
        messages=[schemas.Message.from_row(m) for m in messages],
        total_messages=total,
    )


@router.post("/threads/{thread_id}/messages", status_code=201, response_model=schemas.MessagesAppended)
def append_messages(
    thread_id: ThreadIdPath,
    body: MessagesAppend,
    caller: CallerDep,
    svc: ServicesDep,
    background: BackgroundTasks,
) -> schemas.MessagesAppended:
    """Append messages (idempotent per message `id`); queues an extraction job, to poll at /v1/jobs/{job_id}."""
    limit = svc.settings.max_content_bytes
    new = []
    for m in body.messages:
        content = (
            m.content if isinstance(m.content, str) else [p.model_dump(exclude_none=True) for p in m.content]
        )
        size = len(serialize.canonical_json(content).encode())
        if size > limit:
            raise PayloadTooLarge(
                f"a message is {size} bytes; the limit is {limit}", code="content_too_large"
            )
        new.append(NewMessage(m.role, content, m.metadata, m.id))
    stored, job = svc.threads.append(caller.workspace(), thread_id, new)
    if job is not None:
        # Durable already (the job row is the outbox): enqueue after the response is sent.
        background.add_task(svc.threads.enqueue, job)
    return schemas.MessagesAppended.model_construct(
        messages=[schemas.Message.from_row(m) for m in stored],
        thread_id=thread_id,
        new_message_count=sum(1 for m in stored if job and m["message_index"] >= job["from_index"]),
        job_id=job["id"] if job else None,
    )


@router.get("/threads/{thread_id}/messages", response_model=schemas.MessagePage)
def list_messages(
    thread_id: ThreadIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most.")] = 100,
    offset: Offset = 0,
    after_index: Annotated[
        int | None, Query(ge=-1, description="Only messages after this index (-1: from the start).")
    ] = None,
    order: Annotated[
        str, Query(pattern="^(asc|desc)$", description="asc (default) or desc by message index.")
    ] = "asc",
) -> schemas.MessagePage:
    """A page of a thread's messages, by index."""
    rows, total = svc.threads.messages(
        caller.workspace(), thread_id, limit=limit, offset=offset, after_index=after_index, order=order
    )
    messages = [schemas.Message.from_row(m) for m in rows]
    return schemas.MessagePage.model_construct(messages=messages, thread_id=thread_id, total_count=total)


@router.delete("/threads/{thread_id}/messages/{message_id}", status_code=204)
def delete_message(
    thread_id: ThreadIdPath, message_id: MessageIdPath, caller: CallerDep, svc: ServicesDep
) -> Response:
    """Delete one message of a thread."""
    svc.threads.delete_message(caller.workspace(), thread_id, message_id)
    return Response(status_code=204)


@router.post("/threads/{thread_id}/decompose")
def decompose(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Queue extraction of the messages not yet read (what appending does on its own)."""
    return svc.threads.decompose(caller.workspace(), thread_id)


@router.get("/jobs/{job_id}", response_model=schemas.JobEnvelope)
def get_job(job_id: JobIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.JobEnvelope:
    """An extraction job's status: wrapped, and flat too (the SDK reads the top level)."""
    row = svc.threads.job(job_id)
    if not caller.lookup_scope().allows(row["workspace_id"]):
        raise NotFound(f"job {job_id} not found", code="job_not_found")
    job = schemas.Job.from_row(row)
    return schemas.JobEnvelope.model_construct(job=job, **dict(job))
