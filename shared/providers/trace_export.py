"""Where a traced Lambda's spans go (imported by ``shared.providers.tracing`` only once tracing is on): a span processor
that holds an invocation's spans until its flush, and the two OTLP exporters it hands them to.

    >>> exporter = exporter_from_env({"AWS_XRAY_DAEMON_ADDRESS": "169.254.79.129:2000"})
    >>> type(exporter).__name__, exporter.address
    ('XRayAgentExporter', ('169.254.79.129', 2000))
    >>> exporter.shutdown()
    >>> exporter_from_env({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://xray.eu-west-1.amazonaws.com/v1/traces"}).sign_region
    'eu-west-1'
"""

from __future__ import annotations

import base64
import logging
import re
import socket
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from opentelemetry.context import Context
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

log = logging.getLogger(__name__)

ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
AGENT_ENV = "AWS_XRAY_DAEMON_ADDRESS"
# X-Ray's OTLP endpoint (https://xray.<region>.amazonaws.com/v1/traces) takes SigV4 for the service "xray".
XRAY_HOST = re.compile(r"^xray\.([a-z0-9-]+)\.(?:amazonaws\.com(?:\.cn)?|api\.aws)$")
# Spans one invocation may hold before its flush: a runaway loop must not grow the process.
MAX_BUFFERED_SPANS = 2048


def exporter_from_env(environ: Mapping[str, str]) -> SpanExporter:
    """OTLP/HTTP to ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` when it is set, else UDP to the X-Ray agent."""
    endpoint = environ.get(ENDPOINT_ENV)
    if endpoint:
        match = XRAY_HOST.match(urlsplit(endpoint).hostname or "")
        return OtlpHttpExporter(endpoint, sign_region=match.group(1) if match else None)
    return XRayAgentExporter(environ[AGENT_ENV])


class PerInvocationProcessor(SpanProcessor):
    """Keeps ended spans until ``force_flush`` exports them together on the caller's thread: no background
    thread, and nothing half-sent when Lambda freezes the process after the handler returns."""

    def __init__(self, exporter: SpanExporter) -> None:
        self.exporter = exporter
        self._spans: list[ReadableSpan] = []
        self._lock = threading.Lock()
        self.dropped = 0

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        return None

    def on_end(self, span: ReadableSpan) -> None:
        with self._lock:
            if len(self._spans) < MAX_BUFFERED_SPANS:
                self._spans.append(span)
            else:
                self.dropped += 1

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        with self._lock:
            spans, self._spans = self._spans, []
        if not spans:
            return True
        try:
            return self.exporter.export(spans) is SpanExportResult.SUCCESS
        except Exception:  # noqa: BLE001 - tracing never fails an invocation
            log.warning("span export failed", exc_info=True)
            return False

    def shutdown(self) -> None:
        self.force_flush()
        self.exporter.shutdown()


def encode(spans: Sequence[ReadableSpan]) -> bytes:
    """An OTLP ``ExportTraceServiceRequest``, protobuf-encoded."""
    return bytes(encode_spans(spans).SerializeToString())


class XRayAgentExporter(SpanExporter):
    """OTLP over UDP to the X-Ray agent Lambda runs for a function with active tracing, as the ADOT Lambda
    layers send it: the daemon's JSON header line, ``T1S`` (sampled spans) and the base64 of an OTLP
    ``ExportTraceServiceRequest``. The agent uploads it to X-Ray outside the function's network, with the
    function's role (``xray:PutTraceSegments``, which active tracing grants)."""

    HEADER = b'{"format":"json","version":1}\nT1S'
    MAX_DATAGRAM = 64_000  # under UDP's 65,507-byte payload

    def __init__(self, address: str) -> None:
        self.address = self.parse_address(address)
        self._socket: socket.socket | None = None  # opened at the first export: after a SnapStart restore

    def _send(self, datagram: bytes) -> None:
        if self._socket is None:
            self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._socket.sendto(datagram, self.address)

    @staticmethod
    def parse_address(value: str) -> tuple[str, int]:
        """``host:port``, or the SDKs' ``tcp:host:port udp:host:port`` form (its UDP half).

        >>> XRayAgentExporter.parse_address("tcp:127.0.0.1:2000 udp:127.0.0.2:2001")
        ('127.0.0.2', 2001)
        """
        for part in value.split():
            if part.startswith("tcp:"):
                continue
            host, _, port = part.removeprefix("udp:").rpartition(":")
            if host and port.isdigit():
                return host, int(port)
        raise ValueError(f"no UDP address in {value!r}")

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        for datagram in self.datagrams(list(spans)):
            self._send(datagram)
        return SpanExportResult.SUCCESS

    def datagrams(self, spans: list[ReadableSpan]) -> Iterator[bytes]:
        """One datagram for the spans, or halves until each fits; a span too large alone is dropped."""
        datagram = self.HEADER + base64.b64encode(encode(spans))
        if len(datagram) <= self.MAX_DATAGRAM:
            yield datagram
        elif len(spans) > 1:
            yield from self.datagrams(spans[: len(spans) // 2])
            yield from self.datagrams(spans[len(spans) // 2 :])
        else:
            log.warning("span %s dropped: %d bytes encoded", spans[0].name, len(datagram))

    def shutdown(self) -> None:
        if self._socket is not None:
            self._socket.close()


class OtlpHttpExporter(SpanExporter):
    """OTLP/HTTP (protobuf) POSTs to ``endpoint``, SigV4-signed for the service ``xray`` in ``sign_region`` with
    botocore's credential chain (Lambda's environment, or what a SnapStart restore provides). Short timeouts
    and no retries: an unreachable endpoint costs an invocation at most a few seconds, never its answer."""

    def __init__(self, endpoint: str, *, sign_region: str | None) -> None:
        import urllib3

        self.endpoint = endpoint
        self.sign_region = sign_region
        self._http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=1.0, read=2.0), retries=False)
        self._credentials: Any = None

    def headers(self, body: bytes) -> dict[str, str]:
        headers = {"Content-Type": "application/x-protobuf"}
        if self.sign_region is None:
            return headers
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        if self._credentials is None:
            from botocore.session import get_session

            self._credentials = get_session().get_credentials()
        if self._credentials is None:
            log.warning("no AWS credentials to sign the span export with")
            return headers
        request = AWSRequest(method="POST", url=self.endpoint, data=body, headers=headers)
        SigV4Auth(self._credentials.get_frozen_credentials(), "xray", self.sign_region).add_auth(request)
        return dict(request.headers.items())

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        body = encode(spans)
        response = self._http.request("POST", self.endpoint, body=body, headers=self.headers(body))
        if 200 <= response.status < 300:
            return SpanExportResult.SUCCESS
        log.warning("span export answered HTTP %d", response.status)
        return SpanExportResult.FAILURE

    def shutdown(self) -> None:
        self._http.clear()
