"""Write ``src/memorylayer/sync_client.py`` from the async ``client.py`` with unasync, so each API method is
written once. Run it after editing ``client.py``; ``tests/unit/test_sdk_sync_generated.py`` fails when the file
checked in is not what this writes.

    python client/memorylayer-client/generate_sync.py           # rewrite sync_client.py
    python client/memorylayer-client/generate_sync.py --check   # exit 1 if it is out of date

unasync drops ``async``/``await`` and renames tokens (``__aenter__`` → ``__enter__``, ``AsyncIterator`` →
``Iterator``, ``AsyncPool`` → ``SyncPool`` …); the renames below are this package's own. Docstrings are plain
strings to unasync, so their examples get the same treatment here; ruff then formats the result (lines
shortened by the renames may now fit on one).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import unasync

PACKAGE = Path(__file__).resolve().parent / "src" / "memorylayer"
SOURCE = PACKAGE / "client.py"
TARGET = PACKAGE / "sync_client.py"
REPO = PACKAGE.parents[3]

DOCSTRING = '''"""The sync client: GENERATED from ``client.py`` (the async client) by ``generate_sync.py``. Do not edit;
edit ``client.py`` and run that script.

with SyncMemoryLayerClient("http://localhost:61001", workspace_id="ws_demo") as client:
    memory = client.remember("Alice prefers tea", tags=["prefs"])
    hits = client.recall("what does Alice drink?")

Arguments left out come from ``MEMORYLAYER_URL``, ``MEMORYLAYER_API_KEY`` and ``MEMORYLAYER_WORKSPACE_ID``.
"""'''

RENAMES = {
    "MemoryLayerClient": "SyncMemoryLayerClient",
    "AsyncBaseTransport": "BaseTransport",
    "aclose": "close",
    "async_sleep": "sync_sleep",
    "async_post_form": "sync_post_form",
}

# Docstring examples and prose: (pattern, replacement), applied to the generated text.
PROSE = [
    (r"\bawait ", ""),
    (r"\basync (with|for|def) ", r"\1 "),
    (r"(?<![\w.])MemoryLayerClient\b", "SyncMemoryLayerClient"),
    (r"\bhttpx\.AsyncClient\b", "httpx.Client"),
    (r"Async client for the MemoryLayer", "Blocking client for the MemoryLayer"),
]


def render() -> str:
    """The sync client's source, as it should be checked in."""
    with tempfile.TemporaryDirectory() as tmp:
        # unasync writes next to its input, swapping the rule's from-part for its to-part in the path.
        copy = Path(tmp) / "client.py"
        shutil.copyfile(SOURCE, copy)
        unasync.unasync_files([str(copy)], [unasync.Rule("client.py", "sync_client.py", RENAMES)])
        text = (Path(tmp) / "sync_client.py").read_text()
    module_doc_end = text.index('"""', 3) + 3
    text = DOCSTRING + text[module_doc_end:]
    for pattern, replacement in PROSE:
        text = re.sub(pattern, replacement, text)
    return _ruff_format(text)


def _ruff_format(text: str) -> str:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        raise SystemExit("ruff is needed to format the generated client (pip install ruff)")
    done = subprocess.run(
        [ruff, "format", "--stdin-filename", str(TARGET.relative_to(REPO)), "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return done.stdout


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if TARGET.read_text() != text:
            print(f"{TARGET.relative_to(REPO)} is out of date: run python {Path(__file__).relative_to(REPO)}")
            return 1
        return 0
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
