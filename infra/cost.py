"""What the stack costs when nobody calls it, read from the synthesized CloudFormation template alone.

    python -m infra.cost                      # dev and prod, synthesized in-process (code-only bundles)
    python -m infra.cost --stage prod -c embeddings=gpu --json
    python -m infra.cost --template cdk.out/MemoryLayer-dev.template.json

Every price lives in ``PRICES`` (us-east-1 list prices, read on ``PRICES_AS_OF``); every assumption that is
not a price lives in ``ASSUMPTIONS``. Billable resource types this module does not know are reported as
"unpriced", never silently dropped.

>>> estimate({"Resources": {"Nat": {"Type": "AWS::EC2::NatGateway", "Properties": {}}}}).total
32.85
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HOURS_PER_MONTH = 730
REPO_ROOT = Path(__file__).resolve().parent.parent
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600

# us-east-1 on-demand list prices in USD, first pricing tier, no free tier, as published on the AWS pricing pages
# (aws.amazon.com/<service>/pricing). Entered on PRICES_AS_OF from the team's knowledge of those pages: the session
# had no access to them. Re-read them there before relying on a figure, and change the date with them.
PRICES_AS_OF = "2026-12-01"
# The region those prices are of, so the stack is synthesized there (it refuses to synthesize for none).
PRICES_REGION = "us-east-1"
PRICES: dict[str, float] = {
    "nat_gateway_hour": 0.045,  # per NAT gateway-hour (its $0.045/GB data processing is usage)
    "public_ipv4_hour": 0.005,  # per public IPv4 address-hour (an Elastic IP, attached or not)
    "interface_endpoint_az_hour": 0.01,  # per interface VPC endpoint per AZ-hour (data is usage)
    "rds_proxy_acu_hour": 0.015,  # per ACU-hour of an Aurora Serverless v2 target, minimum 8 ACU billed
    "aurora_acu_hour": 0.12,  # per ACU-hour, Aurora Serverless v2, Aurora Standard storage type
    "aurora_iopt_acu_hour": 0.156,  # per ACU-hour, Aurora I/O-Optimized (StorageType aurora-iopt1)
    "aurora_storage_gb_month": 0.10,  # per GB-month, Aurora Standard (I/O $0.20 per million is usage)
    "aurora_iopt_storage_gb_month": 0.225,  # per GB-month, Aurora I/O-Optimized
    "sagemaker_hour:ml.g4dn.xlarge": 0.736,  # per instance-hour, real-time inference hosting
    "sagemaker_hour:ml.g4dn.2xlarge": 1.052,  # per instance-hour, real-time inference hosting
    "sagemaker_hour:ml.g5.xlarge": 1.408,  # per instance-hour, real-time inference hosting
    "sagemaker_hour:ml.g5.2xlarge": 1.515,  # per instance-hour, real-time inference hosting
    "snapstart_cache_gb_second": 0.0000015046,  # per GB-second of a cached snapshot (function memory size)
    "snapstart_restore_gb": 0.0001397998,  # per GB restored (usage: only when an environment starts)
    "kms_key_month": 1.00,  # per customer managed key-month (each automatic rotation adds $1 for two years)
    "secret_month": 0.40,  # per Secrets Manager secret-month (API calls $0.05 per 10,000 are usage)
    "alarm_metric_month": 0.10,  # per standard-resolution alarm metric-month (metric math: per metric)
    "alarm_high_res_metric_month": 0.30,  # per high-resolution (period < 60 s) alarm metric-month
    "composite_alarm_month": 0.50,  # per composite alarm-month
    "dashboard_month": 3.00,  # per dashboard-month
    "custom_metric_month": 0.30,  # per custom metric-month (first 10,000), prorated by the hours it is published
    "lambda_provisioned_gb_second:arm64": 0.0000033334,  # per GB-second of provisioned concurrency, arm64
    "lambda_provisioned_gb_second:x86_64": 0.0000041667,  # per GB-second of provisioned concurrency, x86_64
    "lambda_request": 0.20 / 1e6,  # per Lambda request
    "lambda_gb_second:arm64": 0.0000133334,  # per GB-second of Lambda duration, arm64
    "lambda_gb_second:x86_64": 0.0000166667,  # per GB-second of Lambda duration, x86_64
    "http_api_request": 1.00 / 1e6,  # per API Gateway HTTP API request (512 KB metering units)
    "sqs_request": 0.40 / 1e6,  # per SQS standard-queue request (an empty receive counts as one)
    "s3_put_request": 0.005 / 1000,  # per S3 Standard PUT, COPY, POST or LIST request
    "s3_get_request": 0.0004 / 1000,  # per S3 Standard GET or SELECT request
    "logs_ingest_gb": 0.50,  # per GB ingested into CloudWatch Logs (usage)
}

# What the template cannot tell; each one is printed beside the line it shapes.
ASSUMPTIONS: dict[str, float] = {
    # An empty Aurora cluster still stores its catalog, the extension objects and the WAL; billed per GB-month.
    "aurora_min_storage_gb": 1.0,
    # A resumed 0-ACU instance runs at least at the smallest non-zero capacity.
    "aurora_awake_acu": 0.5,
    # Aurora's default SecondsUntilAutoPause (RDS API reference) when the template does not set it.
    "aurora_default_pause_s": 300,
    # A scheduled run's own work (a few statements), and the wait when it finds Aurora paused (~15 s resume).
    "scheduled_run_s": 1.0,
    "aurora_resume_s": 15.0,
    # Lambda's SQS event source polls with 5 long-polling receives (20 s wait each) while the queue is empty.
    "sqs_idle_pollers": 5,
    "sqs_long_poll_s": 20,
    # RDS Proxy bills a Serverless v2 target as if it had at least this many ACU.
    "rds_proxy_min_acu": 8,
    # AWS's recommended minimum capacity with Performance Insights on (Aurora User Guide, "Performance and scaling
    # for Aurora Serverless v2", choosing the minimum capacity): a floor below it is priced at it.
    "aurora_min_acu_with_performance_insights": 2.0,
    # Powertools' ColdStart metric, counted as published in every hour a scheduled run publishes its own (an
    # upper bound: a warm container does not publish it).
    "cold_start_metrics_per_run": 1,
}

# Types that cost nothing while idle (billed per use, or not billed at all). Anything neither here nor in
# PRICERS is reported as unpriced.
FREE_WHEN_IDLE = frozenset(
    {
        "AWS::ApiGatewayV2::Api",
        "AWS::ApiGatewayV2::ApiMapping",
        "AWS::ApiGatewayV2::Authorizer",
        "AWS::ApiGatewayV2::DomainName",
        "AWS::ApiGatewayV2::Integration",
        "AWS::ApiGatewayV2::Route",
        "AWS::ApiGatewayV2::Stage",
        "AWS::ApplicationAutoScaling::ScalableTarget",
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        "AWS::CDK::Metadata",
        "AWS::CertificateManager::Certificate",
        "AWS::CloudFormation::CustomResource",
        "AWS::EC2::EgressOnlyInternetGateway",
        "AWS::EC2::InternetGateway",
        "AWS::EC2::NetworkAcl",
        "AWS::EC2::NetworkAclEntry",
        "AWS::EC2::Route",
        "AWS::EC2::RouteTable",
        "AWS::EC2::SecurityGroup",
        "AWS::EC2::SecurityGroupEgress",
        "AWS::EC2::SecurityGroupIngress",
        "AWS::EC2::Subnet",
        "AWS::EC2::SubnetCidrBlock",
        "AWS::EC2::SubnetNetworkAclAssociation",
        "AWS::EC2::SubnetRouteTableAssociation",
        "AWS::EC2::VPC",
        "AWS::EC2::VPCCidrBlock",
        "AWS::EC2::VPCGatewayAttachment",
        "AWS::IAM::InstanceProfile",
        "AWS::IAM::ManagedPolicy",
        "AWS::IAM::Policy",
        "AWS::IAM::Role",
        "AWS::KMS::Alias",
        "AWS::Lambda::Alias",  # priced under Lambda when it has provisioned concurrency
        "AWS::Lambda::EventInvokeConfig",
        "AWS::Lambda::LayerVersion",
        "AWS::Lambda::LayerVersionPermission",
        "AWS::Lambda::Permission",
        "AWS::Lambda::Url",
        "AWS::Lambda::Version",  # priced under SnapStart when its function has it
        "AWS::Logs::MetricFilter",
        "AWS::Logs::ResourcePolicy",
        "AWS::Logs::SubscriptionFilter",
        "AWS::RDS::DBClusterParameterGroup",
        "AWS::RDS::DBParameterGroup",
        "AWS::RDS::DBProxyTargetGroup",
        "AWS::RDS::DBSubnetGroup",
        "AWS::S3::Bucket",
        "AWS::S3::BucketPolicy",
        "AWS::SNS::Subscription",
        "AWS::SNS::Topic",
        "AWS::SNS::TopicInlinePolicy",
        "AWS::SNS::TopicPolicy",
        "AWS::SQS::Queue",
        "AWS::SQS::QueueInlinePolicy",
        "AWS::SQS::QueuePolicy",
        "AWS::SSM::Parameter",
        "AWS::SageMaker::Endpoint",  # priced through its EndpointConfig
        "AWS::SageMaker::InferenceComponent",  # copies run on the endpoint's instances
        "AWS::SageMaker::Model",
        "AWS::SecretsManager::ResourcePolicy",
        "AWS::SecretsManager::RotationSchedule",
        "AWS::SecretsManager::SecretTargetAttachment",
    }
)


@dataclass(frozen=True)
class Line:
    """One thing that idles: what, how much of it, what it costs a month."""

    item: str
    quantity: str
    monthly_usd: float
    note: str = ""


@dataclass
class Estimate:
    """The idle cost of one template."""

    name: str
    lines: list[Line] = field(default_factory=list)
    unpriced: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(line.monthly_usd for line in self.lines), 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "prices_as_of": PRICES_AS_OF,
            "total_usd_month": self.total,
            "lines": [asdict(line) for line in self.lines],
            "unpriced": self.unpriced,
        }

    def table(self) -> str:
        rows = [f"| {x.item} | {x.quantity} | {x.monthly_usd:,.2f} | {x.note} |" for x in self.lines]
        rows.append(f"| **total** | | **{self.total:,.2f}** | us-east-1 list prices of {PRICES_AS_OF} |")
        rows += [f"| unpriced: {entry} | | ? | not in infra/cost.py PRICES |" for entry in self.unpriced]
        header = ["| item | quantity | USD/month | note |", "|---|---|---:|---|"]
        return "\n".join([*header, *rows])

    def to_markdown(self) -> str:
        return f"### {self.name}\n\n{self.table()}"

    def line(self, prefix: str) -> float:
        """The cost of the lines whose item starts with ``prefix``."""
        return round(sum(x.monthly_usd for x in self.lines if x.item.startswith(prefix)), 2)


# --- template helpers ----------------------------------------------------------------------------------------


class Template:
    """Read-only view of a CloudFormation template's resources."""

    def __init__(self, template: dict[str, Any]) -> None:
        self.resources: dict[str, dict[str, Any]] = template.get("Resources", {})

    def of_type(self, type_: str) -> dict[str, dict[str, Any]]:
        """Properties of every resource of ``type_``, by logical id."""
        return {k: v.get("Properties", {}) for k, v in self.resources.items() if v.get("Type") == type_}

    def type_of(self, logical_id: str) -> str:
        return self.resources.get(logical_id, {}).get("Type", "")


def refs(value: Any) -> set[str]:
    """Logical ids a value points at through ``Ref`` or ``Fn::GetAtt``.

    >>> sorted(refs({"Fn::Join": ["", [{"Ref": "A"}, {"Fn::GetAtt": ["B", "Arn"]}]]}))
    ['A', 'B']
    """
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("Ref"), str):
            found.add(value["Ref"])
        getatt = value.get("Fn::GetAtt")
        if isinstance(getatt, list) and getatt:
            found.add(str(getatt[0]))
        for inner in value.values():
            found |= refs(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= refs(inner)
    return found


def monthly(hourly_usd: float, quantity: float = 1) -> float:
    return round(hourly_usd * quantity * HOURS_PER_MONTH, 2)


# --- schedules ----------------------------------------------------------------------------------------------

_RATE = re.compile(r"rate\((\d+)\s+(minute|hour|day)s?\)")
_UNIT_S = {"minute": 60, "hour": 3600, "day": 86400}


def _cron_field_count(spec: str, lo: int, hi: int) -> int:
    """How many values of one cron field match (``*``, ``*/n``, ``a-b``, ``a,b``, ``n``)."""
    if spec in ("*", "?"):
        return hi - lo + 1
    total = 0
    for part in spec.split(","):
        base, _, step = part.partition("/")
        start, end = (lo, hi) if base == "*" else (int(base.split("-")[0]), int(base.split("-")[-1]))
        total += len(range(start, end + 1, int(step) if step else 1))
    return total


def runs_per_month(expression: str) -> float:
    """How often a ``rate(...)`` or ``cron(...)`` schedule fires in a 730-hour month.

    >>> runs_per_month("rate(6 hours)")
    121.66666666666667
    >>> runs_per_month("cron(0 */6 * * ? *)")
    121.66666666666667
    """
    if match := _RATE.fullmatch(expression.strip()):
        return SECONDS_PER_MONTH / (int(match.group(1)) * _UNIT_S[match.group(2)])
    if expression.startswith("cron(") and expression.endswith(")"):
        minute, hour, day_of_month, _month, day_of_week, *_ = expression[5:-1].split()
        per_day = _cron_field_count(minute, 0, 59) * _cron_field_count(hour, 0, 23)
        days = HOURS_PER_MONTH / 24
        if day_of_week not in ("*", "?"):
            days *= _cron_field_count(day_of_week.replace("MON-FRI", "2-6"), 1, 7) / 7
        elif day_of_month not in ("*", "?"):
            days = float(_cron_field_count(day_of_month, 1, 31))
        return per_day * days
    raise ValueError(f"unsupported schedule expression {expression!r}")


@dataclass(frozen=True)
class Schedule:
    """A schedule that invokes a Lambda function."""

    name: str
    expression: str
    function_id: str

    @property
    def runs(self) -> float:
        return runs_per_month(self.expression)

    @property
    def interval_s(self) -> float:
        return SECONDS_PER_MONTH / self.runs


def function_behind(t: Template, logical_id: str) -> str | None:
    """The Lambda function a target id names: the function itself, or the one behind an alias/version."""
    type_ = t.type_of(logical_id)
    if type_ == "AWS::Lambda::Function":
        return logical_id
    if type_ in ("AWS::Lambda::Alias", "AWS::Lambda::Version"):
        inner = refs(t.resources[logical_id]["Properties"].get("FunctionName"))
        return next((function_behind(t, i) for i in inner), None)
    return None


def schedules(t: Template) -> list[Schedule]:
    """Enabled EventBridge rules and Scheduler schedules that wake a Lambda function."""
    found: list[Schedule] = []
    for logical_id, props in t.of_type("AWS::Events::Rule").items():
        if "ScheduleExpression" not in props or props.get("State", "ENABLED") != "ENABLED":
            continue
        for target in props.get("Targets", []):
            for ref in refs(target.get("Arn")):
                if fn := function_behind(t, ref):
                    found.append(Schedule(props.get("Name", logical_id), props["ScheduleExpression"], fn))
    for logical_id, props in t.of_type("AWS::Scheduler::Schedule").items():
        if props.get("State", "ENABLED") != "ENABLED":
            continue
        for ref in refs(props.get("Target", {}).get("Arn")):
            if fn := function_behind(t, ref):
                found.append(Schedule(props.get("Name", logical_id), props["ScheduleExpression"], fn))
    return found


def touches_database(function: dict[str, Any]) -> bool:
    """Whether a function connects to the database: it is given database settings (``MEMORYLAYER_DATABASE_*``)."""
    variables = function.get("Environment", {}).get("Variables", {})
    return any(name.startswith("MEMORYLAYER_DATABASE_") for name in variables)


def lambda_gb_second_price(function: dict[str, Any]) -> float:
    arch = (function.get("Architectures") or ["x86_64"])[0]
    return PRICES[f"lambda_gb_second:{arch}"]


def memory_gb(function: dict[str, Any]) -> float:
    return float(function.get("MemorySize", 128)) / 1024


# --- pricers: one per billable type, each returns its lines ----------------------------------------------------


def price_nat(t: Template, est: Estimate) -> None:
    if n := len(t.of_type("AWS::EC2::NatGateway")):
        est.lines.append(
            Line(
                "NAT gateway",
                f"{n} × 730 h",
                monthly(PRICES["nat_gateway_hour"], n),
                "data processed is usage",
            )
        )


def price_eip(t: Template, est: Estimate) -> None:
    if n := len(t.of_type("AWS::EC2::EIP")):
        est.lines.append(
            Line("Elastic IP (public IPv4)", f"{n} × 730 h", monthly(PRICES["public_ipv4_hour"], n))
        )


def price_endpoints(t: Template, est: Estimate) -> None:
    interface = [
        p for p in t.of_type("AWS::EC2::VPCEndpoint").values() if p.get("VpcEndpointType") == "Interface"
    ]
    if not interface:
        return
    az_hours = sum(len(p.get("SubnetIds", [])) for p in interface)
    est.lines.append(
        Line(
            "interface VPC endpoints",
            f"{len(interface)} endpoints, {az_hours} endpoint-AZs × 730 h",
            monthly(PRICES["interface_endpoint_az_hour"], az_hours),
            "gateway endpoints (S3, DynamoDB) are free",
        )
    )


@dataclass(frozen=True)
class Cluster:
    """An Aurora cluster and its Serverless v2 instances."""

    logical_id: str
    props: dict[str, Any]
    serverless_instances: int
    provisioned_instances: list[str]
    performance_insights: bool = False

    @property
    def configured_min_acu(self) -> float:
        return float(self.props.get("ServerlessV2ScalingConfiguration", {}).get("MinCapacity", 0.5))

    @property
    def min_acu(self) -> float:
        """The floor that idles: the configured one, raised to AWS's minimum for the features in use."""
        if self.performance_insights:
            return max(self.configured_min_acu, ASSUMPTIONS["aurora_min_acu_with_performance_insights"])
        return self.configured_min_acu

    @property
    def pause_s(self) -> float:
        scaling = self.props.get("ServerlessV2ScalingConfiguration", {})
        return float(scaling.get("SecondsUntilAutoPause", ASSUMPTIONS["aurora_default_pause_s"]))

    @property
    def io_optimized(self) -> bool:
        return self.props.get("StorageType") == "aurora-iopt1"

    @property
    def acu_hour(self) -> float:
        return PRICES["aurora_iopt_acu_hour" if self.io_optimized else "aurora_acu_hour"]


def clusters(t: Template) -> list[Cluster]:
    instances = t.of_type("AWS::RDS::DBInstance")
    found = []
    for logical_id, props in t.of_type("AWS::RDS::DBCluster").items():
        mine = [p for p in instances.values() if logical_id in refs(p.get("DBClusterIdentifier"))]
        serverless = sum(1 for p in mine if p.get("DBInstanceClass") == "db.serverless")
        provisioned = [
            str(p.get("DBInstanceClass")) for p in mine if p.get("DBInstanceClass") != "db.serverless"
        ]
        insights = props.get("PerformanceInsightsEnabled") is True or any(
            p.get("EnablePerformanceInsights") is True for p in mine
        )
        found.append(Cluster(logical_id, props, serverless, provisioned, insights))
    return found


def proxied_clusters(t: Template) -> set[str]:
    """Clusters some RDS Proxy targets."""
    return {
        ref
        for props in t.of_type("AWS::RDS::DBProxyTargetGroup").values()
        for ref in refs(props.get("DBClusterIdentifiers"))
    }


def price_proxy(t: Template, est: Estimate) -> None:
    by_id = {c.logical_id: c for c in clusters(t)}
    targets = {
        ref: cid
        for props in t.of_type("AWS::RDS::DBProxyTargetGroup").values()
        for ref in refs(props.get("DBProxyName"))
        for cid in refs(props.get("DBClusterIdentifiers"))
    }
    for logical_id in t.of_type("AWS::RDS::DBProxy"):
        cluster = by_id.get(targets.get(logical_id, ""))
        capacity = cluster.min_acu * cluster.serverless_instances if cluster else 0.0
        # Billed on the target's capacity, never below the minimum: that minimum is what idles.
        acu = max(ASSUMPTIONS["rds_proxy_min_acu"], capacity)
        est.lines.append(
            Line(
                "RDS Proxy",
                f"{acu:g} ACU (minimum {ASSUMPTIONS['rds_proxy_min_acu']:g}) × 730 h",
                monthly(PRICES["rds_proxy_acu_hour"], acu),
                "Serverless v2 target: billed per ACU of the target, 8 ACU minimum",
            )
        )


def _awake_fraction(t: Template, cluster: Cluster) -> tuple[float, str]:
    """How much of the month a 0-ACU cluster is kept running although nobody calls the API, and why."""
    if cluster.logical_id in proxied_clusters(t):
        # RDS Proxy holds its own connections to the target, so the instance never sees an idle period.
        return 1.0, "RDS Proxy keeps connections open: never pauses"
    functions = t.of_type("AWS::Lambda::Function")
    awake_s, reasons = 0.0, []
    for schedule in schedules(t):
        if not touches_database(functions.get(schedule.function_id, {})):
            continue
        if schedule.interval_s <= cluster.pause_s:
            return (
                1.0,
                f"{schedule.name} runs every {schedule.interval_s / 60:g} min ≤ pause delay: never pauses",
            )
        # Each run resumes the writer, which then waits out the pause delay before pausing again.
        awake_s += schedule.runs * (cluster.pause_s + _run_seconds(t, schedule))
        reasons.append(f"{schedule.name} wakes it {schedule.runs:.0f}×/month for {cluster.pause_s:g} s")
    return min(1.0, awake_s / SECONDS_PER_MONTH), "; ".join(reasons)


def price_aurora(t: Template, est: Estimate) -> None:
    for cluster in clusters(t):
        for instance_class in cluster.provisioned_instances:
            est.unpriced.append(f"AWS::RDS::DBInstance {instance_class} (provisioned)")
        if int(cluster.props.get("PerformanceInsightsRetentionPeriod", 7)) > 7:
            est.unpriced.append("AWS::RDS::DBCluster Performance Insights retention beyond the free 7 days")
        n = cluster.serverless_instances
        if cluster.min_acu > 0:
            raised = cluster.min_acu > cluster.configured_min_acu
            est.lines.append(
                Line(
                    "Aurora Serverless v2 (minimum capacity)",
                    f"{n} instance(s) × {cluster.min_acu:g} ACU × 730 h",
                    monthly(cluster.acu_hour, n * cluster.min_acu),
                    f"MinCapacity {cluster.configured_min_acu:g}, priced at AWS's minimum with Performance "
                    "Insights on"
                    if raised
                    else "",
                )
            )
        else:
            fraction, why = _awake_fraction(t, cluster)
            acu = ASSUMPTIONS["aurora_awake_acu"]
            est.lines.append(
                Line(
                    "Aurora Serverless v2 (0 ACU, auto-pause)",
                    f"{n} instance(s) × {acu:g} ACU × {fraction * HOURS_PER_MONTH:.1f} h awake",
                    monthly(cluster.acu_hour, n * acu * fraction),
                    why or f"paused after {cluster.pause_s:g} s idle; nothing scheduled wakes it",
                )
            )
        gb = ASSUMPTIONS["aurora_min_storage_gb"]
        storage = PRICES[
            "aurora_iopt_storage_gb_month" if cluster.io_optimized else "aurora_storage_gb_month"
        ]
        est.lines.append(
            Line(
                "Aurora storage",
                f"{gb:g} GB (assumed minimum)",
                round(gb * storage, 2),
                "billed running or paused",
            )
        )


def _variant_idle_instances(t: Template, config_id: str, variant: dict[str, Any]) -> int:
    """Instances a production variant keeps when idle: its autoscaling floor if it has one."""
    if "ServerlessConfig" in variant:
        return 0
    managed = variant.get("ManagedInstanceScaling", {})
    if managed.get("Status") == "ENABLED" and "MinInstanceCount" in managed:
        return int(managed["MinInstanceCount"])
    endpoints = {k for k, p in t.of_type("AWS::SageMaker::Endpoint").items() if config_id in refs(p)}
    for target in t.of_type("AWS::ApplicationAutoScaling::ScalableTarget").values():
        resource_id = json.dumps(target.get("ResourceId"))
        if (
            target.get("ScalableDimension") == "sagemaker:variant:DesiredInstanceCount"
            and refs(target.get("ResourceId")) & endpoints
            and f"/variant/{variant.get('VariantName')}" in resource_id
        ):
            return int(target.get("MinCapacity", variant.get("InitialInstanceCount", 1)))
    return int(variant.get("InitialInstanceCount", 0))


def _variant_kind(config: dict[str, Any], variant: dict[str, Any]) -> str:
    if "ServerlessConfig" in variant:
        return "serverless inference"
    if "AsyncInferenceConfig" in config:
        return "asynchronous inference"
    if variant.get("ManagedInstanceScaling", {}).get("Status") == "ENABLED":
        return "real-time, inference components with managed instance scaling"
    return "real-time"


def price_sagemaker(t: Template, est: Estimate) -> None:
    for config_id, props in t.of_type("AWS::SageMaker::EndpointConfig").items():
        for variant in props.get("ProductionVariants", []):
            count = _variant_idle_instances(t, config_id, variant)
            instance_type = variant.get("InstanceType", "serverless")
            hourly = PRICES.get(f"sagemaker_hour:{instance_type}")
            if hourly is None and count:
                est.unpriced.append(f"AWS::SageMaker::EndpointConfig {count} × {instance_type}")
                continue
            est.lines.append(
                Line(
                    f"SageMaker endpoint ({instance_type})",
                    f"{count} instance(s) when idle × 730 h",
                    monthly(hourly or 0.0, count),
                    _variant_kind(props, variant),
                )
            )


def price_lambda(t: Template, est: Estimate) -> None:
    functions = t.of_type("AWS::Lambda::Function")
    versions = t.of_type("AWS::Lambda::Version")
    cached_gb, count = 0.0, 0
    for logical_id, props in functions.items():
        if props.get("SnapStart", {}).get("ApplyOn") != "PublishedVersions":
            continue
        active = sum(1 for v in versions.values() if logical_id in refs(v.get("FunctionName")))
        cached_gb += active * memory_gb(props)
        count += active
    est.lines.append(Line("Lambda functions", f"{len(functions)}", 0.0, "billed per request"))
    price_provisioned_concurrency(t, est)
    if count:
        est.lines.append(
            Line(
                "Lambda SnapStart snapshot cache",
                f"{count} version(s), {cached_gb:g} GB × 730 h",
                round(cached_gb * SECONDS_PER_MONTH * PRICES["snapstart_cache_gb_second"], 2),
                "per published version in the template, the whole month",
            )
        )


def _run_seconds(t: Template, schedule: Schedule) -> float:
    """A scheduled run's billed duration: its work, plus the resume wait if it finds a 0-ACU cluster paused."""
    fn = t.of_type("AWS::Lambda::Function").get(schedule.function_id, {})
    wakes = touches_database(fn) and any(
        c.min_acu == 0 and c.logical_id not in proxied_clusters(t) and schedule.interval_s > c.pause_s
        for c in clusters(t)
    )
    return ASSUMPTIONS["scheduled_run_s"] + (ASSUMPTIONS["aurora_resume_s"] if wakes else 0.0)


def price_provisioned_concurrency(t: Template, est: Estimate) -> None:
    """Aliases and versions with provisioned concurrency bill their environments around the clock."""
    functions = t.of_type("AWS::Lambda::Function")
    for type_ in ("AWS::Lambda::Alias", "AWS::Lambda::Version"):
        for logical_id, props in t.of_type(type_).items():
            config = props.get("ProvisionedConcurrencyConfig", {})
            fn = functions.get(function_behind(t, logical_id) or "", {})
            if not (n := int(config.get("ProvisionedConcurrentExecutions", 0))):
                continue
            arch = (fn.get("Architectures") or ["x86_64"])[0]
            gb = n * memory_gb(fn)
            est.lines.append(
                Line(
                    f"Lambda provisioned concurrency ({logical_id})",
                    f"{n} × {fn.get('MemorySize', 128)} MB × 730 h",
                    round(gb * SECONDS_PER_MONTH * PRICES[f"lambda_provisioned_gb_second:{arch}"], 2),
                )
            )


def published_metrics(function: dict[str, Any]) -> tuple[str, ...]:
    """The custom metrics a function's handler module publishes on every run: its ``PUBLISHED_METRICS`` tuple,
    read from the source (``Handler`` ``functions/cleanup/handler.handler`` → that file), not imported."""
    module, _, _ = str(function.get("Handler", "")).rpartition(".")
    path = REPO_ROOT / f"{module}.py"
    if not module or not path.is_file():
        return ()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "PUBLISHED_METRICS" for target in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    return ()


def price_schedules(t: Template, est: Estimate) -> None:
    functions = t.of_type("AWS::Lambda::Function")
    for schedule in schedules(t):
        fn = functions.get(schedule.function_id, {})
        seconds = _run_seconds(t, schedule)
        per_run = PRICES["lambda_request"] + seconds * memory_gb(fn) * lambda_gb_second_price(fn)
        est.lines.append(
            Line(
                f"schedule {schedule.name}",
                f"{schedule.expression}: {schedule.runs:,.0f} Lambda runs",
                round(schedule.runs * per_run, 2),
                f"{seconds:g} s at {fn.get('MemorySize', 128)} MB each (assumed)",
            )
        )
        if names := published_metrics(fn):
            n = len(names) + ASSUMPTIONS["cold_start_metrics_per_run"]
            # Billed per hour in which a metric is published: one hour per run, or every hour.
            hours = HOURS_PER_MONTH if schedule.interval_s < 3600 else min(HOURS_PER_MONTH, schedule.runs)
            est.lines.append(
                Line(
                    f"custom metrics of {schedule.name}",
                    f"{n:g} metrics × {hours:,.0f} h published",
                    round(n * PRICES["custom_metric_month"] * hours / HOURS_PER_MONTH, 2),
                    f"{len(names)} per run + ColdStart; prorated by the hour",
                )
            )


def price_event_sources(t: Template, est: Estimate) -> None:
    sqs = [
        p
        for p in t.of_type("AWS::Lambda::EventSourceMapping").values()
        if any(t.type_of(r) == "AWS::SQS::Queue" for r in refs(p.get("EventSourceArn")))
        or ":sqs:" in json.dumps(p.get("EventSourceArn"))
    ]
    if not sqs:
        return
    receives = len(sqs) * ASSUMPTIONS["sqs_idle_pollers"] * SECONDS_PER_MONTH / ASSUMPTIONS["sqs_long_poll_s"]
    est.lines.append(
        Line(
            "SQS event source mappings (idle polling)",
            f"{len(sqs)} mapping(s): {receives:,.0f} empty receives",
            round(receives * PRICES["sqs_request"], 2),
            f"{ASSUMPTIONS['sqs_idle_pollers']:g} pollers × {ASSUMPTIONS['sqs_long_poll_s']:g} s long polls; "
            "inside SQS's 1M free requests",
        )
    )


def price_count(
    type_: str, item: str, price_key: str, extra: Callable[[Template], int] | None = None
) -> Callable[[Template, Estimate], None]:
    """A pricer for types billed a flat monthly amount each."""

    def pricer(t: Template, est: Estimate) -> None:
        n = len(t.of_type(type_)) + (extra(t) if extra else 0)
        if n:
            est.lines.append(Line(item, f"{n}", round(n * PRICES[price_key], 2)))

    return pricer


def _managed_master_secrets(t: Template) -> int:
    """RDS-managed master user secrets: a Secrets Manager secret each, not in the template as a resource."""
    return sum(
        1 for p in t.of_type("AWS::RDS::DBCluster").values() if p.get("ManageMasterUserPassword") is True
    )


def _alarm_metric_cost(props: dict[str, Any]) -> float:
    """One alarm: per metric it evaluates (metric math: each MetricStat), more for high resolution."""
    metrics = props.get("Metrics")
    stats = [m["MetricStat"] for m in metrics if "MetricStat" in m] if metrics else [props]
    return sum(
        PRICES["alarm_high_res_metric_month" if int(s.get("Period", 60)) < 60 else "alarm_metric_month"]
        for s in stats
    )


def price_alarms(t: Template, est: Estimate) -> None:
    alarms = t.of_type("AWS::CloudWatch::Alarm")
    if alarms:
        cost = sum(_alarm_metric_cost(p) for p in alarms.values())
        est.lines.append(Line("CloudWatch alarms", f"{len(alarms)}", round(cost, 2), "per alarm metric"))
    if n := len(t.of_type("AWS::CloudWatch::CompositeAlarm")):
        est.lines.append(
            Line("CloudWatch composite alarms", f"{n}", round(n * PRICES["composite_alarm_month"], 2))
        )


def price_logs(t: Template, est: Estimate) -> None:
    if n := len(t.of_type("AWS::EC2::FlowLog")):
        est.lines.append(Line("VPC flow logs", f"{n}", 0.0, "per GB ingested; negligible with no traffic"))
    if n := len(t.of_type("AWS::Logs::LogGroup")):
        est.lines.append(Line("log groups", f"{n}", 0.0, "nothing written when idle"))


PRICERS: dict[str, Callable[[Template, Estimate], None]] = {
    "AWS::EC2::NatGateway": price_nat,
    "AWS::EC2::EIP": price_eip,
    "AWS::EC2::VPCEndpoint": price_endpoints,
    "AWS::RDS::DBProxy": price_proxy,
    "AWS::RDS::DBCluster": price_aurora,
    "AWS::SageMaker::EndpointConfig": price_sagemaker,
    "AWS::Lambda::Function": price_lambda,
    "AWS::Events::Rule": price_schedules,
    "AWS::Lambda::EventSourceMapping": price_event_sources,
    "AWS::KMS::Key": price_count("AWS::KMS::Key", "KMS customer managed keys", "kms_key_month"),
    "AWS::SecretsManager::Secret": price_count(
        "AWS::SecretsManager::Secret", "Secrets Manager secrets", "secret_month", _managed_master_secrets
    ),
    "AWS::CloudWatch::Alarm": price_alarms,
    "AWS::CloudWatch::Dashboard": price_count(
        "AWS::CloudWatch::Dashboard", "CloudWatch dashboards", "dashboard_month"
    ),
    "AWS::EC2::FlowLog": price_logs,
}
# Types handled by a pricer registered under another type (the pricer runs once).
_ALSO_PRICED = {
    "AWS::RDS::DBInstance": "AWS::RDS::DBCluster",
    "AWS::Scheduler::Schedule": "AWS::Events::Rule",
    "AWS::CloudWatch::CompositeAlarm": "AWS::CloudWatch::Alarm",
    "AWS::Logs::LogGroup": "AWS::EC2::FlowLog",
}


def estimate(template: dict[str, Any], name: str = "template") -> Estimate:
    """Price what ``template`` (a CloudFormation template as a dict) costs a month when idle."""
    t = Template(template)
    est = Estimate(name)
    present = {r.get("Type", "") for r in t.resources.values()}
    wanted = {_ALSO_PRICED.get(type_, type_) for type_ in present}
    for type_, pricer in PRICERS.items():
        if type_ in wanted:
            pricer(t, est)
    known = set(PRICERS) | set(_ALSO_PRICED) | FREE_WHEN_IDLE
    for type_ in sorted(present - known):
        if not type_.startswith("Custom::"):  # Lambda-backed custom resources cost only their invocations
            count = sum(1 for r in t.resources.values() if r.get("Type") == type_)
            est.unpriced.append(f"{type_} × {count}")
    return est


# --- synthesis and command line --------------------------------------------------------------------------------


def synthesize(stage: str, context: dict[str, str]) -> dict[str, Any]:
    """Synthesize ``MemoryLayer-<stage>`` in-process with code-only bundles; return its template."""
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    os.environ.setdefault("ML_CDK_SKIP_DEPS", "1")
    import tempfile

    from aws_cdk import App

    from infra.app import create_stack

    with tempfile.TemporaryDirectory(prefix="ml-cost-") as tmp:
        # prod refuses to synthesize without an alarm subscriber; it changes no price.
        defaults = {
            "bundle": "skip",
            "bundle_dir": f"{tmp}/bundle",
            "alarm_email": "cost@example.invalid",
            "region": PRICES_REGION,
        }
        app = App(context={**defaults, **context}, outdir=f"{tmp}/cdk.out")
        stack = create_stack(app, stage)
        return dict(app.synth().get_stack_by_name(stack.stack_name).template)


def parse_context(pairs: list[str]) -> dict[str, str]:
    """``["embeddings=gpu"]`` → ``{"embeddings": "gpu"}``."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"-c expects key=value, got {pair!r}")
        out[key] = value
    return out


def estimates(args: argparse.Namespace) -> Iterator[Estimate]:
    if args.template:
        for path in args.template:
            yield estimate(json.loads(Path(path).read_text()), Path(path).name)
        return
    context = parse_context(args.context)
    for stage in args.stage or ["dev", "prod"]:
        label = " ".join([stage, *(f"-c {p}" for p in args.context)])
        yield estimate(synthesize(stage, context), label)


# --- the figures in the docs -----------------------------------------------------------------------------------

# The cost figures of README.md and infra/README.md live between ``cost:*`` markers (infra/doc_blocks.py) and are
# written by ``python -m infra.cost --write``; tests/infra/test_cost.py fails when they differ from a fresh estimate.
# The variants the docs quote: name -> (stage, context).
DOC_VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "dev": ("dev", {}),
    "prod": ("prod", {}),
    "dev-gpu": ("dev", {"embeddings": "gpu"}),
    "prod-gpu": ("prod", {"embeddings": "gpu"}),
    "dev-openai": ("dev", {"embeddings": "openai"}),
    "prod-openai": ("prod", {"embeddings": "openai", "llm": "openai"}),
}


def usd(amount: float) -> str:
    return f"${amount:,.2f}"


def doc_blocks(estimates: dict[str, Estimate]) -> dict[str, str]:
    """The text of every ``cost:*`` block, from the estimates of ``DOC_VARIANTS``."""
    dev, prod = estimates["dev"], estimates["prod"]
    floor = prod.line("RDS Proxy") + prod.line("Aurora Serverless v2")
    gpu_endpoint = estimates["dev-gpu"].line("interface VPC endpoints")
    return {
        "cost:summary": f"dev {usd(dev.total)}/month, prod {usd(prod.total)}/month",
        "cost:dev": dev.table(),
        "cost:prod": prod.table(),
        "cost:floor": (
            f"Prod's floor is the RDS Proxy minimum ({usd(prod.line('RDS Proxy'))}) and its Aurora instances at "
            f"minimum capacity ({usd(prod.line('Aurora Serverless v2'))}): {100 * floor / prod.total:.0f} % of "
            f"its {usd(prod.total)}."
        ),
        "cost:variants": (
            f"Variants, totals only: dev with `-c embeddings=gpu` {usd(estimates['dev-gpu'].total)} (no GPU "
            f"instance idles; the SageMaker runtime interface endpoint is {usd(gpu_endpoint)}), prod with gpu "
            f"{usd(estimates['prod-gpu'].total)}; dev with `-c embeddings=openai` "
            f"{usd(estimates['dev-openai'].total)} and prod (also `-c llm=openai`) "
            f"{usd(estimates['prod-openai'].total)} (the NAT gateways and their public IPs). Only the default "
            "(`local`) variants are held to the targets."
        ),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m infra.cost", description=__doc__.split("\n")[0])
    parser.add_argument("--stage", action="append", choices=["dev", "prod"], help="default: both")
    parser.add_argument("-c", "--context", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--template", action="append", help="price this template JSON instead of synthesizing"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--write", action="store_true", help="rewrite the cost blocks of README.md and infra/README.md"
    )
    args = parser.parse_args(argv)
    if args.write:
        fresh = {
            name: estimate(synthesize(stage, context), name)
            for name, (stage, context) in DOC_VARIANTS.items()
        }
        from infra.doc_blocks import write_blocks

        changed = write_blocks(doc_blocks(fresh), family="cost")
        print(
            f"rewrote {', '.join(str(p.relative_to(REPO_ROOT)) for p in changed) or 'nothing (up to date)'}"
        )
        return
    results = list(estimates(args))
    if args.json:
        json.dump([e.to_json() for e in results], sys.stdout, indent=2)
        print()
        return
    for est in results:
        print(est.to_markdown(), end="\n\n")


if __name__ == "__main__":
    main()
