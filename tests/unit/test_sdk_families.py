"""Sub-clients by family: ``client.skills.list`` is the flat ``client.list_skills``, on both clients, with the
official SDK's sub-client names; the flat methods stay."""

from __future__ import annotations

import pytest
from memorylayer import MemoryLayerClient, SyncMemoryLayerClient
from memorylayer._families import Family, family_methods


@pytest.fixture(params=[SyncMemoryLayerClient, MemoryLayerClient], ids=["sync", "async"])
def client(request: pytest.FixtureRequest) -> SyncMemoryLayerClient | MemoryLayerClient:
    return request.param("http://127.0.0.1:9", workspace_id="ws_x")


def test_the_official_sdks_sub_client_names_are_there(client: SyncMemoryLayerClient) -> None:
    assert client.skills.list == client.list_skills
    assert client.skills.get_manifest == client.get_skill_manifest
    assert client.mcp_servers.create == client.create_mcp_server
    assert client.kb.list_articles == client.list_kb_articles
    assert client.kb.get == client.get_knowledgebase


def test_families_bind_the_flat_methods(client: SyncMemoryLayerClient) -> None:
    assert client.threads.create == client.create_thread
    assert client.threads.append_messages == client.append_messages
    assert client.memories.get == client.get_memory
    assert client.memories.remember == client.remember
    assert client.sessions.get_working_memory == client.get_working_memory  # not memories': listed in `also`
    assert client.documents.get_memories == client.get_document_memories  # the noun named first wins
    assert client.workspace_views.create == client.create_workspace_view  # the longer noun wins
    assert "create_view" not in dir(client.workspaces)
    assert client.workspaces.import_ == client.import_workspace  # a keyword gets a trailing underscore


def test_sync_and_async_clients_have_the_same_families() -> None:
    sync, concurrent = family_methods(SyncMemoryLayerClient), family_methods(MemoryLayerClient)
    assert sync == concurrent
    assert {"skills", "mcp_servers", "kb", "threads", "memories", "sessions", "entities"} <= set(sync)
    for family, methods in sync.items():
        assert methods, family
        for short, flat in methods.items():
            assert short.isidentifier(), (family, short)
            assert callable(getattr(SyncMemoryLayerClient, flat)), (family, flat)


def test_an_unknown_name_says_what_the_family_has(client: SyncMemoryLayerClient) -> None:
    with pytest.raises(AttributeError, match="has no 'fly'.*list"):
        client.skills.fly  # noqa: B018


def test_two_methods_with_one_short_name_are_refused() -> None:
    class Clashing:
        notes = Family("note", "notes")

        def get_note(self) -> None: ...

        def get_notes(self) -> None: ...

    with pytest.raises(TypeError, match="both 'get'"):
        _ = Clashing().notes
