"""Lambda "documents": SQS batches from the document queue (the bucket's object-created events and reprocess
messages), with partial batch failure.

A record that fails is reported in ``batchItemFailures`` and redelivered by SQS; after the queue's
maxReceiveCount it lands in the DLQ, and the job (marked on its last attempt, or at once when the bytes are
refused) shows ``failed`` with the reason.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from shared.app.bootstrap import process_services
from shared.domain.documents.messages import work
from shared.providers.metrics import lambda_metrics
from shared.providers.tracing import lambda_tracer

logger = Logger(service="memorylayer-documents")
tracer = lambda_tracer("memorylayer-documents")  # OpenTelemetry to X-Ray, see shared/providers/tracing.py
metrics = Metrics(namespace="MemoryLayer", service="documents")
# One record a batch (infra/functions.py): by default Powertools raises when every record failed, which would
# make each refused file an invocation error (the Errors alarm) instead of a reported record.
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> list[dict]:
    pipeline = process_services("worker").documents.pipeline
    final = int(record.attributes.approximate_receive_count or 1) >= pipeline.settings.document_max_attempts
    results = []
    for unit in work(record.body):
        if unit[0] == "object":
            results.append(pipeline.run_object(unit[1], final_attempt=final))
        else:
            results.append(pipeline.run(unit[1], unit[2], final_attempt=final))
    logger.info("document work", extra={"results": results})
    return results


@logger.inject_lambda_context
@tracer.invocation  # a span per invocation, flushed before it returns; no bodies in traces
@metrics.log_metrics(capture_cold_start_metric=True)
@lambda_metrics("documents")  # the series of shared/core/metrics.py, as EMF, flushed per invocation
def handler(event: dict, context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
