"""Stored secrets (MCP servers' env and header values, data providers' passwords) are shown only to a caller that
may write, and only when asked: a read-only key, or a read token it mints, asking `reveal_secrets` or
`include_secrets` is a 403 `secrets_need_write_access`; data providers' passwords are masked like MCP secrets; a
workspace export carries them masked unless a read-write caller asks."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from tests.integration.test_mcp_servers_api import HTTP, STDIO
from tests.secured import admin_client, bearer

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=400)

PROVIDER = {
    "name": "warehouse",
    "provider_type": "postgres",
    "connection_args": {
        "host": "db.internal",
        "user": "etl",
        "password": "pg-pa55",
        "options": {"token": "tk-9"},
    },
}
SECRETS = ("s3cret", "Bearer abc", "pg-pa55", "tk-9")


def client(url: str, ws: str, **fields) -> httpx.Client:
    with admin_client(url) as admin:
        r = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], **fields})
        assert r.status_code == 201, r.text
    return httpx.Client(base_url=url, headers={**bearer(r.json()["key"]), "X-Workspace-ID": ws}, timeout=30)


@pytest.fixture()
def stocked(secured, ws) -> Iterator[tuple[httpx.Client, httpx.Client, httpx.Client, dict]]:
    """A writer, a reader, the reader's read token, and the ids of what the writer registered."""
    with client(secured, ws) as writer, client(secured, ws, access="read") as reader:
        ids = {
            "stdio": writer.post("/v1/mcp-servers", json=STDIO).json()["mcp_server"]["id"],
            "http": writer.post("/v1/mcp-servers", json=HTTP).json()["mcp_server"]["id"],
            "provider": writer.post("/v1/data-providers", json=PROVIDER).json()["provider"]["id"],
        }
        minted = reader.post("/v1/tokens", json={"name": "ro", "scopes": ["read"]})
        assert minted.status_code == 201, minted.text
        token_headers = {**bearer(minted.json()["token"]), "X-Workspace-ID": ws}
        with httpx.Client(base_url=secured, headers=token_headers, timeout=30) as token:
            yield writer, reader, token, ids


def refused(r: httpx.Response) -> bool:
    return r.status_code == 403 and r.json()["detail"]["code"] == "secrets_need_write_access"


def no_secret_in(text: str) -> bool:
    return not any(secret in text for secret in SECRETS)


def test_a_read_only_caller_cannot_reveal_secrets(stocked):
    _, reader, token, ids = stocked
    reveal = {"reveal_secrets": "true"}
    for caller in (reader, token):
        assert refused(caller.get(f"/v1/mcp-servers/{ids['stdio']}", params=reveal))
        assert refused(caller.get("/v1/mcp-servers", params=reveal))
        assert refused(caller.get("/v1/mcp-servers/export", params=reveal))
        assert refused(caller.post("/v1/mcp-servers/resolve", params=reveal, json={"name": "files"}))
        assert refused(caller.get(f"/v1/data-providers/{ids['provider']}", params=reveal))
        assert refused(caller.get("/v1/data-providers", params=reveal))
        masked = [
            caller.get(f"/v1/mcp-servers/{ids['stdio']}"),
            caller.get("/v1/mcp-servers"),
            caller.get("/v1/mcp-servers/export"),
            caller.get(f"/v1/data-providers/{ids['provider']}"),
            caller.get("/v1/data-providers"),
        ]
        assert all(r.status_code == 200 and no_secret_in(r.text) for r in masked), [r.text for r in masked]


def test_data_provider_passwords_are_masked_unless_a_writer_asks(stocked):
    writer, reader, _, ids = stocked
    shown = reader.get(f"/v1/data-providers/{ids['provider']}").json()["provider"]["connection_args"]
    assert shown == {"host": "db.internal", "user": "etl", "password": "***", "options": {"token": "***"}}
    assert writer.get(f"/v1/data-providers/{ids['provider']}").json()["provider"]["connection_args"] == shown
    revealed = writer.get(f"/v1/data-providers/{ids['provider']}", params={"reveal_secrets": "true"})
    assert revealed.json()["provider"]["connection_args"] == PROVIDER["connection_args"]
    server = writer.get(f"/v1/mcp-servers/{ids['stdio']}", params={"reveal_secrets": "true"}).json()
    assert server["mcp_server"]["env"] == STDIO["env"]


@pytest.mark.parametrize("version", ["2.0", "1.0"])
def test_an_export_carries_secrets_only_when_a_writer_asks(stocked, ws, version):
    writer, reader, token, _ = stocked
    path = f"/v1/workspaces/{ws}/export"
    for caller in (reader, token, writer):
        plain = caller.get(path, params={"version": version})
        assert plain.status_code == 200 and no_secret_in(plain.text)
        resources = [r for r in map(json.loads, plain.text.splitlines()) if r["type"] == "resource"]
        assert len(resources) == 3 and all(len(r["data"]["revisions"]) >= 1 for r in resources)
    for caller in (reader, token):
        assert refused(caller.get(path, params={"version": version, "include_secrets": "true"}))
    full = writer.get(path, params={"version": version, "include_secrets": "true"})
    assert full.status_code == 200 and all(secret in full.text for secret in SECRETS)
