"""A server with no document bucket (self-hosted ``memorylayer serve``) runs an upload's job in a thread of its
own: that thread works behind the workspace's row-level wall, as an API process's requests do, and the
document's chunks become memories."""

from __future__ import annotations

import httpx

from tests.helpers.documents import upload, wait_document
from tests.helpers.http import h


def test_an_upload_without_a_bucket_is_ingested_by_the_api_process(stack_url: str, ws: str) -> None:
    with httpx.Client(base_url=stack_url, timeout=30) as http:
        r = upload(
            http, ws, "notes.md", b"# Notes\n\nThe tomatoes need water every morning.\n", "text/markdown"
        )
        assert r.status_code == 202, r.text
        doc = wait_document(http, ws, r.json()["document"]["id"])
        assert doc["status"] == "completed", doc
        memories = http.get(f"/v1/documents/{doc['id']}/memories", headers=h(ws)).json()
        assert any("tomatoes" in m["content"] for m in memories["memories"]), memories
