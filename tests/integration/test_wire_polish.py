"""The wire's polish and its declared response models (docs/wire.md), over real HTTP.

Embeddings only on request; a wrong method is a 405; batch and validation errors are capped and summarised;
unknown request fields are refused when they look like a typo and reported otherwise; what routes send is what
their response models declare (the models forbid undeclared keys, so validating a real body catches drift).
"""

from __future__ import annotations

import hashlib

import httpx
import pytest

from shared.api import schemas


def _h(ws: str) -> dict[str, str]:
    return {"X-Workspace-ID": ws}


def remember(http: httpx.Client, ws: str, content: str, **params) -> httpx.Response:
    r = http.post("/v1/memories", json={"content": content}, headers=_h(ws), params=params)
    assert r.status_code == 201, r.text
    return r


def test_embeddings_are_left_out_unless_asked(http, ws):
    plain = remember(http, ws, "Bob keeps bees on the roof").json()
    assert "embedding" not in plain["memory"]
    schemas.RememberResponse.model_validate(plain)

    asked = remember(http, ws, "Carol grows tomatoes", include_embeddings="true").json()
    assert len(asked["memory"]["embedding"]) == 384
    schemas.RememberResponse.model_validate(asked)
    memory_id = asked["memory"]["id"]

    assert "embedding" not in http.get(f"/v1/memories/{memory_id}", headers=_h(ws)).json()["memory"]
    got = http.get(f"/v1/memories/{memory_id}", headers=_h(ws), params={"include_embedding": "true"})
    assert got.json()["memory"]["embedding"] == asked["memory"]["embedding"]

    listed = http.get("/v1/memories", headers=_h(ws)).json()["memories"]
    assert listed and all("embedding" not in m for m in listed)
    listed = http.get("/v1/memories", headers=_h(ws), params={"include_embeddings": "true"}).json()[
        "memories"
    ]
    assert all(len(m["embedding"]) == 384 for m in listed)

    recalled = http.post("/v1/memories/recall", json={"query": "tomatoes"}, headers=_h(ws)).json()
    assert recalled["memories"] and all("embedding" not in m for m in recalled["memories"])
    recalled = http.post(
        "/v1/memories/recall", json={"query": "tomatoes", "include_embeddings": True}, headers=_h(ws)
    ).json()
    assert all(len(m["embedding"]) == 384 for m in recalled["memories"])


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/v1/memories/recall", "POST"),
        ("DELETE", "/v1/memories/batch", "POST"),
        ("PUT", "/v1/memories/sequence-keys", "GET"),
        ("GET", "/v1/sessions/briefing/", None),  # not a fixed path: the usual 404/405 rules
    ],
)
def test_a_wrong_method_is_405_not_a_lookup(http, ws, method, path, allowed):
    r = http.request(method, path, headers=_h(ws))
    if allowed is None:
        assert r.status_code != 405
        return
    assert r.status_code == 405, r.text
    assert r.headers["Allow"] == allowed
    assert r.json()["detail"]["code"] == "method_not_allowed"


def test_batch_failures_are_capped_and_grouped(http, ws):
    made = remember(http, ws, "Dana drinks oolong").json()["memory"]["id"]
    missing = [{"op": "delete", "memory_id": f"mem_{i:016x}"} for i in range(60)]
    ops = [{"op": "update", "memory_id": made, "importance": 0.9}, *missing]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers=_h(ws))
    assert r.status_code == 200, r.text
    body = r.json()
    schemas.BatchResponse.model_validate(body)
    assert (body["total_operations"], body["successful"], body["failed"]) == (61, 1, 60)
    errors = [item for item in body["results"] if item["status"] == "error"]
    assert len(errors) == 20 and body["errors_omitted"] == 40
    assert body["results"][0] == {
        "index": 0, "type": "update", "status": "success", "memory_id": made, "error": None
    }  # fmt: skip
    assert sum(group["count"] for group in body["error_summary"]) == 60
    assert sorted(i for group in body["error_summary"] for i in group["indexes"]) == list(range(1, 61))


def test_validation_errors_are_capped(http, ws):
    ops = [{"op": "create", "importance": 2} for _ in range(50)]  # no content, importance out of range
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers=_h(ws))
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert len(detail) == 21 and len(r.content) < 10_000
    assert detail[-1]["type"] == "too_many_errors" and detail[-1]["count"] == 80
    assert all({"type", "loc", "msg"} <= set(d) for d in detail)
    assert http.get("/v1/memories", headers=_h(ws)).json()["memories"] == []


def test_a_typo_field_is_refused_and_nothing_is_stored(http, ws):
    r = http.post("/v1/memories", json={"content": "Erin likes jazz", "tag": ["music"]}, headers=_h(ws))
    assert r.status_code == 422, r.text
    (error,) = r.json()["detail"]
    assert error["type"] == "unknown_field" and "'tag'" in error["msg"] and "'tags'" in error["msg"]
    assert http.get("/v1/memories", headers=_h(ws)).json()["memories"] == []

    r = http.post("/v1/memories/recall", json={"query": "jazz", "limt": 3}, headers=_h(ws))
    assert r.status_code == 422 and "'limit'" in r.json()["detail"][0]["msg"]


def test_other_unknown_fields_are_reported_in_a_header(http, ws):
    # `relations` is a real field (typed relations), so it is not reported; `colour` is nothing we know.
    r = http.post(
        "/v1/memories",
        json={"content": "Finn paints boats", "relations": [], "colour": "blue"},
        headers=_h(ws),
    )
    assert r.status_code == 201, r.text
    assert r.headers["X-MemoryLayer-Ignored-Fields"] == "colour"
    assert "colour" not in r.json()["memory"]["metadata"]
    clean = http.post("/v1/memories", json={"content": "Finn paints ships"}, headers=_h(ws))
    assert "X-MemoryLayer-Ignored-Fields" not in clean.headers
    # Any key can arrive (the fuzzer sent newlines and control characters): the header stays a valid header.
    odd = {"content": "Finn paints docks", "a\nb": 1, "\u00e9t\u00e9": 2, **{f"x{i}": i for i in range(30)}}
    r = http.post("/v1/memories", json=odd, headers=_h(ws))
    assert r.status_code == 201, r.text
    names = r.headers["X-MemoryLayer-Ignored-Fields"].split(",")
    assert names[0] == "(unprintable)" and len(names) == 20


# One body of each family that once had a policy of its own, each with a near miss of one of its fields.
NEAR_MISSES = [
    ("/v1/graph/analyze", {"include_relation": True}, "include_relations"),
    ("/v1/workspaces/{ws}/contradictions/scan", {"batch_sise": 5}, "batch_size"),
    ("/v1/knowledgebase/generate", {"max_communitys": 5}, "max_communities"),
    ("/v1/entities/merge", {"source_id": "e1", "target_di": "e2"}, "target_id"),
    ("/v1/ingest/email", {"sender": "a@example.com", "body": "Hi", "subjetc": "x"}, "subject"),
    ("/v1/documents/search", {"query": "jazz", "limt": 3}, "limit"),
]


@pytest.mark.parametrize(("path", "body", "meant"), NEAR_MISSES, ids=[p for p, _, _ in NEAR_MISSES])
def test_every_family_refuses_a_near_miss(http, ws, path, body, meant):
    r = http.post(path.format(ws=ws), json=body, headers=_h(ws))
    assert r.status_code == 422, r.text
    (error,) = r.json()["detail"]
    assert error["type"] == "unknown_field" and f"'{meant}'" in error["msg"]


def test_every_family_reports_other_unknown_fields(http, ws):
    r = http.post("/v1/graph/analyze", json={"colour": "blue"}, headers=_h(ws))
    assert r.status_code == 200, r.text
    assert r.headers["X-MemoryLayer-Ignored-Fields"] == "colour"
    r = http.post(f"/v1/workspaces/{ws}/contradictions/scan", json={"colour": "blue"}, headers=_h(ws))
    assert r.status_code == 200, r.text
    assert r.headers["X-MemoryLayer-Ignored-Fields"] == "colour"


def test_responses_match_their_declared_models(http, ws):
    """Recall skips response validation on its hot path: its real bodies are checked against the model here."""
    h = _h(ws)
    tea = remember(http, ws, "Gus brews green tea every morning").json()["memory"]["id"]
    kettle = remember(http, ws, "Gus owns a copper kettle").json()["memory"]["id"]
    edge = http.post(
        f"/v1/memories/{tea}/associate", json={"target_id": kettle, "relationship": "related_to"}, headers=h
    )
    schemas.AssociationCreated.model_validate(edge.json())
    for body in (
        {"query": "green tea"},
        {"query": "green tea", "budget_tokens": 8, "include_embeddings": True},
        {"query": "*", "limit": 1},
        {"query": "nothing matches this zzzz"},
    ):
        r = http.post("/v1/memories/recall", json=body, headers=h)
        assert r.status_code == 200, r.text
        schemas.RecallResponse.model_validate(r.json())

    session = http.post("/v1/sessions", json={"workspace_id": ws}, headers=h).json()
    schemas.SessionCreated.model_validate(session)
    segment = "user: hello\nassistant: hi"
    checkpoint = http.post(
        f"/v1/sessions/{session['id']}/checkpoints",
        json={
            "transcript_segment": segment,
            "content_hash": hashlib.sha256(segment.encode()).hexdigest(),
            "idempotency_key": "turn-1",
        },
        headers=h,
    )
    assert checkpoint.status_code == 201, checkpoint.text
    schemas.Checkpoint.model_validate(checkpoint.json())
    revisions = http.get(f"/v1/memories/{tea}/revisions", headers=h).json()
    schemas.RevisionPage.model_validate(revisions)
