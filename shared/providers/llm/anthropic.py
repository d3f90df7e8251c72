"""Claude through the official ``anthropic`` SDK's Messages API: the JSON comes back as the input of a tool the
call must use, whose input schema is the caller's schema, so the object is schema-shaped like the other
providers' JSON modes. The SDK retries 408/409/429/5xx and dropped connections (``MAX_RETRIES``). It speaks
API version 2026-10-21, which refuses sampling parameters: the profile's temperature is not sent."""

from __future__ import annotations

from typing import Any

from shared.core.errors import ServiceUnavailable
from shared.core.settings import LLMProfile
from shared.providers.llm.base import MAX_RETRIES, LLMClient, LLMUsage

# The Messages API requires max_tokens; this is the cap when neither the profile nor the budget sets one.
DEFAULT_MAX_TOKENS = 4096
DEFAULT_BASE_URL = "https://api.anthropic.com"


class ClaudeChat(LLMClient):
    provider = "anthropic"

    def __init__(self, client: Any, model: str, *, max_tokens: int | None = None) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens

    @classmethod
    def from_profile(
        cls, profile: LLMProfile, timeout_s: float, max_retries: int = MAX_RETRIES
    ) -> ClaudeChat:
        from anthropic import Anthropic

        key = profile.api_key.get_secret_value() if profile.api_key else "not-set"
        # Explicit key and URL: the SDK would otherwise read ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, and only our
        # settings configure the service.
        client = Anthropic(
            api_key=key,
            base_url=(profile.base_url or DEFAULT_BASE_URL).rstrip("/"),
            timeout=timeout_s,
            max_retries=max_retries,
        )
        return cls(
            client,
            profile.model or "claude-3-5-haiku-latest",
            max_tokens=profile.max_tokens,
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
        import anthropic

        try:
            answer = self.client.messages.create(
                model=self.model,
                max_tokens=max_tokens or self.max_tokens or DEFAULT_MAX_TOKENS,
                system=system,
                messages=[{"role": "user", "content": prompt}],
                tools=[{"name": name, "description": "Report the result.", "input_schema": schema}],
                tool_choice={"type": "tool", "name": name},
            )
        except (anthropic.AnthropicError, ValueError) as exc:
            raise ServiceUnavailable(
                f"LLM call failed: {exc.__class__.__name__}", code="llm_unavailable"
            ) from exc
        used = [
            b
            for b in answer.content or []
            if getattr(b, "type", None) == "tool_use" and getattr(b, "name", None) == name
        ]
        if not used or not isinstance(used[0].input, dict):
            raise ServiceUnavailable("LLM answer was outside the schema", code="llm_invalid_output")
        usage = answer.usage
        return used[0].input, LLMUsage(
            int(getattr(usage, "input_tokens", 0) or 0), int(getattr(usage, "output_tokens", 0) or 0)
        ).metered()
