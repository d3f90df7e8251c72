"""A resource family on the wire is a declaration: a ``Family`` names its kind, where it lives (a workspace in the
path or not), how one is addressed (by id or by key), its request and item models and which of the generic routes
it has; ``serve`` declares those routes on a router and ``envelopes`` makes its response models, so no family
hand-writes create, list, get, replace, delete, restore or revisions.

    >>> NOTES = Family(PROMPT_NOTES, "/prompt-notes", "note_id", "note", "notes", PromptNote,
    ...                create=PromptNoteCreate, replace=PromptNoteReplace)            # doctest: +SKIP
    >>> serve(router, NOTES)                                                            # doctest: +SKIP

Writes are the resource mechanism's conditional writes: ``Idempotency-Key`` always, ``If-None-Match: *`` to create,
``If-Match: <etag>`` to replace, delete or restore; a missing one is a 428, a stale ETag a 412.
"""

# No ``from __future__ import annotations``: endpoint signatures are built here, and FastAPI reads their
# annotations as objects.

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import APIRouter, Header, Path, Query, Response
from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from shared.api.deps import Caller, CallerDep, ServicesDep, valid_workspace
from shared.api.routes.params import WorkspaceIdPath
from shared.api.schemas.base import Wire
from shared.api.schemas.resources import Action, NextPageToken, OperationId, Replayed
from shared.core.errors import InvalidInput, PreconditionRequired
from shared.domain.requests import RequestModel
from shared.domain.resources.fields import ResourceBody
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


Items = Callable[..., list[Wire]]  # (services, workspace, rows, **parents): the answer's items


@dataclass(frozen=True)
class Family:
    """One family on the wire.

    ``path`` is under /v1 and may hold ``{workspace_id}`` (the workspace then comes from the path, not the body);
    ``address`` is the path parameter naming one (an id, or a key when ``store`` addresses by key); the path's
    other parameters are its parents (a view's observations: ``view_id``); ``params`` declares path parameters.
    ``one``/``many`` are the envelope keys. ``routes`` says which generic routes it has (no ``replace``:
    append-only). ``store(services, **parents)`` is where its documents live (default: the resource service by
    id); ``items(services, workspace, rows, **parents)`` decorates answers (hashes, masked secrets). ``texts``
    overrides a route's description, ``words`` an envelope field's. With ``named`` False the operation ids and
    summaries are FastAPI's own, from ``<route>_<kind>`` endpoint names.
    """

    kind: Kind
    path: str
    address: str
    one: str
    many: str
    item: Any  # a Wire model with ``from_row``
    create: type[RequestModel] | None = None
    replace: type[RequestModel] | None = None
    routes: frozenset[str] = ROUTES
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
        self, svc: Services, workspace_id: str, rows: list[dict[str, Any]], parents: Mapping[str, str]
    ) -> list[Wire]:
        if self.items is not None:
            return self.items(svc, workspace_id, rows, **parents)
        return [self.item.from_row(row) for row in rows]

    @cached_property
    def envelope(self) -> type[Wire]:
        return _model(
            f"{self.item.__name__}Response",
            **{
                self.one: (self.item, Field(description=self.words.get("one", f"The {self.label}."))),
                "replayed": (Replayed, False),
            },
        )

    @cached_property
    def listing(self) -> type[Wire]:
        fields = self.listing_fields or {"next_page_token": (NextPageToken, None)}
        text = self.words.get("many", f"The {self.label}s, most recently changed first.")
        return _model(
            f"{self.item.__name__}ListResponse",
            **{self.many: (list[self.item], Field(description=text)), **fields},  # type: ignore[name-defined]
        )

    @cached_property
    def revision(self) -> type[Wire]:
        text = self.words.get("revision", f"The {self.label} as this revision left it.")
        return _model(
            f"{self.item.__name__}Revision",
            **{
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
            revisions=(list[self.revision], Field(description=text)),  # type: ignore[name-defined]
            next_page_token=(NextPageToken, None),
        )

    def written(
        self,
        svc: Services,
        workspace_id: str,
        written: Written,
        response: Response,
        parents: Mapping[str, str] | None = None,
    ) -> Wire:
        """The envelope of one write (or read), its ETag in the header."""
        response.headers["ETag"] = written.row["etag"]
        item = self.answer(svc, workspace_id, [written.row], parents or {})[0]
        return self.envelope.model_validate({self.one: item, "replayed": written.replayed})

    def page(
        self,
        svc: Services,
        workspace_id: str,
        page: Page,
        parents: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> Wire:
        items = self.answer(svc, workspace_id, page.rows, parents or {})
        return self.listing.model_validate(
            {self.many: items, "next_page_token": page.next_page_token, **extra}
        )


def _model(name: str, **fields: Any) -> type[Wire]:
    model: type[Wire] = create_model(name, __base__=Wire, __module__=Wire.__module__, **fields)
    return model


# --------------------------------------------------------------------------------------------------- the routes
def _param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def _declared(endpoint: Callable[..., Any], *params: inspect.Parameter) -> Callable[..., Any]:
    """The endpoint (which takes keywords) with the signature FastAPI reads: the family's path parameters and
    body model among the common ones."""
    endpoint.__signature__ = inspect.Signature(list(params))  # type: ignore[attr-defined]
    return endpoint


@dataclass(frozen=True)
class _Routes:
    router: APIRouter
    family: Family

    @property
    def base(self) -> str:
        return self.family.path

    @property
    def one(self) -> str:
        return f"{self.family.path}/{{{self.family.address}}}"

    def workspace_params(self) -> list[inspect.Parameter]:
        """The path's parameters before the address: its workspace (if there) and the family's parents."""
        workspace = [_param("workspace_id", WorkspaceIdPath)] if self.family.in_workspace_path else []
        return workspace + [self.path_param(name) for name in self.family.parents]

    def path_param(self, name: str) -> inspect.Parameter:
        default = (
            Path(description=f"The {self.family.label}'s id.") if name == self.family.address else Path()
        )
        return _param(name, Annotated[str, self.family.params.get(name, default)])

    def address_param(self) -> inspect.Parameter:
        return self.path_param(self.family.address)

    def parents(self, path: dict[str, str]) -> dict[str, str]:
        return {name: path[name] for name in self.family.parents}

    def store(self, svc: Services, path: dict[str, str]) -> Store:
        return self.family.store_of(svc, self.parents(path))

    def workspace(self, caller: Caller, path: dict[str, str]) -> str:
        """The workspace in the path, else the one the caller names (``X-Workspace-Id``) or defaults to."""
        if self.family.in_workspace_path:
            return path_workspace(caller, path["workspace_id"])
        return caller.workspace()

    def declare(
        self,
        route: str,
        method: str,
        path: str,
        endpoint: Callable[..., Any],
        summary: str,
        description: str,
        **options: Any,
    ) -> None:
        family = self.family
        kind = family.name or family.kind.name
        name = {"list": f"list_{kind}s", "revisions": f"list_{kind}_revisions"}.get(route, f"{route}_{kind}")
        endpoint.__name__ = name
        endpoint.__doc__ = family.texts.get(route, description)
        naming: dict[str, Any] = {"name": name}
        if family.named:
            naming |= {"operation_id": name, "summary": summary, "description": endpoint.__doc__}
        self.router.add_api_route(
            path,
            endpoint,
            methods=[method],
            tags=[family.tag or family.path.strip("/")],
            **naming,
            **options,
        )


def serve(router: APIRouter, family: Family) -> None:
    """Declare the family's generic routes on ``router``, in the order a request is matched against them."""
    r = _Routes(router, family)
    if "create" in family.routes:
        _create(r)
    if "list" in family.routes:
        _list(r)
    if "revisions" in family.routes:
        _revisions(r)
    if "get" in family.routes:
        _get(r)
    if "replace" in family.routes:
        _replace(r)
    for action in ("delete", "restore"):
        if action in family.routes:
            _change(r, action)


# Each endpoint takes its path parameters (the workspace, the parents, the address) as ``**path``; its
# declared signature (``_declared``) is what FastAPI reads.
COMMON = (_param("caller", CallerDep), _param("svc", ServicesDep))
WRITE = (_param("response", Response), _param("idempotency_key", IdempotencyKey, None))


def _create(r: _Routes) -> None:
    family = r.family
    assert family.create is not None

    def endpoint(
        body: ResourceBody,
        caller: Caller,
        svc: Services,
        response: Response,
        idempotency_key: str | None,
        if_none_match: str | None,
        **path: str,
    ) -> Wire:
        if family.in_workspace_path:  # the path's workspace is checked before the headers, the body's after
            workspace = r.workspace(caller, path)
        pre = precondition(caller, idempotency_key, "If-None-Match", if_none_match)
        if not family.in_workspace_path:
            workspace = caller.workspace(body.workspace_id)
        written = r.store(svc, path).create(workspace, body, pre, tenant_id=caller.tenant_id)
        return family.written(svc, workspace, written, response, r.parents(path))

    responses = (
        CONDITIONAL if family.in_workspace_path else {k: v for k, v in CONDITIONAL.items() if k != 404}
    )
    r.declare(
        "create",
        "POST",
        r.base,
        _declared(
            endpoint,
            *r.workspace_params(),
            _param("body", family.create),
            *COMMON,
            *WRITE,
            _param("if_none_match", IfNoneMatch, None),
        ),
        f"Create a {family.label}",
        "Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry with the same "
        "key and body answers the first result (`replayed: true`).",
        status_code=201,
        response_model=family.envelope,
        responses=responses,
    )


def _list(r: _Routes) -> None:
    family = r.family

    def endpoint(
        caller: Caller,
        svc: Services,
        limit: int,
        page_token: str | None,
        include_deleted: bool = False,
        **path: str,
    ) -> Wire:
        workspace = r.workspace(caller, path)
        options = {"include_deleted": include_deleted} if family.list_deleted else {}
        page = r.store(svc, path).page(workspace, limit=limit, page_token=page_token, **options)
        return family.page(svc, workspace, page, r.parents(path))

    deleted = [_param("include_deleted", IncludeDeleted, False)] if family.list_deleted else []
    r.declare(
        "list",
        "GET",
        r.base,
        _declared(
            endpoint,
            *r.workspace_params(),
            *COMMON,
            _param("limit", Limit, 100),
            _param("page_token", PageToken, None),
            *deleted,
        ),
        f"List {family.label}s",
        "Most recently changed first; `next_page_token` continues (tombstones with `include_deleted`).",
        response_model=family.listing,
    )


def _revisions(r: _Routes) -> None:
    family = r.family

    def endpoint(caller: Caller, svc: Services, limit: int, page_token: str | None, **path: str) -> Wire:
        workspace = r.workspace(caller, path)
        address = path[family.address]
        page = r.store(svc, path).revisions(workspace, address, limit=limit, page_token=page_token)
        items = family.answer(svc, workspace, page.rows, r.parents(path))
        revisions = [
            family.revision.model_validate(
                {family.one: item, "action": row["action"], "operation_id": row["operation_id"]}
            )
            for item, row in zip(items, page.rows, strict=True)
        ]
        return family.revisions.model_construct(revisions=revisions, next_page_token=page.next_page_token)

    r.declare(
        "revisions",
        "GET",
        f"{r.one}/revisions",
        _declared(
            endpoint,
            *r.workspace_params(),
            r.address_param(),
            *COMMON,
            _param("limit", Limit, 100),
            _param("page_token", PageToken, None),
        ),
        f"A {family.label}'s revisions",
        "Every accepted write (create, replace, delete, restore), newest first, with the resource as it left it "
        "and the write's `Idempotency-Key`.",
        response_model=family.revisions,
    )


def _get(r: _Routes) -> None:
    family = r.family
    deleted = "restore" in family.routes  # an append-only family has no tombstones to ask for

    def endpoint(
        caller: Caller, svc: Services, response: Response, include_deleted: bool = False, **path: str
    ) -> Wire:
        workspace = r.workspace(caller, path)
        options = {"include_deleted": include_deleted} if deleted else {}
        row = r.store(svc, path).get(workspace, path[family.address], **options)
        return family.written(svc, workspace, Written(row), response, r.parents(path))

    # ``params`` may word the query parameter for this family.
    flag = family.params.get("include_deleted")
    query = Annotated[bool, flag] if flag else IncludeDeleted
    extra = [_param("include_deleted", query, False)] if deleted else []
    r.declare(
        "get",
        "GET",
        r.one,
        _declared(
            endpoint,
            *r.workspace_params(),
            r.address_param(),
            *COMMON,
            _param("response", Response),
            *extra,
        ),
        f"Get a {family.label}",
        "One by id; the `ETag` header is its current revision's.",
        response_model=family.envelope,
    )


def _replace(r: _Routes) -> None:
    family = r.family
    assert family.replace is not None

    def endpoint(
        body: ResourceBody,
        caller: Caller,
        svc: Services,
        response: Response,
        idempotency_key: str | None,
        if_match: str | None,
        **path: str,
    ) -> Wire:
        if family.in_workspace_path:  # the path's workspace is checked before the headers, the body's after
            workspace = r.workspace(caller, path)
        pre = precondition(caller, idempotency_key, "If-Match", if_match)
        if not family.in_workspace_path:
            workspace = caller.workspace(body.workspace_id)
        written = r.store(svc, path).replace(workspace, path[family.address], body, pre)
        return family.written(svc, workspace, written, response, r.parents(path))

    r.declare(
        "replace",
        "PUT",
        r.one,
        _declared(
            endpoint,
            *r.workspace_params(),
            r.address_param(),
            _param("body", family.replace),
            *COMMON,
            *WRITE,
            _param("if_match", IfMatch, None),
        ),
        f"Replace a {family.label}",
        "Replace its whole document: send `Idempotency-Key` and `If-Match` (its current ETag; a stale one is a "
        "412 and changes nothing).",
        response_model=family.envelope,
        responses=CONDITIONAL,
    )


CHANGES = {
    "delete": (
        "DELETE",
        "",
        "Delete a {label}",
        "Leave a tombstone (its id and key stay taken; `restore` revives it): send `Idempotency-Key` and "
        "`If-Match`.",
    ),
    "restore": (
        "POST",
        "/restore",
        "Restore a deleted {label}",
        "Revive a tombstone with the document it had: send `Idempotency-Key` and `If-Match` (the tombstone's "
        "ETag); a live one is a 409.",
    ),
}


def _change(r: _Routes, action: str) -> None:
    family = r.family
    method, suffix, summary, description = CHANGES[action]

    def endpoint(
        caller: Caller,
        svc: Services,
        response: Response,
        idempotency_key: str | None,
        if_match: str | None,
        **path: str,
    ) -> Wire:
        workspace = r.workspace(caller, path)
        pre = precondition(caller, idempotency_key, "If-Match", if_match)
        write = getattr(r.store(svc, path), action)
        return family.written(
            svc, workspace, write(workspace, path[family.address], pre), response, r.parents(path)
        )

    r.declare(
        action,
        method,
        r.one + suffix,
        _declared(
            endpoint,
            *r.workspace_params(),
            r.address_param(),
            *COMMON,
            *WRITE,
            _param("if_match", IfMatch, None),
        ),
        summary.format(label=family.label),
        description,
        response_model=family.envelope,
        responses=CONDITIONAL,
    )
