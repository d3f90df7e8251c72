"""A resource family on the wire is a declaration: a ``Family`` names its kind, where it lives (a workspace in the
path or not), how one is addressed (by id, or by key through its store), its request and item models and which of
the generic routes it has; ``serve`` declares those routes on a router and the family makes its response envelopes
(``<Item>Response``, ``<Item>ListResponse``, ...), so no family hand-writes create, list, get, replace, delete,
restore or revisions. docs/ARCHITECTURE.md ("Declaring a resource family") walks through an eighth one.

    >>> NOTES = Family(PROMPT_NOTES, "/prompt-notes", "note_id", "note", "notes", PromptNote,
    ...                create=PromptNoteCreate, replace=PromptNoteReplace)            # doctest: +SKIP
    >>> serve(router, NOTES)                                                            # doctest: +SKIP

Writes are the resource mechanism's conditional writes: ``Idempotency-Key`` always, ``If-None-Match: *`` to create,
``If-Match: <etag>`` to replace, delete or restore; a missing one is a 428, a stale ETag a 412. A family the
reference writes unconditionally (MCP servers, data providers) declares ``conditional=False``.
"""

# No ``from __future__ import annotations``: endpoint signatures are built here, and FastAPI reads their
# annotations as objects.

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import Header, Query, Response
from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from shared.api.deps import Caller, valid_workspace
from shared.api.schemas.base import Wire
from shared.api.schemas.resources import Action, NextPageToken, OperationId, Replayed, VersionedHead
from shared.core.errors import InvalidInput, PreconditionRequired
from shared.domain.requests import RequestModel
from shared.domain.resources.service import Kind, Page, Precondition, ResourceService, Written

if TYPE_CHECKING:
    from shared.app.services import Services
else:
    Services = Any  # imported for types only: the services module loads every service

MAX_HEADER = 200
IdempotencyKey = Annotated[
    str | None,
    Header(
        description="Required on every write: a retry with the same key and body answers the first result."
    ),
]
IfMatch = Annotated[str | None, Header(description="Required: the ETag of the revision this write replaces.")]
IfNoneMatch = Annotated[str | None, Header(description="Required: `*` (create only if the key is free).")]
Limit = Annotated[int, Query(ge=1, le=500, description="How many at most (1-500, default 100).")]
PageToken = Annotated[str | None, Query(description="The `next_page_token` of the previous page.")]
IncludeDeleted = Annotated[
    bool, Query(description="Also deleted ones (tombstones, which `restore` revives).")
]
CONDITIONAL: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such resource in the workspace (or it is deleted)."},
    409: {
        "description": "The key is taken, the Idempotency-Key was used for another request, or not deleted."
    },
    412: {"description": "If-Match is not the current ETag (or If-None-Match is not `*`)."},
    428: {"description": "Idempotency-Key, If-Match or If-None-Match is missing."},
}
ROUTES = frozenset({"create", "list", "get", "replace", "delete", "restore", "revisions"})


def required(value: str | None, header: str) -> str:
    value = (value or "").strip()
    if not value:
        code = header.lower().replace("-", "_") + "_required"
        raise PreconditionRequired(f"{header} header is required", code=code, header=header)
    if len(value) > MAX_HEADER:
        raise InvalidInput(f"{header} header is too long", code="header_too_long", header=header)
    return value


def actor(caller: Caller) -> str | None:
    """Who writes, as revisions record it: the API key's id (none when auth is off)."""
    key_id = caller.principal.key_id
    return f"key:{key_id}" if key_id else None


def precondition(caller: Caller, idempotency_key: str | None, header: str, value: str | None) -> Precondition:
    """A conditional write's terms: its ``Idempotency-Key`` and ``header`` (If-Match or If-None-Match), both
    required (428), and who writes."""
    return Precondition(required(idempotency_key, "Idempotency-Key"), required(value, header), actor(caller))


def path_workspace(caller: Caller, workspace_id: str) -> str:
    """The workspace in the path: valid, and one the caller's key may use (403 otherwise)."""
    return caller.principal.require_workspace(valid_workspace(workspace_id))


class Store(Protocol):
    """Where a family's documents live, addressed as its routes address them (an id or a key)."""

    def create(self, workspace_id: str, body: Any, pre: Precondition, *, tenant_id: str) -> Written: ...

    def get(self, workspace_id: str, address: str, *, include_deleted: bool = False) -> dict[str, Any]: ...

    def page(
        self, workspace_id: str, *, limit: int, page_token: str | None, include_deleted: bool
    ) -> Page: ...

    def replace(self, workspace_id: str, address: str, body: Any, pre: Precondition) -> Written: ...

    def delete(self, workspace_id: str, address: str, pre: Precondition) -> Written: ...

    def restore(self, workspace_id: str, address: str, pre: Precondition) -> Written: ...

    def revisions(self, workspace_id: str, address: str, *, limit: int, page_token: str | None) -> Page: ...


@dataclass(frozen=True)
class ById:
    """A family addressed by resource id, its body naming its key and making its ``document()``."""

    resources: ResourceService
    kind: Kind

    def create(self, workspace_id: str, body: Any, pre: Precondition, *, tenant_id: str) -> Written:
        return self.resources.create(
            self.kind, workspace_id, body.key, body.document(), pre, tenant_id=tenant_id
        )

    def get(self, workspace_id: str, address: str, *, include_deleted: bool = False) -> dict[str, Any]:
        return self.resources.get(self.kind, workspace_id, address, include_deleted=include_deleted)

    def page(self, workspace_id: str, *, limit: int, page_token: str | None, include_deleted: bool) -> Page:
        return self.resources.page(
            self.kind, workspace_id, limit=limit, page_token=page_token, include_deleted=include_deleted
        )

    def replace(self, workspace_id: str, address: str, body: Any, pre: Precondition) -> Written:
        return self.resources.replace(self.kind, workspace_id, address, body.document(), pre)

    def delete(self, workspace_id: str, address: str, pre: Precondition) -> Written:
        return self.resources.delete(self.kind, workspace_id, address, pre)

    def restore(self, workspace_id: str, address: str, pre: Precondition) -> Written:
        return self.resources.restore(self.kind, workspace_id, address, pre)

    def revisions(self, workspace_id: str, address: str, *, limit: int, page_token: str | None) -> Page:
        return self.resources.revisions(self.kind, workspace_id, address, limit=limit, page_token=page_token)


@dataclass(frozen=True)
class Registry:
    """A registry the reference writes unconditionally (MCP servers, data providers): its service's create,
    get, update and delete (for good), as a family's store."""

    service: Any

    def create(
        self, workspace_id: str, body: Any, pre: None, *, actor: str | None, tenant_id: str
    ) -> Written:
        return self.service.create(workspace_id, body, actor=actor, tenant_id=tenant_id)

    def get(self, workspace_id: str, address: str) -> dict[str, Any]:
        return self.service.get(workspace_id, address)

    def update(self, workspace_id: str, address: str, body: Any, *, actor: str | None) -> Written:
        return self.service.update(workspace_id, address, body, actor=actor)

    def remove(self, workspace_id: str, address: str, *, actor: str | None) -> None:
        self.service.delete(workspace_id, address)


Items = Callable[..., Sequence[Wire]]  # (services, workspace, rows, **parents): the answer's items


@dataclass(frozen=True)
class Family:
    """One family on the wire.

    ``path`` is under /v1 and may hold ``{workspace_id}`` (the workspace then comes from the path, not the body);
    ``address`` is the path parameter naming one (an id, or a key when ``store`` addresses by key); the path's
    other parameters are its parents (a view's observations: ``view_id``); ``params`` declares path parameters.
    ``one``/``many`` are the envelope keys. ``routes`` says which generic routes it has (no ``replace``:
    append-only). ``store(services, **parents)`` is where its documents live (default: the resource service by
    id); ``items(services, workspace, rows, **parents, **answer_params)`` decorates answers (hashes, masked
    secrets; ``answer_params`` are the endpoint parameters it needs, e.g. ``reveal_secrets``). ``texts``
    overrides a route's description, ``words`` an envelope field's, ``at`` a route's (method, path after the
    address, name), ``responses`` its documented answers. With ``named`` False the operation ids and summaries
    are FastAPI's own, from ``<route>_<kind>`` endpoint names.

    Writes are conditional (``Idempotency-Key`` with ``If-Match``/``If-None-Match``, an ``ETag`` header, a
    ``replayed`` flag); with ``conditional`` False they take no conditions and answer neither, and
    ``optional_conditions`` makes the create's conditions optional (the reference's plain create). The
    unconditional routes are ``update`` (PUT, the fields sent, body ``update``) and ``remove`` (DELETE, 204).
    """

    kind: Kind
    path: str
    address: str
    one: str
    many: str
    item: Any  # a Wire model with ``from_row``
    create: type[RequestModel] | None = None
    replace: type[RequestModel] | None = None
    update: type[RequestModel] | None = None
    routes: frozenset[str] = ROUTES
    conditional: bool = True
    optional_conditions: bool = False
    at: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    responses: Mapping[str, Mapping[int | str, Any]] = field(default_factory=dict)
    answer_params: Mapping[str, Any] = field(default_factory=dict)
    body_workspace: bool = True  # a replace or update names its workspace in the body (else the caller's)
    tag: str = ""
    params: Mapping[str, FieldInfo] = field(default_factory=dict)
    store: Callable[..., Any] | None = None  # (services, **parents) -> a Store, or one without create
    items: Items | None = None
    named: bool = True
    name: str = ""  # its routes' names: ``<route>_<name>`` (default: its kind's)
    texts: Mapping[str, str] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)
    listing_fields: Mapping[str, Any] = field(default_factory=dict)
    list_deleted: bool = True

    @property
    def in_workspace_path(self) -> bool:
        return "{workspace_id}" in self.path

    @property
    def parents(self) -> tuple[str, ...]:
        return tuple(name for name in re.findall(r"{(\w+)}", self.path) if name != "workspace_id")

    @property
    def label(self) -> str:
        return self.kind.label

    def store_of(self, svc: Services, parents: Mapping[str, str]) -> Store:
        return self.store(svc, **parents) if self.store is not None else ById(svc.resources, self.kind)

    def answer(
        self, svc: Services, workspace_id: str, rows: list[dict[str, Any]], context: Mapping[str, Any]
    ) -> Sequence[Wire]:
        """The rows as the wire's items; ``context``: the parents and answer parameters of the request."""
        if self.items is not None:
            return self.items(svc, workspace_id, rows, **context)
        return [self.item.from_row(row) for row in rows]

    @cached_property
    def envelope(self) -> type[Wire]:
        return _model(
            f"{self.item.__name__}Response",
            {
                self.one: (self.item, Field(description=self.words.get("one", f"The {self.label}."))),
                **({"replayed": (Replayed, False)} if self.conditional else {}),
            },
        )

    @cached_property
    def listing(self) -> type[Wire]:
        fields = self.listing_fields or {"next_page_token": (NextPageToken, None)}
        text = self.words.get("many", f"The {self.label}s, most recently changed first.")
        return _model(
            f"{self.item.__name__}ListResponse",
            {self.many: (list[self.item], Field(description=text)), **fields},  # type: ignore[name-defined]
        )

    @cached_property
    def revision(self) -> type[Wire]:
        text = self.words.get("revision", f"The {self.label} as this revision left it.")
        return _model(
            f"{self.item.__name__}Revision",
            {
                self.one: (self.item, Field(description=text)),
                "action": (Action, ...),
                "operation_id": (OperationId, ...),
            },
        )

    @cached_property
    def revisions(self) -> type[Wire]:
        text = self.words.get("revisions", "Its revisions, newest first.")
        return _model(
            f"{self.item.__name__}RevisionListResponse",
            {
                "revisions": (list[self.revision], Field(description=text)),  # type: ignore[name-defined]
                "next_page_token": (NextPageToken, None),
            },
        )

    def written(
        self,
        svc: Services,
        workspace_id: str,
        written: Written,
        response: Response | None,
        context: Mapping[str, Any] | None = None,
    ) -> Wire:
        """The envelope of one write (or read), its ETag in the header (a conditional family's)."""
        item = self.answer(svc, workspace_id, [written.row], context or {})[0]
        if not self.conditional:
            return self.envelope.model_validate({self.one: item})
        assert response is not None
        response.headers["ETag"] = written.row["etag"]
        return self.envelope.model_validate({self.one: item, "replayed": written.replayed})

    def page(
        self,
        svc: Services,
        workspace_id: str,
        page: Page,
        context: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> Wire:
        items = self.answer(svc, workspace_id, page.rows, context or {})
        return self.listing.model_validate(
            {self.many: items, "next_page_token": page.next_page_token, **extra}
        )


def versioned_item(name: str, body: type[RequestModel]) -> type[Wire]:
    """A family's wire item made from its write body: the versioned head's fields (id, key, revision, ETag,
    tombstone, ...), then the body's own, as ``document()`` stores them beside the head. A family whose answer
    says more than its body (hashes, masked secrets) writes its item instead."""
    own = {
        field_name: (info.annotation, Field(description=info.description))
        for field_name, info in body.model_fields.items()
        if field_name not in VersionedHead.model_fields
    }
    return _model(name, own, base=VersionedHead)


def _model(name: str, fields: Mapping[str, Any], base: type[Wire] = Wire) -> type[Wire]:
    model: type[Wire] = create_model(name, __base__=base, __module__=Wire.__module__, **fields)
    return model
