"""Bulk writes: acknowledged at insert speed, found by recall at once, moved into the HNSW graph afterwards."""

from __future__ import annotations

import time

from shared.domain.extraction.worker import ExtractionWorker
from shared.domain.requests import BatchCreate, BatchRequest, RecallRequest


def pending(services, ws: str) -> int:
    with services.db.connection() as conn:
        return conn.execute(
            "SELECT count(*) AS n FROM memories WHERE workspace_id = %s AND vector_gen > (SELECT published FROM vector_index_generations WHERE dims = 384)",
            (ws,),
        ).fetchone()["n"]


def test_bulk_rows_are_recallable_before_and_after_indexing(services, settings, ws):
    ops = [BatchCreate(op="create", content=f"bulk note {i} about sailing boats") for i in range(30)]
    ops.append(BatchCreate(op="create", content="the lighthouse keeper logs every storm"))
    result = services.memories.batch(ws, BatchRequest(operations=ops))
    assert result["failed"] == 0 and pending(services, ws) == 31
    # Given rows not yet in the graph, the exact scan of the pending tail still finds them by vector.
    found = services.recaller.recall([ws], RecallRequest(query="lighthouse storm keeper"))
    assert found["memories"][0]["content"] == "the lighthouse keeper logs every storm"
    assert "vector" in found["memories"][0]["match_signals"]
    # When the worker processes the indexing message, they move into the graph and stay findable.
    worker = ExtractionWorker(services.db, services.embedder, settings)
    assert worker.process('{"kind": "index_vectors"}')["indexed"] >= 31
    assert pending(services, ws) == 0
    again = services.recaller.recall([ws], RecallRequest(query="lighthouse storm keeper"))
    assert again["memories"][0]["id"] == found["memories"][0]["id"]


def test_batch_over_http_schedules_indexing(http, services, ws):
    ops = [{"op": "create", "content": f"http bulk {i} orchard apples"} for i in range(20)]
    assert (
        http.post("/v1/memories/batch", json={"operations": ops}, headers={"X-Workspace-ID": ws}).json()[
            "successful"
        ]
        == 20
    )
    # No queue in this stack: the indexing runs right after the response.
    deadline = time.monotonic() + 10
    while pending(services, ws) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pending(services, ws) == 0


def test_batch_assigns_stream_indexes_in_order(http, ws):
    h = {"X-Workspace-ID": ws}
    http.post("/v1/memories", json={"content": "first", "sequence_key": "chat"}, headers=h)
    ops = [{"op": "create", "content": f"turn {i}", "sequence_key": "chat"} for i in range(3)]
    ops.append({"op": "create", "content": "other stream", "sequence_key": "other"})
    r = http.post("/v1/memories/batch", json={"operations": ops}, headers=h).json()
    assert r["failed"] == 0
    stream = http.get("/v1/memories", params={"sequence_key": "chat"}, headers=h).json()["memories"]
    assert [(m["content"], m["sequence_index"]) for m in stream] == [
        ("first", 0), ("turn 0", 1), ("turn 1", 2), ("turn 2", 3)
    ]  # fmt: skip
    clash = http.post("/v1/memories/batch", json={"operations": [
        {"op": "create", "content": "clash", "sequence_key": "chat", "metadata": {"message_index": 1}}
    ]}, headers=h).json()  # fmt: skip
    assert clash["failed"] == 1


def test_bulk_insert_that_loses_a_dedup_race_falls_back_without_losing_rows(services, ws):
    """When another writer commits one of the same memories after the bulk path checked for it, the bulk
    insert's ON CONFLICT skips that row and resolves to the rival's."""
    import threading

    from shared.db import memories as repo
    from shared.db import workspaces as ws_repo
    from shared.domain.memories.rows import memory_row

    def row(content: str) -> dict:
        return memory_row(
            ws,
            content,
            embedding=services.embedder.embed_one(content),
            embedding_model="hash-384@384",
            tiers=True,
        )

    rows = [row(f"race note {i}") for i in range(5)]
    rival = row("race note 3")  # same content → same dedup key, another id
    with services.db.transaction() as conn:
        ws_repo.ensure_workspace(conn, ws)
    rival_holds = threading.Event()
    release = threading.Event()

    def rival_writer() -> None:
        with services.db.transaction() as conn:
            repo.insert(conn, rival)
            rival_holds.set()
            release.wait(10)

    thread = threading.Thread(target=rival_writer)
    thread.start()
    assert rival_holds.wait(10)
    # The bulk insert's pre-check cannot see the rival's uncommitted row; its INSERT then waits on the unique
    # index until the rival commits, and skips the row.
    threading.Timer(0.5, release.set).start()
    with services.db.transaction() as conn:
        stored = repo.insert_many(conn, rows)
    thread.join()
    assert [created for _, created in stored] == [True, True, True, False, True]
    assert stored[3][0] == rival["id"]
    with services.db.connection() as conn:
        live = conn.execute(
            "SELECT count(*) AS n FROM memories WHERE workspace_id = %s AND content LIKE 'race note %%'",
            (ws,),
        ).fetchone()["n"]
        events = conn.execute(
            "SELECT count(*) AS n FROM session_context_events WHERE workspace_id = %s AND kind = 'memory_upsert'",
            (ws,),
        ).fetchone()["n"]
    assert live == 5 and events == 5


def test_bulk_insert_logs_context_events_and_dedups_within_the_call(services, ws):
    ops = [BatchCreate(op="create", content=c) for c in ["alpha fact", "beta fact", "alpha fact"]]
    result = services.memories.batch(ws, BatchRequest(operations=ops))
    ids = [r["memory_id"] for r in result["results"]]
    assert result["failed"] == 0 and ids[0] == ids[2] and ids[0] != ids[1]
    again = services.memories.batch(ws, BatchRequest(operations=ops[:1]))
    assert again["results"][0]["memory_id"] == ids[0]
    with services.db.connection() as conn:
        events = conn.execute(
            "SELECT subject_id FROM session_context_events WHERE workspace_id = %s ORDER BY sequence", (ws,)
        ).fetchall()
    assert sorted(e["subject_id"] for e in events) == sorted(ids[:2])


def test_inline_indexing_runs_one_at_a_time_and_loses_no_request(services, settings, ws):
    """Without a queue every bulk write asks for indexing; the asks must not pile up concurrent UPDATEs (one per
    batch of a fast load would time out fighting over the CPU), and none may be dropped."""
    import threading

    from shared.domain.indexing import InlineIndexer

    worker = ExtractionWorker(services.db, services.embedder, settings)
    active, peak, runs = [0], [0], [0]
    lock = threading.Lock()
    real = worker.index_vectors

    def observed(**kwargs):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
            runs[0] += 1
        try:
            time.sleep(0.05)  # widen the window in which other asks arrive
            return real(**kwargs)
        finally:
            with lock:
                active[0] -= 1

    worker.index_vectors = observed
    indexer = InlineIndexer(worker)

    def writer(k: int) -> None:
        for j in range(3):
            ops = [BatchCreate(op="create", content=f"inline {k}-{j}-{i} kayak paddle") for i in range(40)]
            services.memories.batch(ws, BatchRequest(operations=ops))
            indexer.request()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 1, "two indexing runs overlapped"
    assert 1 <= runs[0] < 18  # asks during a run fold into it
    assert pending(services, ws) == 0  # the last ask was not lost


def test_a_failed_inline_indexing_run_is_not_raised_into_the_request(services, settings, ws, caplog):
    from shared.domain.indexing import InlineIndexer

    worker = ExtractionWorker(services.db, services.embedder, settings)
    real = worker.index_vectors
    calls = [0]

    def flaky(**kwargs):
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("database went away")  # fault injection: the first run fails
        return real(**kwargs)

    worker.index_vectors = flaky
    indexer = InlineIndexer(worker)
    services.memories.batch(ws, BatchRequest(operations=[BatchCreate(op="create", content="stays pending")]))
    indexer.request()  # does not raise
    assert "inline vector indexing failed" in caplog.text
    assert pending(services, ws) == 1  # still recallable by the exact scan, and picked up next time
    indexer.request()
    assert pending(services, ws) == 0


def test_indexing_stops_starting_batches_when_its_time_budget_is_spent(services, ws):
    from shared.domain.indexing import index_pending

    ops = [BatchCreate(op="create", content=f"budget row {i} canoe") for i in range(3)]
    services.memories.batch(ws, BatchRequest(operations=ops))
    assert index_pending(services.db, batch=1, budget_s=-1) == 0  # out of time before the first batch
    assert pending(services, ws) == 3
    assert index_pending(services.db) >= 3
    assert pending(services, ws) == 0


def test_the_inline_indexer_goes_on_when_a_run_ends_on_its_time_budget(services, settings, ws, monkeypatch):
    """A run that stops on its time budget with rows still moving says so (``more``), and the local stack's
    indexer runs again by itself: no later bulk write may come to ask (a large import would stop half-indexed)."""
    from shared.domain.indexing import InlineIndexer
    from shared.domain.indexing import indexer as indexer_module

    monkeypatch.setattr(indexer_module, "ROW_BATCH", 1)
    monkeypatch.setattr(indexer_module, "ROW_BATCHES_PER_LOOK", 1)
    real_pending = indexer_module.index_pending

    def one_row_then_out_of_time(db, **kwargs):
        moved = real_pending(db, **{**kwargs, "batch": 1, "max_batches": 1, "budget_s": 60.0})
        time.sleep(0.06)  # past the run's budget below
        return moved

    monkeypatch.setattr(indexer_module, "index_pending", one_row_then_out_of_time)
    worker = ExtractionWorker(services.db, services.embedder, settings)
    real, runs = worker.index_vectors, []

    def short_runs(**kwargs):
        result = real(**{**kwargs, "budget_s": 0.05})
        runs.append(result)
        return result

    worker.index_vectors = short_runs
    ops = [BatchCreate(op="create", content=f"budgeted row {i} kayak") for i in range(5)]
    services.memories.batch(ws, BatchRequest(operations=ops))
    InlineIndexer(worker, quiet_s=0).request()
    assert pending(services, ws) == 0
    assert runs[0]["more"] is True and runs[-1]["more"] is False
    assert len(runs) >= 5
