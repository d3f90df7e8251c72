-- 0028: context-event sequence numbers count per workspace, so a cursor tells its holder nothing about other
-- workspaces. Until now every event drew from one global sequence, and the gap between two cursors of one tenant
-- counted every tenant's writes. Now order_context_event (shared/db/functions/) numbers an event one past its
-- workspace's highest number, under the per-workspace lock of 0008, so numbers still follow commit order within a
-- workspace. Existing events keep their numbers and each workspace continues from its highest (or from its
-- retention horizon), so cursors handed out before this migration resume where they were.
--
-- Numbers of different workspaces now repeat, so the global primary key goes: (workspace_id, sequence), indexed
-- since 0003, is unique by that lock. The default goes too (the trigger numbers every row). The sequence it drew
-- from stays for now: the previous trigger draws from it until the functions of this deploy replace it, so
-- dropping it is a later contract step.
ALTER TABLE session_context_events DROP CONSTRAINT session_context_events_pkey;
ALTER TABLE session_context_events ALTER COLUMN sequence DROP DEFAULT;
