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
