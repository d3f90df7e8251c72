"""The dashboard's widgets over the functions' own series (``shared/core/metrics.py``, published as CloudWatch
embedded metrics by ``shared/providers/metrics.py``), and the console link every alarm carries.

A CloudWatch metric is identified by its full dimension set, and each EMF document carries ``service`` (the
function's name) plus exactly its series' labels; so every query here is a ``SEARCH`` over that schema, which
also finds the label values (routes, modes, activities) no one can list at deploy time.

    >>> print(search(DOCUMENT_PAGES, "Sum"))
    SEARCH('{MemoryLayer,service} MetricName="memorylayer_document_pages_total"', 'Sum', 300)
"""

from __future__ import annotations

from aws_cdk import Duration, Stack
from aws_cdk import aws_cloudwatch as cw
from constructs import Construct

from shared.api.route_map import FUNCTIONS as API_FUNCTIONS
from shared.core.metrics import (
    DATABASE_RETRIES,
    DOCUMENT_PAGES,
    EMBEDDING_CALLS,
    EMBEDDING_INPUTS,
    EMBEDDING_LATENCY,
    GENERATION_CALLS,
    GENERATION_LATENCY,
    GENERATION_TOKENS,
    HTTP_LATENCY,
    HTTP_REQUESTS,
    JOBS,
    RECALL_LATENCY,
    REMEMBER_LATENCY,
    SANDBOX_EXECUTIONS,
    SANDBOX_LATENCY,
    Series,
)

NAMESPACE = (
    "MemoryLayer"  # shared/providers/metrics.py's; that module is not imported here (it loads settings)
)
PERIOD = Duration.minutes(5)
PERCENTILES = ("p50", "p95", "p99")
# The status codes the API answers with (shared/core/errors.py and the edge's refusals): CloudWatch search has no
# numeric ranges, so a class of codes is their list.
SERVER_ERRORS = ("500", "501", "502", "503", "504")
CLIENT_ERRORS = ("400", "401", "403", "404", "405", "409", "412", "413", "415", "422", "428", "429")
ALARM_DESCRIPTION_MAX = 1024  # CloudWatch's limit on AlarmDescription


def search(series: Series, statistic: str, where: str = "") -> str:
    """A ``SEARCH`` for ``series`` in its exact dimension set (``service`` plus its labels), one line per
    combination; ``where`` narrows it (e.g. ``service="memory"``)."""
    schema = ",".join((NAMESPACE, "service", *series.labels))
    terms = f'MetricName="{series.name}" {where}'.strip()
    return f"SEARCH('{{{schema}}} {terms}', '{statistic}', {int(PERIOD.to_seconds())})"


def any_of(label: str, values: tuple[str, ...]) -> str:
    return "(" + " OR ".join(f'{label}="{value}"' for value in values) + ")"


def _lines(series: Series, statistic: str, where: str = "", label: str = "") -> cw.SearchExpression:
    return cw.SearchExpression(expression=search(series, statistic, where), label=label, period=PERIOD)


def _total(expression: str, label: str) -> cw.MathExpression:
    """One line: the sum of every series a search finds."""
    return cw.MathExpression(expression=f"SUM({expression})", using_metrics={}, label=label, period=PERIOD)


def _percentiles(series: Series, where: str, dims: str) -> list[cw.IMetric]:
    """p50/p95/p99 of a histogram per label combination; percentiles do not add up, so no sum across them."""
    return [_lines(series, p, where, f"{p} {dims}") for p in PERCENTILES]


def request_widgets() -> list[cw.IWidget]:
    """Requests, 5xx and 4xx per API function (each serves one family of routes), and the routes failing."""

    def per_function(where: str) -> list[cw.IMetric]:
        return [
            _total(search(HTTP_REQUESTS, "Sum", f'service="{name}" {where}'.strip()), name)
            for name in API_FUNCTIONS
        ]

    return [
        cw.GraphWidget(title="Requests by function", left=per_function(""), width=8),
        cw.GraphWidget(title="5xx by function", left=per_function(any_of("status", SERVER_ERRORS)), width=8),
        cw.GraphWidget(title="4xx by function", left=per_function(any_of("status", CLIENT_ERRORS)), width=8),
        cw.GraphWidget(
            title="Errors by route (4xx and 5xx)",
            left=[
                _lines(
                    HTTP_REQUESTS,
                    "Sum",
                    any_of("status", SERVER_ERRORS + CLIENT_ERRORS),
                    "${PROP('Dim.status')} ${PROP('Dim.method')} ${PROP('Dim.route')}",
                )
            ],
            width=12,
        ),
        cw.GraphWidget(
            title="Request time p95 by route (s)",
            left=[
                _lines(
                    HTTP_LATENCY,
                    "p95",
                    "",
                    "${PROP('Dim.method')} ${PROP('Dim.route')} ${PROP('Dim.status')}",
                )
            ],
            width=12,
        ),
    ]


def latency_widgets() -> list[cw.IWidget]:
    """Recall and remember time percentiles, completed work only (a failure's time is another question)."""
    completed = 'outcome="completed"'
    return [
        cw.GraphWidget(
            title="Recall latency p50/p95/p99 (s)",
            left=_percentiles(RECALL_LATENCY, completed, "${PROP('Dim.mode')}"),
            width=12,
        ),
        cw.GraphWidget(
            title="Remember latency p50/p95/p99 (s)",
            left=_percentiles(REMEMBER_LATENCY, completed, "${PROP('Dim.service')}"),
            width=12,
        ),
    ]


def model_widgets() -> list[cw.IWidget]:
    """Model work by kind: generation (by activity) and embedding calls, tokens and texts, and their time."""
    generation = "${PROP('Dim.service')} ${PROP('Dim.activity')} ${PROP('Dim.outcome')}"
    embedding = "${PROP('Dim.service')} ${PROP('Dim.outcome')}"
    return [
        cw.GraphWidget(
            title="Model calls",
            left=[
                _lines(GENERATION_CALLS, "Sum", "", f"generation {generation}"),
                _lines(EMBEDDING_CALLS, "Sum", "", f"embedding {embedding}"),
            ],
            width=8,
        ),
        cw.GraphWidget(
            title="Generation tokens / texts embedded",
            left=[
                _lines(
                    GENERATION_TOKENS,
                    "Sum",
                    "",
                    "${PROP('Dim.direction')} ${PROP('Dim.activity')} ${PROP('Dim.policy')}",
                )
            ],
            right=[_lines(EMBEDDING_INPUTS, "Sum", "", f"texts {embedding}")],
            width=8,
        ),
        cw.GraphWidget(
            title="Model call time p95 (s)",
            left=[
                _lines(GENERATION_LATENCY, "p95", "", f"generation {generation}"),
                _lines(EMBEDDING_LATENCY, "p95", "", f"embedding {embedding}"),
            ],
            width=8,
        ),
    ]


def job_widgets() -> list[cw.IWidget]:
    return [
        cw.GraphWidget(
            title="Jobs by kind and outcome",
            left=[_lines(JOBS, "Sum", "", "${PROP('Dim.kind')} ${PROP('Dim.outcome')}")],
            right=[
                _lines(DATABASE_RETRIES, "Sum", "", "database retry ${PROP('Dim.reason')}"),
            ],
            width=12,
        )
    ]


def sandbox_and_document_widgets() -> list[cw.IWidget]:
    return [
        cw.GraphWidget(
            title="Sandbox executions by outcome",
            left=[_lines(SANDBOX_EXECUTIONS, "Sum", "", "${PROP('Dim.outcome')}")],
            right=_percentiles(SANDBOX_LATENCY, "", "${PROP('Dim.outcome')} (s)"),
            width=12,
        ),
        cw.GraphWidget(
            title="Document pages stored",
            left=[_total(search(DOCUMENT_PAGES, "Sum"), "pages")],
            width=12,
        ),
    ]


def dashboard_url(scope: Construct, dashboard_name: str) -> str:
    """The dashboard in the console of the stack's region (the stack is pinned to one, in the ``aws``
    partition: infra/regions.py)."""
    region = Stack.of(scope).region
    return (
        f"https://{region}.console.aws.amazon.com/cloudwatch/home?region={region}"
        f"#dashboards/dashboard/{dashboard_name}"
    )


def with_link(description: str | None, url: str) -> str:
    """``description`` followed by the dashboard link, cut short (never the link) to CloudWatch's limit.

    >>> with_link("Queue too old.", "https://x")
    'Queue too old. Dashboard: https://x'
    """
    suffix = f"Dashboard: {url}"
    if not description:
        return suffix
    room = ALARM_DESCRIPTION_MAX - len(suffix) - 2
    text = description.rstrip(". ")
    text = text if len(text) <= room else text[: room - 1] + "…"
    return f"{text}. {suffix}"


def link_alarms(scope: Construct, url: str) -> int:
    """Every alarm under ``scope`` gets the dashboard's link in its description (alarms have no URL field, and
    the notification an alarm sends carries its description). Returns how many alarms it found."""
    alarms = [c for c in scope.node.find_all() if isinstance(c, cw.CfnAlarm)]
    for alarm in alarms:
        alarm.alarm_description = with_link(alarm.alarm_description, url)
    return len(alarms)
