"""MemoryLayer for the OpenAI Agents SDK: a ``Session`` whose conversation lives in a MemoryLayer thread.

from agents import Runner
from memorylayer_openai_agents import MemoryLayerSession

result = await Runner.run(agent, "Hi!", session=MemoryLayerSession("user-42", workspace_id="ws_123"))
"""

from memorylayer_openai_agents.items import from_thread_message, thread_id_for, to_thread_message
from memorylayer_openai_agents.session import MemoryLayerSession

__version__ = "0.3.0"

__all__ = ["MemoryLayerSession", "__version__", "from_thread_message", "thread_id_for", "to_thread_message"]
