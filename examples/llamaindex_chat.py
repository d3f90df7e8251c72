"""A LlamaIndex chat engine whose memory lives in MemoryLayer: a second engine (a restart, another process)
picks the conversation up where the first left it. MockLLM stands in for the model, so this runs offline.

    MEMORYLAYER_URL=http://127.0.0.1:61001 .venv/bin/python examples/llamaindex_chat.py
"""

from __future__ import annotations

import os
import uuid

from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import MockLLM
from llama_index.core.memory import ChatMemoryBuffer
from memorylayer_llamaindex import MemoryLayerChatStore


def chat_engine(chat_key: str) -> SimpleChatEngine:
    """A chat engine whose history is stored under ``chat_key`` in MemoryLayer."""
    store = MemoryLayerChatStore(
        base_url=os.environ.get("MEMORYLAYER_URL", "http://127.0.0.1:61001"),
        api_key=os.environ.get("MEMORYLAYER_API_KEY"),
        workspace_id=os.environ.get("MEMORYLAYER_WORKSPACE_ID") or "ws_llamaindex_example",
    )
    memory = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key=chat_key, token_limit=2000)
    # MockLLM answers with its whole prompt: enough to see that the stored history reaches the model.
    return SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)


def main() -> None:
    chat_key = f"user-{uuid.uuid4().hex[:8]}"

    first = chat_engine(chat_key)
    first.chat("Hi, I'm Dana. Please remember that my favourite colour is teal.")
    first.chat("I also have a cat called Miso.")
    print(f"first engine stored {len(first.chat_history)} messages under {chat_key}")

    # A new engine, new store object, same key: as after a restart.
    second = chat_engine(chat_key)
    history = [m.content for m in second.chat_history]
    print("second engine starts with:", history)
    assert len(history) == 4 and "favourite colour is teal" in history[0]

    reply = second.chat("What colour do I like?").response
    print("the model saw the earlier turns:", "favourite colour is teal" in reply)
    assert "favourite colour is teal" in reply
    print(f"after one more turn: {len(second.chat_history)} messages persisted")
    assert len(chat_engine(chat_key).chat_history) == 6


if __name__ == "__main__":
    main()
