"""The requests most API tests start with, against the app over HTTP: each asserts its status, returns the body."""

from __future__ import annotations

from typing import Any

import httpx


def h(ws: str, **extra: str) -> dict[str, str]:
    """The workspace header (and any ``extra`` ones)."""
    return {"X-Workspace-ID": ws, **extra}


def create(http: httpx.Client, ws: str, **body: Any) -> dict:
    """A new session in ``ws``."""
    response = http.post("/v1/sessions", json=body, headers=h(ws))
    assert response.status_code == 201, response.text
    return response.json()["session"]


def remember(http: httpx.Client, ws: str, content: str, **fields: Any) -> dict:
    """A stored memory, as the API returns it."""
    r = http.post("/v1/memories", json={"content": content, **fields}, headers=h(ws))
    assert r.status_code == 201, r.text
    return r.json()["memory"]


def recall(http: httpx.Client, ws: str, query: str, **fields: Any) -> dict:
    """The recall answer for ``query`` in ``ws``."""
    r = http.post("/v1/memories/recall", json={"query": query, **fields}, headers=h(ws))
    assert r.status_code == 200, r.text
    return r.json()
