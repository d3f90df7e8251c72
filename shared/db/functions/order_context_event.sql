-- Trigger session_context_events_order (BEFORE INSERT, per row; migration 0008): context events of one
-- workspace get their sequence numbers in commit order. Otherwise a transaction could take sequence 10, a later
-- one 11 and commit first; a delta read in between delivered 11, advanced its cursor past 10, and 10 was never
-- delivered. Each event insert takes a per-workspace lock held to the end of its transaction and only then draws
-- its number, so within a workspace a smaller number always commits first. Writers of different workspaces do
-- not wait on each other.
CREATE OR REPLACE FUNCTION order_context_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('memorylayer.context_events:' || NEW.workspace_id, 0));
    NEW.sequence := nextval(pg_get_serial_sequence('session_context_events', 'sequence'));
    RETURN NEW;
END $$;
GRANT EXECUTE ON FUNCTION order_context_event() TO memorylayer_app;
