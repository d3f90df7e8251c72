"""How a LangGraph item is one MemoryLayer memory: the tags that find it, the metadata that carries it back.

A memory per ``(namespace, key)``:

- ``content``: the text to embed (the item's ``index`` fields, default the whole value as JSON);
- ``metadata``: ``{"langgraph": {store, namespace, key, value (JSON text), indexed, ttl_minutes, expires_at}}``
  (the value travels as JSON text: it keeps any nesting depth and exact key order);
- ``tags``: hashes, so any label (any character, any length) makes a valid tag: one for the store, one for the
  item, one per namespace prefix (``("a",)``, ``("a", "b")``, ...), and ``lgs:indexed`` when it has text to
  embed. ``list_memories(tag=…)`` and recall's ``tags`` filter then find an item, a namespace or a subtree;
- ``logical_key``: unique per item, so two writers creating the same item at once cannot make two memories.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import Item, SearchItem
from langgraph.store.base.embed import get_text_at_path, tokenize_path
from memorylayer import Memory

__all__ = [
    "INDEXED_TAG",
    "METADATA_KEY",
    "ItemRecord",
    "index_text",
    "expires_at",
    "item_logical_key",
    "item_metadata",
    "item_tag",
    "item_tags",
    "prefix_tag",
    "store_tag",
]

METADATA_KEY = "langgraph"
INDEXED_TAG = "lgs:indexed"


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


def store_tag(store: str) -> str:
    """Every item of the store (``search(())``, ``list_namespaces``)."""
    return f"lgs:s:{_digest(store)[:32]}"


def prefix_tag(store: str, prefix: tuple[str, ...]) -> str:
    """Every item whose namespace starts with ``prefix`` (the empty prefix: the whole store)."""
    return f"lgs:p:{_digest(store, list(prefix))[:32]}" if prefix else store_tag(store)


def item_tag(store: str, namespace: tuple[str, ...], key: str) -> str:
    return f"lgs:i:{_digest(store, list(namespace), key)[:32]}"


def item_logical_key(store: str, namespace: tuple[str, ...], key: str) -> str:
    return f"lgs/{_digest(store, list(namespace), key)}"


def item_tags(store: str, namespace: tuple[str, ...], key: str, *, indexed: bool) -> list[str]:
    tags = [store_tag(store), item_tag(store, namespace, key)]
    tags += [prefix_tag(store, namespace[:depth]) for depth in range(1, len(namespace) + 1)]
    return [*tags, INDEXED_TAG] if indexed else tags


def index_text(value: dict[str, Any], fields: list[str]) -> str:
    """The text MemoryLayer embeds for an item: its ``fields`` (LangGraph paths, ``$`` = the whole value)."""
    texts: list[str] = []
    for field in fields:
        texts += get_text_at_path(value, field if field == "$" else tokenize_path(field))
    return "\n".join(t for t in texts if t.strip())


class ItemRecord:
    """One item as stored: what the memory's metadata says, plus the memory's id and times."""

    __slots__ = (
        "body",
        "content",
        "created_at",
        "expires_at",
        "key",
        "memory_id",
        "namespace",
        "ttl_minutes",
        "updated_at",
        "value",
    )

    def __init__(self, memory: Memory, body: dict[str, Any]) -> None:
        self.memory_id = memory.id
        self.content = memory.content
        self.body = body
        self.namespace = tuple(body["namespace"])
        self.key = str(body["key"])
        self.value: dict[str, Any] = json.loads(body["value"])
        self.ttl_minutes: float | None = body.get("ttl_minutes")
        expires = body.get("expires_at")
        self.expires_at = datetime.fromisoformat(expires) if expires else None
        # The item's own times (a TTL refresh rewrites the memory but is no update of the item).
        self.created_at = (
            datetime.fromisoformat(body["created_at"]) if body.get("created_at") else memory.created_at
        )
        self.updated_at = (
            datetime.fromisoformat(body["updated_at"]) if body.get("updated_at") else memory.updated_at
        )

    @classmethod
    def of(cls, memory: Memory, store: str) -> ItemRecord | None:
        """The item a memory holds, or None for a memory that is not one of this store's items."""
        body = memory.metadata.get(METADATA_KEY)
        if not isinstance(body, dict) or body.get("store") != store:
            return None
        return cls(memory, body)

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now

    def item(self) -> Item:
        return Item(
            value=self.value,
            key=self.key,
            namespace=self.namespace,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )

    def search_item(self, score: float | None = None) -> SearchItem:
        return SearchItem(
            namespace=self.namespace,
            key=self.key,
            value=self.value,
            created_at=self.created_at,
            updated_at=self.updated_at,
            score=score,
        )


def item_metadata(
    store: str,
    namespace: tuple[str, ...],
    key: str,
    value: dict[str, Any],
    *,
    indexed: bool,
    ttl_minutes: float | None,
    now: datetime,
    created_at: datetime | None = None,
) -> dict[str, Any]:
    return {
        METADATA_KEY: {
            "store": store,
            "namespace": list(namespace),
            "key": key,
            "value": json.dumps(value, ensure_ascii=False),
            "indexed": indexed,
            "ttl_minutes": ttl_minutes,
            "expires_at": expires_at(ttl_minutes, now),
            "created_at": (created_at or now).isoformat(),
            "updated_at": now.isoformat(),
        }
    }


def expires_at(ttl_minutes: float | None, now: datetime) -> str | None:
    return None if ttl_minutes is None else (now + timedelta(minutes=ttl_minutes)).isoformat()
