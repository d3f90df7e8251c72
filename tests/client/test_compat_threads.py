"""The official memorylayer-client 0.2.1, unchanged, against our threads: create and get (it reads the thread
flat), ``list_threads``' scope and ownership filters, ``list_user_threads`` (across workspaces), ``get_thread_full``'s paging, and an archived
thread left out of both listings."""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_threads.py")

pytestmark = pytest.mark.py312


def test_official_sdk_thread_listings(official_python: str, base_url: str) -> None:
    workspace, user = f"ws_thr_{uuid.uuid4().hex[:8]}", f"user_{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [official_python, str(SCRIPT), base_url, workspace, user], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    ids = out["ids"]
    assert out["listed"] == sorted([ids["web"], ids["office"]])
    assert out["web_only"] == [ids["web"]] and out["office_only"] == [ids["office"]]
    assert out["workspace_owned"] == []
    assert out["user_threads"] == out["listed"] and out["user_office"] == [ids["office"]]
    assert out["user_limit"] == 1
    assert out["archived_by_id"] == "archived"
    assert out["full"] == ["m1", "m0"] and out["total"] == 3
