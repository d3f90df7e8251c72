"""The tenant cap across API instances (``context_executor=lambda``): lease rows in Postgres (migration 0026,
shared/domain/context_env/leases.py), over real HTTP against two app instances sharing one database.

The apps here are configured as in AWS (``lambda``), which switches the leases on; the sandbox service under
them is the tests' own, whose executor is the local confined process: the leases do not depend on which
executor runs the code.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx

from shared.core.tenants import user_space
from shared.db import rls
from shared.db import sandbox_leases as repo
from shared.domain.context_env.leases import TenantLeases
from tests.helpers.http import create, h
from tests.integration.test_sandbox_gate import (
    Call,
    assert_refusals,
    fire,
    gate,
    intervals,
    join,
    key_client,
    most_at_once,
    ok,
)
from tests.secured import admin_client, serve_secured

LAMBDA = {"context_executor": "lambda", "context_sandbox_function": "not-invoked-here"}


@contextmanager
def instances(settings, services, count: int, **caps: float) -> Iterator[list[httpx.Client]]:
    """``count`` app instances as in AWS (leases on) over one database; yields an admin client for each."""
    with ExitStack() as stack:
        admins = []
        for _ in range(count):
            url = stack.enter_context(serve_secured(settings, services, **LAMBDA, **gate(**caps)))
            admins.append(stack.enter_context(admin_client(url)))
        yield admins


def client_at(admin: httpx.Client, key: str) -> httpx.Client:
    return httpx.Client(base_url=str(admin.base_url), headers={"Authorization": f"Bearer {key}"}, timeout=90)


def live_leases(services, space: str) -> int:
    with rls.visible(rls.EVERY), services.db.connection() as conn:
        return repo.live(conn, space)


def test_the_tenant_cap_holds_across_instances(settings, services):
    # Each instance alone would run all it gets (3 slots, 2 per tenant, 2 per key); together the tenant has 2.
    tenant = f"t_{uuid.uuid4().hex[:10]}"
    ws = f"ws_{uuid.uuid4().hex[:12]}"
    caps = {"context_slots": 3, "context_tenant_slots": 2, "context_key_slots": 2}
    with instances(settings, services, 2, **caps) as (first, second), key_client(first, ws, tenant) as one:
        key = one.headers["Authorization"].removeprefix("Bearer ")
        with client_at(second, key) as two:
            calls = {one: [Call(create(one, ws)["id"]) for _ in range(2)], two: [Call(create(two, ws)["id"])]}
            threads = fire(one, ws, calls[one])
            time.sleep(0.5)  # the first instance's two calls hold the tenant's leases
            threads += fire(two, ws, calls[two])
            join(threads)

        everything = calls[one] + calls[two]
        ran = ok(everything)
        assert len(ran) == 2, [c.response.text for c in everything if c.response is not None]
        refused = assert_refusals(everything, {"sandbox_tenant_busy"})
        assert [c.session for c in refused] == [calls[two][0].session]
        assert most_at_once(intervals(one, ws, ran)) == 2
        # Every lease was dropped with its call.
        assert live_leases(services, user_space(tenant)) == 0


def test_a_crashed_calls_lease_expires_and_frees_its_slot(settings, services):
    tenant = f"t_{uuid.uuid4().hex[:10]}"
    ws = f"ws_{uuid.uuid4().hex[:12]}"
    space = user_space(tenant)
    with (
        instances(settings, services, 1, context_tenant_slots=2) as (admin,),
        key_client(admin, ws, tenant) as client,
    ):
        sid = create(client, ws)["id"]
        # Two calls that took their leases and died (an instance killed at its timeout): never released.
        crashed = TenantLeases(lambda: services.db, cap=2, ttl_s=3.0)
        with rls.visible(rls.EVERY):
            assert crashed.take(space, "key_dead") and crashed.take(space, "key_dead")
            assert crashed.take(space, "key_dead") is None
        busy = client.post("/v1/context/execute", json={"code": "1"}, headers=h(ws, **{"X-Session-ID": sid}))
        assert busy.status_code == 429 and busy.json()["detail"]["code"] == "sandbox_tenant_busy", busy.text
        assert busy.headers["Retry-After"] == "1"
        # Each lasts its TTL from when it was taken; then the TTL passes (moved, not waited for).
        with rls.visible(rls.EVERY), services.db.transaction() as conn:
            lasts = conn.execute(
                "SELECT DISTINCT extract(epoch FROM expires_at - taken_at) AS s FROM context_sandbox_leases "
                "WHERE workspace_id = %s AND key_id = 'key_dead'",
                (space,),
            ).fetchall()
            assert [float(row["s"]) for row in lasts] == [3.0]
            conn.execute(
                "UPDATE context_sandbox_leases SET expires_at = now() - interval '1 ms' "
                "WHERE workspace_id = %s AND key_id = 'key_dead'",
                (space,),
            )
        freed = client.post("/v1/context/execute", json={"code": "1"}, headers=h(ws, **{"X-Session-ID": sid}))
        assert freed.status_code == 200 and freed.json()["result"] == "1", freed.text
        assert live_leases(services, space) == 0  # the call dropped the slot it took over


def test_leases_are_behind_the_tenant_wall(services):
    mine, theirs = (user_space(f"t_{uuid.uuid4().hex[:10]}") for _ in range(2))
    leases = TenantLeases(lambda: services.db, cap=1, ttl_s=60)
    with rls.visible((f"ws_{uuid.uuid4().hex[:8]}", mine)):
        lease = leases.take(mine, "key_a")
        assert lease is not None
    # Another tenant's wall sees none of it, and its own cap is untouched.
    with rls.visible((f"ws_{uuid.uuid4().hex[:8]}", theirs)), services.db.connection() as conn:
        assert repo.live(conn, mine) == 0
    with rls.visible((theirs,)):
        other = leases.take(theirs, "key_b")
        assert other is not None
        leases.release(other)
    with rls.visible((mine,)):
        leases.release(lease)
    assert live_leases(services, mine) == 0
