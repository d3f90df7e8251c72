"""MemoryLayerChatStore against the live local server: every method sync and async, LlamaIndex integration,
conformance with SimpleChatStore, and concurrent appends from several processes."""

from __future__ import annotations

import multiprocessing
import uuid
from collections.abc import Iterator

import pytest
from llama_index.core.base.llms.types import ImageBlock, TextBlock, ThinkingBlock
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import ChatMessage, MessageRole, MockLLM
from llama_index.core.memory import ChatMemoryBuffer
from llama_index.core.storage.chat_store import SimpleChatStore
from memorylayer import SyncMemoryLayerClient
from memorylayer_llamaindex import (
    CHAT_KEY_TAG_PREFIX,
    MemoryLayerChatStore,
    chat_message_to_memory_payload,
    get_chat_key,
    get_message_index,
    memory_to_chat_message,
    message_role_to_string,
    string_to_message_role,
)


def msg(text: str, role: MessageRole = MessageRole.USER) -> ChatMessage:
    return ChatMessage(role=role, content=text)


def texts(messages: list[ChatMessage] | None) -> list[str] | None:
    return None if messages is None else [f"{m.role.value}:{m.content}" for m in messages]


@pytest.fixture()
def store(base_url: str, ws: str) -> Iterator[MemoryLayerChatStore]:
    with MemoryLayerChatStore(base_url=base_url, workspace_id=ws) as chat_store:
        yield chat_store


def test_sync_methods(store: MemoryLayerChatStore) -> None:
    # Given a chat set in one go
    store.set_messages("alice", [msg("Hello!"), msg("Hi there!", MessageRole.ASSISTANT)])
    assert texts(store.get_messages("alice")) == ["user:Hello!", "assistant:Hi there!"]

    # When messages are appended and deleted
    store.add_message("alice", msg("How are you?"))
    store.add_message("alice", msg("Fine.", MessageRole.ASSISTANT))
    assert texts(store.get_messages("alice"))[-2:] == ["user:How are you?", "assistant:Fine."]
    assert store.delete_message("alice", 1).content == "Hi there!"
    assert store.delete_message("alice", 99) is None
    assert store.delete_last_message("alice").content == "Fine."
    assert texts(store.get_messages("alice")) == ["user:Hello!", "user:How are you?"]

    # Then keys and whole-chat deletion behave
    store.add_message("bob", msg("Yo"))
    assert sorted(store.get_keys()) == ["alice", "bob"]
    assert texts(store.delete_messages("alice")) == ["user:Hello!", "user:How are you?"]
    assert store.get_messages("alice") == []
    assert store.delete_messages("alice") is None
    assert store.delete_last_message("alice") is None
    assert store.delete_message("nobody", 0) is None
    assert store.get_keys() == ["bob"]


async def test_async_methods(base_url: str, ws: str) -> None:
    async with MemoryLayerChatStore(base_url=base_url, workspace_id=ws) as store:
        await store.aset_messages("k", [msg(f"m{i}") for i in range(12)])
        assert [m.content for m in await store.aget_messages("k")] == [f"m{i}" for i in range(12)]
        await store.async_add_message("k", msg("last", MessageRole.ASSISTANT))
        assert (await store.adelete_message("k", 0)).content == "m0"
        assert (await store.adelete_last_message("k")).content == "last"
        assert await store.adelete_message("k", 50) is None
        assert await store.aget_keys() == ["k"]
        deleted = await store.adelete_messages("k")
        assert [m.content for m in deleted] == [f"m{i}" for i in range(1, 12)]
        assert await store.aget_messages("k") == []
        assert await store.adelete_messages("k") is None
        assert await store.adelete_last_message("k") is None
        assert await store.aget_keys() == []


def test_sync_and_async_share_one_chat(store: MemoryLayerChatStore) -> None:
    import asyncio

    store.add_message("mixed", msg("sync 1"))
    asyncio.run(store.async_add_message("mixed", msg("async 2")))
    asyncio.run(store.async_add_message("mixed", msg("async 3")))  # another event loop: the client copes
    store.add_message("mixed", msg("sync 4"))
    assert [m.content for m in store.get_messages("mixed")] == ["sync 1", "async 2", "async 3", "sync 4"]


def test_wire_layout(store: MemoryLayerChatStore, base_url: str, ws: str) -> None:
    store.add_message(
        "Alice", ChatMessage(role=MessageRole.USER, content="Hello!", additional_kwargs={"x": 1})
    )
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        (memory,) = client.list_memories(sequence_key="Alice").memories
    assert memory.content == "user: Hello!"
    assert memory.type == "episodic"
    assert memory.tags == ["llamaindex_chat_key:Alice"]  # the key's case is kept
    assert memory.metadata["chat_key"] == "Alice" and memory.metadata["message_index"] == 0
    assert memory.metadata["role"] == "user" and memory.metadata["additional_kwargs"] == {"x": 1}
    assert memory.metadata["blocks"] == [{"block_type": "text", "text": "Hello!"}]
    assert (memory.sequence_key, memory.sequence_index) == ("Alice", 0)


def test_lossless_round_trip(store: MemoryLayerChatStore) -> None:
    messages = [
        ChatMessage(role=MessageRole.SYSTEM, content="Be brief."),
        ChatMessage(role=MessageRole.USER, blocks=[TextBlock(text="look"), TextBlock(text="twice")]),
        ChatMessage(
            role=MessageRole.USER,
            blocks=[
                TextBlock(text="this one:"),
                ImageBlock(image=b"\x89PNG\x00\xff", image_mimetype="image/png"),
                ImageBlock(url="http://example.com/cat.png"),
            ],
        ),
        ChatMessage(
            role=MessageRole.ASSISTANT, blocks=[ThinkingBlock(content="hmm"), TextBlock(text="a cat")]
        ),
        ChatMessage(
            role=MessageRole.ASSISTANT, content=None, additional_kwargs={"tool_calls": [{"id": "t1"}]}
        ),
        ChatMessage(
            role=MessageRole.TOOL,
            content="42",
            additional_kwargs={"tool_call_id": "t1", "nested": {"a": [1]}},
        ),
        ChatMessage(role=MessageRole.CHATBOT, content="c"),
        ChatMessage(role=MessageRole.MODEL, content="m"),
        ChatMessage(role=MessageRole.FUNCTION, content="f"),
        ChatMessage(role=MessageRole.USER, content="ünïcödé ✓ and\nnew lines"),
    ]
    store.set_messages("rt", messages)
    assert store.get_messages("rt") == messages


def test_repeats_and_identical_text_in_two_chats(store: MemoryLayerChatStore) -> None:
    # reference defects (a) and (b): identical content must stay separate messages
    store.set_messages("alice_chat", [msg("Hello, my name is Bob.")])
    store.set_messages("bob_chat", [msg("Hello, my name is Bob.")])
    store.add_message("bob_chat", msg("ok"))
    store.add_message("bob_chat", msg("ok", MessageRole.ASSISTANT))
    store.add_message("bob_chat", msg("ok", MessageRole.ASSISTANT))
    assert texts(store.get_messages("alice_chat")) == ["user:Hello, my name is Bob."]
    assert texts(store.get_messages("bob_chat")) == [
        "user:Hello, my name is Bob.",
        "user:ok",
        "assistant:ok",
        "assistant:ok",
    ]
    assert sorted(store.get_keys()) == ["alice_chat", "bob_chat"]


def test_keys_differing_in_case_are_distinct(store: MemoryLayerChatStore) -> None:
    store.add_message("Alice", msg("upper"))
    store.add_message("alice", msg("lower"))
    assert texts(store.get_messages("Alice")) == ["user:upper"]
    assert texts(store.get_messages("alice")) == ["user:lower"]
    assert sorted(store.get_keys()) == ["Alice", "alice"]


def test_long_chat_is_paged_not_truncated(base_url: str, ws: str) -> None:
    with MemoryLayerChatStore(base_url=base_url, workspace_id=ws, page_size=4) as store:
        store.set_messages("long", [msg(f"n{i}") for i in range(13)])
        assert [m.content for m in store.get_messages("long")] == [f"n{i}" for i in range(13)]
        assert len(store.delete_messages("long")) == 13


def test_gaps_after_deletes(store: MemoryLayerChatStore, base_url: str, ws: str) -> None:
    # reference defect (d): positions, not stale indices, after a delete leaves a gap
    store.set_messages("g", [msg(f"m{i}") for i in range(5)])
    assert store.delete_message("g", 1).content == "m1"  # indices now 0,2,3,4
    assert store.delete_message("g", 1).content == "m2"  # position 1 is index 2
    assert store.delete_last_message("g").content == "m4"  # the highest index, not len-1
    store.add_message("g", msg("new"))
    assert [m.content for m in store.get_messages("g")] == ["m0", "m3", "new"]
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        indices = [m.metadata["message_index"] for m in client.list_memories(sequence_key="g").memories]
    assert indices == [0, 3, 4]  # nothing renumbered


def test_no_workspace_uses_default(base_url: str) -> None:
    key = f"nows_{uuid.uuid4().hex[:8]}"
    with MemoryLayerChatStore(base_url=base_url) as store:
        store.add_message(key, msg("in _default"))
        assert texts(store.get_messages(key)) == ["user:in _default"]
        assert key in store.get_keys()
        store.delete_messages(key)
        assert key not in store.get_keys()


def test_memory_buffer_and_chat_engine_persist(base_url: str, ws: str) -> None:
    # Session 1: a chat engine with memory in MemoryLayer
    first = MemoryLayerChatStore(base_url=base_url, workspace_id=ws)
    memory = ChatMemoryBuffer.from_defaults(chat_store=first, chat_store_key="sarah", token_limit=3000)
    engine = SimpleChatEngine.from_defaults(memory=memory, llm=MockLLM(max_tokens=8))
    engine.chat("Hello! I'm Sarah.")
    memory.put(ChatMessage(role=MessageRole.USER, content="Remember this."))
    first.close()

    # === restart === Session 2: a new store instance sees the history
    second = MemoryLayerChatStore(base_url=base_url, workspace_id=ws)
    memory2 = ChatMemoryBuffer.from_defaults(chat_store=second, chat_store_key="sarah", token_limit=3000)
    history = memory2.get()
    assert [m.role for m in history] == [MessageRole.USER, MessageRole.ASSISTANT, MessageRole.USER]
    assert history[0].content == "Hello! I'm Sarah." and history[2].content == "Remember this."
    engine2 = SimpleChatEngine.from_defaults(memory=memory2, llm=MockLLM(max_tokens=8))
    engine2.chat("What's my name?")
    assert len(second.get_messages("sarah")) == 5
    memory2.reset()
    assert second.get_messages("sarah") == []


async def test_memory_buffer_async(base_url: str, ws: str) -> None:
    async with MemoryLayerChatStore(base_url=base_url, workspace_id=ws) as store:
        memory = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="a")
        await memory.aput(msg("async hello"))
        await memory.aset([msg("replaced"), msg("too", MessageRole.ASSISTANT)])
        assert texts(await memory.aget_all()) == ["user:replaced", "assistant:too"]


def test_conformance_with_simple_chat_store(store: MemoryLayerChatStore) -> None:
    reference = SimpleChatStore()
    operations: list[tuple[str, tuple]] = [
        ("set_messages", ("c", [msg("a"), msg("b", MessageRole.ASSISTANT), msg("c"), msg("d")])),
        ("add_message", ("c", msg("e", MessageRole.ASSISTANT))),
        ("delete_message", ("c", 1)),
        ("delete_message", ("c", 1)),
        ("delete_message", ("c", 7)),
        ("add_message", ("c", msg("f"))),
        ("delete_last_message", ("c",)),
        ("delete_message", ("c", 0)),
        ("add_message", ("c", msg("g"))),
        ("add_message", ("other", msg("x"))),
        ("delete_message", ("c", -1)),
        ("delete_messages", ("other",)),
        ("delete_messages", ("other",)),
        ("delete_message", ("missing", 0)),
        ("delete_last_message", ("missing",)),
        ("set_messages", ("c", [msg("h"), msg("h")])),
        ("add_message", ("c", msg("h"))),
        ("delete_message", ("c", 2)),
        ("add_message", ("c", msg("h"))),
    ]
    for name, args in operations:
        ours, theirs = getattr(store, name)(*args), getattr(reference, name)(*args)
        if isinstance(theirs, list):
            assert texts(ours) == texts(theirs), name
        else:
            assert ours == theirs, (name, args)
        for key in ("c", "other", "missing"):
            assert store.get_messages(key) == reference.get_messages(key), (name, args, key)
    assert store.get_keys() == [k for k in reference.get_keys() if reference.get_messages(k)]


def _append(base_url: str, ws: str, worker: int, count: int) -> None:
    with MemoryLayerChatStore(base_url=base_url, workspace_id=ws) as store:
        for i in range(count):
            store.add_message("shared", msg(f"w{worker}-{i}"))


def test_concurrent_appends_from_processes(base_url: str, ws: str) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_append, args=(base_url, ws, w, 10)) for w in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(120)
    assert [p.exitcode for p in workers] == [0, 0, 0, 0]

    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        memories = list(client.iterate_memories(sequence_key="shared"))
    assert len(memories) == 40
    assert sorted(m.metadata["message_index"] for m in memories) == list(range(40))
    with MemoryLayerChatStore(base_url=base_url, workspace_id=ws) as store:
        contents = [m.content for m in store.get_messages("shared")]
    assert sorted(contents) == sorted(f"w{w}-{i}" for w in range(4) for i in range(10))
    for w in range(4):  # each process's own messages keep their order
        assert [c for c in contents if c.startswith(f"w{w}-")] == [f"w{w}-{i}" for i in range(10)]


def test_utilities() -> None:
    assert message_role_to_string(MessageRole.ASSISTANT) == "assistant"
    assert [string_to_message_role(s) for s in ("human", "AI", " user ", "tool", "chatbot", "model")] == [
        MessageRole.USER,
        MessageRole.ASSISTANT,
        MessageRole.USER,
        MessageRole.TOOL,
        MessageRole.CHATBOT,
        MessageRole.MODEL,
    ]
    assert string_to_message_role("wizard") == MessageRole.USER
    payload = chat_message_to_memory_payload(msg("hi"), "k", 3, additional_tags=["extra"])
    assert payload["tags"] == [f"{CHAT_KEY_TAG_PREFIX}k", "extra"] and payload["sequence_key"] == "k"
    assert get_message_index(payload) == 3 and get_chat_key(payload) == "k"
    assert "message_index" not in chat_message_to_memory_payload(msg("hi"), "k")["metadata"]
    # a memory written by someone else: content only
    foreign = memory_to_chat_message({"content": "assistant: plain", "metadata": {"role": "ai"}})
    assert (foreign.role, foreign.content) == (MessageRole.ASSISTANT, "plain")
    assert memory_to_chat_message({"content": "no metadata"}).content == "no metadata"
    unknown_block = {
        "content": "user: x",
        "metadata": {
            "role": "user",
            "blocks": [{"block_type": "hologram", "data": 1}, {"block_type": "text", "text": "x"}],
        },
    }
    assert memory_to_chat_message(unknown_block).blocks == [TextBlock(text="x")]


def test_store_config_and_serialisation(base_url: str) -> None:
    store = MemoryLayerChatStore(base_url=base_url, api_key="secret", workspace_id="ws_cfg", timeout=5.0)
    assert MemoryLayerChatStore.class_name() == "MemoryLayerChatStore"
    dumped = store.to_dict()
    assert dumped["class_name"] == "MemoryLayerChatStore" and dumped["workspace_id"] == "ws_cfg"
    assert "secret" not in str(dumped) and "secret" not in repr(store)
    assert store.client.workspace_id == "ws_cfg" and store.client.timeout == 5.0
    assert MemoryLayerChatStore().base_url == "http://localhost:61001"
