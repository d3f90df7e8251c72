"""The admin key and the context-cursor secret, read on first use: from Settings locally, from Secrets Manager
in AWS (Powertools ``parameters.get_secret``, cached for ``secret_cache_ttl_s``, so a rotation takes effect).

    >>> s = Settings(admin_key="k", context_cursor_secret="c")
    >>> admin_key(s), cursor_secret(s)
    ('k', b'c')

Nothing here runs at import or when the app is built: a Lambda reads its secrets on the first request that
needs them, never before a SnapStart snapshot (a snapshot would otherwise carry them, and never see rotation).
"""

from __future__ import annotations

import secrets
import threading
from typing import TYPE_CHECKING

from shared.core.settings import Settings

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.parameters import SecretsProvider

__all__ = ["admin_key", "cursor_secret", "previous_cursor_secret"]


def admin_key(settings: Settings) -> str | None:
    """The admin key, or None when none is configured (then only API keys authenticate)."""
    if settings.admin_key is not None:
        return settings.admin_key.get_secret_value()
    if settings.admin_key_secret_arn:
        return _fetch(settings.admin_key_secret_arn, settings).strip()
    return None


def cursor_secret(settings: Settings) -> bytes:
    """The HMAC key that signs context cursors (and verifies them first)."""
    if settings.context_cursor_secret is not None:
        return settings.context_cursor_secret.get_secret_value().encode()
    if settings.context_cursor_secret_arn:
        return _fetch(settings.context_cursor_secret_arn, settings).encode()
    if settings.auth_mode == "api_key":  # Settings refuses this at start; a model_copy could still get here
        raise RuntimeError("auth_mode=api_key needs a context cursor secret")
    return _process_secret()


def previous_cursor_secret(settings: Settings) -> bytes | None:
    """During a rotation the secret's AWSPREVIOUS version, so cursors signed just before it stay valid; None
    before the first rotation and wherever the secret does not come from Secrets Manager."""
    if settings.context_cursor_secret is not None or not settings.context_cursor_secret_arn:
        return None
    value = _previous().get(settings.context_cursor_secret_arn, max_age=settings.secret_cache_ttl_s)
    return _text(value).encode() or None


def _fetch(arn: str, settings: Settings) -> str:
    # Imported here: parameters pulls in boto3, which a local run without AWS never needs.
    from aws_lambda_powertools.utilities import parameters

    return _text(parameters.get_secret(arn, max_age=settings.secret_cache_ttl_s))


def _text(value: str | bytes | dict | None) -> str:
    if isinstance(value, bytes):
        return value.decode()
    if not isinstance(value, str):
        raise TypeError("a secret here is a plain string, not JSON")
    return value


_lock = threading.Lock()
_process_value: bytes | None = None
_previous_provider: SecretsProvider | None = None


def _process_secret() -> bytes:
    """auth_mode=none with no secret configured (tests, a bare local run): a random secret for this process,
    drawn on first use. Cursors then die with the process; ``make dev`` persists one under its data dir."""
    global _process_value
    with _lock:
        if _process_value is None:
            _process_value = secrets.token_bytes(32)
        return _process_value


def _previous() -> SecretsProvider:
    """A provider of its own for AWSPREVIOUS: Powertools keys its cache by name only, so the current and the
    previous version of one secret cannot share a provider."""
    global _previous_provider
    with _lock:
        if _previous_provider is None:
            from aws_lambda_powertools.utilities.parameters import SecretsProvider

            class PreviousVersion(SecretsProvider):
                def _get(self, name: str, **sdk_options) -> str | bytes:
                    try:
                        return super()._get(name, VersionStage="AWSPREVIOUS", **sdk_options)
                    except self.client.exceptions.ResourceNotFoundException:
                        # Not rotated yet: "" is cached like a value, so a stream of bad cursors costs one
                        # call per TTL, not one each.
                        return ""

            _previous_provider = PreviousVersion()
        return _previous_provider


def clear_caches() -> None:
    """Forget every cached secret value and client (tests; a new endpoint or a forced re-read)."""
    global _previous_provider
    from aws_lambda_powertools.utilities import parameters

    parameters.clear_caches()
    with _lock:
        _previous_provider = None
