"""The MCP server as an agent meets it: ``memorylayer-mcp`` started as a subprocess, spoken to over stdio by the
``mcp`` SDK's own client, against the real app on uvicorn.

Each tool is called and its effect checked through the API itself (not through the MCP server), and every
failure the API reports comes back as an MCP tool error the model can read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver.exceptions import ToolError
from memorylayer import MemoryLayerClient
from memorylayer_mcp import Config, MemoryLayerTools, build_server

EXPECTED_TOOLS = {
    "remember",
    "recall",
    "forget",
    "associate",
    "context_pack",
    "answer",
    "relate",
    "entity",
    "list_entities",
    "list_users",
    "erase_user",
    "context_execute",
    "context_load",
    "context_inspect",
}


@asynccontextmanager
async def connect(base_url: str, ws: str, api_key: str | None = None) -> AsyncIterator[Client]:
    """A fresh ``memorylayer-mcp`` subprocess for one test (a context manager, not an async fixture: the
    client's reader tasks must live on the test's own event loop)."""
    env = {
        **os.environ,
        "MEMORYLAYER_URL": base_url,
        "MEMORYLAYER_WORKSPACE_ID": ws,
        "MEMORYLAYER_SESSION_ID": f"sess_mcp_{ws}",
    }
    env.pop("MEMORYLAYER_API_KEY", None)
    if api_key:
        env["MEMORYLAYER_API_KEY"] = api_key
    params = StdioServerParameters(command=sys.executable, args=["-m", "memorylayer_mcp"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        yield client


def _payload(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return " ".join(block.text for block in result.content)


async def test_lists_the_tools_with_described_schemas(base_url: str, ws: str) -> None:
    async with connect(base_url, ws) as mcp_client:
        await _lists_tools(mcp_client)


async def _lists_tools(mcp_client: Client) -> None:
    tools = {tool.name: tool for tool in (await mcp_client.list_tools()).tools}
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 60, tool.name
        schema = tool.input_schema
        assert schema["type"] == "object"
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
    assert tools["remember"].input_schema["required"] == ["content"]
    assert tools["recall"].annotations.read_only_hint is True
    assert tools["forget"].annotations.destructive_hint is True
    assert tools["relate"].input_schema["required"] == ["statement", "source", "relationship", "target"]
    assert tools["context_execute"].input_schema["required"] == ["code"]
    assert tools["entity"].annotations.read_only_hint is True


async def test_each_tool_against_the_real_app(base_url: str, http: httpx.Client, ws: str) -> None:
    async with connect(base_url, ws) as mcp_client:
        await _each_tool(mcp_client, http, ws)


async def _each_tool(mcp_client: Client, http: httpx.Client, ws: str) -> None:
    tea = _payload(
        await mcp_client.call_tool(
            "remember",
            {"content": "Alice prefers green tea over coffee.", "tags": ["prefs"], "type": "semantic"},
        )
    )["memory"]
    mug = _payload(
        await mcp_client.call_tool("remember", {"content": "Alice keeps a blue mug at her desk."})
    )["memory"]
    stored = http.get(f"/v1/memories/{tea['id']}", params={"workspace_id": ws}).json()["memory"]
    assert stored["content"] == "Alice prefers green tea over coffee." and stored["workspace_id"] == ws
    assert stored["tags"] == ["prefs"]

    hits = _payload(
        await mcp_client.call_tool("recall", {"query": "what does Alice drink", "tags": ["prefs"]})
    )
    assert [m["id"] for m in hits["memories"]] == [tea["id"]]
    assert "embedding" not in hits["memories"][0]

    link = _payload(
        await mcp_client.call_tool(
            "associate",
            {"source_id": mug["id"], "target_id": tea["id"], "relationship": "related_to", "strength": 0.9},
        )
    )["association"]
    edges = http.get(f"/v1/memories/{tea['id']}/associations", headers={"X-Workspace-ID": ws}).json()
    assert [e["id"] for e in edges["associations"]] == [link["id"]]

    pack = _payload(await mcp_client.call_tool("context_pack", {"topic": "Alice tea", "budget_tokens": 512}))
    assert pack["session_id"] == f"sess_mcp_{ws}"
    assert "green tea" in pack["rendered"] and tea["id"] in pack["item_ids"]
    again = _payload(
        await mcp_client.call_tool("context_pack", {"topic": "Alice tea"})
    )  # the session exists now
    assert tea["id"] in again["item_ids"]

    answer = _payload(await mcp_client.call_tool("answer", {"query": "What does Alice prefer to drink?"}))
    assert tea["id"] in [e["id"] for e in answer["evidence"]] or tea["id"] in answer["citations"]

    gone = _payload(await mcp_client.call_tool("forget", {"memory_id": mug["id"]}))
    assert gone == {"forgotten": mug["id"], "hard": False}
    assert http.get(f"/v1/memories/{mug['id']}").status_code == 404


async def test_api_refusals_are_mcp_tool_errors(base_url: str, http: httpx.Client, ws: str) -> None:
    async with connect(base_url, ws) as mcp_client:
        await _refusals(mcp_client, http, ws)


async def _refusals(mcp_client: Client, http: httpx.Client, ws: str) -> None:
    missing = _error_text(await mcp_client.call_tool("forget", {"memory_id": "mem_0000000000000000"}))
    assert "HTTP 404" in missing

    one = _payload(await mcp_client.call_tool("remember", {"content": "The build uses Python 3.11."}))[
        "memory"
    ]
    two = _payload(await mcp_client.call_tool("remember", {"content": "CI runs on Debian bookworm."}))[
        "memory"
    ]
    bad = _error_text(
        await mcp_client.call_tool(
            "associate", {"source_id": one["id"], "target_id": two["id"], "relationship": "frobnicates"}
        )
    )
    assert "HTTP 400" in bad
    assert (
        http.get(f"/v1/memories/{one['id']}/associations", headers={"X-Workspace-ID": ws}).json()[
            "associations"
        ]
        == []
    )

    # Refused by the tool's own schema before any HTTP call: out-of-range limit, wrong type.
    assert "limit" in _error_text(await mcp_client.call_tool("recall", {"query": "x", "limit": 1000}))
    assert _error_text(await mcp_client.call_tool("remember", {"content": ""}))


async def test_relations_through_the_tools(base_url: str, http: httpx.Client, ws: str) -> None:
    async with connect(base_url, ws) as mcp_client:
        await _relations(mcp_client, http, ws)


async def _relations(mcp_client: Client, http: httpx.Client, ws: str) -> None:
    related = _payload(
        await mcp_client.call_tool(
            "relate",
            {
                "statement": "Bob Lee reviewed PR-12 on the billing service.",
                "source": "Bob Lee",
                "source_type": "person",
                "relationship": "reviewed",
                "target": "PR-12",
                "target_type": "ticket",
            },
        )
    )
    assert related["related"] is True and len(related["relation_ids"]) == 1
    memory_id = related["memory"]["id"]
    # Written through the API's own relations: the entity route sees the relation, evidenced by the memory.
    bob = http.get("/v1/entities/resolve", params={"name": "bob lee", "workspace_id": ws}).json()
    bob_id = bob["resolution"]["entity"]["id"]
    stored = http.get(f"/v1/entities/{bob_id}", params={"workspace_id": ws}).json()
    assert [(r["relationship"], r["id"]) for r in stored["relations"]] == [
        ("reviewed", related["relation_ids"][0])
    ]

    # A reverse form lands in the canonical direction; an unknown relationship keeps the statement, says why.
    _payload(
        await mcp_client.call_tool(
            "relate",
            {
                "statement": "PR-12 was approved by Dana Ruiz.",
                "source": "PR-12",
                "relationship": "approved_by",
                "target": "Dana Ruiz",
                "target_type": "person",
            },
        )
    )
    odd = _payload(
        await mcp_client.call_tool(
            "relate",
            {
                "statement": "Bob Lee admires PR-12.",
                "source": "Bob Lee",
                "relationship": "admires",
                "target": "PR-12",
            },
        )
    )
    assert odd["related"] is False and "admires" in " ".join(odd["relation_errors"])

    pr = _payload(await mcp_client.call_tool("entity", {"name": "pr-12"}))
    assert pr["entity"]["name"] == "PR-12" and pr["entity"]["type"] == "ticket"
    assert sorted((r["direction"], r["relationship"], r["other_name"]) for r in pr["relations"]) == [
        ("incoming", "approved", "Dana Ruiz"),
        ("incoming", "reviewed", "Bob Lee"),
    ]
    by_id = _payload(await mcp_client.call_tool("entity", {"entity_id": bob_id}))
    assert [(r["direction"], r["other_name"]) for r in by_id["relations"]] == [("outgoing", "PR-12")]

    listed = _payload(await mcp_client.call_tool("list_entities", {}))
    assert {(e["name"], e["type"]) for e in listed["entities"]} == {
        ("Bob Lee", "person"),
        ("PR-12", "ticket"),
        ("Dana Ruiz", "person"),
    }

    hits = _payload(await mcp_client.call_tool("recall", {"query": "who reviewed PR-12?"}))
    assert hits["memories"][0]["id"] == memory_id
    assert ["Bob Lee", "reviewed", "PR-12"] in [rel for p in hits["relation_paths"] for rel in p["relations"]]
    assert any(memory_id in p["evidence_memory_ids"] for p in hits["relation_paths"])
    plain = _payload(
        await mcp_client.call_tool("recall", {"query": "who reviewed PR-12?", "include_relations": False})
    )
    assert "relation_paths" not in plain

    # Looking up a name nobody wrote is an MCP error naming the API's 404; it creates nothing.
    assert "HTTP 404" in _error_text(await mcp_client.call_tool("entity", {"name": "Nobody Known"}))
    assert "name or its id" in _error_text(await mcp_client.call_tool("entity", {}))
    assert http.get("/v1/entities", params={"workspace_id": ws}).json()["total_count"] == 3


async def test_context_environment_through_the_tools(base_url: str, http: httpx.Client, ws: str) -> None:
    async with connect(base_url, ws) as mcp_client:
        await _context(mcp_client, http, ws)


async def _context(mcp_client: Client, http: httpx.Client, ws: str) -> None:
    for fact in (
        "Redis timed out on Monday.",
        "Redis timed out again on Friday.",
        "Postgres upgrade went fine.",
    ):
        _payload(await mcp_client.call_tool("remember", {"content": fact, "tags": ["ops"]}))

    # The first call opens the configured session and its sandbox.
    loaded = _payload(
        await mcp_client.call_tool("context_load", {"variable": "mems", "query": "redis", "tags": ["ops"]})
    )
    assert loaded["count"] >= 2 and loaded["variable"] == "mems"  # both Redis facts; Postgres may match too
    ran = _payload(
        await mcp_client.call_tool(
            "context_execute",
            {"code": "n = len([m for m in mems if 'timed out' in m['content']])\nn", "result_var": "answer"},
        )
    )
    assert ran["result"] == "2" and ran["error"] is None
    assert "n" in ran["variables_changed"]

    seen = _payload(await mcp_client.call_tool("context_inspect", {}))
    assert set(seen["variables"]) >= {"mems", "n", "answer"}
    one = _payload(await mcp_client.call_tool("context_inspect", {"variable": "n"}))
    assert one["type"] == "int" and one["preview"] == "2"
    # The same sandbox, seen through the API with the server's session id.
    status = http.get("/v1/context/status", headers={"X-Workspace-ID": ws, "X-Session-ID": f"sess_mcp_{ws}"})
    assert status.json()["exists"] is True and "answer" in status.json()["variables"]

    # Refusals are MCP errors: code the server rejects, code that raises (keeping nothing), an unknown variable.
    rejected = _error_text(await mcp_client.call_tool("context_execute", {"code": "import os\nos.getcwd()"}))
    assert "HTTP 422" in rejected and "code_rejected" in rejected
    raised = _error_text(await mcp_client.call_tool("context_execute", {"code": "lost = 1\n1 / 0"}))
    assert "ZeroDivisionError" in raised
    assert "HTTP 404" in _error_text(await mcp_client.call_tool("context_inspect", {"variable": "lost"}))


async def test_streamable_http_transport(base_url: str, ws: str, tmp_path: Any) -> None:
    """The same server over streamable HTTP (what a remote agent or a shared team server uses)."""
    import asyncio
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "MEMORYLAYER_URL": base_url, "MEMORYLAYER_WORKSPACE_ID": ws}
    log = (tmp_path / "mcp-http.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "memorylayer_mcp", "--transport", "streamable-http", "--port", str(port),
        env=env, stdout=log, stderr=log,
    )  # fmt: skip
    try:
        for _ in range(200):  # up to 20 s for the server to listen
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
            assert {t.name for t in (await client.list_tools()).tools} == EXPECTED_TOOLS
            kept = _payload(await client.call_tool("remember", {"content": "Bob's standup is at 9:30."}))[
                "memory"
            ]
            hits = _payload(await client.call_tool("recall", {"query": "when is Bob's standup"}))
            assert kept["id"] in [m["id"] for m in hits["memories"]]
        # On loopback a page elsewhere cannot reach it through DNS rebinding: a foreign Host is refused.
        async with httpx.AsyncClient() as raw:
            foreign = await raw.post(
                f"http://127.0.0.1:{port}/mcp", headers={"Host": "evil.example"}, json={}
            )
        assert foreign.status_code == 421
    finally:
        process.terminate()
        await process.wait()
        log.close()


async def test_an_injected_sdk_client_in_process(base_url: str, http: httpx.Client, ws: str) -> None:
    """``build_server(config, client=…)``: the tools reach the API through the SDK client given, here in the
    test's own process (the MCP client connects to the server object); an API that does not answer is a tool
    error too, and calling the tools directly raises the same errors."""
    session = f"sess_inproc_{ws}"
    sdk = MemoryLayerClient(base_url, workspace_id=ws)
    async with Client(build_server(Config(session_id=session), client=sdk)) as mcp_client:
        kept = _payload(await mcp_client.call_tool("remember", {"content": "Erin deploys on Fridays."}))
        pack = _payload(await mcp_client.call_tool("context_pack", {"topic": "Erin deploys"}))
    assert http.get(f"/v1/memories/{kept['memory']['id']}", params={"workspace_id": ws}).status_code == 200
    assert pack["session_id"] == session and kept["memory"]["id"] in pack["item_ids"]
    assert http.get(f"/v1/sessions/{session}", headers={"X-Workspace-ID": ws}).status_code == 200

    down = MemoryLayerClient("http://127.0.0.1:9", workspace_id=ws, max_retries=0)
    async with Client(build_server(Config(), client=down)) as mcp_client:
        assert "unreachable" in _error_text(await mcp_client.call_tool("recall", {"query": "Erin"}))

    tools = MemoryLayerTools(Config(), client=MemoryLayerClient(base_url, workspace_id=ws))
    try:
        with pytest.raises(ToolError, match="HTTP 404 memory_not_found"):
            await tools.forget("mem_0000000000000000")
    finally:
        await tools.aclose()


async def test_users_are_listed_and_erased(base_url: str, http: httpx.Client, ws: str) -> None:
    sdk = MemoryLayerClient(base_url, workspace_id=ws)
    async with Client(build_server(Config(), client=sdk)) as mcp_client:
        r = http.post("/v1/memories", json={"content": "Gil collects stamps.", "user_id": "u_gil"},
                      headers={"X-Workspace-ID": ws})  # fmt: skip
        assert r.status_code == 201, r.text
        listed = _payload(await mcp_client.call_tool("list_users", {}))
        assert listed["users"] == [{"user_id": "u_gil", "memories": 1, "threads": 0, "sessions": 0}]
        dry = _payload(await mcp_client.call_tool("erase_user", {"user_id": "u_gil", "dry_run": True}))
        assert dry["dry_run"] is True and dry["counts"]["memories"] == 1
        done = _payload(await mcp_client.call_tool("erase_user", {"user_id": "u_gil"}))
        assert done["counts"]["memories"] == 1
        assert _payload(await mcp_client.call_tool("list_users", {}))["users"] == []
    assert "stamps" not in http.get(f"/v1/workspaces/{ws}/export").text


async def test_api_key_and_its_refusals_reach_the_model(settings: Any, services: Any, ws: str) -> None:
    """With keys on, MEMORYLAYER_API_KEY is sent as a Bearer token; a read-only key's write is an MCP tool error
    naming the API's code, and nothing is stored."""
    from tests.secured import admin_client, serve_secured

    with serve_secured(settings, services, rate_limit_burst=100) as url, admin_client(url) as admin:
        read = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "access": "read"}).json()["key"]
        write = admin.post("/v1/admin/api-keys", json={"workspaces": [ws]}).json()["key"]
        async with connect(url, ws, api_key=write) as writer:
            kept = _payload(await writer.call_tool("remember", {"content": "Carol's office is room 4.12."}))
        async with connect(url, ws, api_key=read) as reader:
            hits = _payload(await reader.call_tool("recall", {"query": "Carol office room"}))
            assert kept["memory"]["id"] in [m["id"] for m in hits["memories"]]
            refused = _error_text(
                await reader.call_tool("remember", {"content": "Carol moved to room 5.01."})
            )
            assert "HTTP 403" in refused and "read_only_key" in refused
        async with connect(url, ws) as anonymous:
            assert "HTTP 401" in _error_text(await anonymous.call_tool("recall", {"query": "Carol"}))
        listed = admin.get("/v1/memories", headers={"X-Workspace-ID": ws}).json()["memories"]
        assert [m["content"] for m in listed] == ["Carol's office is room 4.12."]
