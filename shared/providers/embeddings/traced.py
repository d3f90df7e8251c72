"""An embedder whose calls are tracing spans: beside the interface it wraps, so that tracing knows no provider
and the factory (``create_embedder``) can wrap what it makes without an import cycle."""

from __future__ import annotations

from typing import Any

import numpy as np

from shared.providers import tracing
from shared.providers.embeddings.base import Embedder


class TracedEmbedder(Embedder):
    """An ``Embedder`` whose calls are spans, with the model and the number of texts."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        with tracing.span("embedding", model=self._inner.model_id, texts=len(texts)):
            return self._inner.embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        with tracing.span("embedding", model=self._inner.model_id, texts=1):
            return self._inner.embed_query(text)

    def __getattr__(self, name: str) -> Any:  # batch_size and provider specifics
        return getattr(self._inner, name)


def traced_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` wrapped when tracing is on, else unchanged (never wrapped twice)."""
    if tracing.enabled() and not isinstance(embedder, TracedEmbedder):
        return TracedEmbedder(embedder)
    return embedder
