"""A memory's vector lives in its row (migration 0025): no TOAST row, no TOAST index entry per write, and no
TOAST lookup for each vector recall reads (the exact scan of the pending tail, the walk's exact distances)."""

from __future__ import annotations

import psycopg
from psycopg.rows import dict_row


def test_a_stored_vector_is_in_its_row_not_out_of_line(http, ws, owner_url, database_url):
    # Given memories written one at a time and in a batch (the two insert paths)
    r = http.post("/v1/memories", json={"content": "the lighthouse keeper logs every storm"},
                  headers={"X-Workspace-ID": ws})  # fmt: skip
    assert r.status_code in (200, 201), r.text
    ops = [{"op": "create", "content": f"inline vector note number {i}"} for i in range(20)]
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws})
    assert r.status_code == 200 and r.json()["failed"] == 0, r.text

    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        # Then the column keeps its values in the row
        layout = conn.execute(
            "SELECT a.attstorage, c.reloptions FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE a.attrelid = 'memories'::regclass AND a.attname = 'embedding'"
        ).fetchone()
        assert layout is not None and layout["attstorage"] == "m"  # MAIN: in the row, uncompressed
        assert "toast_tuple_target=8160" in (layout["reloptions"] or [])
        # And every vector of this workspace is stored inline: none has a TOAST chunk (PostgreSQL 17+)
        stored = conn.execute(
            "SELECT pg_column_toast_chunk_id(embedding) AS chunk, pg_column_size(embedding) AS n "
            "FROM memories WHERE workspace_id = %s",
            (ws,),
        ).fetchall()
    assert len(stored) == 21 and all(s["chunk"] is None and s["n"] >= 1540 for s in stored), stored
