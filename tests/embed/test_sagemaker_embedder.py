"""SageMakerEmbedder through real boto3 ``sagemaker-runtime`` against a stub of the runtime API."""

from __future__ import annotations

import numpy as np
import pytest

from shared.core.errors import EmbeddingError
from shared.core.settings import Settings
from shared.providers.embeddings import create_embedder
from shared.providers.embeddings.endpoint import SageMakerEmbedder
from shared.providers.embeddings.local import LocalOnnxEmbedder

from .conftest import FAST_RETRY
from .stubs import StubServer, fake_vectors, sagemaker_proxy_wire, sagemaker_wire


@pytest.fixture(autouse=True)
def aws_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    # botocore signs every request; dummy keys keep it away from real credentials and metadata endpoints.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("AWS_PROFILE", raising=False)


def make(stub: StubServer, **kwargs: object) -> SageMakerEmbedder:
    options: dict = {"endpoint_name": "memorylayer-embed", "endpoint_url": stub.url, "retry": FAST_RETRY}
    return SageMakerEmbedder(**{**options, **kwargs})


def test_invokes_the_endpoint_with_json(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    texts = ["login timeout", "", "redis"]
    vectors = make(stub).embed(texts)
    np.testing.assert_allclose([np.linalg.norm(v) for v in vectors], 1.0, atol=1e-5)
    for got, want in zip(vectors, fake_vectors(texts, 384), strict=True):
        assert float(got @ (want / np.linalg.norm(want))) == pytest.approx(1.0, abs=1e-5)
    request = stub.requests[0]
    assert request.path == "/endpoints/memorylayer-embed/invocations"
    assert request.headers["content-type"] == "application/json"
    assert request.body == {"inputs": texts}
    assert "AWS4-HMAC-SHA256" in request.headers["authorization"]


def test_batches_and_cuts_overlong_texts(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    assert make(stub).embed([]) == []
    assert len(make(stub, batch_size=2).embed(["a", "b", "x" * 40_000])) == 3
    assert [len(r.body["inputs"]) for r in stub.requests] == [2, 1]
    assert len(stub.requests[1].body["inputs"][0]) == 32 * 1024  # the container's limit


@pytest.mark.parametrize("status", [429, 503])
def test_retries_throttling_then_succeeds(stub_factory, status: int) -> None:
    stub = stub_factory(sagemaker_wire)
    stub.script = [status]
    assert len(make(stub).embed(["hello"])) == 1
    assert len(stub.requests) == 2


def test_container_500_persisting_raises_embedding_error(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    stub.fail_always = 500  # the runtime reports it as a 424 ModelError with OriginalStatusCode 500
    with pytest.raises(EmbeddingError, match="SageMaker endpoint memorylayer-embed failed after 3 attempts"):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 3


def test_container_4xx_is_not_retried(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    stub.script = [413]
    with pytest.raises(EmbeddingError, match="ModelError"):
        make(stub).embed(["hello"])
    assert len(stub.requests) == 1


def test_wrong_dimensions_raise(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    stub.dims_override = 768
    with pytest.raises(EmbeddingError, match="768-dimensional"):
        make(stub).embed(["hello"])


def test_through_the_real_container(stub_factory, container) -> None:
    """boto3 → runtime stub → the container's /invocations: same vectors as the in-process model."""
    stub = stub_factory(sagemaker_proxy_wire(container.url))
    texts = ["login timeout after deploy", "the cat sat on the mat"]
    remote = np.stack(make(stub).embed(texts))
    local = np.stack(LocalOnnxEmbedder().embed(texts))
    np.testing.assert_allclose((remote * local).sum(axis=1), 1.0, atol=1e-4)


def test_from_settings(stub_factory) -> None:
    stub = stub_factory(sagemaker_wire)
    settings = Settings(
        embedding_provider="sagemaker",
        sagemaker_endpoint_name="ml-embed",
        aws_region="eu-west-1",
        sagemaker_runtime_endpoint_url=stub.url,
    )
    embedder = create_embedder(settings)
    assert isinstance(embedder, SageMakerEmbedder)
    assert embedder.model_id == "all-MiniLM-L6-v2@384"
    assert embedder.embed_one("hi").shape == (384,)
    assert stub.requests[0].path == "/endpoints/ml-embed/invocations"
    assert "eu-west-1/sagemaker" in stub.requests[0].headers["authorization"]


def test_names_the_inference_component_when_the_endpoint_hosts_one(stub_factory) -> None:
    # Given the stack's GPU setup: an endpoint whose model is an inference component (scales to zero copies)
    stub = stub_factory(sagemaker_wire)
    settings = Settings(
        embedding_provider="sagemaker",
        sagemaker_endpoint_name="ml-embed",
        sagemaker_inference_component_name="ml-embed-minilm",
        sagemaker_runtime_endpoint_url=stub.url,
    )
    # When it embeds, Then the call names the component (botocore sends it as a header)
    assert create_embedder(settings).embed_one("hi").shape == (384,)
    assert stub.requests[0].headers["x-amzn-sagemaker-inference-component"] == "ml-embed-minilm"
    # and a plain endpoint's calls do not
    make(stub).embed_one("hi")
    assert "x-amzn-sagemaker-inference-component" not in stub.requests[1].headers


def test_missing_endpoint_name_is_a_clear_error() -> None:
    with pytest.raises(EmbeddingError, match="SAGEMAKER_ENDPOINT_NAME"):
        create_embedder(Settings(embedding_provider="sagemaker"))
