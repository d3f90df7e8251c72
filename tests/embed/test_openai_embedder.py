"""OpenAIEmbedder through the real openai SDK against a local stub of the OpenAI API."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core import metering
from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.openai import OpenAIEmbedder

from .conftest import FAST_RETRY
from .stubs import StubServer, fake_vectors, openai_wire


def make(stub: StubServer, **kwargs: object) -> OpenAIEmbedder:
    options: dict = {
        "api_key": "sk-test",
        "base_url": f"{stub.url}/v1",
        "dimensions": 256,
        "retry": FAST_RETRY,
    }
    return OpenAIEmbedder(**{**options, **kwargs})


def test_vectors_are_ordered_normalised_and_sized(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    texts = ["login timeout", "redis is down", "the cat sat"]
    vectors = make(stub).embed(texts)
    expected = fake_vectors(texts, 256)
    assert [v.shape for v in vectors] == [(256,)] * 3
    assert all(v.dtype == np.float32 for v in vectors)
    np.testing.assert_allclose([np.linalg.norm(v) for v in vectors], 1.0, atol=1e-5)
    for got, want in zip(vectors, expected, strict=True):
        assert float(got @ (want / np.linalg.norm(want))) == pytest.approx(1.0, abs=1e-5)
    body = stub.requests[0].body
    assert body["model"] == "text-embedding-3-small" and body["dimensions"] == 256
    assert stub.requests[0].headers["authorization"] == "Bearer sk-test"


def test_the_tokens_openai_reports_are_billed_to_the_work_at_hand(stub_factory) -> None:
    stub = stub_factory(openai_wire)  # it reports one prompt token per text
    embedder = make(stub, batch_size=2)
    note = metering.Note()
    with metering.metered(note):
        embedder.embed(["a", "b", "c"])  # two calls: 2 + 1 tokens
    assert note.counts["embedding_tokens"] == 3 and len(stub.requests) == 2
    embedder.embed(["outside any metered work"])  # nothing to bill it to
    assert note.counts["embedding_tokens"] == 3


def test_batches_by_batch_size_and_handles_empty(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    embedder = make(stub, batch_size=2)
    assert embedder.embed([]) == []
    vectors = embedder.embed(["a", "", "c", "d", "e"])  # the empty string must not reach the API
    assert len(vectors) == 5 and len(stub.requests) == 3
    assert [len(r.body["input"]) for r in stub.requests] == [2, 2, 1]


def test_retries_a_429_then_succeeds(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    stub.script = [429, 503]
    assert len(make(stub).embed(["hello"])) == 1
    assert len(stub.requests) == 3


def test_persistent_500_raises_embedding_error(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    stub.fail_always = 500
    with pytest.raises(EmbeddingError, match="after 3 attempts"):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 3  # one try plus FAST_RETRY.max_retries


def test_client_errors_are_not_retried(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    stub.script = [401]
    with pytest.raises(EmbeddingError):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 1


def test_wrong_dimensions_raise(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    stub.dims_override = 128
    with pytest.raises(EmbeddingError, match="128-dimensional.*embedding_dimensions is 256"):
        make(stub).embed(["hello"])


def test_connection_refused_is_an_embedding_error() -> None:
    embedder = OpenAIEmbedder(api_key="x", base_url="http://127.0.0.1:9/v1", retry=FAST_RETRY, timeout_s=2)
    with pytest.raises(EmbeddingError, match="after 3 attempts"):
        embedder.embed(["hello"])


def test_from_settings(stub_factory) -> None:
    stub = stub_factory(openai_wire)
    settings = Settings(
        embedding_provider="openai",
        embedding_dimensions=512,
        openai_api_key="sk-settings",
        openai_base_url=f"{stub.url}/v1",
    )
    embedder = create_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.model_id == settings.embedding_model_id == "text-embedding-3-small@512"
    assert embedder.embed_one("hi").shape == (512,)
    assert stub.requests[0].headers["authorization"] == "Bearer sk-settings"
