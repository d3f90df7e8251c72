"""The extraction worker of this process, built on first use (one pool per warm container).

>>> worker().process('{"job_id": "job_…"}')   # doctest: +SKIP
"""

from __future__ import annotations

from functools import lru_cache

from shared.db.pool import Database
from shared.db.secret import resolve_database_url
from shared.embeddings import create_embedder
from shared.extraction.worker import ExtractionWorker
from shared.settings import get_settings
from shared.tracing import traced_database


@lru_cache(maxsize=1)
def worker() -> ExtractionWorker:
    settings = get_settings()
    db = Database.connect(
        resolve_database_url(settings), min_size=1, max_size=2, timeout_s=settings.db_connect_timeout_s
    )
    return ExtractionWorker(traced_database(db), create_embedder(settings), settings)
