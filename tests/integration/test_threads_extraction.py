"""Conversations in, durable memories out: threads → SQS (moto) → the extraction Lambda handler → memories.

The stack here is the real one: the app over HTTP, moto's SQS server with a DLQ (maxReceiveCount 3), and the
poller that turns queue messages into Lambda SQS events for ``functions/extraction/handler.py``.
"""

from __future__ import annotations

import json
import threading
import time

import httpx

from shared.app.bootstrap import process_services
from tests.helpers.threads import append, new_thread, recall, wait_job


def test_append_extract_recall(api):
    thread = new_thread(api, title="onboarding")
    started = time.perf_counter()
    out = append(
        api, thread, ("user", "Hi! My name is Dana and I live in Paris."), ("assistant", "Nice to meet you!")
    )
    assert [m["message_index"] for m in out["messages"]] == [0, 1] and out["new_message_count"] == 2
    job = wait_job(api, out["job_id"])
    assert time.perf_counter() - started < 20
    assert job["result"]["added"] >= 3 and job["result"]["extractor"] == "deterministic"
    facts = {m["content"] for m in recall(api, "Dana Paris name live", min_relevance=0, limit=50)}
    assert {"User's name is Dana", "User lives in Paris"} <= facts
    memory = next(
        m
        for m in recall(api, "where does the user live", min_relevance=0, limit=50)
        if m["content"] == "User lives in Paris"
    )
    # Provenance: thread and the message it came from; durable memory is scoped to the thread's user.
    assert memory["source_thread_id"] == thread and memory["user_id"] == "dana"
    assert memory["source_message_ids"] == [out["messages"][0]["id"]]
    thread_row = api.get(f"/v1/threads/{thread}").json()["thread"]
    assert thread_row["message_count"] == 2 and thread_row["last_decomposed_index"] == 2


def test_moving_supersedes_and_keeps_history(api):
    thread = new_thread(api)
    wait_job(api, append(api, thread, ("user", "My name is Dana and I live in Paris"))["job_id"])
    wait_job(api, append(api, thread, ("user", "Big news: I moved to Berlin last month"))["job_id"])
    current = [
        m
        for m in recall(api, "where does the user live", min_relevance=0, limit=50)
        if m["content"].startswith("User lives in")
    ]
    assert [m["content"] for m in current] == ["User lives in Berlin"]
    history = [
        m
        for m in recall(api, "where does the user live", min_relevance=0, limit=50, include_history=True)
        if m["content"].startswith("User lives in")
    ]
    paris = next(m for m in history if m["content"] == "User lives in Paris")
    assert paris["valid_to"] is not None and paris["superseded_by"] == current[0]["id"]
    revisions = api.get(f"/v1/memories/{paris['id']}/revisions").json()["revisions"]
    assert [r["action"] for r in revisions] == ["supersede", "create"]
    # Saying it again changes nothing.
    job = wait_job(api, append(api, thread, ("user", "As I said, I live in Berlin."))["job_id"])
    assert job["result"]["superseded"] == 0 and job["result"]["noop"] >= 1


def test_redelivered_job_changes_nothing(api, pipeline):
    _, queues = pipeline
    thread = new_thread(api)
    out = append(api, thread, ("user", "I work at Acme Corp and I love hiking"))
    wait_job(api, out["job_id"])
    before = recall(api, "*", limit=1000)
    # The same job delivered again (SQS is at-least-once), and run directly once more.
    queues.client.send_message(QueueUrl=queues.queue_url, MessageBody=json.dumps({"job_id": out["job_id"]}))
    assert process_services("worker").worker.run(out["job_id"])["status"] == "skipped"
    time.sleep(1.5)
    after = recall(api, "*", limit=1000)
    assert sorted(m["id"] for m in after) == sorted(m["id"] for m in before)


def test_a_crashed_run_is_finished_by_the_rerun_without_duplicates(api):
    thread = new_thread(api)
    out = append(api, thread, ("user", "My partner is Sam. I prefer green tea."))
    wait_job(api, out["job_id"])
    first = sorted(m["id"] for m in recall(api, "*", limit=1000))
    # Given a worker that died after writing but before marking the job done ...
    with process_services("worker").worker.db.transaction() as conn:
        conn.execute("UPDATE extraction_jobs SET status = 'running' WHERE id = %s", (out["job_id"],))
    # ... when the message is redelivered, the job completes and nothing is duplicated.
    result = process_services("worker").worker.run(out["job_id"])
    assert result["status"] == "done" and result["added"] == 0 and result["superseded"] == 0
    assert sorted(m["id"] for m in recall(api, "*", limit=1000)) == first


def test_client_message_id_is_stored_once(api):
    thread = new_thread(api)
    first = append(api, thread, ("user", "hello there"), ids=["client-1"])
    again = append(api, thread, ("user", "hello there"), ids=["client-1"])
    assert again["messages"][0]["id"] == first["messages"][0]["id"] and again["job_id"] is None
    listed = api.get(f"/v1/threads/{thread}/messages").json()
    assert listed["total_count"] == 1


def test_concurrent_appends_get_distinct_gapless_indexes(api):
    thread = new_thread(api)
    errors: list[str] = []

    def writer(k: int) -> None:
        with httpx.Client(base_url=str(api.base_url), headers=dict(api.headers), timeout=30) as c:
            for i in range(10):
                r = c.post(
                    f"/v1/threads/{thread}/messages",
                    json={"messages": [{"role": "user", "content": f"writer {k} message {i}"}]},
                )
                if r.status_code != 201:
                    errors.append(r.text)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    messages = api.get(f"/v1/threads/{thread}/messages", params={"limit": 1000}).json()["messages"]
    assert sorted(m["message_index"] for m in messages) == list(range(60))
    assert len({m["content"] for m in messages}) == 60


def test_poison_message_goes_to_the_dlq(pipeline):
    _, queues = pipeline
    queues.client.send_message(QueueUrl=queues.queue_url, MessageBody="this is not a job")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        got = queues.client.receive_message(QueueUrl=queues.dlq_url, WaitTimeSeconds=1).get("Messages", [])
        if any(m["Body"] == "this is not a job" for m in got):
            return
    raise AssertionError("poison message never reached the DLQ")


def test_a_job_that_keeps_failing_ends_failed_and_visible(api, pipeline):
    thread = new_thread(api)
    out = append(api, thread, ("user", "I live in Oslo"))
    wait_job(api, out["job_id"])
    # A job whose thread is gone can never succeed: three deliveries, then failed with the error, and the DLQ.
    with process_services("worker").worker.db.transaction() as conn:
        conn.execute(
            "INSERT INTO extraction_jobs (id, workspace_id, thread_id, from_index, to_index) "
            "SELECT 'job_doomed_' || %s, workspace_id, 'thread_gone', 0, 0 FROM extraction_jobs WHERE id = %s",
            (out["job_id"], out["job_id"]),
        )
    doomed = f"job_doomed_{out['job_id']}"
    _, queues = pipeline
    queues.client.send_message(QueueUrl=queues.queue_url, MessageBody=json.dumps({"job_id": doomed}))
    job = wait_job(api, doomed, status="failed", timeout_s=30)
    assert job["attempts"] == 3 and "thread_gone" in job["error"]


def test_decompose_runs_now(api):
    thread = new_thread(api)
    with process_services(
        "worker"
    ).worker.db.transaction() as conn:  # messages stored without a queue message: decompose picks them up
        conn.execute("UPDATE threads SET message_count = 0 WHERE id = %s", (thread,))
    out = append(api, thread, ("user", "I'm 41 years old"))
    wait_job(api, out["job_id"])
    r = api.post(f"/v1/threads/{thread}/decompose").json()
    assert r["messages_processed"] == 0  # nothing left: the queue already did it
    full = api.get(f"/v1/threads/{thread}/full").json()
    assert full["total_messages"] == 1 and full["messages"][0]["content"] == "I'm 41 years old"


def test_thread_crud_and_isolation(api, pipeline):
    thread = new_thread(api, title="t")
    assert api.put(f"/v1/threads/{thread}", json={"title": "renamed"}).json()["thread"]["title"] == "renamed"
    assert thread in [t["id"] for t in api.get("/v1/threads").json()["threads"]]
    out = append(api, thread, ("user", "delete me"))
    with httpx.Client(base_url=pipeline[0], headers={"X-Workspace-ID": "ws_intruder"}) as other:
        assert other.get(f"/v1/threads/{thread}").status_code == 404
        # An append to an id this workspace has not seen makes the intruder's own thread of that id; the
        # owner's thread is not touched.
        r = other.post(
            f"/v1/threads/{thread}/messages", json={"messages": [{"role": "user", "content": "x"}]}
        )
        assert r.status_code == 201
        assert [m["content"] for m in other.get(f"/v1/threads/{thread}/full").json()["messages"]] == ["x"]
        assert other.get(f"/v1/jobs/{out['job_id']}").status_code == 404
        assert other.delete(f"/v1/threads/{thread}").status_code == 204  # its own
        assert other.get(f"/v1/threads/{thread}").status_code == 404
    assert [m["content"] for m in api.get(f"/v1/threads/{thread}/full").json()["messages"]] == ["delete me"]
    msg = out["messages"][0]["id"]
    assert api.delete(f"/v1/threads/{thread}/messages/{msg}").status_code == 204
    assert api.delete(f"/v1/threads/{thread}").status_code == 204
    assert api.get(f"/v1/threads/{thread}").status_code == 404


def test_bad_messages_are_rejected_whole(api):
    thread = new_thread(api)
    assert api.post(f"/v1/threads/{thread}/messages", json={"messages": []}).status_code == 422
    assert (
        api.post(f"/v1/threads/{thread}/messages", json={"messages": [{"role": "user"}]}).status_code == 422
    )
    big = {"messages": [{"role": "user", "content": "ok"}, {"role": "user", "content": "x" * 70000}]}
    assert api.post(f"/v1/threads/{thread}/messages", json=big).status_code == 413
    assert api.get(f"/v1/threads/{thread}/messages").json()["total_count"] == 0


def test_deterministic_extraction_proposes_relations_recall_can_walk(api):
    """The rule-based extractor's relations land as entities and evidence of the exchange
    memory, and a relation question finds that memory through the relational arm."""
    thread = new_thread(api)
    out = append(
        api,
        thread,
        ("user", "My name is Dana Reyes. I work at Acme Corp, and Bob Stone lives in Lisbon."),
        ("assistant", "Got it."),
        ("user", "Does Carol Diaz work at Initech? Maybe Eve founded Bright Labs."),
    )
    wait_job(api, out["job_id"])
    entities = api.get("/v1/entities").json()["entities"]
    kinds = {e["canonical_name"]: e["entity_type"] for e in entities}
    # Nothing from the question or the hedge.
    assert kinds == {"Dana Reyes": "person", "Acme Corp": "org", "Bob Stone": "person", "Lisbon": "place"}
    r = api.post("/v1/memories/recall", json={"query": "Who works at Acme Corp?", "include_relations": True})
    assert r.status_code == 200, r.text
    result = r.json()
    [path] = [p for p in result["relation_paths"] if p["relations"][0]["relationship"] == "employed_by"]
    [evidence] = path["evidence_memory_ids"]
    top = result["memories"][0]
    assert top["id"] == evidence and "relational" in top["match_signals"]
    assert top["content"].startswith("User: My name is Dana Reyes. I work at Acme Corp")
    assert top["source_thread_id"] == thread
