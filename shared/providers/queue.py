"""The job queues (extraction, vector indexing, documents): SQS in AWS, moto's SQS server locally, the same boto3 calls either way.

>>> queue = create_queue(Settings(extraction_queue_url="http://127.0.0.1:61002/123456789012/extraction",
...                               sqs_endpoint_url="http://127.0.0.1:61002"))        # doctest: +SKIP
>>> queue.send({"job_id": "job_1"})                                                 # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from typing import Any

from shared.core.settings import Settings

log = logging.getLogger(__name__)


class JobQueue(ABC):
    @abstractmethod
    def send(self, message: dict[str, Any]) -> bool:
        """Enqueue; False when the message could not be sent (the job stays queued in the database)."""


class SqsJobQueue(JobQueue):
    def __init__(self, queue_url: str, *, endpoint_url: str | None = None, region: str = "us-east-1") -> None:
        import boto3  # imported on first use: a Lambda that never enqueues never pays for it

        self.queue_url = queue_url
        self.client = boto3.client("sqs", endpoint_url=endpoint_url, region_name=region)

    def send(self, message: dict[str, Any]) -> bool:
        try:
            self.client.send_message(QueueUrl=self.queue_url, MessageBody=json.dumps(message))
            return True
        except Exception:  # the caller's data is already durable; a sweeper re-sends stale jobs
            log.exception("could not enqueue %s", message)
            return False


class NoQueue(JobQueue):
    """No queue configured: jobs stay queued until POST /decompose or a sweeper runs them."""

    def send(self, message: dict[str, Any]) -> bool:
        log.info("no extraction queue configured; not enqueued: %s", message)
        return False


def create_queue(settings: Settings) -> JobQueue:
    if not settings.extraction_queue_url:
        return NoQueue()
    return SqsJobQueue(
        settings.extraction_queue_url, endpoint_url=settings.sqs_endpoint_url, region=settings.aws_region
    )


def create_indexing_queue(settings: Settings) -> JobQueue:
    """Where vector-indexing asks go: their own queue when one is configured, else the extraction queue."""
    url = settings.indexing_queue_url or settings.extraction_queue_url
    if not url:
        return NoQueue()
    return SqsJobQueue(url, endpoint_url=settings.sqs_endpoint_url, region=settings.aws_region)


def create_document_queue(settings: Settings) -> JobQueue:
    """The document queue: the bucket's object-created events, and reprocess requests (no new object)."""
    if not settings.document_queue_url:
        return NoQueue()
    return SqsJobQueue(
        settings.document_queue_url, endpoint_url=settings.sqs_endpoint_url, region=settings.aws_region
    )
