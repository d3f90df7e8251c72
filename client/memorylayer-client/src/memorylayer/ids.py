"""Thread ids for conversation keys: the one mapping every integration (LangChain, OpenAI Agents, LlamaIndex)
uses, so a key names the same thread whichever package wrote it."""

from __future__ import annotations

import re
from hashlib import sha256

__all__ = ["thread_id_for"]

_VALID_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._:-]{0,127}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._:-]")


def thread_id_for(prefix: str, key: str) -> str:
    """The thread holding a conversation key: ``prefix + key`` when that is a valid thread id (1–128 of
    ``A-Za-z0-9._:-``), else a readable form plus a hash of the key, so two keys never share a thread.

    >>> thread_id_for("langchain-", "alice")
    'langchain-alice'
    >>> thread_id_for("langchain-", "alice@example.com")
    'langchain-alice_example.com-ff8d9819'
    """
    plain = prefix + key
    if _VALID_ID.match(plain):
        return plain
    digest = sha256(key.encode()).hexdigest()[:8]
    return f"{_UNSAFE.sub('_', plain)[:118]}-{digest}"
