"""POST /v1/workspaces/{id}/import reads its body by content type: the reference's JSON
(`WorkspaceImportRequest`, `{"data": export}`), a bare export object, or our NDJSON export, with the same result;
OpenAPI declares both. A body that is neither is a 400 that writes nothing."""

from __future__ import annotations

import json

import pytest

from tests.helpers.http import h, remember


def exported(http, ws: str) -> tuple[bytes, dict]:
    """The NDJSON export (version 1.0, the one the reference's JSON can carry), and the same as the reference's
    one JSON object."""
    r = http.get(f"/v1/workspaces/{ws}/export", params={"version": "1.0"})
    assert r.status_code == 200, r.text
    lines = [json.loads(line) for line in r.text.splitlines() if line]
    header = lines[0]
    data = {
        "version": header["version"],
        "exported_at": header["exported_at"],
        "workspace_id": ws,
        "memories": [line["data"] for line in lines if line["type"] == "memory"],
        "associations": [line["data"] for line in lines if line["type"] == "association"],
        "total_memories": header["total_memories"],
    }
    return r.content, data


def contents(http, ws: str) -> list[tuple]:
    _, data = exported(http, ws)
    memories = sorted((m["content"], tuple(m["tags"])) for m in data["memories"])
    associations = sorted(a["relationship"] for a in data["associations"])
    return [*memories, *associations]


def test_json_bare_and_ndjson_import_the_same(http, ws):
    a = remember(http, ws, "Alice drinks green tea", tags=["drinks"])
    b = remember(http, ws, "Alice lives in Lyon")
    link = http.post(
        f"/v1/memories/{a['id']}/associate",
        json={"target_id": b["id"], "relationship": "supports"},
        headers=h(ws),
    )
    assert link.status_code in (200, 201), link.text
    ndjson, data = exported(http, ws)
    bodies = {
        "json": {"json": {"data": data}},
        "bare": {"json": data},
        "ndjson": {"content": ndjson, "headers": {"Content-Type": "application/x-ndjson"}},
    }
    results = {}
    for kind, body in bodies.items():
        target = f"{ws}_{kind}"
        r = http.post(f"/v1/workspaces/{target}/import", **body)
        assert r.status_code == 200, r.text
        results[kind] = r.json()
        assert contents(http, target) == contents(http, ws)
    assert results["json"] == results["bare"] == results["ndjson"]
    assert (results["json"]["imported"], results["json"]["associations_imported"]) == (2, 1)


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b"not json", "application/json"),
        (b"[1, 2]", "application/json"),
        (b'{"type": "memory", "data": {"content": "x"}}\n[1]', "application/x-ndjson"),
        (b'{"type": "memory", "data": "x"}', "application/x-ndjson"),
    ],
)
def test_a_body_that_is_neither_is_400_and_writes_nothing(http, ws, content, content_type):
    r = http.post(f"/v1/workspaces/{ws}/import", content=content, headers={"Content-Type": content_type})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_import", r.text
    listed = http.get("/v1/memories", headers=h(ws))
    assert listed.status_code == 200 and listed.json()["memories"] == []


def test_openapi_declares_both_bodies(http):
    spec = http.get("/openapi.json").json()
    body = spec["paths"]["/v1/workspaces/{workspace_id}/import"]["post"]["requestBody"]["content"]
    assert body["application/json"]["schema"]["$ref"].endswith("/WorkspaceImportRequest")
    assert body["application/x-ndjson"]["schema"]["type"] == "string"
    data = spec["components"]["schemas"]["WorkspaceImportRequest"]["properties"]["data"]
    assert data["$ref"].endswith("/WorkspaceExportData")
    assert {"memories", "associations"} <= set(
        spec["components"]["schemas"]["WorkspaceExportData"]["properties"]
    )
