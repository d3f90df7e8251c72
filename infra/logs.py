"""Log groups as the stack makes every one: encrypted with the stack's key, kept and removed as the stage says.

>>> flow_logs = log_group(self, "FlowLogs", config=config, key=key)  # doctest: +SKIP
>>> log_group(self, "PostgresLog", config=config, key=key, name="/aws/rds/cluster/x/postgresql")  # doctest: +SKIP
"""

from __future__ import annotations

from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.config import StageConfig


def log_group(
    scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey, name: str | None = None
) -> logs.LogGroup:
    """A KMS-encrypted log group with the stage's retention and removal policy. Named by CloudFormation unless
    ``name`` fixes it, which only a service that picks the name itself needs (an RDS cluster's log export):
    a fixed name kept in prod would collide with the next stack's."""
    return logs.LogGroup(
        scope,
        construct_id,
        log_group_name=name,
        retention=config.log_retention,
        encryption_key=key,
        removal_policy=config.removal_policy,
    )
