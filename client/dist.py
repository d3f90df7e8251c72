"""Build every client as an installable artifact: a wheel and an sdist per Python package in client/ and the
TypeScript SDK's npm tarball, all in one folder (``make dist``; the publish workflow uploads what it makes).

Usage: ``python client/dist.py [OUT_DIR]`` (default ``dist/`` at the repository root). ``uv`` builds each Python
package in an isolated environment, so the artifacts do not depend on what this venv happens to hold.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
JS_PACKAGE = CLIENTS / "memorylayer-js"


def python_packages() -> list[Path]:
    """Every Python client folder (one with a pyproject.toml), in a stable order."""
    return sorted(p.parent for p in CLIENTS.glob("*/pyproject.toml"))


def _tool(name: str) -> str:
    """``name`` beside this interpreter (the project venv's uv) or else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"dist: `{name}` not found (make dist installs uv into .venv; npm comes with Node)")
    return found


def build(out: Path) -> list[Path]:
    """Empty ``out``, build everything into it, and return the artifacts made."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    uv = _tool("uv")
    for package in python_packages():
        print(f"dist: {package.relative_to(ROOT)}", flush=True)
        subprocess.run([uv, "build", "--quiet", "--out-dir", str(out), str(package)], check=True)
    print(f"dist: {JS_PACKAGE.relative_to(ROOT)}", flush=True)
    # `npm pack` runs the package's `prepare` script (tsc), so the tarball carries a fresh dist/.
    subprocess.run(
        [_tool("npm"), "pack", "--silent", "--pack-destination", str(out)], cwd=JS_PACKAGE, check=True
    )
    return sorted(p for p in out.iterdir() if not p.name.startswith("."))  # uv adds a .gitignore


def main() -> None:
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "dist"
    for artifact in build(out):
        print(f"  {artifact.relative_to(ROOT) if artifact.is_relative_to(ROOT) else artifact}")


if __name__ == "__main__":
    main()
