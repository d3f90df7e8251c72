"""An Agents SDK input item as a MemoryLayer thread message, and back.

The thread message's role is the item's (``user``, ``assistant``, ``system``, ``developer``) or, for items
that are not messages, its type (``function_call``, ``function_call_output``, ``reasoning``, …); its content is
the item's text, so the server's extraction reads the conversation; its metadata ``openai_agents`` keeps the
item exactly (as JSON text). A message appended to the thread by anything else comes back as
``{"role", "content"}``, the easy input message the SDK accepts.
"""

from __future__ import annotations

import json
from typing import Any

from memorylayer import Message, thread_id_for

__all__ = ["METADATA_KEY", "from_thread_message", "text_of", "thread_id_for", "to_thread_message"]

METADATA_KEY = "openai_agents"


def _plain(item: Any) -> dict[str, Any]:
    """Items are TypedDicts, but a caller may hand in the SDK's pydantic models."""
    if isinstance(item, dict):
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        return dict(dump(exclude_unset=True))
    raise TypeError(f"a session item is a dict, not {type(item).__name__}")


def text_of(item: dict[str, Any]) -> str:
    """What the item says, as text: a message's text parts, a tool call's name and arguments, a tool's output."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    if item.get("type") == "function_call":
        return f"{item.get('name', '')}({item.get('arguments', '')})"
    output = item.get("output")
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(p["text"] for p in output if isinstance(p, dict) and isinstance(p.get("text"), str))
    summary = item.get("summary")
    if isinstance(summary, list):
        return "\n".join(p["text"] for p in summary if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def to_thread_message(item: Any, message_id: str) -> dict[str, Any]:
    plain = _plain(item)
    role = plain.get("role") or plain.get("type") or "item"
    return {
        "id": message_id,  # a retried append is not stored twice
        "role": str(role)[:64],
        "content": text_of(plain),
        "metadata": {METADATA_KEY: json.dumps(plain, ensure_ascii=False)},
    }


def from_thread_message(message: Message) -> dict[str, Any]:
    stored = message.metadata.get(METADATA_KEY)
    if isinstance(stored, str):
        item: dict[str, Any] = json.loads(stored)
        return item
    content = message.content if isinstance(message.content, str) else json.dumps(message.content)
    return {"role": message.role, "content": content}
