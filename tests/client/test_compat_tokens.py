"""The official memorylayer-client 0.2.1, unchanged, against our /v1/tokens: create (the secret once), list,
get, revoke, delete, the token as its own key, and our refusals raising its own errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.secured import new_key

SCRIPT = Path(__file__).with_name("compat_tokens.py")

pytestmark = pytest.mark.py312


def test_official_sdk_tokens(official_python: str, secured: str, ws: str) -> None:
    key = new_key(secured, ws)
    done = subprocess.run(
        [official_python, str(SCRIPT), secured, key, ws], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["sync"] == {
        "token_prefix": "mlk_",
        "workspace_patterns": [ws],
        "scopes": ["read"],
        "has_expiry": True,
        "listed": [True],
        "got_name": "official",
        "reads": True,
        "write_refused": "MemoryLayerError 403",
        "after_revoke": "AuthenticationError 401",
        "revoked": [True],
        "live_contains": False,
        "gone": "NotFoundError 404",
        "wider": "MemoryLayerError 403",
    }
    assert out["async"] == {"listed": True, "scopes": ["*"], "remaining": False}
