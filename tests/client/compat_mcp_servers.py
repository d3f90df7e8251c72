"""Drive OUR /v1/mcp-servers with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12), sync and
async:

    .venv-compat312/bin/python tests/client/compat_mcp_servers.py http://127.0.0.1:PORT ws_abc

Every ``client.mcp_servers`` method: create, list, get, update, resolve, push_json, pull_json, delete. Prints one
JSON object of what it parsed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient

BASE_URL, WORKSPACE = sys.argv[1], sys.argv[2]


def sync_run(scratch: Path) -> dict[str, Any]:
    with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        made = client.mcp_servers.create("files", "stdio", command="npx", args=["fs"], env={"T": "secret"})
        listed = client.mcp_servers.list()
        got = client.mcp_servers.get(made.id)
        updated = client.mcp_servers.update(made.id, args=["fs", "/tmp"], description="Local files")
        resolved = client.mcp_servers.resolve("files")
        missing = client.mcp_servers.resolve("nope")
        source = scratch / "push.mcp.json"
        source.write_text(json.dumps({"mcpServers": {"web": {"url": "https://mcp.example"}}}))
        pushed = client.mcp_servers.push_json(source)
        pulled = json.loads(client.mcp_servers.pull_json(scratch / "pulled.mcp.json").read_text())
        client.mcp_servers.delete(made.id)
        after = client.mcp_servers.list()
    return {
        "made": [made.name, made.transport, made.workspace_id, made.env],
        "listed": [s.name for s in listed],
        "got": got.id == made.id,
        "updated": [updated.args, updated.description],
        "resolved": resolved.id if resolved else None,
        "made_id": made.id,
        "missing": missing,
        "pushed": [(s.name, s.transport) for s in pushed],
        "pulled": pulled,
        "after": [s.name for s in after],
    }


async def async_run() -> dict[str, Any]:
    async with MemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        # The async client names the workspace in bodies and list queries only (get and delete by id send none).
        made = await client.mcp_servers.create("async-one", "sse", url="https://mcp.example/sse")
        listed = await client.mcp_servers.list(transport="sse")
    return {"listed": [(s.id == made.id, s.transport, s.url) for s in listed]}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        result = {"sync": sync_run(Path(scratch)), "async": asyncio.run(async_run())}
    print(json.dumps(result))
