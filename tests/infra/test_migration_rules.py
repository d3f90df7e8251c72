"""Migrations are expand/contract: a deploy applies them while the previous code version still serves, so a
migration may only add (tables, nullable or defaulted columns, indexes on new tables, functions, triggers,
grants). Removing or reshaping what the running code reads is a *contract* step, shipped in a later release
once no deployed code uses the old shape, in a file whose first line is ``-- migration: contract``.

The migrate function applies each file in one transaction (``shared/db/migrate.py``), inside the custom
resource's time limit, so a migration must not build an index over an existing, populated table either:
``CREATE INDEX CONCURRENTLY`` cannot run in a transaction, and a plain build locks writes for its duration.
Such indexes are built out of band (infra/README.md, "Expand/contract").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from infra.migrations import MIGRATIONS_DIR

CONTRACT_MARKER = "-- migration: contract"
# Files written before the first AWS deploy (no deployed database holds their tables' rows yet): their index
# builds on tables from earlier files are grandfathered. Every later file follows the rule. 0011-0015 (the tenant
# walls) were also written before any deploy; freeze this at the last file of the first deploy.
INDEX_RULE_BASELINE = "0015"

DESTRUCTIVE = {
    "DROP COLUMN": re.compile(r"\bDROP\s+COLUMN\b", re.I),
    "DROP TABLE": re.compile(r"\bDROP\s+TABLE\b", re.I),
    "RENAME": re.compile(r"\bRENAME\b", re.I),
    "ALTER COLUMN ... TYPE": re.compile(r"\bALTER\s+(?:COLUMN\s+)?\w+\s+(?:SET\s+DATA\s+)?TYPE\b", re.I),
    "SET NOT NULL": re.compile(r"\bSET\s+NOT\s+NULL\b", re.I),
}
ADD_COLUMN = re.compile(r"\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?[^,;]*", re.I)
CREATE_TABLE = re.compile(r"\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)", re.I)
CREATE_INDEX = re.compile(
    r"\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?\w*\s*ON\s+(?:ONLY\s+)?([\w.]+)",
    re.I,
)


def _sql_without_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return "\n".join(line.split("--", 1)[0] for line in text.splitlines())


def _dollar_bodies_removed(sql: str) -> str:
    """Function bodies ($$ ... $$) are code, not schema changes."""
    return re.sub(r"\$(\w*)\$.*?\$\1\$", " ", sql, flags=re.S)


def problems(name: str, text: str) -> list[str]:
    """Why a migration file breaks the expand/contract rule (empty when it is fine)."""
    if text.lstrip().lower().startswith(CONTRACT_MARKER):
        return []
    sql = _dollar_bodies_removed(_sql_without_comments(text))
    found = [f"{name}: {label}" for label, pattern in DESTRUCTIVE.items() if pattern.search(sql)]
    for match in ADD_COLUMN.finditer(sql):
        clause = match.group(0)
        if re.search(r"\bNOT\s+NULL\b", clause, re.I) and not re.search(r"\bDEFAULT\b", clause, re.I):
            found.append(f"{name}: ADD COLUMN ... NOT NULL without DEFAULT")
    if name[:4] > INDEX_RULE_BASELINE:
        created = {m.group(1).lower() for m in CREATE_TABLE.finditer(sql)}
        for match in CREATE_INDEX.finditer(sql):
            table = match.group(2).lower()
            if table not in created:
                found.append(
                    f"{name}: index on existing table {table} (build it out of band, see infra/README)"
                )
    return found


@pytest.mark.parametrize("path", sorted(MIGRATIONS_DIR.glob("*.sql")), ids=lambda p: p.name)
def test_migrations_only_expand(path: Path) -> None:
    assert problems(path.name, path.read_text()) == []


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE memories DROP COLUMN importance;",
        "DROP TABLE threads;",
        "ALTER TABLE memories RENAME COLUMN content TO body;",
        "ALTER TABLE memories RENAME TO notes;",
        "ALTER TABLE memories ALTER COLUMN importance TYPE double precision;",
        "ALTER TABLE memories ALTER COLUMN importance SET DATA TYPE double precision;",
        "ALTER TABLE memories ALTER COLUMN subtype SET NOT NULL;",
        "ALTER TABLE memories ADD COLUMN owner text NOT NULL;",
        "CREATE INDEX memories_owner ON memories (owner);",
    ],
)
def test_destructive_statements_are_caught(sql: str) -> None:
    assert problems("0100_change.sql", sql)
    assert (
        problems("0100_change.sql", f"{CONTRACT_MARKER}: drops what release N-1 stopped using\n{sql}") == []
    )


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE memories ADD COLUMN owner text;",
        "ALTER TABLE memories ADD COLUMN flag boolean NOT NULL DEFAULT false;",
        "CREATE TABLE notes (id text PRIMARY KEY); CREATE INDEX notes_id ON notes (id);",
        "DROP TRIGGER IF EXISTS t ON memories; CREATE TRIGGER t BEFORE UPDATE ON memories "
        "FOR EACH ROW EXECUTE FUNCTION f();",
        "CREATE OR REPLACE FUNCTION f() RETURNS trigger AS $$ BEGIN NEW.x := 1; "
        "ALTER TABLE y RENAME TO z; RETURN NEW; END $$ LANGUAGE plpgsql;",
        "-- we never RENAME anything here\nSELECT 1;",
    ],
)
def test_expanding_statements_pass(sql: str) -> None:
    assert problems("0100_change.sql", sql) == []
