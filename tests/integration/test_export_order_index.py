"""An export pages one workspace's memories by ``(created_at, id)``, soft-deleted ones too: the index built after
the migrations (``ensure_export_order_index``) answers each page, so a page does not read other tenants' rows."""

from __future__ import annotations

import psycopg

from shared.db import transfer
from shared.db.migrate import EXPORT_ORDER_INDEX


def test_an_export_page_is_answered_by_the_workspace_order_index(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        valid = conn.execute(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = %s",
            (EXPORT_ORDER_INDEX,),
        ).fetchone()
        assert valid == (True,)
        with conn.transaction():
            conn.execute("SET LOCAL enable_seqscan = off")  # the test table is small; ask which index serves
            plan = conn.execute(
                "EXPLAIN SELECT created_at, id FROM memories t WHERE workspace_id = 'ws_x' "
                "AND (created_at, id) > (now(), 'mem_a') ORDER BY created_at, id LIMIT 500"
            ).fetchall()
    text = "\n".join(row[0] for row in plan)
    assert EXPORT_ORDER_INDEX in text, text
    assert transfer.TABLES["memory"].order == ("created_at", "id")  # the order the index is built for
