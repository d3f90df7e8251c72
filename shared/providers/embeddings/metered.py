"""An embedder whose calls are counted (``memorylayer_embedding_*``): every provider, wrapped when the services
are built (``Services.build``) with a metrics sink installed, beside the interface so that the metrics know no
provider."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from shared.core import metrics
from shared.providers.embeddings.base import Embedder

T = TypeVar("T")


class MeteredEmbedder(Embedder):
    """An ``Embedder`` whose calls count as embedding work: calls, texts and time, by outcome."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions

    def _counted(self, call: Callable[[], T], texts: int) -> T:
        if not metrics.enabled():
            return call()
        started, outcome = time.perf_counter(), "failed"
        try:
            result = call()
            outcome = "completed"
            return result
        finally:
            labels = {"modality": "text", "outcome": outcome}
            metrics.record(metrics.EMBEDDING_CALLS, **labels)
            metrics.record(metrics.EMBEDDING_INPUTS, texts, **labels)
            metrics.record(metrics.EMBEDDING_LATENCY, time.perf_counter() - started, **labels)

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        return self._counted(lambda: self._inner.embed(texts), len(texts))

    def embed_one(self, text: str) -> np.ndarray:
        return self._counted(lambda: self._inner.embed_one(text), 1)

    def embed_query(self, text: str) -> np.ndarray:
        return self._counted(lambda: self._inner.embed_query(text), 1)

    def __getattr__(self, name: str) -> Any:  # batch_size and provider specifics
        return getattr(self._inner, name)


def metered_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` wrapped when a metrics sink is installed (as tracing wraps: only when on), never twice."""
    if metrics.enabled() and not isinstance(embedder, MeteredEmbedder):
        return MeteredEmbedder(embedder)
    return embedder
