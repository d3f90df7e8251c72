"""Drive OUR /v1/tokens with the OFFICIAL memorylayer-client 0.2.1, unchanged (Python >= 3.12), sync and async:

    .venv-compat312/bin/python tests/client/compat_tokens.py http://127.0.0.1:PORT mlk_… ws_abc

Prints one JSON object of what the SDK parsed (its own pydantic models validate our responses) and which of its
errors our refusals raised.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from memorylayer import MemoryLayerClient, SyncMemoryLayerClient
from memorylayer.exceptions import MemoryLayerError

BASE_URL, KEY, WORKSPACE = sys.argv[1], sys.argv[2], sys.argv[3]


def error_name(call: Any) -> str | None:
    """The SDK's error class and status (its sync client raises a plain MemoryLayerError for a 403)."""
    try:
        call()
    except MemoryLayerError as exc:
        return f"{type(exc).__name__} {getattr(exc, 'status_code', None)}"
    return None


def sync_run() -> dict[str, Any]:
    with SyncMemoryLayerClient(base_url=BASE_URL, api_key=KEY, workspace_id=WORKSPACE) as owner:
        made = owner.create_token("official", scopes=["read"], expires_in_days=2)
        listed = owner.list_tokens()
        got = owner.get_token(made.id)
        with SyncMemoryLayerClient(base_url=BASE_URL, api_key=made.token, workspace_id=WORKSPACE) as token:
            reads = len(token.recall("anything").memories) >= 0
            write_refused = error_name(lambda: token.remember("a read token cannot write"))
            owner.revoke_token(made.id)
            after_revoke = error_name(lambda: token.recall("anything"))
        revoked = [t.revoked for t in owner.list_tokens(include_revoked=True) if t.id == made.id]
        live = [t.id for t in owner.list_tokens()]
        owner.delete_token(made.id)
        gone = error_name(lambda: owner.get_token(made.id))
        wider = error_name(lambda: owner.create_token("wider", workspace_patterns=["someone-elses"]))
    return {
        "token_prefix": made.token[:4],
        "workspace_patterns": made.workspace_patterns,
        "scopes": made.scopes,
        "has_expiry": made.expires_at is not None,
        "listed": [t.id == made.id for t in listed],
        "got_name": got.name,
        "reads": reads,
        "write_refused": write_refused,
        "after_revoke": after_revoke,
        "revoked": revoked,
        "live_contains": made.id in live,
        "gone": gone,
        "wider": wider,
    }


async def async_run() -> dict[str, Any]:
    async with MemoryLayerClient(base_url=BASE_URL, api_key=KEY, workspace_id=WORKSPACE) as owner:
        made = await owner.create_token("official-async")
        listed = [t.id for t in await owner.list_tokens(include_revoked=True)]
        got = await owner.get_token(made.id)
        await owner.revoke_token(made.id)
        await owner.delete_token(made.id)
        remaining = [t.id for t in await owner.list_tokens(include_revoked=True)]
    return {"listed": made.id in listed, "scopes": got.scopes, "remaining": made.id in remaining}


print(json.dumps({"sync": sync_run(), "async": asyncio.run(async_run())}))
