"""Our SDK's token methods (sync and async) against the live secured server: mint, list, get, revoke, delete,
and the token as the client's own key."""

from __future__ import annotations

import asyncio

import pytest
from memorylayer import (
    AuthenticationError,
    AuthorizationError,
    MemoryLayerClient,
    NotFoundError,
    SyncMemoryLayerClient,
    TokenCreateResult,
    TokenInfo,
)

from tests.secured import ADMIN


def _key(url: str, ws: str, **fields) -> str:
    with SyncMemoryLayerClient(url, api_key=ADMIN) as admin:
        key = admin.create_api_key([ws], **fields).key
    assert key
    return key


def test_sync_token_lifecycle(secured: str, ws: str) -> None:
    with SyncMemoryLayerClient(secured, api_key=_key(secured, ws), workspace_id=ws) as owner:
        made = owner.create_token("sdk", scopes=["read"], expires_in_days=3)
        assert isinstance(made, TokenCreateResult) and made.token and made.workspace_patterns == [ws]
        assert made.access == "read" and made.expires_at is not None
        listed = owner.list_tokens()
        assert [t.id for t in listed] == [made.id] and all(type(t) is TokenInfo for t in listed)
        assert owner.get_token(made.id).scopes == ["read"]
        with SyncMemoryLayerClient(secured, api_key=made.token, workspace_id=ws) as token:
            assert token.list_memories().memories == []
            with pytest.raises(AuthorizationError):
                token.remember("a read token cannot write")
            owner.revoke_token(made.id)
            with pytest.raises(AuthenticationError):
                token.list_memories()
        assert owner.list_tokens() == []
        assert [t.revoked for t in owner.list_tokens(include_revoked=True)] == [True]
        owner.delete_token(made.id)
        with pytest.raises(NotFoundError):
            owner.get_token(made.id)


def test_async_token_lifecycle(secured: str, ws: str) -> None:
    key = _key(secured, ws, access="read")

    async def run() -> None:
        async with MemoryLayerClient(secured, api_key=key, workspace_id=ws) as owner:
            with pytest.raises(AuthorizationError):
                await owner.create_token("wider", scopes=["write"])
            made = await owner.create_token("ok")
            assert (made.access, made.scopes) == ("read", ["*"])
            assert (await owner.get_token(made.id)).name == "ok"
            await owner.revoke_token(made.id)
            assert [t.id for t in await owner.list_tokens(include_revoked=True)] == [made.id]
            await owner.delete_token(made.id)
            assert await owner.list_tokens(include_revoked=True) == []

    asyncio.run(run())
