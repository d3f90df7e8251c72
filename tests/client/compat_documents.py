"""Drive OUR documents with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12):

    .venv-compat312/bin/python tests/client/compat_documents.py http://127.0.0.1:PORT ws_abc

Every document method of the SDK: upload (its multipart), list, get, pages, page search, jobs (get, list,
cancel), reprocess (it reads the job flat), delete; ``get_page_image`` answers 404 (no page images here).
Prints one JSON object of what the SDK parsed (its own models validate ours).
"""

from __future__ import annotations

import json
import sys
import time

from memorylayer import SyncMemoryLayerClient
from memorylayer.exceptions import MemoryLayerError

BASE_URL, WORKSPACE = sys.argv[1], sys.argv[2]
TEXT = b"# Field notes\n\nThe heron waits at the edge of the pond.\n\nFrogs sing after the rain.\n"

with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
    doc, job = client.upload_document(TEXT, "notes.md", importance=0.6)
    deadline = time.monotonic() + 30
    while client.get_document(doc.id).status not in ("completed", "failed") and time.monotonic() < deadline:
        time.sleep(0.05)
    done = client.get_document(doc.id)
    pages = client.get_document_pages(doc.id)
    found = client.search_document_pages("heron pond", limit=3, doc_ids=[doc.id])
    listed, total = client.list_documents(limit=10)
    again = client.reprocess_document(doc.id, chunk_size=4096)
    deadline = time.monotonic() + 30
    while client.get_job(again.id).status not in ("completed", "failed") and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        client.get_page_image(doc.id, pages[0].id)
        image = "served"
    except MemoryLayerError as exc:
        image = exc.status_code
    client.cancel_job(job.id)
    jobs = client.list_jobs(limit=10)
    client.delete_document(doc.id, delete_memories=True)
    try:
        client.get_document(doc.id)
        after = "still there"
    except MemoryLayerError as exc:
        after = exc.status_code
    print(
        json.dumps(
            {
                "uploaded": [doc.id, doc.filename, doc.document_type, job.status],
                "done": [done.status, done.page_count, len(done.memory_ids)],
                "pages": [p.page_no for p in pages],
                "transcript_has_heron": "heron" in (pages[0].transcript or ""),
                "search": [
                    found.total_count,
                    found.query,
                    found.pages[0].document_id if found.pages else None,
                ],
                "listed": [[d.id for d in listed], total],
                "reprocess": [again.status in ("queued", "running", "completed"), again.document_ids],
                "reprocessed": client.get_job(again.id).status,
                "jobs": sorted(j.id for j in jobs),
                "job": client.get_job(job.id).status,
                "image": image,
                "after_delete": after,
            }
        )
    )
