"""Gemini through ``google-genai`` with a response schema (JSON mode)."""

from __future__ import annotations

import json
from typing import Any

from shared.core.errors import ServiceUnavailable
from shared.core.settings import LLMProfile
from shared.providers.llm.base import LLMClient, LLMUsage


class GeminiChat(LLMClient):
    provider = "google"

    def __init__(
        self, client: Any, model: str, *, max_tokens: int | None = None, temperature: float = 0.0
    ) -> None:
        self.client = client  # keep a reference: a collected client closes its transport
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature

    @classmethod
    def from_profile(cls, profile: LLMProfile, timeout_s: float) -> GeminiChat:
        from google import genai
        from google.genai import types

        key = profile.api_key.get_secret_value() if profile.api_key else "not-set"
        # JSON-schema output is a v1beta feature; pin the version so a custom base URL gets it too.
        options = types.HttpOptions(
            base_url=profile.base_url, api_version="v1beta", timeout=int(timeout_s * 1000)
        )
        return cls(
            genai.Client(api_key=key, http_options=options),
            profile.model or "gemini-2.5-flash",
            max_tokens=profile.max_tokens,
            temperature=profile.temperature,
        )

    def complete_json(
        self,
        system: str,
        prompt: str,
        schema: dict[str, Any],
        *,
        name: str = "result",
        max_tokens: int | None = None,
    ) -> tuple[dict[str, Any], LLMUsage]:
        from google.genai import errors, types

        config = types.GenerateContentConfig(
            system_instruction=system,
            temperature=self.temperature,
            max_output_tokens=max_tokens or self.max_tokens,
            response_mime_type="application/json",
            response_json_schema=schema,
        )
        try:
            response = self.client.models.generate_content(model=self.model, contents=prompt, config=config)
        except errors.APIError as exc:
            raise ServiceUnavailable(
                f"LLM call failed: {exc.__class__.__name__}", code="llm_unavailable"
            ) from exc
        meta = response.usage_metadata
        usage = LLMUsage(
            getattr(meta, "prompt_token_count", 0) or 0, getattr(meta, "candidates_token_count", 0) or 0
        )
        return json.loads(response.text or "{}"), usage.metered()
