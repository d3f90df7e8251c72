"""Documents in, memories out, through the local serverless path: HTTP upload → moto S3 → the bucket's event on
moto SQS → the documents Lambda handler (polled in-process) → Postgres.

    python -m bench.documents [--documents 20] [--pages 10] [--embedding hash|local]

Reports upload acknowledgement and upload → recallable (the document completed, its memories committed) p50/p95
for one PDF of ``--pages`` pages at a time, then pages/s and memories/s for ``--documents`` such PDFs uploaded
back to back and processed by one poller (one Lambda's worth, one record a batch as in AWS). With ``hash``
embeddings the figures are the pipeline's own cost (parse, chunk, write); ``local`` adds the in-Lambda model.

Last, what ingesting 1,000 such pages would cost in AWS, from the measured handler durations priced with
infra/cost.py's PRICES: the documents function's GB-seconds and requests, the upload through the HTTP API and the
memory function, S3 (one PUT, one GET a document), SQS (the bucket's send, the receive and the delete) and an upper
bound for Aurora (the handler holding 0.5 ACU for its whole duration). This machine is x86_64 on shared cores, not
a Graviton Lambda: read the figure as an order of magnitude.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from datetime import datetime

import httpx

from bench.common import local_stack, save_result, sentence, summarise
from bench.request_cost import AURORA_ACU_PER_REQUEST
from infra.cost import PRICES
from shared.core.settings import get_settings
from tests.helpers.documents import pdf

SQS_REQUESTS_PER_DOCUMENT = 3  # S3's send, the event source's receive, its delete


def _function_gb(name: str) -> float:
    from infra.functions import SPECS

    return SPECS[name].memory_mb / 1024


def cost_of_1000_pages(pages_per_document: int, handler_s: list[float], ack_ms: list[float]) -> dict:
    """USD for 1,000 pages: per-page handler seconds and per-document requests, from this run's figures."""
    documents = 1000 / pages_per_document
    per_page_s = sum(handler_s) / (len(handler_s) * pages_per_document)
    ack_s = sum(ack_ms) / len(ack_ms) / 1000
    lines = {
        "documents function": 1000 * per_page_s * _function_gb("documents") * PRICES["lambda_gb_second:arm64"]
        + documents * PRICES["lambda_request"],
        "upload (HTTP API + memory function)": documents
        * (
            PRICES["http_api_request"]
            + PRICES["lambda_request"]
            + ack_s * _function_gb("memory") * PRICES["lambda_gb_second:arm64"]
        ),
        "S3 requests": documents * (PRICES["s3_put_request"] + PRICES["s3_get_request"]),
        "SQS requests": documents * SQS_REQUESTS_PER_DOCUMENT * PRICES["sqs_request"],
        "Aurora (upper bound)": 1000 * per_page_s * AURORA_ACU_PER_REQUEST * PRICES["aurora_acu_hour"] / 3600,
    }
    return {
        "handler_s_per_page": round(per_page_s, 4),
        "usd": {k: round(v, 5) for k, v in lines.items()},
        "total_usd": round(sum(lines.values()), 4),
    }


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


def run(documents: int, pages: int, embedding: str = "hash") -> dict:
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
        with local_stack(embedding, extra_env=True) as (base_url, _settings):
            get_settings.cache_clear()
            from functions.documents.handler import handler

            handler_s: list[float] = []

            def timed(event: dict, context: object) -> dict:
                started = time.perf_counter()
                try:
                    return handler(event, context)
                finally:
                    handler_s.append(time.perf_counter() - started)

            poller = SqsPoller(queues, timed, batch_size=1)  # infra: one record a batch
            with poller, httpx.Client(base_url=base_url, timeout=60) as http:
                _done(http, "bench_warm", _upload(http, "bench_warm", "warm.pdf", _pdf(rng, 1))[2])
                handler_s.clear()  # the warm-up's first invocation builds the services
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
    latency_runs = handler_s[:documents]  # one invocation a document while they went one at a time
    return {
        "embedding": embedding,
        "documents": documents,
        "pages_per_document": pages,
        "pdf_bytes": len(batch[0]),
        "upload_ack": summarise(acks),
        "upload_to_recallable": summarise(lags),
        "pages_per_s": round(total_pages / elapsed, 1),
        "memories_per_s": round(total_memories / elapsed, 1),
        "memories_per_document": round(total_memories / documents, 1),
        "cost_of_1000_pages": cost_of_1000_pages(pages, latency_runs, acks),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--embedding", choices=("hash", "local"), default="hash")
    args = parser.parse_args()
    result = run(args.documents, args.pages, args.embedding)
    save_result("documents.json", result)
    a, lag = result["upload_ack"], result["upload_to_recallable"]
    print(f"{result['documents']} PDFs of {result['pages_per_document']} pages ({result['pdf_bytes']} bytes each), "
          f"load average {result['load_average'][0]:.1f}\n")  # fmt: skip
    print("| measure | p50 ms | p95 ms |\n|---|---|---|")
    print(f"| upload acknowledged | {a['p50_ms']} | {a['p95_ms']} |")
    print(f"| upload → recallable (document completed) | {lag['p50_ms']} | {lag['p95_ms']} |")
    print(f"\npages/s {result['pages_per_s']}, memories/s {result['memories_per_s']} "
          f"({result['memories_per_document']} memories a document)")  # fmt: skip
    cost = result["cost_of_1000_pages"]
    print(
        f"\n1,000 pages in AWS ({cost['handler_s_per_page']} handler s a page here):\n| part | USD |\n|---|---|"
    )
    for part, usd in cost["usd"].items():
        print(f"| {part} | {usd:.5f} |")
    print(f"| **total** | **{cost['total_usd']:.4f}** |")


if __name__ == "__main__":
    main()
