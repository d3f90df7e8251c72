"""The Python SDK as a user's own project gets it: the documented ``pip install <clone>/client/memorylayer-client``
run from another directory into a fresh virtualenv on this interpreter (3.11, the minimum), then the README's
snippet run by that virtualenv's Python against the app. The dependencies come from the package index pip is
configured with, as they would for a user; a failed install fails the test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT_README = (ROOT / "client" / "memorylayer-client" / "README.md").read_text()
README = (ROOT / "README.md").read_text()


def _env() -> dict[str, str]:
    """No MEMORYLAYER_* and no PYTHONPATH: only what the venv installed can be imported."""
    drop = ("MEMORYLAYER_", "PYTHONPATH", "VIRTUAL_ENV")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


def _documented_install() -> list[str]:
    """The 'Use it from your app' path command, with the clone's path filled in."""
    section = CLIENT_README[CLIENT_README.index("## Use it from your app") :]
    line = next(ln for ln in section.splitlines() if ln.startswith("pip install /path/to/clone/"))
    return line.replace("/path/to/clone", str(ROOT)).split()


def test_the_sdk_installs_from_its_path_into_a_fresh_venv(tmp_path: Path, base_url: str, ws: str) -> None:
    app = tmp_path / "my-app"
    app.mkdir()
    venv = app / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    python = str(venv / "bin" / "python")
    pip, install, target = _documented_install()
    assert (pip, install) == ("pip", "install")
    done = subprocess.run(
        [python, "-m", "pip", "install", "-q", target],
        cwd=app,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]

    probe = (
        "import importlib.metadata as md, sys, memorylayer\n"
        "print(sys.version_info[:2] >= (3, 11), md.version('memorylayer-serverless-client'))\n"
        "print(memorylayer.__file__)\n"
        "print(sorted(d.metadata['Name'] for d in md.distributions() if 'memorylayer' in d.metadata['Name']))\n"
    )
    shown = subprocess.run([python, "-c", probe], cwd=app, env=_env(), capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr[-2000:]
    ok, where, names = shown.stdout.splitlines()
    assert ok == "True 0.3.0"
    assert where.startswith(str(venv)), where  # the installed copy, not the clone's source
    assert names == "['memorylayer-serverless-client']"  # never the official distribution's name

    code = re.findall(r"```python\n(.*?)```", README[README.index("### The Python SDK") :], re.S)[0]
    code = code.replace("http://localhost:61001", base_url).replace(
        'workspace_id="demo"', f'workspace_id="{ws}"'
    )
    ran = subprocess.run(
        [python, "-c", code], cwd=app, env=_env(), capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "Dana lives in Paris" in ran.stdout
