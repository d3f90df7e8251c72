"""The sync client: the same methods as :class:`~memorylayer.MemoryLayerClient`, blocking.

with SyncMemoryLayerClient("http://localhost:61001", workspace_id="ws_demo") as client:
    memory = client.remember("Alice prefers tea", tags=["prefs"])
    hits = client.recall("what does Alice drink?")
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from memorylayer._base import DEFAULT_BASE_URL, Call, ClientBase
from memorylayer.errors import TransportError
from memorylayer.models import (
    Association,
    BatchResult,
    ImportResult,
    Memory,
    MemoryPage,
    RecallResult,
    RevisionPage,
    TraverseResult,
    Workspace,
    WorkspaceExport,
)

T = TypeVar("T")

__all__ = ["SyncMemoryLayerClient"]


class SyncMemoryLayerClient(ClientBase):
    """Blocking client for the MemoryLayer ``/v1`` API (one pooled, thread-safe ``httpx.Client``).

    Same configuration, retries and errors as the async client.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        timeout: float = 30.0,
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
        self._transport = transport
        self._http: httpx.Client | None = None

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool (the client can still be used: it reopens on demand)."""
        http, self._http = self._http, None
        if http is not None:
            http.close()

    def _client(self) -> httpx.Client:
        if self._http is None or self._http.is_closed:
            self._http = httpx.Client(
                base_url=self.base_url, headers=self._headers, timeout=self.timeout, transport=self._transport
            )
        return self._http

    def _run(self, call: Call[T]) -> T:
        http = self._client()
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
                time.sleep(delay)
                attempt += 1
                continue
            if response.is_success:
                return call.parse(response)
            delay = self.retry.after_response(call, response, attempt)
            if delay is None:
                raise self._error(call, response)
            time.sleep(delay)
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
        idempotency_key: str | bool | None = None,
        workspace_id: str | None = None,
    ) -> Memory:
        """Store a memory. ``sequence_key`` appends it to an ordered stream (the server assigns the index);
        ``idempotency_key=True`` makes the POST safe to retry (a fresh key is generated per call).

            memory = client.remember("user: hi", sequence_key="chat-1")
            memory.sequence_index   # 0, 1, 2, ... per key, atomically
        """
        return self._run(
            self._remember(
                content,
                type=type,
                subtype=subtype,
                importance=importance,
                tags=tags,
                metadata=metadata,
                sequence_key=sequence_key,
                logical_key=logical_key,
                pinned=pinned,
                associations=associations,
                context_id=context_id,
                user_id=user_id,
                observer_id=observer_id,
                subject_id=subject_id,
                event_time=event_time,
                idempotency_key=idempotency_key,
                workspace_id=workspace_id,
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
        include_global: bool | None = None,
        exclude_ids: Sequence[str] | None = None,
        budget_tokens: int | None = None,
        context_id: str | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> RecallResult:
        """Hybrid (vector + keyword) search. ``hits = client.recall("tea", tags=["prefs"], limit=5)``"""
        return self._run(
            self._recall(
                query,
                workspace_id=workspace_id,
                limit=limit,
                types=types,
                subtypes=subtypes,
                tags=tags,
                min_relevance=min_relevance,
                offset=offset,
                mode=mode,
                tolerance=tolerance,
                recency_weight=recency_weight,
                include_associations=include_associations,
                traverse_depth=traverse_depth,
                max_expansion=max_expansion,
                created_after=created_after,
                created_before=created_before,
                event_after=event_after,
                event_before=event_before,
                time_order=time_order,
                detail_level=detail_level,
                include_archived=include_archived,
                include_global=include_global,
                exclude_ids=exclude_ids,
                budget_tokens=budget_tokens,
                context_id=context_id,
                user_id=user_id,
            )
        )

    def get_memory(
        self, memory_id: str, *, include_deleted: bool = False, workspace_id: str | None = None
    ) -> Memory:
        """``memory = client.get_memory("mem_…")`` (NotFoundError if absent or forgotten)."""
        return self._run(self._get_memory(memory_id, include_deleted, workspace_id))

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
        changes = {
            "content": content,
            "type": type,
            "subtype": subtype,
            "importance": importance,
            "tags": list(tags) if tags is not None else None,
            "metadata": dict(metadata) if metadata is not None else None,
            "pinned": pinned,
        }
        return self._run(self._update_memory(memory_id, changes, if_match, workspace_id))

    def forget(self, memory_id: str, *, hard: bool = False, workspace_id: str | None = None) -> bool:
        """Soft-delete (or ``hard=True``: erase) a memory. Returns True; NotFoundError if already gone."""
        return self._run(self._forget(memory_id, hard, workspace_id))

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
        return self._run(
            self._list_memories(
                limit=limit,
                offset=offset,
                type=type,
                subtype=subtype,
                tag=tag,
                context_id=context_id,
                sequence_key=sequence_key,
                include_embeddings=include_embeddings,
                workspace_id=workspace_id,
            )
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
        offset = 0
        while True:
            page = self.list_memories(
                limit=page_size,
                offset=offset,
                type=type,
                subtype=subtype,
                tag=tag,
                context_id=context_id,
                sequence_key=sequence_key,
                workspace_id=workspace_id,
            )
            yield from page.memories
            if len(page.memories) < page_size:
                return
            offset += page_size

    def sequence_keys(self, *, workspace_id: str | None = None) -> list[str]:
        """Every live ``sequence_key`` of the workspace (e.g. every chat)."""
        return self._run(self._sequence_keys(workspace_id))

    def batch_memories(
        self, operations: Sequence[Mapping[str, Any]], *, workspace_id: str | None = None
    ) -> BatchResult:
        """Several creates/updates/deletes in one request; one failing does not fail the others.

        client.batch_memories([{"op": "create", "content": "x"}, {"op": "delete", "memory_id": i}])
        """
        return self._run(self._batch(operations, workspace_id))

    def decay(self, memory_id: str, decay_rate: float = 0.1, *, workspace_id: str | None = None) -> Memory:
        """Lower a memory's importance by ``decay_rate``."""
        return self._run(self._decay(memory_id, decay_rate, workspace_id))

    def revisions(
        self,
        memory_id: str,
        *,
        limit: int = 100,
        page_token: str | None = None,
        workspace_id: str | None = None,
    ) -> RevisionPage:
        """A memory's history, oldest first; pass ``next_page_token`` back for the next page."""
        return self._run(self._revisions(memory_id, limit, page_token, workspace_id))

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
        return self._run(
            self._associate(source_id, target_id, relationship, strength, metadata, workspace_id)
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
        return self._run(self._get_associations(memory_id, direction, relationships, workspace_id))

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
        self._run(self._update_association(memory_id, association_id, strength, metadata, workspace_id))

    def delete_association(
        self, memory_id: str, association_id: str, *, workspace_id: str | None = None
    ) -> None:
        """Remove an edge (NotFoundError if it does not exist)."""
        self._run(self._delete_association(memory_id, association_id, workspace_id))

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
        return self._run(
            self._traverse(memory_id, max_depth, relationship_types, direction, min_strength, workspace_id)
        )

    # ------------------------------------------------------------------ workspaces
    def create_workspace(
        self,
        name: str,
        *,
        workspace_id: str | None = None,
        settings: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
    ) -> Workspace:
        """``ws = client.create_workspace("Project X", workspace_id="ws_x")`` (id generated if omitted)."""
        return self._run(self._create_workspace(name, workspace_id, settings, tags))

    def get_workspace(self, workspace_id: str | None = None) -> Workspace:
        """The named workspace, or the client's own."""
        return self._run(self._get_workspace(workspace_id))

    def list_workspaces(self, *, tags: Sequence[str] | None = None, match: str = "all") -> list[Workspace]:
        """All workspaces, or those carrying ``tags`` (``match``: all or any)."""
        return self._run(self._list_workspaces(tags, match))

    def update_workspace(
        self,
        workspace_id: str,
        *,
        name: str | None = None,
        settings: Mapping[str, Any] | None = None,
        tags: Sequence[str] | None = None,
    ) -> Workspace:
        return self._run(self._update_workspace(workspace_id, name, settings, tags))

    def delete_workspace(self, workspace_id: str) -> None:
        self._run(self._delete_workspace(workspace_id))

    def export_workspace(
        self,
        workspace_id: str | None = None,
        *,
        include_associations: bool = True,
        offset: int = 0,
        limit: int = 0,
    ) -> WorkspaceExport:
        """The workspace's NDJSON export, parsed (``limit=0``: everything)."""
        return self._run(self._export_workspace(workspace_id, include_associations, offset, limit))

    def import_workspace(self, workspace_id: str, data: WorkspaceExport | Mapping[str, Any]) -> ImportResult:
        """Load an export (from :meth:`export_workspace`) into a workspace."""
        return self._run(self._import_workspace(workspace_id, data))

    def health(self) -> dict[str, Any]:
        """``{"status": "healthy"}`` when the server is up."""
        return self._run(self._health())
