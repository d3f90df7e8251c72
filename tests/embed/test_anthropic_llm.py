"""The anthropic LLM client (the official SDK) against a local stand-in of the Messages API, at the wire: its
request, its retries, its errors; and the profile choice."""

from __future__ import annotations

import pytest

from shared.core.errors import ServiceUnavailable
from shared.core.settings import LLMProfile, Settings
from shared.providers.llm import create_llm
from shared.providers.llm.anthropic import ClaudeChat
from shared.providers.llm.base import MAX_RETRIES
from shared.providers.llm.budget import OperationBudget
from tests.embed.stubs import StubRequest, StubResponse, StubServer

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


def messages_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    if request.path != "/v1/messages":
        return StubResponse(404, {"type": "error", "error": {"type": "not_found_error", "message": "no"}})
    sampling = {"temperature", "top_p", "top_k"} & set(request.body)
    if sampling and request.headers.get("anthropic-version", "") >= "2026-10-21":
        # Since API version 2026-10-21 the Messages API refuses sampling parameters.
        message = f"{sorted(sampling)[0]}: Extra inputs are not permitted"
        return StubResponse(
            400, {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        )
    failure = stub.next_failure()
    if failure is not None:
        kind = "overloaded_error" if failure == 529 else "api_error"
        # The real API sends a retry delay with its 429/529s; a short one keeps the SDK's backoff quick here.
        return StubResponse(
            failure, {"type": "error", "error": {"type": kind, "message": "x"}}, {"retry-after-ms": "20"}
        )
    name = request.body["tool_choice"]["name"]
    return StubResponse(
        200,
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": request.body["model"],
            "content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": stub.replies.pop(0)}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 42, "output_tokens": 7},
        },
    )


@pytest.fixture
def stub():
    server = StubServer(messages_wire)
    server.replies = []
    server.start()
    yield server
    server.stop()


def claude(stub: StubServer, max_retries: int = MAX_RETRIES, **profile) -> ClaudeChat:
    return ClaudeChat.from_profile(
        LLMProfile(
            provider="anthropic", base_url=stub.url, api_key="sk-ant-test", model="claude-stub", **profile
        ),
        5.0,
        max_retries,
    )


def test_json_comes_back_as_the_forced_tool_input(stub: StubServer) -> None:
    stub.replies.append({"answer": "Miso"})
    data, usage = claude(stub, temperature=0.4, max_tokens=300).complete_json(
        "sys", "what?", SCHEMA, name="qa"
    )
    assert data == {"answer": "Miso"} and (usage.input_tokens, usage.output_tokens) == (42, 7)
    sent = stub.requests[0]
    assert sent.headers["authorization"] == "Bearer sk-ant-test"
    assert (
        sent.headers["anthropic-version"] >= "2026-10-21"
    )  # the SDK's API version, which refuses temperature
    body = sent.body
    assert body["tools"][0]["input_schema"] == SCHEMA and body["tool_choice"] == {
        "type": "tool",
        "name": "qa",
    }
    assert (body["model"], body["system"], body["messages"], body["max_tokens"]) == (
        "claude-stub",
        "sys",
        [{"role": "user", "content": "what?"}],
        300,
    )
    assert "temperature" not in body


def test_a_budget_lowers_the_call_cap(stub: StubServer) -> None:
    stub.replies.append({"answer": "x"})
    claude(stub, max_tokens=300).complete_json("s", "p", SCHEMA, max_tokens=20)
    assert stub.requests[0].body["max_tokens"] == 20


def test_an_answer_without_the_tool_is_outside_the_schema(stub: StubServer) -> None:
    stub.replies.append("not an object")
    with pytest.raises(ServiceUnavailable) as err:
        claude(stub).complete_json("s", "p", SCHEMA)
    assert err.value.code == "llm_invalid_output"


@pytest.mark.parametrize("status", [529, 500, 429])
def test_an_overloaded_or_failed_first_answer_is_retried(stub: StubServer, status: int) -> None:
    stub.script = [status]
    stub.replies.append({"answer": "second time"})
    data, _ = claude(stub).complete_json("s", "p", SCHEMA)
    assert data == {"answer": "second time"} and len(stub.requests) == 2
    assert stub.requests[0].body == stub.requests[1].body


def test_a_server_error_past_the_retries_is_llm_unavailable(stub: StubServer) -> None:
    stub.fail_always = 529
    with pytest.raises(ServiceUnavailable) as err:
        claude(stub).complete_json("s", "p", SCHEMA)
    assert err.value.code == "llm_unavailable" and len(stub.requests) == 1 + MAX_RETRIES


def test_a_client_error_is_not_retried(stub: StubServer) -> None:
    stub.script = [400]
    with pytest.raises(ServiceUnavailable) as err:
        claude(stub).complete_json("s", "p", SCHEMA)
    assert err.value.code == "llm_unavailable" and len(stub.requests) == 1


def test_no_retries_is_one_attempt(stub: StubServer) -> None:
    stub.script = [529]
    with pytest.raises(ServiceUnavailable):
        claude(stub, max_retries=0).complete_json("s", "p", SCHEMA)
    assert len(stub.requests) == 1


def test_each_call_uses_its_profile_and_falls_back_to_the_default() -> None:
    s = Settings(
        llm_provider="openai",
        llm_base_url="http://127.0.0.1:9/v1",
        llm_profiles={
            "extraction": LLMProfile(provider="anthropic", base_url="http://127.0.0.1:9", max_tokens=64)
        },
    )
    extraction, reflection = create_llm(s, "extraction"), create_llm(s, "reflection")
    assert extraction is not None and (extraction.provider, extraction.max_tokens) == ("anthropic", 64)
    assert reflection is not None and reflection.provider == "openai"


def test_the_output_ceiling_is_shared_by_an_operations_calls() -> None:
    budget = OperationBudget(
        Settings(llm_max_calls_per_operation=8, llm_max_output_tokens_per_operation=100),
        profile_max_tokens=80,
    )
    assert budget.refusal("s", "p") is None and budget.admit("s", "p") == 80
    budget.record(type("U", (), {"output_tokens": 70, "input_tokens": 0})())  # type: ignore[arg-type]
    assert budget.admit("s", "p") == 30  # what is left, below the profile's cap
    budget.record(type("U", (), {"output_tokens": 30, "input_tokens": 0})())  # type: ignore[arg-type]
    assert (budget.refusal("s", "p") or "").startswith("output token ceiling")


def test_the_input_ceiling_sums_the_operations_calls() -> None:
    budget = OperationBudget(Settings(llm_max_calls_per_operation=8, llm_max_tokens_per_operation=10))
    assert budget.refusal("x" * 15) is None
    budget.admit("x" * 15)  # ~5 tokens
    assert (budget.refusal("x" * 18) or "").startswith("input token ceiling")
