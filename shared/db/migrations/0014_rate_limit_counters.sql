-- 0014: rate-limit counters shared by every API instance (Lambda containers each had their own token bucket).
-- One row per bucket ("key:<api key id>", "authfail:<source address>") and fixed window; a request adds one
-- with an upsert that returns the count (shared/domain/auth.py). UNLOGGED: a crash may forget a few seconds of counts,
-- which costs nothing, and the counters are written on every request, so they skip the WAL. The cleanup
-- function drops windows that ended long ago.
CREATE UNLOGGED TABLE rate_limit_counters (
    bucket        text NOT NULL,
    window_start  timestamptz NOT NULL,
    count         integer NOT NULL DEFAULT 1,
    PRIMARY KEY (bucket, window_start)
);

-- The cleanup's DELETE ... WHERE window_start < ...
CREATE INDEX rate_limit_counters_window_start ON rate_limit_counters (window_start);
