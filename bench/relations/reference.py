"""The knowledge-work benchmark against the reference server (memorylayer-server 0.2.0, hash embedder,
SQLite + sqlite-vec, started by bench/compare/servers.py): the same 570 envelopes through its own
``POST /v1/memories`` (its connector normalisation and relation writes), the same 115 questions, its
relational arm on and off.

    .venv/bin/python -m bench.relations.reference
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx

from bench.compare.servers import reference_server
from bench.relations.corpus import generate
from bench.relations.run import WS, evaluate


def main() -> None:
    corpus = generate()
    with (
        tempfile.TemporaryDirectory() as tmp,
        reference_server(Path(tmp)) as server,
        httpx.Client(base_url=server.base_url, timeout=120, headers={"X-Workspace-ID": WS}) as client,
    ):
        started = time.perf_counter()
        ids = []
        for record in corpus.records:
            r = client.post("/v1/memories", json={"content": record.content, "metadata": record.metadata})
            r.raise_for_status()
            ids.append(r.json()["memory"]["id"])
        print(f"reference {server.info}: {len(ids)} records loaded in {time.perf_counter() - started:.1f} s",
              flush=True)  # fmt: skip
        errors: dict[bool, list[str]] = {False: [], True: []}
        tables = {arm: evaluate(client, corpus, ids, arm, errors[arm])[0] for arm in (False, True)}
        for arm in (False, True):
            print(f"arm {'on' if arm else 'off'}: {len(errors[arm])} recalls failed (counted as misses)"
                  + (f", e.g. {errors[arm][0]}" if errors[arm] else ""))  # fmt: skip
        for kind in tables[True]:
            off, on = tables[False][kind], tables[True][kind]
            print(f"{kind:22s} n={on[2]:3d}  Hit@5 off {off[0]:.3f} on {on[0]:.3f}   "
                  f"MRR@10 off {off[1]:.3f} on {on[1]:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
