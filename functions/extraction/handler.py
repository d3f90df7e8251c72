"""Lambda "extraction": SQS batches of extraction jobs, with partial batch failure.

A record that fails is reported in ``batchItemFailures`` and redelivered by SQS; after the queue's
maxReceiveCount it lands in the DLQ and the job (marked on its last attempt) shows ``failed``.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.app.bootstrap import process_services
from shared.providers.metrics import lambda_metrics
from shared.providers.tracing import lambda_tracer

logger = Logger(service="memorylayer-extraction")
tracer = lambda_tracer("memorylayer-extraction")  # OpenTelemetry to X-Ray, see shared/providers/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="extraction")
processor = BatchProcessor(event_type=EventType.SQS)


def record_handler(record: SQSRecord) -> dict:
    result = process_services("worker").worker.process(
        record.body, receive_count=int(record.attributes.approximate_receive_count or 1)
    )
    logger.info("extraction job", extra={"result": {k: v for k, v in result.items() if k != "memory_ids"}})
    return result


@logger.inject_lambda_context
@tracer.invocation  # a span per invocation, flushed before it returns; no bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
@lambda_metrics("extraction")  # the series of shared/core/metrics.py, as EMF, flushed per invocation
def handler(event: dict, context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
