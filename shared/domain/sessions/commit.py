"""Commit: a session's working memory becomes long-term memories through the one writer.

Each key becomes one fact (subject ``working_memory``, predicate the key): identical content is a NOOP, so
committing twice creates nothing new, and a new value supersedes the old memory (history kept).

    >>> commit_session(svc, session, max_memories=None)["memories_created"]       # doctest: +SKIP
    1
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from shared.db import sessions as repo
from shared.domain.extraction.candidates import Candidate, Provenance
from shared.domain.sessions.working import live_rows, render_value

if TYPE_CHECKING:
    from shared.domain.sessions.parts import SessionParts


def candidates(session: dict, rows: list[dict]) -> list[Candidate]:
    """One single-valued fact per working-memory row."""
    return [
        Candidate(
            content=f"{r['key']}: {render_value(r['value'])}",
            type="semantic",
            subtype=None,
            metadata={"session_id": session["id"], "working_memory_key": r["key"]},
            subject="working_memory",
            predicate=r["key"],
            value=render_value(r["value"]),
            single_valued=True,
        )
        for r in rows
    ]


def commit_session(svc: SessionParts, session: dict, *, max_memories: int | None) -> dict[str, Any]:
    """Write the first ``max_memories`` live keys (all when None) as memories, mark the session committed
    and log a ``commit`` event; the counts say what was new."""
    started = time.perf_counter()
    found = candidates(session, live_rows(svc, session)[:max_memories])
    report = svc.writer.write(
        session["workspace_id"],
        session["user_id"],
        found,
        Provenance(session_id=session["id"], source="session_commit"),
    )
    with svc.db.transaction() as conn:
        repo.mark_committed(conn, session["workspace_id"], session["id"], svc.clock())
        repo.record_event(conn, session["workspace_id"], session["id"], "commit", session["id"])
    counts = report.counts
    return {
        "session_id": session["id"],
        "memories_extracted": len(found),
        "memories_deduplicated": counts["noop"],
        "memories_created": counts["added"] + counts["superseded"],
        "breakdown": counts,
        "extraction_time_ms": round((time.perf_counter() - started) * 1000),
        "memory_ids": report.added + [new for _old, new in report.superseded],
    }
