"""A bounded loopback load test: 8 clients, a mixed workload, for ML_LOAD_SECONDS (default 60).

It asserts correctness under load — zero errors and every write readable afterwards — not speed.
"""

from __future__ import annotations

import os
import random
import threading
import time

import httpx
import pytest

# Minutes of generated traffic: `make test` (and CI) runs it, `make test-fast` skips it.
pytestmark = pytest.mark.slow


def test_eight_clients_mixed_workload_zero_errors(base_url, ws):
    seconds = float(os.environ.get("ML_LOAD_SECONDS", "60"))
    errors: list[str] = []
    written: list[str] = []
    counts = [0] * 8
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def client(k: int) -> None:
        rng = random.Random(k)
        mine: list[str] = []
        with httpx.Client(base_url=base_url, timeout=30, headers={"X-Workspace-ID": ws}) as c:
            while time.monotonic() < stop_at:
                roll = rng.random()
                if roll < 0.3 or not mine:
                    r = c.post(
                        "/v1/memories",
                        json={
                            "content": f"client {k} fact {rng.random()} about topic {rng.randrange(50)}",
                            "tags": [f"c{k}"],
                        },
                    )
                    if r.status_code == 201:
                        mine.append(r.json()["memory"]["id"])
                elif roll < 0.8:
                    r = c.post("/v1/memories/recall", json={"query": f"fact about topic {rng.randrange(50)}"})
                elif roll < 0.9:
                    r = c.get(f"/v1/memories/{rng.choice(mine)}")
                else:
                    r = c.get("/v1/memories", params={"tag": f"c{k}", "limit": 20})
                counts[k] += 1
                if r.status_code >= 300:
                    with lock:
                        errors.append(
                            f"{r.request.method} {r.request.url.path} -> {r.status_code} {r.text[:200]}"
                        )
        with lock:
            written.extend(mine)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [], errors[:5]
    assert sum(counts) > 8 * seconds  # a sanity floor (one request per client-second), not a speed target
    with httpx.Client(base_url=base_url, headers={"X-Workspace-ID": ws}) as c:
        if len(written) <= 1000:
            listed = c.get("/v1/memories", params={"limit": 1000}).json()["memories"]
            assert set(written) <= {m["id"] for m in listed}
        for memory_id in random.Random(0).sample(written, min(50, len(written))):
            assert c.get(f"/v1/memories/{memory_id}").status_code == 200
    print(f"load: {sum(counts)} requests in {seconds:.0f} s from 8 clients, 0 errors, {len(written)} writes")
