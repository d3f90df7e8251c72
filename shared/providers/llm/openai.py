"""OpenAI-compatible chat completions (``openai`` SDK; any base URL) with a strict JSON schema."""

from __future__ import annotations

import json
from typing import Any

from shared.core.errors import ServiceUnavailable
from shared.core.settings import LLMProfile
from shared.providers.llm.base import MAX_RETRIES, LLMClient, LLMUsage


class OpenAIChat(LLMClient):
    provider = "openai"

    def __init__(
        self, client: Any, model: str, *, max_tokens: int | None = None, temperature: float = 0.0
    ) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature

    @classmethod
    def from_profile(
        cls, profile: LLMProfile, timeout_s: float, max_retries: int = MAX_RETRIES
    ) -> OpenAIChat:
        from openai import OpenAI

        key = profile.api_key.get_secret_value() if profile.api_key else "not-set"
        client = OpenAI(api_key=key, base_url=profile.base_url, timeout=timeout_s, max_retries=max_retries)
        return cls(
            client,
            profile.model or "gpt-4o-mini",
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
        import openai

        cap = max_tokens or self.max_tokens
        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt}],
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True},
                },
                temperature=self.temperature,
                **({"max_completion_tokens": cap} if cap else {}),
            )
        except openai.OpenAIError as exc:
            raise ServiceUnavailable(
                f"LLM call failed: {exc.__class__.__name__}", code="llm_unavailable"
            ) from exc
        text = response.choices[0].message.content or "{}"
        usage = response.usage
        return json.loads(text), LLMUsage(
            usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0
        ).metered()
