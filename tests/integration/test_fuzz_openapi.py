"""schemathesis against /openapi.json: positive and negative generated requests, zero 5xx.

Bounded in time (``MEMORYLAYER_FUZZ_SECONDS``, default 120) and seeded, so CI stays fast and repeatable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def test_no_generated_request_gets_a_5xx(base_url, tmp_path: Path):
    cli = shutil.which("schemathesis") or str(Path(sys.executable).with_name("schemathesis"))
    seconds = os.environ.get("MEMORYLAYER_FUZZ_SECONDS", "120")
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
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=int(seconds) + 120,
    )
    summary = out.stdout[-3000:]
    assert out.returncode == 0, summary
    assert "Server error" not in out.stdout and " passed" in summary
