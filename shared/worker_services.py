"""The extraction worker of this process, built on first use (one pool per warm container).

>>> worker().process('{"job_id": "job_…"}')   # doctest: +SKIP
"""

from __future__ import annotations

from functools import lru_cache

from shared.db.pool import Database
from shared.embeddings import create_embedder
from shared.extraction.worker import ExtractionWorker
from shared.settings import get_settings
from shared.tracing import traced_database


@lru_cache(maxsize=1)
def worker() -> ExtractionWorker:
    settings = get_settings()
    db = Database.from_settings(settings, purpose="worker")
    return ExtractionWorker(traced_database(db), create_embedder(settings), settings)
