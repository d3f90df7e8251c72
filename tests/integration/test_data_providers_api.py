"""/v1/data-providers over HTTP as the reference serves them: create, list, get, update (each a revision),
delete (final), sync (a local provider fetches nothing; another type is refused, not faked); bad input (a 4xx,
nothing written); isolation between workspaces and tenants; the round trip through the workspace export."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.integration.test_resources_api import key_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

LOCAL = {"name": "uploads", "description": "Direct uploads", "metadata": {"team": "a"}}


@pytest.fixture()
def api(http: httpx.Client, ws: str) -> httpx.Client:
    http.headers["X-Workspace-ID"] = ws
    return http


def make(api: httpx.Client, body: dict) -> dict:
    r = api.post("/v1/data-providers", json=body)
    assert r.status_code == 201, r.text
    return r.json()["provider"]


def test_a_provider_is_created_updated_synced_and_deleted(api):
    p = make(api, {**LOCAL, "name": "  uploads  "})
    assert (p["name"], p["provider_type"], p["enabled"], p["revision"], p["last_sync_at"]) == (
        "uploads",
        "local",
        True,
        1,
        None,
    )
    assert p["workspace_id"] == api.headers["X-Workspace-ID"] and p["metadata"] == {"team": "a"}
    assert api.get(f"/v1/data-providers/{p['id']}").json()["provider"] == p
    twin = make(api, LOCAL)  # names need not be unique
    r = api.put(f"/v1/data-providers/{p['id']}", json={"enabled": False, "schedule": "0 * * * *"})
    assert r.status_code == 200, r.text
    v2 = r.json()["provider"]
    assert (v2["revision"], v2["enabled"], v2["schedule"], v2["name"]) == (2, False, "0 * * * *", "uploads")
    listed = api.get("/v1/data-providers").json()
    assert [x["id"] for x in listed["providers"]] == [p["id"], twin["id"]] and listed["total_count"] == 2
    page = api.get("/v1/data-providers", params={"limit": 1, "offset": 1}).json()
    assert [x["id"] for x in page["providers"]] == [twin["id"]] and page["total_count"] == 2

    synced = api.post(f"/v1/data-providers/{p['id']}/sync")
    assert synced.status_code == 200 and synced.json() == {
        "provider_id": p["id"],
        "workspace_id": api.headers["X-Workspace-ID"],
        "synced_documents": [],
    }
    s3 = make(api, {"name": "bucket", "provider_type": "s3", "connection_args": {"bucket": "b"}})
    refused = api.post(f"/v1/data-providers/{s3['id']}/sync")
    assert refused.status_code == 422 and refused.json()["detail"]["code"] == "provider_sync_not_supported"
    assert api.get(f"/v1/data-providers/{s3['id']}").json()["provider"] == s3  # nothing changed

    assert api.delete(f"/v1/data-providers/{p['id']}").status_code == 204
    assert api.get(f"/v1/data-providers/{p['id']}").status_code == 404
    assert api.delete(f"/v1/data-providers/{p['id']}").status_code == 404
    assert api.post(f"/v1/data-providers/{p['id']}/sync").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": "  "},
        {"name": "x" * 201},
        {"name": "a", "provider_type": "S3!"},
        {"name": "a", "enabled": "maybe"},
    ],
)
def test_bad_providers_are_refused_and_nothing_is_written(api, body):
    assert api.post("/v1/data-providers", json=body).status_code == 422
    p = make(api, LOCAL)
    assert api.put(f"/v1/data-providers/{p['id']}", json={"name": " "}).status_code == 422
    assert api.get(f"/v1/data-providers/{p['id']}").json()["provider"]["revision"] == 1
    assert api.get("/v1/data-providers", params={"limit": 201}).status_code == 422
    assert api.get("/v1/data-providers").json()["total_count"] == 1


@pytest.mark.parametrize("other_tenant", [False, True])
def test_another_workspace_or_tenant_sees_and_changes_nothing(secured, ws, other_ws, other_tenant):  # noqa: F811
    tenant = f"t_{uuid.uuid4().hex[:8]}" if other_tenant else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        p = make(a, LOCAL)
        assert b.get(f"/v1/data-providers/{p['id']}").status_code == 404
        assert b.get(f"/v1/data-providers/{p['id']}", params={"workspace_id": ws}).status_code == 403
        assert b.put(f"/v1/data-providers/{p['id']}", json={"name": "pwned"}).status_code == 404
        assert b.delete(f"/v1/data-providers/{p['id']}").status_code == 404
        assert b.post(f"/v1/data-providers/{p['id']}/sync").status_code == 404
        assert b.post("/v1/data-providers", json={**LOCAL, "workspace_id": ws}).status_code == 403
        assert b.get("/v1/data-providers").json() == {"providers": [], "total_count": 0}
        assert a.get(f"/v1/data-providers/{p['id']}").json()["provider"] == p


def test_providers_round_trip_through_the_workspace_export(http, ws, other_ws):
    http.headers["X-Workspace-ID"] = ws
    p = make(http, LOCAL)
    exported = http.get(f"/v1/workspaces/{ws}/export")
    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200 and r.json()["resources_imported"] == 1, r.text
    got = http.get(f"/v1/data-providers/{p['id']}", headers={"X-Workspace-ID": other_ws}).json()["provider"]
    assert got == {**p, "workspace_id": other_ws}


def test_our_sdk_drives_data_providers(base_url, ws):
    from memorylayer import SyncMemoryLayerClient
    from memorylayer.errors import MemoryLayerError

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        p = client.create_data_provider("uploads", description="Direct")
        assert client.get_data_provider(p.id).name == "uploads"
        assert client.update_data_provider(p.id, enabled=False).revision == 2
        assert [x.id for x in client.list_data_providers()] == [p.id]
        assert client.sync_data_provider(p.id) == []
        web = client.create_data_provider("site", provider_type="web")
        with pytest.raises(MemoryLayerError) as refused:
            client.sync_data_provider(web.id)
        assert refused.value.status_code == 422
        client.delete_data_provider(p.id)
        assert [x.id for x in client.list_data_providers()] == [web.id]
