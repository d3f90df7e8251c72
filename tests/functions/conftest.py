from __future__ import annotations

import importlib

import pytest

from shared.core.settings import get_settings


@pytest.fixture()
def lambda_env(monkeypatch, app_url, owner_url):
    """The environment a deployed function gets, pointing at the test database: the app role through the
    stand-in proxy, the owner for the migrate function."""
    monkeypatch.setenv("MEMORYLAYER_DATABASE_URL", app_url)
    monkeypatch.setenv("MEMORYLAYER_DATABASE_OWNER_URL", owner_url)
    monkeypatch.setenv("MEMORYLAYER_EMBEDDING_PROVIDER", "hash")
    # Not in Lambda (no AWS_LAMBDA_FUNCTION_NAME), so the handlers may run open: the tests here are about
    # events, not keys.
    monkeypatch.setenv("MEMORYLAYER_AUTH_MODE", "none")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "MemoryLayer")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture()
def load_handler(lambda_env):
    """Import a handler module fresh, as a cold start would."""
    loaded = []

    def _load(name: str):
        module = importlib.reload(importlib.import_module(name))
        loaded.append(module)
        return module

    yield _load
    for module in loaded:
        if hasattr(module, "app"):
            module.app.state.services.close()
