"""The sync client: GENERATED from ``client.py`` (the async client) by ``generate_sync.py``. Do not edit;
edit ``client.py`` and run that script.

with SyncMemoryLayerClient("http://localhost:61001", workspace_id="ws_demo") as client:
    memory = client.remember("Alice prefers tea", tags=["prefs"])
    hits = client.recall("what does Alice drink?")

Arguments left out come from ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY`` and ``MEMORYLAYER_WORKSPACE_ID``.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from memorylayer._base import (
    DEFAULT_TIMEOUT_S,
    Call,
    ClientBase,
    Parser,
    _batch_op,
    _bytes,
    _conditional,
    _json,
    _list,
    _model,
    _none,
    _page,
    _parse_export,
    _parse_new_session,
    _revisions,
    _true,
    _unwrap,
    _wire,
    fields,
)
from memorylayer._pool import SyncPool, sync_post_form, sync_sleep
from memorylayer.errors import MemoryLayerError, NotFoundError, PayloadTooLargeError, TransportError
from memorylayer.models import (
    AgentSpecification,
    Answer,
    ApiKey,
    AppendResult,
    Association,
    BatchResult,
    Bridge,
    Briefing,
    CentralNode,
    Checkpoint,
    CommitResult,
    Community,
    Context,
    ContextDelta,
    ContextExecResult,
    ContextInjectResult,
    ContextLoadResult,
    ContextPack,
    ContextQueryResult,
    ContextRlmResult,
    ContextState,
    ContextStatus,
    ContextVariable,
    Contradiction,
    ContradictionScan,
    DataProvider,
    DecomposeResult,
    DocumentInfo,
    DocumentMemories,
    DocumentPage,
    DocumentUpload,
    Entity,
    EntityBackfillResult,
    EntityCard,
    EntityDedupeResult,
    EntityDerivation,
    EntityDetail,
    EntityEnrichResult,
    EntityInsights,
    EntityPage,
    EntityProvenance,
    EntityRelationInput,
    EntityResolution,
    EntitySeedResult,
    EraseResult,
    GraphAnalysis,
    GraphSnapshot,
    GraphStats,
    ImportResult,
    Job,
    JobInfo,
    KbArticle,
    KbCommunity,
    KbGraphAnalysis,
    Knowledgebase,
    McpImportResult,
    McpServer,
    McpSync,
    Memory,
    MemoryPage,
    MessagePage,
    PageSearchResult,
    PromptNote,
    RecallResult,
    RefinementRecord,
    Reflection,
    RelatedEntity,
    ResourcePage,
    RevisionPage,
    Session,
    Skill,
    SkillFile,
    SkillSync,
    Thread,
    ThreadWithMessages,
    TokenCreateResult,
    TokenInfo,
    TraverseResult,
    UsageReport,
    UserPage,
    ViewObservation,
    WorkingMemoryItem,
    Workspace,
    WorkspaceExport,
    WorkspaceView,
)

T = TypeVar("T")


def _multipart(filename: str, data: bytes, content_type: str, form: Mapping[str, Any]) -> tuple[bytes, str]:
    """A multipart/form-data body: the form fields, then the file as ``file``."""
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in form.items()
    ]
    quoted = filename.replace("\\", "\\\\").replace('"', '\\"')
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{quoted}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n".encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# ``upload_file`` sends files up to this size through the API (the server's default ``document_max_bytes``),
# larger ones through a presigned upload.
DIRECT_UPLOAD_MAX_BYTES = 4 * 1024 * 1024
DOCUMENT_JOB_FINISHED = frozenset({"completed", "failed", "cancelled"})

__all__ = ["SyncMemoryLayerClient"]


class SyncMemoryLayerClient(ClientBase):
    """Blocking client for the MemoryLayer ``/v1`` API (one pooled ``httpx.Client``).

    ``workspace_id`` is sent as ``X-Workspace-ID`` on every request and in bodies that take it. Idempotent
    requests (and POSTs sent with ``idempotency_key``) are retried on 429/502/503/504 and connection errors,
    honouring ``Retry-After``. Errors raise :mod:`memorylayer.errors` exceptions.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_retry_after: float = 60.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__(
            base_url,
            api_key,
            workspace_id,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            max_retry_after=max_retry_after,
            headers=headers,
        )
        self._pool = SyncPool(
            base_url=self.base_url, headers=self._headers, timeout=self.timeout, transport=transport
        )

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool (the client can still be used: it reopens on demand)."""
        self._pool.close()

    def _run(self, call: Call[T]) -> T:
        http = self._pool.get()
        attempt = 0
        while True:
            try:
                response = http.request(
                    call.method,
                    call.path,
                    params=call.params,
                    json=call.json,
                    content=call.content,
                    headers=call.headers,
                )
            except httpx.TransportError as exc:
                delay = self.retry.after_exception(call, exc, attempt)
                if delay is None:
                    raise TransportError(
                        f"{type(exc).__name__}: {exc}", method=call.method, url=f"{self.base_url}{call.path}"
                    ) from exc
                sync_sleep(delay)
                attempt += 1
                continue
            if response.is_success:
                return call.parse(response)
            delay = self.retry.after_response(call, response, attempt)
            if delay is None:
                raise self._error(call, response)
            sync_sleep(delay)
            attempt += 1

    # ------------------------------------------------------------------ memories
    def remember(
        self,
        content: str,
        *,
        type: str | None = None,
        subtype: str | None = None,
        importance: float | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        sequence_key: str | None = None,
        logical_key: str | None = None,
        pinned: bool | None = None,
        associations: Sequence[str] | None = None,
        context_id: str | None = None,
        user_id: str | None = None,
        observer_id: str | None = None,
        subject_id: str | None = None,
        event_time: datetime | str | None = None,
        relations: Sequence[EntityRelationInput | Mapping[str, Any]] | None = None,
        idempotency_key: str | bool | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Store a memory. ``sequence_key`` appends it to an ordered stream (the server assigns the index);
        ``idempotency_key=True`` makes the POST safe to retry (a fresh key is generated per call).

            memory = client.remember("user: hi", sequence_key="chat-1")
            memory.sequence_index   # 0, 1, 2, ... per key, atomically

        ``relations`` are typed relations the memory is evidence for (models or dicts); the write reports them
        in ``memory.relation_write_result``:

            rel = EntityRelationInput(source_entity_name="Bob", source_entity_type="person",
                                      target_entity_name="PR-12", target_entity_type="pull_request",
                                      relationship="reviewed")
            (client.remember("Bob reviewed PR-12", relations=[rel])).relation_write_result.resolved  # 1
        """
        body = self._with_ws(fields(locals(), "idempotency_key", "workspace_id"), workspace_id)
        headers: dict[str, str] = {}
        if idempotency_key is True or (logical_key and not idempotency_key):
            idempotency_key = uuid.uuid4().hex
        if idempotency_key:
            headers["Idempotency-Key"] = str(idempotency_key)
        if logical_key:
            headers["If-None-Match"] = "*"
        return self._run(
            self._call(
                "POST",
                "/v1/memories",
                _unwrap("memory", Memory),
                workspace_id=workspace_id,
                json=body,
                headers=headers,
            )
        )

    def recall(
        self,
        query: str,
        *,
        limit: int = 10,
        types: Sequence[str] | None = None,
        subtypes: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        min_relevance: float | None = None,
        offset: int | None = None,
        mode: str | None = None,
        tolerance: str | None = None,
        recency_weight: float | None = None,
        include_associations: bool | None = None,
        traverse_depth: int | None = None,
        max_expansion: int | None = None,
        created_after: datetime | str | None = None,
        created_before: datetime | str | None = None,
        event_after: datetime | str | None = None,
        event_before: datetime | str | None = None,
        time_order: str | None = None,
        detail_level: str | None = None,
        include_archived: bool | None = None,
        include_history: bool | None = None,
        include_global: bool | None = None,
        include_global_user: bool | None = None,
        include_embeddings: bool | None = None,
        include_relations: bool | None = None,
        exclude_ids: Sequence[str] | None = None,
        budget_tokens: int | None = None,
        context_id: str | None = None,
        user_id: str | None = None,
        observer_id: str | None = None,
        subject_id: str | None = None,
        context: Sequence[Mapping[str, str]] | None = None,
        rag_threshold: float | None = None,
        workspace_id: str | None = None,
    ) -> RecallResult:
        """Hybrid (vector + keyword) search. ``hits = client.recall("tea", tags=["prefs"], limit=5)``

        ``context``: the conversation's recent turns (``[{"role": "user", "content": "..."}]``), which ground
        a follow-up question; ``rag_threshold`` is the reference's hybrid gate, accepted (no LLM in recall).

        ``detail_level``: ``"abstract"`` (≤ 200 characters) or ``"overview"`` (≤ 500) sends each memory's
        extractive tier (whole sentences of it) as its content, ``"full"`` (the default) the content; with
        ``budget_tokens`` each memory steps down full → overview → abstract → cut short before it is left out
        (``result.budget_summary`` counts them).

        ``include_history=True`` also returns superseded versions; ``observer_id``/``subject_id`` keep only
        memories seen by / about that entity. A query that names a relation ("who reviewed PR-12?") also walks
        the typed relations (``include_relations=False`` turns that off); ``result.relation_paths`` says how.
        """
        body = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST", "/v1/memories/recall", _model(RecallResult), workspace_id=workspace_id, json=body
            )
        )

    def answer(
        self,
        query: str,
        *,
        limit: int | None = None,
        min_relevance: float | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> Answer:
        """A grounded answer citing memory ids (``answer`` is None without a server LLM: read ``evidence``).

        result = client.answer("what does Alice drink?")
        result.answer or [e.content for e in result.evidence]
        """
        body = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call("POST", "/v1/memories/answer", _model(Answer), workspace_id=workspace_id, json=body)
        )

    def reflect(
        self,
        query: str,
        *,
        detail_level: str | None = None,
        include_sources: bool | None = None,
        depth: int | None = None,
        types: Sequence[str] | None = None,
        subtypes: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        context_id: str | None = None,
        observer_id: str | None = None,
        subject_id: str | None = None,
        workspace_id: str | None = None,
    ) -> Reflection:
        """A synthesis over the memories relevant to ``query`` (the reference server's shape), narrowed as
        recall narrows (types, tags, ``observer_id``, ``subject_id``)."""
        body = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST", "/v1/memories/reflect", _model(Reflection), workspace_id=workspace_id, json=body
            )
        )

    def get_memory(
        self, memory_id: str, *, include_deleted: bool = False, workspace_id: str | None = None
    ) -> Memory:
        """``memory = client.get_memory("mem_…")`` (NotFoundError if absent or forgotten)."""
        params = {"include_deleted": "true"} if include_deleted else None
        return self._run(
            self._call(
                "GET",
                f"/v1/memories/{memory_id}",
                _unwrap("memory", Memory),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def update_memory(
        self,
        memory_id: str,
        *,
        content: str | None = None,
        type: str | None = None,
        subtype: str | None = None,
        importance: float | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        pinned: bool | None = None,
        if_match: str | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Change the given fields. ``if_match=memory.etag`` makes it a compare-and-swap (412 if stale)."""
        changes = fields(locals(), "memory_id", "if_match", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/memories/{memory_id}",
                _unwrap("memory", Memory),
                workspace_id=workspace_id,
                json=changes,
                headers={"If-Match": if_match} if if_match else None,
            )
        )

    def forget(self, memory_id: str, *, hard: bool = False, workspace_id: str | None = None) -> bool:
        """Soft-delete (or ``hard=True``: erase) a memory. Returns True; NotFoundError if already gone."""
        params = {"hard": "true" if hard else "false"}
        return self._run(
            self._call("DELETE", f"/v1/memories/{memory_id}", _true, workspace_id=workspace_id, params=params)
        )

    def list_memories(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        type: str | None = None,
        subtype: str | None = None,
        tag: str | None = None,
        context_id: str | None = None,
        sequence_key: str | None = None,
        include_embeddings: bool = False,
        workspace_id: str | None = None,
    ) -> MemoryPage:
        """One page, newest first; with ``sequence_key``, that stream in index order."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call("GET", "/v1/memories", _model(MemoryPage), workspace_id=workspace_id, params=params)
        )

    def iterate_memories(
        self,
        *,
        page_size: int = 200,
        type: str | None = None,
        subtype: str | None = None,
        tag: str | None = None,
        context_id: str | None = None,
        sequence_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Iterator[Memory]:
        """Every matching memory, page by page: ``for m in client.iterate_memories(tag="x"): ...``"""
        filters = fields(locals(), "page_size")
        offset = 0
        while True:
            page = self.list_memories(limit=page_size, offset=offset, **filters)
            for memory in page.memories:  # noqa: UP028 (the async version cannot `yield from`)
                yield memory
            if len(page.memories) < page_size:
                return
            offset += page_size

    def sequence_keys(self, *, workspace_id: str | None = None) -> list[str]:
        """Every live ``sequence_key`` of the workspace (e.g. every chat)."""
        return self._run(
            self._call(
                "GET",
                "/v1/memories/sequence-keys",
                lambda r: [str(k) for k in _json(r).get("keys", [])],
                workspace_id=workspace_id,
            )
        )

    def batch_memories(
        self, operations: Sequence[Mapping[str, Any]], *, workspace_id: str | None = None
    ) -> BatchResult:
        """Several creates/updates/deletes in one request; one failing does not fail the others.

        client.batch_memories([{"op": "create", "content": "x"}, {"op": "delete", "memory_id": i}])
        """
        body = self._with_ws({"operations": [_batch_op(op) for op in operations]}, workspace_id)
        return self._run(
            self._call(
                "POST", "/v1/memories/batch", _model(BatchResult), workspace_id=workspace_id, json=body
            )
        )

    def decay(self, memory_id: str, decay_rate: float = 0.1, *, workspace_id: str | None = None) -> Memory:
        """Lower a memory's importance by ``decay_rate``."""
        body = self._with_ws({"decay_rate": decay_rate}, workspace_id)
        return self._run(
            self._call(
                "POST",
                f"/v1/memories/{memory_id}/decay",
                _unwrap("memory", Memory),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def revisions(
        self,
        memory_id: str,
        *,
        limit: int = 100,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> RevisionPage:
        """A memory's history, newest first; pass ``next_page_token`` back for the next page."""
        return self._run(
            self._call(
                "GET",
                f"/v1/memories/{memory_id}/revisions",
                _model(RevisionPage),
                workspace_id=workspace_id,
                params={"limit": limit, "page_token": page_token},
            )
        )

    # ------------------------------------------------------------------ conditional memory writes
    def delete_memory_versioned(
        self,
        memory_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Soft-delete a memory as a new revision (``if_match``: its current etag; 412 if stale). It leaves
        recall and listings until ``restore_memory``; a retry with the same ``idempotency_key`` replays."""
        return self._resource_write(
            "POST",
            f"/v1/memories/{memory_id}/delete",
            _unwrap("memory", Memory),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def restore_memory(
        self,
        memory_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Bring a soft-deleted memory back (``if_match``: the deleted memory's etag); ConflictError if it is
        not deleted, NotFoundError if it was hard-deleted."""
        return self._resource_write(
            "POST",
            f"/v1/memories/{memory_id}/restore",
            _unwrap("memory", Memory),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def replace_memory_semantic(
        self,
        memory_id: str,
        content: str,
        type: str,
        *,
        if_match: str,
        subtype: str | None = None,
        tags: Sequence[str] | None = None,
        refinement_metadata: Mapping[str, Any] | None = None,
        pinned: bool | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Replace a memory's semantic document (fields left out take their defaults) as a new revision; the
        content is embedded again. ``if_match``: its current etag."""
        body = fields(locals(), "memory_id", "if_match", "idempotency_key", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/memories/{memory_id}/semantic",
                _unwrap("memory", Memory),
                workspace_id=workspace_id,
                json=body,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    # ------------------------------------------------------------------ associations
    def associate(
        self,
        source_id: str,
        target_id: str,
        relationship: str,
        *,
        strength: float = 0.5,
        metadata: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> Association:
        """Link two memories: ``client.associate(a.id, b.id, "solves", strength=0.9)``"""
        body = self._with_ws(fields(locals(), "source_id", "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST",
                f"/v1/memories/{source_id}/associate",
                _unwrap("association", Association),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def get_associations(
        self,
        memory_id: str,
        *,
        direction: str = "both",
        relationships: Sequence[str] | None = None,
        workspace_id: str | None = None,
    ) -> list[Association]:
        """Edges touching a memory (``direction``: both, outgoing, incoming)."""
        params = {"direction": direction, "relationships": ",".join(relationships) if relationships else None}
        return self._run(
            self._call(
                "GET",
                f"/v1/memories/{memory_id}/associations",
                _list("associations", Association),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def update_association(
        self,
        memory_id: str,
        association_id: str,
        *,
        strength: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> None:
        """Change an edge's strength and/or replace its metadata."""
        body = fields(locals(), "memory_id", "association_id", "workspace_id")
        self._run(
            self._call(
                "PATCH",
                f"/v1/memories/{memory_id}/associations/{association_id}",
                _none,
                workspace_id=workspace_id,
                json=body,
            )
        )

    def delete_association(
        self, memory_id: str, association_id: str, *, workspace_id: str | None = None
    ) -> None:
        """Remove an edge (NotFoundError if it does not exist)."""
        self._run(
            self._call(
                "DELETE",
                f"/v1/memories/{memory_id}/associations/{association_id}",
                _none,
                workspace_id=workspace_id,
            )
        )

    def traverse(
        self,
        memory_id: str,
        *,
        max_depth: int = 2,
        relationship_types: Sequence[str] | None = None,
        direction: str = "both",
        min_strength: float = 0.0,
        workspace_id: str | None = None,
    ) -> TraverseResult:
        """Paths through the association graph from ``memory_id``."""
        body = self._with_ws(fields(locals(), "memory_id", "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST",
                f"/v1/memories/{memory_id}/traverse",
                _model(TraverseResult),
                workspace_id=workspace_id,
                json=body,
            )
        )

    # ------------------------------------------------------------------ contradictions
    def scan_contradictions(
        self, *, batch_size: int | None = None, cursor: str | None = None, workspace_id: str | None = None
    ) -> ContradictionScan:
        """Compare the workspace's live memories and record the contradictions not recorded before; one scan
        records a page of them: pass the answer's ``next_cursor`` as ``cursor`` for the next."""
        body = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/workspaces/{self._need_ws(workspace_id)}/contradictions/scan",
                _model(ContradictionScan),
                json=body,
            )
        )

    def list_contradictions(self, *, limit: int = 10, workspace_id: str | None = None) -> list[Contradiction]:
        """The open contradictions (both memories still live), newest first."""
        return self._run(
            self._call(
                "GET",
                f"/v1/workspaces/{self._need_ws(workspace_id)}/contradictions",
                _list("contradictions", Contradiction),
                params={"limit": limit},
            )
        )

    def resolve_contradiction(
        self,
        contradiction_id: str,
        resolution: str,
        *,
        merged_content: str | None = None,
        workspace_id: str | None = None,
    ) -> Contradiction:
        """``keep_a`` / ``keep_b`` (the other memory is superseded, its history kept), ``keep_both``, or
        ``merge`` (memory A becomes ``merged_content``, B is superseded by it)."""
        body = fields(locals(), "contradiction_id", "workspace_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/contradictions/{contradiction_id}/resolve",
                _model(Contradiction),
                workspace_id=workspace_id,
                json=body,
            )
        )

    # ------------------------------------------------------------------ graph analysis
    def analyze_graph(
        self,
        *,
        context_id: str | None = None,
        include_rpg: bool = False,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> GraphAnalysis:
        """Communities, centrality, bridges and statistics of the workspace's association graph
        (``include_relations``: memories about one entity joined too)."""
        body = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST", "/v1/graph/analyze", _model(GraphAnalysis), workspace_id=workspace_id, json=body
            )
        )

    def graph_snapshot(
        self,
        *,
        context_id: str | None = None,
        include_rpg: bool = False,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> GraphSnapshot:
        """The size of the workspace's association graph."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/graph/snapshot",
                _unwrap("snapshot", GraphSnapshot),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def graph_communities(
        self,
        *,
        context_id: str | None = None,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> list[Community]:
        """Communities of memories, largest first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/graph/communities",
                _list("communities", Community),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def graph_centrality(
        self,
        *,
        context_id: str | None = None,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> list[CentralNode]:
        """Each memory's degree and betweenness, most between first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/graph/centrality",
                _list("central_nodes", CentralNode),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def graph_bridges(
        self,
        *,
        context_id: str | None = None,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> list[Bridge]:
        """The associations joining two communities, strongest first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET", "/v1/graph/bridges", _list("bridges", Bridge), workspace_id=workspace_id, params=params
            )
        )

    def graph_stats(
        self,
        *,
        context_id: str | None = None,
        include_relations: bool = False,
        workspace_id: str | None = None,
    ) -> GraphStats:
        """Nodes, edges, communities, density and degrees of the association graph."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/graph/stats",
                _unwrap("stats", GraphStats),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def graph_densify_preview(
        self,
        *,
        signals: Mapping[str, Any] | None = None,
        context_id: str | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """Communities before and after adding edges from the extra signals (``signals={"cosine_threshold":
        0.9, "entity_enabled": False}``, the reference's names); nothing is stored."""
        body = self._with_ws({**(signals or {}), **fields({"context_id": context_id})}, workspace_id)
        return self._run(
            self._call("POST", "/v1/graph/densify-preview", _json, workspace_id=workspace_id, json=body)
        )

    # ------------------------------------------------------------------ entities and ingest
    def list_entities(
        self, *, status: str = "active", limit: int = 100, workspace_id: str | None = None
    ) -> EntityPage:
        """The workspace's entities (``status="merged"``: the merged-away tombstones), by id."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call("GET", "/v1/entities", _model(EntityPage), workspace_id=workspace_id, params=params)
        )

    def get_entity(self, entity_id: str, *, workspace_id: str | None = None) -> EntityDetail:
        """One entity and its active relations: ``(client.get_entity(i)).entity.aliases``."""
        return self._run(
            self._call("GET", f"/v1/entities/{entity_id}", _model(EntityDetail), workspace_id=workspace_id)
        )

    def resolve_entity(
        self, name: str, *, entity_type: str | None = None, workspace_id: str | None = None
    ) -> EntityResolution | None:
        """The entity a name or alias resolves to (exact after normalisation), or None when none does.

        (client.resolve_entity("alice")).entity.canonical_name   # 'Alice Chen'
        """
        params = fields(locals(), "workspace_id")
        call = self._call(
            "GET",
            "/v1/entities/resolve",
            _unwrap("resolution", EntityResolution),
            workspace_id=workspace_id,
            params=params,
        )
        try:
            return self._run(call)
        except NotFoundError:
            return None

    def entity_aliases(self, entity_id: str, *, workspace_id: str | None = None) -> list[str]:
        """The entity's aliases (NotFoundError if there is no such entity)."""
        return self._run(
            self._call(
                "GET",
                f"/v1/entities/{entity_id}/aliases",
                lambda r: [str(a) for a in _json(r).get("aliases", [])],
                workspace_id=workspace_id,
            )
        )

    def add_entity_aliases(
        self, entity_id: str, aliases: Sequence[str], *, workspace_id: str | None = None
    ) -> Entity:
        """Add names the entity resolves by (ones it has are skipped); returns the entity."""
        return self._run(
            self._call(
                "POST",
                f"/v1/entities/{entity_id}/aliases",
                _unwrap("entity", Entity),
                workspace_id=workspace_id,
                json={"aliases": list(aliases)},
            )
        )

    def merge_entities(
        self, source_id: str, target_id: str, *, reason: str | None = None, workspace_id: str | None = None
    ) -> Entity:
        """Fold ``source_id`` into ``target_id`` (relations rewired, names kept as aliases); returns the target.
        Merging again changes nothing."""
        body = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST", "/v1/entities/merge", _unwrap("entity", Entity), workspace_id=workspace_id, json=body
            )
        )

    def entity_card(self, entity_id: str, *, workspace_id: str | None = None) -> EntityCard:
        """The entity's card: the entity, its named relations, top evidence, insights and a summary."""
        return self._run(
            self._call("GET", f"/v1/entities/{entity_id}/card", _model(EntityCard), workspace_id=workspace_id)
        )

    def entity_provenance(self, entity_id: str, *, workspace_id: str | None = None) -> EntityProvenance:
        """Where the entity came from and each memory (thread, messages) that is evidence of its relations."""
        return self._run(
            self._call(
                "GET",
                f"/v1/entities/{entity_id}/provenance",
                _model(EntityProvenance),
                workspace_id=workspace_id,
            )
        )

    def related_entities(
        self, entity_id: str, *, limit: int = 10, min_shared: int = 1, workspace_id: str | None = None
    ) -> list[RelatedEntity]:
        """Entities found in the same memories as this one, most shared first."""
        params = fields(locals(), "workspace_id", "entity_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/entities/{entity_id}/related",
                lambda r: [RelatedEntity.model_validate(x) for x in _json(r).get("related", [])],
                workspace_id=workspace_id,
                params=params,
            )
        )

    def entity_insights(
        self,
        entity_id: str,
        *,
        observer_id: str | None = None,
        limit: int = 20,
        workspace_id: str | None = None,
    ) -> EntityInsights:
        """The ``inference`` memories about the entity, with counts and its recent facts."""
        params = fields(locals(), "workspace_id", "entity_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/entities/{entity_id}/insights",
                _model(EntityInsights),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def derive_entity_insights(
        self, entity_id: str, *, observer_id: str | None = None, workspace_id: str | None = None
    ) -> EntityDerivation:
        """Let the server's LLM derive insights from the entity's memories (stored as ``inference`` memories);
        ForbiddenError ``generation_not_allowed`` when it has none."""
        body = fields(locals(), "workspace_id", "entity_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/entities/{entity_id}/derive",
                _model(EntityDerivation),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def seed_entities(
        self, entities: Sequence[Mapping[str, Any]], *, workspace_id: str | None = None
    ) -> EntitySeedResult:
        """Create or update a catalog of entities: ``[{"name": "Acme", "entity_type": "org", "aliases": […]}]``."""
        return self._run(
            self._call(
                "POST",
                "/v1/entities/seed",
                _model(EntitySeedResult),
                workspace_id=workspace_id,
                json={"entities": [dict(e) for e in entities]},
            )
        )

    def backfill_entities(
        self,
        *,
        batch_size: int = 200,
        max_memories: int | None = None,
        after: str | None = None,
        workspace_id: str | None = None,
    ) -> EntityBackfillResult:
        """Run the deterministic entity extraction over the workspace's stored memories (idempotent); a capped
        run continues with ``after=result.next_after``."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST",
                "/v1/entities/backfill",
                _model(EntityBackfillResult),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def dedupe_entities(self, *, limit: int = 1000, workspace_id: str | None = None) -> EntityDedupeResult:
        """Merge entities of one kind whose names or aliases collide into the most established of them."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST",
                "/v1/entities/dedupe",
                _model(EntityDedupeResult),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def enrich_entities(
        self,
        *,
        types: Sequence[str] = ("org", "person", "place"),
        limit: int = 500,
        workspace_id: str | None = None,
    ) -> EntityEnrichResult:
        """The reference's external-KB linking: counted and skipped here (no knowledge base is configured)."""
        params = {"types": ",".join(types), "limit": limit}
        return self._run(
            self._call(
                "POST",
                "/v1/entities/enrich",
                _model(EntityEnrichResult),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def ingest_email(
        self,
        sender: str,
        body: str,
        *,
        to: Sequence[str] | None = None,
        subject: str | None = None,
        timestamp: datetime | str | None = None,
        thread_id: str | None = None,
        message_id: str | None = None,
        importance: float | None = None,
        context_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        relations: Sequence[EntityRelationInput | Mapping[str, Any]] | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Store one email as a memory and write the relations its envelope declares (``sent_by``, one
        ``sent_to`` per recipient); ``memory.relation_write_result`` reports them.

            client.ingest_email("ann@example.com", "Ship it.", to=["bob@example.com"], subject="Q3 plan")
        """
        payload = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST", "/v1/ingest/email", _unwrap("memory", Memory), workspace_id=workspace_id, json=payload
            )
        )

    # ------------------------------------------------------------------ sessions and working memory
    def create_session(
        self,
        *,
        session_id: str | None = None,
        ttl_seconds: int | None = None,
        metadata: Mapping[str, Any] | None = None,
        context_id: str | None = None,
        user_id: str | None = None,
        auto_commit: bool | None = None,
        working_memory: Mapping[str, Any] | None = None,
        briefing: bool | None = None,
        briefing_options: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> Session:
        """Open a session (id generated if omitted); ``briefing=True`` attaches a workspace briefing.

        session = client.create_session(ttl_seconds=600, working_memory={"goal": "fix login"})
        """
        body = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST",
                "/v1/sessions",
                _parse_new_session,
                workspace_id=workspace_id,
                json=body,
            )
        )

    def get_session(self, session_id: str, *, workspace_id: str | None = None) -> Session:
        """A live session (NotFoundError once expired or deleted)."""
        return self._run(
            self._call(
                "GET", f"/v1/sessions/{session_id}", _unwrap("session", Session), workspace_id=workspace_id
            )
        )

    def list_sessions(
        self,
        *,
        context_id: str | None = None,
        include_expired: bool = False,
        workspace_id: str | None = None,
    ) -> list[Session]:
        """The workspace's sessions (live ones unless ``include_expired``)."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET", "/v1/sessions", _list("sessions", Session), workspace_id=workspace_id, params=params
            )
        )

    def delete_session(self, session_id: str, *, workspace_id: str | None = None) -> None:
        """End a session (its working memory is committed first when ``auto_commit``)."""
        self._run(self._call("DELETE", f"/v1/sessions/{session_id}", _none, workspace_id=workspace_id))

    def touch_session(
        self, session_id: str, *, extend_seconds: int | None = None, workspace_id: str | None = None
    ) -> datetime:
        """Push a session's expiry out (by ``extend_seconds``, default an hour); returns the new expiry."""
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/touch",
                lambda r: datetime.fromisoformat(_json(r)["expires_at"].replace("Z", "+00:00")),
                workspace_id=workspace_id,
                params={"extend_seconds": extend_seconds},
            )
        )

    def briefing(
        self,
        *,
        lookback_minutes: int | None = None,
        detail_level: str | None = None,
        limit: int | None = None,
        include_memories: bool | None = None,
        include_contradictions: bool | None = None,
        workspace_id: str | None = None,
    ) -> Briefing:
        """What happened in the workspace in the last ``lookback_minutes`` (default 60)."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/sessions/briefing",
                _unwrap("briefing", Briefing),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def set_working_memory(
        self,
        session_id: str,
        key: str,
        value: Any,
        *,
        ttl_seconds: int | None = None,
        workspace_id: str | None = None,
    ) -> WorkingMemoryItem:
        """Set one working-memory key (any JSON value): ``client.set_working_memory(s.id, "goal", "x")``"""
        body = {"key": key, "value": value, **fields({"ttl_seconds": ttl_seconds})}
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/memory",
                _model(WorkingMemoryItem),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def set_working_memory_items(
        self, session_id: str, items: Mapping[str, Any], *, workspace_id: str | None = None
    ) -> list[WorkingMemoryItem]:
        """Set several working-memory keys in one request: ``{"goal": "x", "owner": "ana"}``."""
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/memory",
                _list("items", WorkingMemoryItem),
                workspace_id=workspace_id,
                json={"items": _wire(items)},
            )
        )

    def get_working_memory(
        self, session_id: str, key: str | None = None, *, workspace_id: str | None = None
    ) -> dict[str, Any]:
        """The session's working memory as ``{key: value}`` (only ``key``'s entry when given)."""
        return self._run(
            self._call(
                "GET",
                f"/v1/sessions/{session_id}/memory",
                _json,
                workspace_id=workspace_id,
                params={"key": key},
            )
        )

    def commit_session(
        self, session_id: str, *, max_memories: int | None = None, workspace_id: str | None = None
    ) -> CommitResult:
        """Turn the session's working memory into long-term memories (committing twice adds nothing)."""
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/commit",
                _model(CommitResult),
                workspace_id=workspace_id,
                json=fields({"max_memories": max_memories}),
            )
        )

    def create_checkpoint(
        self,
        session_id: str,
        transcript_segment: str,
        *,
        idempotency_key: str,
        source_kind: str | None = None,
        source_sequence: int | None = None,
        source_boundary: int | None = None,
        workspace_id: str | None = None,
    ) -> Checkpoint:
        """Store a transcript segment durably (a replay with the same ``idempotency_key`` returns the same
        checkpoint); its lines are then indexed as memories. The content hash is computed here."""
        body = fields(locals(), "session_id", "workspace_id")
        body["content_hash"] = hashlib.sha256(transcript_segment.encode()).hexdigest()
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/checkpoints",
                _model(Checkpoint),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def get_checkpoint(
        self, session_id: str, checkpoint_id: str, *, workspace_id: str | None = None
    ) -> Checkpoint:
        return self._run(
            self._call(
                "GET",
                f"/v1/sessions/{session_id}/checkpoints/{checkpoint_id}",
                _model(Checkpoint),
                workspace_id=workspace_id,
            )
        )

    def context_pack(
        self,
        session_id: str,
        *,
        topic: str | None = None,
        entity_ids: Sequence[str] | None = None,
        entity_names: Sequence[str] | None = None,
        budget_tokens: int | None = None,
        section_limits: Mapping[str, int] | None = None,
        include_directives: bool | None = None,
        include_working_memory: bool | None = None,
        include_recent_activity: bool | None = None,
        include_contradictions: bool | None = None,
        include_sandbox_summary: bool | None = None,
        include_checkpoint_recovery: bool | None = None,
        detail_level: str | None = None,
        workspace_id: str | None = None,
    ) -> ContextPack:
        """The session's context (directives, working memory, matches, recent activity …) within a budget.
        ``detail_level`` (abstract, overview, full: the default) is the form each memory starts at; the budget
        steps it down from there.

        pack = client.context_pack(s.id, topic="login bug", budget_tokens=1024)
        prompt = pack.rendered   # later: client.context_delta(s.id, pack.cursor)
        """
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/context-pack",
                _model(ContextPack),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def context_delta(
        self,
        session_id: str,
        cursor: str,
        *,
        budget_tokens: int | None = None,
        workspace_id: str | None = None,
    ) -> ContextDelta:
        """What changed since ``cursor`` (ConflictError ``cursor_expired``: take a new context pack)."""
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/sessions/{session_id}/context-delta",
                _model(ContextDelta),
                workspace_id=workspace_id,
                json=body,
            )
        )

    # ------------------------------------------------------------------ context environment
    # A Python sandbox per session (the session goes in X-Session-ID): load memories into variables, run code
    # over them, ask the LLM about them. The server runs the code in a confined process with no network.
    def context_exec(
        self,
        session_id: str,
        code: str,
        *,
        result_var: str | None = None,
        return_result: bool = True,
        max_return_chars: int = 10_000,
        workspace_id: str | None = None,
    ) -> ContextExecResult:
        """Run Python in the session's sandbox; variables persist between calls (functions and imports do not).

        client.context_exec(s.id, "x = [1, 2, 3]")
        (client.context_exec(s.id, "sum(x)")).result   # '6'

        An exception in the code comes back in ``error`` (not raised); refused code and the time, memory and
        output limits raise ValidationError (422).
        """
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._sandbox("POST", "execute", _model(ContextExecResult), session_id, workspace_id, json=body)
        )

    def context_inspect(
        self,
        session_id: str,
        variable: str | None = None,
        *,
        preview_chars: int = 200,
        workspace_id: str | None = None,
    ) -> ContextState | ContextVariable:
        """Every variable of the sandbox (:class:`ContextState`), or only ``variable`` (:class:`ContextVariable`;
        NotFoundError if it does not exist). Reads the stored summary: no code runs."""
        params = fields(locals(), "session_id", "workspace_id")
        model: type[ContextState] | type[ContextVariable] = (
            ContextState if variable is None else ContextVariable
        )
        return self._run(
            self._sandbox("POST", "inspect", _model(model), session_id, workspace_id, params=params)
        )

    def context_load(
        self,
        session_id: str,
        var: str,
        query: str,
        *,
        limit: int = 50,
        types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        min_relevance: float | None = None,
        include_embeddings: bool = False,
        workspace_id: str | None = None,
    ) -> ContextLoadResult:
        """Recall ``query`` in the session's workspace and store the memories in ``var`` as a list of dicts.

        client.context_load(s.id, "mems", "redis incidents", limit=50)
        client.context_exec(s.id, "len([m for m in mems if 'timeout' in m['content']])")
        """
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._sandbox("POST", "load", _model(ContextLoadResult), session_id, workspace_id, json=body)
        )

    def context_inject(
        self,
        session_id: str,
        key: str,
        value: Any,
        *,
        parse_json: bool = False,
        workspace_id: str | None = None,
    ) -> ContextInjectResult:
        """Set sandbox variable ``key`` to a JSON value (``parse_json``: ``value`` is a JSON string to parse)."""
        body = {"key": key, "value": _wire(value), "parse_json": parse_json}
        return self._run(
            self._sandbox("POST", "inject", _model(ContextInjectResult), session_id, workspace_id, json=body)
        )

    def context_query(
        self,
        session_id: str,
        prompt: str,
        variables: Sequence[str],
        *,
        max_context_chars: int | None = None,
        result_var: str | None = None,
        workspace_id: str | None = None,
    ) -> ContextQueryResult:
        """Ask the server's LLM ``prompt`` about the named variables (AuthorizationError
        ``generation_not_allowed`` when the server has no LLM)."""
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._sandbox("POST", "query", _model(ContextQueryResult), session_id, workspace_id, json=body)
        )

    def context_rlm(
        self,
        session_id: str,
        goal: str,
        *,
        memory_query: str | None = None,
        memory_limit: int = 100,
        max_iterations: int = 10,
        variables: Sequence[str] | None = None,
        result_var: str | None = None,
        detail_level: str = "standard",
        workspace_id: str | None = None,
    ) -> ContextRlmResult:
        """Let the server's LLM write and run code in the sandbox, step by step, until ``goal`` is reached
        (``memory_query`` first loads memories into ``_memories``). Needs a server LLM, as context_query."""
        body = fields(locals(), "session_id", "workspace_id")
        return self._run(
            self._sandbox("POST", "rlm", _model(ContextRlmResult), session_id, workspace_id, json=body)
        )

    def context_status(self, session_id: str, *, workspace_id: str | None = None) -> ContextStatus:
        """Whether the session has a sandbox yet, its variables, size and limits (never creates one)."""
        return self._run(self._sandbox("GET", "status", _model(ContextStatus), session_id, workspace_id))

    def context_checkpoint(self, session_id: str, *, workspace_id: str | None = None) -> None:
        """Mark the sandbox's state checkpointed (a ``sandbox_checkpoint`` event in the session's context)."""
        self._run(self._sandbox("POST", "checkpoint", _none, session_id, workspace_id))

    def context_cleanup(self, session_id: str, *, workspace_id: str | None = None) -> None:
        """Delete the session's sandbox and its variables now."""
        self._run(self._sandbox("DELETE", "cleanup", _none, session_id, workspace_id))

    # ------------------------------------------------------------------ threads and jobs
    def create_thread(
        self,
        *,
        thread_id: str | None = None,
        title: str | None = None,
        user_id: str | None = None,
        context_id: str | None = None,
        observer_id: str | None = None,
        subject_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        expires_at: datetime | str | None = None,
        idle_action: str | None = None,
        scope: str | None = None,
        ownership: str | None = None,
        parent_thread: str | None = None,
        workspace_id: str | None = None,
    ) -> Thread:
        """A conversation whose messages feed memory extraction: ``t = client.create_thread(title="x")``"""
        body = self._with_ws(fields(locals(), "thread_id", "workspace_id"), workspace_id)
        if thread_id is not None:
            body["id"] = thread_id
        return self._run(
            self._call("POST", "/v1/threads", _unwrap("thread", Thread), workspace_id=workspace_id, json=body)
        )

    def list_threads(
        self,
        *,
        user_id: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
        scope_filter: str | None = None,
        ownership_filter: str | None = None,
        include_hidden: bool | None = None,
        parent_thread: str | None = None,
        workspace_id: str | None = None,
    ) -> list[Thread]:
        """The workspace's top-level, unarchived threads; ``parent_thread`` lists one thread's sub-threads,
        ``include_hidden=True`` adds archived ones, ``scope_filter`` is ``web``/``office``, ``ownership_filter``
        ``user``/``workspace``."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET", "/v1/threads", _list("threads", Thread), workspace_id=workspace_id, params=params
            )
        )

    def list_user_threads(
        self,
        user_id: str,
        *,
        ownership: str = "user",
        scope_filter: str | None = None,
        limit: int = 50,
        offset: int = 0,
        include_hidden: bool | None = None,
        parent_thread: str | None = None,
    ) -> list[Thread]:
        """One user's threads across every workspace this key may see (no workspace needed)."""
        params = fields(locals(), "user_id")
        return self._run(
            self._call("GET", f"/v1/threads/user/{user_id}", _list("threads", Thread), params=params)
        )

    def get_thread(self, thread_id: str, *, workspace_id: str | None = None) -> Thread:
        return self._run(
            self._call(
                "GET", f"/v1/threads/{thread_id}", _unwrap("thread", Thread), workspace_id=workspace_id
            )
        )

    def get_thread_with_messages(
        self,
        thread_id: str,
        *,
        limit: int | None = None,
        offset: int | None = None,
        order: str | None = None,
        workspace_id: str | None = None,
    ) -> ThreadWithMessages:
        """The thread and a page of its messages (the server's default: the first 100, in order)."""
        params = fields(locals(), "thread_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/threads/{thread_id}/full",
                _model(ThreadWithMessages),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def archive_thread(self, thread_id: str, *, workspace_id: str | None = None) -> Thread:
        """Hide a thread from the default listings (still readable by id); ``restore_thread`` undoes it."""
        return self._run(
            self._call(
                "POST",
                f"/v1/threads/{thread_id}/archive",
                _unwrap("thread", Thread),
                workspace_id=workspace_id,
            )
        )

    def restore_thread(self, thread_id: str, *, workspace_id: str | None = None) -> Thread:
        return self._run(
            self._call(
                "POST",
                f"/v1/threads/{thread_id}/restore",
                _unwrap("thread", Thread),
                workspace_id=workspace_id,
            )
        )

    def update_thread(
        self,
        thread_id: str,
        *,
        title: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idle_action: str | None = None,
        workspace_id: str | None = None,
    ) -> Thread:
        body = fields(locals(), "thread_id", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/threads/{thread_id}",
                _unwrap("thread", Thread),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def delete_thread(self, thread_id: str, *, workspace_id: str | None = None) -> None:
        self._run(self._call("DELETE", f"/v1/threads/{thread_id}", _none, workspace_id=workspace_id))

    def append_messages(
        self, thread_id: str, messages: Sequence[Mapping[str, Any]], *, workspace_id: str | None = None
    ) -> AppendResult:
        """Append ``{"role", "content"[, "id", "metadata"]}`` messages; extraction runs as job ``job_id``.

        added = client.append_messages(t.id, [{"role": "user", "content": "I moved to Lyon"}])
        client.wait_for_job(added.job_id)   # then the facts are recallable
        """
        body = {"messages": [dict(m) for m in messages]}
        return self._run(
            self._call(
                "POST",
                f"/v1/threads/{thread_id}/messages",
                _model(AppendResult),
                workspace_id=workspace_id,
                json=body,
            )
        )

    def list_messages(
        self,
        thread_id: str,
        *,
        limit: int | None = None,
        offset: int | None = None,
        after_index: int | None = None,
        order: str | None = None,
        workspace_id: str | None = None,
    ) -> MessagePage:
        params = fields(locals(), "thread_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/threads/{thread_id}/messages",
                _model(MessagePage),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def delete_message(self, thread_id: str, message_id: str, *, workspace_id: str | None = None) -> None:
        self._run(
            self._call(
                "DELETE", f"/v1/threads/{thread_id}/messages/{message_id}", _none, workspace_id=workspace_id
            )
        )

    def decompose_thread(self, thread_id: str, *, workspace_id: str | None = None) -> DecomposeResult:
        """Extract memories now from the messages not yet processed (no queue round trip)."""
        return self._run(
            self._call(
                "POST",
                f"/v1/threads/{thread_id}/decompose",
                _model(DecomposeResult),
                workspace_id=workspace_id,
            )
        )

    def get_job(self, job_id: str, *, workspace_id: str | None = None) -> Job:
        return self._run(
            self._call("GET", f"/v1/jobs/{job_id}", _unwrap("job", Job), workspace_id=workspace_id)
        )

    def wait_for_job(
        self,
        job_id: str,
        *,
        timeout: float = 60.0,
        poll_interval: float = 0.25,
        workspace_id: str | None = None,
    ) -> Job:
        """Poll a job until it is ``done`` or ``failed`` and return it; TimeoutError after ``timeout`` s.

        job = client.wait_for_job(added.job_id)
        assert job.status == "done", job.error
        """
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_job(job_id, workspace_id=workspace_id)
            if job.finished:
                return job
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} still {job.status} after {timeout:g} s")
            sync_sleep(poll_interval)

    # ------------------------------------------------------------------ workspaces
    def create_workspace(
        self,
        name: str,
        *,
        workspace_id: str | None = None,
        settings: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
    ) -> Workspace:
        """``ws = client.create_workspace("Project X", workspace_id="ws_x")`` (id made if omitted)."""
        body = fields({"id": workspace_id, "name": name, "settings": settings, "tags": tags})
        return self._run(self._call("POST", "/v1/workspaces", _unwrap("workspace", Workspace), json=body))

    def get_workspace(self, workspace_id: str | None = None) -> Workspace:
        """The named workspace, or the client's own."""
        return self._run(
            self._call(
                "GET", f"/v1/workspaces/{self._need_ws(workspace_id)}", _unwrap("workspace", Workspace)
            )
        )

    def list_workspaces(self, *, tags: Sequence[str] | None = None, match: str = "all") -> list[Workspace]:
        """All workspaces, or those carrying ``tags`` (``match``: all or any)."""
        params: dict[str, Any] = {"tags": list(tags), "match": match} if tags else {}
        return self._run(self._call("GET", "/v1/workspaces", _list("workspaces", Workspace), params=params))

    def update_workspace(
        self,
        workspace_id: str,
        *,
        name: str | None = None,
        settings: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
    ) -> Workspace:
        body = fields(locals(), "workspace_id")
        return self._run(
            self._call("PUT", f"/v1/workspaces/{workspace_id}", _unwrap("workspace", Workspace), json=body)
        )

    def delete_workspace(self, workspace_id: str) -> None:
        self._run(self._call("DELETE", f"/v1/workspaces/{workspace_id}", _none))

    def workspace_schema(self, workspace_id: str | None = None) -> dict[str, Any]:
        """The relationship types and subtypes the workspace accepts."""
        return self._run(self._call("GET", f"/v1/workspaces/{self._need_ws(workspace_id)}/schema", _json))

    def create_context(
        self,
        name: str,
        *,
        context_id: str | None = None,
        description: str | None = None,
        settings: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> Context:
        """A named context in the workspace: ``client.create_context("support", context_id="ctx_s")``"""
        body = fields({"id": context_id, "name": name, "description": description, "settings": settings})
        return self._run(
            self._call(
                "POST",
                f"/v1/workspaces/{self._need_ws(workspace_id)}/contexts",
                _unwrap("context", Context),
                json=body,
            )
        )

    def list_contexts(self, *, workspace_id: str | None = None) -> list[Context]:
        return self._run(
            self._call(
                "GET", f"/v1/workspaces/{self._need_ws(workspace_id)}/contexts", _list("contexts", Context)
            )
        )

    def delete_context(self, context_id: str, *, workspace_id: str | None = None) -> None:
        self._run(
            self._call("DELETE", f"/v1/workspaces/{self._need_ws(workspace_id)}/contexts/{context_id}", _none)
        )

    def export_workspace(
        self,
        workspace_id: str | None = None,
        *,
        include_associations: bool = True,
        offset: int = 0,
        limit: int = 0,
    ) -> WorkspaceExport:
        """The workspace's NDJSON export, parsed (``limit=0``: everything)."""
        params = {
            "include_associations": "true" if include_associations else "false",
            "offset": offset,
            "limit": limit,
        }
        return self._run(
            self._call(
                "GET",
                f"/v1/workspaces/{self._need_ws(workspace_id)}/export",
                _parse_export,
                params=params,
                headers={"Accept": "application/x-ndjson"},
            )
        )

    def import_workspace(self, workspace_id: str, data: WorkspaceExport | Mapping[str, Any]) -> ImportResult:
        """Load an export (from :meth:`export_workspace`) into a workspace."""
        payload = data.model_dump(mode="json") if isinstance(data, WorkspaceExport) else dict(data)
        return self._run(
            self._call(
                "POST", f"/v1/workspaces/{workspace_id}/import", _model(ImportResult), json={"data": payload}
            )
        )

    def export_workspace_ndjson(self, workspace_id: str | None = None) -> bytes:
        """The whole workspace in export format 2 (NDJSON, row for row: docs/export-format.md), as bytes to
        keep or hand to :meth:`import_workspace_ndjson`."""
        return self._run(
            self._call(
                "GET",
                f"/v1/workspaces/{self._need_ws(workspace_id)}/export",
                _bytes,
                headers={"Accept": "application/x-ndjson"},
            )
        )

    def import_workspace_ndjson(self, workspace_id: str, ndjson: bytes) -> ImportResult:
        """Load an NDJSON export (format 2 or 1.0) into a workspace: all of it, or nothing (a 400 names the bad
        line). Ids are kept when the target is empty and they are free, else derived (``result.ids``)."""
        return self._run(
            self._call(
                "POST",
                f"/v1/workspaces/{workspace_id}/import",
                _model(ImportResult),
                content=ndjson,
                headers={"Content-Type": "application/x-ndjson"},
            )
        )

    # ------------------------------------------------------------------ users
    def list_users(
        self, *, limit: int = 100, after: str | None = None, workspace_id: str | None = None
    ) -> UserPage:
        """The workspace's users (each ``user_id`` its memories, threads or sessions carry) with counts."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call("GET", "/v1/users", _model(UserPage), workspace_id=workspace_id, params=params)
        )

    def erase_user(self, user_id: str, *, dry_run: bool = False) -> EraseResult:
        """Erase everything of ``user_id`` in this key's workspaces, for good (``dry_run``: count only)."""
        return self._run(
            self._call("POST", f"/v1/users/{user_id}/erase", _model(EraseResult), json={"dry_run": dry_run})
        )

    # ------------------------------------------------------------------ versioned resources
    # Prompt notes and agent specifications: every write sends an Idempotency-Key (fresh unless given) and
    # ``if_match`` (the resource's ``etag``); a stale one raises a 412 error, the change is not made.
    def _resource_write(
        self,
        method: str,
        path: str,
        parse: Parser[T],
        *,
        idempotency_key: str | None,
        if_match: str | None = None,
        body: dict[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> T:
        return self._run(
            self._call(
                method,
                path,
                parse,
                workspace_id=workspace_id,
                json=self._with_ws(body, workspace_id) if body is not None else None,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def create_prompt_note(
        self,
        key: str,
        title: str,
        content: str,
        *,
        enabled: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> PromptNote:
        """A new prompt note (``key`` unique in the workspace): ``note = client.create_prompt_note("tone",
        "Tone", "Be brief.")``"""
        body = fields(locals(), "idempotency_key", "workspace_id")
        return self._resource_write(
            "POST",
            "/v1/prompt-notes",
            _unwrap("note", PromptNote),
            idempotency_key=idempotency_key,
            body=body,
            workspace_id=workspace_id,
        )

    def list_prompt_notes(
        self,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        include_deleted: bool | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A page of prompt notes (``.items``), most recently changed first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/prompt-notes",
                _page("notes", PromptNote),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_prompt_note(
        self, note_id: str, *, include_deleted: bool | None = None, workspace_id: str | None = None
    ) -> PromptNote:
        params = fields(locals(), "note_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/prompt-notes/{note_id}",
                _unwrap("note", PromptNote),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def replace_prompt_note(
        self,
        note_id: str,
        title: str,
        content: str,
        *,
        if_match: str,
        enabled: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> PromptNote:
        """Replace a note's document (fields left out take their defaults); ``if_match``: its current etag."""
        body = fields(locals(), "note_id", "if_match", "idempotency_key", "workspace_id")
        return self._resource_write(
            "PUT",
            f"/v1/prompt-notes/{note_id}",
            _unwrap("note", PromptNote),
            idempotency_key=idempotency_key,
            if_match=if_match,
            body=body,
            workspace_id=workspace_id,
        )

    def delete_prompt_note(
        self,
        note_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> PromptNote:
        """Tombstone a note (the answer is the tombstone; ``restore_prompt_note`` revives it)."""
        return self._resource_write(
            "DELETE",
            f"/v1/prompt-notes/{note_id}",
            _unwrap("note", PromptNote),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def restore_prompt_note(
        self,
        note_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> PromptNote:
        """Revive a deleted note; ``if_match``: the tombstone's etag."""
        return self._resource_write(
            "POST",
            f"/v1/prompt-notes/{note_id}/restore",
            _unwrap("note", PromptNote),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def list_prompt_note_revisions(
        self,
        note_id: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A note's revisions (``.items``: ``ResourceRevision``), newest first."""
        params = fields(locals(), "note_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/prompt-notes/{note_id}/revisions",
                _revisions("note", PromptNote),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def create_agent_specification(
        self,
        key: str,
        name: str,
        description: str,
        instructions: str,
        *,
        invocation_guidance: str | None = None,
        model: str | None = None,
        max_turns: int | None = None,
        allowed_tools: Sequence[str] | None = None,
        denied_tools: Sequence[str] | None = None,
        skills: Sequence[str] | None = None,
        mcp_servers: Sequence[str] | None = None,
        permission_mode: str | None = None,
        exec_policy_hint: str | None = None,
        background: bool | None = None,
        enabled: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> AgentSpecification:
        """A new reusable agent definition (``key`` unique in the workspace)."""
        body = fields(locals(), "idempotency_key", "workspace_id")
        return self._resource_write(
            "POST",
            "/v1/agent-specifications",
            _unwrap("specification", AgentSpecification),
            idempotency_key=idempotency_key,
            body=body,
            workspace_id=workspace_id,
        )

    def list_agent_specifications(
        self,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        include_deleted: bool | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A page of agent specifications (``.items``), most recently changed first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/agent-specifications",
                _page("specifications", AgentSpecification),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_agent_specification(
        self, specification_id: str, *, include_deleted: bool | None = None, workspace_id: str | None = None
    ) -> AgentSpecification:
        params = fields(locals(), "specification_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/agent-specifications/{specification_id}",
                _unwrap("specification", AgentSpecification),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def replace_agent_specification(
        self,
        specification_id: str,
        name: str,
        description: str,
        instructions: str,
        *,
        if_match: str,
        invocation_guidance: str | None = None,
        model: str | None = None,
        max_turns: int | None = None,
        allowed_tools: Sequence[str] | None = None,
        denied_tools: Sequence[str] | None = None,
        skills: Sequence[str] | None = None,
        mcp_servers: Sequence[str] | None = None,
        permission_mode: str | None = None,
        exec_policy_hint: str | None = None,
        background: bool | None = None,
        enabled: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> AgentSpecification:
        """Replace a specification's document (fields left out take their defaults); ``if_match``: its etag."""
        body = fields(locals(), "specification_id", "if_match", "idempotency_key", "workspace_id")
        return self._resource_write(
            "PUT",
            f"/v1/agent-specifications/{specification_id}",
            _unwrap("specification", AgentSpecification),
            idempotency_key=idempotency_key,
            if_match=if_match,
            body=body,
            workspace_id=workspace_id,
        )

    def delete_agent_specification(
        self,
        specification_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> AgentSpecification:
        return self._resource_write(
            "DELETE",
            f"/v1/agent-specifications/{specification_id}",
            _unwrap("specification", AgentSpecification),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def restore_agent_specification(
        self,
        specification_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> AgentSpecification:
        return self._resource_write(
            "POST",
            f"/v1/agent-specifications/{specification_id}/restore",
            _unwrap("specification", AgentSpecification),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def list_agent_specification_revisions(
        self,
        specification_id: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        params = fields(locals(), "specification_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/agent-specifications/{specification_id}/revisions",
                _revisions("specification", AgentSpecification),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def create_refinement_record(
        self,
        key: str,
        *,
        refinement_id: str,
        phase: str,
        trigger: str,
        scope: str,
        summary: str,
        rationale: str,
        expected_outcome: str,
        evidence: Sequence[Mapping[str, Any]],
        outcome: str,
        edits: Sequence[Mapping[str, Any]] | None = None,
        parent_record_id: str | None = None,
        rollback_of_record_id: str | None = None,
        task_ref: Mapping[str, Any] | None = None,
        approval_ref: Mapping[str, Any] | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> RefinementRecord:
        """Append a refinement record (never changed afterwards); ``phase`` and ``outcome`` must agree."""
        body = fields(locals(), "idempotency_key", "workspace_id")
        return self._resource_write(
            "POST",
            "/v1/refinement-records",
            _unwrap("record", RefinementRecord),
            idempotency_key=idempotency_key,
            body=body,
            workspace_id=workspace_id,
        )

    def list_refinement_records(
        self,
        *,
        phase: Sequence[str] | None = None,
        outcome: Sequence[str] | None = None,
        scope: Sequence[str] | None = None,
        resource_kind: Sequence[str] | None = None,
        refinement_id: str | None = None,
        search: str | None = None,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """Records, newest first; with filters ``scanned_count``/``scan_truncated`` say how far a page looked."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/refinement-records",
                _page("records", RefinementRecord),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_refinement_record(self, record_id: str, *, workspace_id: str | None = None) -> RefinementRecord:
        return self._run(
            self._call(
                "GET",
                f"/v1/refinement-records/{record_id}",
                _unwrap("record", RefinementRecord),
                workspace_id=workspace_id,
            )
        )

    # ------------------------------------------------------------------ skills
    # A skill is a versioned SKILL.md manifest (``create_skill`` without ``conditional``: the reference's plain
    # create, inline ``files`` allowed) plus bundle files that do not change its etag.
    def create_skill(
        self,
        name: str,
        description: str,
        body: str = "",
        *,
        version: str | None = None,
        license: str | None = None,
        compatibility: str | None = None,
        allowed_tools: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        source_mode: str | None = None,
        user_id: str | None = None,
        files: Mapping[str, bytes | str] | None = None,
        conditional: bool = False,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Skill:
        """A new skill (``name`` unique in the workspace): ``skill = client.create_skill("pdf", "Reads
        PDFs", "Use camelot.", files={"scripts/run.py": b"..."})``; ``conditional``: Idempotency-Key and
        If-None-Match (no inline files)."""
        body_ = fields(locals(), "body", "files", "conditional", "idempotency_key", "workspace_id")
        body_["body"] = body
        if files:
            body_["files"] = [
                {"path": path, "content": data.decode() if isinstance(data, bytes) else data}
                for path, data in files.items()
            ]
        headers = _conditional(idempotency_key) if conditional or idempotency_key else None
        return self._run(
            self._call(
                "POST",
                "/v1/skills",
                _unwrap("skill", Skill),
                workspace_id=workspace_id,
                json=self._with_ws(body_, workspace_id),
                headers=headers,
            )
        )

    def list_skills(
        self,
        *,
        name: str | None = None,
        enabled: bool | None = None,
        limit: int | None = None,
        offset: int | None = None,
        workspace_id: str | None = None,
    ) -> list[Skill]:
        """The workspace's live skills, most recently changed first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call("GET", "/v1/skills", _list("skills", Skill), workspace_id=workspace_id, params=params)
        )

    def get_skill(
        self, skill_id: str, *, include_deleted: bool | None = None, workspace_id: str | None = None
    ) -> Skill:
        params = fields(locals(), "skill_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/skills/{skill_id}",
                _unwrap("skill", Skill),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def resolve_skill(
        self, name: str | None = None, query: str | None = None, *, workspace_id: str | None = None
    ) -> list[Skill]:
        """By ``name``: that skill (or nothing); by ``query``: the skills matching its words, best first."""
        payload = self._with_ws(fields(locals(), "workspace_id"), workspace_id)

        def parse(response: httpx.Response) -> list[Skill]:
            data = _json(response)
            if data.get("candidates"):
                return [Skill.model_validate(x) for x in data["candidates"]]
            return [Skill.model_validate(data["skill"])] if data.get("skill") else []

        return self._run(
            self._call("POST", "/v1/skills/resolve", parse, workspace_id=workspace_id, json=payload)
        )

    def update_skill(
        self,
        skill_id: str,
        *,
        description: str | None = None,
        version: str | None = None,
        license: str | None = None,
        compatibility: str | None = None,
        allowed_tools: str | None = None,
        body: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        source_mode: str | None = None,
        enabled: bool | None = None,
        workspace_id: str | None = None,
    ) -> Skill:
        """Change the fields given (``metadata`` is merged): unconditional, still a revision."""
        payload = fields(locals(), "skill_id", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/skills/{skill_id}",
                _unwrap("skill", Skill),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def replace_skill_manifest(
        self,
        skill_id: str,
        description: str,
        *,
        if_match: str,
        version: str | None = None,
        license: str | None = None,
        compatibility: str | None = None,
        allowed_tools: str | None = None,
        body: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        source_mode: str | None = None,
        enabled: bool | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Skill:
        """Replace its whole manifest (fields left out take their defaults); ``if_match``: its current etag."""
        payload = fields(locals(), "skill_id", "if_match", "idempotency_key", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/skills/{skill_id}/manifest",
                _unwrap("skill", Skill),
                workspace_id=workspace_id,
                json=payload,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def delete_skill(self, skill_id: str, *, workspace_id: str | None = None) -> None:
        """Delete a skill, unconditionally: a tombstone (its files kept) that ``restore_skill`` revives."""
        return self._run(self._call("DELETE", f"/v1/skills/{skill_id}", _none, workspace_id=workspace_id))

    def tombstone_skill(
        self,
        skill_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Skill:
        """The conditional delete: ``if_match`` its current etag; answers the tombstone."""
        return self._resource_write(
            "POST",
            f"/v1/skills/{skill_id}/delete",
            _unwrap("skill", Skill),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def restore_skill(
        self,
        skill_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> Skill:
        """Revive a deleted skill; ``if_match``: the tombstone's etag."""
        return self._resource_write(
            "POST",
            f"/v1/skills/{skill_id}/restore",
            _unwrap("skill", Skill),
            idempotency_key=idempotency_key,
            if_match=if_match,
            workspace_id=workspace_id,
        )

    def list_skill_revisions(
        self,
        skill_id: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """Its manifest revisions (``.items``: ``ResourceRevision``), newest first."""
        params = fields(locals(), "skill_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/skills/{skill_id}/revisions",
                _revisions("skill", Skill),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_skill_manifest(self, skill_id: str, *, workspace_id: str | None = None) -> str:
        """Its rendered SKILL.md text."""
        return self._run(
            self._call("GET", f"/v1/skills/{skill_id}/manifest", lambda r: r.text, workspace_id=workspace_id)
        )

    def list_skill_files(self, skill_id: str, *, workspace_id: str | None = None) -> list[SkillFile]:
        return self._run(
            self._call(
                "GET", f"/v1/skills/{skill_id}/files", _list("files", SkillFile), workspace_id=workspace_id
            )
        )

    def get_skill_file(self, skill_id: str, path: str, *, workspace_id: str | None = None) -> bytes:
        """One bundle file's bytes."""
        return self._run(
            self._call(
                "GET", f"/v1/skills/{skill_id}/files/{path}", lambda r: r.content, workspace_id=workspace_id
            )
        )

    def put_skill_file(
        self,
        skill_id: str,
        path: str,
        content: bytes | str,
        *,
        mime_type: str | None = None,
        workspace_id: str | None = None,
    ) -> SkillFile:
        """Write one bundle file (text is sent as UTF-8); its manifest etag does not change, its
        ``bundle_hash`` does."""
        data = content.encode() if isinstance(content, str) else content
        payload = {"content_b64": base64.b64encode(data).decode(), "mime_type": mime_type}
        return self._run(
            self._call(
                "PUT",
                f"/v1/skills/{skill_id}/files/{path}",
                _model(SkillFile),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def delete_skill_file(self, skill_id: str, path: str, *, workspace_id: str | None = None) -> None:
        """Remove one bundle file (one already absent is no error)."""
        return self._run(
            self._call("DELETE", f"/v1/skills/{skill_id}/files/{path}", _none, workspace_id=workspace_id)
        )

    def get_skill_bundle(
        self, skill_id: str, *, format: str = "ndjson", workspace_id: str | None = None
    ) -> bytes:
        """All its files in one answer: NDJSON lines (header, one per file, footer) or a tar.gz."""
        return self._run(
            self._call(
                "GET",
                f"/v1/skills/{skill_id}/bundle",
                lambda r: r.content,
                workspace_id=workspace_id,
                params={"format": format},
            )
        )

    def sync_skill(
        self,
        skill_id: str,
        *,
        manifest_hash: str = "",
        bundle_hash: str = "",
        workspace_id: str | None = None,
    ) -> SkillSync:
        """Compare a local mirror's hashes with the server's: push, pull, conflict or in_sync."""
        payload = self._with_ws({"manifest_hash": manifest_hash, "bundle_hash": bundle_hash}, workspace_id)
        return self._run(
            self._call(
                "POST",
                f"/v1/skills/{skill_id}/sync",
                _model(SkillSync),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    # ------------------------------------------------------------------ MCP servers
    # One record per .mcp.json entry; every write a revision, a delete final. Secrets come back as ``***``
    # unless ``reveal_secrets``.
    def create_mcp_server(
        self,
        name: str,
        transport: str,
        *,
        command: str | None = None,
        args: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        url: str | None = None,
        headers: Mapping[str, str] | None = None,
        description: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        source_mode: str | None = None,
        enabled: bool | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> McpServer:
        """Register a server: ``client.create_mcp_server("files", "stdio", command="npx", args=[...])``."""
        payload = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST",
                "/v1/mcp-servers",
                _unwrap("mcp_server", McpServer),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def list_mcp_servers(
        self,
        *,
        name: str | None = None,
        transport: str | None = None,
        enabled: bool | None = None,
        user_id: str | None = None,
        reveal_secrets: bool | None = None,
        limit: int | None = None,
        offset: int | None = None,
        workspace_id: str | None = None,
    ) -> list[McpServer]:
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/mcp-servers",
                _list("mcp_servers", McpServer),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_mcp_server(
        self, server_id: str, *, reveal_secrets: bool | None = None, workspace_id: str | None = None
    ) -> McpServer:
        params = fields(locals(), "server_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"/v1/mcp-servers/{server_id}",
                _unwrap("mcp_server", McpServer),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def update_mcp_server(
        self,
        server_id: str,
        *,
        description: str | None = None,
        command: str | None = None,
        args: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        url: str | None = None,
        headers: Mapping[str, str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        source_mode: str | None = None,
        enabled: bool | None = None,
        workspace_id: str | None = None,
    ) -> McpServer:
        """Change the fields given (``metadata`` is merged)."""
        payload = fields(locals(), "server_id", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/mcp-servers/{server_id}",
                _unwrap("mcp_server", McpServer),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def delete_mcp_server(self, server_id: str, *, workspace_id: str | None = None) -> None:
        """Remove a server for good (its name is free again)."""
        return self._run(
            self._call("DELETE", f"/v1/mcp-servers/{server_id}", _none, workspace_id=workspace_id)
        )

    def resolve_mcp_server(
        self,
        name: str | None = None,
        query: str | None = None,
        *,
        transport: str | None = None,
        workspace_id: str | None = None,
    ) -> list[McpServer]:
        """By ``name``: that server (or nothing); by ``query``: the servers matching its words, best first."""
        payload = self._with_ws(fields(locals(), "workspace_id"), workspace_id)

        def parse(response: httpx.Response) -> list[McpServer]:
            data = _json(response)
            if data.get("candidates"):
                return [McpServer.model_validate(x) for x in data["candidates"]]
            return [McpServer.model_validate(data["mcp_server"])] if data.get("mcp_server") else []

        return self._run(
            self._call("POST", "/v1/mcp-servers/resolve", parse, workspace_id=workspace_id, json=payload)
        )

    def import_mcp_servers(
        self, document: Mapping[str, Any], *, source_mode: str | None = None, workspace_id: str | None = None
    ) -> McpImportResult:
        """Load a ``.mcp.json`` document (``{"mcpServers": {...}}``): creates, or updates by name."""
        payload = self._with_ws({"mcpServers": dict(document.get("mcpServers", {}))}, workspace_id)
        if source_mode:
            payload["source_mode"] = source_mode
        return self._run(
            self._call(
                "POST",
                "/v1/mcp-servers/import",
                _model(McpImportResult),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def export_mcp_servers(
        self, *, reveal_secrets: bool | None = None, workspace_id: str | None = None
    ) -> dict[str, Any]:
        """The enabled servers as a ``.mcp.json`` document."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call("GET", "/v1/mcp-servers/export", _json, workspace_id=workspace_id, params=params)
        )

    def sync_mcp_server(
        self, server_id: str, *, manifest_hash: str = "", workspace_id: str | None = None
    ) -> McpSync:
        """Compare a local config's hash with the server's: push, pull, conflict or in_sync."""
        payload = self._with_ws({"manifest_hash": manifest_hash}, workspace_id)
        return self._run(
            self._call(
                "POST",
                f"/v1/mcp-servers/{server_id}/sync",
                _model(McpSync),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    # ------------------------------------------------------------------ data providers
    def create_data_provider(
        self,
        name: str,
        *,
        provider_type: str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        connection_args: Mapping[str, Any] | None = None,
        schedule: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> DataProvider:
        """Register a document source (``provider_type`` ``local`` by default)."""
        payload = self._with_ws(fields(locals(), "workspace_id"), workspace_id)
        return self._run(
            self._call(
                "POST",
                "/v1/data-providers",
                _unwrap("provider", DataProvider),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def list_data_providers(
        self, *, limit: int | None = None, offset: int | None = None, workspace_id: str | None = None
    ) -> list[DataProvider]:
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/data-providers",
                _list("providers", DataProvider),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_data_provider(self, provider_id: str, *, workspace_id: str | None = None) -> DataProvider:
        return self._run(
            self._call(
                "GET",
                f"/v1/data-providers/{provider_id}",
                _unwrap("provider", DataProvider),
                workspace_id=workspace_id,
            )
        )

    def update_data_provider(
        self,
        provider_id: str,
        *,
        name: str | None = None,
        description: str | None = None,
        enabled: bool | None = None,
        connection_args: Mapping[str, Any] | None = None,
        schedule: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> DataProvider:
        payload = fields(locals(), "provider_id", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"/v1/data-providers/{provider_id}",
                _unwrap("provider", DataProvider),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def delete_data_provider(self, provider_id: str, *, workspace_id: str | None = None) -> None:
        return self._run(
            self._call("DELETE", f"/v1/data-providers/{provider_id}", _none, workspace_id=workspace_id)
        )

    def sync_data_provider(self, provider_id: str, *, workspace_id: str | None = None) -> list[Any]:
        """What a sync fetched (a local provider: nothing); another type raises a 422 error."""
        return self._run(
            self._call(
                "POST",
                f"/v1/data-providers/{provider_id}/sync",
                lambda r: list(_json(r).get("synced_documents", [])),
                workspace_id=workspace_id,
            )
        )

    # ------------------------------------------------------------------ workspace views
    # Views of a workspace (checkouts, worktrees, snapshots) and what observers publish about each; versioned
    # like prompt notes: ``if_match`` is the current etag, a stale one raises a 412 error.
    def _views(self, workspace_id: str | None) -> str:
        return f"/v1/workspaces/{self._need_ws(workspace_id)}/views"

    def create_workspace_view(
        self,
        view_id: str,
        kind: str,
        *,
        display_name: str | None = None,
        memory_context_id: str | None = None,
        capabilities: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> WorkspaceView:
        """A new view (``kind``: directory, git_worktree, checkout, snapshot or overlay):
        ``view = client.create_workspace_view("main", "git_worktree")``"""
        body = fields(locals(), "idempotency_key", "workspace_id")
        return self._run(
            self._call(
                "POST",
                self._views(workspace_id),
                _unwrap("view", WorkspaceView),
                workspace_id=workspace_id,
                json=body,
                headers=_conditional(idempotency_key),
            )
        )

    def list_workspace_views(
        self,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        include_deleted: bool | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A page of views (``.items``), most recently changed first."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                self._views(workspace_id),
                _page("views", WorkspaceView),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_workspace_view(
        self, view_id: str, *, include_deleted: bool | None = None, workspace_id: str | None = None
    ) -> WorkspaceView:
        params = fields(locals(), "view_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"{self._views(workspace_id)}/{view_id}",
                _unwrap("view", WorkspaceView),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def replace_workspace_view(
        self,
        view_id: str,
        kind: str,
        *,
        if_match: str,
        display_name: str | None = None,
        memory_context_id: str | None = None,
        capabilities: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> WorkspaceView:
        """Replace a view's description (fields left out take their defaults); ``if_match``: its etag."""
        body = fields(locals(), "view_id", "if_match", "idempotency_key", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"{self._views(workspace_id)}/{view_id}",
                _unwrap("view", WorkspaceView),
                workspace_id=workspace_id,
                json=body,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def delete_workspace_view(
        self,
        view_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> WorkspaceView:
        """Tombstone a view (its observations are hidden until ``restore_workspace_view``)."""
        return self._run(
            self._call(
                "DELETE",
                f"{self._views(workspace_id)}/{view_id}",
                _unwrap("view", WorkspaceView),
                workspace_id=workspace_id,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def restore_workspace_view(
        self,
        view_id: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> WorkspaceView:
        """Revive a deleted view; ``if_match``: the tombstone's etag."""
        return self._run(
            self._call(
                "POST",
                f"{self._views(workspace_id)}/{view_id}/restore",
                _unwrap("view", WorkspaceView),
                workspace_id=workspace_id,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def list_workspace_view_revisions(
        self,
        view_id: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A view's revisions (``.items``: ``ResourceRevision``), newest first."""
        params = fields(locals(), "view_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"{self._views(workspace_id)}/{view_id}/revisions",
                _revisions("view", WorkspaceView),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def publish_view_observation(
        self,
        view_id: str,
        observer: str,
        generation: str,
        sequence: int,
        *,
        if_match: str | None = None,
        tool_host_id: str | None = None,
        execution_site: str | None = None,
        root_ref: str | None = None,
        capabilities: Sequence[str] | None = None,
        vcs: Mapping[str, Any] | None = None,
        observed_at: datetime | None = None,
        expires_at: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        schema_version: int | None = None,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> ViewObservation:
        """Publish ``observer``'s state for a view (``observer``: its ``observer_id``): without ``if_match`` the
        first publish (taken: a 409 error), with it a replace (within one ``generation`` the ``sequence`` must
        advance, else a 400 error)."""
        body = fields(locals(), "view_id", "observer", "if_match", "idempotency_key", "workspace_id")
        return self._run(
            self._call(
                "PUT",
                f"{self._views(workspace_id)}/{view_id}/observations/{observer}",
                _unwrap("observation", ViewObservation),
                workspace_id=workspace_id,
                json=body,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def list_view_observations(
        self,
        view_id: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """A page of a view's observations (``.items``), most recently changed first."""
        params = fields(locals(), "view_id", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"{self._views(workspace_id)}/{view_id}/observations",
                _page("observations", ViewObservation),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_view_observation(
        self,
        view_id: str,
        observer: str,
        *,
        include_deleted: bool | None = None,
        workspace_id: str | None = None,
    ) -> ViewObservation:
        params = fields(locals(), "view_id", "observer", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"{self._views(workspace_id)}/{view_id}/observations/{observer}",
                _unwrap("observation", ViewObservation),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def delete_view_observation(
        self,
        view_id: str,
        observer: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> ViewObservation:
        """Tombstone an observation (``restore_view_observation`` revives it)."""
        return self._run(
            self._call(
                "DELETE",
                f"{self._views(workspace_id)}/{view_id}/observations/{observer}",
                _unwrap("observation", ViewObservation),
                workspace_id=workspace_id,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def restore_view_observation(
        self,
        view_id: str,
        observer: str,
        *,
        if_match: str,
        idempotency_key: str | None = None,
        workspace_id: str | None = None,
    ) -> ViewObservation:
        """Revive a deleted observation; ``if_match``: the tombstone's etag."""
        return self._run(
            self._call(
                "POST",
                f"{self._views(workspace_id)}/{view_id}/observations/{observer}/restore",
                _unwrap("observation", ViewObservation),
                workspace_id=workspace_id,
                headers=_conditional(idempotency_key, if_match),
            )
        )

    def list_view_observation_revisions(
        self,
        view_id: str,
        observer: str,
        *,
        limit: int | None = None,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> ResourcePage:
        """An observation's revisions (``.items``: ``ResourceRevision``), newest first."""
        params = fields(locals(), "view_id", "observer", "workspace_id")
        return self._run(
            self._call(
                "GET",
                f"{self._views(workspace_id)}/{view_id}/observations/{observer}/revisions",
                _revisions("observation", ViewObservation),
                workspace_id=workspace_id,
                params=params,
            )
        )

    # ------------------------------------------------------------------ representation
    def get_user_representation(
        self,
        user_id: str,
        *,
        limit: int | None = None,
        include_profile: bool | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """What the memory holds about a user across workspaces (their ``scope: user`` memories): ``{user_id,
        observations, profile, derived_beliefs, provenance}``."""
        payload = fields(locals(), "workspace_id")
        return self._run(
            self._call("POST", "/v1/representation/user", _json, workspace_id=workspace_id, json=payload)
        )

    def get_representation(
        self,
        observer: str,
        subject: str,
        *,
        observer_type: str | None = None,
        subject_type: str | None = None,
        limit: int | None = None,
        include_profile: bool | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """What ``observer`` holds about ``subject`` in the workspace (both entity names, resolved, never
        created): ``{observer, subject, is_self, observations, profile, derived_beliefs, provenance}``."""
        payload = fields(locals(), "workspace_id")
        return self._run(
            self._call("POST", "/v1/representation", _json, workspace_id=workspace_id, json=payload)
        )

    # ------------------------------------------------------------------ audit
    def audit_events(
        self,
        *,
        workspace_id: str | None = None,
        event_type: str | None = None,
        since: datetime | str | None = None,
        limit: int = 100,
        page_token: str | None = None,
    ) -> dict[str, Any]:
        """Who did what, newest first: ``{events, count, next_page_token}`` (a key: its own workspaces'
        events; the admin key: all). ``workspace_id`` filters; it does not choose the caller's workspace."""
        params = fields(locals())
        return self._run(self._call("GET", "/v1/audit/events", _json, params=params))

    def audit_summary(
        self, *, workspace_id: str | None = None, since: datetime | str | None = None
    ) -> dict[str, Any]:
        """How many audit events of each type: ``{summary: {event_type: count}, total}``."""
        params = fields(locals())
        return self._run(self._call("GET", "/v1/audit/events/summary", _json, params=params))

    # ------------------------------------------------------------------ documents
    def upload_document(
        self,
        file_data: bytes,
        filename: str,
        *,
        target_context_id: str | None = None,
        chunk_size: int | None = None,
        importance: float | None = None,
        document_type: str | None = None,
        content_type: str = "application/octet-stream",
        workspace_id: str | None = None,
    ) -> tuple[DocumentInfo, JobInfo]:
        """Upload a small document (the server's ``document_max_bytes``); larger files go through
        ``create_document_upload``. The same bytes again answer the earlier document."""
        form = fields(locals(), "file_data", "filename", "content_type", "workspace_id")
        body, multipart_type = _multipart(filename, file_data, content_type, form)

        def parse(response: httpx.Response) -> tuple[DocumentInfo, JobInfo]:
            data = _json(response)
            return DocumentInfo.model_validate(data["document"]), JobInfo.model_validate(data["job"])

        return self._run(
            self._call(
                "POST",
                "/v1/documents",
                parse,
                workspace_id=workspace_id,
                content=body,
                headers={"content-type": multipart_type},
            )  # fmt: skip
        )

    def upload_file(
        self,
        source: str | PathLike[str] | bytes,
        filename: str | None = None,
        *,
        wait: bool = False,
        timeout: float = 600.0,
        poll_interval: float = 0.5,
        direct_max_bytes: int = DIRECT_UPLOAD_MAX_BYTES,
        content_type: str | None = None,
        target_context_id: str | None = None,
        chunk_size: int | None = None,
        importance: float | None = None,
        workspace_id: str | None = None,
    ) -> tuple[DocumentInfo, JobInfo]:
        """A document of any size in one call: ``source`` is a path (its name is the filename) or bytes
        (``filename`` needed). Up to ``direct_max_bytes`` it goes through ``upload_document``; larger, or when
        the server answers 413, through ``create_document_upload`` and a POST of the file to the bucket.
        ``wait=True`` polls the ingestion job until it is finished (TimeoutError after ``timeout`` s) and
        returns the document and job as they are then.

        doc, job = client.upload_file("report.pdf", wait=True)   # 20 MB: through the bucket
        """
        if isinstance(source, bytes):
            if not filename:
                raise ValueError("upload_file(bytes) needs a filename")
            data, name = source, filename
        else:
            data, name = Path(source).read_bytes(), filename or Path(source).name
        kind = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
        options = fields(
            {"target_context_id": target_context_id, "chunk_size": chunk_size, "importance": importance}
        )
        accepted: tuple[DocumentInfo, JobInfo] | None = None
        if len(data) <= direct_max_bytes:
            try:
                accepted = self.upload_document(
                    data, name, content_type=kind, workspace_id=workspace_id, **options
                )
            except PayloadTooLargeError:
                accepted = None  # the server's cap is lower than ours: the bucket takes it
        if accepted is None:
            grant = self.create_document_upload(
                name, content_type=kind, extraction_options=options or None, workspace_id=workspace_id
            )
            sent = sync_post_form(grant.upload_url, grant.fields, name, data, kind, self.timeout)
            if not sent.is_success:
                raise MemoryLayerError(
                    f"the bucket refused the upload: {sent.text[:500]}",
                    status_code=sent.status_code,
                    method="POST",
                    url=grant.upload_url.split("?", 1)[0],
                )
            accepted = grant.document, grant.job
        if not wait:
            return accepted
        document, job = accepted
        deadline = time.monotonic() + timeout
        while job.status not in DOCUMENT_JOB_FINISHED:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"document job {job.id} still {job.status} after {timeout:g} s")
            sync_sleep(poll_interval)
            job = self.get_document_job(job.id, workspace_id=workspace_id)
        return self.get_document(document.id, workspace_id=workspace_id), job

    def create_document_upload(
        self,
        filename: str,
        *,
        content_type: str | None = None,
        extraction_options: dict[str, Any] | None = None,
        workspace_id: str | None = None,
    ) -> DocumentUpload:
        """A presigned URL for a large file: POST ``fields`` and the file to ``upload_url``; the job starts
        when the bytes land."""
        body = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST", "/v1/documents/uploads", _model(DocumentUpload), workspace_id=workspace_id, json=body
            )
        )

    def list_documents(
        self,
        *,
        status: str | None = None,
        document_type: str | None = None,
        limit: int = 50,
        offset: int = 0,
        workspace_id: str | None = None,
    ) -> tuple[list[DocumentInfo], int]:
        """(documents, total), newest first."""
        params = fields(locals(), "workspace_id")

        def parse(response: httpx.Response) -> tuple[list[DocumentInfo], int]:
            data = _json(response)
            return [DocumentInfo.model_validate(d) for d in data["documents"]], int(data["total"])

        return self._run(self._call("GET", "/v1/documents", parse, workspace_id=workspace_id, params=params))

    def get_document(self, document_id: str, *, workspace_id: str | None = None) -> DocumentInfo:
        return self._run(
            self._call("GET", f"/v1/documents/{document_id}", _model(DocumentInfo), workspace_id=workspace_id)
        )

    def delete_document(
        self, document_id: str, *, delete_memories: bool = False, workspace_id: str | None = None
    ) -> None:
        """Remove the document, its pages and its bytes; ``delete_memories``: forget its memories too."""
        params = {"delete_memories": str(delete_memories).lower()}
        self._run(
            self._call(
                "DELETE", f"/v1/documents/{document_id}", _none, workspace_id=workspace_id, params=params
            )
        )

    def search_document_pages(
        self,
        query: str,
        *,
        limit: int = 10,
        doc_ids: list[str] | None = None,
        workspace_id: str | None = None,
    ) -> PageSearchResult:
        """Pages ranked by text-embedding similarity to ``query``."""
        body = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST", "/v1/documents/search", _model(PageSearchResult), workspace_id=workspace_id, json=body
            )
        )

    def get_document_pages(self, document_id: str, *, workspace_id: str | None = None) -> list[DocumentPage]:
        return self._run(
            self._call(
                "GET",
                f"/v1/documents/{document_id}/pages",
                _list("pages", DocumentPage),
                workspace_id=workspace_id,
            )
        )

    def get_document_page(
        self, document_id: str, page_id: str, *, workspace_id: str | None = None
    ) -> DocumentPage:
        return self._run(
            self._call(
                "GET",
                f"/v1/documents/{document_id}/pages/{page_id}",
                _model(DocumentPage),
                workspace_id=workspace_id,
            )  # fmt: skip
        )

    def get_document_memories(self, document_id: str, *, workspace_id: str | None = None) -> DocumentMemories:
        """The memories derived from the document, with their provenance (page, span)."""
        return self._run(
            self._call(
                "GET",
                f"/v1/documents/{document_id}/memories",
                _model(DocumentMemories),
                workspace_id=workspace_id,
            )
        )

    def reprocess_document(
        self,
        document_id: str,
        *,
        target_context_id: str | None = None,
        chunk_size: int | None = None,
        importance: float | None = None,
        workspace_id: str | None = None,
    ) -> JobInfo:
        """Derive the document again (optionally with new options); nothing is duplicated."""
        options = fields(locals(), "document_id", "workspace_id")
        return self._run(
            self._call(
                "POST",
                f"/v1/documents/{document_id}/reprocess",
                _model(JobInfo),
                workspace_id=workspace_id,
                json={"extraction_options": options},
            )  # fmt: skip
        )

    def verify_document(self, document_id: str, *, workspace_id: str | None = None) -> dict[str, Any]:
        """Re-check the stored bytes against the hash (``intact``), re-running a document that never completed."""
        return self._run(
            self._call("POST", f"/v1/documents/{document_id}/verify", _json, workspace_id=workspace_id)
        )

    def get_document_job(self, job_id: str, *, workspace_id: str | None = None) -> JobInfo:
        """A document ingestion job (``get_job`` is the thread extraction job's)."""
        return self._run(
            self._call("GET", f"/v1/documents/jobs/{job_id}", _model(JobInfo), workspace_id=workspace_id)
        )

    def list_document_jobs(
        self, *, status: str | None = None, limit: int = 50, offset: int = 0, workspace_id: str | None = None
    ) -> list[JobInfo]:
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET", "/v1/documents/jobs", _list("jobs", JobInfo), workspace_id=workspace_id, params=params
            )
        )

    def cancel_document_job(self, job_id: str, *, workspace_id: str | None = None) -> JobInfo:
        return self._run(
            self._call(
                "POST", f"/v1/documents/jobs/{job_id}/cancel", _model(JobInfo), workspace_id=workspace_id
            )
        )

    # ------------------------------------------------------------------ knowledgebase
    def generate_knowledgebase(
        self,
        *,
        max_communities: int | None = None,
        max_god_nodes: int | None = None,
        context_id: str | None = None,
        workspace_id: str | None = None,
    ) -> Knowledgebase:
        """Write the workspace's articles afresh (an index, one per community of linked memories, one per
        entity, the best-connected first), in place of the last set. Deterministic: no LLM is asked."""
        payload = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "POST",
                "/v1/knowledgebase/generate",
                _model(Knowledgebase),
                workspace_id=workspace_id,
                json=payload,
            )
        )

    def get_knowledgebase(self, *, workspace_id: str | None = None) -> Knowledgebase:
        """The last generation's summary (a ``NotFoundError`` before the first)."""
        return self._run(
            self._call("GET", "/v1/knowledgebase", _model(Knowledgebase), workspace_id=workspace_id)
        )

    def list_kb_articles(
        self,
        *,
        article_type: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
        workspace_id: str | None = None,
    ) -> list[KbArticle]:
        """The stored articles: the index, communities (largest first), entities; ``article_type`` picks one kind."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/knowledgebase/articles",
                _list("articles", KbArticle),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_kb_article(self, article_id: str, *, workspace_id: str | None = None) -> KbArticle:
        return self._run(
            self._call(
                "GET",
                f"/v1/knowledgebase/articles/{article_id}",
                _model(KbArticle),
                workspace_id=workspace_id,
            )
        )

    def export_kb_vault(self, *, workspace_id: str | None = None) -> bytes:
        """The stored articles as an Obsidian vault (zip bytes): ``index.md``, ``communities/``, ``entities/``."""
        return self._run(
            self._call("GET", "/v1/knowledgebase/export", lambda r: r.content, workspace_id=workspace_id)
        )

    def get_kb_graph(
        self,
        *,
        include_central_nodes: bool | None = None,
        context_id: str | None = None,
        workspace_id: str | None = None,
    ) -> KbGraphAnalysis:
        """A fresh analysis of the workspace's memory graph: communities, central memories, bridges, stats."""
        params = fields(locals(), "workspace_id")
        return self._run(
            self._call(
                "GET",
                "/v1/knowledgebase/graph",
                _unwrap("analysis", KbGraphAnalysis),
                workspace_id=workspace_id,
                params=params,
            )
        )

    def get_kb_community(self, community_id: int, *, workspace_id: str | None = None) -> KbCommunity:
        """One community of the live graph, titled as its article when the last generation wrote one."""
        return self._run(
            self._call(
                "GET",
                f"/v1/knowledgebase/graph/communities/{community_id}",
                _model(KbCommunity),
                workspace_id=workspace_id,
            )
        )

    # ------------------------------------------------------------------ admin (an admin key)
    def create_api_key(
        self,
        workspaces: Sequence[str],
        *,
        access: str | None = None,
        name: str | None = None,
        expires_at: datetime | str | None = None,
        tenant_id: str | None = None,
    ) -> ApiKey:
        """A key for ``workspaces`` (``access``: read or read_write). ``key.key`` is shown this once."""
        body = fields(locals())
        return self._run(self._call("POST", "/v1/admin/api-keys", _model(ApiKey), json=body))

    def list_api_keys(self) -> list[ApiKey]:
        """Every key's record (never the secret)."""
        return self._run(self._call("GET", "/v1/admin/api-keys", _list("api_keys", ApiKey)))

    def revoke_api_key(self, key_id: str) -> None:
        self._run(self._call("DELETE", f"/v1/admin/api-keys/{key_id}", _none))

    def get_usage(
        self,
        *,
        tenant_id: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
    ) -> UsageReport:
        """Every tenant's usage per hour, operation kind and outcome (one tenant's with ``tenant_id``), and what
        each stores now; the period defaults to the last 24 hours."""
        params = fields(locals())
        return self._run(self._call("GET", "/v1/admin/usage", _model(UsageReport), params=params))

    def get_usage_csv(
        self,
        *,
        tenant_id: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
    ) -> str:
        """The hourly rows of :meth:`get_usage` as CSV (one header line), to hand to a billing system."""
        params = {**fields(locals()), "format": "csv"}
        return self._run(self._call("GET", "/v1/admin/usage", lambda r: r.text, params=params))

    # ------------------------------------------------------------------ tokens (a key mints its own)
    def create_token(
        self,
        name: str,
        *,
        principal_type: str = "User",
        workspace_patterns: Sequence[str] | None = None,
        scopes: Sequence[str] | None = None,
        expires_in_days: int | None = None,
    ) -> TokenCreateResult:
        """A token no wider than this client's key: its workspaces matching ``workspace_patterns`` (default
        all), ``scopes`` ``*``, read, write, shared:read, shared:write. ``result.token`` is shown this once."""
        body = fields(locals())
        return self._run(self._call("POST", "/v1/tokens", _model(TokenCreateResult), json=body))

    def list_tokens(self, *, include_revoked: bool = False) -> list[TokenInfo]:
        """The tokens minted under this client's key (never the secrets)."""
        params = {"include_revoked": str(include_revoked).lower()}
        return self._run(self._call("GET", "/v1/tokens", _list("tokens", TokenInfo), params=params))

    def get_token(self, token_id: str) -> TokenInfo:
        return self._run(self._call("GET", f"/v1/tokens/{token_id}", _model(TokenInfo)))

    def revoke_token(self, token_id: str) -> None:
        """Refused from the next request on; still listed with ``include_revoked``."""
        self._run(self._call("POST", f"/v1/tokens/{token_id}/revoke", _none))

    def delete_token(self, token_id: str) -> None:
        self._run(self._call("DELETE", f"/v1/tokens/{token_id}", _none))

    # ------------------------------------------------------------------ service
    def health(self) -> dict[str, Any]:
        """``{"status": "healthy"}`` when the server is up."""
        return self._run(self._call("GET", "/health", _json))

    def ready(self) -> dict[str, Any]:
        """``{"status": "ready", "services": {...}}`` once the database answers (ServerError 503 before)."""
        return self._run(self._call("GET", "/health/ready", _json))

    def info(self) -> dict[str, Any]:
        """The server's name and version: ``(client.info())["version"]``"""
        return self._run(self._call("GET", "/", _json))
