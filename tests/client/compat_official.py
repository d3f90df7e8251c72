"""Drive OUR server with the OFFICIAL PyPI packages, unchanged: memorylayer-client 0.2.1 and
memorylayer-llamaindex 0.2.1 (Python >= 3.12). Run by test_compat_official.py in its own virtualenv:

    .venv-compat312/bin/python tests/client/compat_official.py http://127.0.0.1:PORT ws_abc run123
    .venv-compat312/bin/python tests/client/compat_official.py http://127.0.0.1:PORT - run123   # no workspace

Prints one JSON object: {call name: {"ok": true, "value": ...} | {"ok": false, "error": "..."}}.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from llama_index.core.llms import ChatMessage, MessageRole
from memorylayer import MemoryLayerClient, SyncMemoryLayerClient
from memorylayer_llamaindex import MemoryLayerChatStore

BASE_URL = sys.argv[1]
WORKSPACE = None if sys.argv[2] == "-" else sys.argv[2]
RUN = sys.argv[3]
RESULTS: dict[str, Any] = {}


def _fail(name: str, exc: BaseException) -> None:
    RESULTS[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:600]}


def record(name: str, fn: Callable[[], Any]) -> Any:
    try:
        value = fn()
    except Exception as exc:
        _fail(name, exc)
        return None
    RESULTS[name] = {"ok": True, "value": value}
    return value


async def arecord(name: str, fn: Callable[[], Awaitable[Any]]) -> Any:
    try:
        value = await fn()
    except Exception as exc:
        _fail(name, exc)
        return None
    RESULTS[name] = {"ok": True, "value": value}
    return value


def show(messages: list[ChatMessage] | ChatMessage | None) -> Any:
    if messages is None:
        return None
    if isinstance(messages, ChatMessage):
        return f"{messages.role.value}:{messages.content}"
    return [show(m) for m in messages]


def u(text: str) -> ChatMessage:
    return ChatMessage(role=MessageRole.USER, content=text)


def a(text: str) -> ChatMessage:
    return ChatMessage(role=MessageRole.ASSISTANT, content=text)


def mine(keys: list[str]) -> list[str]:
    return sorted(k for k in keys if k.endswith(RUN))


CHAT = [u("Hello, my name is Bob."), a("Hi Bob!"), u("ok"), a("ok")]


def store_sync() -> None:
    k1, k2 = f"Alice_{RUN}", f"bob_{RUN}"
    store = MemoryLayerChatStore(base_url=BASE_URL, workspace_id=WORKSPACE)
    with store:
        record("sync.set_messages", lambda: store.set_messages(k1, CHAT))
        record("sync.get_messages", lambda: show(store.get_messages(k1)))
        record("sync.add_message", lambda: store.add_message(k1, u("How are you?")))
        record("sync.get_after_add", lambda: show(store.get_messages(k1)))
        record("sync.set_other_key", lambda: store.set_messages(k2, [u("Hello, my name is Bob.")]))
        record("sync.get_other_key", lambda: show(store.get_messages(k2)))
        record("sync.get_keys", lambda: mine(store.get_keys()))
        record("sync.delete_last_message", lambda: show(store.delete_last_message(k1)))
        record("sync.delete_message", lambda: show(store.delete_message(k1, 1)))
        record("sync.get_after_deletes", lambda: show(store.get_messages(k1)))
        record("sync.delete_messages", lambda: show(store.delete_messages(k2)))
        record("sync.get_deleted_key", lambda: show(store.get_messages(k2)))
        record("sync.get_keys_after_delete", lambda: mine(store.get_keys()))
        record("sync.delete_messages_rest", lambda: show(store.delete_messages(k1)))
        record("sync.get_keys_at_end", lambda: mine(store.get_keys()))


async def store_async() -> None:
    k1, k2 = f"Carol_{RUN}", f"dave_{RUN}"
    async with MemoryLayerChatStore(base_url=BASE_URL, workspace_id=WORKSPACE) as store:
        await arecord("async.set_messages", lambda: store.aset_messages(k1, CHAT))
        await arecord("async.get_messages", lambda: _show(store.aget_messages(k1)))
        await arecord("async.add_message", lambda: store.async_add_message(k1, u("How are you?")))
        await arecord("async.get_after_add", lambda: _show(store.aget_messages(k1)))
        await arecord("async.set_other_key", lambda: store.aset_messages(k2, [u("Hello, my name is Bob.")]))
        await arecord("async.get_other_key", lambda: _show(store.aget_messages(k2)))
        await arecord("async.get_keys", lambda: _mine(store.aget_keys()))
        await arecord("async.delete_last_message", lambda: _show(store.adelete_last_message(k1)))
        await arecord("async.delete_message", lambda: _show(store.adelete_message(k1, 1)))
        await arecord("async.get_after_deletes", lambda: _show(store.aget_messages(k1)))
        await arecord("async.delete_messages", lambda: _show(store.adelete_messages(k2)))
        await arecord("async.get_deleted_key", lambda: _show(store.aget_messages(k2)))
        await arecord("async.get_keys_after_delete", lambda: _mine(store.aget_keys()))
        await arecord("async.delete_messages_rest", lambda: _show(store.adelete_messages(k1)))
        await arecord("async.get_keys_at_end", lambda: _mine(store.aget_keys()))


async def _show(pending: Awaitable[Any]) -> Any:
    return show(await pending)


async def _mine(pending: Awaitable[list[str]]) -> list[str]:
    return mine(await pending)


def sdk_sync() -> None:
    with SyncMemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        tea = record(
            "sdk.remember", lambda: client.remember(f"Alice prefers green tea {RUN}", tags=["prefs"]).id
        )
        other = record("sdk.remember_2", lambda: client.remember(f"Bob drinks coffee {RUN}").id)
        record("sdk.recall", lambda: [m.id for m in client.recall(f"green tea {RUN}", limit=5).memories][:1])
        record("sdk.get_memory", lambda: client.get_memory(tea).content)
        record(
            "sdk.update_memory",
            lambda: (lambda m: [m.content, m.importance])(
                client.update_memory(tea, content="oolong", importance=0.9)
            ),
        )
        record("sdk.list_memories", lambda: sorted(m.id for m in client.list_memories(limit=200).memories))
        record(
            "sdk.associate",
            lambda: (lambda e: [e.source_id, e.target_id, e.relationship])(
                client.associate(tea, other, "related_to")
            ),
        )
        record(
            "sdk.get_associations", lambda: [(e.source_id, e.target_id) for e in client.get_associations(tea)]
        )
        made = record(
            "sdk.create_workspace", lambda: (lambda w: [w.id, w.name])(client.create_workspace(f"n{RUN}"))
        )
        record(
            "sdk.get_workspace",
            lambda: client.get_workspace(made[0] if made else WORKSPACE or "_default").name,
        )
        record("sdk.forget", lambda: client.forget(tea))
        record("sdk.get_forgotten", lambda: client.get_memory(tea).content)
        RESULTS["sdk.ids"] = {"ok": True, "value": [tea, other]}


async def sdk_async() -> None:
    async with MemoryLayerClient(base_url=BASE_URL, workspace_id=WORKSPACE) as client:
        tea = await arecord("asdk.remember", lambda: _id(client.remember(f"Alice prefers black tea {RUN}")))
        other = await arecord("asdk.remember_2", lambda: _id(client.remember(f"Bob drinks espresso {RUN}")))
        await arecord("asdk.recall", lambda: _ids(client.recall(f"black tea {RUN}", limit=5), 1))
        await arecord("asdk.get_memory", lambda: _attr(client.get_memory(tea), "content"))
        await arecord(
            "asdk.update_memory", lambda: _attr(client.update_memory(tea, importance=0.9), "importance")
        )
        await arecord("asdk.list_memories", lambda: _ids(client.list_memories(limit=200), None))
        await arecord(
            "asdk.associate", lambda: _attr(client.associate(tea, other, "related_to"), "relationship")
        )
        await arecord("asdk.get_associations", lambda: _len(client.get_associations(tea)))
        made = await arecord("asdk.create_workspace", lambda: _attr(client.create_workspace(f"m{RUN}"), "id"))
        await arecord(
            "asdk.get_workspace", lambda: _attr(client.get_workspace(made or WORKSPACE or "_default"), "id")
        )
        await arecord("asdk.forget", lambda: client.forget(tea))
        await arecord("asdk.get_forgotten", lambda: _attr(client.get_memory(tea), "content"))
        RESULTS["asdk.ids"] = {"ok": True, "value": [tea, other]}


async def _id(pending: Awaitable[Any]) -> str:
    return (await pending).id


async def _attr(pending: Awaitable[Any], name: str) -> Any:
    return getattr(await pending, name)


async def _len(pending: Awaitable[list[Any]]) -> int:
    return len(await pending)


async def _ids(pending: Awaitable[Any], first: int | None) -> list[str]:
    ids = (
        sorted(m.id for m in (await pending).memories)
        if first is None
        else [m.id for m in (await pending).memories]
    )
    return ids if first is None else ids[:first]


if __name__ == "__main__":
    RESULTS["_run"] = {"ok": True, "value": RUN}
    store_sync()
    asyncio.run(store_async())
    sdk_sync()
    asyncio.run(sdk_async())
    print(json.dumps(RESULTS))
