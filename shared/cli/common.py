"""What every ``memorylayer`` command shares: its error, its settings, the database it uses, progress bars."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import ValidationError

from shared.core.settings import Settings


class CliError(Exception):
    """A failure the user can act on: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def settings_for(
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
def database(settings: Settings) -> Iterator[Any]:
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


def progress(desc: str, total: int | None, unit: str) -> Any:
    """A progress bar (tqdm) on stderr: stdout stays for results and exports."""
    from tqdm import tqdm

    return tqdm(desc=desc, total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)
