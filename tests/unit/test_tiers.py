"""The test tiers: `make test-unit` and `make test-integration` together run every test folder, once each,
and the unit folders the Makefile names are the ones tests/conftest.py keeps free of Postgres."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import UNIT_TIER

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text()


def folders(variable: str) -> list[str]:
    found = re.search(rf"^{variable} := (.+)$", MAKEFILE, re.M)
    assert found is not None, variable
    return found.group(1).split()


def test_the_tiers_split_every_test_folder_between_them() -> None:
    unit, integration = folders("UNIT_TESTS"), folders("INTEGRATION_TESTS")
    with_tests = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("*/test_*.py")}
    assert set(unit).isdisjoint(integration)
    assert sorted(unit + integration) == sorted(with_tests)
    assert not list((ROOT / "tests").glob("test_*.py"))  # a test at the top would be in neither tier


def test_the_unit_folders_are_the_ones_kept_free_of_postgres() -> None:
    assert tuple(folders("UNIT_TESTS")) == UNIT_TIER


def test_make_test_runs_both_tiers_and_is_what_ci_runs() -> None:
    recipe = re.search(r"^test: .*\n\t(.+)$", MAKEFILE, re.M)
    assert recipe is not None and "pytest -q $(PYTEST_ARGS)" in recipe.group(1)  # testpaths: all of tests/
    assert "make test\n" in (ROOT / ".ci" / "run").read_text()


def test_a_missing_dependency_fails_instead_of_skipping() -> None:
    """What the dev install provides is imported; a test that skipped when it was missing would hide a broken
    install."""
    here = Path(__file__).resolve()
    py = (ROOT / "tests").rglob("*.py")
    assert [p.name for p in py if p.resolve() != here and "importorskip" in p.read_text()] == []
