"""SQL of the sandbox leases (migration 0026): a per-tenant cap on sandbox work that holds across API instances.

>>> with db.transaction() as conn:                                          # doctest: +SKIP
...     slot = sandbox_leases.take(conn, "_global_user:acme", "key_1", "lease_1", cap=3, ttl_s=60)
"""

from __future__ import annotations

from shared.db.rows import Connection

# The lowest slot below the cap that no live lease holds, in one statement (no lock functions, nothing that
# pins RDS Proxy). An expired lease in that slot is taken over. Two callers racing for one slot: the second
# waits for the first's commit, finds the slot live, and gets no row (it tries again).
_TAKE = """
INSERT INTO context_sandbox_leases AS l (workspace_id, slot, lease_id, key_id, expires_at)
SELECT %(space)s, s, %(lease)s, %(key)s, now() + make_interval(secs => %(ttl)s)
FROM generate_series(0, %(cap)s - 1) AS s
WHERE NOT EXISTS (
    SELECT FROM context_sandbox_leases h WHERE h.workspace_id = %(space)s AND h.slot = s AND h.expires_at > now()
)
ORDER BY s
LIMIT 1
ON CONFLICT (workspace_id, slot) DO UPDATE
    SET lease_id = EXCLUDED.lease_id, key_id = EXCLUDED.key_id, taken_at = now(), expires_at = EXCLUDED.expires_at
    WHERE l.expires_at <= now()
RETURNING slot
"""


def take(conn: Connection, space: str, key_id: str, lease_id: str, *, cap: int, ttl_s: float) -> int | None:
    """A free slot of ``space``'s ``cap``, now leased to ``lease_id`` for ``ttl_s``; None: none was free."""
    row = conn.execute(
        _TAKE, {"space": space, "key": key_id, "lease": lease_id, "cap": cap, "ttl": ttl_s}
    ).fetchone()
    return int(row["slot"]) if row else None


def live(conn: Connection, space: str) -> int:
    """Leases of ``space`` that have not expired."""
    row = conn.execute(
        "SELECT count(*) AS n FROM context_sandbox_leases WHERE workspace_id = %s AND expires_at > now()",
        (space,),
    ).fetchone()
    return int(row["n"]) if row else 0


def release(conn: Connection, space: str, slot: int, lease_id: str) -> bool:
    """Drop the lease (only if it is still this one: an expired lease may have been taken over)."""
    return (
        conn.execute(
            "DELETE FROM context_sandbox_leases WHERE workspace_id = %s AND slot = %s AND lease_id = %s",
            (space, slot, lease_id),
        ).rowcount
        == 1
    )
