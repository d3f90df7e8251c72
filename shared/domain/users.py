"""A workspace's users (the ``user_id`` its rows carry): who they are, with counts, and erasing one for good.

>>> UserService(db).erase("_default", None, "u_1", dry_run=True)            # doctest: +SKIP
{'user_id': 'u_1', 'dry_run': True, 'workspaces': 2, 'counts': {'memories': 3, ...}}
"""

from __future__ import annotations

from typing import Any

from shared.db import users as repo
from shared.db.pool import Database


class UserService:
    def __init__(self, db: Database) -> None:
        self.db = db

    def erase(self, tenant_id: str, only: list[str] | None, user_id: str, *, dry_run: bool) -> dict[str, Any]:
        """Hard-delete everything of ``user_id`` in the tenant's workspaces (``only``: those a scoped key names),
        in one transaction; ``dry_run`` counts the same rows and deletes nothing."""
        with self.db.transaction() as conn:
            workspaces = repo.tenant_workspaces(conn, tenant_id, only)
            counts = repo.erase_counts(conn, workspaces, user_id)
            if not dry_run:
                repo.erase(conn, workspaces, user_id)
        return {"user_id": user_id, "dry_run": dry_run, "workspaces": len(workspaces), "counts": counts}

    def list(self, workspace_id: str, *, limit: int, after: str | None) -> dict[str, Any]:
        with self.db.connection() as conn:
            users = repo.listing(conn, workspace_id, limit=limit, after=after)
        return {
            "workspace_id": workspace_id,
            "users": users,
            "next_after": users[-1]["user_id"] if len(users) == limit else None,
        }
