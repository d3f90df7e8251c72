"""Per-request context: the services of this process and the workspace the caller asked for.

Workspace resolution, as the reference: body ``workspace_id`` → ``?workspace_id`` → ``X-Workspace-ID`` →
the session's workspace (``X-Session-ID``) → ``_default``.

    >>> Caller(requested="ws_a").workspace()
    'ws_a'
    >>> Caller(requested=None).lookup_scope()
    Scope(ids=None)
    >>> Caller(requested=None, principal=Principal("key_1", ("ws_b",))).workspace()
    'ws_b'
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request

from shared import secrets
from shared.auth import Principal
from shared.db import rls
from shared.db.scope import Scope
from shared.errors import InvalidInput, Unauthorized
from shared.settings import DEFAULT_WORKSPACE

WORKSPACE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$")


def valid_workspace(workspace_id: str) -> str:
    if not WORKSPACE_ID.match(workspace_id):
        raise InvalidInput(
            "workspace id must be 1-128 characters of letters, digits and . _ : -",
            code="invalid_workspace_id",
        )
    return workspace_id


@dataclass
class Caller:
    """Who is calling and which workspace they named (header or query); the body can still name one."""

    requested: str | None
    session_id: str | None = None
    principal: Principal = field(default_factory=Principal.open)

    @property
    def allowed(self) -> tuple[str, ...] | None:
        return self.principal.workspaces

    def allows(self, workspace_id: str) -> bool:
        return self.allowed is None or workspace_id in self.allowed

    def workspace(self, body_workspace: str | None = None) -> str:
        """The workspace a write or a search runs in; a key scoped to one workspace defaults to it."""
        fallback = self.allowed[0] if self.allowed and len(self.allowed) == 1 else DEFAULT_WORKSPACE
        named = valid_workspace(body_workspace or self.requested or fallback)
        return self.principal.require_workspace(named)

    def lookup_scope(self, body_workspace: str | None = None) -> Scope:
        """Where an id may be found: the named workspace, else the key's workspaces, else (auth off) anywhere,
        as the reference does."""
        named = body_workspace or self.requested
        if named:
            return Scope.of(self.principal.require_workspace(valid_workspace(named)))
        return Scope.of(*self.allowed) if self.allowed is not None else Scope.anywhere()


def services(request: Request) -> Any:
    return request.app.state.services


# POSTs that only read: a read-only key may call them.
READ_ONLY_POSTS = re.compile(
    r"^/v1/(memories/(recall|reflect|answer|[^/]+/traverse)|sessions/[^/]+/context-(pack|delta))$"
)


def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """Authenticate the request (``Authorization: Bearer <key>``, or the bare key) and rate-limit the key."""
    settings = request.app.state.settings
    if settings.auth_mode == "none":
        return Principal.open()
    token = (authorization or "").strip()
    if token.lower().startswith("bearer "):
        token = token[7:].strip()
    if not token:
        raise Unauthorized("missing API key: send Authorization: Bearer <key>", code="missing_api_key")
    # Read here, not when the app is built: a Lambda init (and a SnapStart snapshot) holds no secret, and a
    # rotated key takes effect within settings.secret_cache_ttl_s.
    admin = secrets.admin_key(settings)
    if admin and hmac.compare_digest(token.encode(), admin.encode()):
        return Principal(key_id="admin", workspaces=None, admin=True)
    found = request.app.state.services.api_keys.authenticate(token)
    request.app.state.rate_limiter.take(found.key_id)
    if request.method not in ("GET", "HEAD", "OPTIONS") and not READ_ONLY_POSTS.match(request.url.path):
        found.require_write()
    return found


PrincipalDep = Annotated[Principal, Depends(principal)]


async def row_wall(who: PrincipalDep) -> None:
    """Put the rest of the request behind the caller's row-level wall (migration 0015): every unit of work
    sees only ``who.visible_workspaces()``. Async on purpose: FastAPI runs a sync dependency in a copied
    context, so a wall set there would not reach the endpoint; set here, it stays in the request's task and
    every later dependency and the endpoint's threadpool call inherit it."""
    rls.set_for_request(who.visible_workspaces())


def caller(
    request: Request,
    who: PrincipalDep,
    workspace_query: Annotated[str | None, Query(alias="workspace_id", include_in_schema=False)] = None,
    x_workspace_id: Annotated[str | None, Header()] = None,
    x_session_id: Annotated[str | None, Header()] = None,
) -> Caller:
    requested = workspace_query or x_workspace_id
    if x_session_id:
        # Any request carrying X-Session-ID keeps that session alive (one UPDATE), on every route; the
        # session's workspace is the fallback when none is named.
        resolve = getattr(request.app.state.services, "session_workspace", None)
        session_workspace = resolve(x_session_id) if resolve else None
        requested = requested or session_workspace
    return Caller(requested=requested, session_id=x_session_id, principal=who)


CallerDep = Annotated[Caller, Depends(caller)]
ServicesDep = Annotated[Any, Depends(services)]
