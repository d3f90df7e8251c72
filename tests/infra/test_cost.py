"""The idle-cost pricer (infra/cost.py): exact dollars on hand-written templates, and the cost targets on the
real synthesized stacks (dev ≤ $15/month, prod without GPU ≤ $200/month)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aws_cdk.assertions import Match, Template

from infra.config import StageConfig
from infra.cost import (
    DOC_VARIANTS,
    PRICES,
    Estimate,
    doc_blocks,
    estimate,
    main,
    runs_per_month,
    synthesize,
)
from infra.doc_blocks import DOCS, REPO_ROOT, blocks_in, rewrite
from tests.infra.conftest import ALARM_EMAIL, VARIANTS, Synth

DEV_TARGET_USD = 15.0
PROD_TARGET_USD = 200.0

# --- hand-written template pieces --------------------------------------------------------------------------


def res(type_: str, **props: Any) -> dict[str, Any]:
    return {"Type": type_, "Properties": props}


def cluster(min_acu: float, *, instances: int = 1, managed_secret: bool = False) -> dict[str, Any]:
    """An Aurora Serverless v2 cluster ``Db`` and its ``db.serverless`` instances."""
    out = {
        "Db": res(
            "AWS::RDS::DBCluster",
            Engine="aurora-postgresql",
            ServerlessV2ScalingConfiguration={"MinCapacity": min_acu, "MaxCapacity": 4},
            **({"ManageMasterUserPassword": True} if managed_secret else {}),
        )
    }
    for i in range(instances):
        out[f"DbInstance{i}"] = res(
            "AWS::RDS::DBInstance", DBClusterIdentifier={"Ref": "Db"}, DBInstanceClass="db.serverless"
        )
    return out


def proxy() -> dict[str, Any]:
    return {
        "Proxy": res("AWS::RDS::DBProxy", EngineFamily="POSTGRESQL"),
        "ProxyTargets": res(
            "AWS::RDS::DBProxyTargetGroup", DBProxyName={"Ref": "Proxy"}, DBClusterIdentifiers=[{"Ref": "Db"}]
        ),
    }


def function(name: str, *, memory: int = 1024, snapstart: bool = False, db: bool = True) -> dict[str, Any]:
    props: dict[str, Any] = {"MemorySize": memory, "Architectures": ["arm64"], "FunctionName": name}
    if db:
        props["Environment"] = {
            "Variables": {"MEMORYLAYER_DATABASE_HOST": {"Fn::GetAtt": ["Db", "Endpoint"]}}
        }
    if snapstart:
        props["SnapStart"] = {"ApplyOn": "PublishedVersions"}
    out = {name: res("AWS::Lambda::Function", **props)}
    if snapstart:
        out[f"{name}Version"] = res("AWS::Lambda::Version", FunctionName={"Ref": name})
        out[f"{name}Live"] = res(
            "AWS::Lambda::Alias",
            FunctionName={"Ref": name},
            FunctionVersion={"Fn::GetAtt": [f"{name}Version", "Version"]},
        )
    return out


def schedule(expression: str, target: str = "Cleanup") -> dict[str, Any]:
    return {
        "CleanupRule": res(
            "AWS::Events::Rule",
            Name="cleanup",
            ScheduleExpression=expression,
            State="ENABLED",
            Targets=[{"Arn": {"Fn::GetAtt": [target, "Arn"]}, "Id": "Target0"}],
        )
    }


def sagemaker(instances: int, *, scaled_min: int | None = None) -> dict[str, Any]:
    variant = {
        "InitialInstanceCount": instances,
        "InstanceType": "ml.g4dn.xlarge",
        "VariantName": "AllTraffic",
    }
    out = {
        "EmbedModel": res("AWS::SageMaker::Model"),
        "EmbedConfig": res("AWS::SageMaker::EndpointConfig", ProductionVariants=[variant]),
        "Embed": res(
            "AWS::SageMaker::Endpoint",
            EndpointConfigName={"Fn::GetAtt": ["EmbedConfig", "EndpointConfigName"]},
        ),
    }
    if scaled_min is not None:
        resource_id = {
            "Fn::Join": ["", ["endpoint/", {"Fn::GetAtt": ["Embed", "EndpointName"]}, "/variant/AllTraffic"]]
        }
        out["EmbedScaling"] = res(
            "AWS::ApplicationAutoScaling::ScalableTarget",
            MinCapacity=scaled_min,
            MaxCapacity=1,
            ResourceId=resource_id,
            ScalableDimension="sagemaker:variant:DesiredInstanceCount",
            ServiceNamespace="sagemaker",
        )
    return out


def alarms(n: int) -> dict[str, Any]:
    return {
        f"Alarm{i}": res("AWS::CloudWatch::Alarm", MetricName="Errors", Namespace="AWS/Lambda", Period=300)
        for i in range(n)
    }


def template(*parts: dict[str, Any]) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    for part in parts:
        resources.update(part)
    return {"Resources": resources}


def line(est: Estimate, item_prefix: str) -> float:
    """The monthly dollars of the one line whose item starts with ``item_prefix``."""
    (found,) = [x.monthly_usd for x in est.lines if x.item.startswith(item_prefix)]
    return found


# --- the pricer on hand-written templates ------------------------------------------------------------------


def test_each_idle_resource_is_priced_exactly() -> None:
    # Given a NAT, an interface endpoint in 2 AZs, a proxy on a 0-ACU cluster, one GPU instance, and a
    # 1 GB SnapStart function with one published version
    endpoint = res(
        "AWS::EC2::VPCEndpoint",
        VpcEndpointType="Interface",
        ServiceName="sqs",
        SubnetIds=[{"Ref": "A"}, {"Ref": "B"}],
    )
    gateway = res("AWS::EC2::VPCEndpoint", VpcEndpointType="Gateway", ServiceName="s3")
    est = estimate(
        template(
            {"Nat": res("AWS::EC2::NatGateway"), "Sqs": endpoint, "S3": gateway},
            cluster(0),
            proxy(),
            sagemaker(1),
            function("Memory", memory=1024, snapstart=True),
        )
    )

    # Then each costs its list price for 730 hours
    assert line(est, "NAT gateway") == 32.85  # 0.045 × 730
    assert line(est, "interface VPC endpoints") == 14.60  # 2 AZ × 0.01 × 730; the S3 gateway endpoint is free
    assert line(est, "RDS Proxy") == 87.60  # 8 ACU minimum × 0.015 × 730
    # The proxy's connections keep the 0-ACU writer from pausing: 0.5 ACU × 0.12 × 730
    assert line(est, "Aurora Serverless v2") == 43.80
    assert line(est, "Aurora storage") == 0.10
    assert line(est, "SageMaker endpoint (ml.g4dn.xlarge)") == 537.28  # 0.736 × 730
    assert line(est, "Lambda SnapStart") == 3.95  # 1 GB × 2,628,000 s × 0.0000015046
    assert est.total == 720.18
    assert est.unpriced == []


def test_a_paused_cluster_costs_its_storage_and_the_wake_ups_of_a_six_hourly_schedule() -> None:
    # Given a 0-ACU cluster without proxy and a cleanup function scheduled every 6 hours
    est = estimate(template(cluster(0), function("Cleanup", memory=512), schedule("rate(6 hours)")))

    # Then the writer runs only while each wake-up waits out the 300 s pause delay (plus the 16 s run):
    # 121.7 runs × 316 s = 10.7 h at 0.5 ACU
    assert line(est, "Aurora Serverless v2") == 0.64
    assert line(est, "schedule cleanup") == 0.01
    assert line(est, "Aurora storage") == 0.10


def test_a_schedule_more_frequent_than_the_pause_delay_keeps_the_database_awake() -> None:
    est = estimate(template(cluster(0), function("Cleanup", memory=512), schedule("rate(5 minutes)")))
    aurora = next(x for x in est.lines if x.item.startswith("Aurora Serverless v2"))
    assert aurora.monthly_usd == 43.80 and "never pauses" in aurora.note


def test_a_schedule_of_a_function_without_database_settings_does_not_wake_it() -> None:
    est = estimate(template(cluster(0), function("Cleanup", db=False), schedule("rate(1 minute)")))
    assert line(est, "Aurora Serverless v2") == 0.0


def test_minimum_capacity_is_billed_per_instance() -> None:
    est = estimate(template(cluster(0.5, instances=2)))
    assert line(est, "Aurora Serverless v2") == 87.60  # 2 × 0.5 ACU × 0.12 × 730


@pytest.mark.parametrize(("scaled_min", "expected"), [(None, 537.28), (0, 0.0), (1, 537.28)])
def test_sagemaker_counts_the_autoscaling_floor(scaled_min: int | None, expected: float) -> None:
    est = estimate(template(sagemaker(1, scaled_min=scaled_min)))
    assert line(est, "SageMaker endpoint") == expected


def test_secrets_include_the_rds_managed_master_secret() -> None:
    secrets = {f"S{i}": res("AWS::SecretsManager::Secret") for i in range(2)}
    est = estimate(template(secrets, cluster(0, managed_secret=True), {"Key": res("AWS::KMS::Key")}))
    assert line(est, "Secrets Manager") == 1.20  # 3 × 0.40
    assert line(est, "KMS") == 1.00


def test_alarms_are_priced_per_metric_and_resolution() -> None:
    metric = {"Metric": {"MetricName": "Errors", "Namespace": "AWS/Lambda"}, "Period": 60, "Stat": "Sum"}
    math_alarm = res(
        "AWS::CloudWatch::Alarm",
        Metrics=[
            {"Id": "a", "MetricStat": metric, "ReturnData": False},
            {"Id": "b", "MetricStat": metric, "ReturnData": False},
            {"Id": "rate", "Expression": "a / b", "ReturnData": True},
        ],
    )
    high_res = res("AWS::CloudWatch::Alarm", MetricName="Errors", Period=10)
    est = estimate(template(alarms(1), {"Math": math_alarm, "Fast": high_res}))
    assert line(est, "CloudWatch alarms") == 0.60  # 0.10 + 2 × 0.10 + 0.30


def test_unknown_billable_types_are_listed_as_unpriced() -> None:
    est = estimate(
        template({"Warehouse": res("AWS::Redshift::Cluster"), "Mig": res("Custom::MemoryLayerMigrations")})
    )
    assert est.unpriced == ["AWS::Redshift::Cluster × 1"]
    assert "unpriced: AWS::Redshift::Cluster × 1" in est.to_markdown()


def test_schedule_expressions() -> None:
    assert runs_per_month("rate(5 minutes)") == 8760
    assert runs_per_month("rate(1 day)") == pytest.approx(730 / 24)
    assert runs_per_month("cron(0 */6 * * ? *)") == pytest.approx(4 * 730 / 24)
    assert runs_per_month("cron(30 2 ? * MON-FRI *)") == pytest.approx(730 / 24 * 5 / 7)


def test_command_line_prices_a_template_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(template({"Nat": res("AWS::EC2::NatGateway")})))
    main(["--template", str(path), "--json"])
    (out,) = json.loads(capsys.readouterr().out)
    assert out["total_usd_month"] == 32.85 and out["prices_as_of"]


# --- the target topology, hand-written: what the stack is meant to be --------------------------------------


def contract_stack(stage: str) -> dict[str, Any]:
    """The target stack: dual-stack VPC with an egress-only gateway (no NAT, no interface endpoints), Aurora
    with an RDS-managed master secret, a KMS key, 2 secrets, 20 alarms, a dashboard, cleanup every 6 hours;
    dev: no proxy, no SnapStart, 0 ACU; prod: RDS Proxy, SnapStart on the 3 API functions, 0.5 ACU + a reader."""
    prod = stage == "prod"
    network = {
        "Vpc": res("AWS::EC2::VPC", CidrBlock="10.0.0.0/16"),
        "VpcIpv6": res("AWS::EC2::VPCCidrBlock", AmazonProvidedIpv6CidrBlock=True),
        "Igw": res("AWS::EC2::InternetGateway"),
        "Eigw": res("AWS::EC2::EgressOnlyInternetGateway"),
        "S3": res("AWS::EC2::VPCEndpoint", VpcEndpointType="Gateway"),
        "FlowLog": res("AWS::EC2::FlowLog"),
        **{f"Subnet{i}": res("AWS::EC2::Subnet", AssignIpv6AddressOnCreation=True) for i in range(4)},
    }
    functions: dict[str, Any] = {}
    for name in ("Memory", "Sessions", "Context"):
        functions |= function(name, snapstart=prod)
    for name in ("Extraction", "Migrate", "Cleanup"):
        functions |= function(name, memory=512)
    rest = {
        "Key": res("AWS::KMS::Key"),
        "AdminKey": res("AWS::SecretsManager::Secret"),
        "CursorSecret": res("AWS::SecretsManager::Secret"),
        "Queue": res("AWS::SQS::Queue"),
        "Dlq": res("AWS::SQS::Queue"),
        "Esm": res("AWS::Lambda::EventSourceMapping", EventSourceArn={"Fn::GetAtt": ["Queue", "Arn"]}),
        "Api": res("AWS::ApiGatewayV2::Api"),
        "Topic": res("AWS::SNS::Topic"),
        "Dashboard": res("AWS::CloudWatch::Dashboard"),
        **{f"Logs{i}": res("AWS::Logs::LogGroup") for i in range(8)},
    }
    db = cluster(0.5 if prod else 0, instances=2 if prod else 1, managed_secret=True)
    return template(
        network, functions, rest, db, proxy() if prod else {}, alarms(20), schedule("rate(6 hours)")
    )


@pytest.mark.parametrize(("stage", "target"), [("dev", DEV_TARGET_USD), ("prod", PROD_TARGET_USD)])
def test_a_stack_that_follows_the_contract_meets_the_target(stage: str, target: float) -> None:
    est = estimate(contract_stack(stage), stage)
    assert est.unpriced == []
    assert est.total <= target, est.to_markdown()


# --- the targets on the real synthesized stacks --------------------------------------------------------------


def test_dev_idles_within_target(synth: Synth) -> None:
    est = estimate(synth.templates["dev"], "dev")
    assert est.unpriced == [], est.unpriced
    assert est.total <= DEV_TARGET_USD, est.to_markdown()


def test_prod_without_gpu_idles_within_target(synth: Synth) -> None:
    # The default synth (embeddings=local) has no SageMaker endpoint; the GPU stage is priced on demand only.
    est = estimate(synth.templates["prod"], "prod")
    assert not any(x.item.startswith("SageMaker") for x in est.lines), est.to_markdown()
    assert est.unpriced == [], est.unpriced
    assert est.total <= PROD_TARGET_USD, est.to_markdown()


def test_every_price_names_a_positive_amount() -> None:
    assert all(price > 0 for price in PRICES.values())


def test_provisioned_concurrency_is_priced() -> None:
    parts = function("Memory", memory=1024, snapstart=True)
    parts["MemoryLive"]["Properties"]["ProvisionedConcurrencyConfig"] = {"ProvisionedConcurrentExecutions": 2}
    est = estimate(template(parts))
    assert line(est, "Lambda provisioned concurrency") == 17.52  # 2 GB × 2,628,000 s × 0.0000033334


def test_performance_insights_is_priced_at_the_minimum_aws_recommends_for_it() -> None:
    db = cluster(0.5, instances=2)
    for instance in ("DbInstance0", "DbInstance1"):
        db[instance]["Properties"]["EnablePerformanceInsights"] = True
    est = estimate(template(db))
    assert line(est, "Aurora Serverless v2") == 350.40  # 2 instances × 2 ACU × 730 h × $0.12, not 0.5 ACU


@pytest.mark.parametrize(("rate", "expected"), [("rate(6 hours)", 0.40), ("rate(15 minutes)", 2.40)])
def test_the_cleanup_metrics_are_priced_by_the_hours_they_are_published_in(
    rate: str, expected: float
) -> None:
    cleanup = function("Cleanup", memory=512)
    cleanup["Cleanup"]["Properties"]["Handler"] = "functions/cleanup/handler.handler"
    est = estimate(template(cleanup, schedule(rate)))
    # 7 metrics a run + ColdStart at $0.30 a metric-month: every hour at 15 minutes, one hour in six at 6 hours.
    assert line(est, "custom metrics of cleanup") == expected


def test_performance_insights_is_off_unless_asked_for_and_then_raises_the_floor(synth: Synth) -> None:
    for stage in ("dev", "prod"):
        synth.template(stage).resource_properties_count_is(
            "AWS::RDS::DBInstance", {"EnablePerformanceInsights": True}, 0
        )
    assert StageConfig.for_stage("prod", {"performance_insights": "on"}).db_min_acu == 2
    assert StageConfig.for_stage("prod", {"performance_insights": "off"}).performance_insights is False
    with pytest.raises(ValueError, match="db_min_acu >= 2"):
        StageConfig.for_stage("prod", {"performance_insights": "on", "db_min_acu": "0.5"})

    on = synthesize("prod", {"performance_insights": "on", "alarm_email": ALARM_EMAIL})
    template_on = Template.from_json(on)
    template_on.resource_properties_count_is(
        "AWS::RDS::DBInstance",
        {"EnablePerformanceInsights": True, "PerformanceInsightsKMSKeyId": Match.any_value()},
        2,
    )
    template_on.has_resource_properties(
        "AWS::RDS::DBCluster", {"ServerlessV2ScalingConfiguration": Match.object_like({"MinCapacity": 2})}
    )
    assert line(estimate(on), "Aurora Serverless v2") == 350.40


def test_the_figures_in_the_docs_are_a_fresh_estimate(synth: Synth) -> None:
    # The session's synth covers the variants the docs quote, with the same context (plus prod's subscriber).
    for name, (stage, context) in DOC_VARIANTS.items():
        test_stage, overrides = VARIANTS[name]
        assert (test_stage, {k: v for k, v in overrides.items() if k != "alarm_email"}) == (stage, context)
    blocks = doc_blocks({name: estimate(synth.templates[name], name) for name in DOC_VARIANTS})
    texts = {str(path.relative_to(REPO_ROOT)): path.read_text() for path in DOCS}
    assert set(blocks) <= set().union(*(blocks_in(text) for text in texts.values()))
    for name, text in texts.items():
        assert rewrite(text, blocks, family="cost") == text, f"{name}: run python -m infra.cost --write"
