"""The extraction job queue and its dead-letter queue, both KMS-encrypted and TLS-only.

Neither holds data: the job row in Postgres is the outbox (the scheduled cleanup re-sends a job whose message
was lost), so both are removed with the stack and named by CloudFormation, and a second deploy never meets a
queue name still held by a deleted one.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.config import StageConfig

MAX_RECEIVE_COUNT = 3


class ExtractionQueue(Construct):
    """Jobs are retried ``MAX_RECEIVE_COUNT`` times, then parked in the DLQ where an alarm sees them."""

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
        self.dead_letter_queue = sqs.Queue(
            self,
            "Dlq",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=key,
            # Reusing a data key for 5 minutes cuts KMS calls (and cost) for bursts of jobs.
            data_key_reuse=Duration.minutes(5),
            enforce_ssl=True,
            retention_period=Duration.days(14),
            removal_policy=RemovalPolicy.DESTROY,  # not data: see the class docstring
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            encryption=sqs.QueueEncryption.KMS,
            encryption_master_key=key,
            data_key_reuse=Duration.minutes(5),
            enforce_ssl=True,
            # AWS's guidance for Lambda consumers: six times the function timeout, so a batch retried inside
            # the poller is not redelivered while a worker still holds it.
            visibility_timeout=Duration.seconds(consumer_timeout.to_seconds() * 6),
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=self.dead_letter_queue, max_receive_count=MAX_RECEIVE_COUNT
            ),
            removal_policy=RemovalPolicy.DESTROY,  # not data: see the class docstring
        )
