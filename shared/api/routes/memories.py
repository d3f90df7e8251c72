"""/v1/memories: remember, get, update, forget, list, recall, batch, decay, revisions, associations, traverse, and
the conditional writes (versioned delete, restore, semantic replace)."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, BackgroundTasks, Depends, Header, Query, Response

from shared.api import schemas, wire
from shared.api.deps import CallerDep, ServicesDep
from shared.api.routes.params import AssociationIdPath, MemoryIdPath, Offset
from shared.api.routes.resources import CONDITIONAL, IdempotencyKey, IfMatch, required
from shared.api.schemas.memories import MemoryMutation
from shared.core.wire import etag as etag_of
from shared.db.scope import Scope
from shared.domain.memories import serialize, versioned
from shared.domain.requests import (
    AnswerRequest,
    AssociationCreate,
    AssociationUpdate,
    BatchRequest,
    DecayRequest,
    MemoryCreate,
    MemoryReplace,
    MemoryType,
    MemoryUpdate,
    RecallRequest,
    ReflectRequest,
    TraverseRequest,
)

router = APIRouter(prefix="/v1/memories", tags=["memories"])

# Failures listed one by one in a batch's `results`; the rest are only counted and grouped.
BATCH_ERRORS_LISTED = 20

NO_LLM_REFLECTION = (
    "Memory synthesis requires LLM integration, and none is configured; the source memories are returned "
    "as evidence instead."
)


def _include_embedding(
    include_embeddings: Annotated[
        bool, Query(description="Send each memory's embedding vector (384 floats for the default model).")
    ] = False,
    include_embedding: Annotated[bool, Query(description="Same as `include_embeddings`.")] = False,
) -> bool:
    return include_embeddings or include_embedding


# Embeddings are large (a 384-float vector is ~3 KB of JSON) and few clients read them: sent only when asked.
IncludeEmbeddingDep = Annotated[bool, Depends(_include_embedding)]


def json_bytes(body: Any) -> bytes:
    """What FastAPI's JSONResponse writes, without its `jsonable_encoder` walk (the body is JSON-ready). orjson
    first; what it refuses (an int past 64 bits in caller metadata, a float subclass) goes through the stdlib."""
    try:
        return orjson.dumps(body)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def summarise_errors(result: dict[str, Any]) -> dict[str, Any]:
    """Keep every success and the first failures; group all failures by message (each with its indexes)."""
    groups: dict[str, list[int]] = defaultdict(list)
    kept, failures = [], 0
    for item in result["results"]:
        if item["status"] == "error":
            groups[item["error"]].append(item["index"])
            failures += 1
            if failures > BATCH_ERRORS_LISTED:
                continue
        kept.append(item)
    omitted = max(0, failures - BATCH_ERRORS_LISTED)
    summary = [{"error": e, "count": len(ix), "indexes": ix} for e, ix in groups.items()]
    return {**result, "results": kept, "errors_omitted": omitted, "error_summary": summary}


@router.post("", status_code=201, response_model=schemas.RememberResponse)
def remember(
    body: MemoryCreate,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    include_embeddings: IncludeEmbeddingDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            max_length=255,
            description="Makes the write safe to retry: a replay returns the first result (`replayed: "
            "true`).",
        ),
    ] = None,
    if_none_match: Annotated[
        str | None,
        Header(description="`*`: create only if no memory with this Idempotency-Key or logical_key exists."),
    ] = None,
) -> schemas.RememberResponse:
    """Store a memory (deduplicated within the workspace: an identical content returns the stored one).

    Conditional create: send both `Idempotency-Key` and `If-None-Match: *`. The `ETag` header is the memory's.
    """
    if body.scope == "user":
        caller.require_shared_write()
    row, _created, replayed = svc.memories.remember(
        caller.workspace(body.workspace_id),
        body,
        idempotency_key=idempotency_key,
        if_none_match=if_none_match,
        tenant_id=caller.tenant_id,
    )
    response.headers["ETag"] = serialize.etag(row)
    memory = schemas.RememberedMemory.written(row, embedding=include_embeddings)
    return schemas.RememberResponse.model_construct(memory=memory, replayed=replayed)


@router.get("", response_model=schemas.MemoryList)
def list_memories(
    caller: CallerDep,
    svc: ServicesDep,
    include_embeddings: IncludeEmbeddingDep,
    limit: Annotated[int, Query(ge=1, le=1000, description="How many at most.")] = 50,
    offset: Offset = 0,
    type: Annotated[
        MemoryType | None, Query(description="Only memories of this type (an unknown one is a 422).")
    ] = None,
    subtype: Annotated[str | None, Query(description="Only memories of this subtype.")] = None,
    tag: Annotated[str | None, Query(description="Only memories with this tag.")] = None,
    context_id: Annotated[str | None, Query(description="Only memories in this context.")] = None,
    sequence_key: Annotated[
        str | None, Query(description="Only this stream's memories, in `sequence_index` order.")
    ] = None,
) -> schemas.MemoryList:
    """The workspace's memories, newest first (no ranking: use recall to search)."""
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
    memories = [schemas.Memory.from_row(r, embedding=include_embeddings) for r in rows]
    return schemas.MemoryList.model_construct(memories=memories, total_count=len(memories))


@router.get("/sequence-keys", response_model=schemas.SequenceKeys)
def sequence_keys(caller: CallerDep, svc: ServicesDep) -> schemas.SequenceKeys:
    """Every live stream key of the workspace (e.g. every chat of a LlamaIndex store)."""
    return schemas.SequenceKeys.model_construct(keys=svc.memories.sequence_keys(caller.workspace()))


@router.post("/recall", response_model=schemas.RecallResponse)
def recall(body: RecallRequest, caller: CallerDep, svc: ServicesDep) -> Response:
    """Search the workspace (and the shared spaces the key reaches): vector and keyword arms fused, boosted
    by scope and recency, expanded along associations, cut to `limit` and to `budget_tokens`.

    The body is the recaller's result as JSON, unvalidated on this hot path; tests check it against the declared
    `RecallResponse` schema.
    """
    workspace = caller.workspace(body.workspace_id)
    workspaces = [workspace]
    # The shared spaces are searched too, as the reference does, but only the caller's tenant's, and the
    # global one only where the caller's key reaches.
    shared_global, user_space = caller.principal.global_space, caller.principal.user_space
    if body.include_global and workspace != shared_global and caller.allows(shared_global):
        workspaces.append(shared_global)
    if body.user_id and body.include_global_user and workspace != user_space and caller.allows(user_space):
        workspaces.append(user_space)
    return Response(
        json_bytes(lean(wire.recall(svc.recaller.recall(workspaces, body)))), media_type="application/json"
    )


def lean(result: dict[str, Any]) -> dict[str, Any]:
    """The recall result without its null keys, top level and per memory (a memory has ~47 keys, most of them
    null, beside a few dozen bytes of content). The official SDK and ours default every one of them."""
    out = {k: v for k, v in result.items() if v is not None}
    out["memories"] = [{k: v for k, v in m.items() if v is not None} for m in result["memories"]]
    return out


@router.post("/answer", response_model=schemas.AnswerResponse)
def answer(body: AnswerRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """A grounded answer citing memory ids; abstains (no LLM call) when nothing relevant is found."""
    return svc.answerer.answer([caller.workspace(body.workspace_id)], body)


@router.post("/reflect", response_model=schemas.ReflectResponse)
def reflect(body: ReflectRequest, caller: CallerDep, svc: ServicesDep) -> dict[str, Any]:
    """The reference's shape over the grounded answer; without an LLM, the evidence and a note saying so."""
    result = svc.answerer.answer(
        [caller.workspace(body.workspace_id)],
        AnswerRequest(query=body.query, limit=10),
        narrow=body.recall_filters(),
        max_answer_tokens=body.answer_tokens(),
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


@router.post("/batch", response_model=schemas.BatchResponse)
def batch(
    body: BatchRequest, caller: CallerDep, svc: ServicesDep, background: BackgroundTasks
) -> dict[str, Any]:
    """Up to `max_batch_operations` creates, updates and deletes; each succeeds or fails on its own.

    Failures past the first 20 are left out of `results` and counted in `error_summary` (one entry per distinct
    message, with every failed index), so a batch of bad operations does not answer a wall of repeated text.
    """
    # The reference ignores the body's workspace_id here; honouring it is the less surprising choice.
    with svc.inline_indexer.writing():  # no bulk build of the graph starts while bulk writes are in flight
        result = svc.memories.batch(caller.workspace(body.workspace_id), body, tenant_id=caller.tenant_id)
    if any(r["type"] == "create" and r["status"] == "success" for r in result["results"]):
        background.add_task(svc.request_vector_indexing)
    return summarise_errors(result)


@router.get("/{memory_id}", response_model=schemas.MemoryEnvelope)
def get_memory(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    include_embeddings: IncludeEmbeddingDep,
    include_deleted: Annotated[bool, Query(description="Also find a soft-deleted memory.")] = False,
) -> schemas.MemoryEnvelope:
    """One memory by id, in any workspace the key reaches; the `ETag` header is for `If-Match` updates."""
    row = svc.memories.get(
        caller.lookup_scope(), memory_id, include_deleted=include_deleted, embedding=include_embeddings
    )
    response.headers["ETag"] = serialize.etag(row)
    return schemas.MemoryEnvelope.model_construct(
        memory=schemas.Memory.from_row(row, embedding=include_embeddings)
    )


@router.put("/{memory_id}", response_model=schemas.MemoryEnvelope)
def update_memory(
    memory_id: MemoryIdPath,
    body: MemoryUpdate,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    if_match: Annotated[
        str | None,
        Header(
            description="The ETag of the version you read: the update fails with 412 if it changed since."
        ),
    ] = None,
) -> schemas.MemoryEnvelope:
    """Change some fields of a memory (a new revision); with `If-Match`, only if it is still that version."""
    row = svc.memories.update(caller.lookup_scope(), memory_id, body, if_match=if_match)
    response.headers["ETag"] = serialize.etag(row)
    return schemas.MemoryEnvelope.model_construct(memory=schemas.Memory.from_row(row))


@router.delete("/{memory_id}", status_code=204)
def forget(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    hard: Annotated[bool, Query(description="Delete for good instead of soft-deleting.")] = False,
) -> Response:
    """Delete a memory: soft (kept, hidden, `deleted_at` set) unless `hard=true`."""
    svc.memories.forget(caller.lookup_scope(), memory_id, hard=hard)
    return Response(status_code=204)


def _condition(idempotency_key: str | None, if_match: str | None) -> versioned.Condition:
    return versioned.Condition(required(idempotency_key, "Idempotency-Key"), required(if_match, "If-Match"))


def _mutated(mutation: versioned.Mutation, response: Response) -> MemoryMutation:
    response.headers["ETag"] = serialize.etag(mutation.row)
    return MemoryMutation.model_construct(
        memory=schemas.Memory.from_row(mutation.row), replayed=mutation.replayed
    )


@router.post("/{memory_id}/delete", response_model=MemoryMutation, responses=CONDITIONAL)
def delete_versioned(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> MemoryMutation:
    """Soft-delete a memory as a new revision: send `Idempotency-Key` and `If-Match` (its current ETag; a stale
    one is a 412). It leaves recall and listings until restored; a retry answers the first result."""
    mutation = versioned.delete(
        svc.memories, caller.lookup_scope(), memory_id, _condition(idempotency_key, if_match)
    )
    return _mutated(mutation, response)


@router.post("/{memory_id}/restore", response_model=MemoryMutation, responses=CONDITIONAL)
def restore_versioned(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> MemoryMutation:
    """Bring a soft-deleted memory back as a new revision: send `Idempotency-Key` and `If-Match` (the ETag of
    the deleted memory). 409 when it is not deleted; a hard-deleted memory is gone (404)."""
    mutation = versioned.restore(
        svc.memories, caller.lookup_scope(), memory_id, _condition(idempotency_key, if_match)
    )
    return _mutated(mutation, response)


@router.put("/{memory_id}/semantic", response_model=MemoryMutation, responses=CONDITIONAL)
def replace_semantic(
    memory_id: MemoryIdPath,
    body: MemoryReplace,
    caller: CallerDep,
    svc: ServicesDep,
    response: Response,
    idempotency_key: IdempotencyKey = None,
    if_match: IfMatch = None,
) -> MemoryMutation:
    """Replace a live memory's semantic document (content, type, subtype, tags, refinement metadata, pin) as a
    new revision; the content is embedded again and its relations derived again. Send `Idempotency-Key` and
    `If-Match`."""
    mutation = versioned.replace(
        svc.memories, caller.lookup_scope(), memory_id, body, _condition(idempotency_key, if_match)
    )
    return _mutated(mutation, response)


@router.get("/{memory_id}/revisions", response_model=schemas.RevisionPage)
def revisions(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=500, description="How many at most.")] = 100,
    page_token: Annotated[
        str | None, Query(pattern=r"^\d{1,9}$", description="The `next_page_token` of the previous page.")
    ] = None,
) -> schemas.RevisionPage:
    """The memory's history, newest first: a snapshot per create, update, decay and delete."""
    before = int(page_token) if page_token else None
    rows = svc.memories.revisions(caller.lookup_scope(), memory_id, limit=limit + 1, before=before)
    page = rows[:limit]
    return schemas.RevisionPage.model_construct(
        revisions=[
            schemas.Revision.pick(r, memory=_wire_snapshot(r["snapshot"]), action=_wire_action(r["action"]))
            for r in page
        ],
        next_page_token=str(page[-1]["revision"]) if len(rows) > limit else None,
    )


def _wire_action(action: str) -> str:
    """Revisions recorded before plain updates were named as the reference names them say ``update``."""
    return "replace" if action == "update" else action


def _wire_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A revision's stored row as the memory's wire fields: bookkeeping columns (dedup keys, vector
    generations, folded tags) stay inside."""
    fields = schemas.Memory.model_fields
    memory = {name: value for name, value in snapshot.items() if name in fields}
    if "revision" in snapshot and "content" in snapshot:
        memory["etag"] = etag_of(snapshot)  # the ETag the memory had at that revision, as the reference's
    return memory


@router.post("/{memory_id}/decay", response_model=schemas.MemoryEnvelope)
def decay(
    memory_id: MemoryIdPath, caller: CallerDep, svc: ServicesDep, body: DecayRequest | None = None
) -> schemas.MemoryEnvelope:
    """Lower the memory's importance by `decay_rate` (pinned memories too: decay is asked for explicitly)."""
    body = body or DecayRequest()
    row = svc.memories.decay(caller.lookup_scope(body.workspace_id), memory_id, body.decay_rate)
    return schemas.MemoryEnvelope.model_construct(memory=schemas.Memory.from_row(row))


@router.post("/{memory_id}/associate", status_code=201, response_model=schemas.AssociationCreated)
def associate(
    memory_id: MemoryIdPath, body: AssociationCreate, caller: CallerDep, svc: ServicesDep
) -> schemas.AssociationCreated:
    """Link this memory to `target_id` with a typed relationship (idempotent per source, target and type)."""
    row, _created = svc.memories.associate(
        caller.lookup_scope(body.workspace_id),
        memory_id,
        body.target_id,
        body.relationship,
        body.strength,
        body.metadata,
    )
    edge = schemas.Association.from_row(row)
    # Wrapped for the API, and flat too: SDK 0.2.1 builds `Association(**data)` from the top level.
    return schemas.AssociationCreated.model_construct(association=edge, **dict(edge))


@router.get("/{memory_id}/associations", response_model=schemas.AssociationList)
def associations(
    memory_id: MemoryIdPath,
    caller: CallerDep,
    svc: ServicesDep,
    relationships: Annotated[
        str | None, Query(description="Only these relationship types, comma-separated.")
    ] = None,
    direction: Annotated[
        str, Query(pattern="^(both|outgoing|incoming)$", description="both (default), outgoing or incoming.")
    ] = "both",
) -> schemas.AssociationList:
    """The memory's edges, optionally only some relationship types and one direction."""
    # Relationship names are lowercase; accept any case rather than silently matching nothing.
    wanted = [r.strip().lower() for r in (relationships or "").split(",") if r.strip()]
    rows = svc.memories.associations(
        caller.lookup_scope(), memory_id, direction=direction, relationships=wanted
    )
    edges = [schemas.Association.from_row(r) for r in rows]
    return schemas.AssociationList.model_construct(associations=edges, total_count=len(edges))


@router.patch("/{memory_id}/associations/{association_id}", status_code=204)
def update_association(
    memory_id: MemoryIdPath,
    association_id: AssociationIdPath,
    body: AssociationUpdate,
    caller: CallerDep,
    svc: ServicesDep,
) -> Response:
    """Change an edge's strength or replace its metadata."""
    svc.memories.update_association(caller.lookup_scope(), memory_id, association_id, body.model_dump())
    return Response(status_code=204)


@router.delete("/{memory_id}/associations/{association_id}", status_code=204)
def delete_association(
    memory_id: MemoryIdPath, association_id: AssociationIdPath, caller: CallerDep, svc: ServicesDep
) -> Response:
    """Remove an edge."""
    svc.memories.delete_association(caller.lookup_scope(), memory_id, association_id)
    return Response(status_code=204)


@router.post("/{memory_id}/traverse", response_model=schemas.TraverseResponse)
def traverse(
    memory_id: MemoryIdPath, caller: CallerDep, svc: ServicesDep, body: TraverseRequest | None = None
) -> dict[str, Any]:
    """Walk the association graph from this memory (bounded depth, edges per node and nodes)."""
    body = body or TraverseRequest()
    started = time.perf_counter()
    walk = svc.memories.traverse(
        caller.lookup_scope(body.workspace_id),
        memory_id,
        max_depth=body.max_depth,
        relationship_types=[r.lower() for r in body.relationship_types],
        direction=body.direction,
        min_strength=body.min_strength,
    )
    result = wire.traversal(walk, svc.settings.traverse_max_response_bytes)
    result["query_latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return result
