"""The SDK against the live local server: every method, through the sync and the async client (``sdk``)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from memorylayer import (
    Association,
    AuthenticationError,
    AuthorizationError,
    BatchResult,
    ConflictError,
    Memory,
    MemoryLayerClient,
    MemoryLayerError,
    NotFoundError,
    PayloadTooLargeError,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    SyncMemoryLayerClient,
    TransportError,
    ValidationError,
    Workspace,
)


def test_health(sdk: Any) -> None:
    assert sdk.health() == {"status": "healthy"}


def test_remember_get_update_forget(sdk: Any, ws: str) -> None:
    # Given a stored memory
    memory = sdk.remember(
        "Alice prefers green tea", type="semantic", tags=["prefs"], metadata={"who": "alice"}
    )
    assert isinstance(memory, Memory)
    assert memory.id.startswith("mem_") and memory.workspace_id == ws
    assert memory.type == "semantic" and memory.tags == ["prefs"] and memory.metadata["who"] == "alice"

    # When it is read back and updated
    assert sdk.get_memory(memory.id).content == "Alice prefers green tea"
    updated = sdk.update_memory(
        memory.id, content="Alice prefers oolong", importance=0.9, tags=["prefs", "tea"]
    )
    assert (updated.content, updated.importance, updated.tags) == (
        "Alice prefers oolong",
        0.9,
        ["prefs", "tea"],
    )

    # Then a stale ETag is refused, and forgetting makes it 404
    with pytest.raises(PreconditionFailedError) as stale:
        sdk.update_memory(memory.id, importance=0.1, if_match=memory.etag)
    assert stale.value.status_code == 412
    assert sdk.update_memory(memory.id, importance=0.2, if_match=updated.etag).importance == 0.2
    assert sdk.forget(memory.id) is True
    with pytest.raises(NotFoundError):
        sdk.get_memory(memory.id)
    assert sdk.get_memory(memory.id, include_deleted=True).deleted_at is not None
    with pytest.raises(NotFoundError):
        sdk.forget(memory.id)


def test_workspace_isolation(sdk: Any, base_url: str, other_ws: str) -> None:
    memory = sdk.remember("only in my workspace")
    with SyncMemoryLayerClient(base_url, workspace_id=other_ws) as other, pytest.raises(NotFoundError):
        other.get_memory(memory.id)
    assert sdk.get_memory(memory.id, workspace_id=sdk.workspace_id).id == memory.id


def test_recall(sdk: Any) -> None:
    sdk.remember("Alice prefers green tea in the morning", tags=["prefs"])
    sdk.remember("The deploy pipeline runs on Tuesdays", tags=["ops"])
    result = sdk.recall("green tea", limit=5)
    assert result.memories and result.memories[0].content.startswith("Alice prefers green tea")
    only_ops = sdk.recall("pipeline", tags=["ops"], min_relevance=0.0, limit=1000)
    assert [m.tags for m in only_ops.memories] == [["ops"]]


def test_list_and_iterate(sdk: Any) -> None:
    ids = [sdk.remember(f"note number {i}", tags=["batch"]).id for i in range(5)]
    page = sdk.list_memories(limit=2)
    assert len(page.memories) == 2 and page.total_count == 2
    assert page.memories[0].id == ids[-1]  # newest first
    assert sorted(m.id for m in sdk.iterate_memories(page_size=2)) == sorted(ids)
    assert len(sdk.list_memories(tag="batch", limit=50).memories) == 5


def test_sequences(sdk: Any) -> None:
    first = sdk.remember("user: hi", sequence_key="Chat")
    second = sdk.remember("user: hi", sequence_key="Chat")
    other = sdk.remember("user: hi (lowercase chat)", sequence_key="chat")
    assert (first.sequence_index, second.sequence_index, other.sequence_index) == (0, 1, 0)
    assert second.metadata["message_index"] == 1
    stream = sdk.list_memories(sequence_key="Chat", limit=1000).memories
    assert [m.id for m in stream] == [first.id, second.id]
    assert sorted(sdk.sequence_keys()) == ["Chat", "chat"]
    assert [m.id for m in sdk.iterate_memories(sequence_key="Chat", page_size=1)] == [first.id, second.id]


def test_same_content_in_two_sequences_is_two_memories(sdk: Any) -> None:
    first = sdk.remember("user: hi", sequence_key="Chat")
    other = sdk.remember("user: hi", sequence_key="chat")
    assert other.id != first.id and (other.sequence_key, other.sequence_index) == ("chat", 0)


def test_idempotent_remember(sdk: Any) -> None:
    key = uuid.uuid4().hex
    a = sdk.remember("exactly once", idempotency_key=key)
    b = sdk.remember("exactly once", idempotency_key=key)
    assert a.id == b.id
    with pytest.raises(ConflictError) as reused:
        sdk.remember("another body", idempotency_key=key)
    assert reused.value.code == "idempotency_key_reused"


def test_batch(sdk: Any) -> None:
    keep = sdk.remember("keep me")
    drop = sdk.remember("drop me")
    result = sdk.batch_memories(
        [
            {"op": "create", "content": "made in a batch", "tags": ["b"]},
            {"type": "create", "data": {"content": "official docstring form"}},
            {"op": "update", "memory_id": keep.id, "importance": 0.8},
            {"op": "delete", "memory_id": drop.id},
            {"op": "delete", "memory_id": "mem_0000000000000000"},
        ]
    )
    assert isinstance(result, BatchResult)
    assert (result.total_operations, result.successful, result.failed) == (5, 4, 1)
    assert [r.status for r in result.results] == ["success"] * 4 + ["error"]
    assert sdk.get_memory(keep.id).importance == 0.8
    with pytest.raises(NotFoundError):
        sdk.get_memory(drop.id)


def test_decay_and_revisions(sdk: Any) -> None:
    memory = sdk.remember("decaying fact")
    assert sdk.decay(memory.id, 0.2).importance == pytest.approx(0.3)
    sdk.update_memory(memory.id, content="decaying fact, revised")
    page = sdk.revisions(memory.id)
    assert len(page.revisions) >= 2
    assert page.revisions[0].memory["content"] == "decaying fact, revised"  # newest first
    first = sdk.revisions(memory.id, limit=1)
    assert len(first.revisions) == 1 and first.next_page_token
    assert sdk.revisions(memory.id, limit=1, page_token=first.next_page_token).revisions


def test_associations_and_traverse(sdk: Any) -> None:
    problem = sdk.remember("login times out under load")
    fix = sdk.remember("raise the redis pool size")
    edge = sdk.associate(fix.id, problem.id, "solves", strength=0.9, metadata={"by": "test"})
    assert isinstance(edge, Association)
    assert (edge.source_id, edge.target_id, edge.relationship, edge.strength) == (
        fix.id,
        problem.id,
        "solves",
        0.9,
    )
    assert [a.id for a in sdk.get_associations(problem.id)] == [edge.id]
    assert sdk.get_associations(problem.id, direction="outgoing") == []
    assert [a.id for a in sdk.get_associations(fix.id, relationships=["SOLVES"])] == [edge.id]

    sdk.update_association(fix.id, edge.id, strength=0.4, metadata={"by": "update"})
    (changed,) = sdk.get_associations(fix.id)
    assert changed.strength == 0.4 and changed.metadata == {"by": "update"}

    walk = sdk.traverse(fix.id, max_depth=2)
    assert walk.total_paths >= 1 and walk.paths[0].nodes[:2] == [fix.id, problem.id]

    sdk.delete_association(fix.id, edge.id)
    assert sdk.get_associations(fix.id) == []
    with pytest.raises(NotFoundError):
        sdk.delete_association(fix.id, edge.id)
    with pytest.raises(ValidationError) as unknown:
        sdk.associate(fix.id, problem.id, "befriends")
    assert unknown.value.status_code == 400


def test_workspaces_export_import(sdk: Any, ws: str) -> None:
    new_id = f"ws_new_{uuid.uuid4().hex[:8]}"
    created = sdk.create_workspace("Project X", workspace_id=new_id, settings={"a": 1}, tags=["team"])
    assert isinstance(created, Workspace) and (created.id, created.name, created.tags) == (
        new_id,
        "Project X",
        ["team"],
    )
    assert sdk.get_workspace(new_id).name == "Project X"
    assert new_id in {w.id for w in sdk.list_workspaces()}
    assert [w.id for w in sdk.list_workspaces(tags=["team"])].count(new_id) == 1
    assert sdk.update_workspace(new_id, name="Project Y").name == "Project Y"

    # export my workspace and import it into the new one
    a = sdk.remember("exported one")
    b = sdk.remember("exported two")
    sdk.associate(a.id, b.id, "related_to")
    assert sdk.get_workspace().id == ws
    dump = sdk.export_workspace()
    assert dump.workspace_id == ws and dump.total_memories == 2 and len(dump.memories) == 2
    assert len(dump.associations) == 1
    result = sdk.import_workspace(new_id, dump)
    assert result.imported == 2 and result.errors == 0
    assert sdk.export_workspace(new_id, include_associations=False).total_memories == 2

    sdk.delete_workspace(new_id)
    with pytest.raises(NotFoundError):
        sdk.get_workspace(new_id)


def test_errors_live(sdk: Any, base_url: str) -> None:
    with pytest.raises(NotFoundError) as missing:
        sdk.get_memory("mem_0123456789abcdef")
    err = missing.value
    assert err.status_code == 404 and err.code and err.method == "GET"
    assert err.url.startswith(base_url) and "mem_0123456789abcdef" in err.url
    assert isinstance(err, MemoryLayerError)

    with pytest.raises(ValidationError) as invalid:
        sdk.recall("")
    assert invalid.value.status_code == 422 and isinstance(invalid.value.detail, list)

    with pytest.raises(PayloadTooLargeError) as big:
        sdk.remember("x" * (65 * 1024))
    assert big.value.status_code == 413 and big.value.code == "content_too_large"


def test_transport_error_when_server_is_down() -> None:
    with (
        SyncMemoryLayerClient("http://127.0.0.1:9", max_retries=1, backoff=0.01) as client,
        pytest.raises(TransportError) as down,
    ):
        client.health()
    assert down.value.status_code is None and down.value.method == "GET"


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, ValidationError),
        (401, AuthenticationError),
        (403, AuthorizationError),
        (404, NotFoundError),
        (409, ConflictError),
        (412, PreconditionFailedError),
        (413, PayloadTooLargeError),
        (418, MemoryLayerError),
        (422, ValidationError),
        (429, RateLimitError),
        (500, ServerError),
        (503, ServerError),
    ],
)
async def test_error_mapping(status: int, cls: type[MemoryLayerError]) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"detail": {"code": f"c{status}", "message": "nope"}})

    sync = SyncMemoryLayerClient("http://test", max_retries=0, transport=httpx.MockTransport(reply))
    with pytest.raises(cls) as raised:
        sync.get_memory("mem_x")
    assert type(raised.value) is cls
    assert (raised.value.status_code, raised.value.code, raised.value.message) == (
        status,
        f"c{status}",
        "nope",
    )
    assert (raised.value.method, raised.value.url) == ("GET", "http://test/v1/memories/mem_x")

    async with MemoryLayerClient(
        "http://test", max_retries=0, transport=httpx.MockTransport(reply)
    ) as client:
        with pytest.raises(cls):
            await client.forget("mem_x")


def test_headers_and_bodies() -> None:
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        now = "2026-01-01T00:00:00Z"
        memory = {
            "id": "mem_1",
            "workspace_id": "ws_h",
            "content": "c",
            "type": "episodic",
            "importance": 0.5,
            "created_at": now,
            "updated_at": now,
        }
        return httpx.Response(201, json={"memory": memory, "replayed": False})

    client = SyncMemoryLayerClient(
        "http://test/v1/", api_key="k3y", workspace_id="ws_h", transport=httpx.MockTransport(reply)
    )
    client.remember("c", idempotency_key=True)
    client.remember("c", workspace_id="ws_other")
    first, second = seen
    assert str(first.url) == "http://test/v1/memories"
    assert first.headers["Authorization"] == "Bearer k3y" and first.headers["X-Workspace-ID"] == "ws_h"
    assert len(first.headers["Idempotency-Key"]) == 32 and b'"workspace_id":"ws_h"' in first.content
    assert second.headers["X-Workspace-ID"] == "ws_other" and "Idempotency-Key" not in second.headers


def test_sub_clients_by_family_call_the_flat_methods(base_url: str, ws: str) -> None:
    """Both clients, live: a memory and a thread written and read back through their families."""
    with SyncMemoryLayerClient(base_url, workspace_id=ws) as client:
        memory = client.memories.remember("Grace keeps the spare keys")
        assert client.memories.get(memory.id).content == "Grace keeps the spare keys"
        thread = client.threads.create(thread_id=f"th-{uuid.uuid4().hex[:8]}")
        client.threads.append_messages(thread.id, [{"role": "user", "content": "hello"}])
        assert [m.content for m in client.threads.list_messages(thread.id).messages] == ["hello"]

    async def run() -> None:
        async with MemoryLayerClient(base_url, workspace_id=ws) as client:
            assert (await client.memories.get(memory.id)).id == memory.id
            assert (await client.threads.get(thread.id)).id == thread.id

    asyncio.run(run())
