"""The framework integrations (LangGraph store, LangChain history, Agents SDK session) are configured from the
environment like the SDK: ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY``, ``MEMORYLAYER_WORKSPACE_ID``; an
argument given explicitly wins. No server is needed: no request is sent."""

from __future__ import annotations

from typing import Any

import pytest
from memorylayer_langchain import MemoryLayerChatMessageHistory
from memorylayer_langgraph import MemoryLayerStore
from memorylayer_openai_agents import MemoryLayerSession

ENV = {
    "MEMORYLAYER_URL": "http://memory.example:9000",
    "MEMORYLAYER_API_KEY": "mlk_env_key",
    "MEMORYLAYER_WORKSPACE_ID": "ws_env",
}


def _client(kind: str, **given: Any) -> Any:
    if kind == "langgraph":
        return MemoryLayerStore(**given).client
    if kind == "langchain":
        return MemoryLayerChatMessageHistory("s", **given).client
    return MemoryLayerSession("s", **given).client


@pytest.mark.parametrize("kind", ["langgraph", "langchain", "openai-agents"])
def test_reads_the_environment_like_the_sdk(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    client = _client(kind)
    assert (client.base_url, client.api_key, client.workspace_id) == (
        "http://memory.example:9000",
        "mlk_env_key",
        "ws_env",
    )
    given = _client(kind, base_url="http://other:1", api_key="mlk_given", workspace_id="ws_given")
    assert (given.base_url, given.api_key, given.workspace_id) == ("http://other:1", "mlk_given", "ws_given")


@pytest.mark.parametrize("kind", ["langgraph", "langchain", "openai-agents"])
def test_defaults_without_the_environment(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    client = _client(kind)
    assert (client.base_url, client.api_key, client.workspace_id) == ("http://localhost:61001", None, None)
