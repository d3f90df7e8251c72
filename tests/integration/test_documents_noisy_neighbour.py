"""One tenant's upload never stalls the service: while tenant B keeps uploading a hostile file (a PDF, HTML or
DOCX that took the old parsers tens of seconds or a gigabyte), ``/health`` and tenant A's reads answer within a
second each and the API process (the app runs in this one, uvicorn in a thread) grows by less than 256 MB. The
parse runs in a child process under limits (shared/domain/documents/isolated.py); over them, a 422
``document_parse_budget_exceeded`` that stores nothing, or a job that fails with that code."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

import httpx
import pytest

from tests.helpers.documents import (
    inflating_pdf,
    slow_html,
    slow_pdf,
    upload,
    wait_document,
    wait_job,
    wide_docx,
)
from tests.helpers.http import h

ATTACK_S = 4.0  # how long tenant B keeps uploading; on the old code the first upload alone stalls 26-109 s
ANSWER_S = 1.0
GROWTH_MB = 256


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def _count(http: httpx.Client, ws: str) -> tuple[int, int]:
    docs = http.get("/v1/documents", headers=h(ws)).json()["total"]
    jobs = len(http.get("/v1/documents/jobs", headers=h(ws)).json()["jobs"])
    return docs, jobs


@pytest.mark.parametrize(
    ("filename", "build"),
    [("report.pdf", slow_pdf), ("page.html", slow_html), ("minutes.docx", wide_docx)],
)
def test_a_hostile_upload_does_not_stall_other_tenants(
    base_url: str, http: httpx.Client, ws: str, other_ws: str, filename: str, build: Callable[[], bytes]
) -> None:
    data = build()
    assert len(data) < 100_000  # small bytes: the cost is all in the reading
    http.post("/v1/memories", json={"content": "tenant A's note"}, headers=h(ws)).raise_for_status()
    answers: list[int] = []
    stop = threading.Event()

    def attack() -> None:  # tenant B, uploading the same file again and again
        with httpx.Client(base_url=base_url, timeout=300) as b:
            while not stop.is_set():
                answers.append(upload(b, other_ws, filename, data).status_code)

    before = _rss_mb()
    peak = before
    attacker = threading.Thread(target=attack, name="tenant-b", daemon=True)
    attacker.start()
    slow: list[str] = []
    probes = 0
    started = time.monotonic()
    try:
        with httpx.Client(base_url=base_url, timeout=ANSWER_S) as a:
            while time.monotonic() - started < ATTACK_S:
                for path in ("/health", "/v1/memories"):
                    t0 = time.monotonic()
                    try:
                        r = a.get(path, headers=h(ws))
                        took = time.monotonic() - t0
                        if r.status_code != 200 or took > ANSWER_S:
                            slow.append(f"{path}: {r.status_code} in {took:.2f} s")
                    except httpx.TimeoutException:
                        slow.append(f"{path}: no answer within {ANSWER_S} s")
                    probes += 1
                peak = max(peak, _rss_mb())
                time.sleep(0.1)
    finally:
        stop.set()
    attacker.join(timeout=60)
    assert not slow, f"while tenant B uploaded {filename}: {slow}"
    assert probes >= 10
    assert peak - before < GROWTH_MB, f"the API process grew by {peak - before:.0f} MB"
    # Each upload was answered (refused or taken), never a 5xx.
    assert answers and all(code < 500 for code in answers), answers


def test_a_page_over_the_work_cap_is_refused_and_stores_nothing(http: httpx.Client, ws: str) -> None:
    r = upload(http, ws, "report.pdf", slow_pdf(), "application/pdf")
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "document_parse_budget_exceeded" and detail["page_no"] == 0
    assert _count(http, ws) == (0, 0)


def test_a_parse_over_its_time_is_killed_422_and_stores_nothing(
    http: httpx.Client, ws: str, services, monkeypatch
) -> None:
    # The per-page cap lifted: only the child's wall clock stands between this PDF (100 s of work) and the API.
    parser = services.documents.pipeline.parser
    monkeypatch.setattr(parser, "limits", dataclasses.replace(parser.limits, max_pdf_page_tokens=10**8))
    monkeypatch.setattr(services.settings, "document_parse_seconds", 2.0)
    t0 = time.monotonic()
    r = upload(http, ws, "report.pdf", slow_pdf(), "application/pdf")
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "document_parse_budget_exceeded" and detail["limit_seconds"] == 2.0
    assert time.monotonic() - t0 < 15  # killed at its budget, not run to the end
    assert _count(http, ws) == (0, 0)


def test_a_parse_over_its_memory_is_refused_422(http: httpx.Client, ws: str, services, monkeypatch) -> None:
    # 60 KB that inflate to 60 MiB inside pypdf: within its own caps, over a 100 MB address space.
    monkeypatch.setattr(services.documents.pipeline.parser, "memory_mb", 100)
    r = upload(http, ws, "drawing.pdf", inflating_pdf(), "application/pdf")
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "document_parse_budget_exceeded" and detail["limit_memory_mb"] == 100
    assert _count(http, ws) == (0, 0)


def test_a_job_over_its_parse_budget_fails_with_the_code(
    http: httpx.Client, ws: str, services, monkeypatch
) -> None:
    # Accepted at upload (its own budget); the job's parse then has no time at all.
    monkeypatch.setattr(services.settings, "document_job_parse_seconds", 0.001)
    r = upload(http, ws, "notes.md", b"# Notes\n\nThe kettle is in the left cupboard.\n", "text/markdown")
    assert r.status_code == 202, r.text
    job = wait_job(http, ws, r.json()["job"]["id"])
    assert job["status"] == "failed"
    assert (
        job["errors"][-1]["code"] == "document_parse_budget_exceeded" and job["errors"][-1]["final"] is True
    )
    doc = wait_document(http, ws, r.json()["document"]["id"])
    assert doc["status"] == "failed" and "longer than" in doc["error_message"]
