"""The migrate custom resource: idempotent on Create/Update, a no-op on Delete."""

from __future__ import annotations

from tests.functions.events import LambdaContext


def test_create_update_delete(load_handler, database_url):
    import psycopg

    module = load_handler("functions.migrate.handler")
    create = module.handler(
        {"RequestType": "Create", "ResourceProperties": {"MigrationsHash": "a"}}, LambdaContext()
    )
    assert create["PhysicalResourceId"] == "memorylayer-schema"
    # The test database is already migrated: nothing is pending, and running again is harmless.
    assert create["Data"]["Applied"] == "none"
    update = module.handler(
        {"RequestType": "Update", "PhysicalResourceId": "memorylayer-schema"}, LambdaContext()
    )
    assert update["Data"]["Applied"] == "none"
    deleted = module.handler(
        {"RequestType": "Delete", "PhysicalResourceId": "memorylayer-schema"}, LambdaContext()
    )
    assert deleted == {"PhysicalResourceId": "memorylayer-schema"}
    with psycopg.connect(database_url) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
    assert names[0] == "0001_init.sql" and "0004_threads.sql" in names


def test_the_rebuild_action_builds_the_vector_graph_as_the_owner(load_handler, monkeypatch):
    """The worker's asynchronous ask (shared/domain/indexing/indexer.py): the rebuild runs on the owner's direct
    connection, in autocommit (CREATE INDEX CONCURRENTLY). Faked here: a real one would publish a generation
    the rest of the session's database does not expect (tests/integration/test_vector_generations.py builds
    for real, on a database of its own, and tests/integration/test_vector_build_asks.py the asks' rules)."""
    from shared.core.settings import get_settings
    from shared.domain.indexing import Plan, bulk, owner

    # As the stack sets it (infra/functions.py).
    monkeypatch.setenv("MEMORYLAYER_VECTOR_BUILD_MEMORY_MB", "1234")
    get_settings.cache_clear()
    module = load_handler("functions.migrate.handler")
    seen = {}

    def fake(conn, dims, *, memory_mb, timeout_ms, **_):
        seen.update(
            user=conn.execute("SELECT current_user").fetchone()[0],
            autocommit=conn.autocommit,
            dims=dims,
            memory_mb=memory_mb,
            timeout_ms=timeout_ms,
        )
        return bulk.Rebuild(7, 10, 1.0, 1.5, "memories_embedding_384_g6")

    monkeypatch.setattr(bulk, "rebuild", fake)
    # The owner's own count still wants the build (one pending row, a threshold of one).
    monkeypatch.setattr(owner, "plan_as_owner", lambda settings, dims: Plan(0, 1, 0, 1))
    # Invoked with Lambda's full 15 minutes (the function's timeout, infra/functions.py).
    context = LambdaContext.for_function("memorylayer-migrate", timeout_ms=900_000)
    out = module.handler({"action": "rebuild_vector_index"}, context)
    assert out["status"] == "done" and out["generation"] == 7
    # The build's memory is the setting's, nobody else's; its time is the invocation's, less the margin for
    # publishing (a build too long for it: tests/integration/test_vector_build_asks.py).
    assert seen == {
        "user": "memorylayer_owner",
        "autocommit": True,
        "dims": 384,
        "memory_mb": 1234,
        "timeout_ms": 900_000 - module.REBUILD_MARGIN_MS,
    }
    monkeypatch.setattr(bulk, "rebuild", lambda conn, dims, **_: None)  # another build holds the lock
    assert module.handler({"action": "rebuild_vector_index"}, LambdaContext()) == {"status": "busy"}
