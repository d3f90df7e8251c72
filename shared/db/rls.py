"""Row-level security, the second wall: which workspaces the database lets the current unit of work see.

The first wall is every query's own ``workspace_id`` filter. The second is in the database (migration 0015):
as ``memorylayer_app``, a row of a tenant table is visible, and writable, only if its workspace is in the
transaction-local setting ``memorylayer.workspaces``. ``Database.connection()``/``transaction()`` apply the
wall of the current context at the start of each unit of work (``shared/db/pool.py``).

    >>> setting(("ws_a", "ws_b")), setting(EVERY), setting(NOTHING)
    ('ws_a,ws_b', '*', '')
    >>> with visible(("ws_a",)):
    ...     current(default=NOTHING)
    ('ws_a',)
    >>> current(default=NOTHING)
    ()

``Visible`` is ``None`` for every workspace (the admin key, auth mode none, the worker, cleanup: each says so
explicitly) and a tuple otherwise; the empty tuple, also what an API process assumes when nothing was set,
sees nothing at all (fail closed).

A ``ContextVar`` carries the wall from the request to the pool: FastAPI copies the context into the
threadpool call of each sync dependency and endpoint, so it is set in an *async* dependency
(``shared/api/deps.py`` ``row_wall``), whose changes stay in the request's task and reach everything after it.
Plain ``threading.Thread``/``ThreadPoolExecutor`` workers start from an empty context and so see nothing,
unless they are given ``contextvars.copy_context()`` or set their own wall.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final

Visible = tuple[str, ...] | None  # None: every workspace; (): none

EVERY: Final[Visible] = None
NOTHING: Final[Visible] = ()
SETTING = "memorylayer.workspaces"
_ALL = "*"
_SEPARATOR = ","

_UNSET: Final = object()
_current: ContextVar[Visible | object] = ContextVar("memorylayer_visible_workspaces", default=_UNSET)


def setting(workspaces: Visible) -> str:
    """The value of ``memorylayer.workspaces`` for ``workspaces`` (see migration 0015)."""
    if workspaces is None:
        return _ALL
    for workspace_id in workspaces:
        # API ids cannot hold these (deps.WORKSPACE_ID), but a key's workspace list is stored data: never let
        # one id widen the wall.
        if not workspace_id or _SEPARATOR in workspace_id or workspace_id == _ALL:
            raise ValueError(f"workspace id {workspace_id!r} cannot be put behind the row-level wall")
    return _SEPARATOR.join(workspaces)


def current(default: Visible) -> Visible:
    """The wall set in this context, else ``default`` (the database's own: nothing for the API)."""
    value = _current.get()
    return default if value is _UNSET else value  # type: ignore[return-value]


def set_for_request(workspaces: Visible) -> None:
    """Set the wall for the rest of this context (an async request dependency: its task ends with it)."""
    _current.set(workspaces)


@contextmanager
def visible(workspaces: Visible) -> Iterator[None]:
    """Run a block behind this wall, then restore the previous one."""
    token = _current.set(workspaces)
    try:
        yield
    finally:
        _current.reset(token)
