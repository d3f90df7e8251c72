"""Admission to the sandboxes over real HTTP (shared/domain/context_env/gate.py): a flood of sandbox calls leaves the rest
of the API answering, one tenant cannot take every slot, nor one key its tenant's, and a refusal is a prompt
429/503 with a code and Retry-After, never an unbounded queue.

Every sandbox call here is a real execution (a sleep in the confined executor) that records when it ran, from
inside the sandbox: the caps are checked on those intervals, not on the gate's own counters.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from shared.api.app import create_app
from shared.local.server import serve_in_thread
from tests.helpers.http import create, h
from tests.secured import admin_client


def slow(seconds: float) -> str:
    """Code that sleeps in the sandbox and records when it ran (``started``, ``ended``: the sandbox's clock)."""
    return f"import time\nstarted = time.time()\ntime.sleep({seconds})\nended = time.time()"


SLEEP_S = 4.0
# Long enough that everything the test checks before a slow call ends happens inside it, even on a loaded machine.
SLOW = slow(SLEEP_S)
REFUSALS = {429: {"sandbox_tenant_busy", "sandbox_key_busy"}, 503: {"sandbox_slots_full"}}


def gate(**caps: float) -> dict[str, float]:
    """Gate settings for a test: a 1 s wait (so refusals come well inside one slow call), the rest as given."""
    return {"context_slot_wait_s": 1.0, "context_slot_waiters": 32, "context_tenant_waiters": 8, **caps}


@dataclass
class Call:
    session: str
    response: httpx.Response | None = None
    answered: float = 0.0


def fire(client: httpx.Client, ws: str, calls: list[Call], code: str = SLOW) -> list[threading.Thread]:
    """Start every call at once, each on its own thread; the answer and its arrival time land in ``calls``."""

    def one(call: Call) -> None:
        call.response = client.post(
            "/v1/context/execute", json={"code": code}, headers=h(ws, **{"X-Session-ID": call.session})
        )
        call.answered = time.monotonic()

    threads = [threading.Thread(target=one, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    return threads


def join(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(90)
    assert not any(t.is_alive() for t in threads), "a sandbox call never answered"


def ok(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.response is not None and c.response.status_code == 200]


def assert_refusals(calls: list[Call], codes: set[str]) -> list[Call]:
    """Every call that did not run was refused with a known status, ``code`` and ``Retry-After``."""
    refused = [c for c in calls if c.response is None or c.response.status_code != 200]
    for call in refused:
        assert call.response is not None
        status = call.response.status_code
        assert status in REFUSALS, call.response.text
        detail = call.response.json()["detail"]
        assert detail["code"] in REFUSALS[status] and detail["code"] in codes, detail
        assert int(call.response.headers["Retry-After"]) >= 1
        assert detail["retry_after_s"] == int(call.response.headers["Retry-After"])
    return refused


def intervals(client: httpx.Client, ws: str, calls: list[Call]) -> list[tuple[float, float]]:
    """When each successful call's code ran, as the sandbox itself recorded it (/inspect: no execution)."""
    spans = []
    for call in calls:
        headers = h(ws, **{"X-Session-ID": call.session})
        got = [
            client.post(f"/v1/context/inspect?variable={name}", headers=headers).json()["preview"]
            for name in ("started", "ended")
        ]
        spans.append((float(got[0]), float(got[1])))
    return spans


def most_at_once(spans: list[tuple[float, float]]) -> int:
    """The most intervals that overlap at one instant.

    >>> most_at_once([(0, 2), (1, 3), (2.5, 4)])
    2
    """
    edges = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    now = best = 0
    for _, step in edges:
        now += step
        best = max(best, now)
    return best


def test_a_flood_of_sandbox_calls_leaves_the_api_answering(settings, services):
    """A security audit's case: 100 slow sandbox calls from one tenant at once. /health and an ordinary read answer
    while they run; the tenant runs at most its cap; the rest are refused promptly, and nothing is lost."""
    flood, seconds = 100, 5.0
    # 2 run; up to 60 wait 3 s on the event loop (more than FastAPI's 40 threads: were waiting to hold a
    # thread, /health would queue behind them); the rest are refused at once.
    caps = gate(context_slots=4, context_tenant_slots=2, context_key_slots=2, context_slot_wait_s=3.0)
    gated = settings.model_copy(update={**caps, "context_slot_waiters": 64, "context_tenant_waiters": 60})
    limits = httpx.Limits(max_connections=flood + 10, max_keepalive_connections=flood + 10)
    with (
        serve_in_thread(create_app(gated, services=services)) as url,
        httpx.Client(base_url=url, timeout=90, limits=limits) as client,
        httpx.Client(base_url=url, timeout=90) as other,
    ):
        ws = f"ws_{uuid.uuid4().hex[:12]}"
        calls = [Call(create(client, ws)["id"]) for _ in range(flood)]
        assert (
            client.post("/v1/memories", json={"content": "still readable"}, headers=h(ws)).status_code == 201
        )
        threads = fire(client, ws, calls, code=slow(seconds))
        time.sleep(1.0)  # the flood is in: every call is running, waiting or refused
        sent = time.monotonic()
        health = other.get("/health")
        health_at = time.monotonic()
        listed = other.get("/v1/memories", headers=h(ws))
        listed_at = time.monotonic()
        join(threads)

        assert health.status_code == 200 and listed.status_code == 200, listed.text
        assert [m["content"] for m in listed.json()["memories"]] == ["still readable"]
        ran = ok(calls)
        assert ran, [c.response.text for c in calls[:3] if c.response is not None]
        first_done = min(c.answered for c in ran)
        print(
            f"\n/health {1000 * (health_at - sent):.0f} ms, GET /v1/memories {1000 * (listed_at - health_at):.0f} ms "
            f"under the flood; first sandbox answer {first_done - sent:+.1f} s after /health was sent; "
            f"{len(ran)} ran, {flood - len(ran)} refused, {sum(c.answered > listed_at for c in calls)} still in flight"
        )
        # Both answered while the slow calls were still running: an order, which a loaded machine cannot fake.
        # (Without the gate, /health would wait behind the queued calls in the shared thread pool.)
        assert health_at < first_done and listed_at < first_done
        # ... and while calls were still waiting for a slot (more in flight than the two running).
        assert sum(c.answered > listed_at for c in calls) > 2
        # And well inside one slow call's own duration (times: BENCHMARKS.md, "The sandbox gate").
        assert health_at - sent < seconds and listed_at - sent < seconds
        refused = assert_refusals(calls, {"sandbox_tenant_busy"})
        # A bounded queue: the refusals came within the wait, not after the slow calls.
        assert sum(c.answered < first_done for c in refused) >= 0.8 * len(refused)
        # The tenant ran at most its cap at once, measured inside the sandboxes.
        assert 1 <= most_at_once(intervals(client, ws, ran)) <= 2
        # Nothing lost or half-done: each call that ran kept its state, each refused one left no sandbox.
        for call in calls:
            status = client.get("/v1/context/status", headers=h(ws, **{"X-Session-ID": call.session})).json()
            assert status["exists"] == (call in ran), (call.session, status)
            if call in ran:
                assert status["variables"] == ["ended", "started"]


def secured_admin(secured_server: Callable[..., str], **caps: float) -> httpx.Client:
    """The admin client of the app with API keys on and these gate caps, over real HTTP."""
    return admin_client(secured_server(**gate(**caps)))


def key_client(admin: httpx.Client, ws: str, tenant: str) -> httpx.Client:
    made = admin.post("/v1/admin/api-keys", json={"workspaces": [ws], "tenant_id": tenant})
    assert made.status_code == 201, made.text
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50)
    return httpx.Client(
        base_url=str(admin.base_url),
        headers={"Authorization": f"Bearer {made.json()['key']}"},
        timeout=90,
        limits=limits,
    )


def tenant() -> str:
    return f"t_{uuid.uuid4().hex[:10]}"


def test_another_tenant_gets_a_slot_while_one_floods(secured_server):
    # 3 slots, 2 per tenant, 2 per key: without the tenant cap, tenant A's two keys would take all three.
    tenant_a, tenant_b = tenant(), tenant()
    wa1, wa2, wb = (f"ws_{uuid.uuid4().hex[:12]}" for _ in range(3))
    with (
        secured_admin(secured_server, context_slots=3, context_tenant_slots=2, context_key_slots=2) as admin,
        key_client(admin, wa1, tenant_a) as a1,
        key_client(admin, wa2, tenant_a) as a2,
        key_client(admin, wb, tenant_b) as b,
    ):
        flood = {
            ws: [Call(create(client, ws)["id"]) for _ in range(8)] for ws, client in ((wa1, a1), (wa2, a2))
        }
        mine = [Call(create(b, wb)["id"])]
        threads = fire(a1, wa1, flood[wa1]) + fire(a2, wa2, flood[wa2])
        time.sleep(1.0)  # tenant A holds its slots
        join(fire(b, wb, mine, code="x = 1 + 1\nx"))
        join(threads)

        assert mine[0].response is not None and mine[0].response.status_code == 200, mine[0].response.text
        assert mine[0].response.json()["result"] == "2"
        a_calls = flood[wa1] + flood[wa2]
        ran = ok(a_calls)
        assert ran
        # B's call ran and answered while A's slow calls were still running.
        assert mine[0].answered < min(c.answered for c in ran)
        assert_refusals(a_calls, {"sandbox_tenant_busy"})
        spans = intervals(a1, wa1, ok(flood[wa1])) + intervals(a2, wa2, ok(flood[wa2]))
        assert most_at_once(spans) <= 2


def test_one_key_cannot_take_its_tenants_slots(secured_server):
    # 4 slots, 3 per tenant, 1 per key: the key's second and third calls are refused; its tenant's other key
    # still runs.
    one = tenant()
    ws1, ws2 = (f"ws_{uuid.uuid4().hex[:12]}" for _ in range(2))
    with (
        secured_admin(secured_server, context_slots=4, context_tenant_slots=3, context_key_slots=1) as admin,
        key_client(admin, ws1, one) as k1,
        key_client(admin, ws2, one) as k2,
    ):
        busy = [Call(create(k1, ws1)["id"]) for _ in range(3)]
        other = [Call(create(k2, ws2)["id"])]
        threads = fire(k1, ws1, busy)
        time.sleep(0.5)
        join(fire(k2, ws2, other, code="x = 1 + 1\nx"))
        join(threads)

        assert other[0].response is not None and other[0].response.status_code == 200, other[0].response.text
        ran = ok(busy)
        assert len(ran) == 1, [c.response.status_code for c in busy if c.response is not None]
        assert other[0].answered < ran[0].answered
        refused = assert_refusals(busy, {"sandbox_key_busy"})
        assert len(refused) == 2
        assert all(c.response is not None and c.response.status_code == 429 for c in refused)
