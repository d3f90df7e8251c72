"""Admission for sandbox work: a global cap (slots), a cap per tenant and per API key, a bounded queue.

    >>> gate = SandboxGate.from_settings(settings)                               # doctest: +SKIP
    >>> answer = await gate.run("acme", "key_1", svc.sandboxes.execute, caller, body)  # doctest: +SKIP

A request that finds no room waits as an awaitable on the event loop (never a blocked thread), at most
``wait_s``, in a queue of at most ``waiters`` (``tenant_waiters`` of them one tenant's); then it is refused:
429 ``sandbox_key_busy`` / ``sandbox_tenant_busy`` when the caller's own cap is what is full (fewer calls at
once will do), 503 ``sandbox_slots_full`` when every slot is in use. Admitted work runs in a pool of ``slots``
threads of its own, so FastAPI's shared pool (every sync route, /health included) never waits on a sandbox.

The caps hold per process. In AWS each API instance serves one request at a time, so there only the
database lease (``shared/domain/context_env/leases.py``) caps a tenant across instances.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import math
import threading
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shared.core.errors import MemoryLayerError, Overloaded, RateLimited
from shared.core.settings import Settings
from shared.domain.context_env.leases import Lease, TenantLeases

T = TypeVar("T")
LEASE_POLL_S = 0.25  # how often a call waiting for its tenant's lease asks again (one statement each)


@dataclass(frozen=True)
class GateLimits:
    """The caps; their defaults and reasons are the settings' (``MEMORYLAYER_CONTEXT_*SLOT*``)."""

    slots: int
    per_tenant: int
    per_key: int
    waiters: int
    tenant_waiters: int
    wait_s: float

    @classmethod
    def from_settings(cls, settings: Settings) -> GateLimits:
        return cls(
            slots=settings.context_slots,
            per_tenant=settings.context_tenant_slots,
            per_key=settings.context_key_slots,
            waiters=settings.context_slot_waiters,
            tenant_waiters=settings.context_tenant_waiters,
            wait_s=settings.context_slot_wait_s,
        )


@dataclass(eq=False)
class _Waiter:
    tenant: str
    key: tuple[str, str]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    granted: bool = False


@dataclass
class _Usage:
    """Who holds a slot and who waits; every change happens under the gate's lock."""

    running: int = 0
    tenants: Counter[str] = field(default_factory=Counter)
    keys: Counter[tuple[str, str]] = field(default_factory=Counter)
    queue: deque[_Waiter] = field(default_factory=deque)
    waiting: Counter[str] = field(default_factory=Counter)


class SandboxGate:
    def __init__(self, limits: GateLimits, leases: TenantLeases | None = None) -> None:
        self.limits = limits
        self.leases = leases  # the tenant cap across instances (AWS); None: this process's caps only
        self._lock = threading.Lock()  # never held across an await: admission and release are a few steps
        self._usage = _Usage()
        self._pool: ThreadPoolExecutor | None = None

    @classmethod
    def from_settings(cls, settings: Settings, leases: TenantLeases | None = None) -> SandboxGate:
        return cls(GateLimits.from_settings(settings), leases)

    # ------------------------------------------------------------------ admission

    async def run(
        self, tenant: str, key_id: str, fn: Callable[..., T], *args: object, space: str | None = None
    ) -> T:
        """Wait for a slot (bounded), then run ``fn(*args)`` in the gate's own threads, in this context (the
        request's row-level wall travels in a context variable). With leases, the tenant's lease in ``space``
        (its user space) is taken first and dropped after."""
        key = (tenant, key_id)
        deadline = (
            asyncio.get_running_loop().time() + self.limits.wait_s
        )  # one wait for the slot and the lease
        await self._acquire(tenant, key, deadline)
        # The slot is held until the work itself ends: a request cancelled meanwhile (its client gone) cannot
        # stop a thread, so it must not free the slot that thread is using.
        work = asyncio.ensure_future(self._admitted(fn, args, space or tenant, key_id, deadline))
        work.add_done_callback(lambda done: self._finished(done, tenant, key))
        return await asyncio.shield(work)

    async def _admitted(
        self, fn: Callable[..., T], args: tuple[object, ...], space: str, key_id: str, deadline: float
    ) -> T:
        context = contextvars.copy_context()  # the request's, copied into this task: its row-level wall
        lease = await self._lease(context, space, key_id, deadline) if self.leases else None
        try:
            return await self._in_threads(context, fn, *args)
        finally:
            if lease is not None and self.leases is not None:
                await self._in_threads(context, self.leases.release, lease)

    def _finished(self, work: asyncio.Future[Any], tenant: str, key: tuple[str, str]) -> None:
        self._release(tenant, key)
        if not work.cancelled():
            work.exception()  # read here too: nobody may be awaiting a cancelled request's work

    async def _in_threads(self, context: contextvars.Context, fn: Callable[..., T], *args: object) -> T:
        call = functools.partial(context.run, fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self._threads(), call)

    async def _lease(self, context: contextvars.Context, space: str, key_id: str, deadline: float) -> Lease:
        """The tenant's lease, polled for until the call's deadline (another instance's call may end meanwhile)."""
        assert self.leases is not None
        loop = asyncio.get_running_loop()
        while True:
            lease = await self._in_threads(context, self.leases.take, space, key_id)
            if lease is not None:
                return lease
            left = deadline - loop.time()
            if left <= 0:
                raise RateLimited(
                    f"this tenant already has {self.leases.cap} sandbox calls running; send fewer at once",
                    code="sandbox_tenant_busy",
                    retry_after_s=max(1, math.ceil(self.limits.wait_s)),
                    limit=self.leases.cap,
                )
            await asyncio.sleep(min(LEASE_POLL_S, left))

    def usage(self) -> dict[str, int]:
        """Slots in use and calls waiting (for logs and tests)."""
        with self._lock:
            return {"running": self._usage.running, "waiting": len(self._usage.queue)}

    def _threads(self) -> ThreadPoolExecutor:
        # Made on first use: a Lambda instance that never runs a sandbox starts no pool. The gate never admits
        # more than ``slots`` calls, so this pool never queues.
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.limits.slots, thread_name_prefix="sandbox")
            return self._pool

    async def _acquire(self, tenant: str, key: tuple[str, str], deadline: float) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._fits(tenant, key):
                self._take(tenant, key)
                return
            u = self._usage
            if len(u.queue) >= self.limits.waiters or u.waiting[tenant] >= self.limits.tenant_waiters:
                # The queue is bounded: a flood is refused at once instead of piling up.
                raise self._refusal(tenant, key, queue_full=True)
            waiter = _Waiter(tenant, key, loop, loop.create_future())
            u.queue.append(waiter)
            u.waiting[tenant] += 1
        try:
            await asyncio.wait({waiter.future}, timeout=max(0.0, deadline - loop.time()))
        except BaseException:
            with self._lock:
                if waiter.granted:  # handed a slot just as the request was cancelled: give it back
                    self._give_back(tenant, key)
                else:
                    self._forget(waiter)
            raise
        with self._lock:
            if waiter.granted:
                return
            self._forget(waiter)
            refusal = self._refusal(tenant, key, queue_full=False)
        raise refusal

    def _release(self, tenant: str, key: tuple[str, str]) -> None:
        with self._lock:
            self._give_back(tenant, key)

    # ------------------------------------------------------------------ under the lock

    def _fits(self, tenant: str, key: tuple[str, str]) -> bool:
        u, lim = self._usage, self.limits
        return u.running < lim.slots and u.tenants[tenant] < lim.per_tenant and u.keys[key] < lim.per_key

    def _take(self, tenant: str, key: tuple[str, str]) -> None:
        u = self._usage
        u.running += 1
        u.tenants[tenant] += 1
        u.keys[key] += 1

    def _give_back(self, tenant: str, key: tuple[str, str]) -> None:
        u = self._usage
        u.running -= 1
        u.tenants[tenant] -= 1
        u.keys[key] -= 1
        if not u.tenants[tenant]:
            del u.tenants[tenant]
        if not u.keys[key]:
            del u.keys[key]
        self._grant()

    def _forget(self, waiter: _Waiter) -> None:
        u = self._usage
        u.queue.remove(waiter)
        u.waiting[waiter.tenant] -= 1
        if not u.waiting[waiter.tenant]:
            del u.waiting[waiter.tenant]

    def _grant(self) -> None:
        """Hand free slots to waiters that fit: the tenant holding the fewest slots first, then the oldest, so
        a tenant with a long queue cannot take every slot that frees up."""
        while self._usage.running < self.limits.slots:
            fitting = [w for w in self._usage.queue if self._fits(w.tenant, w.key)]
            if not fitting:
                return
            chosen = min(fitting, key=lambda w: self._usage.tenants[w.tenant])  # min keeps the oldest of ties
            self._forget(chosen)
            self._take(chosen.tenant, chosen.key)
            chosen.granted = True
            chosen.loop.call_soon_threadsafe(_wake, chosen.future)

    def _refusal(self, tenant: str, key: tuple[str, str], *, queue_full: bool) -> MemoryLayerError:
        u, lim = self._usage, self.limits
        # Retry after about as long as this call was willing to wait.
        retry = max(1, math.ceil(lim.wait_s))
        if u.tenants[tenant] >= lim.per_tenant or (queue_full and u.waiting[tenant] >= lim.tenant_waiters):
            return RateLimited(
                f"this tenant already has {u.tenants[tenant]} sandbox calls running and "
                f"{u.waiting[tenant]} waiting; send fewer at once",
                code="sandbox_tenant_busy",
                retry_after_s=retry,
                limit=lim.per_tenant,
            )
        if u.keys[key] >= lim.per_key:
            return RateLimited(
                f"this API key already has {u.keys[key]} sandbox calls running; send fewer at once",
                code="sandbox_key_busy",
                retry_after_s=retry,
                limit=lim.per_key,
            )
        return Overloaded(
            "every sandbox slot is in use; retry shortly", code="sandbox_slots_full", retry_after_s=retry
        )


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
