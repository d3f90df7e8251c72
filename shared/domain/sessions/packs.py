"""Context packs and deltas: deterministic, no LLM, under a hard token budget.

    >>> items = [Item("working:goal", "working_memory", "goal: fix redis", 1.0),
    ...          Item("mem_1", "directives", "Always answer in French", 0.9)]
    >>> rendered, packed, summary = render(rank(items), 40)
    >>> print(rendered)
    ## Directives
    - Always answer in French
    ## Working Memory
    - goal: fix redis
    >>> summary["used"] <= 40
    True

The budget counts ``ceil(chars / 3)`` over the whole rendered text, headings and bullets included, and is
never exceeded: an item that does not fit is truncated (with "…") if a useful piece fits, else omitted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from shared.core.errors import CursorExpired, InvalidInput, MemoryLayerError
from shared.core.settings import Settings
from shared.db import associations as assoc_repo
from shared.db import memories as mem_repo
from shared.db import sandboxes as sandbox_repo
from shared.db import sessions as repo
from shared.db.pool import Database
from shared.db.rows import Connection
from shared.db.scope import Scope
from shared.domain.context_env.summary import may_view, sandbox_summary, summary_content
from shared.domain.memories import serialize
from shared.domain.memories.tiers import attach as attach_tiers
from shared.domain.relations.pack_entities import entity_memories
from shared.domain.requests import RecallRequest
from shared.domain.retrieval.budget import ESTIMATOR, DetailLevel, estimate_tokens, representations
from shared.domain.retrieval.recall import Recaller
from shared.domain.sessions import cursor
from shared.domain.sessions.requests import ContextDeltaRequest, ContextPackRequest
from shared.domain.sessions.service import SessionService
from shared.domain.sessions.working import OPEN_THREAD_KEYS, render_value
from shared.providers import secrets

KIND_PRIORITY = {
    "directives": 0,
    "working_memory": 1,
    "unresolved_contradictions": 2,
    "entity_matches": 3,
    "topic_matches": 3,
    "recent_activity": 4,
    "checkpoint_recovery": 5,
    "sandbox_summary": 6,
}
MIN_TRUNCATED_CHARS = 16
DELTA_WINDOW = 500
POLICY = "deterministic"


@dataclass(frozen=True)
class Item:
    id: str
    kind: str
    content: str
    importance: float = 0.5
    event_time: datetime | None = None
    match_signals: tuple[str, ...] = ()
    source_references: tuple[str, ...] = ()
    tombstone: bool = False
    sequence: int | None = field(default=None, compare=False)
    # Smaller honest forms of the content (a memory's overview, then abstract): what the budget steps down to.
    alternates: tuple[str, ...] = field(default=(), compare=False)

    def out(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "content": self.content,
            "importance": round(self.importance, 6),
            "event_time": serialize.iso(self.event_time),
            "match_signals": list(self.match_signals),
            "source_references": list(self.source_references),
            "tombstone": self.tombstone,
        }
        if self.sequence is not None:
            body["sequence"] = self.sequence
        return body


def _when(value: Any) -> datetime | None:
    if isinstance(value, str):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return value


def memory_item(
    memory: dict, kind: str, signals: list[str] | tuple[str, ...] = (), level: DetailLevel = "full"
) -> Item:
    """A memory (a row, or the API form recall returns) as a pack item, its content at ``level`` (the row's
    ``abstract`` and ``overview``, when it carries them, are what the budget steps down to)."""
    content, *alternates = representations(memory, level)
    return Item(
        id=memory["id"],
        kind=kind,
        content=content,
        alternates=tuple(alternates),
        importance=float(memory["importance"]),
        event_time=_when(memory.get("event_time")) or _when(memory["created_at"]),
        match_signals=tuple(signals or memory.get("match_signals") or ()),
        source_references=(memory["source_memory_id"],) if memory.get("source_memory_id") else (),
    )


def title(kind: str) -> str:
    return kind.replace("_", " ").title()


def rank(items: list[Item]) -> list[Item]:
    """Section priority, then −importance, −event time, id: the same input always renders the same text."""
    return sorted(
        items,
        key=lambda i: (
            KIND_PRIORITY.get(i.kind, 99),
            -i.importance,
            -(i.event_time.timestamp() if i.event_time else 0.0),
            i.id,
        ),
    )


def dedupe(items: list[Item]) -> list[Item]:
    """First occurrence wins, by id and by case-folded, whitespace-normalised content (run after ``rank``, so
    the higher-priority section keeps a memory that two sections found)."""
    ids: set[str] = set()
    contents: set[str] = set()
    out = []
    for item in items:
        text = " ".join(item.content.casefold().split())
        if item.id in ids or (text and text in contents):
            continue
        ids.add(item.id)
        if text:
            contents.add(text)
        out.append(item)
    return out


def render(
    items: list[Item], budget: int, *, stop_on_omit: bool = False
) -> tuple[str, list[Item], dict[str, Any]]:
    """``## Title\\n- content\\n`` per item, in order, within ``budget`` tokens of ``estimate_tokens``.

    Counting characters of the whole text (≤ 3 × budget) is exact for ceil(len/3). ``stop_on_omit`` (deltas)
    stops at the first item that cannot be delivered, so what is delivered is always a prefix.
    """
    room_total = budget * 3
    parts: list[str] = []
    packed: list[Item] = []
    chars = truncated = omitted = 0
    current: str | None = None
    for index, item in enumerate(items):
        heading = "" if item.kind == current else f"## {title(item.kind)}\n"
        prefix = "- [deleted] " if item.tombstone else "- "
        room = room_total - chars - len(heading) - len(prefix) - 1
        content = item.content
        if len(content) > room:
            # A smaller tier of the memory that fits, else the smallest cut short (counted as cut either way,
            # as the reference does).
            smaller = next((a for a in item.alternates if len(a) <= room), None)
            if smaller is None and room < MIN_TRUNCATED_CHARS:
                if stop_on_omit:
                    omitted += len(items) - index
                    break
                omitted += 1
                continue
            if smaller is None:
                smaller = (item.alternates[-1] if item.alternates else content)[: room - 1].rstrip() + "…"
            content = smaller
            item = replace(item, content=content)
            truncated += 1
        part = f"{heading}{prefix}{content}\n"
        parts.append(part)
        packed.append(item)
        chars += len(part)
        current = item.kind
    rendered = "".join(parts).rstrip()
    summary = {
        "requested": budget,
        "used": estimate_tokens(rendered),
        "estimator": ESTIMATOR,
        "truncated_items": truncated,
        "omitted_items": omitted,
    }
    return rendered, packed, summary


class ContextService:
    def __init__(
        self, db: Database, sessions: SessionService, recaller: Recaller, settings: Settings
    ) -> None:
        self.db = db
        self.sessions = sessions
        self.recaller = recaller
        self.settings = settings  # the cursor secret is read per use (shared/providers/secrets.py caches it)

    # ------------------------------------------------------------------ pack
    def pack(self, scope: Scope, session_id: str, req: ContextPackRequest, *, viewer: str) -> dict[str, Any]:
        session = self.sessions.get(scope, session_id)
        workspace_id = session["workspace_id"]
        limits = req.section_limits
        items: list[Item] = []
        notices: list[str] = []
        open_threads: list[dict[str, Any]] = []
        contradictions: list[dict[str, Any]] = []
        with self.db.connection() as conn:
            # The cursor is taken before anything is read: a write racing the pack is delivered again by the
            # next delta (at least once) rather than lost.
            _purged, top = repo.event_bounds(conn, workspace_id, session_id)
            if req.include_directives and limits.directives:
                rows = mem_repo.directives(conn, workspace_id, limits.directives)
                items += [
                    memory_item(r, "directives", ["explicit"], level=req.detail_level)
                    for r in self._tiered(rows)
                ]
            if req.include_working_memory and limits.working_memory:
                for row in repo.working(conn, workspace_id, session_id, now=self.sessions.clock())[
                    : limits.working_memory
                ]:
                    if row["key"].casefold() in OPEN_THREAD_KEYS:
                        open_threads.append({"key": row["key"], "value": row["value"]})
                    items.append(self._working_item(row, "working_memory"))
            if req.include_contradictions and limits.contradictions:
                for edge in assoc_repo.unresolved_contradictions(conn, workspace_id, limits.contradictions):
                    contradictions.append(
                        {
                            "id": edge["id"],
                            "memory_a_id": edge["source_id"],
                            "memory_b_id": edge["target_id"],
                            "type": "contradicts",
                        }
                    )
                    items.append(
                        Item(
                            id=edge["id"],
                            kind="unresolved_contradictions",
                            content=f"{edge['source_id']} conflicts with {edge['target_id']} (contradicts)",
                            importance=0.9,
                            event_time=edge["created_at"],
                            source_references=(edge["source_id"], edge["target_id"]),
                        )
                    )
            if req.include_recent_activity and limits.recent_activity:
                # Raw checkpoints are recovered in their own section (their lines are recent activity).
                rows = mem_repo.recent_activity(conn, workspace_id, limits.recent_activity)
                items += [
                    memory_item(r, "recent_activity", ["recent"], level=req.detail_level)
                    for r in self._tiered(rows)
                ]
            if req.include_checkpoint_recovery and limits.checkpoints:
                raw_ids = [
                    c["raw_memory_id"]
                    for c in repo.recent_checkpoints(conn, workspace_id, session_id, limits.checkpoints)
                ]
                rows = mem_repo.live_by_ids(conn, workspace_id, raw_ids)
                items += [
                    memory_item(r, "checkpoint_recovery", ["checkpoint"], level=req.detail_level)
                    for r in self._tiered(rows)
                ]
        if (req.entity_ids or req.entity_names) and limits.recent_activity:
            # Through the entity registry (shared/domain/relations/pack_entities.py); names also join the topic search.
            rows, _resolved = entity_memories(
                self.db, workspace_id, req.entity_ids, req.entity_names, limit=limits.recent_activity
            )
            items += [
                memory_item(r, "entity_matches", ["relational"], level=req.detail_level)
                for r in self._tiered(rows)
            ]
        topic = " ".join(p.strip() for p in [req.topic or "", *req.entity_names[:8]] if p and p.strip())
        if topic and limits.recent_activity:
            try:
                found = self.recaller.recall(
                    [workspace_id],
                    RecallRequest(
                        query=topic,
                        limit=limits.recent_activity,
                        include_associations=False,
                        include_global=False,
                    ),
                )
                items += [memory_item(m, "topic_matches", level=req.detail_level) for m in found["memories"]]
            except MemoryLayerError:
                notices.append("topic_retrieval_unavailable")
        if req.include_sandbox_summary:  # the stored summary, never creating a sandbox; /inspect's rule
            summaries = sandbox_summary(self.db, workspace_id, session_id, notices, viewer)
            items += [
                Item(kind="sandbox_summary", importance=1.0, match_signals=("sandbox",), **s)
                for s in summaries
            ]
        rendered, packed, summary = render(dedupe(rank(items)), req.budget_tokens)
        return {
            "rendered": rendered,
            "items": [i.out() for i in packed],
            "open_threads": open_threads,
            "unresolved_contradictions": contradictions,
            "budget_summary": summary,
            "generation_summary": {"policy": POLICY, "calls": 0, "input_tokens": 0, "output_tokens": 0},
            "cursor": cursor.encode(secrets.cursor_secret(self.settings), workspace_id, session_id, top),
            "degradation_notices": notices,
        }

    def _tiered(self, rows: list[dict]) -> list[dict]:
        """The rows with their abstract and overview (stored, or computed for one the backfill has not
        reached; none with tiers off)."""
        out = []
        for row in rows:
            row = dict(row)
            attach_tiers(row, row, self.settings.extractive_tiers_enabled)
            out.append(row)
        return out

    @staticmethod
    def _working_item(row: dict, kind: str) -> Item:
        return Item(
            id=f"working:{row['key']}",
            kind=kind,
            content=f"{row['key']}: {render_value(row['value'])}",
            importance=1.0,
            event_time=row["updated_at"],
            match_signals=("working",),
        )

    def _decode(self, token: str, workspace_id: str, session_id: str) -> int:
        """Verify with the current secret, then (during a rotation) the previous one: a cursor handed out just
        before the rotation keeps working."""
        try:
            return cursor.decode(secrets.cursor_secret(self.settings), token, workspace_id, session_id)
        except InvalidInput as current_error:
            previous = secrets.previous_cursor_secret(self.settings)
            if previous is None:
                raise
            try:
                return cursor.decode(previous, token, workspace_id, session_id)
            except InvalidInput:
                raise current_error from None

    # ------------------------------------------------------------------ delta
    def delta(
        self, scope: Scope, session_id: str, req: ContextDeltaRequest, *, viewer: str
    ) -> dict[str, Any]:
        """Changes after the cursor, at least once and in order; deletes (and superseded memories) as
        tombstones. The new cursor is the highest sequence delivered."""
        session = self.sessions.get(scope, session_id)
        workspace_id = session["workspace_id"]
        after = self._decode(req.cursor, workspace_id, session_id)
        with self.db.connection() as conn:
            purged, _top = repo.event_bounds(conn, workspace_id, session_id)
            if after < purged:
                raise CursorExpired(
                    "the cursor is older than the retained context events; request a new context pack",
                    recovery="request_context_pack",
                    retained_after=purged,
                )
            events = repo.events_after(conn, workspace_id, session_id, after, DELTA_WINDOW + 1)
            # Several changes of one subject collapse into its latest, at the latest one's place in order.
            latest: dict[tuple[str, str], dict] = {}
            for event in events[:DELTA_WINDOW]:
                latest[(event["kind"].split("_")[0], event["subject_id"])] = event
            collapsed = sorted(latest.values(), key=lambda e: e["sequence"])
            items = self._event_items(conn, workspace_id, session_id, collapsed, viewer)
        rendered, packed, summary = render(items, req.budget_tokens, stop_on_omit=True)
        delivered = max((i.sequence or 0 for i in packed), default=after)
        out = [i.out() for i in packed]
        return {
            "rendered": rendered,
            "items": out,
            "memory_changes": [o for o in out if o["kind"] == "memory_changes" and not o["tombstone"]],
            "working_memory_changes": [
                o for o in out if o["kind"] == "working_memory_changes" and not o["tombstone"]
            ],
            "checkpoint_changes": [o for o in out if o["kind"] == "checkpoint_changes"],
            "sandbox_changes": [o for o in out if o["kind"] == "sandbox_changes" and not o["tombstone"]],
            "tombstones": [o for o in out if o["tombstone"]],
            "budget_summary": summary,
            "generation_summary": {"policy": POLICY, "calls": 0, "input_tokens": 0, "output_tokens": 0},
            "cursor": cursor.encode(
                secrets.cursor_secret(self.settings), workspace_id, session_id, max(delivered, after)
            ),
            "has_more": len(events) > DELTA_WINDOW or len(packed) < len(items),
            "degradation_notices": [],
        }

    def _event_items(
        self, conn: Connection, workspace_id: str, session_id: str, events: list[dict], viewer: str
    ) -> list[Item]:
        memory_ids = [e["subject_id"] for e in events if e["kind"] == "memory_upsert"]
        checkpoint_ids = [e["subject_id"] for e in events if e["kind"] == "checkpoint"]
        checkpoints = {
            c["id"]: c["raw_memory_id"]
            for c in repo.checkpoints_by_id(conn, workspace_id, session_id, checkpoint_ids)
        }
        memories = {
            m["id"]: m
            for m in mem_repo.live_by_ids(conn, workspace_id, memory_ids + list(checkpoints.values()))
        }
        working = {
            r["key"]: r for r in repo.working(conn, workspace_id, session_id, now=self.sessions.clock())
        }
        # /v1/context/checkpoint: the sandbox's stored summary now, as the pack's sandbox_summary.
        sandbox = (
            sandbox_repo.find(conn, workspace_id, session_id)
            if any(e["kind"] == "sandbox_checkpoint" for e in events)
            else None
        )
        hidden = sandbox is not None and not may_view(sandbox, viewer)  # previews follow /inspect's rule
        items = []
        for event in events:
            kind, subject, seq = event["kind"], event["subject_id"], event["sequence"]
            item: Item
            if kind in ("memory_upsert", "memory_delete"):
                memory = memories.get(subject) if kind == "memory_upsert" else None
                item = (
                    memory_item(memory, "memory_changes", ["delta"])
                    if memory
                    else Item(
                        id=subject,
                        kind="memory_changes",
                        content=subject,
                        event_time=event["created_at"],
                        tombstone=True,
                    )
                )
            elif kind in ("working_upsert", "working_delete"):
                row = working.get(subject) if kind == "working_upsert" else None
                item = (
                    self._working_item(row, "working_memory_changes")
                    if row
                    else Item(
                        id=f"working:{subject}",
                        kind="working_memory_changes",
                        content=subject,
                        event_time=event["created_at"],
                        tombstone=True,
                    )
                )
            elif kind == "checkpoint":
                raw = memories.get(checkpoints.get(subject, ""))
                item = (
                    replace(
                        memory_item(raw, "checkpoint_changes", ["checkpoint", "delta"]),
                        id=subject,
                        source_references=(raw["id"],),
                    )
                    if raw
                    else Item(
                        id=subject, kind="checkpoint_changes", content=subject, event_time=event["created_at"]
                    )
                )
            elif kind == "sandbox_checkpoint":
                item = Item(
                    id=subject,
                    kind="sandbox_changes",
                    # Freed since (cleanup, or the session's end): a tombstone, as a deleted memory.
                    content=summary_content(sandbox) if sandbox and not hidden else subject,
                    importance=1.0,
                    event_time=event["created_at"],
                    match_signals=("sandbox", "checkpoint", "delta"),
                    tombstone=sandbox is None,
                )
            else:
                item = Item(
                    id=f"commit:{subject}",
                    kind="session_changes",
                    event_time=event["created_at"],
                    content=f"session {subject} committed its working memory to long-term memory",
                )
            items.append(replace(item, sequence=seq))
        return items
