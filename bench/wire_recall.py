"""The recall route's cost on the wire: this tree against another (e.g. the commit before a change), interleaved.

    python -m bench.wire_recall --baseline-ref f44dab6          # 2,000 memories, 300 recalls per server
    python -m bench.wire_recall --baseline-ref HEAD~1 -n 500 --recalls 100 --json

One embedded Postgres is seeded once (hash embeddings); two uvicorn servers run on it, one from this tree and one
from ``git archive <ref>`` in a temporary folder (PYTHONPATH first, so it imports its own ``shared``). Recalls
alternate between them, request by request, so both see the same machine load; the report gives each one's p50
and p95, the ratio of p50s, and the mean response size. Shared cores make absolute figures noisy: read ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import httpx

from bench.common import query_words, sentence, summarise, wait_healthy

ROOT = Path(__file__).resolve().parents[1]


# Child: the app of whichever tree is first on sys.path (PYTHONPATH precedes the editable install).
SERVE = """
import sys, uvicorn
from shared.api.app import create_app
from shared.core.settings import Settings
import shared
print("serving", shared.__file__, flush=True)
settings = Settings(database_url=sys.argv[1], embedding_provider="hash", db_pool_max=4, auth_mode="none")
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", access_log=False)
"""


def _tree(ref: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ml-wire-base-"))
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def _start(tree: Path, dsn: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.Popen([sys.executable, "-c", SERVE, dsn, str(port)], env=env, cwd=tree)


def serialization_us(n_memories: int = 10) -> dict[str, float]:
    """The route's own JSON cost for one recall result, in-process: the old path (FastAPI's jsonable_encoder walk,
    then json.dumps) against this tree's (null keys left out, then json.dumps). Min of 15 runs, microseconds."""
    import timeit
    from datetime import UTC, datetime

    from fastapi.encoders import jsonable_encoder

    from shared.api import wire
    from shared.api.routes.memories import json_bytes, lean

    now = datetime.now(UTC)
    row = dict.fromkeys(
        [
            "user_id",
            "observer_id",
            "subject_id",
            "session_id",
            "subtype",
            "logical_key",
            "source_thread_id",
            "source_memory_id",
            "fact_key",
            "sequence_key",
            "sequence_index",
            "valid_from",
            "valid_to",
            "superseded_by",
            "event_time",
            "deleted_at",
        ]
    )
    row.update(id="mem_0123456789abcdef", workspace_id="ws", tenant_id="_default", context_id="_default",
               content="Alice likes green tea", content_hash="ab" * 32, type="semantic", importance=0.5,
               tags=["a"], metadata={"k": 1}, refinement_metadata={}, pinned=False, status="active",
               embedding_model="hash-384@384", access_count=1, last_accessed_at=now, decay_factor=1.0, revision=1,
               source_message_ids=None, created_at=now, updated_at=now)  # fmt: skip
    memory = dict(wire.memory(row), relevance_score=0.5, boosted_score=0.6, match_signals=["vector"],
                  source_scope="same_workspace", age_days=1.0, freshness_score=0.9)  # fmt: skip
    result = {"memories": [dict(memory) for _ in range(n_memories)], "total_count": n_memories,
              "query_rewritten": None, "trajectory": None, "generation_summary": None, "relation_paths": []}  # fmt: skip

    def old() -> bytes:
        return json.dumps(jsonable_encoder(result), ensure_ascii=False, separators=(",", ":")).encode()

    def new() -> bytes:
        return json_bytes(lean(result))

    timings = {}
    for name, fn in (("baseline_us", old), ("current_us", new)):
        timings[name] = round(min(timeit.repeat(fn, number=100, repeat=15)) / 100 * 1e6, 1)
    timings["ratio"] = round(timings["current_us"] / timings["baseline_us"], 3)
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-ref", required=True, help="git ref of the baseline tree")
    parser.add_argument("-n", type=int, default=2000, help="memories to seed")
    parser.add_argument("--recalls", type=int, default=300, help="timed recalls per server")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from shared.db.migrate import apply_migrations
    from shared.local.postgres import EmbeddedPostgres

    pg = EmbeddedPostgres.start(Path(tempfile.mkdtemp(prefix="ml-wire-")) / "pg", ephemeral=True)
    children: list[subprocess.Popen[bytes]] = []
    try:
        apply_migrations(pg.dsn, embedding_dimensions=384)
        base_tree = _tree(args.baseline_ref)
        urls = {"baseline": "http://127.0.0.1:61811", "current": "http://127.0.0.1:61812"}
        children = [_start(base_tree, pg.dsn, 61811), _start(ROOT, pg.dsn, 61812)]
        for url, child in zip(urls.values(), children, strict=True):
            wait_healthy(url, child, timeout_s=60)
        rng = random.Random(7)
        ws = {"X-Workspace-ID": "ws_wire_bench"}
        with httpx.Client(timeout=60) as http:
            for start in range(0, args.n, 200):
                ops = [{"op": "create", "content": sentence(rng)} for _ in range(min(200, args.n - start))]
                r = http.post(f"{urls['current']}/v1/memories/batch", json={"operations": ops}, headers=ws)
                r.raise_for_status()
            queries = [query_words(rng) for _ in range(args.recalls + 20)]
            samples: dict[str, list[float]] = {name: [] for name in urls}
            sizes: dict[str, list[int]] = {name: [] for name in urls}
            for i, query in enumerate(queries):
                order = list(urls.items()) if i % 2 == 0 else list(reversed(urls.items()))
                for name, url in order:
                    body = {"query": query, "limit": args.limit}
                    started = time.perf_counter()
                    r = http.post(f"{url}/v1/memories/recall", json=body, headers=ws)
                    elapsed = (time.perf_counter() - started) * 1000
                    r.raise_for_status()
                    if i >= 20:  # warm-up left out
                        samples[name].append(elapsed)
                        sizes[name].append(len(r.content))
        report = {name: {**summarise(s), "mean_bytes": round(sum(sizes[name]) / len(sizes[name]))}
                  for name, s in samples.items()}  # fmt: skip
        report["ratio_p50"] = round(report["current"]["p50_ms"] / report["baseline"]["p50_ms"], 3)
        report["ratio_bytes"] = round(report["current"]["mean_bytes"] / report["baseline"]["mean_bytes"], 3)
        report["route_json"] = serialization_us(args.limit)
        report["setup"] = {"memories": args.n, "recalls": args.recalls, "limit": args.limit,
                           "baseline_ref": args.baseline_ref}  # fmt: skip
        if args.json:
            print(json.dumps(report))
        else:
            for name in urls:
                print(f"{name:9} p50 {report[name]['p50_ms']:7.2f} ms  p95 {report[name]['p95_ms']:7.2f} ms  "
                      f"{report[name]['mean_bytes']:6d} B/response")  # fmt: skip
            print(f"current/baseline: p50 ×{report['ratio_p50']}, bytes ×{report['ratio_bytes']}")
            print(f"route JSON per recall (in-process): {report['route_json']}")
    finally:
        for child in children:
            child.terminate()
            child.wait(timeout=10)
        pg.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
