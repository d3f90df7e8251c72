"""The OFFICIAL memorylayer-client 0.2.1 ``context_*`` methods against our /v1/context/*.

Same virtualenv and skip rules as test_compat_official.py. Where we answer a real status code instead of the
reference's 200-with-error, the SDK raises its usual exception (docs/context-environment.md).
"""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("compat_official_context.py")

pytestmark = pytest.mark.py312


def test_official_sdk_context_methods(official_python: str, base_url: str) -> None:
    workspace, run = f"ws_ctx_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex[:8]
    done = subprocess.run(
        [official_python, "-B", str(SCRIPT), base_url, workspace, run],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])

    def ok(name: str):
        assert results[name]["ok"], (name, results[name])
        return results[name]["value"]

    assert ok("status_before") is False
    assert ok("exec") == {**ok("exec"), "result": "42", "error": None, "variables_changed": ["x"]}
    assert ok("load") >= 1
    assert ok("inject") == {"variable": "cfg", "type": "dict", "preview": "{'a': 1}", "error": None}
    assert ok("inspect") == 3
    assert ok("inspect_one") == {"variable": "x", "type": "int", "preview": "40", "size_bytes": 2}
    assert ok("exec_uses_loaded") == "True"
    # Real status codes: the SDK's ValidationError (422) and MemoryLayerError (403), not a 200 with error.
    assert results["exec_refused"]["error"].startswith("ValidationError")
    assert "generation_not_allowed" in results["query_without_llm"]["error"]
    assert ok("checkpoint") is None and ok("status") == ["cfg", "mems", "x"]
    assert ok("cleanup") is None and ok("status_after") is False
