"""The framework integrations speak to the API through the Python SDK (its retries, errors and auth), never
through an HTTP client of their own."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "client"
INTEGRATIONS = ["langchain", "langgraph", "llamaindex", "mcp", "openai-agents"]
RAW_HTTP = re.compile(r"httpx\.(Async)?Client\(|httpx\.(get|post|put|patch|delete|request|stream)\(")


def test_no_integration_opens_its_own_http_client() -> None:
    sources = [p for name in INTEGRATIONS for p in (ROOT / f"memorylayer-{name}" / "src").rglob("*.py")]
    assert len(sources) > len(INTEGRATIONS)  # the packages are where this test looks
    raw = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sources
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if RAW_HTTP.search(line)
    ]
    assert raw == []
