"""One connection pool per warm process; a connection is borrowed per unit of work.

    >>> db = Database.connect("postgresql://postgres@127.0.0.1:5432/postgres")   # doctest: +SKIP
    >>> with db.transaction() as conn:                                           # doctest: +SKIP
    ...     conn.execute("SELECT 1")

Connection failures surface as ``DatabaseUnavailable`` (503) quickly instead of hanging a request; the pool
re-validates connections so that a database restart heals without restarting the process.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from shared.errors import DatabaseUnavailable


def _configure(conn: psycopg.Connection) -> None:
    register_vector(conn)


class Database:
    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool

    @classmethod
    def connect(
        cls,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout_s: float = 5.0,
        statement_timeout_ms: int = 15_000,
        hnsw_ef_search: int = 100,
    ) -> Database:
        pool = ConnectionPool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout_s,
            kwargs={
                "row_factory": dict_row,
                "autocommit": True,
                "connect_timeout": max(1, int(timeout_s)),
                # Iterative HNSW scans keep filtered vector searches (one workspace, a tag) from coming
                # back short when the nearest neighbours belong to other workspaces.
                "options": (
                    f"-c statement_timeout={statement_timeout_ms} -c hnsw.ef_search={hnsw_ef_search} "
                    "-c hnsw.iterative_scan=relaxed_order"
                ),
            },
            configure=_configure,
            # A pooled connection killed by a database restart is detected here, not by the request.
            check=ConnectionPool.check_connection,
            open=False,
            reconnect_timeout=timeout_s * 6,
        )
        pool.open(wait=False)
        return cls(pool)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """Borrow a connection in autocommit mode."""
        try:
            with self.pool.connection() as conn:
                yield conn
        except (PoolTimeout, psycopg.OperationalError) as exc:
            raise DatabaseUnavailable(f"database unavailable: {exc.__class__.__name__}") from exc

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection]:
        """Borrow a connection and run the block in one transaction (committed on success)."""
        with self.connection() as conn, conn.transaction():
            yield conn

    def close(self) -> None:
        self.pool.close()
