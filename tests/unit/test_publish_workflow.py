"""The publish workflow (.github/workflows/publish.yml) is never run here; this reads it as GitHub would and
checks the promises it makes: tags only, artifacts from `make dist`, PyPI by trusted publishing (no stored
password), npm with provenance."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW: dict[Any, Any] = yaml.safe_load((ROOT / ".github" / "workflows" / "publish.yml").read_text())


def _runs(job: dict[str, Any]) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def _uses(job: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for step in job["steps"] if "uses" in step]


def test_it_runs_on_version_tags_only() -> None:
    trigger = WORKFLOW.get("on", WORKFLOW.get(True))  # YAML 1.1 reads a bare `on` key as true
    assert set(trigger) == {"push"}
    assert set(trigger["push"]) == {"tags"} and trigger["push"]["tags"] == ["v*"]
    assert WORKFLOW["permissions"] == {"contents": "read"}


def test_the_artifacts_come_from_make_dist() -> None:
    jobs = WORKFLOW["jobs"]
    assert "make dist" in _runs(jobs["dist"])
    uploaded = [s for s in _uses(jobs["dist"]) if s["uses"].startswith("actions/upload-artifact@")]
    assert uploaded and uploaded[0]["with"]["path"] == "dist/"
    for name in ("pypi", "npm"):
        assert jobs[name]["needs"] == "dist"
        downloads = [s for s in _uses(jobs[name]) if s["uses"].startswith("actions/download-artifact@")]
        assert downloads and downloads[0]["with"]["name"] == uploaded[0]["with"]["name"]
    # The target it names exists and builds through the script the tests run.
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^dist:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert target and "client/dist.py dist" in target.group(1)


def test_pypi_by_trusted_publishing() -> None:
    job = WORKFLOW["jobs"]["pypi"]
    assert job["permissions"] == {"id-token": "write"}
    (publish,) = [s for s in _uses(job) if s["uses"].startswith("pypa/gh-action-pypi-publish@")]
    assert not {"password", "user"} & set(publish.get("with", {}))  # OIDC, not a stored token
    assert any("rm -f dist/*.tgz" in run for run in _runs(job))  # PyPI would refuse the npm tarball


def test_npm_with_provenance() -> None:
    job = WORKFLOW["jobs"]["npm"]
    assert job["permissions"] == {"id-token": "write"}
    (publish,) = [run for run in _runs(job) if run.startswith("npm publish")]
    assert "--provenance" in publish.split() and "dist/*.tgz" in publish.split()
