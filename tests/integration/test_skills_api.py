"""/v1/skills over HTTP as the reference serves them: the plain and the conditional writes on one versioned
resource, files and their bundle hash, the manifest, bundle, resolve and sync; bad input (a 4xx with a code,
nothing written); isolation between workspaces and tenants; the round trip through export/import."""

from __future__ import annotations

import base64
import io
import json
import tarfile
import uuid

import httpx
import pytest

from shared.app.services import Services
from shared.db import rls
from shared.db.pool import Database
from tests.integration.test_resources_api import creating, key_client, matching

pytestmark = pytest.mark.secured(rate_limit_per_s=50.0, rate_limit_burst=200)

SKILL = {"name": "pdf-tables", "description": "Extract tables: from PDFs", "body": "Use camelot."}


@pytest.fixture()
def api(http: httpx.Client, ws: str) -> httpx.Client:
    http.headers["X-Workspace-ID"] = ws
    return http


def make_skill(api: httpx.Client, **fields) -> dict:
    r = api.post("/v1/skills", json={**SKILL, **fields})
    assert r.status_code == 201, r.text
    return r.json()["skill"]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_a_skill_is_created_updated_tombstoned_and_restored_as_revisions(api):
    skill = make_skill(api, files=[{"path": "scripts/run.py", "content": "print(1)\n"}], metadata={"t": 1})
    assert (skill["name"], skill["version"], skill["enabled"], skill["revision"]) == (
        "pdf-tables",
        "0.1.0",
        True,
        1,
    )
    assert skill["manifest_hash"] and skill["bundle_hash"] and skill["source_mode"] == "server"
    assert skill["workspace_id"] == api.headers["X-Workspace-ID"] and skill["user_id"] is None

    got = api.get(f"/v1/skills/{skill['id']}")
    assert got.status_code == 200 and got.json()["skill"] == skill and got.headers["ETag"] == skill["etag"]

    # A taken name is a conflict, not a second skill.
    assert api.post("/v1/skills", json=SKILL).json()["detail"]["code"] == "resource_key_exists"

    updated = api.put(f"/v1/skills/{skill['id']}", json={"body": "Use tabula.", "metadata": {"u": 2}})
    assert updated.status_code == 200, updated.text
    v2 = updated.json()["skill"]
    assert (v2["revision"], v2["body"], v2["metadata"], v2["description"]) == (
        2,
        "Use tabula.",
        {"t": 1, "u": 2},
        SKILL["description"],
    )
    assert v2["manifest_hash"] != skill["manifest_hash"] and v2["bundle_hash"] == skill["bundle_hash"]

    replaced = api.put(
        f"/v1/skills/{skill['id']}/manifest",
        json={"description": "Tables", "version": "1.0.0"},
        headers=matching(v2["etag"]),
    )
    assert replaced.status_code == 200, replaced.text
    v3 = replaced.json()["skill"]
    assert (v3["revision"], v3["version"], v3["body"], v3["metadata"], v3["name"]) == (
        3,
        "1.0.0",
        "",
        {},
        "pdf-tables",
    )
    stale = api.put(
        f"/v1/skills/{skill['id']}/manifest", json={"description": "x"}, headers=matching(v2["etag"])
    )
    assert stale.status_code == 412 and stale.json()["detail"]["code"] == "etag_mismatch"
    assert api.put(f"/v1/skills/{skill['id']}/manifest", json={"description": "x"}).status_code == 428

    deleted = api.post(f"/v1/skills/{skill['id']}/delete", headers=matching(v3["etag"]))
    assert deleted.status_code == 200 and deleted.json()["skill"]["deleted_at"]
    assert api.get(f"/v1/skills/{skill['id']}").status_code == 404
    assert api.get("/v1/skills").json() == {"skills": [], "total_count": 0}
    tomb = api.get(f"/v1/skills/{skill['id']}", params={"include_deleted": True}).json()["skill"]
    restored = api.post(f"/v1/skills/{skill['id']}/restore", headers=matching(tomb["etag"]))
    assert restored.status_code == 200 and restored.json()["skill"]["deleted_at"] is None
    # Files survive the tombstone.
    files = api.get(f"/v1/skills/{skill['id']}/files").json()["files"]
    assert [(f["path"], f["kind"], f["size_bytes"]) for f in files] == [("scripts/run.py", "script", 9)]

    history = api.get(f"/v1/skills/{skill['id']}/revisions").json()["revisions"]
    assert [h["action"] for h in history] == ["restore", "delete", "replace", "replace", "create"]
    assert history[-1]["operation_id"].startswith("auto:")

    assert api.delete(f"/v1/skills/{skill['id']}").status_code == 204
    assert api.get(f"/v1/skills/{skill['id']}").status_code == 404
    assert api.delete(f"/v1/skills/{skill['id']}").status_code == 404


def test_a_conditional_create_replays_and_refuses_inline_files(api):
    op = uuid.uuid4().hex
    first = api.post("/v1/skills", json=SKILL, headers=creating(op))
    assert first.status_code == 201 and first.json()["replayed"] is False
    again = api.post("/v1/skills", json=SKILL, headers=creating(op))
    assert again.json() == {**first.json(), "replayed": True}
    other = api.post("/v1/skills", json={**SKILL, "name": "other"}, headers=creating(op))
    assert other.status_code == 409 and other.json()["detail"]["code"] == "idempotency_key_reused"
    r = api.post(
        "/v1/skills",
        json={**SKILL, "name": "with-files", "files": [{"path": "a.txt", "content": "x"}]},
        headers=creating(),
    )
    assert r.status_code == 400 and r.json()["detail"]["code"] == "conditional_create_with_files"
    assert (
        api.post("/v1/skills", json={**SKILL, "name": "half"}, headers={"If-None-Match": "*"}).status_code
        == 428
    )
    assert [s["name"] for s in api.get("/v1/skills").json()["skills"]] == ["pdf-tables"]


def test_files_manifest_bundle_and_sync(api):
    skill = make_skill(api)
    sid = skill["id"]
    assert skill["bundle_hash"] == ""
    put = api.put(
        f"/v1/skills/{sid}/files/references/api.md",
        json={"content_b64": b64(b"# API\n"), "mime_type": "text/markdown"},
    )
    assert put.status_code == 200, put.text
    assert (put.json()["kind"], put.json()["size_bytes"], put.json()["mime_type"]) == (
        "reference",
        6,
        "text/markdown",
    )
    api.put(f"/v1/skills/{sid}/files/assets/logo.bin", json={"content_b64": b64(b"\x00\xff")})
    got = api.get(f"/v1/skills/{sid}/files/references/api.md")
    assert (
        got.status_code == 200
        and got.content == b"# API\n"
        and got.headers["content-type"].startswith("text/markdown")
    )
    assert api.get(f"/v1/skills/{sid}/files/assets/logo.bin").content == b"\x00\xff"
    now = api.get(f"/v1/skills/{sid}").json()["skill"]
    assert now["bundle_hash"] and now["etag"] == skill["etag"]  # files do not move the manifest's ETag

    manifest = api.get(f"/v1/skills/{sid}/manifest")
    assert manifest.headers["content-type"].startswith("text/markdown")
    assert manifest.text == (
        '---\nname: pdf-tables\ndescription: "Extract tables: from PDFs"\nversion: 0.1.0\n---\n\nUse camelot.'
    )

    lines = [json.loads(line) for line in api.get(f"/v1/skills/{sid}/bundle").text.splitlines()]
    assert [line["type"] for line in lines] == ["header", "file", "file", "footer"]
    assert lines[0]["file_count"] == 2 and lines[-1]["bundle_hash"] == now["bundle_hash"]
    assert base64.b64decode(lines[2]["content_b64"]) == b"# API\n"
    tgz = api.get(f"/v1/skills/{sid}/bundle", params={"format": "tar.gz"})
    with tarfile.open(fileobj=io.BytesIO(tgz.content), mode="r:gz") as tar:
        assert sorted(tar.getnames()) == ["assets/logo.bin", "references/api.md"]
    assert api.get(f"/v1/skills/{sid}/bundle", params={"format": "zip"}).status_code == 400

    sync = lambda **h: api.post(f"/v1/skills/{sid}/sync", json=h).json()  # noqa: E731
    assert sync()["action"] == "pull"
    same = {"manifest_hash": now["manifest_hash"], "bundle_hash": now["bundle_hash"]}
    assert sync(**same) == {
        "action": "in_sync",
        "reason": "Local and server are identical",
        "server_manifest_hash": now["manifest_hash"],
        "server_bundle_hash": now["bundle_hash"],
    }
    assert (
        sync(**{**same, "bundle_hash": "x"})["reason"] == "Conflict: bundle differ between local and server"
    )

    assert api.delete(f"/v1/skills/{sid}/files/assets/logo.bin").status_code == 204
    assert api.delete(f"/v1/skills/{sid}/files/assets/logo.bin").status_code == 204  # absent: no error
    assert [f["path"] for f in api.get(f"/v1/skills/{sid}/files").json()["files"]] == ["references/api.md"]
    assert api.get(f"/v1/skills/{sid}").json()["skill"]["bundle_hash"] != now["bundle_hash"]


def test_resolve_by_name_and_by_query(api):
    make_skill(api)
    make_skill(api, name="csv-clean", description="Clean CSV files", body="Strip whitespace from columns.")
    off = make_skill(api, name="csv-old", description="Clean CSV files, the old way")
    api.put(f"/v1/skills/{off['id']}", json={"enabled": False})
    by_name = api.post("/v1/skills/resolve", json={"name": "csv-clean"}).json()
    assert by_name["skill"]["name"] == "csv-clean" and by_name["candidates"] == []
    assert api.post("/v1/skills/resolve", json={"name": "csv-old"}).json()["skill"] is None
    assert api.post("/v1/skills/resolve", json={"name": "nope"}).json() == {"skill": None, "candidates": []}
    by_query = api.post("/v1/skills/resolve", json={"query": "clean the csv columns"}).json()
    assert [s["name"] for s in by_query["candidates"]] == ["csv-clean"] and by_query["skill"][
        "name"
    ] == "csv-clean"
    r = api.post("/v1/skills/resolve", json={})
    assert r.status_code == 400 and r.json()["detail"]["code"] == "name_or_query_required"
    listed = api.get("/v1/skills", params={"enabled": "false"}).json()
    assert [s["name"] for s in listed["skills"]] == ["csv-old"] and listed["total_count"] == 1
    assert [s["name"] for s in api.get("/v1/skills", params={"name": "pdf-tables"}).json()["skills"]] == [
        "pdf-tables"
    ]
    assert len(api.get("/v1/skills", params={"limit": 1, "offset": 1}).json()["skills"]) == 1


@pytest.mark.parametrize(
    "body",
    [
        {**SKILL, "name": "Bad_Name"},
        {**SKILL, "name": "a--b"},
        {**SKILL, "name": "-a"},
        {**SKILL, "name": "x" * 65},
        {**SKILL, "description": "  "},
        {**SKILL, "description": "x" * 1025},
        {**SKILL, "compatibility": "x" * 501},
        {**SKILL, "source_mode": "cloud"},
        {"description": "no name"},
    ],
)
def test_bad_skills_are_refused_and_nothing_is_written(api, body):
    r = api.post("/v1/skills", json=body)
    assert r.status_code == 422, r.text
    assert api.get("/v1/skills").json()["skills"] == []


@pytest.mark.parametrize("path", ["../escape.txt", "a/../../b", "SKILL.md", "a//b"])
def test_bad_file_paths_and_contents_are_refused(api, path):
    sid = make_skill(api, name=f"s-{uuid.uuid4().hex[:6]}")["id"]
    r = api.put(f"/v1/skills/{sid}/files/{path}", json={"content_b64": b64(b"x")})
    assert r.status_code in (400, 404), r.text
    for body, code in (({}, "content_b64_required"), ({"content_b64": "@@@"}, "invalid_base64")):
        r = api.put(f"/v1/skills/{sid}/files/ok.txt", json=body)
        assert r.status_code == 400 and r.json()["detail"]["code"] == code
    r = api.post(
        "/v1/skills", json={**SKILL, "name": "inline-bad", "files": [{"path": "../x", "content": "x"}]}
    )
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_skill_file_path"
    assert api.get("/v1/skills", params={"name": "inline-bad"}).json()["skills"] == []
    assert api.get(f"/v1/skills/{sid}/files").json()["files"] == []
    assert api.put("/v1/skills/skl_nope/files/ok.txt", json={"content_b64": b64(b"x")}).status_code == 404
    assert api.get(f"/v1/skills/{sid}/files/nope.txt").json()["detail"]["code"] == "skill_file_not_found"


@pytest.mark.parametrize("other_tenant", [False, True])
def test_another_workspace_or_tenant_sees_and_changes_nothing(secured, ws, other_ws, other_tenant):  # noqa: F811
    tenant = f"t_{uuid.uuid4().hex[:8]}" if other_tenant else None
    with key_client(secured, ws) as a, key_client(secured, other_ws, tenant) as b:
        skill = make_skill(a, files=[{"path": "notes.txt", "content": "mine"}])
        sid = skill["id"]
        for path in (
            f"/v1/skills/{sid}",
            f"/v1/skills/{sid}/files",
            f"/v1/skills/{sid}/files/notes.txt",
            f"/v1/skills/{sid}/manifest",
            f"/v1/skills/{sid}/bundle",
            f"/v1/skills/{sid}/revisions",
        ):
            assert b.get(path).status_code == 404, path
            assert b.get(path, params={"workspace_id": ws}).status_code == 403, path
        assert b.put(f"/v1/skills/{sid}", json={"body": "pwned"}).status_code == 404
        assert (
            b.put(f"/v1/skills/{sid}/files/notes.txt", json={"content_b64": b64(b"pwned")}).status_code == 404
        )
        assert b.delete(f"/v1/skills/{sid}/files/notes.txt").status_code == 404
        assert b.delete(f"/v1/skills/{sid}").status_code == 404
        assert b.post(f"/v1/skills/{sid}/delete", headers=matching(skill["etag"])).status_code == 404
        assert b.post(f"/v1/skills/{sid}/sync", json={}).status_code == 404
        assert b.post("/v1/skills", json={**SKILL, "workspace_id": ws}).status_code == 403
        assert b.get("/v1/skills").json()["skills"] == []
        assert b.post("/v1/skills/resolve", json={"name": SKILL["name"]}).json()["skill"] is None
        # The same name is B's own to take.
        assert make_skill(b)["id"] != sid
        assert a.get(f"/v1/skills/{sid}").json()["skill"] == skill
        assert a.get(f"/v1/skills/{sid}/files/notes.txt").content == b"mine"


def test_the_row_wall_holds_skill_files_to_their_workspace(settings, services: Services, http, ws, other_ws):
    for workspace in (ws, other_ws):
        http.post(
            "/v1/skills",
            json={**SKILL, "files": [{"path": "a.txt", "content": "x"}]},
            headers={"X-Workspace-ID": workspace},
        )
    db = Database.from_settings(settings, purpose="api")
    try:
        with rls.visible((ws,)), db.connection() as conn:
            rows = conn.execute("SELECT workspace_id FROM skill_files").fetchall()
        assert {r["workspace_id"] for r in rows} == {ws}
        with rls.visible(rls.NOTHING), db.connection() as conn:
            assert conn.execute("SELECT count(*) AS n FROM skill_files").fetchone()["n"] == 0  # type: ignore[index]
    finally:
        db.close()


def test_skills_and_their_files_round_trip_through_export_and_import(http, ws, other_ws):
    http.headers["X-Workspace-ID"] = ws
    skill = make_skill(http, files=[{"path": "scripts/a.py", "content": "print(2)"}])
    http.put(f"/v1/skills/{skill['id']}/files/assets/b.bin", json={"content_b64": b64(b"\x01\x02")})
    now = http.get(f"/v1/skills/{skill['id']}").json()["skill"]
    exported = http.get(f"/v1/workspaces/{ws}/export")
    r = http.post(
        f"/v1/workspaces/{other_ws}/import",
        content=exported.text,
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert r.status_code == 200, r.text
    http.headers["X-Workspace-ID"] = other_ws
    assert http.get(f"/v1/skills/{skill['id']}").json()["skill"] == {**now, "workspace_id": other_ws}
    assert http.get(f"/v1/skills/{skill['id']}/files/assets/b.bin").content == b"\x01\x02"


def test_our_sdk_drives_skills(base_url, ws):
    from memorylayer import SyncMemoryLayerClient
    from memorylayer.errors import MemoryLayerError

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        skill = client.create_skill("pdf", "Reads PDFs", "Use camelot.", files={"scripts/run.py": b"print()"})
        assert (skill.revision, skill.workspace_id, bool(skill.bundle_hash)) == (1, ws, True)
        assert [s.id for s in client.list_skills()] == [skill.id]
        assert [s.id for s in client.resolve_skill(name="pdf")] == [skill.id]
        assert [s.id for s in client.resolve_skill(query="read pdfs")] == [skill.id]
        v2 = client.update_skill(skill.id, body="Use tabula.")
        v3 = client.replace_skill_manifest(skill.id, "Reads PDFs well", if_match=v2.etag, version="2.0.0")
        with pytest.raises(MemoryLayerError) as stale:
            client.replace_skill_manifest(skill.id, "lost", if_match=v2.etag)
        assert stale.value.status_code == 412
        assert client.get_skill_manifest(skill.id).startswith(
            "---\nname: pdf\ndescription: Reads PDFs well\n"
        )
        info = client.put_skill_file(skill.id, "references/a.md", b"# A", mime_type="text/markdown")
        assert (info.kind, info.size_bytes) == ("reference", 3)
        assert [f.path for f in client.list_skill_files(skill.id)] == ["references/a.md", "scripts/run.py"]
        assert client.get_skill_file(skill.id, "references/a.md") == b"# A"
        assert client.get_skill_bundle(skill.id).count(b"\n") == 4
        now = client.get_skill(skill.id)
        assert now.etag == v3.etag
        sync = client.sync_skill(skill.id, manifest_hash=now.manifest_hash, bundle_hash=now.bundle_hash)
        assert sync.action == "in_sync"
        client.delete_skill_file(skill.id, "references/a.md")
        tomb = client.tombstone_skill(skill.id, if_match=v3.etag)
        assert tomb.deleted_at is not None and client.list_skills() == []
        back = client.restore_skill(skill.id, if_match=tomb.etag)
        assert [r.action for r in client.list_skill_revisions(skill.id).items] == [
            "restore",
            "delete",
            "replace",
            "replace",
            "create",
        ]
        client.delete_skill(skill.id)
        assert client.get_skill(skill.id, include_deleted=True).revision == back.revision + 1


@pytest.mark.parametrize(
    "mime_type",
    ["text/plain\r\nX-Injected: 1", "text/html\n", "text", 'text/plain; charset="a\x01"', "a b/c"],
)
def test_a_mime_type_that_is_not_one_is_refused_and_nothing_is_stored(api, mime_type):
    sid = make_skill(api)["id"]
    put = api.put(
        f"/v1/skills/{sid}/files/notes.txt", json={"content_b64": b64(b"hi"), "mime_type": mime_type}
    )
    assert put.status_code == 422, put.text
    inline = {"path": "notes.txt", "content": "hi", "mime_type": mime_type}
    assert api.post("/v1/skills", json={**SKILL, "name": "other", "files": [inline]}).status_code == 422
    assert api.get(f"/v1/skills/{sid}/files").json()["files"] == []
    assert api.get(f"/v1/skills/{sid}/files/notes.txt").status_code == 404
    assert [s["name"] for s in api.get("/v1/skills").json()["skills"]] == ["pdf-tables"]


def test_a_mime_type_with_parameters_is_kept(api):
    sid = make_skill(api)["id"]
    mime = 'text/plain; charset=utf-8; note="a; b"'
    put = api.put(f"/v1/skills/{sid}/files/notes.txt", json={"content_b64": b64(b"hi"), "mime_type": mime})
    assert put.status_code == 200 and put.json()["mime_type"] == mime
    got = api.get(f"/v1/skills/{sid}/files/notes.txt")
    assert got.headers["content-type"].startswith("text/plain") and got.content == b"hi"


PAGE = b"<html><body><script>fetch('/v1/memories', {method: 'POST'})</script></body></html>"


@pytest.mark.parametrize(
    ("mime_type", "name"),
    [
        ("text/html", "page.html"),
        ("image/svg+xml", "logo.svg"),
        ("application/xhtml+xml", "page.xhtml"),
        ("text/xml", "data.xml"),
        ("text/javascript", "run.js"),
        (None, "blob"),
    ],
)
def test_a_stored_file_that_could_run_is_served_as_a_download(api, mime_type, name):
    sid = make_skill(api)["id"]
    body = {"content_b64": b64(PAGE), "mime_type": mime_type}
    assert api.put(f"/v1/skills/{sid}/files/assets/{name}", json=body).status_code == 200
    got = api.get(f"/v1/skills/{sid}/files/assets/{name}")
    assert got.status_code == 200 and got.content == PAGE
    assert got.headers["content-type"] == "application/octet-stream"
    assert got.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert got.headers["x-content-type-options"] == "nosniff"
    assert "sha256-" not in got.headers.get("content-security-policy", "")  # its script is trusted nowhere
    listed = api.get(f"/v1/skills/{sid}/files").json()["files"]
    assert [f["mime_type"] for f in listed] == [mime_type]  # the type as uploaded is still reported


@pytest.mark.parametrize("mime_type", ["text/plain", "application/json", "image/png", "text/markdown"])
def test_an_inert_file_is_served_as_its_type(api, mime_type):
    sid = make_skill(api)["id"]
    api.put(f"/v1/skills/{sid}/files/assets/f", json={"content_b64": b64(b"x"), "mime_type": mime_type})
    got = api.get(f"/v1/skills/{sid}/files/assets/f")
    assert got.headers["content-type"].split(";")[0] == mime_type and "content-disposition" not in got.headers
    assert got.headers["x-content-type-options"] == "nosniff"
