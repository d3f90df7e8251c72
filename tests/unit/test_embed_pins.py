"""The embedding container builds the same thing every time: each requirement pinned with ``==``, the base image
by a version tag, and the model's weights fetched at a commit of its repository, not a moving branch."""

from __future__ import annotations

import re
from pathlib import Path

EMBED = Path(__file__).resolve().parents[2] / "functions" / "embed"
PINNED = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9_,-]+\])?==[0-9][A-Za-z0-9.+!-]*$")


def unpinned(text: str) -> list[str]:
    """The requirement lines of ``text`` that do not name one exact version."""
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line and not PINNED.match(line)]


def test_the_check_catches_what_it_should():
    assert unpinned("fastapi>=0.115\nnumpy\nuvicorn==0.30.0  # ok\n# a comment\n-r other.txt\n") == [
        "fastapi>=0.115",
        "numpy",
        "-r other.txt",
    ]


def test_every_requirement_is_pinned():
    assert unpinned((EMBED / "requirements.txt").read_text()) == []


def test_the_model_and_base_image_are_pinned():
    dockerfile = (EMBED / "Dockerfile").read_text()
    revision = re.search(r"^ARG EMBED_HF_MODEL_REVISION=(\S+)$", dockerfile, re.M)
    assert revision and re.fullmatch(r"[0-9a-f]{40}", revision.group(1)), (
        "the model's revision: a commit hash"
    )
    assert "revision='${EMBED_HF_MODEL_REVISION}'" in dockerfile  # and the download uses it
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert bases and all(re.search(r":\d", base) or "@sha256:" in base for base in bases), bases
