"""Drive OUR /v1/skills with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12), sync and async:

    .venv-compat312/bin/python tests/client/compat_skills.py http://127.0.0.1:PORT ws_abc

Every ``client.skills`` method: save (inline files), list, get, get_manifest, list_files, get_file, resolve by
name and by query, push a folder, pull one, materialize all, delete. Prints one JSON object of what it parsed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient
from memorylayer.exceptions import MemoryLayerError

BASE_URL, WORKSPACE = sys.argv[1], sys.argv[2]


def sync_run(scratch: Path) -> dict[str, Any]:
    with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        saved = client.skills.save(
            "pdf-tables",
            "Extract tables from PDFs",
            body="Use camelot.",
            files=[("scripts/run.py", b"print(1)\n")],
        )
        listed = client.skills.list()
        got = client.skills.get(saved.id)
        manifest = client.skills.get_manifest(saved.id)
        files = client.skills.list_files(saved.id)
        content = client.skills.get_file(saved.id, "scripts/run.py")
        by_name = client.skills.resolve(name="pdf-tables")
        by_query = client.skills.resolve(query="extract tables pdfs")
        folder = scratch / "pushed"
        folder.mkdir()
        (folder / "SKILL.md").write_text("---\nname: pushed-skill\ndescription: pushed\n---\nDo the thing.\n")
        (folder / "notes.txt").write_text("a bundled file\n")
        pushed = client.skills.push(folder)
        pulled = client.skills.pull("pushed-skill", scratch / "pulled")
        materialized = client.skills.materialize(scratch / "all")
        client.skills.delete(saved.id)
        try:
            client.skills.get(saved.id)
            gone = None
        except MemoryLayerError as exc:
            gone = f"{type(exc).__name__} {getattr(exc, 'status_code', None)}"
    return {
        "saved": [saved.name, saved.workspace_id, bool(saved.bundle_hash)],
        "listed": sorted(s.name for s in listed),
        "got": got.id == saved.id,
        "manifest_head": manifest.splitlines()[:2],
        "files": [f["path"] for f in files],
        "content": content.decode(),
        "by_name": getattr(by_name, "id", None) == saved.id,
        "by_query": [s.name for s in by_query]
        if isinstance(by_query, list)
        else getattr(by_query, "name", None),
        "pushed": [pushed.name, pushed.body],
        "pulled": sorted(p.name for p in pulled.iterdir()),
        "pulled_notes": (pulled / "notes.txt").read_text(),
        "materialized": sorted(p.name for p in materialized),
        "gone": gone,
    }


async def async_run() -> dict[str, Any]:
    async with MemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        saved = await client.skills.save("async-skill", "Made by the async client")
        listed = await client.skills.list(name="async-skill")
        await client.skills.delete(saved.id)
        remaining = await client.skills.list(name="async-skill")
    return {"listed": [s.id == saved.id for s in listed], "remaining": remaining}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        result = {"sync": sync_run(Path(scratch)), "async": asyncio.run(async_run())}
    print(json.dumps(result))
