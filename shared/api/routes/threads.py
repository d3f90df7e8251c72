"""/v1/threads (conversation threads) and /v1/jobs (extraction job status)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Path, Query, Response

from shared.api import schemas
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import JobIdPath, MessageIdPath, Offset, ThreadIdPath
from shared.core.errors import NotFound, PayloadTooLarge
from shared.db.scope import Scope
from shared.db.threads import NewMessage, ThreadFilter
from shared.domain.memories import serialize
from shared.domain.requests import MessagesAppend, ThreadCreate, ThreadUpdate

router = APIRouter(prefix="/v1", tags=["threads"])


@router.post("/threads", status_code=201, response_model=schemas.ThreadEnvelope)
def create_thread(body: ThreadCreate, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """Start a conversation thread; appended messages feed memory extraction."""
    fields = body.model_dump(exclude={"id", "workspace_id"}, exclude_none=True)
    row = svc.threads.create(caller.workspace(body.workspace_id), body.id, fields, tenant_id=caller.tenant_id)
    return schemas.ThreadEnvelope.of(row)


# The listing filters, as the reference declares them on GET /v1/threads and GET /v1/threads/user/{user_id}.
ListLimit = Annotated[int, Query(ge=1, le=500, description="How many at most.")]
ScopeFilter = Annotated[
    str | None,
    Query(
        pattern="^(web|office)$",
        description="Only this surface: `web` (also threads with no scope) or `office`.",
    ),
]
IncludeHidden = Annotated[bool, Query(description="Include archived (hidden) threads, for an Archived view.")]
ParentThreadFilter = Annotated[
    str | None,
    Query(
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$",
        description="List this thread's sub-threads (left out: top-level threads only).",
    ),
]
OWNERSHIP = "^(user|workspace)$"


def _thread_list(rows: list[dict]) -> schemas.ThreadList:
    threads = [schemas.Thread.from_row(r) for r in rows]
    return schemas.ThreadList.model_construct(threads=threads, total_count=len(rows))


@router.get("/threads", response_model=schemas.ThreadList)
def list_threads(
    caller: CallerDep,
    svc: ServicesDep,
    user_id: Annotated[str | None, Query(description="Only this user's threads.")] = None,
    limit: ListLimit = 50,
    offset: Offset = 0,
    scope_filter: ScopeFilter = None,
    ownership_filter: Annotated[
        str | None,
        Query(pattern=OWNERSHIP, description="Only threads owned this way: `user` or `workspace`."),
    ] = None,
    include_hidden: IncludeHidden = False,
    parent_thread: ParentThreadFilter = None,
) -> schemas.ThreadList:
    """The workspace's top-level, unarchived threads (or one thread's sub-threads), optionally filtered."""
    keep = ThreadFilter(user_id, scope_filter, ownership_filter, include_hidden, parent_thread)
    return _thread_list(svc.threads.list(Scope.of(caller.workspace()), keep, limit=limit, offset=offset))


@router.get("/threads/user/{user_id}", response_model=schemas.ThreadList)
def list_user_threads(
    user_id: Annotated[
        str, Path(min_length=1, max_length=255, description="The user whose threads to list.")
    ],
    caller: CallerDep,
    svc: ServicesDep,
    ownership: Annotated[
        str, Query(pattern=OWNERSHIP, description="`user` (default) or `workspace`-owned threads.")
    ] = "user",
    scope_filter: ScopeFilter = None,
    limit: ListLimit = 50,
    offset: Offset = 0,
    include_hidden: IncludeHidden = False,
    parent_thread: ParentThreadFilter = None,
) -> schemas.ThreadList:
    """One user's threads across every workspace this key may see (no workspace is needed)."""
    keep = ThreadFilter(user_id, scope_filter, ownership, include_hidden, parent_thread)
    return _thread_list(svc.threads.list(caller.visible_scope(), keep, limit=limit, offset=offset))


@router.get("/threads/{thread_id}", response_model=schemas.ThreadEnvelope)
def get_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """One thread (without its messages: see /full or /messages)."""
    row = svc.threads.find(caller.thread_homes(), thread_id)
    return schemas.ThreadEnvelope.of(row)


@router.put("/threads/{thread_id}", response_model=schemas.ThreadEnvelope)
def update_thread(
    thread_id: ThreadIdPath, body: ThreadUpdate, caller: CallerDep, svc: ServicesDep
) -> schemas.ThreadEnvelope:
    """Change a thread's title, metadata or idle action."""
    row = svc.threads.update(caller.workspace(), thread_id, body.model_dump(exclude_unset=True))
    return schemas.ThreadEnvelope.of(row)


@router.delete("/threads/{thread_id}", status_code=204)
def delete_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> Response:
    """Delete a thread and its messages (memories already extracted from it stay)."""
    svc.threads.delete(caller.workspace(), thread_id)
    return Response(status_code=204)


@router.get("/threads/{thread_id}/full", response_model=schemas.ThreadFull)
def thread_full(
    thread_id: ThreadIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many messages at most.")] = 100,
    offset: Offset = 0,
    order: Annotated[
        str, Query(pattern="^(asc|desc)$", description="asc (default) or desc by message index.")
    ] = "asc",
) -> schemas.ThreadFull:
    """A thread with a page of its messages (the first 100 by default); `total_messages` counts them all."""
    thread = svc.threads.find(caller.thread_homes(), thread_id)
    messages, total = svc.threads.messages(
        thread["workspace_id"], thread_id, limit=limit, offset=offset, order=order
    )
    return schemas.ThreadFull.model_construct(
        thread=schemas.Thread.from_row(thread),
        messages=[schemas.Message.from_row(m) for m in messages],
        total_messages=total,
    )


@router.post("/threads/{thread_id}/archive", response_model=schemas.ThreadEnvelope)
def archive_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """Hide a thread from the default listings without deleting it; still readable by id, extraction
    unchanged. Restore brings it back, and so does a new message."""
    row = svc.threads.set_hidden(caller.workspace(), thread_id, hidden=True)
    return schemas.ThreadEnvelope.of(row)


@router.post("/threads/{thread_id}/restore", response_model=schemas.ThreadEnvelope)
def restore_thread(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.ThreadEnvelope:
    """Bring an archived thread back into the default listings."""
    row = svc.threads.set_hidden(caller.workspace(), thread_id, hidden=False)
    return schemas.ThreadEnvelope.of(row)


@router.post("/threads/{thread_id}/messages", status_code=201, response_model=schemas.MessagesAppended)
def append_messages(
    thread_id: ThreadIdPath,
    body: MessagesAppend,
    caller: CallerDep,
    svc: ServicesDep,
    background: BackgroundTasks,
) -> schemas.MessagesAppended:
    """Append messages (idempotent per message `id`), creating the thread on its first append; queues an
    extraction job, to poll at /v1/jobs/{job_id}."""
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
        new.append(NewMessage(m.role, content, m.metadata, m.id, m.name, m.speaker_id, m.said_at))
    stored, job = svc.threads.append(caller.workspace(), thread_id, new, tenant_id=caller.tenant_id)
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
    home = svc.threads.find(caller.thread_homes(), thread_id)["workspace_id"]
    rows, total = svc.threads.messages(
        home, thread_id, limit=limit, offset=offset, after_index=after_index, order=order
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


@router.post("/threads/{thread_id}/decompose", response_model=schemas.Decomposed)
def decompose(thread_id: ThreadIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.Decomposed:
    """Extract, now, from the messages not yet read (what appending queues on its own)."""
    return schemas.Decomposed.model_construct(**svc.threads.decompose(caller.workspace(), thread_id))


@router.get("/jobs/{job_id}", response_model=schemas.JobEnvelope)
def get_job(job_id: JobIdPath, caller: CallerDep, svc: ServicesDep) -> schemas.JobEnvelope:
    """An extraction job's status: wrapped, and flat too (the SDK reads the top level)."""
    row = svc.threads.job(job_id)
    if not caller.lookup_scope().allows(row["workspace_id"]):
        raise NotFound(f"job {job_id} not found", code="job_not_found")
    job = schemas.Job.from_row(row)
    return schemas.JobEnvelope.model_construct(job=job, **dict(job))
