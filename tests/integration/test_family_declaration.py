"""A resource family is a declaration: an eighth family, declared here as docs/ARCHITECTURE.md shows ("Declaring a
resource family"), is served over real HTTP with everything the seven have (conditional writes, replay, ETags,
revisions, tombstones, restore, paging) and documented under envelope names of its own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI
from pydantic import Field

from shared.api.app import create_app
from shared.api.routes.families import Family, versioned_item
from shared.api.routes.family_routes import serve
from shared.core.fields import WorkspaceId
from shared.core.settings import Settings
from shared.domain.resources.fields import Key, NonBlank, ResourceBody, ResourceMetadata, SchemaVersion
from shared.domain.resources.service import Document, Kind
from shared.local.server import serve_in_thread

RUNBOOKS = Kind("runbook", "runbook", "rb")


class RunbookReplace(ResourceBody):
    title: NonBlank = Field(min_length=1, max_length=200, description="Its title.")
    steps: list[str] = Field(max_length=50, description="What to do, in order.")
    schema_version: SchemaVersion = 1
    metadata: ResourceMetadata = Field(default_factory=dict)
    workspace_id: WorkspaceId = None

    def document(self) -> Document:
        return Document(self.schema_version, {"title": self.title, "steps": self.steps}, self.metadata)


class RunbookCreate(RunbookReplace):
    key: Key


RUNBOOK_FAMILY = Family(
    RUNBOOKS,
    "/runbooks",
    "runbook_id",
    "runbook",
    "runbooks",
    versioned_item("Runbook", RunbookReplace),
    create=RunbookCreate,
    replace=RunbookReplace,
)


def runbooks_router() -> APIRouter:
    router = APIRouter(prefix="/v1")
    serve(router, RUNBOOK_FAMILY)
    return router


@pytest.fixture(scope="module")
def runbooks_url(settings: Settings, services: Any) -> Iterator[str]:
    with serve_in_thread(create_app(settings, services=services, routers=[runbooks_router()])) as url:
        yield url


@pytest.fixture()
def api(runbooks_url: str, ws: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=runbooks_url, timeout=120, headers={"X-Workspace-ID": ws}) as client:
        yield client


def creating(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key, "If-None-Match": "*"}


def matching(etag: str) -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex, "If-Match": etag}


def test_a_declared_family_has_the_whole_lifecycle(api: httpx.Client, ws: str) -> None:
    body = {"key": "deploy", "title": "Deploy", "steps": ["build", "ship"]}
    first = api.post("/v1/runbooks", json=body, headers=creating("op-1"))
    assert first.status_code == 201, first.text
    runbook = first.json()["runbook"]
    assert runbook["steps"] == ["build", "ship"] and runbook["workspace_id"] == ws
    assert runbook["revision"] == 1 and first.headers["ETag"] == runbook["etag"]
    assert first.json()["replayed"] is False

    retry = api.post("/v1/runbooks", json=body, headers=creating("op-1"))
    assert retry.status_code == 201 and retry.json() == {"runbook": runbook, "replayed": True}
    unconditional = api.post("/v1/runbooks", json=body)
    assert unconditional.status_code == 428
    assert unconditional.json()["detail"]["code"] == "idempotency_key_required"

    one = f"/v1/runbooks/{runbook['id']}"
    replaced = api.put(one, json={"title": "Deploy", "steps": ["test"]}, headers=matching(runbook["etag"]))
    assert replaced.status_code == 200 and replaced.json()["runbook"]["revision"] == 2
    stale = api.put(one, json={"title": "Deploy", "steps": ["x"]}, headers=matching(runbook["etag"]))
    assert stale.status_code == 412
    assert api.get(one).json()["runbook"]["steps"] == ["test"]  # the stale write changed nothing

    deleted = api.delete(one, headers=matching(replaced.headers["ETag"]))
    assert deleted.status_code == 200 and deleted.json()["runbook"]["deleted_at"] is not None
    assert api.get(one).status_code == 404
    assert api.get("/v1/runbooks").json() == {"runbooks": [], "next_page_token": None}
    assert [
        r["key"] for r in api.get("/v1/runbooks", params={"include_deleted": True}).json()["runbooks"]
    ] == ["deploy"]
    restored = api.post(f"{one}/restore", headers=matching(deleted.headers["ETag"]))
    assert restored.status_code == 200 and restored.json()["runbook"]["steps"] == ["test"]

    revisions = api.get(f"{one}/revisions").json()["revisions"]
    assert [r["action"] for r in revisions] == ["restore", "delete", "replace", "create"]
    assert revisions[-1]["operation_id"] == "op-1"


def test_a_declared_family_refuses_bad_input_and_stays_in_its_workspace(
    api: httpx.Client, runbooks_url: str, other_ws: str
) -> None:
    bad = api.post("/v1/runbooks", json={"key": "k", "title": " ", "steps": []}, headers=creating("op-2"))
    assert bad.status_code == 422
    assert api.get("/v1/runbooks").json()["runbooks"] == []  # nothing was written

    made = api.post("/v1/runbooks", json={"key": "k", "title": "T", "steps": []}, headers=creating("op-3"))
    with httpx.Client(base_url=runbooks_url, timeout=30, headers={"X-Workspace-ID": other_ws}) as other:
        assert other.get(f"/v1/runbooks/{made.json()['runbook']['id']}").status_code == 404


def test_a_declared_family_is_documented_under_its_own_names() -> None:
    app = FastAPI()  # /openapi.json documents the whole API; this is the family's part alone
    app.include_router(runbooks_router())
    document = app.openapi()
    schemas = document["components"]["schemas"]
    for name in ("Runbook", "RunbookResponse", "RunbookListResponse", "RunbookRevisionListResponse"):
        assert name in schemas, name
    assert list(schemas["RunbookResponse"]["properties"]) == ["runbook", "replayed"]
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    assert {
        "create_runbook",
        "list_runbooks",
        "get_runbook",
        "replace_runbook",
        "delete_runbook",
    } <= operations
