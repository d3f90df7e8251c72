"""The TypeScript SDK as a user's own project gets it (client/memorylayer-js/README.md, "Use it from your app"):
``npm install <the package's folder>`` (a link; its ``prepare`` script builds ``dist/``) and ``npm install
<the tarball npm pack makes>`` (a copy), each in a scratch project, offline, then the README's snippet imported
by the package's name and run against the app. The package has no runtime dependencies, so offline is enough."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from tests.helpers.js_sdk import PACKAGE, TSC, clean_env, node

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SDK_README = (PACKAGE / "README.md").read_text()


def _npm() -> str:
    found = shutil.which("npm")
    assert found, "npm is needed to install the TypeScript SDK"
    return found


def _scratch(tmp_path: Path) -> Path:
    app = tmp_path / "my-app"
    app.mkdir()
    (app / "package.json").write_text(json.dumps({"name": "my-app", "version": "1.0.0", "type": "module"}))
    return app


def _npm_run(args: list[str], cwd: Path) -> None:
    done = subprocess.run(
        [_npm(), *args, "--offline", "--no-audit", "--no-fund"],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


def _run_readme_snippet(app: Path, base_url: str, ws: str) -> str:
    snippet = re.findall(r"```js\n(.*?)```", README[README.index("### The TypeScript SDK") :], re.S)[0]
    code = snippet.replace("http://localhost:61001", base_url).replace(
        'workspaceId: "demo"', f'workspaceId: "{ws}"'
    )
    (app / "main.mjs").write_text(code + 'console.log(memories.map((m) => m.content).join("|"));\n')
    done = subprocess.run(
        [node(), "main.mjs"], cwd=app, env=clean_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done.stdout


def test_npm_install_of_the_folder_builds_and_imports(tmp_path: Path, base_url: str, ws: str) -> None:
    assert TSC.exists(), f"run `npm ci` in {PACKAGE} first (`make test` does)"
    documented = re.search(r"^npm install /path/to/clone/client/memorylayer-js$", SDK_README, re.M)
    assert documented, "the README's one-line install"
    shutil.rmtree(PACKAGE / "dist", ignore_errors=True)  # what `prepare` must build
    app = _scratch(tmp_path)
    _npm_run(["install", str(PACKAGE)], app)
    assert (PACKAGE / "dist" / "index.js").exists() and (PACKAGE / "dist" / "index.d.ts").exists()
    assert (app / "node_modules" / "@memorylayer" / "client").resolve() == PACKAGE.resolve()
    assert "Dana lives in Paris" in _run_readme_snippet(app, base_url, ws)


def test_npm_install_of_the_packed_tarball_imports(tmp_path: Path, base_url: str, ws: str) -> None:
    packed = tmp_path / "packed"
    packed.mkdir()
    _npm_run(["pack", "--pack-destination", str(packed)], PACKAGE)
    (tarball,) = packed.glob("*.tgz")
    version = json.loads((PACKAGE / "package.json").read_text())["version"]
    assert tarball.name == f"memorylayer-client-{version}.tgz" and tarball.name in SDK_README
    app = _scratch(tmp_path)
    _npm_run(["install", str(tarball)], app)
    installed = app / "node_modules" / "@memorylayer" / "client"
    assert not installed.is_symlink() and (installed / "dist" / "index.js").exists()
    assert "Dana lives in Paris" in _run_readme_snippet(app, base_url, ws)
