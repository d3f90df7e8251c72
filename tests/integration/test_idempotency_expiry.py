"""Memory writes' Idempotency-Key records expire: after settings.idempotency_ttl_s a key is free again (the write
treats an old record as none) and the cleanup sweep (functions/cleanup, make dev) deletes old records, oldest
first, leaving the recent ones."""

from __future__ import annotations

import uuid

from shared.app.cleanup import expire_idempotency_records
from tests.helpers.http import h


def age(services, ws: str, key: str, seconds: int) -> None:
    with services.db.transaction() as conn:
        conn.execute(
            "UPDATE idempotency_records SET created_at = now() - make_interval(secs => %s) "
            "WHERE workspace_id = %s AND key = %s",
            (seconds, ws, key),
        )


def keys(services, ws: str) -> list[str]:
    with services.db.connection() as conn:
        rows = conn.execute(
            "SELECT key FROM idempotency_records WHERE workspace_id = %s ORDER BY key", (ws,)
        ).fetchall()
    return [r["key"] for r in rows]


def test_the_sweep_deletes_records_past_their_time_and_keeps_the_rest(http, services, settings, ws):
    assert settings.idempotency_ttl_s == 24 * 3600  # a day, as is common
    for key in ("old-1", "old-2", "fresh"):
        r = http.post("/v1/memories", json={"content": key}, headers=h(ws, **{"Idempotency-Key": key}))
        assert r.status_code == 201, r.text
    age(services, ws, "old-1", 24 * 3600 + 60)
    age(services, ws, "old-2", 30 * 24 * 3600)
    age(services, ws, "fresh", 23 * 3600)
    assert expire_idempotency_records(services.db, settings.idempotency_ttl_s) >= 2
    assert keys(services, ws) == ["fresh"]
    again = http.post(
        "/v1/memories", json={"content": "fresh"}, headers=h(ws, **{"Idempotency-Key": "fresh"})
    )
    assert again.json()["replayed"] is True  # still within its day


def test_an_expired_key_is_free_again_before_the_sweep_runs(http, services, ws):
    key = f"k-{uuid.uuid4().hex}"
    first = http.post("/v1/memories", json={"content": "monday"}, headers=h(ws, **{"Idempotency-Key": key}))
    age(services, ws, key, 25 * 3600)
    later = http.post("/v1/memories", json={"content": "tuesday"}, headers=h(ws, **{"Idempotency-Key": key}))
    assert later.status_code == 201, later.text  # not a 409 idempotency_key_reused a day later
    assert later.json()["replayed"] is False and later.json()["memory"]["id"] != first.json()["memory"]["id"]
    assert keys(services, ws) == [key]  # the new write's record replaced the expired one
