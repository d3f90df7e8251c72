"""Behaviour is the contract: each family's scenario (tests/behaviour_scenarios.py) runs on the reference
(PyPI memorylayer-server 0.2.0, started at test time in its own Python 3.12 venv) and on us, in fresh
workspaces, and every difference in status, answer shape, stored value, order or count must be a row of the
table in docs/wire.md ("Behaviour compared, call for call"). A row no difference matches any more fails too:
the table says what is different today, not what once was.

A reference that cannot be installed or started fails these tests; it never skips them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.behaviour import (
    KINDS,
    Documented,
    Outcome,
    documented_differences,
    run_family,
    stale,
    undocumented,
)
from tests.behaviour_scenarios import SCENARIOS

pytestmark = pytest.mark.py312


@pytest.fixture(scope="module")
def outcomes(reference_url: str, base_url: str) -> dict[str, Outcome]:
    return {name: run_family(name, scenario, reference_url, base_url) for name, scenario in SCENARIOS.items()}


@pytest.fixture(scope="module")
def rows() -> list[Documented]:
    """Every row but the ``sdk.`` ones, the SDK matrix's (tests/client/test_sdk_matrix.py)."""
    return [row for row in documented_differences() if not row.key.startswith("sdk.")]


def _listing(items: list[object]) -> str:
    return "\n".join(f"  {item}" for item in items)


@pytest.mark.parametrize("family", list(SCENARIOS))
def test_the_family_behaves_as_the_reference_but_for_documented_differences(
    family: str, outcomes: dict[str, Outcome], rows: list[Documented]
) -> None:
    outcome = outcomes[family]
    assert outcome.observed >= 20, (
        "the scenario observed too little to compare"
    )  # a broken scenario, not a pass
    found = undocumented(outcome.differences, rows)
    assert not found, f"{family}: differences from the reference not in docs/wire.md:\n" + _listing(found)


def test_every_documented_difference_still_happens(
    outcomes: dict[str, Outcome], rows: list[Documented]
) -> None:
    every = [d for outcome in outcomes.values() for d in outcome.differences]
    print(
        f"\n{sum(o.observed for o in outcomes.values())} behaviours compared over {len(outcomes)} families; "
        f"{len(every)} differ, all under {len(rows)} documented rows"
    )
    assert not stale(every, rows), "rows of docs/wire.md no difference matches (remove them):\n" + _listing(
        stale(every, rows)
    )


def test_the_readme_counts_the_behaviours_compared(outcomes: dict[str, Outcome]) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    claimed = re.search(
        r"(\d+)\s+behaviours \(status, answer shape, stored values, order, counts\) are compared over (\d+)",
        readme,
    )
    assert claimed is not None, "README.md's compatibility sentence is gone"
    assert (int(claimed[1]), int(claimed[2])) == (sum(o.observed for o in outcomes.values()), len(outcomes))


def test_the_table_is_read_whole() -> None:
    """The parser reads kinds and reasons, refuses a row without them, and a key's ``*`` spans characters."""
    text = (
        "### Behaviour compared, call for call\n\n| key | kind | why |\n|---|---|---|\n"
        "| `a.*.status` | ours better | a reason |\n"
    )
    (row,) = documented_differences(text)
    assert row.kind in KINDS and row.matches("a.b.c.status") and not row.matches("b.status")
    with pytest.raises(ValueError, match="kind"):
        documented_differences(text.replace("ours better", "maybe"))
