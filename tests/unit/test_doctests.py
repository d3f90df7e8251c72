"""Every ``>>>`` example in shared/'s docstrings runs and shows what it says. Examples that need a database, a
queue or a live app are illustrations, marked ``# doctest: +SKIP``; everything else must pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import shared


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(shared.__path__, "shared."))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_examples_are_found() -> None:
    """Discovery itself works: a module known to carry examples yields some that run."""
    module = importlib.import_module("shared.providers.secrets")
    found = [t for t in doctest.DocTestFinder().find(module) if t.examples]
    assert found and sum(len(t.examples) for t in found) >= 2
