"""The customer-managed KMS key that encrypts data at rest across the stack."""

from __future__ import annotations

from aws_cdk import Aws, Duration
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from constructs import Construct

from infra.config import StageConfig


class Encryption(Construct):
    """One rotating key for Aurora, secrets, SQS, SNS, logs and Lambda environments.

    One key keeps the idle cost at $1/month; the resources are all owned by this one service, so separate keys
    would not separate any trust boundary.
    """

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig) -> None:
        super().__init__(scope, construct_id)
        self.key = kms.Key(
            self,
            "Key",
            alias=f"alias/{config.prefix}",
            description=f"MemoryLayer {config.stage}: data at rest",
            enable_key_rotation=True,
            rotation_period=Duration.days(365),
            removal_policy=config.removal_policy,
            pending_window=Duration.days(30 if config.retain_data else 7),
        )
        # CloudWatch Logs encrypts log groups with the key itself, so the service principal needs it,
        # scoped to log groups of this account and region.
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal(f"logs.{Aws.REGION}.amazonaws.com")],
                actions=[
                    "kms:Encrypt*",
                    "kms:Decrypt*",
                    "kms:ReEncrypt*",
                    "kms:GenerateDataKey*",
                    "kms:Describe*",
                ],
                resources=["*"],
                conditions={
                    "ArnLike": {
                        "kms:EncryptionContext:aws:logs:arn": (
                            f"arn:{Aws.PARTITION}:logs:{Aws.REGION}:{Aws.ACCOUNT_ID}:log-group:*"
                        )
                    }
                },
            )
        )
        # CloudWatch alarms publish to the encrypted SNS topic; SNS asks KMS on the publisher's behalf.
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],
                conditions={"StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID}},
            )
        )
