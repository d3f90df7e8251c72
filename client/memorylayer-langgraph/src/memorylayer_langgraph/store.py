"""``MemoryLayerStore``: LangGraph's long-term memory store (``BaseStore``) in a MemoryLayer workspace.

    store = MemoryLayerStore(workspace_id="ws_123")          # MEMORYLAYER_URL / _API_KEY / _WORKSPACE_ID
    graph = builder.compile(store=store)                     # nodes get it as `store` or through get_store()
    store.put(("users", "alice", "memories"), "m1", {"text": "likes green tea"})
    store.search(("users", "alice"), query="what does she drink?", filter={"kind": "drink"})

Each item is one memory (``encoding.py`` says how); semantic search is MemoryLayer's recall (vector and keyword
arms, embedded by the server: no embedding model on the client). Operations of a ``batch`` run in order, so a
read sees the writes before it. ``abatch`` runs the same code in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from memorylayer import (
    DEFAULT_TIMEOUT_S,
    Memory,
    NotFoundError,
    PreconditionFailedError,
    SyncMemoryLayerClient,
)

from memorylayer_langgraph.encoding import (
    INDEXED_TAG,
    METADATA_KEY,
    ItemRecord,
    expires_at,
    index_text,
    item_logical_key,
    item_metadata,
    item_tag,
    item_tags,
    prefix_tag,
    store_tag,
)
from memorylayer_langgraph.filters import matches

__all__ = ["MemoryLayerStore"]

_PAGE = 200  # memories per list request while scanning a namespace
_RECALL_PAGE = 100  # ranked memories per recall request


class MemoryLayerStore(BaseStore):
    """A LangGraph ``BaseStore`` whose items are memories of one MemoryLayer workspace.

    ``base_url``, ``api_key`` and ``workspace_id`` default to ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY`` and
    ``MEMORYLAYER_WORKSPACE_ID``, as the SDK's. ``store`` names this store inside the workspace (two names never
    see each other's items). ``index={"fields": [...]}`` says which parts of a value are embedded for
    ``search(query=…)`` (default ``["$"]``, the whole value; ``dims``/``embed`` are not needed: the server
    embeds). ``ttl`` is LangGraph's ``TTLConfig`` (``default_ttl`` minutes, ``refresh_on_read``); expired items
    are never returned, and are deleted when met or by ``sweep_ttl()``.
    """

    supports_ttl: bool = True

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace_id: str | None = None,
        *,
        store: str = "default",
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 3,
        client: SyncMemoryLayerClient | None = None,
    ) -> None:
        self.client = client or SyncMemoryLayerClient(
            base_url, api_key, workspace_id, timeout=timeout, max_retries=max_retries
        )
        self.store = store
        self.index_config = index
        self.fields: list[str] = list((index or {}).get("fields") or ["$"])
        self.ttl_config = ttl
        self.clock: Callable[[], datetime] = _utcnow  # what "now" is for expiry (tests move it)

    def __repr__(self) -> str:
        return f"MemoryLayerStore(client={self.client!r}, store={self.store!r})"

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ BaseStore
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"Unknown operation type: {type(op)}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client in a worker thread: one implementation, and the event loop is never blocked.
        return await asyncio.to_thread(self.batch, list(ops))

    def sweep_ttl(self) -> int:
        """Delete every expired item of this store now; returns how many."""
        now = self.clock()
        expired = [r for r in self._records(store_tag(self.store)) if r.expired(now)]
        return sum(self._drop(r) for r in expired)

    # ------------------------------------------------------------------ operations
    def _get(self, op: GetOp) -> Item | None:
        record = self._find(op.namespace, op.key)
        if record is None:
            return None
        if op.refresh_ttl:
            self._refresh(record)
        return record.item()

    def _put(self, op: PutOp) -> None:
        existing = self._find(op.namespace, op.key)
        if op.value is None:
            if existing is not None:
                self._drop(existing)
            return
        fields = self.fields if op.index is None else (op.index or [])
        value = dict(op.value)
        text = index_text(value, fields) if fields else ""
        indexed = bool(text)
        now = self.clock()
        write: dict[str, Any] = {
            # An item with nothing to embed still needs content; it is kept out of query searches by its tags.
            "content": text or f"{'/'.join(op.namespace)}/{op.key}",
            "tags": item_tags(self.store, op.namespace, op.key, indexed=indexed),
            "metadata": item_metadata(
                self.store,
                op.namespace,
                op.key,
                value,
                indexed=indexed,
                ttl_minutes=op.ttl,
                now=now,
                created_at=existing.created_at if existing else None,
            ),
        }
        if existing is not None:
            if write["content"] == existing.content:
                del write["content"]  # unchanged text: the server need not embed it again
            self.client.update_memory(existing.memory_id, **write)
            return
        try:
            self.client.remember(
                type="semantic", logical_key=item_logical_key(self.store, op.namespace, op.key), **write
            )
        except PreconditionFailedError:
            # Another writer created the item between our read and our write: update theirs.
            raced = self._find(op.namespace, op.key, include_expired=True)
            if raced is None:
                raise
            write["metadata"][METADATA_KEY]["created_at"] = raced.created_at.isoformat()
            self.client.update_memory(raced.memory_id, **write)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        wanted = op.offset + op.limit
        if wanted <= 0:
            return []
        found = self._ranked(op, wanted) if op.query else self._scan(op, wanted)
        kept = found[op.offset : wanted]
        if op.refresh_ttl:
            for record, _ in kept:
                self._refresh(record)
        return [record.search_item(score) for record, score in kept]

    def _scan(self, op: SearchOp, wanted: int) -> list[tuple[ItemRecord, float | None]]:
        """Newest item first (as the server lists memories), filtered, until ``wanted`` are found."""
        found: list[tuple[ItemRecord, float | None]] = []
        for record in self._records(prefix_tag(self.store, op.namespace_prefix)):
            if self._live(record, op.namespace_prefix) and matches(record.value, op.filter):
                found.append((record, None))
                if len(found) >= wanted:
                    break
        return found

    def _ranked(self, op: SearchOp, wanted: int) -> list[tuple[ItemRecord, float | None]]:
        """Best match first: recall over the prefix's embedded items, page by page, filtered."""
        assert op.query is not None
        tags = [prefix_tag(self.store, op.namespace_prefix), INDEXED_TAG]
        found: list[tuple[ItemRecord, float | None]] = []
        offset = 0
        while len(found) < wanted:
            page = self.client.recall(
                op.query,
                tags=tags,
                limit=_RECALL_PAGE,
                offset=offset,
                min_relevance=0.0,  # rank every item, as LangGraph's stores do; the caller's limit cuts
                include_global=False,
                include_global_user=False,
                include_associations=False,
                include_relations=False,
            ).memories
            for memory in page:
                record = ItemRecord.of(memory, self.store)
                if record and self._live(record, op.namespace_prefix) and matches(record.value, op.filter):
                    found.append((record, memory.relevance_score))
            if len(page) < _RECALL_PAGE:
                break
            offset += _RECALL_PAGE
        return found[:wanted]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = {r.namespace for r in self._records(store_tag(self.store)) if self._live(r, ())}
        selected = [ns for ns in namespaces if all(_match(c, ns) for c in op.match_conditions or ())]
        if op.max_depth is not None:
            selected = list({ns[: op.max_depth] for ns in selected})
        return sorted(selected)[op.offset : op.offset + op.limit]

    # ------------------------------------------------------------------ memories
    def _records(self, tag: str) -> Iterator[ItemRecord]:
        for memory in self.client.iterate_memories(tag=tag, page_size=_PAGE):
            record = ItemRecord.of(memory, self.store)
            if record is not None:
                yield record

    def _find(
        self, namespace: tuple[str, ...], key: str, *, include_expired: bool = False
    ) -> ItemRecord | None:
        page = self.client.list_memories(tag=item_tag(self.store, namespace, key), limit=10).memories
        records = [
            r for r in map(self._record, page) if r and r.namespace == tuple(namespace) and r.key == key
        ]
        if not records:
            return None
        record = max(records, key=lambda r: r.updated_at)
        if not include_expired and record.expired(self.clock()):
            self._drop(record)
            return None
        return record

    def _record(self, memory: Memory) -> ItemRecord | None:
        return ItemRecord.of(memory, self.store)

    def _live(self, record: ItemRecord, prefix: tuple[str, ...]) -> bool:
        if record.namespace[: len(prefix)] != tuple(prefix):
            return False
        if record.expired(self.clock()):
            self._drop(record)
            return False
        return True

    def _refresh(self, record: ItemRecord) -> None:
        """Push an item's expiry ``ttl_minutes`` ahead (a read of an item with a TTL keeps it alive)."""
        if record.ttl_minutes is None:
            return
        body = {**record.body, "expires_at": expires_at(record.ttl_minutes, self.clock())}
        with contextlib.suppress(NotFoundError):  # deleted meanwhile: the read still returns what it saw
            self.client.update_memory(record.memory_id, metadata={METADATA_KEY: body})

    def _drop(self, record: ItemRecord) -> bool:
        try:
            self.client.forget(record.memory_id)
        except NotFoundError:  # deleted by someone else meanwhile
            return False
        return True


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """A ``list_namespaces`` prefix/suffix condition; ``*`` matches any one label."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    labels = (
        namespace[: len(path)]
        if condition.match_type == "prefix"
        else namespace[len(namespace) - len(path) :]
    )
    return all(p == "*" or p == label for p, label in zip(path, labels, strict=True))
