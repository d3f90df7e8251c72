"""GoogleEmbedder through the real google-genai SDK against a local stub of the Gemini API."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.google import GoogleEmbedder

from .conftest import FAST_RETRY
from .stubs import StubServer, fake_vectors, google_wire


def make(stub: StubServer, **kwargs: object) -> GoogleEmbedder:
    options: dict = {"api_key": "g-test", "base_url": stub.url, "dimensions": 768, "retry": FAST_RETRY}
    return GoogleEmbedder(**{**options, **kwargs})


def test_vectors_are_ordered_and_normalised(stub_factory) -> None:
    stub = stub_factory(google_wire)
    texts = ["login timeout", "redis is down", ""]
    vectors = make(stub).embed(texts)
    # Gemini's reduced-size vectors are not unit length (the stub's are 3x); ours must be.
    np.testing.assert_allclose([np.linalg.norm(v) for v in vectors], 1.0, atol=1e-5)
    assert all(v.dtype == np.float32 and v.shape == (768,) for v in vectors)
    expected = fake_vectors(["login timeout", "redis is down", " "], 768)
    for got, want in zip(vectors, expected, strict=True):
        assert float(got @ (want / np.linalg.norm(want))) == pytest.approx(1.0, abs=1e-5)
    request = stub.requests[0]
    assert request.path.startswith("/v1beta/models/gemini-embedding-001:batchEmbedContents")
    assert request.headers["x-goog-api-key"] == "g-test"
    assert request.body["requests"][0]["outputDimensionality"] == 768


def test_batches_and_empty_list(stub_factory) -> None:
    stub = stub_factory(google_wire)
    embedder = make(stub, batch_size=2)
    assert embedder.embed([]) == []
    assert len(embedder.embed(["a", "b", "c"])) == 3
    assert [len(r.body["requests"]) for r in stub.requests] == [2, 1]


def test_retries_a_429_then_succeeds(stub_factory) -> None:
    stub = stub_factory(google_wire)
    stub.script = [429]
    assert len(make(stub).embed(["hello"])) == 1
    assert len(stub.requests) == 2


def test_persistent_500_raises_embedding_error(stub_factory) -> None:
    stub = stub_factory(google_wire)
    stub.fail_always = 500
    with pytest.raises(EmbeddingError, match="Gemini.*after 3 attempts"):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 3


def test_bad_request_is_not_retried(stub_factory) -> None:
    stub = stub_factory(google_wire)
    stub.script = [400]
    with pytest.raises(EmbeddingError):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 1


def test_wrong_dimensions_raise(stub_factory) -> None:
    stub = stub_factory(google_wire)
    stub.dims_override = 3072
    with pytest.raises(EmbeddingError, match="3072-dimensional"):
        make(stub).embed(["hello"])


def test_from_settings(stub_factory) -> None:
    stub = stub_factory(google_wire)
    settings = Settings(embedding_provider="google", google_api_key="g-settings", google_base_url=stub.url)
    embedder = create_embedder(settings)
    assert isinstance(embedder, GoogleEmbedder)
    assert embedder.model_id == "gemini-embedding-001@768"
    # Calls through the client it keeps; a dropped genai client would close its session.
    assert embedder.embed_one("hi").shape == (768,)
    assert embedder.embed_one("again").shape == (768,)
