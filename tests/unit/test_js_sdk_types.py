"""The TypeScript SDK's checked-in types are the app's OpenAPI document as openapi-typescript renders it today,
and its client has a named method for every operation of the families it covers (the rest: ``client.request``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.js_sdk import PACKAGE, app_openapi, generate_types

GENERATED = PACKAGE / "src" / "openapi.ts"
# Path families the client's named methods cover whole; other operations are reached with `request(...)`.
COVERED = re.compile(
    r"^/(health.*)?$|^/v1/(memories|sessions|threads|jobs|workspaces|context|entities|ingest|documents)(/|$)"
)


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return app_openapi()


def test_checked_in_types_match_the_app(spec: dict[str, Any], tmp_path: Path) -> None:
    fresh = generate_types(spec, tmp_path)
    assert "export interface paths {" in fresh and "export type MemoryCreate = " in fresh
    assert GENERATED.read_text() == fresh, (
        "src/openapi.ts is stale: regenerate it (client/memorylayer-js/README.md, 'Types') and commit it"
    )


def test_every_operation_of_the_covered_families_has_a_method(spec: dict[str, Any]) -> None:
    operations = {f"{m.upper()} {path}" for path, item in spec["paths"].items() for m in item}
    named = set(re.findall(r'request\("([A-Z]+ [^"]+)"', (PACKAGE / "src" / "client.ts").read_text()))
    assert named <= operations, f"the client names operations the API lacks: {sorted(named - operations)}"
    wanted = {op for op in operations if COVERED.search(op.split(" ", 1)[1])}
    assert len(wanted) > 80
    assert not wanted - named, f"operations with no named method: {sorted(wanted - named)}"
