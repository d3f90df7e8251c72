"""Conversations in, memories out, through the local pipeline: HTTP append → SQS (moto) → the extraction
Lambda handler (deterministic extractor) → Postgres.

    python -m bench.ingest [--conversations 4] [--turns 20]

Reports append acknowledgement latency (p50/p95), the lag from append to recallable (the job is done and its
memories committed: p50/p95), and messages/s end to end. The baseline, in the same run and over the same HTTP
stack, is a plain single remember (POST /v1/memories): what one durable write costs here.
"""

from __future__ import annotations

import argparse
import os
import random
import threading
import time
from datetime import datetime

import httpx

from bench.common import local_stack, save_result, summarise
from shared.core.settings import get_settings

CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid", "Vienna", "Prague", "Dublin", "Rome", "Athens"]
NAMES = ["Dana", "Sam", "Alex", "Robin", "Kim", "Jo", "Lee", "Max", "Noa", "Ari"]


def conversation(rng: random.Random, turns: int) -> list[list[dict]]:
    """Exchanges (a user message and a reply) with facts the deterministic rules pick up."""
    out = []
    for t in range(turns):
        fact = rng.choice(
            [
                f"My name is {rng.choice(NAMES)}.",
                f"I live in {rng.choice(CITIES)}.",
                f"I moved to {rng.choice(CITIES)} last year.",
                f"I work at {rng.choice(['Acme', 'Globex', 'Initech'])}.",
                f"I love {rng.choice(['hiking', 'jazz', 'chess', 'pottery'])}.",
                "What should I cook tonight?",
            ]
        )
        out.append(
            [
                {"role": "user", "content": f"{fact} (turn {t})"},
                {"role": "assistant", "content": "Noted, thanks for telling me."},
            ]
        )
    return out


def run(conversations: int, turns: int) -> dict:
    from shared.local.sqs import SqsPoller, local_sqs

    with local_sqs(visibility_timeout_s=5) as queues:
        os.environ.update(
            MEMORYLAYER_EXTRACTION_QUEUE_URL=queues.queue_url,
            MEMORYLAYER_SQS_ENDPOINT_URL=queues.endpoint_url,
        )
        with local_stack("hash", extra_env=True) as (base_url, settings):
            get_settings.cache_clear()
            from functions.extraction.handler import handler

            with SqsPoller(queues, handler), httpx.Client(base_url=base_url, timeout=30) as http:
                floor = summarise(
                    [
                        _timed(
                            lambda i=i: http.post(
                                "/v1/memories",
                                json={"content": f"baseline {i}"},
                                headers={"X-Workspace-ID": "bench_base"},
                            )
                        )
                        for i in range(100)
                    ]
                )
                acks: list[float] = []
                appended: list[tuple[float, str]] = []  # (wall clock at append, job id)
                lock = threading.Lock()

                def user(k: int) -> None:
                    ws = {"X-Workspace-ID": f"bench_ingest_{k}"}
                    with httpx.Client(base_url=base_url, timeout=30, headers=ws) as c:
                        thread = c.post("/v1/threads", json={"user_id": f"user{k}"}).json()["thread"]["id"]
                        for exchange in conversation(random.Random(k), turns):
                            wall, started = time.time(), time.perf_counter()
                            r = c.post(f"/v1/threads/{thread}/messages", json={"messages": exchange})
                            with lock:
                                acks.append((time.perf_counter() - started) * 1000)
                                appended.append((wall, r.json()["job_id"]))
                            time.sleep(0.05)  # a person typing: conversations interleave, not a tight loop

                started = time.perf_counter()
                threads = [threading.Thread(target=user, args=(k,)) for k in range(conversations)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                # Lag comes from the job's own finish time (same machine clock), so measuring adds no load.
                lags = []
                for wall, job_id in appended:
                    while (job := http.get(f"/v1/jobs/{job_id}").json())["status"] not in ("done", "failed"):
                        time.sleep(0.05)
                    finished = datetime.fromisoformat(job["finished_at"].replace("Z", "+00:00")).timestamp()
                    lags.append((finished - wall) * 1000)
                elapsed = time.perf_counter() - started
    messages = conversations * turns * 2
    return {
        "conversations": conversations,
        "messages": messages,
        "messages_per_s": round(messages / elapsed, 1),
        "append_ack": summarise(acks),
        "append_to_recallable": summarise(lags),
        "baseline_single_remember": floor,
        "ack_vs_baseline": round(summarise(acks)["p50_ms"] / floor["p50_ms"], 2),
        "load_average": os.getloadavg(),
    }


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args()
    result = run(args.conversations, args.turns)
    save_result("ingest.json", result)
    a, lag, base = result["append_ack"], result["append_to_recallable"], result["baseline_single_remember"]
    print(
        f"{result['messages']} messages from {result['conversations']} concurrent conversations "
        f"(load average {result['load_average'][0]:.1f})\n"
    )
    print("| measure | p50 ms | p95 ms |\n|---|---|---|")
    print(f"| append acknowledged (2 messages) | {a['p50_ms']} | {a['p95_ms']} |")
    print(f"| append → recallable (job done) | {lag['p50_ms']} | {lag['p95_ms']} |")
    print(f"| baseline: one POST /v1/memories | {base['p50_ms']} | {base['p95_ms']} |")
    print(
        f"\nthroughput: {result['messages_per_s']} messages/s end to end; ack p50 = "
        f"{result['ack_vs_baseline']}× a single remember"
    )


if __name__ == "__main__":
    main()
