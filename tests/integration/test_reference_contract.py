"""The reference is the spec: every operation of memorylayer-server 0.2.0's own ``/openapi.json`` (generated now,
from the PyPI package) is served here with a schema a client of the reference can use.

No operation is exempt: a reference operation we do not serve, or one whose request or response a client of the
reference could not use against us, fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.reference import incompatibilities, operations, our_openapi, reference_openapi


@pytest.fixture(scope="module")
def specs(reference_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return reference_openapi(reference_url), our_openapi()


def test_the_reference_describes_its_whole_surface(specs: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ref, _ = specs
    assert ref["info"]["version"] == "0.2.0"
    assert len(operations(ref)) >= 184  # the measured surface; fewer means the spec was not read whole


def test_every_reference_operation_is_served(specs: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ref, ours = specs
    missing = set(operations(ref)) - set(operations(ours))
    assert sorted(missing) == [], "operations of the reference we do not serve"


def test_shared_operations_take_what_the_reference_takes(
    specs: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    ref, ours = specs
    assert incompatibilities(ref, ours) == {}
