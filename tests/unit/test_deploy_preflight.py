"""`make deploy` asks AWS who it is talking to before minutes of synthesis (infra/preflight.py): no credentials,
no region or an account without the CDK bootstrap fail in seconds with the command that fixes them. STS and SSM
through moto; the no-credentials case as the Makefile runs it, in a process with no AWS configuration at all."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from infra.preflight import BOOTSTRAP_PARAMETER, PreflightError, check

ROOT = Path(__file__).resolve().parents[2]


def _no_aws(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This environment without any AWS credential source: no variables, no files, no instance metadata."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    return env | {
        "AWS_CONFIG_FILE": str(tmp_path / "none-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
        **extra,
    }


def _preflight(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "infra.preflight"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_credentials_it_fails_pointing_at_aws_configure(tmp_path: Path) -> None:
    done = _preflight(_no_aws(tmp_path, AWS_REGION="eu-west-1"))
    assert done.returncode == 1
    assert "no AWS credentials found: run `aws configure`" in done.stderr


def test_without_a_region_it_says_so(tmp_path: Path) -> None:
    done = _preflight(_no_aws(tmp_path, AWS_ACCESS_KEY_ID="AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY="secret"))
    assert done.returncode == 1
    assert "no AWS region configured: run `aws configure`" in done.stderr


@pytest.fixture
def fake_account(monkeypatch: pytest.MonkeyPatch) -> Iterator[boto3.Session]:
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        yield boto3.Session(region_name="eu-west-1")


def test_an_account_without_the_cdk_bootstrap_is_told_to_bootstrap(fake_account: boto3.Session) -> None:
    with pytest.raises(PreflightError, match=r"not bootstrapped") as refused:
        check(fake_account)
    account = re.search(r"account (\d{12})", str(refused.value))
    assert account and f"`npx cdk bootstrap aws://{account.group(1)}/eu-west-1`" in str(refused.value)


def test_a_bootstrapped_account_passes_and_names_the_target(fake_account: boto3.Session) -> None:
    fake_account.client("ssm").put_parameter(Name=BOOTSTRAP_PARAMETER, Value="21", Type="String")
    target = check(fake_account)
    assert target.region == "eu-west-1" and re.fullmatch(r"\d{12}", target.account)
    assert target.arn.startswith("arn:aws:") and target.account in target.arn


def test_deploy_and_destroy_run_it_before_the_cdk() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in ("deploy", "destroy"):
        recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.M)
        assert recipe, target
        lines = recipe.group(1).splitlines()
        assert "-m infra.preflight" in lines[0] and "cdk " in lines[-1], lines
