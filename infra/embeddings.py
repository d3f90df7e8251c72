"""``-c embeddings=gpu`` only: the ``functions/embed`` container as a SageMaker inference component that scales
to zero copies, and so zero instances, when idle.

Why inference components and not an asynchronous endpoint: the code's ``SageMakerEmbedder`` calls
``InvokeEndpoint`` synchronously (recall waits for the query vector); an asynchronous endpoint takes its input
from S3 through ``InvokeEndpointAsync`` and answers later, which recall cannot use. Inference components keep the
synchronous API and are the only real-time hosting that scales to 0 instances (``MinInstanceCount`` 0 in the
endpoint config's managed instance scaling, a scalable target with minimum 0 copies).

First call after idle (AWS docs, "Scale an endpoint to zero instances"; not measured, we have no account): an
endpoint at 0 instances answers every invocation with an error until a step-scaling policy, triggered by the
``NoCapacityInvocationFailures`` alarm, has provisioned an instance and placed a copy, which "takes several
minutes". The embedder's retries (seconds) do not bridge that, so the first requests after idle fail with a 503.
Use ``embeddings=local`` (default) when that is not acceptable.
"""

from __future__ import annotations

from aws_cdk import Aws, Duration, IgnoreMode
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
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
# The build context is the repo root so the image can COPY shared/providers/embeddings (and its vendored tokenizer);
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
    """Model + endpoint (managed instance scaling from 0) + inference component, scaled on invocations per
    copy, and scaled out from zero by a step policy on ``NoCapacityInvocationFailures``."""

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey) -> None:
        super().__init__(scope, construct_id)
        self.endpoint_name = f"{config.prefix}-embed"
        self.inference_component_name = f"{config.prefix}-embed-minilm"
        self.endpoint_arn = (
            f"arn:{Aws.PARTITION}:sagemaker:{Aws.REGION}:{Aws.ACCOUNT_ID}:endpoint/{self.endpoint_name}"
        )
        self.inference_component_arn = (
            f"arn:{Aws.PARTITION}:sagemaker:{Aws.REGION}:{Aws.ACCOUNT_ID}:inference-component/"
            f"{self.inference_component_name}"
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
            # Endpoints that host inference components name the role in the config, not in a variant model.
            execution_role_arn=role.role_arn,
            production_variants=[
                sagemaker.CfnEndpointConfig.ProductionVariantProperty(
                    variant_name=VARIANT,
                    instance_type=config.embed_instance_type,
                    # The endpoint must be InService once before it may scale in to zero instances.
                    initial_instance_count=1,
                    managed_instance_scaling=sagemaker.CfnEndpointConfig.ManagedInstanceScalingProperty(
                        status="ENABLED", min_instance_count=0, max_instance_count=config.embed_max_instances
                    ),
                    routing_config=sagemaker.CfnEndpointConfig.RoutingConfigProperty(
                        routing_strategy="LEAST_OUTSTANDING_REQUESTS"
                    ),
                )
            ],
            kms_key_id=key.key_arn if kms_supported else None,
        )
        endpoint_config.node.add_dependency(role)
        if kms_supported:
            key.grant_encrypt_decrypt(role)
        self.endpoint = sagemaker.CfnEndpoint(
            self,
            "Endpoint",
            endpoint_name=self.endpoint_name,
            endpoint_config_name=endpoint_config.attr_endpoint_config_name,
        )
        self.inference_component = sagemaker.CfnInferenceComponent(
            self,
            "InferenceComponent",
            inference_component_name=self.inference_component_name,
            endpoint_name=self.endpoint.attr_endpoint_name,
            variant_name=VARIANT,
            specification=sagemaker.CfnInferenceComponent.InferenceComponentSpecificationProperty(
                model_name=model.attr_model_name,
                compute_resource_requirements=sagemaker.CfnInferenceComponent.InferenceComponentComputeResourceRequirementsProperty(
                    number_of_accelerator_devices_required=1, min_memory_required_in_mb=2048
                ),
            ),
            # One copy at creation (CloudFormation waits for it); auto scaling takes it to 0 when idle.
            runtime_config=sagemaker.CfnInferenceComponent.InferenceComponentRuntimeConfigProperty(
                copy_count=1
            ),
        )

        # No RoleARN: Application Auto Scaling then uses its SageMaker service-linked role and creates it if the
        # account has none yet (a fresh account has none, and naming it by ARN fails "Unable to assume IAM
        # role"). CDK would otherwise make a role of its own that the service ignores, so pass the SLR's name
        # and delete the property from the template.
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
            resource_id=f"inference-component/{self.inference_component_name}",
            scalable_dimension="sagemaker:inference-component:DesiredCopyCount",
            min_capacity=0,
            max_capacity=config.embed_max_instances,
            role=scaling_role,
        )
        cfn_target = scaling.node.default_child
        assert isinstance(cfn_target, appscaling.CfnScalableTarget)
        cfn_target.add_property_deletion_override("RoleARN")
        scaling.node.add_dependency(self.inference_component)
        scaling.scale_to_track_metric(
            "InvocationsPerCopy",
            predefined_metric=appscaling.PredefinedMetric.SAGEMAKER_INFERENCE_COMPONENT_INVOCATIONS_PER_COPY,
            target_value=config.embed_invocations_per_instance,
            # GPU instances take minutes to come up; scale in slowly so a burst does not thrash them.
            scale_out_cooldown=Duration.minutes(2),
            scale_in_cooldown=Duration.minutes(15),
        )
        # Target tracking never scales out from 0 copies (no invocations reach a copy); requests that found no
        # capacity do, through this alarm and step policy (AWS docs: "Scale an endpoint to zero instances").
        from_zero = appscaling.StepScalingAction(
            self,
            "ScaleOutFromZero",
            scaling_target=scaling,
            adjustment_type=appscaling.AdjustmentType.CHANGE_IN_CAPACITY,
            cooldown=Duration.minutes(1),
        )
        from_zero.add_adjustment(adjustment=1, lower_bound=0)
        self.no_capacity_metric = cw.Metric(
            namespace="AWS/SageMaker",
            metric_name="NoCapacityInvocationFailures",
            dimensions_map={"InferenceComponentName": self.inference_component_name},
            period=Duration.minutes(1),
            statistic=cw.Stats.MAXIMUM,
        )
        no_capacity = self.no_capacity_metric.create_alarm(
            self,
            "NoCapacity",
            alarm_description="Embedding requests found 0 copies: scale the inference component out from zero",
            threshold=1,
            evaluation_periods=1,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        no_capacity.add_alarm_action(cw_actions.ApplicationScalingAction(from_zero))

    def grant_invoke(self, grantee: iam.IGrantable) -> None:
        """Allow ``sagemaker:InvokeEndpoint`` on this endpoint and its one inference component only."""
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["sagemaker:InvokeEndpoint"],
            resource_arns=[self.endpoint_arn, self.inference_component_arn],
        )
