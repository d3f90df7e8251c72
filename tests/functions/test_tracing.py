"""Tracing at the wire. With tracing on as in a Lambda with active tracing, API Gateway events through the memory
handler send OTLP spans for the handler, the database units of work and the embedding calls, in the trace Lambda
started for each invocation and with no memory text: to a UDP socket standing in for Lambda's X-Ray agent (the
stack's default), or to an HTTP server standing in for an OTLP endpoint. Then, in this process: worker threads,
the LLM and embedding wrappers, boto3 calls, failures, SigV4 on the HTTP export, and nothing of the SDK imported
where tracing is off."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from infra.bundle import LAMBDA_PACKAGES, LOCK_FILES, runtime_requirements
from shared.providers import trace_export, tracing
from shared.providers.embeddings import traced as traced_embeddings
from shared.providers.embeddings.hash import HashEmbedder
from shared.providers.llm import traced as traced_llms
from shared.providers.llm.base import LLMClient, LLMUsage
from tests.functions.events import LambdaContext, http_v2
from tests.otlp import AgentStandIn, OtlpHttpStandIn, decode

SECRET_CONTENT = "the vault combination is tangerine-4711"
CONTENT_MARKERS = (b"tangerine", b"vault", b"combination")  # the memory, and the recall's query
ADMIN = {"Authorization": "Bearer admin-for-tracing"}
# Lambda's trace headers for three invocations: two sampled, one not.
REMEMBER = ("1-5759e988-bd862e3fe1be46a994272793", "53995c3f42cd8ad8", 1)
RECALL = ("1-5759e989-0123456789abcdef01234567", "1111222233334444", 1)
UNSAMPLED = ("1-5759e98a-76543210fedcba9876543210", "5555666677778888", 0)

# A cold container: import the handler, then each event with the trace header Lambda's runtime sets for it.
INVOKE = """
import json, os, sys
spec = json.load(sys.stdin)
handler = __import__("functions.memory.handler", fromlist=["handler"])
from shared.local.lambda_context import LambdaContext
out = []
for item in spec["invocations"]:
    os.environ["_X_AMZN_TRACE_ID"] = item["trace"]
    out.append(handler.handler(item["event"], LambdaContext()))
print(json.dumps(out))
"""


def header(root: str, parent: str, sampled: int) -> str:
    return f"Root={root};Parent={parent};Sampled={sampled};Lineage=1:a1b2c3d4:0"


def otel_trace_id(root: str) -> str:
    """X-Ray's ``1-<epoch>-<unique>`` as the 32 hex digits of an OpenTelemetry trace id."""
    _, epoch, unique = root.split("-")
    return epoch + unique


def lambda_env(database_url: str, **tracing_env: str) -> dict[str, str]:
    """What Lambda and the stack set for the memory function with active tracing, the test database for its."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MEMORYLAYER_", "POWERTOOLS_", "AWS_", "OTEL_"))
    }
    env.update(
        MEMORYLAYER_DATABASE_URL=database_url,
        MEMORYLAYER_EMBEDDING_PROVIDER="hash",
        # Inside Lambda auth_mode none is refused: the admin key (no database lookup) keeps the trace small.
        MEMORYLAYER_AUTH_MODE="api_key",
        MEMORYLAYER_ADMIN_KEY="admin-for-tracing",
        MEMORYLAYER_CONTEXT_CURSOR_SECRET="cursor-for-tracing",
        LAMBDA_TASK_ROOT=os.getcwd(),
        AWS_LAMBDA_FUNCTION_NAME="memorylayer-dev-memory",
        AWS_LAMBDA_FUNCTION_VERSION="$LATEST",
        AWS_REGION="us-east-1",
        OTEL_SERVICE_NAME="memorylayer-memory",
        OTEL_TRACES_SAMPLER="parentbased_always_off",
        **tracing_env,
    )
    return env


@pytest.mark.parametrize("export", ["agent", "otlp-http"])
def test_memory_handler_exports_its_spans_in_lambdas_trace_without_content(database_url, ws, export):
    agent, collector = AgentStandIn(), OtlpHttpStandIn()
    env = lambda_env(database_url, AWS_XRAY_DAEMON_ADDRESS=agent.address)
    if export == "otlp-http":
        env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = collector.endpoint
    body = {"content": SECRET_CONTENT}
    recall = http_v2(
        "POST", "/v1/memories/recall", body={"query": "vault"}, headers={"X-Workspace-ID": ws, **ADMIN}
    )
    invocations = [
        {"event": http_v2("POST", "/v1/memories", body=body, headers={"X-Workspace-ID": ws, **ADMIN}), "trace": header(*REMEMBER)},
        {"event": recall, "trace": header(*RECALL)},
        {"event": recall, "trace": header(*UNSAMPLED)},
    ]  # fmt: skip
    try:
        done = subprocess.run(
            [sys.executable, "-c", INVOKE], input=json.dumps({"invocations": invocations}),
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        responses = json.loads(done.stdout.strip().splitlines()[-1])
        assert [r["statusCode"] for r in responses] == [201, 200, 200]
        assert SECRET_CONTENT in responses[0]["body"]  # the content did go through the function
        received = agent.payloads() if export == "agent" else collector.payloads()
        # One export per sampled invocation, made before the handler returned; nothing for the unsampled one.
        assert len(received) == 2, received
        if export == "otlp-http":
            assert agent.payloads() == []
            for path, headers, _ in collector.received:
                assert path == "/v1/traces" and headers["Content-Type"] == "application/x-protobuf"
                assert "Authorization" not in headers  # signed only for X-Ray's own endpoint
            wire = b"".join(collector.payloads())
        else:
            wire = b"".join(agent.datagrams) + b"".join(received)
    finally:
        agent.close()
        collector.close()

    for marker in CONTENT_MARKERS:
        assert marker not in wire, marker  # neither the memory nor the query, decoded or not
    spans = decode(received)
    assert {s.scope for s in spans} == {"memorylayer"}  # FastAPI's own spans (url.query, ...) never leave
    assert not any(key.startswith(("url.", "http.request")) for s in spans for key in s.attributes)
    assert {s.trace_id for s in spans} == {otel_trace_id(REMEMBER[0]), otel_trace_id(RECALL[0])}
    for s in spans:
        assert s.resource["service.name"] == "memorylayer-memory"
        assert (
            s.resource["cloud.platform"] == "aws_lambda"
            and s.resource["faas.name"] == "memorylayer-dev-memory"
        )
    by_id = {s.span_id: s for s in spans}
    for (root, parent, _), cold in ((REMEMBER, True), (RECALL, False)):
        trace = [s for s in spans if s.trace_id == otel_trace_id(root)]
        [handler] = [s for s in trace if s.name == "## handler"]
        # A child of the segment Lambda opened for the invocation, so it joins Lambda's trace in X-Ray
        assert handler.parent_id == parent and handler.kind == 2  # SERVER
        assert handler.attributes["faas.coldstart"] is cold and handler.attributes["faas.invocation_id"]
        names = {s.name for s in trace}
        assert "embedding" in names and names & {"db.connection", "db.transaction"}, names
        # Spans opened in FastAPI's worker threads still nest under their own invocation's handler
        for s in trace:
            ancestor = s
            while ancestor is not handler:
                ancestor = by_id[ancestor.parent_id]
    embedding = next(s for s in spans if s.name == "embedding")
    assert embedding.attributes == {"model": "hash-384@384", "texts": 1}


# --- in this process ------------------------------------------------------------------------------------------


@pytest.fixture()
def traced(monkeypatch) -> Iterator[tuple[AgentStandIn, tracing.LambdaTracer]]:
    """Tracing on in this process, as in a Lambda, its spans to an agent stand-in; all undone afterwards."""
    from botocore.client import BaseClient

    agent = AgentStandIn()
    monkeypatch.setattr(BaseClient, "_make_api_call", BaseClient._make_api_call)
    for name in ("_tracer", "_provider", "_processor", "_cold"):
        monkeypatch.setattr(tracing, name, getattr(tracing, name))
    for name in [k for k in os.environ if k.startswith("OTEL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "memorylayer-dev-test")
    monkeypatch.setenv("AWS_XRAY_DAEMON_ADDRESS", agent.address)
    monkeypatch.setenv("_X_AMZN_TRACE_ID", header(*REMEMBER))
    tracer = tracing.lambda_tracer("memorylayer-test")
    assert tracer.enabled
    yield agent, tracer
    agent.close()


def test_worker_threads_continue_the_invocations_trace(traced):
    # anyio (FastAPI's threadpool) copies context variables, and OpenTelemetry's context is one; a bare thread
    # starts from an empty context, so its span has no parent and, unsampled, is not recorded at all.
    import anyio.to_thread

    agent, tracer = traced

    def work(name: str) -> None:
        with tracing.span(name):
            pass

    @tracer.invocation
    def handler(event: Any, context: Any) -> None:
        anyio.run(anyio.to_thread.run_sync, work, "db.connection")
        bare = threading.Thread(target=work, args=("bare",))
        bare.start()
        bare.join()

    handler({}, LambdaContext())
    spans = {s.name: s for s in decode(agent.payloads())}
    assert set(spans) == {"## handler", "db.connection"}
    assert spans["db.connection"].parent_id == spans["## handler"].span_id


class EchoLLM(LLMClient):
    provider, model = "stub", "stub-1"

    def complete_json(self, system, prompt, schema, *, name="result", max_tokens=None):
        return {"echo": prompt}, LLMUsage(1, 1)


def test_llm_and_embedding_wrappers_delegate_and_open_content_free_spans(traced):
    agent, tracer = traced
    llm = traced_llms.traced_llm(EchoLLM())
    assert isinstance(llm, traced_llms.TracedLLM) and traced_llms.traced_llm(llm) is llm
    embedder = traced_embeddings.traced_embedder(HashEmbedder(dimensions=8))
    assert isinstance(embedder, traced_embeddings.TracedEmbedder)
    assert traced_embeddings.traced_embedder(embedder) is embedder

    @tracer.invocation
    def handler(event: Any, context: Any) -> Any:
        answer = llm.complete_json("sys", f"remember: {SECRET_CONTENT}", {})
        return answer, embedder.model_id, embedder.embed_one(SECRET_CONTENT).shape

    assert handler({}, LambdaContext()) == (
        ({"echo": f"remember: {SECRET_CONTENT}"}, LLMUsage(1, 1)),
        "hash-384@8",
        (8,),
    )
    spans = decode(payloads := agent.payloads())
    assert [(s.name, s.attributes) for s in spans if s.name != "## handler"] == [
        ("llm", {"provider": "stub", "model": "stub-1"}),
        ("embedding", {"model": "hash-384@8", "texts": 1}),
    ]
    assert not any(marker in b"".join(payloads) for marker in CONTENT_MARKERS)


def test_boto3_calls_are_client_spans_without_their_parameters(traced):
    import boto3
    from botocore.exceptions import ClientError
    from botocore.stub import Stubber

    agent, tracer = traced
    sqs = boto3.client("sqs", region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="y")
    queue = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs"

    @tracer.invocation
    def handler(event: Any, context: Any) -> None:
        with Stubber(sqs) as stub:
            meta = {"RequestId": "req-1", "HTTPStatusCode": 200}
            stub.add_response("send_message", {"MessageId": "m-1", "ResponseMetadata": meta})
            stub.add_client_error("send_message", "AccessDenied", http_status_code=403)
            sqs.send_message(QueueUrl=queue, MessageBody=SECRET_CONTENT)
            with pytest.raises(ClientError):
                sqs.send_message(QueueUrl=queue, MessageBody=SECRET_CONTENT)

    handler({}, LambdaContext())
    spans = decode(payloads := agent.payloads())
    sent, refused = (s for s in spans if s.name == "SQS.SendMessage")
    handler_span = next(s for s in spans if s.name == "## handler")
    assert sent.kind == refused.kind == 3 and sent.parent_id == handler_span.span_id  # CLIENT
    assert sent.attributes == {
        "rpc.system": "aws-api", "rpc.service": "SQS", "rpc.method": "SendMessage", "cloud.region": "eu-west-1",
        "aws.request_id": "req-1", "http.response.status_code": 200,
    }  # fmt: skip
    assert refused.status == 2 and refused.attributes["error.type"] == "botocore.exceptions.ClientError"
    assert refused.attributes["http.response.status_code"] == 403
    assert not any(marker in b"".join(payloads) for marker in CONTENT_MARKERS)


def test_a_failed_invocation_is_marked_by_the_exceptions_type_alone(traced):
    agent, tracer = traced

    @tracer.invocation
    def handler(event: Any, context: Any) -> None:
        with tracing.span("db.transaction"):
            raise ValueError(f"input_value={SECRET_CONTENT!r}")  # as pydantic quotes what it refused

    with pytest.raises(ValueError):
        handler({}, LambdaContext())
    spans = decode(payloads := agent.payloads())
    assert {s.name for s in spans} == {"## handler", "db.transaction"}
    for s in spans:
        assert s.status == 2 and s.attributes["error.type"] == "builtins.ValueError" and s.events == 0
    assert not any(marker in b"".join(payloads) for marker in CONTENT_MARKERS)


def test_without_lambdas_trace_header_nothing_is_recorded_and_roots_get_xray_ids(traced, monkeypatch):
    agent, tracer = traced
    monkeypatch.delenv("_X_AMZN_TRACE_ID")
    tracer.invocation(lambda event, context: None)({}, LambdaContext())
    assert agent.payloads() == []  # only Lambda's sampling decision records a span
    assert tracing._provider is not None
    # A root's trace id starts with the epoch second, as X-Ray's own ids do
    trace_id = tracing._provider.id_generator.generate_trace_id()
    assert abs((trace_id >> 96) - time.time()) < 5


def test_an_invocation_holding_more_than_a_datagram_sends_several():
    from opentelemetry.sdk.trace import TracerProvider

    agent = AgentStandIn()
    exporter = trace_export.XRayAgentExporter(agent.address)
    exporter.MAX_DATAGRAM = 600
    processor = trace_export.PerInvocationProcessor(exporter)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    for i in range(12):
        with provider.get_tracer("t").start_as_current_span(f"span-{i}"):
            pass
    assert processor.force_flush()
    try:
        payloads = agent.payloads()
        assert len(payloads) > 1 and all(len(d) <= 600 for d in agent.datagrams)
        assert sorted(s.name for s in decode(payloads)) == sorted(f"span-{i}" for i in range(12))
    finally:
        agent.close()
        exporter.shutdown()


def test_the_http_export_to_xray_carries_a_valid_sigv4_signature(monkeypatch):
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    from opentelemetry.sdk.trace import TracerProvider

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "session-token-example")
    # X-Ray's endpoint is signed (for its region), any other collector is not
    assert trace_export.exporter_from_env(
        {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://xray.ap-southeast-2.amazonaws.com/v1/traces"}
    ).sign_region == "ap-southeast-2"  # fmt: skip
    assert trace_export.exporter_from_env(
        {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}
    ).sign_region is None  # fmt: skip
    collector = OtlpHttpStandIn()
    exporter = trace_export.OtlpHttpExporter(collector.endpoint, sign_region="us-east-1")
    processor = trace_export.PerInvocationProcessor(exporter)
    provider = TracerProvider()
    provider.add_span_processor(processor)
    with provider.get_tracer("t").start_as_current_span("db.connection"):
        pass
    try:
        assert processor.force_flush()
        [(path, headers, body)] = collector.received
    finally:
        collector.close()
    assert [s.name for s in decode([body])] == ["db.connection"]
    scheme, _, fields = headers["Authorization"].partition(" ")
    parts = dict(part.split("=", 1) for part in fields.split(", "))
    assert scheme == "AWS4-HMAC-SHA256"
    assert parts["Credential"] == f"AKIDEXAMPLE/{headers['X-Amz-Date'][:8]}/us-east-1/xray/aws4_request"
    assert {"host", "x-amz-date", "x-amz-security-token"} <= set(parts["SignedHeaders"].split(";"))
    assert headers["X-Amz-Security-Token"] == "session-token-example"
    # The signature is the one SigV4 gives this very request (method, path, headers, body) at that time
    signer = SigV4Auth(
        Credentials("AKIDEXAMPLE", os.environ["AWS_SECRET_ACCESS_KEY"], "session-token-example"),
        "xray",
        "us-east-1",
    )
    request = AWSRequest(
        method="POST", url=collector.endpoint, data=body, headers={"Content-Type": "application/x-protobuf"}
    )
    request.context["timestamp"] = headers["X-Amz-Date"]
    signer._modify_request_before_signing(request)
    expected = signer.signature(signer.string_to_sign(request, signer.canonical_request(request)), request)
    assert parts["Signature"] == expected


def test_an_unreachable_endpoint_costs_the_invocation_little_and_never_its_answer():
    from opentelemetry.sdk.trace import TracerProvider

    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    processor = trace_export.PerInvocationProcessor(
        trace_export.OtlpHttpExporter(f"http://127.0.0.1:{port}/v1/traces", sign_region=None)
    )
    provider = TracerProvider()
    provider.add_span_processor(processor)
    with provider.get_tracer("t").start_as_current_span("db.connection"):
        pass
    started = time.perf_counter()
    assert processor.force_flush() is False
    assert time.perf_counter() - started < 3


# --- tracing off ----------------------------------------------------------------------------------------------


def test_tracing_off_wraps_nothing():
    # Outside Lambda (local runs, tests) no handler turned tracing on: the services keep their own objects.
    assert not tracing.enabled()
    embedder = HashEmbedder(dimensions=8)
    assert traced_embeddings.traced_embedder(embedder) is embedder
    assert traced_llms.traced_llm(None) is None

    def handler(event: Any, context: Any) -> None: ...

    assert tracing.lambda_tracer("memorylayer-test").invocation(handler) is handler
    with tracing.span("db.connection"):
        pass


# What tracing loads. FastAPI imports the OpenTelemetry API itself (its own instrumentation), so the API is no
# sign; the SDK, the exporters' encoding and the X-Ray pieces are, and so would be the X-Ray SDK.
PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(f"functions.{name}.handler")
loaded = sorted({m for m in sys.modules if m.startswith(
    ("opentelemetry.sdk", "opentelemetry.exporter", "opentelemetry.proto", "opentelemetry.propagators.aws",
     "google.protobuf", "aws_xray_sdk", "shared.providers.trace_export"))})
from shared.providers import tracing
print(json.dumps({"enabled": tracing.enabled(), "loaded": loaded}))
"""


@pytest.mark.parametrize(
    ("case", "extra"),
    [
        ("outside Lambda", {}),
        ("in Lambda, OTEL_SDK_DISABLED", {"AWS_LAMBDA_FUNCTION_NAME": "fn", "AWS_XRAY_DAEMON_ADDRESS": "127.0.0.1:2000", "OTEL_SDK_DISABLED": "true"}),
        ("in Lambda, nowhere to send spans", {"AWS_LAMBDA_FUNCTION_NAME": "fn"}),
        ("in Lambda, traced", {"AWS_LAMBDA_FUNCTION_NAME": "fn", "AWS_XRAY_DAEMON_ADDRESS": "127.0.0.1:2000"}),
    ],
)  # fmt: skip
def test_where_tracing_is_off_no_handler_loads_the_sdk(case, extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("LAMBDA_", "AWS_LAMBDA_", "AWS_XRAY", "OTEL_"))
    }
    env.update(extra, MEMORYLAYER_EMBEDDING_PROVIDER="hash", MEMORYLAYER_AUTH_MODE="api_key")
    env.update(
        MEMORYLAYER_ADMIN_KEY="admin-for-tracing", MEMORYLAYER_CONTEXT_CURSOR_SECRET="cursor-for-tracing"
    )
    env["PYTHONPATH"] = os.getcwd()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *sorted(LAMBDA_PACKAGES)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if case == "in Lambda, traced":  # the probe can see it: the same import with tracing on loads all of it
        assert report["enabled"] and "opentelemetry.sdk.trace" in report["loaded"]
        assert not any(m.startswith("aws_xray_sdk") for m in report["loaded"])
    else:
        assert report == {"enabled": False, "loaded": []}, case


def test_the_sdk_goes_into_the_lambda_bundle_and_the_xray_sdk_does_not():
    names = {r.split(">")[0].split("=")[0].strip() for r in runtime_requirements()}
    assert {
        "opentelemetry-sdk",
        "opentelemetry-exporter-otlp-proto-common",
        "opentelemetry-propagator-aws-xray",
    } <= names
    assert "aws-xray-sdk" not in names
    for lock in LOCK_FILES.values():
        pinned = {line.split("==")[0] for line in lock.read_text().splitlines() if "==" in line}
        assert {"opentelemetry-sdk", "opentelemetry-proto", "protobuf"} <= pinned, lock
        assert "aws-xray-sdk" not in pinned, lock
