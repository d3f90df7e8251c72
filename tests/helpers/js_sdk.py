"""The TypeScript SDK (client/memorylayer-js) as the Python tests drive it: node, its build, the app's OpenAPI."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, cast

PACKAGE = Path(__file__).resolve().parents[2] / "client" / "memorylayer-js"
TSC = PACKAGE / "node_modules" / ".bin" / "tsc"


def node() -> str:
    found = shutil.which("node")
    assert found, "node (20 or later) is needed for the TypeScript SDK's tests"
    return found


def app_openapi() -> dict[str, Any]:
    """The app's OpenAPI document, built without a database (the services are never opened)."""
    from shared.api.app import create_app
    from shared.core.settings import Settings

    settings = Settings(
        database_url="postgresql://nobody@127.0.0.1:1/none", embedding_provider="hash", auth_mode="none"
    )
    return create_app(settings, services=cast(Any, object())).openapi()  # never built: no database


def generate_types(spec: dict[str, Any], scratch: Path) -> str:
    """What openapi-typescript makes of ``spec`` with the package's own options (its ``npm run generate``
    command, with the scratch files for ``openapi.json`` and ``src/openapi.ts``): the text src/openapi.ts must hold."""
    source, target = scratch / "openapi.json", scratch / "openapi.ts"
    source.write_text(json.dumps(spec))
    command = json.loads((PACKAGE / "package.json").read_text())["scripts"]["generate"].split()
    assert command[0] == "openapi-typescript", command
    paths = {"openapi.json": str(source), "src/openapi.ts": str(target)}
    cli = PACKAGE / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
    assert cli.exists(), f"run `npm ci` in {PACKAGE} first (`make test` does)"
    subprocess.run(
        [node(), str(cli), *(paths.get(arg, arg) for arg in command[1:])],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return target.read_text()


def build() -> None:
    """``tsc -p`` into dist/ (the tests and the examples import the built package, as a user would)."""
    assert TSC.exists(), f"run `npm ci` in {PACKAGE} first (`make test` does)"
    done = subprocess.run(
        [node(), str(TSC), "-p", str(PACKAGE)], cwd=PACKAGE, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without MEMORYLAYER_* (so only ``extra`` points the SDK at a server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORYLAYER_")}
    return env | extra


def tap_counts(output: str) -> dict[str, int]:
    """The closing counts of ``node --test --test-reporter=tap``: tests, pass, fail, skipped, ..."""
    return {name: int(n) for name, n in re.findall(r"^# (\w+) (\d+)$", output, flags=re.MULTILINE)}


def tap_failures(output: str) -> str:
    """Each failed test's TAP block (its ``not ok`` line through its YAML diagnostics), for an assertion message."""
    lines = output.splitlines()
    blocks: list[str] = []
    for i, line in enumerate(lines):
        failed = re.match(r"^(\s*)not ok ", line)
        if not failed:
            continue
        end = f"{failed.group(1)}  ..."
        block = [line]
        for following in lines[i + 1 :]:
            block.append(following)
            if following == end:
                break
        blocks.append("\n".join(block))
    return "\n".join(blocks)
