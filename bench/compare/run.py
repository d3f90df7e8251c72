"""Drive our stack and the reference memorylayer-server 0.2.0 through HTTP with the same workload.

    .venv/bin/python -m bench.compare [--sizes 1000,10000] [--samples 200] [--seconds 10]

Both servers run at once, each in its own process, with hash embeddings (384-d); they take turns, so only one
is under load at a time, and each measured phase starts once both are idle. One workspace per server grows
through the sizes. For each size N and each server:

1. bulk-load up to N - samples memories the fastest way each server has (its POST /v1/memories/batch: 1000
   operations a request for ours, 100 for the reference so its time box is checked often). The reference's
   load is time-boxed (``--ref-load-budget``, 15 min a size): when it runs out, loading stops and the row
   says what was reached. Above ``--ref-unchecked-load-above`` (10,000) the reference is stopped and its
   load goes straight into its data directory, in-process with its own code but without the near-duplicate
   search and the post-store enrichment, a transaction per 1000 memories (``ref_bulk_load.py`` says why its
   API gets slow and what the direct load leaves out); then it is started again for the measurements (always
   through ``ref_serve.py``: its daily jobs do not run at startup, so they do not share the measurements);
2. ``samples`` sequential single remembers (POST /v1/memories): remember p50/p95;
3. ``samples`` sequential recalls (limit 10, 3 words from the content's vocabulary): recall p50/p95;
4. 8 concurrent clients recalling for ``seconds``: requests/s.

Two workloads (``--workloads``), each in its own workspace per server: ``zipf`` (``bench.common.sentence``:
natural-text-like, a few words are everywhere) and ``uniform`` (``bench.common.uniform_sentence``: 12 words
drawn uniformly from 6,000 rare pseudo-words, 3-word queries the same way). The Zipf queries flatter a ranker
whose text arm is cheap on rare words; on the uniform ones every query word is rare.

The content (``bench.common.sentence``) and every query come from the same seeds for both servers. Queries are
drawn afresh for every request (about a million 3-word combinations), so the reference's 300 s recall cache
rarely hits. Prints a markdown table (ours/theirs ratios) and writes bench/results/compare.json.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.common import WORKLOADS as GENERATORS
from bench.common import save_result, summarise, wait_vectors_indexed
from bench.compare.servers import (
    Server,
    load_reference_directly,
    our_server,
    reference_server,
    scratch_dir,
    wait_idle,
)

SEED = 20261129
CLIENTS = 8
BATCH = {"ours": 1000, "reference": 100}


class RestartableReference:
    """The reference server, restartable on the same data (stopped while it is loaded directly)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self._running: ExitStack | None = None
        self.server: Server | None = None

    def start(self) -> Server:
        self.stop()
        self._running = ExitStack()
        self.server = self._running.enter_context(reference_server(self.workdir))
        return self.server

    def stop(self) -> None:
        if self._running is not None:
            self._running.close()
            self._running = None


@dataclass
class Target:
    server: Server
    http: httpx.Client
    restartable: RestartableReference | None = None
    loaded: int = 0
    stopped_loading: bool = False
    workload: str = "zipf"
    stream: Iterator[str] = field(default_factory=lambda: content_stream(SEED))
    results: dict[str, Any] = field(default_factory=dict)


WORKLOADS = tuple(GENERATORS)  # zipf, uniform


def content_stream(seed: int, workload: str = "zipf") -> Iterator[str]:
    rng = random.Random(seed)
    make = GENERATORS[workload][0]
    while True:
        yield make(rng)


def query(rng: random.Random, workload: str = "zipf") -> str:
    """Three words from the same distribution as the content (bench.common)."""
    return GENERATORS[workload][1](rng)


def timed(fn: Callable[[int], httpx.Response], n: int) -> tuple[list[float], int]:
    out, errors = [], 0
    for i in range(n):
        started = time.perf_counter()
        r = fn(i)
        out.append((time.perf_counter() - started) * 1000)
        errors += r.status_code >= 300
    return out, errors


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def bulk_load(t: Target, contents: list[str], budget_s: float) -> dict[str, Any]:
    """Load ``contents`` through the batch endpoint; the reference stops when its budget runs out."""
    batch = BATCH[t.server.name]
    started = time.perf_counter()
    deadline = time.monotonic() + budget_s
    done = 0
    for start in range(0, len(contents), batch):
        if t.server.name == "reference" and time.monotonic() > deadline:
            t.stopped_loading = True
            break
        ops = [{"op": "create", "content": c} for c in contents[start : start + batch]]
        r = t.http.post("/v1/memories/batch", json={"operations": ops}, timeout=3600)
        r.raise_for_status()
        body = r.json()
        if body["failed"]:
            raise RuntimeError(f"{t.server.name}: {body['failed']} failed creates: {body['results'][:3]}")
        done += len(ops)
    elapsed = time.perf_counter() - started
    t.loaded += done
    return {
        "requested": len(contents),
        "loaded": done,
        "seconds": round(elapsed, 1),
        "per_s": round(done / elapsed, 1) if elapsed else None,
        "time_boxed": t.stopped_loading,
    }


def concurrent_recall(
    base_url: str, ws: str, seed: int, seconds: float, workload: str = "zipf"
) -> dict[str, Any]:
    done, errors, empty = [0] * CLIENTS, [0] * CLIENTS, [0] * CLIENTS
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    stop_at = [0.0]
    barrier = threading.Barrier(
        CLIENTS + 1, action=lambda: stop_at.__setitem__(0, time.monotonic() + seconds)
    )

    def worker(k: int) -> None:
        rng = random.Random(seed * 100 + k)
        with httpx.Client(base_url=base_url, timeout=120, headers={"X-Workspace-ID": ws}) as c:
            c.get("/health")  # open the connection before the clock starts
            barrier.wait()
            while time.monotonic() < stop_at[0]:
                started = time.perf_counter()
                r = c.post("/v1/memories/recall", json={"query": query(rng, workload), "limit": 10})
                latencies[k].append((time.perf_counter() - started) * 1000)
                if r.status_code == 200:
                    done[k] += 1
                    empty[k] += not r.json()["memories"]
                else:
                    errors[k] += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(CLIENTS)]
    for th in threads:
        th.start()
    barrier.wait()
    started = stop_at[0] - seconds
    for th in threads:
        th.join()
    elapsed = time.monotonic() - started
    return {
        "requests_per_s": round(sum(done) / elapsed, 1),
        "requests": sum(done),
        "errors": sum(errors),
        "empty_results": sum(empty),
        "elapsed_s": round(elapsed, 1),
        "latency": summarise([x for lat in latencies for x in lat]) if any(latencies) else None,
        "clients": CLIENTS,
    }


def direct_load(t: Target, contents: list[str], budget_s: float, idle_pids: list[int]) -> dict[str, Any]:
    """Stop the reference, load ``contents`` into its data directory with its own code in-process
    (``ref_bulk_load.py``), start it normally on the same data and point ``t`` and ``idle_pids`` at it."""
    assert t.restartable is not None and t.server.name == "reference"
    started = time.perf_counter()
    old_pid = t.server.process.pid
    t.restartable.stop()
    summary = load_reference_directly(
        t.restartable.workdir, t.http.headers["X-Workspace-ID"], contents, max_seconds=budget_s
    )
    server = t.restartable.start()
    idle_pids[idle_pids.index(old_pid)] = server.process.pid
    t.server = server
    t.http.base_url = httpx.URL(server.base_url)
    t.loaded += summary["loaded"]
    if summary["time_boxed"]:
        t.stopped_loading = True
    r = t.http.get("/v1/memories", params={"limit": 1})
    return {
        "requested": len(contents),
        "loaded": summary["loaded"],
        "seconds": summary["seconds"],
        "per_s": summary["per_s"],
        "time_boxed": summary["time_boxed"],
        "direct_load": True,
        "wall_s_with_restart": round(time.perf_counter() - started, 1),
        "rows_per_transaction": summary["chunk"],
        "workspace_memories": summary["memories"],
        "restarted_healthy": r.status_code == 200 and bool(r.json()["memories"]),
    }


def measure(
    t: Target,
    size: int,
    samples: int,
    seconds: float,
    budget_s: float,
    idle_pids: list[int],
    unchecked_above: int,
) -> None:
    name = t.server.name
    label = f"{name}/{t.workload}"
    rng_seed = SEED + size
    stream = t.stream  # the same content for both servers: one stream each, same seed, consumed identically
    bulk_target = max(0, size - samples - t.loaded)
    row: dict[str, Any] = {"loadavg_start": loadavg()}
    unchecked = name == "reference" and size > unchecked_above and bulk_target > 0
    print(
        f"[compare] {label} @ {size:,}: bulk-loading {bulk_target:,}{' (direct, unchecked)' * unchecked} …",
        flush=True,
    )
    contents = [next(stream) for _ in range(bulk_target)]
    if unchecked:
        row["bulk"] = direct_load(t, contents, budget_s, idle_pids)
    else:
        row["bulk"] = bulk_load(t, contents, budget_s)
    row["bulk"]["dedup_search_skipped"] = unchecked
    if t.stopped_loading:  # skip the contents that were never sent, so later rows stay aligned
        for _ in range(bulk_target - row["bulk"]["loaded"]):
            next(stream)
    print(f"[compare] {label} @ {size:,}: bulk {row['bulk']}", flush=True)
    if name == "ours":
        # Bulk rows join the HNSW graph after they are acknowledged; that work runs in Postgres, which
        # wait_idle (our server's own CPU) does not see. Measure the steady state, as the reference's is.
        row["bulk"]["index_wait_s"] = wait_vectors_indexed(
            t.http, t.http.headers["X-Workspace-ID"], max_wait_s=600
        )
    row["idle_wait_s"] = [wait_idle(idle_pids)]

    remembers = [next(stream) for _ in range(samples)]
    lat, errors = timed(lambda i: t.http.post("/v1/memories", json={"content": remembers[i]}), samples)
    t.loaded += samples - errors
    row["remember"] = {**summarise(lat), "errors": errors}
    row["memories_at_measurement"] = t.loaded
    row["idle_wait_s"].append(wait_idle(idle_pids))

    qrng = random.Random(rng_seed)
    for _ in range(5):  # warm-up, not measured
        t.http.post("/v1/memories/recall", json={"query": query(qrng, t.workload), "limit": 10})
    queries = [query(qrng, t.workload) for _ in range(samples)]
    empty = [0]

    def recall(i: int) -> httpx.Response:
        r = t.http.post("/v1/memories/recall", json={"query": queries[i], "limit": 10})
        empty[0] += r.status_code == 200 and not r.json()["memories"]
        return r

    lat, errors = timed(recall, samples)
    row["recall"] = {**summarise(lat), "errors": errors, "empty_results": empty[0]}
    row["idle_wait_s"].append(wait_idle(idle_pids))
    row["recall_8_clients"] = concurrent_recall(
        t.server.base_url, t.http.headers["X-Workspace-ID"], rng_seed, seconds, t.workload
    )
    row["loadavg_end"] = loadavg()
    print(
        f"[compare] {label} @ {size:,}: remember p50 {row['remember']['p50_ms']} ms, recall p50 "
        f"{row['recall']['p50_ms']} ms, 8 clients {row['recall_8_clients']['requests_per_s']} req/s",
        flush=True,
    )
    t.results[str(size)] = row


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def run(
    sizes: list[int],
    samples: int,
    seconds: float,
    budget_s: float,
    unchecked_above: int,
    workloads: tuple[str, ...] = WORKLOADS,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "config": {
            "sizes": sizes,
            "samples": samples,
            "seconds": seconds,
            "clients": CLIENTS,
            "seed": SEED,
            "workloads": list(workloads),
            "embedding_provider": "hash (384-d) on both",
            "ref_load_budget_s": budget_s,
            "ref_load_unchecked_above": unchecked_above,
            "batch_ops_per_request": BATCH,
            "cpus": os.cpu_count(),
            "machine": platform.platform(),
            "loadavg_start": loadavg(),
        }
    }
    workdir = scratch_dir()
    with ExitStack() as stack:
        ours = stack.enter_context(our_server(workdir))
        restartable = RestartableReference(workdir)
        stack.callback(restartable.stop)
        ref = restartable.start()
        out["config"]["servers"] = {s.name: {"base_url": s.base_url, **s.info} for s in (ours, ref)}
        pids = [ours.process.pid, ref.process.pid]
        targets = []
        for workload in workloads:
            # The Zipf workload keeps the workspace name it always had (results stay comparable).
            ws = "bench_compare" if workload == "zipf" else f"bench_compare_{workload}"
            for s in (ours, ref):
                http = stack.enter_context(
                    httpx.Client(base_url=s.base_url, timeout=600, headers={"X-Workspace-ID": ws})
                )
                targets.append(
                    Target(
                        s,
                        http,
                        restartable if s is ref else None,
                        workload=workload,
                        stream=content_stream(SEED, workload),
                    )
                )
        for size in sizes:
            for t in targets:
                measure(t, size, samples, seconds, budget_s, pids, unchecked_above)
                # A direct load restarts the reference: its other workload's target follows it.
                for other in targets:
                    if other is not t and t.restartable is not None and other.restartable is t.restartable:
                        other.server, other.http.base_url = t.server, t.http.base_url
        for t in targets:
            out[t.server.name if t.workload == "zipf" else f"{t.server.name}/{t.workload}"] = t.results
        out["config"]["logs"] = {s.name: str(s.log_path) for s in (ours, ref)}
        out["config"]["logs"]["reference_direct_load"] = str(workdir / "reference-load.log")
    out["config"]["loadavg_end"] = loadavg()
    out["ratios"] = {}
    for workload, size in ((w, n) for w in workloads for n in sizes):
        suffix = "" if workload == "zipf" else f"/{workload}"
        o, r = out[f"ours{suffix}"][str(size)], out[f"reference{suffix}"][str(size)]
        out["ratios"][f"{size}{suffix}"] = {
            "remember_p50": ratio(o["remember"]["p50_ms"], r["remember"]["p50_ms"]),
            "recall_p50": ratio(o["recall"]["p50_ms"], r["recall"]["p50_ms"]),
            "recall_8_clients_throughput": ratio(
                o["recall_8_clients"]["requests_per_s"], r["recall_8_clients"]["requests_per_s"]
            ),
        }
    return out


def table(res: dict[str, Any]) -> str:
    cfg = res["config"]
    lines = [
        f"memorylayer-server {cfg['servers']['reference'].get('version')} (SQLite + sqlite-vec) vs ours "
        f"(Postgres + pgvector), hash embeddings, {cfg['samples']} samples, {cfg['clients']} clients × "
        f"{cfg['seconds']:g} s, {cfg['cpus']} CPUs; load average at start {cfg['loadavg_start']}, "
        f"at end {cfg['loadavg_end']}",
        "",
        "| memories | server | bulk load | remember p50 / p95 ms | recall p50 / p95 ms "
        "| 8-client recall req/s | load avg (1/5/15 min) |",
        "|---|---|---|---|---|---|---|",
    ]
    for suffix, size in (
        ("" if w == "zipf" else f"/{w}", n) for w in cfg.get("workloads", ["zipf"]) for n in cfg["sizes"]
    ):
        for name in (f"ours{suffix}", f"reference{suffix}"):
            r = res[name][str(size)]
            b = r["bulk"]
            bulk = f"{b['loaded']:,} in {b['seconds']} s ({b['per_s']}/s)"
            if b["time_boxed"]:
                bulk += f" **time-boxed: {b['loaded']:,} of {b['requested']:,}**"
            if b.get("direct_load"):
                bulk += " (direct into its SQLite with its own code, without dedup search and enrichment)"
            mem = (
                f"{size:,}"
                if r["memories_at_measurement"] == size
                else f"{size:,} (reached {r['memories_at_measurement']:,})"
            )
            c = r["recall_8_clients"]
            errs = r["remember"]["errors"] + r["recall"]["errors"] + c["errors"]
            lines.append(
                f"| {mem} | {name} | {bulk} | {r['remember']['p50_ms']} / {r['remember']['p95_ms']} | "
                f"{r['recall']['p50_ms']} / {r['recall']['p95_ms']} | {c['requests_per_s']}"
                f"{f' ({errs} errors)' if errs else ''} | {r['loadavg_start']} |"
            )
        q = res["ratios"][f"{size}{suffix}"]
        lines.append(
            f"| {size:,} | **ours/theirs{suffix}** | | **{q['remember_p50']}×** | **{q['recall_p50']}×** | "
            f"**{q['recall_8_clients_throughput']}×** | |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--sizes", default="1000,10000", help="comma-separated; 50000 is optional (slow reference)"
    )
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--ref-load-budget", type=float, default=900.0, help="seconds per size for its bulk load"
    )
    parser.add_argument(
        "--ref-unchecked-load-above",
        type=int,
        default=10_000,
        help="sizes above this load the reference directly into its data directory (see above)",
    )
    parser.add_argument(
        "--workloads", default=",".join(WORKLOADS), help="comma-separated, of: " + ", ".join(WORKLOADS)
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda signum, frame: (_ for _ in ()).throw(KeyboardInterrupt()))
    sizes = sorted(int(s) for s in args.sizes.split(","))
    workloads = tuple(w for w in args.workloads.split(",") if w in WORKLOADS)
    res = run(
        sizes, args.samples, args.seconds, args.ref_load_budget, args.ref_unchecked_load_above, workloads
    )
    saved = save_result("compare.json", res)
    print()
    print(table(res))
    print(f"\nJSON: {saved}")


if __name__ == "__main__":
    main()
