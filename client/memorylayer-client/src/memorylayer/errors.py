"""The SDK's exception tree: one class per HTTP failure, all under :class:`MemoryLayerError`.

    MemoryLayerError                 any failure (also transport errors: status_code is None)
    ├── AuthenticationError          401
    ├── AuthorizationError           403
    ├── NotFoundError                404
    ├── ConflictError                409
    ├── PreconditionFailedError      412
    ├── PayloadTooLargeError         413
    ├── ValidationError              400, 422
    ├── RateLimitError               429   (.retry_after seconds, if the server said)
    └── ServerError                  5xx

Every error carries ``status_code``, ``code`` (the server's ``detail.code`` when present), ``detail`` (the
body's ``detail``) and the request's ``method`` and ``url``::

    try:
        client.get_memory("mem_missing")
    except NotFoundError as exc:
        print(exc.status_code, exc.code, exc.method, exc.url)   # 404 memory_not_found GET http://…
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AuthenticationError",
    "AuthorizationError",
    "ConflictError",
    "MemoryLayerError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PreconditionFailedError",
    "RateLimitError",
    "ServerError",
    "TransportError",
    "ValidationError",
    "error_for_status",
]


class MemoryLayerError(Exception):
    """Base of every SDK error."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        code: str | None = None,
        detail: Any = None,
        method: str | None = None,
        url: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.code = code
        self.detail = detail
        self.method = method
        self.url = url

    def __str__(self) -> str:
        where = f" ({self.method} {self.url})" if self.method else ""
        status = f"{self.status_code} " if self.status_code else ""
        return f"{status}{self.message}{where}"


class TransportError(MemoryLayerError):
    """The request never got an HTTP answer (connection refused, timeout, ...) even after retries."""


class AuthenticationError(MemoryLayerError):
    """401: missing or invalid API key."""


class AuthorizationError(MemoryLayerError):
    """403: the key may not do this (or the workspace is outside its scope)."""


class NotFoundError(MemoryLayerError):
    """404: no such memory, association or workspace (in the workspace you named)."""


class ConflictError(MemoryLayerError):
    """409: e.g. an Idempotency-Key reused with a different body, or a sequence index already taken."""


class PreconditionFailedError(MemoryLayerError):
    """412: an ``If-Match`` ETag no longer matches, or a conditional write lacks its headers."""


class PayloadTooLargeError(MemoryLayerError):
    """413: the body, the content or the metadata is over the server's limit."""


class ValidationError(MemoryLayerError):
    """400 or 422: the server rejected the request's shape or values; ``detail`` says which field."""


class RateLimitError(MemoryLayerError):
    """429: slow down. ``retry_after`` is the server's Retry-After in seconds, when it sent one."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(MemoryLayerError):
    """5xx: the server failed (and retries, where allowed, did not help)."""


_BY_STATUS: dict[int, type[MemoryLayerError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: AuthorizationError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    413: PayloadTooLargeError,
    422: ValidationError,
    429: RateLimitError,
}


def _message(detail: Any, fallback: str) -> str:
    if isinstance(detail, str) and detail:
        return detail
    if isinstance(detail, dict):
        return str(detail.get("message") or detail.get("msg") or detail.get("code") or fallback)
    if isinstance(detail, list) and detail:
        first = detail[0]
        if isinstance(first, dict):
            loc = ".".join(str(p) for p in first.get("loc", []))
            return f"{loc}: {first.get('msg', fallback)}" if loc else str(first.get("msg", fallback))
    return fallback


def error_for_status(
    status_code: int,
    body: Any,
    *,
    method: str,
    url: str,
    reason: str = "",
    retry_after: float | None = None,
) -> MemoryLayerError:
    """The exception for an error response: ``body`` is the parsed JSON (or text) of the response.

    >>> error_for_status(404, {"detail": {"code": "not_found", "message": "gone"}}, method="GET", url="/x")
    NotFoundError('gone')
    """
    detail = body.get("detail", body) if isinstance(body, dict) else body
    code = detail.get("code") if isinstance(detail, dict) and isinstance(detail.get("code"), str) else None
    cls = _BY_STATUS.get(status_code) or (ServerError if status_code >= 500 else MemoryLayerError)
    message = _message(detail, reason or f"HTTP {status_code}")
    kwargs: dict[str, Any] = dict(status_code=status_code, code=code, detail=detail, method=method, url=url)
    if cls is RateLimitError:
        return RateLimitError(message, retry_after=retry_after, **kwargs)
    return cls(message, **kwargs)
