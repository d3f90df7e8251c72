"""EndpointEmbedder: against the real container, and against a stub for the failure paths."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.endpoint import EndpointEmbedder
from shared.providers.embeddings.local import LocalOnnxEmbedder

from .conftest import FAST_RETRY
from .stubs import StubServer, openai_wire


def make(url: str, **kwargs: object) -> EndpointEmbedder:
    return EndpointEmbedder(**{"url": url, "retry": FAST_RETRY, **kwargs})  # type: ignore[arg-type]


@pytest.fixture
def stub(stub_factory) -> StubServer:
    server = stub_factory(openai_wire)
    server.dims_override = 384  # the stub's default is OpenAI's 1536
    return server


def test_matches_the_local_provider(container) -> None:
    """The endpoint and local providers share a model_id, so their vectors must agree."""
    settings = Settings(embedding_provider="endpoint", embed_endpoint_url=container.url)
    remote = create_embedder(settings)
    assert isinstance(remote, EndpointEmbedder)
    assert remote.model_id == create_embedder(Settings(embedding_provider="local")).model_id
    texts = ["the deploy failed with a redis timeout", "", "my favourite colour is blue"]
    got = np.stack(remote.embed(texts))
    want = np.stack(LocalOnnxEmbedder().embed(texts))
    assert got.dtype == np.float32 and got.shape == (3, 384)
    np.testing.assert_allclose((got * want).sum(axis=1), 1.0, atol=1e-4)
    assert remote.embed([]) == []


def test_batches_requests(container) -> None:
    embedder = make(container.url, batch_size=3)
    assert len(embedder.embed([f"text {i}" for i in range(7)])) == 7


def test_retries_a_429_then_succeeds(stub: StubServer) -> None:
    stub.script = [429, 502]
    assert len(make(stub.url).embed(["hello"])) == 1
    assert len(stub.requests) == 3
    assert stub.requests[0].body["encoding_format"] == "base64"


def test_persistent_500_raises_embedding_error(stub: StubServer) -> None:
    stub.fail_always = 500
    with pytest.raises(EmbeddingError, match="embedding endpoint failed after 3 attempts"):
        make(stub.url).embed(["hello"])


def test_bad_request_is_not_retried(stub: StubServer) -> None:
    stub.script = [400]
    with pytest.raises(EmbeddingError, match="400"):
        make(stub.url).embed(["hello"])
    assert len(stub.requests) == 1


def test_wrong_dimensions_raise(stub: StubServer) -> None:
    stub.dims_override = 768
    with pytest.raises(EmbeddingError, match="768-dimensional.*embedding_dimensions is 384"):
        make(stub.url).embed(["hello"])


def test_unreachable_endpoint_raises() -> None:
    with pytest.raises(EmbeddingError, match="after 3 attempts"):
        make("http://127.0.0.1:9", timeout_s=2).embed(["hello"])
