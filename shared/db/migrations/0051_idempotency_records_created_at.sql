-- 0051: memory writes' Idempotency-Key records expire (settings.idempotency_ttl_s, a day by default); the cleanup
-- sweep deletes the oldest first, in batches, by this index instead of reading the whole table every few minutes.
CREATE INDEX IF NOT EXISTS idempotency_records_created_at ON idempotency_records (created_at);
