"""Local stand-ins for the remote embedding APIs, for the real SDKs to talk to.

    >>> stub = StubServer(openai_wire).start()
    >>> stub.script = [429]          # the next request gets a 429, the one after is served
    >>> stub.url                     # e.g. http://127.0.0.1:54321
    >>> stub.stop()

Each ``*_wire`` function speaks one provider's format, including its error bodies. Vectors are the hash
embedding of each text times 3, deterministic and deliberately not unit length, so tests can check order and
normalisation. ``dims_override`` makes the stub answer with the wrong size.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from shared.providers.embeddings.hash import HashEmbedder


@dataclass
class StubRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class StubResponse:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


def fake_vectors(texts: list[str], dims: int) -> np.ndarray:
    """What every stub returns: hash embeddings scaled away from unit length."""
    return np.stack(HashEmbedder(dimensions=dims).embed(texts)) * 3.0 if texts else np.zeros((0, dims))


class StubServer:
    """A threaded HTTP server on 127.0.0.1 (random port) that answers through a wire function."""

    def __init__(self, wire: Callable[[StubServer, StubRequest], StubResponse]) -> None:
        self.wire = wire
        self.script: list[int] = []  # statuses to fail with, one per request, before serving normally
        self.fail_always: int | None = None
        self.dims_override: int | None = None
        self.requests: list[StubRequest] = []
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                request = StubRequest(
                    "POST", self.path, {k.lower(): v for k, v in self.headers.items()}, None
                )
                try:
                    request.body = json.loads(raw) if raw else None
                except ValueError:
                    request.body = raw
                response = stub.handle(request)
                payload = (
                    response.body if isinstance(response.body, bytes) else json.dumps(response.body).encode()
                )
                self.send_response(response.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # A short poll interval makes shutdown (each test's teardown) quick.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> StubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_failure(self) -> int | None:
        with self._lock:
            if self.script:
                return self.script.pop(0)
            return self.fail_always

    def handle(self, request: StubRequest) -> StubResponse:
        with self._lock:
            self.requests.append(request)
        return self.wire(self, request)


# --- OpenAI: POST /v1/embeddings ---


def openai_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    status = stub.next_failure()
    if status is not None:
        error = {"message": f"stub failure {status}", "type": "server_error", "code": None}
        # retry-after-ms keeps test retries fast and checks that the hint is honoured.
        return StubResponse(status, {"error": error}, {"retry-after-ms": "5"})
    if request.path != "/v1/embeddings":
        return StubResponse(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
    body = request.body
    texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
    if any(text == "" for text in texts):  # as the real API does
        return StubResponse(
            400, {"error": {"message": "'$.input' is invalid", "type": "invalid_request_error"}}
        )
    dims = stub.dims_override or body.get("dimensions") or 1536
    vectors = fake_vectors(texts, dims).astype("<f4")
    if body.get("encoding_format") == "base64":
        encoded: list[Any] = [base64.b64encode(v.tobytes()).decode() for v in vectors]
    else:
        encoded = vectors.tolist()
    data = [{"object": "embedding", "index": i, "embedding": e} for i, e in enumerate(encoded)]
    data.reverse()  # the API does not promise order; clients must sort by index
    usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
    return StubResponse(200, {"object": "list", "data": data, "model": body["model"], "usage": usage})


# --- Gemini: POST /v1beta/models/{model}:batchEmbedContents ---

_GOOGLE_STATUS = {400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}
_GOOGLE_PATH = re.compile(r"^/v1beta/models/([^:/]+):batchEmbedContents$")


def google_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    status = stub.next_failure()
    if status is not None:
        error = {
            "code": status,
            "message": f"stub failure {status}",
            "status": _GOOGLE_STATUS.get(status, "UNKNOWN"),
        }
        return StubResponse(status, {"error": error})
    if not _GOOGLE_PATH.match(request.path.split("?")[0]):
        return StubResponse(404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}})
    items = request.body["requests"]
    texts = ["".join(part.get("text", "") for part in item["content"]["parts"]) for item in items]
    if any(text == "" for text in texts):
        error = {"code": 400, "message": "content is empty", "status": "INVALID_ARGUMENT"}
        return StubResponse(400, {"error": error})
    dims = stub.dims_override or items[0].get("outputDimensionality") or 3072
    vectors = fake_vectors(texts, dims)
    return StubResponse(200, {"embeddings": [{"values": v.tolist()} for v in vectors]})


# --- SageMaker runtime: POST /endpoints/{name}/invocations ---

_SAGEMAKER_PATH = re.compile(r"^/endpoints/([^/]+)/invocations$")


def sagemaker_error(status: int) -> StubResponse:
    """How the runtime reports failures: its own (throttling, 5xx) or the container's (424 ModelError)."""
    if status == 429:
        return StubResponse(
            429,
            {"message": "Rate exceeded"},
            {"x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/"},
        )
    if status >= 500 and status != 500:
        return StubResponse(
            status, {"message": "service unavailable"}, {"x-amzn-errortype": "ServiceUnavailable"}
        )
    # 500 (and anything else) is what the container answered, wrapped by the runtime as a ModelError.
    body = {"message": f"Received server error ({status}) from model", "OriginalStatusCode": status}
    return StubResponse(424, body, {"x-amzn-errortype": "ModelError"})


def sagemaker_wire(stub: StubServer, request: StubRequest) -> StubResponse:
    status = stub.next_failure()
    if status is not None:
        return sagemaker_error(status)
    if not _SAGEMAKER_PATH.match(request.path):
        return StubResponse(404, {"message": "no such endpoint"}, {"x-amzn-errortype": "ValidationError"})
    texts = request.body["inputs"]
    texts = [texts] if isinstance(texts, str) else texts
    vectors = fake_vectors(texts, stub.dims_override or 384)
    return StubResponse(200, {"embeddings": vectors.tolist(), "model": "all-MiniLM-L6-v2", "dimensions": 384})


def sagemaker_proxy_wire(container_url: str) -> Callable[[StubServer, StubRequest], StubResponse]:
    """The runtime in front of a real container: forwards the body to ``/invocations`` as SageMaker does."""
    import httpx

    def wire(stub: StubServer, request: StubRequest) -> StubResponse:
        status = stub.next_failure()
        if status is not None:
            return sagemaker_error(status)
        reply = httpx.post(f"{container_url}/invocations", json=request.body, timeout=30)
        if reply.status_code != 200:
            body = {"message": reply.text, "OriginalStatusCode": reply.status_code}
            return StubResponse(424, body, {"x-amzn-errortype": "ModelError"})
        return StubResponse(200, reply.content)

    return wire
