"""One thread-id mapping: every integration names a conversation key's thread the way the SDK does."""

from __future__ import annotations

import re
from types import ModuleType

import memorylayer_langchain
import memorylayer_llamaindex
import memorylayer_openai_agents
import pytest
from memorylayer import thread_id_for


@pytest.mark.parametrize(
    "module",
    [memorylayer_langchain, memorylayer_llamaindex, memorylayer_openai_agents],
    ids=lambda m: m.__name__,
)
def test_integrations_use_the_sdk_mapping(module: ModuleType) -> None:
    assert module.thread_id_for is thread_id_for


def test_valid_ids_are_kept_as_they_are() -> None:
    assert thread_id_for("langchain-", "alice") == "langchain-alice"
    assert thread_id_for("agents-", "user-42") == "agents-user-42"
    assert thread_id_for("llamaindex-", "a.b:c_d") == "llamaindex-a.b:c_d"


def test_other_keys_get_a_readable_form_and_a_hash() -> None:
    assert thread_id_for("llamaindex-", "alice@example.com") == "llamaindex-alice_example.com-ff8d9819"
    # Two keys that read the same after replacing characters still name two threads.
    assert thread_id_for("p-", "a/b") != thread_id_for("p-", "a_b")
    long = thread_id_for("p-", "x" * 300)
    assert len(long) <= 128 and re.fullmatch(r"[A-Za-z0-9._:-]+", long)
    assert long != thread_id_for("p-", "x" * 299)
