"""The official memorylayer-client 0.2.1, unchanged, against our /v1/mcp-servers: every ``client.mcp_servers``
method (create, list, get, update, resolve, push_json, pull_json, delete), sync and async."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_mcp_servers.py")

pytestmark = pytest.mark.py312


def test_official_sdk_mcp_servers(official_python: str, base_url: str, ws: str) -> None:
    done = subprocess.run(
        [official_python, str(SCRIPT), base_url, ws], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    sync = out["sync"]
    assert sync.pop("resolved") == sync.pop("made_id")
    assert sync == {
        "made": ["files", "stdio", ws, {"T": "***"}],
        "listed": ["files"],
        "got": True,
        "updated": [["fs", "/tmp"], "Local files"],
        "missing": None,
        "pushed": [["web", "http"]],
        "pulled": {
            "mcpServers": {
                "web": {"transport": "http", "url": "https://mcp.example"},
                "files": {
                    "transport": "stdio",
                    "command": "npx",
                    "args": ["fs", "/tmp"],
                    "env": {"T": "***"},
                },
            }
        },
        "after": ["web"],
    }
    assert out["async"] == {"listed": [[True, "sse", "https://mcp.example/sse"]]}
