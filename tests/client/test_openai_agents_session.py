"""MemoryLayerSession (the OpenAI Agents SDK's Session protocol) against the live local server: get_items with
and without a limit, add_items, pop_item, clear_session, items of every kind round-tripping through a thread,
and a Runner loop (a tool call, then an answer) over a fake model with canned answers: no network, no key."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from agents import Agent, Runner, Session, SessionSettings, function_tool, set_tracing_disabled
from agents.items import ModelResponse, TResponseInputItem, TResponseOutputItem, TResponseStreamEvent
from agents.models.interface import Model
from agents.usage import Usage
from memorylayer import MemoryLayerError
from memorylayer_openai_agents import MemoryLayerSession
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

set_tracing_disabled(True)  # the SDK would export traces to OpenAI


def _session(base_url: str, ws: str, session_id: str = "user-42", **options: Any) -> MemoryLayerSession:
    return MemoryLayerSession(session_id, base_url=base_url, workspace_id=ws, **options)


def _user(text: str) -> TResponseInputItem:
    return {"role": "user", "content": text}


def _thread(http: httpx.Client, ws: str, thread_id: str) -> httpx.Response:
    return http.get(f"/v1/threads/{thread_id}/messages", headers={"X-Workspace-ID": ws})


EVERY_KIND: list[Any] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
    {
        "type": "function_call",
        "call_id": "call_1",
        "name": "weather",
        "arguments": '{"city": "Paris", "deep": {"a": {"b": {"c": [1, 2]}}}}',
        "id": "fc_1",
        "status": "completed",
    },
    {"type": "function_call_output", "call_id": "call_1", "output": "18°C"},
    {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "It is 18°C.", "annotations": []}],
    },
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "checked the tool"}]},
]


async def test_the_session_protocol(base_url: str, ws: str, http: httpx.Client) -> None:
    async with _session(base_url, ws) as session:
        assert isinstance(session, Session)
        assert await session.get_items() == [] and await session.pop_item() is None  # no thread yet
        await session.clear_session()  # nothing to clear is fine
        await session.add_items([])

        await session.add_items(EVERY_KIND)
        assert await session.get_items() == EVERY_KIND
        assert await session.get_items(limit=2) == EVERY_KIND[-2:]  # the latest, oldest first
        assert await session.get_items(limit=100) == EVERY_KIND
        assert await session.get_items(limit=0) == []

        # The thread carries roles and text extraction can read
        rows = _thread(http, ws, "agents-user-42").json()["messages"]
        assert [(r["role"], r["content"]) for r in rows] == [
            ("system", "Be brief."),
            ("user", "Weather in Paris?"),
            ("function_call", 'weather({"city": "Paris", "deep": {"a": {"b": {"c": [1, 2]}}}})'),
            ("function_call_output", "18°C"),
            ("assistant", "It is 18°C."),
            ("reasoning", "checked the tool"),
        ]

        assert await session.pop_item() == EVERY_KIND[-1]
        assert await session.pop_item() == EVERY_KIND[-2]
        assert await session.get_items() == EVERY_KIND[:-2]
        await session.add_items([_user("and tomorrow?")])
        assert (await session.get_items(limit=1)) == [_user("and tomorrow?")]

        await session.clear_session()
        assert await session.get_items() == [] and await session.pop_item() is None
        assert _thread(http, ws, "agents-user-42").status_code == 404


async def test_session_settings_limit_and_paging(base_url: str, ws: str) -> None:
    async with _session(base_url, ws, session_settings=SessionSettings(limit=3)) as session:
        await session.add_items([_user(f"m{i}") for i in range(1105)])  # three appends of at most 500
        assert [i["content"] for i in await session.get_items()] == ["m1102", "m1103", "m1104"]  # type: ignore[typeddict-item]
        everything = await session.get_items(limit=-1)
        assert [i["content"] for i in everything] == [f"m{i}" for i in range(1105)]  # type: ignore[typeddict-item]
        latest = await session.get_items(limit=1050)  # past one page of 1000
        assert [i["content"] for i in latest] == [f"m{i}" for i in range(55, 1105)]  # type: ignore[typeddict-item]


async def test_sessions_are_distinct_and_walled(
    base_url: str, ws: str, other_ws: str, http: httpx.Client
) -> None:
    async with (
        _session(base_url, ws, "a/b") as slash,
        _session(base_url, ws, "a_b") as underscore,
        _session(base_url, other_ws, "a/b") as elsewhere,
    ):
        assert slash.thread_id != underscore.thread_id
        await slash.add_items([_user("mine")])
        await underscore.add_items([_user("theirs")])
        assert await slash.get_items() == [_user("mine")]
        assert await elsewhere.get_items() == [] and await elsewhere.pop_item() is None
        await elsewhere.clear_session()  # cannot touch it either
        assert await slash.get_items() == [_user("mine")]


async def test_items_appended_by_others_read_back(base_url: str, ws: str, http: httpx.Client) -> None:
    async with _session(base_url, ws) as session:
        await session.add_items([_user("hi")])
        added = http.post(
            "/v1/threads/agents-user-42/messages",
            json={"messages": [{"role": "assistant", "content": "from the API"}]},
            headers={"X-Workspace-ID": ws},
        )
        assert added.status_code == 201
        assert await session.get_items() == [_user("hi"), {"role": "assistant", "content": "from the API"}]


async def test_bad_input_is_refused_and_stores_nothing(base_url: str, ws: str) -> None:
    async with _session(base_url, ws) as session:
        with pytest.raises(MemoryLayerError) as refused:
            await session.add_items([_user("ok"), _user("x" * 70_000)])  # over the content limit
        assert refused.value.status_code == 413
        assert await session.get_items() == []


class CannedModel(Model):
    """A model that answers from a script and records what it was sent (the Agents SDK ships no fake)."""

    def __init__(self, turns: list[list[TResponseOutputItem]]) -> None:
        self.turns = list(turns)
        self.inputs: list[list[Any]] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        self.inputs.append([input] if isinstance(input, str) else list(input))
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("the tests run the model unstreamed")


def _say(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_x",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


@function_tool
def save_city(city: str) -> str:
    """Note the user's city."""
    return f"saved {city}"


def _texts(items: list[Any]) -> list[str]:
    out = []
    for item in items:
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out += [p.get("text", "") for p in content]
        elif isinstance(item, dict) and item.get("type") == "function_call_output":
            out.append(str(item["output"]))
    return out


async def test_a_runner_loop_remembers_across_restarts(base_url: str, ws: str, http: httpx.Client) -> None:
    call = ResponseFunctionToolCall(
        type="function_call",
        call_id="call_1",
        name="save_city",
        arguments=json.dumps({"city": "Porto"}),
        id="fc_1",
    )
    first_model = CannedModel([[call], [_say("Noted: you live in Porto.")]])
    agent = Agent(name="helper", instructions="Help.", model=first_model, tools=[save_city])
    async with _session(base_url, ws, "dana", user_id="dana") as session:
        result = await Runner.run(agent, "I'm Dana and I live in Porto.", session=session)
    assert result.final_output == "Noted: you live in Porto."
    assert "saved Porto" in _texts(first_model.inputs[1])  # the tool ran and its output went back

    # A new process: a new session object and model; the model is shown the whole earlier run
    second_model = CannedModel([[_say("You live in Porto.")]])
    again = Agent(name="helper", instructions="Help.", model=second_model, tools=[save_city])
    async with _session(base_url, ws, "dana") as session:
        result = await Runner.run(again, "Where do I live?", session=session)
        assert result.final_output == "You live in Porto."
        assert _texts(second_model.inputs[0]) == [
            "I'm Dana and I live in Porto.",
            "saved Porto",
            "Noted: you live in Porto.",
            "Where do I live?",
        ]
        kinds = [i.get("type", "message") for i in await session.get_items()]  # type: ignore[union-attr]
        assert kinds == ["message", "function_call", "function_call_output", "message", "message", "message"]

        # The server extracts facts from the conversation
        assert (await session.extract_facts()).memories_created >= 1
    contents = [
        m["content"]
        for m in http.get("/v1/memories", params={"limit": 100}, headers={"X-Workspace-ID": ws}).json()[
            "memories"
        ]
    ]
    assert "User lives in Porto" in contents

    # Another session of the same workspace starts empty
    third_model = CannedModel([[_say("I don't know yet.")]])
    async with _session(base_url, ws, "eve") as session:
        await Runner.run(Agent(name="helper", model=third_model), "Where do I live?", session=session)
    assert _texts(third_model.inputs[0]) == ["Where do I live?"]


async def test_environment_defaults(base_url: str, ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_URL", base_url)
    monkeypatch.setenv("MEMORYLAYER_WORKSPACE_ID", ws)
    async with MemoryLayerSession("env") as from_env:
        await from_env.add_items([_user("hi")])
    async with _session(base_url, ws, "env") as explicit:
        assert await explicit.get_items() == [_user("hi")]
