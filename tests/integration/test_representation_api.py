"""POST /v1/representation/user over HTTP: a user's memories in the tenant's user space (newest first, with a
profile), never another user's or another tenant's; bad input is a 422."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.integration.test_tenant_walls import admin, new_key, user_memory  # noqa: F401

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)


@pytest.fixture()
def user() -> str:
    return f"u_{uuid.uuid4().hex[:10]}"


def memory_id(r: httpx.Response) -> str:
    assert r.status_code in (200, 201), r.text
    body = r.json()
    return body["id"] if "id" in body else body["memory"]["id"]


def represent(client: httpx.Client, **body) -> dict:
    r = client.post("/v1/representation/user", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_users_memories_make_their_representation(http: httpx.Client, ws: str, user: str):
    http.headers["X-Workspace-ID"] = ws
    ids = []
    for content, when in (
        ("Prefers green tea", "2026-01-01T00:00:00Z"),
        ("Lives in Lyon", "2026-02-01T00:00:00Z"),
    ):
        ids.append(memory_id(user_memory(http, content, user, event_time=when)))
    user_memory(http, "Someone else's secret", f"{user}_other")
    http.post("/v1/memories", json={"content": "A workspace fact", "user_id": user})  # not in the user space
    rep = represent(http, user_id=user)
    assert [o["content"] for o in rep["observations"]] == ["Lives in Lyon", "Prefers green tea"]
    assert {o["role"] for o in rep["observations"]} == {"self"}
    assert rep["profile"] == {
        "summary": "Lives in Lyon Prefers green tea",
        "source_memory_ids": [ids[1], ids[0]],
        "derived": False,
    }
    assert rep["derived_beliefs"] == [] and rep["provenance"]["truncated"] is False
    one = represent(http, user_id=user, limit=1, include_profile=False)
    assert len(one["observations"]) == 1 and one["profile"] is None and one["provenance"]["truncated"] is True
    profiled = memory_id(user_memory(http, "Tea lover from Lyon", user, subtype="profile"))
    assert represent(http, user_id=user)["profile"]["source_memory_ids"] == [profiled]


def test_no_user_and_bad_input(http: httpx.Client):
    empty = represent(http)
    assert (empty["user_id"], empty["observations"], empty["provenance"]["error"]) == ("", [], "no_user_id")
    for body in ({"user_id": ""}, {"user_id": "u", "limit": 0}, {"user_id": "u", "limit": 201}):
        assert http.post("/v1/representation/user", json=body).status_code == 422


def test_another_tenant_sees_nothing_of_a_user(admin, user):  # noqa: F811
    ws_a, ws_b = f"ws_{uuid.uuid4().hex[:8]}", f"ws_{uuid.uuid4().hex[:8]}"
    with (
        new_key(admin, ws_a, tenant=f"t_{uuid.uuid4().hex[:8]}") as a,
        new_key(admin, ws_b, tenant=f"t_{uuid.uuid4().hex[:8]}") as b,
        new_key(admin, ws_a, shared="none") as no_shared,
    ):
        assert user_memory(a, "Tenant A's user likes tea", user).status_code in (200, 201)
        assert [o["content"] for o in represent(a, user_id=user)["observations"]] == [
            "Tenant A's user likes tea"
        ]
        assert represent(b, user_id=user)["observations"] == []
        assert no_shared.post("/v1/representation/user", json={"user_id": user}).status_code == 403


def test_our_sdk_reads_a_user_representation(base_url: str, ws: str, user: str, http: httpx.Client):
    from memorylayer import SyncMemoryLayerClient

    user_memory(http, "Prefers oolong", user, headers={"X-Workspace-ID": ws})
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        rep = client.get_user_representation(user)
    assert [o["content"] for o in rep["observations"]] == ["Prefers oolong"]


# ---------------------------------------------------------------- POST /v1/representation (observer, subject)


def people(http: httpx.Client, ws: str, *names: str) -> None:
    """Put the names in the workspace's entity registry (typed relations create their endpoints)."""
    relations = [
        {
            "source_entity_name": a,
            "source_entity_type": "person",
            "target_entity_name": b,
            "target_entity_type": "person",
            "relationship": "collaborates_with",
        }
        for a, b in zip(names, names[1:], strict=False)
    ]
    r = http.post(
        "/v1/memories", json={"content": " and ".join(names) + " work together", "relations": relations}
    )
    assert r.status_code == 201, r.text


def perspective(client: httpx.Client, **body) -> dict:
    r = client.post("/v1/representation", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def said(http: httpx.Client, content: str, observer: str, subject: str | None = None, **extra) -> str:
    body = {"content": content, "observer_id": observer, **extra}
    if subject is not None:
        body["subject_id"] = subject
    return memory_id(http.post("/v1/memories", json=body))


def test_what_an_observer_holds_about_a_subject(http: httpx.Client, ws: str):
    http.headers["X-Workspace-ID"] = ws
    people(http, ws, "Alice Chen", "Bob Stone", "Carol King")
    about_bob = said(
        http, "Bob ships on Fridays", "alice chen", "Bob Stone", event_time="2026-01-02T00:00:00Z"
    )
    said(http, "Bob likes chess", "Carol King", "bob stone")  # Carol's view, not Alice's
    said(http, "The office is cold", "Alice Chen")  # Alice, about no one
    later = said(http, "Bob moved to Oslo", "Alice Chen", "bob stone", event_time="2026-03-01T00:00:00Z")
    rep = perspective(http, observer="Alice Chen", subject="bob stone")
    assert (
        rep["observer"]["canonical_name"] == "Alice Chen" and rep["subject"]["canonical_name"] == "Bob Stone"
    )
    assert rep["is_self"] is False
    assert [o["memory_id"] for o in rep["observations"]] == [later, about_bob]
    assert rep["profile"]["summary"] == "Bob moved to Oslo Bob ships on Fridays"
    assert rep["provenance"]["scoping_mode"] == "intersection"
    assert rep["provenance"]["observer_matched_via"] == "exact"

    own = perspective(http, observer="Alice Chen", subject="Alice Chen", include_profile=False)
    assert own["is_self"] is True and own["profile"] is None
    assert [o["content"] for o in own["observations"]] == ["The office is cold"]

    one = perspective(http, observer="Alice Chen", subject="Bob Stone", limit=1)
    assert len(one["observations"]) == 1 and one["provenance"]["truncated"] is True


def test_an_unknown_name_is_an_empty_representation_and_creates_nothing(http: httpx.Client, ws: str):
    http.headers["X-Workspace-ID"] = ws
    people(http, ws, "Dana Wu", "Eli Park")
    rep = perspective(http, observer="Dana Wu", subject="Nobody Known", subject_type="person")
    assert rep["observations"] == [] and rep["profile"] is None
    assert rep["provenance"]["unresolved"] == ["subject"]
    assert rep["subject"]["id"] == "" and rep["subject"]["provenance"] == {"unresolved": True}
    assert rep["observer"]["canonical_name"] == "Dana Wu"
    names = {e["canonical_name"] for e in http.get("/v1/entities").json()["entities"]}
    assert "Nobody Known" not in names


@pytest.mark.parametrize(
    "body",
    [
        {"subject": "Bob"},
        {"observer": "Alice"},
        {"observer": "", "subject": "Bob"},
        {"observer": "Alice", "subject": "Bob", "limit": 0},
        {"observer": "Alice", "subject": "Bob", "limit": 201},
        {"observer": "Alice", "subject": "Bob", "observer_type": "Not A Type"},
    ],
)
def test_bad_perspective_requests_are_422(http: httpx.Client, body: dict):
    assert http.post("/v1/representation", json=body).status_code == 422


def test_another_workspace_key_sees_nothing_of_the_perspective(admin):  # noqa: F811
    ws_a, ws_b = f"ws_{uuid.uuid4().hex[:8]}", f"ws_{uuid.uuid4().hex[:8]}"
    with new_key(admin, ws_a) as a, new_key(admin, ws_b) as b:
        people(a, ws_a, "Fay Lin", "Gus Moe")
        said(a, "Gus owns the roadmap", "Fay Lin", "Gus Moe")
        assert len(perspective(a, observer="Fay Lin", subject="Gus Moe")["observations"]) == 1
        theirs = perspective(b, observer="Fay Lin", subject="Gus Moe")
        assert theirs["observations"] == [] and sorted(theirs["provenance"]["unresolved"]) == [
            "observer",
            "subject",
        ]
        assert (
            b.post(
                "/v1/representation", json={"observer": "Fay Lin", "subject": "Gus Moe", "workspace_id": ws_a}
            ).status_code
            == 403
        )
