"""Secrets from Secrets Manager (moto's server): the admin key and the cursor secret are read on first use, not
when the app is built, cached for ``secret_cache_ttl_s``, and a rotated value takes effect after it; cursors
signed just before a rotation (AWSPREVIOUS) still verify, forged ones never."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from shared.api.app import create_app
from shared.app.services import Services
from shared.domain.sessions import cursor as cursor_codec
from shared.providers import secrets
from tests.aws_secrets import SecretsServer, secrets_manager

TTL_S = 1


@pytest.fixture()
def sm(monkeypatch) -> Iterator[SecretsServer]:
    with secrets_manager() as server:
        for name, value in server.env.items():
            monkeypatch.setenv(name, value)
        secrets.clear_caches()  # Powertools keeps its client and values per process
        yield server
        secrets.clear_caches()


def test_admin_key_is_read_on_the_first_admin_request_cached_and_rotated(sm, settings, services):
    arn = sm.create("memorylayer-admin", "admin-v1")
    secure = settings.model_copy(
        update={
            "auth_mode": "api_key",
            "admin_key_secret_arn": arn,
            "context_cursor_secret": SecretStr("cursor-secret-for-tests"),
            "secret_cache_ttl_s": TTL_S,
        }
    )
    app = create_app(secure, services=services)
    assert sm.reads(arn) == 0  # building the app (a Lambda init, a SnapStart snapshot) reads nothing
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200 and sm.reads(arn) == 0

        def admin(key: str) -> int:
            return client.get("/v1/admin/api-keys", headers={"Authorization": f"Bearer {key}"}).status_code

        assert admin("admin-v1") == 200 and sm.reads(arn) == 1
        assert [admin("admin-v1") for _ in range(3)] == [200] * 3
        assert sm.reads(arn) == 1  # cached

        sm.rotate(arn, "admin-v2")
        time.sleep(TTL_S + 0.2)
        assert admin("admin-v2") == 200
        assert admin("admin-v1") == 401
        assert sm.reads(arn) == 2


def test_cursor_secret_from_secrets_manager_survives_a_rotation(sm, settings, services, ws):
    arn = sm.create("memorylayer-cursor", "cursor-v1")
    cfg = settings.model_copy(update={"context_cursor_secret_arn": arn, "secret_cache_ttl_s": TTL_S})
    # Services of their own (sharing the pool): the context service signs with its settings' secret.
    app = create_app(cfg, services=Services.build(cfg, db=services.db, embedder=services.embedder))
    assert sm.calls == []
    h = {"X-Workspace-ID": ws}
    with TestClient(app) as client:
        sid = client.post("/v1/sessions", json={}, headers=h).json()["session"]["id"]

        def pack() -> str:
            return client.post(f"/v1/sessions/{sid}/context-pack", json={}, headers=h).json()["cursor"]

        def delta(token: str):
            return client.post(f"/v1/sessions/{sid}/context-delta", json={"cursor": token}, headers=h)

        before = pack()
        assert cursor_codec.decode(b"cursor-v1", before, ws, sid) >= 0 and sm.reads(arn) == 1

        sm.rotate(arn, "cursor-v2")
        time.sleep(TTL_S + 0.2)
        after = pack()
        assert cursor_codec.decode(b"cursor-v2", after, ws, sid) >= 0
        assert delta(after).status_code == 200
        assert delta(before).status_code == 200  # signed before the rotation: AWSPREVIOUS verifies it
        assert sm.reads(arn, "AWSPREVIOUS") == 1

        forged = [
            cursor_codec.encode(b"memorylayer-context-cursor-v1", ws, sid, 0),  # the old public default
            cursor_codec.encode(b"a guess", ws, sid, 0),
        ]
        for token in forged * 3:
            response = delta(token)
            assert response.status_code == 400 and response.json()["detail"]["code"] == "invalid_cursor"
        assert sm.reads(arn, "AWSPREVIOUS") == 1  # bad cursors do not each cost a Secrets Manager call


def test_before_the_first_rotation_there_is_no_previous_secret_and_asking_is_cached(sm, settings):
    arn = sm.create("memorylayer-cursor-new", "only-version")
    cfg = settings.model_copy(update={"context_cursor_secret_arn": arn, "secret_cache_ttl_s": 60})
    assert [secrets.previous_cursor_secret(cfg) for _ in range(3)] == [None] * 3
    assert sm.reads(arn, "AWSPREVIOUS") == 1
    assert secrets.cursor_secret(cfg) == b"only-version"
