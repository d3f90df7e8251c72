"""Fixtures for the integration tier beyond tests/conftest.py's."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest


@pytest.fixture()
def api(pipeline) -> Iterator[httpx.Client]:
    """A client of the whole local stack (``pipeline``), in a fresh workspace of its own."""
    with httpx.Client(
        base_url=pipeline[0], timeout=30, headers={"X-Workspace-ID": f"ws_{uuid.uuid4().hex[:10]}"}
    ) as c:
        yield c
