"""Before `make deploy` / `make destroy` synthesize (minutes of bundling): can these AWS credentials deploy here?

Checks, in seconds, what would otherwise fail only at the end: credentials that STS accepts, a region, and the
CDK bootstrap stack's version parameter in that account/region. Exits 1 with the command that fixes it.

Usage: ``python -m infra.preflight`` (the Makefile runs it first).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError

# The CDK's default bootstrap qualifier; `cdk bootstrap` writes this parameter with the template's version.
BOOTSTRAP_PARAMETER = "/cdk-bootstrap/hnb659fds/version"
# One attempt with short timeouts: a machine without credentials or network should hear so in seconds.
FAST = Config(connect_timeout=5, read_timeout=10, retries={"max_attempts": 1, "mode": "standard"})


@dataclass(frozen=True)
class Target:
    account: str
    region: str
    arn: str


class PreflightError(Exception):
    """What is missing and the command that fixes it."""


def check(session: boto3.Session | None = None) -> Target:
    """The account and region a deploy would go to, or a :class:`PreflightError` saying what to run first."""
    session = session or boto3.Session()
    region = session.region_name or os.environ.get("AWS_REGION")  # the CDK reads AWS_REGION too
    if not region:
        raise PreflightError(
            "no AWS region configured: run `aws configure` (or set AWS_REGION / AWS_DEFAULT_REGION)"
        )
    try:
        identity = session.client("sts", region_name=region, config=FAST).get_caller_identity()
    except NoCredentialsError:
        raise PreflightError(
            "no AWS credentials found: run `aws configure` (or `aws sso login`, or set AWS_PROFILE / "
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
        ) from None
    except (ClientError, BotoCoreError) as exc:
        raise PreflightError(
            f"AWS did not accept the credentials ({exc}): check them with `aws sts get-caller-identity`, "
            "then `aws configure` or `aws sso login`"
        ) from None
    target = Target(account=identity["Account"], region=region, arn=identity["Arn"])
    try:
        session.client("ssm", region_name=region, config=FAST).get_parameter(Name=BOOTSTRAP_PARAMETER)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ParameterNotFound":
            raise PreflightError(
                f"account {target.account} is not bootstrapped for the CDK in {region}: run "
                f"`npx cdk bootstrap aws://{target.account}/{region}` once"
            ) from None
        # No ssm:GetParameter for this principal: the deploy itself will say whether the bootstrap exists.
    except BotoCoreError:
        pass
    return target


def main() -> None:
    try:
        target = check()
    except (PreflightError, NoRegionError) as exc:
        print(f"make deploy: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    print(f"deploying as {target.arn} to account {target.account} in {target.region}")


if __name__ == "__main__":
    main()
