"""Figures in the docs that scripts write: a block between ``<!-- family:name -->`` and ``<!-- /family:name -->``
in README.md or infra/README.md is rewritten by the script that owns the family (``cost``: ``python -m infra.cost
--write``; ``bench``: ``python -m bench.request_cost --write``; ``bundle``: ``python -m infra.bundle --report
--write``).

    >>> rewrite("a <!-- cost:x -->1<!-- /cost:x --> b", {"cost:x": "2"}, family="cost")
    'a <!-- cost:x -->2<!-- /cost:x --> b'
"""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = (REPO_ROOT / "README.md", REPO_ROOT / "infra" / "README.md")
_BLOCK = re.compile(r"<!-- (?P<name>[a-z]+:[a-z-]+) -->(?P<body>.*?)<!-- /(?P=name) -->", re.DOTALL)


def blocks_in(text: str) -> set[str]:
    return {match["name"] for match in _BLOCK.finditer(text)}


def rewrite(text: str, blocks: dict[str, str], *, family: str) -> str:
    """``text`` with the body of each block of ``family`` replaced; a block on its own lines keeps them. A block
    of the family that ``blocks`` does not name is an error (a typo would otherwise never be refreshed)."""

    def body(match: re.Match[str]) -> str:
        name = match["name"]
        if not name.startswith(f"{family}:"):
            return match[0]
        if name not in blocks:
            raise ValueError(f"unknown doc block {name!r}; known: {', '.join(sorted(blocks))}")
        content = f"\n{blocks[name]}\n" if match["body"].startswith("\n") else blocks[name]
        return f"<!-- {name} -->{content}<!-- /{name} -->"

    return _BLOCK.sub(body, text)


def write_blocks(blocks: dict[str, str], *, family: str, docs: tuple[Path, ...] = DOCS) -> list[Path]:
    """Rewrite ``blocks`` in ``docs``; the files that changed. Every block must appear in one of them."""
    texts = {path: path.read_text() for path in docs}
    missing = set(blocks) - set().union(*(blocks_in(text) for text in texts.values()))
    if missing:
        raise ValueError(f"doc blocks missing from {', '.join(p.name for p in docs)}: {sorted(missing)}")
    changed = []
    for path, text in texts.items():
        if (new := rewrite(text, blocks, family=family)) != text:
            path.write_text(new)
            changed.append(path)
    return changed
