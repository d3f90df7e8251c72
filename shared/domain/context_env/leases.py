"""Per-tenant sandbox leases in Postgres: the tenant cap across API instances (``context_executor=lambda``).

    >>> leases = TenantLeases(lambda: db, cap=3, ttl_s=60)                  # doctest: +SKIP
    >>> lease = leases.take("_global_user:acme", "key_1")  # None: the slots are taken  # doctest: +SKIP
    >>> leases.release(lease)  # doctest: +SKIP

In AWS each API instance serves one request at a time, so the in-process gate cannot see a tenant's other
calls; these rows can. Calls run in the request's context, behind its row-level wall: ``space`` is the
tenant's user space, which every key of the tenant (and only those) may see.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.db import rls
from shared.db import sandbox_leases as repo

if TYPE_CHECKING:
    from shared.db.pool import Database

log = logging.getLogger("memorylayer.sandbox")


@dataclass(frozen=True)
class Lease:
    space: str
    slot: int
    lease_id: str


class TenantLeases:
    def __init__(self, db: Callable[[], Database], *, cap: int, ttl_s: float) -> None:
        self._db = db
        self.cap = cap
        self.ttl_s = ttl_s

    def take(self, space: str, key_id: str) -> Lease | None:
        """A lease on one of the tenant's ``cap`` slots, or None when every one is live."""
        lease_id = f"lease_{uuid.uuid4().hex}"
        for _ in range(self.cap):  # a lost race for a slot moves on to the next free one
            # The tenant's own rows, whatever the key may do in its user space (the lease counts calls).
            with rls.visible((space,)), self._db().transaction() as conn:
                slot = repo.take(conn, space, key_id, lease_id, cap=self.cap, ttl_s=self.ttl_s)
                if slot is not None:
                    return Lease(space, slot, lease_id)
                if repo.live(conn, space) >= self.cap:
                    return None
        return None

    def release(self, lease: Lease) -> None:
        try:
            with rls.visible((lease.space,)), self._db().transaction() as conn:
                repo.release(conn, lease.space, lease.slot, lease.lease_id)
        except Exception:  # the answer is already made; the lease expires on its own
            log.warning(
                "could not release sandbox lease %s; it expires by itself", lease.lease_id, exc_info=True
            )
