"""What the sync and async clients share: configuration, request building, the retry policy, error mapping.

Each API method is built here once as a :class:`Call` (method, path, params, body, headers and a parser);
``MemoryLayerClient`` and ``SyncMemoryLayerClient`` only differ in how they send it.
"""

from __future__ import annotations

import email.utils
import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar

import httpx

from memorylayer.errors import MemoryLayerError, error_for_status
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

DEFAULT_BASE_URL = "http://localhost:61001"
USER_AGENT = "memorylayer-client/0.3.0 (+httpx)"
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"})


@dataclass(frozen=True)
class Call(Generic[T]):
    """One HTTP request and how to read its answer."""

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: Mapping[str, Any] | None = None
    json: Any = None
    content: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def retryable(self) -> bool:
        """Safe to send twice: idempotent by method, or a POST made idempotent by its Idempotency-Key."""
        return self.method in _IDEMPOTENT or "Idempotency-Key" in self.headers


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff (``backoff * 2**attempt``, capped) that honours ``Retry-After``.

    Retried: 429/502/503/504 and transport errors, for idempotent calls; a connection that could not be
    opened at all (nothing was sent) is retried for every call. A Retry-After longer than
    ``max_retry_after`` is not waited for: the error is raised at once, carrying ``retry_after``.
    """

    max_retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0
    statuses: frozenset[int] = frozenset({429, 502, 503, 504})

    def after_response(self, call: Call[Any], response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying again, or None to give up."""
        if attempt >= self.max_retries or not call.retryable or response.status_code not in self.statuses:
            return None
        hinted = retry_after_seconds(response)
        if hinted is None:
            return self._backoff(attempt)
        return hinted if hinted <= self.max_retry_after else None

    def after_exception(self, call: Call[Any], exc: httpx.TransportError, attempt: int) -> float | None:
        if attempt >= self.max_retries:
            return None
        never_sent = isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
        return self._backoff(attempt) if never_sent or call.retryable else None

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff * (2**attempt), self.max_backoff)


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` as seconds: either delta-seconds or an HTTP date."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _json(response: httpx.Response) -> Any:
    return response.json() if response.content else {}


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


def _value(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _value(v) for k, v in values.items() if v is not None}


def _unwrap(key: str, model: type[T]) -> Callable[[httpx.Response], T]:
    def parse(response: httpx.Response) -> T:
        data = _json(response)
        return model.model_validate(data.get(key, data))  # type: ignore[attr-defined]

    return parse


def _model(model: type[T]) -> Callable[[httpx.Response], T]:
    return lambda response: model.model_validate(_json(response))  # type: ignore[attr-defined]


def _true(_: httpx.Response) -> bool:
    return True


def _none(_: httpx.Response) -> None:
    return None


def _parse_export(response: httpx.Response) -> WorkspaceExport:
    header: dict[str, Any] = {}
    memories: list[dict[str, Any]] = []
    associations: list[dict[str, Any]] = []
    for line in response.text.splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        kind = item.get("type")
        if kind == "header":
            header = item
        elif kind == "memory":
            memories.append(item["data"])
        elif kind == "association":
            associations.append(item["data"])
    return WorkspaceExport.model_validate(
        {
            **{k: v for k, v in header.items() if k != "type"},
            "workspace_id": header.get("workspace_id", ""),
            "total_memories": header.get("total_memories", len(memories)),
            "total_associations": header.get("total_associations", len(associations)),
            "memories": memories,
            "associations": associations,
        }
    )


def _batch_op(op: Mapping[str, Any]) -> dict[str, Any]:
    """Accept the official docstring form ``{"type": ..., "data": {...}}`` as well as ``{"op": ...}``."""
    if "op" not in op and "type" in op and isinstance(op.get("data"), Mapping):
        return {"op": op["type"], **op["data"]}
    return dict(op)


class ClientBase:
    """Configuration and request builders shared by the sync and async clients."""

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
    ) -> None:
        root = base_url.rstrip("/")
        self.base_url = root[: -len("/v1")] if root.endswith("/v1") else root
        self.api_key = api_key
        self.workspace_id = workspace_id
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry = RetryPolicy(
            max_retries=max(0, max_retries), backoff=backoff, max_retry_after=max_retry_after
        )
        self._headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, workspace_id={self.workspace_id!r})"

    # ------------------------------------------------------------------ plumbing
    def _ws(self, workspace_id: str | None) -> str | None:
        return workspace_id or self.workspace_id

    def _call(
        self,
        method: str,
        path: str,
        parse: Callable[[httpx.Response], T],
        *,
        workspace_id: str | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Call[T]:
        merged = dict(headers or {})
        ws = self._ws(workspace_id)
        if ws:
            merged["X-Workspace-ID"] = ws
        return Call(
            method=method,
            path=path,
            parse=parse,
            params=_drop_none(params) if params else None,
            json=json,
            content=content,
            headers=merged,
        )

    def _error(self, call: Call[Any], response: httpx.Response) -> MemoryLayerError:
        retry_after = retry_after_seconds(response) if response.status_code == 429 else None
        return error_for_status(
            response.status_code,
            _body(response),
            method=call.method,
            url=str(response.request.url) if response.request else call.path,
            reason=response.reason_phrase,
            retry_after=retry_after,
        )

    # ------------------------------------------------------------------ memories
    def _remember(
        self,
        content: str,
        *,
        type: str | None,
        subtype: str | None,
        importance: float | None,
        tags: Sequence[str] | None,
        metadata: Mapping[str, Any] | None,
        sequence_key: str | None,
        logical_key: str | None,
        pinned: bool | None,
        associations: Sequence[str] | None,
        context_id: str | None,
        user_id: str | None,
        observer_id: str | None,
        subject_id: str | None,
        event_time: datetime | str | None,
        idempotency_key: str | bool | None,
        workspace_id: str | None,
    ) -> Call[Memory]:
        body = _drop_none(
            {
                "content": content,
                "type": type,
                "subtype": subtype,
                "importance": importance,
                "tags": list(tags) if tags is not None else None,
                "metadata": dict(metadata) if metadata is not None else None,
                "sequence_key": sequence_key,
                "logical_key": logical_key,
                "pinned": pinned,
                "associations": list(associations) if associations else None,
                "context_id": context_id,
                "user_id": user_id,
                "observer_id": observer_id,
                "subject_id": subject_id,
                "event_time": event_time,
                "workspace_id": self._ws(workspace_id),
            }
        )
        headers: dict[str, str] = {}
        if idempotency_key is True or (logical_key and not idempotency_key):
            idempotency_key = uuid.uuid4().hex
        if idempotency_key:
            headers["Idempotency-Key"] = str(idempotency_key)
        if logical_key:
            headers["If-None-Match"] = "*"
        return self._call(
            "POST",
            "/v1/memories",
            _unwrap("memory", Memory),
            workspace_id=workspace_id,
            json=body,
            headers=headers,
        )

    def _recall(self, query: str, *, workspace_id: str | None, **options: Any) -> Call[RecallResult]:
        body = {"query": query, **_drop_none(options), "workspace_id": self._ws(workspace_id)}
        if body["workspace_id"] is None:
            del body["workspace_id"]
        for name in ("types", "subtypes", "tags", "exclude_ids"):
            if name in body:
                body[name] = [_value(v) for v in body[name]]
        return self._call(
            "POST", "/v1/memories/recall", _model(RecallResult), workspace_id=workspace_id, json=body
        )

    def _get_memory(self, memory_id: str, include_deleted: bool, workspace_id: str | None) -> Call[Memory]:
        params = {"include_deleted": "true"} if include_deleted else None
        return self._call(
            "GET",
            f"/v1/memories/{memory_id}",
            _unwrap("memory", Memory),
            workspace_id=workspace_id,
            params=params,
        )

    def _update_memory(
        self, memory_id: str, changes: Mapping[str, Any], if_match: str | None, workspace_id: str | None
    ) -> Call[Memory]:
        headers = {"If-Match": if_match} if if_match else None
        return self._call(
            "PUT",
            f"/v1/memories/{memory_id}",
            _unwrap("memory", Memory),
            workspace_id=workspace_id,
            json=_drop_none(changes),
            headers=headers,
        )

    def _forget(self, memory_id: str, hard: bool, workspace_id: str | None) -> Call[bool]:
        params = {"hard": "true" if hard else "false"}
        return self._call(
            "DELETE", f"/v1/memories/{memory_id}", _true, workspace_id=workspace_id, params=params
        )

    def _list_memories(
        self,
        *,
        limit: int,
        offset: int,
        type: str | None,
        subtype: str | None,
        tag: str | None,
        context_id: str | None,
        sequence_key: str | None,
        include_embeddings: bool,
        workspace_id: str | None,
    ) -> Call[MemoryPage]:
        params = {
            "limit": limit,
            "offset": offset,
            "type": type,
            "subtype": subtype,
            "tag": tag,
            "context_id": context_id,
            "sequence_key": sequence_key,
            "include_embeddings": "true" if include_embeddings else None,
        }
        return self._call("GET", "/v1/memories", _model(MemoryPage), workspace_id=workspace_id, params=params)

    def _sequence_keys(self, workspace_id: str | None) -> Call[list[str]]:
        return self._call(
            "GET",
            "/v1/memories/sequence-keys",
            lambda r: [str(k) for k in _json(r).get("keys", [])],
            workspace_id=workspace_id,
        )

    def _batch(self, operations: Sequence[Mapping[str, Any]], workspace_id: str | None) -> Call[BatchResult]:
        body: dict[str, Any] = {"operations": [_batch_op(op) for op in operations]}
        if self._ws(workspace_id):
            body["workspace_id"] = self._ws(workspace_id)
        return self._call(
            "POST", "/v1/memories/batch", _model(BatchResult), workspace_id=workspace_id, json=body
        )

    def _decay(self, memory_id: str, decay_rate: float, workspace_id: str | None) -> Call[Memory]:
        body = _drop_none({"decay_rate": decay_rate, "workspace_id": self._ws(workspace_id)})
        return self._call(
            "POST",
            f"/v1/memories/{memory_id}/decay",
            _unwrap("memory", Memory),
            workspace_id=workspace_id,
            json=body,
        )

    def _revisions(
        self, memory_id: str, limit: int, page_token: str | None, workspace_id: str | None
    ) -> Call[RevisionPage]:
        return self._call(
            "GET",
            f"/v1/memories/{memory_id}/revisions",
            _model(RevisionPage),
            workspace_id=workspace_id,
            params={"limit": limit, "page_token": page_token},
        )

    # ------------------------------------------------------------------ associations
    def _associate(
        self,
        source_id: str,
        target_id: str,
        relationship: str,
        strength: float,
        metadata: Mapping[str, Any] | None,
        workspace_id: str | None,
    ) -> Call[Association]:
        body = _drop_none(
            {
                "target_id": target_id,
                "relationship": relationship,
                "strength": strength,
                "metadata": dict(metadata) if metadata else None,
                "workspace_id": self._ws(workspace_id),
            }
        )
        return self._call(
            "POST",
            f"/v1/memories/{source_id}/associate",
            _unwrap("association", Association),
            workspace_id=workspace_id,
            json=body,
        )

    def _get_associations(
        self, memory_id: str, direction: str, relationships: Sequence[str] | None, workspace_id: str | None
    ) -> Call[list[Association]]:
        params = {"direction": direction, "relationships": ",".join(relationships) if relationships else None}
        return self._call(
            "GET",
            f"/v1/memories/{memory_id}/associations",
            lambda r: [Association.model_validate(a) for a in _json(r).get("associations", [])],
            workspace_id=workspace_id,
            params=params,
        )

    def _update_association(
        self,
        memory_id: str,
        association_id: str,
        strength: float | None,
        metadata: Mapping[str, Any] | None,
        workspace_id: str | None,
    ) -> Call[None]:
        body = _drop_none(
            {"strength": strength, "metadata": dict(metadata) if metadata is not None else None}
        )
        return self._call(
            "PATCH",
            f"/v1/memories/{memory_id}/associations/{association_id}",
            _none,
            workspace_id=workspace_id,
            json=body,
        )

    def _delete_association(
        self, memory_id: str, association_id: str, workspace_id: str | None
    ) -> Call[None]:
        return self._call(
            "DELETE",
            f"/v1/memories/{memory_id}/associations/{association_id}",
            _none,
            workspace_id=workspace_id,
        )

    def _traverse(
        self,
        memory_id: str,
        max_depth: int,
        relationship_types: Sequence[str] | None,
        direction: str,
        min_strength: float,
        workspace_id: str | None,
    ) -> Call[TraverseResult]:
        body = _drop_none(
            {
                "max_depth": max_depth,
                "relationship_types": list(relationship_types or []),
                "direction": direction,
                "min_strength": min_strength,
                "workspace_id": self._ws(workspace_id),
            }
        )
        return self._call(
            "POST",
            f"/v1/memories/{memory_id}/traverse",
            _model(TraverseResult),
            workspace_id=workspace_id,
            json=body,
        )

    # ------------------------------------------------------------------ workspaces
    def _need_ws(self, workspace_id: str | None) -> str:
        ws = self._ws(workspace_id)
        if not ws:
            raise ValueError("workspace_id is required (pass it, or set it on the client)")
        return ws

    def _create_workspace(
        self,
        name: str,
        workspace_id: str | None,
        settings: Mapping[str, Any] | None,
        tags: Sequence[str] | None,
    ) -> Call[Workspace]:
        body = _drop_none(
            {
                "id": workspace_id,
                "name": name,
                "settings": dict(settings) if settings is not None else None,
                "tags": list(tags) if tags is not None else None,
            }
        )
        return self._call("POST", "/v1/workspaces", _unwrap("workspace", Workspace), json=body)

    def _get_workspace(self, workspace_id: str | None) -> Call[Workspace]:
        return self._call(
            "GET", f"/v1/workspaces/{self._need_ws(workspace_id)}", _unwrap("workspace", Workspace)
        )

    def _list_workspaces(self, tags: Sequence[str] | None, match: str) -> Call[list[Workspace]]:
        params: dict[str, Any] = {"tags": list(tags), "match": match} if tags else {}
        return self._call(
            "GET",
            "/v1/workspaces",
            lambda r: [Workspace.model_validate(w) for w in _json(r).get("workspaces", [])],
            params=params,
        )

    def _update_workspace(
        self,
        workspace_id: str,
        name: str | None,
        settings: Mapping[str, Any] | None,
        tags: Sequence[str] | None,
    ) -> Call[Workspace]:
        body = _drop_none(
            {
                "name": name,
                "settings": dict(settings) if settings is not None else None,
                "tags": list(tags) if tags is not None else None,
            }
        )
        return self._call("PUT", f"/v1/workspaces/{workspace_id}", _unwrap("workspace", Workspace), json=body)

    def _delete_workspace(self, workspace_id: str) -> Call[None]:
        return self._call("DELETE", f"/v1/workspaces/{workspace_id}", _none)

    def _export_workspace(
        self, workspace_id: str | None, include_associations: bool, offset: int, limit: int
    ) -> Call[WorkspaceExport]:
        params = {
            "include_associations": "true" if include_associations else "false",
            "offset": offset,
            "limit": limit,
        }
        return self._call(
            "GET",
            f"/v1/workspaces/{self._need_ws(workspace_id)}/export",
            _parse_export,
            params=params,
            headers={"Accept": "application/x-ndjson"},
        )

    def _import_workspace(
        self, workspace_id: str, data: WorkspaceExport | Mapping[str, Any]
    ) -> Call[ImportResult]:
        payload = data.model_dump(mode="json") if isinstance(data, WorkspaceExport) else dict(data)
        return self._call(
            "POST", f"/v1/workspaces/{workspace_id}/import", _model(ImportResult), json={"data": payload}
        )

    def _health(self) -> Call[dict[str, Any]]:
        return self._call("GET", "/health", _json)
