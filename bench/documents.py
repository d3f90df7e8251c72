"""Documents in, memories out, through the local serverless path: HTTP upload → moto S3 → the bucket's event on
moto SQS → the documents Lambda handler (polled in-process) → Postgres.

    python -m bench.documents [--documents 20] [--pages 10]

Reports upload acknowledgement and upload → recallable (the document completed, its memories committed) p50/p95
for one PDF of ``--pages`` pages at a time, then pages/s and memories/s for ``--documents`` such PDFs uploaded
back to back and processed by one poller (one Lambda's worth). Hash embeddings: the figures are the pipeline's
own cost (parse, chunk, write), not a model's.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from datetime import datetime

import httpx

from bench.common import local_stack, save_result, sentence, summarise
from shared.core.settings import get_settings
from tests.helpers.documents import pdf


def _pdf(rng: random.Random, pages: int) -> bytes:
    return pdf([[sentence(rng, 14) + "." for _ in range(8)] for _ in range(pages)])


def _upload(http: httpx.Client, ws: str, name: str, data: bytes) -> tuple[float, float, str]:
    """(wall clock at upload, ack ms, document id)."""
    wall, started = time.time(), time.perf_counter()
    r = http.post(
        "/v1/documents", headers={"X-Workspace-ID": ws}, files={"file": (name, data, "application/pdf")}
    )
    r.raise_for_status()
    return wall, (time.perf_counter() - started) * 1000, r.json()["document"]["id"]


def _done(http: httpx.Client, ws: str, document_id: str) -> dict:
    while (doc := http.get(f"/v1/documents/{document_id}", headers={"X-Workspace-ID": ws}).json())[
        "status"
    ] not in (
        "completed",
        "failed",
    ):
        time.sleep(0.02)
    if doc["status"] != "completed":
        raise RuntimeError(f"document {document_id} failed: {doc['error_message']}")
    return doc


def _finished(doc: dict) -> float:
    return datetime.fromisoformat(doc["processing_completed_at"].replace("Z", "+00:00")).timestamp()


def run(documents: int, pages: int) -> dict:
    from shared.local.documents import document_bucket
    from shared.local.sqs import SqsPoller, local_sqs

    rng = random.Random(7)
    with local_sqs(name="documents", visibility_timeout_s=30) as queues:
        os.environ.update(
            MEMORYLAYER_DOCUMENT_BUCKET=document_bucket(queues),
            MEMORYLAYER_DOCUMENT_QUEUE_URL=queues.queue_url,
            MEMORYLAYER_SQS_ENDPOINT_URL=queues.endpoint_url,
            MEMORYLAYER_S3_ENDPOINT_URL=queues.endpoint_url,
        )
        with local_stack("hash", extra_env=True) as (base_url, _settings):
            get_settings.cache_clear()
            from functions.documents.handler import handler

            with SqsPoller(queues, handler), httpx.Client(base_url=base_url, timeout=60) as http:
                _done(http, "bench_warm", _upload(http, "bench_warm", "warm.pdf", _pdf(rng, 1))[2])
                acks, lags = [], []
                for i in range(documents):  # one at a time: the latency of one upload
                    wall, ack, doc_id = _upload(http, "bench_docs_lat", f"lat{i}.pdf", _pdf(rng, pages))
                    acks.append(ack)
                    lags.append((_finished(_done(http, "bench_docs_lat", doc_id)) - wall) * 1000)
                batch = [_pdf(rng, pages) for _ in range(documents)]
                started = time.perf_counter()
                ids = [_upload(http, "bench_docs_tp", f"tp{i}.pdf", data)[2] for i, data in enumerate(batch)]
                done = [_done(http, "bench_docs_tp", i) for i in ids]
                elapsed = time.perf_counter() - started
    total_pages = sum(d["page_count"] for d in done)
    total_memories = sum(len(d["memory_ids"]) for d in done)
    return {
        "documents": documents,
        "pages_per_document": pages,
        "pdf_bytes": len(batch[0]),
        "upload_ack": summarise(acks),
        "upload_to_recallable": summarise(lags),
        "pages_per_s": round(total_pages / elapsed, 1),
        "memories_per_s": round(total_memories / elapsed, 1),
        "memories_per_document": round(total_memories / documents, 1),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--pages", type=int, default=10)
    args = parser.parse_args()
    result = run(args.documents, args.pages)
    save_result("documents.json", result)
    a, lag = result["upload_ack"], result["upload_to_recallable"]
    print(f"{result['documents']} PDFs of {result['pages_per_document']} pages ({result['pdf_bytes']} bytes each), "
          f"load average {result['load_average'][0]:.1f}\n")  # fmt: skip
    print("| measure | p50 ms | p95 ms |\n|---|---|---|")
    print(f"| upload acknowledged | {a['p50_ms']} | {a['p95_ms']} |")
    print(f"| upload → recallable (document completed) | {lag['p50_ms']} | {lag['p95_ms']} |")
    print(f"\npages/s {result['pages_per_s']}, memories/s {result['memories_per_s']} "
          f"({result['memories_per_document']} memories a document)")  # fmt: skip


if __name__ == "__main__":
    main()
