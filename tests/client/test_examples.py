"""Every script in examples/ runs, as a user would run it against `make dev`: a subprocess whose only link to
the server is MEMORYLAYER_URL (here the local stack with its extraction queue, as `make dev` serves it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("quickstart.py", "User lives in Paris"),
        ("llamaindex_chat.py", "after one more turn: 6 messages persisted"),
        ("agent.py", "agent (new conversation): From what I remember:"),
    ],
)
def test_example_runs_against_the_local_stack(script: str, expected: str, stack_url: str, ws: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    env |= {"MEMORYLAYER_URL": stack_url, "MEMORYLAYER_WORKSPACE_ID": ws}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)], env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert expected in done.stdout, done.stdout[-2000:]


def test_every_example_is_tested() -> None:
    tested = {"quickstart.py", "llamaindex_chat.py", "agent.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested
