"""The shared provider plumbing: retry policy, Retry-After, input checks and vector validation."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core.errors import EmbeddingError, InvalidInput
from shared.providers.embeddings.http import (
    Retry,
    RetryPolicy,
    batches,
    check_texts,
    retry_after,
    status_verdict,
    unit_vectors,
    with_retries,
)

FAST = RetryPolicy(max_retries=3, base_delay_s=0.001, max_delay_s=0.002)


def transient(exc: BaseException) -> Retry | None:
    return Retry() if isinstance(exc, ConnectionError) else None


def test_retries_transient_failures_until_success() -> None:
    attempts: list[int] = []

    def call() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise ConnectionError("reset")
        return "ok"

    assert with_retries(call, FAST, transient, what="test") == "ok"
    assert len(attempts) == 3


def test_gives_up_after_max_retries() -> None:
    attempts: list[int] = []

    def call() -> None:
        attempts.append(1)
        raise ConnectionError("down")

    with pytest.raises(EmbeddingError, match="test failed after 4 attempts: down") as info:
        with_retries(call, FAST, transient, what="test")
    assert len(attempts) == 4 and isinstance(info.value.__cause__, ConnectionError)


def test_permanent_failures_fail_at_once() -> None:
    attempts: list[int] = []

    def call() -> None:
        attempts.append(1)
        raise ValueError("bad key")

    with pytest.raises(EmbeddingError, match="test failed: bad key"):
        with_retries(call, FAST, transient, what="test")
    assert len(attempts) == 1


def test_backoff_grows_is_capped_and_prefers_retry_after() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=4.0)
    for attempt, cap in [(0, 1.0), (1, 2.0), (2, 4.0), (6, 4.0)]:
        assert all(0 <= policy.delay(attempt) <= cap for _ in range(50))
    assert policy.delay(5, retry_after_s=0.25) == 0.25
    assert policy.delay(0, retry_after_s=3600) <= 1.0  # absurd hints fall back to backoff


def test_retry_after_headers_and_status_verdicts() -> None:
    assert retry_after({"retry-after-ms": "250"}) == 0.25
    assert retry_after({"retry-after": "2"}) == 2.0
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) is None
    assert retry_after(None) is None
    assert status_verdict(429, {"retry-after": "1"}) == Retry(1.0)
    assert status_verdict(503) == Retry()
    assert status_verdict(400) is None and status_verdict(404) is None and status_verdict(None) is None


def test_unit_vectors_normalises_and_validates() -> None:
    vectors = unit_vectors([[3.0, 4.0], [0.0, 0.0]], expected=2, dimensions=2, source="p")
    assert [v.tolist() for v in vectors] == [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
    assert all(v.dtype == np.float32 for v in vectors)
    assert unit_vectors([], expected=0, dimensions=2, source="p") == []
    with pytest.raises(EmbeddingError, match="3-dimensional vectors but embedding_dimensions is 2"):
        unit_vectors([[1.0, 2.0, 3.0]], expected=1, dimensions=2, source="p")
    with pytest.raises(EmbeddingError, match="1 vectors for 2 texts"):
        unit_vectors([[1.0, 2.0]], expected=2, dimensions=2, source="p")
    with pytest.raises(EmbeddingError, match="malformed|ragged"):
        unit_vectors([[1.0, 2.0], [1.0]], expected=2, dimensions=2, source="p")
    with pytest.raises(EmbeddingError, match="non-finite"):
        unit_vectors([[float("nan"), 1.0]], expected=1, dimensions=2, source="p")


def test_check_texts_and_batches() -> None:
    assert check_texts(["a", ""]) == ["a", ""]
    assert check_texts(()) == []
    with pytest.raises(InvalidInput):
        check_texts("abc")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=r"texts\[1\] is int"):
        check_texts(["a", 1])  # type: ignore[list-item]
    assert [list(b) for b in batches([1, 2, 3, 4, 5], 2)] == [[1, 2], [3, 4], [5]]
