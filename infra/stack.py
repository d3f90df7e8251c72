"""The one stack: every construct composed, wired and tagged."""

from __future__ import annotations

from typing import Any

from aws_cdk import Annotations, CfnOutput, CfnResource, Stack, TagManager, Tags
from constructs import Construct

from infra.api import Api
from infra.bundle import BuiltAsset
from infra.config import PROJECT, StageConfig
from infra.database import Database
from infra.documents import DocumentStore
from infra.embeddings import EmbeddingEndpoint
from infra.encryption import Encryption
from infra.functions import SPECS, Functions
from infra.migrations import Migrations
from infra.network import Network
from infra.observability import Observability
from infra.queue import ExtractionQueue
from infra.sandbox import SandboxFunction
from infra.schedule import CleanupSchedule
from infra.secrets import AppSecrets

UNTAGGED_RESOURCE_TYPES = ("AWS::RDS::DBProxyTargetGroup",)


class MemoryLayerStack(Stack):
    """MemoryLayer for one stage: ``MemoryLayer-dev`` or ``MemoryLayer-prod``."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        assets: dict[str, BuiltAsset],
        **kwargs: Any,
    ) -> None:
        super().__init__(
            scope, construct_id, description=f"MemoryLayer serverless ({config.stage})", **kwargs
        )
        config.check_deployable()
        self.config = config
        fallbacks = config.fallbacks()
        if fallbacks:  # infra/regions.py: what the stage would use but the region lacks, and what replaces it
            Annotations.of(self).add_warning_v2(
                "memorylayer:region-fallback",
                f"{config.region} lacks {', '.join(fallbacks)}: deployed without (plain versions instead of "
                "SnapStart, direct IAM-authenticated connections instead of RDS Proxy, no tenancy config on the "
                "sandbox function); infra/README.md, Regions",
            )
        key = Encryption(self, "Encryption", config=config).key
        network = Network(self, "Network", config=config, key=key)
        self.network = network
        self.database = Database(self, "Database", config=config, network=network, key=key)
        self.queue = ExtractionQueue(
            self, "ExtractionQueue", config=config, key=key, consumer_timeout=SPECS["extraction"].timeout
        )
        self.documents = DocumentStore(
            self, "Documents", config=config, key=key, consumer_timeout=SPECS["documents"].timeout
        )
        self.secrets = AppSecrets(self, "Secrets", config=config, key=key)
        self.embeddings = (
            EmbeddingEndpoint(self, "Embeddings", config=config, key=key)
            if config.embeddings == "gpu"
            else None
        )
        functions = Functions(
            self,
            "Functions",
            config=config,
            assets=assets,
            network=network,
            database=self.database,
            queue=self.queue,
            documents=self.documents,
            embeddings=self.embeddings,
            secrets=self.secrets,
            key=key,
        )
        self.functions = functions.functions
        # With SnapStart (prod) the API invokes the functions' "live" alias (a published version).
        self.api = Api(self, "Api", config=config, functions=dict(functions.entry_points), key=key)
        self.migrations = Migrations(
            self,
            "Migrations",
            config=config,
            function=self.functions["migrate"],
            database=self.database,
            key=key,
        )
        # Migrations before code: the functions, their versions and live aliases, the SQS event source mapping
        # and the schedule all wait for the migrations resource.
        functions.run_after(self.migrations.resource)
        schedule = CleanupSchedule(self, "CleanupSchedule", config=config, function=self.functions["cleanup"])
        schedule.rule.node.add_dependency(self.migrations.resource)
        observability = Observability(
            self,
            "Observability",
            config=config,
            key=key,
            api=self.api.http_api,
            functions=dict(self.functions),
            queue=self.queue,
            documents=self.documents,
            cluster=self.database.cluster,
            proxy=self.database.proxy,
            embeddings=self.embeddings,
        )

        # Caller code of the context environment runs only in the sandbox function (a WASI guest, no VPC).
        sandbox = SandboxFunction(
            self,
            "Sandbox",
            config=config,
            key=key,
            reserved_concurrency=config.reserved_concurrency.get("sandbox"),
        )
        sandbox.allow_invoke(self.functions["environment"])
        sandbox.add_alarms(observability.topic)
        self.documents.add_alarms(observability.topic)
        # Last, once every construct has made its alarms: each one's description links to the dashboard.
        observability.link_alarms(self)

        CfnOutput(self, "ApiUrl", value=self.api.url, description="Base URL of the HTTP API")
        CfnOutput(
            self,
            "AdminKeySecretArn",
            value=self.secrets.admin_key.secret_arn,
            description="aws secretsmanager get-secret-value --secret-id <this> --query SecretString",
        )
        CfnOutput(self, "DatabaseWriterEndpoint", value=self.database.writer_host)
        if self.database.proxy is not None:
            CfnOutput(self, "DatabaseProxyEndpoint", value=self.database.proxy.endpoint)
        CfnOutput(
            self,
            "DatabaseOwnerSecretArn",
            value=self.database.owner_secret_arn,
            description="RDS-managed master user secret (migrations / break-glass only)",
        )
        CfnOutput(self, "ExtractionQueueUrl", value=self.queue.queue.queue_url)
        CfnOutput(self, "ExtractionDlqUrl", value=self.queue.dead_letter_queue.queue_url)
        CfnOutput(self, "DocumentBucketName", value=self.documents.bucket.bucket_name)
        CfnOutput(self, "DocumentDlqUrl", value=self.documents.dead_letter_queue.queue_url)
        if self.embeddings is not None:
            CfnOutput(self, "EmbeddingEndpointName", value=self.embeddings.endpoint_name)
        CfnOutput(self, "AlarmTopicArn", value=observability.topic.topic_arn)
        CfnOutput(
            self,
            "DashboardUrl",
            value=observability.dashboard_url,
            description="The stage's CloudWatch dashboard (every alarm's description links to it)",
        )

        # Tags propagate to every taggable resource (and the stack itself) for cost allocation.
        # DBProxyTargetGroup is skipped: it is a setting of the proxy (tagged itself), not a billed resource,
        # and CloudFormation's published schema for it has no Tags property.
        tags = {"Project": PROJECT, "Stage": config.stage}
        for tag, value in tags.items():
            Tags.of(self).add(tag, value, exclude_resource_types=list(UNTAGGED_RESOURCE_TYPES))
        self._tag_untaggable_providers(tags)

    def _tag_untaggable_providers(self, tags: dict[str, str]) -> None:
        """aws-cdk-lib's own custom-resource providers (e.g. the one that locks the VPC's default security
        group) are raw CfnResources that ``Tags.of`` cannot reach; tag their role and function directly."""
        for construct in self.node.find_all():
            if (
                isinstance(construct, CfnResource)
                and construct.cfn_resource_type in ("AWS::Lambda::Function", "AWS::IAM::Role")
                and not TagManager.is_taggable(construct)
            ):
                construct.add_property_override("Tags", [{"Key": k, "Value": v} for k, v in tags.items()])
