"""The sandbox gate's bookkeeping, on one event loop with real threads (the HTTP behaviour:
tests/integration/test_sandbox_gate.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from shared.core.errors import Overloaded, RateLimited
from shared.domain.context_env.gate import GateLimits, SandboxGate


class Hold:
    """Work that runs in the gate's threads until the test lets it (or all) go."""

    def __init__(self) -> None:
        self.events: dict[str, threading.Event] = {}
        self.everything = threading.Event()
        self.ran: list[str] = []

    def __call__(self, name: str) -> str:
        self.ran.append(name)
        mine = self.events.setdefault(name, threading.Event())
        while not (mine.is_set() or self.everything.is_set()):
            mine.wait(0.01)
        return name

    def release(self, name: str | None = None) -> None:
        if name is None:
            self.everything.set()
        else:
            self.events.setdefault(name, threading.Event()).set()


async def until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "condition never held"
        await asyncio.sleep(0.01)


async def test_a_waiter_gets_the_slot_that_frees_and_refusals_are_typed():
    gate = SandboxGate(GateLimits(slots=1, per_tenant=1, per_key=1, waiters=1, tenant_waiters=1, wait_s=5))
    hold = Hold()
    first = asyncio.create_task(gate.run("a", "k", hold, "first"))
    await until(lambda: hold.ran == ["first"])
    second = asyncio.create_task(gate.run("b", "k", hold, "second"))
    await until(lambda: gate.usage() == {"running": 1, "waiting": 1})
    # The queue holds one: the next call is refused at once, as slots_full (its own tenant holds nothing).
    with pytest.raises(Overloaded) as full:
        await gate.run("c", "k", hold, "third")
    assert full.value.code == "sandbox_slots_full" and full.value.retry_after_s == 5
    hold.release()
    assert await first == "first" and await second == "second"
    assert gate.usage() == {"running": 0, "waiting": 0}


async def test_the_least_served_tenant_is_granted_first():
    gate = SandboxGate(GateLimits(slots=2, per_tenant=2, per_key=2, waiters=8, tenant_waiters=8, wait_s=5))
    hold = Hold()
    running = [asyncio.create_task(gate.run("a", "k", hold, f"a{i}")) for i in range(2)]
    await until(lambda: len(hold.ran) == 2)
    waiting = [asyncio.create_task(gate.run("a", "k", hold, "a-late"))]
    await until(lambda: gate.usage()["waiting"] == 1)
    waiting.append(asyncio.create_task(gate.run("b", "k", hold, "b")))
    await until(lambda: gate.usage()["waiting"] == 2)
    # One of A's slots frees: B (holding none) gets it although A's waiter is older.
    hold.release("a0")
    await until(lambda: len(hold.ran) == 3)
    assert hold.ran[2] == "b" and gate.usage() == {"running": 2, "waiting": 1}
    hold.release()
    await asyncio.gather(*running, *waiting)
    assert hold.ran[3] == "a-late"


async def test_a_bounded_wait_ends_in_the_callers_own_refusal():
    gate = SandboxGate(GateLimits(slots=4, per_tenant=2, per_key=1, waiters=8, tenant_waiters=8, wait_s=0.2))
    hold = Hold()
    task = asyncio.create_task(gate.run("a", "k1", hold, "x"))
    await until(lambda: hold.ran == ["x"])
    with pytest.raises(RateLimited) as key_busy:
        await gate.run("a", "k1", hold, "y")
    assert key_busy.value.code == "sandbox_key_busy" and key_busy.value.retry_after_s == 1
    second = asyncio.create_task(gate.run("a", "k2", hold, "z"))
    await until(lambda: len(hold.ran) == 2)
    with pytest.raises(RateLimited) as tenant_busy:
        await gate.run("a", "k3", hold, "w")
    assert tenant_busy.value.code == "sandbox_tenant_busy"
    hold.release()
    await asyncio.gather(task, second)
    assert gate.usage() == {"running": 0, "waiting": 0} and hold.ran == ["x", "z"]


async def test_a_cancelled_waiter_leaves_no_trace():
    gate = SandboxGate(GateLimits(slots=1, per_tenant=1, per_key=1, waiters=4, tenant_waiters=4, wait_s=5))
    hold = Hold()
    task = asyncio.create_task(gate.run("a", "k", hold, "x"))
    await until(lambda: hold.ran == ["x"])
    waiter = asyncio.create_task(gate.run("a", "k", hold, "never"))
    await until(lambda: gate.usage()["waiting"] == 1)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert gate.usage() == {"running": 1, "waiting": 0}
    hold.release()
    await task
    assert gate.usage() == {"running": 0, "waiting": 0} and hold.ran == ["x"]


async def test_a_cancelled_request_keeps_its_slot_until_its_work_ends():
    gate = SandboxGate(GateLimits(slots=1, per_tenant=1, per_key=1, waiters=4, tenant_waiters=4, wait_s=5))
    hold = Hold()
    request = asyncio.create_task(gate.run("a", "k", hold, "x"))
    await until(lambda: hold.ran == ["x"])
    request.cancel()  # the client went away; the thread cannot be stopped
    with pytest.raises(asyncio.CancelledError):
        await request
    assert gate.usage() == {"running": 1, "waiting": 0}
    hold.release("x")
    await until(lambda: gate.usage() == {"running": 0, "waiting": 0})
