"""What migration 0016's evidence trigger costs the writes that fire it: soft-deleting and hard-deleting
memories that hold no evidence (the common case) and memories that each hold a profile's evidence, with the
trigger enabled and disabled, in one run on the same database.

    .venv/bin/python -m bench.relations.trigger_cost [--size 5000]
"""

from __future__ import annotations

import argparse
import time

import httpx
import psycopg

from bench.locomo.stack import running_stack


def load(client: httpx.Client, ws: str, size: int, profiles: bool) -> None:
    for start in range(0, size, 500):
        ops = [
            {"op": "create", "content": f"note {i} in {ws}",
             **({"metadata": {"knowledge_work": {"subject": f"T-{i}", "owner": f"P{i % 50}"}}} if profiles else {})}
            for i in range(start, min(size, start + 500))
        ]  # fmt: skip
        client.post(
            "/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws}
        ).raise_for_status()


def timed(dsn: str, sql: str, ws: str) -> float:
    with psycopg.connect(dsn, autocommit=True) as conn:
        started = time.perf_counter()
        conn.execute(sql, (ws,))
        return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=5000)
    args = parser.parse_args()
    with running_stack("hash") as stack, httpx.Client(base_url=stack.base_url, timeout=300) as client:
        for profiles in (False, True):
            for enabled in (True, False, True):
                for op, sql in (
                    ("soft delete", "UPDATE memories SET deleted_at = now() WHERE workspace_id = %s"),
                    ("hard delete", "DELETE FROM memories WHERE workspace_id = %s"),
                ):
                    ws = f"trig_{int(profiles)}_{int(enabled)}_{op[0]}_{time.monotonic_ns()}"
                    load(client, ws, args.size, profiles)
                    with psycopg.connect(stack.dsn, autocommit=True) as conn:
                        state = "ENABLE" if enabled else "DISABLE"
                        conn.execute(
                            f"ALTER TABLE memories {state} TRIGGER memories_relation_evidence_update"
                        )
                        conn.execute(
                            f"ALTER TABLE memories {state} TRIGGER memories_relation_evidence_delete"
                        )
                        conn.execute("ANALYZE")
                    ms = timed(stack.dsn, sql, ws)
                    print(f"{args.size} memories, {'with' if profiles else 'without'} evidence, trigger "
                          f"{'on ' if enabled else 'off'}: {op} {ms:.0f} ms", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
