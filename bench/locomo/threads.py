"""The product's path in the benchmark: a conversation goes in through the thread API, the extraction worker
turns it into memories, and recall is credited through provenance.

Each conversation is one thread with its two speakers as participants; each session is one append (one message
per turn, role ``user``, ``name`` = the turn's speaker, ``created_at`` = the session's date, the dia id as the
message's own ``id``), and the worker runs each append's job as the queue would. A recalled memory counts for the
turns its ``source_message_ids`` name (an episode: its turn; a fact: the turn that stated it).
"""

from __future__ import annotations

import time
from datetime import timedelta

import httpx

from bench.locomo.data import Conversation
from bench.locomo.run import RECALL_LIMIT, workspace_for
from bench.locomo.stack import Stack
from shared.db import rls


def ingest_thread(stack: Stack, client: httpx.Client, conv: Conversation) -> tuple[str, dict[str, str]]:
    """(workspace, message id → dia id), after every job has run."""
    ws = workspace_for(conv) + "_threads"
    headers = {"X-Workspace-ID": ws}
    thread = {"id": "conversation", "participants": [{"name": s} for s in conv.speakers]}
    client.post("/v1/threads", json=thread, headers=headers).raise_for_status()
    dia_of: dict[str, str] = {}
    for session in sorted({t.session for t in conv.turns}):
        turns = [t for t in conv.turns if t.session == session]
        messages = [
            {
                "id": t.dia_id,
                "role": "user",
                "name": t.speaker,
                "content": t.text,
                # the session's date, a second per turn: the order they were said in
                **(
                    {"created_at": (t.event_time + timedelta(seconds=t.index)).isoformat()}
                    if t.event_time
                    else {}
                ),
            }
            for t in turns
        ]
        r = client.post("/v1/threads/conversation/messages", json={"messages": messages}, headers=headers)
        r.raise_for_status()
        body = r.json()
        dia_of.update({m["id"]: m["client_message_id"] for m in body["messages"]})
        if body.get("job_id"):
            with rls.visible(rls.EVERY):  # as the queue's consumer runs it: the job names its workspace
                stack.services.threads.worker.run(body["job_id"])
    return ws, dia_of


def ask_thread(client: httpx.Client, ws: str, dia_of: dict[str, str], query: str) -> tuple[list[str], float]:
    """The ranked dia ids a plain recall credits through provenance, and the round-trip time in ms."""
    started = time.perf_counter()
    r = client.post(
        "/v1/memories/recall", json={"query": query, "limit": RECALL_LIMIT}, headers={"X-Workspace-ID": ws}
    )
    elapsed = (time.perf_counter() - started) * 1000
    r.raise_for_status()
    ranked = [dia_of.get(i) for m in r.json()["memories"] for i in m.get("source_message_ids") or []]
    return list(dict.fromkeys(d for d in ranked if d)), elapsed
