"""What a context-environment execution costs locally: the confined executor alone, and /execute over HTTP.

    python -m bench.context_environment [--samples 30]

- ``executor_cold``: one ``ProcessRunner.run`` of ``1+1`` with no state: a new confined child every time
  (interpreter start with -I -S, module preload, unshare/chroot/setuid where permitted). Every execution pays
  this: there is no warm executor to share (that is the isolation).
- ``executor_with_state``: the same with a 1 000-element list in the state (unpickle + pickle + zlib).
- ``http_execute``: ``POST /v1/context/execute`` of ``1+1`` through uvicorn and Postgres (session lookup, state
  read, executor, compare-and-set write).
- ``http_status``: ``GET /v1/context/status``, the read that never runs the executor: the baseline of the
  same HTTP + database path, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import time

import httpx

from bench.common import local_stack, summarise
from shared.sandbox.runner import ProcessRunner, isolation


def timed(fn, samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def run(samples: int) -> dict:
    runner = ProcessRunner()
    limits = {"seconds": 5}
    seeded = runner.run({"op": "execute", "code": "data = list(range(1000))", "limits": limits})
    results = {
        "isolation": isolation(),
        "executor_cold": summarise(
            timed(lambda: runner.run({"op": "execute", "code": "1+1", "limits": limits}), samples)
        ),
        "executor_with_state": summarise(
            timed(
                lambda: runner.run(
                    {"op": "execute", "code": "1+1", "state": seeded["state"], "limits": limits}
                ),
                samples,
            )
        ),
    }
    with local_stack() as (base_url, _), httpx.Client(base_url=base_url, timeout=30) as http:
        ws = {"X-Workspace-ID": "ws_bench_ctx"}
        sid = http.post("/v1/sessions", json={}, headers=ws).json()["session"]["id"]
        headers = {**ws, "X-Session-ID": sid}
        assert http.post("/v1/context/execute", json={"code": "1+1"}, headers=headers).json()["result"] == "2"
        execute, status = [], []
        for _ in range(samples):  # interleaved, so drift hits both alike
            execute += timed(
                lambda: http.post("/v1/context/execute", json={"code": "1+1"}, headers=headers), 1
            )
            status += timed(lambda: http.get("/v1/context/status", headers=headers), 1)
        results["http_execute"] = summarise(execute)
        results["http_status"] = summarise(status)
    results["execute_over_status_p50"] = round(
        results["http_execute"]["p50_ms"] / results["http_status"]["p50_ms"], 1
    )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=30)
    print(json.dumps(run(parser.parse_args().samples), indent=2))


if __name__ == "__main__":
    main()
