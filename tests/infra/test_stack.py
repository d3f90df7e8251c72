"""CDK template assertions for both stages, plus cdk-nag, on one synth (see conftest.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match

from infra.api import ROUTES
from infra.bundle import LAMBDA_PACKAGES
from infra.migrations import RESOURCE_TYPE, migrations_hash
from infra.nag import MIN_REASON_LENGTH
from infra.queue import MAX_RECEIVE_COUNT
from tests.infra.conftest import Synth

STAGES = ("dev", "prod")


def function_ids(synth: Synth, stage: str) -> dict[str, str]:
    """Our Lambda functions' logical ids by short name (memory, sessions, ...)."""
    prefix = f"memorylayer-{stage}-"
    return {
        props["Properties"]["FunctionName"].removeprefix(prefix): logical_id
        for logical_id, props in synth.resources(stage, "AWS::Lambda::Function").items()
        if str(props["Properties"].get("FunctionName", "")).startswith(prefix)
    }


def ref_id(value: Any) -> str:
    """The logical id in a ``Ref`` or ``Fn::GetAtt``."""
    if "Ref" in value:
        return value["Ref"]
    return value["Fn::GetAtt"][0]


def invoked_function(synth: Synth, stage: str, value: Any) -> str:
    """The function a ``Ref``/``GetAtt`` invokes: itself, or the function behind an alias."""
    resource = synth.templates[stage]["Resources"][ref_id(value)]
    if resource["Type"] == "AWS::Lambda::Alias":
        return ref_id(resource["Properties"]["FunctionName"])
    return ref_id(value)


def tags_of(props: dict[str, Any]) -> dict[str, str]:
    tags = props.get("Tags", {})
    return {t["Key"]: t["Value"] for t in tags} if isinstance(tags, list) else dict(tags)


# --- API ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_routes_target_the_right_functions(synth: Synth, stage: str) -> None:
    # Given the route table of the stack
    ids = function_ids(synth, stage)
    integrations = synth.resources(stage, "AWS::ApiGatewayV2::Integration")
    routes = synth.resources(stage, "AWS::ApiGatewayV2::Route")
    actual = {}
    for route in routes.values():
        target = route["Properties"]["Target"]["Fn::Join"][1][1]
        uri = integrations[ref_id(target)]["Properties"]["IntegrationUri"]
        actual[route["Properties"]["RouteKey"]] = invoked_function(synth, stage, uri)

    # Then every documented route exists and reaches its function, and nothing else is routed
    expected = {f"{method.value} {path}": ids[target] for path, method, target in ROUTES}
    assert actual == expected
    assert expected["POST /v1/sessions/{session_id}/context-pack"] == ids["context"]
    assert expected["POST /v1/sessions/{session_id}/context-delta"] == ids["context"]
    assert expected["ANY /v1/sessions/{proxy+}"] == ids["sessions"]
    assert {"ANY /health", "ANY /health/ready", "ANY /openapi.json", "ANY /v1/jobs/{proxy+}"} <= set(actual)


def test_api_stage_is_throttled_and_logs_access(synth: Synth) -> None:
    template = synth.template("prod")
    template.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {
            "StageName": "$default",
            "AutoDeploy": True,
            "DefaultRouteSettings": {"ThrottlingRateLimit": 500, "ThrottlingBurstLimit": 1000},
            "AccessLogSettings": {
                "DestinationArn": Match.any_value(),
                "Format": Match.string_like_regexp("requestId"),
            },
        },
    )
    assert len(synth.resources("prod", "AWS::ApiGatewayV2::Stage")) == 1


# --- Lambda ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_functions_are_python312_arm64_in_the_egress_subnets(synth: Synth, stage: str) -> None:
    ids = function_ids(synth, stage)
    assert set(ids) == set(LAMBDA_PACKAGES)
    resources = synth.templates[stage]["Resources"]
    for name, logical_id in ids.items():
        props = resources[logical_id]["Properties"]
        assert props["Runtime"] == "python3.12"
        assert props["Architectures"] == ["arm64"]
        assert props["Handler"] == f"functions/{LAMBDA_PACKAGES[name]}/handler.handler"
        assert props["Timeout"] > 0 and props["ReservedConcurrentExecutions"] >= 1
        subnets = [ref_id(s) for s in props["VpcConfig"]["SubnetIds"]]
        assert len(subnets) == 2 and all("egress" in s for s in subnets), subnets
        assert props["KmsKeyArn"], "environment variables are encrypted with our key"
        env = props["Environment"]["Variables"]
        assert env["MEMORYLAYER_EMBEDDING_PROVIDER"] == "sagemaker"
        assert env["MEMORYLAYER_SAGEMAKER_ENDPOINT_NAME"] == f"memorylayer-{stage}-embed"
        assert {
            "MEMORYLAYER_DATABASE_SECRET_ARN",
            "MEMORYLAYER_DATABASE_HOST",
            "MEMORYLAYER_EXTRACTION_QUEUE_URL",
        } <= set(env)
        assert env["POWERTOOLS_SERVICE_NAME"] == f"memorylayer-{name}"
        assert props["TracingConfig"] == {"Mode": "Active"}


@pytest.mark.parametrize("stage", STAGES)
def test_api_functions_run_with_snapstart_behind_a_live_alias(synth: Synth, stage: str) -> None:
    # Given the functions, their aliases and the API's integrations
    ids = function_ids(synth, stage)
    resources = synth.templates[stage]["Resources"]
    aliases = synth.resources(stage, "AWS::Lambda::Alias")
    integrations = synth.resources(stage, "AWS::ApiGatewayV2::Integration")
    permissions = synth.resources(stage, "AWS::Lambda::Permission")
    api_functions = {"memory", "sessions", "context"}
    for name, logical_id in ids.items():
        props = resources[logical_id]["Properties"]
        # Then the API functions snapshot their published versions; the workers need no SnapStart charges
        expected = {"ApplyOn": "PublishedVersions"} if name in api_functions else None
        assert props.get("SnapStart") == expected, name
        assert props["Environment"]["Variables"]["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    # And each API function has a "live" alias on a published version, which the API invokes and may call
    live = {
        ref_id(a["Properties"]["FunctionName"]): alias_id
        for alias_id, a in aliases.items()
        if a["Properties"]["Name"] == "live"
    }
    assert set(live) == {ids[name] for name in api_functions}
    for alias_id in live.values():
        version = resources[ref_id(aliases[alias_id]["Properties"]["FunctionVersion"])]
        assert version["Type"] == "AWS::Lambda::Version"
        # A superseded version (and its cached snapshot) is deleted, not retained
        assert (
            version.get("DeletionPolicy", "Delete") == "Delete"
            and version.get("UpdateReplacePolicy") == "Delete"
        )
    invoked = {ref_id(i["Properties"]["IntegrationUri"]) for i in integrations.values()}
    assert invoked == set(live.values()), "the API must never invoke $LATEST (no snapshot there)"
    allowed = {ref_id(p["Properties"]["FunctionName"]) for p in permissions.values()}
    assert set(live.values()) <= allowed


def test_api_functions_stop_before_the_http_api_timeout(synth: Synth) -> None:
    resources = synth.templates["dev"]["Resources"]
    for name in ("memory", "sessions", "context"):
        assert resources[function_ids(synth, "dev")[name]]["Properties"]["Timeout"] < 30


def test_least_privilege_grants(synth: Synth) -> None:
    """Queue sends only where jobs are produced, InvokeEndpoint only on the one endpoint, no `*` actions."""
    policies = synth.resources("dev", "AWS::IAM::Policy")
    ids = function_ids(synth, "dev")
    resources = synth.templates["dev"]["Resources"]

    def statements_for(name: str) -> list[dict[str, Any]]:
        role_id = ref_id(resources[ids[name]]["Properties"]["Role"])
        return [
            statement
            for policy in policies.values()
            if any(ref_id(r) == role_id for r in policy["Properties"]["Roles"])
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        ]

    def actions(name: str) -> set[str]:
        return {
            a
            for s in statements_for(name)
            for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
        }

    assert "sqs:SendMessage" in actions("memory") and "sqs:SendMessage" in actions("sessions")
    assert "sqs:SendMessage" not in actions("context") and "sqs:SendMessage" not in actions("migrate")
    assert "sqs:ReceiveMessage" in actions("extraction")
    assert "sagemaker:InvokeEndpoint" in actions("memory") and "sagemaker:InvokeEndpoint" not in actions(
        "migrate"
    )
    for name in ids:
        assert "secretsmanager:GetSecretValue" in actions(name)
        for statement in statements_for(name):
            acts = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            assert not any(a.endswith(":*") or a == "*" for a in acts), statement
            if "sagemaker:InvokeEndpoint" in acts:
                assert "endpoint/memorylayer-dev-embed" in json.dumps(statement["Resource"])


# --- queue -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_extraction_event_source_reports_batch_item_failures(synth: Synth, stage: str) -> None:
    extraction = function_ids(synth, stage)["extraction"]
    queues = synth.resources(stage, "AWS::SQS::Queue")
    (main_queue,) = [k for k, q in queues.items() if "RedrivePolicy" in q["Properties"]]
    synth.template(stage).has_resource_properties(
        "AWS::Lambda::EventSourceMapping",
        {
            "FunctionName": {"Ref": extraction},
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
            "BatchSize": 10,
            "EventSourceArn": {"Fn::GetAtt": [main_queue, "Arn"]},
        },
    )


def test_queue_redrives_to_the_dlq_after_three_receives(synth: Synth) -> None:
    queues = synth.resources("dev", "AWS::SQS::Queue")
    main = next(q for q in queues.values() if "RedrivePolicy" in q["Properties"])
    policy = main["Properties"]["RedrivePolicy"]
    assert policy["maxReceiveCount"] == MAX_RECEIVE_COUNT == 3
    assert ref_id(policy["deadLetterTargetArn"]) in queues
    # Visibility must outlast the worker, or a job still running would be handed to a second worker.
    extraction = synth.templates["dev"]["Resources"][function_ids(synth, "dev")["extraction"]]
    assert main["Properties"]["VisibilityTimeout"] > extraction["Properties"]["Timeout"]


# --- encryption --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_encryption_at_rest(synth: Synth, stage: str) -> None:
    template = synth.template(stage)
    template.has_resource_properties("AWS::KMS::Key", {"EnableKeyRotation": True})
    template.has_resource_properties(
        "AWS::RDS::DBCluster", {"StorageEncrypted": True, "KmsKeyId": Match.any_value()}
    )
    template.has_resource_properties("AWS::SecretsManager::Secret", {"KmsKeyId": Match.any_value()})
    for queue in synth.resources(stage, "AWS::SQS::Queue").values():
        assert "KmsMasterKeyId" in queue["Properties"]
    for topic in synth.resources(stage, "AWS::SNS::Topic").values():
        assert "KmsMasterKeyId" in topic["Properties"]
    for log_group in synth.resources(stage, "AWS::Logs::LogGroup").values():
        assert "KmsKeyId" in log_group["Properties"]
    # SQS and SNS refuse plain HTTP.
    for type_ in ("AWS::SQS::QueuePolicy", "AWS::SNS::TopicPolicy"):
        for policy in synth.resources(stage, type_).values():
            assert "aws:SecureTransport" in json.dumps(policy["Properties"]["PolicyDocument"])


def test_database_is_aurora_serverless_v2_postgres_behind_a_tls_proxy(synth: Synth) -> None:
    for stage, min_acu in (("dev", 0), ("prod", 0.5)):
        (cluster,) = synth.resources(stage, "AWS::RDS::DBCluster").values()
        props = cluster["Properties"]
        assert props["Engine"] == "aurora-postgresql"
        assert int(props["EngineVersion"].split(".")[0]) >= 16
        assert props["ServerlessV2ScalingConfiguration"]["MinCapacity"] == min_acu
        assert props["ServerlessV2ScalingConfiguration"]["MaxCapacity"] > min_acu
        synth.template(stage).has_resource_properties(
            "AWS::RDS::DBProxy", {"EngineFamily": "POSTGRESQL", "RequireTLS": True}
        )
    assert len(synth.resources("prod", "AWS::RDS::DBInstance")) == 2  # writer + one reader for failover


def test_prod_retains_data_and_dev_destroys_it(synth: Synth) -> None:
    for stage, policy in (("dev", "Delete"), ("prod", "Retain")):
        for type_ in (
            "AWS::RDS::DBCluster",
            "AWS::KMS::Key",
            "AWS::SQS::Queue",
            "AWS::SecretsManager::Secret",
        ):
            for logical_id, resource in synth.resources(stage, type_).items():
                assert resource.get("DeletionPolicy") == policy, (stage, logical_id)
    (prod_cluster,) = synth.resources("prod", "AWS::RDS::DBCluster").values()
    assert prod_cluster["Properties"]["DeletionProtection"] is True


# --- embeddings --------------------------------------------------------------------------------------------


def test_sagemaker_endpoint_runs_on_a_gpu_and_autoscales(synth: Synth) -> None:
    for stage, instance_type in (("dev", "ml.g4dn.xlarge"), ("prod", "ml.g5.xlarge")):
        template = synth.template(stage)
        template.has_resource_properties(
            "AWS::SageMaker::EndpointConfig",
            {
                "ProductionVariants": [
                    Match.object_like({"InstanceType": instance_type, "VariantName": "AllTraffic"})
                ]
            },
        )
        template.has_resource_properties(
            "AWS::SageMaker::Endpoint", {"EndpointName": f"memorylayer-{stage}-embed"}
        )
        template.has_resource_properties(
            "AWS::SageMaker::Model",
            {"PrimaryContainer": {"Image": Match.any_value(), "Environment": Match.any_value()}},
        )
        template.has_resource_properties(
            "AWS::ApplicationAutoScaling::ScalingPolicy",
            {
                "TargetTrackingScalingPolicyConfiguration": Match.object_like(
                    {
                        "PredefinedMetricSpecification": {
                            "PredefinedMetricType": "SageMakerVariantInvocationsPerInstance"
                        }
                    }
                )
            },
        )
    (prod_target,) = synth.resources("prod", "AWS::ApplicationAutoScaling::ScalableTarget").values()
    assert prod_target["Properties"]["MaxCapacity"] > prod_target["Properties"]["MinCapacity"]


# --- migrations and schedule -------------------------------------------------------------------------------


def test_migrations_custom_resource_reruns_on_new_migration_files(synth: Synth) -> None:
    resources = synth.templates["dev"]["Resources"]
    (custom,) = synth.resources("dev", RESOURCE_TYPE).values()
    assert custom["Properties"]["MigrationsHash"] == migrations_hash()
    # The provider's framework function invokes the migrate function.
    framework = resources[ref_id(custom["Properties"]["ServiceToken"])]
    user_fn = framework["Properties"]["Environment"]["Variables"]["USER_ON_EVENT_FUNCTION_ARN"]
    assert ref_id(user_fn) == function_ids(synth, "dev")["migrate"]
    # It waits for the database (cluster, writer and proxy).
    cluster_id = next(iter(synth.resources("dev", "AWS::RDS::DBCluster")))
    proxy_id = next(iter(synth.resources("dev", "AWS::RDS::DBProxy")))
    assert {cluster_id, proxy_id} <= set(custom["DependsOn"])


def test_migrations_hash_changes_with_the_files(tmp_path: Any) -> None:
    (tmp_path / "0001_init.sql").write_text("CREATE EXTENSION IF NOT EXISTS vector;")
    before = migrations_hash(tmp_path)
    (tmp_path / "0002_more.sql").write_text("SELECT 1;")
    assert migrations_hash(tmp_path) != before


def test_cleanup_runs_every_five_minutes(synth: Synth) -> None:
    cleanup = function_ids(synth, "dev")["cleanup"]
    synth.template("dev").has_resource_properties(
        "AWS::Events::Rule",
        {
            "ScheduleExpression": "rate(5 minutes)",
            "State": "ENABLED",
            "Targets": [Match.object_like({"Arn": {"Fn::GetAtt": [cleanup, "Arn"]}})],
        },
    )


# --- observability -----------------------------------------------------------------------------------------


def test_alarms_cover_dlq_api_lambdas_and_aurora_and_notify_the_encrypted_topic(synth: Synth) -> None:
    alarms = list(synth.resources("prod", "AWS::CloudWatch::Alarm").values())
    (topic_id,) = synth.resources("prod", "AWS::SNS::Topic")
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for alarm in alarms:
        props = alarm["Properties"]
        by_metric.setdefault(props["MetricName"], []).append(props)
        assert props["AlarmActions"] == [{"Ref": topic_id}]
    dlq = by_metric["ApproximateNumberOfMessagesVisible"][0]
    assert dlq["Threshold"] == 0 and dlq["ComparisonOperator"] == "GreaterThanThreshold"
    assert "Dlq" in json.dumps(dlq["Dimensions"])
    assert by_metric["5xx"][0]["Namespace"] == "AWS/ApiGateway"
    assert by_metric["Latency"][0]["ExtendedStatistic"] == "p95"
    assert len(by_metric["Errors"]) == len(LAMBDA_PACKAGES)
    assert by_metric["ACUUtilization"][0]["Namespace"] == "AWS/RDS"
    assert len(synth.resources("prod", "AWS::CloudWatch::Dashboard")) == 1


# --- tags --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_every_taggable_resource_carries_project_and_stage(synth: Synth, stage: str) -> None:
    resources = synth.templates[stage]["Resources"]
    tagged = {k: v for k, v in resources.items() if "Tags" in v.get("Properties", {})}
    for logical_id, resource in tagged.items():
        assert tags_of(resource["Properties"]) | {"Project": "memorylayer", "Stage": stage} == tags_of(
            resource["Properties"]
        ), logical_id
    must_be_tagged = {
        "AWS::Lambda::Function",
        "AWS::SQS::Queue",
        "AWS::SNS::Topic",
        "AWS::KMS::Key",
        "AWS::RDS::DBCluster",
        "AWS::RDS::DBProxy",
        "AWS::EC2::VPC",
        "AWS::SageMaker::Endpoint",
        "AWS::ApiGatewayV2::Api",
        "AWS::Logs::LogGroup",
        "AWS::CloudWatch::Alarm",
        "AWS::Events::Rule",
    }
    for logical_id, resource in resources.items():
        if resource["Type"] in must_be_tagged:
            assert logical_id in tagged, logical_id


# --- cdk-nag -----------------------------------------------------------------------------------------------


def test_cdk_nag_aws_solutions_has_no_unacknowledged_findings(synth: Synth) -> None:
    assert synth.error is None, f"synth failed (cdk-nag findings?): {synth.error}"
    assert synth.report is not None
    (nag,) = [r for r in synth.report["pluginReports"] if r["pluginName"] == "AwsSolutions"]
    assert nag["conclusion"] == "success"
    assert nag["violations"] == []
    # Every acknowledgment says why, specifically.
    for suppressed in nag["suppressedViolations"]:
        assert len(suppressed["reason"]) >= MIN_REASON_LENGTH, suppressed["ruleName"]


def test_synth_is_fast_enough_to_run_on_every_commit(synth: Synth) -> None:
    # Two stages on a busy 2-core machine; a regression here usually means asset fingerprinting came back.
    assert synth.seconds < 60
