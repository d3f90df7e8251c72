"""Plumbing the providers share: input checks, one retry policy, and turning provider rows into unit vectors.

    >>> policy = RetryPolicy(max_retries=2, base_delay_s=0.01)
    >>> calls = []
    >>> def flaky() -> str:
    ...     calls.append(1)
    ...     if len(calls) < 2:
    ...         raise TimeoutError("slow")
    ...     return "ok"
    >>> transient = lambda exc: Retry() if isinstance(exc, TimeoutError) else None
    >>> with_retries(flaky, policy, transient, what="demo")
    'ok'

The SDKs' own retries are switched off so that OpenAI, Gemini, the container and SageMaker all back off the
same way (exponential with full jitter, honouring ``Retry-After``) and fail with the same ``EmbeddingError``.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from shared.errors import EmbeddingError, InvalidInput

from .base import normalise

log = logging.getLogger(__name__)

T = TypeVar("T")

# HTTP statuses worth another attempt besides 5xx: request timeout, lock conflict (OpenAI), throttling.
RETRYABLE_STATUSES = frozenset({408, 409, 429})
# A server asking for a longer pause than this is treated as down rather than slept on inside a request.
MAX_RETRY_AFTER_S = 30.0


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` extra attempts after the first; delays grow ``base * 2**n`` up to ``max_delay_s``."""

    max_retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0

    @classmethod
    def from_settings(cls, settings: Any) -> RetryPolicy:
        return cls(
            max_retries=max(0, int(settings.embedding_max_retries)),
            base_delay_s=float(getattr(settings, "embedding_retry_base_delay_s", 0.5)),
            max_delay_s=float(getattr(settings, "embedding_retry_max_delay_s", 8.0)),
        )

    def delay(self, attempt: int, retry_after_s: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based); a server's ``Retry-After`` wins."""
        if retry_after_s is not None and 0 <= retry_after_s <= MAX_RETRY_AFTER_S:
            return retry_after_s
        # Full jitter spreads retries of many Lambdas hitting the same rate limit.
        return random.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt))


@dataclass(frozen=True)
class Retry:
    """A classifier's verdict that a failure is transient; ``after_s`` is the server's hint, if any."""

    after_s: float | None = None


Classifier = Callable[[BaseException], Retry | None]


def with_retries(call: Callable[[], T], policy: RetryPolicy, classify: Classifier, *, what: str) -> T:
    """Run ``call``, retrying failures ``classify`` deems transient; else ``EmbeddingError``."""
    attempt = 0
    while True:
        try:
            return call()
        except (EmbeddingError, InvalidInput):
            raise
        except Exception as exc:
            verdict = classify(exc)
            if verdict is None or attempt >= policy.max_retries:
                tried = f" after {attempt + 1} attempts" if verdict is not None else ""
                raise EmbeddingError(f"{what} failed{tried}: {describe(exc)}") from exc
            pause = policy.delay(attempt, verdict.after_s)
            log.info("%s failed (%s); retry %d in %.2fs", what, describe(exc), attempt + 1, pause)
            time.sleep(pause)
            attempt += 1


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from ``retry-after-ms`` (OpenAI) or ``retry-after`` (seconds); HTTP dates are ignored."""
    if not headers:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            continue
    return None


def status_verdict(status: int | None, headers: Mapping[str, str] | None = None) -> Retry | None:
    """Retry on throttling and 5xx, honouring the server's pause."""
    if status is not None and (status in RETRYABLE_STATUSES or 500 <= status < 600):
        return Retry(retry_after(headers))
    return None


def describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 300 else text[:300] + "..."


def check_texts(texts: Sequence[str]) -> list[str]:
    """Reject anything but a list of strings; empty strings are allowed."""
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise InvalidInput("texts must be a list of strings")
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise InvalidInput(f"texts[{index}] is {type(text).__name__}, expected str")
    return list(texts)


def batches(items: Sequence[T], size: int) -> list[Sequence[T]]:
    size = max(1, size)
    return [items[start : start + size] for start in range(0, len(items), size)]


def unit_vectors(rows: Sequence[Any], *, expected: int, dimensions: int, source: str) -> list[np.ndarray]:
    """Check a provider sent ``expected`` rows of ``dimensions`` finite floats; return them L2-normalised."""
    if len(rows) != expected:
        raise EmbeddingError(f"{source} returned {len(rows)} vectors for {expected} texts")
    try:
        matrix = np.asarray(rows, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise EmbeddingError(f"{source} returned malformed vectors: {describe(exc)}") from exc
    if expected == 0:
        return []
    if matrix.ndim != 2 or matrix.shape[1] != dimensions:
        got = matrix.shape[1] if matrix.ndim == 2 else "ragged"
        raise EmbeddingError(
            f"{source} returned {got}-dimensional vectors but embedding_dimensions is {dimensions}; "
            "check the model and MEMORYLAYER_EMBEDDING_DIMENSIONS"
        )
    if not np.isfinite(matrix).all():
        raise EmbeddingError(f"{source} returned non-finite values")
    return list(normalise(matrix))
