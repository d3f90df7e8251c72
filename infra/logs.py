"""Log groups as the stack makes every one: encrypted with the stack's key, kept and removed as the stage says.

>>> flow_logs = log_group(self, "FlowLogs", config=config, key=key)  # doctest: +SKIP
>>> log_group(self, "Logs", config=config, key=key, name="/aws/lambda/memorylayer-dev-sandbox")  # doctest: +SKIP
"""

from __future__ import annotations

from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.config import StageConfig


def log_group(
    scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey, name: str | None = None
) -> logs.LogGroup:
    """A KMS-encrypted log group with the stage's retention and removal policy; ``name`` fixes its name (a
    Lambda function's or an RDS cluster's export must be created up front under the name the service writes to)."""
    return logs.LogGroup(
        scope,
        construct_id,
        log_group_name=name,
        retention=config.log_retention,
        encryption_key=key,
        removal_policy=config.removal_policy,
    )
