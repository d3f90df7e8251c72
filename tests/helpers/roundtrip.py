"""Export format 2 in tests: fetch an export as lines, import it, and compare two exports as a person would
(everything but the workspace id, the export time, and, when ids were remapped, the ids themselves)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import httpx

from shared.domain.roundtrip import remapped_id


def export(http: httpx.Client, ws: str) -> list[dict[str, Any]]:
    r = http.get(f"/v1/workspaces/{ws}/export")
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def import_(http: httpx.Client, ws: str, lines: list[dict[str, Any]] | str, **headers: str) -> httpx.Response:
    body = lines if isinstance(lines, str) else "".join(json.dumps(line) + "\n" for line in lines)
    return http.post(
        f"/v1/workspaces/{ws}/import",
        content=body.encode(),
        headers={"Content-Type": "application/x-ndjson", **headers},
    )


def counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    return dict(Counter(line["type"] for line in lines if line["type"] not in ("header", "end")))


def canonical(lines: list[dict[str, Any]], ws: str, *, ids: dict[str, str] | None = None) -> list[str]:
    """The export as sorted JSON lines, its workspace id replaced, and with ``ids`` (new → old) mapped back."""
    out = []
    for line in lines:
        if line["type"] == "header":
            continue
        text = json.dumps(line, sort_keys=True).replace(ws, "<ws>")
        for new, old in (ids or {}).items():
            text = text.replace(new, old)
        out.append(text)
    return sorted(out)


def remap_table(lines: list[dict[str, Any]], target_ws: str) -> dict[str, str]:
    """new id → old id for every id of an export imported into ``target_ws`` with its ids remapped."""
    table: dict[str, str] = {}
    for line in lines:
        data = line.get("data")
        if isinstance(data, dict) and isinstance(data.get("id"), str) and line["type"] not in (
            "context", "resource", "header", "end"
        ):  # fmt: skip
            table[remapped_id(target_ws, data["id"])] = data["id"]
    return table
