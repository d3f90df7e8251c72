"""The six Lambda functions: Python 3.12 on arm64, in the VPC's egress subnets, each with its own role."""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import AssetHashType, Aws, Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as event_sources
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.bundle import LAMBDA_PACKAGES, BuiltAsset
from infra.config import StageConfig
from infra.database import Database
from infra.embeddings import EmbeddingEndpoint
from infra.nag import acknowledge
from infra.network import Network
from infra.queue import ExtractionQueue

RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64


@dataclass(frozen=True)
class FunctionSpec:
    """What a function is for, how long it may run, and which grants it needs beyond the database."""

    description: str
    timeout: Duration
    memory_mb: int
    sends_jobs: bool = False
    embeds: bool = False
    # SnapStart restores a snapshot taken after the import instead of importing on every cold start: worth its
    # cache and restore charges where a person waits for the answer, not for the queue and schedule workers.
    snap_start: bool = False


# HTTP API integrations time out at 30 s, so API-facing functions stop at 29 s and answer with an error first.
SPECS: dict[str, FunctionSpec] = {
    "memory": FunctionSpec(
        "Memories, workspaces, threads, jobs, admin, health", Duration.seconds(29), 1024, True, True, True
    ),
    "sessions": FunctionSpec(
        "Sessions: working memory, checkpoints, commit", Duration.seconds(29), 1024, True, True, True
    ),
    "context": FunctionSpec(
        "Session context packs and deltas", Duration.seconds(29), 1024, embeds=True, snap_start=True
    ),
    # LLM extraction of a batch of up to 10 jobs.
    "extraction": FunctionSpec("Extraction worker (SQS)", Duration.minutes(3), 1024, embeds=True),
    # Migrations may build HNSW indexes; the custom resource waits for the synchronous invoke.
    "migrate": FunctionSpec("Schema migrations (custom resource)", Duration.minutes(10), 512),
    # Expiring a session commits its working memory, which enqueues an extraction job.
    "cleanup": FunctionSpec(
        "Expire idle sessions (every 5 minutes)", Duration.minutes(2), 512, embeds=True, sends_jobs=True
    ),
}
assert set(SPECS) == set(LAMBDA_PACKAGES)


class Functions(Construct):
    """Builds every function from its bundled asset and grants it exactly what its spec says."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        assets: dict[str, BuiltAsset],
        network: Network,
        database: Database,
        queue: ExtractionQueue,
        embeddings: EmbeddingEndpoint,
        key: kms.IKey,
    ) -> None:
        super().__init__(scope, construct_id)
        common_env = {
            "MEMORYLAYER_STAGE": config.stage,
            "MEMORYLAYER_AWS_REGION": Aws.REGION,
            "MEMORYLAYER_AUTH_MODE": "api_key",
            # shared/db/secret.py builds the DSN: user/password from the secret, host = the proxy (TLS).
            "MEMORYLAYER_DATABASE_SECRET_ARN": database.secret.secret_arn,
            "MEMORYLAYER_DATABASE_HOST": database.proxy.endpoint,
            "MEMORYLAYER_DATABASE_NAME": database.database_name,
            # One request at a time per container: two connections cover a request plus a background flush.
            "MEMORYLAYER_DB_POOL_MIN": "1",
            "MEMORYLAYER_DB_POOL_MAX": "2",
            "MEMORYLAYER_EXTRACTION_QUEUE_URL": queue.queue.queue_url,
            "MEMORYLAYER_EMBEDDING_PROVIDER": "sagemaker",
            "MEMORYLAYER_SAGEMAKER_ENDPOINT_NAME": embeddings.endpoint_name,
            "POWERTOOLS_METRICS_NAMESPACE": "MemoryLayer",
            "POWERTOOLS_LOG_LEVEL": "DEBUG" if config.stage == "dev" else "INFO",
            # Events and responses carry user memories; keep them out of logs and traces.
            "POWERTOOLS_LOGGER_LOG_EVENT": "false",
            "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
            # No pydantic plugins are installed; without this, pydantic scans every package's entry points
            # at the first model it builds, during the cold start.
            "PYDANTIC_DISABLE_PLUGINS": "__all__",
        }
        self.functions: dict[str, lambda_.Function] = {}
        # What invokes each function: the "live" alias of its published version with SnapStart, else itself.
        self.entry_points: dict[str, lambda_.IFunction] = {}
        for name, spec in SPECS.items():
            function_name = f"{config.prefix}-{name}"
            log_group = logs.LogGroup(
                self,
                f"{name.title()}Logs",
                log_group_name=f"/aws/lambda/{function_name}",
                retention=config.log_retention,
                encryption_key=key,
                removal_policy=config.removal_policy,
            )
            role = self._role(name, log_group)
            asset = assets[name]
            fn = lambda_.Function(
                self,
                name.title(),
                function_name=function_name,
                description=f"MemoryLayer {config.stage}: {spec.description}",
                runtime=RUNTIME,
                architecture=ARCHITECTURE,
                handler=f"functions/{LAMBDA_PACKAGES[name]}/handler.handler",
                # The bundle computed a content hash already; fingerprinting ~80 MB per function is slow.
                code=lambda_.Code.from_asset(
                    str(asset.path), asset_hash=asset.asset_hash, asset_hash_type=AssetHashType.CUSTOM
                ),
                timeout=spec.timeout,
                memory_size=spec.memory_mb,
                reserved_concurrent_executions=config.reserved_concurrency[name],
                vpc=network.vpc,
                vpc_subnets=network.lambda_subnets,
                security_groups=[network.lambda_security_group],
                role=role,
                log_group=log_group,
                tracing=lambda_.Tracing.ACTIVE,
                environment={**common_env, "POWERTOOLS_SERVICE_NAME": f"memorylayer-{name}"},
                environment_encryption=key,
                snap_start=lambda_.SnapStartConf.ON_PUBLISHED_VERSIONS if spec.snap_start else None,
                # Each published version keeps a cached snapshot, charged by the GB-second: drop superseded ones.
                current_version_options=lambda_.VersionOptions(removal_policy=RemovalPolicy.DESTROY),
            )
            self.entry_points[name] = (
                lambda_.Alias(self, f"{name.title()}Live", alias_name="live", version=fn.current_version)
                if spec.snap_start
                else fn
            )
            database.secret.grant_read(fn)
            if spec.sends_jobs:
                self._grant_send(role, queue, key)
            if spec.embeds:
                embeddings.grant_invoke(fn)
            self.functions[name] = fn

        extraction = self.functions["extraction"]
        extraction.add_event_source(
            event_sources.SqsEventSource(
                queue.queue,
                batch_size=config.extraction_batch_size,
                # The worker reports failed message ids; only those are retried (and, after 3, dead-lettered).
                report_batch_item_failures=True,
                # Poll no faster than the function's reserved concurrency, or the poller's extra batches are
                # throttled and burn receive counts.
                max_concurrency=max(2, config.reserved_concurrency["extraction"]),
            )
        )

        acknowledge(
            self,
            "AwsSolutions-L1",
            "Pinned to python3.12: the dependencies are bundled as cp312 manylinux wheels and the code must "
            "stay importable on the 3.11 dev/CI interpreter; moving runtimes is a deliberate, tested change.",
        )

    @staticmethod
    def _grant_send(role: iam.IRole, queue: ExtractionQueue, key: kms.IKey) -> None:
        """Send to the extraction queue: ``grant_send_messages`` would add kms:ReEncrypt*/GenerateDataKey*,
        but an SSE-KMS producer needs only GenerateDataKey and Decrypt."""
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"],
                resources=[queue.queue.queue_arn],
            )
        )
        role.add_to_principal_policy(
            iam.PolicyStatement(actions=["kms:GenerateDataKey", "kms:Decrypt"], resources=[key.key_arn])
        )

    def _role(self, name: str, log_group: logs.ILogGroup) -> iam.Role:
        """A role with scoped log writes, instead of the managed policies that allow logs:* everywhere."""
        role = iam.Role(
            self,
            f"{name.title()}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"MemoryLayer {name} function",
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                resources=[log_group.log_group_arn],
            )
        )
        # Lambda creates and removes the function's ENIs with the function's role; EC2 offers no resource
        # scoping for the Describe calls, so these are on "*".
        role.add_to_policy(
            iam.PolicyStatement(
                actions=[
                    "ec2:CreateNetworkInterface",
                    "ec2:DescribeNetworkInterfaces",
                    "ec2:DescribeSubnets",
                    "ec2:DeleteNetworkInterface",
                    "ec2:AssignPrivateIpAddresses",
                    "ec2:UnassignPrivateIpAddresses",
                ],
                resources=["*"],
            )
        )
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "VPC ENI management (ec2:CreateNetworkInterface and the Describe calls) and X-Ray "
            "PutTraceSegments/PutTelemetryRecords support no resource-level permissions.",
        )
        return role
