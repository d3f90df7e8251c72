"""MemoryLayer for LlamaIndex: a persistent ``BaseChatStore`` and a long-term memory block for ``Memory``.

from llama_index.core.memory import ChatMemoryBuffer
from memorylayer_llamaindex import MemoryLayerChatStore

store = MemoryLayerChatStore(base_url="http://localhost:61001", workspace_id="ws_123")
memory = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="alice")

from llama_index.core.memory import Memory
from memorylayer_llamaindex import MemoryLayerMemoryBlock

memory = Memory.from_defaults(session_id="alice", memory_blocks=[MemoryLayerMemoryBlock(workspace_id="ws_123")])
"""

from memorylayer_llamaindex.chat_store import MemoryLayerChatStore
from memorylayer_llamaindex.convert import (
    CHAT_KEY_TAG_PREFIX,
    ROLE_TO_STRING_MAP,
    STRING_TO_ROLE_MAP,
    chat_key_tag,
    chat_message_to_memory_payload,
    get_chat_key,
    get_message_index,
    memory_to_chat_message,
    message_role_to_string,
    string_to_message_role,
)
from memorylayer_llamaindex.memory_block import MemoryLayerMemoryBlock
from memorylayer_llamaindex.threads import ThreadWriter, thread_id_for

__version__ = "0.3.0"

__all__ = [
    "CHAT_KEY_TAG_PREFIX",
    "ROLE_TO_STRING_MAP",
    "STRING_TO_ROLE_MAP",
    "MemoryLayerChatStore",
    "MemoryLayerMemoryBlock",
    "ThreadWriter",
    "__version__",
    "chat_key_tag",
    "chat_message_to_memory_payload",
    "get_chat_key",
    "get_message_index",
    "memory_to_chat_message",
    "message_role_to_string",
    "string_to_message_role",
    "thread_id_for",
]
