"""/v1/tokens: a token is an API key minted by a key, never wider than it, refused at once when revoked or
expired, and only ever visible to the key it was minted under (and the admin)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from shared.api.app import create_app
from shared.local.server import serve_in_thread
from tests.secured import admin_client, bearer, secured_settings, windows_stand_still

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=400)


@pytest.fixture()
def admin(secured) -> Iterator[httpx.Client]:
    with admin_client(secured) as c:
        yield c


def new_key(admin: httpx.Client, *workspaces: str, **fields) -> str:
    r = admin.post("/v1/admin/api-keys", json={"workspaces": list(workspaces), **fields})
    assert r.status_code == 201, r.text
    return r.json()["key"]


def as_key(url: str, key: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers=bearer(key))


def mint(c: httpx.Client, **body) -> dict:
    r = c.post("/v1/tokens", json={"name": "t", **body})
    assert r.status_code == 201, r.text
    return r.json()


def code(r: httpx.Response) -> str:
    return r.json()["detail"]["code"]


def test_mint_shows_the_secret_once_and_the_token_works_like_its_key(secured, admin, ws, other_ws):
    key = new_key(admin, ws, other_ws)
    with as_key(secured, key) as c:
        made = mint(c, name="ci", workspace_patterns=[ws], scopes=["read"], expires_in_days=7)
        assert made["token"].startswith("mlk_") and made["name"] == "ci" and made["principal_type"] == "User"
        assert made["workspace_patterns"] == [ws] and made["scopes"] == ["read"] and made["revoked"] is False
        assert made["access"] == "read" and made["shared_spaces"] == "none" and made["expires_at"]
        listed = c.get("/v1/tokens").json()["tokens"]
        assert [t["id"] for t in listed] == [made["id"]] and "token" not in listed[0]
        got = c.get(f"/v1/tokens/{made['id']}").json()
        assert "token" not in got and got["created_at"] == made["created_at"]
        c.post("/v1/memories", json={"content": "visible to the token"}, headers={"X-Workspace-ID": ws})
    with as_key(secured, made["token"]) as t:
        found = t.get("/v1/memories", headers={"X-Workspace-ID": ws})
        assert found.status_code == 200 and found.json()["memories"]
        # Its scopes hold: read only, its one workspace only.
        r = t.post("/v1/memories", json={"content": "no"}, headers={"X-Workspace-ID": ws})
        assert r.status_code == 403 and code(r) == "read_only_key"
        r = t.get("/v1/memories", headers={"X-Workspace-ID": other_ws})
        assert r.status_code == 403 and code(r) == "workspace_forbidden"


def test_revoke_and_expiry_refuse_the_next_request(secured, admin, services, ws):
    key = new_key(admin, ws)
    with as_key(secured, key) as c:
        made = mint(c)
        with as_key(secured, made["token"]) as t:
            assert t.get("/v1/memories").status_code == 200
            assert c.post(f"/v1/tokens/{made['id']}/revoke").status_code == 204
            r = t.get("/v1/memories")
            assert r.status_code == 401 and code(r) == "api_key_revoked"
        assert c.post(f"/v1/tokens/{made['id']}/revoke").status_code == 204  # again: still revoked
        assert c.get("/v1/tokens").json()["tokens"] == []
        revoked = c.get("/v1/tokens", params={"include_revoked": "true"}).json()["tokens"]
        assert [(t["id"], t["revoked"]) for t in revoked] == [(made["id"], True)]

        later = mint(c, expires_in_days=1)
        with services.db.connection() as conn:
            conn.execute(
                "UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = %s", (later["id"],)
            )
        with as_key(secured, later["token"]) as t:
            r = t.get("/v1/memories")
            assert r.status_code == 401 and code(r) == "api_key_expired"

        deleted = mint(c)
        assert c.delete(f"/v1/tokens/{deleted['id']}").status_code == 204
        with as_key(secured, deleted["token"]) as t:
            assert code(t.get("/v1/memories")) == "invalid_api_key"
        r = c.get(f"/v1/tokens/{deleted['id']}")
        assert r.status_code == 404 and code(r) == "token_not_found"
        assert c.delete(f"/v1/tokens/{deleted['id']}").status_code == 404


def test_a_token_is_never_wider_than_its_key(secured, admin, ws, other_ws):
    reader = new_key(admin, ws, access="read", shared_spaces="none")
    with as_key(secured, reader) as c:
        r = c.post("/v1/tokens", json={"name": "w", "scopes": ["write"]})
        assert r.status_code == 403 and code(r) == "token_wider_than_key"
        r = c.post("/v1/tokens", json={"name": "s", "scopes": ["read", "shared:read"]})
        assert r.status_code == 403 and code(r) == "token_wider_than_key"
        r = c.post("/v1/tokens", json={"name": "o", "workspace_patterns": [other_ws]})
        assert r.status_code == 403 and code(r) == "workspace_forbidden"
        # A read key may mint a read token: "*" is what the key has, not more.
        made = mint(c, scopes=["*"])
        assert (made["access"], made["shared_spaces"], made["workspace_patterns"]) == ("read", "none", [ws])
    writer = new_key(admin, ws)
    with as_key(secured, writer) as c:
        child = mint(c, scopes=["read"])
    with as_key(secured, child["token"]) as t:  # a token mints only within itself too
        r = t.post("/v1/tokens", json={"name": "g", "scopes": ["write"]})
        assert r.status_code == 403 and code(r) == "token_wider_than_key"
        grandchild = mint(t, scopes=["read"])
    with as_key(secured, writer) as c:
        # The key sees everything minted under it; revoking the child revokes the grandchild.
        assert {t["id"] for t in c.get("/v1/tokens").json()["tokens"]} == {child["id"], grandchild["id"]}
        assert c.post(f"/v1/tokens/{child['id']}/revoke").status_code == 204
    with as_key(secured, grandchild["token"]) as g:
        assert code(g.get("/v1/memories")) == "api_key_revoked"


def test_a_token_never_outlives_its_key(secured, admin, ws):
    from datetime import UTC, datetime, timedelta

    ends = datetime.now(UTC) + timedelta(days=2)
    key = new_key(admin, ws, expires_at=ends.isoformat())
    with as_key(secured, key) as c:
        made = mint(c, expires_in_days=30)
        unbounded = mint(c)
    for token in (made, unbounded):
        assert datetime.fromisoformat(token["expires_at"]) <= ends
    # Revoking the key (the admin route) revokes its tokens.
    key_id = next(k["id"] for k in admin.get("/v1/admin/api-keys").json()["api_keys"] if k["prefix"] in key)
    # One model: the admin's key list shows the tokens as keys, with their minting key and scopes.
    listed = {k["id"]: k for k in admin.get("/v1/admin/api-keys").json()["api_keys"]}
    assert (listed[made["id"]]["parent_id"], listed[made["id"]]["scopes"]) == (key_id, ["*"])
    assert (listed[key_id]["parent_id"], listed[key_id]["scopes"]) == (None, None)
    assert admin.delete(f"/v1/admin/api-keys/{key_id}").status_code == 204
    with as_key(secured, made["token"]) as t:
        assert code(t.get("/v1/memories")) == "api_key_revoked"


def test_tenants_never_see_each_others_tokens(secured, admin, ws, other_ws):
    a = new_key(admin, ws, tenant_id="tn_tokens_a")
    b = new_key(admin, other_ws, tenant_id="tn_tokens_b")
    a_sibling = new_key(admin, ws, tenant_id="tn_tokens_a")
    with as_key(secured, a) as c:
        theirs = mint(c)
    for other in (b, a_sibling):  # another tenant's key, and another key of the same tenant
        with as_key(secured, other) as c:
            assert c.get("/v1/tokens", params={"include_revoked": "true"}).json()["tokens"] == []
            assert c.get(f"/v1/tokens/{theirs['id']}").status_code == 404
            assert c.post(f"/v1/tokens/{theirs['id']}/revoke").status_code == 404
            assert c.delete(f"/v1/tokens/{theirs['id']}").status_code == 404
    with as_key(secured, b) as c:
        r = c.post("/v1/tokens", json={"name": "x", "workspace_patterns": [ws]})
        assert r.status_code == 403 and code(r) == "workspace_forbidden"
    with as_key(secured, theirs["token"]) as t:
        assert t.get("/v1/memories").status_code == 200  # nothing above touched it
    # The admin sees every token, and a token it mints names its workspaces outright.
    assert theirs["id"] in {t["id"] for t in admin.get("/v1/tokens").json()["tokens"]}
    made = mint(admin, workspace_patterns=[ws], scopes=["read"])
    assert made["tenant_id"] == "tn_tokens_a" and made["workspace_patterns"] == [ws]
    r = admin.post("/v1/tokens", json={"name": "all"})
    assert r.status_code == 400 and code(r) == "token_workspaces_literal"


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({}, 422, None),
        ({"name": ""}, 422, None),
        ({"name": "x" * 201}, 422, None),
        ({"name": "t", "scopes": []}, 422, None),
        ({"name": "t", "scopes": ["admin"]}, 400, "unknown_scope"),
        ({"name": "t", "scopes": ["shared:read"]}, 400, "scopes_without_access"),
        ({"name": "t", "workspace_patterns": []}, 422, None),
        ({"name": "t", "workspace_patterns": ["bad id!"]}, 422, None),
        ({"name": "t", "workspace_patterns": ["nothing-*"]}, 400, "no_matching_workspaces"),
        ({"name": "t", "expires_in_days": 0}, 422, None),
        ({"name": "t", "expires_in_days": -1}, 422, None),
        ({"name": "t", "expires_in_days": "soon"}, 422, None),
        ({"name": "t", "principal_type": ""}, 422, None),
    ],
)
def test_bad_input_is_refused_and_mints_nothing(secured, admin, ws, body, status, error):
    key = new_key(admin, ws)
    with as_key(secured, key) as c:
        r = c.post("/v1/tokens", json=body)
        assert r.status_code == status, r.text
        if error:
            assert code(r) == error
        assert c.get("/v1/tokens", params={"include_revoked": "true"}).json()["tokens"] == []


def test_auth_is_required(secured):
    with httpx.Client(base_url=secured) as anon:
        assert anon.get("/v1/tokens").status_code == 401
        assert anon.post("/v1/tokens", json={"name": "t"}).status_code == 401
        assert anon.delete("/v1/tokens/key_x").status_code == 401


def test_a_token_draws_from_its_keys_rate_budget(settings, services, ws):
    """Minting tokens never multiplies a key's budget: the key and its tokens count in one window."""
    app = create_app(secured_settings(settings, rate_limit_per_s=1.0, rate_limit_burst=6), services=services)
    windows_stand_still(app)
    with serve_in_thread(app) as url, admin_client(url) as admin:
        key = new_key(admin, ws)
        with as_key(url, key) as c:
            made = mint(c)  # 1 unit
            assert [c.get("/v1/memories").status_code for _ in range(3)] == [200] * 3  # 4
        with as_key(url, made["token"]) as t:
            statuses = [t.get("/v1/memories").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
