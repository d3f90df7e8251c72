"""The document store: the bucket uploads land in, its object-created events on the document queue (with a
DLQ), and the grants the API and the documents function need (docs/documents.md).

The bucket holds user data: KMS-encrypted with the stack's key (S3 Bucket Keys, so a busy bucket does not pay a
KMS call per object), every public access blocked, TLS only, retained where the stage retains data. A presigned upload that never
completes leaves no parts behind (aborted after a day), and idle it costs nothing but the bytes kept.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_notifications as s3n
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.config import StageConfig
from infra.nag import acknowledge
from infra.queue import MAX_RECEIVE_COUNT

PREFIX = "documents/"  # shared.domain.documents.service.storage_key


class DocumentStore(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: StageConfig,
        key: kms.IKey,
        consumer_timeout: Duration,
    ) -> None:
        super().__init__(scope, construct_id)
        retain = config.retain_data
        self.bucket = s3.Bucket(
            self,
            "Bucket",
            encryption=s3.BucketEncryption.KMS,
            encryption_key=key,
            bucket_key_enabled=True,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            lifecycle_rules=[s3.LifecycleRule(abort_incomplete_multipart_upload_after=Duration.days(1))],
            # Kept in prod on a delete, removed when the deploy that created it rolls back (it is empty then).
            removal_policy=config.removal_policy,
            auto_delete_objects=not retain,
        )
        acknowledge(
            self.bucket,
            "AwsSolutions-S1",
            "Uploads reach the bucket only through the API role and presigned POSTs it signs; every document's "
            "upload, processing and deletion is recorded in its rows and job states, and object-level access "
            "can be audited with CloudTrail data events where the account enables them.",
        )
        # The extraction queue's shape (3 receives, then the DLQ), encrypted by SQS (SSE-SQS): the messages hold
        # object keys, never document bytes, and S3 can send to such a queue without a grant on the stack's key
        # (that grant, conditioned on this bucket, would be a cycle: the bucket is encrypted with the key).
        self.dead_letter_queue = sqs.Queue(
            self,
            "Dlq",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
            removal_policy=RemovalPolicy.DESTROY,  # not data: the document rows hold the jobs
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=Duration.seconds(consumer_timeout.to_seconds() * 6),
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=self.dead_letter_queue, max_receive_count=MAX_RECEIVE_COUNT
            ),
            removal_policy=RemovalPolicy.DESTROY,
        )
        self.bucket.add_event_notification(
            s3.EventType.OBJECT_CREATED,
            s3n.SqsDestination(self.queue),
            s3.NotificationKeyFilter(prefix=PREFIX),
        )
        # aws-cdk-lib's singleton function that writes the bucket's notification configuration at deploy time.
        handler = next(
            child
            for child in Stack.of(self).node.children
            if child.node.id.startswith("BucketNotificationsHandler")
        )
        acknowledge(
            handler,
            "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
            "aws-cdk-lib generates the bucket-notifications handler with this managed policy; it only writes its "
            "own logs and puts this bucket's notification configuration during a deploy.",
        )

    def grant_api(self, role: iam.IGrantable, key: kms.IKey) -> None:
        """The API: store uploads, hand out presigned POSTs (signed with its own rights), read for verify,
        delete; and send reprocess messages."""
        self._objects(role, ["s3:PutObject", "s3:GetObject", "s3:DeleteObject"], key, encrypt=True)
        role.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self.queue.queue_arn])
        )

    def grant_worker(self, role: iam.IGrantable, key: kms.IKey) -> None:
        """The documents function: read the bytes, delete a duplicate presigned upload's object (its queue
        is consumed through the event source mapping, which grants itself)."""
        self._objects(role, ["s3:GetObject", "s3:DeleteObject"], key, encrypt=False)

    def _objects(self, role: iam.IGrantable, actions: list[str], key: kms.IKey, *, encrypt: bool) -> None:
        role.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=actions, resources=[self.bucket.arn_for_objects(f"{PREFIX}*")])
        )
        principal = role.grant_principal
        if isinstance(principal, Construct):
            bucket_id = Stack.of(self).get_logical_id(self.bucket.node.default_child)  # type: ignore[arg-type]
            acknowledge(
                principal,
                f"AwsSolutions-IAM5[Resource::<{bucket_id}.Arn>/{PREFIX}*]",
                "Object keys are made per document at upload (documents/<workspace>/<document>/...); the "
                "document prefix of this one bucket is the narrowest resource the grant can name.",
            )
        kms_actions = ["kms:Decrypt", "kms:GenerateDataKey"] if encrypt else ["kms:Decrypt"]
        role.grant_principal.add_to_principal_policy(
            iam.PolicyStatement(actions=kms_actions, resources=[key.key_arn])
        )

    def add_alarms(self, topic: sns.ITopic) -> list[cw.Alarm]:
        """A document in the DLQ (its job failed with the reason), and documents waiting over 15 minutes."""
        alarms = [
            self.dead_letter_queue.metric_approximate_number_of_messages_visible(
                period=Duration.minutes(5)
            ).create_alarm(
                self,
                "DlqDepth",
                alarm_description="Documents failed and their events are parked in the document DLQ",
                threshold=0,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            ),
            self.queue.metric_approximate_age_of_oldest_message(period=Duration.minutes(5)).create_alarm(
                self,
                "QueueAge",
                alarm_description="Documents wait more than 15 minutes to be processed",
                threshold=15 * 60,
                evaluation_periods=2,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            ),
        ]
        for alarm in alarms:
            alarm.add_alarm_action(cw_actions.SnsAction(topic))
        return alarms
