"""schemathesis against /openapi.json: positive and negative generated requests, zero 5xx, with auth off and
with ``api_key`` auth on (a workspace key in the Authorization header, as a deployed API runs).

Bounded in time (``ML_FUZZ_SECONDS``, default 120, per mode) and seeded, so CI stays fast and repeatable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from shared.api.app import create_app
from shared.local.server import serve_in_thread
from tests.secured import ADMIN, secured_settings

# Minutes of generated traffic: `make test` (and CI) runs it, `make test-fast` skips it.
pytestmark = pytest.mark.slow


class StatusCounter:
    """Counts the statuses an ASGI app answers (to show the fuzzer got past authentication)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.statuses: Counter[int] = Counter()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        async def counting(message: dict) -> None:
            if message["type"] == "http.response.start":
                self.statuses[message["status"]] += 1
            await send(message)

        await self.app(scope, receive, counting)


@pytest.fixture(scope="module")
def secured_fuzz_target(settings, services, database_url) -> Iterator[tuple[str, list[str], Counter[int]]]:
    """The API with api_key auth on, and the headers of a read-write key for ws_fuzz. Limits are high: the
    fuzzer's own volume must not turn its requests into 429s (throttling has its own tests)."""
    secure = secured_settings(settings, rate_limit_burst=1_000_000, auth_failures_per_minute=1_000_000)
    app = StatusCounter(create_app(secure, services=services))
    with serve_in_thread(app) as url:
        r = httpx.post(
            f"{url}/v1/admin/api-keys",
            json={"workspaces": ["ws_fuzz"]},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 201, r.text
        yield url, ["-H", f"Authorization: Bearer {r.json()['key']}"], app.statuses
    # Generated requests may carry malformed keys: leave loopback's failure count as it was for later tests.
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM rate_limit_counters WHERE bucket LIKE 'authfail:%'")


@pytest.mark.parametrize("auth", ["none", "api_key"])
def test_no_generated_request_gets_a_5xx(auth: str, request: pytest.FixtureRequest, tmp_path: Path):
    statuses: Counter[int] | None = None
    if auth == "none":
        base_url, extra = request.getfixturevalue("base_url"), []
    else:
        base_url, extra, statuses = request.getfixturevalue("secured_fuzz_target")
    cli = shutil.which("schemathesis") or str(Path(sys.executable).with_name("schemathesis"))
    seconds = os.environ.get("ML_FUZZ_SECONDS", "120")
    out = subprocess.run(
        [
            cli,
            "run",
            f"{base_url}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--mode",
            "all",
            "--max-examples",
            "10",
            "--seed",
            "7",
            "--max-time",
            seconds,
            "-H",
            "X-Workspace-ID: ws_fuzz",
            *extra,
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=int(seconds) + 120,
    )
    summary = out.stdout[-3000:]
    # On failure show the failures (each with its reproducing curl) too: the warnings before the summary are long.
    failures = out.stdout.find("FAILURES")
    assert out.returncode == 0, (out.stdout[failures : failures + 4000] if failures >= 0 else "") + summary
    assert "Server error" not in out.stdout and " passed" in summary
    if statuses is not None:
        # The key was used: most generated requests were answered past authentication, not all 401.
        authenticated = sum(n for status, n in statuses.items() if status not in (401, 429))
        assert authenticated > statuses[401], statuses
