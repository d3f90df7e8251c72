"""In Lambda the metrics vocabulary goes out as CloudWatch embedded metrics: real API Gateway v2 events through
the memory handler, and a scheduled event through the cleanup handler, print EMF documents on stdout in
namespace ``MemoryLayer`` whose dimensions are the function's name and the series' bounded labels only."""

from __future__ import annotations

import importlib
import json
import uuid

import pytest

from shared.app.bootstrap import process_services
from shared.core import metrics
from tests.functions.events import LambdaContext, http_v2
from tests.secured import ADMIN, bearer


@pytest.fixture()
def in_lambda(lambda_env, monkeypatch: pytest.MonkeyPatch) -> None:
    """As a deployed function: the runtime's function name is set, so keys are on (open auth is refused there)."""
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "memorylayer-test")
    monkeypatch.setenv("MEMORYLAYER_AUTH_MODE", "api_key")
    monkeypatch.setenv("MEMORYLAYER_ADMIN_KEY", ADMIN)
    monkeypatch.setenv("MEMORYLAYER_CONTEXT_CURSOR_SECRET", "cursor-secret-for-tests")


def emf_documents(out: str) -> list[dict]:
    """The EMF documents of the vocabulary's series among the lines printed (Powertools prints one a line)."""
    found = []
    for line in out.splitlines():
        if line.startswith("{") and '"_aws"' in line:
            document = json.loads(line)
            if any(
                m["Name"].startswith("memorylayer_")
                for d in document["_aws"]["CloudWatchMetrics"]
                for m in d["Metrics"]
            ):
                found.append(document)
    return found


def value(documents: list[dict], name: str, **dimensions: str) -> float:
    """The sum of ``name``'s values in the documents whose dimensions are exactly ``dimensions``."""
    total = 0.0
    for document in documents:
        (directive,) = document["_aws"]["CloudWatchMetrics"]
        keys = set(directive["Dimensions"][0])
        if (
            name in document
            and keys == set(dimensions)
            and all(document[k] == v for k, v in dimensions.items())
        ):
            total += sum(document[name]) if isinstance(document[name], list) else document[name]
    return total


def test_an_api_invocation_prints_its_series_as_emf(in_lambda, load_handler, ws, capsys):
    module = load_handler("functions.memory.handler")
    suffix = uuid.uuid4().hex[:10]
    content = f"the lambda remembers oolong {suffix}"
    headers = {"X-Workspace-ID": ws, **bearer(ADMIN)}
    capsys.readouterr()
    out = module.handler(
        http_v2("POST", "/v1/memories", body={"content": content}, headers=headers), LambdaContext()
    )
    assert out["statusCode"] == 201, out
    first = emf_documents(capsys.readouterr().out)
    out = module.handler(
        http_v2("POST", "/v1/memories/recall", body={"query": "oolong"}, headers=headers), LambdaContext()
    )
    assert out["statusCode"] == 200, out
    out = module.handler(http_v2("GET", f"/v1/memories/mem_{suffix}", headers=headers), LambdaContext())
    assert out["statusCode"] == 404, out
    later = emf_documents(capsys.readouterr().out)

    # Flushed per invocation: the first one's remember is in what it printed, before the next invocation.
    assert value(first, "memorylayer_remember_total", service="memory", outcome="completed") == 1
    assert value(first, "memorylayer_http_requests_total", service="memory", method="POST", route="/v1/memories",
                 status="201") == 1  # fmt: skip
    assert (
        value(
            first, "memorylayer_embedding_calls_total", service="memory", modality="text", outcome="completed"
        )
        >= 1
    )
    assert (
        value(later, "memorylayer_recall_total", service="memory", mode="default", outcome="completed") == 1
    )
    assert value(later, "memorylayer_http_requests_total", service="memory", method="GET",
                 route="/v1/memories/{memory_id}", status="404") == 1  # fmt: skip
    assert value(later, "memorylayer_remember_total", service="memory", outcome="completed") == 0
    for document in first + later:
        assert document["_aws"]["CloudWatchMetrics"][0]["Namespace"] == "MemoryLayer"
        (dimensions,) = document["_aws"]["CloudWatchMetrics"][0]["Dimensions"]
        assert "service" in dimensions and document["service"] == "memory"
        labels = [str(document[d]) for d in dimensions]
        assert [v for v in labels if ws in v or suffix in v or "oolong" in v] == []
    # The sink is the process's only during an invocation.
    assert metrics.current() is metrics.NOOP


def test_outside_lambda_a_handler_prints_no_series(load_handler, ws, capsys):
    """make dev's pollers run the handlers in the server's process: they record into its sink, print nothing."""
    module = load_handler("functions.memory.handler")
    capsys.readouterr()
    event = http_v2("POST", "/v1/memories", body={"content": "not in lambda"}, headers={"X-Workspace-ID": ws})
    assert module.handler(event, LambdaContext())["statusCode"] == 201
    assert emf_documents(capsys.readouterr().out) == []


def test_the_cleanup_run_publishes_the_stored_rows_gauges(in_lambda, capsys):
    module = importlib.reload(importlib.import_module("functions.cleanup.handler"))
    process_services.cache_clear()  # a cold start: built from this test's environment
    scheduled = {
        "version": "0",
        "id": "e1",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": "2026-12-06T05:00:00Z",
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/memorylayer-session-cleanup"],
        "detail": {},
    }
    try:
        capsys.readouterr()
        module.handler(scheduled, LambdaContext(function_name="memorylayer-cleanup"))
        documents = emf_documents(capsys.readouterr().out)
    finally:
        process_services("cleanup").close()
        process_services.cache_clear()
    gauges = [d for d in documents if "memorylayer_memories_total" in d]
    assert len(gauges) == 1 and gauges[0]["service"] == "cleanup"
    assert gauges[0]["_aws"]["CloudWatchMetrics"][0]["Dimensions"] == [["service"]]
    # One value each (the gauge's last); that it follows the table is tests/integration/test_metrics.py's.
    assert len(gauges[0]["memorylayer_memories_total"]) == len(gauges[0]["memorylayer_sessions_active"]) == 1
