"""``memorylayer migrate``, ``dev`` and ``serve``: the database's schema and the processes that serve it."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from shared.cli.common import CliError, settings_for
from shared.core.settings import Settings


def cmd_migrate(args: argparse.Namespace) -> int:
    from shared.db.connection import owner_target
    from shared.db.migrate import apply_migrations

    settings = settings_for(args, needs_database=True)
    try:
        target = owner_target(settings)
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    applied = apply_migrations(target, embedding_dimensions=settings.embedding_dimensions or 384)
    print(f"applied: {', '.join(applied) if applied else 'nothing pending'}")
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    from shared.local.dev import run
    from shared.local.processes import StackAlreadyRunning

    try:
        run(settings_for(args, needs_database=False, extra=_local_secret(args)))
    except StackAlreadyRunning as exc:
        raise CliError(str(exc)) from None
    return 0


def _local_secret(args: argparse.Namespace) -> dict[str, Any]:
    """The local stack's own cursor secret (kept in its data dir) unless one is configured: ``api_key`` mode then
    starts with nothing more to set."""
    import os

    from shared.local.dev import local_cursor_secret

    configured = ("MEMORYLAYER_CONTEXT_CURSOR_SECRET", "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN")
    if any(os.environ.get(name) for name in configured):
        return {}
    data_dir = (
        args.data_dir or os.environ.get("MEMORYLAYER_DATA_DIR") or Settings.model_fields["data_dir"].default
    )
    return {"context_cursor_secret": local_cursor_secret(Path(data_dir))}


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from shared.api.app import create_app
    from shared.core.settings import local_server_settings
    from shared.local.server import proxy_options

    # A server of one: its cursor secret kept in the data dir unless configured (several servers behind one
    # address must share MEMORYLAYER_CONTEXT_CURSOR_SECRET instead).
    extra: dict[str, Any] = _local_secret(args)
    if args.host:
        extra["host"] = args.host
    if args.port:
        extra["port"] = args.port
    settings = local_server_settings(settings_for(args, needs_database=True, extra=extra))
    app = create_app(settings)
    with ExitStack() as stack:
        if args.worker:
            from shared.app.job_runner import database_worker

            stack.enter_context(database_worker(app.state.services.get()))
        print(_worker_notice(settings, worker=args.worker), file=sys.stderr, flush=True)
        uvicorn.run(app, host=settings.host, port=settings.port, **proxy_options(settings))
    return 0


def _worker_notice(settings: Settings, *, worker: bool) -> str:
    """What runs the extraction jobs this server queues (thread extraction, decompose): said at start, since
    without a worker they stay ``queued``."""
    if worker:
        return "memorylayer: extraction worker: in this process (queued jobs run from the database)"
    if settings.extraction_queue_url:
        return (
            f"memorylayer: extraction jobs go to {settings.extraction_queue_url}: the extraction function (or "
            "another `memorylayer serve --worker`) must consume them"
        )
    return (
        "memorylayer: warning: no extraction worker: jobs (thread extraction, decompose) stay queued; "
        "run `memorylayer serve --worker` to run them in this process"
    )
