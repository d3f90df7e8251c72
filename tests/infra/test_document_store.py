"""infra/documents.py with aws_cdk.assertions, on a stack of its own (tests/infra/test_stack.py checks it wired into
the deployed stack): the bucket's encryption, public-access block, TLS-only policy and lifecycle, its event to the KMS-encrypted
queue with a DLQ (SSE-SQS), least-privilege grants and the alarms."""

from __future__ import annotations

import os

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import pytest  # noqa: E402
from aws_cdk import App, Duration, Stack  # noqa: E402
from aws_cdk import aws_iam as iam  # noqa: E402
from aws_cdk import aws_kms as kms  # noqa: E402
from aws_cdk import aws_sns as sns  # noqa: E402
from aws_cdk.assertions import Match, Template  # noqa: E402

from infra.config import StageConfig  # noqa: E402
from infra.documents import DocumentStore  # noqa: E402


@pytest.fixture(scope="module", params=["dev", "prod"])
def template(request: pytest.FixtureRequest) -> Template:
    stack = Stack(App(), f"Docs{request.param.title()}")
    key = kms.Key(stack, "Key")
    store = DocumentStore(
        stack,
        "Documents",
        config=StageConfig.for_stage(request.param),
        key=key,
        consumer_timeout=Duration.minutes(5),
    )
    api = iam.Role(stack, "ApiRole", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    worker = iam.Role(stack, "WorkerRole", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    store.grant_api(api, key)
    store.grant_worker(worker, key)
    store.add_alarms(sns.Topic(stack, "Alarms"))
    out = Template.from_stack(stack)
    out.stage = request.param  # type: ignore[attr-defined]
    return out


def test_bucket_is_encrypted_private_tls_only_and_aborts_stale_uploads(template: Template) -> None:
    template.has_resource_properties(
        "AWS::S3::Bucket",
        {
            "BucketEncryption": {
                "ServerSideEncryptionConfiguration": [
                    Match.object_like(
                        {
                            "BucketKeyEnabled": True,
                            "ServerSideEncryptionByDefault": Match.object_like({"SSEAlgorithm": "aws:kms"}),
                        }
                    )
                ]
            },
            "PublicAccessBlockConfiguration": {
                "BlockPublicAcls": True,
                "BlockPublicPolicy": True,
                "IgnorePublicAcls": True,
                "RestrictPublicBuckets": True,
            },
            "LifecycleConfiguration": {
                "Rules": [Match.object_like({"AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1}})]
            },
        },
    )
    template.has_resource_properties(
        "AWS::S3::BucketPolicy",
        {
            "PolicyDocument": {
                "Statement": Match.array_with(
                    [
                        Match.object_like(
                            {"Effect": "Deny", "Condition": {"Bool": {"aws:SecureTransport": "false"}}}
                        )
                    ]
                )
            }
        },
    )
    bucket = next(iter(template.find_resources("AWS::S3::Bucket").values()))
    # Kept in prod, except when the deploy that created it rolls back (it is empty then: no retry collides)
    expected = "RetainExceptOnCreate" if template.stage == "prod" else "Delete"  # type: ignore[attr-defined]
    assert bucket["DeletionPolicy"] == expected


def test_object_created_events_go_to_the_queue_with_a_dlq(template: Template) -> None:
    template.resource_count_is("AWS::SQS::Queue", 2)
    template.has_resource_properties(
        "AWS::SQS::Queue",
        {"SqsManagedSseEnabled": True, "RedrivePolicy": Match.object_like({"maxReceiveCount": 3})},
    )
    template.has_resource_properties(
        "Custom::S3BucketNotifications",
        {
            "NotificationConfiguration": {
                "QueueConfigurations": [
                    Match.object_like(
                        {
                            "Events": ["s3:ObjectCreated:*"],
                            "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "documents/"}]}},
                        }
                    )
                ]
            }
        },
    )


def _statements(template: Template, role: str) -> list[dict]:
    policies = template.find_resources("AWS::IAM::Policy")
    return [
        s
        for p in policies.values()
        if any(r["Ref"].startswith(role) for r in p["Properties"]["Roles"])
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_grants_are_least_privilege(template: Template) -> None:
    api = {a for s in _statements(template, "ApiRole") for a in _list(s["Action"])}
    worker = {a for s in _statements(template, "WorkerRole") for a in _list(s["Action"])}
    assert api == {"s3:PutObject", "s3:GetObject", "s3:DeleteObject", "sqs:SendMessage", "kms:Decrypt",
                   "kms:GenerateDataKey"}  # fmt: skip
    assert worker == {"s3:GetObject", "s3:DeleteObject", "kms:Decrypt"}
    for s in _statements(template, "ApiRole") + _statements(template, "WorkerRole"):
        assert s["Resource"] != "*"
        if any(a.startswith("s3:") for a in _list(s["Action"])):
            assert "documents/*" in str(s["Resource"])  # objects under the prefix, never the bucket itself


def test_alarms_on_the_dlq_and_the_queue_age(template: Template) -> None:
    template.resource_count_is("AWS::CloudWatch::Alarm", 2)
    template.has_resource_properties(
        "AWS::CloudWatch::Alarm",
        {
            "MetricName": "ApproximateNumberOfMessagesVisible",
            "Threshold": 0,
            "AlarmActions": Match.any_value(),
        },
    )
    template.has_resource_properties(
        "AWS::CloudWatch::Alarm", {"MetricName": "ApproximateAgeOfOldestMessage", "Threshold": 900}
    )


def _list(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else value
