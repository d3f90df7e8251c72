"""Local SQS: moto's server, the extraction queue with its DLQ, and a poller that turns queue messages into
real Lambda SQS events for ``functions/extraction/handler.py`` and honours ``batchItemFailures``. Each queue
has its own poller (``job_readers``): one kind of message never waits behind another's long run.

    >>> with local_sqs(port=0) as queues:                                   # doctest: +SKIP
    ...     with SqsPoller(queues, handler):                                # doctest: +SKIP
    ...         ...

Messages the handler reports as failed are not deleted: they come back after the visibility timeout, and
after ``max_receive_count`` receives SQS's redrive policy moves them to the DLQ — as in AWS.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from shared.local.lambda_context import LambdaContext
from shared.local.processes import die_with_parent
from shared.local.server import free_port

log = logging.getLogger(__name__)
REGION = "us-east-1"


@dataclass
class LocalQueues:
    endpoint_url: str
    queue_url: str
    queue_arn: str
    dlq_url: str
    client: Any
    server_pid: int = 0  # moto's process


@contextmanager
def local_sqs(
    *, port: int = 0, visibility_timeout_s: int = 2, max_receive_count: int = 3, name: str = "extraction"
) -> Iterator[LocalQueues]:
    """Start moto's SQS server on loopback — its own process, so it never competes with the API for the GIL —
    and create ``<name>`` with a DLQ (redrive after ``max_receive_count`` receives)."""
    import boto3

    # moto and boto3 need credentials to sign with; locally any value does.
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    port = port or free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Its own process group (a terminal's Ctrl-C reaches only us, and we stop it), and it dies with us.
        start_new_session=True,
        preexec_fn=die_with_parent(signal.SIGTERM),  # noqa: PLW1509 - prctl must run in the child
    )
    try:
        _wait_ready(endpoint, server)
        client = boto3.client("sqs", endpoint_url=endpoint, region_name=REGION)
        queues = _create(client, endpoint, name, visibility_timeout_s, max_receive_count, server.pid)
        yield queues
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def add_queue(
    queues: LocalQueues, name: str, *, visibility_timeout_s: int = 2, max_receive_count: int = 3
) -> LocalQueues:
    """Another queue with its DLQ on the same moto server (one process serves every queue and bucket)."""
    return _create(
        queues.client, queues.endpoint_url, name, visibility_timeout_s, max_receive_count, queues.server_pid
    )


def _create(
    client: Any, endpoint: str, name: str, visibility_timeout_s: int, max_receive_count: int, pid: int
) -> LocalQueues:
    dlq_url = client.create_queue(QueueName=f"{name}-dlq")["QueueUrl"]
    dlq_arn = client.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    redrive = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(max_receive_count)})
    queue_url = client.create_queue(
        QueueName=name,
        Attributes={"VisibilityTimeout": str(visibility_timeout_s), "RedrivePolicy": redrive},
    )["QueueUrl"]
    arn = client.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    return LocalQueues(endpoint, queue_url, arn, dlq_url, client, pid)


def _wait_ready(endpoint: str, server: subprocess.Popen, timeout_s: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"moto server exited with {server.returncode}")
        try:
            httpx.get(f"{endpoint}/moto-api/", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError(f"moto server did not start at {endpoint}")


def lambda_event(queues: LocalQueues, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The event AWS Lambda's SQS event source would deliver for these received messages."""
    records = []
    for m in messages:
        attrs = m.get("Attributes", {})
        records.append(
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": {
                    "ApproximateReceiveCount": attrs.get("ApproximateReceiveCount", "1"),
                    "SentTimestamp": attrs.get("SentTimestamp", str(int(time.time() * 1000))),
                    "SenderId": attrs.get("SenderId", "AIDAIENQZJOLO23YVJ4VO"),
                    "ApproximateFirstReceiveTimestamp": attrs.get(
                        "ApproximateFirstReceiveTimestamp", str(int(time.time() * 1000))
                    ),
                },
                "messageAttributes": {},
                "md5OfBody": hashlib.md5(m["Body"].encode()).hexdigest(),  # noqa: S324 - SQS's own checksum
                "eventSource": "aws:sqs",
                "eventSourceARN": queues.queue_arn,
                "awsRegion": REGION,
            }
        )
    return {"Records": records}


@contextmanager
def job_readers(
    extraction: LocalQueues, indexing: LocalQueues, handler: Callable[[dict, Any], dict]
) -> Iterator[list[SqsPoller]]:
    """The extraction function's two queues, each with a reader of its own: in AWS every message gets an
    invocation of its own soon enough (Lambda scales out), while one local reader would serve them in line, and
    a vector-indexing run of many seconds would hold up every extraction job queued behind it."""
    with SqsPoller(extraction, handler) as jobs, SqsPoller(indexing, handler) as index:
        yield [jobs, index]


class SqsPoller:
    """Long-polls the queue and invokes ``handler(event, context)`` in-process, like Lambda's event source."""

    def __init__(
        self,
        queues: LocalQueues,
        handler: Callable[[dict, Any], dict],
        *,
        batch_size: int = 10,
        function: str = "memorylayer-extraction",
    ) -> None:
        self.queues = queues
        self.handler = handler
        self.batch_size = batch_size
        self.function = function
        self._stop = threading.Event()
        name = f"sqs-poller-{queues.queue_url.rsplit('/', 1)[-1]}"
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self.invocations = 0

    def __enter__(self) -> SqsPoller:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def poll_once(self, wait_s: int = 1) -> int:
        """Receive one batch, invoke the handler, delete what succeeded. Returns messages received."""
        received = self.queues.client.receive_message(
            QueueUrl=self.queues.queue_url,
            MaxNumberOfMessages=self.batch_size,
            WaitTimeSeconds=wait_s,
            AttributeNames=["All"],
        ).get("Messages", [])
        if not received:
            return 0
        event = lambda_event(self.queues, received)
        self.invocations += 1
        try:
            response = self.handler(event, LambdaContext.for_function(self.function, timeout_ms=60_000)) or {}
            failed = {f["itemIdentifier"] for f in response.get("batchItemFailures", [])}
        except Exception:  # the whole invocation failed: every message is retried, as in Lambda
            log.exception("%s handler failed", self.function)
            failed = {m["MessageId"] for m in received}
        done = [m for m in received if m["MessageId"] not in failed]
        if done:
            self.queues.client.delete_message_batch(
                QueueUrl=self.queues.queue_url,
                Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)],
            )
        return len(received)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # keep polling through transient errors (e.g. server restarting)
                log.exception("sqs poll failed")
                self._stop.wait(1)
