"""MemoryLayer for LangGraph: a long-term memory store (``langgraph.store.base.BaseStore``).

from memorylayer_langgraph import MemoryLayerStore

store = MemoryLayerStore(workspace_id="ws_123")
graph = builder.compile(store=store)
"""

from memorylayer_langgraph.filters import matches
from memorylayer_langgraph.store import MemoryLayerStore

__version__ = "0.3.0"

__all__ = ["MemoryLayerStore", "__version__", "matches"]
