"""Bad input gets a 4xx with a machine-readable error and changes nothing; one workspace never reaches another."""

from __future__ import annotations

import pytest


def count(http, ws) -> int:
    return len(
        http.get("/v1/memories", params={"limit": 1000}, headers={"X-Workspace-ID": ws}).json()["memories"]
    )


def make(http, ws, content="baseline memory") -> dict:
    r = http.post("/v1/memories", json={"content": content}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 201
    return r.json()["memory"]


BAD_REMEMBER = [
    pytest.param(b"{not json", 422, id="invalid-json"),
    pytest.param({"content": 42}, 422, id="content-wrong-type"),
    pytest.param({"content": ""}, 422, id="content-empty"),
    pytest.param({"content": "   "}, 422, id="content-blank"),
    pytest.param({}, 422, id="content-missing"),
    pytest.param({"content": "x", "importance": 2}, 422, id="importance-out-of-range"),
    pytest.param({"content": "x", "type": "dreamy"}, 422, id="unknown-type"),
    pytest.param({"content": "x", "tags": "notalist"}, 422, id="tags-wrong-type"),
    pytest.param({"content": "x" * (64 * 1024 + 1)}, 413, id="content-over-64KiB"),
    pytest.param({"content": "x", "tags": [f"t{i}" for i in range(101)]}, 422, id="101-tags"),
    pytest.param({"content": "x", "tags": ["t" * 300]}, 422, id="tag-too-long"),
    pytest.param(
        {
            "content": "x",
            "metadata": {
                "a": {
                    "b": {
                        "c": {
                            "d": {
                                "e": {
                                    "f": {
                                        "g": {
                                            "h": {
                                                "i": {"j": {"k": {"l": {"m": {"n": {"o": {"p": {"q": 1}}}}}}}}
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            },
        },
        422,
        id="metadata-too-deep",
    ),
    pytest.param({"content": "x", "metadata": {"blob": "y" * (65 * 1024)}}, 413, id="metadata-too-large"),
    pytest.param({"content": "x", "event_time": "yesterday-ish"}, 422, id="bad-event-time"),
    pytest.param({"content": "x", "scope": "user"}, 400, id="user-scope-without-user"),
]


@pytest.mark.parametrize(("body", "status"), BAD_REMEMBER)
def test_bad_remember_is_rejected_and_changes_nothing(http, ws, body, status):
    make(http, ws)
    kwargs = (
        {"content": body, "headers": {"X-Workspace-ID": ws, "Content-Type": "application/json"}}
        if isinstance(body, bytes)
        else {"json": body, "headers": {"X-Workspace-ID": ws}}
    )
    r = http.post("/v1/memories", **kwargs)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert detail and (isinstance(detail, list) or "code" in detail)
    assert count(http, ws) == 1


def test_invalid_workspace_id_is_400(http):
    r = http.post("/v1/memories", json={"content": "x"}, headers={"X-Workspace-ID": "bad id/../x"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_workspace_id"


def test_oversized_body_is_413(http, ws):
    r = http.post(
        "/v1/memories",
        content=b"{" + b" " * (9 * 1024 * 1024) + b"}",
        headers={"X-Workspace-ID": ws, "Content-Type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["detail"]["code"] == "request_too_large"


def test_batch_over_the_limit_is_rejected_whole(http, ws):
    ops = [{"op": "create", "content": f"m{i}"} for i in range(1001)]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 413 and count(http, ws) == 0


def test_batch_with_an_unknown_op_is_422_and_changes_nothing(http, ws):
    ops = [{"op": "create", "content": "fine"}, {"op": "explode"}]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 422 and count(http, ws) == 0


def test_bad_update_changes_nothing(http, ws):
    memory = make(http, ws)
    h = {"X-Workspace-ID": ws}
    assert http.put(f"/v1/memories/{memory['id']}", json={"importance": -1}, headers=h).status_code == 422
    assert (
        http.put(f"/v1/memories/{memory['id']}", json={"content": "y" * 70000}, headers=h).status_code == 413
    )
    assert http.get(f"/v1/memories/{memory['id']}", headers=h).json()["memory"]["revision"] == 1


def test_unknown_ids_are_404_with_a_code(http, ws):
    r = http.get("/v1/memories/mem_0000000000000000", headers={"X-Workspace-ID": ws})
    assert r.status_code == 404 and r.json()["detail"]["code"] == "memory_not_found"


class TestIsolation:
    """Every id-taking route, run as workspace A against workspace B's ids."""

    @pytest.fixture()
    def theirs(self, http, other_ws):
        a = make(http, other_ws, "tenant B secret one")
        b = make(http, other_ws, "tenant B secret two")
        edge = http.post(
            f"/v1/memories/{a['id']}/associate",
            json={"target_id": b["id"], "relationship": "causes"},
            headers={"X-Workspace-ID": other_ws},
        ).json()["association"]
        return a, b, edge

    def test_every_route_is_404_and_nothing_changes(self, http, ws, other_ws, theirs):
        a, b, edge = theirs
        mine = make(http, ws, "tenant A own memory")
        h = {"X-Workspace-ID": ws}
        calls = [
            ("GET", f"/v1/memories/{a['id']}", None),
            ("GET", f"/v1/memories/{a['id']}?include_deleted=true", None),
            ("PUT", f"/v1/memories/{a['id']}", {"content": "pwned"}),
            ("DELETE", f"/v1/memories/{a['id']}", None),
            ("DELETE", f"/v1/memories/{a['id']}?hard=true", None),
            ("GET", f"/v1/memories/{a['id']}/revisions", None),
            ("POST", f"/v1/memories/{a['id']}/decay", {"decay_rate": 0.5}),
            ("POST", f"/v1/memories/{a['id']}/associate", {"target_id": b["id"], "relationship": "causes"}),
            (
                "POST",
                f"/v1/memories/{mine['id']}/associate",
                {"target_id": b["id"], "relationship": "causes"},
            ),
            ("GET", f"/v1/memories/{a['id']}/associations", None),
            ("PATCH", f"/v1/memories/{a['id']}/associations/{edge['id']}", {"strength": 0.1}),
            ("DELETE", f"/v1/memories/{a['id']}/associations/{edge['id']}", None),
            ("PATCH", f"/v1/memories/{mine['id']}/associations/{edge['id']}", {"strength": 0.1}),
            ("DELETE", f"/v1/memories/{mine['id']}/associations/{edge['id']}", None),
            ("POST", f"/v1/memories/{a['id']}/traverse", {}),
        ]
        for method, path, body in calls:
            r = http.request(method, path, json=body, headers=h)
            assert r.status_code == 404, (method, path, r.status_code, r.text)
        batch = http.post(
            "/v1/memories/batch",
            json={
                "operations": [
                    {"op": "update", "memory_id": a["id"], "content": "pwned"},
                    {"op": "delete", "memory_id": b["id"], "hard": True},
                ]
            },
            headers=h,
        ).json()
        assert batch["failed"] == 2
        # B's data is untouched.
        hb = {"X-Workspace-ID": other_ws}
        assert (
            http.get(f"/v1/memories/{a['id']}", headers=hb).json()["memory"]["content"]
            == "tenant B secret one"
        )
        assert http.get(f"/v1/memories/{b['id']}", headers=hb).status_code == 200
        assert http.get(f"/v1/memories/{a['id']}/associations", headers=hb).json()["associations"][0][
            "strength"
        ] == (pytest.approx(0.5))
        assert http.get(f"/v1/memories/{a['id']}", headers=hb).json()["memory"]["importance"] == 0.5

    def test_search_list_and_export_never_show_another_workspace(self, http, ws, other_ws, theirs):
        h = {"X-Workspace-ID": ws}
        make(http, ws, "tenant A note about secrets")
        found = http.post(
            "/v1/memories/recall",
            json={"query": "tenant B secret", "min_relevance": 0, "limit": 1000},
            headers=h,
        ).json()["memories"]
        assert found and all(m["workspace_id"] in (ws, "_global") for m in found)
        listed = http.get("/v1/memories", headers=h).json()["memories"]
        assert [m["content"] for m in listed] == ["tenant A note about secrets"]
        assert http.get("/v1/memories/sequence-keys", headers=h).json() == {"keys": []}
        export = http.get(f"/v1/workspaces/{ws}/export").text
        assert "tenant B" not in export

    def test_workspace_in_query_or_body_scopes_too(self, http, ws, theirs):
        a, _, _ = theirs
        assert http.get(f"/v1/memories/{a['id']}", params={"workspace_id": ws}).status_code == 404
        r = http.post("/v1/memories/recall", json={"query": "tenant B secret", "workspace_id": ws})
        assert r.json()["memories"] == []
