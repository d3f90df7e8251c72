"""A session as the app role whose every plan, nested ones too, is sent back to it (auto_explain): to read the
plan a function keeps, or plans for its inner statements, as production's login would get them.

with app_role_plans(superuser_dsn, ("ws_a",)) as (conn, plans):
    conn.execute("SELECT * FROM recall_sorted_…(…)")
inner = [p for p in plans if "CTE vec_all" in p]
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from shared.db import rls


@contextmanager
def app_role_plans(
    superuser_dsn: str, workspaces: tuple[str, ...], *, analyze: bool = False
) -> Iterator[tuple[psycopg.Connection[Any], list[str]]]:
    """A superuser's connection to the database of ``superuser_dsn`` turned into the app role behind
    ``workspaces``' wall, with the app role's own defaults (the graph walk's settings, migration 0010: SET SESSION
    AUTHORIZATION applies none), and the list the plan of every statement it runs from then on is added to
    (``analyze``: as run, with actual rows and loops)."""
    plans: list[str] = []
    with psycopg.connect(superuser_dsn, autocommit=True) as conn:
        register_vector(conn)
        for (setting,) in conn.execute(
            "SELECT unnest(setconfig) FROM pg_db_role_setting WHERE setrole = 'memorylayer_app'::regrole"
        ).fetchall():
            name, _, value = setting.partition("=")
            conn.execute("SELECT set_config(%s, %s, false)", (name, value))
        conn.execute("SELECT set_config(%s, %s, false)", (rls.SETTING, rls.setting(workspaces)))
        # Loaded after the settings above, so that their own statements are not among the plans.
        conn.execute("LOAD 'auto_explain'")
        for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_level = notice"):
            conn.execute(f"SET auto_explain.{setting}")
        if analyze:  # the plans carry actual rows and loops (the statements run twice as long)
            conn.execute("SET auto_explain.log_analyze = on")
        conn.execute("SET SESSION AUTHORIZATION memorylayer_app")  # session_user: the functions' wall applies
        conn.add_notice_handler(lambda notice: plans.append(notice.message_primary or ""))
        yield conn, plans


def recall_plans(
    superuser_dsn: str, call: str, params: dict[str, Any], scope: tuple[str, ...], times: int
) -> tuple[list[str], list[list[str]]]:
    """A recall function's ``call`` run ``times`` in ``app_role_plans``: the plans of the recall statement run
    inside it each time, and the ids it returned each time."""
    results: list[list[str]] = []
    with app_role_plans(superuser_dsn, scope) as (conn, plans):
        for _ in range(times):
            results.append([r[0] for r in conn.execute(call, params).fetchall()])
    return [p for p in plans if "CTE vec_all" in p], results
