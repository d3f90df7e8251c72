"""The two sinks of the metrics vocabulary (``shared/core/metrics.py``): Prometheus text for a long-running
server (``MEMORYLAYER_METRICS_SERVICE=prometheus``, served at ``GET /metrics``), and CloudWatch embedded metrics
(EMF, through Powertools) for every Lambda function, flushed at the end of each invocation.

    >>> sink = install_for(settings)                     # doctest: +SKIP
    >>> body, content_type = sink.render()               # doctest: +SKIP
    >>> handler = lambda_metrics("extraction")(handler)  # doctest: +SKIP
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from shared.core import metrics
from shared.core.metrics import SERIES, Series
from shared.core.settings import Settings

NAMESPACE = "MemoryLayer"


class PrometheusSink:
    """Every series registered up front in a registry of its own (one per sink: tests build many apps), so a
    scrape lists each one even before its first observation."""

    def __init__(self) -> None:
        # Imported here: the Lambda functions use EMF and never load prometheus_client.
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry(auto_describe=True)
        kinds: dict[str, Any] = {"counter": Counter, "histogram": Histogram, "gauge": Gauge}
        self._metrics: dict[str, Any] = {}
        # Each label set's child, found once: labels are bounded, and ``labels()`` takes a lock and builds a key.
        self._children: dict[tuple[str, tuple[str, ...]], Any] = {}
        for series in SERIES:
            # prometheus_client adds a counter's ``_total`` itself.
            name = series.name.removesuffix("_total") if series.kind == "counter" else series.name
            self._metrics[series.name] = kinds[series.kind](
                name, series.help, series.labels, registry=self.registry
            )

    def record(self, series: Series, value: float, values: tuple[str, ...]) -> None:
        target = self._children.get((series.name, values))
        if target is None:
            metric = self._metrics[series.name]
            target = self._children.setdefault(
                (series.name, values), metric.labels(*values) if values else metric
            )
        if series.kind == "counter":
            target.inc(value)
        elif series.kind == "histogram":
            target.observe(value)
        else:
            target.set(value)

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def install_for(settings: Settings) -> PrometheusSink | None:
    """The sink ``settings`` name, installed as the process's (None: ``noop``, nothing is recorded)."""
    current = metrics.current()
    if settings.metrics_service != "prometheus":
        if isinstance(current, PrometheusSink):
            metrics.install(
                metrics.NOOP
            )  # an app built after one that served metrics (tests) records nothing
        return None
    if isinstance(current, PrometheusSink):
        return current  # one registry per process: an app built twice (tests, SnapStart priming) shares it
    sink = PrometheusSink()
    metrics.install(sink)
    return sink


class EmfSink:
    """Observations kept per label set during one invocation, then printed as one EMF document per label set:
    namespace ``MemoryLayer``, dimensions ``service`` (the function's name) and the series' labels."""

    def __init__(self, service: str) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._pending: dict[tuple[tuple[str, str], ...], dict[str, tuple[str, list[float]]]] = {}

    def record(self, series: Series, value: float, values: tuple[str, ...]) -> None:
        dimensions = tuple(zip(series.labels, values, strict=True))
        with self._lock:
            name_values = self._pending.setdefault(dimensions, {})
            kept = name_values.setdefault(series.name, (series.unit, []))[1]
            if series.kind == "gauge":
                kept.clear()  # a gauge's last value is its value
            kept.append(value)

    def flush(self) -> None:
        from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (
            AmazonCloudWatchEMFProvider,
        )

        with self._lock:
            pending, self._pending = self._pending, {}
        for dimensions, series in pending.items():
            provider = AmazonCloudWatchEMFProvider(namespace=NAMESPACE, service=self.service)
            for label, label_value in dimensions:
                provider.add_dimension(name=label, value=label_value)
            for name, (unit, values) in series.items():
                for observed in values:
                    provider.add_metric(name=name, unit=unit, value=observed)
            provider.flush_metrics()


H = TypeVar("H", bound=Callable[..., Any])


def lambda_metrics(service: str) -> Callable[[H], H]:
    """In a Lambda (``AWS_LAMBDA_FUNCTION_NAME``, as tracing), the handler's invocations record into an EMF sink
    for function ``service``, flushed as each ends; the services a first invocation builds see it and count
    their model work. Elsewhere (``make dev``'s queue pollers run these handlers in the server's process) the
    invocation records into whatever sink the process has: its Prometheus registry, or nothing."""
    sink = EmfSink(service)

    def decorate(handler: H) -> H:
        @wraps(handler)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not os.environ.get("AWS_LAMBDA_FUNCTION_NAME") or metrics.enabled():
                return handler(*args, **kwargs)
            previous = metrics.install(sink)
            try:
                return handler(*args, **kwargs)
            finally:
                metrics.install(previous)
                sink.flush()

        return wrapper  # type: ignore[return-value]

    return decorate
