"""Where the secrets come from without AWS: api_key mode refuses to start without a cursor secret, auth-less
runs draw a random one per process, and `make dev` keeps one under its data dir."""

from __future__ import annotations

import stat

import pytest
from pydantic import SecretStr, ValidationError

from shared.core.settings import Settings
from shared.local.dev import _persistent_cursor_secret
from shared.providers import secrets


def test_api_key_mode_without_a_cursor_secret_is_a_startup_error(monkeypatch):
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET", raising=False)
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN", raising=False)
    with pytest.raises(ValidationError, match="MEMORYLAYER_CONTEXT_CURSOR_SECRET"):
        Settings(auth_mode="api_key")
    assert Settings(auth_mode="api_key", context_cursor_secret="s").auth_mode == "api_key"
    assert Settings(auth_mode="api_key", context_cursor_secret_arn="arn:aws:secretsmanager:x").auth_mode


def test_without_auth_and_without_a_secret_each_process_draws_one(monkeypatch):
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET", raising=False)
    first, second = Settings(auth_mode="none"), Settings(auth_mode="none")
    assert first.context_cursor_secret is None
    drawn = secrets.cursor_secret(first)
    assert len(drawn) == 32 and drawn != b"memorylayer-context-cursor-v1"
    assert secrets.cursor_secret(second) == drawn  # one per process, not per Settings object
    assert secrets.previous_cursor_secret(first) is None
    # A model_copy can skip the validator; the secret is still never a guessable one.
    with pytest.raises(RuntimeError, match="cursor secret"):
        secrets.cursor_secret(first.model_copy(update={"auth_mode": "api_key"}))


def test_local_settings_are_read_as_they_are():
    s = Settings(admin_key="a", context_cursor_secret="c")
    assert secrets.admin_key(s) == "a" and secrets.cursor_secret(s) == b"c"
    assert secrets.admin_key(Settings()) is None


def test_make_dev_keeps_its_cursor_secret_across_restarts(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET", raising=False)
    first = _persistent_cursor_secret(Settings(data_dir=tmp_path))
    again = _persistent_cursor_secret(Settings(data_dir=tmp_path))
    assert first.context_cursor_secret is not None and again.context_cursor_secret is not None
    assert first.context_cursor_secret.get_secret_value() == again.context_cursor_secret.get_secret_value()
    assert stat.S_IMODE((tmp_path / "context-cursor-secret").stat().st_mode) == 0o600
    configured = Settings(data_dir=tmp_path / "other", context_cursor_secret=SecretStr("mine"))
    assert _persistent_cursor_secret(configured) is configured
