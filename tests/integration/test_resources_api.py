"""Versioned resources over HTTP: prompt notes, agent specifications and refinement records, as the reference
serves them (conditional writes, revisions, tombstones and restore, paging), their bad input (a 4xx with a code,
nothing written), their isolation between workspaces and tenants, and their round trip through export/import."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from shared.app.services import Services
from shared.db import rls
from shared.db.pool import Database
from tests.secured import ADMIN

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

NOTE = {"key": "style/tone", "title": "Tone", "content": "Be brief.", "metadata": {"team": "a"}}
SPEC = {
    "key": "researcher",
    "name": "Researcher",
    "description": "Finds sources.",
    "instructions": "Search, then cite.",
    "allowed_tools": ["search", " fetch "],
}
RECORD = {
    "key": "r1-proposal",
    "refinement_id": "r1",
    "phase": "proposal",
    "trigger": "user feedback",
    "scope": "workspace",
    "summary": "Shorter answers",
    "rationale": "The user asked twice.",
    "expected_outcome": "Fewer follow-ups",
    "evidence": [{"kind": "message", "reference": "msg_1", "description": "too long"}],
    "edits": [
        {"action": "replace", "resource_kind": "prompt_note", "resource_key": "style/tone", "reason": "x"}
    ],
    "outcome": "proposed",
}


def creating(key: str | None = None) -> dict[str, str]:
    return {"Idempotency-Key": key or uuid.uuid4().hex, "If-None-Match": "*"}


def matching(etag: str, key: str | None = None) -> dict[str, str]:
    return {"Idempotency-Key": key or uuid.uuid4().hex, "If-Match": etag}


@pytest.fixture()
def api(http: httpx.Client, ws: str) -> httpx.Client:
    http.headers["X-Workspace-ID"] = ws
    return http


def make_note(api: httpx.Client, **fields: Any) -> dict:
    r = api.post("/v1/prompt-notes", json={**NOTE, **fields}, headers=creating())
    assert r.status_code == 201, r.text
    return r.json()["note"]


# ------------------------------------------------------------------------------------------------- prompt notes
def test_a_prompt_note_lives_through_replace_delete_and_restore(api):
    op = uuid.uuid4().hex
    r = api.post("/v1/prompt-notes", json=NOTE, headers=creating(op))
    assert r.status_code == 201, r.text
    body = r.json()
    note = body["note"]
    assert body["replayed"] is False and r.headers["ETag"] == note["etag"]
    assert (note["key"], note["title"], note["content"], note["enabled"]) == (
        "style/tone",
        "Tone",
        "Be brief.",
        True,
    )
    assert (note["revision"], note["schema_version"], note["metadata"], note["deleted_at"]) == (
        1,
        1,
        {"team": "a"},
        None,
    )
    assert note["etag"].startswith('"vr-1-') and note["workspace_id"] == api.headers["X-Workspace-ID"]
    assert note["tenant_id"] == "_default" and note["created_by"] is None

    again = api.post("/v1/prompt-notes", json=NOTE, headers=creating(op))  # a retry: the same answer
    assert again.status_code == 201 and again.json() == {"note": note, "replayed": True}

    got = api.get(f"/v1/prompt-notes/{note['id']}")
    assert got.status_code == 200 and got.json()["note"] == note and got.headers["ETag"] == note["etag"]

    replaced = api.put(
        f"/v1/prompt-notes/{note['id']}",
        json={"title": "Tone", "content": "Be briefer."},
        headers=matching(note["etag"]),
    )
    assert replaced.status_code == 200, replaced.text
    v2 = replaced.json()["note"]
    assert (v2["revision"], v2["content"], v2["metadata"], v2["created_at"]) == (
        2,
        "Be briefer.",
        {},
        note["created_at"],
    )
    assert v2["etag"] != note["etag"] and replaced.headers["ETag"] == v2["etag"]

    stale = api.put(
        f"/v1/prompt-notes/{note['id']}",
        json={"title": "T", "content": "lost"},
        headers=matching(note["etag"]),
    )
    assert stale.status_code == 412 and stale.json()["detail"]["code"] == "etag_mismatch"

    deleted = api.delete(f"/v1/prompt-notes/{note['id']}", headers=matching(v2["etag"]))
    assert deleted.status_code == 200, deleted.text
    v3 = deleted.json()["note"]
    assert v3["revision"] == 3 and v3["deleted_at"] is not None and v3["content"] == "Be briefer."
    gone = api.get(f"/v1/prompt-notes/{note['id']}")
    assert gone.status_code == 404 and gone.json()["detail"]["code"] == "prompt_note_not_found"
    assert api.get(f"/v1/prompt-notes/{note['id']}", params={"include_deleted": True}).json()["note"] == v3
    assert api.get("/v1/prompt-notes").json()["notes"] == []
    assert [
        n["id"] for n in api.get("/v1/prompt-notes", params={"include_deleted": True}).json()["notes"]
    ] == [note["id"]]
    assert (
        api.put(
            f"/v1/prompt-notes/{note['id']}",
            json={"title": "T", "content": "c"},
            headers=matching(v3["etag"]),
        ).status_code
        == 404
    )
    assert api.post(f"/v1/prompt-notes/{note['id']}/restore", headers=matching(v2["etag"])).status_code == 412

    restored = api.post(f"/v1/prompt-notes/{note['id']}/restore", headers=matching(v3["etag"]))
    assert restored.status_code == 200, restored.text
    v4 = restored.json()["note"]
    assert (v4["revision"], v4["deleted_at"], v4["content"]) == (4, None, "Be briefer.")
    not_deleted = api.post(f"/v1/prompt-notes/{note['id']}/restore", headers=matching(v4["etag"]))
    assert not_deleted.status_code == 409 and not_deleted.json()["detail"]["code"] == "resource_not_deleted"

    history = api.get(f"/v1/prompt-notes/{note['id']}/revisions").json()
    assert [(r["action"], r["note"]["revision"]) for r in history["revisions"]] == [
        ("restore", 4),
        ("delete", 3),
        ("replace", 2),
        ("create", 1),
    ]
    assert history["revisions"][-1]["operation_id"] == op and history["revisions"][-1]["note"] == note
    assert history["next_page_token"] is None


def test_conditional_headers_are_required_and_nothing_is_written_without_them(api):
    for headers, code in (
        ({"If-None-Match": "*"}, "idempotency_key_required"),
        ({"Idempotency-Key": "k1"}, "if_none_match_required"),
        ({"Idempotency-Key": "", "If-None-Match": "*"}, "idempotency_key_required"),
    ):
        r = api.post("/v1/prompt-notes", json=NOTE, headers=headers)
        assert r.status_code == 428 and r.json()["detail"]["code"] == code, r.text
    r = api.post(
        "/v1/prompt-notes", json=NOTE, headers={"Idempotency-Key": "k1", "If-None-Match": '"vr-1-x"'}
    )
    assert r.status_code == 412 and r.json()["detail"]["code"] == "if_none_match_not_star"
    r = api.post("/v1/prompt-notes", json=NOTE, headers={"Idempotency-Key": "k" * 201, "If-None-Match": "*"})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "header_too_long"
    assert api.get("/v1/prompt-notes", params={"include_deleted": True}).json()["notes"] == []

    note = make_note(api)
    path = f"/v1/prompt-notes/{note['id']}"
    for method, extra in (("PUT", {"json": {"title": "T", "content": "c"}}), ("DELETE", {}), ("POST", {})):
        url = path + ("/restore" if method == "POST" else "")
        missing_etag = api.request(method, url, headers={"Idempotency-Key": "k2"}, **extra)
        assert (
            missing_etag.status_code == 428 and missing_etag.json()["detail"]["code"] == "if_match_required"
        )
        missing_key = api.request(method, url, headers={"If-Match": note["etag"]}, **extra)
        assert missing_key.status_code == 428
    assert api.get(path).json()["note"] == note
    assert len(api.get(f"{path}/revisions").json()["revisions"]) == 1


def test_bad_prompt_notes_are_refused_and_nothing_is_written(api):
    for bad in (
        {**NOTE, "key": "-starts-with-dash"},
        {**NOTE, "key": "has space"},
        {**NOTE, "key": "k" * 201},
        {**NOTE, "title": "   "},
        {**NOTE, "title": ""},
        {**NOTE, "content": "x" * 65537},
        {**NOTE, "schema_version": 0},
        {**NOTE, "metadata": "not an object"},
        {"key": "k", "title": "t"},  # no content
    ):
        r = api.post("/v1/prompt-notes", json=bad, headers=creating())
        assert r.status_code == 422, (bad, r.text)
    assert api.get("/v1/prompt-notes", params={"include_deleted": True}).json()["notes"] == []

    note = make_note(api)
    taken = api.post("/v1/prompt-notes", json={**NOTE, "title": "Other"}, headers=creating())
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "resource_key_exists"
    reused = api.post("/v1/prompt-notes", json={**NOTE, "key": "another"}, headers=creating("same-op"))
    assert reused.status_code == 201
    clash = api.post("/v1/prompt-notes", json={**NOTE, "key": "a-third"}, headers=creating("same-op"))
    assert clash.status_code == 409 and clash.json()["detail"]["code"] == "idempotency_key_reused"
    # A replace reusing a create's key is refused too, and changes nothing.
    r = api.put(
        f"/v1/prompt-notes/{note['id']}",
        json={"title": "T", "content": "c"},
        headers=matching(note["etag"], "same-op"),
    )
    assert r.status_code == 409
    bad_replace = api.put(
        f"/v1/prompt-notes/{note['id']}", json={"title": " ", "content": "c"}, headers=matching(note["etag"])
    )
    assert bad_replace.status_code == 422
    assert api.get(f"/v1/prompt-notes/{note['id']}").json()["note"] == note
    assert sorted(n["key"] for n in api.get("/v1/prompt-notes").json()["notes"]) == ["another", "style/tone"]
    missing = api.put(
        "/v1/prompt-notes/note_nope", json={"title": "T", "content": "c"}, headers=matching('"x"')
    )
    assert missing.status_code == 404
    assert api.get("/v1/prompt-notes/note_nope/revisions").status_code == 404


def test_lists_page_newest_change_first_and_refuse_foreign_tokens(api):
    notes = [make_note(api, key=f"n{i}") for i in range(3)]
    first = api.get("/v1/prompt-notes", params={"limit": 2}).json()
    assert [n["key"] for n in first["notes"]] == ["n2", "n1"] and first["next_page_token"]
    second = api.get("/v1/prompt-notes", params={"limit": 2, "page_token": first["next_page_token"]}).json()
    assert [n["key"] for n in second["notes"]] == ["n0"] and second["next_page_token"] is None
    # A change moves a note to the front.
    api.put(
        f"/v1/prompt-notes/{notes[0]['id']}",
        json={"title": "T", "content": "c"},
        headers=matching(notes[0]["etag"]),
    )
    assert api.get("/v1/prompt-notes", params={"limit": 1}).json()["notes"][0]["key"] == "n0"
    for token in ("garbage", first["next_page_token"] + "x"):
        r = api.get("/v1/prompt-notes", params={"page_token": token})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_page_token"
    # A token of one listing is not one of another's (here: with tombstones).
    other = api.get(
        "/v1/prompt-notes", params={"page_token": first["next_page_token"], "include_deleted": True}
    )
    assert other.status_code == 400
    assert api.get("/v1/prompt-notes", params={"limit": 0}).status_code == 422
    assert api.get("/v1/prompt-notes", params={"limit": 501}).status_code == 422


# ------------------------------------------------------------------------------------------ agent specifications
def test_an_agent_specification_is_versioned_like_a_note(api):
    r = api.post("/v1/agent-specifications", json=SPEC, headers=creating())
    assert r.status_code == 201, r.text
    spec = r.json()["specification"]
    assert spec["allowed_tools"] == ["search", "fetch"]  # trimmed
    assert (spec["permission_mode"], spec["max_turns"], spec["enabled"], spec["skills"]) == (
        "inherit",
        0,
        True,
        [],
    )
    changed = {**SPEC, "permission_mode": "read_only", "max_turns": 5}
    changed.pop("key")
    r = api.put(f"/v1/agent-specifications/{spec['id']}", json=changed, headers=matching(spec["etag"]))
    assert r.status_code == 200, r.text
    v2 = r.json()["specification"]
    assert (v2["revision"], v2["permission_mode"], v2["max_turns"], v2["key"]) == (
        2,
        "read_only",
        5,
        "researcher",
    )
    listed = api.get("/v1/agent-specifications").json()
    assert [s["id"] for s in listed["specifications"]] == [spec["id"]] and listed["next_page_token"] is None
    r = api.delete(f"/v1/agent-specifications/{spec['id']}", headers=matching(v2["etag"]))
    v3 = r.json()["specification"]
    r = api.post(f"/v1/agent-specifications/{spec['id']}/restore", headers=matching(v3["etag"]))
    assert r.status_code == 200 and r.json()["specification"]["deleted_at"] is None
    revisions = api.get(f"/v1/agent-specifications/{spec['id']}/revisions", params={"limit": 3}).json()
    assert [x["action"] for x in revisions["revisions"]] == ["restore", "delete", "replace"]
    assert revisions["next_page_token"]
    rest = api.get(
        f"/v1/agent-specifications/{spec['id']}/revisions",
        params={"page_token": revisions["next_page_token"]},
    ).json()
    assert [x["action"] for x in rest["revisions"]] == ["create"]


def test_bad_agent_specifications_are_refused(api):
    for bad in (
        {**SPEC, "allowed_tools": ["a", "a"]},
        {**SPEC, "skills": ["ok", "  "]},
        {**SPEC, "permission_mode": "root"},
        {**SPEC, "max_turns": 1001},
        {**SPEC, "instructions": " "},
        {k: v for k, v in SPEC.items() if k != "description"},
    ):
        r = api.post("/v1/agent-specifications", json=bad, headers=creating())
        assert r.status_code == 422, (bad, r.text)
    assert (
        api.get("/v1/agent-specifications", params={"include_deleted": True}).json()["specifications"] == []
    )


# -------------------------------------------------------------------------------------------- refinement records
def test_refinement_records_are_appended_and_filtered(api):
    r = api.post("/v1/refinement-records", json=RECORD, headers=creating())
    assert r.status_code == 201, r.text
    record = r.json()["record"]
    assert (record["phase"], record["outcome"], record["revision"], record["key"]) == (
        "proposal",
        "proposed",
        1,
        "r1-proposal",
    )
    assert record["evidence"][0]["content_hash"] is None and record["edits"][0]["applied"] is None
    assert "updated_at" not in record and "deleted_at" not in record
    decision = {
        **RECORD,
        "key": "r1-decision",
        "phase": "decision",
        "outcome": "approved",
        "parent_record_id": record["id"],
    }
    assert api.post("/v1/refinement-records", json=decision, headers=creating()).status_code == 201
    other = {
        **RECORD,
        "key": "r2",
        "refinement_id": "r2",
        "outcome": "no_op",
        "edits": [],
        "summary": "Nothing to change",
    }
    assert api.post("/v1/refinement-records", json=other, headers=creating()).status_code == 201

    got = api.get(f"/v1/refinement-records/{record['id']}")
    assert got.status_code == 200 and got.json()["record"] == record and got.headers["ETag"] == record["etag"]

    def keys(**params: Any) -> list[str]:
        r = api.get("/v1/refinement-records", params=params)
        assert r.status_code == 200, r.text
        return [x["key"] for x in r.json()["records"]]

    assert keys() == ["r2", "r1-decision", "r1-proposal"]
    assert keys(phase="decision") == ["r1-decision"]
    assert keys(phase="Proposal,decision", refinement_id="r1") == ["r1-decision", "r1-proposal"]
    assert keys(outcome=["no-op"]) == ["r2"]
    assert keys(resource_kind="prompt_note") == ["r1-decision", "r1-proposal"]
    assert keys(search="NOTHING TO") == ["r2"]
    assert keys(search="msg_1", limit=1) == ["r2"]
    page = api.get("/v1/refinement-records", params={"refinement_id": "r1", "limit": 1}).json()
    assert [x["key"] for x in page["records"]] == ["r1-decision"] and page["scanned_count"] == 2
    assert page["next_page_token"] and page["scan_truncated"] is False
    rest = api.get(
        "/v1/refinement-records",
        params={"refinement_id": "r1", "limit": 1, "page_token": page["next_page_token"]},
    ).json()
    assert [x["key"] for x in rest["records"]] == ["r1-proposal"]

    bad_filter = api.get("/v1/refinement-records", params={"phase": "someday"})
    assert bad_filter.status_code == 400 and bad_filter.json()["detail"]["code"] == "invalid_filter"
    # Append-only: no replace, delete or restore.
    assert (
        api.put(
            f"/v1/refinement-records/{record['id']}", json=RECORD, headers=matching(record["etag"])
        ).status_code
        == 405
    )
    assert (
        api.delete(f"/v1/refinement-records/{record['id']}", headers=matching(record["etag"])).status_code
        == 405
    )


def test_bad_refinement_records_are_refused(api):
    for bad in (
        {**RECORD, "outcome": "approved"},  # not a proposal's outcome
        {**RECORD, "edits": []},  # proposed needs an edit
        {**RECORD, "phase": "rollback", "outcome": "rolled_back"},  # without rollback_of_record_id
        {**RECORD, "edits": [{**RECORD["edits"][0], "action": "restore"}]},  # restore needs schema_version 2
        {**RECORD, "evidence": []},
        {**RECORD, "evidence": [{"kind": "rumour", "reference": "r", "description": "d"}]},
        {**RECORD, "schema_version": 3},
        {**RECORD, "summary": "  "},
    ):
        r = api.post("/v1/refinement-records", json=bad, headers=creating())
        assert r.status_code == 422, (bad, r.text)
    assert api.get("/v1/refinement-records").json()["records"] == []
    restore_edit = {**RECORD, "schema_version": 2, "edits": [{**RECORD["edits"][0], "action": "restore"}]}
    assert api.post("/v1/refinement-records", json=restore_edit, headers=creating()).status_code == 201


# --------------------------------------------------------------------------------------------- export / import
def test_resources_round_trip_through_export_and_import(http, ws, other_ws):
    http.headers["X-Workspace-ID"] = ws
    note = make_note(http)
    v2 = http.put(
        f"/v1/prompt-notes/{note['id']}",
        json={"title": "T2", "content": "c2"},
        headers=matching(note["etag"]),
    ).json()["note"]
    gone = make_note(http, key="gone")
    http.delete(f"/v1/prompt-notes/{gone['id']}", headers=matching(gone["etag"]))
    spec = http.post("/v1/agent-specifications", json=SPEC, headers=creating()).json()["specification"]
    record = http.post("/v1/refinement-records", json=RECORD, headers=creating()).json()["record"]

    exported = http.get(f"/v1/workspaces/{ws}/export")
    assert exported.status_code == 200
    lines = [json.loads(line) for line in exported.text.splitlines()]
    resources = [line["data"] for line in lines if line["type"] == "resource"]
    assert {r["id"] for r in resources} == {note["id"], gone["id"], spec["id"], record["id"]}
    assert [r["action"] for r in next(r for r in resources if r["id"] == note["id"])["revisions"]] == [
        "create",
        "replace",
    ]

    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200, r.text
    assert (r.json()["resources_imported"], r.json()["resources_skipped"], r.json()["errors"]) == (4, 0, 0)

    http.headers["X-Workspace-ID"] = other_ws
    imported = http.get(f"/v1/prompt-notes/{note['id']}").json()["note"]
    assert imported == {**v2, "workspace_id": other_ws}
    assert http.get(f"/v1/prompt-notes/{gone['id']}").status_code == 404
    assert http.get(f"/v1/prompt-notes/{gone['id']}", params={"include_deleted": True}).json()["note"][
        "deleted_at"
    ]
    history = http.get(f"/v1/prompt-notes/{note['id']}/revisions").json()["revisions"]
    assert [(h["action"], h["note"]["etag"]) for h in history] == [
        ("replace", v2["etag"]),
        ("create", note["etag"]),
    ]
    assert http.get(f"/v1/agent-specifications/{spec['id']}").json()["specification"] == {
        **spec,
        "workspace_id": other_ws,
    }
    assert http.get(f"/v1/refinement-records/{record['id']}").json()["record"] == {
        **record,
        "workspace_id": other_ws,
    }
    # The imported head takes writes with its exported ETag, and a retry of an exported write still replays.
    r = http.put(
        f"/v1/prompt-notes/{note['id']}", json={"title": "T3", "content": "c3"}, headers=matching(v2["etag"])
    )
    assert r.status_code == 200 and r.json()["note"]["revision"] == 3

    again = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert (again.json()["resources_imported"], again.json()["resources_skipped"]) == (0, 4)


def test_a_bad_resource_in_an_import_is_reported_and_not_written(http, ws):
    good = {
        "kind": "prompt_note",
        "id": "note_x",
        "key": "k",
        "schema_version": 1,
        "content": {"title": "t", "content": "c", "enabled": True},
        "metadata": {},
        "revision": 1,
        "etag": '"vr-1-x"',
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
    }
    revision = {**good, "action": "create", "operation_id": "op", "request_hash": "h"}
    items = [
        {**good, "kind": "no_such_family", "revisions": [revision]},  # no such family
        {**good, "content": {"title": " ", "content": "c"}, "revisions": [revision]},  # not a valid note
        {**good, "revisions": []},  # no history
        {**good, "revisions": [{**revision, "id": "note_other"}]},  # someone else's history
        {**good, "revisions": [revision]},
    ]
    r = http.post(f"/v1/workspaces/{ws}/import", json={"resources": items})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["resources_imported"], body["errors"]) == (1, 4)
    assert [d["resource"] for d in body["details"]] == [0, 1, 2, 3]
    listed = http.get("/v1/prompt-notes", headers={"X-Workspace-ID": ws}).json()["notes"]
    assert [n["id"] for n in listed] == ["note_x"]
    assert http.post(f"/v1/workspaces/{ws}/import", json={"resources": ["not an object"]}).status_code == 400


# ----------------------------------------------------------------------------------------------------- isolation
def key_client(url: str, workspace: str, tenant: str | None = None) -> httpx.Client:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {ADMIN}"}) as admin:
        body: dict[str, Any] = {"workspaces": [workspace]}
        if tenant:
            body["tenant_id"] = tenant
        r = admin.post("/v1/admin/api-keys", json=body)
        assert r.status_code == 201, r.text
    headers = {"Authorization": f"Bearer {r.json()['key']}", "X-Workspace-ID": workspace}
    return httpx.Client(base_url=url, headers=headers, timeout=30)


@pytest.mark.parametrize("other_tenant", [False, True])
def test_another_workspace_or_tenant_sees_and_changes_nothing(secured, ws, other_ws, other_tenant):
    tenant = f"t_{uuid.uuid4().hex[:8]}" if other_tenant else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        note = make_note(a)
        assert note["created_by"].startswith("key:")
        spec = a.post("/v1/agent-specifications", json=SPEC, headers=creating()).json()["specification"]
        record = a.post("/v1/refinement-records", json=RECORD, headers=creating()).json()["record"]
        for path in (
            f"/v1/prompt-notes/{note['id']}",
            f"/v1/agent-specifications/{spec['id']}",
            f"/v1/refinement-records/{record['id']}",
        ):
            assert b.get(path).status_code == 404
            assert b.get(path, params={"workspace_id": ws}).status_code == 403
        assert b.get(f"/v1/prompt-notes/{note['id']}/revisions").status_code == 404
        assert (
            b.put(
                f"/v1/prompt-notes/{note['id']}",
                json={"title": "T", "content": "pwned"},
                headers=matching(note["etag"]),
            ).status_code
            == 404
        )
        assert b.delete(f"/v1/prompt-notes/{note['id']}", headers=matching(note["etag"])).status_code == 404
        assert (
            b.delete(
                f"/v1/prompt-notes/{note['id']}", params={"workspace_id": ws}, headers=matching(note["etag"])
            ).status_code
            == 403
        )
        assert (
            b.post("/v1/prompt-notes", json={**NOTE, "workspace_id": ws}, headers=creating()).status_code
            == 403
        )
        assert b.get("/v1/prompt-notes").json()["notes"] == []
        assert b.get("/v1/refinement-records").json()["records"] == []
        # The same key, and the same Idempotency-Key, are B's own to use: nothing of A's is replayed or taken.
        mine = b.post("/v1/prompt-notes", json=NOTE, headers=creating()).json()
        assert mine["replayed"] is False and mine["note"]["id"] != note["id"]
        assert a.get(f"/v1/prompt-notes/{note['id']}").json()["note"] == note


def test_the_row_wall_holds_resources_to_their_workspace(settings, services: Services, http, ws, other_ws):
    for workspace in (ws, other_ws):
        http.post("/v1/prompt-notes", json=NOTE, headers={**creating(), "X-Workspace-ID": workspace})
    db = Database.from_settings(settings, purpose="api")
    try:
        with rls.visible((ws,)), db.connection() as conn:
            heads = conn.execute("SELECT workspace_id FROM resources").fetchall()
            revisions = conn.execute("SELECT workspace_id FROM resource_revisions").fetchall()
        assert {r["workspace_id"] for r in heads} == {ws} and {r["workspace_id"] for r in revisions} == {ws}
        with rls.visible(rls.NOTHING), db.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM resources").fetchone()["n"] == 0  # type: ignore[index]
    finally:
        db.close()


# ------------------------------------------------------------------------------------------------------ our SDK
def test_our_sdk_drives_every_family(base_url, ws):
    from memorylayer import SyncMemoryLayerClient
    from memorylayer.errors import MemoryLayerError

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        note = client.create_prompt_note("tone", "Tone", "Be brief.", metadata={"a": 1})
        assert (note.revision, note.metadata, note.workspace_id) == (1, {"a": 1}, ws)
        v2 = client.replace_prompt_note(note.id, "Tone", "Be briefer.", if_match=note.etag)
        with pytest.raises(MemoryLayerError) as stale:
            client.replace_prompt_note(note.id, "Tone", "lost", if_match=note.etag)
        assert stale.value.status_code == 412
        gone = client.delete_prompt_note(note.id, if_match=v2.etag)
        assert client.list_prompt_notes().items == []
        assert client.get_prompt_note(note.id, include_deleted=True).deleted_at is not None
        back = client.restore_prompt_note(note.id, if_match=gone.etag)
        assert (back.revision, back.content) == (4, "Be briefer.")
        page = client.list_prompt_notes(limit=1)
        assert [n.id for n in page.items] == [note.id] and page.next_page_token is None
        history = client.list_prompt_note_revisions(note.id, limit=2)
        assert [r.action for r in history.items] == ["restore", "delete"] and history.next_page_token
        older = client.list_prompt_note_revisions(note.id, page_token=history.next_page_token)
        assert [(r.action, r.resource.revision) for r in older.items] == [("replace", 2), ("create", 1)]
        assert client.get_prompt_note(note.id).etag == back.etag

        spec = client.create_agent_specification("helper", "Helper", "Helps.", "Be helpful.", skills=["s1"])
        spec2 = client.replace_agent_specification(
            spec.id, "Helper", "Helps.", "Be kind.", if_match=spec.etag
        )
        assert (spec2.instructions, spec2.skills) == ("Be kind.", [])
        assert [s.id for s in client.list_agent_specifications().items] == [spec.id]
        deleted = client.delete_agent_specification(spec.id, if_match=spec2.etag)
        restored = client.restore_agent_specification(spec.id, if_match=deleted.etag)
        assert client.get_agent_specification(spec.id).etag == restored.etag
        revisions = client.list_agent_specification_revisions(spec.id).items
        assert [r.action for r in revisions] == ["restore", "delete", "replace", "create"]

        fields = {k: v for k, v in RECORD.items() if k != "key"}
        record = client.create_refinement_record("r1", **fields)
        assert client.get_refinement_record(record.id) == record
        listed = client.list_refinement_records(phase=["proposal"], search="brief")
        assert [r.id for r in listed.items] == [] and listed.scanned_count == 1
        assert [r.id for r in client.list_refinement_records(refinement_id="r1").items] == [record.id]


def test_an_import_with_too_many_resources_is_refused_whole(http, ws, services, monkeypatch):
    monkeypatch.setattr(services.memories.settings, "max_import_memories", 2)
    r = http.post(
        f"/v1/workspaces/{ws}/import", json={"memories": [{"content": "kept out"}], "resources": [{}] * 3}
    )
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_many_resources"
    assert http.get("/v1/memories", headers={"X-Workspace-ID": ws}).json()["memories"] == []
