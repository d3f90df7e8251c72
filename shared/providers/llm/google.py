"""Gemini through ``google-genai`` with a response schema (JSON mode)."""

from __future__ import annotations

import json
from typing import Any

from shared.errors import ServiceUnavailable
from shared.llm.base import LLMClient, LLMUsage
from shared.settings import Settings


class GeminiChat(LLMClient):
    provider = "google"

    def __init__(self, client: Any, model: str) -> None:
        self.client = client  # keep a reference: a collected client closes its transport
        self.model = model

    @classmethod
    def from_settings(cls, settings: Settings) -> GeminiChat:
        from google import genai
        from google.genai import types

        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-set"
        # JSON-schema output is a v1beta feature; pin the version so a custom base URL gets it too.
        options = types.HttpOptions(
            base_url=settings.llm_base_url, api_version="v1beta", timeout=int(settings.llm_timeout_s * 1000)
        )
        return cls(genai.Client(api_key=key, http_options=options), settings.llm_model or "gemini-2.5-flash")

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], *, name: str = "result"
    ) -> tuple[dict[str, Any], LLMUsage]:
        from google.genai import errors, types

        config = types.GenerateContentConfig(
            system_instruction=system,
            temperature=0,
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
        return json.loads(response.text or "{}"), usage
