"""LlamaIndex beyond the chat store: ``MemoryLayerMemoryBlock`` in ``llama_index.core.memory.Memory`` and
``MemoryLayerChatStore(thread_messages=True)``, against the real app on uvicorn.

Each test says a fact in one chat, then builds everything anew (store, block, memory, engine or agent: a
restart) and checks that the fact reaches the next chat's prompt. MockLLM echoes the prompt it is given, so
the response shows exactly what the model would have seen.
"""

from __future__ import annotations

from typing import Any

import httpx
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import ChatMessage, MessageRole
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.memory import ChatMemoryBuffer, Memory
from memorylayer_llamaindex import MemoryLayerChatStore, MemoryLayerMemoryBlock


def _memory(base_url: str, ws: str, session_id: str, **block: Any) -> Memory:
    # A small token limit: the first turns leave the short-term queue at once, which is when Memory hands them
    # to its blocks.
    return Memory.from_defaults(
        session_id=session_id,
        token_limit=60,
        token_flush_size=20,
        memory_blocks=[MemoryLayerMemoryBlock(base_url=base_url, workspace_id=ws, **block)],
    )


def _contents(http: httpx.Client, ws: str) -> list[str]:
    page = http.get("/v1/memories", params={"limit": 200}, headers={"X-Workspace-ID": ws}).json()
    return [m["content"] for m in page["memories"]]


def test_simple_chat_engine_recalls_a_fact_from_an_earlier_chat(
    base_url: str, http: httpx.Client, ws: str
) -> None:
    first = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=_memory(base_url, ws, "chat-1"))
    first.chat("Hello there. I live in Lisbon.")
    first.chat("Thanks, that is all for today.")
    # The block wrote the ejected turns to the thread of this session, and the server extracted the fact.
    thread = http.get("/v1/threads/llamaindex-chat-1/messages", headers={"X-Workspace-ID": ws}).json()
    assert thread["messages"][0]["role"] == "user" and "Lisbon" in thread["messages"][0]["content"]
    assert "User lives in Lisbon" in _contents(http, ws)

    second = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=_memory(base_url, ws, "chat-2"))
    reply = second.chat("Which city do I live in?")
    assert "User lives in Lisbon" in str(reply)  # injected into the prompt of a chat that never heard it

    elsewhere = SimpleChatEngine.from_defaults(
        llm=MockLLM(), memory=_memory(base_url, f"{ws}_other", "chat-3")
    )
    assert "Lisbon" not in str(elsewhere.chat("Which city do I live in?"))  # another workspace knows nothing


async def test_function_agent_recalls_a_fact_from_an_earlier_run(
    base_url: str, http: httpx.Client, ws: str
) -> None:
    seen: list[list[ChatMessage]] = []

    def reply(messages: list[ChatMessage], **_: Any) -> ChatMessage:
        seen.append(list(messages))
        return ChatMessage(
            role=MessageRole.ASSISTANT, content="Noted. I will keep that in mind for the rest of our talk."
        )

    def agent() -> FunctionAgent:
        return FunctionAgent(
            tools=[], llm=MockFunctionCallingLLM(response_generator=reply), system_prompt="Be brief."
        )

    memory = _memory(base_url, ws, "agent-1")
    await agent().run("My name is Dana Whitfield and I work at Globex.", memory=memory)
    await agent().run(
        "Please remind me to water the plants, with a long sentence to fill the queue.", memory=memory
    )
    assert "User works at Globex" in _contents(http, ws)

    seen.clear()
    await agent().run("Where do I work?", memory=_memory(base_url, ws, "agent-2"))
    system = "\n".join(m.content or "" for m in seen[-1] if m.role == MessageRole.SYSTEM)
    assert "User works at Globex" in system and "Be brief." in system  # the agent's prompt, then the memory


def test_context_pack_mode_injects_the_sessions_pack(base_url: str, http: httpx.Client, ws: str) -> None:
    http.post(
        "/v1/memories",
        json={"content": "Always answer in British English.", "subtype": "directive", "pinned": True},
        headers={"X-Workspace-ID": ws},
    ).raise_for_status()
    engine = SimpleChatEngine.from_defaults(
        llm=MockLLM(), memory=_memory(base_url, ws, "pack-1", mode="context_pack", write="none")
    )
    assert "Always answer in British English." in str(engine.chat("What colour is the sky?"))


def test_chat_store_thread_option_feeds_extraction(base_url: str, http: httpx.Client, ws: str) -> None:
    store = MemoryLayerChatStore(base_url=base_url, workspace_id=ws, thread_messages=True)
    buffer = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="dana@example.com")
    SimpleChatEngine.from_defaults(llm=MockLLM(max_tokens=3), memory=buffer).chat(
        "I moved to Porto last spring."
    )
    assert store.thread_id("dana@example.com") == "llamaindex-dana_example.com-07e2f139"
    thread = http.get(
        "/v1/threads/llamaindex-dana_example.com-07e2f139/full", headers={"X-Workspace-ID": ws}
    ).json()
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]
    assert thread["messages"][0]["content"] == "I moved to Porto last spring."
    assert len(store.get_messages("dana@example.com")) == 2  # the chat history itself is unchanged

    assert store.extract_facts("dana@example.com")["memories_created"] >= 1
    assert "User lives in Porto" in _contents(http, ws)

    # A restart: a new store, a new engine, a new chat key; the block brings the fact in.
    fresh = SimpleChatEngine.from_defaults(
        llm=MockLLM(), memory=_memory(base_url, ws, "after-restart", write="none")
    )
    assert "User lives in Porto" in str(fresh.chat("Which city do I live in now?"))

    without = MemoryLayerChatStore(base_url=base_url, workspace_id=ws)  # the option is off by default
    without.add_message("bob", ChatMessage(role="user", content="I live in Oslo."))
    assert http.get("/v1/threads/llamaindex-bob", headers={"X-Workspace-ID": ws}).status_code == 404
