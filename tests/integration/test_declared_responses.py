"""Briefing, working-memory set and decompose declare their response models, and what they send is exactly
what the models declare (the models forbid undeclared keys), in both working-memory shapes."""

from __future__ import annotations

from shared.api import schemas
from tests.helpers.http import create, h, remember


def test_briefing_is_wrapped_and_flat(http, ws):
    remember(http, ws, "We decided to ship on Friday", subtype="decision")
    r = http.get("/v1/sessions/briefing", headers=h(ws))
    assert r.status_code == 200, r.text
    body = r.json()
    schemas.BriefingEnvelope.model_validate(body)
    assert list(body)[0] == "briefing" and {k: body[k] for k in body if k != "briefing"} == body["briefing"]
    assert body["memories"][0]["content"] == "We decided to ship on Friday"


def test_working_memory_set_sends_one_shape(http, ws):
    session = create(http, ws)["id"]
    one = http.post(f"/v1/sessions/{session}/memory", json={"key": "k", "value": None}, headers=h(ws))
    assert one.status_code == 201, one.text
    assert list(one.json()) == ["key", "value", "ttl_seconds", "expires_at", "created_at", "updated_at"]
    assert one.json()["value"] is None  # a null value is sent, not left out
    schemas.WorkingMemoryEntry.model_validate(one.json())
    items = [{"key": "a", "value": 1}, {"key": "b", "value": [2]}]
    many = http.post(f"/v1/sessions/{session}/memory", json={"items": items}, headers=h(ws))
    assert many.status_code == 201 and list(many.json()) == ["items", "total_count"], many.text
    schemas.WorkingMemoryEntries.model_validate(many.json())
    assert http.post(f"/v1/sessions/{session}/memory", json={}, headers=h(ws)).status_code == 422


def test_decompose_declares_what_it_sends(http, ws):
    thread = http.post("/v1/threads", json={}, headers=h(ws)).json()["thread"]["id"]
    r = http.post(f"/v1/threads/{thread}/decompose", headers=h(ws))
    assert r.status_code == 200, r.text
    out = schemas.Decomposed.model_validate(r.json())
    assert (out.messages_processed, out.from_index, out.to_index, out.job_id) == (0, 0, 0, None)
    assert http.post("/v1/threads/thread_nope/decompose", headers=h(ws)).status_code == 404


def test_openapi_names_the_models(http):
    paths = http.get("/openapi.json").json()["paths"]

    def model(path: str, method: str, status: str) -> str:
        return paths[path][method]["responses"][status]["content"]["application/json"]["schema"]["$ref"]

    assert model("/v1/sessions/briefing", "get", "200").endswith("/BriefingEnvelope")
    assert model("/v1/sessions/{session_id}/memory", "post", "201").endswith("/WorkingMemorySetResult")
    assert model("/v1/threads/{thread_id}/decompose", "post", "200").endswith("/Decomposed")
