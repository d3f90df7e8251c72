"""Per-tenant usage of every ``/v1`` request, counted at the edge: the request opens a usage note
(``shared/core/metering.py``), the caller's dependency names its tenant, the work below counts into it (a replayed
Idempotency-Key, sandbox time, model tokens), and the note is added to the tenant's hourly row by one upsert
(``shared/domain/usage.py``).

The upsert runs before the response's last byte goes out, not after: a client that has its answer knows its
usage is stored (an operator's report read right after matches), and in Lambda the response leaves only when the
app returns anyway, so recording later would save nothing there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.core.metering import Note, metered

if TYPE_CHECKING:
    from shared.domain.usage import UsageMeter

log = logging.getLogger(__name__)


class UsageMetering:
    """ASGI layer: one usage note per ``/v1`` request, recorded once with the status it ended with."""

    def __init__(self, app: ASGIApp, meter: Callable[[], UsageMeter | None]) -> None:
        self.app = app
        self.meter = meter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        note = Note()
        status = 500
        recorded = False

        async def record() -> None:
            nonlocal recorded
            if recorded or note.tenant_id is None:
                return
            recorded = True
            length = dict(scope.get("headers") or []).get(b"content-length", b"")
            size = int(length) if length.isdigit() else 0
            await run_in_threadpool(self._record, note, scope["method"], scope["path"], status, size)

        async def metering_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                await record()
            await send(message)

        with metered(note):
            try:
                await self.app(scope, receive, metering_send)
            finally:
                await record()  # an answer that never finished (the client left) still used the work

    def _record(self, note: Note, method: str, path: str, status: int, size: int) -> None:
        """In the threadpool: reaching the services may build them (an admin key's first request)."""
        try:
            meter = self.meter()
        except Exception:
            log.exception("usage not recorded: no services")
            return
        if meter is not None:
            meter.record_request(note, method, path, status, size)
