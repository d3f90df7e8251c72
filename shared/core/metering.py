"""The usage note of the work at hand: what one request (or one job) used, counted where the work is done and
written once when it ends (``shared/domain/usage.py``). In ``core`` so every layer may count into it without
knowing who writes it; outside a metered unit of work every call here is a no-op.

    >>> note = Note()
    >>> with metered(note):
    ...     count(generation_tokens=120, sandbox_ms=35)
    ...     count(generation_tokens=5)
    ...     replayed()
    >>> note.counts["generation_tokens"], note.counts["sandbox_ms"], note.replayed
    (125, 35, True)
    >>> count(generation_tokens=1)  # nothing is metered here: ignored
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

# What a note counts besides requests and units; the usage table has one column for each.
QUANTITIES = ("document_pages", "sandbox_ms", "generation_tokens", "embedding_tokens")


@dataclass
class Note:
    """One unit of work's usage. Mutated in place, so a copy of the context (a threadpool hop, which is how a sync
    dependency or endpoint runs) still counts into the note its request began with."""

    tenant_id: str | None = (
        None  # set once the caller is known; a request nobody was identified for is not billed
    )
    replayed: bool = False  # answered from the idempotency store: the first request was already counted
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(QUANTITIES, 0))


_CURRENT: ContextVar[Note | None] = ContextVar("memorylayer_usage_note", default=None)


@contextmanager
def metered(note: Note) -> Iterator[Note]:
    """Count the block's work into ``note``."""
    token = _CURRENT.set(note)
    try:
        yield note
    finally:
        _CURRENT.reset(token)


def current() -> Note | None:
    return _CURRENT.get()


def identify(tenant_id: str) -> None:
    """Whose work this is (the authenticated caller's tenant)."""
    note = _CURRENT.get()
    if note is not None:
        note.tenant_id = tenant_id


def count(**quantities: int) -> None:
    """Add to the current note (names from ``QUANTITIES``)."""
    note = _CURRENT.get()
    if note is None:
        return
    for name, amount in quantities.items():
        note.counts[name] += max(0, int(amount))


def replayed() -> None:
    """The answer is a stored first result (an Idempotency-Key replay): billed once, when it was first made."""
    note = _CURRENT.get()
    if note is not None:
        note.replayed = True
