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
    memorylayer migrate --database-url DSN | serve --worker

``remember`` and ``recall`` go through the HTTP API (``--url``, else ``MEMORYLAYER_URL``, else the running local
stack's; ``--api-key``, else ``MEMORYLAYER_API_KEY``). Commands that use the database find the running local stack through ``<data dir>/dev.json`` (written by
``memorylayer dev``); ``--database-url`` or ``MEMORYLAYER_DATABASE_URL`` point them elsewhere. A failure is one
line on stderr and a non-zero exit status: 1 for a refused request (an unknown workspace), 2 for bad usage or
configuration (no database).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError

from shared.core.settings import Settings
from shared.core.tenants import DEFAULT_TENANT
from shared.core.version import __version__


class CliError(Exception):
    """A failure the user can act on: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------ settings and the database
def _settings(
    args: argparse.Namespace, *, needs_database: bool, extra: dict[str, Any] | None = None
) -> Settings:
    overrides: dict[str, Any] = dict(extra or {})
    if getattr(args, "data_dir", None):
        overrides["data_dir"] = args.data_dir
    if getattr(args, "database_url", None):
        overrides["database_url"] = args.database_url
    if getattr(args, "database_owner_url", None):
        overrides["database_owner_url"] = args.database_owner_url
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        raise CliError("invalid settings: " + "; ".join(_error_text(e) for e in exc.errors())) from None
    if not needs_database or settings.database_url or settings.database_host:
        return settings
    return _local_stack(settings)


def _error_text(error: Any) -> str:
    where = ".".join(str(p) for p in error.get("loc", ()))
    message = str(error.get("msg", "")).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def _local_stack(settings: Settings) -> Settings:
    """The running local stack's database, as ``memorylayer dev`` recorded it in its data dir."""
    from shared.local.processes import read_state

    data_dir = settings.data_dir.resolve()
    state = read_state(data_dir)
    if state is None or not state.running or not state.database_url:
        raise CliError(
            f"no database: the local stack is not running on {data_dir} (start it with `make dev`, or point "
            "--data-dir at its data directory), and neither --database-url nor MEMORYLAYER_DATABASE_URL is set"
        )
    return settings.model_copy(
        update={
            "database_url": state.database_url,
            "database_owner_url": settings.database_owner_url or state.database_owner_url,
        }
    )


@contextmanager
def _database(settings: Settings) -> Iterator[Any]:
    """The app role's pool (every workspace visible, as the CLI is a trusted operator), closed at the end;
    a database that cannot be reached is one clear line."""
    import logging

    import psycopg
    from psycopg_pool import PoolTimeout

    from shared.core.errors import MemoryLayerError
    from shared.db.pool import Database

    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)  # its retries would repeat our one line
    db = Database.from_settings(settings, purpose="cli")
    try:
        yield db
    except (psycopg.OperationalError, PoolTimeout, MemoryLayerError) as exc:
        if isinstance(exc, MemoryLayerError) and exc.code != "database_unavailable":
            raise
        raise CliError(f"cannot reach the database at {_where(settings)} (is it running?)", code=1) from None
    finally:
        db.close()


def _where(settings: Settings) -> str:
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(settings.database_url or "")
    except Exception:  # an unparsable DSN: psycopg said why when connecting
        return "the configured address"
    host = parts.get("host") or settings.database_host or "localhost"
    return f"{host}:{parts.get('port') or settings.database_port}"


def _progress(desc: str, total: int | None, unit: str) -> Any:
    """A progress bar (tqdm) on stderr: stdout stays for results and exports."""
    from tqdm import tqdm

    return tqdm(desc=desc, total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)


# ------------------------------------------------------------------ commands
def _migrate(args: argparse.Namespace) -> int:
    from shared.db.connection import owner_target
    from shared.db.migrate import apply_migrations

    settings = _settings(args, needs_database=True)
    try:
        target = owner_target(settings)
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    applied = apply_migrations(target, embedding_dimensions=settings.embedding_dimensions or 384)
    print(f"applied: {', '.join(applied) if applied else 'nothing pending'}")
    return 0


def _dev(args: argparse.Namespace) -> int:
    from shared.local.dev import run
    from shared.local.processes import StackAlreadyRunning

    try:
        run(_settings(args, needs_database=False, extra=_local_secret(args)))
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


def _serve(args: argparse.Namespace) -> int:
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
    settings = local_server_settings(_settings(args, needs_database=True, extra=extra))
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


def _reembed(args: argparse.Namespace) -> int:
    from shared.domain.indexing.reembed import reembed
    from shared.providers.embeddings import create_embedder

    settings = _settings(args, needs_database=True)
    embedder = create_embedder(settings)
    _ensure_vector_index(settings, embedder.dimensions)
    bars: list[Any] = []  # drawn once the workspace is found and its total known

    def started(total: int) -> None:
        bars.append(_progress(f"re-embedding {args.workspace} with {embedder.model_id}", total, "memory"))

    try:
        with _database(settings) as db:
            report = reembed(
                db,
                embedder,
                args.workspace,
                batch_size=args.batch_size,
                progress=lambda n: bars[0].update(n),
                started=started,
            )
    finally:
        for bar in bars:
            bar.close()
    print(f"{report.done} re-embedded; workspace {report.workspace_id} now uses {report.model}")
    return 0


def _index(args: argparse.Namespace) -> int:
    """Bring bulk-written vectors into the HNSW graph now: the indexer's choice (row by row, or a bulk build of
    the next graph generation for a large pending set), or with ``--bulk`` a build whatever the size. Builds run
    as the owner (shared/domain/indexing/)."""
    from shared.db import rls
    from shared.db.connection import owner_target
    from shared.domain.indexing import VectorIndexer, rebuild_as_owner
    from shared.providers.embeddings import create_embedder

    settings = _settings(args, needs_database=True)
    if args.bulk:
        dims = settings.embedding_dimensions or 384
        try:
            target = owner_target(settings)
        except RuntimeError as exc:
            raise CliError(str(exc)) from None
        built = rebuild_as_owner(settings, dims, target=target)
        if built is None:
            raise CliError("another vector graph build is running", code=1)
        print(
            f"generation {built.generation} published: {built.rows} rows in its graph, built in {built.seconds} s"
            + (f", {built.dropped} dropped" if built.dropped else "")
        )
        return 0
    with _database(settings) as db, rls.visible(rls.EVERY):
        dims = create_embedder(settings).dimensions
        result = VectorIndexer(db, settings, dims).index_vectors()
    print(json.dumps(result))
    return 0


def _ensure_vector_index(settings: Settings, dims: int) -> None:
    """The HNSW index for a new embedding size, built as the owner (the app role may not run DDL)."""
    import psycopg

    from shared.domain.indexing import ensure_as_owner

    try:
        ensure_as_owner(settings, dims)
    except (RuntimeError, psycopg.errors.InsufficientPrivilege, psycopg.OperationalError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(
            f"no vector index for {dims} dimensions yet ({reason}): run `memorylayer migrate` as the owner "
            "with this embedding configuration; recall searches exactly until then",
            file=sys.stderr,
        )


def _keys_create(args: argparse.Namespace) -> int:
    from datetime import datetime

    from shared.core.tenants import valid_tenant
    from shared.domain.auth import ApiKeys

    try:
        expires = datetime.fromisoformat(args.expires_at) if args.expires_at else None
    except ValueError:
        raise CliError(f"--expires-at {args.expires_at!r} is not an ISO-8601 timestamp") from None
    settings = _settings(args, needs_database=True)
    with _database(settings) as db:
        row, key = ApiKeys(db).create(
            args.workspace,
            access=args.access,
            expires_at=expires,
            name=args.name,
            tenant_id=valid_tenant(args.tenant) if args.tenant else None,
            shared_spaces=args.shared_spaces,
        )
    print(
        f"id:         {row['id']}\ntenant:     {row['tenant_id']}\nworkspaces: {', '.join(row['workspaces'])}"
    )
    print(f"access:     {row['access']} (user space: {row['shared_spaces']})")
    print(f"key:        {key}\n(shown once: store it now)")
    return 0


def _keys_list(args: argparse.Namespace) -> int:
    from shared.domain.auth import ApiKeys

    with _database(_settings(args, needs_database=True)) as db:
        rows = ApiKeys(db).list()
    if args.json:
        print(json.dumps(rows, default=str, indent=2))
        return 0
    header = ("ID", "TENANT", "WORKSPACES", "ACCESS", "NAME", "CREATED", "EXPIRES", "STATUS")
    table = [header] + [
        (
            r["id"],
            r["tenant_id"],
            ",".join(r["workspaces"]),
            r["access"],
            r["name"] or "",
            _when(r["created_at"]),
            _when(r["expires_at"]),
            "revoked" if r["revoked_at"] else "active",
        )
        for r in rows
    ]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return 0


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "-"


def _keys_revoke(args: argparse.Namespace) -> int:
    from shared.domain.auth import ApiKeys

    with _database(_settings(args, needs_database=True)) as db:
        ApiKeys(db).revoke(args.key_id)
    print(f"revoked {args.key_id}")
    return 0


def _workspaces(db: Any, settings: Settings, tick: Callable[[], None] | None = None) -> Any:
    """The workspace service without the API's other services (no queue, no LLM)."""
    from shared.domain.memories.service import MemoryService
    from shared.domain.workspaces import WorkspaceService
    from shared.providers.embeddings import create_embedder

    memories = MemoryService(db, create_embedder(settings), settings)
    return WorkspaceService(db, cast(MemoryService, _Counting(memories, tick)) if tick else memories)


class _Counting:
    """The memory service, calling ``tick`` after each ``remember``: progress for an import of many items."""

    def __init__(self, inner: Any, tick: Callable[[], None]) -> None:
        self._inner, self._tick = inner, tick

    def remember(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._inner.remember(*args, **kwargs)
        finally:
            self._tick()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _export(args: argparse.Namespace) -> int:
    settings = _settings(args, needs_database=True)
    with _database(settings) as db:
        # The header comes first and says whether the workspace exists: no file is created for one that does not.
        from shared.api.wire import export_lines, export_lines_v2

        if args.format == "2.0" and not args.no_associations:
            lines = export_lines_v2(*_roundtrip(db, settings).export(args.workspace))
        else:
            lines = export_lines(
                *_workspaces(db, settings).export_rows(
                    args.workspace, include_associations=not args.no_associations
                )
            )
        header_line = next(lines)
        header = json.loads(header_line)
        total = header["total_memories"] + header["total_associations"]
        out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
        try:
            out.write(header_line)
            with _progress(f"exporting {args.workspace}", total, "item") as bar:
                for line in lines:
                    out.write(line)
                    if line.startswith(_COUNTED):
                        bar.update(1)
        finally:
            if out is not sys.stdout:
                out.close()
    if args.output:
        memories, associations = header["total_memories"], header["total_associations"]
        print(f"exported {memories} memories and {associations} associations to {args.output}")
    return 0


# The lines the export's progress bar counts (the header's totals): format 2 has others (entities, threads, …).
_COUNTED = ('{"type": "memory"', '{"type": "association"')


def _roundtrip(db: Any, settings: Settings) -> Any:
    from shared.domain.memories.service import MemoryService
    from shared.domain.roundtrip import RoundTrip
    from shared.providers.embeddings import create_embedder

    return RoundTrip(db, MemoryService(db, create_embedder(settings), settings))


def _version_of(path: Path) -> str:
    """The export version a file's header names ("1.0" for a file with none, or one JSON object)."""
    try:
        with path.open(encoding="utf-8") as file:
            first = next((line for line in file if line.strip()), "")
        header = json.loads(first)
    except (OSError, ValueError, UnicodeDecodeError):
        return "1.0"
    return (
        str(header.get("version", "1.0"))
        if isinstance(header, dict) and header.get("type") == "header"
        else "1.0"
    )


def _import(args: argparse.Namespace) -> int:
    from shared.core.tenants import valid_tenant

    path = Path(args.file)
    if _version_of(path) != "1.0":
        settings = _settings(args, needs_database=True)
        with _database(settings) as db:
            # Read line by line (twice if the ids must be remapped), never whole.
            report = _roundtrip(db, settings).import_lines(
                args.workspace, lambda: path.open(encoding="utf-8"), tenant_id=valid_tenant(args.tenant)
            )
        kinds = ", ".join(f"{n} {kind}" for kind, n in report["imported_by_kind"].items()) or "nothing"
        print(
            f"imported {kinds} (ids {report['ids']}); {sum(report['skipped_by_kind'].values())} already there"
        )
        return 0
    data = _read_import(path)
    settings = _settings(args, needs_database=True)
    desc = f"importing into {args.workspace}"
    with _database(settings) as db, _progress(desc, len(data["memories"]), "memory") as bar:
        service = _workspaces(db, settings, tick=lambda: bar.update(1))
        report = service.import_data(args.workspace, data, tenant_id=valid_tenant(args.tenant))
    print(
        f"imported {report['imported']} memories ({report['skipped_duplicates']} duplicates skipped) and "
        f"{report['associations_imported']} associations; {report['errors']} errors"
    )
    for detail in report["details"][:20]:
        print(f"  {json.dumps(detail)}", file=sys.stderr)
    return 1 if report["errors"] else 0


def _users_list(args: argparse.Namespace) -> int:
    from shared.domain.users import UserService

    with _database(_settings(args, needs_database=True)) as db:
        page = UserService(db).list(args.workspace, limit=args.limit, after=None)
    if args.json:
        print(json.dumps(page["users"]))
        return 0
    print(f"{'USER':<40} {'MEMORIES':>8} {'THREADS':>8} {'SESSIONS':>8}")
    for user in page["users"]:
        print(f"{user['user_id']:<40} {user['memories']:>8} {user['threads']:>8} {user['sessions']:>8}")
    return 0


def _users_erase(args: argparse.Namespace) -> int:
    from shared.core.tenants import valid_tenant
    from shared.domain.users import UserService

    with _database(_settings(args, needs_database=True)) as db:
        result = UserService(db).erase(
            valid_tenant(args.tenant), args.workspace or None, args.user_id, dry_run=args.dry_run
        )
    verb = "would erase" if args.dry_run else "erased"
    counts = ", ".join(f"{n} {kind}" for kind, n in result["counts"].items() if n) or "nothing"
    print(f"{verb} {counts} of {args.user_id} in {result['workspaces']} workspaces")
    return 0


def _read_import(path: Path) -> dict[str, list[dict[str, Any]]]:
    """An export (NDJSON, as ``export`` writes it) or one JSON object ``{"memories": [...], ...}``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        whole = whole.get("data", whole)
        return {"memories": whole.get("memories") or [], "associations": whole.get("associations") or []}
    data: dict[str, list[dict[str, Any]]] = {"memories": [], "associations": []}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            raise CliError(f"{path}:{number}: not a JSON line") from None
        if not isinstance(item, dict) or item.get("type") not in ("header", "memory", "association"):
            raise CliError(f"{path}:{number}: expected a header, memory or association line")
        if item["type"] != "header":
            data["memories" if item["type"] == "memory" else "associations"].append(item["data"])
    return data


def _api(args: argparse.Namespace) -> Any:
    """An HTTP client of the API: the URL given, else ``MEMORYLAYER_URL``, else the running local stack's."""
    import os

    import httpx

    from shared.local.processes import read_state

    url = args.url or os.environ.get("MEMORYLAYER_URL")
    if not url:
        state = read_state(Path(args.data_dir or Settings.model_fields["data_dir"].default).resolve())
        url = state.api_url if state and state.running and state.api_url else "http://127.0.0.1:61001"
    headers = {"X-Workspace-ID": args.workspace} if args.workspace else {}
    key = args.api_key or os.environ.get("MEMORYLAYER_API_KEY")
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=60)


def _answer(response: Any) -> Any:
    """The body of a 2xx; otherwise the server's message as one line (exit 1)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.is_success:
        return body
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, dict):
        message = f"{detail.get('message')} ({detail.get('code')})"
    elif isinstance(detail, list) and detail:
        message = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
            for e in detail
            if isinstance(e, dict)
        )
    else:
        message = f"HTTP {response.status_code}"
    raise CliError(message, code=1)


def _call(args: argparse.Namespace, path: str, body: dict[str, Any]) -> Any:
    import httpx

    with _api(args) as client:
        try:
            return _answer(client.post(path, json=body))
        except httpx.TransportError as exc:
            raise CliError(
                f"cannot reach the API at {client.base_url} ({type(exc).__name__}): is it running?", 1
            ) from None


def _remember(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"content": args.content, "tags": args.tag or []}
    if args.type:
        body["type"] = args.type
    if args.importance is not None:
        body["importance"] = args.importance
    memory = _call(args, "/v1/memories", body)["memory"]
    print(json.dumps(memory) if args.json else f"{memory['id']}  {memory['type']}  {memory['content']}")
    return 0


def _recall(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {"query": args.query, "limit": args.limit}
    if args.type:
        body["types"] = args.type
    if args.tag:
        body["tags"] = args.tag
    found = _call(args, "/v1/memories/recall", body)
    if args.json:
        print(json.dumps(found))
        return 0
    for memory in found["memories"]:
        score = memory.get("relevance_score")
        print(f"{score:.3f}  {memory['id']}  {memory['content']}" if score is not None else memory["content"])
    if not found["memories"]:
        print("nothing found", file=sys.stderr)
    return 0


# ------------------------------------------------------------------ parser
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
    migrate.set_defaults(run=_migrate)

    dev = sub.add_parser("dev", help="run the local stack in the foreground until Ctrl-C")
    dev.add_argument(
        "--data-dir", type=Path, metavar="DIR", help="where Postgres keeps its data (default: .data)"
    )
    dev.set_defaults(run=_dev)

    serve = sub.add_parser("serve", help="serve the API against an existing database (`migrate` it first)")
    serve.add_argument(
        "--worker",
        action="store_true",
        help="also run queued extraction jobs in this process (a Postgres of your own, no SQS)",
    )
    serve.add_argument("--host", help="address to listen on (default: MEMORYLAYER_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default: MEMORYLAYER_PORT, else 61001)")
    _database_options(serve)
    serve.set_defaults(run=_serve)

    remember = sub.add_parser("remember", help="store a memory through the API")
    remember.add_argument("content", help="what to remember")
    remember.add_argument("--tag", action="append", help="a tag; repeat for several")
    remember.add_argument("--type", help="semantic, episodic, procedural, … (default: typed by rule)")
    remember.add_argument("--importance", type=float, help="0 to 1 (default 0.5)")
    _api_options(remember)
    remember.set_defaults(run=_remember)

    recall = sub.add_parser("recall", help="find memories through the API, best first")
    recall.add_argument("query", help="what to look for")
    recall.add_argument("--limit", type=int, default=5, help="how many at most (default 5)")
    recall.add_argument("--type", action="append", help="only memories of this type; repeat for several")
    recall.add_argument("--tag", action="append", help="only memories with every such tag")
    _api_options(recall)
    recall.set_defaults(run=_recall)

    re = sub.add_parser("reembed", help="re-embed a workspace with the configured model (resumable)")
    re.add_argument("--workspace", required=True, help="the workspace to re-embed")
    re.add_argument(
        "--batch-size", type=int, default=256, help="memories per batch; each commits alone (default 256)"
    )
    _database_options(re)
    re.set_defaults(run=_reembed)

    index = sub.add_parser(
        "index",
        help="move bulk-written vectors into the HNSW graph now (row by row, or a bulk build as the owner)",
    )
    index.add_argument(
        "--bulk", action="store_true", help="build the next graph generation whatever the pending set's size"
    )
    _database_options(index)
    index.set_defaults(run=_index)

    export = sub.add_parser("export", help="write a workspace as NDJSON (what `import` and the API read)")
    export.add_argument("--workspace", required=True, help="the workspace to export")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    export.add_argument("--no-associations", action="store_true", help="memories only, no associations")
    export.add_argument(
        "--format",
        choices=["1.0", "2.0"],
        default="2.0",
        help="2.0 (default): every row of the workspace (docs/export-format.md); 1.0: memories and associations",
    )
    _database_options(export)
    export.set_defaults(run=_export)

    imp = sub.add_parser("import", help="import an export (NDJSON, or one JSON object) into a workspace")
    imp.add_argument("file", metavar="FILE", help='an `export` file, or {"memories": [...], ...}')
    imp.add_argument("--workspace", required=True, help="the workspace to import into")
    imp.add_argument("--tenant", default=DEFAULT_TENANT, help="the tenant importing (default: _default)")
    _database_options(imp)
    imp.set_defaults(run=_import)

    users = sub.add_parser("users", help="list a workspace's users, or erase one user's data for good")
    users_sub = users.add_subparsers(dest="users_command", required=True, metavar="ACTION")
    ulist = users_sub.add_parser("list", help="the users of a workspace with their counts")
    ulist.add_argument("--workspace", required=True, help="the workspace")
    ulist.add_argument("--limit", type=int, default=1000, help="how many at most (default 1000)")
    ulist.add_argument("--json", action="store_true", help="one JSON list instead of a table")
    _database_options(ulist)
    ulist.set_defaults(run=_users_list)
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
    erase.set_defaults(run=_users_erase)

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
    create.set_defaults(run=_keys_create)
    listing = keys_sub.add_parser("list", help="every key: id, workspaces, access, status (never the key)")
    listing.add_argument("--json", action="store_true", help="JSON instead of a table")
    _database_options(listing)
    listing.set_defaults(run=_keys_list)
    revoke = keys_sub.add_parser("revoke", help="revoke a key: it is refused from then on")
    revoke.add_argument("key_id", metavar="KEY_ID", help="the key's id, as `keys list` shows it (key_…)")
    _database_options(revoke)
    revoke.set_defaults(run=_keys_revoke)
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


if __name__ == "__main__":
    sys.exit(main())
