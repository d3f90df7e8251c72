"""Checks at the edge of the app that need no route: the Host allow-list, cross-site writes refused, HTML security
headers, and the last resort for an unhandled error.

    >>> app.add_middleware(HostCheck, allowed=frozenset({"localhost", "127.0.0.1"}))   # doctest: +SKIP
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.core import metrics
from shared.core.errors import Forbidden, InvalidInput, MemoryLayerError, Unprocessable
from shared.core.wire import LONE_SURROGATE, SURROGATE_ESCAPE, has_lone_surrogate

log = logging.getLogger("memorylayer.api")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def host_name(header: str) -> str:
    """``Host`` without its port, lower case: ``[::1]:61001`` → ``::1``.

    >>> host_name("LocalHost:61001"), host_name("[::1]:8080"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """Refuse a request whose ``Host`` is not one of ours (400 ``host_not_allowed``): a web page that rebinds its
    own name to 127.0.0.1 sends its own name, so it cannot drive a local server (auth off by default)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed)
        self.any = "*" in allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.any:
            headers = dict(scope.get("headers") or [])
            name = host_name(headers.get(b"host", b"").decode("latin-1"))
            if name not in self.allowed:
                message = f"Host {name!r} is not served here (MEMORYLAYER_ALLOWED_HOSTS)"
                response = JSONResponse(
                    {"detail": {"code": "host_not_allowed", "message": message}}, status_code=400
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


# Methods a browser may send cross-site without a CORS preflight (a form's POST) or after one: the ones that write.
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def origin_authority(origin: str) -> str | None:
    """``scheme://host[:port]`` → ``host:port`` (lower case, default port made explicit); None for anything
    else (``null``, an opaque origin).

    >>> origin_authority("https://Evil.Example"), origin_authority("http://127.0.0.1:61001"), origin_authority("null")
    ('evil.example:443', '127.0.0.1:61001', None)
    """
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep or scheme not in _DEFAULT_PORTS or not rest or "/" in rest:
        return None
    return authority(rest, _DEFAULT_PORTS[scheme])


def authority(netloc: str, default_port: str) -> str:
    """``host[:port]`` with its port (``default_port`` when none is written).

    >>> authority("LocalHost", "80"), authority("[::1]:8080", "80")
    ('localhost:80', '[::1]:8080')
    """
    netloc = netloc.strip().lower()
    bracketed = netloc.startswith("[")
    has_port = netloc.rsplit("]", 1)[-1].count(":") == 1 if bracketed else netloc.count(":") == 1
    return netloc if has_port else f"{netloc}:{default_port}"


def own_authorities(host: bytes) -> frozenset[str]:
    """The ``host:port`` an Origin of this server has, from the ``Host`` a request was sent to: without a port,
    either default one (TLS may end at a proxy, so the request's own scheme does not tell the page's).

    >>> sorted(own_authorities(b"api.example")), sorted(own_authorities(b"127.0.0.1:61001"))
    (['api.example:443', 'api.example:80'], ['127.0.0.1:61001'])
    """
    netloc = host.decode("latin-1").strip().lower()
    if not netloc:
        return frozenset()
    if authority(netloc, "") != netloc + ":":
        return frozenset({netloc})
    return frozenset(authority(netloc, port) for port in _DEFAULT_PORTS.values())


class CrossSiteCheck:
    """Refuse a write that a browser sends on behalf of another site (403 ``cross_site_request``), whatever the
    auth mode: a page on any origin may POST a form (``multipart/form-data``, no preflight) to the local server,
    which runs without keys by default, and so plant memories. A write is refused when its ``Origin`` is not the
    server's own (the ``Host`` it was sent to; the scheme is left out, as TLS often ends at a proxy) nor one of
    ``allowed``, or when the browser says ``Sec-Fetch-Site: cross-site``. Requests without either header (curl,
    the SDKs) are not a browser's and pass; so do reads (a browser's cross-site reads cannot see the answer)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.allowed = frozenset(a for a in (origin_authority(o) for o in allowed) if a is not None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in STATE_CHANGING:
            reason = self.refusal(dict(scope.get("headers") or []))
            if reason is not None:
                error = Forbidden(reason, code="cross_site_request")
                await JSONResponse({"detail": error.to_detail()}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: dict[bytes, bytes]) -> str | None:
        """Why this write is refused, or None when it may pass."""
        origin = headers.get(b"origin")
        if origin is not None:
            sent = origin.decode("latin-1")
            found = origin_authority(sent)
            if found is not None and (
                found in own_authorities(headers.get(b"host", b"")) or found in self.allowed
            ):
                return (
                    None  # the server's own page, or one the operator allowed: whatever Sec-Fetch-Site says
                )
            return (
                f"a write from the web page at {sent[:200]!r} is refused: only this server's own pages and "
                "MEMORYLAYER_ALLOWED_ORIGINS may write from a browser"
            )
        if headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
            return "a cross-site write from a browser is refused (Sec-Fetch-Site: cross-site)"
        return None


_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


def script_hashes(page: str) -> set[str]:
    """The CSP sources (``'sha256-…'``) of a page's inline scripts: for pages this server builds itself (/docs,
    /redoc), hashed once when the app is built, never from a response on its way out (a stored file's script
    would then be trusted too).

    >>> script_hashes("<script>go()</script><script src='/a.js'></script>")
    {"'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"}
    """
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode() + "'"
        for code in _INLINE_SCRIPT.findall(page)
    }


def content_security_policy(scripts: Iterable[str] = ()) -> str:
    """Scripts from this server and the known inline ones (``scripts``: hashes), nothing from elsewhere, no
    framing.

    >>> "frame-ancestors 'none'" in content_security_policy(), "script-src 'self';" in content_security_policy()
    (True, True)
    """
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src 'self' {' '.join(sorted(scripts))}".strip(),
            "style-src 'self' 'unsafe-inline'",  # Swagger UI and ReDoc set style attributes
            "img-src 'self' data:",
            "worker-src 'self' blob:",  # ReDoc's search worker
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


class SecurityHeaders:
    """Every HTML page gets a CSP and no-framing, no-sniffing and no-referrer headers; other answers
    ``nosniff`` only. The CSP allows the server's own script files and the inline scripts whose hashes are in
    ``scripts`` (filled by ``shared.api.docs.install`` from the pages it builds, after this layer is added:
    read at each answer). Nothing in a response body is trusted."""

    def __init__(self, app: ASGIApp, scripts: set[str] | None = None) -> None:
        self.app = app
        self.scripts = scripts if scripts is not None else set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Message) -> None:
            if message["type"] != "http.response.start":
                await send(message)
                return
            headers = list(message.get("headers") or [])
            present = {k.lower() for k, _ in headers}  # a page's own policy (the console's) wins
            extra = [(b"x-content-type-options", b"nosniff")]
            if dict(headers).get(b"content-type", b"").startswith(b"text/html"):
                extra += [
                    (b"content-security-policy", content_security_policy(self.scripts).encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                ]
            headers += [(k, v) for k, v in extra if k not in present]
            await send({**message, "headers": headers})

        await self.app(scope, receive, headed)


class LastResort:
    """An error no handler took becomes the usual JSON 500 here, inside the server's own error layer, which
    would answer and then re-raise: uvicorn then drops the keep-alive connection, and the client's next
    request on it fails."""

    def __init__(self, app: ASGIApp, handler: Callable[[Request, Exception], Awaitable[Response]]) -> None:
        self.app = app
        self.handler = handler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if started:
                raise  # half an answer is out: only dropping the connection tells the client
            response = await self.handler(Request(scope), exc)
            await response(scope, receive, send)


class StrictJson:
    """Two things Python's JSON parser takes that are not JSON text, refused before any route could store a value
    the database or the answer cannot carry: ``NaN`` and ``Infinity`` (not JSON numbers, RFC 8259; 400
    ``invalid_json``), and a lone surrogate (``"\\ud800"``: no UTF-8 encoder can write it, not even the one of a
    validation error echoing it; 422 ``invalid_text``). Only bodies that contain the words or a surrogate escape
    are parsed twice. NDJSON bodies pass through: their routes parse each line with
    ``shared.core.wire.strict_json``, which refuses both."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or []) if scope["type"] == "http" else {}
        content_type = headers.get(b"content-type", b"")
        # NDJSON is read a line at a time by its route (each line checked by strict_json): holding a whole
        # workspace's export here would undo the streaming.
        if b"json" not in content_type or b"ndjson" in content_type:
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        refused = _refusal(body)
        if refused is not None:
            await refused(scope, receive, send)
            return
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)


def _refusal(body: bytes) -> JSONResponse | None:
    """The answer to a JSON body holding NaN, Infinity or a lone surrogate; None for any other body."""
    constants = b"NaN" in body or b"Infinity" in body
    surrogates = SURROGATE_ESCAPE.search(body) is not None
    if not (constants or surrogates):
        return None
    found = False

    def constant(name: str) -> float:
        nonlocal found
        found = True
        return 0.0

    try:
        value = json.loads(body, parse_constant=constant)
    except ValueError:
        return None  # not JSON at all: the route's own parser answers that
    if found:
        error: MemoryLayerError = InvalidInput("NaN and Infinity are not JSON numbers", code="invalid_json")
    elif surrogates and has_lone_surrogate(value):
        error = Unprocessable(LONE_SURROGATE, code="invalid_text")
    else:
        return None
    return JSONResponse({"detail": error.to_detail()}, status_code=error.status)


# A client may send any token as a method: the label names these, and "other" for the rest.
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class RequestMetrics:
    """Each HTTP request counted and timed by method, route template (never the raw path: ``unmatched`` when
    no route took it) and status code, when a metrics sink is installed (shared/core/metrics.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not metrics.enabled():
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers when the app raises before its answer starts

        async def watching(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watching)
        finally:
            # The router writes the route it matched into the scope it was given: this same dict.
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = scope["method"] if scope["method"] in HTTP_METHODS else "other"
            labels = {"method": method, "route": route, "status": str(status)}
            metrics.record(metrics.HTTP_REQUESTS, **labels)
            metrics.record(metrics.HTTP_LATENCY, time.perf_counter() - started, **labels)
