"""The embedding container builds the same thing every time: each requirement pinned with ``==``, everything they
pull in locked with hashes, the base image by a version tag, and the model's weights fetched at a commit of its
repository, not a moving branch."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EMBED = ROOT / "functions" / "embed"
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


def _locked(text: str) -> dict[str, tuple[str, int]]:
    """``name: (version, hashes)`` for each package of a ``uv pip compile --generate-hashes`` lock."""
    found: dict[str, tuple[str, int]] = {}
    for entry in re.split(r"\n(?=\S)", text):
        head = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", entry)
        if head:
            found[head.group(1).lower()] = (head.group(2), entry.count("--hash=sha256:"))
    return found


def test_the_lock_holds_every_requirement_at_its_pin_with_hashes():
    locked = _locked((EMBED / "requirements.lock").read_text())
    for line in (EMBED / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            assert locked.get(name.lower(), ("", 0))[0] == version, f"{name}: run `make lock`"
    assert len(locked) > 20  # the transitive ones too, not only the direct lines
    assert all(hashes for _, hashes in locked.values())
    # torch and its CUDA stack are the base image's: a locked copy would be a second, multi-GB torch.
    assert not [n for n in locked if n in {"torch", "triton"} or n.startswith("nvidia-")]


def test_one_torch_version_everywhere():
    dockerfile = (EMBED / "Dockerfile").read_text()
    makefile = (ROOT / "Makefile").read_text()
    base = re.search(r"^FROM pytorch/pytorch:([0-9.]+)-", dockerfile, re.M)
    checked = re.search(r"torch\.__version__\.split\('\+'\)\[0\] != '([0-9.]+)'", dockerfile)
    locked_against = re.search(r"^EMBED_TORCH = ([0-9.]+)$", makefile, re.M)
    assert base and checked and locked_against
    assert base.group(1) == checked.group(1) == locked_against.group(1)
    assert "--require-hashes -r /tmp/requirements.lock" in dockerfile
