"""Work per request is capped: an import, a working-memory write, each refusal a 413 that writes nothing; and
the per-key limiter charges expensive routes by their work."""

from __future__ import annotations

import httpx

from shared.api.app import create_app
from shared.local.server import serve_in_thread
from tests.helpers.http import create, h
from tests.secured import bearer, new_key, secured_settings, windows_stand_still


def test_an_import_over_the_cap_is_refused_whole(http, ws, services, monkeypatch):
    monkeypatch.setattr(services.memories.settings, "max_import_memories", 5)
    body = {"data": {"memories": [{"content": f"fact number {i}"} for i in range(6)]}}
    refused = http.post(f"/v1/workspaces/{ws}/import", json=body, headers=h(ws))
    assert refused.status_code == 413 and refused.json()["detail"]["code"] == "too_many_memories"
    assert refused.json()["detail"]["limit"] == 5
    assert http.get("/v1/memories", headers=h(ws)).json()["memories"] == []
    body["data"]["memories"].pop()
    assert http.post(f"/v1/workspaces/{ws}/import", json=body, headers=h(ws)).json()["imported"] == 5


def test_working_memory_items_are_capped_per_request(http, ws, services, monkeypatch):
    monkeypatch.setattr(services.sessions.settings, "max_working_memory_items", 10)
    sid = create(http, ws)["id"]
    items = {f"k{i}": i for i in range(11)}
    refused = http.post(f"/v1/sessions/{sid}/memory", json={"items": items}, headers=h(ws))
    assert refused.status_code == 413 and refused.json()["detail"]["code"] == "too_many_items"
    listed = http.get(f"/v1/sessions/{sid}/memory", headers=h(ws)).json()
    assert "k0" not in str(listed), listed  # nothing of the refused request was written
    too_many = http.post("/v1/sessions", json={"working_memory": items}, headers=h(ws))
    assert too_many.status_code == 413


def test_the_limiter_charges_recall_by_its_work(settings, services, ws):
    # A burst of 9 units per 900 s window: 9 reads, or 3 recalls (3 units each).
    app = create_app(secured_settings(settings, rate_limit_per_s=0.01, rate_limit_burst=9), services=services)
    windows_stand_still(app)  # one 900 s window for the whole test
    with serve_in_thread(app) as url:
        key = new_key(url, ws)
        recalls = [
            httpx.post(f"{url}/v1/memories/recall", json={"query": "q"}, headers={**bearer(key), **h(ws)})
            for _ in range(4)
        ]
        assert [r.status_code for r in recalls] == [200, 200, 200, 429], [r.text for r in recalls]
        other = new_key(url, ws)
        reads = [httpx.get(f"{url}/v1/memories", headers={**bearer(other), **h(ws)}) for _ in range(10)]
        assert [r.status_code for r in reads] == [200] * 9 + [429]


def test_the_limiter_charges_a_document_upload_by_its_size(settings, services, ws):
    # A burst of 20 units: an upload costs 5 plus 1 per 64 KiB, so one 600 KiB file (14) leaves no room for a
    # second, where small files (5 each) go through four times.
    app = create_app(
        secured_settings(settings, rate_limit_per_s=0.01, rate_limit_burst=20), services=services
    )
    windows_stand_still(app)
    big = b"".join(b"Paragraph %d of the big report.\n\n" % i for i in range(20_000))[: 600 * 1024]
    with serve_in_thread(app) as url:

        def send(key: str, name: str, data: bytes) -> int:
            files = {"file": (name, data, "text/plain")}
            return httpx.post(
                f"{url}/v1/documents", files=files, headers={**bearer(key), **h(ws)}, timeout=60
            ).status_code

        key = new_key(url, ws)
        assert [send(key, "big.txt", big), send(key, "big2.txt", big + b"x")] == [202, 429]
        other = new_key(url, ws)
        small = [send(other, f"n{i}.txt", b"note %d" % i) for i in range(5)]
        assert small == [202, 202, 202, 202, 429]
