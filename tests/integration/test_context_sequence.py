"""Context cursors number a workspace's own events only (migration 0028, shared/db/functions/order_context_event.sql):
what a tenant reads from its cursors says nothing about other workspaces' writes, concurrent writers of one
workspace still all get through, and cursors handed out before the migration resume where they were."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from psycopg.rows import dict_row

from shared.db import sessions as events_repo
from shared.db.migrate import apply_migrations
from shared.domain.sessions import cursor as cursor_codec
from shared.providers import secrets
from tests.helpers.http import create, h, remember
from tests.helpers.migrated import database_migrated_to

# The last migration with one global sequence for every workspace's events.
BEFORE = "0027"


def pack_cursor(http: httpx.Client, ws: str, sid: str) -> str:
    r = http.post(f"/v1/sessions/{sid}/context-pack", json={}, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()["cursor"]


def delta_cursor(http: httpx.Client, ws: str, sid: str, cursor: str) -> str:
    r = http.post(
        f"/v1/sessions/{sid}/context-delta", json={"cursor": cursor, "budget_tokens": 200000}, headers=h(ws)
    )
    assert r.status_code == 200, r.text
    return r.json()["cursor"]


def events_of(database_url: str, ws: str) -> list[int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT sequence FROM session_context_events WHERE workspace_id = %s ORDER BY sequence", (ws,)
        ).fetchall()
    return [r[0] for r in rows]


def test_writes_of_another_workspace_do_not_move_a_cursor(http, ws, other_ws, settings, database_url):
    secret = secrets.cursor_secret(settings)
    sid = create(http, ws)["id"]

    def seq(cursor: str) -> int:
        return cursor_codec.decode(secret, cursor, ws, sid)

    remember(http, ws, "first in A")
    before = pack_cursor(http, ws, sid)
    # A's numbers count A's events and nothing else: the first pack of a new workspace stands at its own count.
    assert seq(before) == len(events_of(database_url, ws))
    for i in range(3):
        remember(http, other_ws, f"B's write {i}")
    assert seq(pack_cursor(http, ws, sid)) == seq(before)  # B wrote; A's cursor did not move
    remember(http, ws, "second in A")
    remember(http, other_ws, "B's last write")
    after = delta_cursor(http, ws, sid, before)
    assert seq(after) == seq(before) + 1  # exactly A's own one write in between
    assert events_of(database_url, ws) == list(range(1, seq(after) + 1))


def test_concurrent_writers_of_one_workspace_all_succeed_in_order(http, base_url, ws, database_url):
    sid = create(http, ws)["id"]
    start = pack_cursor(http, ws, sid)
    statuses: list[int] = []

    def write(worker: int) -> None:
        with httpx.Client(base_url=base_url, timeout=30) as client:
            for i in range(5):
                r = client.post("/v1/memories", json={"content": f"writer {worker} note {i}"}, headers=h(ws))
                statuses.append(r.status_code)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [201] * 30
    sequences = events_of(database_url, ws)
    assert sequences == list(range(1, len(sequences) + 1))  # unique, no gaps
    delivered: set[str] = set()
    cursor = start
    while True:
        r = http.post(
            f"/v1/sessions/{sid}/context-delta",
            json={"cursor": cursor, "budget_tokens": 200000},
            headers=h(ws),
        ).json()
        delivered |= {i["id"] for i in r["items"]}
        cursor = r["cursor"]
        if not r["has_more"]:
            break
    assert len(delivered) == 30


@pytest.fixture()
def before_0028(database_url: str) -> Iterator[str]:
    with database_migrated_to(database_url, BEFORE) as dsn:
        yield dsn


def _memory(conn: psycopg.Connection, ws: str, n: int) -> None:
    conn.execute(
        "INSERT INTO memories (id, workspace_id, content, content_hash, dedup_key, type) "
        "VALUES (%s, %s, %s, 'h', %s, 'semantic')",
        (f"mem_{ws}_{n:04d}", ws, f"note {n}", f"k-{n}"),
    )


def test_cursors_from_before_the_migration_resume(before_0028: str):
    with psycopg.connect(before_0028, autocommit=True, row_factory=dict_row) as conn:
        conn.execute(
            "INSERT INTO workspaces (id, name, tenant_id) VALUES ('ws_a', 'a', 'acme'), ('ws_b', 'b', 'acme')"
        )
        for n in range(3):  # one global counter: A's and B's numbers interleave
            _memory(conn, "ws_a", n)
            _memory(conn, "ws_b", n)
        # A workspace whose events retention removed already: only its horizon is left.
        conn.execute("INSERT INTO workspaces (id, name) VALUES ('ws_c', 'c')")
        conn.execute("INSERT INTO session_context_horizon (workspace_id, purged_through) VALUES ('ws_c', 50)")
    old_a, old_b = events_of(before_0028, "ws_a"), events_of(before_0028, "ws_b")
    assert old_a[0] < old_b[0] < old_a[1] < old_b[1] < old_a[2] < old_b[2]

    apply_migrations(before_0028)

    with psycopg.connect(before_0028, autocommit=True, row_factory=dict_row) as conn:
        for n in range(3, 5):
            _memory(conn, "ws_a", n)
        _memory(conn, "ws_b", 3)
        _memory(conn, "ws_c", 0)
        # Each workspace goes on from its own highest number; B's and C's writes do not move A's.
        top = old_a[-1]
        assert events_of(before_0028, "ws_a") == [*old_a, top + 1, top + 2]
        assert events_of(before_0028, "ws_b") == [*old_b, old_b[-1] + 1]
        assert events_of(before_0028, "ws_c") == [51]
        # A cursor handed out before (A at its second event) gets the old event after it and the new ones.
        after_old_cursor = events_repo.events_after(conn, "ws_a", "sess_any", old_a[1], 100)
        assert [(e["sequence"], e["subject_id"]) for e in after_old_cursor] == [
            (old_a[2], "mem_ws_a_0002"),
            (top + 1, "mem_ws_a_0003"),
            (top + 2, "mem_ws_a_0004"),
        ]
        assert events_repo.event_bounds(conn, "ws_a", "sess_any") == (0, top + 2)
        assert events_repo.event_bounds(conn, "ws_c", "sess_any") == (50, 51)
