"""The stage's dashboard: the functions' own series (queried in the exact dimension sets their EMF documents
carry), the queues, Aurora (and RDS Proxy when it is on), and a link to it in every alarm and in the outputs."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from infra.dashboard import ALARM_DESCRIPTION_MAX, with_link
from shared.api.route_map import FUNCTIONS as API_FUNCTIONS
from shared.core import metrics
from tests.infra.conftest import REGION, Synth

VARIANTS = ("dev", "prod", "prod-gpu")


def dashboard(synth: Synth, variant: str) -> tuple[str, list[dict[str, Any]]]:
    """(DashboardName, its widgets): the body is an Fn::Join of JSON text and references (queue names, the
    cluster's id), each reference put back as ``REF:<logical id>`` inside its JSON string."""
    (resource,) = synth.resources(variant, "AWS::CloudWatch::Dashboard").values()
    props = resource["Properties"]
    body = props["DashboardBody"]
    if isinstance(body, dict):
        separator, parts = body["Fn::Join"]
        body = separator.join(part if isinstance(part, str) else ref(part) for part in parts)
    return props["DashboardName"], json.loads(body)["widgets"]


def ref(token: dict[str, Any]) -> str:
    """``REF:<logical id>`` for a Ref or Fn::GetAtt (``REF:AWS::Region`` for the pseudo parameter)."""
    target = token["Ref"] if "Ref" in token else token["Fn::GetAtt"][0]
    return f"REF:{target}"


def graphs(widgets: list[dict[str, Any]]) -> dict[str, list[list[Any]]]:
    """Graph widgets' metric rows, by title."""
    return {
        w["properties"]["title"]: w["properties"]["metrics"]
        for w in widgets
        if w["type"] == "metric" and "metrics" in w["properties"]
    }


def expressions(rows: list[list[Any]]) -> list[str]:
    return [row[-1]["expression"] for row in rows if isinstance(row[-1], dict) and "expression" in row[-1]]


def plain(rows: list[list[Any]]) -> list[tuple[str, str, list[Any]]]:
    """(namespace, metric name, dimensions) of the rows that name a metric rather than an expression."""
    out = []
    for row in rows:
        if isinstance(row[-1], dict) and "expression" in row[-1]:
            continue
        values = [v for v in row if not isinstance(v, dict)]
        out.append((values[0], values[1], values[2:]))
    return out


def url_for(name: str) -> str:
    return (
        f"https://{REGION}.console.aws.amazon.com/cloudwatch/home?region={REGION}#dashboards/dashboard/{name}"
    )


def schema(series: metrics.Series) -> str:
    """The search schema of a series' EMF documents: shared/providers/metrics.py adds ``service`` to its labels."""
    return "{" + ",".join(("MemoryLayer", "service", *series.labels)) + "}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_dashboard_is_per_stage_and_shows_each_part(synth: Synth, variant: str) -> None:
    name, widgets = dashboard(synth, variant)
    assert name == f"memorylayer-{variant.split('-')[0]}"
    by_title = graphs(widgets)
    for title in (
        "Requests by function",
        "5xx by function",
        "4xx by function",
        "Errors by route (4xx and 5xx)",
        "Recall latency p50/p95/p99 (s)",
        "Remember latency p50/p95/p99 (s)",
        "Model calls",
        "Generation tokens / texts embedded",
        "Model call time p95 (s)",
        "Extraction queue",
        "Documents queue",
        "Jobs by kind and outcome",
        "Aurora capacity (ACU) / utilisation (%)",
        "Aurora connections",
        "Sandbox executions by outcome",
        "Document pages stored",
    ):
        assert title in by_title, title
    assert any(w["type"] == "alarm" for w in widgets)


@pytest.mark.parametrize("variant", VARIANTS)
def test_series_are_searched_in_the_dimension_sets_their_emf_documents_carry(
    synth: Synth, variant: str
) -> None:
    by_title = graphs(dashboard(synth, variant)[1])
    searched = [e for rows in by_title.values() for e in expressions(rows)]
    # The dimension set the EMF sink writes for a request: service, then the series' labels in order.
    assert "{MemoryLayer,service,method,route,status}" in schema(metrics.HTTP_REQUESTS)
    for series in (
        metrics.HTTP_REQUESTS,
        metrics.HTTP_LATENCY,
        metrics.RECALL_LATENCY,
        metrics.REMEMBER_LATENCY,
        metrics.GENERATION_CALLS,
        metrics.GENERATION_TOKENS,
        metrics.GENERATION_LATENCY,
        metrics.EMBEDDING_CALLS,
        metrics.EMBEDDING_INPUTS,
        metrics.EMBEDDING_LATENCY,
        metrics.JOBS,
        metrics.SANDBOX_EXECUTIONS,
        metrics.SANDBOX_LATENCY,
        metrics.DOCUMENT_PAGES,
    ):
        wanted = f'SEARCH(\'{schema(series)} MetricName="{series.name}"'
        assert any(wanted in e for e in searched), series.name
    # Every search names a series of the vocabulary, in that series' own schema (a wrong set finds nothing).
    known = {s.name: s for s in metrics.SERIES}
    for found in searched:
        for schema_text, name in re.findall(r"SEARCH\('(\{[^}]*\}) MetricName=\"([a-z_]+)\"", found):
            assert name in known and schema_text == schema(known[name]), found

    # Requests, 5xx and 4xx: one line per API function (each serves one family of routes).
    for title, status in (
        ("Requests by function", None),
        ("5xx by function", "500"),
        ("4xx by function", "404"),
    ):
        lines = expressions(by_title[title])
        assert len(lines) == len(API_FUNCTIONS)
        for function, line in zip(API_FUNCTIONS, lines, strict=True):
            assert line.startswith("SUM(SEARCH(") and f'service="{function}"' in line
            assert (status is None and "status=" not in line) or f'status="{status}"' in line
    assert 'status="404"' not in "".join(expressions(by_title["5xx by function"]))
    # Latency percentiles of completed work.
    for title in ("Recall latency p50/p95/p99 (s)", "Remember latency p50/p95/p99 (s)"):
        lines = expressions(by_title[title])
        assert [re.search(r"'(p\d\d)'", line)[1] for line in lines] == ["p50", "p95", "p99"]  # type: ignore[index]
        assert all('outcome="completed"' in line for line in lines)


@pytest.mark.parametrize("variant", VARIANTS)
def test_queues_and_database_are_on_the_dashboard(synth: Synth, variant: str) -> None:
    by_title = graphs(dashboard(synth, variant)[1])
    queues = synth.resources(variant, "AWS::SQS::Queue")
    for title, prefix in (("Extraction queue", "ExtractionQueue"), ("Documents queue", "Documents")):
        rows = plain(by_title[title])
        visible = [
            dims
            for ns, metric, dims in rows
            if (ns, metric) == ("AWS/SQS", "ApproximateNumberOfMessagesVisible")
        ]
        oldest = [
            dims for ns, metric, dims in rows if (ns, metric) == ("AWS/SQS", "ApproximateAgeOfOldestMessage")
        ]
        # The queue and its DLQ, both of this family, each by its own name.
        named = sorted(dims[1].removeprefix("REF:") for dims in visible)
        assert len(named) == 2 and all(n.startswith(prefix) and n in queues for n in named), named
        assert any("Dlq" in n for n in named) and any("Dlq" not in n for n in named)
        (age,) = oldest
        assert "Dlq" not in age[1] and age[1].removeprefix("REF:") in named
    aurora = plain(by_title["Aurora capacity (ACU) / utilisation (%)"]) + plain(
        by_title["Aurora connections"]
    )
    assert {(ns, metric) for ns, metric, _ in aurora} >= {
        ("AWS/RDS", "ServerlessDatabaseCapacity"),
        ("AWS/RDS", "DatabaseConnections"),
    }
    proxied = variant.startswith("prod")
    assert ("RDS Proxy connections" in by_title) == proxied
    if proxied:
        rows = plain(by_title["RDS Proxy connections"])
        assert {metric for _, metric, _ in rows} == {"ClientConnections", "DatabaseConnections"}
        (proxy_id,) = synth.resources(variant, "AWS::RDS::DBProxy")
        assert all(dims == ["ProxyName", f"REF:{proxy_id}"] for *_, dims in rows), rows


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_alarm_links_to_the_dashboard_and_keeps_its_description(synth: Synth, variant: str) -> None:
    name, _ = dashboard(synth, variant)
    url = url_for(name)
    alarms = synth.resources(variant, "AWS::CloudWatch::Alarm")
    assert len(alarms) > 20  # the stack's, the sandbox's and the documents' alarms
    for logical_id, alarm in alarms.items():
        description = alarm["Properties"]["AlarmDescription"]
        assert description.endswith(f"Dashboard: {url}"), logical_id
        assert len(description) <= ALARM_DESCRIPTION_MAX
        assert len(description) > len(f". Dashboard: {url}"), logical_id  # what it said before is still there
    descriptions = {a["Properties"]["AlarmDescription"].split(". Dashboard:")[0] for a in alarms.values()}
    assert {
        "The memory function raised errors",
        "The sandbox function reported errors",
        "Documents failed and their events are parked in the document DLQ",
    } <= descriptions
    outputs = synth.templates[variant]["Outputs"]
    assert outputs["DashboardUrl"]["Value"] == url


def test_a_long_description_is_cut_never_the_link() -> None:
    url = url_for("memorylayer-prod")
    text = with_link("x" * 2000, url)
    assert len(text) == ALARM_DESCRIPTION_MAX and text.endswith(f"x…. Dashboard: {url}")
    assert with_link("Short.", url) == f"Short. Dashboard: {url}"
    assert with_link(None, url) == f"Dashboard: {url}"
