"""Threads over the whole local stack (tests/integration/conftest.py ``api``): a thread, its messages, the
extraction job they start, waited for by polling its status."""

from __future__ import annotations

import time
from typing import Any

import httpx


def new_thread(api: httpx.Client, **fields: Any) -> str:
    r = api.post("/v1/threads", json={"user_id": "dana", **fields})
    assert r.status_code == 201, r.text
    return r.json()["thread"]["id"]


def append(
    api: httpx.Client, thread_id: str, *messages: tuple[str, str], ids: list[str] | None = None
) -> dict:
    body = {
        "messages": [
            {"role": role, "content": text, **({"id": ids[i]} if ids else {})}
            for i, (role, text) in enumerate(messages)
        ]
    }
    r = api.post(f"/v1/threads/{thread_id}/messages", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def wait_job(api: httpx.Client, job_id: str, status: str = "done", timeout_s: float = 20) -> dict:
    """The job once it reaches ``status``; fails after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    job: dict = {}
    while time.monotonic() < deadline:
        job = api.get(f"/v1/jobs/{job_id}").json()
        if job["status"] == status:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not reach {status}: {job}")


def recall(api: httpx.Client, query: str, **fields: Any) -> list[dict]:
    """The recalled memories (``api`` carries its workspace header)."""
    return api.post("/v1/memories/recall", json={"query": query, **fields}).json()["memories"]
