-- 0005: API keys. The key itself is shown once; only its prefix (for lookup) and a hash are stored.
CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    prefix      text NOT NULL UNIQUE,
    key_hash    text NOT NULL,
    workspaces  text[] NOT NULL,
    access      text NOT NULL CHECK (access IN ('read', 'read_write')),
    name        text,
    expires_at  timestamptz,
    revoked_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
