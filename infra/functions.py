"""The eight Lambda functions: Python 3.12 on arm64, in the VPC's egress subnets, each with its own role."""

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
from infra.database import APP_USER, Database
from infra.documents import DocumentStore
from infra.embeddings import EmbeddingEndpoint
from infra.logs import log_group
from infra.nag import acknowledge
from infra.network import Network
from infra.queue import ExtractionQueue
from infra.secrets import AppSecrets

RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64


def vector_build_memory_mb(max_acu: float) -> int:
    """maintenance_work_mem for a bulk vector graph build: a quarter of the writer's memory at its maximum
    capacity (Aurora Serverless v2 has 2 GiB per ACU), at most 4 GiB.

    >>> vector_build_memory_mb(4.0), vector_build_memory_mb(16.0)
    (2048, 4096)
    """
    return min(4096, int(max_acu * 2048 / 4))


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
    # /v1/context/*: its calls wait on the sandbox function for seconds anyway, so a cold start weighs less
    # than SnapStart's snapshot cache, billed all month; /load recalls, so it embeds.
    "environment": FunctionSpec(
        "Context environment (caller code runs in the sandbox function)",
        Duration.seconds(29),
        1024,
        embeds=True,
    ),
    # LLM extraction of a batch of up to 10 jobs.
    "extraction": FunctionSpec("Extraction worker (SQS)", Duration.minutes(3), 1024, embeds=True),
    # Migrations may build HNSW indexes; the custom resource waits for the synchronous invoke.
    # Lambda's maximum: a bulk vector graph build (shared/db/vector_index.py) runs here too.
    "migrate": FunctionSpec("Schema migrations (custom resource)", Duration.minutes(15), 512),
    # Expiring a session commits its working memory, which enqueues an extraction job.
    "cleanup": FunctionSpec(
        "Expire idle sessions (on a schedule)", Duration.minutes(2), 512, embeds=True, sends_jobs=True
    ),
    # One document a record (parse, chunk, embed every chunk, write): a 500-page PDF must fit one attempt.
    "documents": FunctionSpec(
        "Document pipeline (bucket events on SQS)", Duration.minutes(5), 2048, embeds=True
    ),
}
assert set(SPECS) == set(LAMBDA_PACKAGES)


# Environment variables beyond MEMORYLAYER_* (Settings fields), POWERTOOLS_*, PYDANTIC_* and OTEL_* (TRACE_ENV
# below): the AWS SDK's own switch that makes boto3 use the services' dual-stack endpoints, which the functions
# reach over IPv6 through the egress-only internet gateway (there is no NAT by default). tests/infra checks
# nothing else slips in.
SDK_ENV = {"AWS_USE_DUALSTACK_ENDPOINT": "true"}
# OpenTelemetry's own variables (shared/providers/tracing.py): no span is recorded unless Lambda sampled the invocation (the
# X-Ray sampling rules of active tracing stay the one sampling decision). OTEL_SERVICE_NAME is set per function.
TRACE_ENV = {"OTEL_TRACES_SAMPLER": "parentbased_always_off"}
# X-Ray's OTLP endpoint, with -c trace_export=otlp (without it spans go to Lambda's X-Ray agent on loopback).
XRAY_OTLP_ENDPOINT = f"https://xray.{Aws.REGION}.{Aws.URL_SUFFIX}/v1/traces"
# What the OTLP endpoint authorizes a span upload with (and its indexing for Transaction Search); neither takes
# a resource. The agent uploads with xray:PutTraceSegments, which active tracing grants.
XRAY_OTLP_ACTIONS = ("xray:PutSpans", "xray:PutSpansForIndexing")


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
        documents: DocumentStore,
        embeddings: EmbeddingEndpoint | None,
        secrets: AppSecrets,
        key: kms.IKey,
    ) -> None:
        super().__init__(scope, construct_id)
        common_env = {
            **SDK_ENV,
            "MEMORYLAYER_AWS_REGION": Aws.REGION,
            "MEMORYLAYER_DATABASE_PORT": str(database.port),
            "MEMORYLAYER_DATABASE_NAME": database.database_name,
            "MEMORYLAYER_EXTRACTION_QUEUE_URL": queue.queue.queue_url,
            "MEMORYLAYER_EMBEDDING_PROVIDER": config.embedding_provider,
            **TRACE_ENV,
            "POWERTOOLS_METRICS_NAMESPACE": "MemoryLayer",
            "POWERTOOLS_LOG_LEVEL": "DEBUG" if config.stage == "dev" else "INFO",
            # Events carry user memories; keep them out of the logs (traces never record bodies).
            "POWERTOOLS_LOGGER_LOG_EVENT": "false",
            # No pydantic plugins are installed; without this, pydantic scans every package's entry points
            # at the first model it builds, during the cold start.
            "PYDANTIC_DISABLE_PLUGINS": "__all__",
        }
        if config.llm != "none":
            common_env["MEMORYLAYER_LLM_PROVIDER"] = config.llm
        if config.trace_export == "otlp":
            common_env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = XRAY_OTLP_ENDPOINT
        if embeddings is not None:
            common_env["MEMORYLAYER_SAGEMAKER_ENDPOINT_NAME"] = embeddings.endpoint_name
            common_env["MEMORYLAYER_SAGEMAKER_INFERENCE_COMPONENT_NAME"] = embeddings.inference_component_name
            # AWS_USE_DUALSTACK_ENDPOINT would send boto3 to runtime.sagemaker.<region>.api.aws; the interface
            # endpoint's private DNS answers for the IPv4 name, so pin it.
            common_env["MEMORYLAYER_SAGEMAKER_RUNTIME_ENDPOINT_URL"] = (
                f"https://runtime.sagemaker.{Aws.REGION}.{Aws.URL_SUFFIX}"
            )
        # API and worker functions log in as the app role; migrate as the owner, on the writer.
        app_env = {
            # IAM auth end to end (infra/database.py): a token per new connection, TLS verify-full.
            "MEMORYLAYER_DATABASE_AUTH": "iam",
            "MEMORYLAYER_DATABASE_HOST": database.app_host,
            "MEMORYLAYER_DATABASE_USER": APP_USER,
            # One request at a time per container: two connections cover a request plus a background flush.
            "MEMORYLAYER_DB_POOL_MIN": "1",
            "MEMORYLAYER_DB_POOL_MAX": "2",
        }
        # The memory function serves /v1/documents (shared/api/route_map.py): uploads land in the bucket, a
        # reprocess is a message on the document queue; the documents function consumes that queue.
        document_env = {
            "MEMORYLAYER_DOCUMENT_BUCKET": documents.bucket.bucket_name,
            "MEMORYLAYER_DOCUMENT_QUEUE_URL": documents.queue.queue_url,
        }
        function_env: dict[str, dict[str, str]] = {
            "memory": {
                **app_env,
                **document_env,
                "MEMORYLAYER_AUTH_MODE": "api_key",
                "MEMORYLAYER_ADMIN_KEY_SECRET_ARN": secrets.admin_key.secret_arn,
                "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN": secrets.context_cursor.secret_arn,
            },
            "sessions": {
                **app_env,
                "MEMORYLAYER_AUTH_MODE": "api_key",
                "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN": secrets.context_cursor.secret_arn,
            },
            "context": {
                **app_env,
                "MEMORYLAYER_AUTH_MODE": "api_key",
                "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN": secrets.context_cursor.secret_arn,
            },
            # api_key mode refuses to start without the cursor secret, in every API function.
            "environment": {
                **app_env,
                "MEMORYLAYER_AUTH_MODE": "api_key",
                "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN": secrets.context_cursor.secret_arn,
            },
            # The worker asks migrate (the owner) to build the vector graph in bulk (shared/db/vector_index.py).
            "extraction": {**app_env, "MEMORYLAYER_VECTOR_REBUILD_FUNCTION": f"{config.prefix}-migrate"},
            "cleanup": app_env,
            "documents": {**app_env, **document_env},
            "migrate": {
                "MEMORYLAYER_DATABASE_HOST": database.writer_host,
                "MEMORYLAYER_DATABASE_OWNER_SECRET_ARN": database.owner_secret_arn,
                "MEMORYLAYER_VECTOR_BUILD_MEMORY_MB": str(vector_build_memory_mb(config.db_max_acu)),
            },
        }
        self.functions: dict[str, lambda_.Function] = {}
        # What invokes each function: the "live" alias of its published version with SnapStart, else itself.
        self.entry_points: dict[str, lambda_.IFunction] = {}
        self.aliases: dict[str, lambda_.Alias] = {}
        for name, spec in SPECS.items():
            function_name = f"{config.prefix}-{name}"
            # Named by CloudFormation (the function's LoggingConfig points at it): kept in prod, it never collides
            # with a retained group of an earlier stack.
            function_logs = log_group(self, f"{name.title()}Logs", config=config, key=key)
            role = function_role(
                self,
                f"{name.title()}Role",
                log_group=function_logs,
                description=f"MemoryLayer {name} function",
                # Tracing is active on these functions; CDK adds the X-Ray statement on "*".
                star_reason="VPC ENI management (ec2:CreateNetworkInterface and the Describe calls) and X-Ray "
                "PutTraceSegments/PutTelemetryRecords (and PutSpans/PutSpansForIndexing with OTLP export) "
                "support no resource-level permissions.",
            )
            asset = assets[name]
            snap_start = spec.snap_start and config.snap_start
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
                # None unless asked for (infra/config.py): a reservation the account cannot grant fails the deploy.
                reserved_concurrent_executions=config.reserved_concurrency.get(name),
                vpc=network.vpc,
                vpc_subnets=network.lambda_subnets,
                security_groups=[
                    network.migrate_security_group if name == "migrate" else network.lambda_security_group
                ],
                # The egress subnets reach AWS APIs over IPv6 only (egress-only internet gateway).
                ipv6_allowed_for_dual_stack=True,
                role=role,
                log_group=function_logs,
                # Active tracing: Lambda applies the X-Ray sampling rules, records its own segments, hands each
                # invocation its trace header and runs the X-Ray agent the spans go to (shared/providers/tracing.py).
                tracing=lambda_.Tracing.ACTIVE,
                environment={
                    **common_env,
                    **function_env[name],
                    "POWERTOOLS_SERVICE_NAME": f"memorylayer-{name}",
                    "OTEL_SERVICE_NAME": f"memorylayer-{name}",
                },
                environment_encryption=key,
                snap_start=lambda_.SnapStartConf.ON_PUBLISHED_VERSIONS if snap_start else None,
                # Each published version keeps a cached snapshot, charged by the GB-second: drop superseded ones.
                current_version_options=lambda_.VersionOptions(removal_policy=RemovalPolicy.DESTROY),
            )
            if snap_start:
                alias = lambda_.Alias(
                    self, f"{name.title()}Live", alias_name="live", version=fn.current_version
                )
                self.aliases[name] = alias
                self.entry_points[name] = alias
            else:
                # Without SnapStart (dev) a version would only add a deploy step: the API invokes the function.
                self.entry_points[name] = fn
            if name == "migrate":
                database.grant_owner_secret_read(fn)
            else:
                database.grant_app_connect(fn)
            if "MEMORYLAYER_ADMIN_KEY_SECRET_ARN" in function_env[name]:
                secrets.admin_key.grant_read(fn)
            if "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN" in function_env[name]:
                secrets.context_cursor.grant_read(fn)
            if spec.sends_jobs:
                self._grant_send(role, queue, key)
            if spec.embeds and embeddings is not None:
                embeddings.grant_invoke(fn)
            if config.trace_export == "otlp":
                role.add_to_principal_policy(
                    iam.PolicyStatement(actions=list(XRAY_OTLP_ACTIONS), resources=["*"])
                )
            self.functions[name] = fn

        # An asked-for rebuild that fails (a timeout, say) is not retried by Lambda: the worker asks again while
        # the pending set is large, and two retries of a 15-minute build would only hold the writer's CPU.
        self.functions["migrate"].configure_async_invoke(retry_attempts=0)
        extraction = self.functions["extraction"]
        # Only the function itself (the unqualified ARN): migrate has no alias or version anyone else invokes.
        extraction.add_to_role_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"], resources=[self.functions["migrate"].function_arn]
            )
        )
        self.event_source = event_sources.SqsEventSource(
            queue.queue,
            batch_size=config.extraction_batch_size,
            # The worker reports failed message ids; only those are retried (and, after 3, dead-lettered).
            report_batch_item_failures=True,
            # Poll no faster than the worker may run (its reservation, when it has one), or the poller's extra
            # batches are throttled and burn receive counts; the cap also bounds its share of the database.
            max_concurrency=poller_cap(config, "extraction"),
        )
        extraction.add_event_source(self.event_source)

        documents.grant_api(self.functions["memory"], key)
        documents.grant_worker(self.functions["documents"], key)
        # One document a batch: a slow PDF never holds other documents past their visibility timeout, and a
        # failure retries only its own record.
        self.document_source = event_sources.SqsEventSource(
            documents.queue,
            batch_size=1,
            report_batch_item_failures=True,
            max_concurrency=poller_cap(config, "documents"),
        )
        self.functions["documents"].add_event_source(self.document_source)

        acknowledge(
            self,
            "AwsSolutions-L1",
            "Pinned to python3.12: the dependencies are bundled as cp312 manylinux wheels and the code must "
            "stay importable on the 3.11 dev/CI interpreter; moving runtimes is a deliberate, tested change.",
        )

    def run_after(self, migrations: Construct) -> None:
        """Code waits for its schema: every function but migrate (and so its versions, the live aliases, the
        SQS event source mapping and the API permissions under it) depends on the migrations resource."""
        for name, fn in self.functions.items():
            if name != "migrate":
                fn.node.add_dependency(migrations)
        for alias in self.aliases.values():
            alias.node.add_dependency(migrations)

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


def poller_cap(config: StageConfig, name: str) -> int:
    """An SQS event source's MaximumConcurrency for the worker ``name``: the stage's cap, or the worker's
    reservation when it has a smaller one (Lambda's floor is 2)."""
    return max(2, min(config.extraction_max_concurrency, config.reserved_concurrency.get(name, 1000)))


def function_role(
    scope: Construct,
    construct_id: str,
    *,
    log_group: logs.ILogGroup,
    description: str,
    star_reason: str | None,
    in_vpc: bool = True,
) -> iam.Role:
    """A Lambda role: scoped log writes (instead of the managed policies that allow logs:* everywhere) and, for a
    function in the VPC, the ENI management Lambda does with the function's role. ``star_reason`` acknowledges
    the "*" resources (None: the role has none, which only a function outside the VPC can say).

    >>> role = function_role(self, "Role", log_group=logs, description="...", star_reason="...")  # doctest: +SKIP
    """
    if in_vpc and star_reason is None:
        raise ValueError("a role in the VPC holds ENI permissions on '*': say why (star_reason)")
    role = iam.Role(
        scope, construct_id, assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"), description=description
    )
    role.add_to_policy(
        iam.PolicyStatement(
            actions=["logs:CreateLogStream", "logs:PutLogEvents"],
            resources=[log_group.log_group_arn],
        )
    )
    if not in_vpc:
        return role
    assert star_reason is not None
    # EC2 offers no resource scoping for the Describe calls, so these are on "*".
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
    acknowledge(role, "AwsSolutions-IAM5[Resource::*]", star_reason)
    return role
