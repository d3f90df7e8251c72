"""OTLP stand-ins for the tests: a UDP socket where Lambda's X-Ray agent listens, an OTLP/HTTP receiver, and the
spans decoded from what they received (opentelemetry-proto's own messages).

    >>> agent = AgentStandIn()                                   # doctest: +SKIP
    >>> spans = decode(agent.payloads())                         # doctest: +SKIP
"""

from __future__ import annotations

import base64
import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass
class ExportedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    kind: int
    attributes: dict[str, Any]
    status: int
    events: int
    resource: dict[str, Any]
    scope: str


def _value(v: Any) -> Any:
    return getattr(v, v.WhichOneof("value")) if v.WhichOneof("value") else None


def decode(payloads: list[bytes]) -> list[ExportedSpan]:
    """Every span in some OTLP ``ExportTraceServiceRequest`` bodies."""
    out = []
    for payload in payloads:
        request = ExportTraceServiceRequest.FromString(payload)
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for s in scope_spans.spans:
                    out.append(
                        ExportedSpan(
                            s.name,
                            s.trace_id.hex(),
                            s.span_id.hex(),
                            s.parent_span_id.hex(),
                            s.kind,
                            {a.key: _value(a.value) for a in s.attributes},
                            s.status.code,
                            len(s.events),
                            resource,
                            scope_spans.scope.name,
                        )  # fmt: skip
                    )
    return out


class AgentStandIn:
    """A UDP socket where Lambda's X-Ray agent listens: each datagram must be the daemon's header line, ``T1S``
    and the base64 of an OTLP request."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
        self.datagrams: list[bytes] = []

    @property
    def address(self) -> str:
        host, port = self.socket.getsockname()
        return f"{host}:{port}"

    def payloads(self) -> list[bytes]:
        self.socket.setblocking(False)
        while True:
            try:
                self.datagrams.append(self.socket.recv(65535))
            except BlockingIOError:
                break
        out = []
        for datagram in self.datagrams:
            head, _, rest = datagram.partition(b"\n")
            assert json.loads(head) == {"format": "json", "version": 1}
            assert rest.startswith(b"T1S")
            out.append(base64.b64decode(rest[3:], validate=True))
        return out

    def close(self) -> None:
        self.socket.close()


class OtlpHttpStandIn:
    """An OTLP/HTTP receiver on loopback: it keeps each POST (path, headers, body) and answers as a collector."""

    def __init__(self) -> None:
        received: list[tuple[str, dict[str, str], bytes]] = []
        self.received = received

        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((self.path, dict(self.headers.items()), body))
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None: ...

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"

    def payloads(self) -> list[bytes]:
        return [body for _, _, body in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
