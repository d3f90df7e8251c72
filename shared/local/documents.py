"""Local document store: a bucket on moto's server whose object-created events go to the document queue, as
the stack's bucket notification does in AWS (infra/documents.py).

    >>> with local_sqs(name="documents") as queues:                       # doctest: +SKIP
    ...     bucket = document_bucket(queues)
    ...     with SqsPoller(queues, documents_handler): ...
"""

from __future__ import annotations

from shared.local.sqs import REGION, LocalQueues

BUCKET = "memorylayer-documents"
PREFIX = "documents/"


def document_bucket(queues: LocalQueues, *, name: str = BUCKET) -> str:
    """Create the bucket on the queues' moto server and send its ``documents/`` object-created events to the
    queue; returns the bucket's name."""
    import boto3

    s3 = boto3.client("s3", endpoint_url=queues.endpoint_url, region_name=REGION)
    s3.create_bucket(Bucket=name)
    s3.put_bucket_notification_configuration(
        Bucket=name,
        NotificationConfiguration={
            "QueueConfigurations": [
                {
                    "QueueArn": queues.queue_arn,
                    "Events": ["s3:ObjectCreated:*"],
                    "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": PREFIX}]}},
                }
            ]
        },
    )
    return name
