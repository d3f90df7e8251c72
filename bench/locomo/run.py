"""Ingest, ask, score: the LoCoMo benchmark against the live HTTP API beside the two baselines."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench.locomo.baselines import BM25Baseline, DenseBaseline
from bench.locomo.data import SCORED_CATEGORIES, Conversation
from bench.locomo.metrics import METRICS, aggregate, percentile, score
from bench.locomo.protocol import macro
from bench.locomo.stack import Stack

RESULTS_DIR = Path(__file__).resolve().parents[1] / "results"
RECALL_LIMIT = 10
ALL_SYSTEMS = ("memorylayer", "memorylayer-threads", "bm25", "dense")  # -threads: bench/locomo/threads.py


@dataclass
class SystemRun:
    rows: list[dict] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict:
        out: dict = {"metrics": aggregate(self.rows)}
        if self.latencies_ms:
            out["latency_ms"] = {
                "p50": round(percentile(self.latencies_ms, 50), 2),
                "p95": round(percentile(self.latencies_ms, 95), 2),
            }
        return out


def workspace_for(conv: Conversation) -> str:
    return f"locomo_{conv.sample_id.replace('-', '_')}"


def ingest(client: httpx.Client, conv: Conversation, workspace: str | None = None) -> str:
    """One memory per turn, each session an ordered stream (``sequence_key``), as a chat client writes."""
    ws = workspace or workspace_for(conv)
    headers = {"X-Workspace-ID": ws}
    for turn in conv.turns:
        body = {
            "content": turn.content,
            "metadata": {
                "dia_id": turn.dia_id,
                "speaker": turn.speaker,
                "session": turn.session,
                "message_index": turn.index,
            },
            "event_time": turn.event_time.isoformat() if turn.event_time else None,
            "sequence_key": f"session_{turn.session}",
            "session_id": f"session_{turn.session}",
        }
        r = client.post("/v1/memories", json=body, headers=headers)
        r.raise_for_status()
    return ws


def ask(client: httpx.Client, ws: str, query: str) -> tuple[list[str], float]:
    """The ranked dia ids of a plain recall (the defaults a client gets) and the round-trip time in ms."""
    started = time.perf_counter()
    r = client.post(
        "/v1/memories/recall", json={"query": query, "limit": RECALL_LIMIT}, headers={"X-Workspace-ID": ws}
    )
    elapsed = (time.perf_counter() - started) * 1000
    r.raise_for_status()
    ranked = [m["metadata"].get("dia_id") for m in r.json()["memories"]]
    return list(dict.fromkeys(d for d in ranked if d)), elapsed


def evaluate(
    conv: Conversation, rankers: dict[str, Callable[[str], tuple[list[str], float | None]]]
) -> dict[str, SystemRun]:
    runs = {name: SystemRun() for name in rankers}
    for q in conv.questions:
        if q.category not in SCORED_CATEGORIES or not q.evidence:
            continue
        for name, rank in rankers.items():
            ranked, latency = rank(q.question)
            runs[name].rows.append(
                {
                    "question": q.question,
                    "category": q.category,
                    "evidence": list(q.evidence),
                    "ranked": ranked[:10],
                    **score(ranked, q.evidence),
                }
            )
            if latency is not None:
                runs[name].latencies_ms.append(latency)
    return runs


def run_conversation(
    stack: Stack,
    client: httpx.Client,
    conv: Conversation,
    ws: str | None,
    threads: Callable[[str], tuple[list[str], float]] | None = None,
) -> dict[str, SystemRun]:
    """The per-turn workspace ``ws`` (None: not ingested) and the threads mode's ranker, beside the baselines."""
    ids = [t.dia_id for t in conv.turns]
    texts = [t.content for t in conv.turns]
    bm25 = BM25Baseline(ids, texts)
    dense = DenseBaseline(stack.services.embedder, ids, texts)
    rankers: dict[str, Callable[[str], tuple[list[str], float | None]]] = {}
    if ws is not None:
        rankers["memorylayer"] = lambda q: ask(client, ws, q)
    if threads is not None:
        rankers["memorylayer-threads"] = threads
    rankers["bm25"] = lambda q: (bm25.rank(q), None)
    rankers["dense"] = lambda q: (dense.rank(q), None)
    return evaluate(conv, rankers)


def table(results: dict[str, dict[str, dict]]) -> str:
    """Markdown: a row per conversation × category, the systems' Hit@5 / Recall@5 / MRR@10 side by side, and
    the macro average of the conversations' overall figures."""
    first = next(iter(results.values()))
    shown = tuple(s for s in ALL_SYSTEMS if s in first)  # the systems this run has
    head = (
        "| conversation | category | n | "
        + " | ".join(f"{s} {m}" for s in shown for m in ("H@5", "R@5", "MRR"))
        + " |"
    )
    lines = [head, "|" + "---|" * (3 + 3 * len(shown))]
    for conv_id, systems in results.items():
        cats = systems[shown[0]]["metrics"]
        order = ["overall"] + [c for c in ("multi-hop", "temporal", "open-domain", "single-hop") if c in cats]
        for cat in order:
            cells = [f"{systems[s]['metrics'][cat][m]:.3f}" for s in shown for m in METRICS]
            lines.append(f"| {conv_id} | {cat} | {cats[cat]['n']} | " + " | ".join(cells) + " |")
    if len(results) > 1:
        # Each conversation counts once (bench/locomo/protocol.py): the headline figure.
        cells = [
            f"{macro({c: r[s]['metrics']['overall'] for c, r in results.items()})[m]:.3f}"
            for s in shown
            for m in METRICS
        ]
        lines.append(f"| **macro** | overall | {len(results)} conv. | " + " | ".join(cells) + " |")
    lat = [
        f"{c} {s}: p50 {r[s]['latency_ms']['p50']} ms, p95 {r[s]['latency_ms']['p95']} ms"
        for c, r in results.items()
        for s in shown
        if "latency_ms" in r[s]
    ]
    return "\n".join(lines) + "\n\nRecall latency over HTTP: " + "; ".join(lat) + "\n"


def write_results(payload: dict) -> Path:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"locomo-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.json"
    path.write_text(json.dumps(payload, indent=1, default=str))
    return path
