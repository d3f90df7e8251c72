"""Self-hosting on a Postgres of your own, as the README's "Your own Postgres" walks it: a separately started
Postgres with pgvector (not the test suite's), ``memorylayer migrate --database-url``, then ``memorylayer serve
--worker``, whose extraction jobs run without SQS; ``serve`` without a worker says so at start."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from psycopg.conninfo import make_conninfo

from shared.local.postgres import EmbeddedPostgres
from shared.local.server import free_port


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[str]:
    """A second Postgres + pgvector on a directory (and socket) of its own: the user's database, superuser DSN."""
    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-own-")) / "pg", ephemeral=True)
    try:
        yield pg.dsn
    finally:
        pg.stop()


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "shared.cli", *args],
        env=_env(env),
        capture_output=True,
        text=True,
        timeout=180,
    )


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    return base | {"MEMORYLAYER_EMBEDDING_PROVIDER": "hash"} | (extra or {})


@pytest.fixture(scope="module")
def migrated(own_postgres: str) -> str:
    """``memorylayer migrate --database-url`` twice: everything, then nothing pending. Returns the app's DSN."""
    first = cli("migrate", "--database-url", own_postgres)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("applied: 0001_init")
    again = cli("migrate", "--database-url", own_postgres)
    assert again.returncode == 0 and again.stdout.strip() == "applied: nothing pending", again.stdout
    return make_conninfo(own_postgres, user="memorylayer_app")


def serve(app_dsn: str, tmp_path: Path, *flags: str) -> tuple[subprocess.Popen, str, Path]:
    port = free_port()
    log = tmp_path / "serve.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "serve", "--database-url", app_dsn, "--port", str(port), *flags],
        env=_env({"MEMORYLAYER_DATA_DIR": str(tmp_path / "data")}),
        stdout=subprocess.DEVNULL,
        stderr=log.open("ab"),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return proc, url, log
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    pytest.fail("memorylayer serve did not answer /health: " + log.read_text()[-3000:])


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(30)


def test_serve_with_the_worker_extracts_from_threads(migrated: str, tmp_path: Path) -> None:
    made = cli("keys", "create", "--workspace", "demo", "--database-url", migrated)
    assert made.returncode == 0, made.stderr
    key = re.search(r"^key:\s+(\S+)", made.stdout, re.M).group(1)  # type: ignore[union-attr]
    proc, url, log = serve(migrated, tmp_path, "--worker")
    try:
        assert "extraction worker: in this process" in log.read_text()
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {key}", "X-Workspace-ID": "demo"}
        ) as c:
            assert c.get("/v1/memories").status_code == 200  # api_key mode, its cursor secret made by itself
            thread = c.post("/v1/threads", json={"user_id": "dana"}).json()["thread"]["id"]
            appended = c.post(
                f"/v1/threads/{thread}/messages",
                json={"messages": [{"role": "user", "content": "Hi, my name is Dana and I live in Paris"}]},
            )
            job = appended.json()["job_id"]
            status = "queued"
            deadline = time.monotonic() + 60
            while status not in ("done", "failed") and time.monotonic() < deadline:
                time.sleep(0.2)
                status = c.get(f"/v1/jobs/{job}").json()["status"]
            assert status == "done", log.read_text()[-3000:]
            found = c.post("/v1/memories/recall", json={"query": "where does Dana live?"}).json()["memories"]
            assert any("Paris" in m["content"] for m in found)
    finally:
        stop(proc)
    assert (tmp_path / "data" / "context-cursor-secret").exists()


def test_serve_without_a_worker_says_so_at_start(migrated: str, tmp_path: Path) -> None:
    proc, _, log = serve(migrated, tmp_path)
    try:
        text = log.read_text()
        assert "warning: no extraction worker" in text and "--worker" in text
    finally:
        stop(proc)
