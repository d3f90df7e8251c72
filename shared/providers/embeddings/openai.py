"""OpenAI embeddings (``text-embedding-3-small`` by default) through the official SDK.

    >>> e = OpenAIEmbedder(api_key="sk-...", dimensions=512)   # doctest: +SKIP
    >>> e.embed(["login timeout"])[0].shape                    # doctest: +SKIP
    (512,)

``base_url`` points the SDK at any OpenAI-compatible server (a proxy, our own embedding container, a test
stub). Retries are ours (see ``http.with_retries``), so the SDK's are off.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shared.core import metering
from shared.core.errors import EmbeddingError

from .base import Embedder
from .http import Retry, RetryPolicy, batches, check_texts, status_verdict, unit_vectors, with_retries

# OpenAI accepts up to 2,048 inputs per request; our settings batch is normally far smaller.
MAX_INPUTS_PER_REQUEST = 2048
# Only the text-embedding-3 family accepts ``dimensions``; ada-002 rejects the parameter.
_FIXED_SIZE_MODELS = {"text-embedding-ada-002": 1536}


class OpenAIEmbedder(Embedder):
    def __init__(
        self,
        *,
        api_key: str | None,
        model: str = "text-embedding-3-small",
        dimensions: int = 1536,
        base_url: str | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 64,
        retry: RetryPolicy | None = None,
    ) -> None:
        import openai

        self.model = model
        self.dimensions = dimensions
        self.batch_size = min(max(1, batch_size), MAX_INPUTS_PER_REQUEST)
        self.retry = retry or RetryPolicy()
        try:
            # api_key None lets the SDK fall back to OPENAI_API_KEY.
            self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)
        except openai.OpenAIError as exc:
            raise EmbeddingError(f"OpenAI client not configured: {exc}") from exc

    @classmethod
    def from_settings(cls, settings: Any) -> OpenAIEmbedder:
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return cls(
            api_key=key,
            model=settings.embedding_model or "text-embedding-3-small",
            dimensions=settings.embedding_dimensions or 1536,
            base_url=settings.openai_base_url,
            timeout_s=settings.embedding_timeout_s,
            batch_size=settings.embedding_batch_size,
            retry=RetryPolicy.from_settings(settings),
        )

    def _classify(self, exc: BaseException) -> Retry | None:
        import openai

        if isinstance(exc, openai.APIConnectionError):  # includes timeouts
            return Retry()
        if isinstance(exc, openai.APIStatusError):
            return status_verdict(exc.status_code, exc.response.headers)
        return None

    def _request(self, texts: list[str]) -> list[np.ndarray]:
        extra: dict[str, Any] = {}
        if self.model not in _FIXED_SIZE_MODELS:
            extra["dimensions"] = self.dimensions
        # The API rejects empty strings with a 400; a lone space embeds "nothing" and keeps batch positions.
        inputs = [text if text else " " for text in texts]
        response = with_retries(
            lambda: self._client.embeddings.create(model=self.model, input=inputs, **extra),
            self.retry,
            self._classify,
            what=f"OpenAI embeddings ({self.model})",
        )
        used = getattr(
            response, "usage", None
        )  # the tokens billed, as OpenAI reports them (its tenant's usage)
        metering.count(embedding_tokens=int(getattr(used, "prompt_tokens", 0) or 0))
        rows = sorted(response.data, key=lambda item: item.index)
        return unit_vectors(
            [row.embedding for row in rows],
            expected=len(texts),
            dimensions=self.dimensions,
            source=f"OpenAI model {self.model}",
        )

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        texts = check_texts(texts)
        out: list[np.ndarray] = []
        for chunk in batches(texts, self.batch_size):
            out.extend(self._request(list(chunk)))
        return out
