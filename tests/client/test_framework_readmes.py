"""The LangGraph and LangChain READMEs' snippets run as printed against the live server (only the address and
workspace are swapped for the test's); the Agents SDK one needs a real model, its flow is
tests/client/test_openai_agents_session.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "client"
DEV_URL = re.compile(r"http://localhost:61001")


def _first_python_block(package: str) -> str:
    readme = (CLIENT / package / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", readme, re.S)[0]


@pytest.mark.parametrize(
    ("package", "printed"),
    [
        ("memorylayer-langgraph", "['I live in Lisbon']"),
        ("memorylayer-langchain", "[\"I'm Dana and I live in Porto.\", 'Nice to meet you, Dana.']"),
    ],
)
def test_the_readme_snippet_runs(package: str, printed: str, base_url: str, ws: str) -> None:
    code = DEV_URL.sub(base_url, _first_python_block(package)).replace(
        'workspace_id="demo"', f'workspace_id="{ws}"'
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    env["MEMORYLAYER_URL"] = base_url  # what a snippet leaves out comes from the environment
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == printed
