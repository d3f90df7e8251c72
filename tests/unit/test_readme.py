"""The README a new user reads first: set-up commands first, links that resolve, no race in the thread example."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_opening_commands_are_make_dev_and_make_test() -> None:
    first_block = re.search(r"```bash\n(.*?)```", README, re.S)
    assert first_block is not None
    assert [line.split("#")[0].strip() for line in first_block.group(1).splitlines()] == [
        "make dev",
        "make test",
    ]
    assert README.index("## Getting started") < README.index("## Benchmarks")


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", markdown, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_relative_links_resolve() -> None:
    links = re.findall(r"\]\(((?!https?:|#)[^)]+)\)", README)
    assert {"BENCHMARKS.md", "LICENSE", "CHANGELOG.md"} <= set(links)
    broken = []
    for link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        if not target.exists() or (anchor and anchor not in _anchors(target.read_text())):
            broken.append(link)
    assert broken == []


def test_the_thread_example_waits_for_its_job_before_recalling() -> None:
    example = README[README.index("/v1/threads/$T/messages") :]
    assert example.index("/v1/jobs/$J") < example.index("/v1/memories/recall")


def test_benchmark_results_live_in_benchmarks_md() -> None:
    assert "| memories | server |" not in README
    assert "| memories | server |" in (ROOT / "BENCHMARKS.md").read_text()
