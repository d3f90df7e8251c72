"""CDK template assertions for both stages, plus cdk-nag, on one synth (see conftest.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match

from infra.api import ROUTE_THROTTLE_SHARE, ROUTES
from infra.bundle import LAMBDA_PACKAGES
from infra.config import API_FUNCTIONS
from infra.database import APP_USER
from infra.functions import SDK_ENV, SPECS, TRACE_ENV, XRAY_OTLP_ACTIONS
from infra.migrations import FUNCTIONS_DIR, MIGRATIONS_DIR, RESOURCE_TYPE, migrations_hash
from infra.nag import MIN_REASON_LENGTH
from infra.queue import MAX_RECEIVE_COUNT
from shared.db.recall import hot_function, own_function
from tests.infra.conftest import REGION, VARIANTS, Synth

STAGES = ("dev", "prod")
ALL_VARIANTS = tuple(VARIANTS)
WORKERS = ("extraction", "cleanup")
SNAPSHOTTED = frozenset(name for name, spec in SPECS.items() if spec.snap_start)
# The variables beyond MEMORYLAYER_*, POWERTOOLS_* and PYDANTIC_* a function may get.
TOOL_ENV = {*SDK_ENV, *TRACE_ENV, "OTEL_SERVICE_NAME", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"}


def stage_of(variant: str) -> str:
    return VARIANTS[variant][0]


def function_ids(synth: Synth, variant: str, *, sandbox: bool = False) -> dict[str, str]:
    """Our Lambda functions' logical ids by short name (memory, sessions, ...); the sandbox function only when
    asked (it is unlike the others on purpose: tests/infra/test_sandbox_function.py)."""
    prefix = f"memorylayer-{stage_of(variant)}-"
    found = {
        props["Properties"]["FunctionName"].removeprefix(prefix): logical_id
        for logical_id, props in synth.resources(variant, "AWS::Lambda::Function").items()
        if str(props["Properties"].get("FunctionName", "")).startswith(prefix)
    }
    return found if sandbox else {k: v for k, v in found.items() if k != "sandbox"}


def env_of(synth: Synth, variant: str, name: str) -> dict[str, Any]:
    resources = synth.templates[variant]["Resources"]
    return resources[function_ids(synth, variant)[name]]["Properties"]["Environment"]["Variables"]


def statements_for(synth: Synth, variant: str, name: str) -> list[dict[str, Any]]:
    """Every IAM statement attached to one of our functions' roles."""
    resources = synth.templates[variant]["Resources"]
    role_id = ref_id(resources[function_ids(synth, variant, sandbox=True)[name]]["Properties"]["Role"])
    return [
        statement
        for policy in synth.resources(variant, "AWS::IAM::Policy").values()
        if any(ref_id(r) == role_id for r in policy["Properties"]["Roles"])
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def actions_of(statement: dict[str, Any]) -> list[str]:
    return [statement["Action"]] if isinstance(statement["Action"], str) else statement["Action"]


def actions(synth: Synth, variant: str, name: str) -> set[str]:
    return {a for s in statements_for(synth, variant, name) for a in actions_of(s)}


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
    # The context environment waits on the sandbox function: a function of its own, apart from context packs
    assert expected["ANY /v1/context/{proxy+}"] == ids["environment"] != ids["context"]
    assert {"ANY /health", "ANY /health/ready", "ANY /openapi.json", "ANY /v1/jobs/{proxy+}"} <= set(actual)


def test_console_is_served_by_the_memory_function(synth: Synth) -> None:
    # Given the prod route table
    ids = function_ids(synth, "prod")
    integrations = synth.resources("prod", "AWS::ApiGatewayV2::Integration")
    routed = {
        r["Properties"]["RouteKey"]: invoked_function(
            synth,
            "prod",
            integrations[ref_id(r["Properties"]["Target"]["Fn::Join"][1][1])]["Properties"]["IntegrationUri"],
        )
        for r in synth.resources("prod", "AWS::ApiGatewayV2::Route").values()
    }
    # Then the console's page and its API reach the memory function (where the app checks the key), GET only,
    # with no authorizer of the gateway's own in front (the page must load before a key is typed)
    assert routed["GET /console"] == ids["memory"]
    assert routed["GET /console/{proxy+}"] == ids["memory"]
    assert not any(k.startswith(("ANY /console", "POST /console")) for k in routed)
    for route in synth.resources("prod", "AWS::ApiGatewayV2::Route").values():
        if route["Properties"]["RouteKey"].startswith("GET /console"):
            assert route["Properties"].get("AuthorizationType", "NONE") == "NONE"


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


def test_api_stage_throttles_expensive_routes_on_their_own(synth: Synth) -> None:
    # One stage-wide throttle would be shared by all tenants and all routes.
    (stage,) = synth.resources("prod", "AWS::ApiGatewayV2::Stage").values()
    settings = stage["Properties"]["RouteSettings"]
    routes = {
        r["Properties"]["RouteKey"]: logical_id
        for logical_id, r in synth.resources("prod", "AWS::ApiGatewayV2::Route").items()
    }
    assert set(settings) == set(ROUTE_THROTTLE_SHARE) and set(settings) <= set(routes)
    assert settings["ANY /v1/admin/{proxy+}"] == {"ThrottlingRateLimit": 10, "ThrottlingBurstLimit": 20}
    for throttle in settings.values():
        assert 1 <= throttle["ThrottlingRateLimit"] < 500 and 1 <= throttle["ThrottlingBurstLimit"] < 1000
    # A route setting for a route key that does not exist yet fails the deploy: the stage waits for them.
    assert {routes[key] for key in settings} <= set(stage.get("DependsOn", []))


# --- Lambda ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_functions_are_python312_arm64_dual_stack_in_the_egress_subnets(synth: Synth, variant: str) -> None:
    ids = function_ids(synth, variant)
    assert set(ids) == set(LAMBDA_PACKAGES)
    resources = synth.templates[variant]["Resources"]
    for name, logical_id in ids.items():
        props = resources[logical_id]["Properties"]
        assert props["Runtime"] == "python3.12"
        assert props["Architectures"] == ["arm64"]
        assert props["Handler"] == f"functions/{LAMBDA_PACKAGES[name]}/handler.handler"
        assert props["Timeout"] > 0
        subnets = [ref_id(s) for s in props["VpcConfig"]["SubnetIds"]]
        assert len(subnets) == 2 and all("egress" in s for s in subnets), subnets
        assert props["VpcConfig"]["Ipv6AllowedForDualStack"] is True
        assert props["KmsKeyArn"], "environment variables are encrypted with our key"
        assert props["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"] == f"memorylayer-{name}"
        assert props["TracingConfig"] == {"Mode": "Active"}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_environment_holds_only_settings_fields_and_tool_variables(synth: Synth, variant: str) -> None:
    """Every MEMORYLAYER_* variable must be a field of shared.core.settings.Settings (a typo is silently ignored
    by pydantic-settings); the rest are Powertools/pydantic switches, OpenTelemetry's own variables and the SDK's
    dual-stack switch."""
    from shared.core.settings import Settings

    fields = set(Settings.model_fields)
    for name in LAMBDA_PACKAGES:
        env = env_of(synth, variant, name)
        for var in env:
            if var.startswith("MEMORYLAYER_"):
                assert var.removeprefix("MEMORYLAYER_").lower() in fields, (name, var)
            else:
                assert var.startswith(("POWERTOOLS_", "PYDANTIC_")) or var in TOOL_ENV, (name, var)
        assert "MEMORYLAYER_STAGE" not in env and "MEMORYLAYER_DATABASE_SECRET_ARN" not in env


@pytest.mark.parametrize(
    ("variant", "provider"),
    [("dev", "local"), ("prod", "local"), ("dev-gpu", "sagemaker"), ("prod-openai", "openai")],
)
def test_database_and_embedding_environment(synth: Synth, variant: str, provider: str) -> None:
    resources = synth.templates[variant]["Resources"]
    (cluster_id,) = synth.resources(variant, "AWS::RDS::DBCluster")
    proxies = synth.resources(variant, "AWS::RDS::DBProxy")
    for name in LAMBDA_PACKAGES:
        env = env_of(synth, variant, name)
        assert env["MEMORYLAYER_EMBEDDING_PROVIDER"] == provider
        assert ("MEMORYLAYER_SAGEMAKER_ENDPOINT_NAME" in env) == (provider == "sagemaker")
        host = env["MEMORYLAYER_DATABASE_HOST"]
        if name == "migrate":
            # The owner, on the writer, with the RDS-managed secret; never the app role's IAM login.
            assert host == {"Fn::GetAtt": [cluster_id, "Endpoint.Address"]}
            assert env["MEMORYLAYER_DATABASE_OWNER_SECRET_ARN"] == {
                "Fn::GetAtt": [cluster_id, "MasterUserSecret.SecretArn"]
            }
            assert "MEMORYLAYER_DATABASE_USER" not in env
            continue
        assert env["MEMORYLAYER_DATABASE_AUTH"] == "iam"
        assert env["MEMORYLAYER_DATABASE_USER"] == APP_USER
        assert "MEMORYLAYER_DATABASE_OWNER_SECRET_ARN" not in env
        if stage_of(variant) == "prod":
            (proxy_id,) = proxies
            assert host == {"Fn::GetAtt": [proxy_id, "Endpoint"]}
        else:
            assert host == {"Fn::GetAtt": [cluster_id, "Endpoint.Address"]}
    if variant == "prod-openai":
        assert env_of(synth, variant, "extraction")["MEMORYLAYER_LLM_PROVIDER"] == "openai"
    assert resources  # keep the template in scope for failures


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_api_functions_snapstart_only_in_prod_behind_a_live_alias(synth: Synth, variant: str) -> None:
    # Given the functions, their aliases and the API's integrations
    ids = function_ids(synth, variant)
    resources = synth.templates[variant]["Resources"]
    aliases = synth.resources(variant, "AWS::Lambda::Alias")
    integrations = synth.resources(variant, "AWS::ApiGatewayV2::Integration")
    permissions = synth.resources(variant, "AWS::Lambda::Permission")
    prod = stage_of(variant) == "prod"
    for name, logical_id in ids.items():
        props = resources[logical_id]["Properties"]
        # Then prod snapshots the published versions of the API functions whose spec asks for it; dev pays for
        # no snapshot cache
        expected = {"ApplyOn": "PublishedVersions"} if prod and name in SNAPSHOTTED else None
        assert props.get("SnapStart") == expected, name
        assert props["Environment"]["Variables"]["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    live = {
        ref_id(a["Properties"]["FunctionName"]): alias_id
        for alias_id, a in aliases.items()
        if a["Properties"]["Name"] == "live"
    }
    invoked = {ref_id(i["Properties"]["IntegrationUri"]) for i in integrations.values()}
    allowed = {ref_id(p["Properties"]["FunctionName"]) for p in permissions.values()}
    if not prod:
        assert live == {}
        assert invoked == {ids[name] for name in API_FUNCTIONS}
        assert invoked <= allowed
        return
    # And in prod each snapshotted API function has a "live" alias on a published version, which the API
    # invokes; the others it invokes directly
    assert set(live) == {ids[name] for name in SNAPSHOTTED}
    for alias_id in live.values():
        version = resources[ref_id(aliases[alias_id]["Properties"]["FunctionVersion"])]
        assert version["Type"] == "AWS::Lambda::Version"
        # A superseded version (and its cached snapshot) is deleted, not retained
        assert (
            version.get("DeletionPolicy", "Delete") == "Delete"
            and version.get("UpdateReplacePolicy") == "Delete"
        )
    plain = {ids[name] for name in API_FUNCTIONS if name not in SNAPSHOTTED}
    assert invoked == set(live.values()) | plain, (
        "the API must never invoke $LATEST of a snapshotted function"
    )
    assert set(live.values()) <= allowed


def test_api_functions_stop_before_the_http_api_timeout(synth: Synth) -> None:
    resources = synth.templates["dev"]["Resources"]
    for name in API_FUNCTIONS:
        assert resources[function_ids(synth, "dev")[name]]["Properties"]["Timeout"] < 30


@pytest.mark.parametrize("variant", ["dev", "prod", "dev-gpu"])
def test_least_privilege_grants(synth: Synth, variant: str) -> None:
    """Queue sends only where jobs are produced, InvokeEndpoint only on the one endpoint, no `*` actions."""
    assert "sqs:SendMessage" in actions(synth, variant, "memory")
    assert "sqs:SendMessage" in actions(synth, variant, "sessions")
    assert "sqs:SendMessage" not in actions(synth, variant, "context")
    assert "sqs:SendMessage" not in actions(synth, variant, "environment")
    assert "sqs:SendMessage" not in actions(synth, variant, "migrate")
    assert "sqs:ReceiveMessage" in actions(synth, variant, "extraction")
    gpu = variant.endswith("-gpu")
    assert ("sagemaker:InvokeEndpoint" in actions(synth, variant, "memory")) == gpu
    assert "sagemaker:InvokeEndpoint" not in actions(synth, variant, "migrate")
    for name in LAMBDA_PACKAGES:
        for statement in statements_for(synth, variant, name):
            acts = actions_of(statement)
            assert not any(a.endswith(":*") or a == "*" for a in acts), statement
            if "sagemaker:InvokeEndpoint" in acts:
                assert "endpoint/memorylayer-dev-embed" in json.dumps(statement["Resource"])


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_database_grants_iam_connect_as_the_app_role_and_the_owner_secret_to_migrate_only(
    synth: Synth, variant: str
) -> None:
    (cluster_id,) = synth.resources(variant, "AWS::RDS::DBCluster")
    secret_ids = set(synth.resources(variant, "AWS::SecretsManager::Secret"))
    owner_secret = {"Fn::GetAtt": [cluster_id, "MasterUserSecret.SecretArn"]}
    for name in LAMBDA_PACKAGES:
        statements = statements_for(synth, variant, name)
        connect = [s for s in statements if "rds-db:connect" in actions_of(s)]
        reads_owner = [
            s
            for s in statements
            if "secretsmanager:GetSecretValue" in actions_of(s) and owner_secret in _as_list(s["Resource"])
        ]
        if name == "migrate":
            assert connect == [] and len(reads_owner) == 1
            continue
        assert reads_owner == []
        # One rds-db:connect, for the app user, on the proxy (prod) or the cluster (dev)
        (statement,) = connect
        rendered = json.dumps(statement["Resource"])
        assert f"/{APP_USER}" in rendered
        assert ("prx-" in rendered or "DBProxy" in rendered or "Proxy" in rendered) == (variant == "prod")
        # Nothing else on the database: no rds:* management actions
        assert not any(a.startswith("rds:") for s in statements for a in actions_of(s)), name
        # And no read of any secret but the two application secrets
        for s in statements:
            if "secretsmanager:GetSecretValue" in actions_of(s):
                assert {ref_id(r) for r in _as_list(s["Resource"])} <= secret_ids, (name, s)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# --- secrets -----------------------------------------------------------------------------------------------


def _secret_kind(logical_id: str) -> str:
    return "admin-key" if logical_id.startswith("SecretsAdminKey") else "context-cursor"


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_admin_key_and_cursor_secrets_are_generated_encrypted_and_granted_narrowly(
    synth: Synth, variant: str
) -> None:
    secrets = synth.resources(variant, "AWS::SecretsManager::Secret")
    by_name = {_secret_kind(k): k for k in secrets}
    assert set(by_name) == {"admin-key", "context-cursor"}, "no other secret: the DB owner's is RDS-managed"
    for secret in secrets.values():
        assert "GenerateSecretString" in secret["Properties"]
        assert "KmsKeyId" in secret["Properties"]
        # Named by CloudFormation: a deleted secret's name stays taken while it awaits deletion
        assert "Name" not in secret["Properties"]
    expected = {
        "admin-key": {"memory"},
        "context-cursor": {"memory", "sessions", "context", "environment"},
    }
    env_var = {
        "admin-key": "MEMORYLAYER_ADMIN_KEY_SECRET_ARN",
        "context-cursor": "MEMORYLAYER_CONTEXT_CURSOR_SECRET_ARN",
    }
    for secret_name, readers in expected.items():
        secret_id = by_name[secret_name]
        granted = {
            name
            for name in LAMBDA_PACKAGES
            for s in statements_for(synth, variant, name)
            if "secretsmanager:GetSecretValue" in actions_of(s)
            and secret_id in {ref_id(r) for r in _as_list(s["Resource"]) if isinstance(r, dict)}
        }
        assert granted == readers, secret_name
        for name in LAMBDA_PACKAGES:
            env = env_of(synth, variant, name)
            assert (env.get(env_var[secret_name]) == {"Ref": secret_id}) == (name in readers)


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_outputs_name_the_api_and_the_admin_secret(synth: Synth, variant: str) -> None:
    outputs = synth.templates[variant]["Outputs"]
    assert {"ApiUrl", "AdminKeySecretArn", "DatabaseWriterEndpoint", "AlarmTopicArn"} <= set(outputs)
    assert ("DatabaseProxyEndpoint" in outputs) == (variant == "prod")
    assert "EmbeddingEndpointName" not in outputs and "DatabaseSecretArn" not in outputs
    (admin,) = [
        k
        for k, s in synth.resources(variant, "AWS::SecretsManager::Secret").items()
        if _secret_kind(k) == "admin-key"
    ]
    assert outputs["AdminKeySecretArn"]["Value"] == {"Ref": admin}
    assert "EmbeddingEndpointName" in synth.templates[f"{variant}-gpu"]["Outputs"]


# --- queue -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_extraction_event_source_reports_batch_item_failures(synth: Synth, stage: str) -> None:
    extraction = function_ids(synth, stage)["extraction"]
    queues = synth.resources(stage, "AWS::SQS::Queue")
    (main_queue,) = [
        k for k, q in queues.items() if "RedrivePolicy" in q["Properties"] and not k.startswith("Documents")
    ]
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
    main = next(
        q for k, q in queues.items() if "RedrivePolicy" in q["Properties"] and not k.startswith("Documents")
    )
    policy = main["Properties"]["RedrivePolicy"]
    assert policy["maxReceiveCount"] == MAX_RECEIVE_COUNT == 3
    assert ref_id(policy["deadLetterTargetArn"]) in queues
    # Visibility must outlast the worker, or a job still running would be handed to a second worker.
    extraction = synth.templates["dev"]["Resources"][function_ids(synth, "dev")["extraction"]]
    assert main["Properties"]["VisibilityTimeout"] > extraction["Properties"]["Timeout"]


# --- documents ---------------------------------------------------------------------------------------------


def _document_queue(synth: Synth, stage: str) -> str:
    """The queue the bucket's object-created events go to."""
    (bucket_config,) = [
        r["Properties"]["NotificationConfiguration"]
        for r in synth.resources(stage, "Custom::S3BucketNotifications").values()
    ]
    (target,) = bucket_config["QueueConfigurations"]
    return ref_id(target["QueueArn"])


@pytest.mark.parametrize("stage", STAGES)
def test_document_events_drive_the_documents_function_one_document_at_a_time(
    synth: Synth, stage: str
) -> None:
    queue = _document_queue(synth, stage)
    synth.template(stage).has_resource_properties(
        "AWS::Lambda::EventSourceMapping",
        {
            "FunctionName": {"Ref": function_ids(synth, stage)["documents"]},
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
            "BatchSize": 1,
            "EventSourceArn": {"Fn::GetAtt": [queue, "Arn"]},
        },
    )
    queues = synth.resources(stage, "AWS::SQS::Queue")
    assert queues[queue]["Properties"]["RedrivePolicy"]["maxReceiveCount"] == MAX_RECEIVE_COUNT
    documents = synth.templates[stage]["Resources"][function_ids(synth, stage)["documents"]]
    # Visibility outlasts one attempt, or a document still being parsed would be handed to a second worker.
    assert queues[queue]["Properties"]["VisibilityTimeout"] > documents["Properties"]["Timeout"]


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_only_the_api_and_the_documents_function_know_the_bucket(synth: Synth, variant: str) -> None:
    bucket_env = {"MEMORYLAYER_DOCUMENT_BUCKET", "MEMORYLAYER_DOCUMENT_QUEUE_URL"}
    for name in LAMBDA_PACKAGES:
        assert (bucket_env <= set(env_of(synth, variant, name))) == (name in ("memory", "documents")), name
        s3 = {a for a in actions(synth, variant, name) if a.startswith("s3:")}
        expected = {
            "memory": {"s3:PutObject", "s3:GetObject", "s3:DeleteObject"},
            "documents": {"s3:GetObject", "s3:DeleteObject"},
        }.get(name, set())
        assert s3 == expected, name
    # The API sends reprocess messages to the document queue; the documents function only consumes it.
    assert "sqs:ReceiveMessage" in actions(synth, variant, "documents")
    assert "sqs:SendMessage" not in actions(synth, variant, "documents")
    assert "s3:PutObject" not in actions(synth, variant, "documents")


# --- encryption --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_encryption_at_rest_with_one_key(synth: Synth, variant: str) -> None:
    template = synth.template(variant)
    assert len(synth.resources(variant, "AWS::KMS::Key")) == 1, "one key: $1/month"
    template.has_resource_properties("AWS::KMS::Key", {"EnableKeyRotation": True})
    template.has_resource_properties(
        "AWS::RDS::DBCluster", {"StorageEncrypted": True, "KmsKeyId": Match.any_value()}
    )
    template.has_resource_properties("AWS::SecretsManager::Secret", {"KmsKeyId": Match.any_value()})
    for logical_id, queue in synth.resources(variant, "AWS::SQS::Queue").items():
        # The document queues hold object keys, never bytes, and use SSE-SQS: S3 cannot send to a queue under
        # the stack key without a grant conditioned on the bucket the key encrypts (a cycle).
        if logical_id.startswith("Documents"):
            assert queue["Properties"]["SqsManagedSseEnabled"] is True
        else:
            assert "KmsMasterKeyId" in queue["Properties"]
    for bucket in synth.resources(variant, "AWS::S3::Bucket").values():
        (rule,) = bucket["Properties"]["BucketEncryption"]["ServerSideEncryptionConfiguration"]
        assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "aws:kms"
        assert "KMSMasterKeyID" in rule["ServerSideEncryptionByDefault"]
    for topic in synth.resources(variant, "AWS::SNS::Topic").values():
        assert "KmsMasterKeyId" in topic["Properties"]
    for log_group in synth.resources(variant, "AWS::Logs::LogGroup").values():
        assert "KmsKeyId" in log_group["Properties"]
    # SQS and SNS refuse plain HTTP.
    for type_ in ("AWS::SQS::QueuePolicy", "AWS::SNS::TopicPolicy"):
        for policy in synth.resources(variant, type_).values():
            assert "aws:SecureTransport" in json.dumps(policy["Properties"]["PolicyDocument"])


# --- database ----------------------------------------------------------------------------------------------


def test_database_is_aurora_serverless_v2_with_a_managed_owner_secret(synth: Synth) -> None:
    for stage, min_acu in (("dev", 0), ("prod", 0.5)):
        (cluster,) = synth.resources(stage, "AWS::RDS::DBCluster").values()
        props = cluster["Properties"]
        assert props["Engine"] == "aurora-postgresql"
        assert int(props["EngineVersion"].split(".")[0]) >= 16
        assert props["ServerlessV2ScalingConfiguration"]["MinCapacity"] == min_acu
        assert props["ServerlessV2ScalingConfiguration"]["MaxCapacity"] > min_acu
        assert ("SecondsUntilAutoPause" in props["ServerlessV2ScalingConfiguration"]) == (min_acu == 0)
        assert props["EnableIAMDatabaseAuthentication"] is True
        # RDS owns and rotates the owner's password, encrypted with the stack key; no password in the template
        assert props["ManageMasterUserPassword"] is True
        (key_id,) = synth.resources(stage, "AWS::KMS::Key")
        assert props["MasterUserSecret"] == {"KmsKeyId": {"Fn::GetAtt": [key_id, "Arn"]}}
        assert "MasterUserPassword" not in props
    assert len(synth.resources("prod", "AWS::RDS::DBInstance")) == 2  # writer + one reader for failover


def test_prod_has_an_iam_auth_tls_proxy_and_dev_none(synth: Synth) -> None:
    assert synth.resources("dev", "AWS::RDS::DBProxy") == {}
    (proxy,) = synth.resources("prod", "AWS::RDS::DBProxy").values()
    props = proxy["Properties"]
    assert props["EngineFamily"] == "POSTGRESQL"
    assert props["RequireTLS"] is True
    assert props["DefaultAuthScheme"] == "IAM_AUTH"
    assert not props.get("Auth"), "no secrets on the proxy"
    # End to end: the proxy's own role logs in to the cluster as the app user
    (cluster_id,) = synth.resources("prod", "AWS::RDS::DBCluster")
    role_id = ref_id(props["RoleArn"])
    statements = [
        s
        for policy in synth.resources("prod", "AWS::IAM::Policy").values()
        if any(ref_id(r) == role_id for r in policy["Properties"]["Roles"])
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    (connect,) = [s for s in statements if "rds-db:connect" in actions_of(s)]
    rendered = json.dumps(connect["Resource"])
    assert f"/{APP_USER}" in rendered and cluster_id in rendered


# What a retained resource may fix as its physical name: the cluster id (a deliberate collision after a destroy,
# so a new stack cannot silently start next to the old data) and the log group RDS exports that cluster's log to.
NAME_PROPERTIES = (
    "Name",
    "QueueName",
    "LogGroupName",
    "DBClusterIdentifier",
    "DBInstanceIdentifier",
    "DBSubnetGroupName",
    "AliasName",
)
RETAINED_IN_PROD = {
    "AWS::KMS::Key",
    "AWS::S3::Bucket",
    "AWS::RDS::DBCluster",
    "AWS::RDS::DBInstance",
    "AWS::RDS::DBSubnetGroup",
    "AWS::Logs::LogGroup",
}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_only_prod_retains_and_only_its_data_and_logs_and_never_after_a_failed_create(
    synth: Synth, variant: str
) -> None:
    resources = synth.templates[variant]["Resources"]
    kept = {
        logical_id: resource
        for logical_id, resource in resources.items()
        if resource.get("DeletionPolicy", "Delete") != "Delete"
        or resource.get("UpdateReplacePolicy", "Delete") != "Delete"
    }
    (cluster,) = synth.resources(variant, "AWS::RDS::DBCluster").values()
    # Deletion protection would stop even the rollback of the deploy that created the cluster
    assert cluster["Properties"].get("DeletionProtection", False) is False
    if stage_of(variant) == "dev":
        assert kept == {}
        # Aurora's default DeletionPolicy is Snapshot: dev says Delete outright
        assert cluster["DeletionPolicy"] == "Delete"
        return
    assert {r["Type"] for r in kept.values()} == RETAINED_IN_PROD
    # Every log group is kept (the audit trail outlives the stack), and the queues and secrets are not data
    assert set(synth.resources(variant, "AWS::Logs::LogGroup")) <= set(kept)
    assert not synth.resources(variant, "AWS::SQS::Queue").keys() & kept.keys()
    assert not synth.resources(variant, "AWS::SecretsManager::Secret").keys() & kept.keys()
    for logical_id, resource in kept.items():
        # Kept on a delete or a replacement, removed when the deploy that created it rolls back
        assert resource["DeletionPolicy"] == "RetainExceptOnCreate", logical_id
        assert resource["UpdateReplacePolicy"] == "Retain", logical_id
    fixed = {
        (resource["Type"], prop, value)
        for resource in kept.values()
        for prop in NAME_PROPERTIES
        if isinstance(value := resource["Properties"].get(prop), str)
    }
    assert fixed == {
        ("AWS::RDS::DBCluster", "DBClusterIdentifier", "memorylayer-prod-db"),
        ("AWS::Logs::LogGroup", "LogGroupName", "/aws/rds/cluster/memorylayer-prod-db/postgresql"),
    }
    # Nothing else the stack names (queues, secrets) survives it to collide with the next one either
    for type_, prop in (("AWS::SQS::Queue", "QueueName"), ("AWS::SecretsManager::Secret", "Name")):
        assert all(prop not in r["Properties"] for r in synth.resources(variant, type_).values())


def test_deletion_protection_is_one_context_value_away() -> None:
    from infra.config import StageConfig

    assert StageConfig.for_stage("prod").db_deletion_protection is False
    assert StageConfig.for_stage("prod", {"db_deletion_protection": "true"}).db_deletion_protection is True
    assert StageConfig.for_stage("prod", {"db_deletion_protection": "false"}).db_deletion_protection is False
    with pytest.raises(ValueError, match="expects on or off"):
        StageConfig.for_stage("prod", {"db_deletion_protection": "maybe"})


# --- network -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_spans_follow_lambdas_sampling_to_the_xray_agent_or_the_otlp_endpoint(
    synth: Synth, variant: str
) -> None:
    """Active tracing on every function (Lambda samples, records its segments, runs the X-Ray agent); the spans
    are named for the function and recorded only where Lambda sampled; they go to the agent, which uploads with
    xray:PutTraceSegments, unless trace_export=otlp points them at X-Ray's OTLP endpoint (xray:PutSpans)."""
    otlp = variant.endswith("-otlp")
    resources = synth.templates[variant]["Resources"]
    for name, logical_id in function_ids(synth, variant).items():
        props = resources[logical_id]["Properties"]
        env = props["Environment"]["Variables"]
        assert props["TracingConfig"] == {"Mode": "Active"}, name
        assert env["OTEL_SERVICE_NAME"] == env["POWERTOOLS_SERVICE_NAME"] == f"memorylayer-{name}"
        assert env["OTEL_TRACES_SAMPLER"] == "parentbased_always_off"
        assert not any(var.startswith("POWERTOOLS_TRACE") for var in env), name  # no Powertools Tracer left
        xray = [
            s
            for s in statements_for(synth, variant, name)
            if any(a.startswith("xray:") for a in actions_of(s))
        ]
        granted = {a for s in xray for a in actions_of(s)}
        assert {"xray:PutTraceSegments", "xray:PutTelemetryRecords"} <= granted, name
        assert all(s["Resource"] == "*" for s in xray)  # no X-Ray write action takes a resource
        if otlp:
            assert set(XRAY_OTLP_ACTIONS) <= granted, name
            assert env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] == {
                "Fn::Join": [
                    "",
                    ["https://xray.", {"Ref": "AWS::Region"}, ".", {"Ref": "AWS::URLSuffix"}, "/v1/traces"],
                ]
            }
        else:
            assert not granted & set(XRAY_OTLP_ACTIONS), name
            assert "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" not in env, name


def test_otlp_export_reaches_xray_from_the_ipv6_only_egress_through_an_interface_endpoint(
    synth: Synth,
) -> None:
    """xray.<region>.amazonaws.com has no dual-stack name and the egress subnets have no IPv4 route out, so with
    trace_export=otlp the stack adds the xray interface endpoint: private DNS (the exporter keeps the public
    name), in the egress subnets (one AZ in dev), open on 443 to the functions' groups and nothing else."""
    resources = synth.templates["dev-otlp"]["Resources"]
    [endpoint] = [
        e
        for e in synth.resources("dev-otlp", "AWS::EC2::VPCEndpoint").values()
        if e["Properties"].get("VpcEndpointType") == "Interface"
    ]
    props = endpoint["Properties"]
    # The stack is pinned to its region (infra/regions.py), so the service name is literal.
    assert props["ServiceName"] == f"com.amazonaws.{REGION}.xray"
    assert props["PrivateDnsEnabled"] is True
    assert all("egress" in ref_id(subnet) for subnet in props["SubnetIds"])
    assert len(props["SubnetIds"]) == 1, "dev keeps its interface endpoints to one AZ"
    [group] = [ref_id(g) for g in props["SecurityGroupIds"]]
    ingress = [
        r["Properties"] for r in synth.resources("dev-otlp", "AWS::EC2::SecurityGroupIngress").values()
        if ref_id(r["Properties"]["GroupId"]) == group
    ]  # fmt: skip
    sources = {ref_id(r["SourceSecurityGroupId"]) for r in ingress}
    lambda_groups = {
        ref_id(g)
        for logical_id in function_ids(synth, "dev-otlp").values()
        for g in resources[logical_id]["Properties"]["VpcConfig"]["SecurityGroupIds"]
    }
    assert sources == lambda_groups and all((r["FromPort"], r["ToPort"]) == (443, 443) for r in ingress)
    assert "CidrIp" not in json.dumps(resources[group]["Properties"].get("SecurityGroupIngress", []))
    # The functions may open that connection: their groups allow IPv4 out (the endpoint's addresses are IPv4)
    for lambda_group in lambda_groups:
        egress = resources[lambda_group]["Properties"]["SecurityGroupEgress"]
        assert {
            "CidrIp": "0.0.0.0/0",
            "Description": "Allow all outbound traffic by default",
            "IpProtocol": "-1",
        } in egress
    # and nothing else takes IPv4 out of the egress subnets (only the public ones route 0.0.0.0/0, to the IGW):
    # without the endpoint the name would not be reached
    ipv4_out = [
        r["Properties"] for r in synth.resources("dev-otlp", "AWS::EC2::Route").values()
        if r["Properties"].get("DestinationCidrBlock") == "0.0.0.0/0"
    ]  # fmt: skip
    assert ipv4_out and all("public" in ref_id(r["RouteTableId"]) and "GatewayId" in r for r in ipv4_out)


@pytest.mark.parametrize(
    ("variant", "nat"),
    [
        ("dev", 0),
        ("prod", 0),
        ("dev-gpu", 0),
        ("prod-gpu", 0),
        ("dev-openai", 1),
        ("prod-openai", 2),
        ("dev-otlp", 0),
    ],
)
def test_dual_stack_vpc_with_nat_only_for_outside_providers(synth: Synth, variant: str, nat: int) -> None:
    assert len(synth.resources(variant, "AWS::EC2::VPCCidrBlock")) == 1  # the Amazon-provided IPv6 block
    assert len(synth.resources(variant, "AWS::EC2::EgressOnlyInternetGateway")) == 1
    assert len(synth.resources(variant, "AWS::EC2::NatGateway")) == nat
    routes = synth.resources(variant, "AWS::EC2::Route").values()
    egress_only = [r for r in routes if "EgressOnlyInternetGatewayId" in r["Properties"]]
    assert len(egress_only) == 2 and all(
        r["Properties"]["DestinationIpv6CidrBlock"] == "::/0" for r in egress_only
    )
    # No interface endpoints, except the SageMaker runtime one with embeddings=gpu and X-Ray's with otlp export
    interface = [
        e
        for e in synth.resources(variant, "AWS::EC2::VPCEndpoint").values()
        if e["Properties"].get("VpcEndpointType") == "Interface"
    ]
    services = [json.dumps(e["Properties"]["ServiceName"]) for e in interface]
    if variant.endswith("-gpu"):
        assert len(services) == 1 and "sagemaker.runtime" in services[0]
    elif variant.endswith("-otlp"):
        assert len(services) == 1 and services[0] == f'"com.amazonaws.{REGION}.xray"'
    else:
        assert services == []


def security_group_rules(template: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every rule as (group, direction, peer, protocol, from, to), inline or standalone."""
    resources = template["Resources"]
    rules: list[tuple[str, ...]] = []

    def port(value: Any) -> str:
        # aws-cdk-lib writes the cluster's port as {"Fn::GetAtt": [cluster, "Endpoint.Port"]} where our code
        # writes 5432: the same rule for EC2, so compare the resolved number.
        if isinstance(value, dict) and "Fn::GetAtt" in value:
            target, attribute = value["Fn::GetAtt"]
            if attribute == "Endpoint.Port" and "Port" in resources[target].get("Properties", {}):
                return str(resources[target]["Properties"]["Port"])
        return json.dumps(value)

    def key(group: str, direction: str, rule: dict[str, Any]) -> tuple[str, ...]:
        peer = {
            k: rule[k]
            for k in (
                "CidrIp",
                "CidrIpv6",
                "SourceSecurityGroupId",
                "DestinationSecurityGroupId",
                "SourcePrefixListId",
                "DestinationPrefixListId",
            )
            if k in rule
        }
        return (
            group,
            direction,
            json.dumps(peer, sort_keys=True),
            str(rule.get("IpProtocol")),
            port(rule.get("FromPort")),
            port(rule.get("ToPort")),
        )

    for logical_id, resource in resources.items():
        props = resource.get("Properties", {})
        if resource["Type"] == "AWS::EC2::SecurityGroup":
            for direction in ("SecurityGroupIngress", "SecurityGroupEgress"):
                rules += [key(logical_id, direction, r) for r in props.get(direction, [])]
        elif resource["Type"] in ("AWS::EC2::SecurityGroupIngress", "AWS::EC2::SecurityGroupEgress"):
            direction = resource["Type"].rsplit("::", 1)[1]
            rules.append(key(ref_id(props["GroupId"]), direction, props))
    return rules


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_no_duplicate_security_group_rules(synth: Synth, variant: str) -> None:
    """EC2 rejects a rule that already exists, so a duplicate fails the deploy."""
    rules = security_group_rules(synth.templates[variant])
    duplicates = {r for r in rules if rules.count(r) > 1}
    assert not duplicates, duplicates


def test_duplicate_rule_detection_sees_inline_and_standalone_rules() -> None:
    rule = {"IpProtocol": "tcp", "FromPort": 5432, "ToPort": 5432, "SourceSecurityGroupId": {"Ref": "P"}}
    template = {
        "Resources": {
            "Sg": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"SecurityGroupIngress": [rule]}},
            "Extra": {
                "Type": "AWS::EC2::SecurityGroupIngress",
                "Properties": {**rule, "GroupId": {"Fn::GetAtt": ["Sg", "GroupId"]}, "Description": "x"},
            },
        }
    }
    rules = security_group_rules(template)
    assert rules[0] == rules[1]


def test_duplicate_rule_detection_resolves_the_cluster_port_token() -> None:
    """add_proxy's ingress (port as a GetAtt) repeated by hand with 5432 is a duplicate rule, and is detected."""
    peer = {"SourceSecurityGroupId": {"Fn::GetAtt": ["ProxySg", "GroupId"]}, "IpProtocol": "tcp"}
    group = {"GroupId": {"Fn::GetAtt": ["ClusterSg", "GroupId"]}}
    token = {"Fn::GetAtt": ["Cluster", "Endpoint.Port"]}
    template = {
        "Resources": {
            "Cluster": {"Type": "AWS::RDS::DBCluster", "Properties": {"Port": 5432}},
            "ByCdk": {
                "Type": "AWS::EC2::SecurityGroupIngress",
                "Properties": {**peer, **group, "FromPort": token, "ToPort": token},
            },
            "ByHand": {
                "Type": "AWS::EC2::SecurityGroupIngress",
                "Properties": {**peer, **group, "FromPort": 5432, "ToPort": 5432},
            },
        }
    }
    rules = security_group_rules(template)
    assert rules[0] == rules[1]


# --- embeddings --------------------------------------------------------------------------------------------


def test_no_sagemaker_without_embeddings_gpu(synth: Synth) -> None:
    for variant in ("dev", "prod", "dev-openai", "prod-openai"):
        assert not any(
            r["Type"].startswith("AWS::SageMaker::") for r in synth.templates[variant]["Resources"].values()
        )


def test_gpu_embeddings_scale_to_zero_with_inference_components(synth: Synth) -> None:
    for variant, instance_type in (("dev-gpu", "ml.g4dn.xlarge"), ("prod-gpu", "ml.g5.xlarge")):
        stage = stage_of(variant)
        template = synth.template(variant)
        template.has_resource_properties(
            "AWS::SageMaker::EndpointConfig",
            {
                "ProductionVariants": [
                    Match.object_like(
                        {
                            "InstanceType": instance_type,
                            "VariantName": "AllTraffic",
                            "ManagedInstanceScaling": Match.object_like(
                                {"Status": "ENABLED", "MinInstanceCount": 0}
                            ),
                        }
                    )
                ]
            },
        )
        template.has_resource_properties(
            "AWS::SageMaker::Endpoint", {"EndpointName": f"memorylayer-{stage}-embed"}
        )
        template.has_resource_properties(
            "AWS::SageMaker::InferenceComponent",
            {"InferenceComponentName": f"memorylayer-{stage}-embed-minilm", "VariantName": "AllTraffic"},
        )
        (target,) = synth.resources(variant, "AWS::ApplicationAutoScaling::ScalableTarget").values()
        assert target["Properties"]["MinCapacity"] == 0
        assert target["Properties"]["ScalableDimension"] == "sagemaker:inference-component:DesiredCopyCount"
        # No role named: Application Auto Scaling uses (and on a fresh account creates) its service-linked role,
        # and no role of CDK's stands in for it.
        assert "RoleARN" not in target["Properties"]
        assert "AWSServiceRoleForApplicationAutoScaling" not in json.dumps(synth.templates[variant])
        policies = [
            p["Properties"]
            for p in synth.resources(variant, "AWS::ApplicationAutoScaling::ScalingPolicy").values()
        ]
        assert {p["PolicyType"] for p in policies} == {"TargetTrackingScaling", "StepScaling"}
        # Scale-out from zero is driven by requests that found no capacity
        alarms = synth.resources(variant, "AWS::CloudWatch::Alarm").values()
        assert any(a["Properties"].get("MetricName") == "NoCapacityInvocationFailures" for a in alarms)
        env = env_of(synth, variant, "memory")
        assert env["MEMORYLAYER_SAGEMAKER_INFERENCE_COMPONENT_NAME"] == f"memorylayer-{stage}-embed-minilm"


# --- migrations and schedule -------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", STAGES)
def test_migrations_custom_resource_reruns_on_new_migration_files(synth: Synth, stage: str) -> None:
    resources = synth.templates[stage]["Resources"]
    (custom,) = synth.resources(stage, RESOURCE_TYPE).values()
    assert custom["Properties"]["MigrationsHash"] == migrations_hash()
    # A new recall statement (new plan-reusing functions to install) re-runs it too, with no new migration: the
    # walking, the sorting and a workspace's own function's statement each count.
    assert custom["Properties"]["RecallFunction"].split() == [
        hot_function(384).name,
        hot_function(384, walk=False).name,
        own_function(384, 0, "workspace").name,
    ]
    # The provider's framework function invokes the migrate function.
    framework = resources[ref_id(custom["Properties"]["ServiceToken"])]
    user_fn = framework["Properties"]["Environment"]["Variables"]["USER_ON_EVENT_FUNCTION_ARN"]
    assert ref_id(user_fn) == function_ids(synth, stage)["migrate"]
    # It waits for the database (cluster, writer and, in prod, the proxy).
    needed = set(synth.resources(stage, "AWS::RDS::DBCluster")) | set(
        synth.resources(stage, "AWS::RDS::DBProxy")
    )
    assert needed <= set(custom["DependsOn"])


def depends_on(resources: dict[str, Any], logical_id: str, target: str) -> bool:
    """Whether ``logical_id`` waits for ``target`` through a chain of DependsOn."""
    seen: set[str] = set()
    todo = [logical_id]
    while todo:
        current = todo.pop()
        if current == target:
            return True
        if current in seen:
            continue
        seen.add(current)
        deps = resources[current].get("DependsOn", [])
        todo += [deps] if isinstance(deps, str) else deps
    return False


@pytest.mark.parametrize("variant", ["dev", "prod", "prod-gpu"])
def test_code_waits_for_the_migrations(synth: Synth, variant: str) -> None:
    resources = synth.templates[variant]["Resources"]
    (custom,) = synth.resources(variant, RESOURCE_TYPE)
    ids = function_ids(synth, variant)
    waiting = [ids[name] for name in LAMBDA_PACKAGES if name != "migrate"]
    for type_ in (
        "AWS::Lambda::Alias",
        "AWS::Lambda::Version",
        "AWS::Lambda::EventSourceMapping",
        "AWS::Events::Rule",
    ):
        waiting += list(synth.resources(variant, type_))
    if stage_of(variant) == "prod":
        assert len(synth.resources(variant, "AWS::Lambda::Alias")) == len(SNAPSHOTTED)
    assert synth.resources(variant, "AWS::Lambda::EventSourceMapping")
    for logical_id in waiting:
        assert depends_on(resources, logical_id, custom), logical_id
    # The migrate function itself must not wait (the custom resource invokes it).
    assert not depends_on(resources, ids["migrate"], custom)


def test_migrations_hash_changes_with_the_files(tmp_path: Any) -> None:
    (tmp_path / "0001_init.sql").write_text("CREATE EXTENSION IF NOT EXISTS vector;")
    before = migrations_hash(tmp_path)
    (tmp_path / "0002_more.sql").write_text("SELECT 1;")
    assert migrations_hash(tmp_path) != before


def test_migrations_hash_covers_the_numbered_and_the_repeatable_files(tmp_path: Any) -> None:
    # Both folders exist where the hash looks (an empty glob would hash to a constant: no deploy re-runs migrate).
    assert sorted(MIGRATIONS_DIR.glob("*.sql")) and sorted(FUNCTIONS_DIR.glob("*.sql"))
    migrations, functions = tmp_path / "migrations", tmp_path / "functions"
    migrations.mkdir()
    functions.mkdir()
    (migrations / "0001_init.sql").write_text("CREATE EXTENSION IF NOT EXISTS vector;")
    (functions / "f.sql").write_text(
        "CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;"
    )
    before = migrations_hash(migrations, functions)
    (functions / "f.sql").write_text(
        "CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 2 $$;"
    )
    assert migrations_hash(migrations, functions) != before


@pytest.mark.parametrize(("stage", "rate"), [("dev", "rate(6 hours)"), ("prod", "rate(15 minutes)")])
def test_cleanup_schedule_lets_dev_pause(synth: Synth, stage: str, rate: str) -> None:
    cleanup = function_ids(synth, stage)["cleanup"]
    synth.template(stage).has_resource_properties(
        "AWS::Events::Rule",
        {
            "ScheduleExpression": rate,
            "State": "ENABLED",
            "Targets": [Match.object_like({"Arn": {"Fn::GetAtt": [cleanup, "Arn"]}})],
        },
    )


# --- observability -----------------------------------------------------------------------------------------


def test_alarms_cover_queue_api_functions_and_aurora_and_notify_a_subscriber(synth: Synth) -> None:
    alarms = list(synth.resources("prod", "AWS::CloudWatch::Alarm").values())
    (topic_id,) = synth.resources("prod", "AWS::SNS::Topic")
    (subscription,) = synth.resources("prod", "AWS::SNS::Subscription").values()
    assert subscription["Properties"]["Protocol"] == "email"
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for alarm in alarms:
        props = alarm["Properties"]
        name = props.get("MetricName") or "expression"
        by_metric.setdefault(name, []).append(props)
        assert props["AlarmActions"] == [{"Ref": topic_id}]
    dlq = by_metric["ApproximateNumberOfMessagesVisible"][0]
    assert dlq["Threshold"] == 0 and dlq["ComparisonOperator"] == "GreaterThanThreshold"
    assert "Dlq" in json.dumps(dlq["Dimensions"])
    # The 5xx *rate*: 5xx / requests, as a metric math expression
    (rate,) = by_metric["expression"]
    assert "5xx" in json.dumps(rate["Metrics"]) and "Count" in json.dumps(rate["Metrics"])
    n = len(LAMBDA_PACKAGES)
    # Every function, and the sandbox function (tests/infra/test_sandbox_function.py)
    assert len(by_metric["Errors"]) == n + 1 and len(by_metric["Throttles"]) == n + 1
    durations = by_metric["Duration"]
    assert len(durations) == n and all(d["ExtendedStatistic"] == "p99" for d in durations)
    # Concurrency near the reservation only for functions reserved above 1, and nothing is reserved unless asked
    # (tests/infra/test_concurrency.py)
    assert "ConcurrentExecutions" not in by_metric
    assert by_metric["ACUUtilization"][0]["Namespace"] == "AWS/RDS"
    assert by_metric["DatabaseConnections"][0]["Namespace"] == "AWS/RDS"
    assert len(synth.resources("prod", "AWS::CloudWatch::Dashboard")) == 1


def test_prod_refuses_to_synthesize_without_an_alarm_subscriber(tmp_path: Any) -> None:
    from aws_cdk import App

    from infra.app import create_stack

    app = App(
        context={"bundle": "skip", "bundle_dir": str(tmp_path), "region": REGION},
        outdir=str(tmp_path / "out"),
    )
    with pytest.raises(ValueError, match="alarm_email"):
        create_stack(app, "prod")


# --- template validity -------------------------------------------------------------------------------------

# cfn-lint findings we cannot fix, each with its reason. Errors are never ignored.
CFN_LINT_IGNORED = {
    # aws-cdk-lib itself adds DependsOn on a function's role (and its default policy) next to the GetAtt of the
    # role; and our "migrations before code" dependencies are construct-wide, so they repeat some implicit
    # ones. Redundant DependsOn is harmless to CloudFormation.
    "W3005": "redundant DependsOn emitted by aws-cdk-lib / construct-level dependencies",
}


def test_cfn_lint_has_no_findings_on_any_variant(synth: Synth) -> None:
    import subprocess
    import sys

    paths = [str(synth.template_path(v)) for v in ALL_VARIANTS]
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from cfnlint.runner import main; sys.exit(main())",
            "--format",
            "json",
            "--regions",
            "us-east-1",
            "--ignore-checks",
            *CFN_LINT_IGNORED,
            "--",
            *paths,
        ],
        capture_output=True,
        text=True,
    )
    findings = json.loads(result.stdout or "[]")
    assert findings == [], json.dumps(findings, indent=1)[:4000]
    assert result.returncode == 0, result.stderr[-2000:]


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
        "AWS::SecretsManager::Secret",
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


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_only_the_worker_may_ask_migrate_for_a_bulk_vector_graph_build(synth: Synth, variant: str) -> None:
    """A large bulk-written set is built into the HNSW graph by the owner (shared/db/vector_index.py): the worker
    invokes migrate asynchronously (action rebuild_vector_index), on that one function's ARN, by its name."""
    migrate_id = function_ids(synth, variant)["migrate"]
    env = env_of(synth, variant, "extraction")
    assert (
        env["MEMORYLAYER_VECTOR_REBUILD_FUNCTION"]
        == synth.templates[variant]["Resources"][migrate_id]["Properties"]["FunctionName"]
    )
    migrate_arn = {"Fn::GetAtt": [migrate_id, "Arn"]}
    for name in LAMBDA_PACKAGES:
        invokes = [
            s
            for s in statements_for(synth, variant, name)
            if "lambda:InvokeFunction" in actions_of(s) and migrate_id in json.dumps(s["Resource"])
        ]
        if name != "extraction":
            assert invokes == [], name
            assert "MEMORYLAYER_VECTOR_REBUILD_FUNCTION" not in env_of(synth, variant, name)
            continue
        (statement,) = invokes
        assert actions_of(statement) == ["lambda:InvokeFunction"]
        assert statement["Resource"] == migrate_arn


@pytest.mark.parametrize(("variant", "memory_mb"), [("dev", "2048"), ("prod", "4096")])
def test_a_bulk_graph_build_fits_the_writer_and_lambda(synth: Synth, variant: str, memory_mb: str) -> None:
    """The build's maintenance_work_mem is a quarter of the writer's memory at its maximum ACUs (dev 4 ACU = 8 GiB,
    prod 16), capped at 4 GiB; migrate may run Lambda's full 15 minutes; a failed build is not retried by Lambda
    (the worker asks again while the pending set is large)."""
    resources = synth.templates[variant]["Resources"]
    migrate_id = function_ids(synth, variant)["migrate"]
    assert env_of(synth, variant, "migrate")["MEMORYLAYER_VECTOR_BUILD_MEMORY_MB"] == memory_mb
    assert resources[migrate_id]["Properties"]["Timeout"] == 900
    (config,) = [
        r["Properties"]
        for r in synth.resources(variant, "AWS::Lambda::EventInvokeConfig").values()
        if r["Properties"]["FunctionName"] == {"Ref": migrate_id}
    ]
    assert config["MaximumRetryAttempts"] == 0
