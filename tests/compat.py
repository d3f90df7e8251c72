"""The official PyPI SDK 0.2.1 and LlamaIndex store (Python >= 3.12) in their own virtualenv,
``.venv-compat312/`` at the repository root, created once and reused (a marker file records the install).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-compat312"
PACKAGES = ["memorylayer-client==0.2.1", "memorylayer-llamaindex==0.2.1"]
MARKER = VENV / ".installed-memorylayer-0.2.1"


def _python312() -> str | None:
    candidates = [os.environ.get("ML_PYTHON312"), "/root/.pyenv/versions/3.12.1/bin/python"]
    candidates += [shutil.which("python3.12")]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    return None


def official_python(*, required: bool = False) -> str:
    """The compat interpreter, installing it on first use. No Python 3.12 on the machine is a skip (the dev
    install does not provide one), or a failure when ``required``; a failed install of the packages is a
    failure, never a skip."""
    python = VENV / "bin" / "python"
    if MARKER.exists() and python.exists():
        return str(python)
    interpreter = _python312()
    if interpreter is None:
        reason = "no Python 3.12 interpreter (set ML_PYTHON312); the official packages need >= 3.12"
        if required:
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        subprocess.run([interpreter, "-m", "venv", str(VENV)], check=True, capture_output=True, timeout=300)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *PACKAGES],
            check=True,
            capture_output=True,
            timeout=1200,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        output = getattr(exc, "stderr", b"") or b""
        pytest.fail(f"could not install {PACKAGES} into {VENV}: {output.decode(errors='replace')[-500:]}")
    MARKER.write_text(" ".join(PACKAGES) + "\n")
    return str(python)
