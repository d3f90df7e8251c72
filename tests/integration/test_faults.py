"""Faults: the database restarting under concurrent writes. Requests fail fast with 503 while it is down,
the service recovers without a process restart, and every acknowledged (201) memory exists exactly once."""

from __future__ import annotations

import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from shared.api.app import create_app
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations
from shared.local.postgres import EmbeddedPostgres
from shared.local.server import serve_in_thread


@pytest.fixture()
def own_database() -> Iterator[EmbeddedPostgres]:
    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-fault-")) / "pg", ephemeral=True)
    apply_migrations(pg.dsn)
    yield pg
    pg.stop()


def test_database_restart_under_concurrent_writes(own_database):
    settings = Settings(
        database_url=own_database.dsn,
        embedding_provider="hash",
        db_pool_max=8,
        db_connect_timeout_s=2.0,
        auth_mode="none",
    )
    services = Services.build(settings)
    acknowledged: dict[str, str] = {}  # content -> id
    statuses: dict[int, int] = {}
    slow_failures: list[float] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(url: str, k: int) -> None:
        with httpx.Client(base_url=url, timeout=30, headers={"X-Workspace-ID": "ws_fault"}) as c:
            i = 0
            while not stop.is_set():
                content = f"writer {k} note {i} {uuid.uuid4().hex}"
                started = time.monotonic()
                try:
                    r = c.post("/v1/memories", json={"content": content})
                    status = r.status_code
                except httpx.HTTPError:
                    status = -1
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 201:
                        acknowledged[content] = r.json()["memory"]["id"]
                    elif time.monotonic() - started > 8:
                        slow_failures.append(time.monotonic() - started)
                i += 1

    try:
        with serve_in_thread(create_app(settings, services=services)) as url:
            threads = [threading.Thread(target=writer, args=(url, k)) for k in range(8)]
            for t in threads:
                t.start()
            time.sleep(1.5)
            own_database.restart(down_for_s=2.0)
            time.sleep(2)
            stop.set()
            for t in threads:
                t.join(timeout=60)
            # Recovered in the same process: ready and writable again.
            with httpx.Client(base_url=url, headers={"X-Workspace-ID": "ws_fault"}) as c:
                deadline = time.monotonic() + 20
                while c.get("/health/ready").status_code != 200 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert c.get("/health/ready").status_code == 200
                assert c.post("/v1/memories", json={"content": "after the restart"}).status_code == 201
    finally:
        services.close()

    # Only successes and fast 503s: no 500s, no hung requests.
    assert set(statuses) <= {201, 503}, statuses
    assert statuses.get(201, 0) > 50 and statuses.get(503, 0) > 0 and not slow_failures
    with psycopg.connect(own_database.dsn) as conn:
        rows = conn.execute(
            "SELECT content, array_agg(id) FROM memories WHERE workspace_id = 'ws_fault' GROUP BY content"
        ).fetchall()
    stored = {content: ids for content, ids in rows}
    for content, memory_id in acknowledged.items():
        assert stored.get(content) == [memory_id], content
