"""POST /v1/users/{user_id}/erase and GET /v1/users: one call erases everything of one user in the caller's
workspaces, for good (a dry run counts the same and changes nothing; a read-only key gets 403); afterwards no
recall, listing, export, context pack or entity card shows anything of theirs. The listing counts each user."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.helpers.http import create, h, recall, remember
from tests.integration.test_auth import new_key
from tests.secured import admin_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)

SECRET = "zebrafish"


def seed(http: httpx.Client, ws: str, victim: str) -> dict:
    """The victim's memory (a typed relation stands on it alone), an edit, a thread, a session; a bystander's."""
    profile = {"subject": {"name": "PR-77", "type": "work_item"}, "reviewers": ["Vic Tim"]}
    mine = remember(http, ws, f"Vic reviewed the {SECRET} patch", user_id=victim,
                    metadata={"knowledge_work": profile})  # fmt: skip
    r = http.put(f"/v1/memories/{mine['id']}", json={"content": f"Vic reviewed the {SECRET} patch twice"},
                 headers=h(ws))  # fmt: skip
    assert r.status_code == 200, r.text
    remember(http, ws, f"Vic likes {SECRET} tanks", user_id=victim)
    remember(http, ws, "Bea likes the aquarium", user_id="u_bystander")
    tid = f"th_{uuid.uuid4().hex[:8]}"
    assert http.post("/v1/threads", json={"id": tid, "user_id": victim}, headers=h(ws)).status_code == 201
    r = http.post(f"/v1/threads/{tid}/messages", json={"messages": [{"role": "user", "content": SECRET}]},
                  headers=h(ws))  # fmt: skip
    assert r.status_code == 201, r.text
    sid = create(http, ws, user_id=victim)["id"]
    r = http.post(f"/v1/sessions/{sid}/memory", json={"key": "k", "value": SECRET}, headers=h(ws))
    assert r.status_code in (200, 201), r.text
    return {"memory": mine, "thread": tid, "session": sid}


def users(http: httpx.Client, ws: str) -> dict[str, dict]:
    r = http.get("/v1/users", headers=h(ws))
    assert r.status_code == 200, r.text
    return {u["user_id"]: u for u in r.json()["users"]}


def test_erase_leaves_nothing_of_the_user(http, ws):
    victim = f"u_victim_{uuid.uuid4().hex[:8]}"
    made = seed(http, ws, victim)
    listed = users(http, ws)
    assert listed[victim] == {"user_id": victim, "memories": 2, "threads": 1, "sessions": 1}
    assert listed["u_bystander"]["memories"] == 1
    before = http.get(f"/v1/workspaces/{ws}/export").text
    assert SECRET in before

    dry = http.post(f"/v1/users/{victim}/erase", json={"dry_run": True})
    assert dry.status_code == 200, dry.text
    counts = dry.json()["counts"]
    assert dry.json()["dry_run"] is True
    assert counts["memories"] == 2 and counts["revisions"] >= 1 and counts["threads"] == 1
    assert counts["messages"] == 1 and counts["sessions"] == 1 and counts["working_memory"] == 1
    assert counts["evidence"] >= 1 and counts["relations"] >= 1 and counts["entities"] == 2
    export_after_dry_run = http.get(f"/v1/workspaces/{ws}/export").text
    assert export_after_dry_run.split("\n", 1)[1] == before.split("\n", 1)[1]  # all but the header's time

    done = http.post(f"/v1/users/{victim}/erase")
    assert done.status_code == 200, done.text
    assert done.json()["counts"] == counts and done.json()["dry_run"] is False

    # Nothing of the victim anywhere a client can look.
    assert all(
        SECRET not in m["content"] for m in recall(http, ws, f"{SECRET} patch", user_id=victim)["memories"]
    )
    assert all(
        SECRET not in m["content"] for m in recall(http, ws, f"who reviewed PR-77 {SECRET}")["memories"]
    )
    listing = http.get("/v1/memories", params={"limit": 1000}, headers=h(ws))
    assert listing.status_code == 200 and SECRET not in listing.text
    assert http.get(f"/v1/memories/{made['memory']['id']}", headers=h(ws)).status_code == 404
    exported = http.get(f"/v1/workspaces/{ws}/export").text
    assert SECRET not in exported and victim not in exported
    assert "aquarium" in exported  # the bystander stays
    sid = create(http, ws)["id"]
    pack = http.post(f"/v1/sessions/{sid}/context-pack", json={"entity_names": ["Vic Tim", "PR-77"]},
                     headers=h(ws))  # fmt: skip
    assert pack.status_code == 200 and SECRET not in pack.text, pack.text
    for name in ("PR-77", "Vic Tim"):  # the entities the victim's memory brought, and their relations
        assert http.get("/v1/entities/resolve", params={"name": name}, headers=h(ws)).status_code == 404
    entities = http.get("/v1/entities", headers=h(ws))
    assert entities.status_code == 200 and "Vic Tim" not in entities.text
    assert http.get(f"/v1/threads/{made['thread']}", headers=h(ws)).status_code == 404
    assert http.get(f"/v1/sessions/{made['session']}", headers=h(ws)).status_code == 404
    assert victim not in users(http, ws) and "u_bystander" in users(http, ws)
    again = http.post(f"/v1/users/{victim}/erase", json={"dry_run": True}).json()["counts"]
    assert set(again.values()) == {0}


def test_erase_finds_the_memories_about_the_user(http, ws):
    """Written by no one, or by another user, with ``subject_id`` = the user: their personal data, erased with
    them; a memory about someone else, and one that only mentions their name, stay."""
    victim = f"u_victim_{uuid.uuid4().hex[:8]}"
    about = remember(http, ws, f"Dana prefers {SECRET} sushi", subject_id=victim)
    told = remember(http, ws, f"Dana told Bea about the {SECRET} trip", user_id="u_bea", subject_id=victim)
    other = remember(http, ws, "Bea prefers ramen", subject_id="u_bea")
    named = remember(http, ws, f"{victim} was mentioned in passing")
    dry = http.post(f"/v1/users/{victim}/erase", json={"dry_run": True}).json()["counts"]
    assert dry["memories"] == 2 and dry["derived_memories"] == 0, dry
    assert http.post(f"/v1/users/{victim}/erase").json()["counts"]["memories"] == 2
    for gone in (about, told):
        assert http.get(f"/v1/memories/{gone['id']}", headers=h(ws)).status_code == 404
    for kept in (other, named):
        assert http.get(f"/v1/memories/{kept['id']}", headers=h(ws)).status_code == 200


def test_a_bad_user_id_is_a_400_or_422(http):
    assert http.post("/v1/users/bad%20id/erase").status_code in (400, 422)
    assert http.post("/v1/users/u_1/erase", json={"dry_run": "maybe"}).status_code in (400, 422)


def test_read_only_keys_get_403_and_walls_hold(secured, ws, other_ws):
    victim = f"u_victim_{uuid.uuid4().hex[:8]}"
    with admin_client(secured) as admin:
        writer = httpx.Client(
            base_url=secured, headers={"Authorization": f"Bearer {new_key(admin, ws)['key']}"}
        )
        reader = httpx.Client(
            base_url=secured, headers={"Authorization": f"Bearer {new_key(admin, ws, access='read')['key']}"}
        )
        other = httpx.Client(
            base_url=secured, headers={"Authorization": f"Bearer {new_key(admin, other_ws)['key']}"}
        )
    assert (
        writer.post("/v1/memories", json={"content": SECRET, "user_id": victim}, headers=h(ws)).status_code
        == 201
    )
    for body in ({}, {"dry_run": True}):
        r = reader.post(f"/v1/users/{victim}/erase", json=body)
        assert r.status_code == 403, r.text
    # A key of another workspace erases nothing here, and cannot list this workspace's users.
    r = other.post(f"/v1/users/{victim}/erase")
    assert r.status_code == 200 and r.json()["counts"]["memories"] == 0, r.text
    assert other.get("/v1/users", headers=h(ws)).status_code == 403
    assert users(writer, ws)[victim]["memories"] == 1
    assert users(reader, ws)[victim]["memories"] == 1
    r = writer.post(f"/v1/users/{victim}/erase")
    assert r.status_code == 200 and r.json()["counts"]["memories"] == 1
    assert victim not in users(writer, ws)


def test_the_sdk_lists_erases_and_round_trips(base_url, ws):
    from memorylayer import SyncMemoryLayerClient

    victim = f"u_victim_{uuid.uuid4().hex[:8]}"
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        client.remember(f"{SECRET} notes", user_id=victim)
        client.remember("shared notes", user_id="u_other")
        page = client.list_users()
        assert {u.user_id: u.memories for u in page.users} == {victim: 1, "u_other": 1}
        ndjson = client.export_workspace_ndjson()
        copy = f"ws_sdk_{uuid.uuid4().hex[:8]}"
        result = client.import_workspace_ndjson(copy, ndjson)
        assert result.ids == "remapped" and result.imported_by_kind["memory"] == 2
        assert client.erase_user(victim, dry_run=True).counts["memories"] == 2  # here and in the copy
        erased = client.erase_user(victim)
        assert erased.counts["memories"] == 2 and not erased.dry_run
        assert [u.user_id for u in client.list_users().users] == ["u_other"]
        assert [u.user_id for u in client.list_users(workspace_id=copy).users] == ["u_other"]
