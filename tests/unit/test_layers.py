"""The layers of shared/ (docs/ARCHITECTURE.md) and its freedom from import cycles: the contracts in
pyproject.toml hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no import cycles in shared/ KEPT" in done.stdout
    assert "0 broken" in done.stdout
