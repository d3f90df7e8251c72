"""Every field and parameter of /openapi.json carries its description, declared on the field or parameter itself
(shared/core/fields.py and the models), not filled in afterwards by name."""

from __future__ import annotations

from typing import Any

import pytest

from shared.api import openapi
from shared.api.app import create_app
from shared.core.settings import Settings


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    # The schema only: no database is opened (the services are never built).
    settings = Settings(
        database_url="postgresql://nobody@127.0.0.1:1/none", embedding_provider="hash", auth_mode="none"
    )
    return create_app(settings, services=object()).openapi()


def test_every_model_field_is_described(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    assert {"MemoryCreate", "RecallRequest", "Memory", "RecallResponse", "Checkpoint"} <= set(schemas)
    missing = [
        f"{name}.{field}"
        for name, schema in schemas.items()
        for field, prop in (schema.get("properties") or {}).items()
        if not (prop.get("description") or "").strip()
    ]
    assert not missing, missing


def test_every_operation_parameter_is_described(spec: dict[str, Any]) -> None:
    parameters = [
        (f"{method.upper()} {path}", parameter)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        for parameter in operation.get("parameters", [])
    ]
    assert len(parameters) > 200  # the headers on every route, the path ids, the queries
    missing = [
        f"{op} {p['in']} {p['name']}" for op, p in parameters if not (p.get("description") or "").strip()
    ]
    assert not missing, missing


def test_descriptions_come_from_the_declarations_not_from_a_fill() -> None:
    # Only FastAPI's own 422 models are described in shared/api/openapi.py: they are not ours to annotate.
    assert set(openapi.VALIDATION_ERROR) == {"HTTPValidationError", "ValidationError"}
    assert not hasattr(openapi, "GLOSSARY")


def test_a_shared_field_reads_the_same_in_requests_and_responses(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    texts = {
        schemas[model]["properties"]["user_id"]["description"]
        for model in ("MemoryCreate", "Memory", "Thread")
    }
    assert len(texts) == 1
    # The same name with another meaning says so: a request names the workspace, a response says where it lives.
    assert (
        schemas["MemoryCreate"]["properties"]["workspace_id"]["description"]
        != (schemas["Memory"]["properties"]["workspace_id"]["description"])
    )
