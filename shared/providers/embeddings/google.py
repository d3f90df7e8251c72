"""Gemini embeddings (``gemini-embedding-001``) through the ``google-genai`` SDK.

    >>> e = GoogleEmbedder(api_key="...", dimensions=768)   # doctest: +SKIP
    >>> e.embed(["login timeout"])[0].shape                 # doctest: +SKIP
    (768,)

Gemini returns unit vectors only at its full 3,072 dimensions; a reduced ``output_dimensionality`` comes back
unnormalised, so every vector is L2-normalised here. Retries are ours (``http.with_retries``), the SDK's off.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shared.errors import EmbeddingError

from .base import Embedder
from .http import Retry, RetryPolicy, batches, check_texts, status_verdict, unit_vectors, with_retries

# batchEmbedContents takes at most 100 requests per call.
MAX_INPUTS_PER_REQUEST = 100


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Connection/timeout errors of whichever httpx flavour the SDK was built on."""
    found: list[type[BaseException]] = []
    for name in ("httpx", "httpx2"):
        try:
            found.append(__import__(name).TransportError)
        except (ImportError, AttributeError):
            continue
    return tuple(found)


class GoogleEmbedder(Embedder):
    def __init__(
        self,
        *,
        api_key: str | None,
        model: str = "gemini-embedding-001",
        dimensions: int = 768,
        base_url: str | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 64,
        task_type: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        from google import genai
        from google.genai import types

        self.model = model
        self.dimensions = dimensions
        self.batch_size = min(max(1, batch_size), MAX_INPUTS_PER_REQUEST)
        self.task_type = task_type
        self.retry = retry or RetryPolicy()
        self._transport_errors = _transport_errors()
        # The SDK counts milliseconds; a custom base URL (proxy, stub) needs the API version spelled out.
        where: dict[str, Any] = {"base_url": base_url, "api_version": "v1beta"} if base_url else {}
        options = types.HttpOptions(timeout=int(timeout_s * 1000), **where)
        try:
            # Held for the embedder's lifetime: a garbage-collected genai client closes its HTTP session.
            self._client = genai.Client(api_key=api_key, http_options=options)
        except ValueError as exc:  # no key given and none in GOOGLE_API_KEY / GEMINI_API_KEY
            raise EmbeddingError(f"Gemini client not configured: {exc}") from exc
        self._config = types.EmbedContentConfig(output_dimensionality=dimensions, task_type=task_type)

    @classmethod
    def from_settings(cls, settings: Any) -> GoogleEmbedder:
        key = settings.google_api_key.get_secret_value() if settings.google_api_key else None
        return cls(
            api_key=key,
            model=settings.embedding_model or "gemini-embedding-001",
            dimensions=settings.embedding_dimensions or 768,
            base_url=settings.google_base_url,
            timeout_s=settings.embedding_timeout_s,
            batch_size=settings.embedding_batch_size,
            task_type=getattr(settings, "google_task_type", None),
            retry=RetryPolicy.from_settings(settings),
        )

    def _classify(self, exc: BaseException) -> Retry | None:
        from google.genai import errors

        if isinstance(exc, errors.APIError):
            headers = getattr(exc.response, "headers", None)
            return status_verdict(exc.code, headers)
        if isinstance(exc, self._transport_errors):
            return Retry()
        return None

    def _request(self, texts: list[str]) -> list[np.ndarray]:
        # Gemini rejects empty content; a lone space keeps the batch positions.
        inputs: list[Any] = [text if text else " " for text in texts]
        response = with_retries(
            lambda: self._client.models.embed_content(model=self.model, contents=inputs, config=self._config),
            self.retry,
            self._classify,
            what=f"Gemini embeddings ({self.model})",
        )
        rows = [item.values or [] for item in response.embeddings or []]
        return unit_vectors(
            rows, expected=len(texts), dimensions=self.dimensions, source=f"Gemini {self.model}"
        )

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        texts = check_texts(texts)
        out: list[np.ndarray] = []
        for chunk in batches(texts, self.batch_size):
            out.extend(self._request(list(chunk)))
        return out
