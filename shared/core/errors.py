"""One domain error tree. ``shared/api/errors.py`` maps it to HTTP in exactly one place.

    >>> raise NotFound("memory mem_0123 not found")
    Traceback (most recent call last):
    shared.core.errors.NotFound: memory mem_0123 not found

Each class carries the HTTP status and a stable machine-readable ``code``; the body a client sees is
``{"detail": {"code": ..., "message": ..., **details}}`` (FastAPI's ``detail`` envelope, as the reference).
"""

from __future__ import annotations

from typing import Any


class MemoryLayerError(Exception):
    status = 500
    code = "internal_error"
    # Set on refusals a client should retry later: sent as the Retry-After header (shared/api/errors.py).
    retry_after_s: int | None = None

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details

    def to_detail(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}


class InvalidInput(MemoryLayerError):
    status = 400
    code = "invalid_input"


class Unauthorized(MemoryLayerError):
    status = 401
    code = "unauthorized"


class Forbidden(MemoryLayerError):
    status = 403
    code = "forbidden"


class NotFound(MemoryLayerError):
    status = 404
    code = "not_found"


class Conflict(MemoryLayerError):
    status = 409
    code = "conflict"


class EmbeddingModelMismatch(Conflict):
    code = "embedding_model_mismatch"


class CursorExpired(Conflict):
    code = "cursor_expired"


class PreconditionFailed(MemoryLayerError):
    status = 412
    code = "precondition_failed"


class PreconditionRequired(MemoryLayerError):
    """A conditional write sent without its precondition (``If-Match``, ``If-None-Match``, ``Idempotency-Key``)."""

    status = 428
    code = "precondition_required"


class PayloadTooLarge(MemoryLayerError):
    status = 413
    code = "payload_too_large"


class UnsupportedMediaType(MemoryLayerError):
    status = 415
    code = "unsupported_media_type"


class Unprocessable(MemoryLayerError):
    status = 422
    code = "unprocessable"


class ParseBudgetExceeded(Unprocessable):
    """A document took more time or memory to read than its parse is given (docs/documents.md): the bytes are
    refused, whatever the cause, so no retry can help."""

    code = "document_parse_budget_exceeded"


class RateLimited(MemoryLayerError):
    status = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after_s: int = 1, **details: Any) -> None:
        super().__init__(message, retry_after_s=retry_after_s, **details)
        self.retry_after_s = retry_after_s


class ServiceUnavailable(MemoryLayerError):
    status = 503
    code = "service_unavailable"


class Overloaded(ServiceUnavailable):
    """Every slot of a bounded resource is taken (the sandboxes'); retry after ``retry_after_s``."""

    code = "overloaded"

    def __init__(self, message: str, *, retry_after_s: int = 1, **details: Any) -> None:
        super().__init__(message, retry_after_s=retry_after_s, **details)
        self.retry_after_s = retry_after_s


class EmbeddingError(ServiceUnavailable):
    """The embedding provider failed after retries (timeouts, 5xx, 429)."""

    code = "embedding_unavailable"


class DatabaseUnavailable(ServiceUnavailable):
    code = "database_unavailable"


class DatabaseResuming(DatabaseUnavailable):
    """The database is resuming from an auto-pause and did not answer within this process's wait for it: the
    resume goes on without us, so the same request shortly after succeeds (``Retry-After``)."""

    code = "database_resuming"

    def __init__(self, message: str, *, retry_after_s: int = 10, **details: Any) -> None:
        super().__init__(message, retry_after_s=retry_after_s, **details)
        self.retry_after_s = retry_after_s
