"""/v1/threads (conversation threads, API.md §16) and /v1/jobs (extraction job status)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Query, Response

from shared.api.deps import CallerDep, ServicesDep
from shared.errors import NotFound, PayloadTooLarge
from shared.memories import serialize
from shared.models import MessagesAppend, NewMessage, ThreadCreate, ThreadUpdate

router = APIRouter(prefix="/v1", tags=["threads"])


def thread_out(row: dict) -> dict[str, Any]:
    out = {
        k: row[k]
        for k in (
            "id",
            "workspace_id",
            "tenant_id",
            "user_id",
            "context_id",
            "observer_id",
            "subject_id",
            "title",
            "metadata",
            "scope",
            "ownership",
            "parent_thread",
            "message_count",
            "last_decomposed_index",
            "idle_action",
            "summary",
        )
    }
    for key in ("last_decomposed_at", "expires_at", "hidden_at", "created_at", "updated_at"):
        out[key] = serialize.iso(row[key])
    return out


def message_out(row: dict) -> dict[str, Any]:
    return {
        "id": row["id"],
        "thread_id": row["thread_id"],
        "message_index": row["message_index"],
        "role": row["role"],
        "content": row["content"],
        "metadata": row["metadata"],
        "client_message_id": row["client_message_id"],
        "created_at": serialize.iso(row["created_at"]),
    }


def job_out(row: dict) -> dict[str, Any]:
    return {
        "id": row["id"],
        "job_id": row["id"],
        "workspace_id": row["workspace_id"],
        "thread_id": row["thread_id"],
        "from_index": row["from_index"],
        "to_index": row["to_index"],
        "status": row["status"],
        "attempts": row["attempts"],
        "error": row["error"],
        "result": row["result"],
        "created_at": serialize.iso(row["created_at"]),
        "started_at": serialize.iso(row["started_at"]),
        "finished_at": serialize.iso(row["finished_at"]),
    }


@router.post("/threads", status_code=201)
def create_thread(body: ThreadCreate, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    fields = body.model_dump(exclude={"id", "workspace_id"}, exclude_none=True)
    row = svc.threads.create(caller.workspace(body.workspace_id), body.id, fields, tenant_id=caller.tenant_id)
    return {"thread": thread_out(row)}


@router.get("/threads")
def list_threads(
    caller: CallerDep,
    svc: ServicesDep,
    user_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    rows = svc.threads.list(caller.workspace(), user_id=user_id, limit=limit, offset=offset)
    return {"threads": [thread_out(r) for r in rows], "total_count": len(rows)}


@router.get("/threads/{thread_id}")
def get_thread(thread_id: str, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return {"thread": thread_out(svc.threads.get(caller.workspace(), thread_id))}


@router.put("/threads/{thread_id}")
def update_thread(thread_id: str, body: ThreadUpdate, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    row = svc.threads.update(caller.workspace(), thread_id, body.model_dump(exclude_unset=True))
    return {"thread": thread_out(row)}


@router.delete("/threads/{thread_id}", status_code=204)
def delete_thread(thread_id: str, caller: CallerDep, svc: ServicesDep) -> Response:
    svc.threads.delete(caller.workspace(), thread_id)
    return Response(status_code=204)


@router.get("/threads/{thread_id}/full")
def thread_full(thread_id: str, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    ws = caller.workspace()
    thread = svc.threads.get(ws, thread_id)
    messages, total = svc.threads.messages(ws, thread_id, limit=100_000)
    return {
        "thread": thread_out(thread),
        "messages": [message_out(m) for m in messages],
        "total_messages": total,
    }


@router.post("/threads/{thread_id}/messages", status_code=201)
def append_messages(
    thread_id: str, body: MessagesAppend, caller: CallerDep, svc: ServicesDep, background: BackgroundTasks
) -> dict[str, Any]:
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
    return {
        "messages": [message_out(m) for m in stored],
        "thread_id": thread_id,
        "new_message_count": sum(1 for m in stored if job and m["message_index"] >= job["from_index"]),
        "job_id": job["id"] if job else None,
    }


@router.get("/threads/{thread_id}/messages")
def list_messages(
    thread_id: str,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
    after_index: Annotated[int | None, Query(ge=-1)] = None,
    order: Annotated[str, Query(pattern="^(asc|desc)$")] = "asc",
) -> dict[str, Any]:
    rows, total = svc.threads.messages(
        caller.workspace(), thread_id, limit=limit, offset=offset, after_index=after_index, order=order
    )
    return {"messages": [message_out(m) for m in rows], "thread_id": thread_id, "total_count": total}


@router.delete("/threads/{thread_id}/messages/{message_id}", status_code=204)
def delete_message(thread_id: str, message_id: str, caller: CallerDep, svc: ServicesDep) -> Response:
    svc.threads.delete_message(caller.workspace(), thread_id, message_id)
    return Response(status_code=204)


@router.post("/threads/{thread_id}/decompose")
def decompose(thread_id: str, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    return svc.threads.decompose(caller.workspace(), thread_id)


@router.get("/jobs/{job_id}")
def get_job(job_id: str, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    row = svc.threads.job(job_id)
    if not caller.lookup_scope().allows(row["workspace_id"]):
        raise NotFound(f"job {job_id} not found", code="job_not_found")
    return {"job": job_out(row), **job_out(row)}
