"""Our embedding container (``functions/embed``), reached over plain HTTP or as a SageMaker endpoint.

    >>> e = EndpointEmbedder(url="http://127.0.0.1:61051")       # doctest: +SKIP
    >>> s = SageMakerEmbedder(endpoint_name="memorylayer-embed")  # doctest: +SKIP
    >>> e.embed(["login timeout"])[0].shape                      # doctest: +SKIP
    (384,)

Wire formats (both served by ``functions/embed/app.py``):

- HTTP: OpenAI-compatible ``POST /v1/embeddings``
  ``{"input": [...], "model": ..., "encoding_format": "base64"}``.
- SageMaker: ``invoke_endpoint``, ``application/json`` ``{"inputs": [...]}`` → ``{"embeddings": [[...]]}``.

Both serve the same model as the ``local`` provider, so vectors are comparable (same ``model_id``).
"""

from __future__ import annotations

import base64
import json
from functools import partial
from typing import Any

import numpy as np

from shared.errors import EmbeddingError

from .base import Embedder
from .http import (
    Retry,
    RetryPolicy,
    batches,
    check_texts,
    describe,
    status_verdict,
    unit_vectors,
    with_retries,
)

# The container's limits (functions/embed/config.py). Texts are cut client-side so a long memory never
# becomes a 413: MiniLM reads only its first 256 tokens, which fit in far fewer characters than this.
MAX_INPUTS_PER_REQUEST = 256
MAX_INPUT_CHARS = 32 * 1024


def _prepare(texts: list[str], batch_size: int) -> list[list[str]]:
    texts = [text[:MAX_INPUT_CHARS] for text in check_texts(texts)]
    return [list(chunk) for chunk in batches(texts, min(batch_size, MAX_INPUTS_PER_REQUEST))]


def _decode(embedding: Any) -> Any:
    """A ``data[i].embedding`` as floats: a list already, or base64 of little-endian float32."""
    if isinstance(embedding, str):
        return np.frombuffer(base64.b64decode(embedding), dtype="<f4")
    return embedding


class EndpointEmbedder(Embedder):
    """Calls the container's OpenAI-compatible ``/v1/embeddings`` (one pooled httpx client, thread-safe)."""

    def __init__(
        self,
        *,
        url: str,
        model: str = "all-MiniLM-L6-v2",
        dimensions: int = 384,
        timeout_s: float = 30.0,
        batch_size: int = 64,
        api_key: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        import httpx

        self.model = model
        self.dimensions = dimensions
        self.batch_size = max(1, batch_size)
        self.retry = retry or RetryPolicy()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=url.rstrip("/"), timeout=timeout_s, headers=headers)

    @classmethod
    def from_settings(cls, settings: Any) -> EndpointEmbedder:
        key: Any = getattr(settings, "embed_endpoint_api_key", None)
        return cls(
            url=settings.embed_endpoint_url,
            model=settings.embedding_model or "all-MiniLM-L6-v2",
            dimensions=settings.embedding_dimensions or 384,
            timeout_s=settings.embedding_timeout_s,
            batch_size=settings.embedding_batch_size,
            api_key=key.get_secret_value() if hasattr(key, "get_secret_value") else key,
            retry=RetryPolicy.from_settings(settings),
        )

    def _classify(self, exc: BaseException) -> Retry | None:
        import httpx

        if isinstance(exc, httpx.HTTPStatusError):
            return status_verdict(exc.response.status_code, exc.response.headers)
        if isinstance(exc, httpx.TransportError):
            return Retry()
        return None

    def _post(self, texts: list[str]) -> Any:
        response = self._client.post(
            "/v1/embeddings", json={"input": texts, "model": self.model, "encoding_format": "base64"}
        )
        response.raise_for_status()
        return response.json()

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        for chunk in _prepare(texts, self.batch_size):
            body = with_retries(
                partial(self._post, chunk), self.retry, self._classify, what="embedding endpoint"
            )
            try:
                rows = [_decode(item["embedding"]) for item in sorted(body["data"], key=lambda d: d["index"])]
            except (KeyError, TypeError, ValueError) as exc:
                raise EmbeddingError(f"embedding endpoint sent an unexpected body: {describe(exc)}") from exc
            out.extend(
                unit_vectors(
                    rows, expected=len(chunk), dimensions=self.dimensions, source="embedding endpoint"
                )
            )
        return out

    def close(self) -> None:
        self._client.close()


# SageMaker error codes that mean "try again": throttling, a cold or scaling endpoint, an AWS-side fault.
_SAGEMAKER_TRANSIENT = {
    "ThrottlingException",
    "ServiceUnavailable",
    "InternalFailure",
    "InternalDependencyException",
    "ModelNotReadyException",
}


class SageMakerEmbedder(Embedder):
    """Calls a SageMaker real-time endpoint running the container (``invoke_endpoint``, JSON in and out)."""

    def __init__(
        self,
        *,
        endpoint_name: str,
        region: str = "us-east-1",
        model: str = "all-MiniLM-L6-v2",
        dimensions: int = 384,
        timeout_s: float = 30.0,
        batch_size: int = 64,
        endpoint_url: str | None = None,
        retry: RetryPolicy | None = None,
        inference_component_name: str | None = None,
    ) -> None:
        import boto3
        from botocore.config import Config

        if not endpoint_name:
            raise EmbeddingError("sagemaker provider needs MEMORYLAYER_SAGEMAKER_ENDPOINT_NAME")
        self.endpoint_name = endpoint_name
        # An endpoint that hosts inference components (the stack's scale-to-zero setup) rejects calls that do
        # not name the component.
        self.inference_component_name = inference_component_name
        self.model = model
        self.dimensions = dimensions
        self.batch_size = max(1, batch_size)
        self.retry = retry or RetryPolicy()
        # botocore's own retries are off so SageMaker backs off like every other provider.
        config = Config(
            retries={"total_max_attempts": 1},
            connect_timeout=min(timeout_s, 10.0),
            read_timeout=timeout_s,
        )
        # A private session: boto3's default session is not thread-safe, the client is.
        self._client = boto3.session.Session().client(
            "sagemaker-runtime", region_name=region, endpoint_url=endpoint_url, config=config
        )

    @classmethod
    def from_settings(cls, settings: Any) -> SageMakerEmbedder:
        return cls(
            endpoint_name=settings.sagemaker_endpoint_name or "",
            region=settings.aws_region,
            model=settings.embedding_model or "all-MiniLM-L6-v2",
            dimensions=settings.embedding_dimensions or 384,
            timeout_s=settings.embedding_timeout_s,
            batch_size=settings.embedding_batch_size,
            endpoint_url=getattr(settings, "sagemaker_runtime_endpoint_url", None),
            retry=RetryPolicy.from_settings(settings),
            inference_component_name=getattr(settings, "sagemaker_inference_component_name", None),
        )

    def _classify(self, exc: BaseException) -> Retry | None:
        from botocore.exceptions import ClientError, ConnectionError, HTTPClientError

        if isinstance(exc, ClientError):
            error = exc.response.get("Error", {})
            if error.get("Code") in _SAGEMAKER_TRANSIENT:
                return Retry()
            if error.get("Code") == "ModelError":  # the container answered non-2xx; judge its status
                return status_verdict(exc.response.get("OriginalStatusCode"))
            return status_verdict(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode"))
        if isinstance(exc, ConnectionError | HTTPClientError):  # connect/read timeouts, resets
            return Retry()
        return None

    def _invoke(self, texts: list[str]) -> Any:
        component = (
            {"InferenceComponentName": self.inference_component_name} if self.inference_component_name else {}
        )
        response = self._client.invoke_endpoint(
            EndpointName=self.endpoint_name,
            ContentType="application/json",
            Accept="application/json",
            Body=json.dumps({"inputs": texts}).encode(),
            **component,
        )
        return json.loads(response["Body"].read())

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        source = f"SageMaker endpoint {self.endpoint_name}"
        for chunk in _prepare(texts, self.batch_size):
            body = with_retries(partial(self._invoke, chunk), self.retry, self._classify, what=source)
            if not isinstance(body, dict) or not isinstance(body.get("embeddings"), list):
                raise EmbeddingError(f"{source} sent no 'embeddings' list")
            out.extend(
                unit_vectors(
                    body["embeddings"], expected=len(chunk), dimensions=self.dimensions, source=source
                )
            )
        return out
