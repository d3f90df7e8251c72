"""Per-request context: the services of this process and the workspace the caller asked for.

Workspace resolution, as the reference: body ``workspace_id`` → ``?workspace_id`` → ``X-Workspace-ID`` →
the session's workspace (``X-Session-ID``) → ``_default``.

    >>> Caller(requested="ws_a").workspace()
    'ws_a'
    >>> Caller(requested=None).lookup_scope()
    Scope(ids=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request

from shared.db.memories import Scope
from shared.errors import InvalidInput
from shared.settings import DEFAULT_WORKSPACE

WORKSPACE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$")


def valid_workspace(workspace_id: str) -> str:
    if not WORKSPACE_ID.match(workspace_id):
        raise InvalidInput(
            "workspace id must be 1-128 characters of letters, digits and . _ : -", code="invalid_workspace_id"
        )
    return workspace_id


@dataclass
class Caller:
    """Who is calling and which workspace they named (header or query); the body can still name one."""

    requested: str | None
    session_id: str | None = None
    allowed: tuple[str, ...] | None = None  # API-key scope; None = unrestricted (auth mode "none")
    extras: dict[str, Any] = field(default_factory=dict)

    def workspace(self, body_workspace: str | None = None) -> str:
        """The workspace a write or a search runs in."""
        return valid_workspace(body_workspace or self.requested or DEFAULT_WORKSPACE)

    def lookup_scope(self, body_workspace: str | None = None) -> Scope:
        """Where an id may be found: the named workspace, else (auth off) anywhere, as the reference does."""
        named = body_workspace or self.requested
        if named:
            return Scope.of(valid_workspace(named))
        return Scope.of(*self.allowed) if self.allowed is not None else Scope.anywhere()


def services(request: Request) -> Any:
    return request.app.state.services


def caller(
    request: Request,
    workspace_id: Annotated[str | None, Query(include_in_schema=False)] = None,
    x_workspace_id: Annotated[str | None, Header()] = None,
    x_session_id: Annotated[str | None, Header()] = None,
) -> Caller:
    requested = workspace_id or x_workspace_id
    if requested is None and x_session_id:
        resolve = getattr(request.app.state.services, "session_workspace", None)
        requested = resolve(x_session_id) if resolve else None
    return Caller(requested=requested, session_id=x_session_id)


CallerDep = Annotated[Caller, Depends(caller)]
ServicesDep = Annotated[Any, Depends(services)]
