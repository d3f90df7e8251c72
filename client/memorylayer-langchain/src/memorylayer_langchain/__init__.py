"""MemoryLayer for LangChain: ``BaseChatMessageHistory`` in a MemoryLayer conversation thread.

from memorylayer_langchain import MemoryLayerChatMessageHistory

history = MemoryLayerChatMessageHistory("alice", workspace_id="ws_123")
"""

from memorylayer_langchain.convert import from_thread_message, thread_id_for, to_thread_message
from memorylayer_langchain.history import MemoryLayerChatMessageHistory

__version__ = "0.3.0"

__all__ = [
    "MemoryLayerChatMessageHistory",
    "__version__",
    "from_thread_message",
    "thread_id_for",
    "to_thread_message",
]
