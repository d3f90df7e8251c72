"""``memorylayer export``, ``import`` and ``users``: a workspace's data out and in, and one user's erased."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from shared.cli.common import CliError, database, progress, settings_for
from shared.core.settings import Settings


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


def cmd_export(args: argparse.Namespace) -> int:
    settings = settings_for(args, needs_database=True)
    with database(settings) as db:
        # The header comes first and says whether the workspace exists: no file is created for one that does not.
        from shared.api.wire import export_lines, export_lines_v2

        if args.format == "2.0" and not args.no_associations:
            lines = export_lines_v2(
                *_roundtrip(db, settings).export(args.workspace, secrets=args.include_secrets)
            )
        else:
            lines = export_lines(
                *_workspaces(db, settings).export_rows(
                    args.workspace,
                    include_associations=not args.no_associations,
                    secrets=args.include_secrets,
                )
            )
        header_line = next(lines)
        header = json.loads(header_line)
        total = header["total_memories"] + header["total_associations"]
        out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
        try:
            out.write(header_line)
            with progress(f"exporting {args.workspace}", total, "item") as bar:
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


def cmd_import(args: argparse.Namespace) -> int:
    from shared.core.tenants import valid_tenant

    path = Path(args.file)
    if _version_of(path) != "1.0":
        settings = settings_for(args, needs_database=True)
        with database(settings) as db:
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
    settings = settings_for(args, needs_database=True)
    desc = f"importing into {args.workspace}"
    with database(settings) as db, progress(desc, len(data["memories"]), "memory") as bar:
        service = _workspaces(db, settings, tick=lambda: bar.update(1))
        report = service.import_data(args.workspace, data, tenant_id=valid_tenant(args.tenant))
    print(
        f"imported {report['imported']} memories ({report['skipped_duplicates']} duplicates skipped) and "
        f"{report['associations_imported']} associations; {report['errors']} errors"
    )
    for detail in report["details"][:20]:
        print(f"  {json.dumps(detail)}", file=sys.stderr)
    return 1 if report["errors"] else 0


def cmd_users_list(args: argparse.Namespace) -> int:
    from shared.domain.users import UserService

    with database(settings_for(args, needs_database=True)) as db:
        page = UserService(db).list(args.workspace, limit=args.limit, after=None)
    if args.json:
        print(json.dumps(page["users"]))
        return 0
    print(f"{'USER':<40} {'MEMORIES':>8} {'THREADS':>8} {'SESSIONS':>8}")
    for user in page["users"]:
        print(f"{user['user_id']:<40} {user['memories']:>8} {user['threads']:>8} {user['sessions']:>8}")
    return 0


def cmd_users_erase(args: argparse.Namespace) -> int:
    from shared.core.tenants import valid_tenant
    from shared.domain.users import UserService

    with database(settings_for(args, needs_database=True)) as db:
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
