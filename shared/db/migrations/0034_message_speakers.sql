-- 0034: who said a thread message, and when. A message may name its speaker (``speaker_name``, as OpenAI's
-- message ``name``, and a stable ``speaker_id``) and carry the time it was said (``occurred_at``: an import of an
-- old conversation keeps its times; ``created_at`` stays the time it was stored). A thread may list its
-- participants (name, speaker id, user id), which extraction reads to file each fact under the person who said it.
-- Existing rows: no speaker (the thread's user, as before) and no time of their own.
ALTER TABLE thread_messages
    ADD COLUMN speaker_name text,
    ADD COLUMN speaker_id text,
    ADD COLUMN occurred_at timestamptz;
ALTER TABLE threads ADD COLUMN participants jsonb NOT NULL DEFAULT '[]'::jsonb;
