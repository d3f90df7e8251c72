"""The repeatable files of shared/db/functions/ (shared/db/repeatable.py) keep their rules: one function a file,
named as the file, with its grants; and no numbered migration after they were introduced (re)defines one of them
(on an upgraded database the unchanged file would not run again, and the two would disagree)."""

from __future__ import annotations

import re

import pytest

from shared.db.migrate import migration_files
from shared.db.repeatable import function_files

# The last migration written before shared/db/functions/ took over the functions: they stay as history.
BASELINE = "0027"
CREATE_FUNCTION = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:public\.)?(\w+)", re.I)
POLICY_FAMILIES = {"workspace_wall.sql"}


def _without_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


@pytest.mark.parametrize(("name", "sql"), function_files(), ids=lambda v: v if v.endswith(".sql") else "")
def test_each_file_defines_its_one_function_with_its_grants(name: str, sql: str) -> None:
    defined = CREATE_FUNCTION.findall(_without_comments(sql))
    if name in POLICY_FAMILIES:
        assert defined == [] and "CREATE POLICY" in sql
        return
    function = name.removesuffix(".sql")
    assert defined == [function], f"{name} defines {defined}: one function a file, named as the file"
    assert re.search(rf"\bCREATE OR REPLACE FUNCTION {function}\(", sql), "idempotent: CREATE OR REPLACE"
    assert re.search(rf"^GRANT EXECUTE ON FUNCTION {function}\(.*\) TO memorylayer_app;$", sql, re.M)


def test_later_migrations_leave_the_functions_to_their_files() -> None:
    owned = {name.removesuffix(".sql") for name, _ in function_files()}
    redefined = {
        (name, function)
        for name, sql in migration_files()
        if name[:4] > BASELINE
        for function in CREATE_FUNCTION.findall(_without_comments(sql))
        if function in owned
    }
    assert not redefined, f"edit shared/db/functions/<name>.sql instead: {sorted(redefined)}"
