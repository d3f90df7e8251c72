"""One tenant's flood against another tenant's recall: p50 alone, then while the first floods.

    python -m bench.tenant_flood [--samples 100] [--flooders 8]

API keys on, the real limits (per-key work units, sandbox caps). Tenant B recalls sequentially, alone (the
baseline, same run), then while tenant A's ``--flooders`` clients send recalls and imports as fast as they can.
Reports B's p50/p95 both ways and the ratio, and how A's requests ended (served, 429, errors). B's recalls
are paced to stay inside its own limit; A's are not paced at all.
"""

from __future__ import annotations

import argparse
import json
import threading
import time

import httpx

from bench.common import local_stack, save_result, summarise

ADMIN = "bench-admin-key-0123456789abcdef"


def key(base_url: str, ws: str) -> str:
    made = httpx.post(
        f"{base_url}/v1/admin/api-keys",
        json={"workspaces": [ws]},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    made.raise_for_status()
    return made.json()["key"]


def recall_p50(http: httpx.Client, samples: int) -> dict:
    """B's recalls, paced at 10 a second: 30 work units a second, inside B's own limit (50)."""
    out = []
    for i in range(samples):
        started = time.perf_counter()
        http.post("/v1/memories/recall", json={"query": f"note {i % 20} about the deploy"}).raise_for_status()
        out.append((time.perf_counter() - started) * 1000)
        time.sleep(max(0.0, 0.1 - (time.perf_counter() - started)))
    return summarise(out)


def run(samples: int, flooders: int) -> dict:
    with local_stack(
        auth_mode="api_key",
        admin_key=ADMIN,
        context_cursor_secret="c" * 32,
        rate_limit_per_s=50,
        rate_limit_burst=100,
    ) as (base_url, _):
        keys = {name: key(base_url, f"ws_{name}") for name in ("a", "b")}
        clients = {
            name: httpx.Client(base_url=base_url, timeout=30, headers={"Authorization": f"Bearer {k}"})
            for name, k in keys.items()
        }
        for name, client in clients.items():
            batch = [{"op": "create", "content": f"note {i} about the deploy of {name}"} for i in range(200)]
            client.post("/v1/memories/batch", json={"operations": batch}).raise_for_status()
        alone = recall_p50(clients["b"], samples)
        stop = threading.Event()
        outcomes: dict[str, int] = {}
        lock = threading.Lock()

        def flood(k: int) -> None:
            with httpx.Client(base_url=base_url, timeout=30, headers=clients["a"].headers) as c:
                i = k
                while not stop.is_set():
                    i += 1
                    if i % 5:
                        r = c.post("/v1/memories/recall", json={"query": f"note {i % 50}"})
                    else:
                        body = {"data": {"memories": [{"content": f"flood {i} {j}"} for j in range(200)]}}
                        r = c.post("/v1/workspaces/ws_a/import", json=body)
                    with lock:
                        outcomes[str(r.status_code)] = outcomes.get(str(r.status_code), 0) + 1

        threads = [threading.Thread(target=flood, args=(k,)) for k in range(flooders)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        flooded = recall_p50(clients["b"], samples)
        stop.set()
        for t in threads:
            t.join()
        for client in clients.values():
            client.close()
    return {
        "b_alone": alone,
        "b_while_a_floods": flooded,
        "p50_ratio": round(flooded["p50_ms"] / alone["p50_ms"], 2),
        "p95_ratio": round(flooded["p95_ms"] / alone["p95_ms"], 2),
        "a_outcomes": outcomes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--flooders", type=int, default=8)
    args = parser.parse_args()
    result = run(args.samples, args.flooders)
    save_result("tenant_flood", result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
