"""Lambda cold-start cost here: the import time of each handler, in fresh interpreters, laid out as Lambda runs it.

    python -m bench.cold_start [--runs 7]

Lambda imports the handler from a read-only /var/task with Python 3.12, so it cannot cache bytecode: whatever
the asset does not ship as .pyc is compiled from source on every cold start. This builds each asset the way
``infra.bundle`` does, but with dependencies for this machine's platform, twice: without .pyc (how assets
shipped before) and with Python 3.12 .pyc (how they ship now), and imports each handler from both with
``PYTHONDONTWRITEBYTECODE=1``. Baselines from the same run: ``import fastapi`` (the floor of any FastAPI
handler) from the compiled layout, and the development venv. The pool, the embedder and the SDKs load on the
first request, not at import.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from infra.bundle import (
    LAMBDA_PACKAGES,
    REPO_ROOT,
    _digest,
    build_function_asset,
    lambda_python,
    precompile,
    runtime_requirements,
)

WORK = REPO_ROOT / "build" / "cold-start"
_TIMED = "import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"


def host_dependencies(python: str) -> Path:
    """The Lambda runtime requirements for this machine's platform (the assets carry aarch64 wheels)."""
    requirements = runtime_requirements()
    target = WORK / f"deps-{_digest(r.encode() for r in requirements)[:12]}"
    if not (target / ".complete").exists():
        shutil.rmtree(target, ignore_errors=True)
        cmd = [python, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check"]
        subprocess.run([*cmd, "--target", str(target), *requirements], check=True)
        (target / ".complete").touch()
    return target


def layouts(python: str) -> dict[str, Path]:
    """Two copies of every asset: ``plain`` (sources only) and ``compiled`` (sources + 3.12 bytecode)."""
    deps = host_dependencies(python)
    out: dict[str, Path] = {}
    for kind in ("plain", "compiled"):
        folder = WORK / kind
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        # Every handler's asset shares the dependencies; one folder with all functions imports the same modules.
        asset = build_function_asset("memory", folder, deps=deps)
        for name in LAMBDA_PACKAGES:
            shutil.copytree(REPO_ROOT / "functions" / name, asset.path / "functions" / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        if kind == "compiled":
            precompile(asset.path)
        out[kind] = asset.path
    return out


def import_ms(python: str, module: str, runs: int, path: Path | None) -> float:
    """Median wall time of importing ``module`` in a fresh interpreter that cannot write bytecode."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MEMORYLAYER_"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [python, "-s", "-c", _TIMED.format(module=module)],
            capture_output=True, text=True, check=True, env=env, cwd=path or REPO_ROOT,
        )  # fmt: skip
        samples.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    python = lambda_python()
    if python is None:
        raise SystemExit("bench.cold_start needs a Python 3.12 (the Lambda runtime's version)")
    trees = layouts(python)
    floor = import_ms(python, "fastapi", args.runs, trees["compiled"])
    print(
        f"load average {os.getloadavg()[0]:.1f}; Python 3.12; `import fastapi` (with .pyc): {floor:.0f} ms\n"
    )
    print("| handler | no .pyc (before) ms | with .pyc (now) ms | now × `import fastapi` | dev venv ms |")
    print("|---|---|---|---|---|")
    for name in LAMBDA_PACKAGES:
        module = f"functions.{name}.handler"
        plain = import_ms(python, module, args.runs, trees["plain"])
        compiled = import_ms(python, module, args.runs, trees["compiled"])
        dev = import_ms(sys.executable, module, args.runs, None)
        print(f"| {name} | {plain:.0f} | {compiled:.0f} | {compiled / floor:.2f} | {dev:.0f} |")


if __name__ == "__main__":
    main()
