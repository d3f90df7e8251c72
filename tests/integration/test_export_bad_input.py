"""An export that is cut, damaged, of an unknown version or out of order, or an import into another tenant's
workspace: a clear 4xx, and the target unchanged (one transaction: nothing is written half-way)."""

from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest

from tests.helpers.http import h, remember
from tests.helpers.roundtrip import counts, export, import_
from tests.integration.test_tenant_walls import new_key
from tests.secured import admin_client

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=100)


@pytest.fixture()
def exported(http, ws) -> list[dict]:
    for text in ("Ann reviews the release notes", "Bob owns the deploy script", "Cy writes the changelog"):
        remember(http, ws, text, user_id="u_1")
    r = http.post("/v1/threads", json={"id": "th_x"}, headers=h(ws))
    assert r.status_code == 201, r.text
    return export(http, ws)


def unchanged(http: httpx.Client, target: str) -> None:
    r = http.get(f"/v1/workspaces/{target}/export")
    assert r.status_code == 404 or counts([json.loads(x) for x in r.text.splitlines()]) == {"context": 1}, (
        r.text
    )


def body(lines: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize(
    ("damage", "code"),
    [
        (lambda text: text[: len(text) // 2], "invalid_import"),  # cut inside a line
        (lambda text: text.rsplit("\n", 2)[0] + "\n", "truncated_export"),  # cut at a line: no end line
        (lambda text: text.replace('"type": "thread"', '"type": "threads"'), "invalid_import"),
        (lambda text: text.replace('"version": "2.0"', '"version": "9.0"'), "unsupported_export_version"),
        (lambda text: text.replace("\n", "\n{not json\n", 3), "invalid_import"),
        # NDJSON passes the edge's whole-body check (it is streamed): each line refuses NaN itself
        (lambda text: re.sub(r'"importance": [0-9.]+', '"importance": NaN', text, count=1), "invalid_import"),
    ],
    ids=["cut-mid-line", "cut-at-line", "unknown-type", "wrong-version", "corrupt-line", "nan-in-a-line"],
)
def test_a_damaged_export_is_refused_whole(http, exported, damage, code):
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    r = import_(http, target, damage(body(exported)))
    assert r.status_code == 400, r.text
    assert r.json()["detail"]["code"] == code
    unchanged(http, target)


def test_a_missing_middle_line_is_caught_by_the_end_count(http, exported):
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    missing = [line for i, line in enumerate(exported) if not (line["type"] == "memory" and i % 2)]
    assert len(missing) < len(exported)
    r = import_(http, target, missing)
    assert r.status_code == 400 and r.json()["detail"]["code"] == "truncated_export", r.text
    unchanged(http, target)


def test_rows_out_of_order_are_refused(http, exported):
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    body_lines = exported[1:-1]
    r = import_(http, target, [exported[0], *reversed(body_lines), exported[-1]])
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_import", r.text
    unchanged(http, target)


def test_a_version_1_file_still_imports(http, ws, exported):
    r = http.get(f"/v1/workspaces/{ws}/export", params={"version": "1.0"})
    assert r.status_code == 200 and json.loads(r.text.splitlines()[0])["version"] == "1.0"
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    r = import_(http, target, r.text)
    assert r.status_code == 200 and r.json()["imported"] == 3, r.text
    assert counts(export(http, target))["memory"] == 3


def test_an_import_into_another_tenants_workspace_is_forbidden(secured, http, exported):
    theirs = f"ws_theirs_{uuid.uuid4().hex[:8]}"
    with admin_client(secured) as admin:
        owner = new_key(admin, theirs, tenant=f"t_{uuid.uuid4().hex[:8]}")
        intruder = new_key(admin, f"ws_mine_{uuid.uuid4().hex[:8]}", tenant=f"t_{uuid.uuid4().hex[:8]}")
    assert owner.post("/v1/memories", json={"content": "the owner's only memory"}).status_code == 201
    r = intruder.post(
        f"/v1/workspaces/{theirs}/import",
        content=body(exported),
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 403, r.text
    r = intruder.post(f"/v1/workspaces/{theirs}/import", json={"data": {"memories": [{"content": "x"}]}})
    assert r.status_code == 403, r.text
    after = owner.get(f"/v1/workspaces/{theirs}/export")
    assert counts([json.loads(x) for x in after.text.splitlines()])["memory"] == 1


def test_a_file_over_the_memory_cap_is_refused_whole(http, services, exported, monkeypatch):
    capped = services.roundtrip.memories.settings.model_copy(update={"max_import_memories": 2})
    monkeypatch.setattr(services.roundtrip.memories, "settings", capped)
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    r = import_(http, target, exported)
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_many_memories", r.text
    unchanged(http, target)


def test_a_row_naming_a_missing_parent_is_refused_whole(http, exported):
    alias = {
        "type": "alias",
        "data": {"id": "al_x", "entity_id": "ent_nobody", "alias": "X", "normalized_alias": "x"},
    }
    end = dict(exported[-1], counts={**exported[-1]["counts"], "alias": 1})
    target = f"ws_t_{uuid.uuid4().hex[:10]}"
    r = import_(http, target, [*exported[:-1], alias, end])
    assert r.status_code == 400, r.text
    assert r.json()["detail"]["code"] == "invalid_import" and r.json()["detail"]["line"] == len(exported)
    unchanged(http, target)
