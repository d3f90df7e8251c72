"""OpenAI-compatible chat completions (``openai`` SDK; any base URL) with a strict JSON schema."""

from __future__ import annotations

import json
from typing import Any

from shared.errors import ServiceUnavailable
from shared.llm.base import LLMClient, LLMUsage
from shared.settings import Settings


class OpenAIChat(LLMClient):
    provider = "openai"

    def __init__(self, client: Any, model: str) -> None:
        self.client = client
        self.model = model

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIChat:
        from openai import OpenAI

        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-set"
        client = OpenAI(
            api_key=key, base_url=settings.llm_base_url, timeout=settings.llm_timeout_s, max_retries=2
        )
        return cls(client, settings.llm_model or "gpt-4o-mini")

    def complete_json(
        self, system: str, prompt: str, schema: dict[str, Any], *, name: str = "result"
    ) -> tuple[dict[str, Any], LLMUsage]:
        import openai

        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt}],
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True},
                },
                temperature=0,
            )
        except openai.OpenAIError as exc:
            raise ServiceUnavailable(
                f"LLM call failed: {exc.__class__.__name__}", code="llm_unavailable"
            ) from exc
        text = response.choices[0].message.content or "{}"
        usage = response.usage
        return json.loads(text), LLMUsage(
            usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0
        )
