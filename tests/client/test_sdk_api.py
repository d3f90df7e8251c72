"""The SDK covers the whole API, against the live local server over HTTP, through both clients (``sdk``):
sessions and working memory, context pack and delta, threads and jobs, answer and reflect, recall's history
and observer/subject filters, contexts, admin keys, and configuration from the environment."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from memorylayer import (
    Answer,
    ApiKey,
    AuthenticationError,
    AuthorizationError,
    Briefing,
    Checkpoint,
    CommitResult,
    ContextDelta,
    ContextExecResult,
    ContextInjectResult,
    ContextLoadResult,
    ContextPack,
    ContextState,
    ContextStatus,
    ContextVariable,
    Job,
    MemoryLayerClient,
    NotFoundError,
    Reflection,
    Session,
    SyncMemoryLayerClient,
    Thread,
    ValidationError,
)

from tests.client.conftest import open_sdk
from tests.secured import ADMIN


@pytest.fixture(params=["sync", "async"])
def stack_sdk(request: pytest.FixtureRequest, stack_url: str, ws: str) -> Iterator[Any]:
    """Like ``sdk``, on the stack whose extraction jobs run."""
    with open_sdk(request.param, stack_url, ws) as client:
        yield client


def test_service_info_and_readiness(sdk: Any) -> None:
    assert sdk.ready()["status"] == "ready"
    assert sdk.info()["version"]


# ---------------------------------------------------------------------- sessions
def test_session_lifecycle_and_working_memory(sdk: Any, ws: str) -> None:
    # Given a session opened with working memory and a briefing
    session = sdk.create_session(
        ttl_seconds=600, working_memory={"goal": "fix the redis timeout"}, briefing=True
    )
    assert isinstance(session, Session) and session.workspace_id == ws and session.id.startswith("sess_")
    assert isinstance(session.briefing, Briefing) and "total_memories" in session.briefing.workspace_summary

    # When working memory is set and read back
    item = sdk.set_working_memory(session.id, "owner", {"name": "ana"})
    assert (item.key, item.value) == ("owner", {"name": "ana"})
    assert sdk.get_working_memory(session.id) == {"goal": "fix the redis timeout", "owner": {"name": "ana"}}
    assert sdk.get_working_memory(session.id, "owner") == {"owner": {"name": "ana"}}
    several = sdk.set_working_memory_items(session.id, {"blocked": None, "open_items": ["a", "b"]})
    assert sorted((i.key, i.value) for i in several) == [("blocked", None), ("open_items", ["a", "b"])]
    assert sdk.get_working_memory(session.id, "open_items") == {"open_items": ["a", "b"]}

    # Then the session is listed, touched, briefed and committed into long-term memory
    assert sdk.get_session(session.id).id == session.id
    assert [s.id for s in sdk.list_sessions()] == [session.id]
    expires = sdk.touch_session(session.id, extend_seconds=7200)
    assert isinstance(expires, datetime) and (expires - datetime.now(UTC)).total_seconds() > 3600
    assert isinstance(sdk.briefing(lookback_minutes=5), Briefing)
    committed = sdk.commit_session(session.id)
    assert isinstance(committed, CommitResult) and committed.memories_created == committed.memories_extracted
    assert committed.memories_extracted == 4 and len(committed.memory_ids) == committed.memories_created
    assert sdk.commit_session(session.id).memories_created == 0  # identical content is a no-op

    # And deleting it makes it 404
    sdk.delete_session(session.id)
    with pytest.raises(NotFoundError):
        sdk.get_session(session.id)


def test_a_session_under_the_callers_own_id_opened_on_first_use(sdk: Any, ws: str) -> None:
    # What memorylayer-mcp relies on: an unknown session is NotFoundError session_not_found (the pack and the
    # sandbox alike), and create_session takes the id the caller chose, so the next process reuses it.
    sid = f"sess_mine_{ws}"
    for use in (lambda: sdk.context_pack(sid, topic="x"), lambda: sdk.context_exec(sid, "1")):
        with pytest.raises(NotFoundError) as unknown:
            use()
        assert unknown.value.code == "session_not_found"
    assert sdk.create_session(session_id=sid, ttl_seconds=600).id == sid
    assert isinstance(sdk.context_pack(sid, topic="x"), ContextPack)
    assert sdk.context_exec(sid, "1 + 1").result == "2"
    assert sdk.get_session(sid).workspace_id == ws


def test_recall_include_history_after_a_working_memory_key_changes(sdk: Any) -> None:
    session = sdk.create_session()
    sdk.set_working_memory(session.id, "owner", "ana")
    sdk.commit_session(session.id)
    sdk.set_working_memory(session.id, "owner", "bo")
    assert sdk.commit_session(session.id).breakdown["superseded"] == 1

    current = [m.content for m in sdk.recall("owner", min_relevance=0).memories]
    assert "owner: bo" in current and "owner: ana" not in current
    history = sdk.recall("owner", min_relevance=0, include_history=True).memories
    old = next(m for m in history if m.content == "owner: ana")
    assert old.valid_to is not None and old.superseded_by


def test_checkpoint_context_pack_and_delta(sdk: Any) -> None:
    session = sdk.create_session()
    sdk.set_working_memory(session.id, "next_steps", "ship the fix")

    # A checkpoint: the SDK computes the hash; a replay with the same key returns the same checkpoint
    checkpoint = sdk.create_checkpoint(
        session.id, "user: the login hangs\nagent: redis timeout", idempotency_key="k1"
    )
    assert isinstance(checkpoint, Checkpoint) and checkpoint.capture_status == "durable"
    assert sdk.create_checkpoint(
        session.id, "user: the login hangs\nagent: redis timeout", idempotency_key="k1"
    ).id == (checkpoint.id)
    assert sdk.get_checkpoint(session.id, checkpoint.id).id == checkpoint.id

    # The pack renders working memory within the budget and hands out a cursor
    pack = sdk.context_pack(session.id, topic="login", budget_tokens=512)
    assert isinstance(pack, ContextPack) and "ship the fix" in pack.rendered
    assert 0 < pack.budget_summary["used"] <= 512 and pack.cursor

    # The delta from that cursor carries exactly what changed since
    sdk.set_working_memory(session.id, "blocked", "waiting on ops")
    delta = sdk.context_delta(session.id, pack.cursor)
    assert isinstance(delta, ContextDelta)
    assert [i.content for i in delta.working_memory_changes] == ["blocked: waiting on ops"]
    assert sdk.context_delta(session.id, delta.cursor).items == []

    with pytest.raises(ValidationError):
        sdk.context_pack(session.id, budget_tokens=1)  # below the 32-token floor: 422, nothing changes


# ---------------------------------------------------------------------- recall filters, answer, reflect
def test_recall_observer_and_subject_filters(sdk: Any) -> None:
    sdk.remember("Dana likes jazz records", observer_id="alice", subject_id="dana")
    sdk.remember("Dana likes jazz concerts", observer_id="bob", subject_id="dana")
    sdk.remember("Eve likes jazz too", observer_id="alice", subject_id="eve")

    by_alice = sdk.recall("jazz", min_relevance=0, observer_id="alice").memories
    assert sorted(m.content for m in by_alice) == ["Dana likes jazz records", "Eve likes jazz too"]
    about_dana = sdk.recall("jazz", min_relevance=0, subject_id="dana").memories
    assert sorted(m.content for m in about_dana) == ["Dana likes jazz concerts", "Dana likes jazz records"]
    both = sdk.recall("jazz", min_relevance=0, observer_id="bob", subject_id="dana").memories
    assert [m.content for m in both] == ["Dana likes jazz concerts"]


def test_answer_and_reflect_without_an_llm(sdk: Any) -> None:
    empty = sdk.answer("what does Alice drink?")
    assert isinstance(empty, Answer) and empty.abstained and empty.answer is None and empty.citations == []

    tea = sdk.remember("Alice drinks green tea every morning")
    found = sdk.answer("what does Alice drink?", limit=3)
    assert not found.abstained and not found.llm_configured and found.answer is None
    assert found.citations == [tea.id] and found.evidence[0].content == tea.content

    reflection = sdk.reflect("Alice's habits")
    assert isinstance(reflection, Reflection) and reflection.source_memories == [tea.id]
    assert not reflection.llm_configured and reflection.confidence == 0.0

    seen = sdk.remember("Alice drinks coffee at noon", observer_id="bob", subject_id="alice")
    assert sdk.reflect("Alice's habits", observer_id="bob", context_id="c1").source_memories == [seen.id]
    assert seen.id not in sdk.reflect("Alice's habits", subject_id="someone_else").source_memories
    turns = [{"role": "user", "content": "Tell me about Alice"}]
    hits = sdk.recall("what does she drink?", context=turns, rag_threshold=0.5, min_relevance=0)
    assert {tea.id, seen.id} <= {m.id for m in hits.memories}


# ---------------------------------------------------------------------- threads and jobs
def test_thread_crud_and_messages(sdk: Any) -> None:
    thread = sdk.create_thread(title="onboarding", user_id="dana", metadata={"channel": "web"})
    assert isinstance(thread, Thread) and thread.title == "onboarding" and thread.user_id == "dana"
    assert [t.id for t in sdk.list_threads()] == [thread.id]
    assert sdk.update_thread(thread.id, title="renamed").title == "renamed"

    added = sdk.append_messages(
        thread.id, [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi!"}]
    )
    assert [m.message_index for m in added.messages] == [0, 1] and added.new_message_count == 2
    assert added.job_id
    page = sdk.list_messages(thread.id, order="desc", limit=1)
    assert page.total_count == 2 and [m.content for m in page.messages] == ["hi!"]

    sdk.delete_message(thread.id, added.messages[1].id)
    full = sdk.get_thread_with_messages(thread.id)
    assert full.thread.id == thread.id and [m.content for m in full.messages] == ["hello"]

    decomposed = sdk.decompose_thread(thread.id)
    assert decomposed.thread_id == thread.id
    sdk.delete_thread(thread.id)
    with pytest.raises(NotFoundError):
        sdk.get_thread(thread.id)


def test_thread_archive_filters_and_user_listing(sdk: Any) -> None:
    user = f"user_{uuid.uuid4().hex[:8]}"
    parent = sdk.create_thread(user_id=user, scope="office")
    child = sdk.create_thread(user_id=user, parent_thread=parent.id)
    assert [t.id for t in sdk.list_threads(user_id=user)] == [parent.id]
    assert [t.id for t in sdk.list_threads(parent_thread=parent.id)] == [child.id]
    assert [t.id for t in sdk.list_threads(user_id=user, scope_filter="web")] == []
    assert [t.id for t in sdk.list_user_threads(user, scope_filter="office")] == [parent.id]

    archived = sdk.archive_thread(parent.id)
    assert isinstance(archived, Thread) and archived.hidden_at is not None
    assert sdk.list_threads(user_id=user) == [] and sdk.list_user_threads(user) == []
    assert [t.id for t in sdk.list_user_threads(user, include_hidden=True)] == [parent.id]
    assert sdk.restore_thread(parent.id).hidden_at is None
    assert [t.id for t in sdk.list_threads(user_id=user, ownership_filter="user")] == [parent.id]
    with pytest.raises(NotFoundError):
        sdk.archive_thread("thread_missing")

    sdk.append_messages(child.id, [{"role": "user", "content": f"m{i}"} for i in range(3)])
    page = sdk.get_thread_with_messages(child.id, limit=2, offset=0, order="desc")
    assert [m.content for m in page.messages] == ["m2", "m1"] and page.total_messages == 3


def test_wait_for_job_times_out_when_no_worker_runs_it(sdk: Any) -> None:
    # The plain test app has no queue: the job stays queued, so waiting must give up, not hang.
    thread = sdk.create_thread()
    added = sdk.append_messages(thread.id, [{"role": "user", "content": "My name is Dana"}])
    assert sdk.get_job(added.job_id).status == "queued"
    with pytest.raises(TimeoutError, match="still queued"):
        sdk.wait_for_job(added.job_id, timeout=0.5, poll_interval=0.1)


def test_append_then_wait_for_job_then_recall(stack_sdk: Any) -> None:
    thread = stack_sdk.create_thread(user_id="dana")
    added = stack_sdk.append_messages(
        thread.id, [{"role": "user", "content": "Hi! My name is Dana and I live in Paris."}]
    )
    job = stack_sdk.wait_for_job(added.job_id, timeout=30)
    assert isinstance(job, Job) and job.status == "done" and job.finished and job.result["added"] >= 2
    facts = {m.content for m in stack_sdk.recall("Dana Paris name live", min_relevance=0, limit=50).memories}
    assert {"User's name is Dana", "User lives in Paris"} <= facts


# ---------------------------------------------------------------------- workspaces' contexts and schema
# ---------------------------------------------------------------------- conditional memory writes, audit
def test_versioned_delete_restore_and_semantic_replace(sdk: Any, ws: str) -> None:
    memory = sdk.remember("the release train leaves on Tuesdays")
    deleted = sdk.delete_memory_versioned(memory.id, if_match=memory.etag, idempotency_key=f"op-{memory.id}")
    assert deleted.deleted_at is not None and deleted.revision == 2
    assert (
        sdk.delete_memory_versioned(memory.id, if_match=memory.etag, idempotency_key=f"op-{memory.id}")
        == deleted
    )
    with pytest.raises(NotFoundError):
        sdk.get_memory(memory.id)
    restored = sdk.restore_memory(memory.id, if_match=deleted.etag)
    assert restored.deleted_at is None and restored.revision == 3
    replaced = sdk.replace_memory_semantic(
        memory.id,
        "the release train leaves on Wednesdays",
        "procedural",
        if_match=restored.etag,
        tags=["release"],
    )
    assert (replaced.content, replaced.type, replaced.tags, replaced.revision) == (
        "the release train leaves on Wednesdays",
        "procedural",
        ["release"],
        4,
    )
    actions = [e["action"] for e in sdk.audit_events(workspace_id=ws, event_type="memory")["events"]]
    assert actions == ["replace", "restore", "delete", "create"]
    assert sdk.audit_summary(workspace_id=ws) == {"summary": {"memory": 4}, "total": 4}


def test_perspective_representation(sdk: Any, ws: str) -> None:
    sdk.remember(
        "Hana and Ivo pair on the parser",
        relations=[
            {
                "source_entity_name": "Hana",
                "source_entity_type": "person",
                "target_entity_name": "Ivo",
                "target_entity_type": "person",
                "relationship": "collaborates_with",
            }
        ],
    )
    said = sdk.remember("Ivo prefers code review in the morning", observer_id="Hana", subject_id="Ivo")
    rep = sdk.get_representation("Hana", "Ivo")
    assert [o["memory_id"] for o in rep["observations"]] == [said.id]
    assert rep["subject"]["canonical_name"] == "Ivo" and rep["is_self"] is False


def test_contexts_and_schema(sdk: Any, ws: str) -> None:
    sdk.create_workspace("contexts", workspace_id=ws)
    context = sdk.create_context("support", context_id="ctx_support", description="tickets")
    assert (context.id, context.name) == ("ctx_support", "support")
    assert "ctx_support" in {c.id for c in sdk.list_contexts()}
    sdk.delete_context("ctx_support")
    assert "ctx_support" not in {c.id for c in sdk.list_contexts()}
    assert sdk.workspace_schema()  # the relationship ontology


# ---------------------------------------------------------------------- the context environment
def test_context_environment_load_run_inspect_and_free(sdk: Any) -> None:
    # Given a session with no sandbox yet, and two memories to load
    sid = sdk.create_session(ttl_seconds=600).id
    status = sdk.context_status(sid)
    assert isinstance(status, ContextStatus) and not status.exists and status.variables == []
    assert status.state_limit_bytes and status.memory_limit_bytes
    assert sdk.context_inspect(sid) == ContextState()  # reading never creates one
    sdk.remember("redis cache times out under load", tags=["incident"])
    sdk.remember("the office plant needs water", tags=["office"])

    # When memories are loaded, a value injected and code run over both
    loaded = sdk.context_load(sid, "mems", "redis cache times out", limit=10, tags=["incident"])
    assert isinstance(loaded, ContextLoadResult)
    assert (loaded.variable, loaded.count, loaded.error) == ("mems", 1, None)
    injected = sdk.context_inject(sid, "cfg", '{"hours": [1, 2]}', parse_json=True)
    assert isinstance(injected, ContextInjectResult)
    assert (injected.variable, injected.type, injected.preview) == ("cfg", "dict", "{'hours': [1, 2]}")
    ran = sdk.context_exec(sid, "n = len([m for m in mems if 'redis' in m['content']])\nn + cfg['hours'][1]")
    assert isinstance(ran, ContextExecResult)
    assert (ran.result, ran.error, ran.variables_changed) == ("3", None, ["n"])
    failed = sdk.context_exec(sid, "n = 99\n1 / 0")  # the code's own exception: answered, not raised
    assert failed.error.startswith("ZeroDivisionError") and failed.error_code == "execution_error"
    assert sdk.context_exec(sid, "n", return_result=True).result == "1"  # the failed run kept nothing

    # Then the state can be inspected, whole or one variable
    state = sdk.context_inspect(sid)
    assert isinstance(state, ContextState) and state.variable_count == 3
    assert sorted(state.variables) == ["cfg", "mems", "n"] and state.variables["n"].type == "int"
    one = sdk.context_inspect(sid, "cfg", preview_chars=5)
    assert isinstance(one, ContextVariable) and (one.variable, one.preview) == ("cfg", "{'hou...")
    assert sdk.context_status(sid).variables == ["cfg", "mems", "n"]

    # And refusals are the SDK's exceptions, with the server's codes
    with pytest.raises(NotFoundError) as missing:
        sdk.context_inspect(sid, "nope")
    assert missing.value.code == "variable_not_found"
    with pytest.raises(ValidationError) as rejected:
        sdk.context_exec(sid, "import socket")
    assert rejected.value.code == "code_rejected"
    for no_llm in (lambda: sdk.context_query(sid, "sum it", ["n"]), lambda: sdk.context_rlm(sid, "count")):
        with pytest.raises(AuthorizationError) as refused:
            no_llm()
        assert refused.value.code == "generation_not_allowed"
    with pytest.raises(ValidationError) as no_session:
        sdk.context_status("")
    assert no_session.value.code == "missing_session_id"

    # Finally checkpoint marks it, cleanup frees it
    sdk.context_checkpoint(sid)
    assert sdk.context_status(sid).metadata["checkpointed_at"]
    sdk.context_cleanup(sid)
    assert sdk.context_status(sid).exists is False


# ---------------------------------------------------------------------- admin keys and the environment
def test_admin_keys_and_configuration_from_the_environment(
    secured: str, ws: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SyncMemoryLayerClient(secured, api_key=ADMIN) as admin:
        created = admin.create_api_key([ws], access="read_write", name="sdk test")
        assert isinstance(created, ApiKey) and created.key and created.workspaces == [ws]
        listed = {k.id: k for k in admin.list_api_keys()}
        assert created.id in listed and listed[created.id].key is None  # the secret is shown once

        # A client built with no arguments reads MEMORYLAYER_URL / _API_KEY / _WORKSPACE_ID
        monkeypatch.setenv("MEMORYLAYER_URL", secured)
        monkeypatch.setenv("MEMORYLAYER_API_KEY", created.key)
        monkeypatch.setenv("MEMORYLAYER_WORKSPACE_ID", ws)
        with SyncMemoryLayerClient() as client:
            assert (client.base_url, client.workspace_id) == (secured, ws)
            assert client.remember("configured from the environment").workspace_id == ws
            with pytest.raises(AuthorizationError):
                client.list_api_keys()  # a workspace key is not an admin key
            admin.revoke_api_key(created.id)
            with pytest.raises(AuthenticationError):
                client.recall("anything")

    # Explicit arguments win over the environment
    other = f"ws_{uuid.uuid4().hex[:8]}"
    assert MemoryLayerClient("http://example.invalid", workspace_id=other).workspace_id == other
