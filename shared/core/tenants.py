"""Tenants: who owns API keys and workspaces, and each tenant's own shared spaces.

A user's cross-workspace memories (``scope: "user"``) and the ``_global`` space are shared among the
workspaces of one tenant only. Each tenant's space is its own workspace id, so every per-workspace rule
(dedup, ``logical_key``, ``Idempotency-Key`` records) holds per tenant and nothing can be probed across:

    >>> user_space("_default"), user_space("acme")
    ('_global_user', '_global_user:acme')
    >>> global_space("acme")
    '_global:acme'
    >>> space_owner("_global_user:acme"), space_owner("_global"), space_owner("ws_a")
    ('acme', '_default', None)
"""

from __future__ import annotations

import re

from shared.core.errors import InvalidInput
from shared.core.settings import DEFAULT_WORKSPACE, GLOBAL_USER_WORKSPACE, GLOBAL_WORKSPACE

DEFAULT_TENANT = "_default"
# No ":" in a tenant id: it separates the tenant from the space's base name.
TENANT_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$")
_SPACES = (GLOBAL_USER_WORKSPACE, GLOBAL_WORKSPACE)


def valid_tenant(tenant_id: str) -> str:
    if not TENANT_ID.match(tenant_id):
        raise InvalidInput(
            "tenant id must be 1-64 characters of letters, digits, _ and -", code="invalid_tenant_id"
        )
    return tenant_id


def _space(base: str, tenant_id: str) -> str:
    # The default tenant keeps the reference's names, so single-tenant installs see no change.
    return base if tenant_id == DEFAULT_TENANT else f"{base}:{tenant_id}"


def user_space(tenant_id: str) -> str:
    return _space(GLOBAL_USER_WORKSPACE, tenant_id)


def global_space(tenant_id: str) -> str:
    return _space(GLOBAL_WORKSPACE, tenant_id)


def space_owner(workspace_id: str) -> str | None:
    """The tenant a reserved workspace belongs to by its name; None for an ordinary workspace."""
    if workspace_id in (DEFAULT_WORKSPACE, *_SPACES):
        return DEFAULT_TENANT
    base, sep, tenant_id = workspace_id.partition(":")
    return tenant_id if sep and base in _SPACES else None


def is_reserved(workspace_id: str) -> bool:
    return space_owner(workspace_id) is not None
