"""A format-2 import is bounded in every kind of row it writes, and what it answers a tenant's key never depends
on the rows of other tenants (whether an id is taken elsewhere)."""

from __future__ import annotations

import uuid

import httpx

from tests.helpers.http import h, remember
from tests.helpers.roundtrip import counts, export, import_
from tests.secured import bearer, new_key, serve_secured


def _seed_entities(http: httpx.Client, ws: str, n: int) -> None:
    items = [{"name": f"Project {i} {uuid.uuid4().hex[:6]}", "entity_type": "project"} for i in range(n)]
    r = http.post("/v1/entities/seed", json={"entities": items}, headers=h(ws))
    assert r.status_code == 200, r.text


def test_an_import_over_any_row_kinds_cap_is_refused_whole(http, ws, settings, monkeypatch):
    remember(http, ws, "The ledger closes on Fridays")
    _seed_entities(http, ws, 3)
    lines = export(http, ws)
    assert counts(lines)["entity"] == 3

    monkeypatch.setattr(settings, "max_import_rows_per_kind", 2)
    copy = f"ws_copy_{uuid.uuid4().hex[:10]}"
    r = import_(http, copy, lines)
    assert r.status_code == 413, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "too_many_import_rows" and detail["kind"] == "entity" and detail["limit"] == 2
    assert http.get(f"/v1/workspaces/{copy}").status_code == 404  # nothing written, not even the workspace

    monkeypatch.setattr(settings, "max_import_rows_per_kind", 10_000)
    monkeypatch.setattr(settings, "max_import_rows", 3)  # one memory and three entities: four rows
    r = import_(http, copy, lines)
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_many_import_rows", r.text
    assert r.json()["detail"]["kind"] == "all"
    assert http.get(f"/v1/workspaces/{copy}").status_code == 404

    monkeypatch.setattr(settings, "max_import_rows", 50_000)
    r = import_(http, copy, lines)
    assert r.status_code == 200 and r.json()["imported_by_kind"]["entity"] == 3, r.text


def test_a_tenants_import_answers_the_same_whether_or_not_another_tenant_holds_its_ids(
    http, settings, services
):
    """Two identical workspaces exported; one is deleted (its ids are free), the other stays (another tenant
    holds its ids). Each file imported by a tenant's key into an empty workspace of its own answers the same,
    and neither keeps an id (keeping one would say it was free everywhere)."""
    held, freed = f"ws_held_{uuid.uuid4().hex[:8]}", f"ws_freed_{uuid.uuid4().hex[:8]}"
    for ws in (held, freed):
        remember(http, ws, "The kettle is in the second cupboard")
        remember(http, ws, "Standup moved to 9:30")
        _seed_entities(http, ws, 2)
    files = {ws: export(http, ws) for ws in (held, freed)}
    assert http.delete(f"/v1/workspaces/{freed}").status_code == 204

    answers = {}
    with serve_secured(settings, services) as url:
        for source, lines in files.items():
            target = f"ws_t_{uuid.uuid4().hex[:10]}"
            with httpx.Client(base_url=url, headers=bearer(new_key(url, target)), timeout=30) as tenant:
                r = import_(tenant, target, lines)
                assert r.status_code == 200, r.text
                answers[source] = r.json()
                old = next(line["data"]["id"] for line in lines if line["type"] == "memory")
                assert tenant.get(f"/v1/memories/{old}", headers=h(target)).status_code == 404
    assert answers[held] == answers[freed]
    assert answers[held]["ids"] == "remapped" and answers[held]["imported"] == 2
