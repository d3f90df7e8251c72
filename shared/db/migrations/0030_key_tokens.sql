-- 0030: tokens are API keys minted by another key (POST /v1/tokens): one table, one authentication path.
--
-- `parent_id` is the key that minted the token (null: made by the admin key); deleting a key deletes what it
-- minted. `root_id` is the top of that chain, whose rate budget the token draws from (null: the key is its own
-- root). `scopes` is what the token was asked for (null: a key made by the admin routes); what it may do is
-- still its `access`, `shared_spaces` and `workspaces`, derived from the scopes at minting and never wider
-- than its parent's. `principal_type` is the reference's label for who holds the token. No index on `parent_id`: the rule is
-- no index on an existing table inside a migration, and the keys table stays small (a cascade scans it).
ALTER TABLE api_keys
    ADD COLUMN parent_id text REFERENCES api_keys (id) ON DELETE CASCADE,
    ADD COLUMN root_id text,
    ADD COLUMN scopes text[],
    ADD COLUMN principal_type text;
