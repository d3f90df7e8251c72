"""The ``memorylayer`` command.

    memorylayer migrate            apply pending SQL migrations to MEMORYLAYER_DATABASE_URL
    memorylayer dev                the local stack (embedded Postgres, API on :61001)
    memorylayer serve              the API only, against MEMORYLAYER_DATABASE_URL
"""

from __future__ import annotations

import argparse
import sys

from shared.settings import Settings


def _migrate(settings: Settings, _: argparse.Namespace) -> int:
    from shared.db.migrate import apply_migrations

    if not settings.database_url:
        print("MEMORYLAYER_DATABASE_URL is not set", file=sys.stderr)
        return 2
    applied = apply_migrations(settings.database_url, embedding_dimensions=settings.embedding_dimensions or 384)
    print(f"applied: {', '.join(applied) if applied else 'nothing pending'}")
    return 0


def _dev(settings: Settings, _: argparse.Namespace) -> int:
    from shared.local.dev import run

    run(settings)
    return 0


def _serve(settings: Settings, _: argparse.Namespace) -> int:
    import uvicorn

    from shared.api.app import create_app

    uvicorn.run(create_app(settings), host=settings.host, port=settings.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memorylayer", description="MemoryLayer service commands")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply pending migrations").set_defaults(run=_migrate)
    sub.add_parser("dev", help="run the local stack in the foreground").set_defaults(run=_dev)
    sub.add_parser("serve", help="serve the API against MEMORYLAYER_DATABASE_URL").set_defaults(run=_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(Settings(), args)
    except KeyboardInterrupt:  # Ctrl-C is how the local stack stops: a clean stop, no traceback
        return 0


if __name__ == "__main__":
    sys.exit(main())
