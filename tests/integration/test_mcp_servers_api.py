"""/v1/mcp-servers over HTTP as the reference serves them: create, list, get, update (each a revision), delete
(final), secrets masked unless revealed, resolve, .mcp.json import and export, sync; bad input (a 4xx, nothing
written); isolation between workspaces and tenants; the round trip through the workspace export."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest

from tests.integration.test_resources_api import key_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

STDIO = {
    "name": "files",
    "transport": "stdio",
    "command": "npx",
    "args": ["-y", "fs-server"],
    "env": {"TOKEN": "s3cret", "HOME": "${HOME}"},
    "description": "Read and write local files",
}
HTTP = {
    "name": "search",
    "transport": "http",
    "url": "https://mcp.example/search",
    "headers": {"Authorization": "Bearer abc"},
}


@pytest.fixture()
def api(http: httpx.Client, ws: str) -> httpx.Client:
    http.headers["X-Workspace-ID"] = ws
    return http


def make(api: httpx.Client, body: dict) -> dict:
    r = api.post("/v1/mcp-servers", json=body)
    assert r.status_code == 201, r.text
    return r.json()["mcp_server"]


def test_a_server_is_created_updated_masked_and_deleted(api):
    server = make(api, STDIO)
    assert (server["name"], server["transport"], server["args"], server["revision"]) == (
        "files",
        "stdio",
        ["-y", "fs-server"],
        1,
    )
    assert server["env"] == {"TOKEN": "***", "HOME": "${HOME}"} and server["manifest_hash"]
    assert server["workspace_id"] == api.headers["X-Workspace-ID"] and server["enabled"] is True
    revealed = api.get(f"/v1/mcp-servers/{server['id']}", params={"reveal_secrets": True}).json()[
        "mcp_server"
    ]
    assert (
        revealed["env"] == STDIO["env"]
        and api.get(f"/v1/mcp-servers/{server['id']}").json()["mcp_server"] == server
    )
    assert api.post("/v1/mcp-servers", json=STDIO).json()["detail"]["code"] == "resource_key_exists"

    r = api.put(f"/v1/mcp-servers/{server['id']}", json={"args": ["fs-server", "/tmp"], "metadata": {"a": 1}})
    assert r.status_code == 200, r.text
    v2 = r.json()["mcp_server"]
    assert (v2["revision"], v2["args"], v2["metadata"], v2["command"]) == (
        2,
        ["fs-server", "/tmp"],
        {"a": 1},
        "npx",
    )
    assert v2["manifest_hash"] != server["manifest_hash"]
    r = api.put(f"/v1/mcp-servers/{server['id']}", json={"command": ""})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "mcp_command_required"

    make(api, HTTP)
    listed = api.get("/v1/mcp-servers").json()
    assert [s["name"] for s in listed["mcp_servers"]] == ["search", "files"] and listed["total_count"] == 2
    assert [
        s["name"] for s in api.get("/v1/mcp-servers", params={"transport": "http"}).json()["mcp_servers"]
    ] == ["search"]
    assert (
        api.get("/v1/mcp-servers", params={"limit": 1, "offset": 1}).json()["mcp_servers"][0]["name"]
        == "files"
    )

    assert api.delete(f"/v1/mcp-servers/{server['id']}").status_code == 204
    assert api.get(f"/v1/mcp-servers/{server['id']}").status_code == 404
    assert api.delete(f"/v1/mcp-servers/{server['id']}").status_code == 404
    assert make(api, STDIO)["id"] != server["id"]  # the name is free again


def test_import_export_resolve_and_sync(api):
    doc = {
        "mcpServers": {
            "files": {"command": "npx", "args": ["fs"], "env": {"K": "v"}},
            "events": {"url": "https://mcp.example/sse", "type": "sse"},
            "Bad Name": {"command": "x"},
            "no-command": {"args": ["x"]},
        }
    }
    r = api.post("/v1/mcp-servers/import", json=doc)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["imported"], body["updated"], body["skipped"]) == (2, 0, 2)
    assert [e.split(":")[0] for e in body["errors"]] == ["Bad Name", "no-command"]
    again = api.post(
        "/v1/mcp-servers/import", json={"mcpServers": {"files": {"command": "uvx", "args": ["fs"]}}}
    ).json()
    assert (again["imported"], again["updated"]) == (0, 1)

    exported = api.get("/v1/mcp-servers/export").json()
    assert exported == {
        "mcpServers": {
            "files": {"command": "uvx", "args": ["fs"]},  # re-imported without env: its entry is the config
            "events": {"url": "https://mcp.example/sse", "type": "sse"},
        }
    }
    files_id = api.get("/v1/mcp-servers", params={"name": "files"}).json()["mcp_servers"][0]["id"]
    api.put(f"/v1/mcp-servers/{files_id}", json={"env": {"K": "v"}})
    revealed = api.get("/v1/mcp-servers/export", params={"reveal_secrets": True}).json()["mcpServers"][
        "files"
    ]
    assert revealed["env"] == {"K": "v"}
    assert api.get("/v1/mcp-servers/export").json()["mcpServers"]["files"]["env"] == {"K": "***"}

    by_name = api.post("/v1/mcp-servers/resolve", json={"name": "events"}).json()
    assert by_name["mcp_server"]["transport"] == "sse" and by_name["candidates"] == []
    assert api.post("/v1/mcp-servers/resolve", json={"name": "nope"}).json() == {
        "mcp_server": None,
        "candidates": [],
    }
    by_query = api.post("/v1/mcp-servers/resolve", json={"query": "sse events stream"}).json()
    assert [s["name"] for s in by_query["candidates"]] == ["events"]
    r = api.post("/v1/mcp-servers/resolve", json={})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "name_or_query_required"

    server = api.get("/v1/mcp-servers", params={"name": "files"}).json()["mcp_servers"][0]
    sync = lambda h: api.post(f"/v1/mcp-servers/{server['id']}/sync", json={"manifest_hash": h}).json()  # noqa: E731
    assert sync(server["manifest_hash"]) == {
        "action": "in_sync",
        "reason": "local and server configs are identical",
        "server_manifest_hash": server["manifest_hash"],
    }
    assert (sync("")["action"], sync("other")["action"]) == ("pull", "conflict")


@pytest.mark.parametrize(
    "body",
    [
        {**STDIO, "name": "Files"},
        {**STDIO, "name": "a--b"},
        {**STDIO, "command": None},
        {**HTTP, "url": None},
        {**STDIO, "transport": "carrier-pigeon"},
        {**STDIO, "description": "x" * 1025},
        {**STDIO, "env": {"K": 1}},
        {**STDIO, "args": "not a list"},
    ],
)
def test_bad_servers_are_refused_and_nothing_is_written(api, body):
    r = api.post("/v1/mcp-servers", json=body)
    assert r.status_code == 422, r.text
    assert api.get("/v1/mcp-servers").json()["mcp_servers"] == []


def test_a_bad_import_document_writes_nothing(api):
    assert api.post("/v1/mcp-servers/import", json={"mcpServers": ["files"]}).status_code == 422
    assert api.post("/v1/mcp-servers/import", json={}).status_code == 422
    big = {"mcpServers": {f"s{i}": {"command": "x"} for i in range(257)}}
    assert api.post("/v1/mcp-servers/import", json=big).status_code == 422
    assert api.get("/v1/mcp-servers").json()["mcp_servers"] == []


@pytest.mark.parametrize("other_tenant", [False, True])
def test_another_workspace_or_tenant_sees_and_changes_nothing(secured, ws, other_ws, other_tenant):  # noqa: F811
    tenant = f"t_{uuid.uuid4().hex[:8]}" if other_tenant else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        server = make(a, STDIO)
        sid = server["id"]
        assert b.get(f"/v1/mcp-servers/{sid}").status_code == 404
        assert b.get(f"/v1/mcp-servers/{sid}", params={"workspace_id": ws}).status_code == 403
        assert b.put(f"/v1/mcp-servers/{sid}", json={"command": "pwned"}).status_code == 404
        assert b.delete(f"/v1/mcp-servers/{sid}").status_code == 404
        assert b.post(f"/v1/mcp-servers/{sid}/sync", json={}).status_code == 404
        assert b.post("/v1/mcp-servers", json={**STDIO, "workspace_id": ws}).status_code == 403
        assert (
            b.post("/v1/mcp-servers/import", json={"mcpServers": {}, "workspace_id": ws}).status_code == 403
        )
        assert b.get("/v1/mcp-servers").json()["mcp_servers"] == []
        assert b.get("/v1/mcp-servers/export").json() == {"mcpServers": {}}
        assert b.post("/v1/mcp-servers/resolve", json={"name": "files"}).json()["mcp_server"] is None
        assert make(b, STDIO)["id"] != sid
        assert a.get(f"/v1/mcp-servers/{sid}").json()["mcp_server"] == server


def test_servers_round_trip_through_the_workspace_export(http, ws, other_ws):
    http.headers["X-Workspace-ID"] = ws
    server = make(http, STDIO)
    assert "s3cret" not in http.get(f"/v1/workspaces/{ws}/export").text  # secrets only when asked for
    exported = http.get(f"/v1/workspaces/{ws}/export", params={"include_secrets": "true"})
    lines = [json.loads(line) for line in exported.text.splitlines()]
    assert [line["data"]["id"] for line in lines if line["type"] == "resource"] == [server["id"]]
    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200 and r.json()["resources_imported"] == 1, r.text
    got = http.get(f"/v1/mcp-servers/{server['id']}", headers={"X-Workspace-ID": other_ws}).json()[
        "mcp_server"
    ]
    assert got == {**server, "workspace_id": other_ws}


def test_our_sdk_drives_mcp_servers(base_url, ws):
    from memorylayer import SyncMemoryLayerClient

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        server = client.create_mcp_server("files", "stdio", command="npx", env={"T": "x"})
        assert (server.revision, server.env) == (1, {"T": "***"})
        assert client.get_mcp_server(server.id, reveal_secrets=True).env == {"T": "x"}
        v2 = client.update_mcp_server(server.id, args=["fs"])
        assert v2.args == ["fs"] and [s.id for s in client.list_mcp_servers()] == [server.id]
        assert client.resolve_mcp_server(name="files")[0].id == server.id
        result = client.import_mcp_servers({"mcpServers": {"web": {"url": "https://x.example"}}})
        assert result.imported == 1
        assert set(client.export_mcp_servers()["mcpServers"]) == {"files", "web"}
        assert client.sync_mcp_server(server.id, manifest_hash=v2.manifest_hash).action == "in_sync"
        client.delete_mcp_server(server.id)
        assert [s.name for s in client.list_mcp_servers()] == ["web"]
