"""The API documents itself: /openapi.json describes every operation, parameter and request
field, declares response schemas with examples and a bearer scheme; /docs and /redoc load with no outside URL.
Walked over real HTTP, from the document the server serves.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest


@pytest.fixture(scope="module")
def spec(base_url: str) -> dict[str, Any]:
    r = httpx.get(f"{base_url}/openapi.json", timeout=30)
    assert r.status_code == 200
    return r.json()


def _operations(spec: dict[str, Any]):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            yield f"{method.upper()} {path}", operation


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _models_under(spec: dict[str, Any], schema: dict[str, Any], seen: set[str]) -> None:
    """Every component model a schema reaches (through refs, unions, arrays, objects)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name in seen:
            return
        seen.add(name)
        schema = spec["components"]["schemas"][name]
    for key in ("anyOf", "oneOf", "allOf"):
        for part in schema.get(key, []):
            _models_under(spec, part, seen)
    for part in (schema.get("items"), schema.get("additionalProperties")):
        if isinstance(part, dict):
            _models_under(spec, part, seen)
    for prop in (schema.get("properties") or {}).values():
        _models_under(spec, prop, seen)


def test_every_operation_is_described(spec):
    undescribed = [name for name, op in _operations(spec) if not (op.get("description") or "").strip()]
    assert not undescribed, undescribed
    assert len(list(_operations(spec))) >= 50


def test_every_parameter_and_request_field_is_described(spec):
    missing = []
    request_models: set[str] = set()
    for name, op in _operations(spec):
        for parameter in op.get("parameters", []):
            if not parameter.get("description"):
                missing.append(f"{name} parameter {parameter['name']}")
        body = op.get("requestBody", {}).get("content", {}).get("application/json")
        if body:
            _models_under(spec, body["schema"], request_models)
    assert {"MemoryCreate", "RecallRequest", "BatchCreate", "CheckpointCreate", "ContextPackRequest"} <= (
        request_models
    )
    for model in sorted(request_models):
        for field, prop in (spec["components"]["schemas"][model].get("properties") or {}).items():
            if not prop.get("description"):
                missing.append(f"{model}.{field}")
    assert not missing, missing


def test_every_response_field_is_described(spec):
    missing = [
        f"{name}.{field}"
        for name, schema in spec["components"]["schemas"].items()
        for field, prop in (schema.get("properties") or {}).items()
        if not prop.get("description")
    ]
    assert not missing, missing


def test_responses_have_schemas_and_examples(spec):
    untyped = []
    for name, op in _operations(spec):
        for status, response in op["responses"].items():
            if not status.startswith("2") or status == "204":
                continue
            content = response.get("content", {}).get("application/json")
            if content is None:
                continue  # NDJSON export
            schema = content["schema"]
            if "$ref" not in schema and "anyOf" not in schema:
                untyped.append(name)
    # Free-form by nature (the ontology, a working-memory map), or not modelled yet (the others).
    assert set(untyped) <= {
        "GET /v1/workspaces/{workspace_id}/schema",
        "GET /v1/workspaces/{workspace_id}/export",
        "GET /v1/sessions/briefing",
        "GET /v1/sessions/{session_id}/memory",
        "POST /v1/threads/{thread_id}/decompose",
    }, untyped
    schemas = spec["components"]["schemas"]
    recall = spec["paths"]["/v1/memories/recall"]["post"]["responses"]["200"]["content"]["application/json"]
    assert _resolve(spec, recall["schema"])["title"] == "RecallResponse"
    for model in ("Memory", "Association", "Session", "Checkpoint", "BatchResponse", "Workspace", "Entity",
                  "EntityRelation", "EntityList", "EntityDetail", "EntityResolution", "EntityAliases"):  # fmt: skip
        assert schemas[model].get("examples"), f"{model} has no example"
    checkpoint = schemas["Checkpoint"]["properties"]
    assert "sha256" in checkpoint["content_hash"]["description"]
    assert set(checkpoint["index_status"]["enum"]) == {"pending", "complete", "failed", "skipped"}


def test_bearer_scheme_and_open_health_routes(spec):
    assert spec["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["bearer"]["description"],
    }
    assert spec["security"] == [{"bearer": []}]
    assert spec["paths"]["/health"]["get"]["security"] == []
    assert "security" not in spec["paths"]["/v1/memories/recall"]["post"]  # the global requirement applies
    # Authorization is the scheme's, not a parameter Swagger would ask for on every call.
    assert all(
        p["name"].lower() != "authorization" for _, op in _operations(spec) for p in op.get("parameters", [])
    )


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_load_without_outside_urls(base_url, page):
    r = httpx.get(f"{base_url}{page}", timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "/openapi.json" in html
    assert not re.findall(r"https?://", html), re.findall(r"[\"'](https?://[^\"']+)", html)
    assets = re.findall(r"""(?:src|href)=["'](/docs/assets/[^"']+)""", html)
    assert len(assets) >= 2, html
    for asset in assets:
        got = httpx.get(f"{base_url}{asset}", timeout=30)
        assert got.status_code == 200 and len(got.content) > 1000, asset
    assert httpx.get(f"{base_url}/docs/assets/..%2Fcore.py", timeout=30).status_code == 404
    assert httpx.get(f"{base_url}/docs/assets/core.py", timeout=30).status_code == 404


def test_every_example_is_a_valid_body(spec):
    """An example that drifts from its model would teach a wrong wire: each one validates against its model."""
    import shared.domain.requests as requests
    from shared.api import schemas as responses

    checked = []
    for name, schema in spec["components"]["schemas"].items():
        model = getattr(responses, name, None) or getattr(requests, name, None)
        for example in schema.get("examples", []):
            assert model is not None, f"{name} has examples but no model"
            model.model_validate(example)
            checked.append(name)
    assert {"Memory", "RecallResponse", "MemoryCreate", "RecallRequest", "Checkpoint"} <= set(checked)


def test_refusals_are_declared_where_they_apply(spec):
    """401/403 on every secured operation, 404 where the path names something, 409 on writes, 413 where a body
    is sent, each with the error envelope; open routes declare no auth refusals."""
    ops = dict(_operations(spec))

    def codes(name: str) -> set[str]:
        return set(ops[name]["responses"])

    assert {"401", "403", "409", "413", "422"} <= codes("POST /v1/memories")
    assert {"401", "403", "404"} <= codes("GET /v1/memories/{memory_id}")
    assert {"401", "403", "404", "409"} <= codes("DELETE /v1/memories/{memory_id}")
    assert "409" not in codes("POST /v1/memories/recall")  # reads, so nothing to conflict with
    assert "404" not in codes("POST /v1/memories/recall") and "404" not in codes("GET /v1/memories")
    assert "413" not in codes("GET /v1/memories")
    assert not {"401", "403"} & codes("GET /health")
    missing = [name for name, op in ops.items() if op.get("security") != [] and "401" not in op["responses"]]
    assert not missing, missing
    error = ops["GET /v1/memories/{memory_id}"]["responses"]["404"]["content"]["application/json"]["schema"]
    assert _resolve(spec, error)["properties"]["detail"]["required"] == ["code", "message"]
