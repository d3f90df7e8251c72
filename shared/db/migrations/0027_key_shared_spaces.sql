-- 0027: what a key may do in its tenant's shared spaces (the user space every workspace of the tenant shares).
--
-- A workspace key no longer implies read-write on every user's memories of the tenant: `none` keeps a key to its
-- own workspaces, `read` lets it read the user space, `read_write` write there too. Keys made before keep what
-- they could do (`read_write`); new keys say what they get (the API's default is `read`).
ALTER TABLE api_keys
    ADD COLUMN shared_spaces text NOT NULL DEFAULT 'read_write'
    CHECK (shared_spaces IN ('none', 'read', 'read_write'));
