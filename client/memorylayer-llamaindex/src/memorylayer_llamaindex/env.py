"""Defaults from the environment, as the SDK and the MCP server read them: ``MEMORYLAYER_URL``,
``MEMORYLAYER_API_KEY`` and ``MEMORYLAYER_WORKSPACE_ID``; an argument given explicitly wins."""

from __future__ import annotations

import os

from memorylayer import DEFAULT_BASE_URL


def env_url() -> str:
    return os.environ.get("MEMORYLAYER_URL") or DEFAULT_BASE_URL


def env_api_key() -> str | None:
    return os.environ.get("MEMORYLAYER_API_KEY") or None


def env_workspace_id() -> str | None:
    return os.environ.get("MEMORYLAYER_WORKSPACE_ID") or None
