"""What every session module works with: the database, the embedder, the settings, the clock and the writer.

The modules take these parts, not the service that calls them, so none of them imports the service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from shared.core.settings import Settings
from shared.db.pool import Database
from shared.domain.extraction.writer import MemoryWriter
from shared.providers.embeddings.base import Embedder

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class SessionParts:
    db: Database
    embedder: Embedder
    settings: Settings
    clock: Clock = utcnow
    writer: MemoryWriter = field(init=False)

    def __post_init__(self) -> None:
        self.writer = MemoryWriter(self.db, self.embedder, tiers=self.settings.extractive_tiers_enabled)
