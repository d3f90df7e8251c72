"""The embedding provider interface.

    >>> from shared.embeddings.hash import HashEmbedder
    >>> e = HashEmbedder(dimensions=384)
    >>> v = e.embed_one("redis timeout")
    >>> v.shape, v.dtype
    ((384,), dtype('float32'))

Every provider returns L2-normalised float32 vectors of ``dimensions`` length, one per input text, in order.
``model_id`` is what each memory records, so vectors of different models are never compared.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from shared.errors import EmbeddingError


class Embedder(ABC):
    """Turns texts into unit vectors. Implementations batch internally and are safe to share across threads."""

    model: str
    dimensions: int

    @property
    def model_id(self) -> str:
        return f"{self.model}@{self.dimensions}"

    @abstractmethod
    def embed(self, texts: list[str]) -> list[np.ndarray]:
        """Embed several texts; raises ``EmbeddingError`` on provider failure."""

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def embed_query(self, text: str) -> np.ndarray:
        """A search's vector. The same as a stored text's for most models; models trained with a query prefix
        (e5) override it."""
        return self.embed_one(text)


def native_dimensions(model: str, native: int, asked: int) -> int:
    """``native`` for an in-process model that makes only vectors of that length; ``EmbeddingError`` if the
    settings ask for another (a misconfiguration, caught at start-up rather than at the first insert).

    >>> native_dimensions("all-MiniLM-L6-v2", 384, 384)
    384
    """
    if asked != native:
        raise EmbeddingError(f"{model} makes {native}-d vectors but embedding_dimensions is {asked}")
    return native


def normalise(matrix: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalisation that leaves zero rows at zero."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
