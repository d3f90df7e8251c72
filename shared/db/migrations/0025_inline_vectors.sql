-- 0025: a memory's vector is stored in its row, not out of line in TOAST.
--
-- A 384-d `vector` is 1,540 bytes; with the rest of the row (~0.7 kB) a memory passes PostgreSQL's 2 kB TOAST
-- threshold, so the vector, the largest value, was tried for compression (float noise does not compress: CPU
-- for nothing) and then moved to the TOAST table: every write inserted a TOAST row and a TOAST index entry
-- too, and every read of a vector (the exact scan of rows not yet in the graph, the walk's exact distance for
-- each row it returns, a small workspace's sort, the graph build reading every row) looked it up through the
-- TOAST index. STORAGE MAIN keeps it in the row, which still fits a page (8 kB) many times over; the
-- toast_tuple_target of 8160 (the most allowed) stops the compression attempt below that size. A
-- 1,536-dimension vector (6 kB, openai) stays in the row too; a larger one still goes out of line, as before.
--
-- Rows already stored keep their out-of-line vectors until they are rewritten (an UPDATE of the row, or a
-- VACUUM FULL out of band); both kinds read the same. Metadata only: no rewrite, a brief lock.
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE memories SET (toast_tuple_target = 8160);
