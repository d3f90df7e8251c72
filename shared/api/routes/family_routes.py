"""The generic routes of a declared family (``shared.api.routes.families``): ``serve`` declares them on a router,
each endpoint given the signature FastAPI reads (the family's path parameters, body model and answer parameters
among the common ones)."""

# No ``from __future__ import annotations``: endpoint signatures are built here, and FastAPI reads their
# annotations as objects.

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Path, Response

from shared.api.deps import Caller, CallerDep, ServicesDep
from shared.api.routes.families import (
    CONDITIONAL,
    Family,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    IncludeDeleted,
    Limit,
    PageToken,
    actor,
    path_workspace,
    precondition,
)
from shared.api.routes.params import WorkspaceIdPath
from shared.api.schemas.base import Wire
from shared.domain.resources.fields import ResourceBody
from shared.domain.resources.service import Written

if TYPE_CHECKING:
    from shared.app.services import Services
else:
    Services = Any  # imported for types only: the services module loads every service


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

    def parents(self, given: dict[str, Any]) -> dict[str, str]:
        return {name: given[name] for name in self.family.parents}

    def context(self, given: dict[str, Any]) -> dict[str, Any]:
        """What the answer's items are made with: the parents and the family's answer parameters."""
        return {name: given[name] for name in (*self.family.parents, *self.family.answer_params)}

    def store(self, svc: Services, given: dict[str, Any]) -> Any:
        return self.family.store_of(svc, self.parents(given))

    def workspace(self, caller: Caller, given: dict[str, Any], body: Any = None) -> str:
        """The workspace in the path, else the body's, else the one the caller names or defaults to."""
        if self.family.in_workspace_path:
            return path_workspace(caller, given["workspace_id"])
        return caller.workspace(body.workspace_id if body is not None else None)

    def answered(
        self, svc: Services, workspace: str, written: Written, response: Any, given: dict[str, Any]
    ) -> Wire:
        return self.family.written(svc, workspace, written, response, self.context(given))

    def answer_params(self) -> list[inspect.Parameter]:
        return [_param(name, annotation) for name, annotation in self.family.answer_params.items()]

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
        if route in family.at:
            method, suffix, name = family.at[route]
            path = self.one + suffix
        if route in family.responses:
            options["responses"] = family.responses[route]
        endpoint.__name__ = name
        endpoint.__doc__ = family.texts.get(route, description)
        naming: dict[str, Any] = {"name": name}
        if family.named:
            naming |= {"operation_id": name, "summary": summary, "description": endpoint.__doc__}
        self.router.add_api_route(
            path,
            endpoint,
            methods=[method],
            tags=[tag] if (tag := family.tag or family.path.strip("/")) else None,  # else its router's
            **naming,
            **options,
        )


ORDER = ("create", "list", "revisions", "get", "replace", "update", "delete", "restore", "remove")


def serve(router: APIRouter, family: Family, routes: Iterable[str] | None = None) -> None:
    """Declare the family's generic routes on ``router`` (``routes``: only these, so a module can put its own
    routes between them), in the order a request is matched against them."""
    r = _Routes(router, family)
    wanted = set(family.routes if routes is None else routes)
    for route in ORDER:
        if route in wanted:
            DECLARE[route](r)


# Each endpoint takes its path parameters (the workspace, the parents, the address) and the family's answer
# parameters as ``**given``; its declared signature (``_declared``) is what FastAPI reads.
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
        idempotency_key: str | None = None,
        if_none_match: str | None = None,
        **given: Any,
    ) -> Wire:
        if family.in_workspace_path:  # the path's workspace is checked before the headers, the body's after
            workspace = r.workspace(caller, given)
        asked = family.conditional and (idempotency_key or if_none_match or not family.optional_conditions)
        pre = precondition(caller, idempotency_key, "If-None-Match", if_none_match) if asked else None
        if not family.in_workspace_path:
            workspace = r.workspace(caller, given, body)
        # A store that also writes unconditionally is told who writes (a precondition says it otherwise).
        unconditional = family.optional_conditions or not family.conditional
        who = {"actor": actor(caller)} if unconditional else {}
        written = r.store(svc, given).create(workspace, body, pre, tenant_id=caller.tenant_id, **who)
        return r.answered(svc, workspace, written, response, given)

    conditions = (*WRITE[1:], _param("if_none_match", IfNoneMatch, None)) if family.conditional else ()
    r.declare(
        "create",
        "POST",
        r.base,
        _declared(
            endpoint,
            *r.workspace_params(),
            _param("body", family.create),
            *COMMON,
            _param("response", Response),
            *conditions,
            *r.answer_params(),
        ),
        f"Create a {family.label}",
        "Send `Idempotency-Key` and `If-None-Match: *`; the `ETag` header is revision 1's. A retry with the same "
        "key and body answers the first result (`replayed: true`).",
        status_code=201,
        response_model=family.envelope,
        responses={k: v for k, v in CONDITIONAL.items() if k != 404} if family.conditional else None,
    )


def _list(r: _Routes) -> None:
    family = r.family

    def endpoint(
        caller: Caller,
        svc: Services,
        limit: int,
        page_token: str | None,
        include_deleted: bool = False,
        **given: Any,
    ) -> Wire:
        workspace = r.workspace(caller, given)
        options = {"include_deleted": include_deleted} if family.list_deleted else {}
        page = r.store(svc, given).page(workspace, limit=limit, page_token=page_token, **options)
        return family.page(svc, workspace, page, r.context(given))

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

    def endpoint(caller: Caller, svc: Services, limit: int, page_token: str | None, **given: Any) -> Wire:
        workspace = r.workspace(caller, given)
        address = given[family.address]
        page = r.store(svc, given).revisions(workspace, address, limit=limit, page_token=page_token)
        items = family.answer(svc, workspace, page.rows, r.context(given))
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
    deleted = "restore" in family.routes  # a family without tombstones to revive has none to ask for

    def endpoint(
        caller: Caller, svc: Services, response: Response, include_deleted: bool = False, **given: Any
    ) -> Wire:
        workspace = r.workspace(caller, given)
        options = {"include_deleted": include_deleted} if deleted else {}
        row = r.store(svc, given).get(workspace, given[family.address], **options)
        return r.answered(svc, workspace, Written(row), response, given)

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
            *r.answer_params(),
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
        **given: Any,
    ) -> Wire:
        if family.in_workspace_path:  # the path's workspace is checked before the headers, the body's after
            workspace = r.workspace(caller, given)
        pre = precondition(caller, idempotency_key, "If-Match", if_match)
        if not family.in_workspace_path:
            workspace = r.workspace(caller, given, body if family.body_workspace else None)
        written = r.store(svc, given).replace(workspace, given[family.address], body, pre)
        return r.answered(svc, workspace, written, response, given)

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


def _update(r: _Routes) -> None:
    family = r.family
    assert family.update is not None

    def endpoint(body: ResourceBody, caller: Caller, svc: Services, response: Response, **given: Any) -> Wire:
        workspace = r.workspace(caller, given, body if family.body_workspace else None)
        written = r.store(svc, given).update(workspace, given[family.address], body, actor=actor(caller))
        return r.answered(svc, workspace, written, response, given)

    r.declare(
        "update",
        "PUT",
        r.one,
        _declared(
            endpoint,
            *r.workspace_params(),
            r.address_param(),
            _param("body", family.update),
            *COMMON,
            _param("response", Response),
            *r.answer_params(),
        ),
        f"Update a {family.label}",
        "Change the fields sent: an unconditional write, still a revision.",
        response_model=family.envelope,
    )


def _remove(r: _Routes) -> None:
    family = r.family

    def endpoint(caller: Caller, svc: Services, **given: Any) -> Response:
        r.store(svc, given).remove(r.workspace(caller, given), given[family.address], actor=actor(caller))
        return Response(status_code=204)

    r.declare(
        "remove",
        "DELETE",
        r.one,
        _declared(endpoint, *r.workspace_params(), r.address_param(), *COMMON),
        f"Delete a {family.label}",
        "The unconditional delete.",
        status_code=204,
        response_class=Response,
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
        **given: Any,
    ) -> Wire:
        workspace = r.workspace(caller, given)
        pre = precondition(caller, idempotency_key, "If-Match", if_match)
        write = getattr(r.store(svc, given), action)
        return r.answered(svc, workspace, write(workspace, given[family.address], pre), response, given)

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


DECLARE: dict[str, Callable[[_Routes], None]] = {
    "create": _create,
    "list": _list,
    "revisions": _revisions,
    "get": _get,
    "replace": _replace,
    "update": _update,
    "delete": lambda r: _change(r, "delete"),
    "restore": lambda r: _change(r, "restore"),
    "remove": _remove,
}
