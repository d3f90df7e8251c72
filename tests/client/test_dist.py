"""`make dist` (client/dist.py) as a release would run it: every Python client as a wheel and an sdist under its
`memorylayer-serverless-*` name, installable on 3.11, and the TypeScript SDK's npm tarball, all in one folder."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_dist_builds_every_client(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, str(ROOT / "client" / "dist.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]

    expected: set[str] = set()
    for pyproject in sorted((ROOT / "client").glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text())["project"]
        name, version = project["name"], project["version"]
        assert name.startswith("memorylayer-serverless-"), name  # never an official distribution's name
        stem = f"{name.replace('-', '_')}-{version}"
        expected |= {f"{stem}-py3-none-any.whl", f"{stem}.tar.gz"}
        with zipfile.ZipFile(out / f"{stem}-py3-none-any.whl") as wheel:
            meta = Parser().parsestr(wheel.read(f"{stem}.dist-info/METADATA").decode())
        assert (meta["Name"], meta["Version"], meta["Requires-Python"]) == (name, version, ">=3.11")
        with tarfile.open(out / f"{stem}.tar.gz") as sdist:
            assert f"{stem}/pyproject.toml" in sdist.getnames()
    npm = json.loads((ROOT / "client" / "memorylayer-js" / "package.json").read_text())
    tarball = f"{npm['name'].lstrip('@').replace('/', '-')}-{npm['version']}.tgz"
    expected.add(tarball)
    assert {p.name for p in out.iterdir() if not p.name.startswith(".")} == expected
    with tarfile.open(out / tarball) as packed:
        names = packed.getnames()
    assert {"package/dist/index.js", "package/dist/index.d.ts", "package/package.json"} <= set(names)
