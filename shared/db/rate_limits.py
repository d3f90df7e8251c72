"""SQL for the fleet-wide rate-limit counters (one row per bucket and fixed window).

>>> with db.connection() as conn:                                    # doctest: +SKIP
...     count, resets_in_s = count_in_window(conn, "key:key_1", 2.0)
"""

from __future__ import annotations

from datetime import datetime

from shared.db.rows import Connection, one

# The first request of a window inserts its row, every later one adds its cost, and the count comes back in the same
# statement: it holds across processes and Lambda containers, costs one round trip, and pins nothing on RDS
# Proxy. Old windows: purge().
_COUNT_IN_WINDOW = """
INSERT INTO rate_limit_counters AS c (bucket, window_start, count)
SELECT %(bucket)s, to_timestamp(floor(extract(epoch FROM at) / %(window_s)s) * %(window_s)s), %(cost)s
FROM (SELECT COALESCE(%(at)s::timestamptz, now()) AS at) AS clock
ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + %(cost)s
RETURNING c.count,
          extract(epoch FROM c.window_start - COALESCE(%(at)s::timestamptz, now())) + %(window_s)s AS resets_in_s
"""


def count_in_window(
    conn: Connection, bucket: str, window_s: float, cost: int = 1, at: datetime | None = None
) -> tuple[int, float]:
    """Add ``cost`` to ``bucket``'s current window; returns (count so far, seconds until the window ends).
    The window is the database's ``now()``, one clock for the whole fleet, unless ``at`` names the time (tests)."""
    params = {"bucket": bucket, "window_s": window_s, "cost": cost, "at": at}
    row = one(conn.execute(_COUNT_IN_WINDOW, params).fetchone())
    return int(row["count"]), float(row["resets_in_s"])


def purge(conn: Connection, older_than_s: int) -> int:
    """Drop windows that started more than ``older_than_s`` seconds ago; returns how many."""
    return conn.execute(
        "DELETE FROM rate_limit_counters WHERE window_start < now() - make_interval(secs => %s)",
        (older_than_s,),
    ).rowcount
