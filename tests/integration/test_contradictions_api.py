"""Contradictions over real HTTP and Postgres: the deterministic scan (negations, value conflicts, stated
``contradicts`` associations), the open list, resolution by supersede with history, bad input that changes
nothing, and the walls between workspaces."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from shared.app.services import Services
from shared.db import rls
from shared.db.pool import Database
from tests.helpers.http import h, remember
from tests.integration.test_resources_api import key_client  # noqa: F401

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

FIELDS = {
    "id", "workspace_id", "memory_a_id", "memory_b_id", "contradiction_type", "confidence", "detection_method",
    "detected_at", "resolved_at", "resolution",
}  # fmt: skip


def scan(http: httpx.Client, ws: str, **body) -> dict:
    r = http.post(f"/v1/workspaces/{ws}/contradictions/scan", json=body or None, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()


def listed(http: httpx.Client, ws: str, **params) -> list[dict]:
    r = http.get(f"/v1/workspaces/{ws}/contradictions", params=params, headers=h(ws))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["count"] == len(body["contradictions"])
    return body["contradictions"]


def memory(http: httpx.Client, ws: str, memory_id: str) -> dict:
    r = http.get(f"/v1/memories/{memory_id}", headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()["memory"]


def pair(found: list[dict], a: str, b: str) -> dict:
    """The record of the pair a–b, whichever way round it was recorded."""
    (record,) = [c for c in found if {c["memory_a_id"], c["memory_b_id"]} == {a, b}]
    return record


@pytest.fixture()
def seeded(http: httpx.Client, ws: str) -> dict[str, str]:
    """Two contradicting pairs, a stated one, and statements that only look alike."""
    ids = {
        "enabled": remember(http, ws, "Dark mode is enabled for the dashboard")["id"],
        "disabled": remember(http, ws, "Dark mode is disabled for the dashboard")["id"],
        "paris": remember(http, ws, "Alice lives in Paris")["id"],
        "berlin": remember(http, ws, "Alice lives in Berlin")["id"],
        "bob": remember(http, ws, "Bob lives in Paris")["id"],
        "tea": remember(http, ws, "The team drinks tea on Mondays")["id"],
        "coffee": remember(http, ws, "Standups start at nine sharp")["id"],
    }
    r = http.post(
        f"/v1/memories/{ids['tea']}/associate",
        json={"target_id": ids["coffee"], "relationship": "contradicts", "strength": 0.8},
        headers=h(ws),
    )
    assert r.status_code == 201, r.text
    return ids


def test_the_scan_finds_what_the_rules_decide_and_only_once(http, ws, seeded):
    result = scan(http, ws, batch_size=50)
    assert result["workspace_id"] == ws and result["memories_scanned"] == 7 and result["truncated"] is False
    found = result["contradictions"]
    assert result["contradictions_found"] == len(found) == 3
    assert all(set(c) == FIELDS and c["workspace_id"] == ws and c["resolved_at"] is None for c in found)
    negation = pair(found, seeded["enabled"], seeded["disabled"])
    assert (negation["contradiction_type"], negation["detection_method"]) == ("negation", "negation_pattern")
    value = pair(found, seeded["paris"], seeded["berlin"])
    assert (value["contradiction_type"], value["detection_method"]) == (
        "semantic_value_conflict",
        "entity_value_extraction",
    )
    stated = pair(found, seeded["tea"], seeded["coffee"])
    assert (stated["contradiction_type"], stated["confidence"]) == ("asserted", pytest.approx(0.8))
    # Alice and Bob both living in Paris is no contradiction
    assert not [c for c in found if seeded["bob"] in (c["memory_a_id"], c["memory_b_id"])]

    # A second scan records nothing new; the list has them all, newest first, and honours its limit
    assert scan(http, ws) == {**result, "contradictions_found": 0, "contradictions": []}
    assert {c["id"] for c in listed(http, ws)} == {c["id"] for c in found}
    assert len(listed(http, ws, limit=2)) == 2


def test_keep_a_supersedes_b_with_history_and_closes_the_record(http, ws, seeded):
    record = pair(scan(http, ws)["contradictions"], seeded["paris"], seeded["berlin"])
    a, b = record["memory_a_id"], record["memory_b_id"]
    r = http.post(f"/v1/contradictions/{record['id']}/resolve", json={"resolution": "keep_a"}, headers=h(ws))
    assert r.status_code == 200, r.text
    resolved = r.json()
    assert set(resolved) == FIELDS and resolved["resolution"] == "keep_a" and resolved["resolved_at"]
    loser, winner = memory(http, ws, b), memory(http, ws, a)
    assert loser["superseded_by"] == a and loser["valid_to"] is not None
    assert winner["valid_to"] is None
    history = http.get(f"/v1/memories/{b}/revisions", headers=h(ws)).json()
    assert len(history["revisions"]) >= 2  # the supersede is a revision: the old value stays readable
    assert record["id"] not in {c["id"] for c in listed(http, ws)}

    # Resolving again is a conflict and changes nothing
    again = http.post(
        f"/v1/contradictions/{record['id']}/resolve", json={"resolution": "keep_b"}, headers=h(ws)
    )
    assert again.status_code == 409 and again.json()["detail"]["code"] == "contradiction_resolved"
    assert memory(http, ws, a)["valid_to"] is None


def test_keep_b_and_keep_both(http, ws, seeded):
    found = scan(http, ws)["contradictions"]
    negation = pair(found, seeded["enabled"], seeded["disabled"])
    r = http.post(
        f"/v1/contradictions/{negation['id']}/resolve", json={"resolution": "keep_b"}, headers=h(ws)
    )
    assert r.status_code == 200 and r.json()["resolution"] == "keep_b"
    assert memory(http, ws, negation["memory_a_id"])["superseded_by"] == negation["memory_b_id"]

    stated = pair(found, seeded["tea"], seeded["coffee"])
    r = http.post(
        f"/v1/contradictions/{stated['id']}/resolve", json={"resolution": "keep_both"}, headers=h(ws)
    )
    assert r.status_code == 200 and r.json()["resolution"] == "keep_both"
    assert memory(http, ws, seeded["tea"])["valid_to"] is None
    assert memory(http, ws, seeded["coffee"])["valid_to"] is None
    # Kept both on purpose: a rescan does not raise the pair again
    assert scan(http, ws)["contradictions"] == []


def test_merge_rewrites_a_and_supersedes_b(http, ws, seeded):
    record = pair(scan(http, ws)["contradictions"], seeded["paris"], seeded["berlin"])
    a, b = record["memory_a_id"], record["memory_b_id"]
    r = http.post(
        f"/v1/contradictions/{record['id']}/resolve",
        json={"resolution": "merge", "merged_content": "Alice moved from Paris to Berlin"},
        headers=h(ws),
    )
    assert r.status_code == 200, r.text
    merged = memory(http, ws, a)
    assert merged["content"] == "Alice moved from Paris to Berlin" and merged["revision"] == 2
    assert memory(http, ws, b)["superseded_by"] == a


def briefed(http: httpx.Client, ws: str) -> list[tuple[str, str]]:
    r = http.get("/v1/sessions/briefing", params={"limit": 20}, headers=h(ws))
    assert r.status_code == 200, r.text
    return [
        (c["id"], frozenset((c["memory_a"], c["memory_b"])))
        for c in r.json()["briefing"]["contradictions_detected"]
    ]


def test_the_briefing_lists_what_is_still_open(http, ws, seeded):
    stated = frozenset((seeded["tea"], seeded["coffee"]))
    # Before a scan the briefing knows the stated contradiction by its association
    (before,) = briefed(http, ws)
    assert before[1] == stated and before[0].startswith("assoc_")
    found = scan(http, ws)["contradictions"]
    # After it, by the records: each pair once
    assert sorted(briefed(http, ws)) == sorted(
        (c["id"], frozenset((c["memory_a_id"], c["memory_b_id"]))) for c in found
    )
    record = pair(found, seeded["tea"], seeded["coffee"])
    http.post(f"/v1/contradictions/{record['id']}/resolve", json={"resolution": "keep_both"}, headers=h(ws))
    value = pair(found, seeded["paris"], seeded["berlin"])
    http.post(f"/v1/contradictions/{value['id']}/resolve", json={"resolution": "keep_a"}, headers=h(ws))
    # Settled pairs leave it: kept both (the association stays, the record settles it) or one superseded
    left = pair(found, seeded["enabled"], seeded["disabled"])
    assert briefed(http, ws) == [(left["id"], frozenset((left["memory_a_id"], left["memory_b_id"])))]


def test_bad_input_is_refused_and_changes_nothing(http, ws, seeded):
    record = pair(scan(http, ws)["contradictions"], seeded["paris"], seeded["berlin"])
    path = f"/v1/contradictions/{record['id']}/resolve"
    for body, status, code in (
        ({"resolution": "keep_neither"}, 400, "invalid_resolution"),
        ({"resolution": "merge"}, 400, "merged_content_required"),
        ({"resolution": "merge", "merged_content": "   "}, 400, "merged_content_required"),
    ):
        r = http.post(path, json=body, headers=h(ws))
        assert r.status_code == status and r.json()["detail"]["code"] == code, r.text
    assert http.post(path, json={}, headers=h(ws)).status_code == 422
    missing = http.post(
        "/v1/contradictions/contra_nope/resolve", json={"resolution": "keep_a"}, headers=h(ws)
    )
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "contradiction_not_found"
    assert http.get(f"/v1/workspaces/{ws}/contradictions", params={"limit": 0}).status_code == 422
    assert http.post(f"/v1/workspaces/{ws}/contradictions/scan", json={"batch_size": 0}).status_code == 422
    assert http.get("/v1/workspaces/bad%20id/contradictions").status_code == 400
    # Nothing was resolved or superseded on the way
    assert pair(listed(http, ws), seeded["paris"], seeded["berlin"])["resolution"] is None
    assert memory(http, ws, seeded["paris"])["valid_to"] is None
    assert memory(http, ws, seeded["berlin"])["valid_to"] is None


def test_a_memory_gone_elsewhere_leaves_nothing_to_resolve(http, ws, seeded):
    record = pair(scan(http, ws)["contradictions"], seeded["enabled"], seeded["disabled"])
    assert http.delete(f"/v1/memories/{seeded['disabled']}", headers=h(ws)).status_code in (200, 204)
    assert record["id"] not in {c["id"] for c in listed(http, ws)}
    r = http.post(f"/v1/contradictions/{record['id']}/resolve", json={"resolution": "keep_a"}, headers=h(ws))
    assert r.status_code == 409 and r.json()["detail"]["code"] == "contradiction_stale"
    assert memory(http, ws, seeded["enabled"])["valid_to"] is None


# ------------------------------------------------------------------------------------------------------ walls
@pytest.fixture()
def keys(secured, ws, other_ws) -> Iterator[tuple[httpx.Client, httpx.Client]]:  # noqa: F811
    with key_client(secured, ws) as a, key_client(secured, other_ws, f"t_{uuid.uuid4().hex[:8]}") as b:
        yield a, b


def test_another_workspace_sees_and_resolves_nothing(keys, ws, other_ws):
    a, b = keys
    for content in ("The build is green", "The build is not green"):
        assert a.post("/v1/memories", json={"content": content}).status_code == 201
    (record,) = a.post(f"/v1/workspaces/{ws}/contradictions/scan").json()["contradictions"]

    assert b.get(f"/v1/workspaces/{ws}/contradictions").status_code == 403
    assert b.post(f"/v1/workspaces/{ws}/contradictions/scan").status_code == 403
    assert b.get(f"/v1/workspaces/{other_ws}/contradictions").json()["contradictions"] == []
    assert b.post(f"/v1/workspaces/{other_ws}/contradictions/scan").json()["contradictions"] == []
    resolve = f"/v1/contradictions/{record['id']}/resolve"
    assert b.post(resolve, json={"resolution": "keep_a"}).status_code == 404
    assert b.post(resolve, json={"resolution": "keep_a"}, params={"workspace_id": ws}).status_code == 403
    # A's record is untouched
    assert [c["id"] for c in a.get(f"/v1/workspaces/{ws}/contradictions").json()["contradictions"]] == [
        record["id"]
    ]


def test_the_row_wall_holds_contradictions_to_their_workspace(
    settings, services: Services, http, ws, other_ws
):
    for workspace in (ws, other_ws):
        for content in ("The cache is warm", "The cache is not warm"):
            remember(http, workspace, content)
        scan(http, workspace)
    db = Database.from_settings(settings, purpose="api")
    try:
        with rls.visible((ws,)), db.connection() as conn:
            rows = conn.execute("SELECT workspace_id FROM contradictions").fetchall()
        assert {r["workspace_id"] for r in rows} == {ws}
        with rls.visible(rls.NOTHING), db.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM contradictions").fetchone()["n"] == 0  # type: ignore[index]
    finally:
        db.close()


# ------------------------------------------------------------------------------------------------------ our SDK
def test_our_sdk_scans_lists_and_resolves(base_url, ws):
    from memorylayer import SyncMemoryLayerClient
    from memorylayer.errors import ConflictError

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        kept = client.remember("The nightly backup is enabled")
        dropped = client.remember("The nightly backup is disabled")
        result = client.scan_contradictions(batch_size=10)
        assert (result.contradictions_found, result.memories_scanned, result.truncated) == (1, 2, False)
        (found,) = client.list_contradictions(limit=5)
        assert found.id == result.contradictions[0].id and found.contradiction_type == "negation"
        keep = "keep_a" if found.memory_a_id == kept.id else "keep_b"
        resolved = client.resolve_contradiction(found.id, keep)
        assert resolved.resolution == keep and resolved.resolved_at is not None
        assert client.get_memory(dropped.id).superseded_by == kept.id
        assert client.list_contradictions() == []
        with pytest.raises(ConflictError):
            client.resolve_contradiction(found.id, "keep_both")


def test_a_large_fact_group_is_capped_and_the_scan_pages_by_cursor(http, ws, settings, monkeypatch):
    """One user's 30 values of one subject and predicate are 435 pairs: a group yields at most its cap (newest
    first) and one scan records at most a page, `next_cursor` continuing where it stopped."""
    monkeypatch.setattr(settings, "contradiction_scan_max_group_pairs", 20)
    monkeypatch.setattr(settings, "contradiction_scan_max_pairs", 8)
    ops = [
        {
            "op": "create",
            "content": f"note {uuid.uuid4().hex}",
            "user_id": "dana",
            "metadata": {"fact_subject": "dana", "fact_predicate": "lives_in", "fact_value": f"city {i}"},
        }
        for i in range(30)
    ]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h(ws))
    assert r.status_code == 200 and r.json()["successful"] == 30, r.text

    first = scan(http, ws)
    assert first["contradictions_found"] == len(first["contradictions"]) == 8
    assert first["truncated"] and first["next_cursor"] and first["groups_capped"] == 1
    assert first["pairs_found"] == 20
    pages, cursor = [first], first["next_cursor"]
    while cursor:
        page = scan(http, ws, cursor=cursor)
        assert len(page["contradictions"]) <= 8
        pages.append(page)
        cursor = page["next_cursor"]
    assert [len(p["contradictions"]) for p in pages] == [8, 8, 4]
    recorded = {frozenset((c["memory_a_id"], c["memory_b_id"])) for p in pages for c in p["contradictions"]}
    assert len(recorded) == 20
    assert len(listed(http, ws, limit=1000)) == 20  # the cap is what was written, not only what was answered

    # Scanning again records nothing twice; a cursor that no scan answered is a 400.
    assert scan(http, ws)["contradictions"] == []
    r = http.post(f"/v1/workspaces/{ws}/contradictions/scan", json={"cursor": "x"}, headers=h(ws))
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_cursor"
