"""Closed by default. `none` must be asked for, and is refused where others can reach it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from shared.api.app import create_app
from shared.core.settings import Settings, is_loopback
from shared.domain.auth import Principal


@pytest.fixture(autouse=True)
def _no_auth_env(monkeypatch):
    for name in ("MEMORYLAYER_AUTH_MODE", "MEMORYLAYER_HOST", "AWS_LAMBDA_FUNCTION_NAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET", raising=False)
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN", raising=False)


def test_auth_mode_defaults_to_api_key():
    assert Settings().auth_mode == "api_key"


def test_auth_none_is_refused_inside_lambda(monkeypatch):
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "memorylayer-memory")
    with pytest.raises(ValidationError, match="refused inside Lambda"):
        Settings(auth_mode="none")
    monkeypatch.setenv("MEMORYLAYER_AUTH_MODE", "none")
    with pytest.raises(ValidationError, match="refused inside Lambda"):
        Settings()


@pytest.mark.parametrize("host", ["0.0.0.0", "10.0.0.5", "::", "example.com"])
def test_auth_none_is_refused_on_a_non_loopback_address(host):
    with pytest.raises(ValidationError, match="refused on"):
        Settings(auth_mode="none", host=host)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_auth_none_is_allowed_on_loopback(host):
    assert Settings(auth_mode="none", host=host).auth_mode == "none"
    assert is_loopback(host)


def test_the_api_refuses_to_start_on_default_api_key_without_a_cursor_secret():
    # The worker functions run on the default without one; the API, which signs cursors, may not.
    assert Settings().auth_mode == "api_key"
    with pytest.raises(ValueError, match="CURSOR_SECRET"):
        create_app(Settings())


def test_auth_none_principal_is_not_an_admin():
    assert Principal.open().workspaces is None
    assert not Principal.open().admin
