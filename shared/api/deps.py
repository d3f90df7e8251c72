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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Header, Query, Request

from shared.core import metering
from shared.core.errors import Forbidden, InvalidInput, Unauthorized
from shared.core.settings import DEFAULT_WORKSPACE, USER_CHAT_WORKSPACE, Settings
from shared.db import audit, rls
from shared.db.scope import Scope
from shared.domain.auth import Principal, request_cost
from shared.domain.usage import OPERATOR
from shared.providers import secrets

if TYPE_CHECKING:
    from shared.app.services import Services

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
        """The key's workspaces and its tenant's user space (None: all)."""
        return self.principal.visible_workspaces()

    @property
    def tenant_id(self) -> str:
        return self.principal.tenant_id

    def allows(self, workspace_id: str) -> bool:
        return self.allowed is None or workspace_id in self.allowed

    def workspace(self, body_workspace: str | None = None) -> str:
        """The workspace a write or a search runs in; a key scoped to one workspace defaults to it."""
        own = self.principal.workspaces  # not the tenant's user space: that one is only used when named
        fallback = own[0] if own and len(own) == 1 else DEFAULT_WORKSPACE
        named = valid_workspace(body_workspace or self.requested or fallback)
        return self.principal.require_workspace(named)

    def require_shared_write(self) -> None:
        """403 unless this key may write its tenant's user space (``scope: "user"``): a key permission."""
        self.principal.require_workspace(self.principal.user_space)

    def lookup_scope(self, body_workspace: str | None = None) -> Scope:
        """Where an id may be found: the named workspace and the tenant's shared spaces this key reaches (a
        ``scope: "user"`` memory, or a ``_global`` one that recall returned, is found by its id whatever
        workspace the client names), else the key's workspaces, else (auth off) anywhere."""
        named = body_workspace or self.requested
        if named:
            workspace = self.principal.require_workspace(valid_workspace(named))
            return Scope.of(workspace, *self.shared_spaces())
        return self.visible_scope()

    def shared_spaces(self) -> tuple[str, ...]:
        """The tenant's user space and ``_global`` space, those this request may use (a read-only permission on
        the user space leaves it out of a write)."""
        spaces = (self.principal.user_space, self.principal.global_space)
        return tuple(space for space in spaces if self.allows(space))

    def thread_homes(self) -> tuple[str, ...]:
        """Where a thread id is looked up: the workspace named, then ``_user_chat``, the home the official SDK
        gives user-owned threads (it creates them there and reads them back under the app's workspace)."""
        named = self.workspace()
        extra = (
            (USER_CHAT_WORKSPACE,)
            if named != USER_CHAT_WORKSPACE and self.allows(USER_CHAT_WORKSPACE)
            else ()
        )
        return (named, *extra)

    def visible_scope(self) -> Scope:
        """Every workspace this key may see, whatever the request names (for listings across workspaces)."""
        return Scope.of(*self.allowed) if self.allowed is not None else Scope.anywhere()


async def services(request: Request) -> Services:
    """This process's services (``LazyServices``). Async: a sync dependency costs a threadpool hop on every
    request; only the process's first request does blocking work here (it builds the pool and embedder)."""
    return request.app.state.services.get()


# POSTs that only read: a read-only key may call them.
READ_ONLY_POSTS = re.compile(
    r"^/v1/(memories/(recall|reflect|answer|[^/]+/traverse)|sessions/[^/]+/context-(pack|delta)|context/inspect"
    r"|(skills|mcp-servers)/(resolve|[^/]+/sync)|representation(/user)?|documents/search|graph/(analyze|densify-preview))$"
)

# Minting, revoking and deleting tokens writes no workspace data: a read-only key may mint read-only tokens
# (shared/domain/tokens.py keeps every token no wider than its key).
TOKEN_ROUTES = re.compile(r"^/v1/tokens(/|$)")


def principal(
    request: Request,
    # Not a documented parameter: the OpenAPI bearer scheme stands for it (Swagger's Authorize sends it).
    authorization: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Principal:
    """Authenticate the request (``Authorization: Bearer <key>``, or the bare key) and rate-limit the key.

    Order matters: an address over its failure budget gets 429 before its key is looked at; a key that just
    failed is answered from memory; only then is the database asked; the per-key limit is charged last.
    """
    settings = request.app.state.settings
    token = bearer_token(authorization)
    if is_admin_key(settings, token):
        metering.identify(OPERATOR)
        return Principal(key_id="admin", workspaces=None, admin=True)
    if settings.auth_mode == "none":
        opened = Principal.open()  # every workspace, never the admin routes
        metering.identify(opened.tenant_id)
        return opened
    if not token:
        raise Unauthorized("missing API key: send Authorization: Bearer <key>", code="missing_api_key")
    guard = request.app.state.auth_guard
    # Behind API Gateway, Mangum puts requestContext.http.sourceIp here; locally it is the socket's peer.
    source = request.client.host if request.client else "unknown"
    guard.check_source(source, token)
    try:
        if guard.known_bad(token):
            raise Unauthorized("invalid API key", code="invalid_api_key")
        found = request.app.state.services.api_keys.authenticate(token)
    except Unauthorized as exc:
        if exc.code == "invalid_api_key":
            guard.remember_bad(token)
        guard.failed(source, token)
        raise
    guard.remember_good(token)
    metering.identify(found.tenant_id)  # billed from here on, a 429 of its own limit included
    length = request.headers.get("content-length", "")
    cost = request_cost(request.method, request.url.path, int(length) if length.isdigit() else 0)
    request.app.state.rate_limiter.take(found.budget_id or "", cost)
    writes = request.method not in ("GET", "HEAD", "OPTIONS") and not READ_ONLY_POSTS.match(request.url.path)
    if writes and not TOKEN_ROUTES.match(request.url.path):
        found.require_write()
        found = replace(found, writing=True)  # the walls then leave out a user space it may only read
    return found


def bearer_token(authorization: str | None) -> str:
    """The key of ``Authorization: Bearer <key>`` (or of a bare key)."""
    token = (authorization or "").strip()
    return token[7:].strip() if token.lower().startswith("bearer ") else token


def is_admin_key(settings: Settings, token: str) -> bool:
    """Whether ``token`` is the operator's admin key. Read here, not when the app is built: a Lambda init (and
    a SnapStart snapshot) holds no secret, and a rotated key takes effect within settings.secret_cache_ttl_s."""
    admin = secrets.admin_key(settings) if token else None
    return admin is not None and hmac.compare_digest(token.encode(), admin.encode())


PrincipalDep = Annotated[Principal, Depends(principal)]


def secrets_shown(who: Principal, asked: bool, *, option: str = "reveal_secrets") -> bool:
    """Whether stored secrets (MCP servers' env and header values, data providers' passwords) are answered as
    stored: only when asked, and only to a caller that may write; a read-only key (or a token it minted) that
    asks is refused (403 ``secrets_need_write_access``) rather than answered masked values it might take for
    the real ones."""
    if asked and who.access == "read":
        raise Forbidden(
            f"{option} needs a key that may write: a read-only key sees secrets masked",
            code="secrets_need_write_access",
        )
    return asked


async def row_wall(who: PrincipalDep) -> None:
    """Put the rest of the request behind the caller's row-level wall (migration 0015): every unit of work
    sees only ``who.visible_workspaces()``. Async on purpose: FastAPI runs a sync dependency in a copied
    context, so a wall set there would not reach the endpoint; set here, it stays in the request's task and
    every later dependency and the endpoint's threadpool call inherit it."""
    rls.set_for_request(who.visible_workspaces())
    audit.set_for_request(audit.Actor(who.key_id, who.tenant_id))  # who the request's audit events name


def caller(
    request: Request,
    who: PrincipalDep,
    workspace_query: Annotated[
        str | None,
        Query(alias="workspace_id", description="The workspace to use when the body does not name one."),
    ] = None,
    x_workspace_id: Annotated[
        str | None, Header(description="The workspace to use when the body or query does not name one.")
    ] = None,
    x_session_id: Annotated[
        str | None,
        Header(description="The session (SDKs send it after creating one); its workspace is the fallback."),
    ] = None,
) -> Caller:
    requested = workspace_query or x_workspace_id
    found = Caller(requested=requested, session_id=x_session_id, principal=who)
    if x_session_id:
        # Any request carrying X-Session-ID keeps that session alive (one UPDATE), on every route; the
        # session's workspace is the fallback when none is named. The principal is known by now (``who`` is
        # resolved first), and the session is looked for only where this caller may go, so another tenant's
        # id is neither touched nor revealed: it resolves nothing, exactly like an id that never existed.
        scope = session_scope(found)
        resolve = getattr(request.app.state.services, "session_workspace", None)
        may_write = who.access != "read"  # keeping a session alive is a write
        session_workspace = resolve(scope, x_session_id, write=may_write) if resolve and scope else None
        found.requested = requested or session_workspace
    return found


def session_scope(found: Caller) -> Scope | None:
    """Where an ``X-Session-ID`` may be found: where any id may (``Caller.lookup_scope``). None when the named
    workspace is not one the caller may use: the route answers that with its own 4xx, and no session anywhere
    is touched on the way."""
    try:
        return found.lookup_scope()
    except (Forbidden, InvalidInput):
        return None


CallerDep = Annotated[Caller, Depends(caller)]
if TYPE_CHECKING:
    ServicesDep = Annotated[Services, Depends(services)]
else:
    # FastAPI needs only the dependency at runtime; importing Services here would load every service module
    # when a Lambda imports its routes, before the first request (its cold start).
    ServicesDep = Annotated[Any, Depends(services)]
