"""VPC: public subnets for the NAT, egress subnets for Lambdas, isolated subnets for the database."""

from __future__ import annotations

from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_kms as kms
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.config import StageConfig


class Network(Construct):
    """Two AZs (Aurora needs two), NAT for LLM provider calls, endpoints for the AWS APIs we call."""

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey) -> None:
        super().__init__(scope, construct_id)
        self.vpc = ec2.Vpc(
            self,
            "Vpc",
            max_azs=2,
            nat_gateways=config.nat_gateways,
            subnet_configuration=[
                ec2.SubnetConfiguration(name="public", subnet_type=ec2.SubnetType.PUBLIC, cidr_mask=24),
                ec2.SubnetConfiguration(
                    name="egress", subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS, cidr_mask=22
                ),
                ec2.SubnetConfiguration(
                    name="isolated", subnet_type=ec2.SubnetType.PRIVATE_ISOLATED, cidr_mask=24
                ),
            ],
            # Not restricting the default SG would leave an allow-all-within-SG rule on anything that uses it.
            restrict_default_security_group=True,
        )
        flow_logs = logs.LogGroup(
            self,
            "FlowLogs",
            retention=config.log_retention,
            encryption_key=key,
            removal_policy=config.removal_policy,
        )
        self.vpc.add_flow_log(
            "FlowLog",
            destination=ec2.FlowLogDestination.to_cloud_watch_logs(flow_logs),
            # Rejected traffic is what an investigation needs; ALL would multiply the log volume and cost.
            traffic_type=ec2.FlowLogTrafficType.REJECT,
        )

        self.lambda_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)
        self.database_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED)

        # Gateway endpoint (free): S3 traffic, e.g. SageMaker/ECR layer pulls, stays off the NAT.
        self.vpc.add_gateway_endpoint("S3", service=ec2.GatewayVpcEndpointAwsService.S3)
        # Interface endpoints keep secret reads, queue sends and embedding calls off the NAT and the internet.
        egress = self.vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS).subnets
        endpoint_subnets = ec2.SubnetSelection(subnets=egress[: config.endpoint_azs])
        # Lambdas carry this group: outbound anywhere (LLM providers via the NAT), inbound nothing.
        self.lambda_security_group = ec2.SecurityGroup(
            self, "LambdaSg", vpc=self.vpc, description="MemoryLayer Lambda functions"
        )
        self.endpoint_security_group = ec2.SecurityGroup(
            self, "EndpointSg", vpc=self.vpc, description="VPC interface endpoints", allow_all_outbound=False
        )
        self.endpoint_security_group.add_ingress_rule(
            self.lambda_security_group, ec2.Port.HTTPS, "HTTPS from the Lambda functions"
        )
        for name, service in (
            ("SecretsManager", ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER),
            ("Sqs", ec2.InterfaceVpcEndpointAwsService.SQS),
            ("SageMakerRuntime", ec2.InterfaceVpcEndpointAwsService.SAGEMAKER_RUNTIME),
        ):
            self.vpc.add_interface_endpoint(
                name,
                service=service,
                subnets=endpoint_subnets,
                security_groups=[self.endpoint_security_group],
                private_dns_enabled=True,
                # Not "open" to the whole VPC CIDR: only the groups allowed on endpoint_security_group get in.
                open=False,
            )
