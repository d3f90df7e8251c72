-- 0054: per-tenant usage to bill from, one row per tenant, hour, operation kind and outcome (shared/db/usage.py).
-- Each request adds to its row with one upsert when it ends (shared/api/metering.py); a job (a document's
-- pages) adds to its own. Outcome `ok`, `client_error` (4xx), `server_error` (5xx) or `replayed` (an
-- Idempotency-Key answered from the store: the first request was the one billed), so a bill can leave out
-- what failed or repeated. Logged, not UNLOGGED like the rate-limit windows: a crash must not lose what was
-- used. No row-level wall: only the admin route reads it, and rows name tenants, not workspaces.
CREATE TABLE usage_hourly (
    tenant_id          text        NOT NULL,
    hour               timestamptz NOT NULL,
    kind               text        NOT NULL,
    outcome            text        NOT NULL,
    requests           bigint      NOT NULL DEFAULT 0,
    units              bigint      NOT NULL DEFAULT 0,  -- the rate limiter's weighting (shared/domain/auth.py)
    document_pages     bigint      NOT NULL DEFAULT 0,
    sandbox_ms         bigint      NOT NULL DEFAULT 0,
    generation_tokens  bigint      NOT NULL DEFAULT 0,
    embedding_tokens   bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, hour, kind, outcome),
    CHECK (hour = date_trunc('hour', hour))
);
-- Reading a period across every tenant (the admin's report without a tenant).
CREATE INDEX usage_hourly_hour ON usage_hourly (hour);
