"""One metrics vocabulary, two sinks: every series this service records, declared once with its kind and labels,
and the few verbs the domain records them with. Where they go is the process's sink, installed at start:
nothing (``noop``, the default), Prometheus text at ``GET /metrics`` (``MEMORYLAYER_METRICS_SERVICE=prometheus``)
or, in Lambda, CloudWatch embedded metrics (``shared/providers/metrics.py``). docs/operations.md lists them.

Labels are bounded by construction: route templates, outcomes, modes and kinds from fixed sets. No tenant,
workspace, user or memory text is ever a label (cardinality, and privacy: a scrape is not a tenant's to read).

    >>> with measure(RECALLS, RECALL_LATENCY, mode="rag"):   # doctest: +SKIP
    ...     answer = recall(...)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any, Literal, Protocol, TypeVar

Kind = Literal["counter", "histogram", "gauge"]


@dataclass(frozen=True)
class Series:
    """One named series: Prometheus' name, type and label names; CloudWatch takes the name and ``unit``."""

    name: str
    kind: Kind
    help: str
    labels: tuple[str, ...] = ()

    @property
    def unit(self) -> str:
        return "Seconds" if self.name.endswith("_seconds") else "Count"


OUTCOME = ("outcome",)
MODEL_WORK = ("activity", "policy", "outcome")  # generation: provider and profile go to logs, not labels

# The reference's standard series (its services/metrics/prometheus.py), with bounded labels instead of its
# per-workspace ones.
RECALLS = Series("memorylayer_recall_total", "counter", "Recalls, by mode and outcome.", ("mode", *OUTCOME))
RECALL_LATENCY = Series(
    "memorylayer_recall_latency_seconds", "histogram", "Recall time, by mode and outcome.", ("mode", *OUTCOME)
)
REMEMBERS = Series(
    "memorylayer_remember_total", "counter", "Memories written one at a time, by outcome.", OUTCOME
)
REMEMBER_LATENCY = Series(
    "memorylayer_remember_latency_seconds", "histogram", "Time to write one memory, by outcome.", OUTCOME
)
SESSIONS_ACTIVE = Series(
    "memorylayer_sessions_active", "gauge", "Sessions stored (the planner's live-row estimate)."
)
MEMORIES = Series("memorylayer_memories_total", "gauge", "Memories stored (the planner's live-row estimate).")
HTTP_LABELS = ("method", "route", "status")
HTTP_REQUESTS = Series(
    "memorylayer_http_requests_total",
    "counter",
    "HTTP requests by method, route template and status code.",
    HTTP_LABELS,
)
HTTP_LATENCY = Series(
    "memorylayer_http_request_duration_seconds",
    "histogram",
    "HTTP request time by method, route template, status.",
    HTTP_LABELS,
)
# Model work, each kind apart (the reference's names and labels).
GENERATION_CALLS = Series("memorylayer_generation_calls_total", "counter", "LLM calls.", MODEL_WORK)
GENERATION_TOKENS = Series(
    "memorylayer_generation_tokens_total",
    "counter",
    "LLM tokens, input and output.",
    (*MODEL_WORK, "direction"),
)
GENERATION_LATENCY = Series(
    "memorylayer_generation_latency_seconds", "histogram", "LLM call time.", MODEL_WORK
)
EMBEDDING_LABELS = ("modality", *OUTCOME)
EMBEDDING_CALLS = Series("memorylayer_embedding_calls_total", "counter", "Embedding calls.", EMBEDDING_LABELS)
EMBEDDING_INPUTS = Series(
    "memorylayer_embedding_inputs_total", "counter", "Texts embedded.", EMBEDDING_LABELS
)
EMBEDDING_LATENCY = Series(
    "memorylayer_embedding_latency_seconds", "histogram", "Embedding call time.", EMBEDDING_LABELS
)
# Declared for the reference's dashboards; this server ranks without a reranker model, so nothing records them.
RERANKER_CALLS = Series("memorylayer_reranker_calls_total", "counter", "Reranker calls.", OUTCOME)
RERANKER_DOCUMENTS = Series("memorylayer_reranker_documents_total", "counter", "Documents reranked.", OUTCOME)
RERANKER_LATENCY = Series("memorylayer_reranker_latency_seconds", "histogram", "Reranker call time.", OUTCOME)
# This project's own.
JOBS = Series(
    "memorylayer_jobs_total",
    "counter",
    "Queue jobs run, by kind (extraction, document) and outcome.",
    ("kind", *OUTCOME),
)
SANDBOX_EXECUTIONS = Series(
    "memorylayer_sandbox_executions_total", "counter", "Context-environment executions, by outcome.", OUTCOME
)
SANDBOX_LATENCY = Series(
    "memorylayer_sandbox_execution_seconds", "histogram", "Context-environment execution time.", OUTCOME
)
DOCUMENT_PAGES = Series("memorylayer_document_pages_total", "counter", "Document pages stored.")
DATABASE_RETRIES = Series(
    "memorylayer_database_retries_total", "counter", "Database work asked again, by reason.", ("reason",)
)

# Every series declared above, in order (the Prometheus sink registers them all up front).
SERIES: tuple[Series, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Series))


class Sink(Protocol):
    """Where observations go: ``values`` are the series' label values, in its declared order."""

    def record(self, series: Series, value: float, values: tuple[str, ...]) -> None: ...


class NoopSink:
    def record(self, series: Series, value: float, values: tuple[str, ...]) -> None:
        return None


NOOP = NoopSink()
_sink: Sink = NOOP


def install(sink: Sink) -> Sink:
    """Make ``sink`` the process's (the composition root does, once); returns the one it replaces."""
    global _sink
    previous, _sink = _sink, sink
    return previous


def current() -> Sink:
    return _sink


def enabled() -> bool:
    return _sink is not NOOP


def record(series: Series, value: float = 1.0, /, **labels: str) -> None:
    """One observation: a counter's increment, a histogram's sample or a gauge's value."""
    if _sink is NOOP:
        return
    try:
        values = tuple([labels[name] for name in series.labels])
    except KeyError:
        values = ()
    if len(values) != len(labels) or len(values) != len(series.labels):
        raise ValueError(f"{series.name} takes labels {series.labels}, not {tuple(labels)}")
    _sink.record(series, value, values)


@contextmanager
def measure(total: Series, latency: Series, **labels: str) -> Iterator[None]:
    """Count one piece of work and its time under ``labels`` plus its outcome (``failed`` when it raises)."""
    if _sink is NOOP:
        yield
        return
    started = time.perf_counter()
    outcome = "failed"
    try:
        yield
        outcome = "completed"
    finally:
        record(total, **labels, outcome=outcome)
        record(latency, time.perf_counter() - started, **labels, outcome=outcome)


F = TypeVar("F", bound=Callable[..., Any])


def measured(total: Series, latency: Series, **labels: str) -> Callable[[F], F]:
    """``measure`` around every call of the decorated function."""

    def decorate(function: F) -> F:
        @wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with measure(total, latency, **labels):
                return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


JOB_STATUSES = frozenset({"done", "skipped", "failed"})


def job(kind: str) -> Callable[[F], F]:
    """Count each run of a queue job of ``kind`` by the ``status`` it answers (``failed`` when it raises)."""

    def decorate(function: F) -> F:
        @wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            outcome = "failed"
            try:
                result = function(*args, **kwargs)
                status = result.get("status") if isinstance(result, dict) else None
                outcome = status if status in JOB_STATUSES else "other"
                return result
            finally:
                record(JOBS, kind=kind, outcome=outcome)

        return wrapper  # type: ignore[return-value]

    return decorate
