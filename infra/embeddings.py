"""The GPU embedding endpoint: the ``functions/embed`` container on a SageMaker real-time endpoint."""

from __future__ import annotations

from aws_cdk import Aws, Duration, IgnoreMode
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_ecr_assets as ecr_assets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sagemaker as sagemaker
from constructs import Construct

from infra.bundle import REPO_ROOT
from infra.config import StageConfig
from infra.nag import acknowledge

VARIANT = "AllTraffic"
DOCKERFILE = "functions/embed/Dockerfile"
# The build context is the repo root so the image can COPY shared/embeddings (and its vendored tokenizer);
# everything else stays out of the context (docker-ignore syntax: later lines win).
BUILD_CONTEXT_EXCLUDES = [
    "*",
    "!pyproject.toml",
    "!shared",
    "!functions",
    "functions/*",
    "!functions/__init__.py",
    "!functions/embed",
    "**/__pycache__",
    "**/*.pyc",
    "**/tests",
]
# Families whose volumes are local NVMe instance store: SageMaker rejects a KMS key for them, and AWS encrypts
# that storage with hardware keys instead.
INSTANCE_STORE_FAMILIES = frozenset(
    {
        "g4dn",
        "g5",
        "g6",
        "g6e",
        "gr6",
        "p3dn",
        "p4d",
        "p4de",
        "p5",
        "p5e",
        "c5d",
        "m5d",
        "r5d",
        "c6gd",
        "m6gd",
        "r6gd",
        "trn1",
    }
)


def volume_kms_supported(instance_type: str) -> bool:
    """Whether SageMaker accepts a KMS key for the ML storage volume of ``instance_type``.

    >>> volume_kms_supported("ml.g5.xlarge"), volume_kms_supported("ml.inf2.xlarge")
    (False, True)
    """
    family = instance_type.split(".")[1]
    return family not in INSTANCE_STORE_FAMILIES


class EmbeddingEndpoint(Construct):
    """Model + endpoint config + endpoint, scaled on invocations per instance."""

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey) -> None:
        super().__init__(scope, construct_id)
        self.endpoint_name = f"{config.prefix}-embed"
        self.endpoint_arn = (
            f"arn:{Aws.PARTITION}:sagemaker:{Aws.REGION}:{Aws.ACCOUNT_ID}:endpoint/{self.endpoint_name}"
        )
        image = ecr_assets.DockerImageAsset(
            self,
            "Image",
            directory=str(REPO_ROOT),
            file=DOCKERFILE,
            # GPU hosting instances are x86_64.
            platform=ecr_assets.Platform.LINUX_AMD64,
            exclude=BUILD_CONTEXT_EXCLUDES,
            ignore_mode=IgnoreMode.DOCKER,
        )

        role = iam.Role(
            self,
            "ExecutionRole",
            assumed_by=iam.ServicePrincipal("sagemaker.amazonaws.com"),
            description="SageMaker embedding endpoint: pull its image, write its logs",
        )
        image.repository.grant_pull(role)
        log_group_arn = (
            f"arn:{Aws.PARTITION}:logs:{Aws.REGION}:{Aws.ACCOUNT_ID}:log-group:/aws/sagemaker/Endpoints/"
            f"{self.endpoint_name}"
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=[
                    "logs:CreateLogGroup",
                    "logs:CreateLogStream",
                    "logs:PutLogEvents",
                    "logs:DescribeLogStreams",
                ],
                resources=[log_group_arn, f"{log_group_arn}:*"],
            )
        )
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "ecr:GetAuthorizationToken has no resource-level permissions; the image pull itself is scoped to "
            "the one asset repository.",
        )
        acknowledge(
            role,
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:"
            f"/aws/sagemaker/Endpoints/{self.endpoint_name}:*]",
            "Log streams are created per instance with generated names; the wildcard is confined to this "
            "endpoint's own log group.",
        )

        model = sagemaker.CfnModel(
            self,
            "Model",
            execution_role_arn=role.role_arn,
            primary_container=sagemaker.CfnModel.ContainerDefinitionProperty(
                image=image.image_uri,
                # The image defaults to the sentence-transformers backend; pin the GPU explicitly.
                environment={"EMBED_DEVICE": "cuda"},
            ),
            # The image bakes its model (HF_HUB_OFFLINE=1), so the container needs no network at all.
            enable_network_isolation=True,
        )
        # The model validates the image pull with the role, so its policy must exist first.
        model.node.add_dependency(role)

        kms_supported = volume_kms_supported(config.embed_instance_type)
        endpoint_config = sagemaker.CfnEndpointConfig(
            self,
            "EndpointConfig",
            production_variants=[
                sagemaker.CfnEndpointConfig.ProductionVariantProperty(
                    variant_name=VARIANT,
                    model_name=model.attr_model_name,
                    instance_type=config.embed_instance_type,
                    initial_instance_count=config.embed_min_instances,
                    initial_variant_weight=1.0,
                )
            ],
            kms_key_id=key.key_arn if kms_supported else None,
        )
        if kms_supported:
            key.grant_encrypt_decrypt(role)
        self.endpoint = sagemaker.CfnEndpoint(
            self,
            "Endpoint",
            endpoint_name=self.endpoint_name,
            endpoint_config_name=endpoint_config.attr_endpoint_config_name,
        )

        # Application Auto Scaling uses its SageMaker service-linked role whatever role is passed, so pass
        # that one rather than let CDK create an unused role.
        scaling_role = iam.Role.from_role_arn(
            self,
            "ScalingRole",
            f"arn:{Aws.PARTITION}:iam::{Aws.ACCOUNT_ID}:role/aws-service-role/"
            "sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint",
        )
        scaling = appscaling.ScalableTarget(
            self,
            "Scaling",
            service_namespace=appscaling.ServiceNamespace.SAGEMAKER,
            resource_id=f"endpoint/{self.endpoint.attr_endpoint_name}/variant/{VARIANT}",
            scalable_dimension="sagemaker:variant:DesiredInstanceCount",
            min_capacity=config.embed_min_instances,
            max_capacity=config.embed_max_instances,
            role=scaling_role,
        )
        scaling.node.add_dependency(self.endpoint)
        scaling.scale_to_track_metric(
            "InvocationsPerInstance",
            predefined_metric=appscaling.PredefinedMetric.SAGEMAKER_VARIANT_INVOCATIONS_PER_INSTANCE,
            target_value=config.embed_invocations_per_instance,
            # GPU instances take minutes to come up; scale in slowly so a burst does not thrash them.
            scale_out_cooldown=Duration.minutes(2),
            scale_in_cooldown=Duration.minutes(15),
        )

    def grant_invoke(self, grantee: iam.IGrantable) -> None:
        """Allow ``sagemaker:InvokeEndpoint`` on this endpoint only."""
        iam.Grant.add_to_principal(
            grantee=grantee, actions=["sagemaker:InvokeEndpoint"], resource_arns=[self.endpoint_arn]
        )
