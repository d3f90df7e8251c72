"""LocalOnnxEmbedder: real int8 ONNX inference on the CPU."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from shared.core.errors import EmbeddingError, InvalidInput
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.local import LocalOnnxEmbedder


@pytest.fixture(scope="module")
def embedder() -> LocalOnnxEmbedder:
    return LocalOnnxEmbedder(batch_size=4)


def test_shape_dtype_and_norm(embedder: LocalOnnxEmbedder) -> None:
    vectors = embedder.embed(["login timeout", "", "x" * 5000])
    assert len(vectors) == 3
    for v in vectors:
        assert v.shape == (384,) and v.dtype == np.float32
        assert float(np.linalg.norm(v)) == pytest.approx(1.0, abs=1e-5)
    assert embedder.embed([]) == []


def test_similar_sentences_are_closer_than_unrelated(embedder: LocalOnnxEmbedder) -> None:
    cat, kitten, revenue, timeout, redis = embedder.embed(
        [
            "The cat is sleeping on the sofa",
            "A kitten naps on the couch",
            "Quarterly revenue grew by ten percent",
            "Login fails with a connection timeout",
            "The redis connection times out when users sign in",
        ]
    )
    assert float(cat @ kitten) > 0.5 > float(cat @ revenue)
    assert float(timeout @ redis) > float(timeout @ cat) + 0.2


def test_batch_equals_individual(embedder: LocalOnnxEmbedder) -> None:
    # Mixed lengths across several internal batches (batch_size=4), padded differently from one-at-a-time.
    texts = [f"sentence {i} " + "word " * (i * 7 % 40) for i in range(10)] + ["", "short"]
    batched = np.stack(embedder.embed(texts))
    single = np.stack([embedder.embed_one(t) for t in texts])
    np.testing.assert_allclose((batched * single).sum(axis=1), 1.0, atol=1e-4)


def test_long_text_is_truncated_to_256_tokens(embedder: LocalOnnxEmbedder) -> None:
    base = "alpha beta gamma delta " * 100  # far past 256 tokens
    counts = embedder.encode([base, base + "a different tail"]).token_counts
    assert counts == [256, 256]
    a, b = embedder.embed([base, base + "a different tail"])
    assert float(a @ b) == pytest.approx(1.0, abs=1e-5)  # the tail is beyond the window


def test_thread_safe_lazy_load() -> None:
    fresh = LocalOnnxEmbedder()
    barrier = threading.Barrier(4)

    def work(i: int) -> np.ndarray:
        barrier.wait()
        return fresh.embed_one(f"thread {i}")

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    assert all(r.shape == (384,) for r in results)
    np.testing.assert_allclose(results[0], fresh.embed_one("thread 0"), atol=1e-6)


def test_from_settings_and_checks() -> None:
    embedder = create_embedder(Settings(embedding_provider="local", embedding_batch_size=8))
    assert isinstance(embedder, LocalOnnxEmbedder)
    assert embedder.model_id == "all-MiniLM-L6-v2@384" and embedder.batch_size == 8
    with pytest.raises(EmbeddingError, match="384"):
        create_embedder(Settings(embedding_provider="local", embedding_dimensions=768))
    with pytest.raises(EmbeddingError, match="only all-MiniLM-L6-v2"):
        create_embedder(Settings(embedding_provider="local", embedding_model="bge-small-en"))
    with pytest.raises(InvalidInput):
        embedder.embed("not a list")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        embedder.embed(["ok", None])  # type: ignore[list-item]
