"""Export format 2 at scale: a workspace of N memories exported and imported over real HTTP, beside the bare SQL
of the same rows in the same run.

    python -m bench.transfer [--sizes 10000,100000]

One throwaway stack (``bench.common.local_stack``: embedded Postgres, migrations, the app under uvicorn in this
process, connected as the superuser: row-level security is not in the figures), ``hash`` embeddings. Each size gets a workspace loaded through the batch API (``bench.common``
sentences, 1000 a request): 1 memory in 50 carries a ``knowledge_work`` profile (entities, relations, evidence),
1 in 20 is edited once (a revision), 1 in 100 is associated with its neighbour, 1 in 200 is soft-deleted.

Measured, each in the same run as its floor:

- export: ``GET /v1/workspaces/{id}/export`` streamed to a file; floor: ``COPY (SELECT to_jsonb(t) - dropped
  columns ...) TO STDOUT`` of every exported table's rows of the workspace through psycopg (the database making
  the same JSON rows, no HTTP, no Python per row).
- import into a fresh workspace (``POST .../import``, NDJSON), twice: while the source still holds its ids (they
  are remapped) and, after deleting the source, keeping them (a move to another deployment); floor: the same
  rows ``COPY ... FROM STDIN (FORMAT binary)`` into ``LIKE ... INCLUDING ALL`` copies of their tables (indexes,
  no foreign keys, vectors already computed), rolled back.
- peak memory, two ways: the process's peak RSS growth during the request (``/proc/self/clear_refs`` 5 resets
  VmHWM; everything this process holds: server and client, C allocations of psycopg and the JSON encoder, but
  not Postgres, a separate process), and the Python heap's peak (``tracemalloc``) in a separate, untimed run,
  since tracing slows every allocation.

Prints markdown and writes bench/results/transfer.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
from psycopg import sql

from bench.common import local_stack, save_result, sentence, wait_vectors_indexed
from shared.db.transfer import TABLES

FIRST = ["Ann", "Bob", "Cy", "Di", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"]
LAST = ["Lee", "Stone", "Park", "Moss", "Reed", "Hart", "Cole", "Ward"]
PEOPLE = [f"{f} {s}" for f in FIRST for s in LAST]
NDJSON = {"Content-Type": "application/x-ndjson"}


# ---------------------------------------------------------------------------------------------- the workspace
def load(http: httpx.Client, ws: str, n: int, rng: random.Random) -> float:
    """``n`` memories with entities, revisions, associations and deletions in ``ws``; returns the seconds."""
    started = time.perf_counter()
    ids: list[str] = []
    for start in range(0, n, 1000):
        ops = []
        for i in range(start, min(n, start + 1000)):
            op: dict[str, Any] = {"op": "create", "content": sentence(rng)}
            if i % 50 == 0:
                op["metadata"] = {
                    "knowledge_work": {
                        "subject": {"name": f"PR-{i}", "type": "work_item"},
                        "reviewers": [rng.choice(PEOPLE)],
                        "author": rng.choice(PEOPLE),
                    }
                }
            ops.append(op)
        ids += [r["memory_id"] for r in _batch(http, ws, ops)]
    for start in range(0, len(ids), 20_000):  # edits and deletions, 1000 operations a request
        chunk = ids[start : start + 20_000]
        ops = [{"op": "update", "memory_id": m, "content": sentence(rng)} for m in chunk[::20]]
        ops += [{"op": "delete", "memory_id": m} for m in chunk[7::200]]
        for i in range(0, len(ops), 1000):
            _batch(http, ws, ops[i : i + 1000])
    for i in range(1, len(ids) - 1, 100):
        body = {"target_id": ids[i + 1], "relationship": "related_to", "strength": 0.6}
        r = http.post(f"/v1/memories/{ids[i]}/associate", json=body, headers={"X-Workspace-ID": ws})
        assert r.status_code == 201, r.text[:300]
    return time.perf_counter() - started


def _batch(http: httpx.Client, ws: str, ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and not r.json()["failed"], r.text[:300]
    return r.json()["results"]


# ---------------------------------------------------------------------------------------------- measuring
def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


@contextmanager
def measured(out: dict[str, Any]) -> Iterator[None]:
    """Seconds and the peak RSS growth (MB) of the block: VmHWM reset to the current RSS before it."""
    Path("/proc/self/clear_refs").write_text("5")
    rss_before = _status_kb("VmRSS")
    started = time.perf_counter()
    yield
    out["s"] = time.perf_counter() - started
    out["rss_peak_growth_mb"] = round((_status_kb("VmHWM") - rss_before) / 1024, 1)


def traced_peak_mb(run: Callable[[], object]) -> float:
    """The Python heap's peak growth (MB) while ``run`` runs, tracemalloc on (every thread of the process)."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return round((peak - base) / 1e6, 1)


def export_to(http: httpx.Client, ws: str, path: Path | None) -> tuple[int, int]:
    """Stream ``ws``'s export (to ``path``, or nowhere); (bytes, lines)."""
    size = lines = 0
    with http.stream("GET", f"/v1/workspaces/{ws}/export") as r:
        assert r.status_code == 200, r.read()[:300]
        sink = path.open("wb") if path else None
        try:
            for chunk in r.iter_bytes():
                size += len(chunk)
                lines += chunk.count(b"\n")
                if sink:
                    sink.write(chunk)
        finally:
            if sink:
                sink.close()
    return size, lines


def import_body(http: httpx.Client, ws: str, body: bytes) -> dict[str, Any]:
    r = http.post(f"/v1/workspaces/{ws}/import", content=body, headers=NDJSON)
    assert r.status_code == 200, r.text[:500]
    return r.json()


def export_floor(dsn: str, ws: str) -> dict[str, Any]:
    """The same rows as JSON straight out of Postgres: ``COPY (SELECT to_jsonb(t) - dropped ...) TO STDOUT``."""
    size = 0
    with psycopg.connect(dsn) as conn:
        started = time.perf_counter()
        for table in TABLES.values():
            query = sql.SQL(
                "COPY (SELECT to_jsonb(t) - {drop}::text[] FROM {table} t WHERE workspace_id = {ws} "
                "ORDER BY {order}) TO STDOUT"
            ).format(
                drop=sql.Literal(list(table.drop)),
                table=sql.Identifier(table.name),
                ws=sql.Literal(ws),
                order=sql.SQL(", ").join(sql.Identifier(c) for c in table.order),
            )
            with conn.cursor().copy(query) as copy:
                for chunk in copy:
                    size += len(chunk)
        return {"s": time.perf_counter() - started, "bytes": size}


def import_floor(dsn: str, ws: str, *, like: str = "INCLUDING ALL") -> dict[str, Any]:
    """The same rows written by ``COPY FROM STDIN (FORMAT binary)`` into copies of their tables (``like``:
    ``INCLUDING ALL`` copies their indexes, ``INCLUDING DEFAULTS`` only the heap)."""
    with psycopg.connect(dsn) as conn:
        tables: list[tuple[str, list[str], list[bytes]]] = []
        for table in TABLES.values():
            names = [
                r[0]
                for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND "
                    "table_name = %s AND is_generated = 'NEVER' ORDER BY ordinal_position",
                    (table.name,),
                )
            ]
            cols = sql.SQL(", ").join(sql.Identifier(c) for c in names)
            query = sql.SQL(
                "COPY (SELECT {cols} FROM {table} WHERE workspace_id = {ws}) TO STDOUT (FORMAT binary)"
            )
            with conn.cursor().copy(
                query.format(cols=cols, table=sql.Identifier(table.name), ws=sql.Literal(ws))
            ) as copy:
                tables.append((table.name, names, [bytes(c) for c in copy]))
        conn.rollback()
        started = time.perf_counter()
        with conn.transaction(force_rollback=True):
            for name, names, chunks in tables:
                clone = sql.Identifier(f"floor_{name}")
                conn.execute(
                    sql.SQL("CREATE TEMP TABLE {} (LIKE {} {})").format(
                        clone, sql.Identifier(name), sql.SQL(like)
                    )
                )
                cols = sql.SQL(", ").join(sql.Identifier(c) for c in names)
                with conn.cursor().copy(
                    sql.SQL("COPY {} ({}) FROM STDIN (FORMAT binary)").format(clone, cols)
                ) as copy:
                    for chunk in chunks:
                        copy.write(chunk)
        return {"s": time.perf_counter() - started, "bytes": sum(len(c) for _, _, cs in tables for c in cs)}


# ---------------------------------------------------------------------------------------------- one size
def run_size(http: httpx.Client, dsn: str, n: int, rng: random.Random, scratch: Path) -> dict[str, Any]:
    ws = f"xfer_{n}"
    load_s = load(http, ws, n, rng)
    wait_vectors_indexed(http, ws)
    print(f"{n:,}: loaded in {load_s:.1f} s", flush=True)
    out: dict[str, Any] = {"memories": n, "load_s": round(load_s, 1)}

    floor = export_floor(dsn, ws)
    path = scratch / f"{ws}.ndjson"
    exp: dict[str, Any] = {}
    with measured(exp):
        size, lines = export_to(http, ws, path)
    exp |= {"bytes": size, "lines": lines}
    exp["tracemalloc_peak_mb"] = traced_peak_mb(lambda: export_to(http, ws, None))
    body = path.read_bytes()
    kinds = json.loads(body.rstrip(b"\n").rsplit(b"\n", 1)[-1])["counts"]
    out |= {"kinds": kinds, "export": exp, "export_floor": floor}
    print(f"{n:,}: export {exp['s']:.1f} s ({size / 1e6:.1f} MB), floor {floor['s']:.2f} s", flush=True)

    out["import_floor"] = import_floor(dsn, ws)
    out["import_floor_heap"] = import_floor(dsn, ws, like="INCLUDING DEFAULTS")
    remapped: dict[str, Any] = {"bytes": len(body)}
    with measured(remapped):
        answer = import_body(http, f"{ws}_copy", body)
    assert (
        answer["ids"] == "remapped" and answer["imported"] + answer["skipped_duplicates"] == kinds["memory"]
    )
    wait_vectors_indexed(http, f"{ws}_copy")
    remapped["tracemalloc_peak_mb"] = traced_peak_mb(lambda: import_body(http, f"{ws}_traced", body))
    wait_vectors_indexed(http, f"{ws}_traced")
    for gone in (ws, f"{ws}_copy", f"{ws}_traced"):  # the ids free again, and the CPU the copies' index takes
        assert http.delete(f"/v1/workspaces/{gone}").status_code == 204
    kept: dict[str, Any] = {"bytes": len(body)}
    with measured(kept):
        answer = import_body(http, f"{ws}_moved", body)
    assert answer["ids"] == "kept", answer["ids"]
    wait_vectors_indexed(http, f"{ws}_moved")
    out |= {"import_remapped": remapped, "import_kept": kept}
    print(f"{n:,}: import remapped {remapped['s']:.1f} s, kept {kept['s']:.1f} s", flush=True)
    path.unlink()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    rng = random.Random(20261204)
    results: dict[str, Any] = {"load_1m": os.getloadavg(), "cpus": os.cpu_count(), "sizes": []}
    cap = 2 * max(sizes)  # the import caps (10,000 by default) and the body limit, raised for the file
    with (
        local_stack(max_import_memories=cap, max_import_associations=cap, max_request_bytes=1 << 34) as (
            base_url,
            settings,
        ),
        tempfile.TemporaryDirectory() as scratch,
        httpx.Client(base_url=base_url, timeout=3600) as http,
    ):
        for n in sizes:
            results["sizes"].append(run_size(http, str(settings.database_url), n, rng, Path(scratch)))
            save_result("transfer.json", results)
    results["load_1m_end"] = os.getloadavg()
    save_result("transfer.json", results)
    print(table(results))


def table(r: dict[str, Any]) -> str:
    load = lambda xs: " / ".join(f"{x:.1f}" for x in xs)  # noqa: E731
    lines = [
        f"{r['cpus']} cores; load average (1/5/15 min) at start {load(r['load_1m'])}, at end "
        f"{load(r['load_1m_end'])}.",
        "",
        "| memories (file lines, MB) | operation | s | memories/s | MB/s | × its floor | peak RSS growth MB | "
        "tracemalloc peak MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for x in r["sizes"]:
        n, exp, ef, imf = x["memories"], x["export"], x["export_floor"], x["import_floor"]
        label = f"{n:,} ({exp['lines']:,}, {exp['bytes'] / 1e6:.1f})"
        rows = [
            ("export (HTTP, streamed)", exp, ef),
            ("floor: COPY of to_jsonb rows", ef, None),
            ("import, ids remapped", x["import_remapped"], imf),
            ("import, ids kept (source deleted)", x["import_kept"], imf),
            ("floor: COPY FROM STDIN binary, indexed tables", imf, None),
            ("(COPY FROM STDIN binary, heap only)", x["import_floor_heap"], imf),
        ]
        for name, m, floor in rows:
            mb = f"{m['bytes'] / 1e6 / m['s']:.1f}" if "bytes" in m else ""
            ratio = f"{m['s'] / floor['s']:.1f}×" if floor else "1×"
            lines.append(
                f"| {label} | {name} | {m['s']:.2f} | {n / m['s']:,.0f} | {mb} | {ratio} | "
                f"{m.get('rss_peak_growth_mb', '')} | {m.get('tracemalloc_peak_mb', '')} |"
            )
        lines.append(f"| | kinds: {x['kinds']} | | | | | | |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
