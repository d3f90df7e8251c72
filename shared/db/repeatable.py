"""The repeatable SQL files of ``shared/db/functions/``: each function (and the workspace wall's policies) defined
once, as it is now, applied after the numbered migrations whenever the file's checksum differs from the one
``schema_functions`` recorded.

>>> apply_function_files(owner_conn)            # the first run, or after editing two files   # doctest: +SKIP
['analyze_memories.sql', 'workspace_wall.sql']

The rules, for whoever edits the folder (also in shared/db/migrate.py):

- A file is idempotent: ``CREATE OR REPLACE FUNCTION`` plus its grants (``REVOKE ALL ... FROM PUBLIC`` where
  only the app role may call it, ``GRANT EXECUTE ... TO memorylayer_app``). Replacing a function keeps the
  triggers and policies that call it. A new signature (arguments, return type) is a new function: drop the old
  one in a numbered migration.
- Files run after every numbered migration, in name order, each in its own transaction. So a numbered migration
  never defines or redefines a function that has a file (on an upgraded database the file, unchanged, would not
  run again, and the two would disagree), and a trigger or policy on a function that exists only in a file is
  created in that file (``CREATE OR REPLACE TRIGGER``), not in a migration that runs before it.
- Removing a file removes nothing from the database: a numbered migration drops the function
  (``DROP FUNCTION``) in the same change. ``tests/integration/test_schema.py`` fails while a migrated database
  holds a function no file defines.
"""

from __future__ import annotations

import hashlib
import logging
from importlib import resources

import psycopg

log = logging.getLogger(__name__)

FOLDER = "functions"


def function_files() -> list[tuple[str, str]]:
    """(file name, SQL) of every repeatable file, in the order they are applied."""
    folder = resources.files("shared.db") / FOLDER
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(name, (folder / name).read_text()) for name in names]


def checksum(sql: str) -> str:
    return hashlib.sha256(sql.encode()).hexdigest()


def apply_function_files(conn: psycopg.Connection, files: list[tuple[str, str]] | None = None) -> list[str]:
    """Apply each file (``files``: ``function_files()``) whose checksum is new or changed; returns their names.
    ``conn`` is the owner's, in autocommit, holding the migrations' advisory lock. Rows of files that are gone
    are forgotten, so a file that comes back is applied again."""
    files = function_files() if files is None else files
    # Made here, after the numbered migrations, so that it gets 0010's default grants on every database alike.
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_functions "
        "(name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    recorded: dict[str, str] = dict(conn.execute("SELECT name, checksum FROM schema_functions").fetchall())
    applied: list[str] = []
    for name, sql in files:
        digest = checksum(sql)
        if recorded.get(name) == digest:
            continue
        with conn.transaction():
            conn.execute(sql)
            conn.execute(
                "INSERT INTO schema_functions (name, checksum) VALUES (%s, %s) "
                "ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()",
                (name, digest),
            )
        applied.append(name)
    gone = sorted(set(recorded) - {name for name, _ in files})
    if gone:
        conn.execute("DELETE FROM schema_functions WHERE name = ANY (%s)", (gone,))
    if applied:
        log.info("repeatable files applied: %s", ", ".join(applied))
    return applied
