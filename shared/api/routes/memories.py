"""/v1/memories: remember, get, update, forget, list, recall, batch, decay, revisions, associations, traverse."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Header, Query, Response
from fastapi.responses import JSONResponse

from shared.api.deps import CallerDep, ServicesDep
from shared.db.scope import Scope
from shared.memories import serialize
from shared.models import (
    AnswerRequest,
    AssociationCreate,
    AssociationUpdate,
    BatchRequest,
    DecayRequest,
    MemoryCreate,
    MemoryUpdate,
    RecallRequest,
    ReflectRequest,
    TraverseRequest,
)

router = APIRouter(prefix="/v1/memories", tags=["memories"])

NO_LLM_REFLECTION = (
    "Memory synthesis requires LLM integration, and none is configured; the source memories are returned "
    "as evidence instead."
)


def _with_etag(body: dict[str, Any], row: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"ETag": serialize.etag(row)})


@router.post("", status_code=201)
def remember(
    body: MemoryCreate,
    caller: CallerDep,
    svc: ServicesDep,
    idempotency_key: Annotated[str | None, Header(max_length=255)] = None,
    if_none_match: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    row, _created, replayed = svc.memories.remember(
        caller.workspace(body.workspace_id),
        body,
        idempotency_key=idempotency_key,
        if_none_match=if_none_match,
        tenant_id=caller.tenant_id,
    )
    memory = serialize.memory(row, embedding=True)
    # As the reference: the report only when a relation was written, tried or refused; never persisted.
    written = row.get("relation_write_result")
    memory["relation_write_result"] = written.as_wire() if written is not None and written.any() else None
    return _with_etag({"memory": memory, "replayed": replayed}, row, 201)


@router.get("")
def list_memories(
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
    type: str | None = None,
    subtype: str | None = None,
    tag: str | None = None,
    context_id: str | None = None,
    sequence_key: str | None = None,
    include_embeddings: bool = False,
) -> dict[str, Any]:
    rows = svc.memories.list(
        Scope.of(caller.workspace()),
        limit=limit,
        offset=offset,
        type_=type,
        subtype=subtype,
        tag=tag,
        context_id=context_id,
        sequence_key=sequence_key,
        embedding=include_embeddings,
    )
    memories = [serialize.memory(r, embedding=include_embeddings) for r in rows]
    return {"memories": memories, "total_count": len(memories)}


@router.get("/sequence-keys")
def sequence_keys(caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """Every live stream key of the workspace (e.g. every chat of a LlamaIndex store)."""
    return {"keys": svc.memories.sequence_keys(caller.workspace())}


@router.post("/recall")
def recall(body: RecallRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    workspace = caller.workspace(body.workspace_id)
    workspaces = [workspace]
    # The shared spaces are searched too, as the reference does, but only the caller's tenant's, and the
    # global one only where the caller's key reaches.
    shared_global, user_space = caller.principal.global_space, caller.principal.user_space
    if body.include_global and workspace != shared_global and caller.allows(shared_global):
        workspaces.append(shared_global)
    if body.user_id and body.include_global_user and workspace != user_space and caller.allows(user_space):
        workspaces.append(user_space)
    return svc.recaller.recall(workspaces, body)


@router.post("/answer")
def answer(body: AnswerRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """A grounded answer citing memory ids; abstains (no LLM call) when nothing relevant is found."""
    return svc.answerer.answer([caller.workspace(body.workspace_id)], body)


@router.post("/reflect")
def reflect(body: ReflectRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """The reference's shape over the grounded answer; without an LLM, the evidence and a note saying so."""
    result = svc.answerer.answer(
        [caller.workspace(body.workspace_id)], AnswerRequest(query=body.query, limit=10)
    )
    sources = [e["id"] for e in result["evidence"]] if result["answer"] is None else result["citations"]
    return {
        "reflection": result["answer"] or (NO_LLM_REFLECTION if not result["llm_configured"] else ""),
        "source_memories": sources if body.include_sources else [],
        "evidence": result["evidence"],
        "confidence": {"strong": 0.9, "moderate": 0.6, "weak": 0.3}[result["retrieval_confidence"]]
        if result["answer"]
        else 0.0,
        "tokens_processed": result["generation_summary"]["input_tokens"]
        + result["generation_summary"]["output_tokens"],
        "llm_configured": result["llm_configured"],
        "abstained": result["abstained"],
    }


@router.post("/batch")
def batch(
    body: BatchRequest, caller: CallerDep, svc: ServicesDep, background: BackgroundTasks
) -> dict[str, Any]:
    # The reference ignores the body's workspace_id here; honouring it is the less surprising choice.
    result = svc.memories.batch(caller.workspace(body.workspace_id), body, tenant_id=caller.tenant_id)
    if any(r["type"] == "create" and r["status"] == "success" for r in result["results"]):
        background.add_task(svc.request_vector_indexing)
    return result


@router.get("/{memory_id}")
def get_memory(
    memory_id: str,
    caller: CallerDep,
    svc: ServicesDep,
    include_deleted: bool = False,
    include_embeddings: bool = False,
) -> JSONResponse:
    row = svc.memories.get(caller.lookup_scope(), memory_id, include_deleted=include_deleted)
    return _with_etag({"memory": serialize.memory(row)}, row)


@router.put("/{memory_id}")
def update_memory(
    memory_id: str,
    body: MemoryUpdate,
    caller: CallerDep,
    svc: ServicesDep,
    if_match: Annotated[str | None, Header()] = None,
) -> JSONResponse:
    row = svc.memories.update(caller.lookup_scope(), memory_id, body, if_match=if_match)
    return _with_etag({"memory": serialize.memory(row)}, row)


@router.delete("/{memory_id}", status_code=204)
def forget(memory_id: str, caller: CallerDep, svc: ServicesDep, hard: bool = False) -> Response:
    svc.memories.forget(caller.lookup_scope(), memory_id, hard=hard)
    return Response(status_code=204)


@router.get("/{memory_id}/revisions")
def revisions(
    memory_id: str,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    page_token: Annotated[str | None, Query(pattern=r"^\d{1,9}$")] = None,
) -> dict[str, Any]:
    rows = svc.memories.revisions(
        caller.lookup_scope(), memory_id, limit=limit + 1, after=int(page_token or 0)
    )
    page = rows[:limit]
    return {
        "revisions": [
            {
                "memory": r["snapshot"],
                "revision": r["revision"],
                "action": r["action"],
                "operation_id": r["operation_id"],
                "created_at": serialize.iso(r["created_at"]),
            }
            for r in page
        ],
        "next_page_token": str(page[-1]["revision"]) if len(rows) > limit else None,
    }


@router.post("/{memory_id}/decay")
def decay(
    memory_id: str, caller: CallerDep, svc: ServicesDep, body: DecayRequest | None = None
) -> dict[str, Any]:
    body = body or DecayRequest()
    row = svc.memories.decay(caller.lookup_scope(body.workspace_id), memory_id, body.decay_rate)
    return {"memory": serialize.memory(row)}


@router.post("/{memory_id}/associate", status_code=201)
def associate(memory_id: str, body: AssociationCreate, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    row, _created = svc.memories.associate(
        caller.lookup_scope(body.workspace_id),
        memory_id,
        body.target_id,
        body.relationship,
        body.strength,
        body.metadata,
    )
    edge = serialize.association(row)
    # Wrapped for the API, and flat too: SDK 0.2.1 builds `Association(**data)` from the top level.
    return {"association": edge, **edge}


@router.get("/{memory_id}/associations")
def associations(
    memory_id: str,
    caller: CallerDep,
    svc: ServicesDep,
    relationships: str | None = None,
    direction: Annotated[str, Query(pattern="^(both|outgoing|incoming)$")] = "both",
) -> dict[str, Any]:
    # Relationship names are lowercase; accept any case rather than silently matching nothing.
    wanted = [r.strip().lower() for r in (relationships or "").split(",") if r.strip()]
    rows = svc.memories.associations(
        caller.lookup_scope(), memory_id, direction=direction, relationships=wanted
    )
    edges = [serialize.association(r) for r in rows]
    return {"associations": edges, "total_count": len(edges)}


@router.patch("/{memory_id}/associations/{association_id}", status_code=204)
def update_association(
    memory_id: str, association_id: str, body: AssociationUpdate, caller: CallerDep, svc: ServicesDep
) -> Response:
    svc.memories.update_association(caller.lookup_scope(), memory_id, association_id, body.model_dump())
    return Response(status_code=204)


@router.delete("/{memory_id}/associations/{association_id}", status_code=204)
def delete_association(memory_id: str, association_id: str, caller: CallerDep, svc: ServicesDep) -> Response:
    svc.memories.delete_association(caller.lookup_scope(), memory_id, association_id)
    return Response(status_code=204)


@router.post("/{memory_id}/traverse")
def traverse(
    memory_id: str, caller: CallerDep, svc: ServicesDep, body: TraverseRequest | None = None
) -> dict[str, Any]:
    body = body or TraverseRequest()
    started = time.perf_counter()
    result = svc.memories.traverse(
        caller.lookup_scope(body.workspace_id),
        memory_id,
        max_depth=body.max_depth,
        relationship_types=[r.lower() for r in body.relationship_types],
        direction=body.direction,
        min_strength=body.min_strength,
    )
    result["query_latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return result
