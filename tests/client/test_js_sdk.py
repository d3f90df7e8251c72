"""The TypeScript SDK (client/memorylayer-js) against the real app: built with its pinned ``tsc``, then its
``node --test`` suite and its README's example run as subprocesses whose only link to the server is the URLs
they are given: the test app (``base_url``) and the whole local stack (``stack_url``, whose extraction queue has
a worker, so thread jobs finish)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.js_sdk import PACKAGE, build, clean_env, node, tap_counts, tap_failures

# The suite's size when this was written: fewer passing means tests were lost or skipped, not fixed.
AT_LEAST = 37


@pytest.fixture(scope="module")
def built() -> Path:
    build()
    return PACKAGE


def test_the_node_suite_passes_against_the_app(built: Path, base_url: str, stack_url: str) -> None:
    done = subprocess.run(
        [node(), "--test", "--test-reporter=tap", "test/"],
        cwd=built,
        env=clean_env(MEMORYLAYER_URL=base_url, MEMORYLAYER_STACK_URL=stack_url),
        capture_output=True,
        text=True,
        timeout=600,
    )
    counts = tap_counts(done.stdout)
    assert done.returncode == 0, (tap_failures(done.stdout) or done.stdout[-6000:]) + done.stderr[-2000:]
    assert counts.get("fail") == 0 and counts.get("skipped") == 0, counts
    assert counts.get("pass", 0) >= AT_LEAST, counts


def test_the_readme_example_runs(built: Path, stack_url: str, ws: str) -> None:
    example = built / "examples" / "quickstart.mjs"
    assert example.read_text().strip() in (built / "README.md").read_text(), (
        "the README shows the example as is"
    )
    done = subprocess.run(
        [node(), str(example)],
        cwd=built,
        env=clean_env(MEMORYLAYER_URL=stack_url, MEMORYLAYER_WORKSPACE_ID=ws),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.stdout.splitlines() == [
        "recalled: Alice prefers green tea",
        "context pack mentions the goal: true",
        "job done: User lives in Lyon",
        "forgotten: 404 memory_not_found",
    ], done.stdout
