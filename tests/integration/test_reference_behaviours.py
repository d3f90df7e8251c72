"""Behaviours where the same call to the reference 0.2.0 and to us once disagreed: each test is the reference's
effect (or, where docs/wire.md says we differ on purpose, ours), over HTTP."""

from __future__ import annotations

import uuid

import httpx

from tests.helpers.http import h, remember


def test_a_user_scoped_memory_is_reached_by_id_under_the_clients_workspace_header(
    http: httpx.Client, ws: str
):
    user = f"dana_{uuid.uuid4().hex[:8]}"
    memory = remember(http, ws, "Dana is allergic to peanuts", scope="user", user_id=user)
    assert memory["workspace_id"] == "_global_user"  # stored in the user space, not the header's workspace
    path = f"/v1/memories/{memory['id']}"
    assert http.get(path, headers=h(ws)).status_code == 200
    updated = http.put(path, json={"content": "Dana is allergic to cashews"}, headers=h(ws))
    assert updated.status_code == 200, updated.text
    assert updated.json()["memory"]["workspace_id"] == "_global_user"
    assert http.get(f"{path}/revisions", headers=h(ws)).json()["revisions"][0]["action"] == "replace"
    assert http.delete(path, headers=h(ws)).status_code == 204
    assert http.get(path, headers=h(ws)).status_code == 404


def test_a_global_memory_that_recall_returns_can_be_fetched_by_its_id(http: httpx.Client, ws: str):
    marker = f"globalmarker{uuid.uuid4().hex[:8]}"
    shared = remember(http, "_global", f"the office wifi is {marker}")
    found = http.post("/v1/memories/recall", json={"query": marker}, headers=h(ws)).json()["memories"]
    assert shared["id"] in [m["id"] for m in found]
    got = http.get(f"/v1/memories/{shared['id']}", headers=h(ws))
    assert got.status_code == 200 and got.json()["memory"]["workspace_id"] == "_global"


def test_an_ordinary_workspace_stays_closed_to_another_workspaces_header(
    http: httpx.Client, ws: str, other_ws: str
):
    """docs/wire.md: the reference finds an id in any workspace; a header naming another ordinary workspace
    does not reach it here."""
    memory = remember(http, other_ws, "the fridge code is 4711")
    assert http.get(f"/v1/memories/{memory['id']}", headers=h(ws)).status_code == 404


def test_appending_to_an_unknown_thread_id_creates_the_thread(http: httpx.Client, ws: str, other_ws: str):
    thread_id = f"conv-{uuid.uuid4().hex[:10]}"
    body = {"messages": [{"role": "user", "content": "hi, I moved to Lisbon"}]}
    r = http.post(f"/v1/threads/{thread_id}/messages", json=body, headers=h(ws))
    assert r.status_code == 201, r.text
    assert r.json()["thread_id"] == thread_id and len(r.json()["messages"]) == 1
    thread = http.get(f"/v1/threads/{thread_id}", headers=h(ws)).json()["thread"]
    assert (
        thread["title"] == thread_id and thread["message_count"] == 1 and thread["ownership"] == "workspace"
    )
    again = http.post(
        f"/v1/threads/{thread_id}/messages",
        json={"messages": [{"role": "user", "content": "and I work at a bakery"}]},
        headers=h(ws),
    )
    assert again.status_code == 201 and again.json()["messages"][-1]["message_index"] == 1
    # The same id in another workspace is another thread; an id POST /v1/threads would refuse is refused.
    assert http.get(f"/v1/threads/{thread_id}", headers=h(other_ws)).status_code == 404
    bad = http.post("/v1/threads/.hidden/messages", json=body, headers=h(ws))
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "invalid_thread_id"


def test_a_user_owned_thread_in_the_sdks_home_is_read_under_the_apps_workspace(http: httpx.Client, ws: str):
    """The official async client creates user-owned threads in ``_user_chat`` and reads them back naming the
    app's workspace."""
    made = http.post("/v1/threads", json={"workspace_id": "_user_chat", "ownership": "user"}, headers=h(ws))
    assert made.status_code == 201, made.text
    thread_id = made.json()["thread"]["id"]
    http.post(
        f"/v1/threads/{thread_id}/messages",
        params={"workspace_id": "_user_chat"},
        json={"messages": [{"role": "user", "content": "hello"}]},
    ).raise_for_status()
    got = http.get(f"/v1/threads/{thread_id}", params={"workspace_id": ws})
    assert got.status_code == 200 and got.json()["thread"]["workspace_id"] == "_user_chat"
    full = http.get(f"/v1/threads/{thread_id}/full", headers=h(ws)).json()
    assert [m["content"] for m in full["messages"]] == ["hello"]
    page = http.get(f"/v1/threads/{thread_id}/messages", headers=h(ws)).json()
    assert page["total_count"] == 1


def test_traverse_lists_the_nodes_it_reached(http: httpx.Client, ws: str):
    a, b = remember(http, ws, "the deploy failed"), remember(http, ws, "the disk was full")
    linked = http.post(
        f"/v1/memories/{a['id']}/associate",
        json={"target_id": b["id"], "relationship": "caused_by"},
        headers=h(ws),
    )
    assert linked.status_code in (200, 201), linked.text
    body = http.post(f"/v1/memories/{a['id']}/traverse", json={}, headers=h(ws)).json()
    assert body["unique_nodes"] == [a["id"], b["id"]]
    lonely = remember(http, ws, "nothing links here")
    alone = http.post(f"/v1/memories/{lonely['id']}/traverse", json={}, headers=h(ws)).json()
    assert alone["unique_nodes"] == [lonely["id"]] and alone["paths"] == []


def test_memory_revisions_are_listed_newest_first(http: httpx.Client, ws: str):
    memory = remember(http, ws, "one")
    for content in ("two", "three"):
        http.put(f"/v1/memories/{memory['id']}", json={"content": content}, headers=h(ws)).raise_for_status()
    listed = http.get(f"/v1/memories/{memory['id']}/revisions", headers=h(ws)).json()["revisions"]
    assert [r["revision"] for r in listed] == [3, 2, 1]
    assert [r["memory"]["content"] for r in listed] == ["three", "two", "one"]


def test_a_context_name_is_unique_within_its_workspace(http: httpx.Client, ws: str, other_ws: str):
    first = http.post(f"/v1/workspaces/{ws}/contexts", json={"name": "billing"}, headers=h(ws))
    assert first.status_code == 201, first.text
    twin = http.post(f"/v1/workspaces/{ws}/contexts", json={"name": "billing"}, headers=h(ws))
    assert twin.status_code == 409 and twin.json()["detail"]["code"] == "context_name_exists"
    listed = http.get(f"/v1/workspaces/{ws}/contexts", headers=h(ws)).json()["contexts"]
    assert [c["name"] for c in listed] == ["billing"]
    # The same id again is the same context, renamed or not; another workspace may use the name.
    same = http.post(
        f"/v1/workspaces/{ws}/contexts", json={"id": first.json()["id"], "name": "billing"}, headers=h(ws)
    )
    assert same.status_code == 201, same.text
    assert http.post(f"/v1/workspaces/{other_ws}/contexts", json={"name": "billing"}).status_code == 201


def test_an_unknown_memory_type_filter_is_refused(http: httpx.Client, ws: str):
    remember(http, ws, "a fact", type="semantic")
    bogus = http.get("/v1/memories", params={"type": "bogus"}, headers=h(ws))
    assert bogus.status_code == 422
    assert len(http.get("/v1/memories", params={"type": "semantic"}, headers=h(ws)).json()["memories"]) == 1


def test_include_confidence_false_answers_the_compatibility_values(http: httpx.Client, ws: str):
    remember(http, ws, "the blue kettle is in the staff kitchen")
    query = {"query": "blue kettle staff kitchen", "include_global": False}
    computed = http.post("/v1/memories/recall", json=query, headers=h(ws)).json()
    assert computed["retrieval_confidence"] == "strong" and computed["confidence_reasons"]
    off = http.post("/v1/memories/recall", json={**query, "include_confidence": False}, headers=h(ws)).json()
    assert off["retrieval_confidence"] == "weak" and off["confidence_reasons"] == []
    assert [m["id"] for m in off["memories"]] == [m["id"] for m in computed["memories"]]


def test_the_workspace_schema_lists_names_as_the_reference(http: httpx.Client, ws: str):
    """The reference's ``relationship_types`` is a list of names (code iterating it gets names, not keys of a
    map); the definitions are ours, under ``relationship_definitions``."""
    remember(http, ws, "a fact")
    schema = http.get(f"/v1/workspaces/{ws}/schema", headers=h(ws)).json()
    assert isinstance(schema["relationship_types"], list) and "caused_by" in schema["relationship_types"]
    assert schema["relationship_types"] == sorted(schema["relationship_types"])
    assert schema["can_customize"] is False and "decision" in schema["memory_subtypes"]
    assert schema["relationship_definitions"]["caused_by"]["inverse"] == "causes"


def test_the_briefing_counts_memories_by_type(http: httpx.Client, ws: str):
    remember(http, ws, "Alice likes tea", type="semantic")
    remember(http, ws, "Bob hiked on Sunday", type="episodic")
    remember(http, ws, "Carol likes coffee", type="semantic")
    summary = http.get("/v1/sessions/briefing", headers=h(ws)).json()["briefing"]["workspace_summary"]
    assert summary["memory_types"] == {"episodic": 1, "semantic": 2}


def test_a_revision_carries_the_etag_the_memory_had_then(http: httpx.Client, ws: str):
    memory = remember(http, ws, "one")
    first_etag = memory["etag"]
    updated = http.put(f"/v1/memories/{memory['id']}", json={"content": "two"}, headers=h(ws))
    listed = http.get(f"/v1/memories/{memory['id']}/revisions", headers=h(ws)).json()["revisions"]
    assert [r["memory"]["etag"] for r in listed] == [updated.json()["memory"]["etag"], first_etag]
