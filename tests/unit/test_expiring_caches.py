"""The auth guard's and recall's caches expire their entries and, when full, make room by dropping the oldest
entry rather than everything (a flood of new keys or scopes must not wipe what is known)."""

from __future__ import annotations

import pytest

from shared.core.errors import RateLimited
from shared.core.settings import Settings
from shared.domain.auth import AuthGuard
from shared.domain.retrieval import recall as recall_module
from shared.domain.retrieval.recall import SCOPE_COUNT_CACHE_MIN, SCOPE_COUNT_TTL_S, Recaller
from shared.providers.embeddings import create_embedder


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guard(clock: Clock) -> AuthGuard:
    return AuthGuard(lambda: None, failures_per_minute=2, negative_ttl_s=30, timer=clock)


def test_a_remembered_bad_key_expires() -> None:
    clock = Clock()
    g = guard(clock)
    g.remember_bad("mlk_a_1")
    clock.now += 29
    assert g.known_bad("mlk_a_1")
    clock.now += 2
    assert not g.known_bad("mlk_a_1")


def test_a_full_guard_forgets_the_oldest_key_not_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AuthGuard, "MAX_ENTRIES", 3)
    clock = Clock()
    g = guard(clock)
    for i in range(4):
        g.remember_bad(f"mlk_a_{i}")
        clock.now += 1
    assert [g.known_bad(f"mlk_a_{i}") for i in range(4)] == [False, True, True, True]


def test_a_good_key_is_let_through_a_blocked_address_until_it_expires() -> None:
    clock = Clock()
    g = guard(clock)
    g._blocked["10.0.0.1"] = clock() + 60  # blocked for a minute, as failed() would
    g.remember_good("mlk_a_good")
    g.check_source("10.0.0.1", "mlk_a_good")  # no 429
    clock.now += AuthGuard.GOOD_TTL_S + 1
    g._blocked["10.0.0.1"] = clock() + 60
    with pytest.raises(RateLimited, match="too many failed authentications"):
        g.check_source("10.0.0.1", "mlk_a_good")


def recaller(clock: Clock) -> Recaller:
    settings = Settings(embedding_provider="hash", database_url="postgresql://unused/x")
    return Recaller(None, create_embedder(settings), settings, timer=clock)  # type: ignore[arg-type]


def test_a_scope_count_expires() -> None:
    clock = Clock()
    r = recaller(clock)
    r._remember_scope_count(["ws_a"], {}, [{"scope_n": SCOPE_COUNT_CACHE_MIN}])
    assert r._scope_count(["ws_a"]) == SCOPE_COUNT_CACHE_MIN
    clock.now += SCOPE_COUNT_TTL_S + 1
    assert r._scope_count(["ws_a"]) is None


def test_a_full_scope_cache_forgets_the_oldest_scope_not_every_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall_module, "SCOPE_COUNT_ENTRIES", 3)
    clock = Clock()
    r = recaller(clock)
    for i in range(4):
        r._remember_scope_count([f"ws_{i}"], {}, [{"scope_n": 5000 + i}])
        clock.now += 1
    assert [r._scope_size([f"ws_{i}"]) for i in range(4)] == [None, 5001, 5002, 5003]
