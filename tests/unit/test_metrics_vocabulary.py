"""The metrics vocabulary (shared/core/metrics.py): its setting, its names and labels as the reference's, and
labels that cannot carry tenant data by construction."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from shared.core import metrics
from shared.core.settings import Settings


def test_an_unknown_metrics_service_is_a_clear_settings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_METRICS_SERVICE", "bogus")
    with pytest.raises(ValidationError, match=r"metrics_service[\s\S]*'noop' or 'prometheus'"):
        Settings(embedding_provider="hash")


def test_the_setting_defaults_to_noop_and_takes_prometheus(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(embedding_provider="hash").metrics_service == "noop"
    monkeypatch.setenv("MEMORYLAYER_METRICS_SERVICE", "prometheus")
    assert Settings(embedding_provider="hash").metrics_service == "prometheus"


def test_the_reference_series_are_declared_with_its_types_and_labels() -> None:
    declared = {s.name: s for s in metrics.SERIES}
    for name in (
        "memorylayer_recall_total",
        "memorylayer_remember_total",
        "memorylayer_http_requests_total",
    ):
        assert declared[name].kind == "counter"
    for name in (
        "memorylayer_recall_latency_seconds",
        "memorylayer_remember_latency_seconds",
        "memorylayer_http_request_duration_seconds",
    ):
        assert declared[name].kind == "histogram"
    assert declared["memorylayer_sessions_active"].kind == "gauge"
    assert declared["memorylayer_memories_total"].kind == "gauge"
    # The reference's model-work labels (its llm, embedding and reranker services).
    assert declared["memorylayer_generation_calls_total"].labels == ("activity", "policy", "outcome")
    assert declared["memorylayer_generation_latency_seconds"].labels == ("activity", "policy", "outcome")
    assert declared["memorylayer_generation_tokens_total"].labels == (
        "activity",
        "policy",
        "outcome",
        "direction",
    )
    for kind, labels in (("embedding", ("modality", "outcome")), ("reranker", ("outcome",))):
        for suffix in ("calls_total", "latency_seconds"):
            assert declared[f"memorylayer_{kind}_{suffix}"].labels == labels
    assert declared["memorylayer_embedding_inputs_total"].labels == ("modality", "outcome")
    assert declared["memorylayer_reranker_documents_total"].labels == ("outcome",)


def test_no_series_can_be_labelled_with_tenant_data() -> None:
    forbidden = {
        "tenant",
        "tenant_id",
        "workspace",
        "workspace_id",
        "user",
        "user_id",
        "path",
        "content",
        "query",
    }
    assert [s.name for s in metrics.SERIES if forbidden & set(s.labels)] == []
    assert len({s.name for s in metrics.SERIES}) == len(metrics.SERIES)


def test_a_label_the_series_does_not_declare_is_refused() -> None:
    class Kept:
        def __init__(self) -> None:
            self.seen: list[tuple[str, float, tuple[str, ...]]] = []

        def record(self, series: metrics.Series, value: float, values: tuple[str, ...]) -> None:
            self.seen.append((series.name, value, values))

    kept = Kept()
    previous = metrics.install(kept)
    try:
        with pytest.raises(ValueError, match="memorylayer_recall_total takes labels"):
            metrics.record(metrics.RECALLS, mode="rag", outcome="completed", workspace="ws_a")
        with (
            pytest.raises(RuntimeError),
            metrics.measure(metrics.RECALLS, metrics.RECALL_LATENCY, mode="rag"),
        ):
            raise RuntimeError("boom")
    finally:
        metrics.install(previous)
    assert [(name, values) for name, _, values in kept.seen] == [
        ("memorylayer_recall_total", ("rag", "failed")),
        ("memorylayer_recall_latency_seconds", ("rag", "failed")),
    ]
