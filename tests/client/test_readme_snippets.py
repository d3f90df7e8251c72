"""The README's code runs as printed: its curl blocks in bash (curl and jq, which it says it needs) and its SDK
snippet in Python, against the local stack with its extraction queue; only the address is swapped for the test
server's. Its MCP tool list is the MCP server's."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DEV_URL = re.compile(r"(?:http://)?(?:localhost|127\.0\.0\.1):61001")


def _section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n### ", start + len(title))
    return README[start:end]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def _at(code: str, url: str, workspace: str) -> str:
    return DEV_URL.sub(url, code).replace("X-Workspace-ID: demo", f"X-Workspace-ID: {workspace}")


def test_the_curl_examples_run(stack_url: str, ws: str) -> None:
    for tool in ("bash", "curl", "jq"):
        assert shutil.which(tool), f"{tool} is needed by the README's curl examples"
    blocks = _blocks(_section("### Try it with curl"), "bash")
    assert len(blocks) == 2
    script = "set -euo pipefail\n" + "\n".join(_at(b, stack_url, ws) for b in blocks)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "redis pool is exhausted" in done.stdout  # the first recall finds the first memory
    assert re.search(r"job job_\w+: done", done.stdout), done.stdout[-2000:]
    assert "Paris" in done.stdout.rsplit("job job_", 1)[1]  # the recall after the job finds Dana's city


def test_the_sdk_snippet_runs(stack_url: str, ws: str) -> None:
    (code,) = _blocks(_section("### The Python SDK"), "python")
    code = _at(code, stack_url, ws).replace('workspace_id="demo"', f'workspace_id="{ws}"')
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Dana lives in Paris" in done.stdout


def test_the_mcp_tool_list_is_the_servers() -> None:
    from memorylayer_mcp.server import TOOLS

    listed = re.search(r"<!-- mcp:tools -->(.*?)<!-- /mcp:tools -->", README, re.S)
    assert listed is not None
    names = re.findall(r"`(\w+)`", listed.group(1))
    assert sorted(names) == sorted(TOOLS)
    assert f"with {len(TOOLS)} tools" in README
