"""Thread archive/restore, the listing filters of GET /v1/threads, a user's threads across workspaces
(GET /v1/threads/user/{user_id}) and the paging of GET /v1/threads/{id}/full, over HTTP, as the reference."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.helpers.http import h
from tests.secured import admin_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)


def thread(http: httpx.Client, ws: str, **fields: Any) -> str:
    r = http.post("/v1/threads", json={"user_id": "dana", **fields}, headers=h(ws))
    assert r.status_code == 201, r.text
    return r.json()["thread"]["id"]


def listed(http: httpx.Client, ws: str, path: str = "/v1/threads", **params: Any) -> list[str]:
    r = http.get(path, params=params, headers=h(ws))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total_count"] == len(body["threads"])
    return [t["id"] for t in body["threads"]]


def test_archive_hides_from_the_default_list_and_restore_brings_it_back(http, ws):
    kept, archived = thread(http, ws), thread(http, ws)
    r = http.post(f"/v1/threads/{archived}/archive", headers=h(ws))
    assert r.status_code == 200, r.text
    hidden = r.json()["thread"]
    assert hidden["id"] == archived and hidden["hidden_at"] is not None
    assert listed(http, ws) == [kept]
    assert set(listed(http, ws, include_hidden=True)) == {kept, archived}
    # Still readable by id, messages too; archiving again keeps the first time.
    assert (
        http.get(f"/v1/threads/{archived}", headers=h(ws)).json()["thread"]["hidden_at"]
        == hidden["hidden_at"]
    )
    again = http.post(f"/v1/threads/{archived}/archive", headers=h(ws)).json()["thread"]
    assert again["hidden_at"] == hidden["hidden_at"] and again["updated_at"] == hidden["updated_at"]
    assert http.get(f"/v1/threads/{archived}/full", headers=h(ws)).status_code == 200
    restored = http.post(f"/v1/threads/{archived}/restore", headers=h(ws))
    assert restored.status_code == 200 and restored.json()["thread"]["hidden_at"] is None
    assert set(listed(http, ws)) == {kept, archived}


def test_a_new_message_restores_an_archived_thread(http, ws):
    archived = thread(http, ws)
    assert http.post(f"/v1/threads/{archived}/archive", headers=h(ws)).status_code == 200
    r = http.post(
        f"/v1/threads/{archived}/messages",
        json={"messages": [{"role": "user", "content": "hi"}]},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text
    assert http.get(f"/v1/threads/{archived}", headers=h(ws)).json()["thread"]["hidden_at"] is None
    assert listed(http, ws) == [archived]


def test_archive_and_restore_of_an_unknown_thread_are_404(http, ws, other_ws):
    elsewhere = thread(http, other_ws)
    for action in ("archive", "restore"):
        for tid in ("thread_nope", elsewhere):
            r = http.post(f"/v1/threads/{tid}/{action}", headers=h(ws))
            assert r.status_code == 404 and r.json()["detail"]["code"] == "thread_not_found", r.text
    # The other workspace's thread was not touched.
    assert http.get(f"/v1/threads/{elsewhere}", headers=h(other_ws)).json()["thread"]["hidden_at"] is None


def test_top_level_by_default_and_sub_threads_by_parent(http, ws):
    parent = thread(http, ws)
    child = thread(http, ws, parent_thread=parent)
    assert listed(http, ws) == [parent]
    assert listed(http, ws, parent_thread=parent) == [child]
    assert listed(http, ws, parent_thread="thread_none") == []


def test_scope_and_ownership_filters(http, ws):
    plain = thread(http, ws)  # no scope: web, as the reference
    web = thread(http, ws, scope="web")
    office = thread(http, ws, scope="office", ownership="workspace")
    assert set(listed(http, ws, scope_filter="web")) == {plain, web}
    assert listed(http, ws, scope_filter="office") == [office]
    assert listed(http, ws, ownership_filter="workspace") == [office]
    assert set(listed(http, ws, ownership_filter="user")) == {plain, web}
    assert set(listed(http, ws)) == {plain, web, office}


def test_expired_threads_are_not_listed(http, ws):
    live = thread(http, ws)
    thread(http, ws, expires_at="2001-01-01T00:00:00Z")
    assert listed(http, ws) == [live]


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/threads", {"scope_filter": "desktop"}),
        ("/v1/threads", {"ownership_filter": "agent"}),
        ("/v1/threads", {"include_hidden": "maybe"}),
        ("/v1/threads", {"parent_thread": "bad id!"}),
        ("/v1/threads/user/dana", {"ownership": "team"}),
        ("/v1/threads/user/dana", {"limit": 0}),
        ("/v1/threads/thread_x/full", {"order": "sideways"}),
        ("/v1/threads/thread_x/full", {"limit": 1001}),
        ("/v1/threads/thread_x/full", {"offset": -1}),
    ],
)
def test_bad_filters_are_422(http, ws, path, params):
    r = http.get(path, params=params, headers=h(ws))
    assert r.status_code == 422, r.text


def test_full_pages_its_messages(http, ws):
    tid = thread(http, ws)
    messages = [{"role": "user", "content": f"m{i}"} for i in range(5)]
    assert (
        http.post(f"/v1/threads/{tid}/messages", json={"messages": messages}, headers=h(ws)).status_code
        == 201
    )

    def page(**params: Any) -> tuple[list[int], int]:
        r = http.get(f"/v1/threads/{tid}/full", params=params, headers=h(ws))
        assert r.status_code == 200, r.text
        return [m["message_index"] for m in r.json()["messages"]], r.json()["total_messages"]

    assert page() == ([0, 1, 2, 3, 4], 5)
    assert page(limit=2, offset=1) == ([1, 2], 5)
    assert page(order="desc", limit=2) == ([4, 3], 5)


def test_a_users_threads_across_workspaces(http, ws, other_ws):
    user = f"user_{uuid.uuid4().hex[:8]}"
    here = thread(http, ws, user_id=user)
    there = thread(http, other_ws, user_id=user)
    team = thread(http, ws, user_id=user, ownership="workspace")
    thread(http, ws, user_id="someone_else")
    archived = thread(http, other_ws, user_id=user)
    http.post(f"/v1/threads/{archived}/archive", headers=h(other_ws))
    path = f"/v1/threads/user/{user}"
    # No workspace needed; one named (or the session's) does not narrow the listing.
    r = http.get(path)
    assert r.status_code == 200 and {t["id"] for t in r.json()["threads"]} == {here, there}
    assert {t["workspace_id"] for t in r.json()["threads"]} == {ws, other_ws}
    assert set(listed(http, ws, path)) == {here, there}
    assert listed(http, ws, path, ownership="workspace") == [team]
    assert set(listed(http, ws, path, include_hidden=True)) == {here, there, archived}
    assert listed(http, ws, path, limit=1) in ([here], [there])


def keyed(admin: httpx.Client, workspace: str) -> httpx.Client:
    r = admin.post("/v1/admin/api-keys", json={"workspaces": [workspace]})
    assert r.status_code == 201, r.text
    headers = {"Authorization": f"Bearer {r.json()['key']}", "X-Workspace-ID": workspace}
    return httpx.Client(base_url=str(admin.base_url), headers=headers)


def test_keys_see_and_archive_only_their_workspaces_threads(secured, ws, other_ws):
    user = f"user_{uuid.uuid4().hex[:8]}"
    with admin_client(secured) as admin, keyed(admin, ws) as mine, keyed(admin, other_ws) as theirs:
        own = mine.post("/v1/threads", json={"user_id": user}).json()["thread"]["id"]
        foreign = theirs.post("/v1/threads", json={"user_id": user}).json()["thread"]["id"]
        listing = mine.get(f"/v1/threads/user/{user}", params={"include_hidden": True})
        assert listing.status_code == 200 and [t["id"] for t in listing.json()["threads"]] == [own]
        assert mine.post(f"/v1/threads/{foreign}/archive").status_code == 404
        named = mine.post(f"/v1/threads/{foreign}/archive", params={"workspace_id": other_ws})
        assert named.status_code == 403, named.text
        assert theirs.get(f"/v1/threads/{foreign}").json()["thread"]["hidden_at"] is None
        assert mine.get("/v1/threads", params={"workspace_id": other_ws}).status_code == 403
