"""The ``memorylayer`` command.

memorylayer migrate            apply pending SQL migrations as the owner (MEMORYLAYER_DATABASE_OWNER_URL)
memorylayer dev                the local stack (embedded Postgres, API on :61001; `make dev` runs it with auth off)
memorylayer serve              the API only, against MEMORYLAYER_DATABASE_URL
memorylayer reembed --workspace W   re-embed W with the configured model, in batches, resumable
memorylayer keys create --workspace W [--access read] [--tenant T]   a workspace-scoped API key, printed once
"""

from __future__ import annotations

import argparse
import sys

from shared.settings import Settings


def _migrate(settings: Settings, _: argparse.Namespace) -> int:
    from shared.db.connection import owner_target
    from shared.db.migrate import apply_migrations

    try:
        target = owner_target(settings)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 2
    applied = apply_migrations(target, embedding_dimensions=settings.embedding_dimensions or 384)
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


def _reembed(settings: Settings, args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from shared.db.pool import Database
    from shared.embeddings import create_embedder
    from shared.reembed import reembed

    embedder = create_embedder(settings)
    _ensure_vector_index(settings, embedder.dimensions)
    db = Database.from_settings(settings, purpose="cli")
    try:
        with tqdm(desc=f"re-embedding {args.workspace} with {embedder.model_id}", unit="memory") as bar:
            report = reembed(db, embedder, args.workspace, batch_size=args.batch_size, progress=bar.update)
    finally:
        db.close()
    print(f"{report.done} re-embedded; workspace {report.workspace_id} now uses {report.model}")
    return 0


def _ensure_vector_index(settings: Settings, dims: int) -> None:
    """The HNSW index for a new embedding size, built as the owner (the app role may not run DDL)."""
    import psycopg

    from shared.db.connection import owner_target
    from shared.db.migrate import ensure_vector_index

    try:
        with owner_target(settings).connect(autocommit=True) as conn:
            ensure_vector_index(conn, dims)
    except (RuntimeError, psycopg.errors.InsufficientPrivilege) as exc:
        print(
            f"no vector index for {dims} dimensions yet ({exc}): run `memorylayer migrate` as the owner "
            "with this embedding configuration; recall searches exactly until then",
            file=sys.stderr,
        )


def _keys_create(settings: Settings, args: argparse.Namespace) -> int:
    from datetime import datetime

    from shared.auth import ApiKeys
    from shared.db.pool import Database
    from shared.tenants import valid_tenant

    db = Database.from_settings(settings, purpose="cli")
    try:
        expires = datetime.fromisoformat(args.expires_at) if args.expires_at else None
        row, key = ApiKeys(db).create(
            args.workspace,
            access=args.access,
            expires_at=expires,
            name=args.name,
            tenant_id=valid_tenant(args.tenant),
        )
    finally:
        db.close()
    print(
        f"id:         {row['id']}\ntenant:     {row['tenant_id']}\nworkspaces: {', '.join(row['workspaces'])}"
    )
    print(f"access:     {row['access']}")
    print(f"key:        {key}\n(shown once: store it now)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memorylayer", description="MemoryLayer service commands")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply pending migrations").set_defaults(run=_migrate)
    sub.add_parser("dev", help="run the local stack in the foreground").set_defaults(run=_dev)
    sub.add_parser("serve", help="serve the API against MEMORYLAYER_DATABASE_URL").set_defaults(run=_serve)
    re = sub.add_parser("reembed", help="re-embed a workspace with the configured model (resumable)")
    re.add_argument("--workspace", required=True)
    re.add_argument("--batch-size", type=int, default=256)
    re.set_defaults(run=_reembed)
    keys = sub.add_parser("keys", help="API keys").add_subparsers(dest="keys_command", required=True)
    create = keys.add_parser("create", help="create a workspace-scoped API key (printed once)")
    create.add_argument("--workspace", action="append", required=True, help="repeat for several")
    create.add_argument("--access", choices=["read", "read_write"], default="read_write")
    create.add_argument("--expires-at", help="ISO-8601 timestamp")
    create.add_argument("--name")
    create.add_argument(
        "--tenant", default="_default", help="the tenant that owns the key and its workspaces"
    )
    create.set_defaults(run=_keys_create)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(Settings(), args)
    except KeyboardInterrupt:  # Ctrl-C is how the local stack stops: a clean stop, no traceback
        return 0


if __name__ == "__main__":
    sys.exit(main())
