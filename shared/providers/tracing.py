"""OpenTelemetry tracing to AWS X-Ray: a span around each Lambda invocation, and spans around the database units
of work, the embedding calls, the LLM calls and boto3's calls.

    >>> tracer = lambda_tracer("memorylayer-memory")             # in a handler module    # doctest: +SKIP
    >>> @tracer.invocation                                        # doctest: +SKIP
    ... def handler(event, context): ...
    >>> with span("db.connection"):                               # anywhere; a no-op unless tracing is on
    ...     pass

The plain OpenTelemetry SDK, not the ADOT Lambda layer (a wrapper script and auto-instrumentation of every
library for a handful of spans of ours; infra/README.md, "Tracing", says why). Spans carry X-Ray trace ids and
continue the trace Lambda starts for the invocation (``_X_AMZN_TRACE_ID``: Lambda's sampling decision is ours).
They leave as OTLP, all of an invocation's at once before the handler returns (Lambda freezes the process after
it): by default over UDP to the X-Ray agent Lambda runs beside a function with active tracing, on loopback, so
no VPC route or endpoint is needed; with ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` over HTTP to that URL instead,
SigV4-signed when it is X-Ray's own OTLP endpoint.

Tracing is on only in a Lambda (``AWS_LAMBDA_FUNCTION_NAME``) with somewhere to send spans (that endpoint, or
the agent's ``AWS_XRAY_DAEMON_ADDRESS``) and ``OTEL_SDK_DISABLED`` not true. Where it is off the SDK is never
imported and the ``traced_*`` wrappers return their argument unchanged, so local runs and tests pay nothing.
Spans carry names, counts and model ids, never content: no request or response bodies, no boto3 parameters,
exceptions by type only (their messages can quote input). No global tracer provider is set, so only the spans
made here leave: FastAPI's own OpenTelemetry spans would record query strings, which can hold entity names.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from shared.db.pool import Database
from shared.db.rows import Connection
from shared.providers.embeddings.base import Embedder
from shared.providers.llm.base import LLMClient, LLMUsage

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

    from shared.providers.trace_export import PerInvocationProcessor

# Where spans can go (shared/providers/trace_export.py reads them): an OTLP/HTTP endpoint, or Lambda's X-Ray agent.
ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
AGENT_ENV = "AWS_XRAY_DAEMON_ADDRESS"

_tracer: Tracer | None = None  # set once tracing is on in this process
_provider: TracerProvider | None = None
_processor: PerInvocationProcessor | None = None
# No invocation yet in this process (a SnapStart restore starts from a snapshot taken before any).
_cold = True

F = TypeVar("F", bound=Callable[..., Any])


def tracing_configured(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this process traces: in a Lambda, with an exporter destination, the SDK not switched off."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return bool(environ.get("AWS_LAMBDA_FUNCTION_NAME")) and bool(
        environ.get(ENDPOINT_ENV) or environ.get(AGENT_ENV)
    )


class LambdaTracer:
    """One Lambda function's tracing: ``invocation`` wraps its handler (or returns it as it is when off)."""

    def __init__(self, service: str, enabled: bool) -> None:
        self.service = service
        self.enabled = enabled

    def invocation(self, fn: F) -> F:
        """A span ``## <handler>`` around each invocation, a child of Lambda's own segment, exported before
        the handler returns."""
        if not self.enabled:
            return fn
        name = f"## {fn.__name__}"

        @functools.wraps(fn)
        def traced(event: Any, context: Any) -> Any:
            global _cold
            from opentelemetry.trace import SpanKind

            assert _tracer is not None
            attributes: dict[str, Any] = {"faas.coldstart": _cold}
            request_id = getattr(context, "aws_request_id", None)
            if request_id:
                attributes["faas.invocation_id"] = str(request_id)
            _cold = False
            try:
                with _tracer.start_as_current_span(
                    name,
                    context=_lambda_parent(),
                    kind=SpanKind.SERVER,
                    attributes=attributes,
                    record_exception=False,
                    set_status_on_exception=False,
                ) as current:
                    try:
                        return fn(event, context)
                    except Exception as exc:
                        _failed(current, exc)
                        raise
            finally:
                flush()

        return traced  # type: ignore[return-value]


def lambda_tracer(service: str) -> LambdaTracer:
    """The tracer of one Lambda function; turns the spans below on when tracing is configured."""
    if tracing_configured():
        _start(service)
    return LambdaTracer(service, enabled())


def enabled() -> bool:
    return _tracer is not None


def flush() -> None:
    """Export the spans ended so far (the invocation wrapper calls it; nothing happens when tracing is off)."""
    if _processor is not None:
        _processor.force_flush()


@contextmanager
def span(name: str, **attributes: str | int | float | bool) -> Iterator[None]:
    """A span around the block, a child of the current one (attributes: keep them small and content-free)."""
    if _tracer is None:
        yield
        return
    with _tracer.start_as_current_span(
        name, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as current:
        try:
            yield
        except Exception as exc:
            _failed(current, exc)
            raise


def _failed(current: Span, exc: BaseException) -> None:
    """Mark a span failed by the exception's type alone: messages can quote input (pydantic's do)."""
    from opentelemetry.trace import StatusCode

    current.set_attribute("error.type", f"{type(exc).__module__}.{type(exc).__qualname__}")
    current.set_status(StatusCode.ERROR)


def _lambda_parent() -> Any:
    """The context of the segment Lambda opened for this invocation (its id, trace id and sampling decision
    are in ``_X_AMZN_TRACE_ID``, which the runtime sets per invocation); an empty context without one."""
    from opentelemetry.propagators.aws import AwsXRayPropagator

    return AwsXRayPropagator().extract({"X-Amzn-Trace-Id": os.environ.get("_X_AMZN_TRACE_ID", "")})


def _start(service: str) -> None:
    """Build the provider once per process: X-Ray ids, Lambda's sampling decision, one exporter."""
    global _tracer, _provider, _processor
    if _tracer is not None:
        return
    from opentelemetry.sdk.extension.aws.trace import AwsXRayIdGenerator
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ParentBased

    env = os.environ
    lambda_attributes = {
        "cloud.region": env.get("AWS_REGION"),
        "faas.name": env.get("AWS_LAMBDA_FUNCTION_NAME"),
        "faas.version": env.get("AWS_LAMBDA_FUNCTION_VERSION"),
    }
    attributes = {"cloud.provider": "aws", "cloud.platform": "aws_lambda"}
    attributes.update({key: value for key, value in lambda_attributes.items() if value})
    if not env.get("OTEL_SERVICE_NAME"):  # the SDK reads it itself when the stack sets it
        attributes[SERVICE_NAME] = service
    # Without a parent from Lambda nothing is recorded unless OTEL_TRACES_SAMPLER says otherwise: the X-Ray
    # sampling rules Lambda applies are the only sampling decision.
    sampler = None if env.get("OTEL_TRACES_SAMPLER") else ParentBased(ALWAYS_OFF)
    provider = TracerProvider(
        resource=Resource.create(attributes), id_generator=AwsXRayIdGenerator(), sampler=sampler
    )
    from shared.providers.trace_export import PerInvocationProcessor, exporter_from_env

    processor = PerInvocationProcessor(exporter_from_env(env))
    provider.add_span_processor(processor)
    _provider, _processor = provider, processor
    _tracer = provider.get_tracer("memorylayer")
    _trace_botocore()


def _trace_botocore() -> None:
    """A client span per boto3 call (SQS, Secrets Manager, SageMaker, Lambda): service, operation, region,
    request id and status, never the parameters or the response. A few lines instead of the botocore
    instrumentation, which also rewrites SQS message attributes and Lambda client contexts."""
    from botocore.client import BaseClient
    from opentelemetry.trace import SpanKind

    original = BaseClient._make_api_call
    if getattr(original, "__memorylayer_traced__", False):
        return

    def _make_api_call(self: Any, operation_name: str, api_params: dict[str, Any]) -> Any:
        if _tracer is None:
            return original(self, operation_name, api_params)
        service = str(self.meta.service_model.service_id)
        with _tracer.start_as_current_span(
            f"{service}.{operation_name}",
            kind=SpanKind.CLIENT,
            attributes={
                "rpc.system": "aws-api",
                "rpc.service": service,
                "rpc.method": operation_name,
                "cloud.region": str(self.meta.region_name or ""),
            },
            record_exception=False,
            set_status_on_exception=False,
        ) as current:
            try:
                result = original(self, operation_name, api_params)
            except Exception as exc:
                _response_metadata(current, getattr(exc, "response", None))
                _failed(current, exc)
                raise
            _response_metadata(current, result)
            return result

    _make_api_call.__memorylayer_traced__ = True  # type: ignore[attr-defined]
    BaseClient._make_api_call = _make_api_call


def _response_metadata(current: Span, response: Any) -> None:
    meta = response.get("ResponseMetadata", {}) if isinstance(response, dict) else {}
    if meta.get("RequestId"):
        current.set_attribute("aws.request_id", str(meta["RequestId"]))
    if meta.get("HTTPStatusCode"):
        current.set_attribute("http.response.status_code", int(meta["HTTPStatusCode"]))


class TracedDatabase(Database):
    """A ``Database`` whose units of work (a borrowed connection, a transaction) are spans."""

    def __init__(self, inner: Database) -> None:  # the pool stays the inner database's
        self._inner = inner

    @contextmanager
    def connection(self, *, pipelined: bool = False) -> Iterator[Connection]:
        with span("db.connection"), self._inner.connection(pipelined=pipelined) as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with span("db.transaction"), self._inner.transaction() as conn:
            yield conn

    def close(self) -> None:
        self._inner.close()

    def __getattr__(self, name: str) -> Any:  # pool, and whatever else the database grows
        return getattr(self._inner, name)


class TracedEmbedder(Embedder):
    """An ``Embedder`` whose calls are spans, with the model and the number of texts."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        with span("embedding", model=self._inner.model_id, texts=len(texts)):
            return self._inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        with span("embedding", model=self._inner.model_id, texts=1):
            return self._inner.embed_query(text)

    def __getattr__(self, name: str) -> Any:  # batch_size and provider specifics
        return getattr(self._inner, name)


class TracedLLM(LLMClient):
    """An ``LLMClient`` whose calls are spans, with the provider and the model."""

    def __init__(self, inner: LLMClient) -> None:
        self._inner = inner
        self.provider = inner.provider
        self.model = inner.model

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], *, name: str = "result"
    ) -> tuple[dict[str, Any], LLMUsage]:
        with span("llm", provider=self.provider, model=self.model):
            return self._inner.complete_json(system, prompt, schema, name=name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def traced_database(db: Database) -> Database:
    return TracedDatabase(db) if enabled() and not isinstance(db, TracedDatabase) else db


def traced_embedder(embedder: Embedder) -> Embedder:
    return TracedEmbedder(embedder) if enabled() and not isinstance(embedder, TracedEmbedder) else embedder


def traced_llm(llm: LLMClient | None) -> LLMClient | None:
    return TracedLLM(llm) if llm is not None and enabled() and not isinstance(llm, TracedLLM) else llm
