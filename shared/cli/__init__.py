"""The ``memorylayer`` command (``memorylayer --help``, ``memorylayer <command> --help``).

    memorylayer dev                                  the local stack (`make dev` runs it with auth off)
    memorylayer keys create --workspace demo         a workspace-scoped API key, printed once
    memorylayer keys list | keys revoke KEY_ID
    memorylayer reembed --workspace demo             re-embed with the configured model (resumable)
    memorylayer export --workspace demo -o demo.ndjson   every row (format 2: docs/export-format.md)
    memorylayer import --workspace demo demo.ndjson      all of it or nothing (format 2), line by line
    memorylayer users list --workspace demo | users erase USER_ID [--dry-run]
    memorylayer remember "Dana lives in Paris" --workspace demo --tag profile
    memorylayer recall "where does Dana live?" --workspace demo
    memorylayer usage --api-key ADMIN_KEY --tenant acme --since 2026-01-01 --format csv
    memorylayer migrate --database-url DSN | serve --worker

``remember``, ``recall`` and ``usage`` go through the HTTP API (``--url``, else ``MEMORYLAYER_URL``, else the running local
stack's; ``--api-key``, else ``MEMORYLAYER_API_KEY``). Commands that use the database find the running local stack through ``<data dir>/dev.json`` (written by
``memorylayer dev``); ``--database-url`` or ``MEMORYLAYER_DATABASE_URL`` point them elsewhere. A failure is one
line on stderr and a non-zero exit status: 1 for a refused request (an unknown workspace), 2 for bad usage or
configuration (no database).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shared.cli.client import cmd_recall, cmd_remember, cmd_usage
from shared.cli.common import CliError
from shared.cli.data import cmd_export, cmd_import, cmd_users_erase, cmd_users_list
from shared.cli.keys import cmd_keys_create, cmd_keys_list, cmd_keys_revoke
from shared.cli.stack import cmd_dev, cmd_migrate, cmd_serve
from shared.cli.vectors import cmd_index, cmd_reembed
from shared.core.tenants import DEFAULT_TENANT
from shared.core.version import __version__

__all__ = ["CliError", "build_parser", "main"]


def _api_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("API (default: the running local stack)")
    group.add_argument("--workspace", help="the workspace (X-Workspace-ID; default: the server's _default)")
    group.add_argument("--url", help="the API's URL (default: MEMORYLAYER_URL, else the local stack's)")
    group.add_argument("--api-key", metavar="KEY", help="an API key (default: MEMORYLAYER_API_KEY)")
    group.add_argument("--data-dir", type=Path, metavar="DIR", help="the local stack's data directory")
    group.add_argument("--json", action="store_true", help="the API's JSON answer instead of lines")


def _database_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("database (default: the running local stack)")
    group.add_argument(
        "--database-url",
        metavar="DSN",
        help="the app role's connection string (default: MEMORYLAYER_DATABASE_URL, else the local stack's)",
    )
    group.add_argument(
        "--database-owner-url",
        metavar="DSN",
        help="the owner role's connection string, for migrations and new vector indexes "
        "(default: MEMORYLAYER_DATABASE_OWNER_URL, else the local stack's)",
    )
    group.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="the local stack's data directory (default: MEMORYLAYER_DATA_DIR, else .data)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memorylayer",
        description="MemoryLayer service commands. Settings come from MEMORYLAYER_* environment variables "
        "(shared/core/settings.py); database commands use the running local stack unless told otherwise.",
    )
    parser.add_argument("--version", action="version", version=f"memorylayer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    migrate = sub.add_parser("migrate", help="apply pending migrations as the owner role")
    _database_options(migrate)
    migrate.set_defaults(run=cmd_migrate)

    dev = sub.add_parser("dev", help="run the local stack in the foreground until Ctrl-C")
    dev.add_argument(
        "--data-dir", type=Path, metavar="DIR", help="where Postgres keeps its data (default: .data)"
    )
    dev.set_defaults(run=cmd_dev)

    serve = sub.add_parser("serve", help="serve the API against an existing database (`migrate` it first)")
    serve.add_argument(
        "--worker",
        action="store_true",
        help="also run queued extraction jobs in this process (a Postgres of your own, no SQS)",
    )
    serve.add_argument("--host", help="address to listen on (default: MEMORYLAYER_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default: MEMORYLAYER_PORT, else 61001)")
    _database_options(serve)
    serve.set_defaults(run=cmd_serve)

    remember = sub.add_parser("remember", help="store a memory through the API")
    remember.add_argument("content", help="what to remember")
    remember.add_argument("--tag", action="append", help="a tag; repeat for several")
    remember.add_argument("--type", help="semantic, episodic, procedural, … (default: typed by rule)")
    remember.add_argument("--importance", type=float, help="0 to 1 (default 0.5)")
    _api_options(remember)
    remember.set_defaults(run=cmd_remember)

    recall = sub.add_parser("recall", help="find memories through the API, best first")
    recall.add_argument("query", help="what to look for")
    recall.add_argument("--limit", type=int, default=5, help="how many at most (default 5)")
    recall.add_argument("--type", action="append", help="only memories of this type; repeat for several")
    recall.add_argument("--tag", action="append", help="only memories with every such tag")
    _api_options(recall)
    recall.set_defaults(run=cmd_recall)

    usage = sub.add_parser(
        "usage", help="what each tenant used, per hour and kind (the admin key; through the API)"
    )
    usage.add_argument("--tenant", help="one tenant's usage (default: every tenant's)")
    usage.add_argument("--since", metavar="WHEN", help="ISO-8601; default: 24 hours before --until")
    usage.add_argument("--until", metavar="WHEN", help="ISO-8601, exclusive; default: the end of this hour")
    usage.add_argument(
        "--format", choices=["csv", "json"], default="csv", help="csv (the hourly rows; default) or json"
    )
    _api_options(usage)
    usage.set_defaults(run=cmd_usage)

    re = sub.add_parser("reembed", help="re-embed a workspace with the configured model (resumable)")
    re.add_argument("--workspace", required=True, help="the workspace to re-embed")
    re.add_argument(
        "--batch-size", type=int, default=256, help="memories per batch; each commits alone (default 256)"
    )
    _database_options(re)
    re.set_defaults(run=cmd_reembed)

    index = sub.add_parser(
        "index",
        help="move bulk-written vectors into the HNSW graph now (row by row, or a bulk build as the owner)",
    )
    index.add_argument(
        "--bulk", action="store_true", help="build the next graph generation whatever the pending set's size"
    )
    _database_options(index)
    index.set_defaults(run=cmd_index)

    export = sub.add_parser("export", help="write a workspace as NDJSON (what `import` and the API read)")
    export.add_argument("--workspace", required=True, help="the workspace to export")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    export.add_argument("--no-associations", action="store_true", help="memories only, no associations")
    export.add_argument(
        "--include-secrets",
        action="store_true",
        help="MCP server env/header values and data provider passwords as stored (default: masked, ***)",
    )
    export.add_argument(
        "--format",
        choices=["1.0", "2.0"],
        default="2.0",
        help="2.0 (default): every row of the workspace (docs/export-format.md); 1.0: memories and associations",
    )
    _database_options(export)
    export.set_defaults(run=cmd_export)

    imp = sub.add_parser("import", help="import an export (NDJSON, or one JSON object) into a workspace")
    imp.add_argument("file", metavar="FILE", help='an `export` file, or {"memories": [...], ...}')
    imp.add_argument("--workspace", required=True, help="the workspace to import into")
    imp.add_argument("--tenant", default=DEFAULT_TENANT, help="the tenant importing (default: _default)")
    _database_options(imp)
    imp.set_defaults(run=cmd_import)

    users = sub.add_parser("users", help="list a workspace's users, or erase one user's data for good")
    users_sub = users.add_subparsers(dest="users_command", required=True, metavar="ACTION")
    ulist = users_sub.add_parser("list", help="the users of a workspace with their counts")
    ulist.add_argument("--workspace", required=True, help="the workspace")
    ulist.add_argument("--limit", type=int, default=1000, help="how many at most (default 1000)")
    ulist.add_argument("--json", action="store_true", help="one JSON list instead of a table")
    _database_options(ulist)
    ulist.set_defaults(run=cmd_users_list)
    erase = users_sub.add_parser("erase", help="hard-delete everything of one user_id in a tenant")
    erase.add_argument("user_id", help="the user_id to erase")
    erase.add_argument("--tenant", default=DEFAULT_TENANT, help="the tenant (default: _default)")
    erase.add_argument(
        "--workspace",
        action="append",
        help="only this workspace of the tenant; repeat for several (default: all)",
    )
    erase.add_argument("--dry-run", action="store_true", help="count what would be erased; delete nothing")
    _database_options(erase)
    erase.set_defaults(run=cmd_users_erase)

    keys = sub.add_parser("keys", help="create, list and revoke API keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    create = keys_sub.add_parser("create", help="create a workspace-scoped API key (printed once)")
    create.add_argument(
        "--workspace", action="append", required=True, help="a workspace the key may use; repeat for several"
    )
    create.add_argument(
        "--access",
        choices=["read", "read_write"],
        default="read_write",
        help="read, or read_write (default)",
    )
    create.add_argument("--expires-at", metavar="WHEN", help="ISO-8601 timestamp; default: never")
    create.add_argument("--name", help="a label to recognise the key by in `keys list`")
    create.add_argument(
        "--shared-spaces",
        choices=["none", "read", "read_write"],
        default="read",
        help="what the key may do in its tenant's user space (scope user memories): default read",
    )
    create.add_argument(
        "--tenant",
        default=None,
        help="the tenant that owns the key and its workspaces (default: the workspaces' tenant, or a new one)",
    )
    _database_options(create)
    create.set_defaults(run=cmd_keys_create)
    listing = keys_sub.add_parser("list", help="every key: id, workspaces, access, status (never the key)")
    listing.add_argument("--json", action="store_true", help="JSON instead of a table")
    _database_options(listing)
    listing.set_defaults(run=cmd_keys_list)
    revoke = keys_sub.add_parser("revoke", help="revoke a key: it is refused from then on")
    revoke.add_argument("key_id", metavar="KEY_ID", help="the key's id, as `keys list` shows it (key_…)")
    _database_options(revoke)
    revoke.set_defaults(run=cmd_keys_revoke)
    return parser


def main(argv: list[str] | None = None) -> int:
    from shared.core.errors import MemoryLayerError

    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:  # Ctrl-C is how the local stack stops: a clean stop, no traceback
        return 0
    except CliError as exc:
        print(f"memorylayer: error: {exc}", file=sys.stderr)
        return exc.code
    except MemoryLayerError as exc:  # the service refused (unknown workspace, key, …): its message
        print(f"memorylayer: error: {exc.message} ({exc.code})", file=sys.stderr)
        return 1
