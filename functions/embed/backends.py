"""Model backends the container can run: ONNX MiniLM on CPU (default) or sentence-transformers (GPU).

    >>> backend = load_backend(EmbedConfig())
    >>> backend.encode(["hello"]).vectors.shape
    (1, 384)

sentence-transformers (and torch) are imported only when chosen: they are in the GPU image, not in this repo's
venv.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from shared.providers.embeddings.base import normalise
from shared.providers.embeddings.local import Encoded, LocalOnnxEmbedder, serves

from .config import EmbedConfig

log = logging.getLogger(__name__)


class Backend(Protocol):
    model: str
    dimensions: int

    def encode(self, texts: list[str]) -> Encoded: ...

    def warm_up(self) -> None: ...


class SentenceTransformersBackend:
    """Any sentence-transformers model; on CUDA when available, unless ``device`` says otherwise."""

    def __init__(self, config: EmbedConfig) -> None:
        from sentence_transformers import SentenceTransformer

        source = config.model_path or config.model
        # Bare names such as all-MiniLM-L6-v2 live under the sentence-transformers organisation on the hub.
        if not config.model_path and "/" not in source and not Path(source).exists():
            source = f"sentence-transformers/{source}"
        self.model = config.model
        self._batch = config.max_batch
        self._st: Any = SentenceTransformer(source, device=config.device)
        if config.half and str(self._st.device).startswith("cuda"):
            self._st.half()
        dims = getattr(self._st, "get_embedding_dimension", None) or self._st.get_sentence_embedding_dimension
        self.dimensions = int(dims())
        log.info("sentence-transformers %s on %s, %d dims", source, self._st.device, self.dimensions)

    def encode(self, texts: list[str]) -> Encoded:
        if not texts:
            return Encoded(np.zeros((0, self.dimensions), dtype=np.float32), [])
        vectors = self._st.encode(
            texts,
            batch_size=self._batch,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        ids = self._st.tokenizer(texts, truncation=True, max_length=self._st.max_seq_length)["input_ids"]
        return Encoded(normalise(vectors), [len(row) for row in ids])

    def warm_up(self) -> None:
        self.encode(["warm up"])


def load_backend(config: EmbedConfig) -> Backend:
    """Build (not yet warm) the backend the config names."""
    if config.backend == "sentence-transformers":
        return SentenceTransformersBackend(config)
    if not serves(config.model):
        raise ValueError(
            f"the onnx backend serves only all-MiniLM-L6-v2; use sentence-transformers for {config.model}"
        )
    return LocalOnnxEmbedder(batch_size=config.max_batch, intra_op_threads=config.threads)
