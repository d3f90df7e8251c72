"""A page's text into chunks of at most ``size`` characters, cut at paragraphs, then sentences, then words;
each chunk keeps its span (start, end) in the page, so a memory can say where in the page it came from.

>>> [(c.start, c.end, c.text) for c in chunks("One. Two.\\n\\nThree.", size=10)]
[(0, 9, 'One. Two.'), (11, 17, 'Three.')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BREAKS = (re.compile(r"\n\s*\n"), re.compile(r"(?<=[.!?])\s+"), re.compile(r"\s+"))


@dataclass(frozen=True)
class Chunk:
    start: int
    end: int
    text: str


def chunks(text: str, *, size: int) -> list[Chunk]:
    out: list[Chunk] = []
    _split(text, 0, len(text), size, 0, out)
    return out


def _split(text: str, start: int, end: int, size: int, level: int, out: list[Chunk]) -> None:
    """Pieces of text[start:end] at the level's breaks, packed greedily; a piece still too long goes a level
    down (the last level cuts at ``size``)."""
    if level == len(_BREAKS):
        for s in range(start, end, size):
            _emit(text, s, min(end, s + size), out)
        return
    pieces: list[tuple[int, int]] = []
    pos = start
    for m in _BREAKS[level].finditer(text, start, end):
        pieces.append((pos, m.start()))
        pos = m.end()
    pieces.append((pos, end))
    run_start: int | None = None
    run_end = start
    for s, e in pieces:
        if e - s > size:
            if run_start is not None:
                _emit(text, run_start, run_end, out)
                run_start = None
            _split(text, s, e, size, level + 1, out)
            continue
        if run_start is not None and e - run_start > size:
            _emit(text, run_start, run_end, out)
            run_start = None
        if run_start is None:
            run_start = s
        run_end = e
    if run_start is not None:
        _emit(text, run_start, run_end, out)


def _emit(text: str, start: int, end: int, out: list[Chunk]) -> None:
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    piece = piece.strip()
    if piece:
        out.append(Chunk(start + lead, start + lead + len(piece), piece))
