"""ChatMessage <-> MemoryLayer memory, and role names.

>>> from llama_index.core.llms import ChatMessage, MessageRole
>>> payload = chat_message_to_memory_payload(ChatMessage(role=MessageRole.USER, content="Hello!"), "alice", 0)
>>> payload["content"], payload["tags"], payload["metadata"]["blocks"]
('user: Hello!', ['llamaindex_chat_key:alice'], [{'block_type': 'text', 'text': 'Hello!'}])
>>> memory_to_chat_message(payload).content
'Hello!'
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from llama_index.core.base.llms.types import TextBlock
from llama_index.core.llms import ChatMessage, MessageRole
from memorylayer import Memory

logger = logging.getLogger(__name__)

__all__ = [
    "CHAT_KEY_TAG_PREFIX",
    "ROLE_TO_STRING_MAP",
    "STRING_TO_ROLE_MAP",
    "chat_key_tag",
    "chat_message_to_memory_payload",
    "get_chat_key",
    "get_message_index",
    "memory_to_chat_message",
    "message_role_to_string",
    "string_to_message_role",
]

CHAT_KEY_TAG_PREFIX = "llamaindex_chat_key:"

ROLE_TO_STRING_MAP: dict[MessageRole, str] = {
    MessageRole.USER: "user",
    MessageRole.ASSISTANT: "assistant",
    MessageRole.SYSTEM: "system",
    MessageRole.TOOL: "tool",
    MessageRole.CHATBOT: "chatbot",
    MessageRole.MODEL: "model",
    MessageRole.FUNCTION: "function",
}

STRING_TO_ROLE_MAP: dict[str, MessageRole] = {
    **{name: role for role, name in ROLE_TO_STRING_MAP.items()},
    "human": MessageRole.USER,
    "ai": MessageRole.ASSISTANT,
}

MemoryLike = Memory | Mapping[str, Any]


def chat_key_tag(key: str, prefix: str = CHAT_KEY_TAG_PREFIX) -> str:
    """``chat_key_tag("alice") == "llamaindex_chat_key:alice"`` (the key's case is kept)."""
    return f"{prefix}{key}"


def message_role_to_string(role: MessageRole | str) -> str:
    """``message_role_to_string(MessageRole.USER) == "user"``; unknown roles pass through as their value."""
    if isinstance(role, MessageRole) and role in ROLE_TO_STRING_MAP:
        return ROLE_TO_STRING_MAP[role]
    return str(getattr(role, "value", role))


def string_to_message_role(role: str | None) -> MessageRole:
    """``"human"`` -> USER, ``"AI"`` -> ASSISTANT, ``"tool"`` -> TOOL; anything unknown -> USER (logged)."""
    if isinstance(role, MessageRole):
        return role
    normalized = (role or "").strip().lower()
    if normalized in STRING_TO_ROLE_MAP:
        return STRING_TO_ROLE_MAP[normalized]
    try:
        return MessageRole(normalized)
    except ValueError:
        logger.warning("unknown message role %r, using USER", role)
        return MessageRole.USER


def _jsonable(value: Any) -> Any:
    """additional_kwargs as JSON (objects that cannot be encoded become their dump or string)."""
    return json.loads(json.dumps(value, default=lambda o: getattr(o, "model_dump", lambda: str(o))()))


def _dump(message: ChatMessage) -> tuple[list[Any], dict[str, Any]]:
    try:
        dumped = message.model_dump(mode="json")
        return list(dumped.get("blocks") or []), dict(dumped.get("additional_kwargs") or {})
    except Exception:  # a block or kwarg pydantic cannot serialise: keep what we can
        blocks: list[Any] = []
        for block in message.blocks:
            try:
                blocks.append(block.model_dump(mode="json"))
            except Exception:
                blocks.append({"block_type": getattr(block, "block_type", "unknown"), "repr": repr(block)})
        return blocks, _jsonable(message.additional_kwargs or {})


def _text_of(message: ChatMessage) -> str:
    texts = [block.text for block in message.blocks if isinstance(block, TextBlock)]
    if texts:
        return "\n".join(texts)
    return " ".join(f"[{getattr(block, 'block_type', 'block')}]" for block in message.blocks)


def chat_message_to_memory_payload(
    message: ChatMessage,
    key: str,
    index: int | None = None,
    *,
    tag_prefix: str = CHAT_KEY_TAG_PREFIX,
    memory_type: str = "episodic",
    importance: float = 0.5,
    additional_tags: list[str] | None = None,
    additional_metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``remember`` body for one message: role-prefixed content, the chat-key tag, and metadata holding
    ``chat_key``, ``message_index`` (omitted when ``index`` is None: the server assigns the next one),
    ``role``, ``additional_kwargs`` and every block's ``model_dump`` (for a lossless round trip)."""
    role = message_role_to_string(message.role)
    blocks, additional_kwargs = _dump(message)
    metadata: dict[str, Any] = {"chat_key": key}
    if index is not None:
        metadata["message_index"] = index
    metadata.update(role=role, additional_kwargs=additional_kwargs, blocks=blocks)
    if additional_metadata:
        metadata.update(additional_metadata)
    return {
        "content": f"{role}: {_text_of(message)}",
        "type": memory_type,
        "importance": importance,
        "tags": [chat_key_tag(key, tag_prefix), *(additional_tags or [])],
        "metadata": metadata,
        "sequence_key": key,
    }


def _fields(memory: MemoryLike) -> tuple[str, dict[str, Any]]:
    if isinstance(memory, Memory):
        return memory.content, memory.metadata
    return str(memory.get("content") or ""), dict(memory.get("metadata") or {})


def _restore_blocks(blocks: list[Any]) -> list[Any]:
    """Each stored block as the LlamaIndex block it was; ones this LlamaIndex cannot validate are dropped,
    except text, which always survives."""
    restored: list[Any] = []
    for block in blocks:
        if isinstance(block, str):
            restored.append(TextBlock(text=block))
            continue
        if not isinstance(block, Mapping):
            continue
        try:
            restored.extend(ChatMessage.model_validate({"role": "user", "blocks": [dict(block)]}).blocks)
        except Exception:
            if block.get("block_type") == "text" or "text" in block:
                restored.append(TextBlock(text=str(block.get("text") or "")))
            else:
                logger.warning("dropping a %r block this llama-index cannot restore", block.get("block_type"))
    return restored


def memory_to_chat_message(memory: MemoryLike) -> ChatMessage:
    """Rebuild the ChatMessage a memory was made from (role, blocks, additional_kwargs); a memory written by
    someone else (no stored blocks) becomes a text message of its content, minus any ``"role: "`` prefix."""
    content, metadata = _fields(memory)
    role_name = metadata.get("role")
    role = string_to_message_role(role_name if isinstance(role_name, str) else "user")
    kwargs = metadata.get("additional_kwargs")
    additional_kwargs = dict(kwargs) if isinstance(kwargs, Mapping) else {}
    blocks = metadata.get("blocks")
    if isinstance(blocks, list):
        try:
            return ChatMessage.model_validate(
                {"role": role, "blocks": blocks, "additional_kwargs": additional_kwargs}
            )
        except Exception:
            restored = _restore_blocks(blocks)
            if restored or not blocks:
                return ChatMessage(role=role, blocks=restored, additional_kwargs=additional_kwargs)
    for prefix in (f"{role_name}: ", f"{role.value}: "):
        if isinstance(role_name, str) and content.startswith(prefix):
            content = content[len(prefix) :]
            break
    return ChatMessage(role=role, content=content, additional_kwargs=additional_kwargs)


def get_message_index(memory: MemoryLike) -> int:
    """The message's index: ``metadata.message_index``, else the server's ``sequence_index``, else 0."""
    _, metadata = _fields(memory)
    index = metadata.get("message_index")
    if isinstance(index, int) and not isinstance(index, bool):
        return index
    sequence = memory.sequence_index if isinstance(memory, Memory) else memory.get("sequence_index")
    return sequence if isinstance(sequence, int) else 0


def get_chat_key(memory: MemoryLike) -> str | None:
    """``metadata.chat_key``, else the server's ``sequence_key``."""
    _, metadata = _fields(memory)
    key = metadata.get("chat_key")
    if isinstance(key, str):
        return key
    sequence = memory.sequence_key if isinstance(memory, Memory) else memory.get("sequence_key")
    return sequence if isinstance(sequence, str) else None
