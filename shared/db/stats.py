"""The statistics collector's live-row counts of the tables an operator watches (``memorylayer_memories_total``,
``memorylayer_sessions_active``): estimates across every workspace, from the catalog, so they read no tenant's
rows and pass no wall. They trail the truth by the collector's flush (about a second) and grow with rows not
yet vacuumed away (sessions past their expiry until the cleanup removes them)."""

from __future__ import annotations

from shared.db.rows import Connection

LIVE_ROWS_SQL = (
    "SELECT relname, n_live_tup FROM pg_stat_user_tables WHERE relname IN ('memories', 'sessions')"
)


def live_rows(conn: Connection) -> dict[str, int]:
    """``{"memories": n, "sessions": m}`` (0 for a table the collector has not counted yet)."""
    found = {row["relname"]: int(row["n_live_tup"]) for row in conn.execute(LIVE_ROWS_SQL)}
    return {"memories": found.get("memories", 0), "sessions": found.get("sessions", 0)}
