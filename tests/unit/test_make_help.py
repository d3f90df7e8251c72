"""`make help` is the list a new user reads: every target the Makefile declares phony has a `## ` line there."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_phony_target_is_in_make_help() -> None:
    make = shutil.which("make")
    assert make, "make is needed"
    makefile = (ROOT / "Makefile").read_text()
    phony = set(re.search(r"^\.PHONY:(.*)$", makefile, re.M).group(1).split())  # type: ignore[union-attr]
    assert {"deploy", "destroy", "clean-data", "clean", "format", "lock", "dist"} <= phony
    shown = subprocess.run([make, "--no-print-directory", "help"], cwd=ROOT, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    listed = {line.split()[0] for line in shown.stdout.splitlines() if line.strip()}
    assert listed == phony, f"missing from make help: {phony - listed}; not phony: {listed - phony}"
