"""X-Ray at the wire: with tracing on (as Lambda runs a function with active tracing) one API Gateway event
through the memory handler sends the daemon subsegments for the handler, the database units of work and the
embedding call, and no memory content. A UDP socket on loopback stands in for the X-Ray daemon."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

from infra.bundle import runtime_requirements
from shared.providers import tracing
from shared.providers.embeddings.hash import HashEmbedder
from shared.providers.llm.base import LLMClient, LLMUsage
from tests.functions.events import http_v2

SECRET_CONTENT = "the vault combination is tangerine-4711"
ADMIN = {"Authorization": "Bearer admin-for-tracing"}

INVOKE = """
import json, sys
spec = json.load(sys.stdin)
handler = __import__("functions.memory.handler", fromlist=["handler"])
from shared.local.lambda_context import LambdaContext
print(json.dumps([handler.handler(event, LambdaContext()) for event in spec["events"]]))
"""


def documents(daemon: socket.socket) -> Iterator[dict]:
    """Every segment document the daemon received: ``{"format": "json", "version": 1}\\n{document}``."""
    daemon.setblocking(False)
    while True:
        try:
            packet = daemon.recv(65535)
        except BlockingIOError:
            return
        header, _, body = packet.decode().partition("\n")
        assert json.loads(header) == {"format": "json", "version": 1}
        yield json.loads(body)


def names(document: dict) -> Iterator[str]:
    yield document["name"]
    for child in document.get("subsegments", []):
        yield from names(child)


def test_memory_handler_sends_db_and_embedding_subsegments_without_content(database_url, ws):
    daemon = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    daemon.bind(("127.0.0.1", 0))
    daemon.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORYLAYER_", "POWERTOOLS_", "AWS_"))}
    env.update(
        MEMORYLAYER_DATABASE_URL=database_url,
        MEMORYLAYER_EMBEDDING_PROVIDER="hash",
        # Inside Lambda auth_mode none is refused: the admin key (no database lookup) keeps the trace as it was.
        MEMORYLAYER_AUTH_MODE="api_key",
        MEMORYLAYER_ADMIN_KEY="admin-for-tracing",
        MEMORYLAYER_CONTEXT_CURSOR_SECRET="cursor-for-tracing",
        # What Lambda sets for a function with active tracing, and what the stack sets.
        LAMBDA_TASK_ROOT=os.getcwd(),
        AWS_LAMBDA_FUNCTION_NAME="memorylayer-memory",
        _X_AMZN_TRACE_ID="Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
        AWS_XRAY_DAEMON_ADDRESS=f"127.0.0.1:{daemon.getsockname()[1]}",
        POWERTOOLS_TRACE_DISABLED="false",
        POWERTOOLS_TRACER_CAPTURE_RESPONSE="false",
        AWS_REGION="us-east-1",
    )
    events = [
        http_v2(
            "POST", "/v1/memories", body={"content": SECRET_CONTENT}, headers={"X-Workspace-ID": ws, **ADMIN}
        ),
        http_v2(
            "POST", "/v1/memories/recall", body={"query": "vault"}, headers={"X-Workspace-ID": ws, **ADMIN}
        ),
    ]
    done = subprocess.run(
        [sys.executable, "-c", INVOKE],
        input=json.dumps({"events": events}), capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    responses = json.loads(done.stdout.strip().splitlines()[-1])
    assert [r["statusCode"] for r in responses] == [201, 200]
    assert SECRET_CONTENT in responses[0]["body"]  # the content did go through the function

    received = list(documents(daemon))
    daemon.close()
    raw = json.dumps(received)
    seen = {name for document in received for name in names(document)}
    assert "## handler" in seen
    assert {"db.connection", "db.transaction"} <= seen, seen  # the write, then the recall
    assert "embedding" in seen, seen
    assert "tangerine" not in raw and "vault" not in raw  # neither the memory nor the query
    trace_ids = {d.get("trace_id") for d in received}
    assert trace_ids == {"1-5759e988-bd862e3fe1be46a994272793"}
    # Subsegments opened in FastAPI's worker threads still nest under their own invocation's handler.
    handlers = [d["id"] for d in received if d["name"] == "## handler"]
    assert len(handlers) == 2
    for document in received:
        if document["name"] in ("embedding", "db.connection", "db.transaction"):
            assert document["parent_id"] in handlers, document
    embedding = next(d for d in received if d["name"] == "embedding")
    assert embedding["annotations"] == {"model": "hash-384@384", "texts": 1}


def test_tracing_off_wraps_nothing():
    # Outside Lambda (local runs, tests) no handler enabled a Tracer: the services keep their own objects.
    assert not tracing.enabled()
    embedder = HashEmbedder(dimensions=8)
    assert tracing.traced_embedder(embedder) is embedder
    assert tracing.traced_llm(None) is None
    with tracing.subsegment("db.connection"):
        pass


class FakeRecorder:
    """Records the subsegments opened, as the X-Ray recorder's ``in_subsegment`` would open them."""

    def __init__(self) -> None:
        self.opened: list[tuple[str, dict]] = []

    def get_trace_entity(self) -> object:
        return None

    @contextmanager
    def in_subsegment(self, name: str):
        annotations: dict = {}
        self.opened.append((name, annotations))
        yield SimpleNamespace(put_annotation=annotations.__setitem__)


class EchoLLM(LLMClient):
    provider, model = "stub", "stub-1"

    def complete_json(self, system, prompt, schema, *, name="result"):
        return {"echo": prompt}, LLMUsage(1, 1)


def test_llm_and_embedding_wrappers_delegate_and_open_content_free_subsegments(monkeypatch):
    recorder = FakeRecorder()
    monkeypatch.setattr(tracing, "_active", SimpleNamespace(provider=recorder))
    llm = tracing.traced_llm(EchoLLM())
    assert isinstance(llm, tracing.TracedLLM) and tracing.traced_llm(llm) is llm
    assert llm.complete_json("sys", "secret prompt", {}) == ({"echo": "secret prompt"}, LLMUsage(1, 1))
    embedder = tracing.traced_embedder(HashEmbedder(dimensions=8))
    assert embedder.model_id == "hash-384@8" and embedder.embed_one("x").shape == (8,)
    assert recorder.opened == [
        ("llm", {"provider": "stub", "model": "stub-1"}),
        ("embedding", {"model": "hash-384@8", "texts": 1}),
    ]


def test_the_xray_sdk_goes_into_the_lambda_bundle():
    # Powertools Tracer imports aws_xray_sdk, which neither Powertools nor the Lambda runtime installs.
    assert any(r.startswith("aws-xray-sdk") for r in runtime_requirements())


def test_outside_lambda_a_handler_never_imports_the_xray_sdk():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LAMBDA_", "AWS_LAMBDA_", "POWERTOOLS_"))}
    probe = "import sys, functions.cleanup.handler as h; print(h.tracer.disabled, 'aws_xray_sdk.core' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]
