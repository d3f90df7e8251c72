"""One version for the server, the API and the clients (shared/core/version.py)."""

from __future__ import annotations

import json
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from shared.api.app import create_app
from shared.core.settings import Settings
from shared.core.version import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_and_the_api_carry_the_one_version() -> None:
    assert version("memorylayer-serverless") == __version__  # pyproject reads shared/core/version.py
    app = create_app(Settings(auth_mode="none", embedding_provider="hash", database_url="postgresql://x@h/d"))
    assert app.openapi()["info"]["version"] == __version__


def test_every_client_carries_the_one_version() -> None:
    clients = sorted((ROOT / "client").glob("*/pyproject.toml"))
    assert clients
    for pyproject in clients:
        assert tomllib.loads(pyproject.read_text())["project"]["version"] == __version__, pyproject
        (init,) = [p for p in (pyproject.parent / "src").glob("*/__init__.py")]
        found = re.search(r'^__version__ = "([^"]+)"', init.read_text(), re.M)
        assert found and found.group(1) == __version__, init


def test_the_changelog_names_the_version() -> None:
    assert f"## {__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_the_typescript_sdk_carries_the_one_version() -> None:
    package = ROOT / "client" / "memorylayer-js"
    assert json.loads((package / "package.json").read_text())["version"] == __version__
    found = re.search(r'^export const VERSION = "([^"]+)";', (package / "src" / "http.ts").read_text(), re.M)
    assert found and found.group(1) == __version__
