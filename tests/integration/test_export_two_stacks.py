"""Export format 2 across deployments: a workspace exported from the test stack imports into a second, separately
started stack (its own embedded Postgres, migrations and app over HTTP) with every id kept, exports the same
there, and comes back the same once the source is gone."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from psycopg.conninfo import make_conninfo

from shared.api.app import create_app
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations
from shared.local.postgres import OWNER_ROLE, EmbeddedPostgres
from shared.local.server import serve_in_thread
from tests.conftest import APP_ROLE
from tests.helpers.http import h, recall, remember
from tests.helpers.roundtrip import canonical, counts, export, import_
from tests.integration.test_export_roundtrip import seed


@pytest.fixture(scope="module")
def second_stack() -> Iterator[str]:
    """Another deployment: a fresh embedded Postgres migrated as its owner, the app logged in as the app role."""
    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-second-")) / "pg", ephemeral=True)
    try:
        owner = make_conninfo(pg.dsn, user=OWNER_ROLE)
        apply_migrations(owner)
        settings = Settings(
            database_url=make_conninfo(pg.dsn, user=APP_ROLE),
            database_owner_url=owner,
            embedding_provider="hash",
            db_pool_max=4,
            auth_mode="none",
        )
        services = Services.build(settings)
        try:
            with serve_in_thread(create_app(settings, services=services)) as url:
                yield url
        finally:
            services.close()
    finally:
        pg.stop()


@pytest.fixture()
def there(second_stack: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=second_stack, timeout=60) as client:
        yield client


def test_a_workspace_moves_to_another_deployment_and_back(http, there, ws):
    pr = seed(http, ws)
    gone = remember(http, ws, "An outdated note about the old VPN")
    assert http.delete(f"/v1/memories/{gone['id']}", headers=h(ws)).status_code in (200, 204)
    before = export(http, ws)
    kinds = counts(before)
    assert {"entity", "alias", "relation", "evidence", "revision", "association", "thread", "message",
            "session", "working_memory", "memory", "resource"} <= set(kinds), kinds  # fmt: skip

    # Nothing of it exists over there: every row keeps its id, and the copy exports the same file.
    r = import_(there, ws, before)
    assert r.status_code == 200, r.text
    assert r.json()["ids"] == "kept" and r.json()["imported"] == kinds["memory"]
    moved = export(there, ws)
    assert moved[0]["workspace_id"] == ws
    assert canonical(moved, ws) == canonical(before, ws)
    # The copy answers from its own Postgres, with the source's ids.
    top = recall(there, ws, "Who reviewed PR-12?")["memories"][0]
    assert top["id"] == pr["id"] and "relational" in top["match_signals"]
    r = there.get(f"/v1/memories/{gone['id']}", params={"include_deleted": "true"}, headers=h(ws))
    assert r.status_code == 200 and r.json()["memory"]["deleted_at"], r.text

    # And back: the source deleted, the second deployment's file restores it here, row for row, ids kept.
    assert http.delete(f"/v1/workspaces/{ws}").status_code == 204
    r = import_(http, ws, moved)
    assert r.status_code == 200, r.text
    assert r.json()["ids"] == "kept"
    assert canonical(export(http, ws), ws) == canonical(before, ws)
    assert recall(http, ws, "Who reviewed PR-12?")["memories"][0]["id"] == pr["id"]


def test_a_file_cut_short_writes_nothing_in_the_other_deployment(http, there, ws):
    seed(http, ws)
    lines = export(http, ws)
    r = import_(there, ws, lines[:-1])
    assert r.status_code == 400, r.text
    assert r.json()["detail"]["code"] == "truncated_export"
    assert there.get(f"/v1/workspaces/{ws}").status_code == 404
    assert there.get(f"/v1/workspaces/{ws}/export").status_code == 404
