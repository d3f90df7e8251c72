"""Client-side first-hour fixes: a clear error for a key no header can carry, a timeout that lets the server's
sandbox limit answer first, and the LlamaIndex integration configured from the environment like the SDK."""

from __future__ import annotations

import pytest
from memorylayer import DEFAULT_TIMEOUT_S, MemoryLayerClient, SyncMemoryLayerClient
from memorylayer_llamaindex import MemoryLayerChatStore, MemoryLayerMemoryBlock

from shared.core.settings import Settings


@pytest.mark.parametrize("cls", [MemoryLayerClient, SyncMemoryLayerClient])
def test_a_non_ascii_key_is_a_clear_error_at_once(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="api_key must be printable ASCII.*placeholder"):
        cls("http://127.0.0.1:1", api_key="…")
    monkeypatch.setenv("MEMORYLAYER_API_KEY", "mlk_ab\u00e9")
    with pytest.raises(ValueError, match="character 7"):
        cls("http://127.0.0.1:1")


def test_the_sdk_waits_longer_than_the_servers_sandbox_limit() -> None:
    limit = Settings.model_fields["context_max_exec_seconds"].default
    assert limit < DEFAULT_TIMEOUT_S
    assert SyncMemoryLayerClient("http://127.0.0.1:1").timeout == DEFAULT_TIMEOUT_S
    assert MemoryLayerMemoryBlock().timeout > limit
    assert MemoryLayerChatStore().timeout > limit


ENV = {
    "MEMORYLAYER_URL": "http://memory.example:9000",
    "MEMORYLAYER_API_KEY": "mlk_env_key",
    "MEMORYLAYER_WORKSPACE_ID": "ws_env",
}


@pytest.mark.parametrize("cls", [MemoryLayerMemoryBlock, MemoryLayerChatStore])
def test_llamaindex_reads_the_environment_like_the_sdk(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    made = cls()
    assert (made.base_url, made.api_key, made.workspace_id) == (
        "http://memory.example:9000",
        "mlk_env_key",
        "ws_env",
    )
    given = cls(base_url="http://other:1", api_key="mlk_given", workspace_id="ws_given")
    assert (given.base_url, given.api_key, given.workspace_id) == ("http://other:1", "mlk_given", "ws_given")


def test_llamaindex_defaults_without_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    block = MemoryLayerMemoryBlock()
    assert (block.base_url, block.api_key, block.workspace_id) == ("http://localhost:61001", None, None)
