"""A LangChain message as a MemoryLayer thread message, and back.

The thread message gets the role extraction understands (``user``, ``assistant``, ``system``, ``tool``, …) and
the message's text, so the server extracts facts from the conversation; its metadata ``langchain`` keeps the
whole message (``message_to_dict`` as JSON text: tool calls, ids, additional kwargs and list content come back
exactly). A message someone else appended to the thread (another SDK, the API) comes back from its role and
content.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    message_to_dict,
    messages_from_dict,
)
from memorylayer import Message, thread_id_for

__all__ = ["METADATA_KEY", "ROLES", "from_thread_message", "text_of", "thread_id_for", "to_thread_message"]

METADATA_KEY = "langchain"
# LangChain's message type → the thread's role (a ChatMessage carries its own role).
ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool", "function": "function"}


def text_of(message: BaseMessage) -> str:
    """The message's text: its string content, or its text parts joined."""
    if isinstance(message.content, str):
        return message.content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in message.content]
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def to_thread_message(message: BaseMessage, message_id: str) -> dict[str, Any]:
    role = message.role if isinstance(message, ChatMessage) else ROLES.get(message.type, message.type)
    return {
        "id": message_id,  # a retried append is not stored twice
        "role": role,
        "content": text_of(message),
        "metadata": {METADATA_KEY: json.dumps(message_to_dict(message), ensure_ascii=False)},
    }


def from_thread_message(message: Message) -> BaseMessage:
    stored = message.metadata.get(METADATA_KEY)
    if isinstance(stored, str):
        return messages_from_dict([json.loads(stored)])[0]
    content = message.content if isinstance(message.content, str) else json.dumps(message.content)
    if message.role == "user":
        return HumanMessage(content=content, id=message.id)
    if message.role == "assistant":
        return AIMessage(content=content, id=message.id)
    if message.role == "system":
        return SystemMessage(content=content, id=message.id)
    if message.role == "tool":
        return ToolMessage(
            content=content, id=message.id, tool_call_id=message.metadata.get("tool_call_id", "")
        )
    return ChatMessage(role=message.role, content=content, id=message.id)
