-- 0023: a conversation turn's previous turn, as text-search context (bench/locomo/EXPERIMENTS.md
-- §11.6–11.7). An answer turn rarely repeats the question's words; the turn before it does. Recall's text arm
-- (shared/db/recall.sql, ``listed``) also matches a query word against the previous turn's words and
-- counts such a match at a fraction of its IDF (RecallTuning.context_text_weight, 0.25); the length used for
-- BM25's normalisation stays the turn's own.
--
-- A table of its own rather than a column of memories: the context changes when *another* row changes (the
-- previous turn is edited, deleted, restored, or a turn is inserted before it). As a column, that refresh
-- would be an UPDATE of the turn's memories row: not a HOT update (the GIN index on it changes), so a new
-- entry in every index of memories, the HNSW graph included; the row-level triggers of memories (revisions,
-- context events for /context-delta, stream flags) would have to learn to ignore it; and to_jsonb(memory)
-- (revision snapshots) and every `SELECT m.*` would carry it. Here nothing of the memory row, its revision,
-- its revisions' snapshots, the wire or the exports changes; the context is derived data, never exported
-- (an import rebuilds it through the same triggers).
--
-- One row per live memory that has a sequence_key and an earlier live turn in its stream (same workspace, same
-- sequence_key: another workspace's or another stream's turn can never be a context); ``tsv`` is that turn's
-- own ``tsv``. Triggers on memories keep it, in the writing transaction, whatever writes (remember, batch,
-- import, extraction, the session commit): nothing in Python builds it.
CREATE TABLE memory_contexts (
    memory_id    text PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE ON UPDATE CASCADE,
    workspace_id text NOT NULL,
    tsv          tsvector NOT NULL
);

-- The context of each given turn (workspace, sequence_key, sequence_index) recomputed: the nearest earlier live
-- turn of its stream, or none (a session's first turn; the turn itself deleted). SECURITY INVOKER: under the
-- app role the workspace wall applies to what it reads and writes, and every turn it touches is in the
-- workspace of a row the caller has just written.
CREATE FUNCTION memorylayer_refresh_turn_contexts(turn_ids text[]) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
BEGIN
    -- Driven by the given ids (primary key), one index probe of memories_sequence each for the previous turn.
    -- The turn's own `sequence_key IS NOT NULL` is left to the join (equality is strict): said in the WHERE, it
    -- would let the planner read every stream turn through the partial memories_sequence index instead, which
    -- it does when the statistics predate the streams (a bulk UPDATE that makes them: O(n) a row, O(n²) in all).
    WITH kept AS MATERIALIZED (
        SELECT t.id, t.workspace_id, p.tsv
        FROM (SELECT DISTINCT id FROM unnest(turn_ids) AS u (id)) u
        JOIN memories t ON t.id = u.id
        JOIN LATERAL (SELECT p.tsv FROM memories p
                      WHERE p.workspace_id = t.workspace_id AND p.sequence_key = t.sequence_key
                        AND p.sequence_index < t.sequence_index AND p.deleted_at IS NULL
                      ORDER BY p.sequence_index DESC
                      LIMIT 1) p ON true
        WHERE t.deleted_at IS NULL
    ),
    gone AS (
        DELETE FROM memory_contexts c
        WHERE c.memory_id = ANY (turn_ids) AND NOT EXISTS (SELECT FROM kept k WHERE k.id = c.memory_id)
    )
    INSERT INTO memory_contexts AS c (memory_id, workspace_id, tsv)
    SELECT id, workspace_id, tsv FROM kept
    ON CONFLICT (memory_id) DO UPDATE SET tsv = excluded.tsv, workspace_id = excluded.workspace_id
    WHERE c.tsv IS DISTINCT FROM excluded.tsv OR c.workspace_id IS DISTINCT FROM excluded.workspace_id;
END $$;
REVOKE ALL ON FUNCTION memorylayer_refresh_turn_contexts(text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_refresh_turn_contexts(text[]) TO memorylayer_app;

-- The live turn right after a position of a stream (whose context is that position's turn, or was).
CREATE FUNCTION memorylayer_next_turn(ws text, key text, idx integer) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, public AS $$
    SELECT n.id FROM memories n
    WHERE n.workspace_id = ws AND n.sequence_key = key AND n.sequence_index > idx AND n.deleted_at IS NULL
    ORDER BY n.sequence_index
    LIMIT 1
$$;
REVOKE ALL ON FUNCTION memorylayer_next_turn(text, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_next_turn(text, text, integer) TO memorylayer_app;

-- Inserts, once per statement (a 1000-row batch is one call): each new turn's own context, and the context of
-- the turn after it (a turn inserted before existing ones; within one batch the refresh covers both).
CREATE FUNCTION memorylayer_contexts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM inserted WHERE sequence_key IS NOT NULL) THEN
        PERFORM memorylayer_refresh_turn_contexts(ARRAY(
            SELECT n.id FROM inserted n WHERE n.sequence_key IS NOT NULL
            UNION
            SELECT memorylayer_next_turn(n.workspace_id, n.sequence_key, n.sequence_index)
            FROM inserted n WHERE n.sequence_key IS NOT NULL AND n.deleted_at IS NULL));
    END IF;
    RETURN NULL;
END $$;

-- Hard deletes (the context rows of the deleted turns go by the foreign key): the turn after each deleted one
-- now follows an earlier turn, or none. A deleted turn's words must not stay behind in its successor.
CREATE FUNCTION memorylayer_contexts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM deleted WHERE sequence_key IS NOT NULL) THEN
        PERFORM memorylayer_refresh_turn_contexts(ARRAY(
            SELECT memorylayer_next_turn(d.workspace_id, d.sequence_key, d.sequence_index)
            FROM deleted d WHERE d.sequence_key IS NOT NULL));
    END IF;
    RETURN NULL;
END $$;

-- Updates that change what a context holds: the content (an edit, a redaction), deletion or restoring (soft
-- deletes are updates), or a turn's place. The turn itself and the turns after its old and new places.
-- Only memory_contexts is written: the memory rows, their revision and their history are untouched.
CREATE FUNCTION memorylayer_contexts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM memorylayer_refresh_turn_contexts(ARRAY[
        NEW.id,
        CASE WHEN OLD.sequence_key IS NOT NULL
             THEN memorylayer_next_turn(OLD.workspace_id, OLD.sequence_key, OLD.sequence_index) END,
        CASE WHEN NEW.sequence_key IS NOT NULL
             THEN memorylayer_next_turn(NEW.workspace_id, NEW.sequence_key, NEW.sequence_index) END]);
    RETURN NULL;
END $$;

CREATE TRIGGER memories_contexts_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION memorylayer_contexts_inserted();
CREATE TRIGGER memories_contexts_deleted AFTER DELETE ON memories
    REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION memorylayer_contexts_deleted();
-- A transition table cannot go with a column list: updates stay row-level, and fire only when a turn changes.
-- Concurrency: an edit racing an append of the next turn would leave the appended turn with the old words if
-- neither saw the other's row. They cannot race: every insert, revision-bumping update (edit, delete, restore)
-- and delete first logs a context event (0003's memories_context_* triggers, which fire before these by name),
-- and that takes its workspace's lock to COMMIT (0008); so the refresh below runs after the other transaction
-- committed, and sees its row (tests/integration/test_turn_context.py, the racing test). A direct SQL update that
-- bumps no revision takes no such lock.
CREATE TRIGGER memories_contexts_updated
    AFTER UPDATE OF content, deleted_at, sequence_key, sequence_index, workspace_id ON memories
    FOR EACH ROW
    WHEN ((OLD.sequence_key IS NOT NULL OR NEW.sequence_key IS NOT NULL)
          AND (OLD.content IS DISTINCT FROM NEW.content OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
               OR OLD.sequence_key IS DISTINCT FROM NEW.sequence_key
               OR OLD.sequence_index IS DISTINCT FROM NEW.sequence_index
               OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id))
    EXECUTE FUNCTION memorylayer_contexts_updated();

-- The turns already stored (the triggers hold memories' lock from here to COMMIT: no write slips between).
INSERT INTO memory_contexts (memory_id, workspace_id, tsv)
SELECT t.id, t.workspace_id, p.tsv
FROM memories t
JOIN LATERAL (SELECT p.tsv FROM memories p
              WHERE p.workspace_id = t.workspace_id AND p.sequence_key = t.sequence_key
                AND p.sequence_index < t.sequence_index AND p.deleted_at IS NULL
              ORDER BY p.sequence_index DESC
              LIMIT 1) p ON true
WHERE t.sequence_key IS NOT NULL AND t.deleted_at IS NULL;

-- Built after the backfill (faster than row by row); the table is new, so nothing waits on it.
CREATE INDEX memory_contexts_tsv ON memory_contexts USING gin (tsv);

-- The workspace wall (0015), for the app role.
ALTER TABLE memory_contexts ENABLE ROW LEVEL SECURITY;
CREATE POLICY workspace_wall ON memory_contexts TO memorylayer_app
    USING ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]))
    WITH CHECK ((SELECT memorylayer_sees_all()) OR workspace_id = ANY ((SELECT memorylayer_visible_workspaces())::text[]));
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_contexts TO memorylayer_app;

-- Context matches through the GIN index, as memorylayer_text_matches (0015) does for memories.tsv: behind the
-- wall the planner would not use the index for a plain `@@`. Runs as the owner and applies the same wall itself;
-- only ids, only of live memories of the asked workspaces (a context row exists only for a live turn; recall
-- joins memories with its filters anyway). ROWS 1: recall joins these ids to memories by key, one lookup each;
-- a larger estimate only tempts the planner into hashing the whole workspace (measured: a scan of memories per
-- recall).
CREATE FUNCTION memorylayer_context_matches(workspace_ids text[], q tsquery)
RETURNS TABLE (id text)
LANGUAGE sql STABLE SECURITY DEFINER ROWS 1 SET search_path = pg_catalog, public AS $$
    SELECT c.memory_id FROM public.memory_contexts c
    WHERE c.workspace_id = ANY (workspace_ids) AND c.tsv @@ q
      AND (session_user <> 'memorylayer_app' OR public.memorylayer_sees_all()
           OR c.workspace_id = ANY (public.memorylayer_visible_workspaces()))
$$;
REVOKE ALL ON FUNCTION memorylayer_context_matches(text[], tsquery) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memorylayer_context_matches(text[], tsquery) TO memorylayer_app;

-- The owner's statistics call (0022) covers the new table and merges its index's pending list too.
CREATE OR REPLACE FUNCTION analyze_memories() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    ANALYZE public.memories;
    ANALYZE public.memory_contexts;
    PERFORM gin_clean_pending_list('public.memories_tsv'::regclass);
    PERFORM gin_clean_pending_list('public.memories_tags'::regclass);
    PERFORM gin_clean_pending_list('public.memory_contexts_tsv'::regclass);
END $$;
REVOKE ALL ON FUNCTION analyze_memories() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION analyze_memories() TO memorylayer_app;
