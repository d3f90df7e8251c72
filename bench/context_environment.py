"""What a context-environment execution costs locally: the guest alone, and /execute over HTTP.

    python -m bench.context_environment [--samples 30]

- ``module_load_s`` / ``module_compile_s``: loading the compiled interpreter (from the cache or the bundle's
  precompiled file: what every process start pays) and compiling it from python.wasm (paid once per machine).
- ``guest_bare``: a fresh instance running ``pass``: the floor of any execution, measured in the same run.
- ``executor_cold``: ``WasmExecutor.run`` of ``1+1`` with no state: a fresh guest every time (instance,
  interpreter start, our program). Every execution pays this: no instance is shared (that is the isolation).
- ``executor_with_state``: the same with a 1 000-element list in the state (decode + encode in the guest, the
  host's check).
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
import wasmtime

from bench.common import local_stack, summarise
from shared.domain.context_env import host, interpreter
from shared.domain.context_env.wasm import WasmExecutor, runtime


def timed(fn, samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def bare_guest() -> None:
    rt = runtime()
    config = wasmtime.WasiConfig()
    config.argv = ("python", "-I", "-S", "-c", "pass")
    store = wasmtime.Store(rt.engine)
    store.set_wasi(config)
    store.set_epoch_deadline(1000)
    try:
        start = rt.pre.instantiate(store).exports(store)["_start"]
        assert isinstance(start, wasmtime.Func)
        start(store)
    except wasmtime.ExitTrap:
        pass
    finally:
        store.close()


def run(samples: int) -> dict:
    executor = WasmExecutor()
    started = time.perf_counter()
    interpreter.compile_to(interpreter.locate(), interpreter.cache_dir() / "bench.cwasm", None)
    compile_s = time.perf_counter() - started
    limits = {"seconds": 5}
    seeded = executor.run({"op": "execute", "code": "data = list(range(1000))", "limits": limits})

    def with_state() -> None:
        request = {"op": "execute", "code": "1+1", "state": seeded["state"], "limits": limits}
        host.check(executor.run(request), seeded["state"], limits)

    results = {
        "module_load_s": round(runtime().load_s, 4),
        "module_compile_s": round(compile_s, 2),
        "guest_bare": summarise(timed(bare_guest, samples)),
        "executor_cold": summarise(
            timed(lambda: executor.run({"op": "execute", "code": "1+1", "limits": limits}), samples)
        ),
        "executor_with_state": summarise(timed(with_state, samples)),
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
    results["cold_over_bare_p50"] = round(
        results["executor_cold"]["p50_ms"] / results["guest_bare"]["p50_ms"], 2
    )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=30)
    print(json.dumps(run(parser.parse_args().samples), indent=2))


if __name__ == "__main__":
    main()
