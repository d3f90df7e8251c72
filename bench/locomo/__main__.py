"""``python -m bench.locomo [--conversations conv-26,conv-30] [--embedding local|hash|e5] [--data PATH]
[--role app|superuser] [--filler N] [--mode turns|threads|both]``.

``--mode``: ``turns`` (default) stores each turn as one memory with ``remember``; ``threads`` sends the
conversation through the thread API and the extraction worker and credits recall through provenance
(bench/locomo/threads.py); ``both`` reports the two side by side.

``--role``: who the services log in as (bench/locomo/stack.py; ``superuser``, the default, as every earlier
figure; ``app`` = production's role and its HNSW settings). ``--filler N``: first ingest N extra copies of
conversations into workspaces of their own, so that the vector index holds other workspaces' turns as a shared
database does (the held-out set is several conversations; the dev set alone is 2); ``--filler-from conv-30``
copies only those (a copy of the asked conversation itself would give every turn twins in the index).

Prints each conversation's figures and their macro average; for tuning a knob under the two-way protocol
(tuned on one conversation, tested on the other) use ``python -m bench.locomo.experiments``."""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

import httpx

from bench.locomo import data
from bench.locomo.run import ingest, run_conversation, table, write_results
from bench.locomo.stack import EMBEDDINGS, running_stack
from bench.locomo.threads import ask_thread, ingest_thread


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.locomo", description=__doc__)
    parser.add_argument("--conversations", default="", help="comma-separated sample ids (default: all)")
    parser.add_argument("--embedding", choices=tuple(EMBEDDINGS), default="local")
    parser.add_argument("--data", type=Path, default=data.DEFAULT_DATA)
    parser.add_argument("--role", choices=("app", "superuser"), default="superuser")
    parser.add_argument("--filler", type=int, default=0, help="extra copies of the conversations to ingest")
    parser.add_argument(
        "--filler-from",
        default="",
        help="comma-separated sample ids the filler copies (default: the asked ones)",
    )
    parser.add_argument(
        "--details", action="store_true", help="also keep every question's ranking in the JSON"
    )
    parser.add_argument("--mode", choices=("turns", "threads", "both"), default="turns")
    args = parser.parse_args(argv)
    only = [c.strip() for c in args.conversations.split(",") if c.strip()]
    conversations = data.load(args.data, only or None)
    results: dict[str, dict] = {}
    details: dict[str, dict] = {}
    with (
        running_stack(args.embedding, args.role) as stack,
        httpx.Client(base_url=stack.base_url, timeout=60) as client,
    ):
        sources = [c.strip() for c in args.filler_from.split(",") if c.strip()]
        filler = data.load(args.data, sources) if sources else conversations
        for n in range(args.filler):
            ingest(client, filler[n % len(filler)], workspace=f"filler_{n}")
        if args.filler:
            print(f"ingested {args.filler} filler copies")
        for conv in conversations:
            ws, ranker = None, None
            if args.mode != "threads":
                started = time.perf_counter()
                ws = ingest(client, conv)
                print(
                    f"{conv.sample_id}: ingested {len(conv.turns)} turns in {time.perf_counter() - started:.1f} s"
                )
            if args.mode != "turns":
                started = time.perf_counter()
                tws, dia_of = ingest_thread(stack, client, conv)
                print(
                    f"{conv.sample_id}: threaded {len(conv.turns)} turns in {time.perf_counter() - started:.1f} s"
                )
                ranker = partial(ask_thread, client, tws, dia_of)
            runs = run_conversation(stack, client, conv, ws, ranker)
            results[conv.sample_id] = {name: run.summary() for name, run in runs.items()}
            details[conv.sample_id] = {name: run.rows for name, run in runs.items()}
    print()
    print(table(results))
    payload = {
        "embedding": args.embedding,
        "data": str(args.data),
        "role": args.role,
        "filler": args.filler,
        "mode": args.mode,
        "results": results,
    }
    if args.details:
        payload["details"] = details
    print(f"results: {write_results(payload)}")


if __name__ == "__main__":
    main()
