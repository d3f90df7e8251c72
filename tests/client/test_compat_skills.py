"""The official memorylayer-client 0.2.1, unchanged, against our /v1/skills: every ``client.skills`` method
(save with files, list, get, manifest, files, resolve, push, pull, materialize, delete), sync and async."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_skills.py")

pytestmark = pytest.mark.py312


def test_official_sdk_skills(official_python: str, base_url: str, ws: str) -> None:
    done = subprocess.run(
        [official_python, str(SCRIPT), base_url, ws], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["sync"] == {
        "saved": ["pdf-tables", ws, True],
        "listed": ["pdf-tables"],
        "got": True,
        "manifest_head": ["---", "name: pdf-tables"],
        "files": ["scripts/run.py"],
        "content": "print(1)\n",
        "by_name": True,
        "by_query": "pdf-tables",  # a hit answers `skill`, which the SDK returns alone
        "pushed": ["pushed-skill", "Do the thing.\n"],
        "pulled": ["SKILL.md", "notes.txt"],
        "pulled_notes": "a bundled file\n",
        "materialized": ["pdf-tables", "pushed-skill"],
        "gone": "NotFoundError 404",
    }
    assert out["async"] == {"listed": [True], "remaining": []}
