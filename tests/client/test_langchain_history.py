"""MemoryLayerChatMessageHistory (LangChain's BaseChatMessageHistory) against the live local server: messages
of every kind round-trip through a thread, sync and async, RunnableWithMessageHistory over a fake chat model
sees the history after a restart, extraction turns the chat into memories, and workspaces are walled."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import RunnableLambda
from langchain_core.runnables.history import RunnableWithMessageHistory
from memorylayer import MemoryLayerError
from memorylayer_langchain import MemoryLayerChatMessageHistory

# The task's API (LangChain points new code at LangGraph's persistence, which memorylayer-langgraph serves).
pytestmark = pytest.mark.filterwarnings("ignore:RunnableWithMessageHistory is deprecated")

EVERY_KIND: list[BaseMessage] = [
    SystemMessage("You are terse."),
    HumanMessage("What's the weather in Paris?", id="h1", additional_kwargs={"lang": "en"}),
    AIMessage(
        "",
        tool_calls=[
            {"name": "weather", "args": {"city": "Paris", "deep": {"a": {"b": [1, 2]}}}, "id": "call_1"}
        ],
    ),
    ToolMessage("18°C and sunny", tool_call_id="call_1"),
    AIMessage([{"type": "text", "text": "It is 18°C"}, {"type": "text", "text": "and sunny."}]),
    ChatMessage(role="critic", content="Good answer."),
    FunctionMessage(name="legacy", content="{}"),
]


@pytest.fixture()
def history(base_url: str, ws: str) -> Iterator[MemoryLayerChatMessageHistory]:
    with MemoryLayerChatMessageHistory("alice", base_url=base_url, workspace_id=ws) as h:
        yield h


def _thread(http: httpx.Client, ws: str, thread_id: str) -> httpx.Response:
    return http.get(f"/v1/threads/{thread_id}/messages", headers={"X-Workspace-ID": ws})


def test_every_message_kind_round_trips(
    history: MemoryLayerChatMessageHistory, http: httpx.Client, ws: str
) -> None:
    assert history.messages == []  # no thread yet
    history.add_messages(EVERY_KIND)
    assert history.messages == EVERY_KIND

    # The thread carries roles and text extraction understands
    rows = _thread(http, ws, "langchain-alice").json()["messages"]
    assert [(r["role"], r["content"]) for r in rows] == [
        ("system", "You are terse."),
        ("user", "What's the weather in Paris?"),
        ("assistant", ""),
        ("tool", "18°C and sunny"),
        ("assistant", "It is 18°C\nand sunny."),
        ("critic", "Good answer."),
        ("function", "{}"),
    ]


def test_add_and_clear(history: MemoryLayerChatMessageHistory, http: httpx.Client, ws: str) -> None:
    history.add_user_message("Hello!")
    history.add_ai_message("Hi, how can I help?")
    history.add_message(HumanMessage("Tell me a joke"))
    assert [(m.type, m.content) for m in history.messages] == [
        ("human", "Hello!"),
        ("ai", "Hi, how can I help?"),
        ("human", "Tell me a joke"),
    ]
    assert "Human: Hello!" in str(history)

    history.clear()
    assert history.messages == []
    assert _thread(http, ws, "langchain-alice").status_code == 404
    history.clear()  # clearing an empty history is fine
    history.add_user_message("Fresh start")
    assert [m.content for m in history.messages] == ["Fresh start"]


def test_many_messages_page(history: MemoryLayerChatMessageHistory) -> None:
    batch = [HumanMessage(f"m{i}") if i % 2 == 0 else AIMessage(f"m{i}") for i in range(1203)]
    history.add_messages(batch)  # three appends (500 per request), read back in two pages of 1000
    assert [m.content for m in history.messages] == [f"m{i}" for i in range(1203)]


async def test_async_variants(base_url: str, ws: str) -> None:
    async with MemoryLayerChatMessageHistory("bob", base_url=base_url, workspace_id=ws) as history:
        assert await history.aget_messages() == []
        await history.aadd_messages([HumanMessage("one"), AIMessage("two")])
        await history.aadd_messages(EVERY_KIND)
        assert await history.aget_messages() == [HumanMessage("one"), AIMessage("two"), *EVERY_KIND]
        await history.aclear()
        assert await history.aget_messages() == []


def test_session_ids_map_to_distinct_threads(base_url: str, ws: str) -> None:
    with (
        MemoryLayerChatMessageHistory("alice@example.com", base_url=base_url, workspace_id=ws) as a,
        MemoryLayerChatMessageHistory("alice_example.com", base_url=base_url, workspace_id=ws) as b,
    ):
        assert a.thread_id != b.thread_id
        a.add_user_message("from a")
        b.add_user_message("from b")
        assert [m.content for m in a.messages] == ["from a"]
        assert [m.content for m in b.messages] == ["from b"]


def test_messages_appended_by_others_read_back(
    history: MemoryLayerChatMessageHistory, http: httpx.Client, ws: str
) -> None:
    history.add_user_message("first")
    added = http.post(
        "/v1/threads/langchain-alice/messages",
        json={
            "messages": [{"role": "assistant", "content": "from the API"}, {"role": "user", "content": "ok"}]
        },
        headers={"X-Workspace-ID": ws},
    )
    assert added.status_code == 201
    assert [(m.type, m.content) for m in history.messages] == [
        ("human", "first"),
        ("ai", "from the API"),
        ("human", "ok"),
    ]


class Recorder:
    """What the model was shown, per call."""

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def __call__(self, prompt: Any) -> Any:
        self.prompts.append(prompt.to_messages())
        return prompt


def _chain(base_url: str, ws: str, recorder: Recorder, answers: list[str]) -> RunnableWithMessageHistory:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You help."), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    model = FakeListChatModel(responses=answers)
    return RunnableWithMessageHistory(
        prompt | RunnableLambda(recorder) | model,
        lambda session_id: MemoryLayerChatMessageHistory(session_id, base_url=base_url, workspace_id=ws),
        input_messages_key="input",
        history_messages_key="history",
    )


def test_runnable_with_message_history_remembers_across_restarts(
    base_url: str, ws: str, http: httpx.Client
) -> None:
    config: Any = {"configurable": {"session_id": "dana"}}
    first = Recorder()
    reply = _chain(base_url, ws, first, ["Nice to meet you, Dana."]).invoke(
        {"input": "I'm Dana, I live in Porto."}, config
    )
    assert reply.content == "Nice to meet you, Dana."
    assert [m.content for m in first.prompts[0]] == ["You help.", "I'm Dana, I live in Porto."]

    # A new chain (a restart): the model sees the earlier turn
    second = Recorder()
    _chain(base_url, ws, second, ["Porto."]).invoke({"input": "Where do I live?"}, config)
    assert [m.content for m in second.prompts[0]] == [
        "You help.",
        "I'm Dana, I live in Porto.",
        "Nice to meet you, Dana.",
        "Where do I live?",
    ]
    # Another session starts empty
    third = Recorder()
    _chain(base_url, ws, third, ["?"]).invoke(
        {"input": "Where do I live?"}, {"configurable": {"session_id": "eve"}}
    )
    assert [m.content for m in third.prompts[0]] == ["You help.", "Where do I live?"]

    # The server extracts facts from the conversation: recallable from anywhere in the workspace
    with MemoryLayerChatMessageHistory("dana", base_url=base_url, workspace_id=ws) as history:
        assert history.extract_facts().memories_created >= 1
    contents = [
        m["content"]
        for m in http.get("/v1/memories", params={"limit": 100}, headers={"X-Workspace-ID": ws}).json()[
            "memories"
        ]
    ]
    assert "User lives in Porto" in contents


async def test_runnable_with_message_history_async(base_url: str, ws: str) -> None:
    config: Any = {"configurable": {"session_id": "async-1"}}
    await _chain(base_url, ws, Recorder(), ["first"]).ainvoke({"input": "hello"}, config)
    seen = Recorder()
    await _chain(base_url, ws, seen, ["second"]).ainvoke({"input": "again"}, config)
    assert [m.content for m in seen.prompts[0]] == ["You help.", "hello", "first", "again"]


def test_another_workspace_sees_nothing(base_url: str, ws: str, other_ws: str) -> None:
    with (
        MemoryLayerChatMessageHistory("alice", base_url=base_url, workspace_id=ws) as mine,
        MemoryLayerChatMessageHistory("alice", base_url=base_url, workspace_id=other_ws) as theirs,
    ):
        mine.add_user_message("my secret")
        assert theirs.messages == []
        theirs.clear()  # cannot touch it either
        assert [m.content for m in mine.messages] == ["my secret"]


def test_bad_input_is_refused_and_stores_nothing(history: MemoryLayerChatMessageHistory) -> None:
    with pytest.raises(MemoryLayerError) as refused:
        history.add_messages([HumanMessage("ok"), HumanMessage("x" * 70_000)])  # over the content limit
    assert refused.value.status_code == 413
    assert history.messages == []


def test_environment_defaults(base_url: str, ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_URL", base_url)
    monkeypatch.setenv("MEMORYLAYER_WORKSPACE_ID", ws)
    with MemoryLayerChatMessageHistory("env") as from_env:
        from_env.add_user_message("hi")
    with MemoryLayerChatMessageHistory("env", base_url=base_url, workspace_id=ws) as explicit:
        assert [m.content for m in explicit.messages] == ["hi"]
