"""Workspace views and their observations over HTTP (/v1/workspaces/{id}/views), as the reference serves them:
conditional writes, revisions, tombstones and restore, paging; an observer's cursor that must advance; bad input
(a 4xx with a code, nothing written); isolation between workspaces and tenants; the round trip through
export/import; our SDK."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.integration.test_resources_api import creating, key_client, matching  # noqa: F401

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

VIEW = {"view_id": "main", "kind": "git_worktree", "display_name": "Main", "capabilities": ["write", " read"]}
OBSERVATION = {
    "generation": "gen-1",
    "sequence": 1,
    "tool_host_id": "host-1",
    "execution_site": "client",
    "capabilities": ["exec"],
    "vcs": {"branch": "main", "head_revision": "abc123", "dirty": False},
    "metadata": {"pid": 42},
}


def views(ws: str) -> str:
    return f"/v1/workspaces/{ws}/views"


def make_view(http: httpx.Client, ws: str, **fields) -> dict:
    r = http.post(views(ws), json={**VIEW, **fields}, headers=creating())
    assert r.status_code == 201, r.text
    return r.json()["view"]


def publish(http: httpx.Client, ws: str, observer: str = "obs-1", **fields) -> dict:
    r = http.put(
        f"{views(ws)}/main/observations/{observer}", json={**OBSERVATION, **fields}, headers=creating()
    )
    assert r.status_code == 201, r.text
    return r.json()["observation"]


# -------------------------------------------------------------------------------------------------------- views
def test_a_view_lives_through_replace_delete_and_restore(http, ws):
    op = uuid.uuid4().hex
    created = http.post(views(ws), json={**VIEW, "metadata": {"team": "a"}}, headers=creating(op))
    assert created.status_code == 201, created.text
    view = created.json()["view"]
    assert created.json()["replayed"] is False and created.headers["ETag"] == view["etag"]
    assert (view["view_id"], view["kind"], view["display_name"], view["capabilities"]) == (
        "main",
        "git_worktree",
        "Main",
        ["read", "write"],
    )
    assert (view["workspace_id"], view["revision"], view["schema_version"], view["metadata"]) == (
        ws,
        1,
        1,
        {"team": "a"},
    )
    assert view["id"].startswith("wv_") and view["deleted_at"] is None and view["sequence"] > 0

    # A retry replays; the same key with another body, or a taken view_id, is a conflict.
    again = http.post(views(ws), json={**VIEW, "metadata": {"team": "a"}}, headers=creating(op))
    assert again.status_code == 201 and again.json() == {"view": view, "replayed": True}
    other = http.post(views(ws), json={**VIEW, "view_id": "other"}, headers=creating(op))
    assert other.status_code == 409 and other.json()["detail"]["code"] == "idempotency_key_reused"
    taken = http.post(views(ws), json=VIEW, headers=creating())
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "resource_key_exists"

    got = http.get(f"{views(ws)}/main")
    assert got.json()["view"] == view and got.headers["ETag"] == view["etag"]

    replaced = http.put(
        f"{views(ws)}/main", json={"kind": "snapshot", "capabilities": ["x"]}, headers=matching(view["etag"])
    )
    assert replaced.status_code == 200, replaced.text
    v2 = replaced.json()["view"]
    assert (v2["revision"], v2["kind"], v2["display_name"], v2["capabilities"], v2["metadata"]) == (
        2,
        "snapshot",
        None,
        ["x"],
        {},
    )
    assert v2["etag"] != view["etag"] and v2["sequence"] > view["sequence"] and v2["id"] == view["id"]
    stale = http.put(f"{views(ws)}/main", json={"kind": "overlay"}, headers=matching(view["etag"]))
    assert stale.status_code == 412 and stale.json()["detail"]["code"] == "etag_mismatch"
    assert stale.json()["detail"]["etag"] == v2["etag"]
    assert http.get(f"{views(ws)}/main").json()["view"] == v2

    deleted = http.delete(f"{views(ws)}/main", headers=matching(v2["etag"]))
    assert deleted.status_code == 200 and deleted.json()["view"]["deleted_at"]
    tomb = deleted.json()["view"]
    missing = http.get(f"{views(ws)}/main")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "workspace_view_not_found"
    assert http.get(views(ws)).json() == {"views": [], "next_page_token": None}
    assert [v["id"] for v in http.get(views(ws), params={"include_deleted": True}).json()["views"]] == [
        view["id"]
    ]
    assert http.get(f"{views(ws)}/main", params={"include_deleted": True}).json()["view"] == tomb
    # A deleted view keeps its id: creating it again is a conflict, not a second view.
    assert http.post(views(ws), json=VIEW, headers=creating()).status_code == 409

    restored = http.post(f"{views(ws)}/main/restore", headers=matching(tomb["etag"]))
    assert restored.status_code == 200 and restored.json()["view"]["deleted_at"] is None
    assert restored.json()["view"]["kind"] == "snapshot" and restored.json()["view"]["revision"] == 4
    live = http.post(f"{views(ws)}/main/restore", headers=matching(restored.json()["view"]["etag"]))
    assert live.status_code == 409 and live.json()["detail"]["code"] == "resource_not_deleted"

    history = http.get(f"{views(ws)}/main/revisions").json()
    assert [(h["action"], h["view"]["revision"]) for h in history["revisions"]] == [
        ("restore", 4),
        ("delete", 3),
        ("replace", 2),
        ("create", 1),
    ]
    assert history["revisions"][-1] == {"view": view, "action": "create", "operation_id": op}


def test_views_page_newest_change_first_and_refuse_foreign_tokens(http, ws):
    for name in ("a", "b", "c"):
        make_view(http, ws, view_id=name)
    first = http.get(views(ws), params={"limit": 2}).json()
    assert [v["view_id"] for v in first["views"]] == ["c", "b"] and first["next_page_token"]
    rest = http.get(views(ws), params={"limit": 2, "page_token": first["next_page_token"]}).json()
    assert [v["view_id"] for v in rest["views"]] == ["a"] and rest["next_page_token"] is None
    foreign = http.get(f"{views(ws)}/a/revisions", params={"page_token": first["next_page_token"]})
    assert foreign.status_code == 400 and foreign.json()["detail"]["code"] == "invalid_page_token"


# ------------------------------------------------------------------------------------------------- observations
def test_an_observer_publishes_replaces_deletes_and_restores(http, ws):
    make_view(http, ws)
    op = uuid.uuid4().hex
    first = http.put(f"{views(ws)}/main/observations/obs-1", json=OBSERVATION, headers=creating(op))
    assert first.status_code == 201, first.text
    obs = first.json()["observation"]
    assert first.headers["ETag"] == obs["etag"] and first.json()["replayed"] is False
    assert (obs["view_id"], obs["observer_id"], obs["generation"], obs["sequence"]) == (
        "main",
        "obs-1",
        "gen-1",
        1,
    )
    assert (obs["resource_revision"], obs["tool_host_id"], obs["execution_site"]) == (1, "host-1", "client")
    assert obs["vcs"] == {
        "kind": "git",
        "repository_id": None,
        "worktree_id": None,
        "head_revision": "abc123",
        "branch": "main",
        "dirty": False,
        "detached": None,
    }
    assert obs["observed_at"] and obs["expires_at"] is None and obs["metadata"] == {"pid": 42}
    assert obs["id"].startswith("wvo_") and obs["resource_sequence"] > 0

    # A retry without observed_at still replays (the server's default time is not part of the request).
    again = http.put(f"{views(ws)}/main/observations/obs-1", json=OBSERVATION, headers=creating(op))
    assert again.status_code == 200 and again.json() == {"observation": obs, "replayed": True}
    taken = http.put(f"{views(ws)}/main/observations/obs-1", json=OBSERVATION, headers=creating())
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "resource_key_exists"

    # Within one generation the cursor must advance; a new generation starts its own.
    for sequence in (0, 1):
        behind = http.put(
            f"{views(ws)}/main/observations/obs-1",
            json={**OBSERVATION, "sequence": sequence},
            headers=matching(obs["etag"]),
        )
        assert (
            behind.status_code == 400
            and behind.json()["detail"]["code"] == "observation_sequence_not_advanced"
        )
    assert http.get(f"{views(ws)}/main/observations/obs-1").json()["observation"] == obs
    observed = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    ahead = http.put(
        f"{views(ws)}/main/observations/obs-1",
        json={
            **OBSERVATION,
            "sequence": 7,
            "observed_at": observed.isoformat(),
            "expires_at": (observed + timedelta(hours=1)).isoformat(),
        },
        headers=matching(obs["etag"]),
    )
    assert ahead.status_code == 200, ahead.text
    o2 = ahead.json()["observation"]
    assert (o2["sequence"], o2["resource_revision"], o2["observed_at"], o2["expires_at"]) == (
        7,
        2,
        "2026-01-02T03:04:05Z",
        "2026-01-02T04:04:05Z",
    )
    restart = http.put(
        f"{views(ws)}/main/observations/obs-1",
        json={"generation": "gen-2", "sequence": 0},
        headers=matching(o2["etag"]),
    )
    assert restart.status_code == 200, restart.text
    o3 = restart.json()["observation"]
    assert (o3["generation"], o3["sequence"], o3["vcs"], o3["tool_host_id"]) == ("gen-2", 0, None, None)

    other = publish(http, ws, "obs-2")
    listed = http.get(f"{views(ws)}/main/observations").json()
    assert [o["observer_id"] for o in listed["observations"]] == ["obs-2", "obs-1"]
    assert listed["observations"][1] == o3 and listed["next_page_token"] is None

    deleted = http.delete(f"{views(ws)}/main/observations/obs-2", headers=matching(other["etag"]))
    assert deleted.status_code == 200 and deleted.json()["observation"]["deleted_at"]
    tomb = deleted.json()["observation"]
    gone = http.get(f"{views(ws)}/main/observations/obs-2")
    assert gone.status_code == 404 and gone.json()["detail"]["code"] == "workspace_view_observation_not_found"
    assert [o["observer_id"] for o in http.get(f"{views(ws)}/main/observations").json()["observations"]] == [
        "obs-1"
    ]
    shown = http.get(f"{views(ws)}/main/observations/obs-2", params={"include_deleted": True})
    assert shown.json()["observation"] == tomb
    restored = http.post(f"{views(ws)}/main/observations/obs-2/restore", headers=matching(tomb["etag"]))
    assert restored.status_code == 200 and restored.json()["observation"]["deleted_at"] is None

    history = http.get(f"{views(ws)}/main/observations/obs-1/revisions").json()["revisions"]
    assert [(h["action"], h["observation"]["sequence"]) for h in history] == [
        ("replace", 0),
        ("replace", 7),
        ("create", 1),
    ]
    assert history[-1] == {"observation": obs, "action": "create", "operation_id": op}


def test_a_deleted_view_hides_its_observations_until_restored(http, ws):
    view = make_view(http, ws)
    obs = publish(http, ws)
    tomb = http.delete(f"{views(ws)}/main", headers=matching(view["etag"])).json()["view"]
    for path in ("observations", "observations/obs-1"):
        r = http.get(f"{views(ws)}/main/{path}")
        assert r.status_code == 404 and r.json()["detail"]["code"] == "workspace_view_not_found", path
    refused = http.put(
        f"{views(ws)}/main/observations/obs-1",
        json={**OBSERVATION, "sequence": 2},
        headers=matching(obs["etag"]),
    )
    assert refused.status_code == 404
    # Its history stays readable.
    history = http.get(f"{views(ws)}/main/observations/obs-1/revisions").json()["revisions"]
    assert [h["action"] for h in history] == ["create"]

    http.post(f"{views(ws)}/main/restore", headers=matching(tomb["etag"]))
    assert http.get(f"{views(ws)}/main/observations/obs-1").json()["observation"] == obs


def test_each_view_has_observers_of_its_own(http, ws):
    make_view(http, ws)
    make_view(http, ws, view_id="side")
    mine = publish(http, ws)
    theirs = http.put(f"{views(ws)}/side/observations/obs-1", json=OBSERVATION, headers=creating())
    assert theirs.status_code == 201 and theirs.json()["observation"]["id"] != mine["id"]
    assert theirs.json()["observation"]["view_id"] == "side"
    # One view's ETag does not write another view's observation.
    crossed = http.put(
        f"{views(ws)}/side/observations/obs-1",
        json={**OBSERVATION, "sequence": 9},
        headers=matching(mine["etag"]),
    )
    assert crossed.status_code == 412
    assert http.get(f"{views(ws)}/main/observations/obs-1").json()["observation"] == mine


# ---------------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "body",
    [
        {"view_id": "main"},  # no kind
        {**VIEW, "kind": "folder"},
        {**VIEW, "view_id": "a/b"},  # not one path segment
        {**VIEW, "view_id": " "},
        {**VIEW, "view_id": "x" * 201},
        {**VIEW, "schema_version": 2},
        {**VIEW, "capabilities": "write"},
        {**VIEW, "display_name": "x" * 201},
        {**VIEW, "metadata": []},
    ],
)
def test_bad_views_are_refused_and_nothing_is_written(http, ws, body):
    r = http.post(views(ws), json=body, headers=creating())
    assert r.status_code == 422, r.text
    assert http.get(views(ws), params={"include_deleted": True}).json()["views"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"sequence": 1},  # no generation
        {**OBSERVATION, "generation": "  "},
        {**OBSERVATION, "sequence": -1},
        {**OBSERVATION, "observed_at": "2026-01-01T00:00:00"},  # no timezone
        {**OBSERVATION, "observed_at": "2026-01-02T00:00:00Z", "expires_at": "2026-01-01T00:00:00Z"},
        {**OBSERVATION, "execution_site": None},  # a tool host without its site
        {**OBSERVATION, "execution_site": "moon"},
        {**OBSERVATION, "vcs": {"kind": "svn"}},
        {**OBSERVATION, "schema_version": 3},
    ],
)
def test_bad_observations_are_refused_and_nothing_is_written(http, ws, body):
    make_view(http, ws)
    r = http.put(f"{views(ws)}/main/observations/obs-1", json=body, headers=creating())
    assert r.status_code == 422, r.text
    assert http.get(f"{views(ws)}/main/observations").json()["observations"] == []


def test_conditional_headers_are_required_and_nothing_is_written_without_them(http, ws):
    op = {"Idempotency-Key": uuid.uuid4().hex}
    assert http.post(views(ws), json=VIEW).json()["detail"]["code"] == "idempotency_key_required"
    r = http.post(views(ws), json=VIEW, headers=op)
    assert r.status_code == 428 and r.json()["detail"]["code"] == "if_none_match_required"
    r = http.post(views(ws), json=VIEW, headers={**op, "If-None-Match": '"vr-1-x"'})
    assert r.status_code == 412 and r.json()["detail"]["code"] == "if_none_match_not_star"
    assert http.get(views(ws), params={"include_deleted": True}).json()["views"] == []

    view = make_view(http, ws)
    for path, method in (("main", "PUT"), ("main", "DELETE"), ("main/restore", "POST")):
        body = {"kind": "overlay"} if method == "PUT" else None
        r = http.request(method, f"{views(ws)}/{path}", json=body, headers=op)
        assert r.status_code == 428 and r.json()["detail"]["code"] == "if_match_required", (method, path)
    observations = f"{views(ws)}/main/observations/obs-1"
    neither = http.put(observations, json=OBSERVATION, headers=op)
    both = http.put(observations, json=OBSERVATION, headers={**creating(), "If-Match": view["etag"]})
    for r in (neither, both):
        assert r.status_code == 428 and r.json()["detail"]["code"] == "if_match_or_if_none_match_required"
    assert http.put(observations, json=OBSERVATION, headers={"If-None-Match": "*"}).status_code == 428
    assert http.put(observations, json=OBSERVATION, headers={**op, "If-None-Match": "abc"}).status_code == 412
    assert http.get(f"{views(ws)}/main").json()["view"] == view
    assert http.get(f"{views(ws)}/main/observations").json()["observations"] == []
    # A replace of an observer that never published, or under a view that does not exist, is a 404.
    assert http.put(observations, json=OBSERVATION, headers=matching(view["etag"])).status_code == 404
    nowhere = http.put(f"{views(ws)}/nope/observations/obs-1", json=OBSERVATION, headers=creating())
    assert nowhere.status_code == 404 and nowhere.json()["detail"]["code"] == "workspace_view_not_found"
    assert http.get(f"{views(ws)}/a%20b").status_code == 422


# ---------------------------------------------------------------------------------------------------- isolation
@pytest.mark.parametrize("other_tenant", [False, True])
def test_another_workspace_or_tenant_sees_and_changes_nothing(secured, ws, other_ws, other_tenant):  # noqa: F811
    tenant = f"t_{uuid.uuid4().hex[:8]}" if other_tenant else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        view = make_view(a, ws)
        obs = publish(a, ws)
        assert view["created_by"].startswith("key:") and obs["updated_by"] == view["created_by"]
        # Naming A's workspace is refused outright.
        for path in ("", "/main", "/main/revisions", "/main/observations", "/main/observations/obs-1"):
            assert b.get(f"{views(ws)}{path}").status_code == 403, path
        assert b.post(views(ws), json={**VIEW, "view_id": "b"}, headers=creating()).status_code == 403
        assert b.put(f"{views(ws)}/main", json=VIEW, headers=matching(view["etag"])).status_code == 403
        assert b.delete(f"{views(ws)}/main", headers=matching(view["etag"])).status_code == 403
        obs_path = f"{views(ws)}/main/observations/obs-1"
        assert (
            b.put(obs_path, json={**OBSERVATION, "sequence": 5}, headers=matching(obs["etag"])).status_code
            == 403
        )
        assert b.delete(obs_path, headers=matching(obs["etag"])).status_code == 403
        # In its own workspace B finds nothing of A's, and the same ids are its own to take.
        assert b.get(views(other_ws)).json()["views"] == []
        assert b.get(f"{views(other_ws)}/main").status_code == 404
        assert b.delete(f"{views(other_ws)}/main", headers=matching(view["etag"])).status_code == 404
        mine = make_view(b, other_ws)
        assert mine["id"] != view["id"] and mine["workspace_id"] == other_ws
        assert b.get(f"{views(other_ws)}/main/observations").json()["observations"] == []
        assert a.get(f"{views(ws)}/main").json()["view"] == view
        assert a.get(f"{views(ws)}/main/observations/obs-1").json()["observation"] == obs


# --------------------------------------------------------------------------------------------- export / import
def _without(item: dict, *names: str) -> dict:
    return {k: v for k, v in item.items() if k not in names}


def test_views_and_observations_round_trip_through_export_and_import(http, ws, other_ws):
    view = make_view(http, ws)
    obs = publish(http, ws)
    gone = publish(http, ws, "obs-2")
    http.delete(f"{views(ws)}/main/observations/obs-2", headers=matching(gone["etag"]))
    # Changed after its observations: its export line comes after theirs.
    v2 = http.put(f"{views(ws)}/main", json={"kind": "checkout"}, headers=matching(view["etag"])).json()[
        "view"
    ]

    exported = http.get(f"/v1/workspaces/{ws}/export")
    lines = [json.loads(line) for line in exported.text.splitlines()]
    kinds = [line["data"]["kind"] for line in lines if line["type"] == "resource"]
    assert kinds[-1] == "workspace_view" and kinds.count(f"workspace_view_observation:{view['id']}") == 2

    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200, r.text
    assert (r.json()["resources_imported"], r.json()["errors"]) == (3, 0)
    there = views(other_ws)
    # As they were, but in their new workspace and at a new place in its order of changes.
    moved_view = http.get(f"{there}/main").json()["view"]
    assert _without(moved_view, "sequence") == _without({**v2, "workspace_id": other_ws}, "sequence")
    got = http.get(f"{there}/main/observations/obs-1").json()["observation"]
    assert _without(got, "resource_sequence") == _without(
        {**obs, "workspace_id": other_ws}, "resource_sequence"
    )
    assert http.get(f"{there}/main/observations/obs-2").status_code == 404
    # The imported observation takes writes with its exported ETag.
    moved = http.put(
        f"{there}/main/observations/obs-1", json={**OBSERVATION, "sequence": 2}, headers=matching(obs["etag"])
    )
    assert moved.status_code == 200 and moved.json()["observation"]["resource_revision"] == 2


def test_an_observation_without_its_view_is_not_imported(http, ws, other_ws):
    make_view(http, ws)
    publish(http, ws)
    exported = http.get(f"/v1/workspaces/{ws}/export")
    lines = [json.loads(line) for line in exported.text.splitlines()]
    resources = [line["data"] for line in lines if line["type"] == "resource"]
    orphan = [item for item in resources if item["kind"].startswith("workspace_view_observation")]
    r = http.post(f"/v1/workspaces/{other_ws}/import", json={"resources": orphan})
    assert r.status_code == 200, r.text
    assert (r.json()["resources_imported"], r.json()["errors"]) == (0, 1)
    assert "is not in the workspace" in r.json()["details"][0]["error"]
    assert http.get(views(other_ws), params={"include_deleted": True}).json()["views"] == []
    exported_there = http.get(f"/v1/workspaces/{other_ws}/export").text
    assert "workspace_view_observation" not in exported_there


# ------------------------------------------------------------------------------------------------------ our SDK
def test_our_sdk_drives_views_and_observations(base_url, ws):
    from memorylayer import SyncMemoryLayerClient
    from memorylayer.errors import MemoryLayerError

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        view = client.create_workspace_view("main", "git_worktree", capabilities=["write", "read"])
        assert (view.view_id, view.capabilities, view.revision, view.workspace_id) == (
            "main",
            ["read", "write"],
            1,
            ws,
        )
        assert [v.view_id for v in client.list_workspace_views().items] == ["main"]
        v2 = client.replace_workspace_view("main", "snapshot", if_match=view.etag, display_name="Snap")
        assert (v2.kind, v2.display_name, client.get_workspace_view("main").etag) == (
            "snapshot",
            "Snap",
            v2.etag,
        )
        with pytest.raises(MemoryLayerError) as stale:
            client.replace_workspace_view("main", "overlay", if_match=view.etag)
        assert stale.value.status_code == 412

        obs = client.publish_view_observation(
            "main", "obs-1", "gen-1", 1, vcs={"branch": "main"}, tool_host_id="h", execution_site="worker"
        )
        assert (obs.observer_id, obs.sequence, obs.vcs and obs.vcs["branch"]) == ("obs-1", 1, "main")
        o2 = client.publish_view_observation("main", "obs-1", "gen-1", 2, if_match=obs.etag)
        assert (o2.sequence, o2.resource_revision) == (2, 2)
        with pytest.raises(MemoryLayerError) as behind:
            client.publish_view_observation("main", "obs-1", "gen-1", 2, if_match=o2.etag)
        assert behind.value.status_code == 400
        assert [o.observer_id for o in client.list_view_observations("main").items] == ["obs-1"]
        tomb = client.delete_view_observation("main", "obs-1", if_match=o2.etag)
        assert client.get_view_observation("main", "obs-1", include_deleted=True).etag == tomb.etag
        client.restore_view_observation("main", "obs-1", if_match=tomb.etag)
        assert [r.action for r in client.list_view_observation_revisions("main", "obs-1").items] == [
            "restore",
            "delete",
            "replace",
            "create",
        ]
        assert client.get_view_observation("main", "obs-1").sequence == 2

        gone = client.delete_workspace_view("main", if_match=v2.etag)
        assert client.list_workspace_views().items == []
        back = client.restore_workspace_view("main", if_match=gone.etag)
        assert back.deleted_at is None
        revisions = client.list_workspace_view_revisions("main").items
        assert [r.action for r in revisions] == ["restore", "delete", "replace", "create"]
        assert revisions[-1].resource.etag == view.etag
