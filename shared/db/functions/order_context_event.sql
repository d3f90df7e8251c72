-- Trigger session_context_events_order (BEFORE INSERT, per row; migrations 0008, 0028): an event's number is one
-- past the highest its workspace has had (events kept, or the retention horizon), so a workspace's numbers count
-- only its own events and a cursor reveals nothing of other workspaces' writes. The per-workspace lock, held to
-- the end of the transaction and taken before the number is read, makes numbers follow commit order within a
-- workspace: otherwise a transaction could take 10, a later one 11 and commit first, and a delta read in between
-- would deliver 11, advance its cursor past 10 and never deliver 10. Writers of different workspaces do not wait
-- on each other. Not a counter row per workspace: a bulk write numbers thousands of events in one transaction,
-- and updating one row that often slows down with every version of it the transaction leaves behind.
CREATE OR REPLACE FUNCTION order_context_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('memorylayer.context_events:' || NEW.workspace_id, 0));
    -- A fresh statement, so a fresh snapshot: it sees what the previous lock holder committed.
    NEW.sequence := 1 + greatest(
        (SELECT coalesce(max(e.sequence), 0) FROM session_context_events e WHERE e.workspace_id = NEW.workspace_id),
        (SELECT coalesce(max(h.purged_through), 0) FROM session_context_horizon h
         WHERE h.workspace_id = NEW.workspace_id)
    );
    RETURN NEW;
END $$;
GRANT EXECUTE ON FUNCTION order_context_event() TO memorylayer_app;
