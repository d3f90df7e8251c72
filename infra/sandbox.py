"""The sandbox function: where caller code of the context environment runs in AWS (issue 19).

A function of its own, so that nothing the API has can reach caller code:
- its role writes its own log group and manages its ENIs (Lambda needs that for a VPC function), nothing
  else: no database connect, no secret, no queue, no KMS, no X-Ray;
- it sits in the isolated subnets (no route out) behind a security group with no egress and no ingress
  rule, so it has no network at all, not even to AWS APIs;
- its environment holds nothing secret, and the executor runs as a child with an empty one anyway;
- fixed memory and timeout, and its own reserved concurrency (the context function's);
- only the context function's role may invoke it; alarms on its errors and throttles.

Its asset is just the stdlib-only executor (shared/sandbox/{runner,executor}.py and the handler), a few KB.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.bundle import REPO_ROOT
from infra.config import StageConfig
from infra.functions import ARCHITECTURE, RUNTIME, function_role
from infra.logs import log_group
from infra.nag import acknowledge
from infra.network import Network

# The API function stops at 29 s (HTTP API integrations time out at 30 s): an execution gets 20 s, the
# function 25 s (interpreter start, state load and save), the context function the rest.
EXEC_SECONDS = 20
TIMEOUT = Duration.seconds(25)
MEMORY_MB = 1024  # CPU scales with memory; the executor's own address-space cap is 256 MiB
FILES = (
    "shared/__init__.py",
    "shared/sandbox/__init__.py",
    "shared/sandbox/wasm.py",
    "shared/sandbox/interpreter.py",
    "shared/sandbox/state.py",
    "shared/sandbox/guest.py",
    "functions/__init__.py",
    "functions/sandbox/__init__.py",
    "functions/sandbox/handler.py",
)


def stage_asset() -> Path:
    """A directory with only the executor's files (the other functions' bundles carry the whole app)."""
    root = Path(tempfile.mkdtemp(prefix="memorylayer-sandbox-asset-"))
    for rel in FILES:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO_ROOT / rel, target)
    return root


class SandboxFunction(Construct):
    """The sandbox function, its log group, role and security group; ``allow_invoke`` wires the caller."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        network: Network,
        key: kms.IKey,
    ) -> None:
        super().__init__(scope, construct_id)
        function_name = f"{config.prefix}-sandbox"
        self.log_group = log_group(self, "Logs", config=config, key=key, name=f"/aws/lambda/{function_name}")
        self.role = function_role(
            self,
            "Role",
            log_group=self.log_group,
            description="MemoryLayer sandbox function: its own logs and its ENIs, nothing else",
            star_reason="VPC ENI management (ec2:CreateNetworkInterface and the Describe calls) supports no "
            "resource-level permissions; Lambda needs it to attach the sandbox to its network-less subnet.",
        )
        # No rules at all: CDK's placeholder egress rule (allow_all_outbound=False) matches no traffic.
        self.security_group = ec2.SecurityGroup(
            self,
            "NoNetwork",
            vpc=network.vpc,
            description="MemoryLayer sandbox: no ingress, no egress",
            allow_all_outbound=False,
            allow_all_ipv6_outbound=False,
        )
        self.function = lambda_.Function(
            self,
            "Function",
            function_name=function_name,
            description=f"MemoryLayer {config.stage}: context environment sandbox (caller code)",
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            handler="functions/sandbox/handler.handler",
            code=lambda_.Code.from_asset(str(stage_asset())),
            timeout=TIMEOUT,
            memory_size=MEMORY_MB,
            reserved_concurrent_executions=config.reserved_concurrency["context"],
            vpc=network.vpc,
            vpc_subnets=ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED),
            security_groups=[self.security_group],
            role=self.role,
            log_group=self.log_group,
            tracing=lambda_.Tracing.DISABLED,  # X-Ray would need a network path and a permission
            environment_encryption=key,
            # A retry would run caller code twice; the caller (the context function) decides.
            retry_attempts=0,
        )
        acknowledge(
            self.function,
            "AwsSolutions-L1",
            "Pinned to python3.12 like the other functions (infra/functions.py).",
        )

    def allow_invoke(self, caller: lambda_.Function) -> None:
        """Only this function's role may invoke the sandbox, and it is told the sandbox's name."""
        # The unqualified function only (grant_invoke would add ``<arn>:*``, every version and alias).
        caller.add_to_role_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[self.function.function_arn])
        )
        caller.add_environment("MEMORYLAYER_CONTEXT_EXECUTOR", "lambda")
        caller.add_environment("MEMORYLAYER_CONTEXT_SANDBOX_FUNCTION", self.function.function_name)
        caller.add_environment("MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS", str(EXEC_SECONDS))

    def add_alarms(self, topic: sns.ITopic) -> None:
        """Errors (the handler itself failed) and throttles (more executions than the reservation)."""
        for name, metric in (
            ("Errors", self.function.metric_errors(period=Duration.minutes(5), statistic=cw.Stats.SUM)),
            ("Throttles", self.function.metric_throttles(period=Duration.minutes(5), statistic=cw.Stats.SUM)),
        ):
            alarm = metric.create_alarm(
                self,
                f"Sandbox{name}",
                alarm_description=f"The sandbox function reported {name.lower()}",
                threshold=0,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            alarm.add_alarm_action(cw_actions.SnsAction(topic))
            alarm.add_ok_action(cw_actions.SnsAction(topic))
