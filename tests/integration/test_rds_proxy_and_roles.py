"""The database connection as AWS will see it: the stand-in RDS Proxy refuses what RDS Proxy refuses and
reports what would pin; the app role reads and writes rows and nothing else; pools heal when the server ends
an idle session; IAM auth mints a fresh token per connection and passes the proxy's check."""

from __future__ import annotations

import time

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from shared.core.errors import DatabaseUnavailable
from shared.core.settings import Settings
from shared.db import pool as pool_module
from shared.db.connection import ConnectionTarget
from shared.db.pool import Database
from shared.local.rds_proxy import OPTIONS_REFUSED, RdsProxyStandIn

APP = "memorylayer_app"


def _dbname(url: str) -> str:
    return str(conninfo_to_dict(url).get("dbname") or "postgres")


def test_startup_options_are_refused_with_rds_proxys_error_and_change_nothing(rds_proxy, app_url):
    before = len(rds_proxy.refused)
    with pytest.raises(
        psycopg.OperationalError, match="RDS Proxy currently doesn't support command-line options"
    ):
        psycopg.connect(app_url, options="-c statement_timeout=1")
    assert rds_proxy.refused[before:] == [OPTIONS_REFUSED]
    with psycopg.connect(app_url) as conn:  # the role's default is untouched
        assert conn.execute("SHOW statement_timeout").fetchone() == ("15s",)


def test_pinning_statements_are_recorded_and_transaction_scoped_ones_are_not(superuser_url):
    with RdsProxyStandIn(superuser_url) as proxy:
        dsn = proxy.dsn(APP, _dbname(superuser_url))
        with psycopg.connect(dsn, autocommit=True) as conn:
            with conn.transaction():
                conn.execute("SET LOCAL work_mem = '8MB'")
                conn.execute("SELECT set_config('work_mem', '8MB', true), pg_advisory_xact_lock(7)")
            assert proxy.pins == []
            conn.execute("SET work_mem = '8MB'")
            conn.execute("SELECT pg_advisory_lock(7); SELECT pg_advisory_unlock(7)")
            conn.execute("LISTEN memorylayer_test")
            conn.execute("SELECT 1", prepare=True)  # psycopg's named prepared statement (Parse with a name)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("PREPARE q AS SELECT 1")
            conn.execute("DISCARD ALL")
        reasons = [pin.reason for pin in proxy.pins]
    assert reasons == [
        "SET (session)",
        "session advisory lock",
        "LISTEN",
        "named prepared statement (extended protocol)",
        "prepared statement command",
        "DISCARD",
    ]


def test_the_app_role_reads_and_writes_rows_and_nothing_else(app_url, http, ws):
    assert (
        http.post("/v1/memories", json={"content": "rows only"}, headers={"X-Workspace-ID": ws}).status_code
        == 201
    )
    with psycopg.connect(app_url, autocommit=True) as conn:
        role = conn.execute(
            "SELECT current_user, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        assert role == (APP, False, False, False)
        owned = conn.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = current_user::regrole"
        ).fetchone()
        assert owned == (0,)
        count = ("SELECT count(*) FROM memories WHERE workspace_id = %s", (ws,))
        # Rows are behind the row-level wall (migration 0015): none without it, the workspace's within it.
        assert conn.execute(*count).fetchone() == (0,)
        with conn.transaction():
            conn.execute("SELECT set_config('memorylayer.workspaces', %s, true)", (ws,))
            assert conn.execute(*count).fetchone() == (1,)
        for ddl in (
            "CREATE TABLE intruder (a int)",
            "ALTER TABLE memories ADD COLUMN intruder int",
            "DROP TABLE memories",
            "TRUNCATE memories",
            "CREATE INDEX intruder ON memories (id)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(ddl)
        # Maintenance beyond the one statistics refresh the worker needs stays the owner's.
        for maintenance in ("REINDEX TABLE memories", "CLUSTER memories USING memories_pkey"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(maintenance)
        before = conn.execute(
            "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'memories'"
        ).fetchone()
        conn.execute("SELECT analyze_memories()")
        conn.execute("SELECT pg_stat_force_next_flush()")
        after = conn.execute(
            "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'memories'"
        ).fetchone()
        assert after[0] == before[0] + 1


def test_the_statistics_refresh_also_merges_the_full_text_pending_lists(app_url, superuser_url, http, ws):
    """After a bulk load GIN answers from an unsorted pending list that every search scans (migration 0022):
    the worker's one owner's call (analyze_memories) merges it."""

    def bulk(n: int) -> None:
        ops = [{"op": "create", "content": f"pending list word{i} lighthouse"} for i in range(n)]
        r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
        assert r.status_code == 200, r.text

    def merge_now() -> int:  # pages merged by the superuser's own call: what was still pending
        with psycopg.connect(superuser_url, autocommit=True) as su:
            return su.execute("SELECT gin_clean_pending_list('memories_ws_tsv'::regclass)").fetchone()[0]

    bulk(50)  # under ANALYZE_AFTER_ROWS: the inline indexer does not refresh (and merge) by itself
    assert merge_now() > 0  # a bulk load does go to the pending list (the check below can fail)
    bulk(50)
    with psycopg.connect(app_url, autocommit=True) as conn:
        conn.execute("SELECT analyze_memories()")
    assert merge_now() == 0


def test_migrations_run_as_the_owner_who_owns_every_table(owner_url, superuser_url):
    from shared.db.migrate import apply_migrations

    assert apply_migrations(owner_url) == []  # idempotent; nothing pending
    with psycopg.connect(superuser_url) as conn:
        owners = {r[0] for r in conn.execute("SELECT tableowner FROM pg_tables WHERE schemaname = 'public'")}
        settings = dict(
            s.split("=", 1)
            for (s,) in conn.execute(
                "SELECT unnest(setconfig) FROM pg_db_role_setting WHERE setrole = %s::regrole", (APP,)
            )
        )
    assert owners == {"memorylayer_owner"}
    assert settings["statement_timeout"] == "15s" and settings["hnsw.iterative_scan"] == "relaxed_order"
    assert settings["hnsw.ef_search"] == "100" and settings["idle_session_timeout"] == "60s"


def test_the_pool_heals_after_the_server_ends_its_idle_sessions(app_url, superuser_url):
    """After a quiet spell the server (idle_session_timeout) has ended every pooled connection: the next
    borrow still gets a working one well inside the timeout, not after a backoff over each dead one."""
    settings = Settings(
        database_url=app_url, embedding_provider="hash", db_pool_max=4, db_connect_timeout_s=2
    )
    db = Database.from_settings(settings, purpose="api")
    try:
        with db.connection() as a, db.connection() as b, db.connection() as c:
            pids = [conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"] for conn in (a, b, c)]
        with psycopg.connect(superuser_url, autocommit=True) as admin:  # as idle_session_timeout would
            admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", (pids,))
        time.sleep(0.2)
        db._last_used -= 60  # the quiet spell
        started = time.monotonic()
        for _ in range(3):
            with db.connection() as conn:
                assert conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"] not in pids
        assert time.monotonic() - started < 1.5
    finally:
        db.close()


@pytest.mark.parametrize("window_s", [2.0, 0.0])
def test_a_connection_given_back_a_moment_ago_is_lent_without_a_check(
    app_url, superuser_url, monkeypatch, window_s
):
    """Within RECENTLY_RETURNED_S a borrow skips the check round trip: a backend killed in that moment fails
    one request (DatabaseUnavailable) and is discarded; the next borrow works. With no window it is checked."""
    monkeypatch.setattr(pool_module, "RECENTLY_RETURNED_S", window_s)
    settings = Settings(database_url=app_url, embedding_provider="hash", db_pool_max=1)
    db = Database.from_settings(settings, purpose="api")
    try:
        with db.connection() as conn:
            pid = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"]
        with psycopg.connect(superuser_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.2)
        if window_s:
            with pytest.raises(DatabaseUnavailable), db.connection() as conn:
                conn.execute("SELECT 1").fetchone()
        with db.connection() as conn:
            assert conn.execute("SELECT pg_backend_pid() AS pid").fetchone()["pid"] != pid
    finally:
        db.close()


def test_iam_auth_mints_a_token_per_connection_through_a_verifying_proxy(superuser_url, monkeypatch):
    """botocore presigns locally with fake credentials (no network); the stand-in accepts only a well-formed,
    unexpired token for this user and endpoint, over TLS verify-full."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE",
        "AWS_SECRET_ACCESS_KEY": "fake-secret",
        "AWS_SESSION_TOKEN": "fake-session",
    }.items():
        monkeypatch.setenv(name, value)
    from shared.db import connection

    connection._rds_client.cache_clear()
    with RdsProxyStandIn(superuser_url, tls=True, iam=True) as proxy:
        settings = Settings(
            database_host=proxy.host,
            database_port=proxy.port,
            database_name=_dbname(superuser_url),
            database_auth="iam",
            database_sslrootcert=proxy.ca_file,
            embedding_provider="hash",
        )
        target = connection.app_target(settings)
        first = target.kwargs()
        assert first["sslmode"] == "verify-full" and first["sslrootcert"] == proxy.ca_file
        assert first["user"] == APP and "X-Amz-Signature=" in first["password"]
        tokens: list[str] = []
        counting = ConnectionTarget("", lambda: (kw := target.kwargs(), tokens.append(kw["password"]))[0])
        db = Database.open(counting, max_size=2)
        try:
            with db.connection() as a, db.connection() as b:
                assert a.execute("SELECT current_user AS u").fetchone()["u"] == APP
                assert a.pgconn.ssl_in_use and b.pgconn.ssl_in_use
        finally:
            db.close()
        assert len(tokens) == 2  # one fresh token for each new connection
        with pytest.raises(psycopg.OperationalError, match="IAM authentication failed"):
            psycopg.connect(proxy.dsn(APP, "postgres"), password="not-a-token")
        assert proxy.pins == []
