"""What a new user meets in the first hour: errors that say what went wrong, and answers without internals."""

from __future__ import annotations

import httpx
import pytest

from shared.api import schemas


def test_an_unknown_route_is_a_404_with_the_usual_code(http: httpx.Client) -> None:
    for path in ("/v1/nope", "/nope", "/v1/memories/mem_x/nope"):
        r = http.get(path)
        assert r.status_code == 404
        assert r.json()["detail"]["code"] == "route_not_found"
        assert path in r.json()["detail"]["message"]
    r = http.delete("/v1/memories/recall")  # a route, not that method
    assert r.status_code == 405 and r.json()["detail"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_without_a_json_content_type_is_a_clear_415(
    http: httpx.Client, ws: str, content_type: str | None
) -> None:
    headers = {"X-Workspace-ID": ws}
    request = http.build_request("POST", "/v1/memories", content=b'{"content": "x"}', headers=headers)
    if content_type is None:
        request.headers.pop("Content-Type", None)
    else:
        request.headers["Content-Type"] = content_type
    r = http.send(request)
    assert r.status_code == 415, r.text
    assert r.json()["detail"]["code"] == "unsupported_media_type"
    assert "Content-Type: application/json" in r.json()["detail"]["message"]


@pytest.mark.parametrize("field", ["Tags", "tgas", "TAGS", "tag"])
def test_a_misspelt_body_field_is_refused_naming_it(http: httpx.Client, ws: str, field: str) -> None:
    r = http.post("/v1/memories", json={"content": "x", field: ["a"]}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 422, r.text
    error = r.json()["detail"][0]
    assert error["type"] == "unknown_field"
    assert f"'{field}'" in error["msg"] and "'tags'" in error["msg"]


def test_a_field_of_no_resemblance_is_still_accepted_and_reported(http: httpx.Client, ws: str) -> None:
    # SDKs send fields we do not use: those pass, named in a header
    r = http.post("/v1/memories", json={"content": "x", "client_hint": 1}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 201
    assert "client_hint" in r.headers["X-MemoryLayer-Ignored-Fields"]


def test_revisions_show_the_memory_as_the_api_does_not_its_row(http: httpx.Client, ws: str) -> None:
    hdr = {"X-Workspace-ID": ws}
    mid = http.post("/v1/memories", json={"content": "Dana lives in Paris"}, headers=hdr).json()["memory"][
        "id"
    ]
    assert (
        http.put(f"/v1/memories/{mid}", json={"content": "Dana lives in Rome"}, headers=hdr).status_code
        == 200
    )
    revisions = http.get(f"/v1/memories/{mid}/revisions", headers=hdr).json()["revisions"]
    assert [r["memory"]["content"] for r in revisions] == ["Dana lives in Rome", "Dana lives in Paris"]
    wire = set(schemas.Memory.model_fields)
    for revision in revisions:
        assert set(revision["memory"]) <= wire
        assert not {"dedup_key", "tags_lower", "vector_gen", "vector_indexed", "stale_by"} & set(
            revision["memory"]
        )


def test_a_memory_stored_without_a_type_is_found_by_its_rule_type(http: httpx.Client, ws: str) -> None:
    hdr = {"X-Workspace-ID": ws}
    stored = http.post("/v1/memories", json={"content": "Dana lives in Paris"}, headers=hdr).json()["memory"]
    assert stored["type"] == "semantic"
    found = http.post(
        "/v1/memories/recall",
        json={"query": "where does Dana live", "types": ["semantic"], "min_relevance": 0},
        headers=hdr,
    ).json()["memories"]
    assert stored["id"] in [m["id"] for m in found]
