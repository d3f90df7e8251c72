"""Recall's conversation context: the last few turns a client sends with a follow-up question ground what the
question refers to. They join the text the query's embedding is made from; the keyword arm, the relation arm
and the filters keep the question alone, so context widens meaning without adding keyword noise.

>>> from shared.domain.requests import ContextTurn
>>> embedding_text("and where does she live?", [ContextTurn(role="user", content="Tell me about Alice")])
'user: Tell me about Alice\\nand where does she live?'
>>> embedding_text("what is tea?", [])
'what is tea?'
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.domain.requests import ContextTurn

TURNS = 3  # the most recent turns only: older ones mostly dilute the question
MAX_CHARS = 2000  # of context, kept from the end (nearest the question)


def embedding_text(query: str, context: Sequence[ContextTurn]) -> str:
    """The text embedded for ``query``: the last ``TURNS`` turns (at most ``MAX_CHARS``), then the query."""
    turns = [f"{t.role}: {t.content}" if t.role else t.content for t in context[-TURNS:] if t.content.strip()]
    if not turns:
        return query
    return "\n".join(turns)[-MAX_CHARS:] + "\n" + query
