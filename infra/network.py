"""A dual-stack VPC: the functions leave over IPv6 through a free egress-only internet gateway.

- public subnets: only where a NAT gateway lives, and a NAT exists only when a provider outside AWS is configured
  (``-c embeddings=openai|google`` or ``-c llm=openai|google``): those APIs are reached over IPv4.
- egress subnets (the Lambdas): ``::/0`` to the egress-only internet gateway, so Secrets Manager and SQS are
  reached on their dual-stack public endpoints (the functions run with ``AWS_USE_DUALSTACK_ENDPOINT=true``);
  ``0.0.0.0/0`` to the NAT only when there is one.
- isolated subnets: the database (and the proxy).

No interface endpoints by default (each costs about $7.30 per AZ per month); the SageMaker runtime endpoint only
with ``-c embeddings=gpu`` (the embedder then pins the IPv4 runtime URL, which the endpoint's private DNS serves).

Traces need no route from here: the functions send their spans over UDP on loopback to the X-Ray agent Lambda runs
beside them, which uploads them itself (shared/providers/tracing.py). X-Ray's OTLP endpoint, ``xray.<region>.amazonaws.com``,
has no dual-stack name (AWS's endpoint list gives the IPv4 and FIPS names only), so the egress subnets cannot reach
it without a NAT; ``-c trace_export=otlp`` adds an xray interface endpoint, whose private DNS answers for that name
with addresses inside the VPC.
"""

from __future__ import annotations

from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_kms as kms
from constructs import Construct

from infra.config import StageConfig
from infra.logs import log_group


class Network(Construct):
    """Two AZs (Aurora needs two); IPv6 egress for AWS APIs, NAT only for outside providers."""

    def __init__(self, scope: Construct, construct_id: str, *, config: StageConfig, key: kms.IKey) -> None:
        super().__init__(scope, construct_id)
        nat_gateways = config.nat_gateways if config.needs_nat else 0
        self.nat_gateways = nat_gateways
        subnets = [
            ec2.SubnetConfiguration(name="public", subnet_type=ec2.SubnetType.PUBLIC, cidr_mask=24),
            ec2.SubnetConfiguration(
                name="egress", subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS, cidr_mask=22
            ),
            ec2.SubnetConfiguration(
                name="isolated", subnet_type=ec2.SubnetType.PRIVATE_ISOLATED, cidr_mask=24
            ),
        ]
        self.vpc = ec2.Vpc(
            self,
            "Vpc",
            max_azs=2,
            ip_protocol=ec2.IpProtocol.DUAL_STACK,
            nat_gateways=nat_gateways,
            subnet_configuration=subnets,
            # Not restricting the default SG would leave an allow-all-within-SG rule on anything that uses it.
            restrict_default_security_group=True,
        )
        flow_logs = log_group(self, "FlowLogs", config=config, key=key)
        self.vpc.add_flow_log(
            "FlowLog",
            destination=ec2.FlowLogDestination.to_cloud_watch_logs(flow_logs),
            # Rejected traffic is what an investigation needs; ALL would multiply the log volume and cost.
            traffic_type=ec2.FlowLogTrafficType.REJECT,
        )

        self.lambda_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS)
        self.database_subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED)

        # Gateway endpoint (free): S3 traffic stays inside the VPC.
        self.vpc.add_gateway_endpoint("S3", service=ec2.GatewayVpcEndpointAwsService.S3)
        # The API and worker functions: outbound anywhere (AWS APIs over IPv6, providers via the NAT), inbound
        # nothing. The migrate function gets its own group so only it reaches the writer in prod.
        self.lambda_security_group = ec2.SecurityGroup(
            self,
            "LambdaSg",
            vpc=self.vpc,
            description="MemoryLayer API and worker functions",
            allow_all_ipv6_outbound=True,
        )
        self.migrate_security_group = ec2.SecurityGroup(
            self,
            "MigrateSg",
            vpc=self.vpc,
            description="MemoryLayer migrate function",
            allow_all_ipv6_outbound=True,
        )
        egress = self.vpc.select_subnets(subnet_type=ec2.SubnetType.PRIVATE_WITH_EGRESS).subnets
        self.sagemaker_endpoint: ec2.InterfaceVpcEndpoint | None = None
        if config.embeddings == "gpu":
            endpoint_sg = ec2.SecurityGroup(
                self,
                "EndpointSg",
                vpc=self.vpc,
                description="SageMaker runtime interface endpoint",
                allow_all_outbound=False,
            )
            endpoint_sg.add_ingress_rule(
                self.lambda_security_group, ec2.Port.HTTPS, "HTTPS from the Lambda functions"
            )
            self.sagemaker_endpoint = self.vpc.add_interface_endpoint(
                "SageMakerRuntime",
                service=ec2.InterfaceVpcEndpointAwsService.SAGEMAKER_RUNTIME,
                subnets=ec2.SubnetSelection(subnets=egress[: config.endpoint_azs]),
                security_groups=[endpoint_sg],
                private_dns_enabled=True,
                # Not "open" to the whole VPC CIDR: only the groups allowed on endpoint_sg get in.
                open=False,
            )
        self.xray_endpoint: ec2.InterfaceVpcEndpoint | None = None
        if config.trace_export == "otlp":
            traces_sg = ec2.SecurityGroup(
                self,
                "XRayEndpointSg",
                vpc=self.vpc,
                description="X-Ray interface endpoint (OTLP traces)",
                allow_all_outbound=False,
            )
            # Every function exports its spans, migrate included.
            for source, name in (
                (self.lambda_security_group, "API and worker functions"),
                (self.migrate_security_group, "migrate function"),
            ):
                traces_sg.add_ingress_rule(source, ec2.Port.HTTPS, f"HTTPS from the {name}")
            self.xray_endpoint = self.vpc.add_interface_endpoint(
                "XRay",
                service=ec2.InterfaceVpcEndpointAwsService.XRAY,
                subnets=ec2.SubnetSelection(subnets=egress[: config.endpoint_azs]),
                security_groups=[traces_sg],
                private_dns_enabled=True,
                open=False,
            )
