"""/v1/documents over real HTTP and Postgres, the pipeline in-process (no bucket configured): formats, pages,
chunks as memories with provenance, jobs, search, lifecycle, bad input that stores nothing, workspace walls."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.documents import docx, pdf, upload, wait_document, wait_job, zip_bomb
from tests.helpers.http import h

MD = b"# Garden notes\n\nThe tomatoes need water every morning.\n\nBasil grows best next to tomatoes.\n"


def _ingest(http: httpx.Client, ws: str, filename: str, data: bytes, **kw) -> tuple[dict, dict]:
    r = upload(http, ws, filename, data, **kw)
    assert r.status_code == 202, r.text
    body = r.json()
    return wait_document(http, ws, body["document"]["id"]), body["job"]


def _count(http: httpx.Client, ws: str) -> tuple[int, int]:
    docs = http.get("/v1/documents", headers=h(ws)).json()["total"]
    jobs = len(http.get("/v1/documents/jobs", headers=h(ws)).json()["jobs"])
    return docs, jobs


def test_markdown_upload_to_memories_with_provenance(http: httpx.Client, ws: str) -> None:
    r = upload(http, ws, "notes.md", MD, "text/markdown", target_context_id="garden", importance="0.7")
    assert r.status_code == 202, r.text
    body = r.json()
    assert set(body) == {"document", "job"}
    assert body["document"]["status"] == "pending" and body["job"]["status"] in (
        "queued",
        "running",
        "completed",
    )
    assert body["document"]["filename"] == "notes.md" and body["document"]["document_type"] == "markdown"
    doc = wait_document(http, ws, body["document"]["id"])
    assert doc["status"] == "completed", doc
    assert doc["page_count"] == 1 and doc["chunk_count"] == len(doc["memory_ids"]) >= 1
    assert doc["target_context_id"] == "garden"
    job = wait_job(http, ws, body["job"]["id"])
    assert job["status"] == "completed" and job["progress_percent"] == 100
    assert job["total_memories_created"] == len(doc["memory_ids"])

    mems = http.get(f"/v1/documents/{doc['id']}/memories", headers=h(ws)).json()
    assert mems["document_id"] == doc["id"] and mems["total"] == len(doc["memory_ids"])
    pages = http.get(f"/v1/documents/{doc['id']}/pages", headers=h(ws)).json()
    assert pages["total"] == 1
    page = pages["pages"][0]
    assert page["page_no"] == 0 and "tomatoes" in page["transcript"]
    for m in mems["memories"]:
        meta = m["metadata"]
        assert meta["source_document_id"] == doc["id"] and meta["source_page_id"] == page["id"]
        start, end = meta["span"]
        assert page["transcript"][start:end] == m["content"]
        assert m["importance"] == pytest.approx(0.7)
    one = http.get(f"/v1/documents/{doc['id']}/pages/{page['id']}", headers=h(ws))
    assert one.status_code == 200 and one.json()["id"] == page["id"]

    # The chunks are ordinary memories: recall finds them in the target context.
    found = http.post(
        "/v1/memories/recall", headers=h(ws), json={"query": "what do tomatoes need", "context_id": "garden"}
    ).json()
    assert any(m["id"] in doc["memory_ids"] for m in found["memories"])


@pytest.mark.parametrize(
    ("filename", "data", "kind", "pages", "needle"),
    [
        ("a.txt", b"Plain text about the lighthouse keeper.", "text", 1, "lighthouse"),
        ("b.html", b"<html><script>x()</script><body><h1>Ships</h1><p>The harbour &amp; pier.</p></body></html>",
         "html", 1, "harbour & pier"),
        # No </head>: the body is still read (html.parser's reading skipped everything after <head>).
        ("open-head.html", b"<html><head><title>T</title><body><p>The ferry leaves at noon.</p>", "html", 1,
         "ferry leaves at noon"),
        # A table's cells stay apart (they once ran together: "PortDepth").
        ("table.html", b"<table><tr><th>Port</th><th>Depth</th></tr><tr><td>Oban</td><td>12 m</td></tr></table>",
         "html", 1, "Oban | 12 m"),
        ("c.pdf", pdf([["The first page talks of owls."], ["The second page of ravens."]]), "pdf", 2, "ravens"),
        ("d.docx", docx([["Minutes of the meeting."], ["Actions: buy paint."]]), "docx", 2, "buy paint"),
    ],
)  # fmt: skip
def test_formats(
    http: httpx.Client, ws: str, filename: str, data: bytes, kind: str, pages: int, needle: str
) -> None:
    doc, _ = _ingest(http, ws, filename, data)
    assert doc["status"] == "completed" and doc["document_type"] == kind and doc["page_count"] == pages
    text = " ".join(
        p["transcript"] for p in http.get(f"/v1/documents/{doc['id']}/pages", headers=h(ws)).json()["pages"]
    )
    assert needle in text
    assert "x()" not in text


def test_page_search_ranks_the_matching_page(http: httpx.Client, ws: str) -> None:
    data = pdf([["Quarterly revenue grew by ten percent."], ["The cat sat on the warm windowsill."]])
    doc, _ = _ingest(http, ws, "report.pdf", data)
    r = http.post("/v1/documents/search", headers=h(ws), json={"query": "cat windowsill", "limit": 5})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["query"] == "cat windowsill" and body["total_count"] == len(body["pages"]) == 2
    assert body["pages"][0]["page_no"] == 1 and body["pages"][0]["relevance_score"] is not None
    only = http.post(
        "/v1/documents/search", headers=h(ws), json={"query": "cat", "doc_ids": ["doc_nope"]}
    ).json()
    assert only["pages"] == []


def test_same_bytes_again_is_the_same_document(http: httpx.Client, ws: str) -> None:
    first, _ = _ingest(http, ws, "notes.md", MD)
    r = upload(http, ws, "renamed.md", MD)
    assert r.status_code == 202
    again = r.json()
    assert again["document"]["id"] == first["id"]
    assert again["job"]["status"] == "completed" and again["job"]["metadata"]["deduplicated"] is True
    assert http.get("/v1/documents", headers=h(ws)).json()["total"] == 1


def test_reprocess_is_idempotent_and_retires_what_it_no_longer_derives(http: httpx.Client, ws: str) -> None:
    text = ("Sentence number %d is about the harbour. " * 60 % tuple(range(60))).encode()
    doc, _ = _ingest(http, ws, "long.txt", text)
    ids = set(doc["memory_ids"])
    r = http.post(f"/v1/documents/{doc['id']}/reprocess", headers=h(ws))
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["job"]["id"] == body["id"] and body["document"]["id"] == doc["id"]  # flat for SDK 0.2.1
    job = wait_job(http, ws, body["id"])
    assert job["status"] == "completed" and job["total_memories_created"] == 0
    again = wait_document(http, ws, doc["id"])
    assert set(again["memory_ids"]) == ids and again["deduplicated_count"] == len(ids)

    r = http.post(f"/v1/documents/{doc['id']}/reprocess", headers=h(ws),
                  json={"extraction_options": {"chunk_size": 400}})  # fmt: skip
    wait_job(http, ws, r.json()["id"])
    smaller = wait_document(http, ws, doc["id"])
    assert len(smaller["memory_ids"]) > len(ids)
    live = http.get(f"/v1/documents/{doc['id']}/memories", headers=h(ws)).json()
    assert {m["id"] for m in live["memories"]} == set(smaller["memory_ids"])


def test_delete_removes_document_pages_and_optionally_memories(http: httpx.Client, ws: str) -> None:
    keep, _ = _ingest(http, ws, "keep.md", MD)
    r = http.delete(f"/v1/documents/{keep['id']}", headers=h(ws), params={"delete_memories": "false"})
    assert r.status_code == 200 and r.json() == {"deleted": True, "document_id": keep["id"]}
    assert http.get(f"/v1/documents/{keep['id']}", headers=h(ws)).status_code == 404
    assert http.get(f"/v1/documents/{keep['id']}/pages", headers=h(ws)).status_code == 404
    assert http.get(f"/v1/memories/{keep['memory_ids'][0]}", headers=h(ws)).status_code == 200

    gone, _ = _ingest(http, ws, "gone.txt", b"Forget this text about the old bridge.")
    r = http.delete(f"/v1/documents/{gone['id']}", headers=h(ws), params={"delete_memories": "true"})
    assert r.status_code == 200
    assert all(http.get(f"/v1/memories/{m}", headers=h(ws)).status_code == 404 for m in gone["memory_ids"])
    assert http.delete(f"/v1/documents/{gone['id']}", headers=h(ws)).status_code == 404


def test_verify(http: httpx.Client, ws: str) -> None:
    doc, _ = _ingest(http, ws, "notes.md", MD)
    r = http.post(f"/v1/documents/{doc['id']}/verify", headers=h(ws))
    assert r.status_code == 202, r.text
    assert r.json() == {"task_id": None, "mode": "document", "scheduled": False, "document_id": doc["id"],
                        "intact": True, "problem": None}  # fmt: skip
    assert http.post("/v1/documents/doc_nope/verify", headers=h(ws)).status_code == 404


def test_cancel_a_finished_job_answers_it_as_it_is(http: httpx.Client, ws: str) -> None:
    _, job = _ingest(http, ws, "notes.md", MD)
    done = wait_job(http, ws, job["id"])
    r = http.post(f"/v1/documents/jobs/{job['id']}/cancel", headers=h(ws))
    assert r.status_code == 200 and r.json()["status"] == done["status"] == "completed"
    assert http.post("/v1/documents/jobs/job_nope/cancel", headers=h(ws)).status_code == 404
    assert http.get("/v1/documents/jobs/job_nope", headers=h(ws)).status_code == 404
    listed = http.get("/v1/documents/jobs", headers=h(ws), params={"status": "completed"}).json()
    assert [j["id"] for j in listed["jobs"]] == [job["id"]]


@pytest.mark.parametrize(
    ("filename", "data", "content_type", "status", "code"),
    [
        ("empty.txt", b"", "text/plain", 400, "empty_document"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "image/png", 415, "unsupported_document_type"),
        ("slides.pptx", b"PK\x03\x04" + b"\0" * 64, "application/octet-stream", 415, "unsupported_document_type"),
        ("fake.pdf", b"just text, not a pdf", "application/pdf", 415, "unsupported_document_type"),
        ("broken.pdf", b"%PDF-1.4\n1 0 obj <<< garbage", "application/pdf", 400, "corrupt_document"),
        ("bomb.docx", zip_bomb(80), "application/octet-stream", 413, "archive_too_large"),
        ("broken.docx", b"PK\x03\x04 not really a zip", "application/octet-stream", 400, "corrupt_document"),
        ("latin1.txt", "café".encode("latin-1"), "text/plain", 415, "unsupported_encoding"),
        ("binary.txt", b"abc\0\0\0def", "text/plain", 415, "unsupported_document_type"),
        ("..", b"hello", "text/plain", 400, "invalid_filename"),
        ("scan.pdf", pdf([[]]), "application/pdf", 400, "no_text"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_and_stores_nothing(
    http: httpx.Client, ws: str, filename: str, data: bytes, content_type: str, status: int, code: str
) -> None:
    r = upload(http, ws, filename, data, content_type)
    assert r.status_code == status, r.text
    assert r.json()["detail"]["code"] == code
    assert _count(http, ws) == (0, 0)


def test_control_characters_in_the_filename(http: httpx.Client, ws: str) -> None:
    # Built by hand: httpx would percent-encode the control character.
    body = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="bad\x07name.txt"\r\n'
            b"Content-Type: text/plain\r\n\r\nhello\r\n--b--\r\n")  # fmt: skip
    r = http.post(
        "/v1/documents", headers={**h(ws), "Content-Type": "multipart/form-data; boundary=b"}, content=body
    )
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_filename", r.text
    assert _count(http, ws) == (0, 0)


def test_over_the_size_limit(http: httpx.Client, ws: str, services) -> None:
    limit = services.settings.document_max_bytes
    r = upload(http, ws, "big.txt", b"a" * (limit + 1), "text/plain")
    assert r.status_code == 413 and r.json()["detail"]["code"] == "document_too_large"
    assert _count(http, ws) == (0, 0)


def test_over_the_body_cap_too_the_answer_points_at_the_presigned_route(
    http: httpx.Client, ws: str, services
) -> None:
    """A file past the whole request cap (20 MB) is stopped before it is read, with the same code and hint as
    one under it, whether the length is declared or the body streams in chunks."""
    settings = services.settings
    data = b"a" * (20 * 1024 * 1024)
    declared = upload(http, ws, "big.pdf", data, "application/pdf")
    boundary = "b0undary"
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n'
            "Content-Type: application/pdf\r\n\r\n").encode()  # fmt: skip
    chunks = [
        head,
        *(data[i : i + (1 << 20)] for i in range(0, len(data), 1 << 20)),
        f"\r\n--{boundary}--\r\n".encode(),
    ]
    streamed = http.post(
        "/v1/documents",
        content=iter(chunks),
        headers={"X-Workspace-ID": ws, "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    for r in (declared, streamed):
        assert r.status_code == 413, r.text
        detail = r.json()["detail"]
        assert detail["code"] == "document_too_large" and "POST /v1/documents/uploads" in detail["message"]
        assert detail["max_bytes"] == min(settings.document_max_bytes, settings.max_request_bytes)
    assert _count(http, ws) == (0, 0)
    # Another route over the cap keeps the general code.
    other = http.post(
        "/v1/memories", content=data, headers={"X-Workspace-ID": ws, "Content-Type": "application/json"}
    )
    assert other.status_code == 413 and other.json()["detail"]["code"] == "request_too_large"


def test_path_traversal_name_is_kept_as_its_last_component(http: httpx.Client, ws: str) -> None:
    doc, _ = _ingest(http, ws, "../../etc/notes.md", MD)
    assert doc["filename"] == "notes.md"


def test_unknown_extraction_option_and_missing_file(http: httpx.Client, ws: str) -> None:
    assert http.post("/v1/documents", headers=h(ws), data={"chunk_size": "10"}).status_code == 422
    r = upload(http, ws, "a.txt", b"hello there", chunk_size="5")
    assert r.status_code == 400 and r.json()["detail"]["code"] == "invalid_extraction_options"
    assert _count(http, ws) == (0, 0)


def test_presigned_upload_needs_a_bucket(http: httpx.Client, ws: str) -> None:
    r = http.post("/v1/documents/uploads", headers=h(ws), json={"filename": "big.pdf"})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "presigned_upload_not_supported"
    assert _count(http, ws) == (0, 0)


def test_workspace_walls(http: httpx.Client, ws: str, other_ws: str) -> None:
    doc, job = _ingest(http, ws, "notes.md", MD)
    page = http.get(f"/v1/documents/{doc['id']}/pages", headers=h(ws)).json()["pages"][0]
    for method, path in [
        ("GET", f"/v1/documents/{doc['id']}"),
        ("GET", f"/v1/documents/{doc['id']}/pages"),
        ("GET", f"/v1/documents/{doc['id']}/pages/{page['id']}"),
        ("GET", f"/v1/documents/{doc['id']}/memories"),
        ("GET", f"/v1/documents/jobs/{job['id']}"),
        ("POST", f"/v1/documents/jobs/{job['id']}/cancel"),
        ("POST", f"/v1/documents/{doc['id']}/reprocess"),
        ("POST", f"/v1/documents/{doc['id']}/verify"),
        ("DELETE", f"/v1/documents/{doc['id']}"),
    ]:
        assert http.request(method, path, headers=h(other_ws)).status_code == 404, (method, path)
    assert http.get("/v1/documents", headers=h(other_ws)).json()["total"] == 0
    assert http.get("/v1/documents/jobs", headers=h(other_ws)).json()["jobs"] == []
    found = http.post("/v1/documents/search", headers=h(other_ws), json={"query": "tomatoes"}).json()
    assert found["pages"] == []
    # The same bytes in another workspace are another document.
    theirs, _ = _ingest(http, other_ws, "notes.md", MD)
    assert theirs["id"] != doc["id"]
    assert http.get(f"/v1/documents/{doc['id']}", headers=h(ws)).json()["status"] == "completed"


def test_the_row_wall_holds_for_documents_pages_and_jobs(
    http: httpx.Client, ws: str, other_ws: str, settings
) -> None:
    """A query that forgets its workspace filter still sees only the walled workspace's documents."""
    from shared.db import rls
    from shared.db.pool import Database

    _ingest(http, ws, "mine.md", MD)
    _ingest(http, other_ws, "theirs.txt", b"Their secret document about the vault.")
    db = Database.from_settings(settings, purpose="api")
    try:
        with rls.visible((ws,)), db.connection() as conn:
            for table in ("documents", "document_pages", "document_jobs"):
                seen = conn.execute(f"SELECT DISTINCT workspace_id FROM {table}").fetchall()  # noqa: S608
                assert [r["workspace_id"] for r in seen] == [ws], table
        with db.connection() as conn:  # no wall set: nothing
            assert conn.execute("SELECT count(*) AS n FROM documents").fetchone()["n"] == 0
    finally:
        db.close()
