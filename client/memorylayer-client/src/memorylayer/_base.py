"""What the sync and async clients share: configuration, the retry policy, error mapping, response parsers.

The API methods are written once, in ``client.py`` (async); ``sync_client.py`` is generated from it by
``generate_sync.py``. Each method builds a :class:`Call` (method, path, params, body, headers and a parser)
and hands it to ``_run``, the only part that differs between the two.
"""

from __future__ import annotations

import email.utils
import json
import os
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel

from memorylayer._families import Family
from memorylayer.errors import MemoryLayerError, error_for_status
from memorylayer.models import ResourcePage, ResourceRevision, Session, WorkspaceExport

T = TypeVar("T")
# Reads a response into what a method returns.
Parser = Callable[[httpx.Response], T]

DEFAULT_BASE_URL = "http://localhost:61001"
# Longer than the server's sandbox limit (MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS, 30 s by default), so a runaway
# cell surfaces as the server's 422 rather than as a client-side ReadTimeout.
DEFAULT_TIMEOUT_S = 60.0
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


def _wire(value: Any) -> Any:
    """A Python value as JSON sends it: enums by value, datetimes as ISO-8601, any sequence as a list, a model
    (e.g. EntityRelationInput) as its set fields."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: _wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_wire(v) for v in value]
    return value


def _drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _wire(v) for k, v in values.items() if v is not None}


def fields(arguments: Mapping[str, Any], *leave_out: str) -> dict[str, Any]:
    """A method's own arguments as a request body or query, so each field is named once (in the signature).

    Called as the first line of a method, ``fields(locals(), "memory_id")`` keeps every argument but ``self``,
    the ones named and those left at None.
    """
    skip = {"self", *leave_out}
    return {k: _wire(v) for k, v in arguments.items() if k not in skip and v is not None}


def _unwrap(key: str, model: type[T]) -> Callable[[httpx.Response], T]:
    def parse(response: httpx.Response) -> T:
        data = _json(response)
        return model.model_validate(data.get(key, data))  # type: ignore[attr-defined]

    return parse


def _list(key: str, model: type[T]) -> Callable[[httpx.Response], list[T]]:
    return lambda response: [model.model_validate(x) for x in _json(response).get(key, [])]  # type: ignore[attr-defined]


def _model(model: type[T]) -> Callable[[httpx.Response], T]:
    return lambda response: model.model_validate(_json(response))  # type: ignore[attr-defined]


def _true(_: httpx.Response) -> bool:
    return True


def _none(_: httpx.Response) -> None:
    return None


def _bytes(response: httpx.Response) -> bytes:
    return response.content


def _page(key: str, model: type[BaseModel]) -> Callable[[httpx.Response], ResourcePage]:
    """A list of versioned resources (``{key: [...], next_page_token}``) as a ``ResourcePage`` of ``model``."""

    def parse(response: httpx.Response) -> ResourcePage:
        data = _json(response)
        items = [model.model_validate(x) for x in data.get(key, [])]
        return ResourcePage.model_validate({**{k: v for k, v in data.items() if k != key}, "items": items})

    return parse


def _revisions(key: str, model: type[BaseModel]) -> Callable[[httpx.Response], ResourcePage]:
    """A resource's revisions as a ``ResourcePage`` of ``ResourceRevision`` (each ``resource`` a ``model``)."""

    def parse(response: httpx.Response) -> ResourcePage:
        data = _json(response)
        items = [
            ResourceRevision(
                resource=model.model_validate(x[key]), action=x["action"], operation_id=x["operation_id"]
            )
            for x in data.get("revisions", [])
        ]
        return ResourcePage(items=items, next_page_token=data.get("next_page_token"))

    return parse


def _conditional(idempotency_key: str | None, if_match: str | None = None) -> dict[str, str]:
    """A versioned resource's write headers: its Idempotency-Key (fresh unless given, so a retry of this call
    replays it) and ``If-Match`` (or ``If-None-Match: *`` to create)."""
    headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
    if if_match is None:
        headers["If-None-Match"] = "*"
    else:
        headers["If-Match"] = if_match
    return headers


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


def _parse_new_session(response: httpx.Response) -> Session:
    """``{"session": {...}, "briefing": {...} | None}`` (the session may also come flat) as one Session."""
    data = _json(response)
    return Session.model_validate({**data.get("session", data), "briefing": data.get("briefing")})


def _batch_op(op: Mapping[str, Any]) -> dict[str, Any]:
    """Accept the official docstring form ``{"type": ..., "data": {...}}`` as well as ``{"op": ...}``."""
    if "op" not in op and "type" in op and isinstance(op.get("data"), Mapping):
        return {"op": op["type"], **op["data"]}
    return dict(op)


def _header_safe_key(api_key: str | None) -> str | None:
    """The key, or a clear ValueError now for one no HTTP header can carry (a pasted ``"…"`` placeholder would
    otherwise fail on the first request as a UnicodeEncodeError deep inside httpx).

    >>> _header_safe_key("mlk_abc_def")
    'mlk_abc_def'
    >>> _header_safe_key("…")
    Traceback (most recent call last):
    ...
    ValueError: api_key must be printable ASCII (keys look like mlk_<prefix>_<secret>); character 1 is '…': is it a placeholder?
    """
    if api_key is None:
        return None
    for i, ch in enumerate(api_key, 1):
        if not (" " <= ch <= "~"):
            raise ValueError(
                "api_key must be printable ASCII (keys look like mlk_<prefix>_<secret>); "
                f"character {i} is {ch!r}: is it a placeholder?"
            )
    return api_key


class ClientBase:
    """Configuration and request builders shared by the sync and async clients."""

    # Sub-clients by family (``client.skills.list()`` is ``client.list_skills()``); names as the official SDK's.
    memories = Family(
        "memory",
        "memories",
        also=("remember", "recall", "forget", "answer", "reflect", "decay", "revisions", "sequence_keys"),
    )
    entities = Family("entity", "entities")
    graph = Family(
        "graph",
        also=("associate", "get_associations", "update_association", "delete_association", "traverse"),
    )
    contradictions = Family("contradiction", "contradictions")
    sessions = Family(
        "session",
        "sessions",
        also=(
            "briefing",
            "set_working_memory",
            "set_working_memory_items",
            "get_working_memory",
            "create_checkpoint",
            "get_checkpoint",
        ),
    )
    threads = Family("thread", "threads", also=("append_messages", "list_messages", "delete_message"))
    workspaces = Family("workspace", "workspaces")
    users = Family("user", "users")
    prompt_notes = Family("prompt_note", "prompt_notes")
    agent_specifications = Family("agent_specification", "agent_specifications")
    refinement_records = Family("refinement_record", "refinement_records")
    skills = Family("skill", "skills")
    mcp_servers = Family("mcp_server", "mcp_servers")
    data_providers = Family("data_provider", "data_providers")
    workspace_views = Family("workspace_view", "workspace_views")
    view_observations = Family("view_observation", "view_observations")
    documents = Family("document", "documents", also=("upload_file",))
    kb = Family("kb", "knowledgebase")
    audit = Family("audit")
    api_keys = Family("api_key", "api_keys")
    tokens = Family("token", "tokens")

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
    ) -> None:
        # What is not passed comes from the environment, as other memory SDKs do.
        base_url = base_url or os.environ.get("MEMORYLAYER_URL") or DEFAULT_BASE_URL
        api_key = _header_safe_key(api_key or os.environ.get("MEMORYLAYER_API_KEY") or None)
        workspace_id = workspace_id or os.environ.get("MEMORYLAYER_WORKSPACE_ID") or None
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

    def _sandbox(
        self,
        method: str,
        path: str,
        parse: Callable[[httpx.Response], T],
        session_id: str,
        workspace_id: str | None,
        **request: Any,
    ) -> Call[T]:
        """A /v1/context/* call: the context environment is addressed by the session, in ``X-Session-ID``."""
        return self._call(
            method,
            f"/v1/context/{path}",
            parse,
            workspace_id=workspace_id,
            headers={"X-Session-ID": session_id},
            **request,
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

    def _need_ws(self, workspace_id: str | None) -> str:
        ws = self._ws(workspace_id)
        if not ws:
            raise ValueError("workspace_id is required (pass it, or set it on the client)")
        return ws

    def _with_ws(self, body: dict[str, Any], workspace_id: str | None) -> dict[str, Any]:
        """``body`` plus ``workspace_id`` (the call's or the client's), for the routes that read it there."""
        ws = self._ws(workspace_id)
        return {**body, "workspace_id": ws} if ws else body
